//go:build unix

package txn

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// mtimeOf is a file's mtime to the nanosecond.
func mtimeOf(t *testing.T, p string) time.Time {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// aged writes files with an mtime long ago (with nanoseconds, so a
// truncation shows).
func aged(t *testing.T, w *applyWorld, rel string, when time.Time) {
	t.Helper()
	testfs.Touch(t, filepath.Join(w.dir, rel), when)
}

var (
	longAgo  = time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)
	longAgo2 = time.Date(2025, 6, 1, 12, 0, 0, 123456789, time.UTC)
)

// A tidy-up (frontmatter, dates, a redaction, a reindex) keeps each file's
// mtime to the nanosecond; undo puts back bytes and mtime exactly.
func TestTidyUpKeepsMtimeAndUndoRestoresIt(t *testing.T) {
	for _, kind := range []model.ProposalKind{model.KindFixFrontmatter, model.KindAbsolutizeDates, model.KindAddYear,
		model.KindRedactSecret, model.KindReindex, model.KindRestoreLost, model.KindPrune} {
		t.Run(string(kind), func(t *testing.T) {
			w := newApplyWorld(t, map[string]string{"a.md": "tomorrow: ship it\n", "MEMORY.md": "- [a](a.md)\n"})
			aged(t, w, "a.md", longAgo)
			aged(t, w, "MEMORY.md", longAgo2)
			p := model.Proposal{ID: "p", Kind: kind, Title: "t", Changes: []model.Change{
				upd("a.md", "tomorrow: ship it\n", "2025-03-15: ship it\n"),
				upd("MEMORY.md", "- [a](a.md)\n", "- [A](a.md) — ship date\n"),
			}}
			r := applyOne(t, w, p, w.opts())
			if r.Status != StatusApplied {
				t.Fatalf("%+v", r)
			}
			if got := w.read(t, "a.md"); got != "2025-03-15: ship it\n" {
				t.Fatalf("a.md = %q", got)
			}
			if m := mtimeOf(t, filepath.Join(w.dir, "a.md")); !m.Equal(longAgo) {
				t.Errorf("%s moved a.md's mtime: %v, want %v", kind, m, longAgo)
			}
			if m := mtimeOf(t, filepath.Join(w.dir, "MEMORY.md")); !m.Equal(longAgo2) {
				t.Errorf("%s moved MEMORY.md's mtime: %v, want %v", kind, m, longAgo2)
			}
			uo := w.opts()
			uo.RestoreSecret = true // asked for explicitly (a redact-secret's undo)
			u := Undo(context.Background(), r.JournalID, uo)
			if u.Status != StatusApplied {
				t.Fatalf("undo %+v", u)
			}
			if got := w.read(t, "a.md"); got != "tomorrow: ship it\n" {
				t.Errorf("a.md after undo = %q", got)
			}
			if m := mtimeOf(t, filepath.Join(w.dir, "a.md")); !m.Equal(longAgo) {
				t.Errorf("undo: a.md mtime %v, want %v", m, longAgo)
			}
			if m := mtimeOf(t, filepath.Join(w.dir, "MEMORY.md")); !m.Equal(longAgo2) {
				t.Errorf("undo: MEMORY.md mtime %v, want %v", m, longAgo2)
			}
		})
	}
}

// A tidy-up kind that memtui did not compute itself (an external
// proposer's, or one a person edited) is dated now: its kind is only its
// author's word. Undo still puts the old mtime back.
func TestExternalProposalIsDatedNow(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "tomorrow: ship it\n"})
	aged(t, w, "a.md", longAgo)
	p := model.Proposal{ID: "fix-frontmatter-x1", Kind: model.KindFixFrontmatter, Title: "t", External: true,
		Changes: []model.Change{upd("a.md", "tomorrow: ship it\n", "tomorrow: ship it, and a new fact\n")}}
	before := time.Now().Add(-time.Second)
	r := applyOne(t, w, p, w.opts())
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	if m := mtimeOf(t, filepath.Join(w.dir, "a.md")); m.Before(before) {
		t.Errorf("an external fix-frontmatter kept a.md's old mtime %v", m)
	}
	if u := Undo(context.Background(), r.JournalID, w.opts()); u.Status != StatusApplied {
		t.Fatalf("undo %+v", u)
	}
	if m := mtimeOf(t, filepath.Join(w.dir, "a.md")); !m.Equal(longAgo) {
		t.Errorf("undo: a.md mtime %v, want %v", m, longAgo)
	}
}

