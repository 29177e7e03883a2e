package memfs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// The repositories here are real: git init, a commit, git worktree add,
// made by git itself (testfs.Git), so the .git files, gitdir and commondir
// are the shapes git writes, not memtui's idea of them.

// store makes the project folder a session launched in cwd leaves under
// the config dir: projects/<slug of cwd>/ with one transcript whose first
// message line carries cwd, and a memory dir holding files (none: no
// memory dir). It returns the memory dir.
func (w *world) store(cwd string, files map[string]string) string {
	w.t.Helper()
	slugDir := testfs.Mkdir(w.t, filepath.Join(w.config, "projects", slugOf(cwd)))
	transcript(w.t, slugDir, uuid1+".jsonl", time.Now(), metaLine("summary"), msgLine(cwd))
	mem := filepath.Join(slugDir, MemoryDirName)
	if files != nil {
		testfs.WriteAll(w.t, mem, files)
	}
	return mem
}

// strands discovers the world and finds its stranded stores.
func (w *world) strands() []model.Strand {
	w.t.Helper()
	return Strands(w.t.Context(), w.discover(), w.opts())
}

func memories(names ...string) map[string]string {
	m := map[string]string{"MEMORY.md": ""}
	for _, n := range names {
		m["MEMORY.md"] += "- [" + n + "](" + n + ".md) — " + n + "\n"
		m[n+".md"] = "---\nname: " + n + "\ndescription: the " + n + " memory, long enough to be one of a kind\ntype: project\n---\n" + n + " is how this project does " + n + ".\n"
	}
	return m
}

// TestStrandsWorktree: sessions launched in a git worktree wrote into the
// worktree's own store; Claude Code loads the main checkout's. The
// worktree's store is stranded, its memories belong with the main
// checkout's store, and the evidence names the worktree's .git file and
// the back-pointers. The main checkout's own store is loaded.
func TestStrandsWorktree(t *testing.T) {
	w := newWorld(t)
	main := testfs.Repo(t, filepath.Join(w.home, "src", "app"))
	wt := filepath.Join(w.home, "src", "app-fix")
	testfs.Git(t, main, "worktree", "add", "-q", wt)
	mainMem := w.store(main, memories("build"))
	wtMem := w.store(wt, memories("deploy", "flaky-test"))

	got := w.strands()
	if len(got) != 1 {
		t.Fatalf("strands = %+v, want the worktree's store alone", got)
	}
	s := got[0]
	want := model.Strand{Kind: model.StrandWorktree, From: wtMem, Project: slugOf(wt), Cwd: wt, To: mainMem, Root: main, ToExists: true, Memories: 2, Index: true}
	if s.Kind != want.Kind || s.From != want.From || s.Project != want.Project || s.Cwd != want.Cwd || s.To != want.To || s.Root != want.Root || !s.ToExists || s.Memories != 2 || !s.Index {
		t.Errorf("strand = %+v\nwant %+v", s, want)
	}
	for _, e := range []string{
		filepath.Join(wt, ".git") + " is a file naming " + filepath.Join(main, ".git", "worktrees", "app-fix"),
		filepath.Join(main, ".git", "worktrees", "app-fix", "commondir") + " leads to " + filepath.Join(main, ".git"),
		filepath.Join(main, ".git", "worktrees", "app-fix", "gitdir") + " points back to " + filepath.Join(wt, ".git"),
	} {
		if !slices.Contains(s.Evidence, e) {
			t.Errorf("evidence %q lacks %q", s.Evidence, e)
		}
	}
	if !strings.Contains(s.Why, "git worktree "+wt) || !strings.Contains(s.Why, "main checkout "+main) {
		t.Errorf("why = %q: must name the worktree and its main checkout", s.Why)
	}
}

