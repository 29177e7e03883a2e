package model

import "fmt"

// A stranded store (facts §12.1): Claude Code keys a project's memory dir
// by the main repository's root, so a git worktree and a subdirectory of a
// repository share the root's <config>/projects/<slug>/memory. A session
// launched in the worktree or the subdirectory may still write into the
// memory dir named after its own launch folder (Claude Code allows those
// writes and never reads them back), and a project folder moved away
// leaves its memory dir under the old name. Such a memory dir is stranded:
// no session Claude Code runs loads it. memfs finds them (it reads .git
// files and stats folders); the checks report them from this record.

// StrandKind says why a memory dir is stranded.
type StrandKind string

// Kinds of stranded memory dir.
const (
	// StrandWorktree: its sessions ran in a git worktree, whose memory
	// Claude Code keys by the main checkout.
	StrandWorktree StrandKind = "worktree"
	// StrandSubdir: its sessions ran in a subdirectory of a repository,
	// whose memory Claude Code keys by the repository's root.
	StrandSubdir StrandKind = "subdir"
	// StrandMoved: the folder its sessions ran in is gone, or is now a
	// link to another (a moved or renamed project).
	StrandMoved StrandKind = "moved"
)

// Strand is one stranded memory dir and, when the disk says where they
// belong, the memory dir its memories belong in.
type Strand struct {
	Kind StrandKind `json:"kind"`
	// From is the stranded memory dir, <base>/projects/<slug>/memory;
	// Project is its project's slug.
	From    string `json:"from"`
	Project string `json:"project"`
	// Cwd is the folder the sessions that wrote it were launched in (a
	// transcript's cwd).
	Cwd string `json:"cwd"`
	// To is the memory dir Claude Code loads for that project, under the
	// same projects/ folder as From; "" when nothing on disk says which
	// (a moved folder with no trace of where it went). Root is the folder
	// Claude Code keys To by (the main checkout, the repository's root,
	// the folder a link leads to), "" with To.
	To   string `json:"to,omitempty"`
	Root string `json:"root,omitempty"`
	// ToExists is false when To is not on disk yet (no session has run
	// at Root since Claude Code started keying it so).
	ToExists bool `json:"to_exists,omitempty"`
	// Memories counts the memory files in From as Claude Code's scan
	// lists them; Index says From has a MEMORY.md.
	Memories int  `json:"memories"`
	Index    bool `json:"index"`
	// Why says in one clause why nothing loads From and, with To, why the
	// two are one project, for people ("sessions launched in the git
	// worktree /src/app-fix wrote it, ..."). Evidence are the facts on
	// disk behind it, one line each, naming the paths that prove them.
	Why      string   `json:"why"`
	Evidence []string `json:"evidence"`
}

// What names what From holds for people: "3 memories", "1 memory and a
// MEMORY.md", "a MEMORY.md".
func (s Strand) What() string {
	n := fmt.Sprintf("%d %s", s.Memories, Plural(s.Memories, "memory", "memories"))
	switch {
	case s.Memories > 0 && s.Index:
		return n + " and a MEMORY.md"
	case s.Memories > 0:
		return n
	}
	return "a MEMORY.md"
}
