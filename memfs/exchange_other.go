//go:build unix && !linux

package memfs

import "golang.org/x/sys/unix"

// exchange has no atomic swap here; exchangeAt falls back to
// exchangeFallback.
func exchange(dirfd int, a, b string) error { return unix.ENOSYS }
