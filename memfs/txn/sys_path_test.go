//go:build unix

package txn

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestMain runs the whole suite on pathLayer, the layer Windows uses, when
// MEMTUI_TXN_LAYER=path (crash helpers, run as child processes, inherit
// it): `MEMTUI_TXN_LAYER=path go test ./memfs/txn/`.
func TestMain(m *testing.M) {
	if os.Getenv("MEMTUI_TXN_LAYER") == "path" {
		sys = newPathLayer()
	}
	os.Exit(m.Run())
}

// usePathLayer runs the rest of t on pathLayer, Windows's layer (and its
// crash helpers too), and checks that every folder handle it opened was
// closed again.
func usePathLayer(t *testing.T) *pathLayer {
	l := newPathLayer()
	old := sys
	sys = l
	t.Setenv("MEMTUI_TXN_LAYER", "path")
	t.Cleanup(func() {
		sys = old
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.dirs) != 0 {
			t.Errorf("%d folder handles left open: %v", len(l.dirs), l.dirs)
		}
	})
	return l
}

// TestPathLayer runs a representative part of the suite on pathLayer:
// apply, conflict refusal, unsafe paths, Claude Code's lock, undo,
// rollback on a failing step, recovery after a crash, moves and a foreign
// store. `MEMTUI_TXN_LAYER=path go test ./memfs/txn/` runs all of it.
func TestPathLayer(t *testing.T) {
	if _, ok := sys.(*pathLayer); ok {
		t.Skip("the whole suite runs on pathLayer already")
	}
	for _, tc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"Apply", TestApplyWritesAllChangesKeepsModeAndJournals},
		{"Conflict", TestApplyConflictRefusesTheWholeProposal},
		{"UnsafePaths", TestApplyRefusesUnsafePaths},
		{"ClaudeLock", TestClaudeLockInterop},
		{"LockRestored", TestLockRestoredOrMarked},
		{"Undo", TestUndo},
		{"Mtimes", TestTidyUpKeepsMtimeAndUndoRestoresIt},
		{"Move", TestMoveKeepsFileAndUndoMovesItBack},
		{"RollbackInFlight", TestMoveRolledBackInFlight},
		{"LinkedRollback", TestApplyLinkedLateFailureRollsBothBack},
		{"Recovery", TestRecoveryReportsFileByFile},
		{"Crash", TestCrashLeavesAllOrNothing},
		{"Foreign", TestForeignStoreApplyAndUndo},
		{"ForeignCreate", TestForeignCreateNeverOverwrites},
		{"ConcurrentAgents", TestConcurrentAgentsLoseNoWrite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			usePathLayer(t)
			tc.fn(t)
		})
	}
}

