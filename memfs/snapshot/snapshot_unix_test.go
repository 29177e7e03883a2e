//go:build unix

package snapshot

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
)

// TestTakeSeesARenameOverTheFile: memtui's own write path replaces a file
// by a rename and keeps its mtime; a text of the same size written that
// way has a new inode, and the take reads it.
func TestTakeSeesARenameOverTheFile(t *testing.T) {
	d := memDir(t, map[string]string{"a.md": "alpha\n"})
	s := newStore(t)
	take(t, s, t0, d)
	a := filepath.Join(d.Path, "a.md")
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	tmp := testfs.Write(t, filepath.Join(d.Path, ".a.tmp"), "ALPHA\n")
	testfs.Touch(t, tmp, fi.ModTime())
	if err := os.Rename(tmp, a); err != nil {
		t.Fatal(err)
	}
	res := take(t, s, t0.Add(time.Hour), d)
	sn := list(t, s, d)
	if len(res.Recorded) != 1 || len(sn) != 2 || sn[1].Files["a.md"].SHA256 != hexSum("ALPHA\n") {
		t.Errorf("a same-size, same-mtime rename over a.md went unseen: %+v", res)
	}
}
