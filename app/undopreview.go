package app

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// UndoPreview is what undoing a journal entry would do, file by file: a
// change over each file as it is now, the diff a person reads before
// saying yes.
type UndoPreview struct {
	// Changes put each file back: a before-image over an update, the
	// delete of a file the entry created, a deleted file recreated, a
	// move made back.
	Changes []model.Change
	// Before is the current text of each change's file ("" where there
	// is none), in the order of Changes.
	Before []string
	// Changed names the files changed since the entry wrote them (or,
	// for a file it deleted, made again): undo refuses the whole entry,
	// nothing written.
	Changed []string
	// Unread says which files or images could not be read, and why.
	Unread []string
}

// UndoPreview works out what undoing e would do (a committed entry; the
// others have nothing to undo and give an empty preview). It reads the
// entry's before-images and the files as they are now, both through the
// safe reader, and writes nothing.
func (w *Workspace) UndoPreview(e txn.JournalEntry) UndoPreview {
	var pv UndoPreview
	if e.State != txn.JournalCommitted {
		return pv
	}
	entry := filepath.Join(w.JournalRoot(), e.ID)
	now := func(rel string) (string, bool) {
		b, err := memfs.ReadImage(e.MemoryDir, rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", false
		case err != nil:
			pv.Unread = append(pv.Unread, rel+": "+err.Error())
			return "", false
		}
		return string(b), true
	}
	image := func(jf txn.JournalFile) (string, bool) {
		b, err := memfs.ReadImage(entry, jf.Image)
		if err != nil {
			pv.Unread = append(pv.Unread, jf.Path+" as it was before: "+err.Error())
			return "", false
		}
		return string(b), true
	}
	add := func(c model.Change, before string) {
		pv.Changes = append(pv.Changes, c)
		pv.Before = append(pv.Before, before)
	}
	for _, jf := range e.Files {
		switch model.ChangeOp(jf.Op) {
		case model.OpUpdate:
			cur, ok := now(jf.Path)
			if !ok || consolidate.SHA256Hex([]byte(cur)) != jf.After {
				pv.Changed = append(pv.Changed, jf.Path)
			}
			if img, ok := image(jf); ok {
				add(model.Change{Path: jf.Path, Op: model.OpUpdate, After: img}, cur)
			}
		case model.OpCreate:
			cur, ok := now(jf.Path)
			if !ok || consolidate.SHA256Hex([]byte(cur)) != jf.After {
				pv.Changed = append(pv.Changed, jf.Path)
			}
			add(model.Change{Path: jf.Path, Op: model.OpDelete}, cur)
		case model.OpDelete:
			if _, ok := now(jf.Path); ok {
				pv.Changed = append(pv.Changed, jf.Path)
			}
			if img, ok := image(jf); ok {
				add(model.Change{Path: jf.Path, Op: model.OpCreate, After: img}, "")
			}
		case model.OpMove:
			cur, ok := now(jf.Path)
			if !ok || jf.After != "" && consolidate.SHA256Hex([]byte(cur)) != jf.After {
				pv.Changed = append(pv.Changed, jf.Path)
			}
			add(model.Change{Path: jf.From, From: jf.Path, Op: model.OpMove}, "")
		}
	}
	return pv
}
