package model

import "time"

// FrontmatterMaxLines and FrontmatterMaxBytes are the head Claude Code reads
// of each file when it scans a memory directory (facts doc 4.1): the first
// 30 lines, at most 65,536 bytes. Frontmatter that does not close within
// both parses as none.
const (
	FrontmatterMaxLines = 30
	FrontmatterMaxBytes = 65536
)

// FMStatus says what state a file's frontmatter is in.
type FMStatus int

// Frontmatter states.
const (
	FMNone       FMStatus = iota // no frontmatter at all
	FMOK                         // strict YAML parsed it
	FMTolerant                   // strict YAML failed; a retry that quotes values recovered it (see Doc.ClaudeSeesNone)
	FMInvalid                    // neither parse recovers it
	FMUnclosed                   // an opening fence with no closing fence in the first 30 lines (or 64 KiB)
	FMNotAtStart                 // a fenced block exists, but text precedes it
)

var fmStatusNames = [...]string{"none", "ok", "tolerant", "invalid", "unclosed", "not-at-start"}

// String names the status.
func (s FMStatus) String() string {
	if s < 0 || int(s) >= len(fmStatusNames) {
		return "unknown"
	}
	return fmStatusNames[s]
}

// Generation tells the legacy shape (top-level type) from the current one
// (keys under metadata:).
type Generation int

// Frontmatter generations.
const (
	GenUnknown Generation = iota
	GenLegacy             // top-level type:
	GenCurrent            // metadata: block
)

// Frontmatter is what memtui reads from a memory's YAML header, from either
// generation, normalised as Claude Code 2.1.332 normalises it (facts doc
// 2.2, "Parsing on read").
type Frontmatter struct {
	// Name and Description come from the top level only (metadata.name and
	// metadata.description are never used), and only when the value is a
	// string: as written, not trimmed. A number, a list or a null gives "".
	Name        string
	Description string
	HasName     bool // the top-level key is present (possibly empty, possibly not text)
	HasDesc     bool
	// NotText lists "name" and "description" when the key is there but its
	// value is not a string (12, true, a list): Claude Code reads no name
	// or description from it.
	NotText []string
	// Type is the type value as written, not trimmed (a value that is not
	// a string comes back in YAML's flow form, such as "[user]", so that it
	// can be reported); TypeKey is where it was read: "metadata.type" or
	// "type", "" when neither is there. metadata.type wins over a top-level
	// type: Claude Code folds the top-level keys into metadata and overlays
	// the metadata map on them. A type is valid only when ParseType accepts
	// it exactly.
	Type    string
	TypeKey string
	// OriginSessionID is the first session that wrote the file:
	// metadata.originSessionId, or a top-level originSessionId (Claude Code
	// 2.1.118-2.1.138 stamped it there; one folder can hold both forms,
	// transcripts §9.7). The nested one wins when both are present.
	OriginSessionID string
	// Modified is metadata.modified as written; ModifiedTime is its parsed
	// value, zero when absent or unparseable.
	Modified     string
	ModifiedTime time.Time
	Generation   Generation
	// Keys lists the top-level keys in order of appearance.
	Keys []string
	// Item is metadata.claudeCodeItem, folded; Item.Present is false when
	// the file has none.
	Item ClaudeCodeItem
}

// Doc is a memory file split into frontmatter and body.
type Doc struct {
	FM     Frontmatter
	Status FMStatus
	// Problem explains a non-OK status: the YAML error, the keys that needed
	// quoting, or what precedes the fence.
	Problem string
	// Open and Close are the 1-based lines of the opening and closing fences;
	// 0 when absent.
	Open, Close int
	// BodyStart is the byte offset where the body begins (after the closing
	// fence, or 0 when there is no frontmatter); BodyLine is its 1-based line.
	BodyStart int
	BodyLine  int
	// BOM is true when the content starts with a UTF-8 byte-order mark.
	// Claude Code strips one before it matches the frontmatter, so the
	// fields behind it are read as usual.
	BOM bool
	// ClaudeSeesNone is set with FMTolerant when Claude Code's own parse
	// fails where memtui's tolerant reading does not: strict YAML rejects
	// the block and so does Claude Code's single retry, which quotes only
	// top-level plain values holding one of {}[]*&#!|>%@` or ": " (or YAML
	// reads the block as something other than a map, where Claude Code
	// does not retry). Claude Code then reads the frontmatter as empty: no
	// name, description or type, whatever FM holds.
	ClaudeSeesNone bool
}

// Claude returns the frontmatter as Claude Code's scan reads it: FM when
// Claude Code parses the block, else nothing (no frontmatter, a block that
// does not close within the head it reads, text before the fence, or YAML
// only memtui's tolerant reading recovers).
func (d Doc) Claude() Frontmatter {
	switch {
	case d.Status == FMOK, d.Status == FMTolerant && !d.ClaudeSeesNone:
		return d.FM
	}
	return Frontmatter{}
}

// Body returns the part of content after the frontmatter.
func (d Doc) Body(content []byte) []byte {
	if d.BodyStart > len(content) {
		return nil
	}
	return content[d.BodyStart:]
}
