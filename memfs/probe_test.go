package memfs

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
)

func TestPathProbe(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, filepath.Join(root, "internal", "memfs", "load.go"), "x")
	testfs.Write(t, filepath.Join(root, "cmd", "main.go"), "x")
	testfs.Write(t, filepath.Join(root, ".env"), "x")
	testfs.Write(t, filepath.Join(root, "node_modules", "left-pad", "index.js"), "x")
	testfs.Write(t, filepath.Join(root, "web", "node_modules", "dep", "index.js"), "x")
	testfs.Write(t, filepath.Join(root, ".github", "workflows", "ci.yml"), "x")
	testfs.Write(t, filepath.Join(root, "build", "out.bin"), "x")
	outside := testfs.Write(t, filepath.Join(t.TempDir(), "abs.txt"), "x")

	var pp PathProbe
	cases := []struct {
		p             string
		exists, known bool
	}{
		{"internal/memfs/load.go", true, true},
		{"memfs/load.go", true, true},           // suffix at an element boundary
		{"load.go", true, true},                 // base name alone
		{"./memfs/load.go", true, true},         // cleaned
		{"../other/memfs/load.go", false, true}, // leading ../ dropped, then no match
		{"../memfs/load.go", true, true},
		{`internal\memfs\load.go`, true, true}, // Windows separators in memory text
		{"fs/load.go", false, true},            // not at a boundary: "memfs" ≠ "fs"
		{"ernal/memfs/load.go", false, true},
		{"internal/memfs/gone.go", false, true},
		{"internal/memfs", true, true},                 // directories count
		{".env", true, true},                           // hidden files are indexed, hidden dirs not
		{"node_modules/left-pad/index.js", true, true}, // skipped dir: stat at the root finds it
		{"node_modules/dep/index.js", false, false},    // skipped dir elsewhere: unknown, not gone
		{".github/workflows/ci.yml", true, true},       // hidden dir: direct stat
		{".github/workflows/gone.yml", false, false},
		{"build/out.bin", true, true},
		{filepath.Join(root, "cmd", "main.go"), true, true}, // absolute under root
		{filepath.Join(root, "cmd", "gone.go"), false, true},
		{outside, true, true}, // absolute outside root: stat
		{outside + ".gone", false, true},
		{"", false, false},
		{".", false, false},
	}
	for _, c := range cases {
		ex, kn := pp.Exists(root, c.p)
		if ex != c.exists || kn != c.known {
			t.Errorf("Exists(%q) = %v, %v; want %v, %v", c.p, ex, kn, c.exists, c.known)
		}
	}
	if ex, kn := pp.Exists("", "cmd/main.go"); ex || kn {
		t.Error("empty root is known")
	}
	if ex, kn := pp.Exists(filepath.Join(root, "missing"), "cmd/main.go"); ex || kn {
		t.Error("missing root is known")
	}
	if ex, kn := pp.Exists(filepath.Join(root, "missing"), outside); ex || kn {
		t.Error("missing root answers absolute paths")
	}
}

// TestPathProbeCached: the index is built once; a file created afterwards is
// invisible until Reset.
func TestPathProbeCached(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, filepath.Join(root, "a.go"), "x")
	var pp PathProbe
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ex, kn := pp.Exists(root, "a.go"); !ex || !kn {
				t.Error("a.go not found")
			}
		}()
	}
	wg.Wait()
	testfs.Write(t, filepath.Join(root, "b.go"), "x")
	if ex, _ := pp.Exists(root, "b.go"); ex {
		t.Error("index rebuilt without Reset")
	}
	pp.Reset()
	if ex, kn := pp.Exists(root, "b.go"); !ex || !kn {
		t.Error("Reset did not re-index")
	}
}

func TestPathProbeCapAndLinks(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a.go", "b.go", "c.go", "d.go"} {
		testfs.Write(t, filepath.Join(root, n), "x")
	}
	// A symlink loop is a name, not a directory to descend.
	if err := os.Symlink(root, filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	pp := PathProbe{MaxFiles: 2}
	if ex, kn := pp.Exists(root, "zzz.go"); ex || kn {
		t.Errorf("incomplete index claims knowledge: %v %v", ex, kn)
	}
	full := PathProbe{}
	if ex, kn := full.Exists(root, "loop/a.go"); ex || !kn {
		t.Errorf("followed a symlinked dir: %v %v", ex, kn)
	}
	if ex, kn := full.Exists(root, "loop"); !ex || !kn {
		t.Errorf("symlink itself not indexed: %v %v", ex, kn)
	}
}

func TestPathProbeUnreadableSubdir(t *testing.T) {
	if os.Geteuid() == 0 {
		// root lists mode-000 dirs: the index is complete and a miss is known.
		root := t.TempDir()
		sub := testfs.Mkdir(t, filepath.Join(root, "closed"))
		os.Chmod(sub, 0)
		defer os.Chmod(sub, 0o755)
		var pp PathProbe
		if ex, kn := pp.Exists(root, "gone.go"); ex || !kn {
			t.Errorf("as root: %v %v", ex, kn)
		}
		return
	}
	root := t.TempDir()
	sub := testfs.Mkdir(t, filepath.Join(root, "closed"))
	testfs.Write(t, filepath.Join(sub, "x.go"), "x")
	os.Chmod(sub, 0)
	defer os.Chmod(sub, 0o755)
	var pp PathProbe
	if ex, kn := pp.Exists(root, "gone.go"); ex || kn {
		t.Errorf("unreadable subtree, yet a miss is known: %v %v", ex, kn)
	}
}

// PathProbe must satisfy consolidate.PathProbe, declared there as this
// method set (memfs does not import consolidate).
var _ interface {
	Exists(root, p string) (exists, known bool)
} = (*PathProbe)(nil)
