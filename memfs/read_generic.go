//go:build !linux

package memfs

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// readChunk reads jobs one by one by path (the portable twin of the
// openat-based reader in read_linux.go).
func readChunk(jobs []readJob, max int64) {
	for i := range jobs {
		j := &jobs[i]
		beforeRead(j)
		fd, err := readRegular(filepath.Join(j.dir, j.name), max)
		j.record(fd, err, max)
	}
}

// readRegular reads up to max bytes of the regular file at p: open, fstat,
// one sized read, close (the portable twin of read_linux.go).
func readRegular(p string, max int64) (fileData, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|openNoFollow|openNonblock, 0)
	if err != nil {
		return fileData{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileData{}, err
	}
	if !fi.Mode().IsRegular() {
		return fileData{}, &fs.PathError{Op: "open", Path: p, Err: errNotRegular}
	}
	fd := fileData{size: fi.Size(), mod: fi.ModTime(), perm: uint32(fi.Mode().Perm())}
	want := fi.Size()
	if want > max {
		want = max
		fd.truncated = true
	}
	if want <= 0 {
		return fd, nil
	}
	buf := make([]byte, want)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return fileData{}, err
	}
	fd.content = buf[:n]
	return fd, nil
}
