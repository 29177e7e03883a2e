package txn

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/memtui/memtui/memfs"
)

// pathLayer is fsLayer on paths, for systems without openat (Windows). A
// handle names a folder as a root (opened by its path) and the components
// below it; every operation first walks that path from the root, lstat by
// lstat, and refuses a component that is a link or reparse point or not a
// folder, then acts on the path. It is one copy for every system: the few
// calls that differ are the p* functions of sys_path_windows.go and
// sys_path_unix.go (the tests run this layer on Linux).
//
// What it cannot give: a component swapped for a junction between the
// walk and the operation redirects that one operation (descriptors close
// that window on Unix); see Guarantees.
type pathLayer struct {
	mu   sync.Mutex
	next int
	dirs map[int]pathDir
}

// pathDir is a folder a handle names: root, then rel below it.
type pathDir struct {
	root string
	rel  []string
}

func newPathLayer() *pathLayer { return &pathLayer{next: 3, dirs: map[int]pathDir{}} }

// errBadHandle: a handle that was closed or never opened (a bug).
var errBadHandle = errors.New("bad folder handle")

func (l *pathLayer) add(d pathDir) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	fd := l.next
	l.next++
	l.dirs[fd] = d
	return fd
}

func (l *pathLayer) get(fd int) (pathDir, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d, ok := l.dirs[fd]
	return d, ok
}

// checkDir refuses p unless it is a folder, itself (not a link to one).
func checkDir(p string) error {
	st, err := pLstat(p)
	switch {
	case err != nil:
		return err
	case st.kind == kindLink:
		return &fs.PathError{Op: "open", Path: p, Err: errLink}
	case st.kind != kindDir:
		return &fs.PathError{Op: "open", Path: p, Err: errNotDir}
	}
	return nil
}

// dirPath walks handle fd's folder from its root and returns its path.
func (l *pathLayer) dirPath(fd int) (string, error) {
	d, ok := l.get(fd)
	if !ok {
		return "", errBadHandle
	}
	p := d.root
	if err := checkDir(p); err != nil {
		return "", err
	}
	for _, c := range d.rel {
		p = filepath.Join(p, c)
		if err := checkDir(p); err != nil {
			return "", err
		}
	}
	return p, nil
}

// path is name in the folder dir, walked and checked; with atCWD, name
// is the path. A name must be one component the system takes as it is
// (memfs.WindowsNameProblem: no stream, no device name, no trailing dot).
func (l *pathLayer) path(dir int, name string) (string, error) {
	if dir == atCWD {
		return name, nil
	}
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", refuse(name, "not one file name")
	}
	if why := memfs.WindowsNameProblem(name); why != "" {
		return "", refuse(name, "%s", why)
	}
	d, err := l.dirPath(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, name), nil
}

func (l *pathLayer) openDir(dir int, name string) (int, error) {
	p, err := l.path(dir, name)
	if err != nil {
		return -1, err
	}
	if err := checkDir(p); err != nil {
		return -1, err
	}
	if dir == atCWD {
		return l.add(pathDir{root: p}), nil
	}
	d, _ := l.get(dir)
	return l.add(pathDir{root: d.root, rel: append(append([]string(nil), d.rel...), name)}), nil
}

func (l *pathLayer) dup(fd int) (int, error) {
	d, ok := l.get(fd)
	if !ok {
		return -1, errBadHandle
	}
	return l.add(d), nil
}

func (l *pathLayer) close(fd int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.dirs[fd]; !ok {
		return errBadHandle
	}
	delete(l.dirs, fd)
	return nil
}

func (l *pathLayer) fstat(fd int) (fileStat, error) {
	p, err := l.dirPath(fd)
	if err != nil {
		return fileStat{}, err
	}
	return pLstat(p)
}

func (l *pathLayer) lstat(dir int, name string) (fileStat, error) {
	p, err := l.path(dir, name)
	if err != nil {
		return fileStat{}, err
	}
	return pLstat(p)
}

func (l *pathLayer) open(dir int, name string, how openHow, perm uint32) (*os.File, error) {
	p, err := l.path(dir, name)
	if err != nil {
		return nil, err
	}
	return pOpen(p, how, perm)
}

func (l *pathLayer) openRead(dir int, name string) (*os.File, error) {
	return l.open(dir, name, openRead, 0)
}

func (l *pathLayer) createExcl(dir int, name string, perm uint32) (*os.File, error) {
	return l.open(dir, name, openCreateExcl, perm)
}

func (l *pathLayer) openTrunc(dir int, name string, perm uint32) (*os.File, error) {
	return l.open(dir, name, openTrunc, perm)
}

func (l *pathLayer) fstatFile(f *os.File) (fileStat, error) { return pFstat(f) }
func (l *pathLayer) chmod(f *os.File, mode uint32) error    { return pChmod(f, mode) }

// two resolves the two names of a rename or link.
func (l *pathLayer) two(odir int, oname string, ndir int, nname string) (string, string, error) {
	o, err := l.path(odir, oname)
	if err != nil {
		return "", "", err
	}
	n, err := l.path(ndir, nname)
	return o, n, err
}

func (l *pathLayer) rename(odir int, oname string, ndir int, nname string) error {
	o, n, err := l.two(odir, oname, ndir, nname)
	if err != nil {
		return err
	}
	return pReplace(o, n)
}

func (l *pathLayer) renameNoReplace(odir int, oname string, ndir int, nname string) error {
	o, n, err := l.two(odir, oname, ndir, nname)
	if err != nil {
		return err
	}
	return pRenameNoReplace(o, n)
}

// exchange has no atomic equivalent on Windows: exchangeAt falls back to
// exchangeFallback (link aside, replace, rename back), whose window
// Guarantees names.
func (l *pathLayer) exchange(adir int, a string, bdir int, b string) error {
	return errUnsupported
}

// link makes a hard link (CreateHardLink on Windows), which fails when the
// new name is taken: the create-without-overwrite of a new file.
func (l *pathLayer) link(odir int, oname string, ndir int, nname string) error {
	o, n, err := l.two(odir, oname, ndir, nname)
	if err != nil {
		return err
	}
	return os.Link(o, n)
}

func (l *pathLayer) unlink(dir int, name string) error {
	p, err := l.path(dir, name)
	if err != nil {
		return err
	}
	return pUnlink(p)
}

func (l *pathLayer) rmdir(dir int, name string) error {
	p, err := l.path(dir, name)
	if err != nil {
		return err
	}
	return pRmdir(p)
}

func (l *pathLayer) mkdir(dir int, name string, perm uint32) error {
	p, err := l.path(dir, name)
	if err != nil {
		return err
	}
	return os.Mkdir(p, fs.FileMode(perm&0o777))
}

func (l *pathLayer) utimes(dir int, name string, t ftimes) error {
	p, err := l.path(dir, name)
	if err != nil {
		return err
	}
	return pUtimes(p, t)
}

func (l *pathLayer) fsync(fd int) error {
	p, err := l.dirPath(fd)
	if err != nil {
		return err
	}
	return pSyncDir(p)
}

func (l *pathLayer) leases() bool { return false }

// openHow is what pOpen opens a file for.
type openHow uint8

const (
	openRead       openHow = iota // read only, never blocking on a FIFO
	openCreateExcl                // write only, made here, never there before
	openTrunc                     // write only, made when missing, emptied
)
