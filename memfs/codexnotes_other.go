//go:build !unix

package memfs

import "errors"

// MakeCodexNotesDir refuses: memtui writes on Unix only.
func MakeCodexNotesDir(home string) error {
	return errors.New("memtui writes on Unix only")
}
