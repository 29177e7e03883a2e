//go:build windows

package memfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/memtui/memtui/model/codex"
)

// MakeCodexNotesDir makes the folders of Codex's notes channel
// (memories/extensions/ad_hoc/notes) that are missing in the store of the
// Codex home, as on Unix (codexnotes_unix.go), by path: the store and
// each folder below it must be a folder itself, no reparse point (symlink,
// junction), checked before the next is made in it.
func MakeCodexNotesDir(home string) error {
	at := filepath.Join(home, CodexMemoriesDir)
	if err := plainDir(at); err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	for _, c := range strings.Split(strings.TrimSuffix(codex.NotesDir, "/"), "/") {
		at = filepath.Join(at, c)
		if err := os.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", at, err)
		}
		if err := plainDir(at); err != nil {
			return fmt.Errorf("%s is not a folder memtui writes into (a link, or a file): %w", at, err)
		}
	}
	return nil
}

// plainDir refuses p unless it is a folder and no reparse point.
func plainDir(p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	d, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	if fi.Mode()&fs.ModeSymlink != 0 || ok && d.FileAttributes&syscall.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		return errors.New("a symlink or junction")
	}
	if !fi.IsDir() {
		return errors.New("not a directory")
	}
	return nil
}
