package main

// `history` over Codex's stores: per file of the store, the sessions
// whose rollouts record reading, citing or writing it (codex facts §6),
// after Claude Code's files.

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model/codex"
)

// codexStoreHistory is one Codex store's files as history shows them.
type codexStoreHistory struct {
	prov  *codex.Provenance
	files []*codex.FileUse
}

// codexHistory keeps the files of each store that args name (relative
// to the store's memories/, or absolute), marking in matched the args
// that named one; no args keeps every file the disk or a rollout knows.
func codexHistory(provs []*codex.Provenance, args []string, matched []bool) []codexStoreHistory {
	var out []codexStoreHistory
	for _, p := range provs {
		ch := codexStoreHistory{prov: p}
		for _, rel := range p.Paths() {
			f := p.Files[rel]
			keep := len(args) == 0
			abs := filepath.Join(p.Root, filepath.FromSlash(rel))
			for i, a := range args {
				var hit bool
				if filepath.IsAbs(a) {
					hit = filepath.Clean(a) == abs
				} else {
					hit = filepath.ToSlash(filepath.Clean(a)) == rel
				}
				if hit {
					keep, matched[i] = true, true
				}
			}
			if keep {
				ch.files = append(ch.files, f)
			}
		}
		if len(ch.files) > 0 {
			out = append(out, ch)
		}
	}
	return out
}

// codexFileSession is what one session did with one file.
type codexFileSession struct {
	s                                 *codex.SessionUse
	reads, cites, threadCites, writes int
}

// codexFileSessions are the sessions that read, cited or wrote f, newest
// first, each with what it did.
func codexFileSessions(p *codex.Provenance, f *codex.FileUse) []codexFileSession {
	var out []codexFileSession
	for _, s := range f.Sessions(p) {
		fs := codexFileSession{s: s}
		for _, r := range s.Reads {
			if r.Path == f.Path && !r.Failed {
				fs.reads++
			}
		}
		for _, c := range s.Citations {
			for _, e := range c.Entries {
				if e.Path == f.Path {
					fs.cites++
				}
			}
			if f.ThreadID != "" {
				for _, id := range c.RolloutIDs {
					if strings.EqualFold(id, f.ThreadID) {
						fs.threadCites++
						break
					}
				}
			}
		}
		for _, w := range f.Writes {
			if w.ThreadID == s.Key() {
				fs.writes++
			}
		}
		out = append(out, fs)
	}
	return out
}

// did is what a session did with a file, in words.
func (fs codexFileSession) did() string {
	var parts []string
	if fs.reads > 0 {
		parts = append(parts, times("read", fs.reads))
	}
	if fs.cites > 0 {
		parts = append(parts, times("cited", fs.cites))
	}
	if fs.threadCites > 0 {
		parts = append(parts, times("used its thread's memories", fs.threadCites))
	}
	if fs.writes > 0 {
		parts = append(parts, times("wrote", fs.writes))
	}
	return strings.Join(parts, ", ")
}

func times(what string, n int) string {
	if n == 1 {
		return what
	}
	return fmt.Sprintf("%s %d times", what, n)
}

// codexUseLine says how sessions used a file, for its block's first
// line: its reads, loads, citations, and its thread's citations.
func codexUseLine(f *codex.FileUse) string {
	var parts []string
	if f.Loads > 0 {
		parts = append(parts, fmt.Sprintf("loaded into %d %s, last %s", f.Loads, report.Plural(f.Loads, "session", "sessions"), stamp(f.LastLoad)))
	}
	if f.Reads > 0 {
		parts = append(parts, fmt.Sprintf("read %d %s in %d %s, last %s", f.Reads, report.Plural(f.Reads, "time", "times"), len(f.ReadBy), report.Plural(len(f.ReadBy), "session", "sessions"), stamp(f.LastRead)))
	}
	if f.Citations > 0 {
		var rs []string
		for _, r := range f.Ranges {
			rs = append(rs, fmt.Sprintf("%d-%d", r.Start, r.End))
		}
		parts = append(parts, fmt.Sprintf("cited %d %s (lines %s) in %d %s", f.Citations, report.Plural(f.Citations, "time", "times"), strings.Join(rs, ", "), len(f.CitedBy), report.Plural(len(f.CitedBy), "session", "sessions")))
	}
	if f.ThreadCitations > 0 {
		parts = append(parts, fmt.Sprintf("its thread's memories cited %d %s in %d %s", f.ThreadCitations, report.Plural(f.ThreadCitations, "time", "times"), len(f.ThreadCitedBy), report.Plural(len(f.ThreadCitedBy), "session", "sessions")))
	}
	if len(parts) == 0 {
		if f.ThreadID != "" {
			return "never read or cited in the rollouts, nor its thread's memories"
		}
		return "never read or cited in the rollouts"
	}
	return strings.Join(parts, "; ")
}

// stamp is a time as history shows it.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "when unknown"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// rolloutSpan says how far back a store's rollouts go.
func rolloutSpan(p *codex.Provenance) string {
	switch {
	case p.Rollouts == 0:
		return "  (no session rollouts)"
	case p.Oldest.IsZero():
		return ""
	}
	return "  (rollouts since " + p.Oldest.UTC().Format("2006-01-02") + ")"
}

