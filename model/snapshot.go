package model

import "time"

// Snapshot is what memtui recorded of one memory dir at one moment: every
// memory file's size, mtime and content hash, and Claude Code's
// .consolidate-lock. Claude Code's background forks (Dream, memory
// extraction) leave no transcript (facts 12.2), so two snapshots and the
// changes between them that no transcript explains are the only record of
// what such a run did. The texts are kept apart, by hash (memfs/snapshot).
type Snapshot struct {
	// Dir is the memory dir (absolute, cleaned).
	Dir string
	// Time is when the snapshot was taken.
	Time time.Time
	// LockMtime is .consolidate-lock's mtime then (when the last Dream run
	// took the lock); zero when there was none. LockPID is its body's PID,
	// 0 when it did not hold one.
	LockMtime time.Time
	LockPID   int
	// Files are the memory dir's markdown files, MEMORY.md included, by
	// memory-dir-relative slash path.
	Files map[string]SnapFile
}

// SnapFile is one file as a snapshot saw it.
type SnapFile struct {
	Size  int64
	Mtime time.Time
	// Inode is the file's inode number, 0 where the system gives none.
	// memtui's own writes keep a file's mtime and replace the file by a
	// rename, so a rewrite of the same size would look unchanged by size
	// and mtime alone; the new inode tells.
	Inode uint64
	// SHA256 is the hex sha256 of the file's bytes as they were on disk.
	SHA256 string
	// Redacted is true when the file held a secret: the text kept has the
	// secret replaced by Redacted, so it is not the file's complete text
	// and nothing is restored from it.
	Redacted bool
	// Missing is true when the text was not kept (over the size bound, or
	// unreadable): the hash says the file changed, no more.
	Missing bool
}

// KeptText is the last complete text memtui itself kept of a memory file
// that is gone from disk: from its snapshots or its review baseline. The
// transcripts are not the only record of a deleted memory (a Dream run
// leaves none): what memtui saw is one too.
type KeptText struct {
	// Path is memory-dir-relative, slash-separated.
	Path string
	Text string
	// Source names the record: "snapshot" or "review baseline".
	Source string
	// Seen is when memtui last saw the file with Text; Gone, when known,
	// is when it first saw the file gone (the next snapshot's time).
	Seen, Gone time.Time
	// Index is MEMORY.md's text when the file was seen, "" when unknown:
	// the entry a restore puts back.
	Index string
}
