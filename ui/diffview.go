package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
)

// span is a run of a diff line's text; hl marks the words that changed
// from the line it is paired with.
type span struct {
	text string
	hl   bool
}

// diffRow is one line of a hunk: masked, cleaned of control characters,
// split into spans for the word highlights.
type diffRow struct {
	op       byte // ' ', '+' or '-'
	old, new int  // line numbers; 0 on the side the line is not on
	spans    []span
	// blk numbers the block (a run of changed lines without context) the
	// row is in, through the change; -1 for a context line.
	blk int
}

type hunkDiff struct {
	oldStart, oldLines, newStart, newLines int
	rows                                   []diffRow
}

// fileDiff is one change of a proposal, diffed in the background (the
// proposals Cmd) so that drawing it is only styling.
type fileDiff struct {
	path string
	// from is a move's source (path its destination).
	from           string
	op             model.ChangeOp
	hunks          []hunkDiff
	added, removed int
	maxLine        int
	// maxW is the widest line's width in cells, as drawn: how far the
	// view can scroll sideways.
	maxW int
	// blocks counts the blocks as shown (of the masked texts).
	blocks int
}

// diffContext is the unchanged lines shown around a change, as diff -u.
const diffContext = 3

// wordDiffMax bounds the lines compared word by word: a longer line is
// coloured whole rather than diffed at length.
const wordDiffMax = 2000

// diffChange diffs one change against the file as the proposal read it.
// Secrets never reach the screen: the texts are masked before the diff
// (so a multi-line secret is caught) and every shown line again after.
func diffChange(c model.Change, before string, sc *secrets.Scanner) fileDiff {
	if c.Op == model.OpMove {
		return fileDiff{path: c.Path, from: c.From, op: c.Op, blocks: 1} // a rename: no text changes
	}
	after := c.After
	switch c.Op {
	case model.OpCreate:
		before = ""
	case model.OpDelete:
		after = ""
	}
	lines := diff.Lines(safe.Mask(sc, before), safe.Mask(sc, after))
	fd := fileDiff{path: c.Path, op: c.Op}
	// Number the blocks as diff.Blocks does: maximal runs of
	// changed lines. A line is known by its pair of line numbers.
	blk := map[[2]int]int{}
	prevSame := true
	for _, l := range lines {
		if l.Op == diff.Same {
			prevSame = true
			continue
		}
		if prevSame {
			fd.blocks++
		}
		prevSame = false
		blk[[2]int{l.Old, l.New}] = fd.blocks - 1
	}
	for _, h := range diff.Hunks(lines, diffContext) {
		hd := hunkDiff{oldStart: h.OldStart, oldLines: h.OldLines, newStart: h.NewStart, newLines: h.NewLines}
		for _, l := range h.Lines {
			text := cleanLine(safe.Mask(sc, strings.TrimSuffix(l.Text, "\r")))
			b := -1
			if l.Op != diff.Same {
				b = blk[[2]int{l.Old, l.New}]
			}
			hd.rows = append(hd.rows, diffRow{op: byte(l.Op), old: l.Old, new: l.New, spans: []span{{text: text}}, blk: b})
			fd.maxLine = max(fd.maxLine, l.Old, l.New)
			fd.maxW = max(fd.maxW, ansi.StringWidth(text))
			switch l.Op {
			case diff.Add:
				fd.added++
			case diff.Del:
				fd.removed++
			}
		}
		pairWords(hd.rows)
		fd.hunks = append(fd.hunks, hd)
	}
	return fd
}

// pairWords pairs each run of removed lines with the added lines that
// follow it, line by line, and marks the words that differ, as git's
// diff-highlight does. A pair with nothing in common stays whole.
func pairWords(rows []diffRow) {
	for i := 0; i < len(rows); {
		if rows[i].op != '-' {
			i++
			continue
		}
		j := i
		for j < len(rows) && rows[j].op == '-' {
			j++
		}
		k := j
		for k < len(rows) && rows[k].op == '+' {
			k++
		}
		for t := 0; t < min(j-i, k-j); t++ {
			del, add := &rows[i+t], &rows[j+t]
			a, b := del.spans[0].text, add.spans[0].text
			if len(a) > wordDiffMax || len(b) > wordDiffMax {
				continue
			}
			old, nw := diff.Words(a, b)
			if !sharesWords(old) {
				continue
			}
			del.spans, add.spans = toSpans(old), toSpans(nw)
		}
		i = k
	}
}

