package forensics

import (
	"reflect"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func TestProvenance(t *testing.T) {
	other := "/home/dev/.claude/projects/-home-dev-other/memory/MEMORY.md"
	log := testmodel.NewLog().Session(testmodel.RaceA, "", "main", testmodel.At(0)).
		Write(testmodel.RaceA, testmodel.At(30), "reference_staging.md", "", "x\n").
		Edit(testmodel.RaceA, "", testmodel.At(10), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Write(testmodel.RaceA, testmodel.At(5), "project_old_api.md", "", "gone since\n"). // deleted later: history kept
		Write(testmodel.RaceA, testmodel.At(6), "team/shared.md", "", "team\n").           // the team dir's, not this one's
		Write(testmodel.RaceA, testmodel.At(7), "notes/today.md", "", "nested\n").
		Add(model.MemWrite{Path: other, Kind: model.WriteFull, Session: testmodel.RaceA, Time: testmodel.At(8)}).
		Add(model.MemWrite{Path: testmodel.LostDir + "-old/MEMORY.md", Kind: model.WriteFull, Time: testmodel.At(8)}). // a sibling with the same prefix
		Add(model.MemWrite{Path: testmodel.AbsMem(".consolidate-lock"), Kind: model.WriteShell, Time: testmodel.At(9)}).
		Add(model.MemWrite{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.WriteFork, Verb: "Improved", Session: testmodel.RaceB, Time: testmodel.At(40)}).
		Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.Idx0))
	got := Provenance(d, log)
	kinds := map[string][]model.WriteKind{}
	for p, ws := range got {
		for i, w := range ws {
			kinds[p] = append(kinds[p], w.Kind)
			if i > 0 && w.Time.Before(ws[i-1].Time) {
				t.Errorf("%s: writes out of time order", p)
			}
		}
	}
	want := map[string][]model.WriteKind{
		"MEMORY.md":            {model.WriteEdit, model.WriteFork},
		"reference_staging.md": {model.WriteFull},
		"project_old_api.md":   {model.WriteFull},
		"notes/today.md":       {model.WriteFull},
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("provenance:\n%v\nwant:\n%v", kinds, want)
	}

	team := &model.MemoryDir{Path: testmodel.LostDir + "/team", Kind: model.DirTeam}
	if got := Provenance(team, log); len(got) != 1 || len(got["shared.md"]) != 1 {
		t.Errorf("the team dir's own writes: %+v", got)
	}
	if got := Provenance(d, nil); len(got) != 0 {
		t.Errorf("no log, no provenance: %+v", got)
	}
}

func TestHeatOf(t *testing.T) {
	obs := func(kind model.ObsKind, sess, rel string, min int) model.MemObservation {
		return model.MemObservation{Path: testmodel.AbsMem(rel), Kind: kind, Session: sess, Time: testmodel.At(min), Content: "x"}
	}
	log := &model.TranscriptLog{Observations: []model.MemObservation{
		obs(model.ObsIndexLoad, testmodel.RaceA, "MEMORY.md", 0),
		obs(model.ObsIndexLoad, testmodel.RaceB, "MEMORY.md", 1),
		obs(model.ObsRead, testmodel.RaceA, "MEMORY.md", 2),
		obs(model.ObsRead, testmodel.RaceA, "reference_staging.md", 3),
		obs(model.ObsUnchanged, testmodel.RaceA, "reference_staging.md", 4),
		obs(model.ObsRecall, testmodel.RaceC, "reference_staging.md", 5),
		obs(model.ObsWrote, testmodel.RaceD, "reference_staging.md", 50),   // a write is not use
		obs(model.ObsChanged, testmodel.RaceD, "reference_staging.md", 51), // nor a changed-file notice
		obs(model.ObsRead, testmodel.RaceD, "team/shared.md", 52),
	}}
	got := HeatOf(testmodel.LostMemDir(testmodel.WithIndex(testmodel.Idx0)), log)
	want := map[string]model.Heat{
		"MEMORY.md":            {Reads: 1, IndexLoads: 2, Sessions: 2, Last: testmodel.At(2)},
		"reference_staging.md": {Reads: 1, Unchanged: 1, Recalls: 1, Sessions: 2, Last: testmodel.At(5)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("heat:\n%+v\nwant:\n%+v", got, want)
	}
	if got["reference_staging.md"].Uses() != 3 {
		t.Errorf("uses: %d", got["reference_staging.md"].Uses())
	}
}

func TestGateOf(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	// sessions touched at the given hours before now; "" transcript for
	// one known only from a subagent file.
	logWith := func(hoursAgo ...int) *model.TranscriptLog {
		l := &model.TranscriptLog{Sessions: map[string]*model.Session{}}
		for i, h := range hoursAgo {
			id := string(rune('a'+i)) + "0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90"
			l.Sessions[id] = &model.Session{ID: id, Transcript: "/t/" + id + ".jsonl", ModTime: now.Add(-time.Duration(h) * time.Hour)}
		}
		l.Sessions["subagent-only"] = &model.Session{ID: "subagent-only", ModTime: now}
		return l
	}
	dir := func(lockHoursAgo int) *model.MemoryDir {
		d := &model.MemoryDir{Path: testmodel.LostDir}
		if lockHoursAgo > 0 {
			d.LockModTime = now.Add(-time.Duration(lockHoursAgo) * time.Hour)
		}
		return d
	}
	cases := []struct {
		name           string
		lock           int
		sessions       []int
		timeOpen, sess bool
		count          int
	}{
		{"never consolidated", 0, []int{1, 2, 3, 4, 5}, true, true, 5},
		{"23 hours ago", 23, []int{1, 2, 3, 4, 5}, false, true, 5},
		{"25 hours ago", 25, []int{1, 2, 3, 4, 5}, true, true, 5},
		{"4 sessions since", 25, []int{1, 2, 3, 4, 30}, true, false, 4},
		{"5 sessions since", 25, []int{1, 2, 3, 4, 5, 30}, true, true, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := GateOf(dir(c.lock), logWith(c.sessions...), now)
			if g.TimeOpen != c.timeOpen || g.SessionOpen != c.sess || len(g.Sessions) != c.count {
				t.Errorf("got time %v sessions %v (%d), want %v %v (%d)", g.TimeOpen, g.SessionOpen, len(g.Sessions), c.timeOpen, c.sess, c.count)
			}
			if g.WouldFire() != (c.timeOpen && c.sess) || g.MinHours != 24 || g.MinSessions != 5 {
				t.Errorf("gate %+v", g)
			}
			if c.lock > 0 && !g.LastConsolidated.Equal(now.Add(-time.Duration(c.lock)*time.Hour)) {
				t.Errorf("last consolidated %v", g.LastConsolidated)
			}
		})
	}
	g := GateOf(dir(25), logWith(3, 1, 2), now)
	if want := []string{"b0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90", "c0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90", "a0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90"}; !reflect.DeepEqual(g.Sessions, want) {
		t.Errorf("sessions must be newest first: %v", g.Sessions)
	}
}
