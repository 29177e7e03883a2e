//go:build unix

package txn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// What an agent (or anything else running as the user) can put where
// memtui expects a plain file, and what memtui must do about each: return
// promptly, read nothing unbounded, follow no link out, say what it found.
// The write path's side of memfs's saferead_test.go; the hostile files
// and ReturnsIn are internal/testfs's, the journal fixtures this package's.

// journalEntry writes a committed journal entry by hand, as Apply leaves
// one: a manifest, and a before-image per update.
func journalEntry(t *testing.T, root, id, memDir string, files ...JournalFile) {
	t.Helper()
	m := JournalEntry{Version: 1, ID: id, ProposalID: "p-" + id, Kind: "fix", Title: "t", MemoryDir: memDir, RealDir: memDir,
		Time: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), State: JournalCommitted, Files: files}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, filepath.Join(root, id, manifestName), string(b))
}

// update is a journaled update of rel from before to after, whose
// before-image is written as before/<n>.
func update(t *testing.T, root, id string, n int, rel, before, after string) JournalFile {
	img := "before/" + fmt.Sprint(n)
	testfs.Write(t, filepath.Join(root, id, img), before)
	return JournalFile{Path: rel, Op: string(model.OpUpdate), Before: sumHex([]byte(before)), After: sumHex([]byte(after)), Mode: 0o644, State: "applied", Image: img}
}

// dump is everything a log holds, for "this string is nowhere" checks.
func dump(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%s %+v", b, v)
}

// TestJournalImagesAndManifestsHostile: memtui's own journal files
// replaced by a FIFO or links: undo --list (List) and undo return
// promptly, the image is not used, and nothing of the outside file is
// read. (memfs/transcript's test of the same name has the transcript
// read.)
func TestJournalImagesAndManifestsHostile(t *testing.T) {
	tmp := t.TempDir()
	outside := testfs.Write(t, filepath.Join(tmp, "outside"), testfs.OutsideSecret+"\n")
	for _, c := range testfs.Hostiles(outside) {
		t.Run(c.Name, func(t *testing.T) {
			base := t.TempDir()
			mem, root := testfs.Mkdir(t, filepath.Join(base, "memory")), filepath.Join(base, "journal")
			testfs.Write(t, filepath.Join(mem, "a.md"), "alpha2\n")
			id := "20261101T100000.000000000Z-cccccccc"
			journalEntry(t, root, id, mem, update(t, root, id, 0, "a.md", "alpha\n", "alpha2\n"))
			c.Put(t, filepath.Join(root, id, "before", "0"))
			// A second entry whose manifest itself is the hostile file.
			bad := "20261102T100000.000000000Z-dddddddd"
			testfs.Mkdir(t, filepath.Join(root, bad))
			c.Put(t, filepath.Join(root, bad, manifestName))

			var ents []JournalEntry
			var err error
			testfs.ReturnsIn(t, "List", func() { ents, err = List(root) })
			if err != nil || len(ents) != 1 || ents[0].ID != id {
				t.Errorf("List = %+v, %v; want only the readable entry", ents, err)
			}
			var r ApplyResult
			testfs.ReturnsIn(t, "Undo", func() { r = Undo(context.Background(), id, ApplyOptions{JournalRoot: root}) })
			if r.Err == nil || !strings.Contains(r.Err.Error(), c.Says) {
				t.Errorf("Undo with a %s before-image: %+v", c.Name, r)
			}
			if b, _ := os.ReadFile(filepath.Join(mem, "a.md")); string(b) != "alpha2\n" {
				t.Errorf("undo changed a.md to %q", b)
			}
			testfs.ReturnsIn(t, "Undo of the bad entry", func() { r = Undo(context.Background(), bad, ApplyOptions{JournalRoot: root}) })
			if r.Err == nil || !strings.Contains(r.Err.Error(), c.Says) {
				t.Errorf("Undo with a %s manifest: %+v", c.Name, r)
			}
			if strings.Contains(dump(ents)+dump(r), testfs.OutsideSecret) {
				t.Error("the outside file was read")
			}
		})
	}
}
