package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// lsTree is a config dir whose memory folder holds 202 memory files, its
// team/ one more (one scan of 203), and the folders Claude Code's scan
// skips: the 200th to the 202nd newest share an mtime (tied), the oldest
// is past the 200.
func lsTree(t *testing.T) (cfg, mem string) {
	t.Helper()
	cfg = t.TempDir()
	mem = filepath.Join(cfg, "projects", "-work-shop", "memory")
	base := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	put := func(rel, content string, mod time.Time) {
		p := filepath.Join(mem, filepath.FromSlash(rel))
		writeFile(t, p, content)
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	put("MEMORY.md", "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship\n", base)
	put("feedback_deploy.md", "---\nname: deploy\ndescription: Deploy with make ship\nmetadata: \n  node_type: memory\n  type: feedback\n  modified: 2026-11-05T10:20:30.456Z\n---\n\nDeploy with `make ship`.\n", base.Add(300*time.Hour))
	put("plain.md", "No frontmatter at all.\n", base.Add(299*time.Hour))
	for i := 0; i < 196; i++ {
		put(fmt.Sprintf("note_%03d.md", i), fmt.Sprintf("---\nname: note-%d\ndescription: Note %d\ntype: decision\n---\n\nA fact.\n", i, i), base.Add(time.Duration(100+i)*time.Hour))
	}
	tied := base.Add(50 * time.Hour)
	for _, n := range []string{"tie_a.md", "tie_b.md", "tie_c.md"} {
		put(n, "---\nname: "+strings.TrimSuffix(n, ".md")+"\n---\n\nTied.\n", tied)
	}
	put("old.md", "---\ndescription: The oldest\ntype: user\n---\n\nOld.\n", base)
	for _, rel := range []string{".hidden/x.md", "logs/2026/01/x.md", "Sessions./x.md", "proposals/x.md", "team/sub/x.md"} {
		put(rel, "---\nname: hidden\ndescription: In a skipped folder\ntype: user\n---\n\nSkipped.\n", base.Add(400*time.Hour))
	}
	// A link to nothing: the scan cannot read it (nor memtui).
	if err := os.Symlink("nothere.md", filepath.Join(mem, "dangling.md")); err != nil {
		t.Fatal(err)
	}
	put("team/t.md", "---\nname: team-note\ndescription: Shared\ntype: reference\n---\n\nShared.\n", base.Add(401*time.Hour))
	return cfg, mem
}

// TestLsJSON: `ls --json` prints every memory file with exactly the fields
// of the contract, and what Claude Code's scan makes of each.
func TestLsJSON(t *testing.T) {
	cfg, mem := lsTree(t)
	code, out, errOut := runCLI(t, historyEnv(t), "--config-dir", cfg, "--no-transcripts", "ls", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var raw struct {
		Version  int              `json:"version"`
		Memories []map[string]any `json:"memories"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var top map[string]any
	json.Unmarshal([]byte(out), &top)
	if raw.Version != 1 || len(top) != 2 {
		t.Errorf("top level: %v", keysOf(top))
	}
	fields := []string{"agent", "bytes", "description", "file", "in_scan", "memory_dir", "modified", "modified_from", "name", "reason", "store", "type"}
	byFile := map[string]map[string]any{}
	for _, m := range raw.Memories {
		if got := keysOf(m); !reflect.DeepEqual(got, fields) {
			t.Fatalf("fields %v, want %v", got, fields)
		}
		byFile[m["store"].(string)+":"+m["file"].(string)] = m
	}
	// 202 in the folder, 4 skipped, 2 in team/, and dangling.md.
	if len(raw.Memories) != 209 {
		t.Errorf("%d memories, want 209", len(raw.Memories))
	}
	want := map[string]map[string]any{
		"auto:feedback_deploy.md": {"agent": "claude", "memory_dir": mem, "file": "feedback_deploy.md", "store": "auto", "name": "deploy", "description": "Deploy with make ship",
			"type": "feedback", "modified": "2026-11-05T10:20:30.456Z", "modified_from": "metadata", "bytes": float64(167), "in_scan": true, "reason": ""},
		"auto:plain.md": {"memory_dir": mem, "file": "plain.md", "store": "auto", "name": "", "description": "", "type": "",
			"modified": "2026-11-13T19:00:00Z", "modified_from": "mtime", "bytes": float64(23), "in_scan": true, "reason": ""},
		"auto:note_000.md":       {"type": "", "name": "note-0", "description": "Note 0", "in_scan": true, "reason": ""},
		"auto:tie_b.md":          {"in_scan": nil, "reason": "tie-at-200", "name": "tie_b", "description": ""},
		"auto:old.md":            {"in_scan": false, "reason": "past-200", "name": "", "description": "The oldest", "type": "user", "modified": "2026-11-01T08:00:00Z"},
		"auto:.hidden/x.md":      {"in_scan": false, "reason": "excluded-path"},
		"auto:logs/2026/01/x.md": {"in_scan": false, "reason": "excluded-path"},
		"auto:Sessions./x.md":    {"in_scan": false, "reason": "excluded-path"},
		"auto:proposals/x.md":    {"in_scan": false, "reason": "excluded-path"},
		"team:t.md":              {"memory_dir": filepath.Join(mem, "team"), "store": "team", "in_scan": true, "reason": "", "type": "reference"},
		"team:sub/x.md":          {"store": "team", "in_scan": false, "reason": "excluded-path"},
	}
	want["auto:dangling.md"] = map[string]any{"in_scan": false, "reason": "unreadable", "name": "", "modified": "", "modified_from": "", "bytes": float64(0)}
	for k, fs := range want {
		m, ok := byFile[k]
		if !ok {
			t.Errorf("%s is not listed", k)
			continue
		}
		for f, v := range fs {
			if !reflect.DeepEqual(m[f], v) {
				t.Errorf("%s: %s = %#v, want %#v", k, f, m[f], v)
			}
		}
	}
}

// TestLsText: one line per file, the verdict first, and a summary.
func TestLsText(t *testing.T) {
	cfg, _ := lsTree(t)
	code, out, errOut := runCLI(t, historyEnv(t), "--config-dir", cfg, "--no-transcripts", "ls")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"(auto; 198 of 202 listed memories offered to recall, of 203 in the whole scan)",
		"    in-scan       feedback   2026-11-05  167B/4K      feedback_deploy.md  deploy: Deploy with make ship\n",
		"    in-scan       -          2026-11-13* 23B/4K       plain.md\n",
		"    past-200      user       2026-11-01* ",
		"    tie-at-200    -          2026-11-03* ",
		"    excluded-path user       ",
		"209 memory files, 199 offered to recall.",
		"    unreadable    -          -           -            dangling.md\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ls lacks %q:\n%s", want, out)
		}
	}
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
