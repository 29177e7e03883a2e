package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDemoFirstRunShowsTheRace: on the demo's first run, the review
// predates ml-pipeline's two racing sessions, so `changes` shows what they
// did (a new memory by e7a9c1d3, an index both wrote, ending one line from
// the review) and who did it; every other dir is a first look. Nothing
// else in the sample changed since its review.
func TestDemoFirstRunShowsTheRace(t *testing.T) {
	code, stdout, stderr := runCLI(t, env(), "--demo", "--now", "2026-11-21", "changes", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var got struct {
		Dirs []struct {
			MemoryDir string `json:"memory_dir"`
			FirstLook bool   `json:"first_look"`
			Changes   []struct {
				Path, Kind, Diff string
				Writes           []struct {
					Session, Tool string
				}
			} `json:"changes"`
		} `json:"dirs"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var race int
	for _, d := range got.Dirs {
		if !strings.HasSuffix(d.MemoryDir, "/projects/-home-dev-ml-pipeline/memory") {
			if !d.FirstLook || len(d.Changes) != 0 {
				t.Errorf("%s: first look %v, %d changes; want a first look", d.MemoryDir, d.FirstLook, len(d.Changes))
			}
			continue
		}
		race++
		if d.FirstLook {
			t.Errorf("ml-pipeline is a first look: its review before the race was not recorded")
		}
		kinds := map[string]string{}
		sessions := map[string][]string{}
		for _, c := range d.Changes {
			kinds[c.Path] = c.Kind
			for _, w := range c.Writes {
				sessions[c.Path] = append(sessions[c.Path], w.Session[:8]+" "+w.Tool)
			}
			if c.Path == "MEMORY.md" {
				if strings.Count(c.Diff, "\n-- [") != 1 || !strings.Contains(c.Diff, "\n+- [GPU budget](project_gpu_budget.md): GPU hours per month") {
					t.Errorf("the index's change is not the one line f8b0d2e4 rewrote:\n%s", c.Diff)
				}
			}
		}
		if len(kinds) != 2 || kinds["MEMORY.md"] != "changed" || kinds["project_eval_metrics.md"] != "created" {
			t.Errorf("ml-pipeline's changes: %v", kinds)
		}
		if s := strings.Join(sessions["MEMORY.md"], ", "); s != "e7a9c1d3 edit, f8b0d2e4 write" {
			t.Errorf("MEMORY.md written by %q", s)
		}
		if s := strings.Join(sessions["project_eval_metrics.md"], ", "); s != "e7a9c1d3 write" {
			t.Errorf("project_eval_metrics.md written by %q", s)
		}
	}
	if race != 1 {
		t.Fatalf("ml-pipeline listed %d times", race)
	}
}
