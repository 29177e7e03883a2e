//go:build unix

package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/codexdb"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// writableCodex opens a workspace that may write, over one Codex home.
func writableCodex(t *testing.T) (*Workspace, string) {
	t.Helper()
	home, _ := agentsHome(t)
	cx := filepath.Join(home, ".codex")
	ws, err := Open(context.Background(), Options{Agent: AgentCodex, NoTranscripts: true,
		Getenv: func(k string) string {
			return map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(t.TempDir(), "state")}[k]
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	real, _ := filepath.EvalSymlinks(cx)
	return ws, real
}

// names lists every path under dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func update(path, before, after string) model.Proposal {
	return model.Proposal{ID: "p-" + path, Kind: model.KindAbsolutizeDates, Title: "edit " + path,
		Changes: []model.Change{{Path: path, Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(before)), After: after}}}
}

// TestApplyCodex: an edit of the handbook is written into Codex's store
// with nothing else appearing there (memtui's temp files beside
// memories/, no lock file), journaled and listed with the Codex store in
// view, and undone; a change to a file Codex rebuilds, a summary without
// its v1 line, a write while Codex consolidates and one under --readonly
// are refused with nothing written.
func TestApplyCodex(t *testing.T) {
	ws, home := writableCodex(t)
	root := filepath.Join(home, "memories")
	hbPath := filepath.Join(root, codex.HandbookFile)
	hb, _ := os.ReadFile(hbPath)
	before := names(t, root)
	edited := string(hb) + "\n## Reusable knowledge\n- Releases go out on Tuesdays.\n"
	res := ws.ApplyCodex(context.Background(), root, []model.Proposal{update(codex.HandbookFile, string(hb), edited)}, txn.ApplyOptions{})
	if len(res) != 1 || res[0].Status != txn.StatusApplied {
		t.Fatalf("apply: %+v", res)
	}
	if got, _ := os.ReadFile(hbPath); string(got) != edited {
		t.Errorf("MEMORY.md not written: %q", got)
	}
	if got := names(t, root); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Errorf("names under memories/ changed: %q, was %q", got, before)
	}
	if _, err := os.Stat(CodexTempDir(home)); err != nil {
		t.Errorf("memtui's temp dir beside memories/: %v", err)
	}
	es, err := ws.Journal()
	if err != nil || len(es) != 1 || es[0].MemoryDir != root {
		t.Fatalf("the journal in view: %+v, %v", es, err)
	}
	if r, err := ws.Undo(context.Background(), es[0], txn.ApplyOptions{}); err != nil || r.Status != txn.StatusApplied {
		t.Fatalf("undo: %+v, %v", r, err)
	}
	if got, _ := os.ReadFile(hbPath); string(got) != string(hb) {
		t.Errorf("the undo did not put MEMORY.md back: %q", got)
	}

	raw := "# Raw Memories\n\nNo raw memories yet.\n"
	testfs.Write(t, filepath.Join(root, codex.RawFile), raw)
	sum, _ := os.ReadFile(filepath.Join(root, codex.SummaryFile))
	for _, c := range []struct {
		name string
		p    model.Proposal
		want string
	}{
		{"raw memories", update(codex.RawFile, raw, raw+"- mine\n"), "Codex rewrites this file from its database"},
		{"summary without v1", update(codex.SummaryFile, string(sum), "## User Profile\n"), "must begin with the line v1"},
		{".git", model.Proposal{ID: "g", Changes: []model.Change{{Path: ".git/HEAD", Op: model.OpCreate, After: "x"}}}, "never touches .git"},
	} {
		res := ws.ApplyCodex(context.Background(), root, []model.Proposal{c.p}, txn.ApplyOptions{})
		if res[0].Status != txn.StatusFailed || res[0].Err == nil || !strings.Contains(res[0].Err.Error(), c.want) {
			t.Errorf("%s: %+v, want a refusal saying %q", c.name, res[0], c.want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(root, codex.RawFile)); string(got) != raw {
		t.Errorf("raw_memories.md changed: %q", got)
	}

	// Codex consolidating: its workspace diff is on disk.
	testfs.Write(t, filepath.Join(root, codex.DiffFile), "# Memory Workspace Diff\n")
	res = ws.ApplyCodex(context.Background(), root, []model.Proposal{update(codex.HandbookFile, string(hb), edited)}, txn.ApplyOptions{})
	var busy *txn.BusyError
	if res[0].Status == txn.StatusApplied || !errors.As(res[0].Err, &busy) {
		t.Errorf("a write while Codex consolidates: %+v", res[0])
	}
	if got, _ := os.ReadFile(hbPath); string(got) != string(hb) {
		t.Errorf("MEMORY.md written while Codex consolidates")
	}
	os.Remove(filepath.Join(root, codex.DiffFile))
	ws.ReadOnly = true
	if res := ws.ApplyCodex(context.Background(), root, []model.Proposal{update(codex.HandbookFile, string(hb), edited)}, txn.ApplyOptions{}); res[0].Status != txn.StatusFailed {
		t.Errorf("--readonly: %+v", res[0])
	}
}

// TestApplyCodexRefusedUnderLease: a consolidation holding its lease in
// Codex's database (status running, lease_until ahead) makes the store
// read-only: the write is refused, naming the holder, nothing written;
// once the lease has run out the same write goes through.
func TestApplyCodexRefusedUnderLease(t *testing.T) {
	ws, home := writableCodex(t)
	root := filepath.Join(home, "memories")
	hbPath := filepath.Join(root, codex.HandbookFile)
	hb, _ := os.ReadFile(hbPath)
	edited := string(hb) + "- Releases go out on Tuesdays.\n"
	lease := func(until time.Time) {
		os.Remove(filepath.Join(home, "memories_1.sqlite"))
		os.Remove(filepath.Join(home, "state_5.sqlite"))
		if err := codexdb.Write(home, codexdb.Fixture{Jobs: []codexdb.Job{{Kind: "memory_consolidate_global", Key: "global", Status: "running",
			WorkerID: "0196a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b", Started: time.Now().Add(-time.Minute), LeaseUntil: until}}}); err != nil {
			t.Fatal(err)
		}
	}
	lease(time.Now().Add(time.Hour))
	res := ws.ApplyCodex(context.Background(), root, []model.Proposal{update(codex.HandbookFile, string(hb), edited)}, txn.ApplyOptions{})
	var busy *txn.BusyError
	if res[0].Status == txn.StatusApplied || !errors.As(res[0].Err, &busy) || !strings.Contains(busy.Reason, "thread 0196a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b") {
		t.Fatalf("a write under the lease: %+v", res[0])
	}
	if got, _ := os.ReadFile(hbPath); string(got) != string(hb) {
		t.Errorf("MEMORY.md written under the lease")
	}
	lease(time.Now().Add(-time.Minute)) // its worker died: the lease ran out
	if res := ws.ApplyCodex(context.Background(), root, []model.Proposal{update(codex.HandbookFile, string(hb), edited)}, txn.ApplyOptions{}); res[0].Status != txn.StatusApplied {
		t.Errorf("a write after the lease ran out: %+v", res[0])
	}
}

// TestSnapshotCoversCodex: a snapshot records Codex's store too (its
// markdown files, never .git), so what a consolidation changes can be
// compared later; a change there is recorded by the next one.
func TestSnapshotCoversCodex(t *testing.T) {
	ws, home := writableCodex(t)
	root := filepath.Join(home, "memories")
	testfs.Write(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	if _, err := ws.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	snap, ok, err := ws.Snapshots().Latest(root)
	if err != nil || !ok {
		t.Fatalf("no snapshot of Codex's store: %v", err)
	}
	if _, ok := snap.Files[codex.HandbookFile]; !ok {
		t.Errorf("MEMORY.md not recorded: %v", snap.Files)
	}
	for p := range snap.Files {
		if strings.HasPrefix(p, ".git") {
			t.Errorf("%s recorded: .git is Codex's baseline, not memory", p)
		}
	}
	testfs.Write(t, filepath.Join(root, codex.HandbookFile), "# Task Group: rewritten by Codex\n")
	if _, err := ws.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if snaps, err := ws.Snapshots().List(root); err != nil || len(snaps) != 2 {
		t.Errorf("after a change: %d snapshots, %v", len(snaps), err)
	}
}
