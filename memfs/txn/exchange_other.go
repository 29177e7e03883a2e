//go:build unix && !linux

package txn

import "golang.org/x/sys/unix"

// exchange has no atomic swap here; exchangeAt falls back to
// exchangeFallback.
func exchange(adir int, a string, bdir int, b string) error { return unix.ENOSYS }

// renameNoReplace has no atomic no-replace rename here; moveAt falls back
// to a link and an unlink.
func renameNoReplace(olddirfd int, oldname string, newdirfd int, newname string) error {
	return unix.ENOSYS
}
