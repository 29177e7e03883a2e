// Package model holds memtui's domain as plain values: projects, memory
// directories, memory files, their frontmatter, the MEMORY.md index and the
// findings memtui reports about them. Everything here is pure: no I/O, no
// terminal. Functions take bytes and return values, so they are cheap to test
// and safe to call from any goroutine.
package model

import (
	"encoding/json"
	"fmt"
	"time"
)

// Type is a memory's type as Claude Code defines it (a closed set).
type Type string

// The four memory types Claude Code knows. Anything else is invalid and
// Claude Code degrades it to "no type".
const (
	TypeUser      Type = "user"
	TypeFeedback  Type = "feedback"
	TypeProject   Type = "project"
	TypeReference Type = "reference"
)

// Types lists the valid types in the order memtui groups them.
var Types = []Type{TypeUser, TypeFeedback, TypeProject, TypeReference}

// ParseType returns the type for s on an exact, case-sensitive match, as
// Claude Code's parseMemoryType does; ok is false otherwise.
func ParseType(s string) (t Type, ok bool) {
	switch Type(s) {
	case TypeUser, TypeFeedback, TypeProject, TypeReference:
		return Type(s), true
	}
	return "", false
}

// Severity orders findings from merely informative to broken.
type Severity int

// Severities, least to most severe.
const (
	Info Severity = iota
	Warning
	Error
)

var severityNames = [...]string{"info", "warning", "error"}

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	if s < Info || s > Error {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity is the inverse of String.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if n == s {
			return Severity(i), nil
		}
	}
	return Info, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// MarshalText makes severities print as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses the word form.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// Finding is one thing wrong (or worth knowing) about a memory directory.
// Its JSON form is part of memtui's CLI contract (DESIGN.md section 2).
type Finding struct {
	Rule       string   `json:"rule"`
	Severity   Severity `json:"severity"`
	Project    string   `json:"project"`
	MemoryDir  string   `json:"memory_dir"`
	File       string   `json:"file"` // relative to MemoryDir, slash-separated; "" for the directory itself
	Line       int      `json:"line"` // 1-based; 0 when the finding has no line
	Message    string   `json:"message"`
	Suggestion string   `json:"suggestion"`
	// Agent names whose memory the finding is about when it is not
	// Claude Code's: "codex", or a --memory-root store's label
	// (app.Workspace.Check fills it); "" (and no JSON field) for Claude
	// Code's, so its findings print as they always did.
	Agent string `json:"agent,omitempty"`
}

// DirKind says how memtui came to know a memory directory.
type DirKind int

// Kinds of memory directory.
const (
	DirAuto         DirKind = iota // <config>/projects/<slug>/memory
	DirTeam                        // <memdir>/team
	DirOverride                    // autoMemoryDirectory or CLAUDE_COWORK_MEMORY_PATH_OVERRIDE
	DirExplicit                    // --memory-dir
	DirAgentUser                   // <config>/agent-memory/<agent>
	DirAgentProject                // <root>/.claude/agent-memory/<agent>
	DirAgentLocal                  // <root>/.claude/agent-memory-local/<agent>
	DirRoot                        // another agent's Claude-format store, found by --memory-root
)

var dirKindNames = [...]string{"auto", "team", "override", "explicit", "agent-user", "agent-project", "agent-local", "memory-root"}

// String names the kind for humans and JSON.
func (k DirKind) String() string {
	if k < 0 || int(k) >= len(dirKindNames) {
		return "unknown"
	}
	return dirKindNames[k]
}

// MarshalJSON prints the kind by name.
func (k DirKind) MarshalJSON() ([]byte, error) { return json.Marshal(k.String()) }

// ScanExcludes reports whether Claude Code's scan of a dir of this kind
// skips the excluded paths (facts 2.1: a part starting with a dot, logs/,
// sessions/, proposals/): an auto-memory dir, whatever named it. Agent
// memory is scanned without them, so there a dot folder hides nothing
// (and an archive would archive nothing).
func (k DirKind) ScanExcludes() bool {
	switch k {
	case DirAgentUser, DirAgentProject, DirAgentLocal:
		return false
	}
	return true
}

// Project is one Claude Code project: a slug under <config>/projects, the real
// path it stands for when transcripts confirm it, and its memory directories.
type Project struct {
	ConfigDir string // the config dir this project was found under; "" for --memory-dir
	Slug      string // directory name under projects/; for other dirs a stable label
	// Root is the project's real working directory, taken from the cwd field of
	// its transcripts. Empty when no transcript confirms it: the slug cannot be
	// reversed, so memtui never guesses.
	Root string
	// TranscriptDir is <config>/projects/<slug>, where session transcripts live.
	TranscriptDir string
	// Sessions holds the IDs of the session transcripts present (<uuid>.jsonl).
	Sessions map[string]bool
	Dirs     []*MemoryDir
	// Agent is the coding agent that keeps this memory when it is not
	// Claude Code: the label of the --memory-root it was found under
	// (qwen, openhands, ...); "" for Claude Code's own. (MemoryDir.Agent
	// is something else: a Claude Code subagent's name.)
	Agent string
	// Log is what the project's transcripts say about its memories: who
	// wrote and read them. nil until the transcripts have been read (they
	// are read separately, because they can be gigabytes).
	Log *TranscriptLog
}

// Name is how the project is shown: its real path when known, else its slug.
func (p *Project) Name() string {
	if p == nil {
		return "" // a directory checked on its own (--memory-dir, tests)
	}
	if p.Root != "" {
		return p.Root
	}
	return p.Slug
}

