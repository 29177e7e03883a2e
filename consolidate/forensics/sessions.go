package forensics

import (
	"sort"
	"time"

	"github.com/memtui/memtui/model"
)

// SessionKind says what did a session's memory work: the session itself,
// one of its subagents, or one of the background forks Claude Code runs
// from it (memory extraction, Dream), or memtui.
type SessionKind string

// The kinds of session activity.
const (
	KindMain       SessionKind = "main"
	KindSubagent   SessionKind = "subagent"
	KindExtraction SessionKind = "extraction" // Claude Code's memory-extraction fork
	KindDream      SessionKind = "dream"      // autoDream or /dream: a fork that "Improved" memories
	KindMemtui     SessionKind = "memtui"     // memtui's own writes, from its journal
)

// SessionActivity is what one session (or a subagent or background fork
// of it) did to one memory directory: what it read and wrote, the text it
// lost to another's write or dropped of another's, and the sessions that
// worked on the directory at the same time.
type SessionActivity struct {
	// Session is the session's ID (a subagent's and a fork's are their
	// parent's); Agent names a subagent.
	Session string
	Agent   string
	Kind    SessionKind
	// Title, Cwd and Branch are the session's, as its transcript says.
	Title, Cwd, Branch string
	// Start and End span the session when its transcript says when it
	// ran, else its memory activity; End is the later of the two.
	Start, End time.Time
	// Read are the files it read, had recalled or loaded as the index
	// (memory-dir-relative slash paths, sorted).
	Read []string
	// Wrote are its writes, oldest first, each Path memory-dir-relative.
	Wrote []HistoryWrite
	// Lost is text it wrote that a later write dropped; Dropped is text
	// others wrote that one of its writes dropped.
	Lost, Dropped []LostLink
	// Overlaps are the other activities on the directory whose spans
	// meet this one's (their Key), newest first.
	Overlaps []string
	// RunAt, for a background run memtui's snapshots caught (WithRuns),
	// is when it ran (its memory_saved line's time, else the lock's
	// mtime); LockPID is the PID in the lock then, 0 when unknown.
	RunAt   time.Time
	LockPID int
}

// LostLink is one lost update seen from one side of it.
type LostLink struct {
	// File is the memory-dir-relative slash path.
	File string
	// Lines are the text lost.
	Lines []string
	// Other is the other side's Key ("" when no recorded write dropped the
	// text); Definite is as Lost's.
	Other    string
	Definite bool
}

// Key names an activity among a directory's: its kind, session and agent.
func (a *SessionActivity) Key() string {
	if a.Session == "" && !a.RunAt.IsZero() {
		// A run only the lock tells of: named by its time, as Run.Key.
		return activityKey(a.Kind, "", a.RunAt.UTC().Format(time.RFC3339Nano))
	}
	return activityKey(a.Kind, a.Session, a.Agent)
}

// Name names an activity in one line: the session's short ID, and for a
// subagent or a fork what ran in it.
func (a *SessionActivity) Name() string {
	switch a.Kind {
	case KindMemtui:
		return "memtui"
	case KindSubagent:
		return ShortSession(a.Session) + " subagent " + a.Agent
	case KindDream:
		if a.Session == "" {
			return "Dream run"
		}
		return ShortSession(a.Session) + " Dream run"
	case KindExtraction:
		return ShortSession(a.Session) + " memory extraction"
	}
	return ShortSession(a.Session)
}

// When says when an activity ran, in UTC, its end's date left out when it
// is its start's.
func (a *SessionActivity) When() string {
	s, e := a.Start.UTC(), a.End.UTC()
	switch {
	case s.IsZero():
		return "when unknown"
	case s.Format("2006-01-02 15:04") == e.Format("2006-01-02 15:04"):
		return s.Format("2006-01-02 15:04") + " UTC"
	case s.Format("2006-01-02") == e.Format("2006-01-02"):
		return s.Format("2006-01-02 15:04") + "–" + e.Format("15:04") + " UTC"
	}
	return s.Format("2006-01-02 15:04") + " – " + e.Format("2006-01-02 15:04") + " UTC"
}

func activityKey(k SessionKind, session, agent string) string {
	return string(k) + "/" + session + "/" + agent
}

// kindOf says whose a recorded write was.
func kindOf(w *model.MemWrite) SessionKind {
	switch {
	case w.Kind == model.WriteMemtui:
		return KindMemtui
	case w.Kind == model.WriteFork && w.Verb == "Improved":
		return KindDream
	case w.Kind == model.WriteFork:
		return KindExtraction
	case w.Agent != "":
		return KindSubagent
	}
	return KindMain
}

