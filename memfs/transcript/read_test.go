package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// The fixtures in testdata/transcripts are §6's example lines (plus the
// calls §6.2 leaves out and §6's hand-made edge lines). Their paths name
// /home/dev/.claude; tlogWorld copies them into a temp config dir with
// that prefix replaced, so the memdir is real and writable by the test.

const (
	fxSlug = "-home-dev-acme-api"
	fxS1   = "5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90"
	fxS2   = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
)

type tlogWorld struct {
	t     *testing.T
	home  string
	tdir  string // <home>/.claude/projects/<slug>
	mem   string // tdir/memory
	cache string
}

func newTlogWorld(t *testing.T) *tlogWorld {
	t.Helper()
	home := t.TempDir()
	w := &tlogWorld{t: t, home: home, tdir: filepath.Join(home, ".claude", "projects", fxSlug), cache: filepath.Join(home, "cache")}
	w.mem = testfs.Mkdir(t, filepath.Join(w.tdir, "memory"))
	return w
}

// copyFixtures copies testdata/transcripts into the world's transcript dir.
func (w *tlogWorld) copyFixtures() {
	w.t.Helper()
	src := filepath.Join("testdata", "transcripts")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b = bytes.ReplaceAll(b, []byte("/home/dev/.claude"), []byte(filepath.Join(w.home, ".claude")))
		testfs.Write(w.t, filepath.Join(w.tdir, rel), string(b))
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *tlogWorld) project() *model.Project {
	return &model.Project{TranscriptDir: w.tdir, Dirs: []*model.MemoryDir{{Path: w.mem, Kind: model.DirAuto}}}
}

func (w *tlogWorld) opts() Options {
	return Options{Home: w.home, CacheDir: w.cache}
}

func (w *tlogWorld) read(opts Options) *model.TranscriptLog {
	w.t.Helper()
	l, err := Read(context.Background(), w.project(), opts)
	if err != nil {
		w.t.Fatal(err)
	}
	return l
}

// file writes a transcript under the transcript dir.
func (w *tlogWorld) file(rel string, lines ...string) string {
	w.t.Helper()
	return testfs.Write(w.t, filepath.Join(w.tdir, rel), strings.Join(lines, "\n")+"\n")
}

func (w *tlogWorld) memPath(name string) string { return filepath.Join(w.mem, name) }

// lineBuilder makes transcript lines of one session (§1.3 envelope).
type lineBuilder struct {
	sess, cwd, agent string
	ts               time.Time
	n                int
}

func newLines(sess, cwd string, start time.Time) *lineBuilder {
	return &lineBuilder{sess: sess, cwd: cwd, ts: start}
}

