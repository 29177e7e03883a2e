//go:build unix

package txn

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// applyWorld is a memory dir and a journal root in a temp dir.
type applyWorld struct {
	dir, journal string
	other        string // a second memory dir, for a linked transaction
}

func newApplyWorld(t *testing.T, files map[string]string) *applyWorld {
	t.Helper()
	dir, journal := testfs.MemoryAndJournal(t, files)
	return &applyWorld{dir: dir, journal: journal}
}

func (w *applyWorld) opts() ApplyOptions {
	return ApplyOptions{JournalRoot: w.journal}
}

func (w *applyWorld) read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot is every file below dir (content, or "-> target" for a link),
// and every directory, for "nothing was written" checks.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case fi.IsDir():
			out[rel] = "dir " + fi.Mode().String()
		default:
			b, _ := os.ReadFile(p)
			out[rel] = fi.Mode().String() + " " + fi.ModTime().String() + " " + string(b)
		}
		return nil
	})
	return out
}

func sameSnapshot(t *testing.T, a, b map[string]string) {
	t.Helper()
	for k, v := range a {
		if b[k] != v {
			t.Errorf("%s changed: %q -> %q", k, v, b[k])
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			t.Errorf("%s appeared: %q", k, v)
		}
	}
}

func upd(path, before, after string) model.Change {
	return model.Change{Path: path, Op: model.OpUpdate, BaseSHA256: sumHex([]byte(before)), After: after}
}

func prop(id string, cs ...model.Change) model.Proposal {
	return model.Proposal{ID: id, Kind: model.KindReindex, Title: "test " + id, Changes: cs}
}

func applyOne(t *testing.T, w *applyWorld, p model.Proposal, opts ApplyOptions) ApplyResult {
	t.Helper()
	rs := Apply(context.Background(), w.dir, []model.Proposal{p}, opts)
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	return rs[0]
}

