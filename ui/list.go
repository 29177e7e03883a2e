package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/safe"
)

// row is one line of a list. Headers group the rows below them and are
// skipped by the cursor.
type row struct {
	header bool
	// left is drawn from the left edge and cut to fit; right is drawn
	// against the right edge and kept whole when there is room.
	left, right string
	// ref is what the row stands for (an index into the owner's data).
	ref int
	// badge is a one-cell severity mark drawn before left, coloured by sev
	// except on the selected row (whose background must stay unbroken).
	badge string
	sev   int // a model.Severity; -1 for an uncoloured badge
	// dim draws the row in the list's dim style (a rejected proposal).
	dim bool
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
}

func (l *list) setRows(rows []row) {
	l.rows = rows
	l.clamp()
	if l.cursor < len(l.rows) && l.rows[l.cursor].header {
		l.move(1)
	}
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
// line is exactly width cells.
func (l *list) view(item, sel, header lipgloss.Style, badges [3]lipgloss.Style, empty string) string {
	if len(l.rows) == 0 {
		return fit(empty, l.width, l.height)
	}
	var b strings.Builder
	end := min(l.offset+l.height, len(l.rows))
	for i := l.offset; i < end; i++ {
		r := l.rows[i]
		r.left, r.right, r.badge = safe.ShowLine(r.left), safe.ShowLine(r.right), safe.Line(r.badge)
		var line string
		switch {
		case r.header:
			line = header.Render(layoutRow(r.left, r.right, l.width))
		case r.badge == "":
			line = layoutRow(r.left, r.right, l.width)
			if i == l.cursor {
				line = sel.Render(line)
			} else {
				line = item.Render(line)
			}
		case i == l.cursor:
			line = sel.Render(layoutRow(r.badge+" "+r.left, r.right, l.width))
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
			line = badge + " " + style.Render(layoutRow(r.left, r.right, l.width-bw))
		}
		b.WriteString(line)
		if i < end-1 {
			b.WriteByte('\n')
		}
	}
	for i := end - l.offset; i < l.height; i++ {
		b.WriteString("\n" + strings.Repeat(" ", l.width))
	}
	return b.String()
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
