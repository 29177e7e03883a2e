package forensics

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// The fixtures follow transcript-format.md §6: project /home/dev/acme-api,
// its memory dir under ~/.claude/projects, sessions named as there.

const lostDir = "/home/dev/.claude/projects/-home-dev-acme-api/memory"

const (
	raceA = "5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90"
	raceB = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
	raceC = "7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e"
	raceD = "8c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f"
)

func absMem(rel string) string { return lostDir + "/" + rel }

// at is a time on the day of the race, minutes after 09:00 UTC.
func at(min int) time.Time {
	return time.Date(2026, 8, 3, 9, 0, 0, 0, time.UTC).Add(time.Duration(min) * time.Minute)
}

// logOf builds a transcript log by hand, as the memfs reader would fill it.
type logOf struct {
	l model.TranscriptLog
	n int
}

func newLogOf() *logOf {
	return &logOf{l: model.TranscriptLog{Sessions: map[string]*model.Session{}}}
}

func (b *logOf) session(id, title, branch string, start time.Time) *logOf {
	b.l.Sessions[id] = &model.Session{ID: id, Title: title, Branch: branch, Start: start, End: start.Add(time.Hour),
		Transcript: "/home/dev/.claude/projects/-home-dev-acme-api/" + id + ".jsonl", ModTime: start.Add(time.Hour)}
	return b
}

func (b *logOf) id() string {
	b.n++
	return "toolu_01" + strings.Repeat("X", 3) + string(rune('A'+b.n%26)) + strings.Repeat("0", b.n/26+1)
}

func (b *logOf) base(sess string, t time.Time, rel string, kind model.WriteKind) model.MemWrite {
	br := ""
	if s := b.l.Sessions[sess]; s != nil {
		br = s.Branch
	}
	return model.MemWrite{Path: absMem(rel), Kind: kind, Session: sess, Time: t, Branch: br, Cwd: "/home/dev/acme-api",
		Version: "2.1.226", ToolUseID: b.id(), Transcript: sess + ".jsonl", Line: b.n}
}

// read is a full Read of rel by sess.
func (b *logOf) read(sess string, t time.Time, rel, content string) *logOf {
	b.l.Observations = append(b.l.Observations, model.MemObservation{Path: absMem(rel), Kind: model.ObsRead, Session: sess,
		Time: t, Content: content, Full: true, ID: b.id()})
	return b
}

// write is a Write of the whole file, with its originalFile.
func (b *logOf) write(sess string, t time.Time, rel, before, after string) *logOf {
	w := b.base(sess, t, rel, model.WriteFull)
	w.Before, w.HasBefore, w.After, w.HasAfter = before, true, after, true
	w.Created = before == ""
	b.l.Writes = append(b.l.Writes, w)
	return b
}

// edit is an Edit with its originalFile (before) when hasBefore.
func (b *logOf) edit(sess, agent string, t time.Time, rel, before string, hasBefore bool, old, new string) *logOf {
	w := b.base(sess, t, rel, model.WriteEdit)
	w.Agent = agent
	w.Before, w.HasBefore = before, hasBefore
	w.Edits = []model.TextEdit{{Old: old, New: new}}
	b.l.Writes = append(b.l.Writes, w)
	return b
}

func (b *logOf) add(w model.MemWrite) *logOf {
	b.l.Writes = append(b.l.Writes, w)
	return b
}

func (b *logOf) build() *model.TranscriptLog {
	l := b.l
	l.SortLog()
	return &l
}

// The index of the race: idx0 is what both sessions read, A adds the deploy
// entry after the staging one, B adds the release-freeze entry at the end.
const (
	eStaging = "- [Staging URL](reference_staging.md) — staging lives on acme-stg"
	eRole    = "- [User role](user_role.md) — backend engineer, owns billing"
	eDeploy  = "- [Deploy command](feedback_deploy_command.md) — make ship, not npm run deploy"
	eFreeze  = "- [Release freeze](project_release_freeze.md) — no deploys Fri after 14:00"
	idx0     = "# Memory\n\n" + eStaging + "\n" + eRole + "\n"
	idx1     = "# Memory\n\n" + eStaging + "\n" + eDeploy + "\n" + eRole + "\n"
	idxB     = idx0 + eFreeze + "\n"
)

