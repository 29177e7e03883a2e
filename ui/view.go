package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/themes"

	"github.com/memtui/memtui/model"
)

// Layout thresholds: three panes side by side from wideWidth columns, two
// (a list beside the preview) from narrowWidth, one below that.
const (
	wideWidth   = 120
	narrowWidth = 60
)

// footerHeight is one line, or the full help's rows.
func (m *Model) footerHeight() int {
	if m.help.ShowAll && m.mode != modeFilter && m.mode != modeInput && m.mode != modeDialog {
		return len(m.fullHelp())
	}
	return 1
}

// fullHelp lists the keys live where the user is (keymap.Live of the
// current scope): each group under its title, the view's own first, the
// global keys last, in as many columns as fit, so the whole list (quit
// included) shows at 80 columns too.
func (m *Model) fullHelp() []string {
	var cells []helpCell
	for _, g := range m.c.keys.Live(m.scope()) {
		var live []helpCell
		for _, b := range g.Bindings {
			if b.Enabled() { // --readonly hides what writes
				live = append(live, helpCell{key: b.Help().Key, desc: b.Help().Desc})
			}
		}
		if len(live) > 0 {
			cells = append(append(cells, helpCell{title: g.Title}), live...)
		}
	}
	at, widths := layoutHelp(cells, m.width)
	rows := 0
	for _, p := range at {
		rows = max(rows, p.row+1)
	}
	st := m.help.Styles
	lines := make([]string, rows)
	x := make([]int, len(widths)) // where each column starts
	for c := 1; c < len(widths); c++ {
		x[c] = x[c-1] + widths[c-1].key + 1 + widths[c-1].desc + helpGap
	}
	for i, cl := range cells {
		p, w := at[i], widths[at[i].col]
		// A column may start beside a shorter one: pad up to it.
		lines[p.row] = padRight(lines[p.row], x[p.col])
		if cl.title != "" {
			lines[p.row] += m.c.st.GroupHeader.Render(ansi.Truncate(cl.title, w.key+1+w.desc, "…"))
			continue
		}
		lines[p.row] += st.FullKey.Render(padRight(cl.key, w.key)) + " " + st.FullDesc.Render(cl.desc)
	}
	// Keep three rows for the view; a very small window gets a note.
	if most := max(m.height-4, 1); len(lines) > most {
		lines = lines[:most]
		lines[most-1] = m.c.st.Faint.Render("… more keys: enlarge the window")
	}
	return lines
}

// helpCell is one line of the help screen: a group's title, or a key and
// what it does.
type helpCell struct{ title, key, desc string }

// helpGap is the space between the help screen's columns.
const helpGap = 3

type helpPos struct{ row, col int }

type helpWidth struct{ key, desc int }

// layoutHelp flows the cells down columns, each column as wide as its
// widest cell, with the fewest rows that fit width: it tries the most
// columns first. A title never ends a column (it moves to the next, beside
// its keys).
func layoutHelp(cells []helpCell, width int) ([]helpPos, []helpWidth) {
	place := func(rows int) ([]helpPos, int) {
		at := make([]helpPos, len(cells))
		r, c := 0, 0
		for i, cl := range cells {
			if r == rows || cl.title != "" && r == rows-1 && rows > 1 {
				r, c = 0, c+1
			}
			at[i] = helpPos{r, c}
			r++
		}
		return at, c + 1
	}
	measure := func(at []helpPos, cols int) ([]helpWidth, int) {
		ws := make([]helpWidth, cols)
		titles := make([]int, cols)
		for i, cl := range cells {
			c := at[i].col
			if cl.title != "" {
				titles[c] = max(titles[c], ansi.StringWidth(cl.title))
				continue
			}
			ws[c].key = max(ws[c].key, ansi.StringWidth(cl.key))
			ws[c].desc = max(ws[c].desc, ansi.StringWidth(cl.desc))
		}
		total := (cols - 1) * helpGap
		for c := range ws {
			ws[c].desc = max(ws[c].desc, titles[c]-ws[c].key-1) // a title wider than its keys
			total += ws[c].key + 1 + ws[c].desc
		}
		return ws, total
	}
	for rows := 1; ; rows++ {
		at, cols := place(rows)
		ws, total := measure(at, cols)
		if total <= width || cols == 1 {
			return at, ws
		}
	}
}

