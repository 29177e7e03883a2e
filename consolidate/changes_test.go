package consolidate

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/model"
)

func TestChangesSinceReview(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	d := &model.MemoryDir{Path: "/m", Index: &model.File{Path: "MEMORY.md", Content: []byte("# Memory\n- [A](a.md) — a\n")},
		Files: []*model.File{
			{Path: "a.md", Content: []byte("A v1\n")},
			{Path: "b.md", Content: []byte("B\n")},
		}}
	base := model.NewBaseline(d, t0, SHA256Hex)
	if got := ChangesSince(d, base, nil); len(got) != 0 {
		t.Fatalf("nothing changed yet, got %+v", got)
	}
	if got := ChangesSince(d, nil, nil); got != nil {
		t.Fatalf("never reviewed: want nil, got %+v", got)
	}

	// An agent edits a.md, writes c.md and deletes b.md.
	d.Files = []*model.File{{Path: "a.md", Content: []byte("A v2\n")}, {Path: "c.md", Content: []byte("C\n")}}
	log := &model.TranscriptLog{Writes: []model.MemWrite{
		{Path: "/m/a.md", Kind: model.WriteEdit, Session: "old", Time: t0.Add(-time.Hour)},
		{Path: "/m/a.md", Kind: model.WriteEdit, Session: "s1", Time: t0.Add(time.Hour)},
		{Path: "/m/c.md", Kind: model.WriteFull, Session: "s2", Time: t0.Add(2 * time.Hour)},
	}}
	got := ChangesSince(d, base, log)
	if len(got) != 3 {
		t.Fatalf("want 3 changes, got %+v", got)
	}
	a, b, c := got[0], got[1], got[2]
	if a.Path != "a.md" || a.Kind != DeltaChanged || a.Before != "A v1\n" || a.After != "A v2\n" {
		t.Errorf("a.md: %+v", a)
	}
	if len(a.Writes) != 1 || a.Writes[0].Session != "s1" {
		t.Errorf("a.md writes since the review: %+v; want only s1's", a.Writes)
	}
	if b.Path != "b.md" || b.Kind != DeltaDeleted || b.Before != "B\n" {
		t.Errorf("b.md: %+v", b)
	}
	if c.Path != "c.md" || c.Kind != DeltaCreated || c.After != "C\n" || len(c.Writes) != 1 {
		t.Errorf("c.md: %+v", c)
	}
	if u := diff.Unified(a.Change(), a.Before); !strings.Contains(u, "-A v1") || !strings.Contains(u, "+A v2") {
		t.Errorf("diff of a.md:\n%s", u)
	}

	// Marking a.md seen acknowledges it alone; writes to it before the mark
	// no longer count.
	base2 := MarkSeen(base, d, "a.md", t0.Add(3*time.Hour))
	got = ChangesSince(d, base2, log)
	if len(got) != 2 || got[0].Path != "b.md" || got[1].Path != "c.md" {
		t.Fatalf("after marking a.md seen: %+v", got)
	}
	if base.Files["a.md"].Text != "A v1\n" {
		t.Error("MarkSeen changed the baseline it was given")
	}
	d.Files[0].Content = []byte("A v3\n")
	log.Writes = append(log.Writes, model.MemWrite{Path: "/m/a.md", Kind: model.WriteEdit, Session: "s3", Time: t0.Add(4 * time.Hour)})
	got = ChangesSince(d, base2, log)
	if got[0].Path != "a.md" || got[0].Before != "A v2\n" || len(got[0].Writes) != 1 || got[0].Writes[0].Session != "s3" {
		t.Fatalf("a.md changed again after the mark: %+v", got[0])
	}
	// Marking the deleted file seen drops it from the baseline.
	base3 := MarkSeen(base2, d, "b.md", t0.Add(5*time.Hour))
	if _, ok := base3.Files["b.md"]; ok {
		t.Error("a deleted file marked seen stays in the baseline")
	}
}
