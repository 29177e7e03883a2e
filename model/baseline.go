package model

import "time"

// Baseline is what one memory directory looked like when a person last
// reviewed it in memtui: the reference "changes since you last looked" are
// measured against.
type Baseline struct {
	// Dir is the memory directory's absolute path.
	Dir string `json:"dir"`
	// Time is when the baseline was taken (the review).
	Time time.Time `json:"time"`
	// Files are keyed by path relative to Dir, slash-separated.
	Files map[string]BaselineFile `json:"files"`
}

// BaselineFile is one file as it was reviewed.
type BaselineFile struct {
	SHA256 string `json:"sha256"`
	// Text is the content as reviewed, kept so a change can be shown as a
	// diff. Content memtui read only in part is kept in part.
	Text string `json:"text"`
	// Time is when this file alone was marked seen, when that is later
	// than the whole directory's review; zero otherwise.
	Time time.Time `json:"time,omitzero"`
	// Partial says Text is the part memtui read of a file too large to
	// read whole (and SHA256 that part's): nothing may be put back from it.
	Partial bool `json:"partial,omitzero"`
}

// NewBaseline records every file of d as it is now, at time now. hash
// computes the hex digest (model stays free of crypto choices).
func NewBaseline(d *MemoryDir, now time.Time, hash func([]byte) string) *Baseline {
	b := &Baseline{Dir: d.Path, Time: now.UTC(), Files: make(map[string]BaselineFile, len(d.Files)+1)}
	if d.Index != nil {
		b.Files[d.Index.Path] = BaselineFile{SHA256: hash(d.Index.Content), Text: string(d.Index.Content), Partial: d.Index.Truncated}
	}
	for _, f := range d.Files {
		b.Files[f.Path] = BaselineFile{SHA256: hash(f.Content), Text: string(f.Content), Partial: f.Truncated}
	}
	return b
}
