//go:build unix

package memfs

import (
	"context"
	"path/filepath"
	"testing"

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

	l, err := ReadTranscripts(context.Background(), &model.Project{Dirs: []*model.MemoryDir{{Path: w.dir}}}, TranscriptOptions{JournalRoot: opts.JournalRoot})
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
