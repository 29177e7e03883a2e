package memfs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

func loadOpts() Options {
	return Options{Getenv: env(nil), Home: "/nonexistent", Workers: 4}
}

func load(t *testing.T, dir string, kind model.DirKind) *model.MemoryDir {
	t.Helper()
	d := &model.MemoryDir{Path: dir, Kind: kind}
	if err := LoadDir(t.Context(), d, loadOpts()); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestLoadDirBasics(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "MEMORY.md"), "- [b](b.md) — b\n")
	testfs.Write(t, filepath.Join(dir, "b.md"), "bee")
	testfs.Write(t, filepath.Join(dir, "a.md"), "ay")
	testfs.Write(t, filepath.Join(dir, "logs", "2026", "05", "2026-05-26.md"), "log")
	testfs.Write(t, filepath.Join(dir, "feedback", "MEMORY.md"), "nested index: skipped")
	testfs.Write(t, filepath.Join(dir, "feedback", "x.md"), "x")
	testfs.Write(t, filepath.Join(dir, "team", "t.md"), "team file: its own dir")
	testfs.Write(t, filepath.Join(dir, "notes.txt"), "not markdown")
	testfs.Write(t, filepath.Join(dir, "UPPER.MD"), "case matters: Claude Code matches .md")
	lock := testfs.Write(t, filepath.Join(dir, ".consolidate-lock"), "4242")
	lockTime := time.Date(2026, 5, 20, 10, 0, 0, 0, time.UTC)
	testfs.Touch(t, lock, lockTime)
	a := filepath.Join(dir, "a.md")
	aTime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	testfs.Touch(t, a, aTime)
	if err := os.Chmod(a, 0o600); err != nil {
		t.Fatal(err)
	}

	d := load(t, dir, model.DirAuto)
	if !d.Exists {
		t.Error("Exists = false")
	}
	want := []string{"a.md", "b.md", "feedback/x.md", "logs/2026/05/2026-05-26.md"}
	if got := filePaths(d); !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
	if d.Index == nil || d.Index.Path != "MEMORY.md" || string(d.Index.Content) != "- [b](b.md) — b\n" {
		t.Errorf("Index = %+v", d.Index)
	}
	f := d.Files[0]
	if string(f.Content) != "ay" || f.Size != 2 || !f.ModTime.Equal(aTime) || f.Mode != 0o600 || f.Truncated {
		t.Errorf("a.md = %+v", f)
	}
	if !d.LockModTime.Equal(lockTime) {
		t.Errorf("LockModTime = %v", d.LockModTime)
	}
	if len(d.Problems) != 0 {
		t.Errorf("Problems = %+v", d.Problems)
	}

	// The team dir itself reads its own files, and only them.
	td := load(t, filepath.Join(dir, "team"), model.DirTeam)
	if got := filePaths(td); !reflect.DeepEqual(got, []string{"t.md"}) {
		t.Errorf("team Files = %q", got)
	}
	// Agent dirs have no team split: a team/ inside is just a subfolder.
	ad := load(t, dir, model.DirAgentUser)
	if got := filePaths(ad); len(got) != 5 || got[4] != "team/t.md" {
		t.Errorf("agent Files = %q", got)
	}

	// A reload replaces, never appends.
	if err := os.Remove(filepath.Join(dir, "b.md")); err != nil {
		t.Fatal(err)
	}
	if err := LoadDir(t.Context(), d, loadOpts()); err != nil {
		t.Fatal(err)
	}
	if got := filePaths(d); len(got) != 3 {
		t.Errorf("reload Files = %q", got)
	}
}

func TestLoadDirAbsentAndNotDir(t *testing.T) {
	tmp := t.TempDir()
	d := load(t, filepath.Join(tmp, "missing"), model.DirOverride)
	if d.Exists || len(d.Problems) != 0 || d.Files != nil {
		t.Errorf("absent dir: %+v", d)
	}
	file := testfs.Write(t, filepath.Join(tmp, "memory"), "x")
	d = load(t, file, model.DirAuto)
	if d.Exists || len(d.Problems) != 1 || d.Problems[0].Kind != model.ProblemNotFile || d.Problems[0].Path != "" {
		t.Errorf("file as dir: %+v", d)
	}
}

