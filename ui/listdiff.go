package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/internal/paint"
)

// wideLayoutMin is the width from which the diff sits beside the list;
// below it, the diff sits under the list and tab gives it most rows.
const wideLayoutMin = wideWidth

// listDiff is the layout the proposals and changes views share: a status
// line, then a list of items and the diff of the selected one, side by
// side when wide and stacked otherwise, each part under a heading.
type listDiff struct {
	c    *shared
	list list
	diff *diffView
	// focusDiff gives the keys to the diff rather than the list; zoom
	// gives the diff the whole view (the list hidden), and the keys.
	focusDiff    bool
	zoom         bool
	w, h         int
	wide         bool
	listW, listH int
}

func newListDiff(c *shared) listDiff {
	return listDiff{c: c, diff: newDiffView(c)}
}

func (v *listDiff) SetSize(w, h int) {
	v.w, v.h = w, h
	v.layout()
}

// layout sizes the list and the diff: a status line, then a heading over
// each part. Narrow, the list gets up to two fifths of the rows, or only
// three while the diff has the keys.
func (v *listDiff) layout() {
	if v.w <= 0 || v.h <= 0 {
		return
	}
	body := max(v.h-1, 2)
	v.wide = v.w >= wideLayoutMin
	if v.zoom {
		v.listW, v.listH = 0, 0
		v.diff.SetSize(v.w, max(body-1, 1))
		return
	}
	if v.wide {
		v.listW = v.w * 38 / 100
		v.listH = max(body-1, 1)
		v.list.setSize(v.listW, v.listH)
		v.diff.SetSize(v.w-v.listW-1, v.listH)
		return
	}
	avail := max(body-2, 2)
	if v.focusDiff {
		v.listH = min(3, avail/3)
	} else {
		v.listH = min(max(avail*2/5, 3), max(len(v.list.rows), 1))
	}
	v.listH = max(min(v.listH, avail-1), 1)
	v.listW = v.w
	v.list.setSize(v.w, v.listH)
	v.diff.SetSize(v.w, max(avail-v.listH, 1))
}

// onList reports whether a point (from the view's top left corner) is on
// the list rather than the diff.
func (v *listDiff) onList(x, y int) bool {
	if v.zoom {
		return false
	}
	if v.wide {
		return x < v.listW
	}
	return y < 2+v.listH
}

// wheel scrolls the part under the pointer; follow shows the selection's
// diff after the list moved.
func (v *listDiff) wheel(x, y, n int, follow func()) {
	if v.onList(x, y) {
		v.list.scroll(n)
		follow()
		return
	}
	v.diff.scroll(n)
}

// click selects the row clicked, or gives the diff the keys; setFocus is
// the owner's (it may refuse the diff with nothing selected).
func (v *listDiff) click(x, y int, follow func(), setFocus func(bool)) {
	if !v.onList(x, y) {
		if y > 0 {
			setFocus(true)
		}
		return
	}
	if v.list.clickRow(y - 2) {
		follow()
	}
	if v.focusDiff {
		setFocus(false)
	}
}

// render draws the status line, the list under listTitle and the diff
// under its mode, hunks at the right of its heading.
func (v *listDiff) render(status, listTitle, hunks, empty string) string {
	st := v.c.st
	if v.zoom {
		head := paneHeading(v.c, "Diff · "+v.diff.modeName()+" · zoomed (z)", hunks, v.w, true)
		return status + "\n" + head + "\n" + v.diff.View()
	}
	listView := listPaneView(&v.list, v.c, !v.focusDiff, empty)
	listHead := paneHeading(v.c, listTitle, "", v.listW, !v.focusDiff)
	diffW := v.w
	if v.wide {
		diffW = v.w - v.listW - 1
	}
	diffHead := paneHeading(v.c, "Diff · "+v.diff.modeName(), hunks, diffW, v.focusDiff)
	if !v.wide {
		return status + "\n" + listHead + "\n" + listView + "\n" + diffHead + "\n" + v.diff.View()
	}
	left := strings.Split(listHead+"\n"+listView, "\n")
	right := strings.Split(diffHead+"\n"+v.diff.View(), "\n")
	sep := paint.New(st.Faint).Paint("│")
	if c := st.Pane.GetBorderTopForeground(); c != nil {
		sep = paint.New(lipgloss.NewStyle().Foreground(c)).Paint("│")
	}
	var b strings.Builder
	b.WriteString(status)
	for i := range max(len(left), len(right)) {
		b.WriteByte('\n')
		if i < len(left) {
			b.WriteString(left[i])
		}
		b.WriteString(sep)
		if i < len(right) {
			b.WriteString(right[i])
		}
	}
	return b.String()
}

// paneKeys handles the keys every list-and-diff view shares: next and
// previous pane (not while zoomed: the list is hidden), open (the diff
// takes the keys), zoom (with an item shown, or to unzoom). setFocus is
// the owner's (it may refuse the diff with nothing selected).
func (v *listDiff) paneKeys(k tea.KeyPressMsg, next, prev, open key.Binding, selected bool, setFocus func(bool)) bool {
	switch {
	case key.Matches(k, next, prev) && !v.zoom:
		setFocus(!v.focusDiff)
	case key.Matches(k, open):
		setFocus(true)
	case key.Matches(k, v.c.keys.Diff.Zoom):
		if v.zoom || selected {
			v.setZoom(!v.zoom)
		}
	default:
		return false
	}
	return true
}

// diffKey reports whether k goes to the diff: every key while it has
// them, the diff's own keys from the list too.
func (v *listDiff) diffKey(k tea.KeyPressMsg) bool {
	d := v.c.keys.Diff
	return v.focusDiff || key.Matches(k, d.Mode, d.NextHunk, d.PrevHunk, d.ScrollDown, d.ScrollUp, d.Wrap, d.Left, d.Right)
}

// setZoom gives the diff the whole view, or gives the list its place
// back; zoomed, the diff has the keys. It keeps the diff's scroll: the
// lines in view stay in view.
func (v *listDiff) setZoom(on bool) {
	v.zoom = on
	if on {
		v.focusDiff = true
	}
	v.layout()
}

// hunkNote is where the diff's cursor or view stands among the hunks.
func (v *listDiff) hunkNote() string {
	if n := len(v.diff.hunkRows); n > 0 {
		return "hunk " + itoa(max(v.diff.currentHunk()+1, 1)) + "/" + itoa(n)
	}
	return ""
}
