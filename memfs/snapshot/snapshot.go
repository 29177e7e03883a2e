// Package snapshot keeps memtui's own record of every memory dir over
// time. Claude Code's background forks (Dream, memory extraction) run
// with no transcript (facts §12.2): what they changed shows only as files
// that changed with no session's write to explain it, in the window that
// starts at .consolidate-lock's mtime. A snapshot (model.Snapshot) is what
// memtui saw of a memory dir at one moment: each memory file's size,
// mtime, inode and sha256, and the lock's mtime and PID. Two snapshots
// and the transcripts between them say what such a run did.
//
// The store, under Root (memtui's state dir, owner-only):
//
//	lock                      an flock: one take at a time, across processes
//	records/<dir key>/<ns>.json   one record per change of a memory dir
//	blobs/<h[:2]>/<h>         the text of a file whose sha256 is h
//	blobs/<h[:2]>/<h>.r       the same, its secrets redacted
//	unreadable/<dir key>/<ns>.json  a record a trim could not read, moved aside
//
// The dir key is the first 32 hex digits of the sha256 of the memory
// dir's cleaned path, and <ns> the take's time in Unix nanoseconds (20
// digits, so names sort by time). What it promises:
//
//   - Content-addressed and deduplicated: a text is kept once, however
//     many files, dirs and snapshots hold it, under the sha256 of the
//     file's bytes as they were on disk.
//   - No secret in clear: every text goes through Store.Redact before it
//     is written; one that held a secret is kept redacted (SnapFile.
//     Redacted, blob <h>.r) and is not the file's whole text. A file path
//     or memory dir path holding a secret is kept redacted too (see
//     PathKey). Without a Redact, Take refuses to run.
//   - Incremental: a file whose size, mtime and inode are those of the
//     dir's last record costs one lstat, no read. A file is read whole
//     through memfs's safe reader (no link followed, FIFOs and devices
//     refused, at most MaxTextBytes); a bigger one, or one that could not
//     be read, is recorded with its size and mtime, Missing and no hash
//     (SHA256 ""): hashing a 3 GiB sparse file would cost more than the
//     record is worth, and its size and mtime still say it changed. A
//     file read whose text could not be stored (a full disk) is Missing
//     with its hash. Missing files short of MaxTextBytes are read again
//     by the next take.
//     Files the scan reaches through a symlink are not recorded: a
//     snapshot follows no link.
//   - Idempotent: a dir whose files and lock are as last recorded gets no
//     new record.
//   - Bounded: records older than Retention go, and past MaxBytes (blobs
//     and records together) the oldest records go first, but a dir's
//     newest record is always kept; a blob no record names goes with the
//     last record that named it.
//   - Crash-safe and shared: every file is written to a temporary name,
//     synced and renamed into place, blobs (and their folders synced)
//     before the record that names them, so a crash loses at most the
//     take in progress. Takes hold the lock; a second process finding it
//     held skips its take (TakeResult.Busy). Readers (List, Latest, Text)
//     take no lock: they see whole files or none.
//   - Robust against a corrupt or hostile Root: a record is read at most
//     maxRecordBytes, checked (its dir, its paths, its hashes) and skipped
//     when wrong; a blob's text is checked against its hash when it can
//     be (Text). Leftovers of a crash are removed when the store is next
//     trimmed; records that cannot be parsed are moved aside then, to
//     unreadable/<dir key>/<ns>.json, never deleted. A record of a later
//     format (a newer memtui's) is left where it is, with every blob (what
//     it names is not known).
//
// The package is quiet: it returns what it did and prints nothing.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gofrs/flock"

	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// DefaultMaxBytes bounds the store when Store.MaxBytes is 0: 256 MiB, some
// ten thousand versions of a typical memory dir's changed files (a few KiB
// each), well under what a user notices in their state dir.
const DefaultMaxBytes int64 = 256 << 20

// MaxTextBytes is the largest file whose text a snapshot keeps (and
// hashes): 4 MiB, the most of a MEMORY.md Claude Code reads
// (model.IndexMaxReadBytes). A memory past it is no text anyone loads
// whole; it is recorded Missing, by its size and mtime.
const MaxTextBytes = model.IndexMaxReadBytes

