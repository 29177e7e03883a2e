//go:build linux

package txn

import "golang.org/x/sys/unix"

// exchange swaps a (in adir) and b (in bdir) atomically; the two folders
// may differ, on one file system.
func exchange(adir int, a string, bdir int, b string) error {
	return unix.Renameat2(adir, a, bdir, b, unix.RENAME_EXCHANGE)
}

// renameNoReplace renames atomically and fails with EEXIST when the new
// name is taken (renameat2 RENAME_NOREPLACE).
func renameNoReplace(olddirfd int, oldname string, newdirfd int, newname string) error {
	return unix.Renameat2(olddirfd, oldname, newdirfd, newname, unix.RENAME_NOREPLACE)
}
