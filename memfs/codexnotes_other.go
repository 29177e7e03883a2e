//go:build !unix && !windows

package memfs

import "errors"

// MakeCodexNotesDir refuses: memtui writes on Unix and Windows only.
func MakeCodexNotesDir(home string) error {
	return errors.New("memtui writes on Unix and Windows only")
}
