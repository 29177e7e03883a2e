//go:build !unix

package memfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The portable twin of saferead_unix.go, for systems without openat or
// O_NONBLOCK: symlinks are refused by an Lstat before the open (a swap in
// between is not caught, as openat would), and the file's type is checked
// on the open handle before any read.

func openPlatform(path string, links linkPolicy) (*os.File, fs.FileInfo, error) {
	if links == noFollow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, symlinkErr(path, "")
		}
	}
	return openChecked(path)
}

func openInPlatform(dir string, parts []string) (*os.File, fs.FileInfo, error) {
	full := filepath.Join(dir, filepath.Join(parts...))
	p := dir
	for i, c := range parts {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, nil, &fs.PathError{Op: "open", Path: full, Err: UnwrapPathErr(err)}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if i == len(parts)-1 {
				return nil, nil, symlinkErr(full, "")
			}
			return nil, nil, symlinkErr(full, strings.Join(parts[:i+1], "/"))
		}
	}
	return openChecked(full)
}

func openChecked(path string) (*os.File, fs.FileInfo, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, notRegularErr(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegularErr(path, fi.Mode())
	}
	return f, fi, nil
}

// openDir opens a directory to list it.
func openDir(path string) (*os.File, error) {
	return os.Open(path)
}

// openDirNoFollow opens a directory to list it, refusing a symlink by an
// Lstat before the open (a swap in between is not caught, as O_NOFOLLOW
// would).
func openDirNoFollow(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, symlinkErr(path, "")
	}
	return os.Open(path)
}
