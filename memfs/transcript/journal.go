package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
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
// Every file is read with the safe reader, walking down from its directory
// without following a symlink: a memory file replaced since by a FIFO, a
// link (to /dev/zero, or out of the dir) or a huge file is not read, and
// probs says so.
func journalWrites(root string, jl *journalListing, dirs []string) (ws []model.MemWrite, probs []string, err error) {
	entries, err := jl.list(root)
	if err != nil {
		return nil, nil, err
	}
	want := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		want[filepath.Clean(d)] = true
	}
	var ats []afterAt
	known := make(map[string]string)
	for i := len(entries) - 1; i >= 0; i-- { // List is newest first
		e := &entries[i]
		dir := filepath.Clean(e.MemoryDir)
		if !want[dir] && e.RealDir != "" && want[filepath.Clean(e.RealDir)] {
			dir = filepath.Clean(e.RealDir) // the project knows the dir by its resolved path
		}
		if e.State != txn.JournalCommitted && e.State != txn.JournalUndone || !want[dir] {
			continue
		}
		for _, jf := range e.Files {
			if jf.State == "rolled_back" {
				continue
			}
			if model.ChangeOp(jf.Op) == model.OpMove {
				// A move takes the file away from From and puts the same
				// bytes at Path: a delete there and a create here, so the
				// text leaving From is known to be a reviewed change.
				del := model.MemWrite{Path: filepath.Join(dir, filepath.FromSlash(jf.From)), Kind: model.WriteMemtui, Time: e.Time, HasAfter: true}
				cre := model.MemWrite{Path: filepath.Join(dir, filepath.FromSlash(jf.Path)), Kind: model.WriteMemtui, Time: e.Time, Created: true, HasBefore: true}
				if jf.Image != "" {
					b, err := memfs.ReadImage(root, e.ID+"/"+jf.Image)
					switch {
					case err == nil:
						del.Before, del.HasBefore = string(b), true
						cre.After, cre.HasAfter = string(b), true
						known[del.Path+"\x00"+jf.Before] = del.Before
						known[cre.Path+"\x00"+jf.After] = cre.After
					case !errors.Is(err, fs.ErrNotExist):
						probs = append(probs, fmt.Sprintf("memtui's journal entry %s: the before-image of %s was not read: %v", e.ID, del.Path, memfs.UnwrapPathErr(err)))
					}
				}
				ws = append(ws, del, cre)
				ats = append(ats, afterAt{dir: dir, rel: jf.From}, afterAt{dir: dir, rel: jf.Path, sum: jf.After})
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
				b, err := memfs.ReadImage(root, e.ID+"/"+jf.Image)
				switch {
				case err == nil:
					w.Before, w.HasBefore = string(b), true
					known[w.Path+"\x00"+jf.Before] = w.Before
				case !errors.Is(err, fs.ErrNotExist):
					probs = append(probs, fmt.Sprintf("memtui's journal entry %s: the before-image of %s was not read: %v", e.ID, w.Path, memfs.UnwrapPathErr(err)))
				}
			}
			ws = append(ws, w)
			ats = append(ats, afterAt{dir: dir, rel: jf.Path, sum: jf.After})
		}
	}
	probs = append(probs, resolveAfters(ws, ats, known)...)
	return ws, probs, nil
}

// journalListing lists the journal once for all the projects of one
// ReadAll call: each project takes the entries of its own dirs
// from it, where listing it per project read every manifest once per
// project.
type journalListing struct {
	once    sync.Once
	entries []txn.JournalEntry
	err     error
}

// list is txn.List(root), done once; the entries are shared, read only. A
// nil *journalListing lists every time.
func (jl *journalListing) list(root string) ([]txn.JournalEntry, error) {
	if jl == nil {
		return txn.List(root)
	}
	jl.once.Do(func() { jl.entries, jl.err = txn.List(root) })
	return jl.entries, jl.err
}

// afterAt is where a journaled write's result is (its dir and the path
// the record gives inside it) and its sha256, "" for a delete.
type afterAt struct {
	dir, rel, sum string
}

// resolveAfters fills in After from bytes whose hash matches: known
// before-images first, else the file now on disk, read once per path (a
// file that hashes to no wanted After is not kept). It returns why a file
// on disk could not be read; one that is gone is no problem.
func resolveAfters(ws []model.MemWrite, ats []afterAt, known map[string]string) (probs []string) {
	wanted := make(map[string]bool)
	for i := range ws {
		if !ws[i].HasAfter && ats[i].sum != "" {
			wanted[ws[i].Path+"\x00"+ats[i].sum] = true
		}
	}
	onDisk := make(map[string]string) // path -> sha256 of its current content
	for i := range ws {
		w := &ws[i]
		if w.HasAfter || ats[i].sum == "" {
			continue
		}
		if c, ok := known[w.Path+"\x00"+ats[i].sum]; ok {
			w.After, w.HasAfter = c, true
			continue
		}
		sum, ok := onDisk[w.Path]
		if !ok {
			b, err := memfs.ReadImage(ats[i].dir, ats[i].rel)
			switch {
			case err == nil:
				h := sha256.Sum256(b)
				sum = hex.EncodeToString(h[:])
				if wanted[w.Path+"\x00"+sum] {
					known[w.Path+"\x00"+sum] = string(b)
				}
			case !errors.Is(err, fs.ErrNotExist):
				probs = append(probs, fmt.Sprintf("%s was not compared with what memtui wrote there: %v", w.Path, memfs.UnwrapPathErr(err)))
			}
			onDisk[w.Path] = sum
		}
		if sum == ats[i].sum {
			w.After, w.HasAfter = known[w.Path+"\x00"+sum], true
		}
	}
	return probs
}
