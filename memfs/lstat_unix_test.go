//go:build unix

package memfs

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
)

func TestLstatPaths(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "a.md"), "x")
	testfs.Mkdir(t, filepath.Join(dir, "sub"))
	testfs.Write(t, filepath.Join(outside, "victim.md"), "x")
	testfs.Symlink(t, outside, filepath.Join(dir, "out"))
	testfs.Symlink(t, filepath.Join(outside, "victim.md"), filepath.Join(dir, "link.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := LstatPaths(dir, []string{"a.md", "sub/new.md", "out/victim.md", "link.md", "pipe.md", "../escape.md", "/etc/passwd", "missing/x.md"})
	check := func(p string, want func(fs.FileMode) bool, what string) {
		t.Helper()
		if m, ok := got[p]; !ok || !want(m) {
			t.Errorf("%s: got %v (present %v), want %s", p, m, ok, what)
		}
	}
	check("a.md", fs.FileMode.IsRegular, "a regular file")
	check("sub", fs.FileMode.IsDir, "a directory")
	check("out", func(m fs.FileMode) bool { return m&fs.ModeSymlink != 0 }, "a symlink")
	check("link.md", func(m fs.FileMode) bool { return m&fs.ModeSymlink != 0 }, "a symlink")
	check("pipe.md", func(m fs.FileMode) bool { return m&fs.ModeNamedPipe != 0 }, "a FIFO")
	for _, p := range []string{"sub/new.md", "out/victim.md", "missing", "missing/x.md", "../escape.md", "/etc/passwd", "..", ""} {
		if _, ok := got[p]; ok {
			t.Errorf("%s: reported, but it is missing, behind a link or outside", p)
		}
	}
}
