package model

import (
	"sort"
	"time"
)

// WriteKind says how a recorded write reached a memory file.
type WriteKind string

// Kinds of recorded write. Only Write, Edit and MultiEdit carry text; the
// others are known to have happened but not what they wrote (transcripts
// §4.4: background forks leave only a memory_saved line, and Bash leaves
// only its command).
const (
	WriteFull   WriteKind = "write"       // the Write tool: the whole file
	WriteEdit   WriteKind = "edit"        // the Edit tool (one replacement)
	WriteMulti  WriteKind = "multiedit"   // the legacy MultiEdit tool
	WriteStore  WriteKind = "memory-tool" // a memory-store tool (store, path, content)
	WriteShell  WriteKind = "shell"       // a Bash command naming the file
	WriteFork   WriteKind = "fork"        // a background fork (extraction or autoDream): content unknown
	WriteMemtui WriteKind = "memtui"      // memtui's own applied proposal (from its journal)
)

// TextEdit is one old→new replacement of an Edit or MultiEdit.
type TextEdit struct {
	Old string
	New string
	All bool // replace_all
}

// MemWrite is one write to a memory file recorded in a transcript (or in
// memtui's journal). Only applied writes are recorded: a tool call whose
// result is an error, or that never got a result, changed nothing.
type MemWrite struct {
	// Path is the absolute, cleaned path of the file written.
	Path string
	Kind WriteKind
	// Session is the session ID; for a subagent it is the parent session's
	// ID and Agent names the subagent.
	Session string
	Agent   string
	// Time is when the write's result was recorded (UTC).
	Time    time.Time
	Cwd     string
	Branch  string
	Version string
	// Transcript is the file the write was read from and Line its 1-based
	// line number there.
	Transcript string
	Line       int
	// ToolUseID is the tool call's id (toolu_...): the key writes are
	// deduplicated by across forked transcripts.
	ToolUseID string
	// AlsoIn are other sessions whose transcripts repeat this write: a
	// fork (--fork-session, /branch) copies its parent's lines, ids and
	// times included, so which of them made it cannot be told apart.
	AlsoIn []string

	// Before is the whole file before the write (the tool's originalFile)
	// when HasBefore; a create has HasBefore with Before "".
	Before    string
	HasBefore bool
	// After is the whole file as written when HasAfter (Write's content).
	// For an edit it is left to the reader of Edits and Before.
	After    string
	HasAfter bool
	// Edits are the replacements of an Edit or MultiEdit, in order.
	Edits []TextEdit
	// Created is true when the write created the file; Deleted when it
	// removed it (a shell command whose result says so: bashEditDiff).
	Created bool
	Deleted bool
	// UserModified is true when a person changed the proposed text in the
	// permission dialog; the recorded text is what was applied.
	UserModified bool
	// Verb is a fork's verb: "Improved" for autoDream, "" for extraction.
	Verb string
	// Command is a shell write's command.
	Command string
	// TextDropped is true when the transcript recorded what the write
	// wrote but the reader did not keep it: a text over the size a memory
	// file can have, or history older than the reader's bounds. Such a
	// write has no Before, After or Edits: it is known to have happened,
	// not what it left.
	TextDropped bool
}

// ObsKind says how an agent came to see a memory's content.
type ObsKind string

// Kinds of observation. Reads, recalls and index loads are the "heat" of a
// memory (transcripts §7 rule 4).
const (
	ObsRead      ObsKind = "read"      // the Read tool returned the file (or part of it)
	ObsUnchanged ObsKind = "unchanged" // a Read answered "file unchanged since last read"
	ObsRecall    ObsKind = "recall"    // a relevant_memories attachment surfaced it
	ObsIndexLoad ObsKind = "index"     // an instructions attachment loaded MEMORY.md
	ObsChanged   ObsKind = "changed"   // an edited_text_file attachment: it changed under the session
	ObsWrote     ObsKind = "wrote"     // the session's own write (it knows what it wrote)
)

// MemObservation is one time a session saw a memory file's content.
type MemObservation struct {
	Path    string // absolute, cleaned
	Kind    ObsKind
	Session string
	Agent   string
	Time    time.Time
	// Content is what the session saw: the whole file when Full, else a
	// part (a ranged read, a truncated recall, a changed-file snippet).
	// Empty for ObsUnchanged.
	Content string
	Full    bool
	// ContentDropped is true when the session saw content the reader did
	// not keep (over a memory file's size, or older than the reader's
	// bounds): Content is empty, and what the session saw is unknown.
	ContentDropped bool
	// ID is the dedupe key: the tool_use id, else the line's uuid.
	ID string
	// AlsoIn are other sessions whose transcripts repeat this line (forks).
	AlsoIn     []string
	Transcript string
	Line       int
}

