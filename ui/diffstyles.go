package ui

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/themes"
)

// diffStyles draw the proposals view's diffs. They are built here from
// the theme's colours (themes.Styles has no diff styles): added lines in
// the OK colour, removed lines in the Error colour, and the words that
// changed within a paired line on a tinted background. Without colour the
// changed words are reversed (added) or underlined (removed), and the
// +/- column carries the rest.
type diffStyles struct {
	add, del, same, hunk, file, lineNo, sep lipgloss.Style
	addWord, delWord                        lipgloss.Style

	// The escape codes of each, drawn around a piece of a line.
	pAdd, pDel, pSame, pHunk, pFile, pLineNo, pSep, pAddWord, pDelWord ink
}

// ink is a style reduced to the codes it writes around one piece of a
// line (as internal/paint does), also for underline, which lipgloss
// writes rune by rune.
type ink struct{ pre, post string }

func inkOf(s lipgloss.Style) ink {
	const probe = "x"
	r := s.Render(probe)
	i := strings.Index(r, probe)
	if i < 0 {
		return ink{}
	}
	return ink{pre: r[:i], post: r[i+len(probe):]}
}

// Paint draws s (one line, no tabs) in the style.
func (i ink) Paint(s string) string {
	if s == "" || i.pre == "" && i.post == "" {
		return s
	}
	return i.pre + s + i.post
}

// Approximate backgrounds the tints are mixed into: the theme does not
// know the terminal's exact colour, only whether it is dark.
var (
	darkBase  = color.RGBA{0x1A, 0x1B, 0x26, 0xFF}
	lightBase = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
)

func newDiffStyles(t themes.Theme) diffStyles {
	var s diffStyles
	plain := lipgloss.NewStyle()
	if t.NoColor {
		s.add, s.del, s.same = plain, plain, plain
		s.hunk = plain.Faint(true)
		s.file = plain.Bold(true)
		s.lineNo = plain.Faint(true)
		s.sep = plain.Faint(true)
		s.addWord = plain.Reverse(true)
		s.delWord = plain.Underline(true) // see below: drawn with one code
	} else {
		base, mix := lightBase, 0.22
		if t.Dark {
			base, mix = darkBase, 0.38
		}
		s.add = plain.Foreground(t.OK)
		s.del = plain.Foreground(t.Error)
		s.same = plain.Foreground(t.Text)
		s.hunk = plain.Foreground(t.Info)
		s.file = plain.Foreground(t.Accent).Bold(true)
		s.lineNo = plain.Foreground(t.Faint)
		s.sep = plain.Foreground(t.Border)
		s.addWord = plain.Foreground(t.SelectFg).Background(blend(t.OK, base, mix)).Bold(true)
		s.delWord = plain.Foreground(t.SelectFg).Background(blend(t.Error, base, mix)).Bold(true)
	}
	s.pAdd, s.pDel, s.pSame = inkOf(s.add), inkOf(s.del), inkOf(s.same)
	s.pHunk, s.pFile, s.pLineNo, s.pSep = inkOf(s.hunk), inkOf(s.file), inkOf(s.lineNo), inkOf(s.sep)
	s.pAddWord, s.pDelWord = inkOf(s.addWord), inkOf(s.delWord)
	if t.NoColor {
		s.pDelWord = ink{pre: "\x1b[4m", post: "\x1b[m"}
	}
	return s
}

// blend mixes f of a into base, for a tint that keeps text readable.
func blend(a, base color.Color, f float64) color.Color {
	if a == nil {
		return nil
	}
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := base.RGBA()
	mix := func(x, y uint32) uint8 {
		return uint8((f*float64(x>>8) + (1-f)*float64(y>>8)) + 0.5)
	}
	return color.RGBA{mix(ar, br), mix(ag, bg), mix(ab, bb), 0xFF}
}

// line and word painters for a diff op.
func (s diffStyles) forOp(op byte) (line, word ink) {
	switch op {
	case '+':
		return s.pAdd, s.pAddWord
	case '-':
		return s.pDel, s.pDelWord
	}
	return s.pSame, s.pSame
}
