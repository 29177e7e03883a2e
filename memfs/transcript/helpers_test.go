package transcript

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// Test helpers of this package's tests: session ids, and the journal
// world TestJournalWrites and its neighbours apply real proposals in
// (through txn.Apply, as memtui does). The fixture writers are
// internal/testfs's.

const (
	uuid1 = "0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20"
	uuid2 = "1c1f8b9f-4d2e-4a68-8b74-3a5f8d0e2b31"
	uuid3 = "2d209ca0-5e3f-4b79-9c85-4b6a9e1f3c42"
)

// applyWorld is a memory dir and a journal root in a temp dir.
type applyWorld struct {
	dir, journal string
}

func newApplyWorld(t *testing.T, files map[string]string) *applyWorld {
	t.Helper()
	dir, journal := testfs.MemoryAndJournal(t, files)
	return &applyWorld{dir: dir, journal: journal}
}

func (w *applyWorld) opts() txn.ApplyOptions {
	return txn.ApplyOptions{JournalRoot: w.journal}
}

func sumHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func upd(path, before, after string) model.Change {
	return model.Change{Path: path, Op: model.OpUpdate, BaseSHA256: sumHex([]byte(before)), After: after}
}

func prop(id string, cs ...model.Change) model.Proposal {
	return model.Proposal{ID: id, Kind: model.KindReindex, Title: "test " + id, Changes: cs}
}

func applyOne(t *testing.T, w *applyWorld, p model.Proposal, opts txn.ApplyOptions) txn.ApplyResult {
	t.Helper()
	rs := txn.Apply(context.Background(), w.dir, []model.Proposal{p}, opts)
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	return rs[0]
}
