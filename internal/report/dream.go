package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/model"
)

// ProposalsJSON writes {"version":1,"proposals":[...]}.
func ProposalsJSON(w io.Writer, ps []model.Proposal) error {
	if ps == nil {
		ps = []model.Proposal{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(consolidate.ProposerOutput{Version: 1, Proposals: ps})
}

// DiffStyles colour the proposals report.
type DiffStyles struct {
	ID, Title, Rationale, File, Hunk, Add, Del, Summary lipgloss.Style
}

// DefaultDiffStyles colours for a dark or light terminal.
func DefaultDiffStyles(dark bool) DiffStyles {
	ld := lipgloss.LightDark(dark)
	faint := ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	return DiffStyles{
		ID:        lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#1F4FA8"), lipgloss.Color("#7AA2F7"))),
		Title:     lipgloss.NewStyle().Bold(true),
		Rationale: lipgloss.NewStyle().Foreground(faint),
		File:      lipgloss.NewStyle().Bold(true),
		Hunk:      lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#2E7D9A"), lipgloss.Color("#7DCFFF"))),
		Add:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#2E7D32"), lipgloss.Color("#9ECE6A"))),
		Del:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#C62828"), lipgloss.Color("#F7768E"))),
		Summary:   lipgloss.NewStyle().Bold(true),
	}
}

// Proposals writes each proposal as a header (ID, kind, directory, title,
// rationale, the findings it fixes) and a unified diff of every change.
// before returns a file's content as the proposal read it.
func Proposals(w io.Writer, ps []model.Proposal, before func(dir, path string) string, st DiffStyles, home string, width int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	id, title, why := paint.New(st.ID), paint.New(st.Title), paint.New(st.Rationale)
	dp := newDiffPainters(st)
	for i, p := range ps {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "%s  %s\n", id.Paint(p.ID), Tilde(p.MemoryDir, home))
		bw.WriteString(title.Paint(p.Title) + "\n")
		bw.WriteString(why.Paint(hang(p.Rationale, width, 0)) + "\n")
		if len(p.Fixes) > 0 {
			var refs []string
			for _, f := range p.Fixes {
				r := f.Rule
				if f.File != "" {
					r += " " + f.File
					if f.Line > 0 {
						r += fmt.Sprintf(":%d", f.Line)
					}
				}
				refs = append(refs, r)
			}
			bw.WriteString(why.Paint(hang("fixes: "+strings.Join(refs, ", "), width, 0)) + "\n")
		}
		for _, c := range p.Changes {
			writeDiff(bw, consolidate.UnifiedDiff(c, before(p.MemoryDir, c.Path)), dp)
		}
	}
	counts := map[model.ProposalKind]int{}
	for _, p := range ps {
		counts[p.Kind]++
	}
	var parts []string
	for _, k := range model.ProposalKinds {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	sum := "no proposals: nothing to consolidate"
	if len(ps) > 0 {
		sum = fmt.Sprintf("%d %s (%s). Nothing was written.", len(ps), Plural(len(ps), "proposal", "proposals"), strings.Join(parts, ", "))
	}
	if len(ps) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString(paint.New(st.Summary).Paint(sum) + "\n")
	return bw.Flush()
}

// diffPainters colour the lines of a unified diff.
type diffPainters struct{ file, hunk, add, del paint.Painter }

func newDiffPainters(st DiffStyles) diffPainters {
	return diffPainters{paint.New(st.File), paint.New(st.Hunk), paint.New(st.Add), paint.New(st.Del)}
}

// writeDiff writes a unified diff line by line, coloured, with every
// secret masked: the lines a redaction removes hold them whole.
func writeDiff(bw *bufio.Writer, diff string, p diffPainters) {
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		if line == "" {
			continue
		}
		line = maskSecrets(line)
		switch {
		case strings.HasPrefix(line, "---") || strings.HasPrefix(line, "+++"):
			line = p.file.Paint(line)
		case strings.HasPrefix(line, "@@"):
			line = p.hunk.Paint(line)
		case strings.HasPrefix(line, "+"):
			line = p.add.Paint(line)
		case strings.HasPrefix(line, "-"):
			line = p.del.Paint(line)
		}
		bw.WriteString(line + "\n")
	}
}

// maskSecrets replaces each secret in a line with its mask: a secret is
// never printed whole.
func maskSecrets(line string) string {
	return consolidate.DefaultSecretScanner().MaskSecrets(line)
}
