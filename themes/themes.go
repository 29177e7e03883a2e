// Package themes turns a palette into the styles memtui's panes draw with.
// A Theme is plain semantic colours; NewStyles builds every lipgloss style
// from one. Dark and light come from the terminal's background, and NoColor
// (for NO_COLOR) draws with attributes only: bold, faint, reverse, underline.
package themes

import (
	"image/color"

	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/model"
)

// Theme is a palette of semantic colours plus the glamour style that suits
// it. Nil colours mean "the terminal's own".
type Theme struct {
	Name    string
	Dark    bool
	NoColor bool
	// Glamour is the glamour standard style name for rendering markdown.
	Glamour string

	Text, Faint, Accent, Border, BorderFocus color.Color
	SelectBg, SelectFg                       color.Color
	Error, Warning, Info, OK                 color.Color
	DateBg, SecretBg                         color.Color
	MeterFill, MeterEmpty, Cut               color.Color
}

// Dark is for terminals with a dark background.
func Dark() Theme {
	return Theme{
		Name: "dark", Dark: true, Glamour: styles.DarkStyle,
		Text: lipgloss.Color("#D8DAE5"), Faint: lipgloss.Color("#7A7F99"), Accent: lipgloss.Color("#7AA2F7"),
		Border: lipgloss.Color("#3B3F55"), BorderFocus: lipgloss.Color("#7AA2F7"),
		SelectBg: lipgloss.Color("#2E3A5C"), SelectFg: lipgloss.Color("#FFFFFF"),
		Error: lipgloss.Color("#F7768E"), Warning: lipgloss.Color("#E0AF68"), Info: lipgloss.Color("#7DCFFF"), OK: lipgloss.Color("#9ECE6A"),
		DateBg: lipgloss.Color("#5C4A1E"), SecretBg: lipgloss.Color("#6B2234"),
		MeterFill: lipgloss.Color("#7AA2F7"), MeterEmpty: lipgloss.Color("#3B3F55"), Cut: lipgloss.Color("#F7768E"),
	}
}

// Light is for terminals with a light background.
func Light() Theme {
	return Theme{
		Name: "light", Dark: false, Glamour: styles.LightStyle,
		Text: lipgloss.Color("#24292F"), Faint: lipgloss.Color("#6B6F7B"), Accent: lipgloss.Color("#1F4FA8"),
		Border: lipgloss.Color("#C8CCD6"), BorderFocus: lipgloss.Color("#1F4FA8"),
		SelectBg: lipgloss.Color("#D6E2FA"), SelectFg: lipgloss.Color("#0B1F44"),
		Error: lipgloss.Color("#C62828"), Warning: lipgloss.Color("#8A5A00"), Info: lipgloss.Color("#1F6F8B"), OK: lipgloss.Color("#2E7D32"),
		DateBg: lipgloss.Color("#FCE9B2"), SecretBg: lipgloss.Color("#F8C8D0"),
		MeterFill: lipgloss.Color("#1F4FA8"), MeterEmpty: lipgloss.Color("#C8CCD6"), Cut: lipgloss.Color("#C62828"),
	}
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
	fg := func(c color.Color) lipgloss.Style {
		st := lipgloss.NewStyle()
		if c != nil {
			st = st.Foreground(c)
		}
		return st
	}
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
	s.LineNo = fg(t.Faint)
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
