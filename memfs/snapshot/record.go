package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// recordVersion is the version of the record format this memtui writes.
// A record of a later version is left alone, and so are the blobs (this
// memtui cannot tell which it names).
const recordVersion = 1

// recordJSON is a record on disk: one model.Snapshot.
type recordJSON struct {
	V int `json:"v"`
	// DirSHA256 is the sha256 of the memory dir's cleaned path: a record
	// is the dir's only if it matches (the folder name is its prefix).
	DirSHA256 string `json:"dir_sha256"`
	// Dir is the path for a person reading the store, redacted.
	Dir  string `json:"dir"`
	Time int64  `json:"time"` // Unix nanoseconds
	// Lock says a .consolidate-lock was there, with this mtime and PID.
	Lock      bool       `json:"lock,omitempty"`
	LockMtime stampJSON  `json:"lock_mtime"`
	LockPID   int        `json:"lock_pid,omitempty"`
	Files     []fileJSON `json:"files"`
}

// stampJSON is a time as seconds and nanoseconds since the Unix epoch:
// exact for any mtime a file system holds (UnixNano overflows outside
// 1678–2262, RFC 3339 outside years 0–9999, and a hostile file's mtime
// may be anything).
type stampJSON struct {
	S  int64 `json:"s"`
	NS int64 `json:"ns,omitempty"`
}

func stampOf(t time.Time) stampJSON { return stampJSON{S: t.Unix(), NS: int64(t.Nanosecond())} }

func (s stampJSON) time() time.Time { return time.Unix(s.S, s.NS) }

// fileJSON is one model.SnapFile with its path.
type fileJSON struct {
	// Path is the path kept (PathKey); PathBytes holds it instead when it
	// is not UTF-8, which a JSON string cannot carry byte for byte.
	Path      string    `json:"path,omitempty"`
	PathBytes []byte    `json:"path_bytes,omitempty"`
	Size      int64     `json:"size"`
	Mtime     stampJSON `json:"mtime"`
	Inode     uint64    `json:"inode,omitempty"`
	SHA256    string    `json:"sha256,omitempty"`
	Redacted  bool      `json:"redacted,omitempty"`
	Missing   bool      `json:"missing,omitempty"`
}

// encodeRecord is snap as a record, its files sorted by path; shown is
// the dir's path as the record shows it.
func encodeRecord(snap *model.Snapshot, shown string) ([]byte, error) {
	r := recordJSON{V: recordVersion, DirSHA256: sumHex(snap.Dir), Dir: strings.ToValidUTF8(shown, "\uFFFD"),
		Time: snap.Time.UnixNano(), LockPID: snap.LockPID, Files: make([]fileJSON, 0, len(snap.Files))}
	if !snap.LockMtime.IsZero() {
		r.Lock, r.LockMtime = true, stampOf(snap.LockMtime)
	}
	for p, f := range snap.Files {
		fj := fileJSON{Size: f.Size, Mtime: stampOf(f.Mtime), Inode: f.Inode, SHA256: f.SHA256, Redacted: f.Redacted, Missing: f.Missing}
		if utf8.ValidString(p) {
			fj.Path = p
		} else {
			fj.PathBytes = []byte(p)
		}
		r.Files = append(r.Files, fj)
	}
	slices.SortFunc(r.Files, func(a, b fileJSON) int {
		return strings.Compare(a.Path+string(a.PathBytes), b.Path+string(b.PathBytes))
	})
	return json.Marshal(r)
}

// recordStatus is what reading a record found.
type recordStatus int

const (
	recordOK      recordStatus = iota
	recordGone                 // removed since it was listed
	recordBad                  // not a record this store wrote: garbage, cut short, another dir's, a link
	recordForeign              // a later memtui's record
	recordUnread               // could not be read (permission, I/O): kept, and so are the blobs
)

