package testfs

import (
	"os"
	"testing"
	"time"
)

// OutsideSecret is written to files outside every directory memtui reads;
// it must never show up in anything memtui returns.
const OutsideSecret = "OUTSIDE-b7c1e0-never-read"

// Hostile is one thing an agent (or anything else running as the user)
// can put where memtui expects a plain file. Of each, memtui must return
// promptly, read nothing unbounded, follow no link out and say what it
// found.
type Hostile struct {
	Name string
	// Put replaces whatever is at path with the hostile thing.
	Put func(t testing.TB, path string)
	// Says is what the problem or error must say about it.
	Says string
}

// Hostiles are the hostile files: a FIFO, a link to /dev/zero, a link to
// outside (a file outside the tree under test) and a 3 GiB sparse file.
// They are Unix's: on other systems Mkfifo skips the test.
func Hostiles(outside string) []Hostile {
	return []Hostile{
		{"fifo", func(t testing.TB, p string) { Mkfifo(t, p) }, "named pipe"},
		{"link to /dev/zero", func(t testing.TB, p string) { os.Remove(p); Symlink(t, "/dev/zero", p) }, "symlink"},
		{"link outside", func(t testing.TB, p string) { os.Remove(p); Symlink(t, outside, p) }, "symlink"},
		{"3 GiB sparse file", func(t testing.TB, p string) { Sparse(t, p, 3<<30) }, "3 GiB, more than"},
	}
}

// Sparse makes p (replacing what is there) a file of size bytes that
// occupies almost no disk. It skips the test where the file system cannot
// make one.
func Sparse(t testing.TB, p string, size int64) {
	t.Helper()
	os.Remove(p)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		t.Skipf("this file system cannot make a %d-byte sparse file: %v", size, err)
	}
	f.Close()
}

// ReturnsIn runs f and fails the test if it has not returned after a
// generous while: a read that blocks on a FIFO or streams /dev/zero never
// returns.
func ReturnsIn(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not return (a read that blocks or never ends)", what)
	}
}
