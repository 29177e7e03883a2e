package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/memtui/memtui/memfs"
)

// redactedSuffix marks a blob whose text was redacted: it is not the text
// its name hashes, so it cannot be checked against it.
const redactedSuffix = ".r"

// blobSet is the texts of one take: each kept once, whichever files of
// whichever dirs hold it.
type blobSet struct {
	root string
	mu   sync.Mutex
	once map[string]*blobOnce // by sha256
	dirs map[string]bool      // folders written to, to sync
	// count and bytes are what this take stored.
	count atomic.Int64
	bytes atomic.Int64
}

// blobOnce is one text being kept: the first worker with it stores it,
// any other waits for that and takes its outcome.
type blobOnce struct {
	once     sync.Once
	redacted bool
	err      error
}

func newBlobSet(root string) *blobSet {
	return &blobSet{root: root, once: map[string]*blobOnce{}, dirs: map[string]bool{}}
}

// put keeps text, whose sha256 is sum, unless the store has it already,
// and reports whether the text kept is redacted.
func (bs *blobSet) put(sum string, text []byte, redact func([]byte) ([]byte, bool)) (bool, error) {
	bs.mu.Lock()
	o := bs.once[sum]
	if o == nil {
		o = &blobOnce{}
		bs.once[sum] = o
	}
	bs.mu.Unlock()
	o.once.Do(func() { o.redacted, o.err = bs.store(sum, text, redact) })
	return o.redacted, o.err
}

func (bs *blobSet) store(sum string, text []byte, redact func([]byte) ([]byte, bool)) (bool, error) {
	sub := filepath.Join(bs.root, sum[:2])
	// Kept by an earlier take (or another dir): a redacted text as it is
	// (it cannot be checked), a plain one if it still hashes to its name.
	if fi, err := os.Lstat(filepath.Join(sub, sum+redactedSuffix)); err == nil && fi.Mode().IsRegular() {
		return true, nil
	}
	if b, err := memfs.ReadIn(sub, sum, MaxTextBytes); err == nil && sumBytes(b) == sum {
		return false, nil
	}
	out, red := redact(text)
	name := sum
	if red {
		name += redactedSuffix
	}
	if err := os.MkdirAll(sub, 0o700); err != nil {
		return false, err
	}
	if err := writeAtomic(sub, name, out, !batchSync); err != nil {
		return false, err
	}
	bs.mu.Lock()
	bs.dirs[sub] = true
	bs.mu.Unlock()
	bs.count.Add(1)
	bs.bytes.Add(int64(len(out)))
	return red, nil
}

// sync makes the new blobs durable before a record names them: with
// batchSync one syncfs for them all, else their folders (the texts were
// synced as written) and the blobs folder that may hold new ones.
func (bs *blobSet) sync() []error {
	if len(bs.dirs) == 0 {
		return nil
	}
	if batchSync {
		if err := syncFS(bs.root); err != nil {
			return []error{err}
		}
		return nil
	}
	var errs []error
	dirs := make([]string, 0, len(bs.dirs)+1)
	for d := range bs.dirs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range append(dirs, bs.root) {
		if err := syncDir(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// writeAtomic writes data to dir/name through a temporary file renamed
// into place, synced first when sync is set (else the caller syncs it
// with others before anything depends on it): a reader sees the old file
// or the new one whole, never a part. The file is owner-only
// (os.CreateTemp's 0600).
func writeAtomic(dir, name string, data []byte, sync bool) error {
	f, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// syncDir fsyncs a directory, so that the names just made in it survive
// a crash. Systems that cannot (Windows) are not an error.
func syncDir(dir string) error {
	f, err := memfs.OpenDir(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}

func sumBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// validSum reports whether s is a sha256 as a record holds it: 64
// lower-case hex digits.
func validSum(s string) bool { return len(s) == 64 && isHex(s) }

// isHex reports whether s is lower-case hex digits only.
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// blobName is the file a record's text is kept in, inside blobs/<sum[:2]>.
func blobName(sum string, redacted bool) string {
	if redacted {
		return sum + redactedSuffix
	}
	return sum
}

// Text is the text kept for the file whose sha256 is sum: the file's
// bytes, checked against sum, or, when the file held a secret, its
// redacted text (SnapFile.Redacted), which cannot be checked. A text
// the store does not have, or whose bytes no longer hash to its name, is
// an error.
func (s *Store) Text(sum string) ([]byte, error) {
	if !validSum(sum) {
		return nil, fmt.Errorf("snapshot: %q is not a sha256", sum)
	}
	if b, ok := s.Records.text(sum); ok {
		return b, nil
	}
	b, err := s.readText(sum)
	if err == nil {
		s.Records.keepText(sum, b)
	}
	return b, err
}

// readText reads the text kept for sum from the store.
func (s *Store) readText(sum string) ([]byte, error) {
	sub := filepath.Join(s.Root, blobsDir, sum[:2])
	b, err := memfs.ReadIn(sub, sum, MaxTextBytes)
	if err == nil && sumBytes(b) == sum {
		return b, nil
	}
	if err == nil {
		err = fmt.Errorf("snapshot: the text kept for %s does not hash to it: something other than memtui changed the store", sum)
	}
	rb, rerr := memfs.ReadIn(sub, sum+redactedSuffix, maxRedactedBytes)
	switch {
	case rerr == nil:
		return rb, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case !errors.Is(rerr, fs.ErrNotExist):
		return nil, rerr
	}
	return nil, fmt.Errorf("snapshot: no text kept for %s", sum)
}