// readRecord reads and checks the record name of the dir with key; dir
// is the dir's cleaned path, or "" when it is not known (the trim reads
// every record), when the record's own hash is checked against key only.
func (s *Store) readRecord(key, name, dir string) (*model.Snapshot, recordStatus) {
	b, err := memfs.ReadIn(filepath.Join(s.Root, recordsDir, key), name, maxRecordBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, recordGone
	case memfs.IsRefused(err):
		return nil, recordBad
	case err != nil:
		return nil, recordUnread
	}
	return decodeRecord(b, key, dir)
}

// decodeRecord parses and checks one record: anything wrong in it makes
// it recordBad, never a panic.
func decodeRecord(b []byte, key, dir string) (*model.Snapshot, recordStatus) {
	var r recordJSON
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, recordBad
	}
	switch {
	case r.V > recordVersion:
		return nil, recordForeign
	case r.V < 1, !validSum(r.DirSHA256), r.DirSHA256[:32] != key, dir != "" && r.DirSHA256 != sumHex(dir),
		r.Time <= 0, r.LockPID < 0, !validStamp(r.LockMtime):
		return nil, recordBad
	}
	snap := &model.Snapshot{Dir: dir, Time: time.Unix(0, r.Time), LockPID: r.LockPID, Files: make(map[string]model.SnapFile, len(r.Files))}
	if dir == "" {
		snap.Dir = r.Dir
	}
	if r.Lock {
		snap.LockMtime = r.LockMtime.time()
	}
	for _, f := range r.Files {
		p := f.Path
		if len(f.PathBytes) > 0 {
			if p != "" {
				return nil, recordBad
			}
			p = string(f.PathBytes)
		}
		if _, dup := snap.Files[p]; dup || !validRel(p) || f.Size < 0 || !validStamp(f.Mtime) || (f.SHA256 != "" && !validSum(f.SHA256)) {
			return nil, recordBad
		}
		snap.Files[p] = model.SnapFile{Size: f.Size, Mtime: f.Mtime.time(), Inode: f.Inode, SHA256: f.SHA256, Redacted: f.Redacted, Missing: f.Missing}
	}
	return snap, recordOK
}

func validStamp(s stampJSON) bool { return s.NS >= 0 && s.NS < 1e9 }

// validRel reports whether p is a memory-dir-relative slash path as a
// scan gives one: not empty, not absolute, no NUL, no "." or ".." or
// empty component.
func validRel(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return false
	}
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}

// recordName is the record file of a take at Unix nanoseconds ns: 20
// digits, so that names sort by time.
func recordName(ns int64) string { return fmt.Sprintf("%020d.json", ns) }

// recordTime reads a record file's name back: its time, and whether it is
// one at all.
func recordTime(name string) (int64, bool) {
	digits, ok := strings.CutSuffix(name, ".json")
	if !ok || len(digits) != 20 {
		return 0, false
	}
	ns, err := strconv.ParseInt(digits, 10, 64)
	return ns, err == nil && ns > 0
}