func TestLoadDirSymlinks(t *testing.T) {
	tmp := t.TempDir()
	dir := testfs.Mkdir(t, filepath.Join(tmp, "memory"))
	outside := testfs.Write(t, filepath.Join(tmp, "secret.md"), "outside")
	outsideDir := testfs.Mkdir(t, filepath.Join(tmp, "elsewhere"))
	testfs.Write(t, filepath.Join(outsideDir, "o.md"), "o")
	testfs.Write(t, filepath.Join(dir, "real.md"), "real")
	testfs.Write(t, filepath.Join(dir, "sub", "deep.md"), "deep")

	testfs.Symlink(t, "real.md", filepath.Join(dir, "alias.md"))                // inside: read through
	testfs.Symlink(t, outside, filepath.Join(dir, "escape.md"))                 // outside file: read, as Claude Code does
	testfs.Symlink(t, "../elsewhere", filepath.Join(dir, "out"))                // outside dir: walked, as Claude Code does
	testfs.Symlink(t, "b.md", filepath.Join(dir, "a.md"))                       // a → b → a
	testfs.Symlink(t, "a.md", filepath.Join(dir, "b.md"))                       //
	testfs.Symlink(t, "nothere.md", filepath.Join(dir, "dangling.md"))          // dangling
	testfs.Symlink(t, "..", filepath.Join(dir, "sub", "up"))                    // dir link back up to the root: not followed
	testfs.Symlink(t, "loopdir2", filepath.Join(dir, "loopdir1"))               // dir loop, no .md name
	testfs.Symlink(t, "loopdir1", filepath.Join(dir, "loopdir2"))               //
	testfs.Symlink(t, "sub", filepath.Join(dir, "subalias"))                    // dir inside, walked already: not followed
	testfs.Symlink(t, "nothere.txt", filepath.Join(dir, "ignored-dangling"))    // not a memory: ignored
	testfs.Symlink(t, filepath.Join(tmp, "x.txt"), filepath.Join(dir, "x.txt")) // not a memory: ignored

	done := make(chan *model.MemoryDir)
	go func() { done <- load(t, dir, model.DirAuto) }()
	var d *model.MemoryDir
	select {
	case d = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("LoadDir hung on a symlink loop")
	}
	want := map[string]model.ProblemKind{
		"alias.md":    model.ProblemSymlink,
		"escape.md":   model.ProblemSymlinkEscape,
		"out":         model.ProblemSymlinkEscape,
		"a.md":        model.ProblemSymlinkLoop,
		"b.md":        model.ProblemSymlinkLoop,
		"dangling.md": model.ProblemSymlinkLoop,
		"sub/up":      model.ProblemLinkSkipped,
		"loopdir1":    model.ProblemSymlinkLoop,
		"loopdir2":    model.ProblemSymlinkLoop,
		"subalias":    model.ProblemLinkSkipped,
	}
	if got := problemKinds(d.Problems); !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n got %v\nwant %v\n%+v", got, want, d.Problems)
	}
	if got := filePaths(d); !reflect.DeepEqual(got, []string{"alias.md", "escape.md", "out/o.md", "real.md", "sub/deep.md"}) {
		t.Errorf("Files = %q (links to files and folders are followed, as Claude Code's scan does; folders walked already are not)", got)
	}
	links := map[string]string{"alias.md": "alias.md", "escape.md": "escape.md", "out/o.md": "out", "real.md": "", "sub/deep.md": ""}
	for _, f := range d.Files {
		if f.Link != links[f.Path] {
			t.Errorf("%s: Link = %q, want %q", f.Path, f.Link, links[f.Path])
		}
		if f.Path == "alias.md" && string(f.Content) != "real" || f.Path == "escape.md" && string(f.Content) != "outside" {
			t.Errorf("%s content %q", f.Path, f.Content)
		}
	}
	for _, p := range d.Problems {
		if p.Path == "escape.md" && p.Detail != outside {
			t.Errorf("escape Detail = %q, want the target %q", p.Detail, outside)
		}
		if p.Path == "dangling.md" && !strings.Contains(p.Detail, "nothere.md") {
			t.Errorf("dangling Detail = %q", p.Detail)
		}
	}
}