func TestApplyWritesAllChangesKeepsModeAndJournals(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"MEMORY.md": "- [a](a.md)\n", "a.md": "alpha\n", "sub/b.md": "beta\n", "old.md": "old\n"})
	os.Chmod(filepath.Join(w.dir, "a.md"), 0o600)
	p := prop("p1",
		upd("MEMORY.md", "- [a](a.md)\n", "- [a](a.md)\n- [c](c.md)\n"),
		upd("a.md", "alpha\n", "alpha2\n"),
		upd("sub/b.md", "beta\n", "beta2\n"),
		model.Change{Path: "c.md", Op: model.OpCreate, After: "gamma\n"},
		model.Change{Path: "old.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("old\n"))},
	)
	var events []string
	opts := w.opts()
	opts.Progress = func(e ApplyEvent) { events = append(events, e.Stage) }
	r := applyOne(t, w, p, opts)
	if r.Status != StatusApplied || r.Err != nil || r.JournalID == "" {
		t.Fatalf("%+v", r)
	}
	for rel, want := range map[string]string{"MEMORY.md": "- [a](a.md)\n- [c](c.md)\n", "a.md": "alpha2\n", "sub/b.md": "beta2\n", "c.md": "gamma\n"} {
		if got := w.read(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if fi, _ := os.Stat(filepath.Join(w.dir, "a.md")); fi.Mode().Perm() != 0o600 {
		t.Errorf("a.md mode %v, want 0600 kept", fi.Mode())
	}
	if _, err := os.Lstat(filepath.Join(w.dir, "old.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old.md still there: %v", err)
	}
	// No temporary file is left in the memory dir.
	ents, _ := os.ReadDir(w.dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".memtui-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	// No lock was there before: none is left (no PID of ours for other
	// runs to wait on, autoDream's clock untouched).
	if _, err := os.Lstat(filepath.Join(w.dir, lockFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left behind: %v", err)
	}
	// The journal: a committed manifest, before-images, the deleted file.
	list, err := List(w.journal)
	if err != nil || len(list) != 1 {
		t.Fatalf("List: %v %v", list, err)
	}
	m := list[0]
	if m.ID != r.JournalID || m.State != JournalCommitted || m.ProposalID != "p1" || len(m.Files) != 5 || m.MemoryDir != w.dir {
		t.Errorf("manifest %+v", m)
	}
	if img, _ := os.ReadFile(filepath.Join(w.journal, m.ID, "before", "1")); string(img) != "alpha\n" {
		t.Errorf("before-image of a.md = %q", img)
	}
	if moved, _ := os.ReadFile(filepath.Join(w.journal, m.ID, "deleted", "4")); string(moved) != "old\n" {
		t.Errorf("deleted file in the journal = %q", moved)
	}
	if !strings.HasPrefix(w.journal, filepath.Dir(w.dir)) || strings.HasPrefix(w.journal, w.dir) {
		t.Errorf("journal %s inside the memory dir", w.journal)
	}
	if len(events) != 2 || events[0] != "start" || events[1] != "applied" {
		t.Errorf("progress %v", events)
	}
}

func TestApplyConflictRefusesTheWholeProposal(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "a\n", "b.md": "b changed by an agent\n", "r.md": "read\n"})
	snap := snapshot(t, w.dir)
	cases := []model.Proposal{
		prop("stale", upd("a.md", "a\n", "A\n"), upd("b.md", "b\n", "B\n")),
		prop("gone", upd("a.md", "a\n", "A\n"), upd("x.md", "x\n", "X\n")),
		prop("exists", upd("a.md", "a\n", "A\n"), model.Change{Path: "b.md", Op: model.OpCreate, After: "new\n"}),
		{ID: "read", Changes: []model.Change{upd("a.md", "a\n", "A\n")}, Reads: []model.FileRead{{Path: "r.md", SHA256: sumHex([]byte("other\n"))}}},
	}
	want := []string{"b.md", "x.md", "b.md", "r.md"}
	rs := Apply(context.Background(), w.dir, cases, w.opts())
	for i, r := range rs {
		var ce *ConflictError
		if r.Status != StatusConflict || !errors.As(r.Err, &ce) || r.Path != want[i] || ce.Path != want[i] {
			t.Errorf("%s: %+v", cases[i].ID, r)
		}
	}
	sameSnapshot(t, snap, snapshot(t, w.dir)) // and no lock file left either
}

func TestApplyRefusesUnsafePaths(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, w *applyWorld) (dir string, p model.Proposal)
		want  string
	}{
		{"symlinked file", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			outside := testfs.Write(t, filepath.Join(filepath.Dir(w.dir), "outside.md"), "x\n")
			testfs.Symlink(t, outside, filepath.Join(w.dir, "link.md"))
			return w.dir, prop("p", upd("a.md", "a\n", "A\n"), upd("link.md", "x\n", "pwned\n"))
		}, "is a symlink"},
		{"symlinked subdirectory", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			outside := testfs.Mkdir(t, filepath.Join(filepath.Dir(w.dir), "elsewhere"))
			testfs.Write(t, filepath.Join(outside, "x.md"), "x\n")
			testfs.Symlink(t, outside, filepath.Join(w.dir, "sub"))
			return w.dir, prop("p", upd("a.md", "a\n", "A\n"), upd("sub/x.md", "x\n", "pwned\n"))
		}, "sub is a symlink"},
		{"symlinked memory dir", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			link := filepath.Join(filepath.Dir(w.dir), "memlink")
			testfs.Symlink(t, w.dir, link)
			return link, prop("p", upd("a.md", "a\n", "A\n"))
		}, "the memory dir is a symlink"},
		{"dot-dot", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			testfs.Write(t, filepath.Join(filepath.Dir(w.dir), "outside.md"), "x\n")
			return w.dir, prop("p", upd("a.md", "a\n", "A\n"), upd("../outside.md", "x\n", "pwned\n"))
		}, "leaves the memory dir"},
		{"absolute", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			return w.dir, prop("p", model.Change{Path: filepath.Join(filepath.Dir(w.dir), "new.md"), Op: model.OpCreate, After: "x"})
		}, "absolute path"},
		{"not markdown", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			return w.dir, prop("p", model.Change{Path: ".bashrc", Op: model.OpCreate, After: "x"})
		}, "not a .md file"},
		{"team without the option", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			testfs.Write(t, filepath.Join(w.dir, "team", "t.md"), "t\n")
			return w.dir, prop("p", upd("a.md", "a\n", "A\n"), upd("team/t.md", "t\n", "T\n"))
		}, "under team/"},
		{"file replaced by a directory", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			testfs.Mkdir(t, filepath.Join(w.dir, "d.md"))
			return w.dir, prop("p", upd("a.md", "a\n", "A\n"), upd("d.md", "d\n", "D\n"))
		}, "is a directory"},
		{"create over a directory", func(t *testing.T, w *applyWorld) (string, model.Proposal) {
			testfs.Mkdir(t, filepath.Join(w.dir, "d.md"))
			return w.dir, prop("p", model.Change{Path: "d.md", Op: model.OpCreate, After: "x"})
		}, "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
			dir, p := tc.setup(t, w)
			snap := snapshot(t, filepath.Dir(w.dir))
			r := Apply(context.Background(), dir, []model.Proposal{p}, w.opts())[0]
			if r.Status != StatusFailed || r.Err == nil || !strings.Contains(r.Err.Error(), tc.want) {
				t.Fatalf("want a failure saying %q, got %+v", tc.want, r)
			}
			t.Logf("message: %v", r.Err)
			after := snapshot(t, filepath.Dir(w.dir))
			for k := range after {
				if strings.HasPrefix(k, "state") { // the OS lock file
					delete(after, k)
				}
			}
			sameSnapshot(t, snap, after)
		})
	}
	t.Run("team with the option", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"team/t.md": "t\n"})
		opts := w.opts()
		opts.IncludeTeam = true
		if r := applyOne(t, w, prop("p", upd("team/t.md", "t\n", "T\n")), opts); r.Status != StatusApplied {
			t.Fatalf("%+v", r)
		}
	})
}

