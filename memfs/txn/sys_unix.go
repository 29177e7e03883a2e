//go:build unix

package txn

import (
	"errors"
	"io/fs"
	"os"

	"github.com/google/renameio/v2"
	"golang.org/x/sys/unix"
)

// unixLayer is fsLayer on descriptors: every name is resolved in its
// folder's descriptor, never following a link (O_NOFOLLOW,
// AT_SYMLINK_NOFOLLOW), so a component swapped for a link during a run
// cannot redirect a write out of the memory dir.
type unixLayer struct{}

func defaultLayer() fsLayer { return unixLayer{} }

func retryEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// at maps atCWD to the system's AT_FDCWD.
func at(fd int) int {
	if fd == atCWD {
		return unix.AT_FDCWD
	}
	return fd
}

func openat(dirfd int, name string, flags int, perm uint32) (int, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Openat(at(dirfd), name, flags|unix.O_CLOEXEC, perm)
		return err
	})
	return fd, err
}

func statOf(st *unix.Stat_t) fileStat {
	k := kindOther
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		k = kindReg
	case unix.S_IFDIR:
		k = kindDir
	case unix.S_IFLNK:
		k = kindLink
	}
	return fileStat{
		kind: k, perm: uint32(st.Mode) & 0o7777, nlink: uint64(st.Nlink),
		dev: uint64(st.Dev), ino: uint64(st.Ino), uid: int(st.Uid),
		atime: unix.TimespecToNsec(st.Atim), mtime: unix.TimespecToNsec(st.Mtim),
	}
}

func (unixLayer) openDir(dir int, name string) (int, error) {
	return openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
}

func (unixLayer) dup(fd int) (int, error) { return unix.Dup(fd) }
func (unixLayer) close(fd int) error      { return unix.Close(fd) }

func (unixLayer) fstat(fd int) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fileStat{}, err
	}
	return statOf(&st), nil
}

func (unixLayer) lstat(dir int, name string) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(at(dir), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileStat{}, err
	}
	return statOf(&st), nil
}

func (unixLayer) openFile(dir int, name string, flags int, perm uint32) (*os.File, error) {
	fd, err := openat(dir, name, flags, perm)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

func (l unixLayer) openRead(dir int, name string) (*os.File, error) {
	return l.openFile(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
}

func (l unixLayer) createExcl(dir int, name string, perm uint32) (*os.File, error) {
	return l.openFile(dir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW, perm)
}

func (l unixLayer) openTrunc(dir int, name string, perm uint32) (*os.File, error) {
	return l.openFile(dir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_NONBLOCK, perm)
}

func (unixLayer) fstatFile(f *os.File) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileStat{}, err
	}
	return statOf(&st), nil
}

func (unixLayer) chmod(f *os.File, mode uint32) error {
	if err := f.Chmod(fs.FileMode(mode & 0o777)); err != nil {
		return err
	}
	if mode&^0o777 != 0 {
		return unix.Fchmod(int(f.Fd()), mode&0o7777)
	}
	return nil
}

func (unixLayer) rename(odir int, oname string, ndir int, nname string) error {
	return unix.Renameat(at(odir), oname, at(ndir), nname)
}

func (unixLayer) renameNoReplace(odir int, oname string, ndir int, nname string) error {
	return renameNoReplace(at(odir), oname, at(ndir), nname)
}

func (unixLayer) exchange(adir int, a string, bdir int, b string) error {
	return exchange(at(adir), a, at(bdir), b)
}

func (unixLayer) link(odir int, oname string, ndir int, nname string) error {
	return unix.Linkat(at(odir), oname, at(ndir), nname, 0)
}

func (unixLayer) unlink(dir int, name string) error { return unix.Unlinkat(at(dir), name, 0) }
func (unixLayer) rmdir(dir int, name string) error {
	return unix.Unlinkat(at(dir), name, unix.AT_REMOVEDIR)
}

func (unixLayer) mkdir(dir int, name string, perm uint32) error {
	return unix.Mkdirat(at(dir), name, perm)
}

func (unixLayer) utimes(dir int, name string, t ftimes) error {
	ts := []unix.Timespec{unix.NsecToTimespec(t[0]), unix.NsecToTimespec(t[1])}
	return unix.UtimesNanoAt(at(dir), name, ts, unix.AT_SYMLINK_NOFOLLOW)
}

func (unixLayer) fsync(fd int) error {
	return retryEINTR(func() error { return unix.Fsync(fd) })
}

func (unixLayer) leases() bool { return true }

// The error predicates, for unixLayer's raw errnos and the os package's
// wrapped ones (pathLayer in the tests).

func isNotExist(err error) bool    { return errors.Is(err, unix.ENOENT) }
func isExist(err error) bool       { return errors.Is(err, unix.EEXIST) }
func isCrossDevice(err error) bool { return errors.Is(err, unix.EXDEV) }
func isPermission(err error) bool  { return errors.Is(err, unix.EPERM) }
func osLink(err error) bool        { return errors.Is(err, unix.ELOOP) }
func osLinkOrNotDir(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR)
}
func osUnsupported(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP)
}

// isLinkInfo reports whether fi (from os.Lstat) is a symlink.
func isLinkInfo(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// writeAtomic replaces path (0600) with b atomically and durably
// (renameio: a temp file in tempDir, or where renameio chooses when it is
// "", fsynced and renamed over path).
func writeAtomic(path string, b []byte, tempDir string) error {
	if tempDir == "" {
		return renameio.WriteFile(path, b, 0o600)
	}
	return renameio.WriteFile(path, b, 0o600, renameio.WithTempDir(tempDir))
}
