//go:build windows

package txn

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/windows"
)

// Windows has no openat: the write path runs on pathLayer (sys_path.go).
func defaultLayer() fsLayer { return newPathLayer() }

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// isExist: MoveFileEx and CreateHardLink say ERROR_ALREADY_EXISTS,
// CreateFile(CREATE_NEW) and CreateDirectory ERROR_FILE_EXISTS or
// ERROR_ALREADY_EXISTS; both are fs.ErrExist.
func isExist(err error) bool       { return errors.Is(err, fs.ErrExist) }
func isCrossDevice(err error) bool { return errors.Is(err, windows.ERROR_NOT_SAME_DEVICE) }

// isPermission is false: opError's hint (an immutable file, chattr) is
// about Unix.
func isPermission(err error) bool { return false }

func osLink(err error) bool { return errors.Is(err, windows.ERROR_CANT_ACCESS_FILE) }
func osLinkOrNotDir(err error) bool {
	return errors.Is(err, windows.ERROR_DIRECTORY) || errors.Is(err, windows.ERROR_CANT_ACCESS_FILE)
}
func osUnsupported(err error) bool {
	return errors.Is(err, windows.ERROR_NOT_SUPPORTED) || errors.Is(err, windows.ERROR_INVALID_FUNCTION)
}

// isLinkInfo reports whether fi (from os.Lstat) is any reparse point: a
// symlink, a junction, a mount point (Go reports some of them as folders
// or irregular files, not as symlinks).
func isLinkInfo(fi fs.FileInfo) bool {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return true
	}
	d, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	return ok && d.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0
}

// writeAtomic replaces path with b: a temp file in tempDir (path's folder
// when ""), flushed, then MoveFileEx over path (pReplace). renameio,
// which does this on Unix, refuses Windows.
func writeAtomic(path string, b []byte, tempDir string) error {
	if tempDir == "" {
		tempDir = filepath.Dir(path)
	}
	f, err := os.CreateTemp(tempDir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = pReplace(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
