package codex

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// Codex's git baseline of its memory root (facts §4.3): after each
// successful consolidation Codex deletes memories/.git, makes one root
// commit of the whole folder (.git and empty folders aside) and diffs the
// working files against it at its next run. What differs then is what
// its consolidation agent is shown, and must fold in.

// The baseline commit as Codex writes it (facts §4.3; its
// codex-git-utils' baseline.rs): author and committer are both
// BaselineIdent, and the message starts with BaselineSubject, followed by
// a blank line and BaselineTrailer.
const (
	BaselineName    = "Codex"
	BaselineEmail   = "noreply@openai.com"
	BaselineIdent   = BaselineName + " <" + BaselineEmail + ">"
	BaselineSubject = "Initialize Codex git baseline"
	BaselineTrailer = "Co-authored-by: " + BaselineIdent
)

// The git modes of a tree entry that is not a folder, as Codex's diff
// compares them (a file is executable when any execute bit is set).
const (
	ModeFile    uint32 = 0o100644
	ModeExec    uint32 = 0o100755
	ModeLink    uint32 = 0o120000
	ModeGitlink uint32 = 0o160000
)

// BlobRef is one file of the baseline's tree: its git blob hash (40 hex
// digits) and git mode.
type BlobRef struct {
	Hash string
	Mode uint32
}

// Baseline is memories/.git as read (memfs.LoadCodexBaseline fills it).
type Baseline struct {
	// Found says memories/.git is a real directory (not a link, not a
	// file): there is a baseline to read.
	Found bool
	// Head is HEAD's commit hash, "" when HEAD could not be resolved to a
	// readable commit (Codex then re-makes the baseline from the files as
	// they are, and its next run sees no edit).
	Head string
	// Branch is the branch HEAD names ("main", or whatever Codex's git
	// library picked), "" for a detached HEAD.
	Branch string
	// Commits counts HEAD's commit and its ancestors, up to the reader's
	// bound. Codex writes exactly one.
	Commits int
	// Time is HEAD's commit time: when Codex last consolidated, if it
	// made the commit.
	Time time.Time
	// Author and Committer are HEAD's, as "Name <email>"; Subject is its
	// message's first line.
	Author, Committer, Subject string
	// Parents counts HEAD's parents (0 for a root commit).
	Parents int
	// ByCodex says the history is Codex's own: one root commit, author
	// and committer Codex <noreply@openai.com>, the message Codex writes.
	ByCodex bool
	// Files is HEAD's tree, file by file (paths relative to the memory
	// root, slash-separated). nil when the tree could not be read whole:
	// then what is pending is not known.
	Files map[string]BlobRef
	// WorkPartial says the memory root's files were not all listed (the
	// walk stopped at its bounds): a file the baseline holds may be there
	// unlisted, so a deletion is not certain.
	WorkPartial bool
	// Problems say what could not be read, or was refused, in words.
	Problems []string
}

// IsCodexCommit says a commit is one Codex's baseline writer makes:
// author and committer Codex <noreply@openai.com>, the message starting
// "Initialize Codex git baseline".
func IsCodexCommit(author, committer, message string) bool {
	return author == BaselineIdent && committer == BaselineIdent && strings.HasPrefix(message, BaselineSubject)
}

// Change is one file whose content or mode differs from the baseline's:
// what Codex's next consolidation shows its agent (facts §4.3).
type Change struct {
	Path string
	// Status is 'A' (added since the baseline), 'M' (modified) or 'D'
	// (deleted), as in Codex's workspace diff.
	Status byte
	// ModeOnly says only the mode changed (the execute bit), not the
	// content.
	ModeOnly bool
	// Unknown says whether the file changed cannot be told: it was read
	// only in part (over memtui's cap), so its hash could not be
	// computed, or it was not listed. Status is then 'M' or 'D' as the
	// change would be.
	Unknown bool
}

// BlobHash is git's blob hash of content: SHA-1 of "blob <len>\x00"
// followed by the bytes.
func BlobHash(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// WorkMode is the git mode Codex's diff gives a working file of
// permission bits perm: executable when any execute bit is set.
func WorkMode(perm uint32) uint32 {
	if perm&0o111 != 0 {
		return ModeExec
	}
	return ModeFile
}

// Pending compares the working files (as memfs.LoadCodex read them: .git
// and symbolic links aside) with the baseline's tree, as Codex's
// consolidation does before it runs its agent: blob hashes and modes,
// dotfiles included, the index and untracked state ignored. The changes
// come sorted by path; nil when the baseline's tree is not known.
//
// A symbolic link in the baseline's tree whose path holds no file now is
// 'D': Codex deletes every link under its root before it diffs. A link
// now is not a change for the same reason (it will be gone).
func Pending(b *Baseline, files []*model.File) []Change {
	if b == nil || b.Files == nil {
		return nil
	}
	var out []Change
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		seen[f.Path] = true
		ref, ok := b.Files[f.Path]
		switch {
		case !ok:
			out = append(out, Change{Path: f.Path, Status: 'A'})
		case f.Truncated:
			// Its hash needs every byte: whether it changed is unknown
			// (a mode that differs is a change all the same).
			if WorkMode(f.Mode) != ref.Mode {
				out = append(out, Change{Path: f.Path, Status: 'M'})
			} else {
				out = append(out, Change{Path: f.Path, Status: 'M', Unknown: true})
			}
		default:
			same := BlobHash(f.Content) == ref.Hash
			mode := WorkMode(f.Mode) == ref.Mode
			if !same || !mode {
				out = append(out, Change{Path: f.Path, Status: 'M', ModeOnly: same})
			}
		}
	}
	for p := range b.Files {
		if !seen[p] {
			out = append(out, Change{Path: p, Status: 'D', Unknown: b.WorkPartial})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
