//go:build unix

package txn

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// crossDeviceWorld is an apply world whose journal is on another file
// system than the memory dir (/dev/shm, a tmpfs, where there is one), so
// that a delete cannot rename the file into the journal: it is renamed
// aside, copied into the journal, and the aside removed at the end.
func crossDeviceWorld(t *testing.T, files map[string]string) *applyWorld {
	t.Helper()
	w := newApplyWorld(t, files)
	shm, err := os.MkdirTemp("/dev/shm", "memtui-journal-")
	if err != nil {
		t.Skip("no /dev/shm to put the journal on another file system")
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	var a, b syscall.Stat_t
	if syscall.Stat(w.dir, &a) != nil || syscall.Stat(shm, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is on the memory dir's file system")
	}
	w.journal = filepath.Join(shm, "state", "memtui", "journal")
	return w
}

// A delete across file systems keeps the memory in the journal and leaves
// nothing aside in the memory dir; undo puts it back with its mode and
// mtime.
func TestDeleteAcrossFileSystems(t *testing.T) {
	w := crossDeviceWorld(t, map[string]string{"b.md": "beta\n", "MEMORY.md": "- [b](b.md)\n"})
	os.Chmod(filepath.Join(w.dir, "b.md"), 0o640)
	aged(t, w, "b.md", longAgo)
	p := prop("del", model.Change{Path: "b.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("beta\n"))},
		upd("MEMORY.md", "- [b](b.md)\n", ""))
	r := applyOne(t, w, p, w.opts())
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	ents, _ := os.ReadDir(w.dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".memtui-") || e.Name() == "b.md" {
			t.Errorf("%s left in the memory dir", e.Name())
		}
	}
	if b, err := os.ReadFile(filepath.Join(w.journal, r.JournalID, "deleted", "0")); err != nil || string(b) != "beta\n" {
		t.Errorf("the journal keeps %q %v", b, err)
	}
	if u := Undo(context.Background(), r.JournalID, w.opts()); u.Status != StatusApplied {
		t.Fatalf("undo: %+v", u)
	}
	fi, err := os.Lstat(filepath.Join(w.dir, "b.md"))
	if err != nil || fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(longAgo) || w.read(t, "b.md") != "beta\n" {
		t.Errorf("b.md after the undo: %v %v", fi, err)
	}
}

// A delete across file systems rolled back after its aside was removed
// (an agent wrote to another file's old version in the last window) puts
// the memory back as it was: bytes, mode and mtime; so does the recovery
// of a run that crashed there.
func TestDeleteAcrossFileSystemsRolledBackLate(t *testing.T) {
	t.Cleanup(func() { testHookStep = nil })
	setup := func(t *testing.T) (*applyWorld, model.Proposal) {
		w := crossDeviceWorld(t, map[string]string{"b.md": "beta\n", "MEMORY.md": "- [b](b.md)\n"})
		os.Chmod(filepath.Join(w.dir, "b.md"), 0o640)
		aged(t, w, "b.md", longAgo)
		return w, prop("del", model.Change{Path: "b.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("beta\n"))},
			upd("MEMORY.md", "- [b](b.md)\n", ""))
	}
	check := func(t *testing.T, w *applyWorld) {
		t.Helper()
		fi, err := os.Lstat(filepath.Join(w.dir, "b.md"))
		if err != nil || fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(longAgo) || w.read(t, "b.md") != "beta\n" {
			t.Errorf("b.md after the rollback: %v %v", fi, err)
		}
	}
	t.Run("in flight", func(t *testing.T) {
		w, p := setup(t)
		testHookStep = func(s string) {
			if s != "apply 0 cleaned" {
				return
			}
			// MEMORY.md's old version, swapped out and not yet unlinked.
			ms, _ := filepath.Glob(filepath.Join(w.dir, ".memtui-*-1.tmp"))
			for _, m := range ms {
				f, err := os.OpenFile(m, os.O_WRONLY|os.O_APPEND, 0)
				if err == nil {
					f.WriteString("- an agent's late pointer\n")
					f.Close()
				}
			}
		}
		r := applyOne(t, w, p, w.opts())
		testHookStep = nil
		if r.Status != StatusConflict || r.Path != "MEMORY.md" {
			t.Fatalf("%+v", r)
		}
		check(t, w)
		if got := w.read(t, "MEMORY.md"); got != "- [b](b.md)\n- an agent's late pointer\n" {
			t.Errorf("MEMORY.md = %q: the agent's write must be kept", got)
		}
	})
	t.Run("after a crash", func(t *testing.T) {
		w, p := setup(t)
		var snap fixture
		testHookStep = func(s string) {
			if s == "apply 0 cleaned" {
				ents, _ := os.ReadDir(filepath.Join(w.journal, pendingDir))
				if len(ents) == 1 {
					snap = snapshotFixture(t, w, ents[0].Name())
				}
			}
		}
		applyOne(t, w, p, w.opts())
		testHookStep = nil
		if snap.ID == "" {
			t.Fatal("no step apply 0 cleaned")
		}
		// What the crash left, in a world of its own (the journal on the
		// other file system again).
		w2 := crossDeviceWorld(t, nil)
		real, _ := filepath.EvalSymlinks(w2.dir)
		for rel, f := range snap.MemDir {
			if !f.Dir {
				p := testfs.Write(t, filepath.Join(w2.dir, rel), f.Data)
				os.Chmod(p, os.FileMode(f.Mode))
				testfs.Touch(t, p, time.Unix(0, f.Mtime))
			}
		}
		for rel, f := range snap.Journal {
			p := filepath.Join(w2.journal, rel)
			if f.Dir {
				testfs.Mkdir(t, p)
				continue
			}
			testfs.Write(t, p, strings.ReplaceAll(f.Data, compatMemDir, real))
			os.Chmod(p, os.FileMode(f.Mode))
		}
		if _, err := os.Lstat(filepath.Join(w2.dir, "b.md")); err == nil {
			t.Fatal("b.md is at its path at the crash")
		}
		reps, err := Recover(w2.journal)
		if err != nil || len(reps) != 1 || reps[0].Err != nil || len(reps[0].Notes) > 0 {
			t.Fatalf("%+v %v", reps, err)
		}
		check(t, w2)
	})
}
