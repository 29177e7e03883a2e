package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/memfs"
)

func TestChangesSinceLastReview(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())

	// --readonly looks without recording, and says so.
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--readonly", "changes")
	if code != exitOK || !strings.Contains(stdout, "first look at 1 directory: nothing recorded (--readonly)") {
		t.Fatalf("--readonly first run: exit %d\n%s%s", code, stdout, stderr)
	}
	if ents, _ := os.ReadDir(filepath.Join(state, "memtui", "seen")); len(ents) != 0 {
		t.Fatalf("--readonly recorded %d baselines", len(ents))
	}
	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "changes")
	if code != exitOK || !strings.Contains(stdout, "first look at 1 directory: recorded as reviewed") {
		t.Fatalf("first run: exit %d\n%s%s", code, stdout, stderr)
	}
	if ents, _ := os.ReadDir(filepath.Join(state, "memtui", "seen")); len(ents) != 1 {
		t.Fatalf("the first look recorded %d baselines, want 1", len(ents))
	}

	// An agent (or a person) changes one memory, adds one and deletes none.
	writeFile(t, filepath.Join(memDir, "project_launch.md"), "---\nname: launch\ndescription: When the portal launches\ntype: project\n---\n\nWe launch on 2026-12-01.\n")
	writeFile(t, filepath.Join(memDir, "user_role.md"), "---\nname: role\ndescription: The user's role\ntype: user\n---\n\nStaff engineer.\n")

	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "changes")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"changed project_launch.md", "-We launch tomorrow.", "+We launch on 2026-12-01.", "created user_role.md", "+Staff engineer.", "no recorded session wrote it", "2 changes since the last review"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}

	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "changes", "--json")
	var got struct {
		Version int `json:"version"`
		Dirs    []struct {
			MemoryDir string `json:"memory_dir"`
			FirstLook bool   `json:"first_look"`
			Changes   []struct {
				Path, Kind, Diff string
			} `json:"changes"`
		} `json:"dirs"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != exitOK {
		t.Fatalf("json: %v, exit %d\n%s", err, code, stdout)
	}
	if len(got.Dirs) != 1 || got.Dirs[0].FirstLook || len(got.Dirs[0].Changes) != 2 || got.Dirs[0].Changes[1].Kind != "created" {
		t.Fatalf("json changes: %+v", got)
	}

	// --readonly refuses to mark; --reviewed marks, and the next run is quiet.
	if code, _, stderr := runCLI(t, e, "--config-dir", cfg, "--readonly", "changes", "--reviewed"); code != exitUsage || !strings.Contains(flat(stderr), "readonly") {
		t.Fatalf("--readonly --reviewed: exit %d %s", code, stderr)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "changes", "--reviewed")
	if code != exitOK || !strings.Contains(stdout, "Marked reviewed.") {
		t.Fatalf("--reviewed: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "changes")
	if code != exitOK || !strings.Contains(stdout, "no changes since the last review") {
		t.Fatalf("after --reviewed: exit %d\n%s", code, stdout)
	}

	// A deletion shows as one.
	os.Remove(filepath.Join(memDir, "user_role.md"))
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "changes")
	if !strings.Contains(stdout, "deleted user_role.md") || !strings.Contains(stdout, "-Staff engineer.") {
		t.Fatalf("deletion:\n%s", stdout)
	}
}

// TestChangesFirstLookPrintsStoredTime: a first look prints as its review
// time exactly the time it records, to the nanosecond; a later look the
// same again.
func TestChangesFirstLookPrintsStoredTime(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	reviewed := func() (time.Time, bool) {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "changes", "--json")
		var got struct {
			Dirs []struct {
				Reviewed  time.Time `json:"reviewed_at"`
				FirstLook bool      `json:"first_look"`
			} `json:"dirs"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != exitOK || len(got.Dirs) != 1 {
			t.Fatalf("changes --json: exit %d, %v\n%s%s", code, err, stdout, stderr)
		}
		return got.Dirs[0].Reviewed, got.Dirs[0].FirstLook
	}
	first, isFirst := reviewed()
	stored, err := memfs.LoadBaseline(filepath.Join(state, "memtui", "seen"), memDir)
	if err != nil || stored == nil {
		t.Fatalf("no baseline recorded: %v", err)
	}
	if !isFirst || !first.Equal(stored.Time) {
		t.Errorf("first look printed %s, recorded %s", first.Format(time.RFC3339Nano), stored.Time.Format(time.RFC3339Nano))
	}
	if again, isFirst := reviewed(); isFirst || !again.Equal(stored.Time) {
		t.Errorf("the next look printed %s (first %v), recorded %s", again.Format(time.RFC3339Nano), isFirst, stored.Time.Format(time.RFC3339Nano))
	}
}
