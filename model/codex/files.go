package codex

import (
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// Store is a Codex memory root as read (memfs.LoadCodex fills it): one
// global store per CODEX_HOME (facts §1.1).
type Store struct {
	// Home is $CODEX_HOME; Root is Home/memories.
	Home, Root string
	// Exists is false when Root is not there (memories never generated).
	Exists bool
	// ConfigPath is Home/config.toml; ConfigFound says it was read.
	ConfigPath  string
	ConfigFound bool
	Config      Config
	// ConfigProblems are what ParseConfig said of it.
	ConfigProblems []Problem
	// Files are the regular files under Root, .git aside, by path relative
	// to Root (slash-separated), sorted.
	Files []*model.File
	// Links are the symbolic links under Root (relative paths): Codex
	// deletes every one at its next run.
	Links []string
	// Problems are what the reader could not read or would not follow.
	Problems []model.Problem
	// Git says Root holds .git, Codex's baseline of what it consolidated.
	Git bool
	// CwdExists says, for each path the handbook's applies_to: cwd= names
	// (as PathsIn gives it), whether it is there on this machine; a path
	// memtui could not look up is absent (memfs fills it).
	CwdExists map[string]bool
	// DB is what Codex's databases say (memfs.LoadCodexDB), nil when not
	// read.
	DB *DB
	// RolloutFiles says, for each rollout_path a rollout summary's header
	// names, whether that session file is on disk; a path not probed is
	// absent.
	RolloutFiles map[string]bool
	// Baseline is that .git as read (nil when Root is not there).
	Baseline *Baseline
}

// File is the file at rel, nil when the store has none.
func (s *Store) File(rel string) *model.File {
	for _, f := range s.Files {
		if f.Path == rel {
			return f
		}
	}
	return nil
}

// Busy says why memtui must not write into the store now, "" when it
// may (facts §4.4): a consolidation's workspace diff on disk means a run
// is in progress, or crashed; the consolidation's lease held in the
// database (as read) means one runs now.
func (s *Store) Busy() string { return s.BusyAt(time.Now()) }

// BusyAt is Busy with the lease judged at now; both reasons are given
// when both hold.
func (s *Store) BusyAt(now time.Time) string {
	why := s.DiffBusy()
	if l := s.LeaseBusy(now); l != "" {
		if why != "" {
			why += "; "
		}
		why += l
	}
	return why
}

// DiffBusy is Busy's reason from the workspace diff alone.
func (s *Store) DiffBusy() string {
	if s.File(DiffFile) != nil {
		return DiffFile + " is there: a Codex consolidation is running, or one crashed; an edit now could be overwritten or baked into its baseline unseen"
	}
	return ""
}

// The files Codex writes and reads, relative to the memory root (facts
// §1.2).
const (
	SummaryFile  = "memory_summary.md"
	HandbookFile = "MEMORY.md"
	RawFile      = "raw_memories.md"
	DiffFile     = "phase2_workspace_diff.md"
	RolloutDir   = "rollout_summaries/"
	SkillsDir    = "skills/"
	NotesDir     = "extensions/ad_hoc/notes/"
	ExtensionDir = "extensions/"
)

// Kind is what a file of the store is, to Codex.
type Kind string

// The kinds of file.
const (
	KindSummary   Kind = "summary"         // injected into every session
	KindHandbook  Kind = "handbook"        // MEMORY.md, read on demand
	KindRaw       Kind = "raw-memories"    // rebuilt from the database: edits are lost
	KindRollout   Kind = "rollout-summary" // rebuilt from the database: edits are lost
	KindSkill     Kind = "skill"
	KindNote      Kind = "note"      // the channel for new facts
	KindExtension Kind = "extension" // instructions and resources of an extension, an import
	KindDiff      Kind = "workspace-diff"
	KindForeign   Kind = "foreign" // nothing Codex writes: it enters the next diff as an addition
)

// KindOf is what the file at rel (relative to the memory root) is.
func KindOf(rel string) Kind {
	switch {
	case rel == SummaryFile:
		return KindSummary
	case rel == HandbookFile:
		return KindHandbook
	case rel == RawFile:
		return KindRaw
	case rel == DiffFile:
		return KindDiff
	case strings.HasPrefix(rel, RolloutDir):
		return KindRollout
	case strings.HasPrefix(rel, SkillsDir):
		return KindSkill
	case strings.HasPrefix(rel, NotesDir):
		return KindNote
	case strings.HasPrefix(rel, ExtensionDir):
		return KindExtension
	}
	return KindForeign
}

// Regenerated says Codex rewrites the kind from its database before each
// consolidation: memtui shows it and never edits it.
func (k Kind) Regenerated() bool { return k == KindRaw || k == KindRollout || k == KindDiff }
