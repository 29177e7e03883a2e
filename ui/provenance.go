package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// hasGate reports whether Claude Code's autoDream consolidates dir: only
// the auto memory directory (wherever an override puts it) has a
// consolidation lock; team and agent memory never do.
func hasGate(dd *dirData) bool {
	return dd.log != nil && dd.d.Exists && (dd.d.Kind == model.DirAuto || dd.d.Kind == model.DirOverride)
}

// gateState is the gate on the wall clock: the time gate opens while
// memtui is open.
func gateState(c *shared, dd *dirData) (g model.DreamGate, left time.Duration) {
	g = dd.gate
	if !g.LastConsolidated.IsZero() {
		left = g.LastConsolidated.Add(time.Duration(g.MinHours) * time.Hour).Sub(c.clock())
		g.TimeOpen = left <= 0
	}
	return g, left
}

// gateSummary says where Claude Code's autoDream gate stands for a
// directory, in one line: when it last consolidated, how many sessions
// touched the project since, and whether both gates are open.
func gateSummary(c *shared, dd *dirData) string {
	if !hasGate(dd) {
		return ""
	}
	g, left := gateState(c, dd)
	last := "never consolidated"
	if !g.LastConsolidated.IsZero() {
		last = "consolidated " + ago(c.clock(), g.LastConsolidated)
	}
	n := len(g.Sessions)
	s := fmt.Sprintf("Dream: %s · %d %s since · ", last, n, model.Plural(n, "session", "sessions"))
	switch {
	case g.WouldFire():
		return s + "due (both gates open)"
	case !g.TimeOpen:
		return s + fmt.Sprintf("not due for %s (%d h gate)", roundDur(left), g.MinHours)
	}
	return s + fmt.Sprintf("waiting for %d more %s (%d-session gate)", g.MinSessions-n, model.Plural(g.MinSessions-n, "session", "sessions"), g.MinSessions)
}

// gateCell is the dream gate in a list row's right column.
func gateCell(c *shared, dd *dirData) string {
	g, left := gateState(c, dd)
	switch {
	case g.WouldFire():
		return "dream due"
	case !g.TimeOpen:
		return "dream in " + roundDur(left)
	}
	return fmt.Sprintf("dream %d/%d", len(g.Sessions), g.MinSessions)
}

// roundDur is a duration in hours or minutes.
func roundDur(d time.Duration) string {
	if d < time.Hour {
		return fmt.Sprintf("%d min", max(int(d.Minutes()), 1))
	}
	return fmt.Sprintf("%d h", int(d.Hours()+0.5))
}

// heatSummary says how much agents used a memory, as far back as the
// transcripts go.
func heatSummary(c *shared, dd *dirData, path string) string {
	if dd.log == nil {
		return ""
	}
	since := ""
	if !dd.log.Oldest.IsZero() {
		since = " since " + dd.log.Oldest.Local().Format("2006-01-02")
	}
	h := dd.heat[path]
	if h.Uses() == 0 {
		return "never read or recalled in the transcripts" + since
	}
	return fmt.Sprintf("%s in %d %s, last %s%s", forensics.HeatCounts(h), h.Sessions, model.Plural(h.Sessions, "session", "sessions"), ago(c.clock(), h.Last), since)
}

// heatCell is a memory's use count in a list row ("12×"); "" before the
// transcripts are read.
func heatCell(dd *dirData, path string) string {
	if dd.log == nil {
		return ""
	}
	return itoa(dd.heat[path].Uses()) + "×"
}

