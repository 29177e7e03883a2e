package memfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LstatPaths reports what is on disk at each of rels (relative to the
// memory directory dir, slash-separated) and at each of their parent
// directories, without following links: the mode of each one that exists
// (dream.CheckExternalOnDisk takes it). The walk down a path stops
// at the first component that is missing or not a real directory, so
// nothing is looked up through a symlink. A component that cannot be
// examined (permission denied, I/O error) is reported as fs.ModeIrregular,
// which a check refuses. Paths that are not local (absolute, with ..) are
// skipped: the check refuses them on their own.
func LstatPaths(dir string, rels []string) map[string]fs.FileMode {
	out := map[string]fs.FileMode{}
	done := map[string]bool{}
	for _, rel := range rels {
		if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) || strings.Contains(rel, "\\") {
			continue
		}
		parts := strings.Split(rel, "/")
		for i := 1; i <= len(parts); i++ {
			at := strings.Join(parts[:i], "/")
			if !done[at] {
				done[at] = true
				fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(at)))
				switch {
				case errors.Is(err, fs.ErrNotExist):
				case err != nil:
					out[at] = fs.ModeIrregular
				default:
					out[at] = fi.Mode()
				}
			}
			if m, ok := out[at]; !ok || !m.IsDir() {
				break
			}
		}
	}
	return out
}
