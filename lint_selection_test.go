package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintSelectionIsJudgedOnItself: an error in the user's own settings
// fails `lint` over everything, but `lint --project X` on a clean project
// reports it under "configuration" and exits 0, saying why; the JSON
// summary counts it apart. A per-project CI gate no longer fails on a
// file it does not own.
func TestLintSelectionIsJudgedOnItself(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-ok", "memory")
	for p, body := range map[string]string{
		filepath.Join(mem, "MEMORY.md"):     "- [Queries](a.md) — why every query goes through sqlc\n",
		filepath.Join(mem, "a.md"):          "---\nname: a\ndescription: A decision about the database layer\ntype: project\n---\n\nWe use sqlc for every query; hand-written SQL lives in queries/.\n",
		filepath.Join(cfg, "settings.json"): "{not json",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := env("HOME", t.TempDir())
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "lint")
	if code != exitFindings || !strings.Contains(stdout, "settings-invalid") {
		t.Fatalf("lint over everything: exit %d, want 1 for the settings error\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "outside the selection") {
		t.Errorf("without a selection nothing is outside it:\n%s", stdout)
	}
	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "lint", "--project", "ok")
	if code != exitOK || !strings.Contains(stdout, "settings-invalid") || !strings.Contains(stdout, "1 configuration error outside the selection, which does not set the exit code") {
		t.Fatalf("lint --project ok: exit %d, want 0 with the settings error still reported\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint", "--project", "ok", "--json")
	var out struct {
		Summary struct {
			Errors     int `json:"errors"`
			Unselected int `json:"errors_outside_selection"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != exitOK || out.Summary.Errors != 1 || out.Summary.Unselected != 1 {
		t.Errorf("lint --project ok --json: exit %d, %v, %+v", code, err, out.Summary)
	}
	// An error in the selected project still fails it.
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte("- [Gone](gone.md) — a file that is not there\n- [Queries](a.md) — why every query goes through sqlc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint", "--project", "ok"); code != exitFindings {
		t.Errorf("a broken link in the selected project: exit %d, want 1\n%s", code, stdout)
	}
}
