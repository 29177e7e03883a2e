package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"time"
)

// reviewedFS holds the files that differed when the demo's user last
// reviewed a memory dir: reviewed/<dir>/<file> is the text they saw.
//
//go:embed reviewed
var reviewedFS embed.FS

// Review is a memory dir of the sample as its user last reviewed it,
// before the sessions that wrote into it since: what memtui's "changes
// since the review" starts from on the demo's first run. It is said as a
// difference from the sample, so the files a review records stay those
// memtui's own scan finds.
type Review struct {
	// Dir is the memory dir, slash-separated and relative to the config
	// dir (FS's root).
	Dir string
	// Time is when the review happened.
	Time time.Time
	// Absent are the files created since the review (paths relative to
	// Dir): the review never saw them.
	Absent []string
	// Texts are the reviewed texts of the files changed since, keyed by
	// path relative to Dir.
	Texts map[string]string
}

// reviews are the sample's reviewed dirs; the reviewed texts are the files
// under reviewed/<dir>/.
//
// ml-pipeline was reviewed on the evening of 2026-11-10. The next morning
// e7a9c1d3 created project_eval_metrics.md and added its index entry, and
// f8b0d2e4, working from the MEMORY.md both had read (the reviewed text),
// rewrote the index's GPU budget line and, writing the whole file, dropped
// that entry. So the first run shows the parallel session as changes: a
// new memory, and an index one line away from the review where two
// sessions meant to change two.
var reviews = []Review{{
	Dir:    "projects/-home-dev-ml-pipeline/memory",
	Time:   time.Date(2026, 11, 10, 18, 0, 0, 0, time.UTC),
	Absent: []string{"project_eval_metrics.md"},
}}

// Reviewed returns the sample's reviewed memory dirs. It checks them
// against the sample: an absent file or a reviewed text must name a file
// the sample holds.
func Reviewed() ([]Review, error) {
	out := make([]Review, 0, len(reviews))
	for _, r := range reviews {
		rv := Review{Dir: r.Dir, Time: r.Time, Absent: r.Absent, Texts: map[string]string{}}
		for _, a := range r.Absent {
			if _, err := fs.Stat(FS(), path.Join(r.Dir, a)); err != nil {
				return nil, fmt.Errorf("demo: reviewed %s: %w", r.Dir, err)
			}
		}
		changed, err := fs.Sub(reviewedFS, path.Join("reviewed", r.Dir))
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		err = fs.WalkDir(changed, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if _, err := fs.Stat(FS(), path.Join(r.Dir, p)); err != nil {
				return fmt.Errorf("reviewed %s: %w", r.Dir, err)
			}
			b, err := fs.ReadFile(changed, p)
			if err != nil {
				return err
			}
			rv.Texts[p] = string(b)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		out = append(out, rv)
	}
	return out, nil
}
