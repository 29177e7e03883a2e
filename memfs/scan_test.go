package memfs

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
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
	testfs.Write(t, filepath.Join(dir, "MEMORY.md"), "# Memory\n")
	oldest := ""
	for i := 0; i < 201; i++ {
		name := fmt.Sprintf("m%03d.md", (i*73)%201)
		p := testfs.Write(t, filepath.Join(dir, name), "---\nname: x\n---\n\nx\n")
		testfs.Touch(t, p, scanBase.Add(time.Duration(i)*time.Minute))
		if i == 0 {
			oldest = name
		}
	}
	// Older still, but excluded: they never take one of the 200 places.
	for _, p := range []string{"logs/2026/01/x.md", ".hidden/x.md"} {
		testfs.Touch(t, testfs.Write(t, filepath.Join(dir, p), "log"), scanBase.Add(-time.Hour))
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
		testfs.Touch(t, testfs.Write(t, filepath.Join(dir, fmt.Sprintf("new%03d.md", i)), "x"), scanBase.Add(time.Duration(10+i)*time.Hour))
	}
	tied := scanBase.Add(5 * time.Hour)
	for _, n := range []string{"tie_a.md", "tie_b.md", "tie_c.md"} {
		testfs.Touch(t, testfs.Write(t, filepath.Join(dir, n), "x"), tied)
	}
	testfs.Touch(t, testfs.Write(t, filepath.Join(dir, "old.md"), "x"), scanBase)
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
		testfs.Write(t, filepath.Join(dir, p), "---\nname: n\n---\n\nbody\n")
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
		testfs.Touch(t, testfs.Write(t, filepath.Join(dir, fmt.Sprintf("m%03d.md", i)), "x"), scanBase.Add(time.Duration(i+1)*time.Minute))
	}
	testfs.Touch(t, testfs.Write(t, filepath.Join(dir, "team", "old.md"), "x"), scanBase)
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

// TestScanWithStores: with CLAUDE_MEMORY_STORES, only the stores' exact
// index paths are indexes (read into StoreIndexes, not ranked), a nested
// MEMORY.md is a memory like any file, and nothing below a skills folder
// is read; without stores every MEMORY.md below the top is skipped.
func TestScanWithStores(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"MEMORY.md", "a.md", "deep/MEMORY.md", "notes/INDEX.md", "tools/t.md",
		"team/MEMORY.md", "team/web/MEMORY.md", "team/web/w.md", "team/web/skills/s.md", "team/other/MEMORY.md"} {
		testfs.Write(t, filepath.Join(dir, p), "- [a](a.md)\n")
	}
	stores := `[{"path":"/srv/web","scope":"team","skillsDirs":["skills"],"promptIndexMaxBytes":4000},` +
		`{"path":"/srv/me","scope":"user","promptIndex":"notes/INDEX.md","skillsDirs":["tools"]}]`
	loadWith := func(path string, kind model.DirKind, vars map[string]string) *model.MemoryDir {
		opts := loadOpts()
		opts.Getenv = env(vars)
		d := &model.MemoryDir{Path: path, Kind: kind}
		if err := LoadDir(t.Context(), d, opts); err != nil {
			t.Fatal(err)
		}
		return d
	}
	indexes := func(d *model.MemoryDir) []string {
		var out []string
		for _, si := range d.StoreIndexes {
			out = append(out, si.File.Path+"="+si.Store.Label())
		}
		return out
	}
	with := map[string]string{"CLAUDE_MEMORY_STORES": stores}

	d := loadWith(dir, model.DirAuto, with)
	if got := scanOf(d); !reflect.DeepEqual(got, map[string]model.ScanReason{"a.md": model.ScanIn, "deep/MEMORY.md": model.ScanIn}) {
		t.Errorf("auto dir with stores: %v", got)
	}
	if got := indexes(d); !reflect.DeepEqual(got, []string{"notes/INDEX.md=user store"}) {
		t.Errorf("auto dir store indexes: %v", got)
	}
	// a.md, deep/MEMORY.md; team/MEMORY.md and team/web/w.md in team/;
	// team/other/ is not mounted.
	if d.ScanListed != 4 {
		t.Errorf("ScanListed = %d, want 4", d.ScanListed)
	}
	if d.Index == nil {
		t.Error("the top MEMORY.md is the index with stores too")
	}

	td := loadWith(filepath.Join(dir, "team"), model.DirTeam, with)
	if td.Index != nil {
		t.Errorf("team/MEMORY.md read as the team dir's index")
	}
	if got := indexes(td); !reflect.DeepEqual(got, []string{"web/MEMORY.md=team store web"}) {
		t.Errorf("team store indexes: %v", got)
	}
	if si := td.StoreIndexes; len(si) == 1 && (si[0].Store.PromptIndexMaxBytes != 4000 || string(si[0].File.Content) != "- [a](a.md)\n") {
		t.Errorf("team store index read as %+v", si[0])
	}
	want := map[string]model.ScanReason{"MEMORY.md": model.ScanIn, "web/w.md": model.ScanIn, "other/MEMORY.md": model.ScanExcluded}
	if got := scanOf(td); !reflect.DeepEqual(got, want) {
		t.Errorf("team dir with stores:\n got %v\nwant %v", got, want)
	}

	// Without stores: every MEMORY.md below the top is skipped, and no
	// file is a store's index.
	d = loadWith(dir, model.DirAuto, nil)
	if got := scanOf(d); !reflect.DeepEqual(got, map[string]model.ScanReason{"a.md": model.ScanIn, "notes/INDEX.md": model.ScanIn, "tools/t.md": model.ScanIn}) {
		t.Errorf("auto dir without stores: %v", got)
	}
	td = loadWith(filepath.Join(dir, "team"), model.DirTeam, nil)
	if td.Index != nil || len(td.StoreIndexes) != 0 {
		t.Errorf("team dir without stores: index %v, store indexes %v", td.Index != nil, indexes(td))
	}
}

// TestMemoryStoresInvalid: a CLAUDE_MEMORY_STORES that Claude Code refuses
// is a configuration problem naming the variable, and mounts nothing.
func TestMemoryStoresInvalid(t *testing.T) {
	w := newWorld(t)
	_, acme := w.project("acme", true)
	testfs.Write(t, filepath.Join(acme, "memory", "team", "web", "x.md"), "x")
	w.envs["CLAUDE_MEMORY_STORES"] = `["/a/web","/b/web"]`
	s, err := Scan(t.Context(), w.opts())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cp := range s.Config {
		if cp.Source == "CLAUDE_MEMORY_STORES" {
			got = append(got, cp.Detail)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], `two team stores at "web"`) || !strings.Contains(got[0], "recall mode") {
		t.Errorf("config problems for the variable: %q", got)
	}
	for _, p := range s.Projects {
		for _, d := range p.Dirs {
			if d.Kind == model.DirTeam && scanOf(d)["web/x.md"] != model.ScanExcluded {
				t.Errorf("team/web/x.md under a refused value: %q", scanOf(d)["web/x.md"])
			}
		}
	}
}
