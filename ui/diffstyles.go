package ui

import (
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/themes"
)

// diffStyles are the theme's diff styles (themes.DiffStyles) reduced to
// painters: a diff is drawn a word at a time, already cut to its columns,
// so each piece gets the codes around it and no lipgloss pass.
type diffStyles struct {
	pAdd, pDel, pSame, pHunk, pFile, pLineNo, pSep, pAddWord, pDelWord paint.Painter
}

func newDiffStyles(t themes.Theme) diffStyles {
	s := themes.NewDiffStyles(t)
	d := diffStyles{
		pAdd: paint.Span(s.Add), pDel: paint.Span(s.Del), pSame: paint.Span(s.Same),
		pHunk: paint.Span(s.Hunk), pFile: paint.Span(s.File), pLineNo: paint.Span(s.LineNo), pSep: paint.Span(s.Sep),
		pAddWord: paint.Span(s.AddWord), pDelWord: paint.Span(s.DelWord),
	}
	if t.NoColor {
		// A removed word is underlined; lipgloss would write that as
		// "4;4", one plain code says the same.
		d.pDelWord = paint.FromCodes("\x1b[4m", "\x1b[m")
	}
	return d
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
