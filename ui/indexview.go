package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/themes"
)

// indexView shows a MEMORY.md as Claude Code hands it to the agent: the
// text that loads, sanitised as Claude Code sanitises it and numbered as
// the agent sees it, the cut drawn where it falls with the warning the
// agent gets, then every line it never sees, with its line in the file.
// Meters above measure lines and UTF-16 units against both caps. An index
// over the 4 MiB Claude Code reads is said to load not at all.
type indexView struct {
	c     *shared
	dd    *dirData
	title string
	// file and load are the index shown: dd's MEMORY.md, or, in a dir
	// with none (a team dir), its first memory store's index.
	file *model.File
	load *claude.Load
	sub  string // what the title adds for a store's index
	// cx, when set, is the Codex store whose memory_summary.md is shown
	// instead (codexsummary.go).
	cx   *app.CodexStore
	vp   viewport.Model
	w, h int
	// cutRow is the content row of the cut marker (-1 when nothing is cut).
	cutRow int
	// fileRow maps a file line to its content row, for jumps.
	fileRow map[int]int
	// target is the file line a jump went to (0 for none): its row is
	// drawn highlighted, so the eye finds it among the others.
	target int
}

func newIndexView(c *shared) *indexView {
	vp := viewport.New()
	vp.MouseWheelEnabled = false
	return &indexView{c: c, vp: vp, cutRow: -1}
}

// pick sets the directory shown and the index shown of it: its MEMORY.md,
// or, in a dir with none (a team dir), its first memory store's index.
func (v *indexView) pick(dd *dirData) {
	v.dd, v.file, v.load, v.sub, v.cx = dd, nil, nil, "", nil
	switch {
	case dd == nil:
	case dd.d.Index != nil:
		v.file, v.load = dd.d.Index, dd.load
	case len(dd.d.StoreIndexes) > 0:
		// Claude Code's path for a store's index was not traced (facts
		// 7.1): it is measured as MEMORY.md is, and said to be.
		si := dd.d.StoreIndexes[0]
		v.file, v.load = si.File, &dd.storeLoads[0]
		v.sub = " · " + si.Store.Label() + " index " + si.File.Path + ", measured as MEMORY.md"
		if n := len(dd.d.StoreIndexes); n > 1 {
			v.sub += fmt.Sprintf(" (1 of %d: memtui index lists all)", n)
		}
	}
}

// open shows a directory's index; line, when positive, is a file line to
// scroll to.
func (v *indexView) open(dd *dirData, title string, line int) {
	v.title = title
	v.target = max(line, 0)
	v.pick(dd)
	v.build()
	v.vp.GotoTop()
	switch row, ok := v.fileRow[line]; {
	case ok && line > 0:
		v.vp.SetYOffset(max(row-3, 0))
	case v.cutRow >= 0:
		// A cut index opens at the cut: the last lines the agent reads,
		// the cut, and what it never sees. g goes to the top.
		v.vp.SetYOffset(max(v.cutRow-v.vp.Height()/3, 0))
	}
}

func (v *indexView) SetSize(w, h int) {
	v.w, v.h = w, h
	off := v.vp.YOffset()
	v.build()
	v.vp.SetYOffset(off)
}

// headerLines is how many lines the meters take above the text.
const indexHeaderLines = 5

