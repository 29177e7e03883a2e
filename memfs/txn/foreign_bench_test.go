//go:build unix

package txn

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtui/memtui/model"
)

// BenchmarkApplyUpdate applies a one-file update (MEMORY.md, 2 KB), to
// a Claude Code memory dir (its .consolidate-lock taken and put back, the
// temp file beside MEMORY.md) and to a foreign store (no lock file, the
// temp file in the temp dir, the busy check, here free, before the
// proposal and the swap): each run its locks, journal entry, fsyncs and
// checks.
func BenchmarkApplyUpdate(b *testing.B) {
	for _, foreign := range []bool{false, true} {
		name := "claude"
		if foreign {
			name = "foreign"
		}
		b.Run(name, func(b *testing.B) {
			base := b.TempDir()
			dir := filepath.Join(base, "memories")
			texts := [2]string{}
			for i := range texts {
				for len(texts[i]) < 2048 {
					texts[i] += "- a memory line of version " + string(rune('a'+i)) + "\n"
				}
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(texts[0]), 0o644); err != nil {
				b.Fatal(err)
			}
			opts := ApplyOptions{JournalRoot: filepath.Join(base, "state", "journal")}
			if foreign {
				opts.Foreign = &ForeignStore{Agent: "Codex", TempDir: filepath.Join(base, ".memtui-tmp"), Busy: func() string { return "" }}
			}
			ctx := context.Background()
			i := 0
			for b.Loop() {
				p := prop("bench", model.Change{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: sumHex([]byte(texts[i%2])), After: texts[(i+1)%2]})
				if r := Apply(ctx, dir, []model.Proposal{p}, opts); r[0].Status != StatusApplied {
					b.Fatalf("%+v", r[0])
				}
				i++
			}
		})
	}
}
