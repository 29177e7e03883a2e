package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
)

// TestRulesListsEveryRule: `memtui rules` prints each rule lint checks
// once, with its severity and summary, as text (one line each, IDs in a
// column) and as JSON; lint's unknown-rule error points at it.
func TestRulesListsEveryRule(t *testing.T) {
	code, stdout, stderr := runCLI(t, env(), "rules")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	rules := consolidate.Rules()
	if len(rules) < 40 || len(lines) != len(rules) {
		t.Fatalf("%d lines for %d rules:\n%s", len(lines), len(rules), stdout)
	}
	col := strings.Index(lines[0], rules[0].Severity.String())
	for i, r := range rules {
		l := lines[i]
		if !strings.HasPrefix(l, r.ID+" ") || !strings.HasSuffix(l, "  "+r.Summary) || strings.Index(l, r.Severity.String()) != col {
			t.Errorf("line %d %q: want %s, %s in column %d, then its summary", i, l, r.ID, r.Severity, col)
		}
	}

	code, stdout, _ = runCLI(t, env(), "rules", "--json")
	var out struct {
		Version int `json:"version"`
		Rules   []struct {
			ID, Severity, Summary string
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); code != exitOK || err != nil || out.Version != 1 || len(out.Rules) != len(rules) {
		t.Fatalf("rules --json: exit %d, %v, %+v", code, err, out)
	}
	for i, r := range rules {
		if got := out.Rules[i]; got.ID != r.ID || got.Severity != r.Severity.String() || got.Summary != r.Summary {
			t.Errorf("rule %d: %+v, want %+v", i, got, r)
		}
	}

	code, _, stderr = runCLI(t, env("HOME", t.TempDir()), "--demo", "lint", "--rule", "no-such-rule")
	if code != exitUsage || !strings.Contains(stderr, "memtui rules") {
		t.Errorf("an unknown --rule: exit %d, %q; want a usage error pointing at memtui rules", code, stderr)
	}
}
