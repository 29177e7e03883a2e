//go:build unix

package memfs

import (
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

func TestLoadDirNotFiles(t *testing.T) {
	dir := t.TempDir()
	testfs.Mkdir(t, filepath.Join(dir, "x.md"))
	testfs.Write(t, filepath.Join(dir, "x.md", "inner.md"), "inner")
	testfs.Mkdir(t, filepath.Join(dir, "MEMORY.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan *model.MemoryDir)
	go func() { done <- load(t, dir, model.DirAuto) }()
	var d *model.MemoryDir
	select {
	case d = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("LoadDir hung on a FIFO")
	}
	want := map[string]model.ProblemKind{"x.md": model.ProblemNotFile, "MEMORY.md": model.ProblemNotFile, "pipe.md": model.ProblemNotFile}
	if got := problemKinds(d.Problems); !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %+v", d.Problems)
	}
	if got := filePaths(d); !reflect.DeepEqual(got, []string{"x.md/inner.md"}) {
		t.Errorf("Files = %q", got)
	}
	if d.Index != nil {
		t.Error("a directory became the index")
	}
}

// TestReadRegularRefusesFIFO: even if a FIFO replaces a file between readdir
// and open, the open does not block and the read is refused.
func TestReadRegularRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { _, err := readRegular(p, 100); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), errNotRegular.Error()) {
			t.Errorf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("readRegular blocked on a FIFO")
	}
}