// A merge is dated by the newest memory merged; a kind memtui does not
// know is dated now; an undone delete comes back with its own mtime.
func TestMergeDatedByNewestAndUndoneDeleteKeepsMtime(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "b.md": "beta\n", "MEMORY.md": "- [a](a.md)\n- [b](b.md)\n"})
	aged(t, w, "a.md", longAgo)
	aged(t, w, "b.md", longAgo2)
	indexTime := longAgo2.Add(48 * time.Hour) // the index, edited later: not a memory merged
	aged(t, w, "MEMORY.md", indexTime)
	p := model.Proposal{ID: "m", Kind: model.KindMerge, Title: "merge", Changes: []model.Change{
		upd("a.md", "alpha\n", "alpha\nbeta\n"),
		{Path: "b.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("beta\n"))},
		upd("MEMORY.md", "- [a](a.md)\n- [b](b.md)\n", "- [a](a.md)\n"),
	}}
	r := applyOne(t, w, p, w.opts())
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	if m := mtimeOf(t, filepath.Join(w.dir, "a.md")); !m.Equal(longAgo2) {
		t.Errorf("merged a.md mtime %v, want the newest merged %v", m, longAgo2)
	}
	if m := mtimeOf(t, filepath.Join(w.dir, "MEMORY.md")); !m.Equal(indexTime) {
		t.Errorf("the merge's index keeps its mtime: %v, want %v", m, indexTime)
	}
	if u := Undo(context.Background(), r.JournalID, w.opts()); u.Status != StatusApplied {
		t.Fatalf("undo %+v", u)
	}
	if got := w.read(t, "b.md"); got != "beta\n" {
		t.Errorf("b.md back = %q", got)
	}
	for rel, want := range map[string]time.Time{"a.md": longAgo, "b.md": longAgo2, "MEMORY.md": indexTime} {
		if m := mtimeOf(t, filepath.Join(w.dir, rel)); !m.Equal(want) {
			t.Errorf("after undo %s mtime %v, want %v", rel, m, want)
		}
	}

	w2 := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
	aged(t, w2, "a.md", longAgo)
	start := time.Now().Add(-time.Second)
	p2 := model.Proposal{ID: "x", Kind: "something-new", Title: "x", Changes: []model.Change{upd("a.md", "alpha\n", "alpha and a new fact\n")}}
	if r := applyOne(t, w2, p2, w2.opts()); r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	if m := mtimeOf(t, filepath.Join(w2.dir, "a.md")); m.Before(start) {
		t.Errorf("a write of unknown kind must be dated now, got %v", m)
	}
}

