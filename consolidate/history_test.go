package consolidate

import (
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

func TestWordNames(t *testing.T) {
	const p = "/home/u/.claude/projects/-w/memory/a.md"
	for _, c := range []struct {
		word, cwd string
		want      bool
	}{
		{p, "", true},
		{"'" + p + "'", "", true},
		{"~/.claude/projects/-w/memory/a.md", "/w", true},
		{"memory/a.md", "/home/u/.claude/projects/-w", true},
		{"a.md", "/home/u/.claude/projects/-w/memory", true},
		{"../memory/a.md", "/elsewhere/x", true},
		{"/home/u/.claude/projects/-w/memory/b.md", "", false},
		{"b.md", "/home/u/.claude/projects/-w/memory", false},
		{"xa.md", "", false},
		{`C:\Users\u\.claude\projects\d--w\memory\a.md`, "", false},
	} {
		if got := WordNames(c.word, c.cwd, p); got != c.want {
			t.Errorf("WordNames(%q, %q) = %v, want %v", c.word, c.cwd, got, c.want)
		}
	}
	// A Windows transcript's path, whatever the drive letter's case.
	win := `C:\Users\u\.claude\projects\d--w\memory\a.md`
	for _, w := range []string{`c:\users\u\.claude\projects\D--w\memory\a.md`, `C:/Users/u/.claude/projects/d--w/memory/a.md`, `memory\a.md`} {
		if !WordNames(w, `C:\Users\u\.claude\projects\d--w`, win) {
			t.Errorf("%s does not name %s", w, win)
		}
	}
}

func TestHistoryOps(t *testing.T) {
	d := &model.MemoryDir{Path: "/m", Kind: model.DirAuto, Files: []*model.File{{Path: "kept.md"}}}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	rm := func(cmd string, names func(string) bool) bool { return cmd == "rm gone.md" && names("gone.md") }
	log := &model.TranscriptLog{
		Sessions: map[string]*model.Session{"s1": {ID: "s1", Title: "Tidy", Cwd: "/m", Branch: "main"}},
		Writes: []model.MemWrite{
			{Path: "/m/gone.md", Kind: model.WriteFull, Session: "s1", Time: t0, Created: true},
			{Path: "/m/gone.md", Kind: model.WriteShell, Session: "s1", Time: t0.Add(time.Minute), Command: "rm gone.md"},
			{Path: "/m/gone.md", Kind: model.WriteFull, Session: "s1", Time: t0.Add(2 * time.Minute)},
			{Path: "/m/kept.md", Kind: model.WriteMemtui, Time: t0, HasAfter: true, After: ""},
		},
	}
	hs := History(d, log, rm)
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
	hs := History(d, log, nil)
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
	hs := History(d, log, nil)
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