// codexHistoryText writes the Codex stores' files for people; it
// returns how many files it wrote, how many of them are not on disk, and
// how many writes.
func codexHistoryText(bw *bufio.Writer, cx []codexStoreHistory, proj, dir, faint paint.Painter, home string, first bool) (files, gone, writes int) {
	show := safe.ShowLine
	for _, c := range cx {
		if !first {
			bw.WriteString("\n")
		}
		first = false
		bw.WriteString(proj.Paint(show("Codex  "+report.Tilde(c.prov.Home, home))) + "\n")
		bw.WriteString("  " + dir.Paint(show(report.Tilde(c.prov.Root, home))+rolloutSpan(c.prov)) + "\n")
		for _, f := range c.files {
			files++
			writes += len(f.Writes)
			name := show(f.Path)
			if !f.Exists {
				gone++
				name += "  (not on disk)"
			}
			if !f.Used() {
				bw.WriteString("    " + name + ": no read, citation or write recorded in the rollouts\n")
				continue
			}
			bw.WriteString("    " + name + "\n")
			if len(f.Writes) == 0 || f.Reads+f.Loads+f.Citations+f.ThreadCitations > 0 {
				bw.WriteString("      " + show(codexUseLine(f)) + "\n")
			}
			for _, w := range f.Writes {
				line := w.ThreadID
				if s := c.prov.Session(w.ThreadID); s != nil {
					line = codexName(s)
				}
				line += " " + w.Tool + ", " + stamp(w.Time)
				if w.Failed {
					line += ", failed"
				}
				if t := firstLine(w.Text); t != "" {
					line += ": \u201c" + t + "\u201d"
				}
				fmt.Fprintf(bw, "      %-6s  %s\n", w.Op, show(line))
				var more []string
				if w.Cwd != "" {
					more = append(more, "in "+report.Tilde(w.Cwd, home))
				}
				if w.CallID != "" {
					more = append(more, w.CallID)
				}
				if len(more) > 0 {
					bw.WriteString("              " + faint.Paint(show(strings.Join(more, " · "))) + "\n")
				}
			}
			for _, fs := range codexFileSessions(c.prov, f) {
				if fs.reads == 0 && fs.cites == 0 && fs.threadCites == 0 {
					continue // a writer only: its write is listed above
				}
				line := codexName(fs.s) + "  " + fs.did() + "  " + when(fs.s.Start, fs.s.End)
				if fs.s.Cwd != "" {
					line += "  in " + report.Tilde(fs.s.Cwd, home)
				}
				bw.WriteString("      " + show(line) + "\n")
			}
		}
	}
	return files, gone, writes
}

// codexFileJSON is the Codex part of a Codex file in history --json.
type codexFileJSON struct {
	Home string `json:"home"`
	Kind string `json:"kind"`
	// ThreadID is a rollout summary's thread.
	ThreadID        string                 `json:"thread_id,omitempty"`
	Loads           int                    `json:"loads"`
	Citations       int                    `json:"citations"`
	CitedBy         []string               `json:"cited_by"`
	CitedLines      []codexRangeJSON       `json:"cited_lines"`
	ThreadCitations int                    `json:"thread_citations"`
	ThreadCitedBy   []string               `json:"thread_cited_by"`
	Sessions        []codexFileSessionJSON `json:"sessions"`
}

type codexRangeJSON struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

type codexFileSessionJSON struct {
	ThreadID        string    `json:"thread_id"`
	Cwd             string    `json:"cwd"`
	Start           time.Time `json:"start"`
	Rollout         string    `json:"rollout"`
	Reads           int       `json:"reads"`
	Citations       int       `json:"citations"`
	ThreadCitations int       `json:"thread_citations"`
	Writes          int       `json:"writes"`
}

// codexFileJSONOf is a file's Codex part, every text masked.
func codexFileJSONOf(p *codex.Provenance, f *codex.FileUse) *codexFileJSON {
	m := func(s string) string { return safe.Mask(nil, s) }
	ms := safe.MaskAll
	j := &codexFileJSON{Home: m(p.Home), Kind: string(codex.KindOf(f.Path)), ThreadID: m(f.ThreadID), Loads: f.Loads, Citations: f.Citations, CitedBy: ms(f.CitedBy),
		CitedLines: []codexRangeJSON{}, ThreadCitations: f.ThreadCitations, ThreadCitedBy: ms(f.ThreadCitedBy), Sessions: []codexFileSessionJSON{}}
	for _, r := range f.Ranges {
		j.CitedLines = append(j.CitedLines, codexRangeJSON{r.Start, r.End})
	}
	for _, fs := range codexFileSessions(p, f) {
		j.Sessions = append(j.Sessions, codexFileSessionJSON{ThreadID: m(fs.s.Key()), Cwd: m(fs.s.Cwd), Start: fs.s.Start.UTC(), Rollout: m(fs.s.Rollout),
			Reads: fs.reads, Citations: fs.cites, ThreadCitations: fs.threadCites, Writes: fs.writes})
	}
	return j
}

// lastUse is when a file was last read, loaded or cited.
func lastUse(f *codex.FileUse) time.Time {
	t := f.LastRead
	for _, u := range []time.Time{f.LastLoad, f.LastCited} {
		if u.After(t) {
			t = u
		}
	}
	return t
}
