package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/model/claude"
)

// TestVersionNamesTheFollowedClaudeCode: `memtui version` names memtui's
// version, the Claude Code version it follows and the behaviours an older
// Claude Code lacks; --json gives the same.
func TestVersionNamesTheFollowedClaudeCode(t *testing.T) {
	code, stdout, _ := runCLI(t, env(), "version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"memtui ",
		"\nfollows the memory behaviour of Claude Code 2.1.332\n",
		"changed after 2.1.261 (Claude Code 2.1.261 and older lack these",
		"  - a missing MEMORY.md is written by Claude Code at session start (claude-memory-format.md §3.4)\n",
		"  - the memory scan follows symlinked files and folders (claude-memory-format.md §4.1)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("version lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "\n  - "); n != len(claude.Changes) || n != 7 {
		t.Errorf("%d changes listed, want the 7 of the version timeline", n)
	}
	code, stdout, _ = runCLI(t, env(), "version", "--json")
	var v versionJSON
	if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil {
		t.Fatalf("version --json: exit %d, %v\n%s", code, err, stdout)
	}
	if v.Version != 1 || v.ClaudeCode != "2.1.332" || v.ComparedWith != "2.1.261" || len(v.ChangedSinceIt) != 7 || v.ChangedSinceIt[2].ID != "index-backfill" {
		t.Errorf("version --json = %+v", v)
	}
}

// versionTree writes a config dir with two projects, one whose session
// ran Claude Code 2.1.400 and one whose newest session ran 2.1.200 (an
// older one before it ran 2.1.100).
func versionTree(t *testing.T) string {
	t.Helper()
	cfg := t.TempDir()
	line := func(cwd, session, version, ts string) string {
		b, _ := json.Marshal(map[string]any{
			"type": "user", "message": map[string]any{"role": "user", "content": "hello"},
			"uuid": "aaaaaaaa-0000-4000-8000-" + session[len(session)-12:], "timestamp": ts,
			"cwd": cwd, "sessionId": session, "version": version, "gitBranch": "main",
			"userType": "external", "entrypoint": "cli", "isSidechain": false, "parentUuid": nil,
		})
		return string(b) + "\n"
	}
	for _, p := range []struct {
		cwd      string
		sessions [][3]string // id, version, timestamp
	}{
		{"/home/u/newer-app", [][3]string{{"0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20", "2.1.400", "2026-11-20T09:00:00.000Z"}}},
		{"/home/u/older-app", [][3]string{
			{"1b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a21", "2.1.100", "2026-11-01T09:00:00.000Z"},
			{"2b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a22", "2.1.200", "2026-11-19T09:00:00.000Z"},
		}},
	} {
		slug := strings.ReplaceAll(p.cwd, "/", "-")
		dir := filepath.Join(cfg, "projects", slug)
		writeFile(t, filepath.Join(dir, "memory", "MEMORY.md"), "- [Note](note.md) — a note\n")
		writeFile(t, filepath.Join(dir, "memory", "note.md"), "---\nname: note\ndescription: a note\ntype: project\n---\n\nA note with enough words in it to be a memory.\n")
		for _, s := range p.sessions {
			writeFile(t, filepath.Join(dir, s[0]+".jsonl"), line(p.cwd, s[0], s[1], s[2]))
		}
	}
	return cfg
}

// TestLintSaysWhichClaudeCodeRan: lint's text summary ends with one line
// that says a newer Claude Code ran (once) and which behaviours differ in
// the project whose newest session ran an older one.
func TestLintSaysWhichClaudeCodeRan(t *testing.T) {
	cfg := versionTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	_, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "lint")
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "claude code: ") {
			if line != "" {
				t.Errorf("two version lines:\n%s", stdout)
			}
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no version line in lint's summary:\n%s\n%s", stdout, stderr)
	}
	for _, want := range []string{
		"sessions of 2.1.400 ran, newer than the 2.1.332 memtui follows: memory behaviour may have moved since",
		"/home/u/older-app (2.1.200) last ran 2.1.261 or older, where, unlike in 2.1.332, the cut-off warning does not say which lines were cut",
		"a missing MEMORY.md is not written",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("the version line lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(line, "newer-app") || strings.Contains(line, "2.1.100") {
		t.Errorf("the version line names what it should not:\n%s", line)
	}
	// Without transcripts there is nothing to say.
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "--no-transcripts", "lint")
	if strings.Contains(stdout, "claude code: ") {
		t.Errorf("--no-transcripts still reports versions:\n%s", stdout)
	}
}

// TestLintJSONSaysWhichClaudeCodeRan: lint --json carries what the text
// line says: the newer version that ran, and the project whose newest
// session ran an older one with the ids of the changes it lacks. Without
// transcripts the object is there with nothing in it.
func TestLintJSONSaysWhichClaudeCodeRan(t *testing.T) {
	cfg := versionTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	_, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "lint", "--json")
	cc := decodeLint(t, stdout).ClaudeCode
	if cc.Followed != "2.1.332" || cc.Newer != "2.1.400" {
		t.Errorf("claude_code: followed %q newer %q, want 2.1.332 and 2.1.400\n%s%s", cc.Followed, cc.Newer, stdout, stderr)
	}
	if len(cc.Older) != 1 {
		t.Fatalf("claude_code.older = %+v, want only /home/u/older-app", cc.Older)
	}
	o := cc.Older[0]
	if o.Project != "/home/u/older-app" || o.Version != "2.1.200" || !o.Compared || len(o.MayDiffer) != 0 {
		t.Errorf("claude_code.older[0] = %+v, want /home/u/older-app at its newest session's 2.1.200, compared", o)
	}
	if len(o.Differs) != len(claude.Changes) || !slices.Contains(o.Differs, "index-backfill") || !slices.Contains(o.Differs, "scan-symlinks") {
		t.Errorf("claude_code.older[0].differs = %q, want every change id", o.Differs)
	}

	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "--no-transcripts", "lint", "--json")
	cc = decodeLint(t, stdout).ClaudeCode
	if cc.Followed != "2.1.332" || cc.Newer != "" || cc.Older == nil || len(cc.Older) != 0 {
		t.Errorf("--no-transcripts: claude_code = %+v, want the followed version and nothing else", cc)
	}
}
