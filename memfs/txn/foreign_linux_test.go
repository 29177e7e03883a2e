//go:build linux

package txn

import (
	"bytes"
	"io/fs"
	"path"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchNames watches every folder of the store dir (.git left out) with
// inotify from now on, and returns what stops the watch and lists every
// name that was created or renamed into one of them meanwhile, however
// briefly it stood there (relative to dir).
func watchNames(t *testing.T, dir string) func() []string {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Logf("no inotify (%v): the store is only looked at between steps", err)
		return func() []string { return nil }
	}
	wds := map[int32]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" {
			return fs.SkipDir
		}
		wd, err := unix.InotifyAddWatch(fd, p, unix.IN_CREATE|unix.IN_MOVED_TO)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		wds[int32(wd)] = filepath.ToSlash(rel)
		return nil
	})
	return func() []string {
		defer unix.Close(fd)
		var out []string
		buf := make([]byte, 1<<16)
		for {
			n, err := unix.Read(fd, buf)
			if err != nil || n <= 0 {
				return out
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
					t.Error("inotify queue overflow: names may have been missed")
				}
				name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				if n := string(bytes.TrimRight(name, "\x00")); n != "" {
					out = append(out, path.Join(wds[ev.Wd], n))
				}
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}
