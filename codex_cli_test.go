package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexFlagsUsage: --agent takes claude or codex and nothing else;
// --codex-home must name a directory and cannot go with --agent claude;
// --agent codex on a machine with no Codex home is advice, and with one
// it runs (Claude Code's tree left out); the help lists both flags.
func TestCodexFlagsUsage(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".codex", "memories", "memory_summary.md"), "v1\n\n## User Profile\nA backend engineer.\n")
	writeFile(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "MEMORY.md"), "- [A](a.md) — a\n")
	writeFile(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "a.md"), "---\nname: a\ndescription: A\ntype: project\n---\n\nA.\n")
	empty := t.TempDir()
	missing := filepath.Join(empty, "none")
	for _, c := range []struct {
		name string
		home string
		args []string
		code int
		want []string
	}{
		{"bad --agent", home, []string{"--agent", "gemini", "lint"}, exitUsage, []string{`"gemini" for "--agent"`, "want claude or codex"}},
		{"--codex-home nowhere", home, []string{"lint", "--codex-home", missing}, exitUsage, []string{missing, "no such directory"}},
		{"--codex-home with --agent claude", home, []string{"--agent", "claude", "--codex-home", home, "lint"}, exitUsage, []string{"--agent claude leaves Codex out"}},
		{"--agent codex with --memory-dir", home, []string{"--agent", "codex", "--memory-dir", home, "lint"}, exitUsage, []string{"--agent codex leaves Claude Code out"}},
		{"--agent codex, no Codex", empty, []string{"--agent", "codex", "lint"}, exitUsage, []string{"No Codex home found", "--codex-home"}},
		{"--agent codex", home, []string{"--agent", "codex", "lint"}, exitOK, []string{"/.codex/memories", "[codex-memories-off]"}},
		{"--agent claude", home, []string{"--agent", "claude", "lint"}, exitOK, []string{"in 1 project"}},
		{"both", home, []string{"lint"}, exitOK, []string{"in 1 project"}},
		{"help", home, []string{"--help"}, exitOK, []string{"--codex-home", "--agent", "claude (Claude Code) or codex"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, env("HOME", c.home, "XDG_STATE_HOME", filepath.Join(t.TempDir(), "state")), append([]string{"--now", "2026-11-21", "--no-transcripts"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("the output does not say %q:\n%s%s", w, stdout, stderr)
				}
			}
		})
	}
}

// TestCodexLs: ls lists the Codex store after Claude Code's memory,
// labelled with its agent, each file with its kind and what Codex does
// with it (the summary's bytes against the cap, whole or cut; the
// handbook's task groups); --json gives each entry its agent, Codex's
// with its kind as the store and why memtui never edits what Codex
// rebuilds; --agent claude leaves the store out.
func TestCodexLs(t *testing.T) {
	home := t.TempDir()
	mem := filepath.Join(home, ".codex", "memories")
	writeFile(t, filepath.Join(mem, "memory_summary.md"), "v1\n\n## User Profile\n"+strings.Repeat("A backend engineer who likes small diffs. ", 260)+"\n")
	writeFile(t, filepath.Join(mem, "MEMORY.md"), "# Task Group: /work/api releases\nscope: releases\napplies_to: cwd=/work/api; reuse_rule=always\n")
	writeFile(t, filepath.Join(mem, "raw_memories.md"), "# Raw Memories\n\nNo raw memories yet.\n")
	writeFile(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "a.md"), "---\nname: a\ndescription: A\ntype: project\n---\n\nA.\n")
	e := env("HOME", home, "XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"))
	code, out, errOut := runCLI(t, e, "--now", "2026-11-21", "--no-transcripts", "ls")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"codex · ~/.codex", "summary ", "memory_summary.md  10939/10000 bytes: cut, 939 bytes in the middle never reach a session",
		"task group, line 1: /work/api releases", "raw-memories", "1 Claude Code memory file, 1 offered to recall; 3 Codex files."} {
		if !strings.Contains(out, want) {
			t.Errorf("ls does not say %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, e, "--now", "2026-11-21", "--no-transcripts", "ls", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Memories []map[string]any `json:"memories"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	by := map[string]map[string]any{}
	for _, m := range got.Memories {
		by[m["agent"].(string)+":"+m["file"].(string)] = m
	}
	if m := by["claude:a.md"]; m == nil {
		t.Errorf("Claude Code's memory is missing: %v", got.Memories)
	}
	if m := by["codex:memory_summary.md"]; m == nil || m["store"] != "summary" || m["memory_dir"] != mem || m["in_scan"] != nil || !strings.Contains(m["description"].(string), "cut") {
		t.Errorf("the Codex summary's entry: %v", m)
	}
	if m := by["codex:raw_memories.md"]; m == nil || !strings.Contains(m["read_only"].(string), "Codex rewrites this file from its database") {
		t.Errorf("raw_memories.md's entry must say why memtui never edits it: %v", m)
	}
	_, out, _ = runCLI(t, e, "--now", "2026-11-21", "--no-transcripts", "--agent", "claude", "ls")
	if strings.Contains(out, "codex") {
		t.Errorf("--agent claude must leave Codex out:\n%s", out)
	}
}

// TestCodexIndex: index shows Codex's summary after Claude Code's indexes
// as a Codex session loads it: over the cap, the bytes and lines cut from
// the middle and the marker Codex puts there (exit 1, as for a cut
// index); --json gives it agent "codex" with its bytes, tokens and the
// bytes cut.
func TestCodexIndex(t *testing.T) {
	home := t.TempDir()
	mem := filepath.Join(home, ".codex", "memories")
	writeFile(t, filepath.Join(mem, "memory_summary.md"), "v1\n\n## User Profile\n"+strings.Repeat("A backend engineer who likes small diffs.\n", 260))
	writeFile(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "MEMORY.md"), "- [A](a.md) — a\n")
	e := env("HOME", home, "XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"))
	code, out, errOut := runCLI(t, e, "--now", "2026-11-21", "--no-transcripts", "index")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d: %s\n%s", code, exitFindings, errOut, out)
	}
	for _, want := range []string{"~/.codex/memories/memory_summary.md (Codex's: injected into every Codex session)",
		"10939/10000 bytes (109%), 2735/2500 tokens of 4 bytes: CUT in the middle: 939 bytes, lines 122-144, never reach a session",
		"sections cut: ## User Profile (in part)", "Codex puts in their place: …235 tokens truncated…", "2 indexes checked, 1 cut off."} {
		if !strings.Contains(out, want) {
			t.Errorf("index does not say %q:\n%s", want, out)
		}
	}
	_, out, _ = runCLI(t, e, "--now", "2026-11-21", "--no-transcripts", "index", "--json")
	var got struct {
		Indexes []map[string]any `json:"indexes"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var cx map[string]any
	for _, ix := range got.Indexes {
		if ix["agent"] == "codex" {
			cx = ix
		}
	}
	if cx == nil || cx["bytes"] != float64(10939) || cx["tokens"] != float64(2735) || cx["cut_bytes"] != float64(939) || cx["truncated_by_size"] != true ||
		!strings.Contains(cx["loaded_text"].(string), "…235 tokens truncated…") {
		t.Errorf("index --json's Codex summary: %v", cx)
	}
}
