package app

import (
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// reviewed carries a write a person reviewed into its dir's review
// baseline, so memtui's own write is not a change to review again: a file
// the baseline holds as the write found it (nothing unreviewed in it) is
// recorded as the write left it, a file it created is recorded, one it
// deleted or moved goes or follows. A file that had changed since the
// review keeps its baseline: that change still shows, with this write in
// it. Nothing is recorded under --readonly or without a baseline.
func (w *Workspace) reviewed(dir string, p model.Proposal, journalID string) {
	if w.ReadOnly || w.State.Seen == "" || journalID == "" {
		return
	}
	b, err := memfs.LoadBaseline(w.State.Seen, dir)
	if err != nil || b == nil {
		return
	}
	e, err := txn.ReadEntry(w.JournalRoot(), journalID)
	if err != nil {
		return
	}
	// The text written is the proposal's, unless the write redacted a
	// secret on the way: then its hash differs and the file is left.
	written := map[string]string{}
	for _, c := range p.Changes {
		if c.Op == model.OpUpdate || c.Op == model.OpCreate {
			written[c.Path] = c.After
		}
	}
	text := func(path, sum string) (string, bool) {
		t, ok := written[path]
		return t, ok && consolidate.SHA256Hex([]byte(t)) == sum
	}
	changed := false
	for _, f := range e.Files {
		old, known := b.Files[f.Path]
		switch model.ChangeOp(f.Op) {
		case model.OpCreate:
			if t, ok := text(f.Path, f.After); !known && ok {
				b.Files[f.Path] = model.BaselineFile{SHA256: f.After, Text: t}
				changed = true
			}
		case model.OpUpdate:
			if t, ok := text(f.Path, f.After); known && old.SHA256 == f.Before && ok {
				b.Files[f.Path] = model.BaselineFile{SHA256: f.After, Text: t, Time: old.Time}
				changed = true
			}
		case model.OpDelete:
			if known && old.SHA256 == f.Before {
				delete(b.Files, f.Path)
				changed = true
			}
		case model.OpMove:
			if from, ok := b.Files[f.From]; ok && from.SHA256 == f.Before {
				if _, taken := b.Files[f.Path]; !taken {
					delete(b.Files, f.From)
					b.Files[f.Path] = from
					changed = true
				}
			}
		}
	}
	if changed {
		if err := memfs.SaveBaseline(w.State.Seen, b); err != nil {
			w.note("memtui: the review baseline of %s: %s", dir, err.Error())
		}
	}
}
