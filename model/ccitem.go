package model

import (
	"strconv"
	"strings"
)

// ClaudeCodeItem is what memtui reads of metadata.claudeCodeItem, the block
// Claude Code 2.1.332 keeps in a memory's frontmatter: the item's ids, the
// user's consent, its state and its promotion records (facts doc 2.2).
// Recall strips the block before showing a file; memtui never rewrites it
// (see claude.ItemSpans) and shows it folded.
type ClaudeCodeItem struct {
	// Present is true when the frontmatter has the key: under metadata:,
	// or at the top level (Claude Code folds top-level keys into metadata,
	// and metadata's own key wins).
	Present bool
	// Key is where it was read: "metadata.claudeCodeItem" or
	// "claudeCodeItem".
	Key string
	// Problem says why Claude Code's schema rejects the block, which it
	// then treats as absent; "" when the block passes (or is absent).
	Problem string
	// The schema's scalar fields, as written ("" when absent).
	ID, State, Consent, Src, Scope, Account string
	// Promoted and IDs count the promotion records and the ids.
	Promoted, IDs int
}

// Valid reports whether the block is present and passes the schema.
func (c ClaudeCodeItem) Valid() bool { return c.Present && c.Problem == "" }

// Summary is the block folded to a few words, for a preview: "state acked,
// consent on, 2 promoted".
func (c ClaudeCodeItem) Summary() string {
	if !c.Present {
		return ""
	}
	var parts []string
	if c.State != "" {
		parts = append(parts, "state "+c.State)
	}
	if c.Consent != "" {
		parts = append(parts, "consent "+c.Consent)
	}
	if c.Promoted > 0 {
		parts = append(parts, strconv.Itoa(c.Promoted)+" promoted")
	}
	if c.IDs > 0 {
		parts = append(parts, strconv.Itoa(c.IDs)+" "+Plural(c.IDs, "id", "ids"))
	}
	if len(parts) == 0 && c.ID != "" {
		parts = append(parts, "id "+c.ID)
	}
	if len(parts) == 0 {
		parts = append(parts, "empty")
	}
	return strings.Join(parts, ", ")
}
