// Package themes is memtui's one palette and the styles built from it.
// A Theme is plain semantic colours, each written once; NewStyles builds the
// TUI's styles from one, NewDiffStyles its diffs', and NewReportStyles and
// NewDiffReportStyles the CLI reports'. Dark and light come from the
// terminal's background, and NoColor (for NO_COLOR) draws with attributes
// only: bold, faint, reverse, underline. No colour is written outside this
// package (a test holds it), so the TUI and the CLI cannot drift apart.
package themes

import (
	"image/color"

	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/model"
)

// Theme is a palette of semantic colours plus the glamour style that suits
// it: the one palette the TUI, its diffs and the CLI reports are drawn
// from. Nil colours mean "the terminal's own".
type Theme struct {
	Name    string
	Dark    bool
	NoColor bool
	// Glamour is the glamour standard style name for rendering markdown.
	Glamour string

	// Text and chrome.
	Text, Faint, Accent, Border, BorderFocus color.Color
	// The selected row.
	SelectBg, SelectFg color.Color
	// Severities, and success.
	Error, Warning, Info, OK color.Color
	// The preview's highlights of dates and secrets.
	DateBg, SecretBg color.Color
	// The index's meter and the cut marker.
	MeterFill, MeterEmpty, Cut color.Color
	// Line numbers, in the preview's source view and in diffs.
	LineNo color.Color

	// Diffs: added, removed and unchanged lines, hunk headers, and the
	// tints behind the words that changed within a paired line.
	DiffAdd, DiffDel, DiffContext, DiffHunk color.Color
	DiffAddBg, DiffDelBg                    color.Color

	// The CLI report's own shades, where they differ from the TUI's:
	// neutral greys for its dim text and its locations, and (light palette
	// only) its info and warning. The two palettes were written apart and
	// are kept as they were so the report looks as it did; every other
	// colour the report uses is the TUI's, by role.
	ReportFaint, ReportText, ReportInfo, ReportWarning color.Color
}

// The tints behind changed words are the severity colour mixed into the
// terminal's background. The theme knows only whether that is dark, so it
// mixes into a typical one of each kind, more strongly on dark.
const (
	darkTint  = 0.38
	lightTint = 0.22
)

// Dark is for terminals with a dark background.
func Dark() Theme {
	// Each colour is written once; roles that look alike share it.
	var (
		text    = lipgloss.Color("#D8DAE5")
		faint   = lipgloss.Color("#7A7F99")
		accent  = lipgloss.Color("#7AA2F7")
		border  = lipgloss.Color("#3B3F55")
		red     = lipgloss.Color("#F7768E")
		amber   = lipgloss.Color("#E0AF68")
		cyan    = lipgloss.Color("#7DCFFF")
		green   = lipgloss.Color("#9ECE6A")
		surface = lipgloss.Color("#1A1B26") // a typical dark background
	)
	return Theme{
		Name: "dark", Dark: true, Glamour: styles.DarkStyle,
		Text: text, Faint: faint, Accent: accent, Border: border, BorderFocus: accent,
		SelectBg: lipgloss.Color("#2E3A5C"), SelectFg: lipgloss.Color("#FFFFFF"),
		Error: red, Warning: amber, Info: cyan, OK: green,
		DateBg: lipgloss.Color("#5C4A1E"), SecretBg: lipgloss.Color("#6B2234"),
		MeterFill: accent, MeterEmpty: border, Cut: red,
		LineNo:  faint,
		DiffAdd: green, DiffDel: red, DiffContext: text, DiffHunk: cyan,
		DiffAddBg: blend(green, surface, darkTint), DiffDelBg: blend(red, surface, darkTint),
		ReportFaint: lipgloss.Color("#8A8A8A"), ReportText: lipgloss.Color("#D0D0D0"),
		ReportInfo: cyan, ReportWarning: amber,
	}
}

// Light is for terminals with a light background.
func Light() Theme {
	var (
		text    = lipgloss.Color("#24292F")
		faint   = lipgloss.Color("#6B6F7B")
		accent  = lipgloss.Color("#1F4FA8")
		border  = lipgloss.Color("#C8CCD6")
		red     = lipgloss.Color("#C62828")
		info    = lipgloss.Color("#1F6F8B")
		green   = lipgloss.Color("#2E7D32")
		surface = color.White // a typical light background
	)
	return Theme{
		Name: "light", Dark: false, Glamour: styles.LightStyle,
		Text: text, Faint: faint, Accent: accent, Border: border, BorderFocus: accent,
		SelectBg: lipgloss.Color("#D6E2FA"), SelectFg: lipgloss.Color("#0B1F44"),
		Error: red, Warning: lipgloss.Color("#8A5A00"), Info: info, OK: green,
		DateBg: lipgloss.Color("#FCE9B2"), SecretBg: lipgloss.Color("#F8C8D0"),
		MeterFill: accent, MeterEmpty: border, Cut: red,
		LineNo:  faint,
		DiffAdd: green, DiffDel: red, DiffContext: text, DiffHunk: info,
		DiffAddBg: blend(green, surface, lightTint), DiffDelBg: blend(red, surface, lightTint),
		ReportFaint: lipgloss.Color("#6B6B6B"), ReportText: lipgloss.Color("#303030"),
		ReportInfo: lipgloss.Color("#2E7D9A"), ReportWarning: lipgloss.Color("#9A6700"),
	}
}

