package codex

import (
	"strings"
	"testing"
)

// TestParseConfig: Codex's defaults where the file is silent, the values
// it sets, and each thing Codex rejects or changes named.
func TestParseConfig(t *testing.T) {
	c, probs := ParseConfig([]byte("sqlite_home = \"/var/codex\"\n[features]\nmemories = true\n"))
	if !c.Enabled || !c.Use || !c.Generate || c.MaxUnusedDays != 30 || c.MaxRaw != 256 || c.SqliteHome != "/var/codex" || len(probs) != 0 {
		t.Errorf("defaults: %+v %+v", c, probs)
	}
	c, probs = ParseConfig([]byte("[features]\nmemory_tool = true\n[memories]\nmax_unused_days = 400\nmax_raw_memories_for_consolidation = 64\nuse_memories = false\nphase_2_model = \"x\"\ngenerate_memories = \"no\"\n"))
	if !c.Enabled || c.Use || c.MaxUnusedDays != 365 || c.MaxRaw != 64 {
		t.Errorf("values: %+v", c)
	}
	for _, want := range []string{"max_unused_days = 400 is outside 0–365: Codex silently uses 365", "phase_2_model is not a key Codex knows",
		"generate_memories must be true or false", "use_memories = false: sessions get no memory summary"} {
		found := false
		for _, p := range probs {
			found = found || strings.Contains(p.What, want)
		}
		if !found {
			t.Errorf("no problem %q: %+v", want, probs)
		}
	}
	if c, probs := ParseConfig(nil); c.Enabled || len(probs) != 1 || !strings.Contains(probs[0].What, "memories are off") {
		t.Errorf("an empty config: %+v %+v", c, probs)
	}
	if _, probs := ParseConfig([]byte("[features]\nmemories = true\n\n[memories\n")); len(probs) != 1 || probs[0].Line != 4 || !strings.Contains(probs[0].What, "does not parse") {
		t.Errorf("a broken file: %+v", probs)
	}
}
