package main

import (
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
