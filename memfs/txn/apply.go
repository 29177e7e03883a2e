package txn

// The write path (DESIGN §5): Apply writes accepted proposals to a
// memory dir under Claude Code's consolidation lock and memtui's own OS
// lock, one proposal at a time, each all-or-nothing, journaled outside the
// memory dir so that a crash is rolled back by Recover and an applied
// proposal can be undone. This file holds the platform-independent API; the
// machinery is in apply_write.go and its neighbours.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/adrg/xdg"

	"github.com/memtui/memtui/model"
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
	// *ConflictError, a lock held by Claude Code a *LockHeldError, a
	// foreign store's agent at work a *BusyError.
	Err error
}

// ApplyEvent reports progress to a UI.
type ApplyEvent struct {
	// Stage is "wait-lock" (Claude Code holds its lock, or a foreign
	// store's agent is busy, Err a *BusyError; polling), "start",
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
	// IncludeTeam allows changes under team/ (off by default: team stores
	// mounted through CLAUDE_MEMORY_STORES sync to other people, and how a
	// delete syncs is not known, facts §7.1).
	IncludeTeam bool
	// WaitForLock is how long to poll while Claude Code (or another memtui)
	// holds the lock; 0 gives up at once with a *LockHeldError.
	WaitForLock time.Duration
	// Now is the clock (lock staleness and journal times); nil is time.Now.
	Now func() time.Time
	// PID is written into .consolidate-lock; 0 is os.Getpid().
	PID int
	// MarkConsolidated leaves .consolidate-lock saying "consolidated now"
	// (empty body, mtime now) after a run that changed files, which
	// postpones Claude Code's autoDream by its minHours (24 h by default).
	// Without it the lock is put back exactly as it was: a memtui write is
	// not a consolidation unless the user says so.
	MarkConsolidated bool
	// SeenRoot is where the review baselines live (StateDirs.Seen): after
	// a redact-secret, the secret is scrubbed from them too. "" skips that.
	SeenRoot string
	// RestoreSecret lets Undo undo a redact-secret entry, which puts the
	// credential it removed back into the file; without it Undo refuses
	// (ErrRestoresSecret).
	RestoreSecret bool
	// Progress, when set, is called from Apply's goroutine.
	Progress func(ApplyEvent)
	// Foreign, when set, says the memory dir is a store another agent
	// consolidates (Codex's memories/): no lock file is taken there (nor
	// MarkConsolidated's mark made), temp files go to Foreign.TempDir, and
	// Foreign.Busy is asked before every change (foreign.go). Undo needs it
	// for an entry of such a store and refuses it for any other; ApplyLinked
	// refuses it.
	Foreign *ForeignStore
}

// ErrRestoresSecret: the undo would put back a credential that a
// redact-secret removed, and ApplyOptions.RestoreSecret was not given.
var ErrRestoresSecret = errors.New("undoing a redact-secret puts the credential back into the file; refused unless asked for explicitly")

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
	// Memtui is true when the holder is another memtui run (one with its
	// own state dir, or an older memtui that left its PID), not Claude Code.
	Memtui bool
}

func (e *LockHeldError) Error() string {
	if e.Memtui {
		return fmt.Sprintf("another memtui run (PID %d) is writing to %s: it holds .consolidate-lock since %s; try again when it has finished",
			e.PID, e.Dir, e.Since.Local().Format("2006-01-02 15:04:05"))
	}
	return fmt.Sprintf("Claude Code is consolidating %s: .consolidate-lock is held by PID %d since %s; try again later or wait for it",
		e.Dir, e.PID, e.Since.Local().Format("2006-01-02 15:04:05"))
}

// Short is the error in a few words, for a status line: who holds the lock.
func (e *LockHeldError) Short() string {
	if e.Memtui {
		return fmt.Sprintf("another memtui run (PID %d) is writing there; try again when it has finished", e.PID)
	}
	return fmt.Sprintf("Claude Code is consolidating (PID %d); try again later", e.PID)
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
	// Linked are the entries written in the same transaction in other
	// memory dirs (an adopt spans the stranded store and the live one):
	// rolled back together, undone together.
	Linked []string `json:"linked,omitempty"`
	// Notes are what a rollback or recovery could not do cleanly (a file
	// that changed under it), each naming where the bytes were kept.
	Notes []string `json:"notes,omitempty"`
	// ForeignTempDir is, for an entry of a foreign store (another agent's,
	// ApplyOptions.Foreign), the directory outside it that held the
	// entry's temp files (resolved): where a recovery or an undo looks for
	// them. Absent from every other entry, and from those written before
	// memtui wrote foreign stores.
	ForeignTempDir string `json:"foreign_temp_dir,omitempty"`
}

