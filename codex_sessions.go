package main

// `sessions` over Codex's stores: the sessions whose rollouts record a
// memory read, citation or write (codex facts §6), listed after Claude
// Code's, labelled with the agent and the store.

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model/codex"
)

// codexStoreSessions is one Codex store's sessions as sessions shows
// them: those kept by --since and --project, newest first.
type codexStoreSessions struct {
	prov     *codex.Provenance
	sessions []*codex.SessionUse
}

// codexProvenance reads what the rollouts of the workspace's Codex
// stores say (none with --agent claude).
func codexProvenance(ctx context.Context, s *app.Workspace) ([]*codex.Provenance, error) {
	if len(s.Codex) == 0 {
		return nil, nil
	}
	return s.CodexProvenance(ctx)
}

// codexSessions keeps the sessions still running at or after since (zero
// keeps all) whose working directory contains project ("" keeps all:
// Codex's store is global, so --project narrows it by where the session
// ran).
func codexSessions(provs []*codex.Provenance, since time.Time, project string) []codexStoreSessions {
	var out []codexStoreSessions
	for _, p := range provs {
		cs := codexStoreSessions{prov: p}
		for i := range p.Sessions {
			s := &p.Sessions[i]
			if !since.IsZero() && s.End.Before(since) || project != "" && !strings.Contains(s.Cwd, project) {
				continue
			}
			cs.sessions = append(cs.sessions, s)
		}
		if len(cs.sessions) > 0 || p.Loaded > 0 {
			out = append(out, cs)
		}
	}
	return out
}

// codexName is a Codex session's short name: its thread id's start.
func codexName(s *codex.SessionUse) string {
	if s.ThreadID == "" {
		return "(no thread id)"
	}
	return forensics.ShortSession(s.ThreadID)
}

// codexKey is a Codex session's key in sessions --json.
func codexKey(s *codex.SessionUse) string { return "codex/" + s.Key() }

// codexKind is the session kind sessions --json gives a Codex session.
func codexKind(s *codex.SessionUse) string {
	if s.Source == "subagent" {
		return "subagent"
	}
	return "main"
}

// codexProject is what sessions --json calls a Codex session's project:
// where it ran (the store is one for every project), else the home.
func codexProject(p *codex.Provenance, s *codex.SessionUse) string {
	if s.Cwd != "" {
		return s.Cwd
	}
	return p.Home
}

// when is a span as sessions writes it.
func when(start, end time.Time) string {
	s, e := start.UTC(), end.UTC()
	switch {
	case s.IsZero():
		return "when unknown"
	case e.IsZero() || s.Format("2006-01-02 15:04") == e.Format("2006-01-02 15:04"):
		return s.Format("2006-01-02 15:04") + " UTC"
	case s.Format("2006-01-02") == e.Format("2006-01-02"):
		return s.Format("2006-01-02 15:04") + "–" + e.Format("15:04") + " UTC"
	}
	return s.Format("2006-01-02 15:04") + " – " + e.Format("2006-01-02 15:04") + " UTC"
}

// entryText is a citation entry as file:start-end.
func entryText(e codex.CitationEntry) string {
	return fmt.Sprintf("%s:%d-%d", e.Path, e.LineStart, e.LineEnd)
}

// citedSummaries are the rollout summaries whose threads a session's
// citations name.
func citedSummaries(p *codex.Provenance, s *codex.SessionUse) []string {
	var out []string
	for _, path := range p.Paths() {
		f := p.Files[path]
		for _, k := range f.ThreadCitedBy {
			if k == s.Key() {
				out = append(out, path)
				break
			}
		}
	}
	return out
}

// codexSessionsText writes the Codex stores' sessions for people, after
// Claude Code's; it returns how many sessions it wrote.
func codexSessionsText(bw *bufio.Writer, cx []codexStoreSessions, proj, dir, faint paint.Painter, home string, first bool) int {
	show := safe.ShowLine
	total := 0
	for _, c := range cx {
		if !first {
			bw.WriteString("\n")
		}
		first = false
		bw.WriteString(proj.Paint(show("Codex  "+report.Tilde(c.prov.Home, home))) + "\n")
		bw.WriteString("  " + dir.Paint(show(report.Tilde(c.prov.Root, home))) + "\n")
		for _, s := range c.sessions {
			total++
			head := codexName(s) + "  codex"
			if s.Source != "" {
				head += " " + s.Source
			}
			if s.CLIVersion != "" {
				head += " " + s.CLIVersion
			}
			head += ", " + when(s.Start, s.End)
			bw.WriteString("    " + show(head) + "\n")
			if s.Cwd != "" {
				bw.WriteString("      " + faint.Paint("in "+show(report.Tilde(s.Cwd, home))) + "\n")
			}
			if s.Loaded {
				bw.WriteString("      loaded    " + codex.SummaryFile + " (the summary, in its context)\n")
			}
			if rs := codexReadPaths(s); len(rs) > 0 {
				bw.WriteString("      read      " + show(strings.Join(rs, ", ")) + "\n")
			}
			for _, c := range s.Citations {
				var es []string
				for _, e := range c.Entries {
					es = append(es, entryText(e))
				}
				line := strings.Join(es, ", ")
				if n := len(c.RolloutIDs); n > 0 {
					if line != "" {
						line += "; "
					}
					line += fmt.Sprintf("the memories of %d %s", n, report.Plural(n, "thread", "threads"))
				}
				bw.WriteString("      cited     " + show(line) + " (" + c.Time.UTC().Format("15:04") + " UTC)\n")
			}
			if sums := citedSummaries(c.prov, s); len(sums) > 0 {
				bw.WriteString("      " + faint.Paint("its citations name the threads of "+show(strings.Join(sums, ", "))) + "\n")
			}
			for _, w := range s.NoteWrites {
				bw.WriteString("      note      " + show(codexWriteLine(w)) + "\n")
			}
			for _, w := range s.Edits {
				bw.WriteString("      edited    " + show(codexWriteLine(w)+"; Codex's read prompt allows notes only") + "\n")
			}
		}
		if n := c.prov.Loaded; n > 0 {
			bw.WriteString("    " + faint.Paint(fmt.Sprintf("%d more %s had the summary loaded and used no memory otherwise", n, report.Plural(n, "session", "sessions"))) + "\n")
		}
	}
	return total
}

