package forensics

import (
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

func snapAt(t time.Time, lock time.Time, pid int, files map[string]string) model.Snapshot {
	s := model.Snapshot{Dir: "/cfg/projects/p/memory", Time: t, LockMtime: lock, LockPID: pid, Files: map[string]model.SnapFile{}}
	for p, sum := range files {
		s.Files[p] = model.SnapFile{SHA256: sum}
	}
	return s
}

// TestRunsFindTheDreamBetweenTwoSnapshots: between two snapshots a main
// session wrote a.md and removed e.md with rm -f (both explained by
// their tool calls); a Dream run, whose memory_saved line lists b.md,
// c.md and d.md and which moved the lock, rewrote b.md and c.md and
// deleted d.md. Only the Dream's three files make a run, with its
// session. Later the lock moves again with g.md changed and no
// memory_saved line: a Dream run only the lock tells of. f.md changed in
// a window where the lock did not move: no run.
func TestRunsFindTheDreamBetweenTwoSnapshots(t *testing.T) {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	lock0 := t0.Add(-48 * time.Hour)
	s1 := snapAt(t0, lock0, 0, map[string]string{"MEMORY.md": "ix1", "a.md": "a1", "b.md": "b1", "c.md": "c1", "d.md": "d1", "e.md": "e1", "f.md": "f1", "g.md": "g1"})
	lock1 := t0.Add(29 * time.Minute)
	s2 := snapAt(t0.Add(time.Hour), lock1, 4242, map[string]string{"MEMORY.md": "ix1", "a.md": "a2", "b.md": "b2", "c.md": "c2", "f.md": "f1", "g.md": "g1"})
	s3 := snapAt(t0.Add(2*time.Hour), lock1, 4242, map[string]string{"MEMORY.md": "ix1", "a.md": "a2", "b.md": "b2", "c.md": "c2", "f.md": "f2", "g.md": "g1"})
	lock2 := t0.Add(150 * time.Minute)
	s4 := snapAt(t0.Add(3*time.Hour), lock2, 5151, map[string]string{"MEMORY.md": "ix1", "a.md": "a2", "b.md": "b2", "c.md": "c2", "f.md": "f2", "g.md": "g2"})
	main := "7c1e0a2b-3d4f-4a5b-8c6d-7e8f9a0b1c2d"
	abs := func(p string) string { return d.Path + "/" + p }
	log := &model.TranscriptLog{Writes: []model.MemWrite{
		{Path: abs("a.md"), Kind: model.WriteFull, Session: main, Time: t0.Add(10 * time.Minute)},
		{Path: abs("e.md"), Kind: model.WriteShell, Session: main, Time: t0.Add(12 * time.Minute), Deleted: true, Command: "rm -f " + abs("e.md")},
		{Path: abs("b.md"), Kind: model.WriteFork, Verb: "Improved", Session: main, Time: t0.Add(31 * time.Minute)},
		{Path: abs("c.md"), Kind: model.WriteFork, Verb: "Improved", Session: main, Time: t0.Add(31 * time.Minute)},
		{Path: abs("d.md"), Kind: model.WriteFork, Verb: "Improved", Session: main, Time: t0.Add(31 * time.Minute)},
	}}
	runs := Runs(d, []model.Snapshot{s1, s2, s3, s4}, log)
	if len(runs) != 2 {
		t.Fatalf("want two runs, got %+v", runs)
	}
	lockOnly, dream := runs[0], runs[1]
	if dream.Kind != KindDream || dream.Session != main || !dream.Time.Equal(t0.Add(31*time.Minute)) || dream.LockPID != 4242 {
		t.Errorf("the Dream run: %+v", dream)
	}
	want := map[string]WriteOp{"b.md": OpModified, "c.md": OpModified, "d.md": OpDeleted}
	if len(dream.Files) != len(want) {
		t.Errorf("the Dream's files: %+v", dream.Files)
	}
	for _, f := range dream.Files {
		if want[f.Path] != f.Op {
			t.Errorf("%s: %s, want %s", f.Path, f.Op, want[f.Path])
		}
		if f.Path == "d.md" && f.Before.SHA256 != "d1" {
			t.Errorf("d.md's text before: %+v", f.Before)
		}
	}
	if lockOnly.Kind != KindDream || lockOnly.Session != "" || !lockOnly.Time.Equal(lock2) || lockOnly.LockPID != 5151 ||
		len(lockOnly.Files) != 1 || lockOnly.Files[0].Path != "g.md" {
		t.Errorf("the run only the lock tells of: %+v", lockOnly)
	}
}

// TestWithRunsFillsTheForkWrites: the Dream's activity, made from its
// memory_saved line with no texts, gets the snapshots' texts (a file
// kept with a secret masked stays untold); the lock-only run becomes an
// activity of its own.
func TestWithRunsFillsTheForkWrites(t *testing.T) {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true}
	main := "7c1e0a2b-3d4f-4a5b-8c6d-7e8f9a0b1c2d"
	at := time.Date(2026, 11, 20, 9, 31, 0, 0, time.UTC)
	log := &model.TranscriptLog{Writes: []model.MemWrite{
		{Path: d.Path + "/b.md", Kind: model.WriteFork, Verb: "Improved", Session: main, Time: at},
		{Path: d.Path + "/d.md", Kind: model.WriteFork, Verb: "Improved", Session: main, Time: at},
	}}
	acts := Sessions(d, log, nil)
	runs := []Run{
		{Kind: KindDream, Session: main, Time: at, Files: []RunFile{
			{Path: "b.md", Op: OpModified, Before: model.SnapFile{SHA256: "b1"}, After: model.SnapFile{SHA256: "b2"}},
			{Path: "d.md", Op: OpDeleted, Before: model.SnapFile{SHA256: "d1", Redacted: true}},
		}},
		{Kind: KindDream, Time: at.Add(2 * time.Hour), LockPID: 5151, Files: []RunFile{{Path: "g.md", Op: OpCreated, After: model.SnapFile{SHA256: "g2"}}}},
	}
	texts := map[string]string{"b1": "before\n", "b2": "after\n", "d1": "secret [REDACTED]\n", "g2": "new\n"}
	acts = WithRuns(d, acts, runs, func(s string) (string, bool) { t, ok := texts[s]; return t, ok })
	if len(acts) != 2 || acts[0].Name() != "Dream run" || acts[1].Name() != "7c1e0a2b Dream run" {
		t.Fatalf("activities: %+v", acts)
	}
	var b, dd *HistoryWrite
	for i := range acts[1].Wrote {
		switch w := &acts[1].Wrote[i]; w.Path {
		case "b.md":
			b = w
		case "d.md":
			dd = w
		}
	}
	if b == nil || b.Before != "before\n" || b.After != "after\n" || !b.HasBefore || !b.HasAfter {
		t.Errorf("b.md: %+v", b)
	}
	if dd == nil || dd.HasBefore || dd.Op != OpDeleted {
		t.Errorf("d.md, kept with a secret masked, must stay untold: %+v", dd)
	}
	if len(acts[1].Wrote) != 2 {
		t.Errorf("writes doubled: %+v", acts[1].Wrote)
	}
	if g := acts[0].Wrote; len(g) != 1 || !g[0].Created || g[0].After != "new\n" || acts[0].LockPID != 5151 {
		t.Errorf("the lock-only run: %+v", acts[0])
	}
}
