// Package forensics reads what a project's transcripts say about one memory
// directory: who wrote each file and when (Provenance, History, WriterLabel),
// how much agents use it (HeatOf), whether Claude Code's autoDream would run
// now (GateOf), and which writes were lost to a concurrent one
// (LostUpdates), with where each lost line goes back (RestoreDoc). The
// lost-update check in consolidate and Dream's restore-lost proposer both
// build on it, and `memtui history`, `memtui changes` and the TUI show what
// it finds. It is its own package because it is an analysis of the log, not
// a check or a proposal: consolidate and consolidate/dream import it, it
// imports neither. It may import model, model/memindex, consolidate/diff
// and consolidate/secrets (every message it writes is masked). Pure: no
// disk, no Bubble Tea.
package forensics
