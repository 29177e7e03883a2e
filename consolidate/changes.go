package consolidate

import (
	"sort"
	"time"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/model"
)

// DeltaKind says how a file changed since the last review.
type DeltaKind string

// Kinds of change since the last review.
const (
	DeltaCreated DeltaKind = "created"
	DeltaChanged DeltaKind = "changed"
	DeltaDeleted DeltaKind = "deleted"
)

// Delta is one memory file created, changed or deleted since the directory
// was last reviewed.
type Delta struct {
	Path   string // relative to the memory dir, slash-separated
	Kind   DeltaKind
	Before string // as reviewed; "" for a created file
	After  string // as it is now; "" for a deleted file
	// Writes are the recorded writes to the file since the review, oldest
	// first: who changed it, when possible to tell.
	Writes []model.MemWrite
}

// Change expresses the delta as a proposal change, for the diff printers.
func (d Delta) Change() model.Change {
	switch d.Kind {
	case DeltaCreated:
		return model.Change{Path: d.Path, Op: model.OpCreate, After: d.After}
	case DeltaDeleted:
		return model.Change{Path: d.Path, Op: model.OpDelete}
	}
	return model.Change{Path: d.Path, Op: model.OpUpdate, After: d.After}
}

// ChangesSince compares directory d with its review baseline and returns
// every file created, changed or deleted since, sorted by path, each with
// the transcripts' recorded writes to it after the review (log may be nil).
// A nil baseline means the directory was never reviewed: nothing has
// changed "since", and the caller records one.
func ChangesSince(d *model.MemoryDir, base *model.Baseline, log *model.TranscriptLog) []Delta {
	if base == nil {
		return nil
	}
	var out []Delta
	seen := make(map[string]bool, len(d.Files)+1)
	visit := func(f *model.File) {
		seen[f.Path] = true
		was, ok := base.Files[f.Path]
		switch {
		case !ok:
			out = append(out, Delta{Path: f.Path, Kind: DeltaCreated, After: string(f.Content)})
		case was.SHA256 != SHA256Hex(f.Content):
			out = append(out, Delta{Path: f.Path, Kind: DeltaChanged, Before: was.Text, After: string(f.Content)})
		}
	}
	if d.Index != nil {
		visit(d.Index)
	}
	for _, f := range d.Files {
		visit(f)
	}
	for path, was := range base.Files {
		if !seen[path] {
			out = append(out, Delta{Path: path, Kind: DeltaDeleted, Before: was.Text})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if log != nil && len(out) > 0 {
		prov := forensics.Provenance(d, log)
		for i := range out {
			since := base.Time
			if t := base.Files[out[i].Path].Time; t.After(since) {
				since = t
			}
			for _, w := range prov[out[i].Path] {
				if w.Time.After(since) {
					out[i].Writes = append(out[i].Writes, w)
				}
			}
		}
	}
	return out
}

// MarkSeen returns base with the named file recorded as it is in d now (or
// dropped, when d no longer has it), leaving every other file's baseline
// alone: a person acknowledging one change at a time. base may be nil.
func MarkSeen(base *model.Baseline, d *model.MemoryDir, path string, now time.Time) *model.Baseline {
	nb := &model.Baseline{Dir: d.Path, Files: map[string]model.BaselineFile{}}
	if base != nil {
		nb.Time = base.Time
		for k, v := range base.Files {
			nb.Files[k] = v
		}
	}
	delete(nb.Files, path)
	if d.Index != nil && d.Index.Path == path {
		nb.Files[path] = model.BaselineFile{SHA256: SHA256Hex(d.Index.Content), Text: string(d.Index.Content), Time: now.UTC(), Partial: d.Index.Truncated}
	}
	for _, f := range d.Files {
		if f.Path == path {
			nb.Files[path] = model.BaselineFile{SHA256: SHA256Hex(f.Content), Text: string(f.Content), Time: now.UTC(), Partial: f.Truncated}
		}
	}
	return nb
}