// raceTopics are the topic files the race's index points at.
func raceTopics() map[string]string {
	return map[string]string{
		"reference_staging.md":       topic("reference-staging", "Staging host and how to reach it", "reference", "Staging lives on acme-stg (VPN required).\n"),
		"user_role.md":               topic("user-role", "The user is a backend engineer who owns billing", "user", "The user owns the billing service and reviews every schema change.\n"),
		"feedback_deploy_command.md": topic("feedback-deploy-command", "Deploy with make ship, never npm run deploy", "feedback", body),
		"project_release_freeze.md":  topic("project-release-freeze", "No deploys on Fridays after 14:00", "project", "No deploys on Fridays after 14:00 during the Q3 freeze.\n"),
	}
}

// lostMemDir is a memory dir at lostDir holding files (MEMORY.md
// included).
func lostMemDir(files map[string]string) *model.MemoryDir {
	d := dreamDir(files, testNow.AddDate(0, 0, -2))
	d.Path = lostDir
	return d
}

func withIndex(index string) map[string]string {
	files := raceTopics()
	files["MEMORY.md"] = index
	return files
}

func TestProvenance(t *testing.T) {
	other := "/home/dev/.claude/projects/-home-dev-other/memory/MEMORY.md"
	log := newLogOf().session(raceA, "", "main", at(0)).
		write(raceA, at(30), "reference_staging.md", "", "x\n").
		edit(raceA, "", at(10), "MEMORY.md", idx0, true, eStaging, eStaging+"\n"+eDeploy).
		write(raceA, at(5), "project_old_api.md", "", "gone since\n"). // deleted later: history kept
		write(raceA, at(6), "team/shared.md", "", "team\n").           // the team dir's, not this one's
		write(raceA, at(7), "notes/today.md", "", "nested\n").
		add(model.MemWrite{Path: other, Kind: model.WriteFull, Session: raceA, Time: at(8)}).
		add(model.MemWrite{Path: lostDir + "-old/MEMORY.md", Kind: model.WriteFull, Time: at(8)}). // a sibling with the same prefix
		add(model.MemWrite{Path: absMem(".consolidate-lock"), Kind: model.WriteShell, Time: at(9)}).
		add(model.MemWrite{Path: absMem("MEMORY.md"), Kind: model.WriteFork, Verb: "Improved", Session: raceB, Time: at(40)}).
		build()
	d := lostMemDir(withIndex(idx0))
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

	team := &model.MemoryDir{Path: lostDir + "/team", Kind: model.DirTeam}
	if got := Provenance(team, log); len(got) != 1 || len(got["shared.md"]) != 1 {
		t.Errorf("the team dir's own writes: %+v", got)
	}
	if got := Provenance(d, nil); len(got) != 0 {
		t.Errorf("no log, no provenance: %+v", got)
	}
}

func TestHeatOf(t *testing.T) {
	obs := func(kind model.ObsKind, sess, rel string, min int) model.MemObservation {
		return model.MemObservation{Path: absMem(rel), Kind: kind, Session: sess, Time: at(min), Content: "x"}
	}
	log := &model.TranscriptLog{Observations: []model.MemObservation{
		obs(model.ObsIndexLoad, raceA, "MEMORY.md", 0),
		obs(model.ObsIndexLoad, raceB, "MEMORY.md", 1),
		obs(model.ObsRead, raceA, "MEMORY.md", 2),
		obs(model.ObsRead, raceA, "reference_staging.md", 3),
		obs(model.ObsUnchanged, raceA, "reference_staging.md", 4),
		obs(model.ObsRecall, raceC, "reference_staging.md", 5),
		obs(model.ObsWrote, raceD, "reference_staging.md", 50),   // a write is not use
		obs(model.ObsChanged, raceD, "reference_staging.md", 51), // nor a changed-file notice
		obs(model.ObsRead, raceD, "team/shared.md", 52),
	}}
	got := HeatOf(lostMemDir(withIndex(idx0)), log)
	want := map[string]model.Heat{
		"MEMORY.md":            {Reads: 1, IndexLoads: 2, Sessions: 2, Last: at(2)},
		"reference_staging.md": {Reads: 1, Unchanged: 1, Recalls: 1, Sessions: 2, Last: at(5)},
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
		d := &model.MemoryDir{Path: lostDir}
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
