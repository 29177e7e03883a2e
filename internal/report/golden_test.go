package report

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memtui/memtui/model"
)

// The coloured reports, byte for byte, so a colour that moves shows in the
// diff: the lint report and the proposals report in both palettes, and the
// lint report after the colour-profile writer has reduced it to 256
// colours, 16 colours and attributes only (what a terminal without true
// colour, or NO_COLOR, receives). Run with -update to rewrite.
func TestGoldenColouredReports(t *testing.T) {
	notice := VersionNotice{}
	probs := []model.TranscriptProblem{{Transcript: "/home/al/.claude/projects/-home-al-acme/s.jsonl", Message: "line 4 is not JSON and was skipped"}}
	props := []model.Proposal{{
		ID: "reindex-1a2b", Kind: model.KindReindex, MemoryDir: "/home/al/.claude/projects/-home-al-acme/memory",
		Title: "Index the two memories MEMORY.md does not link", Rationale: "Claude Code only finds a memory through the index.",
		Fixes: []model.FindingRef{{Rule: "memory-orphan", File: "deploy.md"}},
		Changes: []model.Change{
			{Path: "MEMORY.md", Op: model.OpUpdate, After: "# Memory\n\n- [Deploy](deploy.md) — make ship\n- [Tests](tests.md) — go test\n"},
			{Path: "notes.md", Op: model.OpDelete},
		},
	}}
	before := func(dir, path string) string {
		if path == "notes.md" {
			return "stale\n"
		}
		return "# Memory\n\n- [Tests](tests.md) — go test\n"
	}
	for _, dark := range []bool{true, false} {
		theme := "dark"
		if !dark {
			theme = "light"
		}
		t.Run("lint_"+theme, func(t *testing.T) {
			var buf bytes.Buffer
			st := DefaultStyles(dark)
			if err := Text(&buf, sample, Summarize(nil, sample), st, "/home/al", 80); err != nil {
				t.Fatal(err)
			}
			if err := Version(&buf, notice, st.Severity[model.Info], "/home/al"); err != nil {
				t.Fatal(err)
			}
			if err := Problems(&buf, probs, st.Severity[model.Warning], "/home/al", true, ""); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, buf.Bytes())
		})
		t.Run("dream_"+theme, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Proposals(&buf, props, before, DefaultDiffStyles(dark), "/home/al", 80); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, buf.Bytes())
		})
	}
	for _, p := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII} {
		t.Run(fmt.Sprintf("lint_dark_%s", p), func(t *testing.T) {
			var buf bytes.Buffer
			w := &colorprofile.Writer{Forward: &buf, Profile: p}
			if err := Text(w, sample, Summarize(nil, sample), DefaultStyles(true), "/home/al", 0); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, buf.Bytes())
		})
	}
	// Guard against a golden of nothing: the true-colour report has colour.
	var buf bytes.Buffer
	Text(&buf, sample, Summarize(nil, sample), DefaultStyles(true), "", 0)
	if !bytes.Contains(buf.Bytes(), []byte("\x1b[38;2;")) {
		t.Errorf("the dark report has no true-colour codes:\n%q", buf.String())
	}
}
