//go:build unix

package memfs

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// TestListDirListsWhatLoadDirReads: ListDir names exactly the files
// LoadDir reads (index, topic files, nested folders, a linked file with
// its link), and none it does not (a FIFO, a nested MEMORY.md, a file
// that is not markdown, the lock, a team dir read as its own), without
// reading any of them; the dir passed in is left as it was.
func TestListDirListsWhatLoadDirReads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	testfs.WriteAll(t, dir, map[string]string{
		"MEMORY.md":         "- [a](a.md) — a\n",
		"a.md":              "a",
		"notes/b.md":        "b",
		"notes/MEMORY.md":   "nested index",
		"notes/c.txt":       "not markdown",
		"team/t.md":         "the team dir's own",
		".consolidate-lock": "123",
	})
	testfs.Mkfifo(t, filepath.Join(dir, "pipe.md"))
	testfs.Symlink(t, filepath.Join(dir, "a.md"), filepath.Join(dir, "link.md"))
	d := &model.MemoryDir{Path: dir, Kind: model.DirAuto}
	l := ListDir(d, loadOpts())
	if !l.Exists || d.Exists || d.Files != nil {
		t.Fatalf("Exists %v; the dir passed in changed: %+v", l.Exists, d)
	}
	type pl struct{ path, link string }
	var got []pl
	for _, f := range l.Files {
		got = append(got, pl{f.Path, f.Link})
		if f.Link == "" {
			b, err := readIn(f.Dir, f.Name, 100)
			if err != nil || len(b) == 0 {
				t.Errorf("%s: Dir %q Name %q do not name the file: %v", f.Path, f.Dir, f.Name, err)
			}
		}
	}
	loaded := load(t, dir, model.DirAuto)
	var want []pl
	for _, f := range append([]*model.File{loaded.Index}, loaded.Files...) {
		want = append(want, pl{f.Path, f.Link})
	}
	cmp := func(a, b pl) int { return strings.Compare(a.path, b.path) }
	slices.SortFunc(got, cmp)
	slices.SortFunc(want, cmp)
	if !slices.Equal(got, want) {
		t.Errorf("ListDir = %v, LoadDir read %v", got, want)
	}
	if len(want) != 4 { // MEMORY.md, a.md, notes/b.md, link.md
		t.Errorf("LoadDir read %v: the fixture is not what this test means", want)
	}
	if l := ListDir(&model.MemoryDir{Path: filepath.Join(dir, "absent"), Kind: model.DirAuto}, loadOpts()); l.Exists || len(l.Files) > 0 {
		t.Errorf("an absent dir: %+v", l)
	}
}

// TestIsRefused tells the safe reader's refusals (a link, a FIFO) from a
// file that is simply not there.
func TestIsRefused(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "a.md"), "a")
	testfs.Symlink(t, filepath.Join(dir, "a.md"), filepath.Join(dir, "link.md"))
	testfs.Mkfifo(t, filepath.Join(dir, "pipe.md"))
	for name, want := range map[string]bool{"link.md": true, "pipe.md": true, "../a.md": true, "absent.md": false} {
		_, err := ReadIn(dir, name, 100)
		if err == nil || IsRefused(err) != want {
			t.Errorf("%s: %v; IsRefused %v, want %v", name, err, IsRefused(err), want)
		}
	}
	if _, err := ReadIn(dir, "a.md", 100); err != nil || IsRefused(err) {
		t.Errorf("a.md: %v", err)
	}
}
