package model

import "time"

// FrontmatterMaxLines is how far Claude Code looks for the closing fence when
// it scans a memory directory (FRONTMATTER_MAX_LINES): frontmatter that does
// not close within the first 30 lines parses as none.
const FrontmatterMaxLines = 30

// FMStatus says what state a file's frontmatter is in.
type FMStatus int

// Frontmatter states.
const (
	FMNone       FMStatus = iota // no frontmatter at all
	FMOK                         // strict YAML parsed it
	FMTolerant                   // strict YAML failed; the tolerant line parse recovered it
	FMInvalid                    // neither parse recovers it
	FMUnclosed                   // an opening fence with no closing fence in the first 30 lines
	FMNotAtStart                 // a fenced block exists, but text (or a BOM) precedes it
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
// generation.
type Frontmatter struct {
	Name        string
	Description string
	HasName     bool // the key is present (possibly empty)
	HasDesc     bool
	// Type is the raw type value as written; TypeKey is "type" for a
	// top-level key, "metadata.type" for the current shape, "" when absent.
	// When both are present the top-level one wins, as Claude Code's
	// normaliser folds the top-level key into metadata over the old value.
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
	BOM bool
}

// Body returns the part of content after the frontmatter.
func (d Doc) Body(content []byte) []byte {
	if d.BodyStart > len(content) {
		return nil
	}
	return content[d.BodyStart:]
}
