//go:build unix

package txn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// mv is a move change: from's bytes, as the proposal read them, to path.
func mv(from, path, content string) model.Change {
	return model.Change{Path: path, From: from, Op: model.OpMove, BaseSHA256: sumHex([]byte(content))}
}

func archiveProp(cs ...model.Change) model.Proposal {
	return model.Proposal{ID: "archive-test", Kind: model.KindArchive, Title: "archive", Changes: cs}
}

// TestMoveKeepsFileAndUndoMovesItBack: a move takes a memory into
// .archive/ (making the folders it needs) with its bytes, mode and mtime
// to the nanosecond, so that moved back it does not jump to the top of the
// recall scan's ranking; the journal records it, and undo moves it back
// with that mtime even when the archived copy was touched since, and
// removes the folders it made.
func TestMoveKeepsFileAndUndoMovesItBack(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "sub/b.md": "beta\n", "MEMORY.md": "- [a](a.md)\n- [b](sub/b.md)\n"})
	os.Chmod(filepath.Join(w.dir, "a.md"), 0o640)
	aged(t, w, "a.md", longAgo)
	aged(t, w, "sub/b.md", longAgo2)
	aged(t, w, "MEMORY.md", longAgo2)
	snap := snapshot(t, w.dir)
	r := applyOne(t, w, archiveProp(
		mv("a.md", ".archive/a.md", "alpha\n"),
		mv("sub/b.md", ".archive/sub/b.md", "beta\n"),
		upd("MEMORY.md", "- [a](a.md)\n- [b](sub/b.md)\n", "- [a](.archive/a.md)\n- [b](.archive/sub/b.md)\n"),
	), w.opts())
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	for _, gone := range []string{"a.md", "sub/b.md"} {
		if _, err := os.Lstat(filepath.Join(w.dir, gone)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there after the move: %v", gone, err)
		}
	}
	if got := w.read(t, ".archive/a.md"); got != "alpha\n" {
		t.Errorf(".archive/a.md = %q", got)
	}
	if got := w.read(t, ".archive/sub/b.md"); got != "beta\n" {
		t.Errorf(".archive/sub/b.md = %q", got)
	}
	if got := mtimeOf(t, filepath.Join(w.dir, ".archive/a.md")); !got.Equal(longAgo) {
		t.Errorf(".archive/a.md mtime %s, want %s kept", got.Format(time.RFC3339Nano), longAgo.Format(time.RFC3339Nano))
	}
	if fi, _ := os.Stat(filepath.Join(w.dir, ".archive/a.md")); fi.Mode().Perm() != 0o640 {
		t.Errorf(".archive/a.md mode %v, want 0640 kept", fi.Mode())
	}
	if got := mtimeOf(t, filepath.Join(w.dir, "MEMORY.md")); !got.Equal(longAgo2) {
		t.Errorf("MEMORY.md mtime %s: repointing its links adds no fact", got.Format(time.RFC3339Nano))
	}
	e, err := ReadEntry(w.journal, r.JournalID)
	if err != nil {
		t.Fatal(err)
	}
	var moves []JournalFile
	for _, f := range e.Files {
		if f.Op == "move" {
			moves = append(moves, f)
		}
	}
	if len(moves) != 2 || moves[0].From != "a.md" || moves[0].Path != ".archive/a.md" || moves[0].Mtime != longAgo.UnixNano() ||
		strings.Join(moves[1].Dirs, ",") != ".archive,.archive/sub" {
		t.Errorf("journal: %+v", e.Files)
	}

	// Touched since (same bytes): undo still brings the old mtime back.
	testfs.Touch(t, filepath.Join(w.dir, ".archive/a.md"), time.Now())
	u := Undo(context.Background(), r.JournalID, w.opts())
	if u.Status != StatusApplied {
		t.Fatalf("undo: %+v", u)
	}
	after := snapshot(t, w.dir)
	delete(after, lockFileName)
	delete(snap, lockFileName)
	for _, rel := range []string{"a.md", "sub/b.md"} {
		if after[rel] != snap[rel] {
			t.Errorf("%s after undo: %q, want %q (bytes, mode and mtime)", rel, after[rel], snap[rel])
		}
	}
	if _, err := os.Lstat(filepath.Join(w.dir, ".archive")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the undo left the folder .archive it emptied: %v", err)
	}
	if contentOf(after["MEMORY.md"]) != "- [a](a.md)\n- [b](sub/b.md)\n" {
		t.Errorf("MEMORY.md after undo: %q", after["MEMORY.md"])
	}
}

