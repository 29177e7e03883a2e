//go:build unix

package txn

// pathLayer's calls on Unix, where it runs only in the tests: the same
// operations as on Windows, in the Unix system's terms.

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

func pLstat(p string) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return fileStat{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return statOf(&st), nil
}

func pOpen(p string, how openHow, perm uint32) (*os.File, error) {
	l := unixLayer{}
	switch how {
	case openCreateExcl:
		return l.createExcl(atCWD, p, perm)
	case openTrunc:
		return l.openTrunc(atCWD, p, perm)
	}
	return l.openRead(atCWD, p)
}

func pFstat(f *os.File) (fileStat, error) { return unixLayer{}.fstatFile(f) }

func pChmod(f *os.File, mode uint32) error { return unixLayer{}.chmod(f, mode) }

func pReplace(o, n string) error { return os.Rename(o, n) }

func pRenameNoReplace(o, n string) error {
	return renameNoReplace(unix.AT_FDCWD, o, unix.AT_FDCWD, n)
}

func pUnlink(p string) error { return unix.Unlink(p) }
func pRmdir(p string) error  { return unix.Rmdir(p) }

func pUtimes(p string, t ftimes) error {
	ts := []unix.Timespec{unix.NsecToTimespec(t[0]), unix.NsecToTimespec(t[1])}
	return unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
}

func pSyncDir(p string) error {
	fd, err := openat(atCWD, p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unixLayer{}.fsync(fd)
}