// TestStrandsWorktreeTargetNotYet: with no store at the main checkout
// yet, the strand still names where the memories belong (the folder
// Claude Code would name), and says it is not there.
func TestStrandsWorktreeTargetNotYet(t *testing.T) {
	w := newWorld(t)
	main := testfs.Repo(t, filepath.Join(w.home, "src", "app"))
	wt := filepath.Join(w.home, "src", "app-fix")
	testfs.Git(t, main, "worktree", "add", "-q", wt)
	w.store(wt, memories("deploy"))
	got := w.strands()
	if len(got) != 1 || got[0].To != filepath.Join(w.config, "projects", slugOf(main), MemoryDirName) || got[0].ToExists {
		t.Fatalf("strands = %+v, want the main checkout's store, not there yet", got)
	}
}

// TestStrandsBareWorktree: a bare repository's worktree keys to the bare
// repository's folder.
func TestStrandsBareWorktree(t *testing.T) {
	w := newWorld(t)
	src := testfs.Mkdir(t, filepath.Join(w.home, "src"))
	origin := testfs.Repo(t, filepath.Join(w.tmp, "origin"))
	bare := filepath.Join(src, "lib.git")
	testfs.Git(t, src, "clone", "-q", "--bare", origin, bare)
	wt := filepath.Join(src, "lib-main")
	testfs.Git(t, bare, "worktree", "add", "-q", wt)
	w.store(wt, memories("release"))
	got := w.strands()
	if len(got) != 1 || got[0].Kind != model.StrandWorktree || got[0].Root != bare || !strings.Contains(got[0].Why, "bare repository "+bare) {
		t.Fatalf("strands = %+v, want the bare repository %s as the key", got, bare)
	}
}

// TestStrandsSubdir: a session launched in a subdirectory of a repository
// wrote into the subdirectory's own store; its memories belong with the
// repository root's store, and the evidence is the first .git walking up.
func TestStrandsSubdir(t *testing.T) {
	w := newWorld(t)
	repo := testfs.Repo(t, filepath.Join(w.home, "src", "shop"))
	sub := testfs.Mkdir(t, filepath.Join(repo, "web"))
	rootMem := w.store(repo, memories("checkout"))
	subMem := w.store(sub, memories("css"))
	got := w.strands()
	if len(got) != 1 {
		t.Fatalf("strands = %+v, want the subdirectory's store alone", got)
	}
	s := got[0]
	if s.Kind != model.StrandSubdir || s.From != subMem || s.To != rootMem || s.Root != repo || !s.ToExists || s.Memories != 1 {
		t.Errorf("strand = %+v; want subdir %s → %s", s, subMem, rootMem)
	}
	proof := filepath.Join(repo, ".git") + " is the first .git found walking up from " + sub
	if !slices.Contains(s.Evidence, proof) || !strings.Contains(s.Why, "a subdirectory of the repository "+repo) {
		t.Errorf("why %q, evidence %q: want %q", s.Why, s.Evidence, proof)
	}
}

// TestStrandsMoved: a project folder gone from a folder still there: the
// store is stranded, with no target (nothing on disk says where it
// went); a folder gone with its parent says nothing (a drive not mounted
// looks the same). Another store that only shares the name proves
// nothing.
func TestStrandsMoved(t *testing.T) {
	w := newWorld(t)
	src := testfs.Mkdir(t, filepath.Join(w.home, "src"))
	gone := filepath.Join(src, "blog")
	goneMem := w.store(gone, memories("posts"))
	w.store(filepath.Join(w.tmp, "unmounted", "disk", "blog"), memories("drafts"))
	// A live project of a similar name, with a memory of the same name
	// but other bytes: no evidence.
	blog2 := testfs.Repo(t, filepath.Join(src, "blog2"))
	other := memories("posts")
	other["posts.md"] += "and more.\n"
	w.store(blog2, other)

	got := w.strands()
	if len(got) != 1 {
		t.Fatalf("strands = %+v, want the moved store alone", got)
	}
	s := got[0]
	if s.Kind != model.StrandMoved || s.From != goneMem || s.To != "" || s.Root != "" || s.Cwd != gone {
		t.Errorf("strand = %+v; want moved, no target", s)
	}
	if !strings.Contains(s.Why, gone+", which no longer exists") || !hasLine(s.Evidence, src+" is still there") {
		t.Errorf("why %q, evidence %q", s.Why, s.Evidence)
	}
}

