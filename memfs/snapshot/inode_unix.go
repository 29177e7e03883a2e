//go:build unix

package snapshot

import (
	"io/fs"
	"syscall"
)

// inodeOf is fi's inode number.
func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
