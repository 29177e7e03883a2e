package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSessionsTellTheRace: on the demo, sessions lists ml-pipeline's two
// racing sessions as open at the same time, what each read and wrote, and
// the lost update from both sides; --since leaves out what ended before
// it; the text says the same for people.
func TestSessionsTellTheRace(t *testing.T) {
	code, stdout, stderr := runCLI(t, env(), "--demo", "--now", "2026-11-21", "sessions", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	type link struct {
		File     string   `json:"file"`
		Lines    []string `json:"lines"`
		Other    string   `json:"other"`
		Definite bool     `json:"definite"`
	}
	var got struct {
		Version  int `json:"version"`
		Sessions []struct {
			ID, Kind, Key, Title, Project, Branch string
			MemoryDir                             string `json:"memory_dir"`
			Read                                  []string
			Written                               []struct{ File, Op, Tool string }
			Lost, Dropped                         []link
			Overlaps                              []string
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.Version != 1 {
		t.Fatalf("%v\n%s", err, stdout)
	}
	byID := map[string]int{}
	for i, s := range got.Sessions {
		byID[s.ID[:min(len(s.ID), 8)]] = i
		if s.Project == "" || s.MemoryDir == "" || s.Kind == "" || s.Key == "" {
			t.Errorf("a session without its project, dir, kind or key: %+v", s)
		}
	}
	ia, okA := byID["e7a9c1d3"]
	ib, okB := byID["f8b0d2e4"]
	if !okA || !okB {
		t.Fatalf("the racing sessions are not listed: %v", byID)
	}
	a, b := got.Sessions[ia], got.Sessions[ib]
	if !slices.Equal(a.Overlaps, []string{b.Key}) || !slices.Equal(b.Overlaps, []string{a.Key}) {
		t.Errorf("the two sessions must overlap each other: %v, %v", a.Overlaps, b.Overlaps)
	}
	if a.Title != "Write up the eval metrics" || a.Kind != "main" || a.Branch != "feat/eval" || !slices.Contains(a.Read, "MEMORY.md") {
		t.Errorf("e7a9c1d3: %+v", a)
	}
	var wrote []string
	for _, w := range a.Written {
		wrote = append(wrote, w.Op+" "+w.File+" "+w.Tool)
	}
	if !slices.Equal(wrote, []string{"create project_eval_metrics.md Write", "modify MEMORY.md Edit"}) {
		t.Errorf("e7a9c1d3 wrote %v", wrote)
	}
	if len(a.Lost) != 1 || a.Lost[0].Other != b.Key || a.Lost[0].File != "MEMORY.md" || !a.Lost[0].Definite ||
		!strings.Contains(strings.Join(a.Lost[0].Lines, "\n"), "[Eval metrics](project_eval_metrics.md)") {
		t.Errorf("e7a9c1d3's lost entry: %+v", a.Lost)
	}
	if len(b.Dropped) != 1 || b.Dropped[0].Other != a.Key || len(b.Lost) != 0 {
		t.Errorf("f8b0d2e4 dropped it: %+v", b.Dropped)
	}
	// Other sessions of the demo raced nobody.
	for _, s := range got.Sessions {
		if s.ID != a.ID && s.ID != b.ID && len(s.Overlaps) > 0 {
			t.Errorf("%s overlaps %v", s.ID, s.Overlaps)
		}
	}

	// --since: only what still ran at or after it.
	code, stdout, _ = runCLI(t, env(), "--demo", "--now", "2026-11-21", "--project", "ml-pipeline", "sessions", "--json", "--since", "2026-11-10")
	var recent struct {
		Sessions []struct{ ID string } `json:"sessions"`
	}
	if json.Unmarshal([]byte(stdout), &recent) != nil || code != exitOK || len(recent.Sessions) != 2 {
		t.Errorf("ml-pipeline --since 2026-11-10: exit %d, %d sessions, want the two racing ones\n%s", code, len(recent.Sessions), stdout)
	}
	if code, _, stderr := runCLI(t, env(), "--demo", "sessions", "--since", "soon"); code != exitUsage || !strings.Contains(stderr, "--since") {
		t.Errorf("a bad --since: exit %d\n%s", code, stderr)
	}

	code, stdout, _ = runCLI(t, env(), "--demo", "--now", "2026-11-21", "--project", "ml-pipeline", "sessions", "--since", "2026-11-10")
	for _, want := range []string{"e7a9c1d3  main  “Write up the eval metrics” on feat/eval, 2026-11-11 09:00–09:01 UTC",
		"overlaps  f8b0d2e4 (open on this directory at the same time)",
		"lost      1 line it wrote in MEMORY.md, dropped by f8b0d2e4's write",
		"dropped   1 line e7a9c1d3 wrote in MEMORY.md",
		"2 sessions, 2 of them open on a directory at the same time as another."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the text lacks %q:\n%s", want, stdout)
		}
	}
}