// TestStrandsMovedIdentical: a moved project whose memory files stand
// byte for byte in a live store: that store is the target, and the
// evidence names the files.
func TestStrandsMovedIdentical(t *testing.T) {
	w := newWorld(t)
	src := testfs.Mkdir(t, filepath.Join(w.home, "src"))
	gone := filepath.Join(src, "blog")
	w.store(gone, memories("posts", "theme"))
	moved := testfs.Repo(t, filepath.Join(src, "writing"))
	live := memories("posts", "theme", "newsletter")
	liveMem := w.store(moved, live)
	// A third store with one of the files: fewer matches, not chosen.
	w.store(testfs.Mkdir(t, filepath.Join(src, "other")), memories("theme"))

	got := w.strands()
	if len(got) != 1 || got[0].To != liveMem || got[0].Root != moved {
		t.Fatalf("strands = %+v, want the moved store's memories to belong with %s", got, liveMem)
	}
	s := got[0]
	if !strings.Contains(s.Why, "holds 2 of its memory files byte for byte (posts.md, theme.md)") || !hasLine(s.Evidence, "posts.md is the same, byte for byte") {
		t.Errorf("why %q, evidence %q", s.Why, s.Evidence)
	}
}

// TestStrandsMovedWorktreeRegistered: a worktree folder deleted by hand
// (not with git worktree remove): the repository still lists it, which
// proves whose worktree it was.
func TestStrandsMovedWorktreeRegistered(t *testing.T) {
	w := newWorld(t)
	main := testfs.Repo(t, filepath.Join(w.home, "src", "app"))
	wt := filepath.Join(w.home, "src", "app-spike")
	testfs.Git(t, main, "worktree", "add", "-q", wt)
	mainMem := w.store(main, memories("build"))
	w.store(wt, memories("spike"))
	if err := os.RemoveAll(wt); err != nil {
		t.Fatal(err)
	}
	got := w.strands()
	if len(got) != 1 || got[0].Kind != model.StrandMoved || got[0].To != mainMem || got[0].Root != main {
		t.Fatalf("strands = %+v, want the deleted worktree's store to belong with %s", got, mainMem)
	}
	reg := filepath.Join(main, ".git", "worktrees", "app-spike", "gitdir") + " still names " + filepath.Join(wt, ".git")
	if !slices.Contains(got[0].Evidence, reg) || !strings.Contains(got[0].Why, "git still lists "+wt+" as a worktree of the repository at "+main) {
		t.Errorf("why %q, evidence %q: want %q", got[0].Why, got[0].Evidence, reg)
	}
}

// TestStrandsMovedLink: a project folder moved and a link left in its
// place: Claude Code resolves the link, so the old store is stranded and
// its memories belong with the new folder's store.
func TestStrandsMovedLink(t *testing.T) {
	w := newWorld(t)
	src := filepath.Join(w.home, "src")
	old := filepath.Join(src, "api")
	oldMem := w.store(old, memories("auth"))
	now := testfs.Repo(t, filepath.Join(src, "api-v2"))
	nowMem := w.store(now, memories("auth2"))
	testfs.Symlink(t, now, old)
	got := w.strands()
	if len(got) != 1 || got[0].From != oldMem || got[0].Kind != model.StrandMoved || got[0].To != nowMem || !strings.Contains(got[0].Why, "now a link to "+now) {
		t.Fatalf("strands = %+v, want %s → %s through the link", got, oldMem, nowMem)
	}
}

