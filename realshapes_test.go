package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
)

// The realshapes tree (testdata/realshapes, see its README.md) combines
// the shapes of real transcripts (transcript-format.md §9) in one config
// dir: a Windows project and a POSIX one with subdirectory sessions, a
// session started inside the memory folder, subagents of every layout,
// forks, failed calls, shell moves and deletes, and files beside the
// transcripts that are not transcripts. expected.json is its answer key,
// written by hand from the transcripts. These tests run memtui's CLI on a
// copy of the tree and compare.

// realKey is testdata/realshapes/expected.json.
type realKey struct {
	Now      string `json:"now"`
	Memories []struct {
		MemoryDir string `json:"memory_dir"`
		File      string `json:"file"`
		Exists    bool   `json:"exists"`
		Writes    []struct {
			SessionID string   `json:"session_id"`
			Agent     string   `json:"agent"`
			Tool      string   `json:"tool"`
			Op        string   `json:"op"`
			ToolUseID string   `json:"tool_use_id"`
			AlsoIn    []string `json:"also_in"`
			Why       string   `json:"why"`
		} `json:"writes"`
		Reads      int    `json:"reads"`
		ReReads    int    `json:"re_reads"`
		Recalls    int    `json:"recalls"`
		IndexLoads int    `json:"index_loads"`
		Why        string `json:"why"`
	} `json:"memories"`
	Problems []struct {
		Transcript string `json:"transcript"`
		Message    string `json:"message"`
		Why        string `json:"why"`
	} `json:"problems"`
}

// realHistory is `history --json` with the optional fields the key
// checks too (agent, also_in, transcript).
type realHistory struct {
	Memories []struct {
		MemoryDir string `json:"memory_dir"`
		File      string `json:"file"`
		Exists    bool   `json:"exists"`
		Writes    []struct {
			SessionID  string   `json:"session_id"`
			Agent      string   `json:"agent"`
			Tool       string   `json:"tool"`
			Op         string   `json:"op"`
			ToolUseID  string   `json:"tool_use_id"`
			AlsoIn     []string `json:"also_in"`
			Transcript string   `json:"transcript"`
			Line       int      `json:"line"`
		} `json:"writes"`
		Reads      int `json:"reads"`
		ReReads    int `json:"re_reads"`
		Recalls    int `json:"recalls"`
		IndexLoads int `json:"index_loads"`
	} `json:"memories"`
	Problems []struct {
		Transcript string `json:"transcript"`
		Message    string `json:"message"`
	} `json:"problems"`
}

// realShapesTree copies testdata/realshapes/config into a temp dir (empty
// files included), every file dated the day before the key's "now", and
// returns the copy's path (symlinks resolved, as memtui reports paths)
// and the answer key.
func realShapesTree(t *testing.T) (string, realKey) {
	t.Helper()
	var key realKey
	b, err := os.ReadFile(filepath.Join("testdata", "realshapes", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &key); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	now, err := time.Parse("2006-01-02", key.Now)
	if err != nil {
		t.Fatalf("expected.json now: %v", err)
	}
	stamp := now.Add(-12 * time.Hour)
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dst = filepath.Join(dst, "claude")
	src := filepath.Join("testdata", "realshapes", "config")
	var dirs []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			dirs = append(dirs, to)
			return os.MkdirAll(to, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o600); err != nil {
			return err
		}
		return os.Chtimes(to, stamp, stamp)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range slices.Backward(dirs) {
		os.Chtimes(d, stamp, stamp)
	}
	return dst, key
}

// relTo is p relative to cfg, slash-separated ("" when p is not under it).
func relTo(cfg, p string) string {
	r, err := filepath.Rel(cfg, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return ""
	}
	return filepath.ToSlash(r)
}

func TestRealShapes(t *testing.T) {
	cfg, key := realShapesTree(t)
	e := historyEnv(t)
	cli := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, append([]string{"--config-dir", cfg, "--now", key.Now}, args...)...)
		if code != exitOK && !(args[0] == "lint" && code == 1) {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		return stdout
	}

	t.Run("history-json", func(t *testing.T) {
		var got realHistory
		out := cli("history", "--json")
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("history --json: %v\n%s", err, out)
		}
		checkRealHistory(t, cfg, key, got)
	})

	t.Run("history-text", func(t *testing.T) {
		checkRealHistoryText(t, key, cli("history"))
	})

	t.Run("lint-json", func(t *testing.T) {
		out := decodeLint(t, cli("lint", "--json"))
		for _, f := range out.Findings {
			if f.Rule != consolidate.RuleLostUpdate {
				continue
			}
			if strings.HasPrefix(f.Message, "lost: ") {
				t.Errorf("a definite lost update is reported (no write in the tree loses another's text unseen; the rewrite of feedback_deploy.md read it first):\n  %s %s: %s", relTo(cfg, f.MemoryDir), f.File, f.Message)
			} else {
				t.Logf("possible lost update (allowed): %s %s: %s", relTo(cfg, f.MemoryDir), f.File, f.Message)
			}
		}
		var probs []realProblem
		for _, p := range out.TranscriptProblems {
			probs = append(probs, realProblem{relTo(cfg, p.Transcript), p.Message})
		}
		checkRealProblems(t, "lint --json transcript_problems", key, probs)
	})
}

