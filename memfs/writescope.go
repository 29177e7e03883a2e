package memfs

import (
	"fmt"
	"path/filepath"

	"github.com/memtui/memtui/model"
)

// WriteRefusal says why memtui will not write into memory dir d, or nil.
// A directory named only by a repository's own settings (d.Workspace: a
// cloned project's .claude/settings.json can point autoMemoryDirectory
// anywhere, and Claude Code follows it only once the user trusts the
// workspace) is shown but never written, unless the user named it: named
// holds the directories given with --memory-dir. Reading it, and recording
// memtui's own review state about it, stay allowed.
func WriteRefusal(d *model.MemoryDir, named []string) error {
	if d == nil || d.Workspace == "" {
		return nil
	}
	for _, n := range named {
		if a, err := filepath.Abs(n); err == nil && filepath.Clean(a) == filepath.Clean(d.Path) {
			return nil
		}
	}
	return fmt.Errorf("%s: "+
		"this memory dir comes from autoMemoryDirectory in %s, a file of the project itself; Claude Code uses it only once you trust that workspace, so memtui does not write there unless you name it: memtui --memory-dir %s",
		d.Path, d.Workspace, d.Path)
}