// A hardlinked file is not split from its other names: the proposal is
// refused, naming the links, and neither name changes.
func TestHardlinkedFileRefused(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
	other := filepath.Join(filepath.Dir(w.dir), "elsewhere.md")
	if err := os.Link(filepath.Join(w.dir, "a.md"), other); err != nil {
		t.Fatal(err)
	}
	aged(t, w, "a.md", longAgo)
	snap := snapshot(t, w.dir)
	for _, c := range []model.Change{upd("a.md", "alpha\n", "ALPHA\n"), {Path: "a.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("alpha\n"))}} {
		r := applyOne(t, w, prop("p", c), w.opts())
		if r.Status != StatusFailed || r.Path != "a.md" || !strings.Contains(r.Err.Error(), "2 hard links") || !strings.Contains(r.Err.Error(), "split") {
			t.Fatalf("%s: %+v", c.Op, r)
		}
		sameSnapshot(t, snap, snapshot(t, w.dir))
		if b, _ := os.ReadFile(other); string(b) != "alpha\n" {
			t.Errorf("the other name changed: %q", b)
		}
		var a, b syscall.Stat_t
		syscall.Stat(filepath.Join(w.dir, "a.md"), &a)
		syscall.Stat(other, &b)
		if a.Ino != b.Ino {
			t.Errorf("%s split the link", c.Op)
		}
	}
}

// The lock is put back as it was after a write (absent, or its body and
// mtime); with MarkConsolidated it says "consolidated now", held by none.
func TestLockRestoredOrMarked(t *testing.T) {
	prev := longAgo
	p := func() model.Proposal { return prop("p", upd("a.md", "a\n", "A\n")) }

	w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	writeLock(t, w.dir, "4242\n1700000000000", prev)
	if r := applyOne(t, w, p(), w.opts()); r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	lock := filepath.Join(w.dir, lockFileName)
	if b, _ := os.ReadFile(lock); string(b) != "4242\n1700000000000" || !mtimeOf(t, lock).Equal(prev) {
		t.Errorf("lock %q %v, want the old body and %v", b, mtimeOf(t, lock), prev)
	}

	w = newApplyWorld(t, map[string]string{"a.md": "a\n"})
	writeLock(t, w.dir, "", prev)
	opts := w.opts()
	opts.MarkConsolidated = true
	start := time.Now().Add(-time.Second)
	if r := applyOne(t, w, p(), opts); r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	lock = filepath.Join(w.dir, lockFileName)
	if b, _ := os.ReadFile(lock); len(b) != 0 || mtimeOf(t, lock).Before(start) {
		t.Errorf("marked lock %q %v, want empty and now", b, mtimeOf(t, lock))
	}
	// A mark without a change marks nothing.
	w = newApplyWorld(t, map[string]string{"a.md": "changed\n"})
	writeLock(t, w.dir, "", prev)
	opts = w.opts()
	opts.MarkConsolidated = true
	if r := applyOne(t, w, p(), opts); r.Status != StatusConflict {
		t.Fatalf("%+v", r)
	}
	lock = filepath.Join(w.dir, lockFileName)
	if !mtimeOf(t, lock).Equal(prev) {
		t.Errorf("a run that wrote nothing moved the lock to %v", mtimeOf(t, lock))
	}
}

// A hardlinked lock file is not written through.
func TestHardlinkedLockRefused(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	writeLock(t, w.dir, "", longAgo)
	other := filepath.Join(filepath.Dir(w.dir), "other-name")
	if err := os.Link(filepath.Join(w.dir, lockFileName), other); err != nil {
		t.Fatal(err)
	}
	r := applyOne(t, w, prop("p", upd("a.md", "a\n", "A\n")), w.opts())
	if r.Status != StatusFailed || !strings.Contains(r.Err.Error(), "hard links") || w.read(t, "a.md") != "a\n" {
		t.Fatalf("%+v", r)
	}
	if b, _ := os.ReadFile(other); len(b) != 0 || !mtimeOf(t, other).Equal(longAgo) {
		t.Errorf("the other name changed: %q %v", b, mtimeOf(t, other))
	}
}

// A lock held by another memtui (a program named memtui) is named as
// such, not blamed on Claude Code.
func TestLockHeldByAnotherMemtuiSaysSo(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "memtui")
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	writeLock(t, w.dir, strconv.Itoa(cmd.Process.Pid), time.Now())
	r := applyOne(t, w, prop("p", upd("a.md", "a\n", "A\n")), w.opts())
	var held *LockHeldError
	if !errors.As(r.Err, &held) || !held.Memtui {
		t.Fatalf("%+v", r)
	}
	if msg := r.Err.Error(); !strings.Contains(msg, "another memtui run (PID "+strconv.Itoa(cmd.Process.Pid)+")") || strings.Contains(msg, "Claude Code") {
		t.Errorf("message %q", msg)
	}
}