func sharesWords(ws []diff.WordSpan) bool {
	for _, w := range ws {
		if !w.Changed && strings.TrimSpace(w.Text) != "" {
			return true
		}
	}
	return false
}

func toSpans(ws []diff.WordSpan) []span {
	out := make([]span, 0, len(ws))
	for _, w := range ws {
		if n := len(out); n > 0 && out[n-1].hl == w.Changed {
			out[n-1].text += w.Text
			continue
		}
		out = append(out, span{text: w.Text, hl: w.Changed})
	}
	return out
}

// cleanLine makes a file's line (masked already) safe to draw in a diff:
// tabs become spaces, and everything else safe.Line escapes is shown as
// its escape (an escape sequence in a memory file reads \x1b).
func cleanLine(s string) string {
	return safe.Line(strings.ReplaceAll(s, "\t", "    "))
}

// diffView draws the selected proposal: its title, rationale and the
// findings it fixes, then every change as a diff, unified or side by side.
// The rows are built when the proposal, the size, the mode or the theme
// changes, never in View.
type diffView struct {
	c *shared
	// empty is what shows with nothing selected ("" for proposals).
	empty string
	ds    diffStyles
	item  *propItem
	split bool
	rows  []string
	// hunkRows are the rows where a hunk starts, for n and N.
	hunkRows []int
	off      int
	w, h     int
	// hcur is the hunk n and N went to last, -1 when the view has moved
	// otherwise since (the hunk then is the one at the top): all the
	// hunks may fit on screen, where n scrolls nothing.
	hcur int
	// wrap wraps long lines (the default); off, they are cut at the
	// view's edge and xoff cells of them scroll out on the left. textW is
	// the width their text had in the last build.
	wrap        bool
	xoff, textW int

	// Deciding hunk by hunk (off under --readonly: decOf is nil). The
	// cursor is on a toggle unit: one block of a change, or a whole change
	// when its blocks as shown (masked) do not match its real ones.
	decOf   func(*propItem) *decision
	dec     *decision
	units   []toggleUnit
	rowUnit []int // per row, its unit or -1
	cur     int
	anchor  int // where a range started (v); -1 for none
	// bodyStart is the first row of the changes (the marks start there).
	bodyStart int
	// building state
	unitBase  int
	unitWhole bool
}

// toggleUnit is what space toggles in the diff: blocks of one change.
type toggleUnit struct {
	ci          int   // the change's index in the proposal
	real        []int // its blocks, as consolidate numbers them
	first, last int   // its rows
	hunk        int   // the row of the hunk header above it
}

// gutterW is the cursor and state marks before each row when deciding.
const gutterW = 2

func newDiffView(c *shared) *diffView {
	return &diffView{c: c, ds: newDiffStyles(c.st.Theme), anchor: -1, wrap: true, hcur: -1}
}

// show draws it (nil for none), scrolled to the top unless it is the
// proposal already shown.
func (v *diffView) show(it *propItem) {
	same := it != nil && v.item != nil && it.p.ID == v.item.p.ID
	v.item = it
	off := v.off
	if !same {
		v.cur, v.anchor, v.xoff, v.hcur = 0, -1, 0, -1
	}
	v.build()
	if same {
		v.setOff(off)
	} else {
		v.off = 0
	}
}

// refresh redraws the proposal shown (its decision changed), in place.
func (v *diffView) refresh() {
	off := v.off
	v.build()
	v.setOff(off)
}

// currentChange is the index of the change under the cursor; with no
// cursor (a diff only read, not decided), of the change at the top of the
// view, where n and N scroll to.
func (v *diffView) currentChange() int {
	if !v.deciding() {
		row := -1
		if h := v.currentHunk(); h >= 0 {
			row = v.hunkRows[h]
		}
		for _, u := range v.units {
			if u.last > row { // the first unit with rows below the hunk's header
				return u.ci
			}
		}
		if n := len(v.units); n > 0 {
			return v.units[n-1].ci
		}
		return 0
	}
	if v.cur >= 0 && v.cur < len(v.units) {
		return v.units[v.cur].ci
	}
	return 0
}

