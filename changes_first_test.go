package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/memtui/memtui/memfs"
)

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
