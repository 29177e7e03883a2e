//go:build unix

package memfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// sysOpenat is openat(2) retried on EINTR, close-on-exec.
func sysOpenat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// readFlags open a file to read without blocking on a FIFO (O_NONBLOCK is
// ignored by reads of a regular file, the only kind kept open).
const readFlags = unix.O_RDONLY | unix.O_NONBLOCK

func openPlatform(path string, links linkPolicy) (*os.File, fs.FileInfo, error) {
	flags := readFlags
	if links == noFollow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := sysOpenat(unix.AT_FDCWD, path, flags)
	if err != nil {
		return nil, nil, openFailed(path, err, links == noFollow, func() (fs.FileMode, error) {
			fi, err := os.Lstat(path)
			if err != nil {
				return 0, err
			}
			return fi.Mode(), nil
		})
	}
	return keepRegular(fd, path)
}

func openInPlatform(dir string, parts []string) (*os.File, fs.FileInfo, error) {
	fd, err := sysOpenat(unix.AT_FDCWD, dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	full := filepath.Join(dir, filepath.Join(parts...))
	for i, c := range parts[:len(parts)-1] {
		next, err := sysOpenat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK)
		if err != nil {
			var st unix.Stat_t
			serr := unix.Fstatat(fd, c, &st, unix.AT_SYMLINK_NOFOLLOW)
			unix.Close(fd)
			sub := strings.Join(parts[:i+1], "/")
			switch {
			case serr == nil && uint32(st.Mode)&unix.S_IFMT == unix.S_IFLNK:
				return nil, nil, symlinkErr(full, sub)
			case serr == nil && uint32(st.Mode)&unix.S_IFMT != unix.S_IFDIR:
				return nil, nil, refused(full, sub+" is not a directory; not read", errNotRegular)
			}
			return nil, nil, &fs.PathError{Op: "open", Path: full, Err: err}
		}
		unix.Close(fd)
		fd = next
	}
	last := parts[len(parts)-1]
	ffd, err := sysOpenat(fd, last, readFlags|unix.O_NOFOLLOW)
	if err != nil {
		dfd := fd
		defer unix.Close(dfd)
		return nil, nil, openFailed(full, err, true, func() (fs.FileMode, error) {
			var st unix.Stat_t
			if err := unix.Fstatat(dfd, last, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				return 0, err
			}
			return modeType(uint32(st.Mode)), nil
		})
	}
	unix.Close(fd)
	return keepRegular(ffd, full)
}

// openFailed turns a failed open into the error to report: a symlink
// refused by O_NOFOLLOW (ELOOP on Linux, EMLINK on FreeBSD) or a special
// file is named as such; anything else stays the system's error.
func openFailed(path string, err error, noFollow bool, lstat func() (fs.FileMode, error)) error {
	if err != unix.ENOENT {
		if m, lerr := lstat(); lerr == nil {
			switch {
			case noFollow && m&fs.ModeSymlink != 0:
				return symlinkErr(path, "")
			case !m.IsRegular() && m&fs.ModeSymlink == 0:
				return notRegularErr(path, m)
			}
		}
	}
	return &fs.PathError{Op: "open", Path: path, Err: err}
}

// keepRegular checks what fd is (fstat, before any read) and returns it
// as a file if it is a regular one; anything else is closed and refused.
func keepRegular(fd int, path string) (*os.File, fs.FileInfo, error) {
	var st unix.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		unix.Close(fd)
		return nil, nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, nil, notRegularErr(path, modeType(uint32(st.Mode)))
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

func fstatRetry(fd int, st *unix.Stat_t) error {
	for {
		if err := unix.Fstat(fd, st); err != unix.EINTR {
			return err
		}
	}
}

// modeType is the type bits of a stat mode as an fs.FileMode.
func modeType(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFREG:
		return 0
	}
	return fs.ModeIrregular
}

// openDirNoFollow is openDir for a tree whose links are never followed
// (Codex's memory root, which Codex itself refuses to reach through one):
// a directory swapped for a symlink since it was listed is refused
// (O_NOFOLLOW), not entered.
func openDirNoFollow(path string) (*os.File, error) {
	fd, err := sysOpenat(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_NOFOLLOW)
	if err != nil {
		if err != unix.ENOENT {
			if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, symlinkErr(path, "")
			}
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openDir opens a directory to list it, without blocking: a FIFO put where
// a directory was is refused (O_DIRECTORY) instead of waiting for a
// writer. Symlinks are followed: listings follow them as Claude Code's own
// scan does, and each caller decides what to do with the entries.
func openDir(path string) (*os.File, error) {
	fd, err := sysOpenat(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
