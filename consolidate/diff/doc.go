// Package diff compares texts line by line and word by word, renders a
// change as a unified diff, and numbers a change's blocks (its runs of
// changed lines) so a person can keep some of them and not others. Both
// halves of consolidate read diffs: the lost-update forensics compare a
// file's versions line by line, and Dream's review shows and partly
// accepts proposals hunk by hunk, so this is a leaf package they share
// rather than a part of either. It imports model and sergi/go-diff, and
// nothing else of memtui; it is pure computation over text, with no time
// limit on the differ, so the same texts always give the same diff.
package diff