// TestStrandsLoadedAndSilent: what is not stranded says nothing: the
// main checkout's store, a folder outside any repository, a worktree
// store with no memory in it, a project whose folder the transcripts do
// not name, and a folder whose .git file is garbage (it keeps its own
// root, so its own store is the one loaded).
func TestStrandsLoadedAndSilent(t *testing.T) {
	w := newWorld(t)
	src := filepath.Join(w.home, "src")
	main := testfs.Repo(t, filepath.Join(src, "app"))
	wt := filepath.Join(src, "app-fix")
	testfs.Git(t, main, "worktree", "add", "-q", wt)
	w.store(main, memories("build"))
	w.store(wt, map[string]string{}) // the store was made, nothing written
	w.store(testfs.Mkdir(t, filepath.Join(w.tmp, "notes")), memories("todo"))
	testfs.WriteAll(t, filepath.Join(w.config, "projects", "-unconfirmed", MemoryDirName), memories("x"))
	odd := testfs.Mkdir(t, filepath.Join(src, "odd"))
	testfs.Write(t, filepath.Join(odd, ".git"), "gitdir: nowhere\n")
	w.store(odd, memories("odd"))
	if got := w.strands(); len(got) != 0 {
		t.Errorf("strands = %+v, want none", got)
	}
}

// TestStrandsSessionCwds: a project whose transcripts were read counts
// each session's launch folder, not Root alone: with Root unknown, a
// session's cwd finds the strand; a session of the project's own folder
// launched where the key names its store (/src/shop-web sanitizes as
// /src/shop/web does) makes the store loaded; a session from another
// folder (OtherFolder) counts for nothing.
func TestStrandsSessionCwds(t *testing.T) {
	w := newWorld(t)
	src := filepath.Join(w.home, "src")
	repo := testfs.Repo(t, filepath.Join(src, "shop"))
	sub := testfs.Mkdir(t, filepath.Join(repo, "web"))
	twin := testfs.Mkdir(t, filepath.Join(src, "shop-web"))
	w.store(sub, memories("css"))
	scan := w.discover()
	p := findProject(t, scan, slugOf(sub))
	p.Root = ""
	for _, c := range []struct {
		sessions map[string]*model.Session
		want     int
	}{
		{nil, 0},
		{map[string]*model.Session{"a": {ID: "a", Cwd: sub}}, 1},
		{map[string]*model.Session{"a": {ID: "a", Cwd: sub}, "b": {ID: "b", Cwd: twin, OtherFolder: true}}, 1},
		{map[string]*model.Session{"a": {ID: "a", Cwd: sub}, "b": {ID: "b", Cwd: twin}}, 0},
	} {
		p.Log = nil
		if c.sessions != nil {
			p.Log = &model.TranscriptLog{Sessions: c.sessions}
		}
		if got := Strands(t.Context(), scan, w.opts()); len(got) != c.want {
			t.Errorf("sessions %v: strands = %+v, want %d", c.sessions, got, c.want)
		}
	}
}

// TestProjectSlug: Claude Code's slug of a long path carries the Java
// string hash of the whole name in base 36 (facts §1.3 step 3); the
// expected value was computed apart from memtui, over UTF-16 units.
func TestProjectSlug(t *testing.T) {
	if got := projectSlug("/Users/al/my_repo.v2"); got != "-Users-al-my-repo-v2" {
		t.Errorf("short: %q", got)
	}
	long := "/home/al/" + strings.Repeat("very-long-folder-name/", 10) + "ünïcode-😀"
	want := "-home-al-very-long-folder-name-very-long-folder-name-very-long-folder-name-very-long-folder-name-very-long-folder-name-very-long-folder-name-very-long-folder-name-very-long-folder-name-very-long-folde-wbdm81"
	if got := projectSlug(long); got != want {
		t.Errorf("long:\n got %q\nwant %q", got, want)
	}
	if !SlugMatcher(long)(projectSlug(long)) {
		t.Error("SlugMatcher must accept the full slug")
	}
}