// layout sizes every pane for the window; it runs on every resize and
// whenever the arrangement changes (focus, view, help).
func (m *Model) layout() {
	if m.width <= 0 || m.height <= 0 {
		return
	}
	m.help.SetWidth(m.width)
	m.input.SetWidth(max(m.width-4, 10))
	bodyH := max(m.height-1-m.footerHeight(), 3)
	m.rects = m.rects[:0]
	if m.view != viewBrowse {
		m.activePane().SetSize(m.width, bodyH) // a full-screen view
		return
	}
	innerH := max(bodyH-3, 1) // border top and bottom, title
	cols := m.columns()
	x := 0
	for _, c := range cols {
		innerW := max(c.w-2, 1)
		switch c.focus {
		case focusProjects:
			m.projects.SetSize(innerW, innerH)
		case focusMemories:
			m.memories.SetSize(innerW, innerH)
		case focusPreview:
			m.preview.SetSize(innerW, innerH)
		}
		m.rects = append(m.rects, paneRect{focus: c.focus, x: x + 1, y: 1 + 2, w: innerW, h: innerH})
		x += c.w
	}
}

type column struct {
	focus focusID
	w     int
}

// columns decides which panes show and how wide, for the window width.
func (m *Model) columns() []column {
	w := m.width
	switch {
	case w >= wideWidth:
		pw := w * 26 / 100
		mw := w * 30 / 100
		return []column{{focusProjects, pw}, {focusMemories, mw}, {focusPreview, w - pw - mw}}
	case w >= narrowWidth:
		lw := w * 42 / 100
		left := m.left
		if left == focusPreview {
			left = focusMemories
		}
		return []column{{left, lw}, {focusPreview, w - lw}}
	}
	return []column{{m.focus, w}}
}

// View draws the whole screen: a title bar, the current view, the footer.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "memtui"
	if m.width <= 0 || m.height <= 0 {
		v.SetContent("")
		return v
	}
	bodyH := max(m.height-1-m.footerHeight(), 3)
	var content string
	if m.view == viewBrowse {
		content = m.browseView(bodyH)
	} else {
		content = m.activePane().View()
	}
	if m.mode == modeDialog {
		content = m.dialogView(m.width, bodyH)
	} else if m.view != viewBrowse {
		content = fit(content, m.width, bodyH) // the browse panes are drawn to size
	}
	v.SetContent(m.titleBar() + "\n" + content + "\n" + m.footer())
	return v
}

func (m *Model) browseView(h int) string {
	var cols []string
	for _, c := range m.columns() {
		var title, content string
		switch c.focus {
		case focusProjects:
			title = fmt.Sprintf("Projects (%d)", m.claudeProjects())
			if m.projects.filter != "" {
				title += " /" + safe.ShowLine(m.projects.filter)
			}
			content = m.projects.View()
		case focusMemories:
			title = "Memories"
			if pd := m.selectedProject(); pd != nil && pd.loaded {
				title = fmt.Sprintf("Memories (%d)", pd.memories)
			}
			if m.memories.sortBy != sortName {
				title += " · " + m.memories.sortBy.String()
			}
			if m.memories.filter != "" {
				title += " /" + safe.ShowLine(m.memories.filter)
			}
			content = m.memories.View()
		case focusPreview:
			title = "Preview"
			if m.source {
				title = "Source"
			}
			content = m.preview.View()
		}
		innerW := max(c.w-2, 1)
		t := m.c.st.PaneTitle.Render(ansi.Truncate(title, innerW, "…"))
		inner := fit(t+"\n"+content, innerW, max(h-2, 1))
		cols = append(cols, box(inner, innerW, c.focus == m.focus, m.c.st))
	}
	return joinColumns(cols)
}

// box draws a border around lines already fitted to w cells: a rounded
// border, heavy when focused without colour, coloured by the theme. Drawn
// by hand because lipgloss measures every line again, which was most of a
// frame's cost.
func box(inner string, w int, focused bool, st themes.Styles) string {
	b := lipgloss.RoundedBorder()
	style := st.Pane
	if focused {
		style = st.PaneFocus
		if st.Theme.NoColor {
			b = lipgloss.ThickBorder()
		}
	}
	color := style.GetBorderTopForeground()
	ink := func(s string) string { return s }
	if color != nil {
		ink = paint.New(lipgloss.NewStyle().Foreground(color)).Paint
	}
	var out strings.Builder
	out.WriteString(ink(b.TopLeft + strings.Repeat(b.Top, w) + b.TopRight))
	left, right := ink(b.Left), ink(b.Right)
	for _, ln := range strings.Split(inner, "\n") {
		out.WriteString("\n" + left + ln + right)
	}
	out.WriteString("\n" + ink(b.BottomLeft+strings.Repeat(b.Bottom, w)+b.BottomRight))
	return out.String()
}

