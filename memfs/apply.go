package memfs

// The write path (DESIGN §5): memfs.Apply writes accepted proposals to a
// memory dir under Claude Code's consolidation lock and memtui's own OS
// lock, one proposal at a time, each all-or-nothing, journaled outside the
// memory dir so that a crash is rolled back by Recover and an applied
// proposal can be undone. This file holds the platform-independent API; the
// machinery is in apply_unix.go and its neighbours.

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/adrg/xdg"
)

// ApplyStatus is the outcome of one proposal.
type ApplyStatus string

// Outcomes of a proposal.
const (
	// StatusApplied: every change is on disk and journaled.
	StatusApplied ApplyStatus = "applied"
	// StatusConflict: a file changed since the proposal read it (before or
	// while memtui wrote); nothing of the proposal is on disk. Re-generate it.
	StatusConflict ApplyStatus = "conflict"
	// StatusFailed: the proposal is invalid (a bad path, a symlink, team/
	// without IncludeTeam) or an I/O error stopped it, or the locks could not
	// be taken. Nothing of it is on disk, unless Err says a rollback failed.
	StatusFailed ApplyStatus = "failed"
)

// ApplyResult is what happened to one proposal.
type ApplyResult struct {
	ProposalID string
	Status     ApplyStatus
	// JournalID names the journal entry of an applied proposal (for
	// `memtui undo ID`); also set when a proposal got as far as the journal
	// and was rolled back.
	JournalID string
	// Path is the file (relative to the memory dir) that conflicted or
	// failed, when there is one.
	Path string
	// Err says why, for a conflict or a failure. A conflict's Err is a
	// *ConflictError, a lock held by Claude Code a *LockHeldError.
	Err error
}

// ApplyEvent reports progress to a UI.
type ApplyEvent struct {
	// Stage is "wait-lock" (Claude Code holds its lock; polling), "start",
	// then "applied", "conflict" or "failed" for each proposal.
	Stage      string
	ProposalID string
	Index      int // 0-based index of the proposal, -1 for wait-lock
	Total      int
	Err        error
}

// ApplyOptions tune Apply, Undo and Recover.
type ApplyOptions struct {
	// JournalRoot is where journal entries go; "" means DefaultJournalRoot().
	// memtui's OS-level lock files live beside it, in "locks".
	JournalRoot string
	// IncludeTeam allows changes under team/ (off by default: team memory
	// syncs, deletes there do not propagate, facts §7).
	IncludeTeam bool
	// WaitForLock is how long to poll while Claude Code (or another memtui)
	// holds the lock; 0 gives up at once with a *LockHeldError.
	WaitForLock time.Duration
	// Now is the clock (lock staleness and journal times); nil is time.Now.
	Now func() time.Time
	// PID is written into .consolidate-lock; 0 is os.Getpid().
	PID int
	// Progress, when set, is called from Apply's goroutine.
	Progress func(ApplyEvent)
}

// ConflictError says which file of a proposal no longer matches what the
// proposal was built from (nothing of the proposal is on disk: re-generate
// it).
type ConflictError struct {
	Path   string
	Reason string
}

func (e *ConflictError) Error() string {
	return e.Path + ": " + e.Reason
}

// LockHeldError says that Claude Code (or another process) holds the
// memory dir's .consolidate-lock: a live PID, written less than an hour ago.
type LockHeldError struct {
	Dir   string
	PID   int
	Since time.Time // the lock file's mtime
}

func (e *LockHeldError) Error() string {
	return fmt.Sprintf("Claude Code is consolidating %s: .consolidate-lock is held by PID %d since %s; try again later or wait for it",
		e.Dir, e.PID, e.Since.Local().Format("2006-01-02 15:04:05"))
}

// DefaultJournalRoot is $XDG_STATE_HOME/memtui/journal, by default
// ~/.local/state/memtui/journal: outside every memory dir.
func DefaultJournalRoot() string {
	return filepath.Join(xdg.StateHome, "memtui", "journal")
}

func (o ApplyOptions) withDefaults() ApplyOptions {
	if o.JournalRoot == "" {
		o.JournalRoot = DefaultJournalRoot()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Journal entry states.
const (
	JournalPrepared   = "prepared"    // before-images written; changes may be on disk
	JournalCommitted  = "committed"   // every change on disk
	JournalRolledBack = "rolled_back" // nothing of it on disk (a conflict, failure or crash)
	JournalUndone     = "undone"      // applied, then undone by `memtui undo`
)

// JournalEntry is one journal manifest (manifest.json), the record of one
// proposal memtui applied or tried to apply.
type JournalEntry struct {
	Version    int       `json:"version"`
	ID         string    `json:"id"`
	ProposalID string    `json:"proposal_id"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	MemoryDir  string    `json:"memory_dir"`
	RealDir    string    `json:"real_dir"` // MemoryDir with its ancestors' symlinks resolved
	Time       time.Time `json:"time"`
	State      string    `json:"state"`
	// UndoOf names the entry this one undid; UndoneBy the entry that undid
	// this one.
	UndoOf   string        `json:"undo_of,omitempty"`
	UndoneBy string        `json:"undone_by,omitempty"`
	Files    []JournalFile `json:"files"`
	// Notes are what a rollback or recovery could not do cleanly (a file
	// that changed under it), each naming where the bytes were kept.
	Notes []string `json:"notes,omitempty"`
}

// JournalFile is one change of a journal entry.
type JournalFile struct {
	Path   string `json:"path"`
	Op     string `json:"op"`
	Before string `json:"before_sha256,omitempty"` // "" for a create
	After  string `json:"after_sha256,omitempty"`  // "" for a delete
	Mode   uint32 `json:"mode"`
	State  string `json:"state"` // pending, applied, rolled_back
	// Image is the before-image's path inside the entry ("before/0").
	Image string `json:"image,omitempty"`
}

// RecoverReport is what Recover did with one unfinished journal entry.
type RecoverReport struct {
	ID        string
	MemoryDir string
	// Action is "rolled back", "finished" (it had committed; only its
	// pending mark was left) or "skipped" (its memory dir is locked by a
	// running memtui or by Claude Code: tried again next start).
	Action string
	Notes  []string
	Err    error
}
