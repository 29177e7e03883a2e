package memfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// DefaultProbeMaxFiles caps how many paths PathProbe indexes per project.
// Past it the index is incomplete, and an incomplete index can only say
// "exists", never "gone": the dangling-path check then stays silent.
const DefaultProbeMaxFiles = 200_000

// probeSkipDirs are directories PathProbe does not index: build output,
// dependencies and VCS internals. A memory rarely names files in them, and
// they hold most of a big project's files. Hidden directories are skipped
// too. A query naming one of them is answered by a direct stat instead.
var probeSkipDirs = map[string]bool{
	".git": true, "node_modules": true, "vendor": true, "dist": true,
	"build": true, "target": true, ".venv": true,
}

// PathProbe answers whether a source path a memory names still exists in its
// project (the dangling-path rule). It implements consolidate.PathProbe
// without importing it. Each project root is indexed once, lazily, on the
// first question about it; the zero value is ready to use and safe for
// concurrent use.
type PathProbe struct {
	// MaxFiles caps the index per root; 0 means DefaultProbeMaxFiles.
	MaxFiles int

	mu    sync.Mutex
	roots map[string]*probeIndex
}

// probeIndex is one root's file list, keyed by base name so a suffix query
// only compares against the files that end in the same element.
type probeIndex struct {
	once     sync.Once
	ok       bool // the root is a directory we could list
	complete bool // every non-skipped path was indexed
	byBase   map[string][]string
}

// Exists reports whether the project at root has a file (or directory)
// whose slash path ends with p at a path-element boundary: "memfs/load.go"
// matches "internal/memfs/load.go" but not "xmemfs/load.go". A relative p
// is cleaned first ("./a/b" is "a/b"; leading "../" elements are dropped,
// since the memory does not say what they were relative to). An absolute p
// is checked with a stat, inside the root or not. known is false when the
// answer would be a guess: root "" or missing, an index cut short by
// MaxFiles or an unreadable subdirectory, or a path into a skipped directory
// that a stat at the root does not find.
func (pp *PathProbe) Exists(root, p string) (exists, known bool) {
	if root == "" || p == "" || !filepath.IsAbs(root) {
		return false, false // a root from another OS (a Windows path on Linux) names nothing here
	}
	if filepath.IsAbs(p) {
		if dirState(root) != present {
			return false, false
		}
		return statExists(p)
	}
	q := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	for strings.HasPrefix(q, "../") {
		q = q[3:]
	}
	q = strings.TrimPrefix(q, "/")
	if q == "" || q == "." || q == ".." {
		return false, false
	}
	idx := pp.index(root)
	if !idx.ok {
		return false, false
	}
	elems := strings.Split(q, "/")
	for _, e := range elems[:len(elems)-1] {
		if probeSkipDirs[e] || strings.HasPrefix(e, ".") {
			// Not indexed: only a direct hit at the root counts.
			if ex, kn := statExists(filepath.Join(root, filepath.FromSlash(q))); ex && kn {
				return true, true
			}
			return false, false
		}
	}
	for _, cand := range idx.byBase[elems[len(elems)-1]] {
		if cand == q || strings.HasSuffix(cand, "/"+q) {
			return true, true
		}
	}
	if !idx.complete {
		return false, false
	}
	return false, true
}

// Reset forgets every index, so the next question re-reads the projects (the
// TUI calls it on refresh).
func (pp *PathProbe) Reset() {
	pp.mu.Lock()
	pp.roots = nil
	pp.mu.Unlock()
}

func (pp *PathProbe) index(root string) *probeIndex {
	root = filepath.Clean(root)
	pp.mu.Lock()
	if pp.roots == nil {
		pp.roots = make(map[string]*probeIndex)
	}
	idx := pp.roots[root]
	if idx == nil {
		idx = &probeIndex{}
		pp.roots[root] = idx
	}
	max := pp.MaxFiles
	pp.mu.Unlock()
	if max <= 0 {
		max = DefaultProbeMaxFiles
	}
	// Building outside the lock lets questions about other roots proceed;
	// sync.Once makes concurrent questions about this root wait for one walk.
	idx.once.Do(func() { idx.build(root, max) })
	return idx
}

func (idx *probeIndex) build(root string, max int) {
	fi, err := os.Stat(root)
	if err != nil || !fi.IsDir() {
		return
	}
	idx.ok = true
	idx.complete = true
	idx.byBase = make(map[string][]string)
	n := 0
	// WalkDir never follows symlinks: a link to a directory is indexed as
	// a name and not descended into, so a loop cannot trap the walk.
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			idx.complete = false // an unreadable subtree: "gone" is no longer certain
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if p == root {
			return nil
		}
		name := d.Name()
		if d.IsDir() && (probeSkipDirs[name] || strings.HasPrefix(name, ".")) {
			return fs.SkipDir
		}
		if n >= max {
			idx.complete = false
			return fs.SkipAll
		}
		n++
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		idx.byBase[name] = append(idx.byBase[name], filepath.ToSlash(rel))
		return nil
	})
}

func statExists(p string) (exists, known bool) {
	_, err := os.Stat(p)
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return false, true
	}
	return false, false
}
