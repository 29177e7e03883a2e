package forensics

import (
	"slices"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// TestSessionsKindsAndOverlaps: each session, subagent, background fork
// and memtui run that touched the directory is one activity with what it
// read and wrote; two sessions open at once overlap even when their
// memory work was minutes apart, a session never overlaps its own fork,
// and a lost update is on both sides. Newest first.
func TestSessionsKindsAndOverlaps(t *testing.T) {
	d := &model.MemoryDir{Path: "/m", Kind: model.DirAuto, Index: &model.File{Path: "MEMORY.md"}, Files: []*model.File{{Path: "a.md"}}}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	log := &model.TranscriptLog{
		Sessions: map[string]*model.Session{
			"race-a": {ID: "race-a", Title: "A", Start: at(0), End: at(30), Cwd: "/p", Branch: "feat"},
			"race-b": {ID: "race-b", Title: "B", Start: at(5), End: at(40)},
			"later":  {ID: "later", Title: "Later", Start: at(100), End: at(110)},
		},
		Writes: []model.MemWrite{
			{Path: "/m/MEMORY.md", Kind: model.WriteEdit, Session: "race-a", Time: at(2)},
			{Path: "/m/MEMORY.md", Kind: model.WriteFull, Session: "race-b", Time: at(35)},
			{Path: "/m/a.md", Kind: model.WriteFork, Verb: "Improved", Session: "later", Time: at(105)},
			{Path: "/m/a.md", Kind: model.WriteFull, Session: "later", Agent: "helper", Time: at(106)},
			{Path: "/m/a.md", Kind: model.WriteMemtui, Time: at(120), HasAfter: true, After: "x"},
			{Path: "/elsewhere/b.md", Kind: model.WriteFull, Session: "race-a", Time: at(3)},
		},
		Observations: []model.MemObservation{
			{Path: "/m/MEMORY.md", Kind: model.ObsRead, Session: "race-b", Time: at(6)},
			{Path: "/m/a.md", Kind: model.ObsRecall, Session: "race-b", Time: at(7)},
			{Path: "/m/a.md", Kind: model.ObsWrote, Session: "race-a", Time: at(8)},
		},
	}
	lost := []Lost{{File: "MEMORY.md", Lines: []string{"- [A](a.md)"}, Writer: log.Writes[0], Culprit: &log.Writes[1], Definite: true}}
	as := Sessions(d, log, lost)
	keys := make([]string, len(as))
	for i := range as {
		keys[i] = as[i].Key()
	}
	want := []string{"memtui//", "subagent/later/helper", "dream/later/", "main/race-b/", "main/race-a/"}
	if !slices.Equal(keys, want) {
		t.Fatalf("activities %v, want %v (newest first)", keys, want)
	}
	a, b := as[4], as[3]
	if a.Title != "A" || a.Cwd != "/p" || a.Branch != "feat" || !a.Start.Equal(at(0)) || !a.End.Equal(at(30)) {
		t.Errorf("race-a's details and span: %+v", a)
	}
	if len(a.Wrote) != 1 || a.Wrote[0].Path != "MEMORY.md" || a.Wrote[0].Tool != "Edit" || len(a.Read) != 0 {
		t.Errorf("race-a wrote MEMORY.md once and read nothing (its own write is no read); another dir's write is not its: %+v", a)
	}
	if !slices.Equal(b.Read, []string{"MEMORY.md", "a.md"}) {
		t.Errorf("race-b read %v", b.Read)
	}
	if !slices.Equal(a.Overlaps, []string{"main/race-b/"}) || !slices.Equal(b.Overlaps, []string{"main/race-a/"}) {
		t.Errorf("the two open sessions must overlap each other alone: %v, %v", a.Overlaps, b.Overlaps)
	}
	if len(a.Lost) != 1 || a.Lost[0].Other != "main/race-b/" || !a.Lost[0].Definite || len(b.Dropped) != 1 || b.Dropped[0].Other != "main/race-a/" {
		t.Errorf("the lost update on both sides: lost %+v, dropped %+v", a.Lost, b.Dropped)
	}
	dream, sub := as[2], as[1]
	if dream.Title != "Later" || len(dream.Overlaps) != 0 || len(sub.Overlaps) != 0 {
		t.Errorf("a fork and a subagent do not race their own session: %+v %+v", dream.Overlaps, sub.Overlaps)
	}
	if m := as[0]; m.Title != "" || len(m.Overlaps) != 0 || m.Wrote[0].Tool != "memtui" {
		t.Errorf("memtui's write: %+v", m)
	}
}
