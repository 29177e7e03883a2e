package forensics

import (
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

func TestHistoryOps(t *testing.T) {
	d := &model.MemoryDir{Path: "/m", Kind: model.DirAuto, Files: []*model.File{{Path: "kept.md"}}}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	log := &model.TranscriptLog{
		Sessions: map[string]*model.Session{"s1": {ID: "s1", Title: "Tidy", Cwd: "/m", Branch: "main"}},
		Writes: []model.MemWrite{
			{Path: "/m/gone.md", Kind: model.WriteFull, Session: "s1", Time: t0, Created: true},
			{Path: "/m/gone.md", Kind: model.WriteShell, Session: "s1", Time: t0.Add(time.Minute), Command: "rm gone.md", Deleted: true},
			{Path: "/m/gone.md", Kind: model.WriteFull, Session: "s1", Time: t0.Add(2 * time.Minute)},
			{Path: "/m/kept.md", Kind: model.WriteMemtui, Time: t0, HasAfter: true, After: ""},
		},
	}
	hs := History(d, log)
	if len(hs) != 2 || hs[0].File != "gone.md" || hs[0].Exists || hs[1].File != "kept.md" || !hs[1].Exists {
		t.Fatalf("files: %+v", hs)
	}
	var ops []WriteOp
	for _, w := range hs[0].Writes {
		ops = append(ops, w.Op)
		if w.Title != "Tidy" || w.Cwd != "/m" || w.Branch != "main" {
			t.Errorf("session details not filled in: %+v", w)
		}
	}
	if len(ops) != 3 || ops[0] != OpCreated || ops[1] != OpDeleted || ops[2] != OpCreated {
		t.Errorf("ops %v, want create, delete, create (a Write after a delete makes the file again)", ops)
	}
	if w := hs[1].Writes; len(w) != 1 || w[0].Op != OpDeleted || w[0].Tool != "memtui" {
		t.Errorf("memtui's journalled delete: %+v", w)
	}
}

func TestHistoryUnreadFileIsNotDeleted(t *testing.T) {
	d := &model.MemoryDir{Path: "/m", Kind: model.DirAuto, Problems: []model.Problem{{Path: "linked.md", Kind: model.ProblemSymlinkEscape}}}
	log := &model.TranscriptLog{Writes: []model.MemWrite{{Path: "/m/linked.md", Kind: model.WriteEdit, Session: "s1"}}}
	hs := History(d, log)
	if len(hs) != 1 || !hs[0].Exists {
		t.Errorf("a memory memtui would not read is shown as deleted: %+v", hs)
	}
}

// TestHistoryOpsFromTheResult: a shell write whose result said it created
// or deleted the file (bashEditDiff) is reported as that, though its
// command names nothing.
func TestHistoryOpsFromTheResult(t *testing.T) {
	d := &model.MemoryDir{Path: "/m", Kind: model.DirAuto}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	log := &model.TranscriptLog{
		Sessions: map[string]*model.Session{"s1": {ID: "s1"}},
		Writes: []model.MemWrite{
			{Path: "/m/a.md", Kind: model.WriteShell, Session: "s1", Time: t0, Command: "./tidy.sh", Created: true},
			{Path: "/m/a.md", Kind: model.WriteShell, Session: "s1", Time: t0.Add(time.Minute), Command: "./tidy.sh"},
			{Path: "/m/a.md", Kind: model.WriteShell, Session: "s1", Time: t0.Add(2 * time.Minute), Command: "./tidy.sh", Deleted: true},
		},
	}
	hs := History(d, log)
	if len(hs) != 1 {
		t.Fatalf("files: %+v", hs)
	}
	var ops []WriteOp
	for _, w := range hs[0].Writes {
		ops = append(ops, w.Op)
	}
	if len(ops) != 3 || ops[0] != OpCreated || ops[1] != OpModified || ops[2] != OpDeleted {
		t.Errorf("ops %v, want create, modify, delete", ops)
	}
}
