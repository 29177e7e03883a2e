package app

import (
	"strings"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// kept are the texts memtui itself kept of d's memory files that are gone
// from disk (model.MemoryDir.Kept): the review baseline's and the
// snapshots', whole. A
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
	return append(out, w.keptInSnapshots(d, on)...)
}

// keptInSnapshots are the texts memtui's snapshots kept of d's files gone
// from disk: each file's in the newest snapshot that saw it, whole (not
// kept with a secret masked, nor left unread), with the time the next
// snapshot saw it gone.
func (w *Workspace) keptInSnapshots(d *model.MemoryDir, on map[string]bool) []model.KeptText {
	st := w.Snapshots()
	if st == nil {
		return nil
	}
	snaps, err := st.List(d.Path)
	if err != nil || len(snaps) == 0 {
		return nil
	}
	text := func(f model.SnapFile) (string, bool) {
		if f.Redacted || f.Missing || f.SHA256 == "" {
			return "", false
		}
		b, err := st.Text(f.SHA256)
		return string(b), err == nil
	}
	var out []model.KeptText
	done := map[string]bool{}
	for i := len(snaps) - 1; i >= 0; i-- {
		s := snaps[i]
		for rel, f := range s.Files {
			if done[rel] || on[rel] || rel == model.IndexFileName || strings.Contains(rel, model.Redacted) {
				continue
			}
			done[rel] = true
			t, ok := text(f)
			if !ok {
				continue
			}
			k := model.KeptText{Path: rel, Text: t, Source: "snapshot", Seen: s.Time}
			if i+1 < len(snaps) {
				k.Gone = snaps[i+1].Time
			}
			if ix, ok := s.Files[model.IndexFileName]; ok {
				k.Index, _ = text(ix)
			}
			out = append(out, k)
		}
	}
	return out
}

// onDisk are the paths of d's files on disk, MEMORY.md and those it could
// not read included.
func onDisk(d *model.MemoryDir) map[string]bool {
	on := map[string]bool{}
	for _, f := range dirFiles(d) {
		on[f.Path] = true
	}
	for _, p := range d.Problems {
		on[p.Path] = true
	}
	return on
}

// dirFiles are every file of d memtui read: its topic files, MEMORY.md
// and the memory stores' indexes (what a snapshot of d lists).
func dirFiles(d *model.MemoryDir) []*model.File {
	out := make([]*model.File, 0, len(d.Files)+1+len(d.StoreIndexes))
	out = append(out, d.Files...)
	if d.Index != nil {
		out = append(out, d.Index)
	}
	for _, si := range d.StoreIndexes {
		if si.File != nil {
			out = append(out, si.File)
		}
	}
	return out
}