// joinColumns puts boxes of equal height side by side.
func joinColumns(cols []string) string {
	if len(cols) == 1 {
		return cols[0]
	}
	split := make([][]string, len(cols))
	for i, c := range cols {
		split[i] = strings.Split(c, "\n")
	}
	var out strings.Builder
	for r := range split[0] {
		if r > 0 {
			out.WriteByte('\n')
		}
		for _, lines := range split {
			if r < len(lines) {
				out.WriteString(lines[r])
			}
		}
	}
	return out.String()
}

func (m *Model) selectedProject() *projectData {
	if i := m.projects.selected(); i >= 0 && i < len(m.data) {
		return m.data[i]
	}
	return nil
}

// titleBar names the app and the views, with loading and live status on
// the right.
func (m *Model) titleBar() string {
	st := m.c.st
	tab := func(name string, on bool) string {
		if on {
			return st.Selected.Render(" " + name + " ")
		}
		return st.Faint.Render(" " + name + " ")
	}
	nf := len(m.config) + len(m.codex)
	for _, pd := range m.data {
		if pd.cx == nil { // (counted in m.codex)
			nf += pd.findings
		}
	}
	var right string
	switch {
	case m.loading && m.scan == nil:
		right = "looking for projects…"
	case m.loading:
		right = fmt.Sprintf("reading %d/%d projects…", m.loaded, m.claudeProjects())
	case m.watchMsg != "":
		right = safe.ShowLine(m.watchMsg)
	case m.watcher != nil:
		right = "● live · " + m.storesCount(false)
	default:
		right = m.storesCount(false)
	}
	if n := m.problems; n > 0 && !m.loading {
		// Where they are: each project's summary and MEMORY.md preview.
		right += fmt.Sprintf(" · %d transcript %s", n, model.Plural(n, "problem", "problems"))
	}
	if m.ws.ReadOnly {
		right = "read-only · " + right
	}
	// The tabs, each named in full, or, when the row cannot hold them
	// and the status, the ones not shown by a short name: every tab stays
	// whole, the current one in full.
	tabs := []struct {
		full, short string
		on          bool
	}{
		{"Browse", "Browse", m.view == viewBrowse},
		{fmt.Sprintf("Findings %d", nf), fmt.Sprintf("Find %d", nf), m.view == viewFindings},
		{"Index", "Idx", m.view == viewIndex || m.view == viewIndexEdit},
		{m.proposalsTab(), strings.Replace(m.proposalsTab(), "Proposals", "Props", 1), m.view == viewProposals},
		{m.changesTab(), strings.Replace(m.changesTab(), "Changes", "Chgs", 1), m.view == viewChanges},
		{"Sessions", "Sess", m.view == viewSessions},
		{"Journal", "Jrnl", m.view == viewJournal},
	}
	build := func(short bool) string {
		left := st.Title.Render("memtui") + " "
		for _, t := range tabs {
			name := t.full
			if short && !t.on {
				name = t.short
			}
			left += tab(name, t.on)
		}
		return left
	}
	left := build(false)
	if ansi.StringWidth(left)+1+ansi.StringWidth(right) > m.width {
		left = build(true)
	}

	// The Claude Code versions: said once, however many sessions, in the
	// first form that fits beside the tabs (none at 80 columns); memtui
	// lint and memtui version say which behaviours differ.
	for _, v := range m.versions {
		if v = " · " + v; !m.loading && ansi.StringWidth(left)+ansi.StringWidth(right)+ansi.StringWidth(v)+1 <= m.width {
			right += v
			break
		}
	}
	// Codex's stores, when there is room left for them (their rows in
	// the projects list say it too).
	if c := len(m.data) - m.claudeProjects(); c > 0 && !m.loading {
		if more := m.storesCount(true); ansi.StringWidth(left)+1+ansi.StringWidth(right)-ansi.StringWidth(m.storesCount(false))+ansi.StringWidth(more) <= m.width {
			right = strings.Replace(right, m.storesCount(false), more, 1)
		}
	}
	return layoutRow(left, st.Faint.Render(right), m.width)
}

// changesTab counts the changes since the last review once any project
// has a baseline.
func (m *Model) changesTab() string {
	if m.changes.total == 0 {
		return "Changes"
	}
	return fmt.Sprintf("Changes %d", m.changes.total)
}

