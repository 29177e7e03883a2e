//go:build unix

package memfs

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// loadWithin loads dir, failing the test if the walk does not end.
func loadWithin(t *testing.T, dir string, kind model.DirKind) *model.MemoryDir {
	t.Helper()
	done := make(chan *model.MemoryDir, 1)
	go func() {
		d := &model.MemoryDir{Path: dir, Kind: kind}
		if err := LoadDir(t.Context(), d, loadOpts()); err != nil {
			t.Error(err)
		}
		done <- d
	}()
	select {
	case d := <-done:
		return d
	case <-time.After(20 * time.Second):
		t.Fatal("LoadDir never ended: the scan loops through links")
	}
	return nil
}

// TestScanFollowsLinks: Claude Code's scan follows linked files and
// folders (facts 4.1), after the real tree and in sorted order; each
// folder is entered once (a cycle of links ends), and a link back up to
// the memory dir or a folder above it is not followed.
func TestScanFollowsLinks(t *testing.T) {
	tmp := t.TempDir()
	dir := testfs.Mkdir(t, filepath.Join(tmp, "projects", "p", "memory"))
	testfs.Write(t, filepath.Join(dir, "a.md"), "a")
	testfs.Write(t, filepath.Join(dir, "real", "r.md"), "r")
	// Outside: X links to Y, Y links back to X.
	x := testfs.Mkdir(t, filepath.Join(tmp, "X"))
	y := testfs.Mkdir(t, filepath.Join(tmp, "Y"))
	testfs.Write(t, filepath.Join(x, "f.md"), "f")
	testfs.Write(t, filepath.Join(y, "g.md"), "g")
	testfs.Symlink(t, y, filepath.Join(x, "y"))
	testfs.Symlink(t, x, filepath.Join(y, "x"))
	note := testfs.Write(t, filepath.Join(tmp, "note.md"), "outside note")

	testfs.Symlink(t, note, filepath.Join(dir, "linked.md"))          // a linked file: read
	testfs.Symlink(t, "real", filepath.Join(dir, "alias"))            // walked already: not followed, though "alias" < "real"
	testfs.Symlink(t, x, filepath.Join(dir, "b_x"))                   // a linked folder, and a cycle behind it
	testfs.Symlink(t, x, filepath.Join(dir, "c_x"))                   // the same folder again: entered once
	testfs.Symlink(t, "..", filepath.Join(dir, "real", "up"))         // back up to the memory dir
	testfs.Symlink(t, "../../..", filepath.Join(dir, "real", "high")) // a folder above the memory dir

	d := loadWithin(t, dir, model.DirAuto)
	want := []string{"a.md", "b_x/f.md", "b_x/y/g.md", "linked.md", "real/r.md"}
	if got := filePaths(d); !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
	links := map[string]string{"b_x/f.md": "b_x", "b_x/y/g.md": "b_x", "linked.md": "linked.md"}
	for _, f := range d.Files {
		if f.Link != links[f.Path] {
			t.Errorf("%s: Link = %q, want %q", f.Path, f.Link, links[f.Path])
		}
		if f.Scan != model.ScanIn {
			t.Errorf("%s: %q", f.Path, f.Scan)
		}
	}
	wantProbs := map[string]model.ProblemKind{
		"linked.md": model.ProblemSymlinkEscape,
		"alias":     model.ProblemLinkSkipped,
		"b_x":       model.ProblemSymlinkEscape,
		"b_x/y":     model.ProblemSymlinkEscape,
		"b_x/y/x":   model.ProblemLinkSkipped,
		"c_x":       model.ProblemLinkSkipped,
		"real/up":   model.ProblemLinkSkipped,
		"real/high": model.ProblemLinkSkipped,
	}
	if got := problemKinds(d.Problems); !reflect.DeepEqual(got, wantProbs) {
		t.Errorf("problems:\n got %v\nwant %v\n%+v", got, wantProbs, d.Problems)
	}
	if d.ScanListed != 5 {
		t.Errorf("ScanListed = %d, want 5", d.ScanListed)
	}
}

// TestScanRegularOnly: project and local agent memory are scanned in
// regular-files-only mode: no link followed, and a file with a second hard
// link refused.
func TestScanRegularOnly(t *testing.T) {
	tmp := t.TempDir()
	dir := testfs.Mkdir(t, filepath.Join(tmp, "repo", ".claude", "agent-memory", "rev"))
	testfs.Write(t, filepath.Join(dir, "a.md"), "a")
	other := testfs.Write(t, filepath.Join(tmp, "other.md"), "o")
	if err := os.Link(other, filepath.Join(dir, "hard.md")); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, filepath.Join(tmp, "elsewhere", "e.md"), "e")
	testfs.Symlink(t, "a.md", filepath.Join(dir, "alias.md"))
	testfs.Symlink(t, filepath.Join(tmp, "elsewhere"), filepath.Join(dir, "folder"))
	d := loadWithin(t, dir, model.DirAgentProject)
	if got := scanOf(d); !reflect.DeepEqual(got, map[string]model.ScanReason{"a.md": model.ScanIn, "hard.md": model.ScanHardlinked}) {
		t.Errorf("scan = %v", got)
	}
	if got := problemKinds(d.Problems); !reflect.DeepEqual(got, map[string]model.ProblemKind{"alias.md": model.ProblemLinkSkipped, "folder": model.ProblemLinkSkipped}) {
		t.Errorf("problems = %+v", d.Problems)
	}
	// User-scope agent memory follows links, with no exclusions.
	u := loadWithin(t, dir, model.DirAgentUser)
	if got := filePaths(u); !reflect.DeepEqual(got, []string{"a.md", "alias.md", "folder/e.md", "hard.md"}) {
		t.Errorf("agent-user Files = %q", got)
	}
}
