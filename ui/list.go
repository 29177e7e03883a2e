package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/safe"
)

// row is one line of a list. Headers group the rows below them and are
// skipped by the cursor.
type row struct {
	header bool
	// left is drawn from the left edge and cut to fit (as cut says); right
	// is drawn against the right edge and kept whole when there is room.
	left, right string
	// cols are the row's figures (uses, age, size, a count): drawn at the
	// right edge in the list's columns, each as wide as its widest value
	// in the list, so they line up down the rows. Numbers are right
	// aligned; the owner says which columns are text or marks
	// (list.colKinds). A row with cols draws its right, if any, just
	// before them.
	cols []string
	// cut says how left is shortened when it does not fit.
	cut cutMode
	// ref is what the row stands for (an index into the owner's data).
	ref int
	// badge is a one-cell severity mark drawn before left, coloured by sev
	// except on the selected row (whose background must stay unbroken).
	badge string
	sev   int // a model.Severity; -1 for an uncoloured badge
	// dim draws the row in the list's dim style (a rejected proposal).
	dim bool
}

// colKind is how a column of the rows' cols is drawn.
type colKind int

const (
	// colNumber is right aligned, so units and digits line up.
	colNumber colKind = iota
	// colText is left aligned (a writer's name, an ID).
	colText
	// colMark is a mark few rows carry (✂): drawn, left aligned, only
	// on the rows that have one, so the others keep its cells for their
	// text; the marks still line up, as the columns after them do.
	colMark
)

// cutMode is how a row's left text is shortened to fit.
type cutMode int

const (
	// cutAtEnd drops the end: prose, a message.
	cutAtEnd cutMode = iota
	// cutAtMiddle keeps the start and the end: a name, whose end is what
	// tells it from its neighbours (deploy-c…mand, deploy-w…ndow). Rows
	// cut so that two of them would read the same are cut again apart.
	cutAtMiddle
	// cutKeepFile keeps a title's closing file name whole (cutTitle).
	cutKeepFile
	// cutKeepLast keeps a path's last element whole (cutPath).
	cutKeepLast
)

// apply shortens s (made safe) to w cells.
func (c cutMode) apply(s string, w int) string {
	switch c {
	case cutAtMiddle:
		return cutMiddle(s, w)
	case cutKeepFile:
		return cutTitle(s, w)
	case cutKeepLast:
		return cutPath(s, w)
	}
	return cutEnd(s, w)
}

// list is a scrolling cursor over rows, sized by its owner. It draws plain
// text cut to its width; the owner styles the selected row. Rows hold text
// as read (names, titles, paths); the list makes each cell safe as it
// draws it (safe.ShowLine), so no row can carry a secret or a control
// character to the screen whoever built it.
type list struct {
	rows           []row
	cursor, offset int
	width, height  int
	// dim is the style of rows marked dim (set by the owner).
	dim lipgloss.Style
	// colKinds says how each column (row.cols) is drawn; a column not
	// named is a number.
	colKinds []colKind
	// What drawing needs of the whole list, worked out again when the
	// rows or the width change (prepare): each column's width (its widest
	// value among the rows), how many columns fit, and the texts cut in
	// the middle, cut apart across the list (not only the rows on
	// screen: a name must not read like one a page away either).
	colW      []int
	ncols     int
	midCuts   map[int]string
	preparedW int // the width prepared for; -1 when the rows changed
}

func (l *list) setRows(rows []row) {
	l.rows = rows
	l.preparedW = -1
	l.clamp()
	if l.cursor < len(l.rows) && l.rows[l.cursor].header {
		l.move(1)
	}
}

// setRow replaces row i (a project read since the list was built).
func (l *list) setRow(i int, r row) {
	l.rows[i] = r
	l.preparedW = -1
}

// prepare works out the columns and the middle cuts for the width.
func (l *list) prepare() {
	l.preparedW = l.width
	l.measure()
	l.ncols = l.fitCols()
	var idx, room []int
	var cut, full []string
	for i, r := range l.rows {
		if r.header || r.cut != cutAtMiddle {
			continue
		}
		f := safe.ShowLine(r.left)
		w := l.room(r)
		idx, room, full, cut = append(idx, i), append(room, w), append(full, f), append(cut, cutMiddle(f, w))
	}
	distinct(cut, full, room)
	l.midCuts = make(map[int]string, len(idx))
	for k, i := range idx {
		l.midCuts[i] = cut[k]
	}
}

// room is the cells row r's text has: the width, less its badge and what
// it draws at its right edge.
func (l *list) room(r row) int {
	if r.header {
		return leftRoom(safe.ShowLine(r.right), l.width)
	}
	w := l.width
	if r.badge != "" {
		w -= ansi.StringWidth(safe.Line(r.badge)) + 1
	}
	return leftRoom(l.tail(r, l.ncols), w)
}

// measure sizes the columns to their widest values, as shown.
func (l *list) measure() {
	l.colW = l.colW[:0]
	for _, r := range l.rows {
		for i, c := range r.cols {
			if i == len(l.colW) {
				l.colW = append(l.colW, 0)
			}
			if c != "" {
				l.colW[i] = max(l.colW[i], shownWidth(c))
			}
		}
	}
}

