package transcript

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// Transcripts §9.5: memory writes recorded under another slug's folder.
// The project is /home/u/app (folder -home-u-app, memory in
// -home-u-app/memory). A session launched in /home/u/app/web is stored
// under -home-u-app-web; one launched inside the memory folder under
// -home-u--claude-projects--home-u-app-memory. /home/u/apple's folder,
// -home-u-apple, shares the text "-home-u-app" without the "-" after it.

const (
	fdOwnSess   = "1f2e3d4c-0000-4aaa-8bbb-00000000a001"
	fdWebSess   = "1f2e3d4c-0000-4aaa-8bbb-00000000a002"
	fdInMemSess = "1f2e3d4c-0000-4aaa-8bbb-00000000a003"
	fdAppleSess = "1f2e3d4c-0000-4aaa-8bbb-00000000a004"
	fdIdleSess  = "1f2e3d4c-0000-4aaa-8bbb-00000000a005"
)

// folderWorld lays out the four folders with one session each (and an
// idle one in the subdirectory) and returns the project's world.
func folderWorld(t *testing.T) (*tlogWorld, map[string]string) {
	t.Helper()
	w := shapeWorld(t, "-home-u-app")
	projects := filepath.Dir(w.tdir)
	dirs := map[string]string{
		"own":   w.tdir,
		"web":   filepath.Join(projects, "-home-u-app-web"),
		"inmem": filepath.Join(projects, "-home-u--claude-projects--home-u-app-memory"),
		"apple": filepath.Join(projects, "-home-u-apple"),
	}
	put := func(dir, sess string, lines ...string) {
		testfs.Write(t, filepath.Join(dir, sess+".jsonl"), strings.Join(lines, "\n")+"\n")
	}
	put(dirs["own"], fdOwnSess,
		`{"type":"user","uuid":"2a000000-0000-4000-8000-000000000001","timestamp":"2026-06-01T09:00:00.000Z","cwd":"/home/u/app","sessionId":"`+fdOwnSess+`","version":"2.1.90","message":{"role":"user","content":"hello"}}`,
		`{"type":"ai-title","aiTitle":"Own session","sessionId":"`+fdOwnSess+`"}`)
	put(dirs["web"], fdWebSess,
		`{"type":"user","uuid":"2b000000-0000-4000-8000-000000000001","timestamp":"2026-06-01T10:00:00.000Z","cwd":"/home/u/app/web","sessionId":"`+fdWebSess+`","version":"2.1.90","gitBranch":"main","message":{"role":"user","content":"remember the port"}}`,
		`{"type":"assistant","uuid":"2b000000-0000-4000-8000-000000000002","timestamp":"2026-06-01T10:00:01.000Z","cwd":"/home/u/app/web","sessionId":"`+fdWebSess+`","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthWebWriteAAAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app/memory/x.md","content":"The dev server listens on 8080.\n"}}]}}`,
		`{"type":"user","uuid":"2b000000-0000-4000-8000-000000000003","timestamp":"2026-06-01T10:00:01.200Z","cwd":"/home/u/app/web","sessionId":"`+fdWebSess+`","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthWebWriteAAAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app/memory/x.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app/memory/x.md","content":"The dev server listens on 8080.\n","structuredPatch":[],"originalFile":null}}`,
		`{"type":"custom-title","customTitle":"Web port notes","sessionId":"`+fdWebSess+`"}`)
	// An idle session in the subdirectory: it never touches the memory.
	put(dirs["web"], fdIdleSess,
		`{"type":"user","uuid":"2e000000-0000-4000-8000-000000000001","timestamp":"2026-06-01T10:30:00.000Z","cwd":"/home/u/app/web","sessionId":"`+fdIdleSess+`","version":"2.1.90","message":{"role":"user","content":"run the tests"}}`)
	put(dirs["inmem"], fdInMemSess,
		`{"type":"user","uuid":"2c000000-0000-4000-8000-000000000001","timestamp":"2026-06-01T11:00:00.000Z","cwd":"/home/u/.claude/projects/-home-u-app/memory","sessionId":"`+fdInMemSess+`","version":"2.1.90","message":{"role":"user","content":"tidy the index"}}`,
		`{"type":"assistant","uuid":"2c000000-0000-4000-8000-000000000002","timestamp":"2026-06-01T11:00:01.000Z","cwd":"/home/u/.claude/projects/-home-u-app/memory","sessionId":"`+fdInMemSess+`","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthInMemWriteAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app/memory/MEMORY.md","content":"- [Port](x.md) — dev server port\n"}}]}}`,
		`{"type":"user","uuid":"2c000000-0000-4000-8000-000000000003","timestamp":"2026-06-01T11:00:01.300Z","cwd":"/home/u/.claude/projects/-home-u-app/memory","sessionId":"`+fdInMemSess+`","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthInMemWriteAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app/memory/MEMORY.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app/memory/MEMORY.md","content":"- [Port](x.md) — dev server port\n","structuredPatch":[],"originalFile":null}}`,
		`{"type":"ai-title","aiTitle":"Tidy memory index","sessionId":"`+fdInMemSess+`"}`)
	// /home/u/apple's session names app's memory dir: were its folder
	// read, this write would be attributed. It must not be read at all.
	put(dirs["apple"], fdAppleSess,
		`{"type":"assistant","uuid":"2d000000-0000-4000-8000-000000000002","timestamp":"2026-06-01T12:00:01.000Z","cwd":"/home/u/apple","sessionId":"`+fdAppleSess+`","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthAppleWriteAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app/memory/apple.md","content":"apple\n"}}]}}`,
		`{"type":"user","uuid":"2d000000-0000-4000-8000-000000000003","timestamp":"2026-06-01T12:00:01.300Z","cwd":"/home/u/apple","sessionId":"`+fdAppleSess+`","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthAppleWriteAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app/memory/apple.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app/memory/apple.md","content":"apple\n","structuredPatch":[],"originalFile":null}}`)
	return w, dirs
}

