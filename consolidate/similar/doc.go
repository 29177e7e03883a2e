// Package similar finds memories that say the same thing: exact copies,
// rewrites in other words, names and descriptions that agree, and dated
// series (standup_2026_05_26.md, standup_2026_05_27.md). The
// duplicate-memory check and Dream's merge proposals both group with Find,
// so what lint reports is what dream merges. It is pure computation over
// text. similar.go explains the engine: hash maps for exact matches,
// MinHash and an inverted index to find fuzzy candidates without comparing
// every pair, and thresholds chosen on the table of realistic pairs in
// internal/testgen. It is hand-written because lint runs it on every
// memory directory of a tree of tens of thousands of files, where the
// pairwise comparison a general library does would not keep up
// (BenchmarkDuplicatesCorpus).
package similar
