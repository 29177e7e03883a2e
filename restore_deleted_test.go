package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRestoreDeletedEndToEnd: in the history tree, session A wrote
// old_note.md whole and then removed it with rm; scratch.md was written by
// shell commands of unknown content before its rm. lint reports the first
// as memory-deleted and not the second; dream --kind restore-deleted
// --apply --yes brings old_note.md back byte for byte, after which lint is
// clean of it; undo --last removes it again.
func TestRestoreDeletedEndToEnd(t *testing.T) {
	cfg, mem := historyTree(t)
	e := historyEnv(t)
	note := "---\nname: note\ndescription: A passing note\ntype: project\n---\n\nShort-lived.\n"
	deleted := func() []string {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "lint", "--json", "--rule", "memory-deleted")
		var got struct {
			Findings []struct{ File, Message string } `json:"findings"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || code == exitUsage {
			t.Fatalf("lint: exit %d, %v\n%s%s", code, err, stdout, stderr)
		}
		var files []string
		for _, f := range got.Findings {
			files = append(files, f.File)
			if f.File == "old_note.md" && !strings.Contains(f.Message, "rm ") {
				t.Errorf("the finding must name the rm that removed it: %s", f.Message)
			}
		}
		return files
	}
	if got := deleted(); len(got) != 1 || got[0] != "old_note.md" {
		t.Fatalf("memory-deleted on %v, want old_note.md alone (scratch.md's last text is unknown)", got)
	}
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--kind", "restore-deleted", "--apply", "--yes")
	if code != exitOK || !strings.Contains(stdout, "1 applied") {
		t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
	}
	path := filepath.Join(mem, "old_note.md")
	if got, err := os.ReadFile(path); err != nil || string(got) != note {
		t.Fatalf("old_note.md must come back byte for byte: %v\n%q", err, got)
	}
	if got := deleted(); len(got) != 0 {
		t.Errorf("after the restore, lint still reports %v", got)
	}
	if code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "undo", "--last"); code != exitOK {
		t.Fatalf("undo --last: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("undo must remove the restored file again: %v", err)
	}
}

// TestRestoreDeletedFromTheReviewBaseline: a memory reviewed (changes
// --reviewed keeps its text) and then removed by hand, with no
// transcript to tell of it, is reported from the review baseline and
// comes back byte for byte; lint is then clean of it.
func TestRestoreDeletedFromTheReviewBaseline(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-shop", "memory")
	gone := "---\nname: gone\ndescription: Removed by hand\ntype: project\n---\n\nThe staging bucket is uploads-stg.\r\n"
	writeFile(t, filepath.Join(mem, "MEMORY.md"), "- [Gone](gone.md) — removed by hand\n- [Kept](kept.md) — still here\n")
	writeFile(t, filepath.Join(mem, "gone.md"), gone)
	writeFile(t, filepath.Join(mem, "kept.md"), "---\nname: kept\ndescription: Still here\ntype: project\n---\n\nStill here.\n")
	e := historyEnv(t)
	if code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--no-transcripts", "changes", "--reviewed"); code != exitOK {
		t.Fatalf("changes --reviewed: exit %d\n%s%s", code, stdout, stderr)
	}
	if err := os.Remove(filepath.Join(mem, "gone.md")); err != nil {
		t.Fatal(err)
	}
	lint := func() string {
		_, stdout, _ := runCLI(t, e, "--config-dir", cfg, "--no-transcripts", "lint", "--rule", "memory-deleted")
		return stdout
	}
	if out := lint(); !strings.Contains(out, "gone.md is gone from disk") || !strings.Contains(out, "review baseline") {
		t.Fatalf("lint does not report gone.md from the review baseline:\n%s", out)
	}
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--no-transcripts", "dream", "--kind", "restore-deleted", "--apply", "--yes")
	if code != exitOK || !strings.Contains(stdout, "1 applied") {
		t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
	}
	if got, err := os.ReadFile(filepath.Join(mem, "gone.md")); err != nil || string(got) != gone {
		t.Fatalf("gone.md must come back byte for byte: %v %q", err, got)
	}
	if out := lint(); strings.Contains(out, "gone.md") {
		t.Errorf("after the restore lint still reports it:\n%s", out)
	}
}