// sleeper starts a child process that stays alive: a live PID other than
// ours.
func sleeper(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep binary:", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	return cmd.Process.Pid
}

func writeLock(t *testing.T, dir, body string, mtime time.Time) {
	t.Helper()
	p := testfs.Write(t, filepath.Join(dir, lockFileName), body)
	testfs.Touch(t, p, mtime)
}

func TestClaudeLockInterop(t *testing.T) {
	old := lockPoll
	lockPoll = 20 * time.Millisecond
	t.Cleanup(func() { lockPoll = old })
	hourAgo := time.Now().Add(-30 * time.Minute).Truncate(time.Second)
	p := func() model.Proposal { return prop("p", upd("a.md", "a\n", "A\n")) }

	t.Run("held by a live PID blocks", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
		pid := sleeper(t)
		writeLock(t, w.dir, strconv.Itoa(pid), hourAgo)
		snap := snapshot(t, w.dir)
		opts := w.opts()
		opts.WaitForLock = 100 * time.Millisecond
		var waits int
		opts.Progress = func(e ApplyEvent) {
			if e.Stage == "wait-lock" {
				waits++
			}
		}
		start := time.Now()
		r := applyOne(t, w, p(), opts)
		var held *LockHeldError
		if r.Status != StatusFailed || !errors.As(r.Err, &held) || held.PID != pid || !held.Since.Equal(hourAgo) {
			t.Fatalf("%+v", r)
		}
		if time.Since(start) < 100*time.Millisecond || waits == 0 {
			t.Errorf("did not wait: %v, %d polls", time.Since(start), waits)
		}
		if !strings.Contains(r.Err.Error(), "PID "+strconv.Itoa(pid)) {
			t.Errorf("message %q", r.Err)
		}
		t.Logf("message: %v", r.Err)
		sameSnapshot(t, snap, snapshot(t, w.dir))
	})
	t.Run("waiting succeeds once the holder finishes", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
		cmd := exec.Command("sleep", "0.2")
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		go cmd.Wait() // reaped, so the PID is dead once it exits
		writeLock(t, w.dir, strconv.Itoa(cmd.Process.Pid), hourAgo)
		opts := w.opts()
		opts.WaitForLock = 5 * time.Second
		if r := applyOne(t, w, p(), opts); r.Status != StatusApplied {
			t.Fatalf("%+v", r)
		}
	})
	for _, tc := range []struct {
		name  string
		body  func(t *testing.T) string
		mtime time.Time
	}{
		{"stale mtime with a live PID", func(t *testing.T) string { return strconv.Itoa(sleeper(t)) }, time.Now().Add(-2 * time.Hour)},
		{"dead PID", func(t *testing.T) string { return strconv.Itoa(deadPID(t)) }, hourAgo},
		{"PID 1", func(t *testing.T) string { return "1" }, hourAgo},
		{"empty body (rolled back by Claude Code)", func(t *testing.T) string { return "" }, hourAgo},
		{"garbage body", func(t *testing.T) string { return "not a pid" }, hourAgo},
	} {
		t.Run("reclaims "+tc.name, func(t *testing.T) {
			w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
			body := tc.body(t)
			writeLock(t, w.dir, body, tc.mtime)
			if r := applyOne(t, w, p(), w.opts()); r.Status != StatusApplied {
				t.Fatalf("%+v", r)
			}
			// The lock is put back exactly as it was, body and mtime.
			fi, _ := os.Stat(filepath.Join(w.dir, lockFileName))
			b, _ := os.ReadFile(filepath.Join(w.dir, lockFileName))
			if string(b) != body || !fi.ModTime().Equal(tc.mtime) {
				t.Errorf("lock after a run that changed files: %q %v, want %q %v", b, fi.ModTime(), body, tc.mtime)
			}
		})
	}
	t.Run("unchanged run restores the previous mtime", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "changed\n"})
		prev := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
		writeLock(t, w.dir, "12345678", prev)
		if r := applyOne(t, w, p(), w.opts()); r.Status != StatusConflict {
			t.Fatalf("%+v", r)
		}
		fi, err := os.Stat(filepath.Join(w.dir, lockFileName))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(w.dir, lockFileName))
		if string(b) != "12345678" || !fi.ModTime().Equal(prev) {
			t.Errorf("lock %q %v, want \"12345678\" and %v", b, fi.ModTime(), prev)
		}
	})
	t.Run("unchanged run with no previous lock leaves none", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "changed\n"})
		if r := applyOne(t, w, p(), w.opts()); r.Status != StatusConflict {
			t.Fatalf("%+v", r)
		}
		if _, err := os.Lstat(filepath.Join(w.dir, lockFileName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("lock file left: %v", err)
		}
	})
	t.Run("losing the write race bails", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
		pid := sleeper(t)
		testHookLockRace = func() { os.WriteFile(filepath.Join(w.dir, lockFileName), []byte(strconv.Itoa(pid)), 0o644) }
		defer func() { testHookLockRace = nil }()
		r := applyOne(t, w, p(), w.opts())
		var held *LockHeldError
		if !errors.As(r.Err, &held) || held.PID != pid || w.read(t, "a.md") != "a\n" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("symlinked lock refused", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
		target := testfs.Write(t, filepath.Join(filepath.Dir(w.dir), "target"), "")
		testfs.Symlink(t, target, filepath.Join(w.dir, lockFileName))
		r := applyOne(t, w, p(), w.opts())
		if r.Status != StatusFailed || !strings.Contains(r.Err.Error(), "symlink") || w.read(t, "a.md") != "a\n" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a second memtui waits for the first", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
		fl, err := lockOS(context.Background(), w.journal, w.dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := applyOne(t, w, p(), w.opts())
		if !errors.Is(r.Err, errBusy) {
			t.Fatalf("%+v", r)
		}
		go func() { time.Sleep(100 * time.Millisecond); fl.Unlock() }()
		opts := w.opts()
		opts.WaitForLock = 5 * time.Second
		if r := applyOne(t, w, p(), opts); r.Status != StatusApplied {
			t.Fatalf("%+v", r)
		}
	})
}

