// Package prose reads what a memory says in words: which byte ranges of a
// markdown memory are prose (not code, not frontmatter, not a link's
// target), and, in them, the relative dates ("tomorrow", "next week",
// "明天") and the dates without a year that stop meaning anything once the
// day they were written has passed. It is pure text analysis: no disk, no
// Bubble Tea; the checks (consolidate) and the preview (ui) call it.
//
// The date finder is a hand-written engine, not a library: the libraries
// evaluated (see dates.go) either missed the languages real memories are
// written in or were too slow for a lint run over tens of thousands of
// files.
package prose
