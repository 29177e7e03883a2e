// Package memindex is MEMORY.md as memtui reads and writes it: the parser
// (lines, entries, their links and hooks, in every style real indexes use:
// bullets, tables, [[wikilinks]]) and the index editor, the one writer of
// index text. The TUI's editor, `memtui index --move-above-cut` and Dream's
// reindex, merge and archive proposers all edit through Editor, so a table
// index gets a table row and a wikilink index a wikilink whoever adds the
// entry, and a link repointed by a merge or an archive (Retarget, Repoint)
// is written as an added entry's link is. Every
// edit keeps the lines it does not touch byte for byte and is measured
// with Claude Code's load pipeline (claude.SimulateLoadMode), so an edit
// never grows an index past a cut it did not pass. Pure: no disk.
package memindex