// blend mixes f of a into base: a tint of a that keeps text on it
// readable. Nil stays nil (no colour to tint with).
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

// NoColor is for NO_COLOR: every colour is the terminal's own, and meaning
// is carried by attributes and symbols.
func NoColor() Theme {
	return Theme{Name: "no-color", NoColor: true, Glamour: styles.AsciiStyle}
}

// For picks the theme for a background and the user's colour preference.
func For(dark, noColor bool) Theme {
	switch {
	case noColor:
		return NoColor()
	case dark:
		return Dark()
	}
	return Light()
}

// Styles are every style the UI draws with, grouped by what they draw.
type Styles struct {
	Theme Theme

	App, Title, Faint, Text, Bold, Accent lipgloss.Style
	// Panes: a border in the resting or focused colour.
	Pane, PaneFocus lipgloss.Style
	PaneTitle       lipgloss.Style
	// Lists.
	Item, Selected, SelectedBlur, GroupHeader lipgloss.Style
	// Severity badges and text, indexed by model.Severity.
	Badge [3]lipgloss.Style
	Sev   [3]lipgloss.Style
	OK    lipgloss.Style
	// Preview.
	FMKey, FMValue, Date, Secret lipgloss.Style
	LineNo, LineMark             lipgloss.Style
	// Index view.
	MeterFill, MeterEmpty, Cut, Dropped lipgloss.Style
	// Status bar and errors.
	Status, StatusKey, Error, Filter lipgloss.Style
}

// NewStyles builds the styles for a theme.
func NewStyles(t Theme) Styles {
	s := Styles{Theme: t}
	bg := func(st lipgloss.Style, c color.Color) lipgloss.Style {
		if c != nil {
			st = st.Background(c)
		}
		return st
	}
	s.App = fg(t.Text)
	s.Text = fg(t.Text)
	s.Faint = fg(t.Faint)
	s.Bold = fg(t.Text).Bold(true)
	s.Accent = fg(t.Accent).Bold(true)
	s.Title = fg(t.Accent).Bold(true)

	border := lipgloss.RoundedBorder()
	s.Pane = lipgloss.NewStyle().Border(border)
	s.PaneFocus = lipgloss.NewStyle().Border(border)
	if t.NoColor {
		// Without colour, the focused pane is told by a heavier border.
		s.PaneFocus = lipgloss.NewStyle().Border(lipgloss.ThickBorder())
	} else {
		s.Pane = s.Pane.BorderForeground(t.Border)
		s.PaneFocus = s.PaneFocus.BorderForeground(t.BorderFocus)
	}
	s.PaneTitle = fg(t.Accent).Bold(true)

	s.Item = fg(t.Text)
	if t.NoColor {
		s.Selected = lipgloss.NewStyle().Reverse(true)
		s.SelectedBlur = lipgloss.NewStyle().Underline(true)
	} else {
		s.Selected = bg(fg(t.SelectFg), t.SelectBg).Bold(true)
		s.SelectedBlur = bg(fg(t.Text), t.MeterEmpty)
	}
	s.GroupHeader = fg(t.Faint).Bold(true)

	sevColor := [3]color.Color{model.Info: t.Info, model.Warning: t.Warning, model.Error: t.Error}
	for i, c := range sevColor {
		s.Sev[i] = fg(c)
		s.Badge[i] = fg(c).Bold(true)
	}
	s.OK = fg(t.OK)

	s.FMKey = fg(t.Faint)
	s.FMValue = fg(t.Text)
	if t.NoColor {
		s.Date = lipgloss.NewStyle().Underline(true)
		s.Secret = lipgloss.NewStyle().Reverse(true)
	} else {
		s.Date = bg(lipgloss.NewStyle(), t.DateBg).Underline(true)
		s.Secret = bg(lipgloss.NewStyle(), t.SecretBg).Bold(true)
	}
	s.LineNo = fg(t.LineNo)
	s.LineMark = fg(t.Error).Bold(true)

	s.MeterFill = fg(t.MeterFill)
	s.MeterEmpty = fg(t.MeterEmpty)
	if t.NoColor {
		s.MeterEmpty = lipgloss.NewStyle().Faint(true)
	}
	s.Cut = fg(t.Cut).Bold(true)
	s.Dropped = fg(t.Faint).Strikethrough(true)

	s.Status = fg(t.Faint)
	s.StatusKey = fg(t.Accent)
	s.Error = fg(t.Error).Bold(true)
	s.Filter = fg(t.Accent)
	return s
}

// fg is a style in foreground c, or in the terminal's own when c is nil.
func fg(c color.Color) lipgloss.Style {
	st := lipgloss.NewStyle()
	if c != nil {
		st = st.Foreground(c)
	}
	return st
}
