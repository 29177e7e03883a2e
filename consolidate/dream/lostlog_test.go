package dream

import (
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// The transcript fixtures of the lost-update tests (a copy of those of
// forensics/transcript_test.go, which test the forensics on their own)
// follow transcript-format.md §6: project /home/dev/acme-api,
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
