//go:build unix

package txn

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// The journal is memtui's promise to the user: an entry written by one
// version of memtui must still be recovered (after a crash) and undone by
// the next. testdata/journal_v1_*.json hold the journal and the memory dir
// as memtui wrote them before its write transaction became a list of steps
// (the code of commit e2af5dc), for the proposal compatProposal:
//
//   - committed: after the proposal was applied;
//   - crashed: at the step "apply 4 moved", as a crash leaves them: every
//     change made, the entry still pending.
//
// The tests below recover and undo those entries with today's code, and
// check that today's code writes the same journal (and leaves the same
// files at that step) for the same proposal. Regenerate the fixtures only
// when the journal's format changes on purpose (and its version with it):
// MEMTUI_JOURNAL_FIXTURES=write go test ./memfs/txn -run TestJournalCompat

const compatMemDir = "@MEMDIR@"

var (
	compatNow = time.Date(2026, 1, 2, 3, 4, 5, 600000000, time.UTC)
	// The memories' mtimes before the proposal, by file.
	compatMtimes = map[string]time.Time{
		"MEMORY.md": time.Date(2025, 7, 1, 8, 0, 0, 111111111, time.UTC),
		"a.md":      time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC),
		"b.md":      time.Date(2025, 6, 1, 12, 0, 0, 123456789, time.UTC),
		"c.md":      time.Date(2025, 2, 2, 2, 2, 2, 222222222, time.UTC),
	}
	compatBefore = map[string]string{
		"MEMORY.md": "- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n",
		"a.md":      "alpha\n",
		"b.md":      "beta\n",
		"c.md":      "gamma\n",
	}
)

