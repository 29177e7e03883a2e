package memfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteScratch writes content to a new file in the system's temp dir, never
// in a memory dir (a proposed result a person edits before accepting it),
// and returns its path.
func WriteScratch(name string, content []byte) (string, error) {
	f, err := os.CreateTemp("", "memtui-*-"+filepath.Base(name))
	if err != nil {
		return "", err
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// TakeScratch reads a file WriteScratch made and removes it. The file sits
// in a shared temp dir while a person edits it: whatever stands at the
// path then (a link, a FIFO, something huge) is refused, not read.
func TakeScratch(path string) ([]byte, error) {
	b, err := readFile(path, MaxImageBytes, noFollow)
	os.Remove(path)
	return b, err
}

// Occupied reports whether anything (a file, a directory, a link) stands at
// rel inside dir, or cannot be checked: a name to steer clear of.
func Occupied(dir, rel string) bool {
	_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
