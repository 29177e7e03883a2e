package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestChangesKeepsANewerOrUnreadableBaseline: `changes` over a baseline a
// newer memtui wrote says so and shows nothing for that dir, leaving the
// file as it was (bytes and mtime), with or without --reviewed and
// --readonly; over one that cannot be read back it moves it aside, names
// where, and starts a new one (--readonly only says so).
func TestChangesKeepsANewerOrUnreadableBaseline(t *testing.T) {
	cfg, _, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	if code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "changes"); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, stdout, stderr)
	}
	seen := filepath.Join(state, "memtui", "seen")
	ents, _ := os.ReadDir(seen)
	if len(ents) != 1 {
		t.Fatalf("%d baselines", len(ents))
	}
	path := filepath.Join(seen, ents[0].Name())
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(`{"version":2,"dir":"x","reviews":[]}`))
	zw.Close()
	newer := buf.Bytes()
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	os.WriteFile(path, newer, 0o600)
	os.Chtimes(path, old, old)
	for _, args := range [][]string{{"changes"}, {"--readonly", "changes"}, {"changes", "--reviewed"}, {"changes", "--json"}} {
		code, stdout, stderr := runCLI(t, e, append([]string{"--config-dir", cfg}, args...)...)
		if code != exitOK || !strings.Contains(flat(stderr), "written by a newer memtui") || !strings.Contains(flat(stderr), "left as it is") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		b, _ := os.ReadFile(path)
		fi, _ := os.Stat(path)
		if !bytes.Equal(b, newer) || !fi.ModTime().Equal(old) {
			t.Fatalf("%v changed the newer baseline", args)
		}
		if ents, _ := os.ReadDir(seen); len(ents) != 1 {
			t.Fatalf("%v: %d files beside the baseline", args, len(ents)-1)
		}
	}
	os.WriteFile(path, []byte("not gzip"), 0o600)
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--readonly", "changes")
	if code != exitOK || !strings.Contains(flat(stderr), "left as it is") {
		t.Fatalf("--readonly over an unreadable baseline: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "changes")
	if code != exitOK || !strings.Contains(flat(stderr), "moved aside to") || !strings.Contains(flat(stderr), "a new one was started") ||
		!strings.Contains(stdout, "first look at 1 directory: recorded as reviewed") {
		t.Fatalf("over an unreadable baseline: exit %d\n%s%s", code, stdout, stderr)
	}
	if ents, _ := os.ReadDir(seen); len(ents) != 2 {
		t.Fatalf("%d files; want the new baseline and the one set aside", len(ents))
	}
}
