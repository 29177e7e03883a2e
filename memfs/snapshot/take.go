package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// testHookRead, when set, is called with each file a take opens to read
// (tests count them: an unchanged file must cost no read).
var testHookRead func(path string)

// survey lists one memory dir as the scan does and stats each file: a
// file as its last record has it keeps its entry without a read; the
// others are returned to be read. It also reads the lock.
func (s *Store) survey(w *dirWork) []readJob {
	w.files = map[string]model.SnapFile{}
	prev, prevName, err := s.latest(w.key, w.dir)
	if err != nil {
		w.err = fmt.Errorf("snapshot of %s: %w", w.dir, err)
		return nil
	}
	w.prev, w.prevName = prev, prevName
	l := memfs.ListDir(w.d, s.Scan)
	w.exists = l.Exists
	if !l.Exists {
		return nil
	}
	var jobs []readJob
	for _, f := range l.Files {
		if f.Link != "" {
			continue // reached through a symlink: a snapshot follows none
		}
		fi, err := os.Lstat(filepath.Join(f.Dir, f.Name))
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone, or no longer a file, since the walk
		}
		key := s.PathKey(f.Path)
		cur := model.SnapFile{Size: fi.Size(), Mtime: fi.ModTime(), Inode: inodeOf(fi)}
		var p model.SnapFile
		ok := false
		if prev != nil {
			p, ok = prev.Files[key]
		}
		// Unchanged: as last recorded, and either read then or too big
		// to read at all (a file that could not be read is tried again).
		if ok && p.Size == cur.Size && p.Mtime.Equal(cur.Mtime) && p.Inode == cur.Inode && (!p.Missing || p.Size > MaxTextBytes) {
			w.files[key] = p
			continue
		}
		if cur.Size > MaxTextBytes {
			cur.Missing = true
			w.files[key] = cur
			continue
		}
		jobs = append(jobs, readJob{w: w, key: key, dir: f.Dir, name: f.Name, prev: p, hasPrev: ok, out: cur})
	}
	w.lockMod, w.lockPID = ReadLock(w.dir)
	return jobs
}

// ReadLock is a memory dir's .consolidate-lock mtime and PID (facts
// §6.2): zero when there is no lock, or something other than a regular
// file stands there; PID 0 when the body names none.
func ReadLock(dir string) (time.Time, int) {
	l := memfs.ReadLock(dir)
	if !l.Present || l.ModTime == 0 {
		return time.Time{}, 0 // none, or a link, FIFO or folder in its place
	}
	pid := 0
	if l.HasPID && l.PID > 0 {
		pid = l.PID
	}
	return time.Unix(0, l.ModTime), pid
}

// readOne reads a new or changed file through the safe reader and keeps
// its text, redacted, unless the store has it already. The entry's size,
// mtime and inode are the open file's, taken before the read: a file
// written meanwhile has a newer mtime by the next take, which reads it
// again. What cannot be read is recorded Missing, with j.out's stat.
func (s *Store) readOne(j *readJob, bs *blobSet) model.SnapFile {
	if testHookRead != nil {
		testHookRead(filepath.Join(j.dir, j.name))
	}
	f, fi, err := memfs.OpenIn(j.dir, j.name)
	if err != nil {
		return missing(j.out)
	}
	defer f.Close()
	b, err := memfs.ReadCapped(f, f.Name(), fi.Size(), MaxTextBytes)
	if err != nil {
		out := model.SnapFile{Size: fi.Size(), Mtime: fi.ModTime(), Inode: inodeOf(fi)}
		return missing(out)
	}
	sum := sha256.Sum256(b)
	out := model.SnapFile{Size: int64(len(b)), Mtime: fi.ModTime(), Inode: inodeOf(fi), SHA256: hex.EncodeToString(sum[:])}
	if j.hasPrev && !j.prev.Missing && j.prev.SHA256 == out.SHA256 {
		// Touched, not changed: the last record names its text.
		out.Redacted = j.prev.Redacted
		return out
	}
	red, err := bs.put(out.SHA256, b, s.Redact)
	if err != nil {
		// The hash says it changed; the text is not kept (a full disk).
		// The next take reads it again.
		out.Missing = true
		return out
	}
	out.Redacted = red
	return out
}

