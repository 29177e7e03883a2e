// Package codex is OpenAI Codex's reading of its memory files (facts:
// codex-memory-format.md), as model/claude is Claude Code's: what a
// session loads of memory_summary.md and where the cap cuts it, the
// summary's and the handbook's shapes, the names Codex gives and accepts.
// Pure: no disk.
package codex

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The summary's cap (facts §2): 2,500 "tokens" of 4 bytes each, counted
// on the trimmed file; over it, Codex keeps the first and the last half
// of the budget and cuts the middle, with no warning.
const (
	SummaryTokenLimit = 2500
	BytesPerToken     = 4
	SummaryByteLimit  = SummaryTokenLimit * BytesPerToken
	// SummaryHeader is the line memory_summary.md must begin with
	// (facts §1.3.1).
	SummaryHeader = "v1"
	// ProfileMaxWords caps the User Profile section.
	ProfileMaxWords = 350
)

// SummarySections are the summary's sections, in the order the
// consolidation template prescribes.
var SummarySections = []string{"User Profile", "User preferences", "General Tips", "What's in Memory"}

// Tokens is Codex's approximate token count of n bytes: ⌈n ÷ 4⌉.
func Tokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// Loaded is what a Codex session receives of memory_summary.md.
type Loaded struct {
	// Empty is true when the summary is missing or blank after trimming:
	// Codex then leaves the whole memory section out of the session (the
	// model is not even told MEMORY.md exists).
	Empty bool
	// Trimmed is the file with leading and trailing white space removed
	// (what Codex measures); Start is where it begins in the file.
	Trimmed string
	Start   int
	// Cut is true when Trimmed is over SummaryByteLimit: the bytes from
	// CutFrom to CutTo of Trimmed are dropped, and Marker stands in their
	// place.
	Cut            bool
	CutFrom, CutTo int
	Marker         string
	// Text is what the session gets.
	Text string
}

// Removed is how many bytes the cut drops.
func (l Loaded) Removed() int { return l.CutTo - l.CutFrom }

// NearCap reports whether the trimmed summary uses 80% of Codex's cap or
// more (as for Claude Code's index): past the cap Codex silently cuts its
// middle. Every face and the check use this one threshold.
func (l Loaded) NearCap() bool { return len(l.Trimmed)*5 >= SummaryByteLimit*4 }

// Load is memory_summary.md as a Codex session loads it (facts §2): the
// file trimmed; within the budget, whole; over it, the first half of the
// budget and the last half kept, each cut on a character boundary (the
// head's end moved back, the tail's start moved forward, so no character
// is split), and between them the marker "…N tokens truncated…" with N
// the removed bytes in tokens.
func Load(content []byte) Loaded {
	s := string(content)
	t := strings.TrimSpace(s)
	l := Loaded{Trimmed: t, Text: t}
	if t == "" {
		l.Empty = true
		return l
	}
	l.Start = strings.Index(s, t)
	if len(t) <= SummaryByteLimit {
		return l
	}
	half := SummaryByteLimit / 2
	head := half
	for head > 0 && !utf8.RuneStart(t[head]) {
		head--
	}
	tail := len(t) - half
	for tail < len(t) && !utf8.RuneStart(t[tail]) {
		tail++
	}
	l.Cut, l.CutFrom, l.CutTo = true, head, tail
	l.Marker = fmt.Sprintf("…%d tokens truncated…", Tokens(tail-head))
	l.Text = t[:head] + l.Marker + t[tail:]
	return l
}

// CutLines are the 1-based lines of the file the cut reaches (the first
// and the last partly or wholly dropped); 0, 0 when nothing is cut.
func (l Loaded) CutLines(content []byte) (first, last int) {
	if !l.Cut {
		return 0, 0
	}
	from, to := l.Start+l.CutFrom, l.Start+l.CutTo
	first = 1 + strings.Count(string(content[:from]), "\n")
	last = 1 + strings.Count(string(content[:to-1]), "\n")
	return first, last
}

// CutSectionNames names the sections the cut takes, as the faces list
// them: "## Title" for each lost whole, then "## Title (in part)".
func (l Loaded) CutSectionNames(s Summary) []string {
	whole, part := l.CutSections(s)
	var names []string
	for _, x := range whole {
		names = append(names, "## "+x.Title)
	}
	for _, x := range part {
		names = append(names, "## "+x.Title+" (in part)")
	}
	return names
}

// CutSections are the summary's sections the cut drops whole, and those
// it drops in part (their start or their end kept).
func (l Loaded) CutSections(s Summary) (whole, part []Section) {
	if !l.Cut {
		return nil, nil
	}
	from, to := l.Start+l.CutFrom, l.Start+l.CutTo
	for _, sec := range s.Sections {
		switch {
		case sec.To <= from || sec.From >= to:
		case sec.From >= from && sec.To <= to:
			whole = append(whole, sec)
		default:
			part = append(part, sec)
		}
	}
	return whole, part
}