func jsonOf(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (b *lineBuilder) stamp() string { return b.ts.Format("2006-01-02T15:04:05.000Z") }

func (b *lineBuilder) env() string {
	b.ts = b.ts.Add(time.Second)
	b.n++
	agent, side := "", "false"
	if b.agent != "" {
		agent, side = `"agentId":"`+b.agent+`",`, "true"
	}
	return `"isSidechain":` + side + `,` + agent + `"uuid":"` + uuidN(b.sess, b.n) + `","timestamp":"` + b.stamp() +
		`","userType":"external","cwd":` + jsonOf(b.cwd) + `,"sessionId":"` + b.sess + `","version":"2.1.226","gitBranch":"main"`
}

// uuidN is a line uuid unique per session and line.
func uuidN(sess string, n int) string {
	return sess[:24] + strings.Repeat("0", 12-len(itoa(n))) + itoa(n)
}

func itoa(n int) string { return strconv.Itoa(n) }

func (b *lineBuilder) call(id, name string, input any) string {
	return `{"parentUuid":null,"message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"` + name +
		`","input":` + jsonOf(input) + `}]},"type":"assistant",` + b.env() + `}`
}

// result is a tool_result line; tur is the toolUseResult (nil: none, as
// for subagents).
func (b *lineBuilder) result(id, text string, isErr bool, tur any) string {
	blk := map[string]any{"tool_use_id": id, "type": "tool_result", "content": text}
	if isErr {
		blk["is_error"] = true
	}
	s := `{"parentUuid":null,"type":"user","message":{"role":"user","content":[` + jsonOf(blk) + `]},` + b.env()
	if tur != nil {
		s += `,"toolUseResult":` + jsonOf(tur)
	}
	return s + `}`
}

func (b *lineBuilder) prompt(text string) string {
	return `{"parentUuid":null,"type":"user","message":{"role":"user","content":` + jsonOf(text) + `},` + b.env() + `}`
}

func writeTUR(path, content string, original *string) map[string]any {
	typ := "update"
	if original == nil {
		typ = "create"
	}
	return map[string]any{"type": typ, "filePath": path, "content": content, "structuredPatch": []any{}, "originalFile": original}
}

func strp(s string) *string { return &s }

func writesTo(l *model.TranscriptLog, path string) []model.MemWrite {
	var out []model.MemWrite
	for _, w := range l.Writes {
		if w.Path == path {
			out = append(out, w)
		}
	}
	return out
}

func obsOf(l *model.TranscriptLog, kind model.ObsKind) []model.MemObservation {
	var out []model.MemObservation
	for _, o := range l.Observations {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestTranscriptFixtures reads §6's lines and checks every event they
// hold, and that nothing else is taken from them.
func TestTranscriptFixtures(t *testing.T) {
	w := newTlogWorld(t)
	w.copyFixtures()
	l := w.read(Options{Home: w.home})
	if len(l.Problems) != 0 {
		t.Errorf("problems: %q", l.Problems)
	}
	s1 := filepath.Join(w.tdir, fxS1+".jsonl")
	s2 := filepath.Join(w.tdir, fxS2+".jsonl")
	sub := filepath.Join(w.tdir, fxS2, "subagents", "agent-a3f9c2e1b4d5a6f70.jsonl")
	deploy, index, staging := w.memPath("feedback_deploy_command.md"), w.memPath("MEMORY.md"), w.memPath("reference_staging.md")

	t.Run("write of a new memory, stamped", func(t *testing.T) {
		ws := writesTo(l, deploy)
		var got *model.MemWrite
		for i := range ws {
			if ws[i].Kind == model.WriteFull {
				got = &ws[i]
			}
		}
		if got == nil {
			t.Fatalf("no Write of %s in %+v", deploy, ws)
		}
		// toolUseResult wins over the input: the applied text is stamped.
		if !got.HasAfter || !strings.Contains(got.After, "originSessionId: "+fxS1) || !got.Created || !got.HasBefore || got.Before != "" {
			t.Errorf("Write = %+v", got)
		}
		if got.Session != fxS1 || got.Agent != "" || got.Transcript != s1 || got.Line != 8 || got.ToolUseID != "toolu_01WriteMemAAAAAAAAAAAAAAA" ||
			!got.Time.Equal(mustTime(t, "2026-08-03T09:14:09.561Z")) || got.Cwd != "/home/dev/acme-api" || got.Branch != "main" || got.Version != "2.1.226" {
			t.Errorf("provenance = %+v", got)
		}
	})
	t.Run("edit of MEMORY.md after a torn line", func(t *testing.T) {
		var edits []model.MemWrite
		for _, w := range writesTo(l, index) {
			if w.Kind == model.WriteEdit {
				edits = append(edits, w)
			}
		}
		if len(edits) != 2 {
			t.Fatalf("edits of MEMORY.md = %+v, want the main thread's and the subagent's", edits)
		}
		e := edits[0]
		if e.Line != 11 || !e.HasBefore || e.Before != "# Memory\n\n- [Staging URL](reference_staging.md) — staging lives on acme-stg\n" ||
			len(e.Edits) != 1 || !strings.HasSuffix(e.Edits[0].New, "make ship, not npm run deploy") || e.Edits[0].All {
			t.Errorf("main Edit = %+v", e)
		}
		s := edits[1]
		if s.Session != fxS2 || s.Agent != "a3f9c2e1b4d5a6f70" || s.Transcript != sub || s.Line != 3 || s.HasBefore ||
			len(s.Edits) != 1 || s.Edits[0].Old != "(reference_stagin.md)" || s.Edits[0].New != "(reference_staging.md)" {
			t.Errorf("subagent Edit (content from the input) = %+v", s)
		}
	})
	t.Run("failed write and progress lines are not writes", func(t *testing.T) {
		for _, w := range l.Writes {
			if w.ToolUseID == "toolu_01WriteMemEEEEEEEEEEEEEEE" || w.ToolUseID == "toolu_01NestedDupGGGGGGGGGGGGG" {
				t.Errorf("recorded %+v", w)
			}
		}
		if ws := writesTo(l, w.memPath("user_role.md")); len(ws) != 0 {
			t.Errorf("a progress line's nested Write counted: %+v", ws)
		}
	})
	t.Run("fork writes", func(t *testing.T) {
		fr := writesTo(l, w.memPath("project_release_freeze.md"))
		if len(fr) != 1 || fr[0].Kind != model.WriteFork || fr[0].Verb != "" || fr[0].Session != "7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e" || fr[0].HasAfter {
			t.Errorf("extraction fork = %+v", fr)
		}
		n := 0
		for _, w := range l.Writes {
			if w.Kind == model.WriteFork && w.Verb == "Improved" {
				n++
				if w.Path != deploy && w.Path != index {
					t.Errorf("autoDream wrote %s", w.Path)
				}
			}
		}
		if n != 2 {
			t.Errorf("%d autoDream writes, want 2", n)
		}
	})
	if len(l.Writes) != 6 {
		t.Errorf("%d writes, want 6 (Write, 2 Edits, 3 fork paths): %+v", len(l.Writes), l.Writes)
	}

	t.Run("reads", func(t *testing.T) {
		reads := obsOf(l, model.ObsRead)
		if len(reads) != 3 {
			t.Fatalf("reads = %+v", reads)
		}
		full, part, subRead := reads[0], reads[1], reads[2]
		if full.Path != staging || !full.Full || !strings.HasSuffix(full.Content, "Staging lives on acme-stg (VPN required).\n") ||
			full.ID != "toolu_01ReadMemCCCCCCCCCCCCCCCC" || full.Session != fxS2 || full.Line != 2 || full.Transcript != s2 {
			t.Errorf("full read = %+v", full)
		}
		if part.Full || part.Content != "Staging lives on acme-stg (VPN required).\n" {
			t.Errorf("ranged read = %+v", part)
		}
		want := "# Memory\n\n- [Staging URL](reference_staging.md) — staging lives on acme-stg\n"
		if subRead.Path != index || subRead.Content != want || !subRead.Full || subRead.Agent != "a3f9c2e1b4d5a6f70" {
			t.Errorf("subagent read = %+v, want content %q", subRead, want)
		}
		un := obsOf(l, model.ObsUnchanged)
		if len(un) != 1 || un[0].Path != staging || un[0].Content != "" || un[0].Line != 4 {
			t.Errorf("unchanged = %+v", un)
		}
	})
	t.Run("recall, index load, external change", func(t *testing.T) {
		rc := obsOf(l, model.ObsRecall)
		if len(rc) != 1 || rc[0].Path != deploy || rc[0].Full || !strings.Contains(rc[0].Content, "make ship") {
			t.Errorf("recalls = %+v (the <synthesis:> entry must be skipped)", rc)
		}
		il := obsOf(l, model.ObsIndexLoad)
		if len(il) != 1 || il[0].Path != index || !il[0].Full || !strings.HasPrefix(il[0].Content, "# Memory") {
			t.Errorf("index loads = %+v (CLAUDE.md is not AutoMem)", il)
		}
		ch := obsOf(l, model.ObsChanged)
		want := "- [Staging URL](reference_staging.md) — staging lives on acme-stg\n- [Release freeze](project_release_freeze.md) — no deploys Fri after 14:00"
		if len(ch) != 1 || ch[0].Path != index || ch[0].Content != want || ch[0].Full {
			t.Errorf("changed = %+v", ch)
		}
	})
	t.Run("wrote", func(t *testing.T) {
		wr := obsOf(l, model.ObsWrote)
		if len(wr) != 3 {
			t.Fatalf("wrote = %+v", wr)
		}
		if wr[0].Path != deploy || !wr[0].Full || !strings.Contains(wr[0].Content, "Deploy with `make ship`") {
			t.Errorf("Write seen = %+v", wr[0])
		}
		if wr[1].Full || !strings.HasSuffix(wr[1].Content, "not npm run deploy") || wr[2].Content != "(reference_staging.md)" {
			t.Errorf("Edits seen = %+v", wr[1:])
		}
	})
	t.Run("sessions", func(t *testing.T) {
		if len(l.Sessions) != 6 {
			t.Errorf("%d sessions: %v", len(l.Sessions), keys(l.Sessions))
		}
		s := l.Sessions[fxS1]
		if s == nil || s.Title != "deploy via make ship" || s.Transcript != s1 || s.Cwd != "/home/dev/acme-api" || s.Branch != "main" ||
			s.Version != "2.1.226" || !s.Start.Equal(mustTime(t, "2026-08-03T09:14:02.118Z")) ||
			!s.End.Equal(mustTime(t, "2026-08-05T10:03:30.118Z")) || s.ModTime.IsZero() {
			t.Errorf("session 1 = %+v", s)
		}
		s2s := l.Sessions[fxS2]
		if s2s == nil || !s2s.End.Equal(mustTime(t, "2026-08-04T15:20:05.300Z")) || s2s.Title != "" {
			t.Errorf("session 2 (its subagent ends it) = %+v", s2s)
		}
		if !l.Oldest.Equal(mustTime(t, "2026-02-20T11:00:00Z")) {
			t.Errorf("Oldest = %v (the progress line's timestamp)", l.Oldest)
		}
	})
	if l.Files != 7 {
		t.Errorf("Files = %d, want 7 (agent-acompact is skipped)", l.Files)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestTitles: a custom title beats an AI title beats a summary; the last of
// each kind wins.
func TestTitles(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC))
	w.file(uuid1+".jsonl", b.prompt("hi"), `{"type":"summary","summary":"old","leafUuid":"x"}`, `{"type":"ai-title","aiTitle":"ai 1","sessionId":"`+uuid1+`"}`,
		`{"type":"ai-title","aiTitle":"ai 2","sessionId":"`+uuid1+`"}`)
	w.file(uuid2+".jsonl", b.prompt("hi"), `{"type":"summary","summary":"sum","leafUuid":"x"}`)
	w.file(uuid3+".jsonl", b.prompt("hi"), `{"sessionId":"`+uuid3+`","customTitle":"key order moved","type":"custom-title"}`)
	l := w.read(w.opts())
	for id, want := range map[string]string{uuid1: "ai 2", uuid2: "sum", uuid3: "key order moved"} {
		if s := l.Sessions[id]; s == nil || s.Title != want {
			t.Errorf("title of %s = %+v, want %q", id, s, want)
		}
	}
}

// TestLostUpdateWrites: session A writes a fact; session B, holding a stale
// copy, writes the whole file back without it. Both writes are recorded
// with what each replaced and wrote, so the loss can be seen.
func TestLostUpdateWrites(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("project_notes.md")
	v0, v1, stale := "notes\n", "notes\n- fact A\n", "notes\n- fact B\n"
	a := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	b := newLines(uuid2, "/p", time.Date(2026, 8, 1, 11, 0, 0, 0, time.UTC))
	w.file(uuid1+".jsonl", a.prompt("note fact A"),
		a.call("toolu_A", "Write", map[string]any{"file_path": p, "content": v1}),
		a.result("toolu_A", "The file "+p+" has been updated successfully.", false, writeTUR(p, v1, strp(v0))))
	w.file(uuid2+".jsonl", b.prompt("note fact B"),
		b.call("toolu_B", "Write", map[string]any{"file_path": p, "content": stale}),
		b.result("toolu_B", "The file "+p+" has been updated successfully.", false, writeTUR(p, stale, strp(v1))))
	l := w.read(w.opts())
	ws := writesTo(l, p)
	if len(ws) != 2 {
		t.Fatalf("writes = %+v", ws)
	}
	if ws[0].Session != uuid1 || ws[0].Before != v0 || ws[0].After != v1 || ws[0].Created {
		t.Errorf("first write = %+v", ws[0])
	}
	if ws[1].Session != uuid2 || !ws[1].HasBefore || ws[1].Before != v1 || ws[1].After != stale || !ws[1].Time.After(ws[0].Time) {
		t.Errorf("stale write = %+v", ws[1])
	}
}

// TestEditOriginalFile: originalFile present gives Before, null gives none;
// the edit itself comes from toolUseResult (what was applied), not from
// the input the person changed in the dialog.
func TestEditOriginalFile(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("MEMORY.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	tur := func(orig *string, userNew string) map[string]any {
		return map[string]any{"filePath": p, "oldString": "a", "newString": userNew, "originalFile": orig, "replaceAll": true, "userModified": true}
	}
	w.file(uuid1+".jsonl",
		b.call("toolu_E1", "Edit", map[string]any{"file_path": p, "old_string": "a", "new_string": "model's b"}),
		b.result("toolu_E1", "The file "+p+" has been updated successfully.", false, tur(strp("a\n"), "person's b")),
		b.call("toolu_E2", "Edit", map[string]any{"file_path": p, "old_string": "a", "new_string": "c", "replace_all": "true"}),
		b.result("toolu_E2", "The file "+p+" has been updated successfully.", false, tur(nil, "c")))
	l := w.read(w.opts())
	ws := writesTo(l, p)
	if len(ws) != 2 {
		t.Fatalf("writes = %+v", ws)
	}
	if !ws[0].HasBefore || ws[0].Before != "a\n" || ws[0].Edits[0] != (model.TextEdit{Old: "a", New: "person's b", All: true}) || !ws[0].UserModified {
		t.Errorf("edit with originalFile = %+v", ws[0])
	}
	if ws[1].HasBefore || ws[1].Before != "" || ws[1].Edits[0].New != "c" {
		t.Errorf("edit with originalFile null = %+v", ws[1])
	}
}

// TestStoreAndMultiEdit: a memory-store write (any tool with store, path
// and content; a relative path lands in the auto memdir) and the legacy
// MultiEdit, with and without its toolUseResult.
func TestStoreAndMultiEdit(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	idx := w.memPath("MEMORY.md")
	edits := []map[string]any{{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d", "replace_all": true}}
	w.file(uuid1+".jsonl",
		b.call("toolu_st", "memory_store_write", map[string]any{"store": "personal", "path": "notes/a.md", "content": "stored\n", "if_version": 3}),
		b.result("toolu_st", "Saved notes/a.md (version 4)", false, map[string]any{"version": 4}),
		b.call("toolu_remote", "memory_store_write", map[string]any{"store": "team", "path": "/elsewhere/b.md", "content": "x"}),
		b.result("toolu_remote", "Saved", false, map[string]any{"version": 1}),
		b.call("toolu_m1", "MultiEdit", map[string]any{"file_path": idx, "edits": edits}),
		b.result("toolu_m1", "Applied 2 edits to "+idx, false, map[string]any{"filePath": idx, "edits": edits, "originalFileContents": "a c c\n"}),
		b.call("toolu_m2", "MultiEdit", map[string]any{"file_path": idx, "edits": edits[:1]}),
		b.result("toolu_m2", "Applied 1 edit to "+idx, false, nil))
	l := w.read(w.opts())
	if len(l.Writes) != 3 {
		t.Fatalf("writes = %+v", l.Writes)
	}
	st, m1, m2 := l.Writes[0], l.Writes[1], l.Writes[2]
	if st.Kind != model.WriteStore || st.Path != filepath.Join(w.mem, "notes", "a.md") || !st.HasAfter || st.After != "stored\n" {
		t.Errorf("store write = %+v", st)
	}
	wantEdits := []model.TextEdit{{Old: "a", New: "b"}, {Old: "c", New: "d", All: true}}
	if m1.Kind != model.WriteMulti || !m1.HasBefore || m1.Before != "a c c\n" || len(m1.Edits) != 2 || m1.Edits[0] != wantEdits[0] || m1.Edits[1] != wantEdits[1] {
		t.Errorf("MultiEdit = %+v", m1)
	}
	if m2.HasBefore || len(m2.Edits) != 1 || m2.Edits[0] != wantEdits[0] {
		t.Errorf("MultiEdit from its input = %+v", m2)
	}
	if wr := obsOf(l, model.ObsWrote); len(wr) != 3 || wr[1].Content != "b\nd" || wr[1].Full {
		t.Errorf("wrote = %+v", wr)
	}
}

// TestUnpairedAndFailedCalls: a call with no result (aborted) and one whose
// result is an error changed nothing.
func TestUnpairedAndFailedCalls(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	w.file(uuid1+".jsonl",
		b.call("toolu_aborted", "Write", map[string]any{"file_path": p, "content": "never written"}),
		b.prompt("[Request interrupted by user]"),
		b.call("toolu_rejected", "Edit", map[string]any{"file_path": p, "old_string": "a", "new_string": "b"}),
		b.result("toolu_rejected", "The user doesn't want to proceed with this tool use.", true, "User rejected tool use"),
		b.call("toolu_errstr", "Write", map[string]any{"file_path": p, "content": "x"}),
		b.result("toolu_errstr", "File has not been read yet.", false, "Error: File has not been read yet."),
		b.call("toolu_read", "Read", map[string]any{"file_path": p}))
	l := w.read(w.opts())
	if len(l.Writes) != 0 || len(l.Observations) != 0 {
		t.Errorf("writes %+v, observations %+v", l.Writes, l.Observations)
	}
}

// TestPartialLastLine: a final line without '\n' is a live session's write
// in progress: not consumed, and picked up once it is complete.
func TestPartialLastLine(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	res := b.result("toolu_W", "File created successfully at: "+p, false, writeTUR(p, "body\n", nil))
	half := len(res) / 2
	path := filepath.Join(w.tdir, uuid1+".jsonl")
	head := b.prompt("go") + "\n" + b.call("toolu_W", "Write", map[string]any{"file_path": p, "content": "body\n"}) + "\n"
	testfs.Write(t, path, head+res[:half])
	l := w.read(w.opts())
	if len(l.Writes) != 0 {
		t.Fatalf("a half-written line was used: %+v", l.Writes)
	}
	appendTo(t, path, res[half:]) // complete, still no '\n'
	if l = w.read(w.opts()); len(l.Writes) != 0 {
		t.Fatalf("a line without its newline was used: %+v", l.Writes)
	}
	appendTo(t, path, "\n")
	l = w.read(w.opts())
	if len(l.Writes) != 1 || l.Writes[0].After != "body\n" || l.Writes[0].Line != 3 {
		t.Fatalf("after completion: %+v", l.Writes)
	}
	// Only the unconsumed end and the tail check were read, not the file.
	if max := int64(len(res)+1) + tailHashLen; l.Read > max || l.Read < int64(len(res)) {
		t.Errorf("Read = %d, want the last line (%d) plus the tail check", l.Read, len(res)+1)
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestLongLinesAndSeparators: a 1 MB line, a raw U+2028 inside a string
// (not a line break), CRLF, blank lines and a torn line all leave the
// neighbouring lines readable and the line numbers right.
func TestLongLinesAndSeparators(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("MEMORY.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	big := strings.Repeat("- an index line that is long enough\n", maxMemText/36) // the most text kept
	sep := "before\u2028after\u2029end\n"
	lines := []string{
		b.call("toolu_big", "Edit", map[string]any{"file_path": p, "old_string": "x", "new_string": "y"}),
		b.result("toolu_big", "The file "+p+" has been updated successfully.", false,
			map[string]any{"filePath": p, "oldString": "x", "newString": "y", "originalFile": big}),
		"",
		`{"parentUuid":"x","isSidechain":fal`,
		b.call("toolu_sep", "Write", map[string]any{"file_path": p, "content": sep}) + "\r",
		b.result("toolu_sep", "The file "+p+" has been updated successfully.", false, writeTUR(p, sep, strp(big))),
	}
	for i, l := range lines {
		// JSON.stringify leaves U+2028/2029 raw; Go's encoder escapes them.
		lines[i] = strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(l)
	}
	if !strings.Contains(lines[4], "\u2028") {
		t.Fatal("fixture lost its raw U+2028")
	}
	w.file(uuid1+".jsonl", lines...)
	l := w.read(w.opts())
	ws := writesTo(l, p)
	if len(ws) != 2 {
		t.Fatalf("writes = %d", len(ws))
	}
	if ws[0].Before != big || ws[0].Line != 2 {
		t.Errorf("1 MB edit: Before %d bytes, line %d", len(ws[0].Before), ws[0].Line)
	}
	if ws[1].After != sep || ws[1].Line != 6 {
		t.Errorf("U+2028 write: After %q, line %d", ws[1].After, ws[1].Line)
	}
}

// TestLineOverCap: a line over the cap is skipped with a problem, and the
// line after it is still read (and numbered) correctly.
func TestLineOverCap(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	huge := b.result("toolu_other", strings.Repeat("y", tlogChunk+tlogChunk/2), false, nil)
	w.file(uuid1+".jsonl", b.prompt("go"), huge,
		b.call("toolu_W", "Write", map[string]any{"file_path": p, "content": "ok"}),
		b.result("toolu_W", "File created successfully at: "+p, false, writeTUR(p, "ok", nil)))
	opts := w.opts()
	opts.maxLine = tlogChunk // no growth: the line is over the cap
	l := w.read(opts)
	if len(l.Problems) != 1 || !strings.Contains(l.Problems[0].String(), "line 2 ") {
		t.Errorf("problems = %q", l.Problems)
	}
	if len(l.Writes) != 1 || l.Writes[0].Line != 4 {
		t.Errorf("writes after the skipped line = %+v", l.Writes)
	}
}

// TestForkDuplicates: a forked session repeats its parent's lines with the
// same ids; each write is recorded once, from the earliest copy.
func TestForkDuplicates(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	t0 := time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC)
	parent := newLines(uuid1, "/p", t0)
	fork := newLines(uuid2, "/p", t0.Add(time.Hour)) // re-written later, under its own id
	call := map[string]any{"file_path": p, "content": "v"}
	w.file(uuid1+".jsonl", parent.call("toolu_same", "Write", call), parent.result("toolu_same", "File created successfully at: "+p, false, writeTUR(p, "v", nil)))
	w.file(uuid2+".jsonl", fork.call("toolu_same", "Write", call), fork.result("toolu_same", "File created successfully at: "+p, false, writeTUR(p, "v", nil)),
		fork.call("toolu_new", "Edit", map[string]any{"file_path": p, "old_string": "v", "new_string": "w"}),
		fork.result("toolu_new", "The file "+p+" has been updated successfully.", false, nil))
	l := w.read(w.opts())
	ws := writesTo(l, p)
	if len(ws) != 2 || ws[0].ToolUseID != "toolu_same" || ws[0].Session != uuid1 || ws[1].ToolUseID != "toolu_new" || ws[1].Session != uuid2 {
		t.Errorf("writes = %+v", ws)
	}
	// The copy is remembered: the fork may have made the write as well.
	if len(ws) > 0 && (len(ws[0].AlsoIn) != 1 || ws[0].AlsoIn[0] != uuid2 || !ws[0].SessionIs(uuid2)) {
		t.Errorf("the fork's copy is not kept: AlsoIn %v", ws[0].AlsoIn)
	}
	if n := len(obsOf(l, model.ObsWrote)); n != 2 {
		t.Errorf("%d wrote observations, want 2", n)
	}
}

// TestPathForms: "~", relative paths (against the line's cwd) and Windows
// separators land on the memory file; a path outside does not.
func TestPathForms(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, w.tdir, time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC)) // a session run in the slug dir
	tilde := "~/.claude/projects/" + fxSlug + "/memory/tilde.md"
	var lines []string
	for i, fp := range []string{tilde, "memory/rel.md", "./memory/dot.md", "memory/../memory/up.md", "../" + fxSlug + "/memory/back.md", "other/memory/no.md", "memory/notes.txt"} {
		id := "toolu_" + itoa(i)
		lines = append(lines, b.call(id, "Write", map[string]any{"file_path": fp, "content": "c"}),
			b.result(id, "File created successfully at: "+fp, false, writeTUR(fp, "c", nil)))
	}
	w.file(uuid1+".jsonl", lines...)
	l := w.read(w.opts())
	var got []string
	for _, wr := range l.Writes {
		got = append(got, filepath.Base(wr.Path))
		if filepath.Dir(wr.Path) != w.mem {
			t.Errorf("write to %s, outside %s", wr.Path, w.mem)
		}
	}
	if strings.Join(got, " ") != "tilde.md rel.md dot.md up.md back.md" {
		t.Errorf("writes to %v", got)
	}
	m := newMemMatcher([]string{`C:\Users\dev\.claude\projects\x\memory`}, "")
	if p, ok := m.path(`C:\Users\dev\.claude\projects\x\memory\a.md`, ""); !ok || filepath.ToSlash(p) != "C:/Users/dev/.claude/projects/x/memory/a.md" {
		t.Errorf("Windows path = %q, %v", p, ok)
	}
}

// TestShellWrites: a Bash command that writes a memory file is a shell
// write (content unknown); one that only reads it is not.
func TestShellWrites(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, w.tdir, time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	abs := w.memPath("abs.md")
	cmds := []string{
		"echo '- new fact' >> memory/x.md",
		"cat memory/y.md | grep fact",
		"sed -i 's/old/new/' " + abs,
		"sed -n '1,5p' " + abs,
		"rm memory/gone.md && ls",
		"python3 - <<'EOF'\nopen('memory/py.md', 'w').write('x')\nEOF",
		"cat memory/a.md > /tmp/copy.md",
	}
	var lines []string
	for i, c := range cmds {
		id := "toolu_" + itoa(i)
		lines = append(lines, b.call(id, "Bash", map[string]any{"command": c}),
			b.result(id, "", false, map[string]any{"stdout": "", "stderr": "", "interrupted": false}))
	}
	lines = append(lines, b.call("toolu_fail", "Bash", map[string]any{"command": "echo x > memory/fail.md"}),
		b.result("toolu_fail", "permission denied", true, nil))
	w.file(uuid1+".jsonl", lines...)
	l := w.read(w.opts())
	var got []string
	for _, wr := range l.Writes {
		if wr.Kind != model.WriteShell || wr.Command == "" {
			t.Errorf("write = %+v", wr)
		}
		got = append(got, filepath.Base(wr.Path))
	}
	if strings.Join(got, " ") != "x.md abs.md gone.md py.md" {
		t.Errorf("shell writes to %v", got)
	}
}

// TestBashEditDiff: a Bash result's bashEditDiff adds the files a command
// changed without naming them (here through a script).
func TestBashEditDiff(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	x, y := w.memPath("x.md"), w.memPath("y.md")
	w.file(uuid1+".jsonl", b.call("toolu_sh", "Bash", map[string]any{"command": "sed -i s/a/b/ " + x + " && ./tidy.sh"}),
		b.result("toolu_sh", "", false, map[string]any{"stdout": "", "bashEditDiff": map[string]any{"files": []any{
			map[string]any{"filePath": x, "hunks": []any{}}, map[string]any{"filePath": y}, map[string]any{"filePath": "/p/notes.md"}}}}))
	l := w.read(w.opts())
	if len(l.Writes) != 2 || l.Writes[0].Path != x || l.Writes[1].Path != y || l.Writes[1].Kind != model.WriteShell || l.Writes[1].Command == "" {
		t.Errorf("writes = %+v", l.Writes)
	}
}

// TestBashEditDiffCreatedDeleted: a bashEditDiff entry's created and
// deleted flags say what the command did to each file, whatever its words.
func TestBashEditDiffCreatedDeleted(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	x, y, z := w.memPath("x.md"), w.memPath("y.md"), w.memPath("z.md")
	w.file(uuid1+".jsonl", b.call("toolu_sh", "Bash", map[string]any{"command": "./tidy.sh"}),
		b.result("toolu_sh", "", false, map[string]any{"stdout": "", "bashEditDiff": map[string]any{"files": []any{
			map[string]any{"filePath": x, "created": true}, map[string]any{"filePath": y, "deleted": true}, map[string]any{"filePath": z}}}}))
	l := w.read(w.opts())
	got := map[string]string{}
	for _, wr := range l.Writes {
		got[filepath.Base(wr.Path)] = fmt.Sprintf("created=%v deleted=%v", wr.Created, wr.Deleted)
	}
	want := map[string]string{"x.md": "created=true deleted=false", "y.md": "created=false deleted=true", "z.md": "created=false deleted=false"}
	if !maps.Equal(got, want) {
		t.Errorf("writes = %v, want %v", got, want)
	}
}

// TestSubagentOnlySession: a session whose main transcript was swept is
// still known from its subagent files.
func TestSubagentOnlySession(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p/wt", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	b.agent = "a0123456789abcdef"
	p := w.memPath("x.md")
	w.file(filepath.Join(uuid1, "subagents", "workflows", "run1", "agent-a0123456789abcdef.jsonl"), b.prompt("task"),
		b.call("toolu_R", "Read", map[string]any{"file_path": p}),
		b.result("toolu_R", "1\thello\n2\t", false, nil))
	w.file(filepath.Join(uuid1, "subagents", "journal.jsonl"), `{"type":"started","agentId":"x","key":"`+p+`"}`)
	w.file(filepath.Join(uuid1, "subagents", "agent-a0123456789abcdef.meta.json"), `{"agentType":"general"}`)
	l := w.read(w.opts())
	s := l.Sessions[uuid1]
	if len(l.Sessions) != 1 || s == nil || s.Transcript != "" || s.Cwd != "/p/wt" || s.Start.IsZero() || s.End.Before(s.Start) {
		t.Errorf("sessions = %+v", l.Sessions)
	}
	if r := obsOf(l, model.ObsRead); len(r) != 1 || r[0].Content != "hello\n" || !r[0].Full || r[0].Session != uuid1 || r[0].Agent != "a0123456789abcdef" {
		t.Errorf("reads = %+v", r)
	}
	if l.Files != 1 {
		t.Errorf("Files = %d (journal.jsonl and .meta.json are not transcripts)", l.Files)
	}
}

// TestWarmStartOpensNothing: with nothing new, a second call reads no byte
// and opens no transcript; the result is the same.
func TestWarmStartOpensNothing(t *testing.T) {
	w := newTlogWorld(t)
	w.copyFixtures()
	first := w.read(w.opts())
	var opened atomic.Int32
	opts := w.opts()
	opts.onOpen = func(string) { opened.Add(1) }
	second := w.read(opts)
	if second.Read != 0 || opened.Load() != 0 {
		t.Errorf("warm start read %d bytes, opened %d files", second.Read, opened.Load())
	}
	if len(second.Writes) != len(first.Writes) || len(second.Observations) != len(first.Observations) ||
		len(second.Sessions) != len(first.Sessions) || second.Bytes != first.Bytes || second.Files != first.Files {
		t.Errorf("warm result differs: %d/%d writes, %d/%d obs", len(second.Writes), len(first.Writes), len(second.Observations), len(first.Observations))
	}
	// The same, proven without the hook: unreadable transcripts are fine
	// as long as nobody opens them.
	if os.Geteuid() != 0 {
		filepath.WalkDir(w.tdir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				os.Chmod(p, 0)
			}
			return nil
		})
		third := w.read(w.opts())
		if len(third.Problems) != 0 || len(third.Writes) != len(first.Writes) {
			t.Errorf("chmod 000 warm start: problems %q, %d writes", third.Problems, len(third.Writes))
		}
	}
}

// TestAppendReadsOnlyNewBytes: a grown transcript is read from where the
// last call stopped, and a call pending across the two reads is paired.
func TestAppendReadsOnlyNewBytes(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	path := w.file(uuid1+".jsonl", b.prompt(strings.Repeat("long prompt ", 2000)), b.call("toolu_sh", "Bash", map[string]any{"command": "echo x >> " + p}))
	if l := w.read(w.opts()); len(l.Writes) != 0 {
		t.Fatalf("unpaired call recorded: %+v", l.Writes)
	}
	more := b.result("toolu_sh", "", false, map[string]any{"stdout": ""}) + "\n"
	appendTo(t, path, more)
	l := w.read(w.opts())
	if len(l.Writes) != 1 || l.Writes[0].Kind != model.WriteShell || l.Writes[0].Line != 3 {
		t.Errorf("writes = %+v", l.Writes)
	}
	if l.Read != int64(len(more))+tailHashLen {
		t.Errorf("Read = %d, want %d (the appended line and the tail check)", l.Read, len(more)+tailHashLen)
	}
	if s := l.Sessions[uuid1]; s == nil || !s.End.Equal(mustTime(t, "2026-08-01T10:00:03Z")) {
		t.Errorf("session = %+v", s)
	}
}

// TestRewrittenTranscriptIsRescanned: a file that shrank, or whose
// consumed end changed (a tombstone rewrite, §1.2), is read again from the
// start; events it no longer holds are gone.
func TestRewrittenTranscriptIsRescanned(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	keep := []string{b.prompt("go"), b.call("toolu_1", "Write", map[string]any{"file_path": p, "content": "one"}),
		b.result("toolu_1", "File created successfully at: "+p, false, writeTUR(p, "one", nil))}
	drop := []string{b.call("toolu_2", "Edit", map[string]any{"file_path": p, "old_string": "one", "new_string": "two"}),
		b.result("toolu_2", "The file "+p+" has been updated successfully.", false, nil)}
	path := w.file(uuid1+".jsonl", append(keep, drop...)...)
	if l := w.read(w.opts()); len(l.Writes) != 2 {
		t.Fatalf("writes = %+v", l.Writes)
	}
	w.file(uuid1+".jsonl", keep...) // truncated
	if l := w.read(w.opts()); len(l.Writes) != 1 || l.Writes[0].ToolUseID != "toolu_1" {
		t.Errorf("after truncation: %+v", l.Writes)
	}
	// Grown, but the bytes before the old offset changed: a rewrite.
	fi, _ := os.Stat(path)
	other := strings.Replace(strings.Join(keep, "\n")+"\n", `"content":"one"`, `"content":"uno"`, 2)
	testfs.Write(t, path, other+strings.Repeat(" ", int(fi.Size())-len(other)+40)+"\n")
	l := w.read(w.opts())
	if len(l.Writes) != 1 || l.Writes[0].After != "uno" {
		t.Errorf("after rewrite: %+v", l.Writes)
	}
}

// TestCorruptCacheIgnored: a damaged or foreign cache file is read past.
func TestCorruptCacheIgnored(t *testing.T) {
	w := newTlogWorld(t)
	w.copyFixtures()
	want := w.read(Options{Home: w.home})
	key := cacheKey(w.tdir, memoryDirs(w.project()), w.home)
	testfs.Write(t, cachePath(w.cache, key), "not a cache at all")
	got := w.read(w.opts())
	if len(got.Writes) != len(want.Writes) || got.Read != want.Read {
		t.Errorf("with a corrupt cache: %d writes, read %d; want %d, %d", len(got.Writes), got.Read, len(want.Writes), want.Read)
	}
	if again := w.read(w.opts()); again.Read != 0 {
		t.Errorf("the corrupt cache was not replaced: read %d", again.Read)
	}
	entries, _ := os.ReadDir(filepath.Dir(cachePath(w.cache, key)))
	if len(entries) != 1 {
		t.Errorf("cache dir holds %d files, want 1 (no temp files left)", len(entries))
	}
}

// TestReadTranscriptsCancel: a cancelled context stops the read promptly
// with ctx's error.
func TestReadTranscriptsCancel(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	line := b.result("toolu_x", strings.Repeat("output ", 1<<17), false, nil)
	for i := range 20 {
		w.file(uuidN("0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20", i)+".jsonl", line, line, line, line)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var opened atomic.Int32
	opts := w.opts()
	opts.Workers = 1
	opts.onOpen = func(string) {
		if opened.Add(1) == 2 {
			cancel()
		}
	}
	start := time.Now()
	l, err := Read(ctx, w.project(), opts)
	if !errors.Is(err, context.Canceled) || l != nil {
		t.Fatalf("err = %v, log = %v", err, l)
	}
	if d := time.Since(start); d > 2*time.Second || opened.Load() > 3 {
		t.Errorf("took %v and opened %d files after the cancel", d, opened.Load())
	}
	if _, err := os.Stat(filepath.Join(w.cache, "transcripts")); err == nil {
		t.Error("a cancelled read wrote the cache")
	}
}

// TestNoTranscriptDir: a project without transcripts has an empty log.
func TestNoTranscriptDir(t *testing.T) {
	l, err := Read(context.Background(), &model.Project{Dirs: []*model.MemoryDir{{Path: t.TempDir()}}}, Options{})
	if err != nil || l.Files != 0 || len(l.Sessions) != 0 || len(l.Problems) != 0 {
		t.Errorf("log = %+v, err %v", l, err)
	}
}

func TestStripReadText(t *testing.T) {
	cases := map[string]string{
		"1\t---\n2\tname: x\n3\t":                                        "---\nname: x\n",
		"     1→a\n     2→b":                                             "a\nb",
		"<system-reminder>old</system-reminder>\n1\ta\n2\t":              "a\n",
		"1\ta\n2\t\n\n<system-reminder>\nmalware?\n</system-reminder>\n": "a\n",
		"no numbers\n12 not a prefix":                                    "no numbers\n12 not a prefix",
	}
	for in, want := range cases {
		if got := stripReadText(in); got != want {
			t.Errorf("stripReadText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMovedConfigDir: transcripts name memory files under the config dir
// they were written in; when that dir has moved (a renamed home, a copy
// synced from another machine, the demo's scratch copy) a path ending in
// projects/<slug>/memory/<file> is still this project's memory file. Only
// the same slug counts.
func TestMovedConfigDir(t *testing.T) {
	w := newTlogWorld(t)
	old := "/old-home/.claude/projects/" + fxSlug + "/memory/project_notes.md"
	other := "/old-home/.claude/projects/-some-other-project/memory/project_notes.md"
	a := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	w.file(uuid1+".jsonl", a.prompt("note it"),
		a.call("toolu_M1", "Write", map[string]any{"file_path": old, "content": "x\n"}),
		a.result("toolu_M1", "File created successfully at: "+old, false, writeTUR(old, "x\n", nil)),
		a.call("toolu_M2", "Write", map[string]any{"file_path": other, "content": "y\n"}),
		a.result("toolu_M2", "File created successfully at: "+other, false, writeTUR(other, "y\n", nil)))
	l := w.read(w.opts())
	if ws := writesTo(l, w.memPath("project_notes.md")); len(ws) != 1 || ws[0].After != "x\n" {
		t.Fatalf("a write under the moved config dir: %+v (all: %+v)", ws, l.Writes)
	}
	if len(l.Writes) != 1 {
		t.Errorf("another project's memory was taken for this one's: %+v", l.Writes)
	}
}
