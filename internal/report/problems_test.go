package report

import (
	"bytes"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/model"
)

// TestProblemsShown: the count and the first problem on one line, all of
// them with all set, home as ~, each problem once however many projects
// met it, and a hostile transcript name shown escaped and masked.
func TestProblemsShown(t *testing.T) {
	evil := "/home/u/.claude/projects/-p/agent-" + hostile.OSC52 + "\n" + hostile.Forged + " " + hostile.FakeToken + ".jsonl"
	a := model.TranscriptProblem{Transcript: "/home/u/.claude/projects/-p/s.jsonl", Message: "line 2 is not JSON and was skipped"}
	b := model.TranscriptProblem{Transcript: evil, Message: "could not be read: a symlink; not followed"}
	log := &model.TranscriptLog{Problems: []model.TranscriptProblem{a, b}}
	ps := TranscriptProblems([]*model.Project{{Log: log}, nil, {}, {Log: log}})
	if len(ps) != 2 {
		t.Fatalf("problems of two projects reading the same transcripts = %+v, want each once", ps)
	}
	if len(TranscriptProblems(nil)) != 0 || TranscriptProblems(nil) == nil {
		t.Error("no projects: want an empty, non-nil list (JSON [])")
	}

	var one bytes.Buffer
	if err := Problems(&one, ps, lipgloss.NewStyle(), "/home/u", false, "see more"); err != nil {
		t.Fatal(err)
	}
	want := "transcripts: 2 problems (first: ~/.claude/projects/-p/s.jsonl: line 2 is not JSON and was skipped); see more\n"
	if one.String() != want {
		t.Errorf("summary = %q, want %q", one.String(), want)
	}

	var all bytes.Buffer
	if err := Problems(&all, ps, lipgloss.NewStyle(), "/home/u", true, "see more"); err != nil {
		t.Fatal(err)
	}
	out := all.String()
	if n := strings.Count(out, "\n"); n != 3 || !strings.HasPrefix(out, "transcripts: 2 problems\n  ~/.claude/projects/-p/s.jsonl: ") {
		t.Errorf("all (%d lines):\n%s", n, hostile.Visible(out))
	}
	if leaks := hostile.FakeLeaks(out); len(leaks) > 0 || strings.ContainsAny(out, "\x1b\a") || strings.Contains(out, "\n"+hostile.Forged) {
		t.Errorf("a hostile transcript name leaks %v or runs raw:\n%s", leaks, hostile.Visible(out))
	}
	if !strings.Contains(out, `agent-\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE`) {
		t.Errorf("the hostile name is not shown escaped:\n%s", hostile.Visible(out))
	}

	var none bytes.Buffer
	Problems(&none, nil, lipgloss.NewStyle(), "", true, "")
	if none.Len() != 0 || ProblemsSummary(nil, "", "x") != "" {
		t.Errorf("no problems printed %q", none.String())
	}
	if got := ProblemsSummary(ps[:1], "/home/u", "see more"); got != "transcripts: 1 problem: ~/.claude/projects/-p/s.jsonl: line 2 is not JSON and was skipped" {
		t.Errorf("one problem: %q", got)
	}
}