// compatProposal changes five files with every kind of change: two
// updates, a create, a delete and a move into folders the move makes.
func compatProposal() model.Proposal {
	return model.Proposal{ID: "compat", Kind: model.KindMerge, Title: "merge a and b, archive c", Changes: []model.Change{
		upd("a.md", "alpha\n", "alpha and beta\n"),
		upd("MEMORY.md", compatBefore["MEMORY.md"], "- [a](a.md)\n- [n](n.md)\n- [c](.archive/deep/c.md)\n"),
		{Path: "n.md", Op: model.OpCreate, After: "new\n"},
		{Path: "b.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("beta\n"))},
		{Path: ".archive/deep/c.md", From: "c.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("gamma\n"))},
	}}
}

// compatWorld is the memory dir before the proposal, each file 0644 with
// its mtime.
func compatWorld(t *testing.T) *applyWorld {
	w := newApplyWorld(t, compatBefore)
	// Modes fixed whatever the umask: the folders a move makes get the
	// memory dir's.
	if err := os.Chmod(w.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, m := range compatMtimes {
		p := filepath.Join(w.dir, rel)
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
		testfs.Touch(t, p, m)
	}
	return w
}

// fixFile is one file or folder of a fixture.
type fixFile struct {
	Dir   bool   `json:"dir,omitempty"`
	Data  string `json:"data,omitempty"`
	Mode  uint32 `json:"mode"`
	Mtime int64  `json:"mtime_ns,omitempty"` // memory dir files, deleted memories
}

// fixture is a memory dir and its journal root, paths relative to each,
// the memory dir's own path written as compatMemDir and the entry's id as
// it was.
type fixture struct {
	Note    string             `json:"note"`
	ID      string             `json:"id"`
	MemDir  map[string]fixFile `json:"memdir"`
	Journal map[string]fixFile `json:"journal"`
}

// snapshotFixture reads a memory dir (its lock left out: it holds a PID)
// and a journal root.
func snapshotFixture(t *testing.T, w *applyWorld, id string) fixture {
	t.Helper()
	real, err := filepath.EvalSymlinks(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{ID: id, MemDir: map[string]fixFile{}, Journal: map[string]fixFile{}}
	walk := func(root string, into map[string]fixFile, mtimes func(rel string) bool) {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if rel == "." || rel == lockFileName {
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return err
			}
			f := fixFile{Mode: uint32(fi.Mode().Perm())}
			if d.IsDir() {
				f.Dir = true
			} else {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				f.Data = strings.ReplaceAll(strings.ReplaceAll(string(b), real, compatMemDir), w.dir, compatMemDir)
				if mtimes(filepath.ToSlash(rel)) {
					f.Mtime = fi.ModTime().UnixNano()
				}
			}
			into[filepath.ToSlash(rel)] = f
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A deleted memory moved into the journal keeps its mtime (a rollback
	// links it back); the journal's own files are dated now.
	walk(w.dir, fx.MemDir, func(string) bool { return true })
	walk(w.journal, fx.Journal, func(rel string) bool { return strings.Contains(rel, "/deleted/") })
	return fx
}

// materialize writes fx into a new world: the memory dir with each file's
// mode and mtime, the journal with the memory dir's path put back.
func materialize(t *testing.T, fx fixture) *applyWorld {
	t.Helper()
	w := newApplyWorld(t, nil)
	real, err := filepath.EvalSymlinks(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	put := func(root string, files map[string]fixFile, isJournal bool) {
		keys := slices.Sorted(maps.Keys(files))
		for _, rel := range keys {
			f := files[rel]
			p := filepath.Join(root, filepath.FromSlash(rel))
			if f.Dir {
				testfs.Mkdir(t, p)
				if err := os.Chmod(p, fs.FileMode(f.Mode)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			data := f.Data
			if isJournal {
				data = strings.ReplaceAll(data, compatMemDir, real)
			}
			testfs.Write(t, p, data)
			if err := os.Chmod(p, fs.FileMode(f.Mode)); err != nil {
				t.Fatal(err)
			}
			if f.Mtime != 0 {
				testfs.Touch(t, p, time.Unix(0, f.Mtime))
			}
		}
	}
	put(w.dir, fx.MemDir, false)
	put(w.journal, fx.Journal, true)
	return w
}

func fixturePath(name string) string {
	return filepath.Join("testdata", "journal_v1_"+name+".json")
}

func loadFixture(t *testing.T, name string) fixture {
	t.Helper()
	b, err := os.ReadFile(fixturePath(name))
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	return fx
}

// applyCompat applies compatProposal to a fresh world, snapshotting it at
// step crashAt ("" for none) and when it is done.
func applyCompat(t *testing.T) (crashed, committed fixture) {
	t.Helper()
	w := compatWorld(t)
	t.Cleanup(func() { testHookStep = nil })
	testHookStep = func(s string) {
		if s == "apply 4 moved" {
			ents, _ := os.ReadDir(filepath.Join(w.journal, pendingDir))
			if len(ents) == 1 {
				crashed = snapshotFixture(t, w, ents[0].Name())
			}
		}
	}
	r := applyOne(t, w, compatProposal(), ApplyOptions{JournalRoot: w.journal, Now: func() time.Time { return compatNow }})
	testHookStep = nil
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	if crashed.ID != r.JournalID {
		t.Fatalf("no snapshot at apply 4 moved of entry %s: %+v", r.JournalID, crashed)
	}
	committed = snapshotFixture(t, w, r.JournalID)
	crashed.Note = "the memory dir and journal when a crash hit the step \"apply 4 moved\" of compatProposal (journal_compat_test.go)"
	committed.Note = "the memory dir and journal after compatProposal was applied (journal_compat_test.go)"
	return crashed, committed
}

func TestJournalCompatWriteFixtures(t *testing.T) {
	if os.Getenv("MEMTUI_JOURNAL_FIXTURES") != "write" {
		t.Skip("writes the fixtures only when asked")
	}
	crashed, committed := applyCompat(t)
	for name, fx := range map[string]fixture{"crashed": crashed, "committed": committed} {
		b, err := json.MarshalIndent(fx, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fixturePath(name), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkBefore checks that the memory dir holds exactly the files it had
// before compatProposal, each with its bytes, mode and mtime, and no
// folder (the move's are gone).
func checkBefore(t *testing.T, w *applyWorld) {
	t.Helper()
	got := map[string]fixFile{}
	for rel, f := range snapshotFixture(t, w, "").MemDir {
		got[rel] = f
	}
	want := map[string]fixFile{}
	for rel, data := range compatBefore {
		want[rel] = fixFile{Data: data, Mode: 0o644, Mtime: compatMtimes[rel].UnixNano()}
	}
	for rel, f := range want {
		if got[rel] != f {
			t.Errorf("%s: got %+v, want %+v", rel, got[rel], f)
		}
	}
	for rel, f := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s left behind: %+v", rel, f)
		}
	}
}

// TestJournalCompatRecover: an entry a crash left pending, written before
// the transaction was a list of steps, is rolled back file by file.
func TestJournalCompatRecover(t *testing.T) {
	fx := loadFixture(t, "crashed")
	w := materialize(t, fx)
	reps, err := Recover(w.journal)
	if err != nil || len(reps) != 1 {
		t.Fatalf("%+v %v", reps, err)
	}
	r := reps[0]
	if r.ID != fx.ID || r.Action != "rolled back" || r.Err != nil || len(r.Notes) > 0 {
		t.Fatalf("%+v", r)
	}
	if len(r.Files) != 5 {
		t.Fatalf("want five files reported: %+v", r.Files)
	}
	for i, f := range r.Files {
		if want := compatProposal().Changes[i].Path; f.Path != want || !f.RolledBack ||
			f.Outcome != "rolled back: put back as it was before the interrupted write" {
			t.Errorf("file %d: %+v, want %s put back", i, f, want)
		}
	}
	checkBefore(t, w)
	m, err := ReadEntry(w.journal, fx.ID)
	if err != nil || m.State != JournalRolledBack {
		t.Fatalf("%+v %v", m, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(w.journal, pendingDir)); len(ents) != 0 {
		t.Errorf("still pending: %v", ents)
	}
	if again, _ := Recover(w.journal); len(again) != 0 {
		t.Errorf("a second Recover did something: %+v", again)
	}
}

// TestJournalCompatUndo: an applied entry written before the transaction
// was a list of steps is undone: every file back, bytes, mode and mtime.
func TestJournalCompatUndo(t *testing.T) {
	fx := loadFixture(t, "committed")
	w := materialize(t, fx)
	u := Undo(context.Background(), fx.ID, w.opts())
	if u.Status != StatusApplied || u.Err != nil {
		t.Fatalf("%+v", u)
	}
	checkBefore(t, w)
	m, err := ReadEntry(w.journal, fx.ID)
	if err != nil || m.State != JournalUndone || m.UndoneBy != u.JournalID {
		t.Fatalf("%+v %v", m, err)
	}
	// And the undo can be undone: the proposal's files are back.
	if r := Undo(context.Background(), u.JournalID, w.opts()); r.Status != StatusApplied {
		t.Fatalf("undo of the undo: %+v", r)
	}
	for rel, f := range fx.MemDir {
		if !f.Dir {
			if got := w.read(t, rel); got != f.Data {
				t.Errorf("%s after the undo of the undo: %q, want %q", rel, got, f.Data)
			}
		}
	}
}

// TestJournalCompatSameFormat: today's code writes, for the same
// proposal, the same journal (manifest, before-images, deleted files,
// modes) and leaves the memory dir the same, at the step "apply 4 moved"
// and once committed.
func TestJournalCompatSameFormat(t *testing.T) {
	crashed, committed := applyCompat(t)
	for name, got := range map[string]fixture{"crashed": crashed, "committed": committed} {
		want := loadFixture(t, name)
		norm := func(fx fixture, files map[string]fixFile, mtimes bool) map[string]fixFile {
			out := map[string]fixFile{}
			for rel, f := range files {
				f.Data = strings.ReplaceAll(f.Data, fx.ID, "@ID@")
				if !mtimes || f.Dir {
					f.Mtime = 0 // dated now
				}
				if rel == "n.md" {
					f.Mode = 0 // the umask's
				}
				out[strings.ReplaceAll(rel, fx.ID, "@ID@")] = f
			}
			return out
		}
		for _, part := range []struct {
			what       string
			got, want  map[string]fixFile
			withMtimes bool
		}{{"memory dir", got.MemDir, want.MemDir, true}, {"journal", got.Journal, want.Journal, false}} {
			g, w := norm(got, part.got, part.withMtimes), norm(want, part.want, part.withMtimes)
			for rel, f := range w {
				if g[rel] != f {
					t.Errorf("%s, %s: %s is %+v, was %+v", name, part.what, rel, g[rel], f)
				}
			}
			for rel, f := range g {
				if _, ok := w[rel]; !ok {
					t.Errorf("%s, %s: %s is new: %+v", name, part.what, rel, f)
				}
			}
		}
	}
}