// selectedUnits is the cursor's unit, or the range from the anchor.
func (v *diffView) selectedUnits() []toggleUnit {
	if len(v.units) == 0 {
		return nil
	}
	lo, hi := v.cur, v.cur
	if v.anchor >= 0 {
		lo, hi = min(v.anchor, v.cur), max(v.anchor, v.cur)
	}
	return v.units[max(lo, 0):min(hi+1, len(v.units))]
}

// inRange reports whether unit u is under the cursor or in the range.
func (v *diffView) inRange(u int) bool {
	if v.anchor < 0 {
		return u == v.cur
	}
	return u >= min(v.anchor, v.cur) && u <= max(v.anchor, v.cur)
}

// moveUnit moves the cursor to the next (1) or previous (-1) unit and
// scrolls to it: to its hunk's header when the unit fits below it.
func (v *diffView) moveUnit(step int) {
	if len(v.units) == 0 {
		return
	}
	v.cur = max(0, min(v.cur+step, len(v.units)-1))
	u := v.units[v.cur]
	if u.last-u.hunk < v.h {
		v.setOff(u.hunk)
	} else {
		v.setOff(u.first - 1)
	}
}

// deciding reports whether the diff shows the hunk marks.
func (v *diffView) deciding() bool { return v.dec != nil }

// tag marks the rows added since the last tag as the unit's.
func (v *diffView) tag(unit int) {
	for len(v.rowUnit) < len(v.rows) {
		v.rowUnit = append(v.rowUnit, unit)
	}
}

func (v *diffView) unitOf(r *diffRow) int {
	switch {
	case r.blk < 0:
		return -1
	case v.unitWhole:
		return v.unitBase
	}
	return v.unitBase + r.blk
}

// gutter is a row's marks: the cursor, then the unit's state.
func (v *diffView) gutter(i int) string {
	u := -1
	if i < len(v.rowUnit) {
		u = v.rowUnit[i]
	}
	if i < v.bodyStart {
		return ""
	}
	if u < 0 || u >= len(v.units) || v.dec == nil {
		return strings.Repeat(" ", gutterW)
	}
	cur := " "
	if v.inRange(u) {
		cur = v.ds.pHunk.Paint("▌")
	}
	un := v.units[u]
	on, n := 0, 0
	if un.ci < len(v.dec.sel) {
		for _, b := range un.real {
			if b < len(v.dec.sel[un.ci]) {
				n++
				if v.dec.sel[un.ci][b] {
					on++
				}
			}
		}
	}
	switch {
	case n > 0 && on == n:
		return cur + v.c.st.OK.Render("✓")
	case on > 0:
		return cur + "◐"
	}
	return cur + v.c.st.Faint.Render("·")
}

func (v *diffView) applyStyles() {
	v.ds = newDiffStyles(v.c.st.Theme)
	off := v.off
	v.build()
	v.setOff(off)
}

// toggleWrap switches between wrapped lines and lines cut at the edge,
// keeping the same hunk in view.
func (v *diffView) toggleWrap() {
	v.wrap, v.xoff = !v.wrap, 0
	v.rebuildAtHunk()
}

// rebuildAtHunk lays the rows out again, the hunk in view before still in
// view after (a change of mode moves every row).
func (v *diffView) rebuildAtHunk() {
	h := v.currentHunk()
	v.build()
	if h >= 0 && h < len(v.hunkRows) {
		v.setOff(v.hunkRows[h])
	} else {
		v.setOff(v.off)
	}
}

// widest is the widest line of the diff shown, in cells.
func (v *diffView) widest() int {
	n := 0
	if v.item != nil {
		for _, fd := range v.item.diffs {
			n = max(n, fd.maxW)
		}
	}
	return n
}

// scrollX moves the cut lines n cells sideways (wrapped lines are cut
// first: scrolling is what the user asked for). It stops once the widest
// line's end shows.
func (v *diffView) scrollX(n int) {
	if v.wrap {
		if n < 0 {
			return
		}
		v.wrap = false
	}
	v.xoff = max(0, min(v.xoff+n, v.widest()-v.textW+1))
	off := v.off
	v.build()
	v.setOff(off)
}

