//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/internal/testgen"
)

// TestSnapshotCommand: `memtui snapshot` is quiet when it succeeds, -v
// says what it recorded and then that nothing changed, and --readonly
// refuses it and writes nothing.
func TestSnapshotCommand(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-shop", "memory")
	writeFile(t, filepath.Join(mem, "MEMORY.md"), "- [Deploy](deploy.md) — make ship\n")
	writeFile(t, filepath.Join(mem, "deploy.md"), "---\nname: deploy\ntype: feedback\n---\nDeploy with make ship.\n")
	state := t.TempDir()
	getenv := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	args := func(a ...string) []string { return append([]string{"--config-dir", cfg, "--no-transcripts"}, a...) }
	if code, out, errs := runCLI(t, getenv, args("--readonly", "snapshot")...); code != exitUsage || !strings.Contains(errs, "--readonly forbids snapshot") || out != "" {
		t.Errorf("--readonly: exit %d, %q %q", code, out, errs)
	}
	store := filepath.Join(state, "memtui", "snapshots")
	if _, err := os.Lstat(store); err == nil {
		t.Fatal("--readonly made the store")
	}
	if code, out, errs := runCLI(t, getenv, args("snapshot")...); code != exitOK || out != "" || errs != "" {
		t.Errorf("snapshot: exit %d, printed %q %q; want nothing", code, out, errs)
	}
	if _, err := os.Stat(store); err != nil {
		t.Fatalf("no store: %v", err)
	}
	writeFile(t, filepath.Join(mem, "new.md"), "---\nname: new\ntype: user\n---\nA new memory.\n")
	code, out, _ := runCLI(t, getenv, args("snapshot", "-v")...)
	if code != exitOK || !strings.Contains(out, "recorded "+mem+": 0 changed, 1 added, 0 removed\n") || !strings.Contains(out, "1 directory recorded, 0 unchanged; 1 of 3 files read, 1 text stored") {
		t.Errorf("snapshot -v after a new memory: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, getenv, args("snapshot", "--verbose")...)
	if code != exitOK || strings.Contains(out, "recorded ") || !strings.Contains(out, "0 directories recorded, 1 unchanged; 0 of 3 files read") {
		t.Errorf("snapshot -v with nothing changed: exit %d\n%s", code, out)
	}
}

// TestSnapshotVerboseIsSafe: a memory dir whose path holds escape
// sequences, a newline that would forge a line, and a token is named by
// snapshot -v made safe: no raw control, no forged line, no token.
func TestSnapshotVerboseIsSafe(t *testing.T) {
	tok := "ghp_" + testgen.New(5).S(testgen.Alnum, 36)
	mem := filepath.Join(t.TempDir(), "mem"+hostile.All+tok+"\n"+hostile.Forged)
	writeFile(t, filepath.Join(mem, "a.md"), "---\nname: a\ntype: user\n---\nA memory.\n")
	getenv := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	code, out, errs := runCLI(t, getenv, "--memory-dir", mem, "--no-transcripts", "snapshot", "-v")
	if code != exitOK || !strings.Contains(out, "recorded ") {
		t.Fatalf("exit %d\n%s\n%s", code, hostile.Visible(out), hostile.Visible(errs))
	}
	for _, p := range append(hostile.Controls(out+errs, hostile.Plain), hostile.Forgeries(out+errs)...) {
		t.Error(p)
	}
	if strings.Contains(out+errs, tok) {
		t.Error("the token in the dir's path was printed")
	}
}
