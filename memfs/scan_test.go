package memfs

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// scanOf maps each file's path to what Claude Code's scan makes of it.
func scanOf(d *model.MemoryDir) map[string]model.ScanReason {
	out := map[string]model.ScanReason{}
	for _, f := range d.Files {
		out[f.Path] = f.Scan
	}
	return out
}

var scanBase = time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)

// TestScanRecallCap: 201 topic files with distinct mtimes, written in an
// order unrelated to their age: the scan offers the newest 200, and the
// oldest is past-200. Excluded files do not take a place.
func TestScanRecallCap(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "MEMORY.md"), "# Memory\n")
	oldest := ""
	for i := 0; i < 201; i++ {
		name := fmt.Sprintf("m%03d.md", (i*73)%201)
		p := write(t, filepath.Join(dir, name), "---\nname: x\n---\n\nx\n")
		touch(t, p, scanBase.Add(time.Duration(i)*time.Minute))
		if i == 0 {
			oldest = name
		}
	}
	// Older still, but excluded: they never take one of the 200 places.
	for _, p := range []string{"logs/2026/01/x.md", ".hidden/x.md"} {
		touch(t, write(t, filepath.Join(dir, p), "log"), scanBase.Add(-time.Hour))
	}
	d := load(t, dir, model.DirAuto)
	if d.ScanListed != 201 {
		t.Errorf("ScanListed = %d, want 201", d.ScanListed)
	}
	for p, r := range scanOf(d) {
		want := model.ScanIn
		switch {
		case p == oldest:
			want = model.ScanPastCap
		case strings.HasPrefix(p, "logs/") || strings.HasPrefix(p, ".hidden/"):
			want = model.ScanExcluded
		}
		if r != want {
			t.Errorf("%s: %q, want %q", p, r, want)
		}
	}
	if d.Index == nil {
		t.Error("MEMORY.md is no topic file, but it is still the index")
	}
}

// TestScanTieAtCap: the 200th and 201st newest share one mtime with a
// third file: which of the three the scan keeps depends on the listing's
// order, so all three are unknown (in_scan null); the newer are in, the
// older out.
func TestScanTieAtCap(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 199; i++ {
		touch(t, write(t, filepath.Join(dir, fmt.Sprintf("new%03d.md", i)), "x"), scanBase.Add(time.Duration(10+i)*time.Hour))
	}
	tied := scanBase.Add(5 * time.Hour)
	for _, n := range []string{"tie_a.md", "tie_b.md", "tie_c.md"} {
		touch(t, write(t, filepath.Join(dir, n), "x"), tied)
	}
	touch(t, write(t, filepath.Join(dir, "old.md"), "x"), scanBase)
	d := load(t, dir, model.DirAuto)
	got := scanOf(d)
	for p, r := range got {
		want := model.ScanIn
		switch {
		case strings.HasPrefix(p, "tie_"):
			want = model.ScanTie
		case p == "old.md":
			want = model.ScanPastCap
		}
		if r != want {
			t.Errorf("%s: %q, want %q", p, r, want)
		}
	}
	if len(got) != 203 {
		t.Errorf("%d files, want 203", len(got))
	}
}

// TestScanExcludedPaths: the folders Claude Code's scan skips are still
// read (the user must see them) but marked; team/<file>.md is kept,
// team/<sub>/ only when CLAUDE_MEMORY_STORES mounts it; agent memory has
// no exclusions.
func TestScanExcludedPaths(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.md", "sub/b.md", ".hidden/x.md", "logs/2026/01/x.md", "Sessions./x.md", "proposals/x.md",
		"sub/logs/kept.md", "team/x.md", "team/.dot.md", "team/sub/x.md", "deep/MEMORY.md"} {
		write(t, filepath.Join(dir, p), "---\nname: n\n---\n\nbody\n")
	}
	d := load(t, dir, model.DirAuto)
	want := map[string]model.ScanReason{
		"a.md": model.ScanIn, "sub/b.md": model.ScanIn, "sub/logs/kept.md": model.ScanIn,
		".hidden/x.md": model.ScanExcluded, "logs/2026/01/x.md": model.ScanExcluded, "Sessions./x.md": model.ScanExcluded, "proposals/x.md": model.ScanExcluded,
	}
	if got := scanOf(d); !reflect.DeepEqual(got, want) {
		t.Errorf("auto dir:\n got %v\nwant %v", got, want)
	}
	// Three memory files of the scan live in team/: the main dir's scan
	// counts them, the team dir marks them.
	if d.ScanListed != 5 {
		t.Errorf("ScanListed = %d, want 5 (3 here, team/x.md and team/.dot.md)", d.ScanListed)
	}
	for _, f := range d.Files {
		if f.Scan == model.ScanExcluded && f.ScanWhy == "" {
			t.Errorf("%s: excluded without a reason", f.Path)
		}
	}

	td := load(t, filepath.Join(dir, "team"), model.DirTeam)
	if got := scanOf(td); !reflect.DeepEqual(got, map[string]model.ScanReason{"x.md": model.ScanIn, ".dot.md": model.ScanIn, "sub/x.md": model.ScanExcluded}) {
		t.Errorf("team dir: %v", got)
	}
	if td.ScanListed != 5 {
		t.Errorf("team ScanListed = %d, want 5: one scan with its parent", td.ScanListed)
	}
	for _, f := range td.Files {
		if f.Path == "sub/x.md" && !strings.Contains(f.ScanWhy, "CLAUDE_MEMORY_STORES") {
			t.Errorf("team/sub/x.md: the reason %q does not say the mount comes from CLAUDE_MEMORY_STORES", f.ScanWhy)
		}
	}
	// Mounted through memtui's own environment, team/sub/ is scanned.
	opts := loadOpts()
	opts.Getenv = env(map[string]string{"CLAUDE_MEMORY_STORES": `[{"path":"/srv/stores/sub","scope":"team"}]`})
	td = &model.MemoryDir{Path: filepath.Join(dir, "team"), Kind: model.DirTeam}
	if err := LoadDir(t.Context(), td, opts); err != nil {
		t.Fatal(err)
	}
	if got := scanOf(td)["sub/x.md"]; got != model.ScanIn {
		t.Errorf("mounted team/sub/x.md: %q", got)
	}

	// Agent memory: scanned without the exclusions.
	ad := load(t, dir, model.DirAgentUser)
	for p, r := range scanOf(ad) {
		if r != model.ScanIn {
			t.Errorf("agent memory %s: %q", p, r)
		}
	}
}

// TestScanTeamRanking: a team dir and its parent are one scan: the oldest
// file of the two is past-200 wherever it lives.
func TestScanTeamRanking(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 200; i++ {
		touch(t, write(t, filepath.Join(dir, fmt.Sprintf("m%03d.md", i)), "x"), scanBase.Add(time.Duration(i+1)*time.Minute))
	}
	touch(t, write(t, filepath.Join(dir, "team", "old.md"), "x"), scanBase)
	d := load(t, dir, model.DirAuto)
	for p, r := range scanOf(d) {
		if r != model.ScanIn {
			t.Errorf("%s: %q; the oldest file is in team/", p, r)
		}
	}
	td := load(t, filepath.Join(dir, "team"), model.DirTeam)
	if r := scanOf(td)["old.md"]; r != model.ScanPastCap || td.ScanListed != 201 {
		t.Errorf("team/old.md: %q, ScanListed %d; want past-200 of 201", r, td.ScanListed)
	}
}
