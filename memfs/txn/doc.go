// Package txn writes accepted proposals to a memory dir as transactions
// (DESIGN §5), keeps the journal that makes them undoable, and recovers
// what a crash interrupted (Apply, Undo, Recover; List, ReadEntry, Scope
// and PruneJournal for the journal). What it guarantees:
//
//   - one transaction at a time per memory dir: a run holds memtui's own
//     OS lock (an flock beside the journal, keyed by the resolved dir) and
//     Claude Code's <memdir>/.consolidate-lock, taken as Claude Code takes
//     it (a live holder is a *LockHeldError, or waited for with
//     ApplyOptions.WaitForLock) and put back as it was, body and mtime (or
//     absence), unless ApplyOptions.MarkConsolidated says otherwise
//     (locks.go);
//   - every file a proposal changes or read is compared with the
//     proposal's base hash under those locks; a mismatch refuses the whole
//     proposal (a *ConflictError) before anything is written;
//   - a journal entry, with the before-image of every file, is written and
//     fsynced outside the memory dir before the first file changes; its
//     on-disk format is fixed (journal.go; the v1 fixtures in testdata are
//     read back by journal_compat_test.go);
//   - the transaction is a list of steps, each with its undo (txstep.go,
//     txn.go): at the first failure the steps done are undone, newest
//     first. A file is swapped in atomically and the file swapped out must
//     be the one compared; memtui's version holds a write lease meanwhile,
//     so an agent's concurrent write is seen and the proposal rolled back
//     rather than the agent's bytes lost (apply_write.go, writers_*.go);
//   - an entry a crash left unfinished is rolled back (or finished, if it
//     had committed) at the next start (Recover) or before the next write
//     to its dir;
//   - an undo is an inverse transaction, built from the entry it reverses,
//     under the same locks and checks; undoing a redact-secret is refused
//     unless asked for (ErrRestoresSecret), and a redaction scrubs the
//     secret from the journal and the review baselines (apply_scrub.go);
//   - it never writes through a symlink or outside the memory dir: every
//     path is opened from the dir's descriptor one component at a time,
//     following no link (writefs.go); changes under team/ need
//     ApplyOptions.IncludeTeam.
//
// A foreign store (ApplyOptions.Foreign, foreign.go) is one another agent
// owns and consolidates itself: Codex's memories/, where every name that
// appears, even for a moment, enters the agent's next consolidation diff
// as an authoritative addition, and whose lock is a row in the agent's
// database (codex facts §4.1, §4.3, §4.4). The same transactions write
// it, with three differences. No lock file is taken there (memtui's own
// flock beside the journal still is); instead ForeignStore.Busy is asked,
// under that flock, when the store is opened, before each proposal's
// journal entry and right before each change, and a reason refuses the
// proposal (a *BusyError) and rolls back what it did. Every temp file
// (memtui's new version, the old one swapped out, a delete's aside) is in
// ForeignStore.TempDir, on the store's file system and outside it (made
// 0700; a symlink, another device or a dir inside the store is refused),
// and reaches the store by one renameat2 exchange, rename or link across
// directories; a create links, so it never overwrites (a name taken
// meanwhile is a conflict, as a Codex note's exclusive creation wants,
// codex facts §1.3.6). A delete renames the file out of the store (into
// the journal, or the temp dir across file systems) and a move renames it
// within the store (the folders it makes are empty until then, and git's
// tree, which Codex diffs, has no empty folder): neither makes any other
// name appear, so both are allowed. The entry records the temp dir
// (ForeignTempDir) so that a rollback, a recovery and an undo find the
// temp files there; Recover leaves a foreign store's unfinished entry
// pending, since only the caller can ask its agent (RecoverDir, Apply and
// Undo with the options roll it back), and Undo refuses an entry whose
// store's kind the options do not match.
//
// The code above is one copy for every system; the raw file operations
// are the platform layer's (sys.go): descriptors and openat-style calls on
// Unix (sys_unix.go), checked paths on Windows (sys_path.go,
// sys_path_windows.go: every component walked from the memory dir before
// each operation and any reparse point refused, MoveFileEx to replace,
// CreateHardLink to create without overwriting, SetFileTime, OpenProcess
// for Claude Code's lock holder). The leases exist on Linux only, and the
// atomic exchange and no-replace rename on Linux only (elsewhere a link and
// a rename, exchangeFallback); MissingGuarantees lists, per system, what
// its write path lacks, for the write confirmations to say. Every
// guarantee above not named there holds on Windows and macOS too. The
// tests run the suite on the path layer on Linux too (sys_path_test.go).
//
// The cut from memfs: memfs finds and loads memory dirs and keeps what
// decides whether a write may happen at all (memfs.WriteRefusal, the
// review baselines of seen.go, which a redaction scrubs through
// memfs.LoadBaseline and SaveBaseline), memtui's state dirs and config
// (memfs.TightenState, which leaves the files of an unfinished entry under
// memfs.JournalPendingDir alone; memfs.DefaultJournalRetention, the config
// file's default), and Claude Code's naming (memfs.LockFileName, which a
// scan skips and this package takes; memfs.TeamDirName). Everything that
// changes a memory file, and the journal that records it, is here. Every
// read goes through memfs's one safe reader, exported for this package
// only in what it needs (memfs.ReadImage, ReadIn, ReadCapped, ReadRegular,
// ReadDir, OpenDir and the MaxImageBytes cap): no symlink followed,
// regular files only, bounded; memfs's TestNoPlainReads checks this
// package's sources too. It imports memfs and model; memfs never imports
// it (no cycle), nor may it import memfs/transcript, which imports it to
// read memtui's own writes from the journal (List, JournalEntry).
package txn
