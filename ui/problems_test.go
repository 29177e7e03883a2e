package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/model"
)

// TestTranscriptProblemsShown: the title bar counts the problems reading
// transcripts met; with a project selected, its MEMORY.md preview counts
// its own and names each, the transcript by its path in the project's
// transcript dir and a hostile name shown escaped; a project without
// problems says nothing of them. The project summary (a project without
// memories) lists them too.
func TestTranscriptProblemsShown(t *testing.T) {
	cfg, dir := demoConfig(t)
	tdir := filepath.Join(dir, "projects", "-home-dev-blog")
	mem := filepath.Join(tdir, "memory", "MEMORY.md")
	f, err := os.OpenFile(filepath.Join(tdir, "0a2c4e6f-8b1d-4f3a-9c5e-7d9f1b3d5f68.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A line a crash cut short, naming a memory file.
	if _, err := f.WriteString(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read","input":{"file_path":"` + mem + "\"\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	linked := "agent-" + hostile.OSC52 + "\n" + hostile.Forged + ".jsonl"
	if err := os.Symlink(mem, filepath.Join(tdir, linked)); err != nil {
		t.Fatal(err)
	}

	d := newDriver(t, cfg, 160, 48)
	var blog, other string
	for _, name := range projectNames(d) {
		selectProjectNamed(d, name)
		view := ansi.Strip(d.m.View().Content)
		switch {
		case strings.HasSuffix(name, "blog"):
			blog = view
		case other == "":
			other = view
		}
	}
	for _, want := range []string{
		"9 projects · 1 Codex store · 2 transcript problems",
		"2 problems reading the transcripts",
		// Wrapped to the pane: each piece on a row of its own.
		"• 0a2c4e6f-8b1d-4f3a-9c5e-7d9f1b3d5f68.jsonl: line 10 is not",
		"JSON and was skipped",
		`• agent-\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE [error] memory-`,
		"stub owned.md.jsonl: could not be read: a symlink; not followed",
	} {
		if !strings.Contains(blog, want) {
			t.Errorf("the blog project's summary lacks %q:\n%s", want, hostile.Visible(blog))
		}
	}
	if other == "" || strings.Contains(other, "reading the transcripts") || !strings.Contains(other, "· 2 transcript problems") {
		t.Errorf("a project without transcript problems mentions some:\n%s", other)
	}
}

// TestProblemLines: the summary's list stops at most and says how many
// more there are and where to see them all.
func TestProblemLines(t *testing.T) {
	c := &shared{home: "/home/u"}
	l := &model.TranscriptLog{}
	for i := range 25 {
		l.Problems = append(l.Problems, model.TranscriptProblem{Transcript: fmt.Sprintf("/home/u/.claude/projects/-p/s%d.jsonl", i), Message: "line 1 is not JSON and was skipped"})
	}
	l.Problems = append(l.Problems, model.TranscriptProblem{Transcript: "/elsewhere/t.jsonl", Message: "m"})
	lines := problemLines(c, l, "/home/u/.claude/projects/-p", mostProblems)
	if len(lines) != 1+mostProblems+1 || lines[0] != "26 problems reading the transcripts (provenance and use may miss what they hold):" ||
		lines[1] != "  • s0.jsonl: line 1 is not JSON and was skipped" || lines[len(lines)-1] != "  … and 6 more: memtui lint --verbose lists them all" {
		t.Errorf("lines:\n%s", strings.Join(lines, "\n"))
	}
	if got := problemLines(c, &model.TranscriptLog{Problems: l.Problems[25:]}, "/home/u/.claude/projects/-p", 3); len(got) != 2 || got[1] != "  • /elsewhere/t.jsonl: m" {
		t.Errorf("a transcript outside the project's dir: %q", got)
	}
	if problemLines(c, nil, "", 3) != nil || problemLines(c, &model.TranscriptLog{}, "", 3) != nil {
		t.Error("no problems must add no lines")
	}
}

// TestProblemsCountedOnce: a transcript two projects read (a subdirectory's
// session folder is read by its own project and by the parent's,
// transcripts §9.5) has its problems counted once in the title bar, as
// lint counts them; a problem of another transcript adds one.
func TestProblemsCountedOnce(t *testing.T) {
	shared := model.TranscriptProblem{Transcript: "/c/projects/-home-u-app-web/s.jsonl", Message: "line 3 is not JSON and was skipped"}
	own := model.TranscriptProblem{Transcript: "/c/projects/-home-u-app/t.jsonl", Message: "line 9 is not JSON and was skipped"}
	m := &Model{data: []*projectData{
		{p: &model.Project{Log: &model.TranscriptLog{Problems: []model.TranscriptProblem{shared, own}}}},
		{p: &model.Project{Log: &model.TranscriptLog{Problems: []model.TranscriptProblem{shared}}}},
		{p: &model.Project{}},
	}}
	m.countProblems()
	if m.problems != 2 {
		t.Errorf("counted %d problems, want 2 (the shared transcript's once)", m.problems)
	}
}