// hasItems reports whether the list has a row to select (not only
// headers).
func (l *list) hasItems() bool {
	for _, r := range l.rows {
		if !r.header {
			return true
		}
	}
	return false
}

func (l *list) setSize(w, h int) {
	l.width, l.height = w, max(h, 1)
	l.clamp()
}

// selected is the row under the cursor, or nil when there is none.
func (l *list) selected() *row {
	if l.cursor < 0 || l.cursor >= len(l.rows) || l.rows[l.cursor].header {
		return nil
	}
	return &l.rows[l.cursor]
}

// selectRef puts the cursor on the first row standing for ref.
func (l *list) selectRef(ref int) bool {
	for i, r := range l.rows {
		if !r.header && r.ref == ref {
			l.cursor = i
			l.clamp()
			return true
		}
	}
	return false
}

// move shifts the cursor by n selectable rows (negative is up).
func (l *list) move(n int) {
	if len(l.rows) == 0 {
		return
	}
	step := 1
	if n < 0 {
		step, n = -1, -n
	}
	c := l.cursor
	for ; n > 0; n-- {
		next := c + step
		for next >= 0 && next < len(l.rows) && l.rows[next].header {
			next += step
		}
		if next < 0 || next >= len(l.rows) {
			break
		}
		c = next
	}
	l.cursor = c
	l.clamp()
}

func (l *list) top() {
	l.cursor = 0
	l.offset = 0
	if len(l.rows) > 0 && l.rows[0].header {
		l.move(1)
	}
	l.offset = 0
}

func (l *list) bottom() {
	l.cursor = len(l.rows) - 1
	for l.cursor > 0 && l.rows[l.cursor].header {
		l.cursor--
	}
	l.clamp()
}

// scroll moves the view without moving the cursor off screen (the wheel).
func (l *list) scroll(n int) {
	l.offset = max(0, min(l.offset+n, len(l.rows)-l.height))
	if l.cursor < l.offset {
		l.cursor = l.offset
		l.move(0)
	} else if l.cursor >= l.offset+l.height {
		l.cursor = l.offset + l.height - 1
	}
	if r := l.selected(); r == nil {
		l.move(1)
		if l.selected() == nil {
			l.move(-1)
		}
	}
}

// clickRow selects the row drawn at line y of the list, if it is one.
func (l *list) clickRow(y int) bool {
	i := l.offset + y
	if y < 0 || i >= len(l.rows) || l.rows[i].header {
		return false
	}
	l.cursor = i
	return true
}

// clamp keeps the cursor in range and on screen.
func (l *list) clamp() {
	if l.cursor >= len(l.rows) {
		l.cursor = len(l.rows) - 1
	}
	if l.cursor < 0 {
		l.cursor = 0
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
		// Keep the header of the cursor's group in view when it is just
		// above.
		if l.offset > 0 && l.rows[l.offset-1].header {
			l.offset--
		}
	}
	if l.cursor >= l.offset+l.height {
		l.offset = l.cursor - l.height + 1
	}
	if maxOff := max(len(l.rows)-l.height, 0); l.offset > maxOff {
		l.offset = maxOff
	}
}

// view draws the visible rows: item rows through item, the selected one
// through sel, headers through header, badges through badges[sev]. Every
// line is exactly width cells. A list with nothing to select says empty,
// under its headers if it has some (a store's heading over no memories).
func (l *list) view(item, sel, header lipgloss.Style, badges [3]lipgloss.Style, empty string) string {
	if len(l.rows) == 0 {
		return fit(wrapNote(empty, l.width), l.width, l.height)
	}
	if l.preparedW != l.width {
		l.prepare()
	}
	ncols := l.ncols
	var b strings.Builder
	end := min(l.offset+l.height, len(l.rows))
	for i := l.offset; i < end; i++ {
		r := l.rows[i]
		left, ok := l.midCuts[i]
		if !ok {
			left = safe.ShowLine(r.left)
			if r.header {
				left = cutEnd(left, l.room(r))
			} else {
				left = r.cut.apply(left, l.room(r))
			}
		}
		r.right, r.badge = safe.ShowLine(r.right), safe.Line(r.badge)
		var line string
		switch {
		case r.header:
			line = header.Render(layoutRow(left, r.right, l.width))
		case r.badge == "":
			line = layoutRow(left, l.tail(r, ncols), l.width)
			if i == l.cursor {
				line = sel.Render(line)
			} else {
				line = item.Render(line)
			}
		case i == l.cursor:
			line = sel.Render(r.badge + " " + layoutRow(left, l.tail(r, ncols), l.width-ansi.StringWidth(r.badge)-1))
		default:
			badge := r.badge
			if r.sev >= 0 && r.sev < len(badges) {
				badge = badges[r.sev].Render(badge)
			}
			bw := ansi.StringWidth(r.badge) + 1
			style := item
			if r.dim {
				style = l.dim
			}
			line = badge + " " + style.Render(layoutRow(left, l.tail(r, ncols), l.width-bw))
		}
		b.WriteString(line)
		if i < end-1 {
			b.WriteByte('\n')
		}
	}
	drawn := end - l.offset
	if !l.hasItems() && drawn < l.height {
		// Headers only: say what is missing under them.
		msg := strings.Split(fit(wrapNote(empty, l.width), l.width, l.height-drawn), "\n")
		b.WriteString("\n" + strings.Join(msg, "\n"))
		drawn = l.height
	}
	for i := drawn; i < l.height; i++ {
		b.WriteString("\n" + strings.Repeat(" ", l.width))
	}
	return b.String()
}