// maxRecordBytes bounds the read of one record: a record of 200,000
// files is some 30 MiB; anything bigger is not one memtui wrote.
const maxRecordBytes int64 = 64 << 20

// maxRedactedBytes bounds the read of a redacted blob, which may be a
// little longer than the text it stands for (a short secret replaced by
// the longer mark).
const maxRedactedBytes = 2 * MaxTextBytes

// maxWorkers caps the goroutines of a take: hashing and redacting are
// quick, and a background take must not crowd out the work a person is
// waiting for.
const maxWorkers = 8

const (
	lockName   = "lock"
	recordsDir = "records"
	blobsDir   = "blobs"
	tmpPrefix  = ".tmp-"
)

// Store is a snapshot store. The zero value is not usable: Root and
// Redact must be set.
type Store struct {
	// Root is the store's directory (memfs.StateDirs.Snapshots), made
	// owner-only (0700) when created.
	Root string
	// MaxBytes bounds what the store holds, blobs and records together;
	// 0 means DefaultMaxBytes. It is applied by each take that writes (a
	// store grows by nothing else); a dir's newest record is kept past it.
	MaxBytes int64
	// Retention is how long a record is kept (memtui's journal
	// retention); 0 means memfs.DefaultJournalRetention. A dir's newest
	// record is kept past it.
	Retention time.Duration
	// Redact returns text with every secret replaced and whether it
	// replaced any. It is the caller's (app passes one built on
	// consolidate/secrets, which memfs may not import), and required:
	// nothing is kept that did not go through it.
	Redact func([]byte) (out []byte, redacted bool)
	// Scan is how memory dirs are listed (memfs.ListDir): the same
	// options as the memory scan, so a snapshot records the files the
	// scan shows.
	Scan memfs.Options
	// Workers bounds the goroutines of a take; 0 means one per core, at
	// most eight.
	Workers int
	// Records, when set, keeps the records List has read: a record never
	// changes once written, so a List reads only those written since (a
	// TUI reloads a directory on every change; with a snapshot at each of
	// Claude Code's turns, a dir soon has hundreds of records).
	Records *RecordCache
}

// TakeResult is what one Take did.
type TakeResult struct {
	// Busy is true when another process (or goroutine) was taking a
	// snapshot: this take did nothing.
	Busy bool
	// Recorded are the memory dirs a new record was written for, in the
	// order given.
	Recorded []DirChange
	// Unchanged counts the dirs whose files and lock were as last
	// recorded (no record written) or that do not exist.
	Unchanged int
	// Files is how many files were looked at, Read how many of them were
	// read (new or changed since the dir's last record).
	Files, Read int
	// Blobs is how many texts were stored, Bytes their size.
	Blobs int
	Bytes int64
	// Pruned counts the records removed (retention, the size bound),
	// Removed the blobs no record named any more.
	Pruned, Removed int
	// Aside are the records a trim found it cannot read (garbage, cut
	// short, another dir's), each moved where it says, under
	// <Root>/unreadable/: never deleted.
	Aside []string
}

// DirChange is what changed in one memory dir since its last record.
type DirChange struct {
	Dir string
	// First is true for a dir recorded for the first time (every file
	// counts as added).
	First bool
	// Files is how many files the new record holds.
	Files int
	// Added, Changed and Removed count files against the last record.
	Added, Changed, Removed int
	// Lock is true when .consolidate-lock's mtime or PID changed.
	Lock bool
}

// dirWork is one memory dir in a take.
type dirWork struct {
	d        *model.MemoryDir // Path, Kind and Agent only (a copy)
	dir      string           // cleaned path
	key      string           // records/<key>
	prev     *model.Snapshot
	prevName string // the newest record's name, valid or not ("" when none)
	exists   bool
	files    map[string]model.SnapFile
	lockMod  time.Time
	lockPID  int
	err      error
}