// TestLoadDirThroughSymlinkedRoot: a memory dir reached through a symlink
// (~/.claude on another disk) is still read; containment is checked
// against its resolved path.
func TestLoadDirThroughSymlinkedRoot(t *testing.T) {
	tmp := t.TempDir()
	real := testfs.Mkdir(t, filepath.Join(tmp, "real"))
	testfs.Write(t, filepath.Join(real, "a.md"), "a")
	testfs.Symlink(t, "a.md", filepath.Join(real, "alias.md"))
	testfs.Symlink(t, real, filepath.Join(tmp, "link"))
	d := load(t, filepath.Join(tmp, "link"), model.DirAuto)
	if got := filePaths(d); !reflect.DeepEqual(got, []string{"a.md", "alias.md"}) {
		t.Errorf("Files = %q, Problems = %+v", got, d.Problems)
	}
	if got := problemKinds(d.Problems); got["alias.md"] != model.ProblemSymlink {
		t.Errorf("problems = %+v", d.Problems)
	}
}

func TestLoadDirTooLarge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.md")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# head\n"); err != nil {
		t.Fatal(err)
	}
	const size = 20 << 20 // sparse: fast to make, 20 MB to the reader
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	d := load(t, dir, model.DirAuto)
	if len(d.Files) != 1 {
		t.Fatalf("Files = %q", filePaths(d))
	}
	hf := d.Files[0]
	if !hf.Truncated || int64(len(hf.Content)) != DefaultMaxFileBytes || hf.Size != size || !bytes.HasPrefix(hf.Content, []byte("# head\n")) {
		t.Errorf("huge file: truncated=%v len=%d size=%d", hf.Truncated, len(hf.Content), hf.Size)
	}
	if len(d.Problems) != 1 || d.Problems[0].Kind != model.ProblemTooLarge || !strings.Contains(d.Problems[0].Detail, "20971520 bytes") {
		t.Errorf("problems = %+v", d.Problems)
	}

	// A custom cap, and a file exactly at the cap is whole.
	testfs.Write(t, filepath.Join(dir, "huge.md"), "12345")
	o := loadOpts()
	o.MaxFileBytes = 5
	if err := LoadDir(t.Context(), d, o); err != nil {
		t.Fatal(err)
	}
	if d.Files[0].Truncated || len(d.Problems) != 0 {
		t.Errorf("file at the cap: %+v %+v", d.Files[0], d.Problems)
	}
}