// TestMoveRefusals: a move whose source changed or vanished, whose
// destination is taken, or whose paths lead through a link or out of the
// memory dir writes nothing at all, not even a folder.
func TestMoveRefusals(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(t *testing.T, w *applyWorld)
		change model.Change
		want   ApplyStatus
		says   string
	}{
		{"source changed", func(t *testing.T, w *applyWorld) {
			testfs.Write(t, filepath.Join(w.dir, "a.md"), "alpha and an agent's line\n")
		},
			mv("a.md", ".archive/a.md", "alpha\n"), StatusConflict, "changed since"},
		{"source gone", func(t *testing.T, w *applyWorld) { os.Remove(filepath.Join(w.dir, "a.md")) },
			mv("a.md", ".archive/a.md", "alpha\n"), StatusConflict, "is gone"},
		{"destination taken", func(t *testing.T, w *applyWorld) {
			testfs.Write(t, filepath.Join(w.dir, ".archive/a.md"), "an older archive\n")
		},
			mv("a.md", ".archive/a.md", "alpha\n"), StatusConflict, "already exists"},
		{"destination folder is a link", func(t *testing.T, w *applyWorld) {
			testfs.Symlink(t, filepath.Join(filepath.Dir(w.dir), "elsewhere"), filepath.Join(w.dir, ".archive"))
			testfs.Mkdir(t, filepath.Join(filepath.Dir(w.dir), "elsewhere"))
		}, mv("a.md", ".archive/a.md", "alpha\n"), StatusFailed, "symlink"},
		{"source is a link", func(t *testing.T, w *applyWorld) {
			os.Remove(filepath.Join(w.dir, "a.md"))
			testfs.Symlink(t, "b.md", filepath.Join(w.dir, "a.md"))
		}, mv("a.md", ".archive/a.md", "alpha\n"), StatusFailed, "symlink"},
		{"source outside", nil, mv("../a.md", ".archive/a.md", "alpha\n"), StatusFailed, "leaves the memory dir"},
		{"destination outside", nil, mv("a.md", "../a.md", "alpha\n"), StatusFailed, "leaves the memory dir"},
		{"not markdown", nil, mv("a.md", ".archive/a.txt", "alpha\n"), StatusFailed, "not a .md file"},
		{"no source", nil, model.Change{Path: ".archive/a.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("alpha\n"))}, StatusFailed, "no file to move"},
		{"new content", nil, model.Change{Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("alpha\n")), After: "x\n"}, StatusFailed, "keeps the file's bytes"},
		{"hard-linked", func(t *testing.T, w *applyWorld) {
			os.Link(filepath.Join(w.dir, "a.md"), filepath.Join(filepath.Dir(w.dir), "other-name.md"))
		}, mv("a.md", ".archive/a.md", "alpha\n"), StatusFailed, "hard links"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "b.md": "beta\n"})
			if c.setup != nil {
				c.setup(t, w)
			}
			snap := snapshot(t, w.dir)
			outside := snapshot(t, filepath.Dir(w.dir))
			r := applyOne(t, w, archiveProp(c.change, upd("b.md", "beta\n", "beta, repointed\n")), w.opts())
			if r.Status != c.want || r.Err == nil || !strings.Contains(r.Err.Error(), c.says) {
				t.Fatalf("got %s %v, want %s saying %q", r.Status, r.Err, c.want, c.says)
			}
			after := snapshot(t, w.dir)
			delete(after, lockFileName)
			sameSnapshot(t, snap, after)
			// Nothing was written beside or above the memory dir either
			// (the journal aside).
			all := snapshot(t, filepath.Dir(w.dir))
			for k, v := range all {
				if _, ok := outside[k]; !ok && !strings.HasPrefix(k, "state") && !strings.HasPrefix(k, "memory") {
					t.Errorf("%s appeared outside the memory dir: %q", k, v)
				}
			}
		})
	}
}