// readJob is one file to read: new, or changed since the last record.
type readJob struct {
	w         *dirWork
	key       string // the path as recorded (PathKey)
	dir, name string // where it is (memfs.ListedFile)
	prev      model.SnapFile
	hasPrev   bool
	out       model.SnapFile
}

// Take records every memory dir of dirs whose files or lock changed since
// its last record, then trims the store to its retention and size. It
// holds the store's lock throughout; when another take holds it, it
// returns at once with Busy set. Only the dirs' Path and Kind are used
// (the scan's own dirs may be passed while they load). An error writing
// one dir's record does not stop the others; the errors are returned
// joined, with what was done. A cancelled ctx stops the take before any
// record is written (texts already stored are trimmed later).
func (s *Store) Take(ctx context.Context, dirs []*model.MemoryDir, now time.Time) (TakeResult, error) {
	var res TakeResult
	if s.Root == "" {
		return res, errors.New("snapshot: the store has no directory")
	}
	if s.Redact == nil {
		return res, errors.New("snapshot: the store has no redactor, and a snapshot never keeps a secret in clear")
	}
	if err := os.MkdirAll(s.Root, 0o700); err != nil {
		return res, fmt.Errorf("snapshot: %w", err)
	}
	fl := flock.New(filepath.Join(s.Root, lockName))
	ok, err := fl.TryLock()
	if err != nil {
		return res, fmt.Errorf("snapshot: lock %s: %w", fl.Path(), err)
	}
	if !ok {
		res.Busy = true
		return res, nil
	}
	defer fl.Unlock()

	works := s.plan(dirs)
	workers := s.workers()
	// Each dir is listed, and its unchanged files stat'd, by one worker;
	// the files to read are then read on the same pool, all dirs' in one
	// list, so that one huge dir keeps every worker busy.
	jobs := make([][]readJob, len(works))
	pool.Run(ctx, len(works), workers, func(i int) {
		jobs[i] = s.survey(works[i])
	})
	if err := ctx.Err(); err != nil {
		return res, err
	}
	var flat []*readJob
	for i := range jobs {
		res.Files += len(works[i].files)
		for j := range jobs[i] {
			flat = append(flat, &jobs[i][j])
		}
	}
	res.Files += len(flat)
	res.Read = len(flat)
	bs := newBlobSet(filepath.Join(s.Root, blobsDir))
	pool.Run(ctx, len(flat), workers, func(i int) {
		j := flat[i]
		j.out = s.readOne(j, bs)
	})
	if err := ctx.Err(); err != nil {
		return res, err
	}
	for _, j := range flat {
		j.w.files[j.key] = j.out
	}
	res.Blobs, res.Bytes = int(bs.count.Load()), bs.bytes.Load()
	// The texts reach the disk before any record names them.
	errs := bs.sync()

	keep := map[string]string{}
	for _, w := range works {
		if w.err != nil {
			errs = append(errs, w.err)
			if w.prevName != "" {
				keep[w.key] = w.prevName
			}
			continue
		}
		ch, name, err := s.record(w, now)
		switch {
		case err != nil:
			errs = append(errs, err)
		case name == "":
			res.Unchanged++
		default:
			res.Recorded = append(res.Recorded, ch)
		}
		if name == "" {
			name = w.prevName
		}
		if name != "" {
			keep[w.key] = name
		}
	}
	pruned, removed, aside, err := s.trim(now, keep, res.Blobs > 0 || len(res.Recorded) > 0)
	res.Pruned, res.Removed, res.Aside = pruned, removed, aside
	if err != nil {
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}

// plan is one dirWork per distinct memory dir.
func (s *Store) plan(dirs []*model.MemoryDir) []*dirWork {
	var works []*dirWork
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == nil || d.Path == "" {
			continue
		}
		dir := filepath.Clean(d.Path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		c := &model.MemoryDir{Path: d.Path, Kind: d.Kind, Agent: d.Agent}
		works = append(works, &dirWork{d: c, dir: dir, key: dirKey(dir)})
	}
	return works
}

func (s *Store) workers() int {
	if s.Workers > 0 {
		return s.Workers
	}
	return min(runtime.GOMAXPROCS(0), maxWorkers)
}