func (v *diffView) toggleMode() {
	v.split = !v.split
	v.rebuildAtHunk()
}

func (v *diffView) SetSize(w, h int) {
	v.w, v.h = max(w, 1), max(h, 1)
	off := v.off
	v.build()
	v.setOff(off)
}

func (v *diffView) setOff(off int) {
	v.off = max(0, min(off, len(v.rows)-v.h))
}

func (v *diffView) scroll(n int) { v.setOff(v.off + n) }

// currentHunk is the index of the last hunk starting at or above the top
// row; -1 above the first.
func (v *diffView) currentHunk() int {
	if v.hcur >= 0 && v.hcur < len(v.hunkRows) {
		return v.hcur
	}
	cur := -1
	for i, r := range v.hunkRows {
		if r <= v.off {
			cur = i
		}
	}
	return cur
}

// nextHunk scrolls to the next (step 1) or previous (-1) hunk.
func (v *diffView) nextHunk(step int) {
	if len(v.hunkRows) == 0 {
		return
	}
	h := v.currentHunk()
	if step > 0 {
		h = min(h+1, len(v.hunkRows)-1)
	} else {
		h--
	}
	if h < 0 {
		v.hcur = -1
		v.setOff(0)
		return
	}
	v.hcur = h
	v.setOff(v.hunkRows[h])
}

func (v *diffView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	mv, keys := v.c.keys.Move, v.c.keys.Diff
	if !key.Matches(k, keys.NextHunk, keys.PrevHunk, keys.Mode, keys.Wrap, keys.Left, keys.Right) {
		v.hcur = -1 // moved by hand: the hunk is the one at the top again
	}
	switch {
	case key.Matches(k, mv.Up):
		v.scroll(-1)
	case key.Matches(k, mv.Down):
		v.scroll(1)
	case key.Matches(k, mv.PageUp):
		v.scroll(-max(v.h-1, 1))
	case key.Matches(k, mv.PageDown):
		v.scroll(max(v.h-1, 1))
	case key.Matches(k, mv.Top):
		v.setOff(0)
	case key.Matches(k, mv.Bottom):
		v.setOff(len(v.rows))
	case key.Matches(k, keys.ScrollDown):
		v.scroll(max(v.h/2, 1))
	case key.Matches(k, keys.ScrollUp):
		v.scroll(-max(v.h/2, 1))
	case key.Matches(k, keys.NextHunk):
		v.nextHunk(1)
	case key.Matches(k, keys.PrevHunk):
		v.nextHunk(-1)
	case key.Matches(k, keys.Mode):
		v.toggleMode()
	case key.Matches(k, keys.Wrap):
		v.toggleWrap()
	case key.Matches(k, keys.Left):
		v.scrollX(-max(v.textW/3, 4))
	case key.Matches(k, keys.Right):
		v.scrollX(max(v.textW/3, 4))
	}
	return nil
}

func (v *diffView) View() string {
	end := min(v.off+v.h, len(v.rows))
	if !v.deciding() {
		return fit(strings.Join(v.rows[v.off:end], "\n"), v.w, v.h)
	}
	var b strings.Builder
	for i := v.off; i < end; i++ {
		if i > v.off {
			b.WriteByte('\n')
		}
		b.WriteString(v.gutter(i) + v.rows[i])
	}
	return fit(b.String(), v.w, v.h)
}

// shortHelp is the footer's keys while the diff has them; back is the
// owning view's (it leaves the diff for the list).
func (v *diffView) shortHelp(back key.Binding) []key.Binding {
	k := v.c.keys
	return []key.Binding{k.Move.Up, k.Move.Down, k.Diff.NextHunk, k.Diff.Mode, k.Diff.Wrap, k.Diff.Zoom, back}
}

// modeName says how the diff is drawn, for the pane's heading: unified or
// side by side, and whether long lines are cut (and from which column).
func (v *diffView) modeName() string {
	m := "unified"
	if v.split {
		m = "side by side"
	}
	if !v.wrap {
		m += " · lines cut"
		if v.xoff > 0 {
			m += " · from column " + itoa(v.xoff+1)
		}
	}
	return m
}

