//go:build linux

package memfs

import (
	"io"
	"io/fs"
	"syscall"
	"time"
)

// readChunk reads jobs, which all live in one directory: the directory is
// opened once (refusing a symlink swapped in since the walk) and each file
// relative to it.
func readChunk(jobs []readJob, caps readCaps) {
	dir := jobs[0].dir
	if testHookBeforeRead != nil {
		testHookBeforeRead(dir)
	}
	dfd, err := openRetry(atFDCWD, dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC)
	if err != nil {
		perr := &fs.PathError{Op: "open", Path: dir, Err: err}
		for i := range jobs {
			beforeRead(&jobs[i])
			jobs[i].record(fileData{}, perr, caps.of(&jobs[i]))
		}
		return
	}
	defer syscall.Close(dfd)
	for i := range jobs {
		j := &jobs[i]
		beforeRead(j)
		max := caps.of(j)
		fd, err := readRegularAt(dfd, j.name, max, j.countTail)
		j.record(fd, err, max)
	}
}

// readRegular reads up to max bytes of the regular file at p.
func readRegular(p string, max int64) (fileData, error) {
	return readRegularAt(atFDCWD, p, max, false)
}

// readRegularAt reads up to max bytes of the regular file name in the
// directory dirfd with raw system calls: openat, fstat, one read, close.
// os.Open would add an epoll registration attempt per file, and os.ReadFile
// a second read to see EOF; on 20,000 small files those extra calls are most
// of the difference between memtui and cat (DESIGN §7). O_NONBLOCK keeps a
// FIFO from blocking the open, O_NOFOLLOW refuses a symlink swapped in since
// the walk. With tail, a file read in part has the rest counted as
// Claude Code measures a subagent's index (countTail).
func readRegularAt(dirfd int, name string, max int64, tail bool) (fileData, error) {
	fd, err := openRetry(dirfd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK)
	if err != nil {
		return fileData{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fileData{}, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fileData{}, &fs.PathError{Op: "open", Path: name, Err: errNotRegular}
	}
	out := fileData{
		size:  st.Size,
		mod:   time.Unix(st.Mtim.Unix()),
		perm:  st.Mode & 0o777,
		nlink: uint64(st.Nlink),
	}
	want := st.Size
	if want > max {
		want = max
		out.truncated = true
	}
	if want <= 0 {
		return out, nil
	}
	buf := make([]byte, want)
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fileData{}, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if m == 0 {
			break // the file shrank since fstat: keep what is there
		}
		n += m
	}
	out.content = buf[:n]
	if tail && out.truncated {
		out.tail = countTail(out.content, rawFD(fd))
	}
	return out, nil
}

// rawFD reads a descriptor with read(2), from its current offset.
type rawFD int

func (r rawFD) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(r), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// atFDCWD is AT_FDCWD, which package syscall does not export on Linux: the
// same value on every Linux architecture.
const atFDCWD = -100

func openRetry(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
