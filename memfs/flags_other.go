//go:build !unix

package memfs

// Without O_NONBLOCK and O_NOFOLLOW the reader relies on the DirEntry type
// check alone to keep away from FIFOs and symlinks.
const (
	openNonblock = 0
	openNoFollow = 0
)
