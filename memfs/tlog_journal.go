package memfs

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/memtui/memtui/model"
)

// journalWrites turns memtui's own applied changes to the given memory
// dirs into writes (Kind WriteMemtui), one per file, so an analysis of
// lost text knows which removals were a reviewed change. An entry counts
// when it was committed, even if later undone (the undo is an entry of its
// own); a rolled-back entry changed nothing.
//
// Before is the entry's before-image (a create has Before ""). The journal
// keeps After only as a hash; it is filled in when those bytes are still
// at hand: as the before-image of a later entry, or as the file on disk.
func journalWrites(root string, dirs []string) ([]model.MemWrite, error) {
	entries, err := List(root)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		want[filepath.Clean(d)] = true
	}
	var ws []model.MemWrite
	var afters []string // sha256 of each write's result, "" for a delete
	known := make(map[string]string)
	for i := len(entries) - 1; i >= 0; i-- { // List is newest first
		e := &entries[i]
		dir := filepath.Clean(e.MemoryDir)
		if !want[dir] && e.RealDir != "" && want[filepath.Clean(e.RealDir)] {
			dir = filepath.Clean(e.RealDir) // the project knows the dir by its resolved path
		}
		if e.State != JournalCommitted && e.State != JournalUndone || !want[dir] {
			continue
		}
		for _, jf := range e.Files {
			if jf.State == "rolled_back" {
				continue
			}
			w := model.MemWrite{Path: filepath.Join(dir, filepath.FromSlash(jf.Path)), Kind: model.WriteMemtui, Time: e.Time}
			switch model.ChangeOp(jf.Op) {
			case model.OpCreate:
				w.Created, w.HasBefore = true, true
			case model.OpDelete:
				w.After, w.HasAfter = "", true // the file is gone
			}
			if jf.Image != "" {
				if b, err := os.ReadFile(filepath.Join(root, e.ID, jf.Image)); err == nil {
					w.Before, w.HasBefore = string(b), true
					known[w.Path+"\x00"+jf.Before] = w.Before
				}
			}
			ws = append(ws, w)
			afters = append(afters, jf.After)
		}
	}
	resolveAfters(ws, afters, known)
	return ws, nil
}

// resolveAfters fills in After from bytes whose hash matches.
func resolveAfters(ws []model.MemWrite, afters []string, known map[string]string) {
	onDisk := make(map[string]string) // path -> sha256 of its current content
	for i := range ws {
		w := &ws[i]
		if w.HasAfter || afters[i] == "" {
			continue
		}
		if c, ok := known[w.Path+"\x00"+afters[i]]; ok {
			w.After, w.HasAfter = c, true
			continue
		}
		sum, ok := onDisk[w.Path]
		if !ok {
			b, err := os.ReadFile(w.Path)
			if err == nil {
				h := sha256.Sum256(b)
				sum = hex.EncodeToString(h[:])
				known[w.Path+"\x00"+sum] = string(b)
			}
			onDisk[w.Path] = sum
		}
		if sum == afters[i] {
			w.After, w.HasAfter = known[w.Path+"\x00"+sum], true
		}
	}
}
