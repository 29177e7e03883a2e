package app

import (
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// kept are the texts memtui itself kept of d's memory files that are gone
// from disk (model.MemoryDir.Kept): the review baseline's, whole. A
// deleted memory's last text can come from them when no transcript
// holds it.
func (w *Workspace) kept(d *model.MemoryDir) []model.KeptText {
	on := onDisk(d)
	var out []model.KeptText
	if w.State.Seen != "" {
		if b, err := memfs.LoadBaseline(w.State.Seen, d.Path); err == nil && b != nil {
			ix := ""
			if f, ok := b.Files[model.IndexFileName]; ok && !f.Partial {
				ix = f.Text
			}
			for rel, f := range b.Files {
				// Only a text that is the file it names, whole.
				if on[rel] || f.Partial || f.Text == "" || rel == model.IndexFileName || consolidate.SHA256Hex([]byte(f.Text)) != f.SHA256 {
					continue
				}
				seen := b.Time
				if f.Time.After(seen) {
					seen = f.Time
				}
				out = append(out, model.KeptText{Path: rel, Text: f.Text, Source: "review baseline", Seen: seen, Index: ix})
			}
		}
	}
	return out
}

// onDisk are the paths of d's files on disk, MEMORY.md and those it could
// not read included.
func onDisk(d *model.MemoryDir) map[string]bool {
	on := map[string]bool{}
	if d.Index != nil {
		on[model.IndexFileName] = true
	}
	for _, f := range d.Files {
		on[f.Path] = true
	}
	for _, p := range d.Problems {
		on[p.Path] = true
	}
	return on
}
