//go:build unix

package testfs

import (
	"os"
	"syscall"
	"testing"
)

// Mkfifo makes p (replacing what is there) a named pipe, which blocks
// whoever opens it for reading until a writer comes.
func Mkfifo(t testing.TB, p string) {
	t.Helper()
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}
