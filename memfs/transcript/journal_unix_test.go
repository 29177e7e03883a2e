//go:build unix

package transcript

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// TestJournalWrites: memtui's applied proposals become WriteMemtui writes
// with the text they replaced (and, when still at hand, what they wrote);
// refused proposals and other dirs' entries do not.
func TestJournalWrites(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n", "old.md": "old\n"})
	other := newApplyWorld(t, map[string]string{"z.md": "zed\n"})
	opts := w.opts()
	for _, p := range []model.Proposal{
		prop("p1", upd("a.md", "alpha\n", "alpha2\n")),
		prop("p2", upd("a.md", "alpha2\n", "alpha3\n"),
			model.Change{Path: "new.md", Op: model.OpCreate, After: "fresh\n"},
			model.Change{Path: "old.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("old\n"))}),
		prop("stale", upd("a.md", "alpha\n", "lost\n")), // refused: a.md changed
	} {
		applyOne(t, w, p, opts)
	}
	applyOne(t, other, prop("o1", upd("z.md", "zed\n", "zed2\n")), opts) // same journal, another dir

	l, err := Read(context.Background(), &model.Project{Dirs: []*model.MemoryDir{{Path: w.dir}}}, Options{JournalRoot: opts.JournalRoot})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		file, before, after string
		hasBefore, created  bool
	}
	wants := []want{
		{"a.md", "alpha\n", "alpha2\n", true, false},  // After from p2's before-image
		{"a.md", "alpha2\n", "alpha3\n", true, false}, // After from the file on disk
		{"new.md", "", "fresh\n", true, true},
		{"old.md", "old\n", "", true, false},
	}
	if len(l.Writes) != len(wants) {
		t.Fatalf("writes = %+v", l.Writes)
	}
	for i, wt := range wants {
		g := l.Writes[i]
		if g.Kind != model.WriteMemtui || g.Path != filepath.Join(w.dir, wt.file) || g.Session != "" || g.Time.IsZero() ||
			g.Before != wt.before || g.HasBefore != wt.hasBefore || g.Created != wt.created || !g.HasAfter || g.After != wt.after {
			t.Errorf("write %d = %+v, want %+v", i, g, wt)
		}
	}
	if !l.Writes[0].Time.Before(l.Writes[1].Time) && !l.Writes[0].Time.Equal(l.Writes[1].Time) {
		t.Errorf("not in time order: %v, %v", l.Writes[0].Time, l.Writes[1].Time)
	}
}

// TestJournalShared: ReadAll lists the journal once for
// all its projects, and each still gets its own dir's entries, as
// Read gives them.
func TestJournalShared(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
	other := newApplyWorld(t, map[string]string{"z.md": "zed\n"})
	opts := w.opts()
	applyOne(t, w, prop("p1", upd("a.md", "alpha\n", "alpha2\n")), opts)
	applyOne(t, other, prop("o1", upd("z.md", "zed\n", "zed2\n")), opts)
	tops := Options{JournalRoot: opts.JournalRoot}
	var ps []*model.Project
	for _, d := range []string{w.dir, other.dir} {
		ps = append(ps, &model.Project{TranscriptDir: t.TempDir(), Dirs: []*model.MemoryDir{{Path: d}}})
	}
	var alone []*model.TranscriptLog
	for _, p := range ps {
		l, err := Read(context.Background(), p, tops)
		if err != nil {
			t.Fatal(err)
		}
		alone = append(alone, l)
	}
	for i, err := range ReadAll(context.Background(), ps, 2, tops) {
		if err != nil {
			t.Fatal(err)
		}
		ws := ps[i].Log.Writes
		if len(ws) != 1 || !reflect.DeepEqual(ws, alone[i].Writes) {
			t.Errorf("project %d: writes %+v, alone %+v", i, ws, alone[i].Writes)
		}
	}
	if a, z := ps[0].Log.Writes[0].Path, ps[1].Log.Writes[0].Path; a != filepath.Join(w.dir, "a.md") || z != filepath.Join(other.dir, "z.md") {
		t.Errorf("paths %s, %s", a, z)
	}
}

// TestJournalWritesOfAMove: an archived memory shows in memtui's writes as
// a delete at its old path and a create, of the same text, at the new one,
// so lost-update analysis knows the text left its old path on purpose.
func TestJournalWritesOfAMove(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"a.md": "alpha\n"})
	opts := w.opts()
	p := model.Proposal{ID: "archive-1", Kind: model.KindArchive, Title: "archive", Changes: []model.Change{
		{Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("alpha\n"))}}}
	if r := applyOne(t, w, p, opts); r.Status != txn.StatusApplied {
		t.Fatalf("%+v", r)
	}
	l, err := Read(context.Background(), &model.Project{Dirs: []*model.MemoryDir{{Path: w.dir}}}, Options{JournalRoot: opts.JournalRoot})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Writes) != 2 {
		t.Fatalf("writes = %+v", l.Writes)
	}
	del, cre := l.Writes[0], l.Writes[1]
	if del.Path != filepath.Join(w.dir, "a.md") || del.Before != "alpha\n" || !del.HasAfter || del.After != "" || del.Created {
		t.Errorf("the old path's write = %+v, want a delete of \"alpha\\n\"", del)
	}
	if cre.Path != filepath.Join(w.dir, ".archive", "a.md") || !cre.Created || cre.After != "alpha\n" || !cre.HasAfter {
		t.Errorf("the new path's write = %+v, want a create of \"alpha\\n\"", cre)
	}
}