// codexReadPaths are the paths a session read, the whole store (a list
// or search without a path) as ".".
func codexReadPaths(s *codex.SessionUse) []string {
	rs := s.ReadPaths()
	for i, r := range rs {
		if r == "" {
			rs[i] = "."
		}
	}
	return rs
}

// codexWriteLine is a write as sessions and history show it: the file,
// how and when, whether it failed, and the start of the text written.
func codexWriteLine(w codex.Write) string {
	line := w.Path + " (" + w.Op + ", " + w.Tool + ", " + w.Time.UTC().Format("2006-01-02 15:04") + " UTC"
	if w.Failed {
		line += ", failed"
	}
	line += ")"
	if t := firstLine(w.Text); t != "" {
		line += ": \u201c" + t + "\u201d"
	}
	return line
}

// firstLine is the first non-blank line of s, at most 80 characters.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > 80 {
				return string(r[:79]) + "…"
			}
			return l
		}
	}
	return ""
}

// codexSessionJSON is the Codex part of a Codex session in sessions
// --json.
type codexSessionJSON struct {
	ThreadID      string `json:"thread_id"`
	Home          string `json:"home"`
	Source        string `json:"source,omitempty"`
	CLIVersion    string `json:"cli_version,omitempty"`
	MemoryMode    string `json:"memory_mode,omitempty"`
	Rollout       string `json:"rollout"`
	SummaryLoaded bool   `json:"summary_loaded"`
	// Reads are every read, failed ones too.
	Reads     []codexReadJSON     `json:"reads"`
	Citations []codexCitationJSON `json:"citations"`
	Notes     []codexWriteJSON    `json:"notes"`
	Edits     []codexWriteJSON    `json:"edits"`
	// CitedSummaries are the rollout summaries whose threads its
	// citations name.
	CitedSummaries []string `json:"cited_summaries"`
}

type codexReadJSON struct {
	File   string    `json:"file"`
	Tool   string    `json:"tool"`
	CallID string    `json:"call_id,omitempty"`
	Time   time.Time `json:"time"`
	Line   int       `json:"line"`
	Failed bool      `json:"failed"`
}

type codexCitationJSON struct {
	Time       time.Time        `json:"time"`
	Line       int              `json:"line"`
	Entries    []codexEntryJSON `json:"entries"`
	RolloutIDs []string         `json:"rollout_ids"`
	Raw        bool             `json:"raw"`
	Parsed     bool             `json:"parsed"`
}

type codexEntryJSON struct {
	File      string `json:"file"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
	Note      string `json:"note"`
}

type codexWriteJSON struct {
	File   string    `json:"file"`
	Op     string    `json:"op"`
	Tool   string    `json:"tool"`
	CallID string    `json:"call_id,omitempty"`
	Time   time.Time `json:"time"`
	Line   int       `json:"line"`
	Failed bool      `json:"failed"`
	// Text is what was written, when the call carries it.
	Text string `json:"text,omitempty"`
}

// codexJSON is a Codex session's own part, every text masked.
func codexJSON(p *codex.Provenance, s *codex.SessionUse) *codexSessionJSON {
	m := func(s string) string { return safe.Mask(nil, s) }
	j := &codexSessionJSON{ThreadID: m(s.ThreadID), Home: m(p.Home), Source: m(s.Source), CLIVersion: m(s.CLIVersion), MemoryMode: m(s.MemoryMode),
		Rollout: m(s.Rollout), SummaryLoaded: s.Loaded, Reads: []codexReadJSON{}, Citations: []codexCitationJSON{},
		Notes: codexWritesJSON(s.NoteWrites), Edits: codexWritesJSON(s.Edits), CitedSummaries: []string{}}
	for _, r := range s.Reads {
		j.Reads = append(j.Reads, codexReadJSON{File: m(r.Path), Tool: m(r.Tool), CallID: m(r.CallID), Time: r.Time.UTC(), Line: r.Line, Failed: r.Failed})
	}
	for _, c := range s.Citations {
		cj := codexCitationJSON{Time: c.Time.UTC(), Line: c.Line, Entries: []codexEntryJSON{}, RolloutIDs: []string{}, Raw: c.Raw, Parsed: c.Parsed}
		for _, e := range c.Entries {
			cj.Entries = append(cj.Entries, codexEntryJSON{File: m(e.Path), LineStart: e.LineStart, LineEnd: e.LineEnd, Note: m(e.Note)})
		}
		for _, id := range c.RolloutIDs {
			cj.RolloutIDs = append(cj.RolloutIDs, m(id))
		}
		j.Citations = append(j.Citations, cj)
	}
	for _, f := range citedSummaries(p, s) {
		j.CitedSummaries = append(j.CitedSummaries, m(f))
	}
	return j
}

func codexWritesJSON(ws []codex.Write) []codexWriteJSON {
	m := func(s string) string { return safe.Mask(nil, s) }
	out := []codexWriteJSON{}
	for _, w := range ws {
		out = append(out, codexWriteJSON{File: m(w.Path), Op: w.Op, Tool: m(w.Tool), CallID: m(w.CallID), Time: w.Time.UTC(), Line: w.Line, Failed: w.Failed, Text: m(w.Text)})
	}
	return out
}