// TestLoadDirIndexCap: MEMORY.md, and only it, is read up to Claude
// Code's 4 MiB limit plus a byte, so that what was read tells whether
// Claude Code loads it (claude.SimulateLoad); a topic file keeps the 1 MiB
// cap.
func TestLoadDirIndexCap(t *testing.T) {
	sparse := func(p string, size int64) {
		t.Helper()
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("# Memory\n"); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	const limit = model.IndexMaxReadBytes
	for _, tc := range []struct {
		size      int64
		truncated bool
		loads     bool
	}{
		{2 << 20, false, true}, // over the 1 MiB of a topic file, read whole
		{limit, false, true},
		{limit + 1, false, false},
		{6 << 20, true, false},
	} {
		dir := t.TempDir()
		sparse(filepath.Join(dir, "MEMORY.md"), tc.size)
		sparse(filepath.Join(dir, "topic.md"), 2<<20)
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		sparse(filepath.Join(dir, "sub", "MEMORY-archive.md"), 2<<20)
		for _, kind := range []model.DirKind{model.DirAuto, model.DirTeam, model.DirAgentProject} {
			d := load(t, dir, kind)
			ix := d.Index
			if ix == nil {
				t.Fatalf("%d bytes, %s: no index", tc.size, kind)
			}
			want := min(tc.size, limit+1)
			if ix.Truncated != tc.truncated || int64(len(ix.Content)) != want || ix.Size != tc.size {
				t.Errorf("%d bytes, %s: truncated %v, read %d, size %d", tc.size, kind, ix.Truncated, len(ix.Content), ix.Size)
			}
			if ld := claude.SimulateLoad(ix.Content); ld.TooLarge == tc.loads {
				t.Errorf("%d bytes: too large %v", tc.size, ld.TooLarge)
			}
			for _, f := range d.Files {
				if !f.Truncated || int64(len(f.Content)) != DefaultMaxFileBytes {
					t.Errorf("%s: read %d bytes, truncated %v: a topic file keeps the 1 MiB cap", f.Path, len(f.Content), f.Truncated)
				}
			}
			tooLarge := 0
			for _, p := range d.Problems {
				if p.Kind == model.ProblemTooLarge {
					tooLarge++
					if p.Path == "MEMORY.md" && !strings.Contains(p.Detail, "only the first 4194305 were read") {
						t.Errorf("problem %q", p.Detail)
					}
				}
			}
			if want := 2 + map[bool]int{true: 1}[tc.truncated]; tooLarge != want {
				t.Errorf("%d bytes, %s: %d too-large problems, want %d: %+v", tc.size, kind, tooLarge, want, d.Problems)
			}
		}
	}
}

func TestLoadDirEncodingIsNotOurBusiness(t *testing.T) {
	dir := t.TempDir()
	bom := "\uFEFF---\nname: x\n---\n"
	bad := "caf\xe9 \xff\xfe\x00 end"
	testfs.Write(t, filepath.Join(dir, "bom.md"), bom)
	testfs.Write(t, filepath.Join(dir, "latin1.md"), bad)
	testfs.Write(t, filepath.Join(dir, "crlf.md"), "a\r\nb\r\n")
	testfs.Write(t, filepath.Join(dir, "empty.md"), "")
	d := load(t, dir, model.DirAuto)
	got := map[string]string{}
	for _, f := range d.Files {
		got[f.Path] = string(f.Content)
	}
	want := map[string]string{"bom.md": bom, "latin1.md": bad, "crlf.md": "a\r\nb\r\n", "empty.md": ""}
	if !reflect.DeepEqual(got, want) || len(d.Problems) != 0 {
		t.Errorf("contents = %q, problems %+v", got, d.Problems)
	}
}

func TestLoadDirUnreadable(t *testing.T) {
	dir := t.TempDir()
	locked := testfs.Write(t, filepath.Join(dir, "locked.md"), "secret")
	sub := testfs.Mkdir(t, filepath.Join(dir, "closed"))
	testfs.Write(t, filepath.Join(sub, "inner.md"), "inner")
	testfs.Write(t, filepath.Join(dir, "ok.md"), "ok")
	for _, p := range []string{locked, sub} {
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	defer os.Chmod(sub, 0o755)
	d := load(t, dir, model.DirAuto)
	if os.Geteuid() == 0 {
		// root bypasses permission bits: everything reads, nothing is
		// reported. Assert that rather than skip, so the test still checks
		// the reader on a root-run CI.
		if got := filePaths(d); !reflect.DeepEqual(got, []string{"closed/inner.md", "locked.md", "ok.md"}) || len(d.Problems) != 0 {
			t.Errorf("as root: Files %q Problems %+v", got, d.Problems)
		}
		if d.Files[1].Mode != 0 {
			t.Errorf("Mode of a 000 file = %o", d.Files[1].Mode)
		}
		return
	}
	want := map[string]model.ProblemKind{"locked.md": model.ProblemUnreadable, "closed": model.ProblemUnreadable}
	if got := problemKinds(d.Problems); !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %+v", d.Problems)
	}
	if got := filePaths(d); !reflect.DeepEqual(got, []string{"ok.md"}) {
		t.Errorf("Files = %q", got)
	}
	for _, p := range d.Problems {
		if !strings.Contains(p.Detail, "permission denied") {
			t.Errorf("Detail = %q", p.Detail)
		}
	}
}

// TestLoadDirVanishing deletes a file after readdir listed it and before
// the reader opens it, the race an agent pruning memories produces; and a
// whole subdirectory, in case its chunk is opened after it is gone.
func TestLoadDirVanishing(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "stays.md"), "s")
	testfs.Write(t, filepath.Join(dir, "gone.md"), "g")
	testfs.Write(t, filepath.Join(dir, "old", "x.md"), "x")
	testfs.Write(t, filepath.Join(dir, "old", "y.md"), "y")
	testHookBeforeRead = func(p string) {
		switch filepath.Base(p) {
		case "gone.md":
			os.Remove(p)
		case "old", "x.md":
			os.RemoveAll(filepath.Join(dir, "old"))
		}
	}
	defer func() { testHookBeforeRead = nil }()
	d := load(t, dir, model.DirAuto)
	if got := filePaths(d); !reflect.DeepEqual(got, []string{"stays.md"}) {
		t.Errorf("Files = %q", got)
	}
	want := map[string]model.ProblemKind{"gone.md": model.ProblemUnreadable, "old/x.md": model.ProblemUnreadable, "old/y.md": model.ProblemUnreadable}
	if got := problemKinds(d.Problems); !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %+v", d.Problems)
	}
	for _, p := range d.Problems {
		if !strings.Contains(p.Detail, "vanished") {
			t.Errorf("%s: Detail = %q", p.Path, p.Detail)
		}
	}
}

