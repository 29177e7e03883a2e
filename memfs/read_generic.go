//go:build !linux

package memfs

import (
	"io"
	"path/filepath"
)

// readChunk reads jobs one by one by path (the portable twin of the
// openat-based reader in read_linux.go).
func readChunk(jobs []readJob, caps readCaps) {
	for i := range jobs {
		j := &jobs[i]
		beforeRead(j)
		max := caps.of(j)
		fd, err := readRegularTail(filepath.Join(j.dir, j.name), max, j.countTail)
		j.record(fd, err, max)
	}
}

// readRegular reads up to max bytes of the regular file at p: the safe
// reader's open step (no symlink, no FIFO, regular only), then one sized
// read (the portable twin of read_linux.go). A bigger file is truncated,
// not refused: LoadDir reports it as such.
func readRegular(p string, max int64) (fileData, error) {
	return readRegularTail(p, max, false)
}

// readRegularTail is readRegular; with tail, a file read in part has the
// rest counted as Claude Code measures a subagent's index (countTail).
func readRegularTail(p string, max int64, tail bool) (fileData, error) {
	f, fi, err := openRead(p, noFollow)
	if err != nil {
		return fileData{}, err
	}
	defer f.Close()
	fd := fileData{size: fi.Size(), mod: fi.ModTime(), perm: uint32(fi.Mode().Perm()), nlink: nlinkOf(fi)}
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
	if tail && fd.truncated {
		fd.tail = countTail(fd.content, f)
	}
	return fd, nil
}
