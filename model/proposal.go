package model

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
)

// ProposalKinds lists every kind memtui proposes, in the order it proposes
// them for a directory. Lost text goes back right after secrets are
// redacted and before anything tidies the files around it, so a reindex
// proposed after a restore sees the restored entries.
var ProposalKinds = []ProposalKind{KindRedactSecret, KindRestoreLost, KindFixFrontmatter, KindAbsolutizeDates, KindAddYear, KindMerge, KindPrune, KindReindex}

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
)

// Change is one file of a proposal.
type Change struct {
	// Path is relative to the memory dir, slash-separated.
	Path string   `json:"path"`
	Op   ChangeOp `json:"op"`
	// BaseSHA256 is the hex sha256 of the file as the proposal read it;
	// applying refuses the proposal when the file no longer matches. Empty
	// for a create.
	BaseSHA256 string `json:"base_sha256"`
	// After is the file's full new content; empty for a delete.
	After string `json:"after"`
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
	// External is true for a proposal memtui did not compute itself: an
	// external proposer's, or one a person edited. Its kind is the
	// author's word, not memtui's, so applying it never keeps a file's
	// mtime on that word's strength (see memfs's mtime rule).
	External bool `json:"-"`
}

// Redacted is the mark that replaces a secret in anything memtui writes:
// consolidate writes it, and memfs finds it again to scrub the copies it
// keeps, so both read it from here.
const Redacted = "[REDACTED]"