// An immutable file's error names the file and the operation.
func TestImmutableFileErrorNamesFileAndOperation(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	p := filepath.Join(w.dir, "a.md")
	if out, err := exec.Command("chattr", "+i", p).CombinedOutput(); err != nil {
		// Without chattr (or on a file system without the flag) the
		// message is still checked, on the error a write gets.
		e := opError("replace", "a.md", &os.PathError{Op: "renameat2", Path: ".memtui-x.tmp", Err: syscall.EPERM})
		if !strings.Contains(e.Error(), "a.md: cannot replace it") || !strings.Contains(e.Error(), "immutable") {
			t.Errorf("%v (chattr: %s)", e, out)
		}
		t.Logf("without chattr (%s): %v", out, e)
		return
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", p).Run() })
	r := applyOne(t, w, prop("p", upd("a.md", "a\n", "A\n")), w.opts())
	if r.Status != StatusFailed || !strings.Contains(r.Err.Error(), "a.md: cannot replace it") || !strings.Contains(r.Err.Error(), "immutable") {
		t.Fatalf("%+v", r)
	}
	t.Logf("with chattr +i: %v", r.Err)
	r = applyOne(t, w, prop("d", model.Change{Path: "a.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("a\n"))}), w.opts())
	if r.Status != StatusFailed || !strings.Contains(r.Err.Error(), "a.md: cannot delete it") || !strings.Contains(r.Err.Error(), "immutable") {
		t.Fatalf("%+v", r)
	}
	if w.read(t, "a.md") != "a\n" {
		t.Error("the immutable file changed")
	}
}

// After a crash, an agent's write, then recovery, the report says file by
// file what was rolled back and what was not.
func TestRecoveryReportsFileByFile(t *testing.T) {
	for at := 8; at < 40; at++ {
		w, p, _, _ := crashWorld(t)
		pj, _ := json.Marshal(p)
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.v")
		cmd.Env = append(os.Environ(), "MEMTUI_CRASH_DIR="+w.dir, "MEMTUI_CRASH_JOURNAL="+w.journal,
			"MEMTUI_CRASH_PROP="+string(pj), "MEMTUI_CRASH_AT="+strconv.Itoa(at))
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		for sc.Scan() {
		}
		cmd.Wait()
		// Kill point where a.md already holds memtui's version.
		if w.read(t, "a.md") != "alpha merged with beta\n" {
			continue
		}
		if _, err := os.Stat(filepath.Join(w.journal, pendingDir)); err != nil {
			continue
		}
		ents, _ := os.ReadDir(filepath.Join(w.journal, pendingDir))
		if len(ents) == 0 {
			continue
		}
		// An agent writes a.md before anyone recovers.
		testfs.Write(t, filepath.Join(w.dir, "a.md"), "the agent's own a.md\n")
		reps, err := Recover(w.journal)
		if err != nil || len(reps) != 1 {
			t.Fatalf("%+v %v", reps, err)
		}
		got := map[string]RecoverFile{}
		for _, f := range reps[0].Files {
			got[f.Path] = f
		}
		if len(got) != 5 {
			t.Fatalf("want five files reported: %+v", reps[0].Files)
		}
		if a := got["a.md"]; a.RolledBack || !strings.Contains(a.Outcome, "not rolled back") || !strings.Contains(a.Outcome, "someone else") {
			t.Errorf("a.md: %+v", a)
		}
		for _, rel := range []string{"MEMORY.md", "n.md", "b.md", "c.md"} {
			if f := got[rel]; !f.RolledBack || !strings.HasPrefix(f.Outcome, "rolled back") {
				t.Errorf("%s: %+v", rel, f)
			}
		}
		if w.read(t, "a.md") != "the agent's own a.md\n" || w.read(t, "b.md") != "beta\n" {
			t.Error("the agent's write must stay, the rest go back")
		}
		return
	}
	t.Fatal("no kill point left a.md written and the entry pending")
}

// A redaction scrubs the secret from earlier journal entries of the dir
// (which stay undoable, restoring [REDACTED]) and from the review
// baseline; the redaction's own before-image keeps it.
func TestRedactionScrubsEarlierEntriesAndBaseline(t *testing.T) {
	token := "ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u"
	v0 := "token " + token + "\n"
	v1 := "token " + token + "\nmore\n"
	v2 := "token [REDACTED]\nmore\n"
	w := newApplyWorld(t, map[string]string{"a.md": v0})
	seen := filepath.Join(filepath.Dir(w.journal), "seen")
	d := &model.MemoryDir{Path: w.dir, Exists: true, Files: []*model.File{{Path: "a.md", Content: []byte(v0)}}}
	if err := memfs.SaveBaseline(seen, model.NewBaseline(d, time.Now(), sumHex)); err != nil {
		t.Fatal(err)
	}
	opts := w.opts()
	opts.SeenRoot = seen
	r1 := applyOne(t, w, model.Proposal{ID: "p1", Kind: model.KindRestoreLost, Title: "t", Changes: []model.Change{upd("a.md", v0, v1)}}, opts)
	r2 := applyOne(t, w, model.Proposal{ID: "p2", Kind: model.KindRedactSecret, Title: "t", Changes: []model.Change{upd("a.md", v1, v2)}}, opts)
	if r1.Status != StatusApplied || r2.Status != StatusApplied {
		t.Fatalf("%+v %+v", r1, r2)
	}
	if b, _ := os.ReadFile(filepath.Join(w.journal, r1.JournalID, "before", "0")); string(b) != "token [REDACTED]\n" {
		t.Errorf("earlier before-image = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(w.journal, r2.JournalID, "before", "0")); string(b) != v1 {
		t.Errorf("the redaction's own before-image = %q, want %q", b, v1)
	}
	base, err := memfs.LoadBaseline(seen, w.dir)
	if err != nil || strings.Contains(base.Files["a.md"].Text, token) || base.Files["a.md"].SHA256 != sumHex([]byte(v0)) {
		t.Errorf("baseline %+v %v", base, err)
	}
	es, _ := List(w.journal)
	for _, e := range es {
		if e.ID == r1.JournalID && (len(e.Notes) != 1 || !strings.Contains(e.Notes[0], r2.JournalID)) {
			t.Errorf("the scrubbed entry must say so: %v", e.Notes)
		}
	}
	// Undo the redaction (asked for explicitly), then the earlier entry:
	// it restores its text with [REDACTED] in the secret's place.
	if u := Undo(context.Background(), r2.JournalID, opts); !errors.Is(u.Err, ErrRestoresSecret) || w.read(t, "a.md") != v2 {
		t.Fatalf("undo of a redaction without RestoreSecret: %+v", u)
	}
	opts.RestoreSecret = true
	if u := Undo(context.Background(), r2.JournalID, opts); u.Status != StatusApplied || w.read(t, "a.md") != v1 {
		t.Fatalf("%+v", u)
	}
	if u := Undo(context.Background(), r1.JournalID, opts); u.Status != StatusApplied || w.read(t, "a.md") != "token [REDACTED]\n" {
		t.Fatalf("%+v %q", u, w.read(t, "a.md"))
	}
}

// redactedSecrets finds the secret whether the write only redacted it or
// also changed the same line.
func TestRedactedSecrets(t *testing.T) {
	tok := "ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u"
	for _, tc := range []struct{ before, after, want string }{
		{"a " + tok + " b\n", "a [REDACTED] b\n", tok},
		{"x\nThe token is " + tok + ". Ask tomorrow.\n", "x\nThe token is [REDACTED]. Ask on 2026-11-26.\n", tok + ". Ask tomorrow"},
		{"key: " + tok + "\n", "key: (removed)\n", "key: " + tok},
	} {
		got := redactedSecrets([]byte(tc.before), []byte(tc.after))
		if len(got) != 1 || string(got[0]) != tc.want {
			t.Errorf("%q -> %q: %q, want %q", tc.before, tc.after, got, tc.want)
		}
	}
}
