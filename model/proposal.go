package model

import "strings"

// ProposalKind names what a consolidation proposal does (DESIGN.md section
// 4). The names are part of the CLI contract.
type ProposalKind string

// Kinds of proposal.
const (
	KindReindex         ProposalKind = "reindex"
	KindMerge           ProposalKind = "merge"
	KindPrune           ProposalKind = "prune"
	KindAbsolutizeDates ProposalKind = "absolutize-dates"
	KindAddYear         ProposalKind = "add-year"
	KindRedactSecret    ProposalKind = "redact-secret"
	KindFixFrontmatter  ProposalKind = "fix-frontmatter"
	KindRestoreLost     ProposalKind = "restore-lost"
	// KindRestoreDeleted creates again a memory gone from disk, from its
	// last whole text in the transcripts.
	KindRestoreDeleted ProposalKind = "restore-deleted"
	// KindAdopt moves the memories of a store Claude Code never loads (a
	// worktree's, a subdirectory's, a moved project's) into the store it
	// does: both stores change in one transaction (Proposal.Also).
	KindAdopt ProposalKind = "adopt"
	// KindArchive moves memories into ArchiveDir, out of Claude Code's
	// recall scan but still on disk (see ArchivePath).
	KindArchive ProposalKind = "archive"
	// KindTrimSummary brings Codex's memory_summary.md back under the cap
	// past which Codex silently cuts its middle out of every session
	// (codex facts §2): it drops the oldest entries of the summary's
	// routing index, which MEMORY.md still holds, and nothing else.
	KindTrimSummary ProposalKind = "trim-summary"
	// KindAddNote creates a new ad-hoc note in a Codex store, the channel
	// through which a person's new fact reaches Codex's consolidation
	// (codex facts §1.3.6, §4.4): a hand verb, never proposed by a Dream
	// run, so not in ProposalKinds.
	KindAddNote ProposalKind = "add-note"
	// KindEdit writes back a person's edit of a Codex file, made in
	// $EDITOR on a copy outside the store (a hand verb too): Codex's next
	// consolidation sees it in its diff as the person's.
	KindEdit ProposalKind = "edit"
)

// ProposalKinds lists every kind memtui proposes, in the order it proposes
// them for a directory. Lost text goes back right after secrets are
// redacted and before anything tidies the files around it, so a reindex
// proposed after a restore sees the restored entries. An archive comes
// after the merges and prunes, which it counts: it moves out of the scan
// only what they leave over the recall cap. A trim of Codex's summary
// comes last, as a reindex does: both bring an index under its cap.
var ProposalKinds = []ProposalKind{KindRedactSecret, KindRestoreLost, KindRestoreDeleted, KindAdopt, KindFixFrontmatter, KindAbsolutizeDates, KindAddYear, KindMerge, KindPrune, KindArchive, KindReindex, KindTrimSummary}

// ParseProposalKind reads a kind by name.
func ParseProposalKind(s string) (ProposalKind, bool) {
	for _, k := range ProposalKinds {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// ChangeOp is what a change does to its file.
type ChangeOp string

// Change operations.
const (
	OpCreate ChangeOp = "create" // a new file; BaseSHA256 is empty
	OpUpdate ChangeOp = "update" // replace the file's bytes with After
	OpDelete ChangeOp = "delete" // remove the file (applied as a move into the journal)
	// OpMove renames the file From to Path inside the memory dir: the same
	// bytes and the same mtime (its place in the recall scan's ranking is
	// its mtime), nothing overwritten at Path. BaseSHA256 is From's hash;
	// After is empty.
	OpMove ChangeOp = "move"
)

// Change is one file of a proposal.
type Change struct {
	// Path is relative to the memory dir, slash-separated; for a move, the
	// destination.
	Path string   `json:"path"`
	Op   ChangeOp `json:"op"`
	// From is the file a move takes away (relative to the memory dir,
	// slash-separated); empty for every other operation.
	From string `json:"from,omitempty"`
	// BaseSHA256 is the hex sha256 of the file as the proposal read it
	// (a move's: From's); applying refuses the proposal when the file no
	// longer matches. Empty for a create.
	BaseSHA256 string `json:"base_sha256"`
	// After is the file's full new content; empty for a delete and a move.
	After string `json:"after"`
}

// Source is the file the change reads and replaces, moves or deletes:
// From for a move, else Path.
func (c Change) Source() string {
	if c.Op == OpMove {
		return c.From
	}
	return c.Path
}

// DirChanges are a proposal's changes to a memory dir other than its own.
type DirChanges struct {
	MemoryDir string   `json:"memory_dir"`
	Changes   []Change `json:"changes"`
}

// FileRead is a file a proposal read without changing it, with its hash:
// a change to it makes the proposal stale too.
type FileRead struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// FindingRef names a finding a proposal fixes.
type FindingRef struct {
	Rule string `json:"rule"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// Proposal is one self-contained consolidation transaction over one memory
// directory: all of its changes apply, or none. Its JSON form is part of
// the CLI contract (DESIGN.md section 2), with two additions: fixes (the
// findings it claims to fix) and reads (files it read but leaves alone).
type Proposal struct {
	ID        string       `json:"id"`
	Kind      ProposalKind `json:"kind"`
	Project   string       `json:"project"`
	MemoryDir string       `json:"memory_dir"`
	Title     string       `json:"title"`
	Rationale string       `json:"rationale"`
	Changes   []Change     `json:"changes"`
	Fixes     []FindingRef `json:"fixes,omitempty"`
	Reads     []FileRead   `json:"reads,omitempty"`
	// Also are changes to a second memory dir written in the same
	// transaction, under both dirs' locks, rolled back and undone
	// together: an adopt creates the stranded memories in the live store
	// (Changes) and removes them from the stranded one (Also). nil for
	// every other kind.
	Also *DirChanges `json:"also,omitempty"`
	// External is true for a proposal memtui did not compute itself: an
	// external proposer's, or one a person edited. Its kind is the
	// author's word, not memtui's, so applying it never keeps a file's
	// mtime on that word's strength (see memfs/txn's mtime rule).
	External bool `json:"-"`
}

// ArchiveDir is the folder, inside a memory dir, that an archive proposal
// moves memories into. Claude Code's scan of an auto-memory dir skips every
// path with a part that starts with a dot (facts 2.1), so an archived file
// is never listed or recalled, yet stays on disk, readable (an index entry
// can still lead the agent to it) and easy to move back. Agent memory is
// scanned without that exclusion, so it gets no archive.
const ArchiveDir = ".archive"

// ArchivePath is where an archive proposal moves the memory at rel: the
// same relative path under ArchiveDir.
func ArchivePath(rel string) string { return ArchiveDir + "/" + rel }

// IsArchived reports whether rel (relative to the memory dir,
// slash-separated) lies under ArchiveDir: a memory moved out of the scan
// on purpose, not one the scan skips by accident.
func IsArchived(rel string) bool { return strings.HasPrefix(rel, ArchiveDir+"/") }

// Redacted is the mark that replaces a secret in anything memtui writes:
// consolidate writes it, and memfs finds it again to scrub the copies it
// keeps, so both read it from here.
const Redacted = "[REDACTED]"
