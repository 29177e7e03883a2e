//go:build unix

package memfs

import "syscall"

// Open flags that keep a read from hanging or escaping: O_NONBLOCK makes
// opening a FIFO return at once instead of waiting for a writer (the file is
// then refused as not regular), O_NOFOLLOW refuses a symlink swapped in
// between readdir and open.
const (
	openNonblock = syscall.O_NONBLOCK
	openNoFollow = syscall.O_NOFOLLOW
)
