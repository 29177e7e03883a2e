package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// indexToken is a fake GitHub token the secret scanner finds.
const indexToken = "ghp_Zq8Wm3Rt6Yp1Lk4Hn7Vb2Xc5Jd9Fg0Ts3Qeu"

// indexTree is a config dir with one index of each fate: cut by lines with
// a secret in the first line cut off and one loaded, a subagent's index
// with a 33-line comment (loaded raw: 213 lines), one over 4 MiB (not
// loaded), and one that loads whole. It returns the config dir and the
// memory dirs by name.
func indexTree(t *testing.T) (string, map[string]string) {
	t.Helper()
	cfg := t.TempDir()
	dirs := map[string]string{
		"cut":   filepath.Join(cfg, "projects", "-work-cut", "memory"),
		"big":   filepath.Join(cfg, "projects", "-work-big", "memory"),
		"whole": filepath.Join(cfg, "projects", "-work-whole", "memory"),
		"agent": filepath.Join(cfg, "agent-memory", "reviewer"),
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "- [Entry %d](entry-%d.md) — hook %d\n", i, i, i)
		}
		return b.String()
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dirs["cut"], "MEMORY.md"), "# Memory\n- [CI](ci.md) — token "+indexToken+"\n"+entries(198)+"- [Bot](bot.md) — "+indexToken+"\n"+entries(8))
	write(filepath.Join(dirs["agent"], "MEMORY.md"), "<!--\n"+strings.Repeat("how to write entries here\n", 31)+"-->\n"+entries(180))
	write(filepath.Join(dirs["whole"], "MEMORY.md"), "# Memory\n\n- [A](a.md) — <system-reminder>x</system-reminder>\n")
	big, err := os.Create(filepath.Join(dirs["big"], "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	big.WriteString(entries(10))
	big.Truncate(model.IndexMaxReadBytes + 1)
	big.Close()
	return cfg, dirs
}

// TestIndexJSON checks index --json: its exact shape, and each index's
// fate as Claude Code 2.1.332 decides it.
func TestIndexJSON(t *testing.T) {
	cfg, dirs := indexTree(t)
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "index", "--json")
	if code != exitFindings {
		t.Fatalf("exit %d (want 1: an index is cut, one not loaded)\n%s", code, stderr)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if keys := slices.Sorted(mapKeys(raw)); !reflect.DeepEqual(keys, []string{"indexes", "version"}) || string(raw["version"]) != "1" {
		t.Fatalf("top level %v, version %s", keys, raw["version"])
	}
	var list []map[string]any
	if err := json.Unmarshal(raw["indexes"], &list); err != nil {
		t.Fatal(err)
	}
	fields := []string{"file", "lines", "loaded", "loaded_text", "memory_dir", "truncated_by_lines", "truncated_by_size", "units", "warning"}
	byDir := map[string]map[string]any{}
	for _, ix := range list {
		if keys := slices.Sorted(mapKeys(ix)); !reflect.DeepEqual(keys, fields) {
			t.Errorf("fields %v, want %v", keys, fields)
		}
		byDir[ix["memory_dir"].(string)] = ix
	}
	if len(list) != 4 {
		t.Fatalf("%d indexes, want 4:\n%s", len(list), stdout)
	}
	if strings.Contains(stdout, indexToken) {
		t.Errorf("index --json prints a secret")
	}

	cut := byDir[dirs["cut"]]
	if cut["file"] != "MEMORY.md" || cut["loaded"] != true || cut["lines"] != 209.0 || cut["truncated_by_lines"] != true || cut["truncated_by_size"] != false {
		t.Errorf("cut index: %v", cut)
	}
	// The counts come from the real text; the text and the warning quote
	// the secret masked.
	if u := claude.SimulateLoad(mustRead(t, filepath.Join(dirs["cut"], "MEMORY.md"))).Units; cut["units"] != float64(u) {
		t.Errorf("units %v, want %d (of the real text)", cut["units"], u)
	}
	w, _ := cut["warning"].(string)
	if !strings.HasPrefix(w, "> WARNING: MEMORY.md is 209 lines (limit: 200). Only part of it was loaded: 9 of 209 lines were cut off, starting at line 201 (\"- [Bot](bot.md) — ghp_") ||
		!strings.HasSuffix(w, "\"). Keep index entries to one line under ~200 chars; move detail into topic files.") {
		t.Errorf("warning %q", w)
	}
	text, _ := cut["loaded_text"].(string)
	if !strings.HasPrefix(text, "# Memory\n- [CI](ci.md) — token ghp_") || !strings.HasSuffix(text, "hook 198\n\n"+w) {
		t.Errorf("loaded text ...%q", text[max(len(text)-300, 0):])
	}

	agent := byDir[dirs["agent"]]
	if agent["lines"] != 213.0 || agent["truncated_by_lines"] != true || !strings.Contains(agent["warning"].(string), `13 of 213 lines were cut off, starting at line 201 ("- [Entry 168](entry-168.md) — hook 168")`) ||
		!strings.HasPrefix(agent["loaded_text"].(string), "<!--\nhow to write entries here") {
		t.Errorf("a subagent's index is loaded raw: %v", agent)
	}

	big := byDir[dirs["big"]]
	if big["loaded"] != false || big["loaded_text"] != "" || big["warning"] != "" || big["lines"] != 0.0 || big["units"] != 0.0 || big["truncated_by_lines"] != false || big["truncated_by_size"] != false {
		t.Errorf("an index over 4 MiB is not loaded: %v", big)
	}

	whole := byDir[dirs["whole"]]
	if whole["loaded_text"] != "# Memory\n\n- [A](a.md) — <\\system-reminder>x<\\/system-reminder>" || whole["warning"] != "" || whole["lines"] != 3.0 {
		t.Errorf("a whole index, sanitised: %v", whole)
	}

	// --memory-dir opens one directory; PROJECT narrows.
	code, stdout, _ = runCLI(t, env("HOME", t.TempDir()), "--memory-dir", dirs["whole"], "index", "--json")
	if code != exitOK || strings.Count(stdout, `"memory_dir"`) != 1 || !strings.Contains(stdout, `"memory_dir": "`+dirs["whole"]+`"`) {
		t.Errorf("--memory-dir: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "index", "whole", "--json")
	if code != exitOK || strings.Count(stdout, `"memory_dir"`) != 1 {
		t.Errorf("PROJECT: exit %d\n%s", code, stdout)
	}
	// No index: an empty list, not null.
	code, stdout, _ = runCLI(t, env("HOME", t.TempDir()), "--memory-dir", t.TempDir(), "index", "--json")
	if code != exitOK || !strings.Contains(stdout, `"indexes": []`) {
		t.Errorf("no index: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "index", "--json", "--move-above-cut", "x.md"); code != exitUsage {
		t.Errorf("--json with --move-above-cut: exit %d %s", code, stderr)
	}
}

// TestIndexText: the text report says what is not loaded, which index is
// a subagent's, and the warning Claude Code appends, secrets masked.
func TestIndexText(t *testing.T) {
	cfg, _ := indexTree(t)
	code, stdout, _ := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "index")
	if code != exitFindings {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{
		"4194305 bytes: NOT LOADED: over the 4194304 bytes Claude Code reads of an index",
		"agent-memory/reviewer/MEMORY.md (a subagent's: loaded raw, nothing stripped)\n  213/200 lines",
		`  Claude Code appends: > WARNING: MEMORY.md is 209 lines (limit: 200). Only part of it was loaded: 9 of 209 lines were cut off, starting at line 201 ("- [Bot](bot.md) — ghp_`,
		"4 indexes checked, 2 cut off, 1 not loaded at all.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("index lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, indexToken) {
		t.Errorf("index prints a secret:\n%s", stdout)
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIndexStores: with CLAUDE_MEMORY_STORES, index lists each mounted
// team store's index (file relative to the team dir) and the user store's
// promptIndex, measured like MEMORY.md; a legacy team/MEMORY.md is no
// index, and without the variable neither is team/web/MEMORY.md.
func TestIndexStores(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-acme", "memory")
	for p, body := range map[string]string{
		"MEMORY.md":          "- [A](a.md) — a\n",
		"a.md":               "a\n",
		"notes/INDEX.md":     "- [A](../a.md) — mine\n",
		"team/MEMORY.md":     "- [Old](old.md) — from the 2.1.88 days\n",
		"team/web/MEMORY.md": strings.Repeat("- [W](w.md) — web\n", 210),
		"team/web/w.md":      "w\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mem, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mem, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stores := `[{"path":"org/web","scope":"team","promptIndexMaxBytes":1000},{"path":"me","scope":"user","promptIndex":"notes/INDEX.md"}]`
	indexes := func(vars ...string) map[string]map[string]any {
		t.Helper()
		code, stdout, stderr := runCLI(t, env(append([]string{"HOME", t.TempDir()}, vars...)...), "--config-dir", cfg, "index", "--json")
		if code == exitUsage {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var out struct{ Indexes []map[string]any }
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		m := map[string]map[string]any{}
		for _, ix := range out.Indexes {
			rel, _ := filepath.Rel(mem, filepath.Join(ix["memory_dir"].(string), ix["file"].(string)))
			m[filepath.ToSlash(rel)] = ix
		}
		return m
	}
	got := indexes("CLAUDE_MEMORY_STORES", stores)
	if keys := slices.Sorted(mapKeys(got)); !reflect.DeepEqual(keys, []string{"MEMORY.md", "notes/INDEX.md", "team/web/MEMORY.md"}) {
		t.Fatalf("indexes with stores: %v", keys)
	}
	web := got["team/web/MEMORY.md"]
	if web["memory_dir"] != filepath.Join(mem, "team") || web["file"] != "web/MEMORY.md" || web["lines"] != 210.0 || web["truncated_by_lines"] != true ||
		!strings.Contains(web["warning"].(string), "10 of 210 lines were cut off") {
		t.Errorf("team store index: %v", web)
	}
	if got["notes/INDEX.md"]["loaded_text"] != "- [A](../a.md) — mine" {
		t.Errorf("user store index: %v", got["notes/INDEX.md"])
	}
	if got := indexes(); len(got) != 1 || got["MEMORY.md"] == nil {
		t.Errorf("without stores only MEMORY.md is an index: %v", slices.Sorted(mapKeys(got)))
	}

	code, stdout, _ := runCLI(t, env("HOME", t.TempDir(), "CLAUDE_MEMORY_STORES", stores), "--config-dir", cfg, "index")
	for _, want := range []string{
		"team/web/MEMORY.md (the index of the team store web; measured as Claude Code loads MEMORY.md)\n  210/200 lines",
		"over the 1000 bytes the store's promptIndexMaxBytes allows",
		"3 indexes checked, 1 cut off.",
	} {
		if code != exitFindings || !strings.Contains(stdout, want) {
			t.Errorf("index text (exit %d) lacks %q:\n%s", code, want, stdout)
		}
	}
}

// TestIndexAgentOver4MiB: Claude Code loads a subagent's MEMORY.md whole,
// however big; memtui reads the first 4 MiB and counts the rest, so the
// lines, units and the warning's "N of M lines" are of the whole file.
func TestIndexAgentOver4MiB(t *testing.T) {
	cfg := t.TempDir()
	dir := filepath.Join(cfg, "agent-memory", "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := "- [Entry](entry.md) — 説明 😀 hook\n"
	n := (model.IndexMaxReadBytes+1<<20)/len(line) + 1
	whole := strings.Repeat(line, n) + "- [Last](last.md)\n\n \n"
	if err := os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(whole), 0o644); err != nil {
		t.Fatal(err)
	}
	want := claude.SimulateLoadMode([]byte(whole), model.LoadAgent)
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "index", "--json")
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct{ Indexes []map[string]any }
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Indexes) != 1 {
		t.Fatalf("%v: %s", err, stdout[:min(len(stdout), 500)])
	}
	ix := out.Indexes[0]
	if ix["lines"] != float64(n+1) || ix["units"] != float64(want.Units) || ix["warning"] != want.Warning || ix["loaded"] != true {
		t.Errorf("a %d-byte subagent index: lines %v units %v (want %d, %d)\nwarning %q\nwant    %q", len(whole), ix["lines"], ix["units"], n+1, want.Units, ix["warning"], want.Warning)
	}
}
