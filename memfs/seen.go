package memfs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2/maybe"

	"github.com/memtui/memtui/model"
)

// baseline is the review baseline's kind of state file: format 1 since
// memtui first kept one (BaselineFile.Partial, added later, is optional
// and absent from older files: read as false, "read whole", which is what
// those files held).
var baseline = &stateKind{what: "review baseline", key: "version", version: 1}

// maxBaselineBytes bounds how much of a baseline file is decompressed: a
// corrupted or hostile file must not eat the machine's memory.
const maxBaselineBytes = 512 << 20

type baselineFile struct {
	Version int `json:"version"`
	model.Baseline
}

// baselinePath names dir's baseline inside root. The name hashes the
// directory's path, so any path fits in a file name; the path itself is
// stored inside and checked on load.
func baselinePath(root, dir string) string { return dirFile(root, dir, ".json.gz") }

// dirFile names a file of memtui's state about memory dir dir inside
// root: a hash of the dir's path and a suffix for what it holds (the
// baseline, the decisions), so any path fits in a file name.
func dirFile(root, dir, suffix string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	return filepath.Join(root, hex.EncodeToString(sum[:12])+suffix)
}

// LoadBaseline reads the review baseline of memory directory dir from root
// (StateDirs.Seen). It returns nil and no error when there is none yet.
// An older format is migrated as it is read. A baseline of a newer
// format, or one that cannot be read back, is a *StateError naming the
// file (ErrNewerFormat, ErrCorruptState); the file is left as it is.
func LoadBaseline(root, dir string) (*model.Baseline, error) {
	b, _, err := loadBaseline(baselinePath(root, dir), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// loadBaseline reads the baseline of dir at path, and the format it was
// in (fs.ErrNotExist when there is none).
func loadBaseline(path, dir string) (*model.Baseline, int, error) {
	raw, err := readBaseline(path)
	if err != nil {
		return nil, 0, err
	}
	var bf baselineFile
	v, err := baseline.decode(path, raw, &bf)
	if err != nil {
		return nil, v, err
	}
	if filepath.Clean(bf.Dir) != filepath.Clean(dir) {
		return nil, v, baseline.corrupt(path, fmt.Errorf("it belongs to %s, not %s", bf.Dir, dir))
	}
	if bf.Files == nil {
		bf.Files = map[string]model.BaselineFile{}
	}
	b := bf.Baseline
	return &b, v, nil
}

// readBaseline inflates the baseline file at path. memtui's own file: a
// link, FIFO or device put in its place is refused, and neither the file
// nor what it inflates to may pass maxBaselineBytes (those are
// *StateErrors: the file is not one memtui wrote); an I/O error is
// returned as it is.
func readBaseline(path string) ([]byte, error) {
	zr, closeFn, err := openReviewBaseline(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	raw, err := io.ReadAll(io.LimitReader(zr, maxBaselineBytes+1))
	if err != nil {
		return nil, baseline.corrupt(path, err)
	}
	if int64(len(raw)) > maxBaselineBytes {
		return nil, baseline.corrupt(path, fmt.Errorf("inflates to more than %s", sizeText(maxBaselineBytes)))
	}
	return raw, nil
}

// openReviewBaseline opens the review baseline file at path for reading,
// inflated; the caller bounds what it reads (readBaseline).
func openReviewBaseline(path string) (io.Reader, func(), error) {
	f, fi, err := openRead(path, noFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, err
	case IsRefused(err):
		return nil, nil, baseline.corrupt(path, UnwrapPathErr(err))
	case err != nil:
		return nil, nil, fmt.Errorf("review baseline: %w", err)
	}
	if fi.Size() > maxBaselineBytes {
		f.Close()
		return nil, nil, baseline.corrupt(path, tooLargeErr(path, fi.Size(), maxBaselineBytes))
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, baseline.corrupt(path, err)
	}
	// Not limited here: the reader caps it one byte past maxBaselineBytes,
	// so an oversized baseline is named as such, not as JSON cut short.
	return zr, func() { f.Close() }, nil
}

// baselineOnDisk is the format of the baseline of dir at path, or why it
// cannot be read back (fs.ErrNotExist when there is none), for a save. The
// file is inflated and checked whole, as a load would, but its texts are
// not decoded: a save costs one scan of the old file, not a load.
func baselineOnDisk(path, dir string) (int, error) {
	raw, err := readBaseline(path)
	if err != nil {
		return formatOnDisk(0, err)
	}
	v, err := peekVersion(bytes.NewReader(raw), baseline.key)
	if err != nil || v > baseline.version {
		return v, err
	}
	if v < baseline.version { // rare: the whole load, migration and all
		_, v, err := loadBaseline(path, dir)
		return formatOnDisk(v, err)
	}
	var head struct {
		Dir string `json:"dir"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return v, err
	}
	if filepath.Clean(head.Dir) != filepath.Clean(dir) {
		return v, fmt.Errorf("it belongs to %s, not %s", head.Dir, dir)
	}
	return v, nil
}

// SaveBaseline replaces the review baseline of b.Dir in root, atomically:
// a crash leaves the old baseline or the new one, never half of one. A
// baseline of a newer format, or one that cannot be read, is not replaced
// (a *StateError); one of an older format is kept beside it first (see
// stateKind.beforeSave).
func SaveBaseline(root string, b *model.Baseline) error {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	path := baselinePath(root, b.Dir)
	// The file there is read whole first: what cannot be read back, or a
	// newer memtui's, is not written over.
	done, err := baseline.beforeSave(path, func() (int, error) { return baselineOnDisk(path, b.Dir) })
	if err != nil {
		return err
	}
	raw, err := json.Marshal(baselineFile{Version: baseline.version, Baseline: *b})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	// The texts are the user's memories: private to them, like the journal.
	if err := maybe.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		return err
	}
	done()
	return nil
}

// sumHex is the hex sha256 memtui names file contents by.
func sumHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// OpenBaseline returns the review baseline of d. A directory never
// reviewed gets one recorded as of now, and first is true; with record
// false (--readonly) nothing is written and the baseline is nil. A
// baseline that cannot be read back is moved aside (see SetAside; left in
// place under --readonly) and a new one recorded: err names where it
// went. A baseline of a newer format, or one that could not be read now
// (an I/O error), is never replaced: the baseline is nil, first false and
// err says why. err also says why recording failed (the baseline nil).
func OpenBaseline(root string, d *model.MemoryDir, now time.Time, record bool) (b *model.Baseline, first bool, err error) {
	b, err = LoadBaseline(root, d.Path)
	if b != nil {
		return b, false, nil
	}
	if err != nil && !errors.Is(err, ErrCorruptState) {
		return nil, false, err
	}
	if !record {
		return nil, true, err
	}
	if err != nil {
		if err = SetAside(err, now); !MovedAside(err) {
			return nil, false, err
		}
		err = fmt.Errorf("%w; a new one was started", err)
	}
	b = model.NewBaseline(d, now, sumHex)
	if serr := SaveBaseline(root, b); serr != nil {
		return nil, true, errors.Join(err, serr)
	}
	return b, true, err
}
