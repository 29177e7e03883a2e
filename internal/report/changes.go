package report

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
)

// DirChanges is one memory directory's changes since its last review.
type DirChanges struct {
	Project string
	Dir     string
	// Reviewed is when the baseline was taken; FirstLook is true when
	// there was none and this run recorded it.
	Reviewed  time.Time
	FirstLook bool
	// Unrecorded is true for a first look --readonly kept from recording.
	Unrecorded bool
	Deltas     []consolidate.Delta
	Log        *model.TranscriptLog // for session titles; may be nil
}

// Changes writes, per directory, every file created, changed or deleted
// since the last review as a unified diff, under a line naming the
// sessions that wrote it (or saying that none recorded did).
func Changes(w io.Writer, dirs []DirChanges, st DiffStyles, home string, width int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head, title, why := paint.New(st.ID), paint.New(st.Title), paint.New(st.Rationale)
	dp := newDiffPainters(st)
	total, first, unrecorded := 0, 0, false
	for _, d := range dirs {
		if d.FirstLook {
			first++
			unrecorded = unrecorded || d.Unrecorded
			continue
		}
		if len(d.Deltas) == 0 {
			continue
		}
		if total > 0 {
			bw.WriteString("\n")
		}
		total += len(d.Deltas)
		fmt.Fprintf(bw, "%s  %s\n", head.Paint(safe.ShowLine(Tilde(d.Dir, home))),
			why.Paint(fmt.Sprintf("%d %s since the review of %s", len(d.Deltas), Plural(len(d.Deltas), "change", "changes"), d.Reviewed.UTC().Format("2006-01-02 15:04 UTC"))))
		for _, c := range d.Deltas {
			bw.WriteString("\n" + title.Paint(string(c.Kind)+" "+safe.ShowLine(c.Path)) + "\n")
			for _, l := range writerLines(c, d.Log) {
				bw.WriteString(why.Paint(hang(safe.ShowLine(l), width, 2)) + "\n")
			}
			// Before comes from the review baseline: text from state is
			// masked as text from disk is.
			writeDiff(bw, DiffLines(c.Change(), c.Before), dp)
		}
	}
	var sum string
	switch {
	case total == 0:
		sum = "no changes since the last review"
	default:
		sum = fmt.Sprintf("%d %s since the last review", total, Plural(total, "change", "changes"))
	}
	if first > 0 {
		what := "recorded as reviewed"
		if unrecorded {
			what = "nothing recorded (--readonly)"
		}
		sum += fmt.Sprintf("; first look at %d %s: %s", first, Plural(first, "directory", "directories"), what)
	}
	if total > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString(paint.New(st.Summary).Paint(sum) + "\n")
	return bw.Flush()
}

// writerLines says who wrote a changed file since the review.
func writerLines(c consolidate.Delta, log *model.TranscriptLog) []string {
	if len(c.Writes) == 0 {
		if log == nil {
			return []string{"  who wrote it is not known: the transcripts were not read"}
		}
		if c.Kind == consolidate.DeltaDeleted {
			return []string{"  no recorded session deleted it (memtui, a person, a script or Claude Code's background consolidation)"}
		}
		return []string{"  no recorded session wrote it (a person, a script, or a session whose transcript is gone)"}
	}
	out := make([]string, 0, len(c.Writes))
	for _, w := range c.Writes {
		out = append(out, "  by "+forensics.WriterLabel(w, log))
	}
	return out
}

// ChangesJSON writes the changes as {"version":1,"dirs":[...]}.
func ChangesJSON(w io.Writer, dirs []DirChanges) error {
	type writeJSON struct {
		Session string    `json:"session"`
		Agent   string    `json:"agent,omitempty"`
		Title   string    `json:"title,omitempty"`
		Time    time.Time `json:"time"`
		Tool    string    `json:"tool"`
		Branch  string    `json:"branch,omitempty"`
		Cwd     string    `json:"cwd,omitempty"`
	}
	type changeJSON struct {
		Path   string      `json:"path"`
		Kind   string      `json:"kind"`
		Writes []writeJSON `json:"writes"`
		Diff   string      `json:"diff"`
	}
	type dirJSON struct {
		Project   string       `json:"project"`
		MemoryDir string       `json:"memory_dir"`
		Reviewed  time.Time    `json:"reviewed_at"`
		FirstLook bool         `json:"first_look"`
		Changes   []changeJSON `json:"changes"`
	}
	out := struct {
		Version int       `json:"version"`
		Dirs    []dirJSON `json:"dirs"`
	}{Version: 1, Dirs: []dirJSON{}}
	for _, d := range dirs {
		dj := dirJSON{Project: safe.Mask(nil, d.Project), MemoryDir: safe.Mask(nil, d.Dir), Reviewed: d.Reviewed.UTC(), FirstLook: d.FirstLook, Changes: []changeJSON{}}
		for _, c := range d.Deltas {
			cj := changeJSON{Path: safe.Mask(nil, c.Path), Kind: string(c.Kind), Writes: []writeJSON{}}
			// JSON escapes control characters itself: the diff is
			// masked (whole texts, before the comparison), not escaped.
			ch := c.Change()
			ch.Path, ch.After = cj.Path, safe.Mask(nil, ch.After)
			cj.Diff = diff.Unified(ch, safe.Mask(nil, c.Before))
			for _, w := range c.Writes {
				wj := writeJSON{Session: safe.Mask(nil, w.Session), Agent: safe.Mask(nil, w.Agent), Time: w.Time.UTC(), Tool: string(w.Kind),
					Branch: safe.Mask(nil, w.Branch), Cwd: safe.Mask(nil, w.Cwd)}
				if d.Log != nil {
					if s := d.Log.Sessions[w.Session]; s != nil {
						wj.Title = safe.Mask(nil, s.Title)
					}
				}
				cj.Writes = append(cj.Writes, wj)
			}
			dj.Changes = append(dj.Changes, cj)
		}
		out.Dirs = append(out.Dirs, dj)
	}
	return WriteJSON(w, out)
}
