package app

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model/codex"
)

// codexHome writes a small Codex home at dir: a summary, a handbook and
// the config that turns memories on.
func codexHome(t *testing.T, dir string) string {
	t.Helper()
	testfs.WriteAll(t, filepath.Join(dir, "memories"), map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\nA backend engineer.\n",
		codex.HandbookFile: "# Task Group: /home/dev/api releases\nscope: releases\napplies_to: cwd=/home/dev/api; reuse_rule=always\n",
	})
	testfs.Write(t, filepath.Join(dir, "config.toml"), "[features]\nmemories = true\n")
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// agentsHome is a HOME holding both agents' memory: ~/.claude with one
// project's memory dir, and ~/.codex with a store.
func agentsHome(t *testing.T) (home, codexDir string) {
	t.Helper()
	home = t.TempDir()
	testfs.WriteAll(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory"), map[string]string{
		"MEMORY.md": "- [A](a.md) — a decision\n",
		"a.md":      "---\nname: a\ndescription: A decision\ntype: project\n---\n\nWe use sqlc.\n",
	})
	return home, codexHome(t, filepath.Join(home, ".codex"))
}

// openAgents opens a read-only workspace over the environment env (HOME,
// CODEX_HOME...), memtui's state kept under home.
func openAgents(t *testing.T, o Options, env map[string]string) (*Workspace, error) {
	t.Helper()
	env["XDG_STATE_HOME"] = filepath.Join(t.TempDir(), "state")
	o.Getenv = func(k string) string { return env[k] }
	o.ReadOnly, o.NoTranscripts = true, true
	ws, err := Open(context.Background(), o)
	if err == nil {
		t.Cleanup(ws.Close)
	}
	return ws, err
}

func storeHomes(ss []*codex.Store) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Home)
	}
	return out
}

// TestOpenReadsCodex: with no flags, both agents' memory is read (the
// default ~/.codex under HOME); --agent claude leaves Codex out,
// --agent codex leaves Claude Code out (and an empty Claude scan is then
// no reason for advice).
func TestOpenReadsCodex(t *testing.T) {
	home, cx := agentsHome(t)
	for _, c := range []struct {
		agent    string
		projects bool
		codex    bool
	}{
		{"", true, true},
		{AgentClaude, true, false},
		{AgentCodex, false, true},
	} {
		ws, err := openAgents(t, Options{Agent: c.agent}, map[string]string{"HOME": home})
		if err != nil {
			t.Fatalf("--agent %q: %v", c.agent, err)
		}
		if got := len(ws.Scan.Projects) > 0; got != c.projects {
			t.Errorf("--agent %q: %d Claude Code projects", c.agent, len(ws.Scan.Projects))
		}
		if !c.codex {
			if len(ws.Codex) != 0 || len(ws.CodexHomes) != 0 {
				t.Errorf("--agent %q read Codex: %q", c.agent, storeHomes(ws.Codex))
			}
			continue
		}
		if len(ws.Codex) != 1 || ws.Codex[0].Home != cx || !ws.Codex[0].Exists || ws.Codex[0].File(codex.SummaryFile) == nil || !ws.Codex[0].Config.Enabled {
			t.Errorf("--agent %q: Codex stores %q (want %s)", c.agent, storeHomes(ws.Codex), cx)
		}
	}
}

// TestOpenCodexHome: --codex-home reads the homes named (once each), and
// the default one is then not read; CODEX_HOME moves the default.
func TestOpenCodexHome(t *testing.T) {
	home, _ := agentsHome(t)
	other := codexHome(t, filepath.Join(t.TempDir(), "work-codex"))
	ws, err := openAgents(t, Options{CodexHomes: []string{other, other + "/."}}, map[string]string{"HOME": home})
	if err != nil {
		t.Fatal(err)
	}
	if got := storeHomes(ws.Codex); len(got) != 1 || got[0] != other {
		t.Errorf("--codex-home: stores %q, want %s", got, other)
	}
	ws, err = openAgents(t, Options{}, map[string]string{"HOME": home, "CODEX_HOME": other})
	if err != nil {
		t.Fatal(err)
	}
	if got := storeHomes(ws.Codex); len(got) != 1 || got[0] != other {
		t.Errorf("CODEX_HOME: stores %q, want %s", got, other)
	}
	// Naming Claude Code's places narrows the look: the default Codex
	// home is left unread, as ~/.claude is with --memory-dir.
	ws, err = openAgents(t, Options{ConfigDirs: []string{filepath.Join(home, ".claude")}}, map[string]string{"HOME": home})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Codex) != 0 || len(ws.Scan.Projects) != 1 {
		t.Errorf("--config-dir: %d projects, Codex %q", len(ws.Scan.Projects), storeHomes(ws.Codex))
	}
}

// TestOpenCodexUsage: a bad --agent, a --codex-home that is not there and
// flags that contradict --agent are errors (usage errors to the CLI), not
// advice; --agent codex on a machine with no Codex home is advice.
func TestOpenCodexUsage(t *testing.T) {
	home, _ := agentsHome(t)
	missing := filepath.Join(t.TempDir(), "none")
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Agent: "gemini"}, `invalid --agent "gemini": want claude or codex`},
		{Options{CodexHomes: []string{missing}}, "--codex-home " + missing + ": no such directory"},
		{Options{Agent: AgentClaude, CodexHomes: []string{home}}, "--agent claude leaves Codex out"},
		{Options{Agent: AgentCodex, MemoryDirs: []string{home}}, "--agent codex leaves Claude Code out"},
	} {
		_, err := openAgents(t, c.o, map[string]string{"HOME": home})
		var advice Advice
		if err == nil || errors.As(err, &advice) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	_, err := openAgents(t, Options{Agent: AgentCodex}, map[string]string{"HOME": t.TempDir()})
	var advice Advice
	if !errors.As(err, &advice) || !strings.Contains(err.Error(), "no Codex home found") || !strings.Contains(err.Error(), "--codex-home") {
		t.Errorf("--agent codex, no Codex: %v", err)
	}
}

// TestDemoReadsNoCodexOfTheUser: the demo is hermetic for Codex too:
// neither CODEX_HOME, ~/.codex nor --codex-home brings the user's store
// in; it reads its own, in its scratch tree.
func TestDemoReadsNoCodexOfTheUser(t *testing.T) {
	home, cx := agentsHome(t)
	ws, err := openAgents(t, Options{Demo: true, CodexHomes: []string{cx}}, map[string]string{"HOME": home, "CODEX_HOME": cx})
	if err != nil {
		t.Fatal(err)
	}
	// Its own store only, in its scratch tree.
	root, _ := filepath.EvalSymlinks(ws.ScanOpts.ConfigDirs[0])
	if len(ws.CodexHomes) != 1 || !strings.HasPrefix(ws.CodexHomes[0], root+string(filepath.Separator)) || ws.CodexHomes[0] == cx {
		t.Errorf("the demo read the user's Codex: %q", ws.CodexHomes)
	}
	if len(ws.Scan.Projects) == 0 {
		t.Error("the demo's own tree was not discovered")
	}
}
