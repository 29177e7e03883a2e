package memfs

import (
	"os"
	"path/filepath"

	"github.com/memtui/memtui/model/codex"
)

// CodexBusy says why memtui must not write into the store of the Codex
// home now, "" when it may (codex facts §4.4): a consolidation's workspace
// diff on disk means one is running, or crashed. Asked afresh before
// every change a write makes (txn.ForeignStore.Busy), so it looks at the
// disk each time.
func CodexBusy(home string) string {
	root := filepath.Join(home, CodexMemoriesDir)
	if _, err := os.Lstat(filepath.Join(root, codex.DiffFile)); err == nil {
		return codex.DiffFile + " is there: a Codex consolidation is running, or one crashed"
	}
	return ""
}
