package txn

// The journal's on-disk layout, outside every memory dir:
//
//	<root>/<id>/manifest.json    a JournalEntry
//	<root>/<id>/before/<n>       the before-image of change n (update, delete)
//	<root>/<id>/deleted/<n>      the file change n deleted, moved here
//	<root>/<id>/salvage/...      bytes a rollback could not put back, or may see lost (named in Notes)
//	<root>/pending/<id>          present while entry <id> is not finished
//	<root>/../locks/<hash>.lock  memtui's flock for one memory dir
//
// An id is the UTC time to the nanosecond plus 8 random hex digits, so ids
// sort by time.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/memfs"
)

const (
	manifestName = "manifest.json"
	// pendingDir is memfs.JournalPendingDir: memfs's TightenState knows it
	// too, and leaves the files of an unfinished entry as they are.
	pendingDir = memfs.JournalPendingDir
	// maxManifestBytes caps one journal manifest: a path, two hashes and
	// a state per changed file, so even a change to 200,000 files fits.
	maxManifestBytes int64 = 64 << 20
)

func readManifest(root, id string) (*JournalEntry, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return nil, errors.New("not a journal id: " + id)
	}
	// The manifest is read from inside the journal without following a
	// link: an entry dir or manifest swapped for one is not read.
	b, err := memfs.ReadIn(root, id+"/"+manifestName, maxManifestBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no journal entry " + id + " in " + root)
		}
		return nil, err
	}
	var m JournalEntry
	if err := json.Unmarshal(b, &m); err != nil {
		// A newer memtui's manifest may not fit today's struct: its
		// version says so first.
		if v, ok := manifestVersion(b); ok && v > journalVersion {
			return nil, newerEntry(id, v)
		}
		return nil, errors.New("journal entry " + id + ": " + err.Error())
	}
	switch {
	case m.Version > journalVersion:
		return nil, newerEntry(id, m.Version)
	case m.Version < 1:
		return nil, errors.New("journal entry " + id + ": no format version: not an entry memtui wrote; left as it is")
	}
	return &m, nil
}

// journalVersion is the format of the journal's manifests this memtui
// reads: 1 since the journal began. Fields added since (before_mtime_ns,
// from and made_dirs, linked, notes, foreign_temp_dir) are optional, and
// their absence means what entries written before them did. An entry of a
// later format is read by no function here: Recover skips it (its pending
// mark stays), Undo refuses it, List and so PruneJournal leave it out, so
// it is never rolled back, undone or pruned with rules it was not written
// for, and stays for the memtui that wrote it.
const journalVersion = 1

// manifestVersion reads the version of a manifest today's struct cannot
// hold.
func manifestVersion(b []byte) (int, bool) {
	var v struct {
		Version int `json:"version"`
	}
	return v.Version, json.Unmarshal(b, &v) == nil
}

func newerEntry(id string, v int) error {
	return fmt.Errorf("journal entry %s is in format %d, written by a newer memtui (this one reads format %d): %w; left as it is", id, v, journalVersion, memfs.ErrNewerFormat)
}

// List returns the journal's entries, newest first (for `memtui undo
// --list`): applied ones (state committed), and those rolled back or undone.
// An unreadable manifest is skipped; an absent journal is empty.
func List(journalRoot string) ([]JournalEntry, error) {
	if journalRoot == "" {
		journalRoot = DefaultJournalRoot()
	}
	ents, err := memfs.ReadDir(journalRoot)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []JournalEntry
	for _, e := range ents {
		if !e.IsDir() || e.Name() == pendingDir {
			continue
		}
		m, err := readManifest(journalRoot, e.Name())
		if err != nil {
			continue
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(a, b int) bool {
		if !out[a].Time.Equal(out[b].Time) {
			return out[a].Time.After(out[b].Time)
		}
		return out[a].ID > out[b].ID
	})
	return out, nil
}

// InScope reports whether journal entry e is of one of the memory dirs
// dirs (compared as given and with symlinks resolved): `undo` and the
// TUI's journal act only on the directories in view.
func InScope(e JournalEntry, dirs []string) bool {
	return newScope(dirs).has(e)
}

// Scope keeps the entries of dirs (see InScope), in order.
func Scope(es []JournalEntry, dirs []string) []JournalEntry {
	sc := newScope(dirs)
	var out []JournalEntry
	for _, e := range es {
		if sc.has(e) {
			out = append(out, e)
		}
	}
	return out
}

// dirSet is a set of memory dirs, each as given and resolved.
type dirSet map[string]bool

func newScope(dirs []string) dirSet {
	sc := dirSet{}
	for _, d := range dirs {
		sc[filepath.Clean(d)] = true
		if r, err := filepath.EvalSymlinks(d); err == nil {
			sc[r] = true
		}
	}
	return sc
}

func (sc dirSet) has(e JournalEntry) bool {
	return (e.MemoryDir != "" && sc[filepath.Clean(e.MemoryDir)]) || (e.RealDir != "" && sc[filepath.Clean(e.RealDir)])
}

// ReadEntry returns journal entry id of root (an error when there is none).
func ReadEntry(root, id string) (*JournalEntry, error) {
	if root == "" {
		root = DefaultJournalRoot()
	}
	return readManifest(root, id)
}

// PrunedEntry is one journal entry a prune drops (or would drop).
type PrunedEntry struct {
	JournalEntry
	// Files is how many files the entry held (before-images, deleted
	// memories, salvaged bytes; the manifest not counted), Bytes their
	// total size.
	Files int
	Bytes int64
}

// PruneJournal drops the journal entries older than cutoff (with dryRun,
// only says which): applied, undone and rolled-back entries alike, each
// with its before-images and the memories it deleted, so they can no
// longer be undone. An entry not yet finished (a crash's, waiting for
// recovery) is never dropped. Entries come back oldest first.
func PruneJournal(root string, cutoff time.Time, dryRun bool) ([]PrunedEntry, error) {
	if root == "" {
		root = DefaultJournalRoot()
	}
	es, err := List(root)
	if err != nil {
		return nil, err
	}
	var out []PrunedEntry
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		if !e.Time.Before(cutoff) || e.State == JournalPrepared {
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, pendingDir, e.ID)); err == nil {
			continue
		}
		p := PrunedEntry{JournalEntry: e}
		dir := filepath.Join(root, e.ID)
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path == filepath.Join(dir, manifestName) {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				p.Files++
				p.Bytes += fi.Size()
			}
			return nil
		})
		if !dryRun {
			if err := os.RemoveAll(dir); err != nil {
				return out, err
			}
		}
		out = append(out, p)
	}
	return out, nil
}
