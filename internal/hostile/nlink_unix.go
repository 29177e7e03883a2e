//go:build unix

package hostile

import (
	"io/fs"
	"syscall"
)

// linkCount is how many names a file has: a write that split a hardlinked
// memory from its other names shows as a change in it.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