type realProblem struct{ transcript, message string }

func checkRealProblems(t *testing.T, what string, key realKey, got []realProblem) {
	t.Helper()
	used := make([]bool, len(got))
	for _, want := range key.Problems {
		found := false
		for i, g := range got {
			if g.transcript == want.Transcript && strings.Contains(g.message, want.Message) {
				found, used[i] = true, true
			}
		}
		if !found {
			t.Errorf("%s: missing problem %s: %q (%s)\n  got %+v", what, want.Transcript, want.Message, want.Why, got)
		}
	}
	for i, g := range got {
		if !used[i] {
			t.Errorf("%s: unexpected problem %s: %q", what, g.transcript, g.message)
		}
	}
}

// checkRealHistory compares history --json with the key: the files, each
// file's writes as a set keyed by tool_use id, and its counts. Every
// difference is listed, grouped, in one report.
func checkRealHistory(t *testing.T, cfg string, key realKey, got realHistory) {
	t.Helper()
	type fileKey struct{ dir, file string }
	type wkey struct {
		fileKey
		id string
	}
	type wval struct {
		session, agent, tool, op string
		alsoIn                   []string
	}
	show := func(v wval) string {
		s := "session " + v.session
		if v.agent != "" {
			s += " agent " + v.agent
		}
		s += " " + v.tool + " " + v.op
		if len(v.alsoIn) > 0 {
			s += " also_in " + strings.Join(v.alsoIn, ",")
		}
		return s
	}
	wantFiles := map[fileKey]int{}
	wantW := map[wkey]wval{}
	note := map[wkey]string{}
	for i, m := range key.Memories {
		fk := fileKey{m.MemoryDir, m.File}
		wantFiles[fk] = i
		for _, w := range m.Writes {
			k := wkey{fk, w.ToolUseID}
			wantW[k] = wval{w.SessionID, w.Agent, w.Tool, w.Op, w.AlsoIn}
			note[k] = w.Why
		}
	}
	gotFiles := map[fileKey]int{}
	gotW := map[wkey]wval{}
	var missingF, extraF, wrongF, missingW, extraW, wrongW, counts, sources []string
	for i, m := range got.Memories {
		fk := fileKey{relTo(cfg, m.MemoryDir), m.File}
		gotFiles[fk] = i
		for _, w := range m.Writes {
			k := wkey{fk, w.ToolUseID}
			gotW[k] = wval{w.SessionID, w.Agent, w.Tool, w.Op, w.AlsoIn}
			src := relTo(cfg, w.Transcript)
			if strings.Contains(src, "agent-acompact-") || strings.HasSuffix(src, ".backup") || strings.Contains(src, "/sessions/") {
				sources = append(sources, fmt.Sprintf("%s %s %s: recorded from %s, which is no transcript to count", fk.dir, fk.file, w.ToolUseID, src))
			}
		}
	}
	for fk, i := range wantFiles {
		gi, ok := gotFiles[fk]
		if !ok {
			missingF = append(missingF, fmt.Sprintf("%s %s (exists %v)", fk.dir, fk.file, key.Memories[i].Exists))
			continue
		}
		w, g := key.Memories[i], got.Memories[gi]
		if w.Exists != g.Exists {
			wrongF = append(wrongF, fmt.Sprintf("%s %s: exists %v, want %v", fk.dir, fk.file, g.Exists, w.Exists))
		}
		if [4]int{g.Reads, g.ReReads, g.Recalls, g.IndexLoads} != [4]int{w.Reads, w.ReReads, w.Recalls, w.IndexLoads} {
			counts = append(counts, fmt.Sprintf("%s %s: reads/re_reads/recalls/index_loads = %d/%d/%d/%d, want %d/%d/%d/%d\n      (%s)",
				fk.dir, fk.file, g.Reads, g.ReReads, g.Recalls, g.IndexLoads, w.Reads, w.ReReads, w.Recalls, w.IndexLoads, w.Why))
		}
	}
	for fk := range gotFiles {
		if _, ok := wantFiles[fk]; !ok {
			extraF = append(extraF, fk.dir+" "+fk.file)
		}
	}
	for k, w := range wantW {
		g, ok := gotW[k]
		switch {
		case !ok:
			missingW = append(missingW, fmt.Sprintf("%s %s %s: %s\n      (%s)", k.dir, k.file, k.id, show(w), note[k]))
		case g.session != w.session || g.agent != w.agent || g.tool != w.tool || g.op != w.op || !slices.Equal(g.alsoIn, w.alsoIn):
			wrongW = append(wrongW, fmt.Sprintf("%s %s %s:\n      got  %s\n      want %s\n      (%s)", k.dir, k.file, k.id, show(g), show(w), note[k]))
		}
	}
	for k, g := range gotW {
		if _, ok := wantW[k]; !ok {
			extraW = append(extraW, fmt.Sprintf("%s %s %s: %s", k.dir, k.file, k.id, show(g)))
		}
	}
	var report []string
	add := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		sort.Strings(items)
		report = append(report, fmt.Sprintf("%s (%d):\n    %s", title, len(items), strings.Join(items, "\n    ")))
	}
	add("missing files", missingF)
	add("unexpected files", extraF)
	add("wrong files", wrongF)
	add("missing writes", missingW)
	add("unexpected writes", extraW)
	add("wrong writes", wrongW)
	add("wrong counts", counts)
	add("writes from files that are not transcripts", sources)
	if len(report) > 0 {
		t.Errorf("history --json disagrees with testdata/realshapes/expected.json:\n  %s", strings.Join(report, "\n  "))
	}

	var probs []realProblem
	for _, p := range got.Problems {
		probs = append(probs, realProblem{relTo(cfg, p.Transcript), p.Message})
	}
	checkRealProblems(t, "history --json problems", key, probs)
}