// JournalFile is one change of a journal entry.
type JournalFile struct {
	// Path is the file changed (a move's destination), relative to the
	// memory dir.
	Path string `json:"path"`
	// From is a move's source; empty for every other operation.
	From   string `json:"from,omitempty"`
	Op     string `json:"op"`
	Before string `json:"before_sha256,omitempty"` // "" for a create
	After  string `json:"after_sha256,omitempty"`  // "" for a delete
	Mode   uint32 `json:"mode"`
	State  string `json:"state"` // pending, applied, rolled_back
	// Image is the before-image's path inside the entry ("before/0").
	Image string `json:"image,omitempty"`
	// Mtime is the file's mtime before the change (Unix nanoseconds;
	// update, delete): an undo or a rollback puts it back exactly. 0 in
	// entries written before memtui recorded it.
	Mtime int64 `json:"before_mtime_ns,omitempty"`
	// Dirs are the folders a move makes for its destination (relative to
	// the memory dir, outermost first): a rollback or an undo removes
	// those it leaves empty.
	Dirs []string `json:"made_dirs,omitempty"`
}

// RecoverReport is what Recover did with one unfinished journal entry.
type RecoverReport struct {
	ID        string
	MemoryDir string
	// Action is "rolled back", "finished" (it had committed; only its
	// pending mark was left) or "skipped" (its memory dir is locked by a
	// running memtui or by Claude Code: tried again next start).
	Action string
	// Files says, file by file, what the recovery did: which files it put
	// back and which it left as they are (and why).
	Files []RecoverFile
	Notes []string
	Err   error
}

// RecoverFile is what a recovery did with one file of an interrupted entry.
type RecoverFile struct {
	Path string
	// RolledBack is true when the file is now as it was before the
	// interrupted write (put back, or never changed).
	RolledBack bool
	// Outcome says what happened, in words.
	Outcome string
}

// mtimeRule is what mtime a proposal gives the files it rewrites. A memory
// without metadata.modified is dated by its mtime: relative dates in it are
// read from it, the stale-memory clock counts from it, and Claude Code's
// recall scan keeps the 200 newest files by it. A write that adds no new
// fact must not make a memory look new (nor move its "tomorrow").
type mtimeRule int

const (
	// mtimeNow: the file gets the write's time, as any write would.
	mtimeNow mtimeRule = iota
	// mtimeKeep: an updated file keeps its mtime (and atime).
	mtimeKeep
	// mtimeNewest: every memory written gets the newest mtime among the
	// memories the proposal changes or deletes (an index keeps its own): a
	// merge's facts are exactly as new as the newest memory merged.
	mtimeNewest
)

// mtimeRuleOf decides, per proposal kind, whether the files it writes
// carry new facts:
//
//   - fix-frontmatter, absolutize-dates, add-year, redact-secret and
//     reindex say the same thing in a better form: the file keeps its mtime
//     (MEMORY.md too: a reindex adds pointers, not facts);
//   - prune deletes a memory and drops its pointer from MEMORY.md: the
//     index keeps its mtime; trim-summary drops entries of Codex's
//     summary's routing index, which MEMORY.md still holds: it keeps its
//     mtime too (the anchor of its relative dates);
//   - archive moves memories out of the scan (a move keeps a file's mtime
//     whatever the rule) and repoints the links to them: the files it
//     rewrites keep their mtime, as a reindex's do;
//   - restore-lost puts back text an agent wrote and lost to a later
//     overwrite: that text is older than the overwrite whose mtime the file
//     carries, so the file keeps its mtime (a file it has to re-create is
//     new on disk and gets now);
//   - merge gathers memories that say the same thing into one file: it
//     gets the newest mtime of the memories merged, never now (its
//     MEMORY.md update keeps the index's own mtime and does not count);
//   - anything else (a kind memtui does not know) is dated now, and so is
//     every proposal memtui did not compute itself (an external
//     proposer's, or one a person edited): its kind is only its author's
//     word, and what it writes may well be new.
//
// An undo puts back each file's recorded mtime exactly, whatever the kind.
func mtimeRuleOf(p model.Proposal) mtimeRule {
	if p.External {
		return mtimeNow
	}
	switch p.Kind {
	case model.KindFixFrontmatter, model.KindAbsolutizeDates, model.KindAddYear, model.KindRedactSecret,
		model.KindReindex, model.KindPrune, model.KindRestoreLost, model.KindArchive, model.KindTrimSummary:
		return mtimeKeep
	case model.KindMerge:
		return mtimeNewest
	}
	return mtimeNow
}

// sumHex is the hex sha256 of b, as proposals record base hashes and the
// journal records before- and after-hashes (memfs's review baselines have
// their own, the same).
func sumHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
