package model

// Claude Code loads a subagent's MEMORY.md whole, with no 4 MiB check
// (facts 3.2), and measures all of it before the cut. memtui reads an
// index only up to IndexMaxReadBytes and a byte; for a subagent's index
// longer than that, the loader counts the rest as it streams past
// (claude.CountIndexTail, constant memory) and claude.LoadIndex adds the
// counts, so that lines, units and the warning's "N of M lines" are Claude
// Code's.

// IndexTail is the part of an index after what was read, as Claude Code's
// raw load counts it: up to the last character that is not JavaScript
// whitespace (trim drops the rest).
type IndexTail struct {
	// Newlines and Units count the tail up to and including its last
	// non-space character.
	Newlines, Units int
	// Blank is true when the tail holds nothing but whitespace: the
	// file's end is then trimmed back into what was read.
	Blank bool
}
