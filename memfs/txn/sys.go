package txn

// The platform layer of the write path. The transaction logic (txn.go,
// apply_write.go, journal_write.go, linked.go, foreign_write.go, locks.go,
// writefs.go) is one copy for every system; the raw file operations it
// needs are the methods of fsLayer, on directory handles (ints):
//
//   - on Unix, unixLayer (sys_unix.go): real descriptors and the
//     openat/renameat/linkat family, every name resolved in its folder's
//     descriptor without following a link;
//   - on Windows, pathLayer (sys_path.go, with the few calls of
//     sys_path_windows.go): a handle names a folder by its path below a
//     root, and every operation first checks each component of that path
//     from the root, refusing any reparse point (symlink, junction, mount
//     point). Between that check and the operation a component could be
//     swapped for a junction: the window descriptors close on Unix, and
//     one of the guarantees Guarantees lists as missing. The same layer
//     runs on Unix in the tests (sys_path_test.go), so the logic the
//     Windows build uses is exercised on Linux.

import (
	"errors"
	"os"
	"runtime"

	"github.com/memtui/memtui/memfs"
)

// fileKind is what a name is, as far as the write path cares.
type fileKind uint8

const (
	kindOther fileKind = iota // a FIFO, a device, a socket
	kindReg
	kindDir
	kindLink // a symlink, or on Windows any reparse point
)

// fileStat is a file's status in the terms of every platform: the kind,
// the permission bits (Unix mode & 07777; on Windows a fixed private mode,
// Windows has ACLs instead), the number of names, the identity (device
// and inode; on Windows volume serial and file index), the owner (-1 where
// there is no Unix owner), and atime and mtime in Unix nanoseconds.
type fileStat struct {
	kind         fileKind
	perm         uint32
	nlink        uint64
	dev, ino     uint64
	uid          int
	atime, mtime int64
}

// same reports whether a and b are one file (one device, one inode).
func (a *fileStat) same(b *fileStat) bool { return a.dev == b.dev && a.ino == b.ino }

// ftimes are an atime and an mtime, Unix nanoseconds.
type ftimes = [2]int64

// atCWD is the handle that names no folder: the name is a path of its
// own (AT_FDCWD).
const atCWD = -100

// fsLayer is every raw file operation the write path makes. dir is a
// folder's handle (or atCWD), name one component in it (a path with
// atCWD). No operation follows a symlink (or reparse point) at name; the
// errors are the platform's, classified by isNotExist, isExist and the
// other predicates below.
type fsLayer interface {
	// openDir opens the folder name in dir; a link there is errLink (or
	// ELOOP), anything but a folder errNotDir (or ENOTDIR).
	openDir(dir int, name string) (int, error)
	dup(fd int) (int, error)
	close(fd int) error
	// fstat is the status of the folder fd.
	fstat(fd int) (fileStat, error)
	lstat(dir int, name string) (fileStat, error)
	// openRead opens name for reading without blocking on a FIFO;
	// createExcl makes it (it must not exist, perm before the umask);
	// openTrunc opens it for writing, made when missing, emptied.
	openRead(dir int, name string) (*os.File, error)
	createExcl(dir int, name string, perm uint32) (*os.File, error)
	openTrunc(dir int, name string, perm uint32) (*os.File, error)
	fstatFile(f *os.File) (fileStat, error)
	// chmod gives the open file f exactly mode (setuid and the like
	// included, where the system has them).
	chmod(f *os.File, mode uint32) error
	// rename replaces what stands at the new name atomically;
	// renameNoReplace fails (isExist) when something stands there, and
	// with isUnsupported where the system cannot do that atomically;
	// exchange swaps two names atomically, or isUnsupported.
	rename(odir int, oname string, ndir int, nname string) error
	renameNoReplace(odir int, oname string, ndir int, nname string) error
	exchange(adir int, a string, bdir int, b string) error
	link(odir int, oname string, ndir int, nname string) error
	unlink(dir int, name string) error
	rmdir(dir int, name string) error
	mkdir(dir int, name string, perm uint32) error
	// utimes sets name's atime and mtime, not through a link.
	utimes(dir int, name string, t ftimes) error
	// fsync makes the folder fd's entries durable.
	fsync(fd int) error
	// leases says whether files opened through this layer can take the
	// Linux leases of writers_linux.go.
	leases() bool
}

// sys is the layer the write path uses: unixLayer on Unix, pathLayer on
// Windows; the tests switch it.
var sys fsLayer = defaultLayer()

// Errors of pathLayer that have no errno of their own on every system.
var (
	errLink        = errors.New("a symlink or reparse point")
	errNotDir      = errors.New("not a directory")
	errUnsupported = errors.New("not supported on this system")
)

// onWindows: paths compare without regard to case (memfs.SamePath).
const onWindows = runtime.GOOS == "windows"

// samePath reports whether two clean paths name one file on this system.
func samePath(a, b string) bool { return memfs.SamePath(a, b, onWindows) }

// isLinkOrNotDir reports the errors of opening a folder that is a link
// or not a folder.
func isLinkOrNotDir(err error) bool {
	return errors.Is(err, errLink) || errors.Is(err, errNotDir) || osLinkOrNotDir(err)
}

// isLink reports the error of opening a link without following it.
func isLink(err error) bool { return errors.Is(err, errLink) || osLink(err) }

// isUnsupported reports an operation the system or file system lacks.
func isUnsupported(err error) bool { return errors.Is(err, errUnsupported) || osUnsupported(err) }