func (v *indexView) build() {
	v.vp.SetWidth(v.w)
	v.vp.SetHeight(max(v.h-indexHeaderLines, 1))
	v.fileRow = map[int]int{}
	v.cutRow = -1
	if v.cx != nil {
		v.buildCodex()
		return
	}
	if v.load == nil || v.file == nil {
		msg := "This memory directory has no MEMORY.md: Claude Code loads nothing for it."
		if v.dd != nil && v.dd.d.Kind == model.DirTeam {
			msg = "Team memory has no index of its own in Claude Code 2.1.332: each team store mounted through CLAUDE_MEMORY_STORES has one at team/<mount>/<promptIndex>, and no mounted store has one here."
		}
		if n := indexable(v.dd); n > 0 && v.file == nil {
			msg += fmt.Sprintf("\n\n%s starts one: a line for each of its %d %s, grouped by type, shown as a diff to edit before anything is written.",
				v.c.keys.Index.EditIndex.Help().Key, n, model.Plural(n, "memory", "memories"))
			if v.c.readonly {
				msg = strings.TrimSuffix(msg, ".") + " (not in this --readonly run, which writes nothing)."
			}
		}
		v.vp.SetContent(v.c.st.Faint.Render(ansi.Wrap(msg, max(v.w, 10), " ")))
		return
	}
	st := v.c.st
	l := v.load
	if l.TooLarge {
		// Drawing 4 MiB of lines would tell nothing more.
		msg := fmt.Sprintf("This index is %d bytes, over the %d bytes Claude Code reads of an index: it loads none of it, and the agent is not told. Every entry in it is unseen.",
			v.file.Size, model.IndexMaxReadBytes)
		v.vp.SetContent(st.Sev[model.Error].Render(ansi.Wrap(msg, max(v.w, 10), " ")))
		return
	}
	content := v.file.Content
	fileLines := strings.Split(strings.ReplaceAll(string(content), "\r\n", "\n"), "\n")
	var rows []string
	num := func(n int, w int) string { return st.LineNo.Render(fmt.Sprintf("%*d", w, n)) }
	// The gutter marks each line a finding points at with its worst
	// severity, as the source view does.
	worst := map[int]model.Severity{}
	if v.dd != nil {
		for _, f := range v.dd.findings {
			if f.File != v.file.Path || f.Line <= 0 {
				continue
			}
			if s, ok := worst[f.Line]; !ok || f.Severity > s {
				worst[f.Line] = f.Severity
			}
		}
	}
	// hl draws the jump target's row as the selection is drawn, its text
	// plain (the row's own colours would fight the highlight).
	hl := func(row string) string {
		plain := ansi.Strip(row)
		return st.Selected.Render(plain + strings.Repeat(" ", max(v.w-ansi.StringWidth(plain), 0)))
	}
	// What the agent receives, secrets masked (one the cut goes through
	// too), split into the agent's lines: a U+2028 or a lone CR in a line
	// of the file starts another once sanitised.
	text, warning := safe.LoadText(l)
	sentText := strings.TrimSuffix(strings.TrimSuffix(text, warning), "\n\n")
	sent := strings.Split(sentText, "\n")
	numW := len(itoa(max(len(fileLines), len(sent), 1)))
	textW := max(v.w-numW-4, 10)
	switch {
	case l.Empty && l.Mode == model.LoadAgent:
		rows = append(rows, st.Faint.Render("The file holds only whitespace: Claude Code tells the subagent \"Your MEMORY.md is currently empty. When you save new memories, they will appear here.\""))
	case l.Empty:
		rows = append(rows, st.Faint.Render("After frontmatter and comments are stripped nothing is left: Claude Code injects nothing."))
	}
	// What is shown is masked in the whole text (a secret spanning lines
	// is found only whole), then made safe line by line.
	shownFile := shownLines(strings.Join(fileLines, "\n"))
	if !l.Empty {
		loaded := sent
		shownLoaded := shownLines(sentText)
		// Map the agent's lines back to file lines where the text is
		// unchanged, for jumps from findings; a line the sanitiser changed
		// maps to none and does not stop the lines after it from mapping.
		match := strings.Split(l.Sent, "\n") // unmasked: as in the file
		if len(match) != len(loaded) {
			match = loaded
		}
		fi := 0
		for i := range loaded {
			j := fi
			for j < len(fileLines) && strings.TrimRight(fileLines[j], "\r") != match[i] {
				j++
			}
			line := 0
			if j < len(fileLines) {
				line = j + 1
				v.fileRow[line] = len(rows)
				fi = j + 1
			}
			mark := " "
			if sev, ok := worst[line]; ok && line > 0 {
				mark = st.Sev[sev].Render(sevSymbol(sev))
			}
			if i == len(loaded)-1 && l.LastLineCut {
				mark = st.Cut.Render("✂")
			}
			row := num(i+1, numW) + " " + mark + " " + ansi.Truncate(shownLoaded(i), textW, "…")
			if line > 0 && line == v.target {
				row = hl(row)
			}
			rows = append(rows, row)
		}
	}
	if l.Truncated() {
		v.cutRow = len(rows)
		why := "the 200-line cap"
		switch {
		case l.SizeTruncated && l.LineTruncated:
			why = "both caps (200 lines, 25,000 UTF-16 units)"
		case l.SizeTruncated:
			why = "the 25,000 UTF-16 unit cap"
		}
		rows = append(rows, st.Cut.Render(ansi.Truncate("✂── the agent stops reading here: "+why+" "+strings.Repeat("─", v.w), v.w, "")))
		rows = append(rows, st.Faint.Render("   Claude Code then appends, as the last thing the agent reads:"))
		for _, ln := range strings.Split(ansi.Wrap(strings.TrimSpace(warning), max(v.w-5, 10), " "), "\n") {
			rows = append(rows, st.Faint.Render("   │ ")+safe.ShowLine(ln))
		}
		rows = append(rows, "", st.Bold.Render(fmt.Sprintf("Never seen by the agent: %d %s", len(l.Dropped), model.Plural(len(l.Dropped), "line", "lines"))))
		for _, n := range l.Dropped {
			text := ""
			if n-1 < len(fileLines) {
				text = shownFile(n - 1)
			}
			v.fileRow[n] = len(rows)
			row := num(n, numW) + " " + st.Cut.Render("✗") + " " + st.Dropped.Render(ansi.Truncate(text, textW, "…"))
			if n == v.target {
				row = hl(row)
			}
			rows = append(rows, row)
		}
	}
	v.vp.SetContent(strings.Join(rows, "\n"))
}

