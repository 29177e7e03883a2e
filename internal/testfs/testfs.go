// Package testfs is test support for tests that build trees on disk: the
// fixture writers (files, directories, links, mtimes) and the hostile
// files an agent can put where memtui expects a plain file (FIFOs, links
// out, huge sparse files). Everything takes a testing.TB and fails the
// test on an error, so a fixture line reads as the tree it makes.
//
// Imported by tests and benchmarks only (arch_test.go holds that); it
// imports nothing of memtui, so the tests of every package, memfs and its
// sub-packages included, can use it.
package testfs

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Write creates the file at path (parents included) with content and
// returns path.
func Write(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// WriteAll writes each file of files (path relative to dir → content)
// under dir, creating dir even when files is empty.
func WriteAll(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	Mkdir(t, dir)
	for p, c := range files {
		Write(t, filepath.Join(dir, p), c)
	}
}

// Mkdir creates the directory path (parents included) and returns path.
func Mkdir(t testing.TB, path string) string {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// Symlink makes link point at target, creating link's parents.
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// Touch sets path's access and modification times to mod.
func Touch(t testing.TB, path string, mod time.Time) {
	t.Helper()
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// MemoryAndJournal makes, in a fresh temp dir, a memory dir holding files
// (path relative to it → content), and names a journal root beside it
// laid out as memtui's state dir has it (not created: the write path
// makes it).
func MemoryAndJournal(t testing.TB, files map[string]string) (dir, journal string) {
	t.Helper()
	base := t.TempDir()
	dir, journal = filepath.Join(base, "memory"), filepath.Join(base, "state", "memtui", "journal")
	WriteAll(t, dir, files)
	return dir, journal
}