// Sessions lists every session, subagent, background fork and memtui run
// that read or wrote d in the log, newest first (by End), with the lost
// updates lost names (LostUpdates of d) on both sides of each.
func Sessions(d *model.MemoryDir, log *model.TranscriptLog, lost []Lost) []SessionActivity {
	if log == nil {
		return nil
	}
	byKey := map[string]*SessionActivity{}
	get := func(k SessionKind, session, agent string, t time.Time) *SessionActivity {
		key := activityKey(k, session, agent)
		a := byKey[key]
		if a == nil {
			a = &SessionActivity{Session: session, Agent: agent, Kind: k, Start: t, End: t}
			if s := log.Sessions[session]; s != nil && k != KindMemtui {
				a.Title, a.Cwd, a.Branch = s.Title, s.Cwd, s.Branch
			}
			byKey[key] = a
		}
		if !t.IsZero() && (a.Start.IsZero() || t.Before(a.Start)) {
			a.Start = t
		}
		if t.After(a.End) {
			a.End = t
		}
		return a
	}
	prov := Provenance(d, log)
	for rel, ws := range prov {
		gone := false
		for _, w := range ws {
			a := get(kindOf(&w), w.Session, w.Agent, w.Time)
			hw := HistoryWrite{MemWrite: w, Tool: ToolName(w), Op: writeOp(w, gone), Title: a.Title}
			hw.Path = rel // relative, as everything here
			gone = hw.Op == OpDeleted
			a.Wrote = append(a.Wrote, hw)
			if a.Cwd == "" {
				a.Cwd = w.Cwd
			}
			if a.Branch == "" {
				a.Branch = w.Branch
			}
		}
	}
	read := map[string]bool{} // activity key and file: read already listed
	for _, o := range log.Observations {
		rel, ok := relPath(d, o.Path)
		if !ok {
			continue
		}
		switch o.Kind {
		case model.ObsRead, model.ObsUnchanged, model.ObsRecall, model.ObsIndexLoad:
		default:
			continue
		}
		k := KindMain
		if o.Agent != "" {
			k = KindSubagent
		}
		a := get(k, o.Session, o.Agent, o.Time)
		key := a.Key() + "\x00" + rel
		if !read[key] {
			read[key] = true
			a.Read = append(a.Read, rel)
		}
	}
	for i := range lost {
		l := &lost[i]
		w := get(kindOf(&l.Writer), l.Writer.Session, l.Writer.Agent, l.Writer.Time)
		link := LostLink{File: l.File, Lines: l.Lines, Definite: l.Definite}
		if l.Culprit != nil {
			c := get(kindOf(l.Culprit), l.Culprit.Session, l.Culprit.Agent, l.Culprit.Time)
			link.Other = c.Key()
			c.Dropped = append(c.Dropped, LostLink{File: l.File, Lines: l.Lines, Other: w.Key(), Definite: l.Definite})
		}
		w.Lost = append(w.Lost, link)
	}
	out := make([]SessionActivity, 0, len(byKey))
	for _, a := range byKey {
		// A session's span is when it ran, when its transcript says: two
		// sessions open at once are a race even if their memory work was
		// minutes apart. A fork runs within its parent; memtui's writes
		// are instants.
		if s := log.Sessions[a.Session]; s != nil && (a.Kind == KindMain || a.Kind == KindSubagent) {
			if !s.Start.IsZero() && s.Start.Before(a.Start) {
				a.Start = s.Start
			}
			if s.End.After(a.End) {
				a.End = s.End
			}
		}
		sort.Strings(a.Read)
		sort.SliceStable(a.Wrote, func(i, j int) bool { return a.Wrote[i].Time.Before(a.Wrote[j].Time) })
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].End.Equal(out[j].End) {
			return out[i].End.After(out[j].End)
		}
		return out[i].Key() < out[j].Key()
	})
	for i := range out {
		for j := range out {
			a, b := &out[i], &out[j]
			if i == j || a.Session == b.Session || a.Kind == KindMemtui || b.Kind == KindMemtui {
				continue // a session does not race itself, nor memtui (it writes under the lock)
			}
			if !a.Start.After(b.End) && !b.Start.After(a.End) {
				a.Overlaps = append(a.Overlaps, b.Key())
			}
		}
	}
	return out
}