// build lays out every row at the current width.
func (v *diffView) build() {
	v.rows, v.hunkRows, v.rowUnit, v.units = v.rows[:0], v.hunkRows[:0], v.rowUnit[:0], v.units[:0]
	v.dec = nil
	if v.item != nil && v.decOf != nil {
		v.dec = v.decOf(v.item)
	}
	v.bodyStart = 0
	defer v.finishUnits()
	st := v.c.st
	w := v.w
	if v.item == nil {
		empty := v.empty
		if empty == "" {
			empty = "Select a proposal to see its diff."
		}
		v.rows = append(v.rows, st.Faint.Render(ansi.Truncate(empty, w, "…")))
		return
	}
	p := v.item.p
	// Every header line quotes a proposal (a proposer's words), a path or
	// an error: wrap makes it safe before it is laid out.
	wrap := func(s string, style func(string) string) {
		for _, ln := range strings.Split(ansi.Wrap(safe.ShowLine(s), w, " "), "\n") {
			v.rows = append(v.rows, style(ansi.Truncate(ln, w, "…")))
		}
	}
	faint := paint.New(st.Faint).Paint
	wrap(v.item.title, paint.New(st.Bold).Paint)
	label := string(p.Kind) + " · " + p.ID
	if v.item.label != "" {
		label = v.item.label
	}
	v.rows = append(v.rows, faint(ansi.Truncate(safe.ShowLine(label), w, "…")))
	where := report.Tilde(p.MemoryDir, v.c.home)
	if v.item.dir != "" {
		where += " (" + v.item.dir + ")"
	}
	v.rows = append(v.rows, faint(truncLeft(safe.ShowLine(where), w)))
	v.rows = append(v.rows, "")
	wrap(v.item.rationale, paint.New(st.Text).Paint)
	if len(p.Fixes) > 0 {
		refs := make([]string, len(p.Fixes))
		for i, f := range p.Fixes {
			refs[i] = f.Rule
			if f.File != "" {
				refs[i] += " " + f.File
				if f.Line > 0 {
					refs[i] += ":" + itoa(f.Line)
				}
			}
		}
		wrap("fixes: "+strings.Join(refs, ", "), faint)
	}
	if n := len(p.Reads); n > 0 {
		// A merge reads every file it compared: name a few, count the rest.
		const most = 4
		names := make([]string, 0, most)
		for _, r := range p.Reads[:min(n, most)] {
			names = append(names, r.Path)
		}
		reads := "reads, unchanged: " + strings.Join(names, ", ")
		if n > most {
			reads += fmt.Sprintf(" and %d more", n-most)
		}
		wrap(reads, faint)
	}
	if v.dec != nil {
		switch {
		case v.dec.err != nil:
			wrap("✗ cannot be written: "+v.dec.err.Error(), paint.New(st.Error).Paint)
		case v.dec.result != nil && v.dec.result.Err != nil:
			wrap(string(v.dec.result.Status)+": "+v.dec.result.Err.Error(), paint.New(st.Error).Paint)
		}
	}
	ds := v.ds
	v.bodyStart = len(v.rows)
	if v.deciding() && v.w > gutterW+1 {
		// The changes are drawn narrower; View puts the marks before them.
		v.w -= gutterW
		w = v.w
		defer func() { v.w += gutterW }()
	}
	for ci, fd := range v.item.diffs {
		// The change's toggle units: one per block, or the whole change
		// when the blocks as shown differ from the real ones.
		realN := v.item.blockCount(ci)
		v.unitBase, v.unitWhole = len(v.units), fd.blocks != realN || fd.op != model.OpUpdate
		if v.unitWhole {
			all := make([]int, realN)
			for b := range all {
				all[b] = b
			}
			v.units = append(v.units, toggleUnit{ci: ci, real: all})
		} else {
			for b := range realN {
				v.units = append(v.units, toggleUnit{ci: ci, real: []int{b}})
			}
		}
		v.tag(-1)
		v.rows = append(v.rows, "")
		v.tag(-1)
		v.rows = append(v.rows, v.fileHeader(fd))
		if v.unitWhole {
			v.tag(v.unitBase) // the cursor shows on the file's header too
		}
		switch {
		case fd.op == model.OpMove:
			rename := diff.RenameLine(safe.ShowLine(fd.from), safe.ShowLine(fd.path))
			v.rows = append(v.rows, faint(ansi.Truncate("  "+rename+" (no change to the text)", w, "…")))
		case len(fd.hunks) == 0:
			v.rows = append(v.rows, faint(ansi.Truncate("  (no change to the text)", w, "…")))
		}
		for _, h := range fd.hunks {
			v.tag(-1)
			v.hunkRows = append(v.hunkRows, len(v.rows))
			head := fmt.Sprintf("@@ -%s +%s @@", hunkRange(h.oldStart, h.oldLines), hunkRange(h.newStart, h.newLines))
			v.rows = append(v.rows, ds.pHunk.Paint(ansi.Truncate(head, w, "…")))
			if v.split {
				v.splitRows(fd, h)
			} else {
				v.unifiedRows(fd, h)
			}
		}
	}
	v.tag(-1)
}

