//go:build unix

package txn

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtui/memtui/model"
)

// BenchmarkApplyAndUndo applies a five-file proposal (two updates, a
// create, a delete, a move into a new folder) and undoes it: two
// transactions, each with its locks, journal, fsyncs and checks.
func BenchmarkApplyAndUndo(b *testing.B) {
	base := b.TempDir()
	dir := filepath.Join(base, "memory")
	files := map[string]string{"MEMORY.md": "- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n", "a.md": "alpha\n", "b.md": "beta\n", "c.md": "gamma\n"}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	p := model.Proposal{ID: "bench", Kind: model.KindMerge, Title: "bench", Changes: []model.Change{
		{Path: "a.md", Op: model.OpUpdate, BaseSHA256: sumHex([]byte("alpha\n")), After: "alpha and beta\n"},
		{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: sumHex([]byte(files["MEMORY.md"])), After: "- [a](a.md)\n- [n](n.md)\n"},
		{Path: "n.md", Op: model.OpCreate, After: "new\n"},
		{Path: "b.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("beta\n"))},
		{Path: ".archive/c.md", From: "c.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("gamma\n"))},
	}}
	opts := ApplyOptions{JournalRoot: filepath.Join(base, "state", "journal")}
	ctx := context.Background()
	for b.Loop() {
		r := Apply(ctx, dir, []model.Proposal{p}, opts)
		if r[0].Status != StatusApplied {
			b.Fatalf("%+v", r[0])
		}
		if u := Undo(ctx, r[0].JournalID, opts); u.Status != StatusApplied {
			b.Fatalf("%+v", u)
		}
	}
}