// missing is a file whose text is not kept: its stat, no hash.
func missing(f model.SnapFile) model.SnapFile {
	f.Missing, f.SHA256, f.Redacted = true, "", false
	return f
}

// record writes w's record when its files or lock differ from its last
// one, and returns what changed and the record's name ("" when none was
// written: nothing changed, or a dir that does not exist and never did).
func (s *Store) record(w *dirWork, now time.Time) (DirChange, string, error) {
	if !w.exists && w.prev == nil {
		return DirChange{}, "", nil
	}
	cur := model.Snapshot{Dir: w.dir, Time: now, LockMtime: w.lockMod, LockPID: w.lockPID, Files: w.files}
	if w.prev != nil && sameState(w.prev, &cur) {
		return DirChange{}, "", nil
	}
	ch := changeOf(w.prev, &cur)
	data, err := encodeRecord(&cur, s.redactString(w.dir))
	if err != nil {
		return DirChange{}, "", fmt.Errorf("snapshot of %s: %w", w.dir, err)
	}
	name, err := s.writeRecord(w.key, w.prevName, now, data)
	if err != nil {
		return DirChange{}, "", fmt.Errorf("snapshot of %s: %w", w.dir, err)
	}
	return ch, name, nil
}

// sameState reports whether two snapshots of a dir saw the same files
// and lock (their times aside).
func sameState(a, b *model.Snapshot) bool {
	if !a.LockMtime.Equal(b.LockMtime) || a.LockPID != b.LockPID || len(a.Files) != len(b.Files) {
		return false
	}
	for k, fa := range a.Files {
		fb, ok := b.Files[k]
		if !ok || !sameFile(fa, fb) {
			return false
		}
	}
	return true
}

func sameFile(a, b model.SnapFile) bool {
	return a.Size == b.Size && a.Mtime.Equal(b.Mtime) && a.Inode == b.Inode && a.SHA256 == b.SHA256 && a.Redacted == b.Redacted && a.Missing == b.Missing
}

// changeOf counts what changed from prev (nil: the first record) to cur.
func changeOf(prev, cur *model.Snapshot) DirChange {
	ch := DirChange{Dir: cur.Dir, Files: len(cur.Files), First: prev == nil}
	if prev == nil {
		ch.Added = len(cur.Files)
		ch.Lock = !cur.LockMtime.IsZero()
		return ch
	}
	ch.Lock = !prev.LockMtime.Equal(cur.LockMtime) || prev.LockPID != cur.LockPID
	for k, f := range cur.Files {
		p, ok := prev.Files[k]
		switch {
		case !ok:
			ch.Added++
		case !sameFile(p, f):
			ch.Changed++
		}
	}
	for k := range prev.Files {
		if _, ok := cur.Files[k]; !ok {
			ch.Removed++
		}
	}
	return ch
}

// PathKey is how a memory-dir-relative path is kept in a snapshot's
// Files: as it is, unless it holds a secret (a file named after a token);
// then its redaction followed by "#" and the first 16 hex digits of the
// path's sha256, so that two such files stay apart and the same file has
// the same key in every snapshot, with no secret kept in clear. A caller
// comparing a snapshot with the files on disk looks them up by it.
func (s *Store) PathKey(rel string) string {
	if s.Redact == nil {
		return rel
	}
	out, red := s.Redact([]byte(rel))
	if !red {
		return rel
	}
	sum := sha256.Sum256([]byte(rel))
	return string(out) + "#" + hex.EncodeToString(sum[:8])
}

// redactString is s with its secrets redacted (the memory dir's path in a
// record, there for a person reading the store; records are found by the
// path's hash).
func (s *Store) redactString(v string) string {
	out, red := s.Redact([]byte(v))
	if !red {
		return v
	}
	return string(out)
}

// dirKey names a memory dir's records folder: the first 32 hex digits of
// the sha256 of its cleaned path.
func dirKey(dir string) string { return sumHex(dir)[:32] }

func sumHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
