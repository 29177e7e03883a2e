package ui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/internal/paint"
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

	// Each reduced to the codes it writes around a piece of a line: a
	// diff is drawn word by word, already cut to its columns.
	pAdd, pDel, pSame, pHunk, pFile, pLineNo, pSep, pAddWord, pDelWord paint.Painter
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
	s.pAdd, s.pDel, s.pSame = paint.Span(s.add), paint.Span(s.del), paint.Span(s.same)
	s.pHunk, s.pFile, s.pLineNo, s.pSep = paint.Span(s.hunk), paint.Span(s.file), paint.Span(s.lineNo), paint.Span(s.sep)
	s.pAddWord, s.pDelWord = paint.Span(s.addWord), paint.Span(s.delWord)
	if t.NoColor {
		s.pDelWord = paint.FromCodes("\x1b[4m", "\x1b[m")
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
func (s diffStyles) forOp(op byte) (line, word paint.Painter) {
	switch op {
	case '+':
		return s.pAdd, s.pAddWord
	case '-':
		return s.pDel, s.pDelWord
	}
	return s.pSame, s.pSame
}
