//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHistoryShowsTranscriptProblems(t *testing.T) {
	cfg, _ := historyTree(t)
	// A transcript that is a symlink: memtui never follows one out of the
	// transcript dir, and says so.
	bad := filepath.Join(cfg, "projects", "-work-shop", "cccc3333-1d7b-4c3e-9a46-0b8e2f1d7c90.jsonl")
	elsewhere := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	writeFile(t, elsewhere, "{}\n")
	if err := os.Symlink(elsewhere, bad); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, historyEnv(t), "--config-dir", cfg, "history", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := decodeHistory(t, stdout)
	found := false
	for _, p := range got.Problems {
		if p.Transcript == bad && strings.Contains(p.Message, "symlink") {
			found = true
		}
	}
	if !found {
		t.Errorf("the unreadable transcript is not among the problems: %+v", got.Problems)
	}
	_, text, _ := runCLI(t, historyEnv(t), "--config-dir", cfg, "history")
	if !strings.Contains(text, "1 problem reading the transcripts:\n  "+bad+": ") {
		t.Errorf("text output does not show the problem:\n%s", text)
	}
}
