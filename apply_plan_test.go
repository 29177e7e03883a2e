package main

import (
	"strings"
	"testing"
)

// TestDreamApplyYesAppliesTheDemoWhole: on a fresh copy of the demo every
// proposal applies and dream exits 0. Several read a file an earlier one
// wrote (a merge after a frontmatter fix of one of its memories, a
// reindex after a lost line went back into MEMORY.md): each is rebuilt on
// those writes instead of being refused as a conflict.
func TestDreamApplyYesAppliesTheDemoWhole(t *testing.T) {
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	code, stdout, stderr := runCLI(t, e, "--demo", "dream", "--apply", "--yes")
	if code != exitOK || !strings.Contains(stdout, " applied, 0 not.") {
		t.Fatalf("exit %d, want 0 with everything applied:\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "conflict") {
		t.Errorf("a proposal conflicted with this run's own writes:\n%s", stdout)
	}
	if n := strings.Count(stdout, "rebuilt on this run's earlier writes"); n == 0 {
		t.Errorf("no proposal needed rebuilding, so this test shows nothing about plans:\n%s", stdout)
	}
}
