package testmodel

import (
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// The transcript fixtures of the lost-update and forensics tests follow
// transcript-format.md §6: project /home/dev/acme-api, its memory dir
// under ~/.claude/projects (LostDir), sessions named as there.

// LostDir is the memory dir of the race's project.
const LostDir = "/home/dev/.claude/projects/-home-dev-acme-api/memory"

// The race's sessions.
const (
	RaceA = "5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90"
	RaceB = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
	RaceC = "7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e"
	RaceD = "8c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f"
)

// AbsMem is the absolute path of rel in LostDir.
func AbsMem(rel string) string { return LostDir + "/" + rel }

// At is a time on the day of the race, minutes after 09:00 UTC.
func At(min int) time.Time {
	return time.Date(2026, 8, 3, 9, 0, 0, 0, time.UTC).Add(time.Duration(min) * time.Minute)
}

// Log builds a transcript log by hand, as the memfs reader would fill it:
// each call adds a session, an observation or a write (of a path relative
// to LostDir, with a fresh tool-use ID) and returns the builder.
type Log struct {
	l model.TranscriptLog
	n int
}

// NewLog is an empty Log.
func NewLog() *Log {
	return &Log{l: model.TranscriptLog{Sessions: map[string]*model.Session{}}}
}

// Session adds session id, an hour long from start, with its transcript.
func (b *Log) Session(id, title, branch string, start time.Time) *Log {
	b.l.Sessions[id] = &model.Session{ID: id, Title: title, Branch: branch, Start: start, End: start.Add(time.Hour),
		Transcript: "/home/dev/.claude/projects/-home-dev-acme-api/" + id + ".jsonl", ModTime: start.Add(time.Hour)}
	return b
}

// id is the next tool-use ID.
func (b *Log) id() string {
	b.n++
	return "toolu_01" + strings.Repeat("X", 3) + string(rune('A'+b.n%26)) + strings.Repeat("0", b.n/26+1)
}

// Base is a write of rel by sess at t, of kind, with nothing of its text:
// for a test to fill in and Add.
func (b *Log) Base(sess string, t time.Time, rel string, kind model.WriteKind) model.MemWrite {
	br := ""
	if s := b.l.Sessions[sess]; s != nil {
		br = s.Branch
	}
	return model.MemWrite{Path: AbsMem(rel), Kind: kind, Session: sess, Time: t, Branch: br, Cwd: "/home/dev/acme-api",
		Version: "2.1.226", ToolUseID: b.id(), Transcript: sess + ".jsonl", Line: b.n}
}

// Read is a full Read of rel by sess.
func (b *Log) Read(sess string, t time.Time, rel, content string) *Log {
	b.l.Observations = append(b.l.Observations, model.MemObservation{Path: AbsMem(rel), Kind: model.ObsRead, Session: sess,
		Time: t, Content: content, Full: true, ID: b.id()})
	return b
}

// Obs adds an observation of kind of rel by sess at minute t (At).
func (b *Log) Obs(kind model.ObsKind, sess string, t int, rel, content string, full bool) *Log {
	b.l.Observations = append(b.l.Observations, model.MemObservation{Path: AbsMem(rel), Kind: kind, Session: sess,
		Time: At(t), Content: content, Full: full, ID: b.id()})
	return b
}

// AddObs adds o as it is.
func (b *Log) AddObs(o model.MemObservation) *Log {
	b.l.Observations = append(b.l.Observations, o)
	return b
}

// Write is a Write of the whole file, with its originalFile.
func (b *Log) Write(sess string, t time.Time, rel, before, after string) *Log {
	w := b.Base(sess, t, rel, model.WriteFull)
	w.Before, w.HasBefore, w.After, w.HasAfter = before, true, after, true
	w.Created = before == ""
	b.l.Writes = append(b.l.Writes, w)
	return b
}

// Edit is an Edit with its originalFile (before) when hasBefore.
func (b *Log) Edit(sess, agent string, t time.Time, rel, before string, hasBefore bool, old, new string) *Log {
	w := b.Base(sess, t, rel, model.WriteEdit)
	w.Agent = agent
	w.Before, w.HasBefore = before, hasBefore
	w.Edits = []model.TextEdit{{Old: old, New: new}}
	b.l.Writes = append(b.l.Writes, w)
	return b
}

// Add adds w as it is.
func (b *Log) Add(w model.MemWrite) *Log {
	b.l.Writes = append(b.l.Writes, w)
	return b
}

// DropLastWrite removes the write added last.
func (b *Log) DropLastWrite() *Log {
	b.l.Writes = b.l.Writes[:len(b.l.Writes)-1]
	return b
}

// Build is the log, sorted as the reader leaves it.
func (b *Log) Build() *model.TranscriptLog {
	l := b.l
	l.SortLog()
	return &l
}

// The index of the race: Idx0 is what both sessions read, A adds the
// deploy entry after the staging one (Idx1), B adds the release-freeze
// entry at the end (IdxB).
const (
	EStaging = "- [Staging URL](reference_staging.md) — staging lives on acme-stg"
	ERole    = "- [User role](user_role.md) — backend engineer, owns billing"
	EDeploy  = "- [Deploy command](feedback_deploy_command.md) — make ship, not npm run deploy"
	EFreeze  = "- [Release freeze](project_release_freeze.md) — no deploys Fri after 14:00"
	Idx0     = "# Memory\n\n" + EStaging + "\n" + ERole + "\n"
	Idx1     = "# Memory\n\n" + EStaging + "\n" + EDeploy + "\n" + ERole + "\n"
	IdxB     = Idx0 + EFreeze + "\n"
)

// RaceTopics are the topic files the race's index points at.
func RaceTopics() map[string]string {
	return map[string]string{
		"reference_staging.md":       Topic("reference-staging", "Staging host and how to reach it", "reference", "Staging lives on acme-stg (VPN required).\n"),
		"user_role.md":               Topic("user-role", "The user is a backend engineer who owns billing", "user", "The user owns the billing service and reviews every schema change.\n"),
		"feedback_deploy_command.md": Topic("feedback-deploy-command", "Deploy with make ship, never npm run deploy", "feedback", Body),
		"project_release_freeze.md":  Topic("project-release-freeze", "No deploys on Fridays after 14:00", "project", "No deploys on Fridays after 14:00 during the Q3 freeze.\n"),
	}
}

// LostMemDir is a memory dir at LostDir holding files (MEMORY.md
// included), modified two days before Now.
func LostMemDir(files map[string]string) *model.MemoryDir {
	d := Dir(files, Now.AddDate(0, 0, -2))
	d.Path = LostDir
	return d
}

// WithIndex is RaceTopics with index as MEMORY.md.
func WithIndex(index string) map[string]string {
	files := RaceTopics()
	files["MEMORY.md"] = index
	return files
}

// RaceLog is the Done-when race: A and B read Idx0, A edits its entry in,
// then B writes the whole file from its stale view.
func RaceLog() *Log {
	return NewLog().
		Session(RaceA, "Deploy notes", "main", At(0)).
		Session(RaceB, "Release freeze", "feat/billing", At(1)).
		Read(RaceA, At(10), "MEMORY.md", Idx0).
		Read(RaceB, At(11), "MEMORY.md", Idx0).
		Edit(RaceA, "", At(14), "MEMORY.md", Idx0, true, EStaging, EStaging+"\n"+EDeploy).
		Write(RaceB, At(20), "MEMORY.md", Idx1, IdxB)
}
