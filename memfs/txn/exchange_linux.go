//go:build linux

package txn

import "golang.org/x/sys/unix"

func exchange(dirfd int, a, b string) error {
	return unix.Renameat2(dirfd, a, dirfd, b, unix.RENAME_EXCHANGE)
}

// renameNoReplace renames atomically and fails with EEXIST when the new
// name is taken (renameat2 RENAME_NOREPLACE).
func renameNoReplace(olddirfd int, oldname string, newdirfd int, newname string) error {
	return unix.Renameat2(olddirfd, oldname, newdirfd, newname, unix.RENAME_NOREPLACE)
}
