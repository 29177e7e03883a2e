//go:build unix

package memfs

import (
	"io/fs"
	"path/filepath"
	"syscall"
)

// followDirLinks: on POSIX, Claude Code's scan enters linked folders.
const followDirLinks = true

// fileKeyOf is fi's device and inode (p, resolved, when the system gives
// none).
func fileKeyOf(fi fs.FileInfo, p string) fileKey {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Ino != 0 {
		return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return fileKey{path: p}
}

// nlinkOf is how many names the file fi describes has (1 when unknown).
func nlinkOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