// openedDirs records the folders of the transcripts a read opens.
type openedDirs struct {
	mu   sync.Mutex
	dirs map[string]int
}

func (o *openedDirs) hook(p string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dirs == nil {
		o.dirs = make(map[string]int)
	}
	o.dirs[filepath.Base(filepath.Dir(p))]++
}

// TestOtherFolderWrites: the subdirectory session's write of x.md and the
// in-memory-folder session's write of MEMORY.md are the project's, with
// their sessions' titles and cwds; -home-u-apple is never opened; the
// subdirectory's idle session is not listed; the autoDream gate counts
// only the project's own session; a warm start opens nothing.
func TestOtherFolderWrites(t *testing.T) {
	w, _ := folderWorld(t)
	var op openedDirs
	opts := w.opts()
	opts.onOpen = op.hook
	l := w.read(opts)

	if n := op.dirs["-home-u-apple"]; n != 0 {
		t.Errorf("-home-u-apple's transcripts opened %d times: only this project's slug + \"-\" is a subdirectory", n)
	}
	for _, d := range []string{"-home-u-app", "-home-u-app-web", "-home-u--claude-projects--home-u-app-memory"} {
		if op.dirs[d] == 0 {
			t.Errorf("folder %s not read (opened: %v)", d, op.dirs)
		}
	}
	got := map[string]model.MemWrite{}
	for _, wr := range l.Writes {
		got[filepath.Base(wr.Path)] = wr
	}
	if len(l.Writes) != 2 {
		t.Fatalf("want the two writes, got %d: %+v (problems %v)", len(l.Writes), l.Writes, l.Problems)
	}
	for name, want := range map[string]struct{ sess, title, cwd, tool string }{
		"x.md":      {fdWebSess, "Web port notes", "/home/u/app/web", "toolu_01SynthWebWriteAAAAAAAAAA"},
		"MEMORY.md": {fdInMemSess, "Tidy memory index", "/home/u/.claude/projects/-home-u-app/memory", "toolu_01SynthInMemWriteAAAAAAAA"},
	} {
		wr, ok := got[name]
		if !ok {
			t.Errorf("no write of %s", name)
			continue
		}
		if wr.Path != w.memPath(name) || wr.Session != want.sess || wr.ToolUseID != want.tool || !wr.Created {
			t.Errorf("write of %s = %+v", name, wr)
		}
		s := l.Sessions[want.sess]
		if s == nil || s.Title != want.title || s.Cwd != want.cwd || !s.OtherFolder || s.Transcript == "" {
			t.Errorf("session of %s = %+v, want title %q, cwd %q, OtherFolder", name, s, want.title, want.cwd)
		}
	}
	if s := l.Sessions[fdOwnSess]; s == nil || s.OtherFolder || s.Title != "Own session" {
		t.Errorf("own session = %+v", s)
	}
	if s := l.Sessions[fdIdleSess]; s != nil {
		t.Errorf("the subdirectory's idle session is listed as the project's: %+v", s)
	}
	if s := l.Sessions[fdAppleSess]; s != nil {
		t.Errorf("-home-u-apple's session is listed: %+v", s)
	}

	// Claude Code's session gate lists the cwd's own folder only.
	g := forensics.GateOf(&model.MemoryDir{Path: w.mem}, l, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if len(g.Sessions) != 1 || g.Sessions[0] != fdOwnSess {
		t.Errorf("gate sessions = %v, want only %s", g.Sessions, fdOwnSess)
	}

	// Warm: nothing opened, the same log.
	var warm openedDirs
	opts.onOpen = warm.hook
	l2 := w.read(opts)
	if l2.Read != 0 || len(warm.dirs) != 0 {
		t.Errorf("warm start read %d bytes, opened %v", l2.Read, warm.dirs)
	}
	if len(l2.Writes) != 2 || len(l2.Sessions) != len(l.Sessions) || l2.Sessions[fdWebSess] == nil || !l2.Sessions[fdWebSess].OtherFolder {
		t.Errorf("warm log differs: %d writes, sessions %v", len(l2.Writes), keys(l2.Sessions))
	}
}

// TestOtherFolderOwnMemory: a subdirectory that is a project of its own
// (-home-u-app-web with its own memory dir) keeps its writes; the parent
// project reads the same transcript and keeps only its own. Both caches
// live in one CacheDir without mixing.
func TestOtherFolderOwnMemory(t *testing.T) {
	w, dirs := folderWorld(t)
	webMem := testfs.Mkdir(t, filepath.Join(dirs["web"], "memory"))
	testfs.Write(t, filepath.Join(dirs["web"], fdWebSess+".jsonl"), strings.Join([]string{
		`{"type":"assistant","uuid":"2b000000-0000-4000-8000-000000000012","timestamp":"2026-06-02T10:00:01.000Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthWebOwnAAAAAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app-web/memory/web.md","content":"web only\n"}}]}}`,
		`{"type":"user","uuid":"2b000000-0000-4000-8000-000000000013","timestamp":"2026-06-02T10:00:01.200Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthWebOwnAAAAAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app-web/memory/web.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app-web/memory/web.md","content":"web only\n","structuredPatch":[],"originalFile":null}}`,
		`{"type":"assistant","uuid":"2b000000-0000-4000-8000-000000000014","timestamp":"2026-06-02T10:01:01.000Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthWebParentAAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app/memory/x.md","content":"parent\n"}}]}}`,
		`{"type":"user","uuid":"2b000000-0000-4000-8000-000000000015","timestamp":"2026-06-02T10:01:01.200Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthWebParentAAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app/memory/x.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app/memory/x.md","content":"parent\n","structuredPatch":[],"originalFile":null}}`,
	}, "\n")+"\n")
	app := w.project()
	web := &model.Project{TranscriptDir: dirs["web"], Dirs: []*model.MemoryDir{{Path: webMem, Kind: model.DirAuto}}}
	for round := 0; round < 2; round++ { // cold, then warm from the shared CacheDir
		ps := []*model.Project{app, web}
		for i, err := range ReadAll(context.Background(), ps, 2, w.opts()) {
			if err != nil {
				t.Fatalf("project %d: %v", i, err)
			}
		}
		names := func(l *model.TranscriptLog) []string {
			var out []string
			for _, wr := range l.Writes {
				out = append(out, filepath.Base(filepath.Dir(filepath.Dir(wr.Path)))+"/"+filepath.Base(wr.Path))
			}
			sort.Strings(out)
			return out
		}
		if got := strings.Join(names(app.Log), " "); got != "-home-u-app/MEMORY.md -home-u-app/x.md" {
			t.Errorf("round %d: app's writes = %s", round, got)
		}
		if got := strings.Join(names(web.Log), " "); got != "-home-u-app-web/web.md" {
			t.Errorf("round %d: web's writes = %s", round, got)
		}
		if s := web.Log.Sessions[fdWebSess]; s == nil || s.OtherFolder {
			t.Errorf("round %d: in its own project the web session = %+v, want not OtherFolder", round, s)
		}
		if s := app.Log.Sessions[fdWebSess]; s == nil || !s.OtherFolder {
			t.Errorf("round %d: in the parent project the web session = %+v, want OtherFolder", round, s)
		}
	}
}

// TestOtherFolders: which folder names a project claims.
func TestOtherFolders(t *testing.T) {
	names := []string{"-home-u-app", "-home-u-app-web", "-home-u-apple", "-home-u-app2",
		"-home-u--claude-projects--home-u-app-memory", "-mnt-c-Users-u--claude-projects--home-u-app-memory",
		"-home-u--claude-projects--home-u-apple-memory", "-home-u-ap", "-srv-custom-mem",
		"-home-u--claude-projects--home-u-app-memory-roles", "-home-u--claude-projects--home-u-app-memoryx"}
	tdir := filepath.Join("/home/u/.claude/projects", "-home-u-app")
	got := otherFolders(tdir, []string{filepath.Join(tdir, "memory"), "/srv/custom/mem"}, names)
	var base []string
	for _, g := range got {
		base = append(base, filepath.Base(g))
	}
	want := "-home-u-app-web -home-u--claude-projects--home-u-app-memory -mnt-c-Users-u--claude-projects--home-u-app-memory -srv-custom-mem -home-u--claude-projects--home-u-app-memory-roles"
	if strings.Join(base, " ") != want {
		t.Errorf("claimed %v, want %s", base, want)
	}
	// A Windows slug is case-blind: d:\work\shop\MES launches into d--work-shop-MES.
	got = otherFolders(filepath.Join("/c/projects", "D--work-shop"), nil, []string{"d--work-shop-MES", "D--work-shopping", "C--Users-u--claude-projects-d--work-shop-memory"})
	if len(got) != 2 || filepath.Base(got[0]) != "d--work-shop-MES" || filepath.Base(got[1]) != "C--Users-u--claude-projects-d--work-shop-memory" {
		t.Errorf("Windows slug claimed %v", got)
	}
}

// TestInMemoryFolderRelative: a session started inside the memory folder
// names files relative to it (transcripts §9.5): Write notes.md, Edit
// ./notes.md, Read notes.md, echo > port.md, rm old.md, mv into a
// subfolder; one started in a subfolder of it writes owner.md and
// ../top.md. Every one is this project's, cold and warm; ../elsewhere.md
// outside the memory folder is not. The sessions ran under another config
// dir (/home/u/.claude, not this test's temp dir), as a copied tree's do.
func TestInMemoryFolderRelative(t *testing.T) {
	w := shapeWorld(t, "-home-u-app")
	projects := filepath.Dir(w.tdir)
	const (
		sess = "1f2e3d4c-0000-4aaa-8bbb-00000000b001"
		sub  = "1f2e3d4c-0000-4aaa-8bbb-00000000b002"
		mem  = "/home/u/.claude/projects/-home-u-app/memory"
	)
	n := 0
	line := func(s, cwd, typ, body string) string {
		n++
		return fmt.Sprintf(`{"type":%q,"uuid":"3a000000-0000-4000-8000-%012d","timestamp":"2026-06-03T09:%02d:00.000Z","cwd":%q,"sessionId":%q,"version":"2.1.90",%s}`, typ, n, n, cwd, s, body)
	}
	call := func(s, cwd, id, tool, input string) string {
		return line(s, cwd, "assistant", `"message":{"role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"`+tool+`","input":`+input+`}]}`)
	}
	result := func(s, cwd, id, text, tur string) string {
		return line(s, cwd, "user", `"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":`+strconv.Quote(text)+`}]},"toolUseResult":`+tur)
	}
	bash := `{"stdout":"","stderr":"","interrupted":false,"isImage":false}`
	testfs.Write(t, filepath.Join(projects, "-home-u--claude-projects--home-u-app-memory", sess+".jsonl"), strings.Join([]string{
		line(sess, mem, "user", `"message":{"role":"user","content":"tidy up"}`),
		call(sess, mem, "toolu_01RelWriteAAAAAAAAAAAAAA", "Write", `{"file_path":"notes.md","content":"Deploy on Tuesdays.\n"}`),
		result(sess, mem, "toolu_01RelWriteAAAAAAAAAAAAAA", "File created successfully at: notes.md", `{"type":"create","filePath":"notes.md","content":"Deploy on Tuesdays.\n","structuredPatch":[],"originalFile":null}`),
		call(sess, mem, "call_00_RelEditBBBBBBBBBBBBBBBBB", "Edit", `{"file_path":"./notes.md","old_string":"Tuesdays","new_string":"Wednesdays"}`),
		result(sess, mem, "call_00_RelEditBBBBBBBBBBBBBBBBB", "The file ./notes.md has been updated successfully.", `{"filePath":"./notes.md","oldString":"Tuesdays","newString":"Wednesdays","originalFile":"Deploy on Tuesdays.\n","structuredPatch":[],"userModified":false,"replaceAll":false}`),
		call(sess, mem, "toolu_01RelReadCCCCCCCCCCCCCCC", "Read", `{"file_path":"notes.md"}`),
		result(sess, mem, "toolu_01RelReadCCCCCCCCCCCCCCC", "1\tDeploy on Wednesdays.\n", `{"type":"text","file":{"filePath":"notes.md","content":"Deploy on Wednesdays.\n","numLines":1,"startLine":1,"totalLines":1}}`),
		call(sess, mem, "toolu_01RelEchoDDDDDDDDDDDDDDD", "Bash", `{"command":"echo 'The dev port is 8080.' > port.md"}`),
		result(sess, mem, "toolu_01RelEchoDDDDDDDDDDDDDDD", "", bash),
		call(sess, mem, "toolu_01RelRmEEEEEEEEEEEEEEEEE", "Bash", `{"command":"rm old.md"}`),
		result(sess, mem, "toolu_01RelRmEEEEEEEEEEEEEEEEE", "", bash),
		call(sess, mem, "toolu_01RelMvFFFFFFFFFFFFFFFFF", "Bash", `{"command":"mkdir -p archive && mv draft.md archive/draft.md"}`),
		result(sess, mem, "toolu_01RelMvFFFFFFFFFFFFFFFFF", "", bash),
		call(sess, mem, "toolu_01RelOutGGGGGGGGGGGGGGGG", "Write", `{"file_path":"../elsewhere.md","content":"not a memory\n"}`),
		result(sess, mem, "toolu_01RelOutGGGGGGGGGGGGGGGG", "File created successfully at: ../elsewhere.md", `{"type":"create","filePath":"../elsewhere.md","content":"not a memory\n","structuredPatch":[],"originalFile":null}`),
	}, "\n")+"\n")
	testfs.Write(t, filepath.Join(projects, "-home-u--claude-projects--home-u-app-memory-roles", sub+".jsonl"), strings.Join([]string{
		call(sub, mem+"/roles", "toolu_01RelSubHHHHHHHHHHHHHHHH", "Write", `{"file_path":"owner.md","content":"Kim owns releases.\n"}`),
		result(sub, mem+"/roles", "toolu_01RelSubHHHHHHHHHHHHHHHH", "File created successfully at: owner.md", `{"type":"create","filePath":"owner.md","content":"Kim owns releases.\n","structuredPatch":[],"originalFile":null}`),
		call(sub, mem+"/roles", "toolu_01RelUpIIIIIIIIIIIIIIIII", "Write", `{"file_path":"../top.md","content":"Top.\n"}`),
		result(sub, mem+"/roles", "toolu_01RelUpIIIIIIIIIIIIIIIII", "File created successfully at: ../top.md", `{"type":"create","filePath":"../top.md","content":"Top.\n","structuredPatch":[],"originalFile":null}`),
	}, "\n")+"\n")

	want := []string{
		"toolu_01RelWriteAAAAAAAAAAAAAA write notes.md " + sess,
		"call_00_RelEditBBBBBBBBBBBBBBBBB edit notes.md " + sess,
		"toolu_01RelEchoDDDDDDDDDDDDDDD shell port.md " + sess,
		"toolu_01RelRmEEEEEEEEEEEEEEEEE shell old.md " + sess + " deleted",
		"toolu_01RelMvFFFFFFFFFFFFFFFFF shell archive/draft.md " + sess,
		"toolu_01RelMvFFFFFFFFFFFFFFFFF shell draft.md " + sess + " deleted",
		"toolu_01RelSubHHHHHHHHHHHHHHHH write roles/owner.md " + sub,
		"toolu_01RelUpIIIIIIIIIIIIIIIII write top.md " + sub,
	}
	sort.Strings(want)
	for _, round := range []string{"cold", "warm"} {
		l := w.read(w.opts())
		var got []string
		for _, wr := range l.Writes {
			rel, err := filepath.Rel(w.mem, wr.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: a write outside the memory dir: %+v", round, wr)
				continue
			}
			s := wr.ToolUseID + " " + string(wr.Kind) + " " + filepath.ToSlash(rel) + " " + wr.Session
			if wr.Deleted {
				// Placed as the paths are: relative to the cwd, under
				// another config dir than this test's.
				s += " deleted"
			}
			got = append(got, s)
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: writes\n%s\nwant\n%s\n(problems %v)", round, strings.Join(got, "\n"), strings.Join(want, "\n"), l.Problems)
		}
		reads := obsOf(l, model.ObsRead)
		if len(reads) != 1 || reads[0].Path != w.memPath("notes.md") || reads[0].Content != "Deploy on Wednesdays.\n" || reads[0].Session != sess {
			t.Errorf("%s: reads = %+v", round, reads)
		}
		if round == "warm" && l.Read != 0 {
			t.Errorf("warm start read %d bytes", l.Read)
		}
	}
}

// TestInMemoryFolderRelativeWindows: the same from a Windows session, its
// cwd C:\Users\dana\.claude\projects\D--work-shop\memory (backslashes,
// JSON-escaped) and relative names written with .\ and none.
func TestInMemoryFolderRelativeWindows(t *testing.T) {
	w := shapeWorld(t, winSlug)
	const sess = "1f2e3d4c-0000-4aaa-8bbb-00000000b003"
	cwd := `C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory`
	testfs.Write(t, filepath.Join(filepath.Dir(w.tdir), "C--Users-dana--claude-projects-D--work-shop-memory", sess+".jsonl"), strings.Join([]string{
		`{"type":"assistant","uuid":"3b000000-0000-4000-8000-000000000001","timestamp":"2026-06-04T09:00:00.000Z","cwd":"` + cwd + `","sessionId":"` + sess + `","version":"2.1.126","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01WinRelAAAAAAAAAAAAAAAA","name":"Write","input":{"file_path":".\\notes.md","content":"Use tabs.\n"}}]}}`,
		`{"type":"user","uuid":"3b000000-0000-4000-8000-000000000002","timestamp":"2026-06-04T09:00:01.000Z","cwd":"` + cwd + `","sessionId":"` + sess + `","version":"2.1.126","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01WinRelAAAAAAAAAAAAAAAA","content":"File created successfully at: .\\notes.md"}]},"toolUseResult":{"type":"create","filePath":".\\notes.md","content":"Use tabs.\n","structuredPatch":[],"originalFile":null}}`,
		`{"type":"assistant","uuid":"3b000000-0000-4000-8000-000000000003","timestamp":"2026-06-04T09:01:00.000Z","cwd":"` + cwd + `","sessionId":"` + sess + `","version":"2.1.126","message":{"role":"assistant","content":[{"type":"tool_use","id":"call_00_WinRelBBBBBBBBBBBBBBBBB","name":"Read","input":{"file_path":"notes.md"}}]}}`,
		`{"type":"user","uuid":"3b000000-0000-4000-8000-000000000004","timestamp":"2026-06-04T09:01:01.000Z","cwd":"` + cwd + `","sessionId":"` + sess + `","version":"2.1.126","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_00_WinRelBBBBBBBBBBBBBBBBB","content":"1\tUse tabs.\n"}]},"toolUseResult":{"type":"text","file":{"filePath":"notes.md","content":"Use tabs.\n","numLines":1,"startLine":1,"totalLines":1}}}`,
		// rm with the other drive case and the slug's other case: a
		// delete of the file on disk (history's op comes from this).
		`{"type":"assistant","uuid":"3b000000-0000-4000-8000-000000000005","timestamp":"2026-06-04T09:02:00.000Z","cwd":"` + cwd + `","sessionId":"` + sess + `","version":"2.1.126","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01WinRmCCCCCCCCCCCCCCCCCC","name":"Bash","input":{"command":"rm c:\\users\\dana\\.claude\\projects\\D--work-shop\\memory\\old.md"}}]}}`,
		`{"type":"user","uuid":"3b000000-0000-4000-8000-000000000006","timestamp":"2026-06-04T09:02:01.000Z","cwd":"` + cwd + `","sessionId":"` + sess + `","version":"2.1.126","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01WinRmCCCCCCCCCCCCCCCCCC","content":""}]},"toolUseResult":{"stdout":"","stderr":"","interrupted":false}}`,
	}, "\n")+"\n")
	l := w.read(w.opts())
	if len(l.Writes) != 2 {
		t.Fatalf("want the Write and the rm, got %+v", l.Writes)
	}
	wr := l.Writes[0]
	if wr.Path != w.memPath("notes.md") || wr.Session != sess || wr.Kind != model.WriteFull || wr.After != "Use tabs.\n" {
		t.Errorf("the relative Windows write = %+v", wr)
	}
	if rm := l.Writes[1]; rm.Path != w.memPath("old.md") || rm.Kind != model.WriteShell || !rm.Deleted {
		t.Errorf("the Windows rm = %+v, want a delete of old.md", rm)
	}
	if reads := obsOf(l, model.ObsRead); len(reads) != 1 || reads[0].Path != w.memPath("notes.md") {
		t.Errorf("reads = %+v", reads)
	}
}