// A folder memtui opened, swapped for a link (a junction on Windows)
// before the next operation: pathLayer walks the path again each time and
// refuses it, so nothing is written where the link points.
func TestPathLayerRefusesAFolderSwappedForALink(t *testing.T) {
	l := usePathLayer(t)
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	rfd, err := l.openDir(atCWD, root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close(rfd)
	sfd, err := l.openDir(rfd, "sub")
	if err != nil {
		t.Fatal(err)
	}
	defer l.close(sfd)
	if err := os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	f, err := l.createExcl(sfd, "x.md", 0o600)
	if err == nil {
		f.Close()
		t.Fatal("created x.md through a folder swapped for a link")
	}
	if !isLinkOrNotDir(err) {
		t.Errorf("err = %v, want a link refused", err)
	}
	if _, err := l.openDir(rfd, "sub"); !isLinkOrNotDir(err) {
		t.Errorf("openDir of the link: err = %v, want a link refused", err)
	}
	if _, err := l.lstat(sfd, "x.md"); !isLinkOrNotDir(err) {
		t.Errorf("lstat through the link: err = %v, want a link refused", err)
	}
	if err := l.link(rfd, "old", sfd, "y.md"); err == nil {
		t.Error("linked into a folder swapped for a link")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("wrote where the link points: %v", ents)
	}
}

// Names Windows would read as another file (a stream, a device, a name
// it strips) are refused by pathLayer before any call, on every system.
func TestPathLayerRefusesWindowsTrickNames(t *testing.T) {
	l := usePathLayer(t)
	root := t.TempDir()
	rfd, err := l.openDir(atCWD, root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close(rfd)
	for _, name := range []string{"a.md:evil", "nul.md", "COM1.md", "a.md.", "a.md ", `a\b.md`, ".."} {
		f, err := l.createExcl(rfd, name, 0o600)
		if err == nil {
			f.Close()
			t.Errorf("%q: created", name)
			continue
		}
		if !errors.Is(err, errRefused) {
			t.Errorf("%q: err = %v, want refused", name, err)
		}
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("created %v", ents)
	}
	// A plain name goes through.
	f, err := l.createExcl(rfd, "ok.md", 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A write on pathLayer through Apply into a memory dir whose sub-folder
// is a link is refused, as on Unix, and the target is untouched.
func TestPathLayerApplyRefusesLinkedFolder(t *testing.T) {
	usePathLayer(t)
	w := newApplyWorld(t, map[string]string{"MEMORY.md": "- x\n"})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(w.dir, "sub")); err != nil {
		t.Fatal(err)
	}
	r := applyOne(t, w, prop("p", model.Change{Path: "sub/n.md", Op: model.OpCreate, After: "new\n"}), w.opts())
	if r.Status != StatusFailed || !errors.Is(r.Err, errRefused) {
		t.Fatalf("%+v", r)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("wrote through the link: %v", ents)
	}
}

// racedLink is a layer whose first link of the file named racy behaves as
// Linux's link(2) does when an agent renames its version over the name
// during the call: the agent's rename lands, and the link fails as if the
// name did not exist.
type racedLink struct {
	fsLayer
	dir, racy, agents string
	raced             bool
}

func (l *racedLink) link(odir int, oname string, ndir int, nname string) error {
	if oname == l.racy && !l.raced {
		l.raced = true
		p := filepath.Join(l.dir, l.racy)
		if err := os.WriteFile(p+".agent", []byte(l.agents), 0o644); err != nil {
			return err
		}
		if err := os.Rename(p+".agent", p); err != nil {
			return err
		}
		return &os.LinkError{Op: "link", Old: oname, New: nname, Err: syscall.ENOENT}
	}
	return l.fsLayer.link(odir, oname, ndir, nname)
}

// TestSwapFallbackSeesAnAgentsRenameDuringTheLink: where the atomic swap
// is missing (pathLayer), memtui links the file aside before replacing
// it. An agent's rename over the file during that link made the link fail
// "no such file", and the proposal failed with that error; now the link
// is made again, memtui sees the file is not the one it compared, and the
// proposal is a conflict with the agent's version in place.
func TestSwapFallbackSeesAnAgentsRenameDuringTheLink(t *testing.T) {
	usePathLayer(t)
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
	raced := &racedLink{fsLayer: sys, dir: w.dir, racy: "a.md", agents: "alpha\nthe agent's line\n"}
	sys = raced
	r := applyOne(t, w, prop("p1", upd("a.md", "alpha\n", "alpha\nmemtui's line\n")), w.opts())
	if !raced.raced {
		t.Fatal("the layer never linked a.md aside: the test no longer exercises the fallback")
	}
	if r.Status != StatusConflict {
		t.Errorf("status = %s (%v), want a conflict", r.Status, r.Err)
	}
	if got := w.read(t, "a.md"); got != raced.agents {
		t.Errorf("a.md = %q, want the agent's version", got)
	}
	if ents, _ := os.ReadDir(w.dir); len(ents) != 1 {
		t.Errorf("the memory dir holds %d names, want a.md alone: %v", len(ents), ents)
	}
}
