package codex

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Config is what Codex's config.toml says about memories (facts §3.1).
type Config struct {
	// Enabled is the feature gate, [features] memories (or its legacy
	// alias memory_tool); off by default. EnabledSet says the file sets it.
	Enabled, EnabledSet bool
	// Use and Generate are [memories] use_memories and generate_memories
	// (both true by default): whether sessions get the summary, and
	// whether new threads feed the store.
	Use, Generate bool
	// DedicatedTools is [memories] dedicated_tools.
	DedicatedTools bool
	// MaxUnusedDays is the retention window (30 by default, clamped to
	// 0–365); MaxRaw the consolidation's input set and so the number of
	// rollout summaries (256, clamped to 1–4096).
	MaxUnusedDays, MaxRaw int
	// SqliteHome is the top-level sqlite_home, "" when unset.
	SqliteHome string
}

// limit is one [memories] key's default and clamp range.
type limit struct{ def, lo, hi int }

// limits are the [memories] integer keys (facts §3.1).
var limits = map[string]limit{
	"max_raw_memories_for_consolidation": {256, 1, 4096},
	"max_unused_days":                    {30, 0, 365},
	"max_rollout_age_days":               {10, 0, 90},
	"max_rollouts_per_startup":           {2, 1, 128},
	"min_rollout_idle_hours":             {6, 1, 48},
	"min_rate_limit_remaining_percent":   {25, 0, 100},
}

// memoryKeys are every key [memories] accepts (it denies the others).
var memoryKeys = map[string]bool{
	"generate_memories": true, "use_memories": true, "dedicated_tools": true,
	"disable_on_external_context": true, "no_memories_if_mcp_or_web_search": true,
	"extract_model": true, "consolidation_model": true,
}

// ParseConfig reads config.toml's memory settings, with Codex's defaults
// for what it leaves out, and says what in it Codex rejects or changes:
// a file that does not parse, an unknown [memories] key (the table
// denies them), a value of the wrong type, a number Codex clamps, and the
// feature left off.
func ParseConfig(content []byte) (Config, []Problem) {
	c := Config{Use: true, Generate: true, MaxUnusedDays: limits["max_unused_days"].def, MaxRaw: limits["max_raw_memories_for_consolidation"].def}
	var probs []Problem
	var doc map[string]any
	if err := toml.Unmarshal(content, &doc); err != nil {
		line := 0
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ = de.Position()
		}
		return c, []Problem{{Line: line, What: "config.toml does not parse, so Codex will not start: " + firstLine(err.Error())}}
	}
	if s, ok := doc["sqlite_home"].(string); ok {
		c.SqliteHome = s
	}
	if f, ok := doc["features"].(map[string]any); ok {
		for _, k := range []string{"memories", "memory_tool"} {
			if v, set := f[k]; set {
				b, ok := v.(bool)
				if !ok {
					probs = append(probs, Problem{What: fmt.Sprintf("[features] %s must be true or false, not %v", k, v)})
					continue
				}
				c.Enabled, c.EnabledSet = b, true
			}
		}
	}
	if !c.Enabled {
		probs = append(probs, Problem{What: "memories are off: [features] memories is not true, so Codex neither writes nor reads the store"})
	}
	m, _ := doc["memories"].(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		if l, ok := limits[k]; ok {
			n, ok := v.(int64)
			switch {
			case !ok:
				probs = append(probs, Problem{What: fmt.Sprintf("[memories] %s must be a whole number, not %v", k, v)})
			case int(n) < l.lo || int(n) > l.hi:
				probs = append(probs, Problem{What: fmt.Sprintf("[memories] %s = %d is outside %d–%d: Codex silently uses %d", k, n, l.lo, l.hi, clamp(int(n), l))})
			}
			if ok {
				switch k {
				case "max_unused_days":
					c.MaxUnusedDays = clamp(int(n), l)
				case "max_raw_memories_for_consolidation":
					c.MaxRaw = clamp(int(n), l)
				}
			}
			continue
		}
		if !memoryKeys[k] {
			probs = append(probs, Problem{What: "[memories] " + k + " is not a key Codex knows, and the table denies unknown keys: the config is an error"})
			continue
		}
		switch k {
		case "extract_model", "consolidation_model":
			if _, ok := v.(string); !ok {
				probs = append(probs, Problem{What: fmt.Sprintf("[memories] %s must be a string, not %v", k, v)})
			}
			continue
		}
		b, ok := v.(bool)
		if !ok {
			probs = append(probs, Problem{What: fmt.Sprintf("[memories] %s must be true or false, not %v", k, v)})
			continue
		}
		switch k {
		case "use_memories":
			c.Use = b
		case "generate_memories":
			c.Generate = b
		case "dedicated_tools":
			c.DedicatedTools = b
		}
	}
	if c.Enabled && !c.Use {
		probs = append(probs, Problem{What: "[memories] use_memories = false: sessions get no memory summary"})
	}
	if c.Enabled && !c.Generate {
		probs = append(probs, Problem{What: "[memories] generate_memories = false: new threads no longer feed the store"})
	}
	return c, probs
}

func clamp(n int, l limit) int { return max(l.lo, min(n, l.hi)) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
