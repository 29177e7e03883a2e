package txn

// Low-level file operations of the write path. Everything inside a memory
// dir is reached from one directory handle with calls of the platform
// layer (sys.go) that never follow a symlink: on Unix openat-style calls
// on descriptors, so a component swapped for a link during a run cannot
// redirect a write out of the directory; on Windows paths whose every
// component is checked first.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// errRefused marks a path memtui will not write: a symlink, a directory
// where a file should be, a path outside the memory dir.
var errRefused = errors.New("refused")

// refusedError says why a path is refused; errors.Is(err, errRefused).
type refusedError struct {
	Path   string
	Reason string
}

func (e *refusedError) Error() string {
	if e.Path == "" {
		return e.Reason
	}
	return e.Path + ": " + e.Reason
}
func (e *refusedError) Is(target error) bool { return target == errRefused }

func refuse(path, format string, args ...any) error {
	return &refusedError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// openRoot opens a memory dir for writing. The directory itself must not be
// a symlink (refused: write to the target by naming it); symlinks among its
// ancestors (a ~/.claude on another disk) are resolved once, here. It
// returns the descriptor and the resolved path.
func openRoot(dir string) (int, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return -1, "", err
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return -1, "", refuse(abs, "the memory dir does not exist")
	case err != nil:
		return -1, "", err
	case isLinkInfo(fi):
		target, _ := filepath.EvalSymlinks(abs)
		return -1, "", refuse(abs, "the memory dir is a symlink (to %s); memtui does not write through a symlinked memory dir: open the target itself (--memory-dir %s)", target, target)
	case !fi.IsDir():
		return -1, "", refuse(abs, "the memory dir is a %s, not a directory", model.FileKind(fi.Mode()))
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return -1, "", err
	}
	real := filepath.Join(parent, filepath.Base(abs))
	fd, err := sys.openDir(atCWD, real)
	if err != nil {
		if isLinkOrNotDir(err) {
			return -1, "", refuse(abs, "the memory dir was replaced by a symlink or a file while memtui opened it")
		}
		return -1, "", &fs.PathError{Op: "open", Path: real, Err: err}
	}
	return fd, real, nil
}

// validRel checks a change's path: relative, slash-separated, clean, no
// "..", a .md file, and not under team/ unless team is allowed.
func validRel(p string, team bool) error {
	switch {
	case p == "":
		return refuse(p, "empty path")
	case strings.ContainsRune(p, 0) || strings.ContainsRune(p, '\\'):
		return refuse(p, "a NUL byte or backslash in the path")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p):
		return refuse(p, "an absolute path; changes must be relative to the memory dir")
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return refuse(p, "the path leaves the memory dir (..)")
		}
		if c == "" || c == "." {
			return refuse(p, "not a clean path")
		}
	}
	if !strings.HasSuffix(p, ".md") {
		return refuse(p, "not a .md file; memtui writes only memory files")
	}
	if !team && strings.HasPrefix(p, memfs.TeamDirName+"/") {
		return refuse(p, "under team/, where CLAUDE_MEMORY_STORES mounts team stores that sync to other people; not written without the team option")
	}
	return nil
}

// openParent opens the directory holding rel, walking down from rootfd one
// component at a time without following symlinks. The caller closes it.
func openParent(rootfd int, rel string) (int, string, error) {
	fd, missing, name, err := destAt(rootfd, rel)
	if err != nil {
		return -1, "", err
	}
	if len(missing) > 0 {
		sys.close(fd)
		parts := strings.Split(rel, "/")
		sub := strings.Join(parts[:len(parts)-len(missing)], "/") // up to the first missing folder
		return -1, "", refuse(rel, "the directory %s does not exist", sub)
	}
	return fd, name, nil
}

// lstatAt stats name in dirfd without following a symlink; exists is false
// on ENOENT.
func lstatAt(dirfd int, name string) (st fileStat, exists bool, err error) {
	st, err = sys.lstat(dirfd, name)
	if isNotExist(err) {
		return st, false, nil
	}
	return st, err == nil, err
}

// kindProblem says why st is not a file memtui may replace, or "".
func kindProblem(st *fileStat) string {
	switch st.kind {
	case kindReg:
		return ""
	case kindLink:
		return "is a symlink; memtui never writes through one"
	case kindDir:
		return "is a directory, not a file"
	}
	return "is not a regular file"
}

