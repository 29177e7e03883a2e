//go:build unix

package txn

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// linkedWorld is a live store and a stranded one, and the adopt that
// moves the stranded memory home: created (and indexed) in the live
// store, removed (and unindexed) in the stranded one. before and after
// are both dirs' hashes (the stranded one's under "other/").
func linkedWorld(t *testing.T) (*applyWorld, model.Proposal, map[string]string, map[string]string) {
	t.Helper()
	live := map[string]string{"MEMORY.md": "- [x](x.md) — x\n", "x.md": "ex\n"}
	strand := map[string]string{"MEMORY.md": "- [a](a.md) — a\n- [b](b.md) — b\n", "a.md": "alpha\n", "b.md": "beta\n"}
	w := newApplyWorld(t, live)
	w.other = filepath.Join(filepath.Dir(w.dir), "stranded")
	testfs.WriteAll(t, w.other, strand)
	liveIx := "- [x](x.md) — x\n- [a](a.md) — a\n"
	strandIx := "- [b](b.md) — b\n"
	p := model.Proposal{ID: "adopt-1", Kind: "adopt", Title: "adopt a", MemoryDir: w.dir,
		Changes: []model.Change{
			{Path: "a.md", Op: model.OpCreate, After: "alpha\n"},
			upd("MEMORY.md", live["MEMORY.md"], liveIx),
		},
		Also: &model.DirChanges{MemoryDir: w.other, Changes: []model.Change{
			{Path: "a.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("alpha\n"))},
			upd("MEMORY.md", strand["MEMORY.md"], strandIx),
		}},
	}
	before := w.state(t)
	after := map[string]string{"MEMORY.md": sumHex([]byte(liveIx)), "x.md": sumHex([]byte("ex\n")), "a.md": sumHex([]byte("alpha\n")),
		"other/MEMORY.md": sumHex([]byte(strandIx)), "other/b.md": sumHex([]byte("beta\n"))}
	return w, p, before, after
}

// TestApplyLinkedWritesBothDirsAndUndoesBoth: an adopt changes both
// stores; its two journal entries name each other, and undoing either
// puts both stores back byte for byte, mtimes included.
func TestApplyLinkedWritesBothDirsAndUndoesBoth(t *testing.T) {
	for _, undoOther := range []bool{false, true} {
		w, p, _, after := linkedWorld(t)
		exact := map[string]string{}
		maps.Copy(exact, snapshot(t, w.dir))
		for k, v := range snapshot(t, w.other) {
			exact["other/"+k] = v
		}
		r := ApplyLinked(context.Background(), p, w.opts())
		if r.Status != StatusApplied || r.Err != nil {
			t.Fatalf("%+v", r)
		}
		if got := w.state(t); !maps.Equal(got, after) {
			t.Fatalf("after the adopt: %v, want %v", got, after)
		}
		m, err := readManifest(w.journal, r.JournalID)
		if err != nil || len(m.Linked) != 1 || m.State != JournalCommitted || m.RealDir != w.dir {
			t.Fatalf("%+v %v", m, err)
		}
		o, err := readManifest(w.journal, m.Linked[0])
		if err != nil || !slices.Equal(o.Linked, []string{m.ID}) || o.State != JournalCommitted || o.RealDir != w.other {
			t.Fatalf("the stranded store's entry: %+v %v", o, err)
		}
		id := m.ID
		if undoOther {
			id = o.ID
		}
		u := Undo(context.Background(), id, w.opts())
		if u.Status != StatusApplied || u.Err != nil {
			t.Fatalf("undo %s: %+v", id, u)
		}
		got := map[string]string{}
		maps.Copy(got, snapshot(t, w.dir))
		for k, v := range snapshot(t, w.other) {
			got["other/"+k] = v
		}
		sameSnapshot(t, exact, got)
		for _, e := range []string{m.ID, o.ID} {
			if em, _ := readManifest(w.journal, e); em == nil || em.State != JournalUndone || em.UndoneBy == "" {
				t.Errorf("entry %s not marked undone: %+v", e, em)
			}
		}
	}
}

// TestApplyLinkedConflictInOneDirWritesNeither: the stranded memory
// changed since the adopt read it; nothing is written in either store.
func TestApplyLinkedConflictInOneDirWritesNeither(t *testing.T) {
	w, p, _, _ := linkedWorld(t)
	if err := os.WriteFile(filepath.Join(w.other, "a.md"), []byte("alpha, edited by an agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{}
	maps.Copy(before, snapshot(t, w.dir))
	for k, v := range snapshot(t, w.other) {
		before["other/"+k] = v
	}
	r := ApplyLinked(context.Background(), p, w.opts())
	var ce *ConflictError
	if r.Status != StatusConflict || !errors.As(r.Err, &ce) {
		t.Fatalf("want a conflict: %+v", r)
	}
	got := map[string]string{}
	maps.Copy(got, snapshot(t, w.dir))
	for k, v := range snapshot(t, w.other) {
		got["other/"+k] = v
	}
	sameSnapshot(t, before, got)
}

// TestApplyLinkedLateFailureRollsBothBack: the second commit fails (its
// manifest cannot be saved: a folder stands in its place) after the
// first committed; both stores are put back as they were, and the first
// entry says rolled back.
func TestApplyLinkedLateFailureRollsBothBack(t *testing.T) {
	w, p, before, _ := linkedWorld(t)
	t.Cleanup(func() { testHookStep = nil })
	var jdirs []string
	testHookStep = func(s string) {
		if s != "linked" {
			return
		}
		ents, _ := os.ReadDir(filepath.Join(w.journal, pendingDir))
		for _, e := range ents {
			jdirs = append(jdirs, filepath.Join(w.journal, e.Name()))
		}
		// The stranded store's entry, made second, has the larger id.
		slices.Sort(jdirs)
		man := filepath.Join(jdirs[len(jdirs)-1], manifestName)
		os.Remove(man)
		testfs.WriteAll(t, man, map[string]string{"in-the-way": "x"})
	}
	r := ApplyLinked(context.Background(), p, w.opts())
	if r.Status != StatusFailed || r.Err == nil {
		t.Fatalf("want a failure: %+v", r)
	}
	if len(jdirs) != 2 {
		t.Fatalf("entries %v", jdirs)
	}
	if got := w.state(t); !maps.Equal(got, before) {
		t.Fatalf("not rolled back: %v, want %v", got, before)
	}
	if m, _ := readManifest(w.journal, filepath.Base(jdirs[0])); m == nil || m.State != JournalRolledBack {
		t.Errorf("the live store's entry, committed first, is not rolled back: %+v", m)
	}
}

// TestCrashLinkedLeavesAllOrNothing kills a subprocess applying an adopt
// at every step of its linked transaction, then at random moments: after
// Recover both stores are as before, or both as after.
func TestCrashLinkedLeavesAllOrNothing(t *testing.T) {
	crashEverywhere(t, linkedWorld)
}

// TestApplyRefusesATwoDirProposal: Apply writes one dir; a proposal with
// changes elsewhere is ApplyLinked's, and Apply writes nothing of it.
func TestApplyRefusesATwoDirProposal(t *testing.T) {
	w, p, before, _ := linkedWorld(t)
	r := applyOne(t, w, p, w.opts())
	if r.Status != StatusFailed || r.Err == nil || !strings.Contains(r.Err.Error(), "ApplyLinked") {
		t.Fatalf("%+v", r)
	}
	if got := w.state(t); !maps.Equal(got, before) {
		t.Fatalf("written: %v", got)
	}
}
