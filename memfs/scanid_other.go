//go:build !unix

package memfs

import (
	"io/fs"
	"path/filepath"
)

// followDirLinks: on Windows Claude Code lists the memory dir with a
// recursive readdir, which does not enter linked folders (facts 4.1).
const followDirLinks = false

// fileKeyOf is the folder's resolved path: the system gives no inode here.
func fileKeyOf(_ fs.FileInfo, p string) fileKey {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return fileKey{path: p}
}

// nlinkOf is 1: the link count is not known here.
func nlinkOf(fs.FileInfo) uint64 { return 1 }
