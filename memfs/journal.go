package memfs

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
	"io/fs"
	"sort"
	"strings"
)

const (
	manifestName = "manifest.json"
	pendingDir   = "pending"
)

func readManifest(root, id string) (*JournalEntry, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return nil, errors.New("not a journal id: " + id)
	}
	// The manifest is read from inside the journal without following a
	// link: an entry dir or manifest swapped for one is not read.
	b, err := readIn(root, id+"/"+manifestName, maxManifestBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no journal entry " + id + " in " + root)
		}
		return nil, err
	}
	var m JournalEntry
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, errors.New("journal entry " + id + ": " + err.Error())
	}
	return &m, nil
}

// List returns the journal's entries, newest first (for `memtui undo
// --list`): applied ones (state committed), and those rolled back or undone.
// An unreadable manifest is skipped; an absent journal is empty.
func List(journalRoot string) ([]JournalEntry, error) {
	if journalRoot == "" {
		journalRoot = DefaultJournalRoot()
	}
	ents, err := readDir(journalRoot)
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
