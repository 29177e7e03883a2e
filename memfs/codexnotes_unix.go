//go:build unix

package memfs

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/memtui/memtui/model/codex"
)

// MakeCodexNotesDir makes the folders of Codex's notes channel
// (memories/extensions/ad_hoc/notes) that are missing in the store of the
// Codex home, as Codex's own add_ad_hoc_note tool does before it writes
// the first note (codex facts §1.3.6): each folder opened from the one
// above without following a link (a link on the way is refused, as the
// tool refuses one), the ones missing made 0755. Empty folders never
// enter Codex's consolidation diff, which compares files (§4.3).
func MakeCodexNotesDir(home string) error {
	root := filepath.Join(home, CodexMemoriesDir)
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", root, err)
	}
	at := root
	for _, c := range strings.Split(strings.TrimSuffix(codex.NotesDir, "/"), "/") {
		at = filepath.Join(at, c)
		if err := unix.Mkdirat(fd, c, 0o755); err != nil && err != unix.EEXIST {
			unix.Close(fd)
			return fmt.Errorf("%s: %w", at, err)
		}
		nfd, err := unix.Openat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("%s is not a folder memtui writes into (a link, or a file): %w", at, err)
		}
		fd = nfd
	}
	return unix.Close(fd)
}