// checkRealHistoryText checks that the text form lists every file of the
// key (deleted ones marked) and, in its block, each expected write: the
// writer's line names the session (and the subagent), the next line the
// tool_use id.
func checkRealHistoryText(t *testing.T, key realKey, out string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	// blocks maps "<memory dir's slug>\x00<file header>" to the block's
	// lines; a file's header is indented four spaces.
	type block struct {
		dir    string
		header string
		body   []string
	}
	var blocks []*block
	dir := ""
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   "):
			dir = strings.Fields(l)[0]
		case strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "     "):
			blocks = append(blocks, &block{dir: dir, header: strings.TrimPrefix(l, "    ")})
		case strings.HasPrefix(l, "     ") && len(blocks) > 0:
			blocks[len(blocks)-1].body = append(blocks[len(blocks)-1].body, l)
		}
	}
	find := func(memDir, file string) *block {
		for _, b := range blocks {
			name, _, _ := strings.Cut(b.header, ":")
			if strings.HasSuffix(filepath.ToSlash(b.dir), memDir) &&
				(b.header == file || strings.HasPrefix(b.header, file+"  (deleted") || name == file) {
				return b
			}
		}
		return nil
	}
	for _, m := range key.Memories {
		b := find(m.MemoryDir, m.File)
		if b == nil {
			t.Errorf("history text: no block for %s %s", m.MemoryDir, m.File)
			continue
		}
		if deleted := strings.Contains(b.header, "(deleted: no longer on disk)"); deleted == m.Exists {
			t.Errorf("history text: %s %s header %q, exists %v", m.MemoryDir, m.File, b.header, m.Exists)
		}
		for _, w := range m.Writes {
			who := "session " + forensics.ShortSession(w.SessionID)
			if w.Agent != "" {
				who = "subagent " + forensics.ShortSession(w.Agent) + " of " + who
			}
			ok := false
			for i := 0; i+1 < len(b.body); i++ {
				if strings.HasPrefix(strings.TrimSpace(b.body[i]), w.Op+" ") && strings.Contains(b.body[i], who) && strings.Contains(b.body[i+1], w.ToolUseID) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("history text: %s %s: no %q line by %q followed by %s\n  block:\n    %s",
					m.MemoryDir, m.File, w.Op, who, w.ToolUseID, strings.Join(b.body, "\n    "))
			}
		}
	}
	for _, p := range key.Problems {
		if !strings.Contains(out, p.Message) {
			t.Errorf("history text does not show the problem %q of %s", p.Message, p.Transcript)
		}
	}
}
