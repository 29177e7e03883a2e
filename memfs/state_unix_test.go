//go:build unix

package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
)

// TestTightenStateCoversSnapshots: the snapshots hold memory text, so a
// snapshot dir left readable by others is made owner-only like the rest
// of memtui's state; the demo keeps its snapshots in its scratch tree.
func TestTightenStateCoversSnapshots(t *testing.T) {
	root := t.TempDir()
	s := ScratchStateDirs(root)
	if !strings.HasPrefix(s.Snapshots, root+string(filepath.Separator)) {
		t.Fatalf("the demo's snapshots %s are outside its scratch tree %s", s.Snapshots, root)
	}
	blob := testfs.Write(t, filepath.Join(s.Snapshots, "blobs", "ab", "abcd"), "memory text")
	for p, m := range map[string]os.FileMode{s.Snapshots: 0o755, filepath.Dir(blob): 0o755, blob: 0o644} {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	notes := TightenState(s)
	if len(notes) != 1 || !strings.Contains(notes[0], s.Snapshots) {
		t.Errorf("notes %q; want one naming %s", notes, s.Snapshots)
	}
	for p, want := range map[string]os.FileMode{s.Snapshots: 0o700, filepath.Dir(blob): 0o700, blob: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, want)
		}
	}
}
