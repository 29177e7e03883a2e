package themes

import (
	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/model"
)

// ReportStyles colour the CLI's lint report (and ls and history, which
// share its look). The zero value is plain text. Colour is written in full;
// the caller's colorprofile writer reduces or strips it for the terminal,
// pipes and NO_COLOR.
type ReportStyles struct {
	Project, Dir, Location, Rule, Suggestion, Summary lipgloss.Style
	// Indexed by model.Severity.
	Severity [3]lipgloss.Style
}

// NewReportStyles builds the lint report's styles for a theme.
func NewReportStyles(t Theme) ReportStyles {
	return ReportStyles{
		Project:    fg(t.Accent).Bold(true),
		Dir:        fg(t.ReportFaint),
		Location:   fg(t.ReportText),
		Rule:       fg(t.ReportFaint),
		Suggestion: fg(t.ReportFaint).Italic(true),
		Summary:    lipgloss.NewStyle().Bold(true),
		Severity: [3]lipgloss.Style{
			model.Info:    fg(t.ReportInfo),
			model.Warning: fg(t.ReportWarning),
			model.Error:   fg(t.Error).Bold(true),
		},
	}
}

// DiffReportStyles colour the CLI's proposals and changes reports: a
// header per proposal (or directory) and unified diffs. The zero value is
// plain text.
type DiffReportStyles struct {
	ID, Title, Rationale, File, Hunk, Add, Del, Summary lipgloss.Style
}

// NewDiffReportStyles builds the proposals report's styles for a theme.
func NewDiffReportStyles(t Theme) DiffReportStyles {
	bold := lipgloss.NewStyle().Bold(true)
	return DiffReportStyles{
		ID:        fg(t.Accent),
		Title:     bold,
		Rationale: fg(t.ReportFaint),
		File:      bold,
		Hunk:      fg(t.ReportInfo),
		Add:       fg(t.DiffAdd),
		Del:       fg(t.DiffDel),
		Summary:   bold,
	}
}
