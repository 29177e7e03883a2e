package demo

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtui/memtui/internal/codexgit"
)

// CodexBaselineTime is when the demo's Codex store was last consolidated:
// the time of its baseline's commit, just after the summary and
// MEMORY.md were written.
var CodexBaselineTime = time.Date(2026, 11, 19, 11, 11, 0, 0, time.UTC)

// The demo's Codex edits since that consolidation, by hand: in MEMORY.md
// (pending: Codex's next run shows it to its agent) and in a rollout
// summary (lost: Codex rebuilds those from its database first), each as
// the line was and as it is; and the two notes, written after it (not
// yet consolidated).
var codexEdits = []struct{ file, was, is string }{
	{"MEMORY.md", "- Set lock_timeout in every migration.\n", "- Set lock_timeout to 5s in every migration; a blocked ALTER stalls every writer.\n"},
	{"rollout_summaries/2026-11-19T10-12-40-aB3d-migration_locks.md", "- lock_timeout = 3s\n", "- lock_timeout = 5s\n"},
}

// codexNewNotes are the notes added since the consolidation.
var codexNewNotes = []string{
	"extensions/ad_hoc/notes/2026-11-20T08-30-00-use-pgx-not-libpq.md",
	"extensions/ad_hoc/notes/remember pnpm.md",
}

// CodexBaseline writes the git baseline of the demo's Codex store into
// the scratch copy at dir (dir/.codex/memories/.git), as Codex left it at
// its last consolidation (go:embed keeps no .git, and the demo needs no
// git binary): the store as it is, but for the hand edits and notes made
// since. It is for the demo's own scratch copy only.
func CodexBaseline(dir string) error {
	before := map[string][]byte{}
	for _, e := range codexEdits {
		now, err := fs.ReadFile(FS(), ".codex/memories/"+e.file)
		if err != nil {
			return err
		}
		if !strings.Contains(string(now), e.is) {
			return fmt.Errorf("demo: %s no longer holds its hand edit %q", e.file, e.is)
		}
		before[e.file] = []byte(strings.Replace(string(now), e.is, e.was, 1))
	}
	for _, n := range codexNewNotes {
		before[n] = nil
	}
	_, err := codexgit.Write(filepath.Join(dir, ".codex", "memories"), codexgit.Options{Time: CodexBaselineTime, Before: before})
	return err
}