// finishUnits finds each unit's rows and the hunk header above it.
func (v *diffView) finishUnits() {
	v.tag(-1)
	for i := range v.units {
		v.units[i].first, v.units[i].last = -1, -1
	}
	for r, u := range v.rowUnit {
		if u < 0 || u >= len(v.units) {
			continue
		}
		if v.units[u].first < 0 {
			v.units[u].first = r
		}
		v.units[u].last = r
	}
	for i := range v.units {
		u := &v.units[i]
		if u.first < 0 {
			u.first, u.last = 0, 0
		}
		u.hunk = u.first
		for _, h := range v.hunkRows {
			if h <= u.first {
				u.hunk = h
			}
		}
	}
	v.cur = max(0, min(v.cur, len(v.units)-1))
	if v.anchor >= len(v.units) {
		v.anchor = -1
	}
}

// fileHeader names a change's file and what happens to it.
func (v *diffView) fileHeader(fd fileDiff) string {
	st := v.c.st
	var what string
	switch fd.op {
	case model.OpCreate:
		what = fmt.Sprintf("new file · +%d", fd.added)
	case model.OpDelete:
		what = fmt.Sprintf("deleted; kept in the journal when applied · -%d", fd.removed)
		if v.item != nil && v.item.observed {
			// A change someone made (the changes, the sessions view):
			// whoever deleted the file, memtui keeps nothing of it.
			what = fmt.Sprintf("deleted · -%d", fd.removed)
		}
	case model.OpMove:
		what = "moved; bytes and mtime kept"
	default:
		what = fmt.Sprintf("+%d -%d", fd.added, fd.removed)
	}
	name := truncLeft(safe.ShowLine(fd.path), max(v.w*2/3, 1))
	if fd.op == model.OpMove {
		name = truncLeft(safe.ShowLine(fd.from)+" → "+safe.ShowLine(fd.path), max(v.w*2/3, 1))
	}
	rest := ansi.Truncate("  "+what, max(v.w-ansi.StringWidth(name), 0), "…")
	return v.ds.pFile.Paint(name) + st.Faint.Render(rest)
}

// maxWrapRows bounds the rows one long line wraps to.
const maxWrapRows = 40

// contMark starts a row that goes on with the line above, in place of its
// +/- mark: a 4-line removal shows 4 minus signs however many rows its
// lines wrap to.
const contMark = "┆"

// numCols says which line numbers the unified view's gutter shows.
type numCols int

const (
	numNone numCols = iota
	numOne          // the new line's number; a removed line's old one
	numBoth         // the old and the new, as side by side shows them
)

// numGutter picks the unified view's line numbers for a diff w cells
// wide whose numbers take numW: both columns while the text keeps 30
// cells, one while it keeps 20, none below. gw is the gutter's width.
func numGutter(w, numW int) (cols numCols, gw int) {
	switch {
	case w-(2*numW+2)-1 >= 30:
		return numBoth, 2*numW + 2
	case w-(numW+1)-1 >= 20:
		return numOne, numW + 1
	}
	return numNone, 0
}

// lineNos is a unified row's line numbers, blank on the side the line is
// not on.
func (v *diffView) lineNos(r *diffRow, cols numCols, numW int) string {
	num := func(n int) string {
		if n <= 0 {
			return strings.Repeat(" ", numW)
		}
		return fmt.Sprintf("%*d", numW, n)
	}
	switch cols {
	case numBoth:
		return v.ds.pLineNo.Paint(num(r.old)+" "+num(r.new)) + " "
	case numOne:
		n := r.new
		if r.op == '-' {
			n = r.old
		}
		return v.ds.pLineNo.Paint(num(n)) + " "
	}
	return ""
}

