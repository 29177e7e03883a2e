package memfs

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
)

func hasLine(lines []string, sub string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, sub) })
}

// TestKeyOf: the key root of each shape Claude Code knows (facts §1.3
// step 2): a repository's root, a subdirectory, a worktree and a folder
// inside it, a bare repository's worktree, a submodule and a folder
// inside it, no repository, a folder gone, a link to a folder.
func TestKeyOf(t *testing.T) {
	w := newWorld(t)
	src := filepath.Join(w.home, "src")
	main := testfs.Repo(t, filepath.Join(src, "app"))
	testfs.Mkdir(t, filepath.Join(main, "web", "ui"))
	wt := filepath.Join(src, "app-fix")
	testfs.Git(t, main, "worktree", "add", "-q", wt)
	testfs.Mkdir(t, filepath.Join(wt, "web"))
	bare := filepath.Join(src, "lib.git")
	testfs.Git(t, src, "clone", "-q", "--bare", main, bare)
	bwt := filepath.Join(src, "lib-main")
	testfs.Git(t, bare, "worktree", "add", "-q", bwt)
	// A submodule: its .git file names <main>/.git/modules/<name>, which
	// has no commondir, so it keeps its own root.
	origin := testfs.Repo(t, filepath.Join(w.tmp, "origin"))
	testfs.Git(t, main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", origin, "vendor/lib")
	sub := filepath.Join(main, "vendor", "lib")
	testfs.Mkdir(t, filepath.Join(sub, "docs"))
	plain := testfs.Mkdir(t, filepath.Join(w.tmp, "plain", "notes"))
	testfs.Symlink(t, main, filepath.Join(src, "app-link"))

	for _, c := range []struct {
		dir, root string
		kind      KeyKind
		proof     string
	}{
		{main, main, KeyRepo, filepath.Join(main, ".git") + " is a directory"},
		{filepath.Join(main, "web", "ui"), main, KeySubdir, filepath.Join(main, ".git") + " is the first .git found walking up from " + filepath.Join(main, "web", "ui")},
		{wt, main, KeyWorktree, filepath.Join(main, ".git", "worktrees", "app-fix", "gitdir") + " points back to " + filepath.Join(wt, ".git")},
		{filepath.Join(wt, "web"), main, KeyWorktree, filepath.Join(wt, ".git") + " is the first .git found walking up"},
		{bwt, bare, KeyWorktree, "worktree of the bare repository " + bare},
		{sub, sub, KeyRepo, "which has no readable commondir"},
		{filepath.Join(sub, "docs"), sub, KeySubdir, filepath.Join(sub, ".git") + " is the first .git found walking up"},
		{plain, plain, KeyNoRepo, "no .git in " + plain},
		{filepath.Join(src, "gone"), "", KeyMissing, filepath.Join(src, "gone") + " no longer exists"},
		{filepath.Join(src, "app-link"), main, KeyRepo, filepath.Join(src, "app-link") + " resolves to " + main},
	} {
		k, err := KeyOf(c.dir)
		if err != nil {
			t.Errorf("KeyOf(%s): %v", c.dir, err)
			continue
		}
		if k.Root != c.root || k.Kind != c.kind || !hasLine(k.Evidence, c.proof) {
			t.Errorf("KeyOf(%s) = root %q, %s, evidence %q; want root %q, %s, evidence naming %q", c.dir, k.Root, k.Kind, k.Evidence, c.root, c.kind, c.proof)
		}
	}
}

// TestKeyOfHostileGit: a .git file that is garbage, names a huge file, a
// FIFO or itself, a worktree whose back-pointer names someone else, and a
// launch folder that is a link loop: KeyOf returns promptly, panics on
// none, and each .git file that is no worktree's keeps its own root.
func TestKeyOfHostileGit(t *testing.T) {
	w := newWorld(t)
	src := filepath.Join(w.home, "src")
	huge := filepath.Join(w.tmp, "huge")
	testfs.Sparse(t, huge, 3<<30)
	fifoDir := testfs.Mkdir(t, filepath.Join(w.tmp, "fifo-gitdir"))
	testfs.Mkfifo(t, filepath.Join(fifoDir, "commondir"))
	testfs.Mkfifo(t, filepath.Join(w.tmp, "fifo"))
	// A worktree entry of a real repository whose back-pointer names
	// another folder: borrowed, not this checkout's.
	main := testfs.Repo(t, filepath.Join(src, "app"))
	testfs.Git(t, main, "worktree", "add", "-q", filepath.Join(src, "app-fix"))
	borrowed := filepath.Join(main, ".git", "worktrees", "app-fix")

	cases := map[string]string{
		"garbage":      "\x00\x1b[31mnot a gitdir line\n",
		"huge gitdir":  "gitdir: " + huge + "\n",
		"fifo gitdir":  "gitdir: " + fifoDir + "\n",
		"fifo file":    "gitdir: " + filepath.Join(w.tmp, "fifo") + "\n",
		"itself":       "gitdir: .git\n",
		"parent loop":  "gitdir: ..\n",
		"borrowed":     "gitdir: " + borrowed + "\n",
		"backslash":    "gitdir: ..\\app\\.git\\worktrees\\app-fix\n",
		"empty gitdir": "gitdir:   \n",
	}
	for name, content := range cases {
		dir := testfs.Mkdir(t, filepath.Join(src, "hostile", strings.ReplaceAll(name, " ", "-")))
		testfs.Write(t, filepath.Join(dir, ".git"), content)
		var k Key
		var err error
		testfs.ReturnsIn(t, "KeyOf over "+name, func() { k, err = KeyOf(dir) })
		if err != nil || k.Root != dir || k.Kind != KeyRepo || !hasLine(k.Evidence, "keeps its own root") {
			t.Errorf("%s: KeyOf = %+v, %v; want its own root, saying so", name, k, err)
		}
	}

	// A .git that is itself a huge file or a FIFO.
	hugeGit := testfs.Mkdir(t, filepath.Join(src, "hostile", "huge-git"))
	testfs.Sparse(t, filepath.Join(hugeGit, ".git"), 3<<30)
	fifoGit := testfs.Mkdir(t, filepath.Join(src, "hostile", "fifo-git"))
	testfs.Mkfifo(t, filepath.Join(fifoGit, ".git"))
	for _, dir := range []string{hugeGit, fifoGit} {
		var k Key
		testfs.ReturnsIn(t, "KeyOf "+dir, func() { k, _ = KeyOf(dir) })
		if k.Kind == KeyWorktree || k.Kind == KeyMissing {
			t.Errorf("%s: KeyOf = %+v; a huge or FIFO .git leads nowhere", dir, k)
		}
	}

	// A launch folder that is a link loop can be neither resolved nor
	// ruled gone: an error, not a guess.
	loop := filepath.Join(src, "loop")
	testfs.Symlink(t, loop, loop)
	testfs.ReturnsIn(t, "KeyOf over a link loop", func() {
		if k, err := KeyOf(loop); err == nil && k.Kind != KeyMissing {
			t.Errorf("a link loop: KeyOf = %+v, want an error or missing", k)
		}
	})
}
