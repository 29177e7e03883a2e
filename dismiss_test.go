package main

import (
	"strings"
	"testing"
)

// TestDismissLastsUntilRestored: dream --dismiss records a proposal as
// rejected; dream then leaves it out (saying so on stderr) and
// --apply --yes does not write it, --dismissed lists it, and --restore
// brings it back.
func TestDismissLastsUntilRestored(t *testing.T) {
	cfg, _, _ := proposerTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	ids := func() []string {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--json")
		if code != exitOK {
			t.Fatalf("dream: exit %d: %s", code, stderr)
		}
		var out []string
		for _, p := range decodeDream(t, stdout).Proposals {
			out = append(out, p.ID)
		}
		return out
	}
	before := ids()
	if len(before) == 0 {
		t.Fatal("want a proposal to dismiss")
	}
	id := before[0]
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--dismiss", id)
	if code != exitOK || !strings.HasPrefix(stdout, "dismissed "+id) {
		t.Fatalf("--dismiss: exit %d\n%s%s", code, stdout, stderr)
	}
	after := ids()
	if len(after) != len(before)-1 || strings.Contains(strings.Join(after, " "), id) {
		t.Errorf("dream must leave the dismissed %s out: %v", id, after)
	}
	_, _, stderr = runCLI(t, e, "--config-dir", cfg, "dream")
	if !strings.Contains(stderr, "1 dismissed proposal left out") {
		t.Errorf("dream must say it left one out: %q", stderr)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes")
	if code != exitOK || strings.Contains(stdout, id) {
		t.Errorf("--apply --yes wrote the dismissed %s (exit %d):\n%s", id, code, stdout)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "dream", "--dismissed")
	if code != exitOK || !strings.HasPrefix(stdout, id+"  ") {
		t.Errorf("--dismissed must list %s: exit %d\n%s", id, code, stdout)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "dream", "--restore", id)
	if code != exitOK || !strings.HasPrefix(stdout, "restored "+id) {
		t.Errorf("--restore: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "dream", "--dismissed")
	if code != exitOK || !strings.Contains(stdout, "No dismissed proposals") {
		t.Errorf("after --restore nothing is dismissed: %s", stdout)
	}
	if code, _, stderr = runCLI(t, e, "--config-dir", cfg, "--readonly", "dream", "--dismiss", id); code != exitUsage || !strings.Contains(stderr, "--readonly") {
		t.Errorf("--readonly --dismiss: exit %d, %q", code, stderr)
	}
}