// unifiedRows draws a hunk as diff -u does, with the line numbers before
// the +/- mark. A long line wraps under a continuation mark, or, with
// wrapping off, is cut where the view ends (Left and Right scroll it).
func (v *diffView) unifiedRows(fd fileDiff, h hunkDiff) {
	numW := max(len(itoa(fd.maxLine)), 2)
	cols, gw := numGutter(v.w, numW)
	tw := max(v.w-gw-1, 1)
	v.textW = tw
	cont := strings.Repeat(" ", gw) + v.ds.pLineNo.Paint(contMark)
	for _, r := range h.rows {
		v.tag(-1)
		unit := v.unitOf(&r)
		line, word := v.ds.forOp(r.op)
		lead := v.lineNos(&r, cols, numW) + line.Paint(string(r.op))
		for i, seg := range v.lineRows(r.spans, tw) {
			if i > 0 {
				lead = cont
			}
			v.rows = append(v.rows, lead+paintSpans(seg, line, word))
		}
		v.tag(unit)
	}
}

// lineRows lays one line out in rows of tw cells: wrapped (words kept
// whole where they can be; at most maxWrapRows, the last cut with …) or,
// with wrapping off, one row from the sideways offset.
func (v *diffView) lineRows(sp []span, tw int) [][]span {
	if !v.wrap {
		return [][]span{clipSpans(sp, v.xoff, tw)}
	}
	var out [][]span
	rest := sp
	for n := 0; ; n++ {
		var head []span
		head, rest = wrapSpans(rest, tw)
		if n == maxWrapRows-1 && len(rest) > 0 {
			head, _ = cutSpans(head, tw-1)
			head = append(head, span{text: "…"})
			rest = nil
		}
		out = append(out, head)
		if len(rest) == 0 {
			return out
		}
	}
}

// clipSpans is the part of a line tw cells wide from cell xoff on, with …
// at an edge the line goes on past.
func clipSpans(sp []span, xoff, tw int) []span {
	if tw <= 1 {
		if spansWidth(sp) > xoff {
			return []span{{text: "…"}}
		}
		return nil
	}
	var out []span
	if xoff > 0 {
		var cut bool
		sp, cut = dropCells(sp, xoff)
		if cut && spansWidth(sp) > 0 {
			out = append(out, span{text: "…"})
			tw--
		}
	}
	if spansWidth(sp) <= tw {
		return append(out, sp...)
	}
	head, _ := cutSpans(sp, tw-1)
	return append(append(out, head...), span{text: "…"})
}

// dropCells takes n cells off the front of a line; cut says whether any
// text went.
func dropCells(sp []span, n int) (rest []span, cut bool) {
	for i, s := range sp {
		if n <= 0 {
			return sp[i:], cut
		}
		w := ansi.StringWidth(s.text)
		if w <= n {
			n -= w
			cut = cut || w > 0
			continue
		}
		t := ansi.TruncateLeft(s.text, n, "")
		return append([]span{{text: t, hl: s.hl}}, sp[i+1:]...), true
	}
	return nil, cut
}

// splitRows draws a hunk in two columns: the old text on the left, the
// new on the right, removed lines beside the lines that replace them. Each
// side wraps (or is cut) in its own column.
func (v *diffView) splitRows(fd fileDiff, h hunkDiff) {
	numW := max(len(itoa(fd.maxLine)), 2)
	cellW := (v.w - 1) / 2
	tw := cellW - numW - 2
	if tw < 8 {
		// Too narrow for two columns: fall back to one.
		v.unifiedRows(fd, h)
		return
	}
	v.textW = tw
	sep := v.ds.pSep.Paint("│")
	blank := strings.Repeat(" ", cellW)
	pair := func(left, right []string) {
		for i := range max(len(left), len(right)) {
			l, r := blank, blank
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			v.rows = append(v.rows, l+sep+r)
		}
	}
	for i := 0; i < len(h.rows); {
		r := h.rows[i]
		v.tag(-1)
		if r.op == ' ' {
			pair(v.cellRows(r.old, &r, numW, tw), v.cellRows(r.new, &r, numW, tw))
			i++
			continue
		}
		unit := v.unitOf(&r)
		j := i
		for j < len(h.rows) && h.rows[j].op == '-' {
			j++
		}
		k := j
		for k < len(h.rows) && h.rows[k].op == '+' {
			k++
		}
		if k == i { // cannot happen (Hunks orders - before +), but never loop
			k = i + 1
		}
		dels, adds := h.rows[i:j], h.rows[j:k]
		for t := 0; t < max(len(dels), len(adds)); t++ {
			var left, right []string
			if t < len(dels) {
				left = v.cellRows(dels[t].old, &dels[t], numW, tw)
			}
			if t < len(adds) {
				right = v.cellRows(adds[t].new, &adds[t], numW, tw)
			}
			pair(left, right)
		}
		v.tag(unit)
		i = k
	}
}

