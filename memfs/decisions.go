package memfs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2/maybe"

	"github.com/memtui/memtui/model"
)

// The review decisions of a memory directory (model.Decision, by proposal
// ID) are kept beside its review baseline, in the same owner-only root
// (StateDirs.Seen): what a person accepted or rejected survives a restart.

const (
	decisionsVersion = 1
	// maxDecisionsBytes bounds the file read back: a proposal's decision
	// is a few hundred bytes, and the file is memtui's own.
	maxDecisionsBytes = 8 << 20
)

type decisionsFile struct {
	Version   int                       `json:"version"`
	Dir       string                    `json:"dir"`
	Decisions map[string]model.Decision `json:"decisions"`
}

// decisionsPath names dir's decisions inside root, by a hash of its path
// as the baseline is (the path itself is stored inside and checked).
func decisionsPath(root, dir string) string { return dirFile(root, dir, ".decisions.json") }

// LoadDecisions reads the review decisions of memory directory dir from
// root; none is an empty map and no error. A file that cannot be read
// back is an error naming it (the decisions then start empty).
func LoadDecisions(root, dir string) (map[string]model.Decision, error) {
	path := decisionsPath(root, dir)
	// memtui's own file, read as every file is: no link or FIFO in its
	// place, refused past the cap, however it grows while read.
	raw, err := readFile(path, maxDecisionsBytes, noFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]model.Decision{}, nil
	}
	if err != nil {
		return map[string]model.Decision{}, fmt.Errorf("review decisions: %w", err)
	}
	var df decisionsFile
	switch err := json.Unmarshal(raw, &df); {
	case err != nil:
		return map[string]model.Decision{}, fmt.Errorf("review decisions %s: %w", path, err)
	case df.Version != decisionsVersion:
		return map[string]model.Decision{}, fmt.Errorf("review decisions %s: version %d, want %d", path, df.Version, decisionsVersion)
	case filepath.Clean(df.Dir) != filepath.Clean(dir):
		return map[string]model.Decision{}, fmt.Errorf("review decisions %s belong to %s, not %s", path, df.Dir, dir)
	}
	if df.Decisions == nil {
		df.Decisions = map[string]model.Decision{}
	}
	return df.Decisions, nil
}

// SaveDecisions replaces dir's decisions in root, atomically; none left
// removes the file.
func SaveDecisions(root, dir string, ds map[string]model.Decision) error {
	path := decisionsPath(root, dir)
	if len(ds) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	raw, err := json.Marshal(decisionsFile{Version: decisionsVersion, Dir: filepath.Clean(dir), Decisions: ds})
	if err != nil {
		return err
	}
	// Titles quote memories: private to the user, like the baselines.
	return maybe.WriteFile(path, raw, 0o600)
}
