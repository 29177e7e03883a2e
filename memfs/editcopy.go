package memfs

import (
	"os"
	"path/filepath"
)

// maxEditCopyBytes bounds the read of an edited copy back: a memory file
// is kilobytes; a copy an editor grew past this is refused, not read.
const maxEditCopyBytes = 4 << 20

// EditCopy writes content to a new private file outside every memory
// store (the system's temp dir, 0600, in a 0700 folder) named name, for
// a person to edit there with $EDITOR: an editor's swap and backup files
// then land beside the copy, not in a store where an agent would read
// them (Codex takes every file under memories/ into its next diff). The
// caller reads it back with ReadEditCopy and removes it with cleanup.
func EditCopy(name string, content []byte) (path string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "memtui-edit-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(path, content, 0o600); err != nil {
		cleanup()
		return "", nil, err
	}
	return path, cleanup, nil
}

// ReadEditCopy reads back a copy EditCopy made, through the safe reader
// (an editor may have left anything there), bounded.
func ReadEditCopy(path string) ([]byte, error) {
	return ReadRegular(path, maxEditCopyBytes)
}