// proposalsTab counts the proposals once they have been computed.
func (m *Model) proposalsTab() string {
	if !m.proposals.computed {
		return "Proposals"
	}
	return fmt.Sprintf("Proposals %d", len(m.proposals.items))
}

// footer is the filter box while filtering, else an error or status, else
// the help for what has focus.
func (m *Model) footer() string {
	st := m.c.st
	switch {
	case m.mode == modeFilter:
		return fit(m.input.View(), m.width, 1)
	case m.mode == modeInput: // the index editor's hook: the one view with an input
		return fit(m.ixedit.input.View(), m.width, 1)
	case m.err != nil:
		return fit(st.Error.Render("✗ "+safe.ShowLine(m.err.Error())), m.width, 1)
	case m.mode == modeDialog && m.dialog.kind != dlgResult:
		// A question defaults to No; a summary only waits for a key.
		return fit(st.Faint.Render("the answer is No unless you press "+key1(m.c.keys.Dialog.Confirm)), m.width, 1)
	case m.mode == modeDialog:
		return fit(st.Faint.Render("any key closes"), m.width, 1)
	}
	if m.help.ShowAll {
		return fit(strings.Join(m.fullHelp(), "\n"), m.width, m.footerHeight())
	}
	line := m.help.ShortHelpView(m.shortHelp())
	if m.status != "" {
		line = st.Status.Render(safe.ShowLine(m.status))
	}
	return fit(line, m.width, 1)
}

// activePane is the pane whose keys are live.
func (m *Model) activePane() pane {
	if v := m.activeView(); v != nil {
		return v
	}
	switch m.focus {
	case focusMemories:
		return m.memories
	case focusPreview:
		return m.preview
	}
	return m.projects
}

// shortHelp is the footer's line: the pane's few keys, then the global
// ones (an overlay switches no views, so it offers no f).
func (m *Model) shortHelp() []key.Binding {
	k := m.c.keys
	if m.mode == modeOverlay {
		return append(m.activePane().ShortHelp(), k.Global.Help, k.Global.Quit)
	}
	return append(m.activePane().ShortHelp(), k.Views.Findings, k.Global.Help, k.Global.Quit)
}

// onWheel scrolls whatever is under the pointer.
func (m *Model) onWheel(mouse tea.Mouse) {
	n := 0
	switch mouse.Button {
	case tea.MouseWheelUp:
		n = -3
	case tea.MouseWheelDown:
		n = 3
	default:
		return
	}
	switch m.view {
	case viewFindings:
		m.findings.list.scroll(n)
		return
	case viewIndex:
		if n < 0 {
			m.index.vp.ScrollUp(-n)
		} else {
			m.index.vp.ScrollDown(n)
		}
		return
	case viewProposals:
		m.proposals.wheel(mouse.X, mouse.Y-1, n) // below the title bar
		return
	case viewChanges:
		m.changes.wheel(mouse.X, mouse.Y-1, n)
		return
	case viewIndexEdit:
		m.ixedit.wheel(n)
		return
	}
	for _, r := range m.rects {
		if mouse.X >= r.x-1 && mouse.X < r.x+r.w+1 {
			switch r.focus {
			case focusProjects:
				m.projects.list.scroll(n)
			case focusMemories:
				m.memories.list.scroll(n)
			case focusPreview:
				m.preview.scroll(n)
			}
		}
	}
}

// onClick focuses the pane clicked and selects the row clicked.
func (m *Model) onClick(mouse tea.Mouse) {
	if mouse.Button != tea.MouseLeft {
		return
	}
	if m.view == viewFindings {
		m.findings.list.clickRow(mouse.Y - 2) // title bar, filter line
		return
	}
	if m.view == viewProposals {
		m.proposals.click(mouse.X, mouse.Y-1) // below the title bar
		return
	}
	if m.view == viewChanges {
		m.changes.click(mouse.X, mouse.Y-1)
		return
	}
	if m.view != viewBrowse {
		return
	}
	for _, r := range m.rects {
		if mouse.X < r.x-1 || mouse.X >= r.x+r.w+1 {
			continue
		}
		if r.focus != m.focus {
			m.setFocus(r.focus)
		}
		switch r.focus {
		case focusProjects:
			m.projects.list.clickRow(mouse.Y - r.y)
		case focusMemories:
			m.memories.list.clickRow(mouse.Y - r.y)
		}
	}
}