// MemoryDir is one directory of memories with its index and topic files, as
// read from disk.
type MemoryDir struct {
	Path  string  // absolute, cleaned
	Kind  DirKind //
	Agent string  // agent name for agent-memory dirs
	// Index is MEMORY.md; nil when the directory has none.
	Index *File
	// Files are the topic files: every *.md below Path that Claude Code's
	// scan could take for a memory (facts 2.1: not MEMORY.md at any depth
	// without memory stores, not a store's index or skills with them),
	// except those under a nested team/ directory (a MemoryDir of its own).
	// Sorted by Path.
	Files []*File
	// StoreIndexes are the index files of the memory stores mounted in
	// this directory (CLAUDE_MEMORY_STORES, facts 7.1): each team store's
	// <mount>/<promptIndex> in a team dir, the user store's promptIndex
	// when it is not MEMORY.md. Read like Index; in the order found.
	StoreIndexes []StoreIndex
	// Problems are what the reader could not read or would not follow, each
	// to be reported as a finding.
	Problems []Problem
	// LockModTime is the mtime of .consolidate-lock (Claude Code's "last
	// consolidated at"); zero when there is no lock file.
	LockModTime time.Time
	// ScanListed is how many memory files Claude Code's scan lists in the
	// memory directory this one belongs to (a team dir's parent and its
	// team/ together: one scan), before it keeps the newest RecallScanCap.
	ScanListed int
	// Exists is false when the directory is configured but absent.
	Exists bool
	// Kept are the texts memtui kept of memory files of this dir that are
	// gone from disk (app fills them before the checks): with the
	// transcripts, where a deleted memory's text can come from.
	Kept []KeptText
	// Workspace, when set, is the project settings file (the repository's
	// own .claude/settings.json or settings.local.json) whose
	// autoMemoryDirectory named this directory. Claude Code honours it
	// only once the user trusts the workspace, which memtui cannot see: the
	// directory is shown, but memtui does not write into it unless the user
	// names it (--memory-dir).
	Workspace string
}

// DropContent frees the bytes read of every file of d (the index, the
// store indexes, the topic files), keeping what was measured of them: a
// run over a whole tree then holds one directory per worker in memory.
func (d *MemoryDir) DropContent() {
	if d.Index != nil {
		d.Index.Content = nil
	}
	for _, si := range d.StoreIndexes {
		si.File.Content = nil
	}
	for _, f := range d.Files {
		f.Content = nil
	}
}

// StoreIndex is a memory store's index file as read from disk.
type StoreIndex struct {
	Store Store
	File  *File
}

// File is one markdown file as read from disk.
type File struct {
	Path    string    // relative to the memory dir, slash-separated
	Size    int64     // size on disk
	ModTime time.Time // mtime on disk
	Mode    uint32    // permission bits
	// Content holds the bytes read; at most the reader's cap.
	Content []byte
	// Truncated is true when Content holds only the first part of the file.
	Truncated bool
	// Tail, set for a subagent's index read in part, counts the rest of
	// the file as Claude Code measures it (it loads such an index whole):
	// claude.LoadIndex adds it.
	Tail *IndexTail
	// Scan is what Claude Code's memory scan makes of the file: ScanIn
	// (the zero value) when it offers it to recall, else why not; ScanWhy
	// says it in words for an excluded or unfollowed file. Set by the
	// loader (facts 2.1, 4.1).
	Scan    ScanReason
	ScanWhy string
	// Link is set when the file was reached through a symbolic link: the
	// link's path relative to the memory dir (the file itself, or a folder
	// above it). Claude Code's scan follows links; memtui reads such a file
	// as it does, but never writes it.
	Link string
}

// ProblemKind classifies what the reader found wrong with a path.
type ProblemKind int

// Kinds of read problem.
const (
	ProblemUnreadable    ProblemKind = iota // permission denied, vanished, I/O error
	ProblemNotFile                          // a directory or device named *.md
	ProblemSymlink                          // a symlink inside the memory dir (followed, as Claude Code's scan does)
	ProblemSymlinkEscape                    // a symlink whose target lies outside the memory dir (followed to read, as Claude Code's scan does)
	ProblemSymlinkLoop                      // a symlink that loops or dangles
	ProblemTooLarge                         // only the first part was read
	ProblemLinkSkipped                      // a symlink Claude Code's scan does not follow (a cycle, a link back up, agent memory)
)

// Problem is a path the reader could not read normally.
type Problem struct {
	Path   string // relative to the memory dir, slash-separated
	Kind   ProblemKind
	Detail string // human-readable: the error, the link target, the size
}

// Scan is everything memtui found on disk in one pass.
type Scan struct {
	ConfigDirs []string
	Projects   []*Project
	// Config lists problems with configuration rather than with one memory
	// dir: settings files that do not parse, overrides Claude Code rejects.
	Config []ConfigProblem
	// Strands are the auto-memory dirs no session Claude Code runs loads
	// (strand.go), sorted by From; filled after discovery by app.
	Strands []Strand
}

// ConfigKind classifies a configuration problem.
type ConfigKind int

// Kinds of configuration problem.
const (
	SettingsInvalid ConfigKind = iota // a settings file that does not parse
	OverrideInvalid                   // an autoMemoryDirectory or env override Claude Code rejects
)

// ConfigProblem is a configuration file or variable memtui found broken.
type ConfigProblem struct {
	Kind ConfigKind
	// Source is the file path, or the environment variable's name.
	Source string
	// Line is 1-based within Source when known, else 0.
	Line int
	// Project is the project the problem affects, "" when global.
	Project string
	// Detail says what is wrong; Suggestion what to do.
	Detail     string
	Suggestion string
}