// cellRows is one side of a side-by-side line: the line number and the
// mark, then the text in rows of tw cells (continuations marked), each
// padded to the column's width.
func (v *diffView) cellRows(n int, r *diffRow, numW, tw int) []string {
	line, word := v.ds.forOp(r.op)
	segs := v.lineRows(r.spans, tw)
	out := make([]string, len(segs))
	for i, seg := range segs {
		lead := v.ds.pLineNo.Paint(fmt.Sprintf("%*d", numW, n)) + " " + line.Paint(string(r.op))
		if i > 0 {
			lead = strings.Repeat(" ", numW+1) + v.ds.pLineNo.Paint(contMark)
		}
		out[i] = lead + paintSpans(seg, line, word) + strings.Repeat(" ", max(tw-spansWidth(seg), 0))
	}
	return out
}

// cutSpans splits spans after w cells (at least one character, so that
// wrapping always moves on).
func cutSpans(sp []span, w int) (head, tail []span) {
	for i, s := range sp {
		sw := ansi.StringWidth(s.text)
		if sw <= w {
			if s.text != "" {
				head = append(head, s)
			}
			w -= sw
			continue
		}
		cut := ansi.Truncate(s.text, max(w, 0), "")
		if cut == "" && len(head) == 0 {
			// A wide character in a one-cell column: take it anyway.
			_, size := utf8.DecodeRuneInString(s.text)
			cut = s.text[:size]
		}
		if cut != "" {
			head = append(head, span{text: cut, hl: s.hl})
		}
		tail = append([]span{{text: s.text[len(cut):], hl: s.hl}}, sp[i+1:]...)
		return head, tail
	}
	return head, nil
}

// wrapSpans is cutSpans breaking after a space when one falls in the
// second half of the row, so that words stay whole.
func wrapSpans(sp []span, w int) (head, tail []span) {
	head, tail = cutSpans(sp, w)
	if len(tail) == 0 {
		return head, tail
	}
	var b strings.Builder
	for _, s := range head {
		b.WriteString(s.text)
	}
	text := b.String()
	i := strings.LastIndexByte(text, ' ')
	if i < 0 || ansi.StringWidth(text[:i+1]) <= w/2 {
		return head, tail
	}
	return splitSpansAt(sp, i+1)
}

// splitSpansAt splits spans n bytes into their text.
func splitSpansAt(sp []span, n int) (head, tail []span) {
	for i, s := range sp {
		if n >= len(s.text) {
			head = append(head, s)
			n -= len(s.text)
			if n == 0 {
				return head, sp[i+1:]
			}
			continue
		}
		if n > 0 {
			head = append(head, span{text: s.text[:n], hl: s.hl})
		}
		return head, append([]span{{text: s.text[n:], hl: s.hl}}, sp[i+1:]...)
	}
	return head, nil
}

func spansWidth(sp []span) int {
	n := 0
	for _, s := range sp {
		n += ansi.StringWidth(s.text)
	}
	return n
}

func paintSpans(sp []span, line, word paint.Painter) string {
	var b strings.Builder
	for _, s := range sp {
		if s.hl {
			b.WriteString(word.Paint(s.text))
		} else {
			b.WriteString(line.Paint(s.text))
		}
	}
	return b.String()
}

// hunkRange writes a hunk header's range as diff -u does.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", max(start-1, 0))
	case 1:
		return itoa(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