// openRegularAt opens name in dirfd for reading: no symlink, no FIFO hang,
// regular files only. ENOENT comes back as fs.ErrNotExist.
func openRegularAt(dirfd int, name, rel string) (*os.File, *fileStat, error) {
	f, err := sys.openRead(dirfd, name)
	if err != nil {
		if isNotExist(err) {
			return nil, nil, fs.ErrNotExist
		}
		if st, ok, _ := lstatAt(dirfd, name); ok {
			if p := kindProblem(&st); p != "" {
				return nil, nil, refuse(rel, "%s", p)
			}
		}
		return nil, nil, &fs.PathError{Op: "open", Path: rel, Err: err}
	}
	st, err := sys.fstatFile(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if p := kindProblem(&st); p != "" {
		f.Close()
		return nil, nil, refuse(rel, "%s", p)
	}
	return f, &st, nil
}

// readAllFrom reads f from offset 0 to its current end (pread: the offset
// of a descriptor kept across checks does not matter), at most
// memfs.MaxImageBytes: a file bigger than any memtui writes is refused, not
// held in memory.
func readAllFrom(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return memfs.ReadCapped(io.NewSectionReader(f, 0, math.MaxInt64), f.Name(), fi.Size(), memfs.MaxImageBytes)
}

// readAt reads the regular file name in dirfd; exists false when absent.
func readAt(dirfd int, name, rel string) (b []byte, exists bool, err error) {
	f, _, err := openRegularAt(dirfd, name, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err = readAllFrom(f)
	return b, err == nil, err
}

// writeTempAt creates name in dirfd (it must not exist), writes content and
// fsyncs it. mode 0 leaves the permission to the umask (0666 &^ umask, as
// Claude Code's writes get); otherwise the file gets exactly mode. The
// bytes go to name+".part" first, renamed to name once they are durable:
// a crash leaves either a ".part" (garbage) or the whole content at name.
//
// times, when set, are the atime and mtime the file gets (set before it
// is renamed into place, so it never stands at name with another mtime).
func writeTempAt(dirfd int, name string, content []byte, mode uint32, times *ftimes) error {
	part := name + ".part"
	sys.unlink(dirfd, part)
	f, err := sys.createExcl(dirfd, part, 0o666)
	if err != nil {
		return &fs.PathError{Op: "create", Path: part, Err: err}
	}
	err = func() error {
		if mode != 0 {
			if err := sys.chmod(f, mode); err != nil {
				return err
			}
		}
		if _, err := f.Write(content); err != nil {
			return err
		}
		if times != nil {
			if err := sys.utimes(dirfd, part, *times); err != nil {
				return err
			}
		}
		return f.Sync()
	}()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = sys.rename(dirfd, part, dirfd, name)
	}
	if err != nil {
		sys.unlink(dirfd, part)
	}
	return err
}

func fsyncDir(fd int) error { return sys.fsync(fd) }

// fsyncDirs fsyncs the folder fd and, when it is another one, the folder
// of the temp names (a foreign store's temp dir).
func fsyncDirs(fd, tfd int) error {
	if err := fsyncDir(fd); err != nil || tfd == fd {
		return err
	}
	return fsyncDir(tfd)
}

// fsyncPath fsyncs the directory p (opened as a directory: anything else
// swapped in is refused, never waited on).
func fsyncPath(p string) error {
	f, err := memfs.OpenDir(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// exchangeAt swaps the names a (in adir) and b (in bdir) atomically
// (renameat2 RENAME_EXCHANGE on Linux, which works across the folders of
// one file system): afterwards b holds what a held and a holds whatever
// sat at b at that instant, so nothing an agent renamed over b a moment
// earlier is lost, and readers of b never see it missing.
func exchangeAt(adir int, a string, bdir int, b string) error {
	err := sys.exchange(adir, a, bdir, b)
	if isUnsupported(err) {
		return exchangeFallback(adir, a, bdir, b)
	}
	return err
}

// exchangeFallback emulates the swap where the file system cannot: link b
// aside (beside a, never in b's folder), rename a over b, rename the
// aside to a. An agent's rename over b between the link and the rename is
// not seen (the window the atomic swap closes).
func exchangeFallback(adir int, a string, bdir int, b string) error {
	aside := a + ".x"
	if err := linkAside(bdir, b, adir, aside); err != nil {
		return err
	}
	if err := sys.rename(adir, a, bdir, b); err != nil {
		sys.unlink(adir, aside)
		return err
	}
	return sys.rename(adir, aside, adir, a)
}

// linkAside links the file at b to aside. A link fails as if b did not
// exist when b's file loses its last name during the call (Linux's link(2)
// refuses an inode whose link count fell to zero): an agent renamed its
// version over b just then. The name still stands, so link again, a few
// times: the caller compares what it linked with the file it checked, and
// an agent's file makes the proposal a conflict, not a failure. A b that
// is really gone still fails.
func linkAside(bdir int, b string, adir int, aside string) error {
	var err error
	for range 4 {
		if err = sys.link(bdir, b, adir, aside); !isNotExist(err) {
			return err
		}
		if _, ok, _ := lstatAt(bdir, b); !ok {
			return err
		}
	}
	return err
}

// copyFileAt copies the regular file name in dirfd to the new path dst
// (created, fsynced): the cross-device fallback of a move into the journal.
func copyFileAt(dirfd int, name, dst string) error {
	b, _, err := readAt(dirfd, name, name)
	if err != nil {
		return err
	}
	return writeNewFile(dst, b)
}

// writeNewFile creates path (0600) with b and fsyncs it.
func writeNewFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// moveAt renames oldname (in olddirfd) to newname (in newdirfd) without
// ever replacing what stands at newname: EEXIST when something does. Where
// the atomic no-replace rename is missing, it links the new name (which
// fails when it is taken) and then unlinks the old one; a crash in
// between leaves the same file under both names, which a rollback tells
// apart by its inode.
func moveAt(olddirfd int, oldname string, newdirfd int, newname string) error {
	err := sys.renameNoReplace(olddirfd, oldname, newdirfd, newname)
	if err == nil || !isUnsupported(err) {
		return err
	}
	if err := sys.link(olddirfd, oldname, newdirfd, newname); err != nil {
		return err
	}
	step("move linked")
	return sys.unlink(olddirfd, oldname)
}

// destAt is openParent for a file memtui is about to create by a move:
// rel's folders are walked from rootfd without following a symlink, but
// a folder that does not exist yet is no error. It returns the deepest
// folder that exists (the caller closes it), the names of the folders
// still to make below it, in order, and the file's name. A symlink or a
// file where a folder should be is refused, as openParent refuses it.
func destAt(rootfd int, rel string) (fd int, missing []string, name string, err error) {
	parts := strings.Split(rel, "/")
	fd, err = sys.dup(rootfd)
	if err != nil {
		return -1, nil, "", err
	}
	dirs := parts[:len(parts)-1]
	for i, c := range dirs {
		next, err := sys.openDir(fd, c)
		if err != nil && isNotExist(err) {
			return fd, dirs[i:], parts[len(parts)-1], nil
		}
		if err != nil {
			st, serr := sys.lstat(fd, c)
			sys.close(fd)
			sub := strings.Join(parts[:i+1], "/")
			switch {
			case serr == nil && st.kind == kindLink:
				return -1, nil, "", refuse(rel, "%s is a symlink; memtui never writes through one", sub)
			case isLinkOrNotDir(err):
				return -1, nil, "", refuse(rel, "%s is not a directory", sub)
			}
			return -1, nil, "", &fs.PathError{Op: "open", Path: sub, Err: err}
		}
		sys.close(fd)
		fd = next
	}
	return fd, nil, parts[len(parts)-1], nil
}

// makeDirsAt makes the folders names, one inside the other, below the
// folder fd (closed by the caller), each with fd's permission bits (a
// private memory dir makes private folders), and returns the innermost,
// opened without following a link. A folder someone made meanwhile is
// used as it is, unless it is a symlink or not a folder: refused. rel
// names the file they are made for, in errors.
func makeDirsAt(fd int, names []string, rel string) (int, error) {
	cur, err := sys.dup(fd)
	if err != nil {
		return -1, err
	}
	for _, c := range names {
		st, err := sys.fstat(cur)
		if err != nil {
			sys.close(cur)
			return -1, err
		}
		if err := sys.mkdir(cur, c, st.perm&0o777); err != nil && !isExist(err) {
			sys.close(cur)
			return -1, opError("make the folder "+c+" for", rel, err)
		}
		next, err := sys.openDir(cur, c)
		if err != nil {
			sys.close(cur)
			if isLinkOrNotDir(err) {
				return -1, refuse(rel, "%s is a symlink or not a directory; memtui never writes through one", c)
			}
			return -1, &fs.PathError{Op: "open", Path: c, Err: err}
		}
		if err := fsyncDir(cur); err != nil {
			sys.close(cur)
			sys.close(next)
			return -1, err
		}
		sys.close(cur)
		cur = next
	}
	return cur, nil
}

// removeEmptyDirs removes the folders dirs (relative to the memory dir),
// deepest first, each only if it is empty: the folders a move made, once
// the move is rolled back or undone. A folder that holds anything (another
// archived memory) stays; errors are no concern of the caller's.
func removeEmptyDirs(rootfd int, dirs []string) {
	sorted := slices.Clone(dirs)
	slices.SortFunc(sorted, func(a, b string) int {
		if n := strings.Count(b, "/") - strings.Count(a, "/"); n != 0 {
			return n
		}
		return strings.Compare(a, b)
	})
	for _, d := range slices.Compact(sorted) {
		pfd, name, err := openParent(rootfd, d)
		if err != nil {
			continue
		}
		if sys.rmdir(pfd, name) == nil {
			fsyncDir(pfd)
		}
		sys.close(pfd)
	}
}
