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

// baselineVersion guards the on-disk shape of a baseline file.
const baselineVersion = 1

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
// A baseline that cannot be read back is an error naming the file, so the
// caller can say so and start a fresh one.
func LoadBaseline(root, dir string) (*model.Baseline, error) {
	path := baselinePath(root, dir)
	// memtui's own file: a link, FIFO or device put in its place is
	// refused, and neither the file nor what it inflates to may pass
	// maxBaselineBytes.
	f, fi, err := openRead(path, noFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("review baseline: %w", err)
	}
	defer f.Close()
	if fi.Size() > maxBaselineBytes {
		return nil, fmt.Errorf("review baseline: %w", tooLargeErr(path, fi.Size(), maxBaselineBytes))
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("review baseline %s: %w", path, err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxBaselineBytes+1))
	if err != nil {
		return nil, fmt.Errorf("review baseline %s: %w", path, err)
	}
	if int64(len(raw)) > maxBaselineBytes {
		return nil, fmt.Errorf("review baseline %s: inflates to more than %s; not read", path, sizeText(maxBaselineBytes))
	}
	var bf baselineFile
	if err := json.Unmarshal(raw, &bf); err != nil {
		return nil, fmt.Errorf("review baseline %s: %w", path, err)
	}
	if bf.Version != baselineVersion {
		return nil, fmt.Errorf("review baseline %s: version %d, want %d", path, bf.Version, baselineVersion)
	}
	if filepath.Clean(bf.Dir) != filepath.Clean(dir) {
		return nil, fmt.Errorf("review baseline %s belongs to %s, not %s", path, bf.Dir, dir)
	}
	if bf.Files == nil {
		bf.Files = map[string]model.BaselineFile{}
	}
	b := bf.Baseline
	return &b, nil
}

// SaveBaseline replaces the review baseline of b.Dir in root, atomically:
// a crash leaves the old baseline or the new one, never half of one.
func SaveBaseline(root string, b *model.Baseline) error {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	raw, err := json.Marshal(baselineFile{Version: baselineVersion, Baseline: *b})
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
	return maybe.WriteFile(baselinePath(root, b.Dir), buf.Bytes(), 0o600)
}

// sumHex is the hex sha256 memtui names file contents by.
func sumHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// OpenBaseline returns the review baseline of d. A directory never
// reviewed (or whose baseline cannot be read back) gets one recorded as of
// now, and first is true; with record false (--readonly) nothing is
// written and the baseline is nil. err says why an unreadable baseline
// was replaced, or why recording failed (then the baseline is nil).
func OpenBaseline(root string, d *model.MemoryDir, now time.Time, record bool) (b *model.Baseline, first bool, err error) {
	b, err = LoadBaseline(root, d.Path)
	if b != nil {
		return b, false, nil
	}
	if !record {
		return nil, true, err
	}
	b = model.NewBaseline(d, now, sumHex)
	if serr := SaveBaseline(root, b); serr != nil {
		return nil, true, serr
	}
	return b, true, err
}