// TestLoadDirManyFiles: chunks split big directories across workers and
// keep small ones whole; every file comes back once, in order, with its own
// content.
func TestLoadDirManyFiles(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := 0; i < 3*chunkSize+5; i++ {
		name := fmt.Sprintf("m%03d.md", i)
		testfs.Write(t, filepath.Join(dir, name), name)
		want = append(want, name)
		if i%50 == 0 {
			sub := fmt.Sprintf("s%d/n.md", i)
			testfs.Write(t, filepath.Join(dir, filepath.FromSlash(sub)), sub)
			want = append(want, sub)
		}
	}
	sort.Strings(want)
	o := loadOpts()
	o.Workers = 3
	d := &model.MemoryDir{Path: dir, Kind: model.DirAuto}
	if err := LoadDir(t.Context(), d, o); err != nil {
		t.Fatal(err)
	}
	if got := filePaths(d); !reflect.DeepEqual(got, want) {
		t.Fatalf("Files = %d, want %d", len(got), len(want))
	}
	for _, f := range d.Files {
		if string(f.Content) != f.Path {
			t.Errorf("%s holds %q", f.Path, f.Content)
		}
	}
}

func TestLoadDirCancelled(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "a.md"), "a")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := LoadDir(ctx, &model.MemoryDir{Path: dir}, loadOpts()); err == nil {
		t.Error("no error from a cancelled LoadDir")
	}
}

// TestScan runs discovery and loading end to end over two projects and
// checks that team files stay out of the parent dir, and that a legacy
// team/MEMORY.md is no index (without stores, it is skipped by its name).
func TestScan(t *testing.T) {
	w := newWorld(t)
	_, acme := w.project("acme", true)
	testfs.Write(t, filepath.Join(acme, "memory", "team", "MEMORY.md"), "- [t](t.md)\n")
	testfs.Write(t, filepath.Join(acme, "memory", "team", "t.md"), "team")
	_, globex := w.project("globex", true)
	testfs.Write(t, filepath.Join(globex, "memory", "sub", "b.md"), "b")
	s, err := Scan(t.Context(), w.opts())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, p := range s.Projects {
		for _, d := range p.Dirs {
			rel, _ := filepath.Rel(w.config, d.Path)
			got[filepath.ToSlash(rel)] = filePaths(d)
			// Claude Code 2.1.332 loads no team/MEMORY.md: a team
			// dir's indexes are its mounted stores'.
			if (d.Index == nil) != (d.Kind == model.DirTeam) {
				t.Errorf("%s (%s): index %v", rel, d.Kind, d.Index != nil)
			}
		}
	}
	want := map[string][]string{
		"projects/" + filepath.Base(acme) + "/memory":      {"a.md"},
		"projects/" + filepath.Base(acme) + "/memory/team": {"t.md"},
		"projects/" + filepath.Base(globex) + "/memory":    {"a.md", "sub/b.md"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scan = %v\nwant %v", got, want)
	}
}

// TestSymlinkedTeamFollowed: a team/ that is a symlink out of the memory
// dir is not listed as a team dir of its own; the parent follows it, as
// Claude Code's scan does, and reports it.
func TestSymlinkedTeamFollowed(t *testing.T) {
	w := newWorld(t)
	_, slugDir := w.project("acme", true)
	shared := testfs.Mkdir(t, filepath.Join(w.tmp, "shared-team"))
	testfs.Write(t, filepath.Join(shared, "t.md"), "elsewhere")
	testfs.Symlink(t, shared, filepath.Join(slugDir, "memory", "team"))
	s, err := Scan(t.Context(), w.opts())
	if err != nil {
		t.Fatal(err)
	}
	p := s.Projects[0]
	if len(p.Dirs) != 1 || p.Dirs[0].Kind != model.DirAuto {
		t.Fatalf("dirs = %q", dirsOf(p, slugDir))
	}
	d := p.Dirs[0]
	if got := filePaths(d); !reflect.DeepEqual(got, []string{"a.md", "team/t.md"}) {
		t.Errorf("Files = %q", got)
	}
	if f := d.Files[len(d.Files)-1]; f.Link != "team" || f.Scan != model.ScanIn {
		t.Errorf("team/t.md: Link %q, Scan %q", f.Link, f.Scan)
	}
	if got := problemKinds(d.Problems); got["team"] != model.ProblemSymlinkEscape {
		t.Errorf("problems = %+v", d.Problems)
	}
}