// names lists the record names of the dir with key, oldest first; none
// when it has no folder.
func (s *Store) names(key string) ([]string, error) {
	ents, err := memfs.ReadDir(filepath.Join(s.Root, recordsDir, key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if _, ok := recordTime(e.Name()); ok {
			out = append(out, e.Name())
		}
	}
	return out, nil // memfs.ReadDir sorts by name, so by time
}

// latest is the dir's newest readable record (nil when none), and the
// newest record name in its folder (readable or not; "" when none).
func (s *Store) latest(key, dir string) (*model.Snapshot, string, error) {
	names, err := s.names(key)
	if err != nil || len(names) == 0 {
		return nil, "", err
	}
	for i := len(names) - 1; i >= 0; i-- {
		if snap, st := s.readRecord(key, names[i], dir); st == recordOK {
			return snap, names[len(names)-1], nil
		}
	}
	return nil, names[len(names)-1], nil
}

// List is every snapshot the store holds of the memory dir, oldest
// first. Records that cannot be read or are not right are skipped.
func (s *Store) List(dir string) ([]model.Snapshot, error) {
	dir = filepath.Clean(dir)
	key := dirKey(dir)
	names, err := s.names(key)
	if err != nil {
		return nil, err
	}
	if s.Records != nil {
		return s.Records.list(s, key, dir, names), nil
	}
	var out []model.Snapshot
	for _, n := range names {
		if snap, st := s.readRecord(key, n, dir); st == recordOK {
			out = append(out, *snap)
		}
	}
	return out, nil
}

// RecordCache keeps the records a Store's List read, by dir and name
// (Store.Records). Safe for concurrent use. A record read and found bad
// is remembered as bad.
type RecordCache struct {
	mu   sync.Mutex
	dirs map[string]map[string]*model.Snapshot // key, then record name; nil: not readable
	// texts are the texts Text read, by hash (a text kept under a hash
	// never changes), up to maxCachedText bytes in all: every load of a
	// directory asks for the texts of its memories gone from disk.
	texts     map[string][]byte
	textBytes int
}

// maxCachedText bounds the texts a RecordCache keeps.
const maxCachedText = 32 << 20

// text is the cached text of sum; the caller must not change it.
func (c *RecordCache) text(sum string) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.texts[sum]
	return b, ok
}

// keepText caches b as sum's text while the bound allows.
func (c *RecordCache) keepText(sum string, b []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.texts[sum]; ok || c.textBytes+len(b) > maxCachedText {
		return
	}
	if c.texts == nil {
		c.texts = map[string][]byte{}
	}
	c.texts[sum] = b
	c.textBytes += len(b)
}

// list is List through the cache: the records named are read once; those
// gone from the folder (trimmed) are forgotten.
func (c *RecordCache) list(s *Store, key, dir string, names []string) []model.Snapshot {
	c.mu.Lock()
	if c.dirs == nil {
		c.dirs = map[string]map[string]*model.Snapshot{}
	}
	had := c.dirs[key]
	c.mu.Unlock()
	now := make(map[string]*model.Snapshot, len(names))
	out := make([]model.Snapshot, 0, len(names))
	for _, n := range names {
		snap, ok := had[n]
		if !ok {
			r, st := s.readRecord(key, n, dir)
			switch st {
			case recordOK:
				snap = r
			case recordBad:
				// remembered as bad (nil): it cannot become good
			default:
				continue // gone or not read this time: read again next time
			}
		}
		now[n] = snap
		if snap != nil {
			out = append(out, *snap)
		}
	}
	c.mu.Lock()
	c.dirs[key] = now
	c.mu.Unlock()
	return out
}

// Latest is the newest snapshot of the memory dir; ok is false when the
// store has none.
func (s *Store) Latest(dir string) (snap model.Snapshot, ok bool, err error) {
	dir = filepath.Clean(dir)
	p, _, err := s.latest(dirKey(dir), dir)
	if err != nil || p == nil {
		return model.Snapshot{}, false, err
	}
	return *p, true, nil
}

// writeRecord writes a dir's record under a name after every name its
// folder holds (newest is the newest one, "" when none): a clock set
// back cannot put a new record before an old one.
func (s *Store) writeRecord(key, newest string, now time.Time, data []byte) (string, error) {
	dir := filepath.Join(s.Root, recordsDir, key)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ns := max(now.UnixNano(), 1)
	if last, ok := recordTime(newest); ok && ns <= last {
		ns = last + 1
	}
	// Taken (two takes in one nanosecond, or a name someone else put
	// there): the next nanosecond.
	for {
		if _, err := os.Lstat(filepath.Join(dir, recordName(ns))); err != nil {
			break
		}
		ns++
	}
	name := recordName(ns)
	if err := writeAtomic(dir, name, data, true); err != nil {
		return "", err
	}
	return name, syncDir(dir)
}