// TestMoveRolledBackInFlight: when something else of the proposal fails
// after the move was made (a file it read changed meanwhile), the move is
// undone: the memory is back at its path with its mtime and the folder the
// move made is gone. An agent that wrote into the moved file meanwhile
// (through a descriptor it held) has its write back at the old path.
func TestMoveRolledBackInFlight(t *testing.T) {
	t.Cleanup(func() { testHookStep = nil })
	for _, c := range []struct {
		name    string
		meddle  func(w *applyWorld)
		wantA   string
		conflic string
	}{
		{"a read changed", func(w *applyWorld) { os.WriteFile(filepath.Join(w.dir, "b.md"), []byte("beta edited\n"), 0o644) }, "alpha\n", "b.md"},
		{"an agent wrote to the moved file", func(w *applyWorld) {
			f, err := os.OpenFile(filepath.Join(w.dir, ".archive/a.md"), os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				f.WriteString("an agent's late line\n")
				f.Close()
			}
		}, "alpha\nan agent's late line\n", "a.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "b.md": "beta\n"})
			aged(t, w, "a.md", longAgo)
			before := snapshot(t, w.dir)
			testHookStep = func(s string) {
				if s == "apply 0 moved" {
					c.meddle(w)
				}
			}
			p := archiveProp(mv("a.md", ".archive/a.md", "alpha\n"))
			p.Reads = []model.FileRead{{Path: "b.md", SHA256: sumHex([]byte("beta\n"))}}
			r := applyOne(t, w, p, w.opts())
			testHookStep = nil
			if r.Status != StatusConflict || r.Path != c.conflic {
				t.Fatalf("%+v", r)
			}
			if got := w.read(t, "a.md"); got != c.wantA {
				t.Errorf("a.md = %q, want %q", got, c.wantA)
			}
			if _, err := os.Lstat(filepath.Join(w.dir, ".archive")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the rolled-back move left .archive behind: %v", err)
			}
			if c.wantA == "alpha\n" {
				after := snapshot(t, w.dir)
				delete(after, lockFileName)
				delete(before, "b.md")
				delete(after, "b.md")
				sameSnapshot(t, before, after)
			}
		})
	}
}

// TestUndoOfAMoveRefused: undo does not move an archived file back over a
// memory an agent has since written at its old path, nor one changed in
// the archive since; nothing is written either way.
func TestUndoOfAMoveRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		meddle func(t *testing.T, w *applyWorld)
		path   string
	}{
		{"a new file at the old path", func(t *testing.T, w *applyWorld) { testfs.Write(t, filepath.Join(w.dir, "a.md"), "a new memory\n") }, "a.md"},
		{"the archived file changed", func(t *testing.T, w *applyWorld) {
			testfs.Write(t, filepath.Join(w.dir, ".archive/a.md"), "alpha, edited\n")
		}, ".archive/a.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
			r := applyOne(t, w, archiveProp(mv("a.md", ".archive/a.md", "alpha\n")), w.opts())
			if r.Status != StatusApplied {
				t.Fatalf("%+v", r)
			}
			c.meddle(t, w)
			snap := snapshot(t, w.dir)
			u := Undo(context.Background(), r.JournalID, w.opts())
			if u.Status != StatusConflict || u.Path != c.path {
				t.Fatalf("undo: %+v", u)
			}
			after := snapshot(t, w.dir)
			delete(after, lockFileName)
			delete(snap, lockFileName)
			sameSnapshot(t, snap, after)
		})
	}
}

// TestMoveRefusedAfterItsFolderWasMade: an agent writes the memory after
// the move made .archive/ and before it moved the file: the move is a
// conflict, the agent's write stays where it wrote it, and the folder the
// move made is gone again.
func TestMoveRefusedAfterItsFolderWasMade(t *testing.T) {
	t.Cleanup(func() { testHookStep = nil })
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
	testHookStep = func(s string) {
		if s == "apply 0 folders" {
			os.WriteFile(filepath.Join(w.dir, "a.md"), []byte("alpha, and an agent's line\n"), 0o644)
		}
	}
	r := applyOne(t, w, archiveProp(mv("a.md", ".archive/a.md", "alpha\n")), w.opts())
	testHookStep = nil
	if r.Status != StatusConflict || r.Path != "a.md" {
		t.Fatalf("%+v", r)
	}
	if got := w.read(t, "a.md"); got != "alpha, and an agent's line\n" {
		t.Errorf("a.md = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(w.dir, ".archive")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused move left .archive behind: %v", err)
	}
}