// provenanceLines say who wrote a memory, newest first (the three latest
// writes, then a count of the rest), from which working directory the
// latest came, and what became of the session that created it.
func provenanceLines(c *shared, dd *dirData, path, origin string) (written []string, cwd, originLine string) {
	if dd.log == nil {
		return nil, "", ""
	}
	ws := dd.prov[path]
	const most = 3
	for i := len(ws) - 1; i >= 0 && len(written) < most; i-- {
		written = append(written, forensics.WriterLabel(ws[i], dd.log))
	}
	if n := len(ws) - most; n > 0 {
		written = append(written, fmt.Sprintf("+%d earlier %s", n, model.Plural(n, "write", "writes")))
	}
	if len(ws) == 0 {
		written = append(written, "no write recorded in the transcripts")
	} else if last := ws[len(ws)-1]; last.Cwd != "" {
		cwd = report.Tilde(last.Cwd, c.home)
	}
	if origin != "" {
		s := dd.log.Sessions[origin]
		switch {
		case s != nil && s.Transcript != "":
			originLine = "session " + forensics.ShortSession(origin)
			if s.Title != "" {
				originLine += " “" + s.Title + "”"
			}
			originLine += " · " + report.Tilde(s.Transcript, c.home)
		default:
			originLine = "session " + forensics.ShortSession(origin) + " · transcript swept (Claude Code deletes them after cleanupPeriodDays, 30 by default)"
		}
	}
	return written, cwd, originLine
}

// logNote says what the transcripts cover, or why they are not there.
func logNote(pd *projectData) string {
	switch {
	case pd.logErr != nil:
		return "Transcripts could not be read: " + safe.ShowLine(pd.logErr.Error())
	case pd.p.Log == nil && pd.logReading:
		return "Reading the session transcripts…"
	case pd.p.Log == nil:
		return ""
	}
	l := pd.p.Log
	if l.Files == 0 {
		return "No session transcripts: provenance, use and lost updates are unknown."
	}
	note := fmt.Sprintf("%d %s (%s), %d memory writes recorded", l.Files, model.Plural(l.Files, "transcript", "transcripts"),
		claude.FormatFileSize(int(min(l.Bytes, 1<<62))), len(l.Writes))
	if !l.Oldest.IsZero() {
		note += ", since " + l.Oldest.Local().Format("2006-01-02")
	}
	return note
}

// mostProblems is how many transcript problems a project's summary lists,
// fewProblems how many a MEMORY.md preview does; `memtui lint --verbose`
// lists them all.
const (
	mostProblems = 20
	fewProblems  = 3
)

// problemLines count and list, up to most, what reading a project's
// transcripts met (a file unreadable or refused, a line too long or not
// JSON, older history not kept); nil when nothing. A transcript in the
// project's own transcript dir tdir is named by its path there, so that a
// narrow pane does not cut the message off behind a long path.
func problemLines(c *shared, l *model.TranscriptLog, tdir string, most int) []string {
	if l == nil || len(l.Problems) == 0 {
		return nil
	}
	n := len(l.Problems)
	lines := []string{fmt.Sprintf("%d %s reading the transcripts (provenance and use may miss what they hold):", n, model.Plural(n, "problem", "problems"))}
	for _, pr := range l.Problems[:min(n, most)] {
		where := report.Tilde(pr.Transcript, c.home)
		if tdir != "" {
			if rel, err := filepath.Rel(tdir, pr.Transcript); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
				where = rel
			}
		}
		pr.Transcript = where
		lines = append(lines, "  • "+safe.ShowLine(pr.String()))
	}
	if n > most {
		lines = append(lines, fmt.Sprintf("  … and %d more: memtui lint --verbose lists them all", n-most))
	}
	return lines
}

// countProblems recounts the transcript problems of every project's log
// for the title bar: through report.TranscriptProblems, so that a
// transcript read for two projects (a subdirectory's sessions, §9.5)
// counts its problems once, as lint does.
func (m *Model) countProblems() {
	ps := make([]*model.Project, 0, len(m.data))
	for _, pd := range m.data {
		if pd != nil {
			ps = append(ps, pd.p)
		}
	}
	m.problems = len(report.TranscriptProblems(ps))
	m.versions = nil
	v := report.ClaudeCodeVersions(ps)
	if short := v.Short(); short != "" {
		m.versions = []string{short, v.Compact()}
	}
}
