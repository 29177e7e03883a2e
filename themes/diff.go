package themes

import "charm.land/lipgloss/v2"

// DiffStyles draw the TUI's diffs (the proposals view, the index editor's
// pending edits): added lines in the diff's add colour, removed lines in
// its delete colour, and the words that changed within a paired line on a
// tint of those. Without colour the changed words are reversed (added) or
// underlined (removed), and the +/- column carries the rest.
type DiffStyles struct {
	Add, Del, Same, Hunk, File, LineNo, Sep lipgloss.Style
	AddWord, DelWord                        lipgloss.Style
}

// NewDiffStyles builds the diff styles for a theme.
func NewDiffStyles(t Theme) DiffStyles {
	plain := lipgloss.NewStyle()
	if t.NoColor {
		return DiffStyles{
			Add: plain, Del: plain, Same: plain,
			Hunk: plain.Faint(true), File: plain.Bold(true), LineNo: plain.Faint(true), Sep: plain.Faint(true),
			AddWord: plain.Reverse(true), DelWord: plain.Underline(true),
		}
	}
	return DiffStyles{
		Add:     plain.Foreground(t.DiffAdd),
		Del:     plain.Foreground(t.DiffDel),
		Same:    plain.Foreground(t.DiffContext),
		Hunk:    plain.Foreground(t.DiffHunk),
		File:    plain.Foreground(t.Accent).Bold(true),
		LineNo:  plain.Foreground(t.LineNo),
		Sep:     plain.Foreground(t.Border),
		AddWord: plain.Foreground(t.SelectFg).Background(t.DiffAddBg).Bold(true),
		DelWord: plain.Foreground(t.SelectFg).Background(t.DiffDelBg).Bold(true),
	}
}
