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

// decisions is the review decisions' kind of state file: format 1 since
// memtui first kept them.
var decisions = &stateKind{what: "review decisions", key: "version", version: 1}

const (
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
// root; none is an empty map and no error. An older format is migrated as
// it is read. A file of a newer format, or one that cannot be read back,
// is a *StateError naming it (ErrNewerFormat, ErrCorruptState; the
// decisions then start empty) and is left as it is: SetAside moves the
// latter out of the way, and SaveDecisions replaces neither.
func LoadDecisions(root, dir string) (map[string]model.Decision, error) {
	ds, _, err := loadDecisions(decisionsPath(root, dir), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]model.Decision{}, nil
	}
	if err != nil {
		return map[string]model.Decision{}, err
	}
	return ds, nil
}

// loadDecisions reads the decisions of dir at path, and the format they
// were in (fs.ErrNotExist when there are none).
func loadDecisions(path, dir string) (map[string]model.Decision, int, error) {
	raw, err := readDecisions(path)
	if err != nil {
		return nil, 0, err
	}
	var df decisionsFile
	v, err := decisions.decode(path, raw, &df)
	if err != nil {
		return nil, v, err
	}
	if filepath.Clean(df.Dir) != filepath.Clean(dir) {
		return nil, v, decisions.corrupt(path, fmt.Errorf("they belong to %s, not %s", df.Dir, dir))
	}
	if df.Decisions == nil {
		df.Decisions = map[string]model.Decision{}
	}
	return df.Decisions, v, nil
}

// readDecisions reads the decisions file at path as every file is read:
// no link or FIFO in its place, refused past the cap however it grows
// while read (those are *StateErrors: not a file memtui wrote); an I/O
// error is returned as it is.
func readDecisions(path string) ([]byte, error) {
	raw, err := readFile(path, maxDecisionsBytes, noFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case IsRefused(err):
		return nil, decisions.corrupt(path, UnwrapPathErr(err))
	case err != nil:
		return nil, fmt.Errorf("review decisions: %w", err)
	}
	return raw, nil
}

// SaveDecisions replaces dir's decisions in root, atomically; none left
// removes the file. A file of a newer format, or one that cannot be read,
// is neither replaced nor removed (a *StateError); one of an older format
// is kept beside it first (see stateKind.beforeSave).
func SaveDecisions(root, dir string, ds map[string]model.Decision) error {
	path := decisionsPath(root, dir)
	done, err := decisions.beforeSave(path, func() (int, error) {
		_, v, err := loadDecisions(path, dir)
		return formatOnDisk(v, err)
	})
	if err != nil {
		return err
	}
	if len(ds) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		done()
		return nil
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	raw, err := json.Marshal(decisionsFile{Version: decisions.version, Dir: filepath.Clean(dir), Decisions: ds})
	if err != nil {
		return err
	}
	// Titles quote memories: private to the user, like the baselines.
	if err := maybe.WriteFile(path, raw, 0o600); err != nil {
		return err
	}
	done()
	return nil
}
