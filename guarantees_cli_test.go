package main

import (
	"strings"
	"testing"
)

// TestDreamApplySaysMissingGuarantees: dream --apply's confirmation (the
// dry run, on stdout) names what this system's write path lacks, and on
// Linux names nothing.
func TestDreamApplySaysMissingGuarantees(t *testing.T) {
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	_, stdout, _ := runCLI(t, e, "--demo", "--now", "2026-11-21", "dream", "--apply")
	if strings.Contains(stdout, "Note: on this system") {
		t.Errorf("on Linux dream --apply must name no missing guarantee:\n%s", stdout)
	}
	old := missingGuarantees
	missingGuarantees = func() []string { return []string{"no atomic swap\x1b[2J: a forged\nline"} }
	defer func() { missingGuarantees = old }()
	_, stdout, _ = runCLI(t, e, "--demo", "--now", "2026-11-21", "dream", "--apply")
	if !strings.Contains(stdout, "Note: on this system, no atomic swap") {
		t.Errorf("dream --apply does not say what this system lacks:\n%s", stdout)
	}
	if strings.Contains(stdout, "\x1b[2J") || strings.Contains(stdout, "forged\nline") {
		t.Errorf("the note is not made safe: %q", stdout)
	}
}
