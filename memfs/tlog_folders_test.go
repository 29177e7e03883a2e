package memfs

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
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
		write(t, filepath.Join(dir, sess+".jsonl"), strings.Join(lines, "\n")+"\n")
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
	g := consolidate.GateOf(&model.MemoryDir{Path: w.mem}, l, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
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
	webMem := mkdir(t, filepath.Join(dirs["web"], "memory"))
	write(t, filepath.Join(dirs["web"], fdWebSess+".jsonl"), strings.Join([]string{
		`{"type":"assistant","uuid":"2b000000-0000-4000-8000-000000000012","timestamp":"2026-06-02T10:00:01.000Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthWebOwnAAAAAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app-web/memory/web.md","content":"web only\n"}}]}}`,
		`{"type":"user","uuid":"2b000000-0000-4000-8000-000000000013","timestamp":"2026-06-02T10:00:01.200Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthWebOwnAAAAAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app-web/memory/web.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app-web/memory/web.md","content":"web only\n","structuredPatch":[],"originalFile":null}}`,
		`{"type":"assistant","uuid":"2b000000-0000-4000-8000-000000000014","timestamp":"2026-06-02T10:01:01.000Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthWebParentAAAAAAAAA","name":"Write","input":{"file_path":"/home/u/.claude/projects/-home-u-app/memory/x.md","content":"parent\n"}}]}}`,
		`{"type":"user","uuid":"2b000000-0000-4000-8000-000000000015","timestamp":"2026-06-02T10:01:01.200Z","cwd":"/home/u/app/web","sessionId":"` + fdWebSess + `","version":"2.1.90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthWebParentAAAAAAAAA","content":"File created successfully at: /home/u/.claude/projects/-home-u-app/memory/x.md"}]},"toolUseResult":{"type":"create","filePath":"/home/u/.claude/projects/-home-u-app/memory/x.md","content":"parent\n","structuredPatch":[],"originalFile":null}}`,
	}, "\n")+"\n")
	app := w.project()
	web := &model.Project{TranscriptDir: dirs["web"], Dirs: []*model.MemoryDir{{Path: webMem, Kind: model.DirAuto}}}
	for round := 0; round < 2; round++ { // cold, then warm from the shared CacheDir
		ps := []*model.Project{app, web}
		for i, err := range ReadAllTranscripts(context.Background(), ps, 2, w.opts()) {
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
		"-home-u--claude-projects--home-u-apple-memory", "-home-u-ap", "-srv-custom-mem"}
	tdir := filepath.Join("/home/u/.claude/projects", "-home-u-app")
	got := otherFolders(tdir, []string{filepath.Join(tdir, "memory"), "/srv/custom/mem"}, names)
	var base []string
	for _, g := range got {
		base = append(base, filepath.Base(g))
	}
	want := "-home-u-app-web -home-u--claude-projects--home-u-app-memory -mnt-c-Users-u--claude-projects--home-u-app-memory -srv-custom-mem"
	if strings.Join(base, " ") != want {
		t.Errorf("claimed %v, want %s", base, want)
	}
	// A Windows slug is case-blind: d:\work\shop\MES launches into d--work-shop-MES.
	got = otherFolders(filepath.Join("/c/projects", "D--work-shop"), nil, []string{"d--work-shop-MES", "D--work-shopping", "C--Users-u--claude-projects-d--work-shop-memory"})
	if len(got) != 2 || filepath.Base(got[0]) != "d--work-shop-MES" || filepath.Base(got[1]) != "C--Users-u--claude-projects-d--work-shop-memory" {
		t.Errorf("Windows slug claimed %v", got)
	}
}

// TestSlugMatcher: the precomputed matcher and slugMatches match exactly
// the pairs Claude Code would name (cwd index, slug index).
func TestSlugMatcher(t *testing.T) {
	long := "/home/u/" + strings.Repeat("deep/", 50) + "memory"
	cwds := []string{"/home/u/app", `D:\work\shop`, "/home/u/.claude/projects/-home-u-app/memory", long}
	slugs := []string{"-home-u-app", "-home-u-apple", "d--work-shop", "D--work-shop", "D--work-sho",
		"-home-u--claude-projects--home-u-app-memory", sanitizePath(long)[:maxSanitizedLength] + "-1x2y3z",
		sanitizePath(long)[:maxSanitizedLength], sanitizePath(long)}
	match := map[[2]int]bool{{0, 0}: true, {1, 2}: true, {1, 3}: true, {2, 5}: true, {3, 6}: true}
	for ci, c := range cwds {
		m := slugMatcher(c)
		for si, s := range slugs {
			want := match[[2]int{ci, si}]
			if got := m(s); got != want {
				t.Errorf("slugMatcher(%q)(%q) = %v, want %v", c, s, got, want)
			}
			if got := slugMatches(c, s); got != want {
				t.Errorf("slugMatches(%q, %q) = %v, want %v", c, s, got, want)
			}
		}
	}
}
