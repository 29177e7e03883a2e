//go:build linux

package memfs

import "golang.org/x/sys/unix"

func exchange(dirfd int, a, b string) error {
	return unix.Renameat2(dirfd, a, dirfd, b, unix.RENAME_EXCHANGE)
}