func TestUndo(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "b.md": "beta\n", "gone.md": "bye\n"})
	os.Chmod(filepath.Join(w.dir, "gone.md"), 0o640)
	snap := snapshot(t, w.dir)
	r := applyOne(t, w, prop("p", upd("a.md", "alpha\n", "ALPHA\n"), upd("b.md", "beta\n", "BETA\n"),
		model.Change{Path: "new.md", Op: model.OpCreate, After: "new\n"},
		model.Change{Path: "gone.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("bye\n"))}), w.opts())
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	u := Undo(context.Background(), r.JournalID, w.opts())
	if u.Status != StatusApplied {
		t.Fatalf("undo: %+v", u)
	}
	after := snapshot(t, w.dir)
	delete(after, lockFileName)
	for k, v := range snap { // byte-identical, same modes (mtimes are new)
		if a := after[k]; k != "." && strings.SplitN(a, " ", 2)[0] != strings.SplitN(v, " ", 2)[0] || contentOf(a) != contentOf(v) {
			t.Errorf("%s: %q, want %q", k, a, v)
		}
	}
	if len(after) != len(snap) {
		t.Errorf("files after undo: %v", after)
	}
	list, _ := List(w.journal)
	if len(list) != 2 || list[0].UndoOf != r.JournalID || list[1].State != JournalUndone || list[1].UndoneBy != list[0].ID {
		t.Errorf("journal after undo: %+v", list)
	}
	if again := Undo(context.Background(), r.JournalID, w.opts()); again.Status != StatusFailed {
		t.Errorf("second undo: %+v", again)
	}

	t.Run("refuses after an agent changed the file", func(t *testing.T) {
		w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "b.md": "beta\n"})
		r := applyOne(t, w, prop("p", upd("a.md", "alpha\n", "ALPHA\n"), upd("b.md", "beta\n", "BETA\n")), w.opts())
		if r.Status != StatusApplied {
			t.Fatalf("%+v", r)
		}
		testfs.Write(t, filepath.Join(w.dir, "b.md"), "BETA\nan agent's line\n")
		snap := snapshot(t, w.dir)
		u := Undo(context.Background(), r.JournalID, w.opts())
		var ce *ConflictError
		if u.Status != StatusConflict || u.Path != "b.md" || !errors.As(u.Err, &ce) {
			t.Fatalf("%+v", u)
		}
		t.Logf("message: %v", u.Err)
		after := snapshot(t, w.dir)
		if contentOf(after["a.md"]) != "ALPHA\n" || contentOf(after["b.md"]) != "BETA\nan agent's line\n" {
			t.Errorf("undo wrote something: %v (was %v)", after, snap)
		}
	})
}

