// Package transcript reads what Claude Code's session transcripts say
// about a project's memories: every write to a memory file (with the text
// written when the transcript has it), every time a session saw a memory's
// content, the sessions themselves, and memtui's own applied writes from
// its journal, into a model.TranscriptLog (Read for one project, ReadAll
// for a scan's). It scans only the lines that can matter, resumes a grown
// transcript where it stopped through a per-project cache it writes under
// Options.CacheDir, and stays bounded in memory whatever the transcripts
// hold (bound.go). "transcripts §N" cites docs/transcript-format.md.
//
// The cut from memfs: memfs finds projects, and its discovery reads the
// head of a project's newest transcripts for its real path
// (memfs/transcripts.go); that stays there, as do the rules both sides
// use for Claude Code's naming (memfs.SlugMatcher: which folder a path
// launches into; memfs.IsUUID: which files are sessions;
// memfs.MemoryDirName). Everything that reads a transcript's lines is
// here. Every read goes through memfs's one safe reader, exported for this
// package only in what it needs (memfs.OpenRegular, ReadRegular, ReadImage,
// ReadDir): no symlink followed, regular files only, bounded. It imports
// memfs, memfs/txn (memtui's own writes are read from its journal: List,
// JournalEntry), model and internal/pool; neither memfs nor memfs/txn
// imports it (no cycle), and app and the commands call it after discovery.
package transcript
