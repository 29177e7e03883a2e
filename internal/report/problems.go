package report

import (
	"bufio"
	"fmt"
	"io"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
)

// TranscriptProblems gathers what reading the projects' transcripts met,
// in project order, each problem once (two projects can read the same
// transcript). It is never nil, so JSON shows an empty list as [].
func TranscriptProblems(ps []*model.Project) []model.TranscriptProblem {
	out := []model.TranscriptProblem{}
	seen := make(map[model.TranscriptProblem]bool)
	for _, p := range ps {
		if p == nil || p.Log == nil {
			continue
		}
		for _, pr := range p.Log.Problems {
			if !seen[pr] {
				seen[pr] = true
				out = append(out, pr)
			}
		}
	}
	return out
}

// ProblemLine is one problem for a person: its transcript (home as ~),
// then what went wrong, made safe for one line.
func ProblemLine(p model.TranscriptProblem, home string) string {
	p.Transcript = Tilde(p.Transcript, home)
	return safe.ShowLine(p.String())
}

// ProblemsSummary says in one line how many problems reading transcripts
// met and what the first was; "" when there were none. more, when set, is
// added as the way to see them all (a flag, a key).
func ProblemsSummary(ps []model.TranscriptProblem, home, more string) string {
	switch len(ps) {
	case 0:
		return ""
	case 1:
		return "transcripts: 1 problem: " + ProblemLine(ps[0], home)
	}
	s := fmt.Sprintf("transcripts: %d problems (first: %s)", len(ps), ProblemLine(ps[0], home))
	if more != "" {
		s += "; " + more
	}
	return s
}

// Problems writes the problems reading transcripts met, after a report:
// with all, a count and then every problem on a line of its own; else one
// line with the count and the first, pointing at more for the rest.
// Nothing when there were none.
func Problems(w io.Writer, ps []model.TranscriptProblem, st lipgloss.Style, home string, all bool, more string) error {
	if len(ps) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	head := paint.New(st)
	if !all {
		bw.WriteString(head.Paint(ProblemsSummary(ps, home, more)) + "\n")
		return bw.Flush()
	}
	bw.WriteString(head.Paint(fmt.Sprintf("transcripts: %d %s", len(ps), Plural(len(ps), "problem", "problems"))) + "\n")
	for _, p := range ps {
		bw.WriteString("  " + ProblemLine(p, home) + "\n")
	}
	return bw.Flush()
}