// wrapNote makes a list's empty state safe (it may quote a filter) and
// wraps it to the list's width: it says what to do, which a cut would
// lose.
func wrapNote(s string, w int) string {
	return ansi.Wrap(safe.Show(s), max(w, 1), " ")
}

// shownWidth is the cells s takes once the list has made it safe.
func shownWidth(s string) int { return ansi.StringWidth(safe.ShowLine(s)) }

// padShown pads s to w cells as the list shows it, for a column the
// owner lays out within a row's text (the list makes it safe once, as it
// draws the row).
func padShown(s string, w int) string {
	return s + strings.Repeat(" ", max(w-shownWidth(s), 0))
}

// noMatch is a filtered list's empty state: what matched nothing, and
// the key that clears the filter.
func noMatch(what, filter string, clear key.Binding) string {
	return "No " + what + " matches “" + filter + "”: " + clear.Help().Key + " clears the filter."
}

// minLeft is the fewest cells a row's text keeps before the list drops
// columns to make room: a name cut to a few letters tells nothing.
func minLeft(w int) int { return min(max(w/2, 8), w) }

// fitCols is how many of the columns fit beside the rows' text (and a
// badge): the last go first when the list is narrow, the same for every
// row so that they still line up.
func (l *list) fitCols() int {
	n := len(l.colW)
	for n > 0 && colsWidth(l.colW[:n])+1 > l.width-2-minLeft(l.width-2) {
		n--
	}
	return n
}

// colsWidth is the cells the columns take, a space between two.
func colsWidth(ws []int) int {
	total := 0
	for _, w := range ws {
		if w > 0 {
			if total > 0 {
				total++
			}
			total += w
		}
	}
	return total
}

// tail is what a row draws at its right edge: right, then its columns.
func (l *list) tail(r row, ncols int) string {
	if len(r.cols) == 0 {
		return r.right
	}
	var b strings.Builder
	b.WriteString(r.right)
	for i := 0; i < ncols; i++ {
		w := l.colW[i]
		if w == 0 {
			continue
		}
		c, kind := "", colNumber
		if i < len(r.cols) {
			c = safe.ShowLine(r.cols[i])
		}
		if i < len(l.colKinds) {
			kind = l.colKinds[i]
		}
		if kind == colMark && c == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		pad := strings.Repeat(" ", max(w-ansi.StringWidth(c), 0))
		if kind == colNumber {
			b.WriteString(pad + c)
		} else {
			b.WriteString(c + pad)
		}
	}
	return b.String()
}

// leftRoom is the cells a row's text has beside tail in w cells (all of
// them when tail does not fit: layoutRow drops it).
func leftRoom(tail string, w int) int {
	tw := ansi.StringWidth(tail)
	if tw == 0 || tw+2 > w {
		return max(w, 0)
	}
	return w - tw - 1
}

// layoutRow puts left and right on one line of exactly width cells, cutting
// left first (with an ellipsis), then right.
func layoutRow(left, right string, width int) string {
	if width <= 0 {
		return ""
	}
	rw := ansi.StringWidth(right)
	if rw > 0 && rw+2 > width {
		right, rw = "", 0
	}
	lw := width - rw
	if rw > 0 {
		lw--
	}
	left = ansi.Truncate(left, lw, "…")
	pad := width - ansi.StringWidth(left) - rw
	return left + strings.Repeat(" ", max(pad, 0)) + right
}

// fit pads or cuts s to exactly w×h cells.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, ln := range lines {
		lw := ansi.StringWidth(ln)
		if lw > w {
			ln = ansi.Truncate(ln, w, "")
			lw = ansi.StringWidth(ln)
		}
		if lw < w {
			ln += strings.Repeat(" ", w-lw)
		}
		lines[i] = ln
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// truncLeft keeps the end of s (the informative part of a path), cutting
// from the left with an ellipsis. Secrets are masked before the cut: the
// tail of a cut token no longer looks like one, so masking after it could
// not find it.
func truncLeft(s string, w int) string {
	s = safe.Mask(nil, s)
	if ansi.StringWidth(s) <= w {
		return s
	}
	if w <= 1 {
		return ansi.Truncate(s, w, "")
	}
	rs := []rune(s)
	for i := range rs {
		if t := string(rs[i:]); ansi.StringWidth(t) <= w-1 {
			return "…" + t
		}
	}
	return "…"
}