// Session is one Claude Code session as its transcripts describe it.
type Session struct {
	ID string
	// Title is the session's name: a custom title, else the AI title, else
	// a legacy summary; "" when it has none.
	Title string
	// Transcript is the path of <ID>.jsonl; "" when the main transcript is
	// gone (swept by cleanupPeriodDays) but a subagent file remains.
	Transcript string
	// Start and End are the first and last timestamps seen.
	Start, End time.Time
	// Cwd, Branch and Version come from the session's first message line.
	Cwd     string
	Branch  string
	Version string
	// ModTime is the main transcript's mtime: Claude Code's "session
	// touched" clock for the autoDream gate.
	ModTime time.Time
	// OtherFolder marks a session whose transcript sits under another
	// slug's folder (launched in a subdirectory of the project or inside
	// its memory folder) that wrote or read this project's memories. It is
	// listed for its title and cwd; Claude Code's session gate counts only
	// the project's own folder, so the autoDream gate does not count it.
	OtherFolder bool
}

// TranscriptLog is what a project's transcripts say about its memories.
type TranscriptLog struct {
	// Sessions are keyed by ID: every session whose main transcript exists,
	// plus sessions known only from subagent files.
	Sessions map[string]*Session
	// Writes and Observations are sorted by Time, deduplicated by tool_use
	// id (forked transcripts repeat their parent's lines).
	Writes       []MemWrite
	Observations []MemObservation
	// Oldest is the earliest timestamp in any transcript read: heat only
	// covers what the transcripts still hold (Claude Code deletes them
	// after cleanupPeriodDays, 30 by default), and no further back than
	// Since when the reader left older events out.
	Oldest time.Time
	// Files and Bytes count the transcript files and bytes covered; Read
	// is how many bytes this load actually read (0 when the cache had it).
	Files int
	Bytes int64
	Read  int64
	// Problems are files or lines that could not be read, said plainly.
	Problems []TranscriptProblem
	// Since is set when the transcripts hold more memory events than the
	// reader keeps: events before it (and some at it) were left out, so
	// the log is complete only from then on. TextSince is the same for
	// the texts of writes and observations (see TextDropped). Both are
	// zero when nothing was left out.
	Since, TextSince time.Time
}

// TranscriptProblem is one thing the transcript reader could not read or
// would not follow: a file it could not open or refused (a symlink), a line
// too long or not JSON, or the note that older history was not kept.
type TranscriptProblem struct {
	// Transcript is the file (or directory) it concerns.
	Transcript string `json:"transcript"`
	// Message says what went wrong, plainly, without repeating Transcript.
	Message string `json:"message"`
}

// String is the problem in one sentence, path first.
func (p TranscriptProblem) String() string {
	if p.Transcript == "" {
		return p.Message
	}
	return p.Transcript + ": " + p.Message
}

// SortLog puts writes and observations in time order (ties by transcript
// and line), the order every analysis expects.
func (l *TranscriptLog) SortLog() {
	sort.SliceStable(l.Writes, func(i, j int) bool {
		a, b := &l.Writes[i], &l.Writes[j]
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		if a.Transcript != b.Transcript {
			return a.Transcript < b.Transcript
		}
		return a.Line < b.Line
	})
	sort.SliceStable(l.Observations, func(i, j int) bool {
		a, b := &l.Observations[i], &l.Observations[j]
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		if a.Transcript != b.Transcript {
			return a.Transcript < b.Transcript
		}
		return a.Line < b.Line
	})
}

// Heat is how much agents used one memory, as far as the transcripts go.
type Heat struct {
	Reads      int // Read tool calls that returned content
	Unchanged  int // re-reads answered "unchanged since last read"
	Recalls    int // relevant_memories attachments
	IndexLoads int // instructions attachments (MEMORY.md only)
	Sessions   int // distinct sessions that read or recalled it
	Last       time.Time
}

// Uses is the total of reads, re-reads, recalls and index loads.
func (h Heat) Uses() int { return h.Reads + h.Unchanged + h.Recalls + h.IndexLoads }

// DreamGate is Claude Code's autoDream gate for one memory directory
// (facts §6.1): consolidation fires when both the time gate (24 h since the
// last consolidation) and the session gate (5 sessions touched since) are
// open, and autoDream is enabled.
type DreamGate struct {
	// LastConsolidated is the .consolidate-lock mtime; zero means never.
	LastConsolidated time.Time
	// Sessions are the IDs of sessions touched since, newest first.
	Sessions    []string
	MinHours    int
	MinSessions int
	TimeOpen    bool
	SessionOpen bool
}

// WouldFire reports whether both gates are open.
func (g DreamGate) WouldFire() bool { return g.TimeOpen && g.SessionOpen }

// SessionIs reports whether session id made write w, or (through a fork)
// may have.
func (w *MemWrite) SessionIs(id string) bool {
	return w.Session == id || containsString(w.AlsoIn, id)
}

// SessionIs reports whether session id saw observation o, or (through a
// fork) may have.
func (o *MemObservation) SessionIs(id string) bool {
	return o.Session == id || containsString(o.AlsoIn, id)
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
