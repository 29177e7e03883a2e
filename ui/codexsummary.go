package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The index view shows Codex's memory_summary.md as it shows a MEMORY.md:
// exactly what a Codex session gets, the cut drawn where Codex makes it
// (the middle: the first and the last 5,000 bytes kept, a marker between
// them), then every line a session never sees, and the sections the cut
// takes. Codex warns nobody when it cuts (codex facts §2).

// openCodexSummary shows pd's Codex summary in the index view; line,
// when positive, is a file line to scroll to.
func (m *Model) openCodexSummary(pd *projectData, line int) tea.Cmd {
	m.show(viewIndex)
	m.index.openCodex(pd.cx, "Codex · memory_summary.md", line) // its folder: on the meters' last line
	return nil
}

// openCodex shows a Codex store's summary.
func (v *indexView) openCodex(cx *app.CodexStore, title string, line int) {
	v.pick(nil)
	v.cx, v.title, v.target = cx, title, max(line, 0)
	v.build()
	v.vp.GotoTop()
	switch row, ok := v.fileRow[line]; {
	case ok && line > 0:
		v.vp.SetYOffset(max(row-3, 0))
	case v.cutRow >= 0:
		v.vp.SetYOffset(max(v.cutRow-v.vp.Height()/3, 0))
	}
}

// buildCodex lays out the summary as a session gets it.
func (v *indexView) buildCodex() {
	st := v.c.st
	f := v.cx.Store.File(codex.SummaryFile)
	l := v.cx.Summary
	if f == nil || l.Empty {
		msg := "memory_summary.md is missing or blank: Codex leaves the whole memory section out of every session, so a session is not even told MEMORY.md exists."
		v.vp.SetContent(st.Sev[model.Error].Render(ansi.Wrap(msg, max(v.w, 10), " ")))
		return
	}
	content := string(f.Content)
	fileLines := strings.Split(content, "\n")
	numW := len(itoa(max(len(fileLines), 1)))
	textW := max(v.w-numW-4, 10)
	shown := shownLines(content)
	num := func(n int) string { return st.LineNo.Render(fmt.Sprintf("%*d", numW, n)) }
	worst := map[int]model.Severity{}
	for _, fd := range v.cx.ByFile[codex.SummaryFile] {
		if fd.Line > 0 && fd.Severity >= worst[fd.Line] {
			worst[fd.Line] = fd.Severity
		}
	}
	hl := func(row string) string {
		plain := ansi.Strip(row)
		return st.Selected.Render(plain + strings.Repeat(" ", max(v.w-ansi.StringWidth(plain), 0)))
	}
	// Each file line's bytes, against the trimmed text's kept head
	// [Start, Start+CutFrom) and tail [Start+CutTo, Start+len).
	lo, hi := l.Start, l.Start+len(l.Trimmed)
	from, to := hi, hi
	if l.Cut {
		from, to = l.Start+l.CutFrom, l.Start+l.CutTo
	}
	var rows, dropped []string
	off := 0
	marked := false
	for i, ln := range fileLines {
		n := i + 1
		s, e := off, off+len(ln)
		off = e + 1
		if e < lo || s >= hi && s > lo {
			continue // white space Codex trims
		}
		mark := " "
		if sev, ok := worst[n]; ok {
			mark = st.Sev[sev].Render(sevSymbol(sev))
		}
		keptHead, keptTail := s < from, e > to
		text := ansi.Truncate(shown(i), textW, "…")
		switch {
		case !l.Cut || e <= from:
			row := num(n) + " " + mark + " " + text
			if n == v.target {
				row = hl(row)
			}
			v.fileRow[n] = len(rows)
			rows = append(rows, row)
			continue
		case keptHead && !marked:
			// The line the head ends in: its start reaches the session.
			rows = append(rows, num(n)+" "+st.Cut.Render("✂")+" "+text)
			v.fileRow[n] = len(rows) - 1
		}
		if !marked && (e > from) {
			marked = true
			v.cutRow = len(rows)
			rows = append(rows, st.Cut.Render(ansi.Truncate("✂── "+l.Marker+": Codex cuts the middle here, and warns nobody "+strings.Repeat("─", v.w), v.w, "")))
		}
		if s >= to || keptTail {
			row := num(n) + " " + mark + " " + text
			if keptTail && s < to {
				row = num(n) + " " + st.Cut.Render("✂") + " " + text
			}
			if _, ok := v.fileRow[n]; !ok {
				v.fileRow[n] = len(rows)
			}
			if n == v.target {
				row = hl(row)
			}
			rows = append(rows, row)
		}
		if e > from && s < to {
			glyph := "✗"
			if keptHead || keptTail {
				glyph = "✂" // in part
			}
			dropped = append(dropped, num(n)+" "+st.Cut.Render(glyph)+" "+st.Dropped.Render(text))
		}
	}
	if l.Cut {
		rows = append(rows, "", st.Bold.Render(fmt.Sprintf("Never seen by a session: %d bytes, %d %s (✂ in part)", l.Removed(), len(dropped), model.Plural(len(dropped), "line", "lines"))))
		if names := l.CutSectionNames(v.cx.Shape); len(names) > 0 {
			for _, w := range strings.Split(ansi.Wrap("Sections cut: "+safe.ShowLine(strings.Join(names, ", ")), max(v.w-3, 10), " "), "\n") {
				rows = append(rows, st.Faint.Render("   "+w))
			}
		}
		rows = append(rows, dropped...)
	}
	v.vp.SetContent(strings.Join(rows, "\n"))
}

// metersCodex draws the summary's budget: bytes and tokens against the
// cap.
func (v *indexView) metersCodex() string {
	st := v.c.st
	l := v.cx.Summary
	verdict, vst := summaryVerdict(v.c, l)
	status := vst.Render(verdict)
	barW := max(min(v.w-34, 50), 8)
	n := len(l.Trimmed)
	lines := []string{
		ansi.Truncate(st.Title.Render(safe.ShowLine(v.title))+"  "+status, v.w, "…"),
		meter(st, "bytes", n, codex.SummaryByteLimit, barW, "%d / %d"),
		meter(st, "tokens", codex.Tokens(n), codex.SummaryTokenLimit, barW, "%d / %d"),
		st.Faint.Render(ansi.Truncate("Codex counts 4 bytes a token, on the trimmed file; over the cap it keeps the first and last 5,000 bytes. "+report.Tilde(v.cx.Store.Root, v.c.home), v.w, "…")),
		st.Faint.Render(strings.Repeat("─", v.w)),
	}
	return fit(strings.Join(lines, "\n"), v.w, indexHeaderLines)
}

// codexEditNote is what an edit key says in Codex's summary view: the
// summary is Codex's to rewrite, and new facts go through a note.
func codexEditNote(c *shared) string {
	return "Codex's consolidation rewrites memory_summary.md: add a note for it instead (in the Codex store's list), or edit the summary from the list with " + key1(c.keys.Browse.Edit)
}
