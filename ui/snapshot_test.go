package ui

import (
	"path/filepath"
	"testing"
)

// TestStartTakesASnapshot: a TUI start records every memory dir of its
// scan in the workspace's snapshot store, once; under --readonly it
// records nothing.
func TestStartTakesASnapshot(t *testing.T) {
	cfg, _ := demoConfig(t)
	cfg.Workspace.State.Snapshots = filepath.Join(t.TempDir(), "snapshots")
	d := newDriver(t, cfg, 120, 40)
	recorded := 0
	for _, p := range d.m.scan.Projects {
		for _, dir := range p.Dirs {
			if _, ok, err := cfg.Workspace.Snapshots().Latest(dir.Path); ok && err == nil {
				recorded++
			}
		}
	}
	if recorded < 5 {
		t.Errorf("%d memory dirs recorded at start", recorded)
	}

	ro, _ := demoConfig(t)
	ro.Workspace.State.Snapshots = filepath.Join(t.TempDir(), "snapshots")
	ro.Workspace.ReadOnly = true
	newDriver(t, ro, 120, 40)
	if matches, _ := filepath.Glob(filepath.Join(ro.Workspace.State.Snapshots, "*")); len(matches) > 0 {
		t.Errorf("a --readonly start wrote %v", matches)
	}
}
