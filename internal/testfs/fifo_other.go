//go:build !unix

package testfs

import "testing"

// Mkfifo skips the test: named pipes in the file system are Unix's.
func Mkfifo(t testing.TB, p string) {
	t.Helper()
	t.Skip("no named pipes in this file system")
}