// contentOf drops the mode and mtime of a snapshot value.
func contentOf(v string) string {
	// "mode date time zone... content": the content follows the mtime's
	// monotonic-free String(), which has a fixed number of fields (4).
	f := strings.SplitN(v, " ", 6)
	if len(f) < 6 {
		return v
	}
	return f[5]
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestCreateRefusedWhereAFolderIsMissing: a create names its folders; one
// that does not exist is refused, naming the first missing folder, and
// nothing is written.
func TestCreateRefusedWhereAFolderIsMissing(t *testing.T) {
	for _, c := range []struct{ path, missing string }{{"notes/x.md", "notes"}, {"a/b/c/x.md", "a/b"}} {
		w := newApplyWorld(t, map[string]string{"MEMORY.md": "# index\n", "a/keep.md": "k\n"})
		r := applyOne(t, w, prop("p", model.Change{Path: c.path, Op: model.OpCreate, After: "new\n"}), w.opts())
		if r.Status == StatusApplied || r.Err == nil || !strings.Contains(r.Err.Error(), "the directory "+c.missing+" does not exist") {
			t.Errorf("%s: %s %v", c.path, r.Status, r.Err)
		}
		if _, err := os.Stat(filepath.Join(w.dir, c.path)); !os.IsNotExist(err) {
			t.Errorf("%s was written: %v", c.path, err)
		}
	}
}
