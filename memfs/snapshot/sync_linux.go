//go:build linux

package snapshot

import (
	"golang.org/x/sys/unix"

	"github.com/memtui/memtui/memfs"
)

// batchSync: on Linux the texts of a take are written unsynced and made
// durable together by one syncfs(2) before any record names them; a sync
// per text costs a first take of thousands of files seconds.
const batchSync = true

// syncFS flushes the file system holding dir (syncfs(2)): every text
// written, and every name made, under it.
func syncFS(dir string) error {
	f, err := memfs.OpenDir(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
