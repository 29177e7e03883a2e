//go:build unix

package txn

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs"
)

// TestJournalEarliestFormatReads: a manifest as the first journal wrote it
// (commit cd294c8: version 1, none of the fields added since, no
// before_mtime_ns, from, made_dirs, linked, notes or foreign_temp_dir) is
// listed and read whole.
func TestJournalEarliestFormatReads(t *testing.T) {
	root := t.TempDir()
	id := "20261121T100000.000000000Z-0a0b0c0d"
	testfs.Write(t, filepath.Join(root, id, manifestName), `{
  "version": 1,
  "id": "`+id+`",
  "proposal_id": "merge-1",
  "kind": "merge",
  "title": "merge a into b",
  "memory_dir": "/m",
  "real_dir": "/m",
  "time": "2026-11-21T10:00:00Z",
  "state": "committed",
  "files": [
    {"path": "a.md", "op": "update", "before_sha256": "aa", "after_sha256": "bb", "mode": 420, "state": "applied", "image": "before/0"},
    {"path": "b.md", "op": "delete", "before_sha256": "cc", "mode": 420, "state": "applied", "image": "before/1"}
  ]
}
`)
	es, err := List(root)
	if err != nil || len(es) != 1 {
		t.Fatalf("list: %v, %v", es, err)
	}
	e := es[0]
	if e.ID != id || e.State != JournalCommitted || e.Title != "merge a into b" || len(e.Files) != 2 ||
		e.Files[1].Op != "delete" || e.Files[1].Image != "before/1" || e.Files[0].Mtime != 0 || e.ForeignTempDir != "" {
		t.Fatalf("the earliest entry read as %+v", e)
	}
	// A manifest without a version is no format memtui wrote: not read,
	// left where it is.
	bare := "20261121T110000.000000000Z-0a0b0c0e"
	p := testfs.Write(t, filepath.Join(root, bare, manifestName), `{"id":"`+bare+`","memory_dir":"/m","real_dir":"/m","state":"committed","files":[]}`)
	if _, err := ReadEntry(root, bare); err == nil || !strings.Contains(err.Error(), "no format version") {
		t.Errorf("a manifest without a version: %v", err)
	}
	if es, _ := List(root); len(es) != 1 {
		t.Errorf("listed %d entries; want the versioned one alone", len(es))
	}
	if _, err := os.Stat(p); err != nil {
		t.Error(err)
	}
}

// TestJournalEntryOfANewerMemtuiIsLeftAlone: an entry a later memtui wrote
// (format 2, its files in a shape this one does not know) is not
// recovered, undone, listed or pruned, and its manifest and pending mark
// stay as they are.
func TestJournalEntryOfANewerMemtuiIsLeftAlone(t *testing.T) {
	root := t.TempDir()
	mem := t.TempDir()
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	entries := map[string]string{
		// A shape today's struct cannot hold: still its version is read.
		"20200101T000000.000000000Z-00000001": `{"version":2,"id":"20200101T000000.000000000Z-00000001","memory_dir":"` + mem + `","real_dir":"` + mem + `","time":"2020-01-01T00:00:00Z","state":"prepared","files":{"a.md":{"steps":[]}}}`,
		// A shape it can hold, but a format it does not read.
		"20200101T000000.000000000Z-00000002": `{"version":2,"id":"20200101T000000.000000000Z-00000002","memory_dir":"` + mem + `","real_dir":"` + mem + `","time":"2020-01-01T00:00:00Z","state":"committed","files":[{"path":"a.md","op":"rewrite","state":"applied"}]}`,
	}
	for id, m := range entries {
		p := testfs.Write(t, filepath.Join(root, id, manifestName), m)
		os.Chtimes(p, old, old)
		testfs.Write(t, filepath.Join(root, pendingDir, id), "")
	}
	check := func(after string) {
		t.Helper()
		for id, m := range entries {
			p := filepath.Join(root, id, manifestName)
			b, err := os.ReadFile(p)
			fi, _ := os.Stat(p)
			if err != nil || !bytes.Equal(b, []byte(m)) || !fi.ModTime().Equal(old) {
				t.Fatalf("after %s: the manifest of %s changed or went: %v", after, id, err)
			}
			if _, err := os.Lstat(filepath.Join(root, pendingDir, id)); err != nil {
				t.Fatalf("after %s: the pending mark of %s went: %v", after, id, err)
			}
		}
	}
	for id := range entries {
		if _, err := ReadEntry(root, id); !errors.Is(err, memfs.ErrNewerFormat) || !strings.Contains(err.Error(), "format 2") {
			t.Errorf("read %s: %v; want ErrNewerFormat", id, err)
		}
	}
	if es, err := List(root); err != nil || len(es) != 0 {
		t.Errorf("list: %+v, %v; want the newer entries left out", es, err)
	}
	rs, err := Recover(root)
	if err != nil || len(rs) != 2 {
		t.Fatalf("recover: %+v, %v", rs, err)
	}
	for _, r := range rs {
		if r.Action != "skipped" || !errors.Is(r.Err, memfs.ErrNewerFormat) {
			t.Errorf("recover %s: %s, %v; want it skipped as a newer memtui's", r.ID, r.Action, r.Err)
		}
	}
	check("a recovery")
	res := Undo(context.Background(), "20200101T000000.000000000Z-00000002", ApplyOptions{JournalRoot: root})
	if !errors.Is(res.Err, memfs.ErrNewerFormat) {
		t.Errorf("undo: %v; want it refused", res.Err)
	}
	check("an undo")
	if _, err := PruneJournal(root, time.Now(), false); err != nil {
		t.Fatal(err)
	}
	check("a prune past their time")
}