// meters draws the budget: lines and units against both caps.
func (v *indexView) meters() string {
	st := v.c.st
	if v.cx != nil {
		return v.metersCodex()
	}
	if v.load == nil {
		return fit(st.Title.Render(safe.ShowLine(v.title)), v.w, indexHeaderLines)
	}
	l := v.load
	status := st.OK.Render("✓ loads whole")
	switch {
	case l.TooLarge:
		status = st.Sev[model.Error].Render("✗ not loaded: over the 4 MiB Claude Code reads")
	case l.Truncated():
		status = st.Sev[model.Error].Render(fmt.Sprintf("✗ cut: %d of its lines never reach the agent", len(l.Dropped)) + blankCut(l))
	case l.NearLimit():
		status = st.Sev[model.Warning].Render("▲ near a cap")
	}
	barW := max(min(v.w-34, 50), 8)
	lines := []string{
		ansi.Truncate(st.Title.Render(safe.ShowLine(v.title+v.sub))+"  "+status, v.w, "…"),
		meter(st, "lines", l.LineCount, model.IndexMaxLines, barW, "%d / %d"),
		meter(st, "units", l.Units, model.IndexMaxUnits, barW, "%d / %d"),
		st.Faint.Render(ansi.Truncate(capsNote(l), v.w, "…")),
		st.Faint.Render(strings.Repeat("─", v.w)),
	}
	return fit(strings.Join(lines, "\n"), v.w, indexHeaderLines)
}

// blankCut says how many blank lines the cut also took, when the lines
// meter's "N over" counts them: 9 over beside 5 lines that never reach
// the agent needs the 4 blank ones to add up.
func blankCut(l *claude.Load) string {
	if !l.LineTruncated {
		return ""
	}
	if n := l.LineCount - model.IndexMaxLines - len(l.Dropped); n > 0 {
		return fmt.Sprintf(", nor %d blank %s", n, model.Plural(n, "one", "ones"))
	}
	return ""
}

// capsNote says how the meters measure: what Claude Code strips first.
func capsNote(l *claude.Load) string {
	switch {
	case l.TooLarge:
		return "Claude Code skips an index over 4,194,304 bytes entirely: no text, no warning."
	case l.Mode == model.LoadAgent:
		return fmt.Sprintf("Caps as Claude Code applies them to a subagent's MEMORY.md: nothing is stripped. Loaded: %d lines, %d units.", l.LoadedLines, l.LoadedUnits)
	}
	return fmt.Sprintf("Caps as Claude Code applies them, after stripping frontmatter and <!-- comments -->. Loaded: %d lines, %d units.", l.LoadedLines, l.LoadedUnits)
}

// meter is one labelled bar; past the cap it fills red and says by how much.
func meter(st themes.Styles, label string, n, cap, w int, format string) string {
	frac := float64(n) / float64(cap)
	fill := int(min(frac, 1) * float64(w))
	barStyle := st.MeterFill
	over := ""
	if n > cap {
		barStyle = st.Cut
		over = st.Cut.Render(fmt.Sprintf("  %d over", n-cap))
	}
	bar := barStyle.Render(strings.Repeat("█", fill)) + st.MeterEmpty.Render(strings.Repeat("░", w-fill))
	return fmt.Sprintf("%-6s %s %s%s", label, bar, fmt.Sprintf(format, n, cap), over)
}

// key handles the index view's keys: leaving, the index editor, $EDITOR.
func (v *indexView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Index
	switch {
	case key.Matches(k, keys.Back):
		return h.navigate(navigateMsg{to: viewBrowse})
	case v.cx != nil && key.Matches(k, keys.EditIndex, keys.Edit):
		h.say(codexEditNote(v.c))
		return nil
	case key.Matches(k, keys.EditIndex):
		return h.navigate(navigateMsg{to: viewIndexEdit})
	case key.Matches(k, keys.Edit):
		return h.edit()
	}
	return v.Update(k)
}

func (v *indexView) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		scrollKeys(&v.vp, v.c, k)
	}
	return nil
}

func (v *indexView) View() string {
	return v.meters() + "\n" + fit(v.vp.View(), v.w, max(v.h-indexHeaderLines, 1))
}

func (v *indexView) scope() keymap.Scope { return keymap.ScopeIndex }

func (v *indexView) ShortHelp() []key.Binding {
	k := v.c.keys
	if v.cx != nil {
		return []key.Binding{k.Move.Up, k.Move.Down, k.Move.PageDown, k.Index.Back}
	}
	edit := k.Index.EditIndex
	if v.file == nil && indexable(v.dd) > 0 {
		edit.SetHelp(edit.Help().Key, "start MEMORY.md") // (a copy: the key map keeps its text)
	}
	return []key.Binding{k.Move.Up, k.Move.Down, k.Move.PageDown, edit, k.Index.Edit, k.Index.Back}
}

// shownLines masks the secrets in the whole of text and returns line i of
// the result made safe to draw. Masking keeps the number of lines; were it
// ever not to, the lines would shift, but no line of a secret would show
// (masking a line on its own would miss the inside of a PEM key).
func shownLines(text string) func(i int) string {
	masked := strings.Split(safe.Mask(nil, text), "\n")
	return func(i int) string {
		if i < len(masked) {
			return cleanLine(strings.TrimRight(masked[i], "\r"))
		}
		return ""
	}
}
