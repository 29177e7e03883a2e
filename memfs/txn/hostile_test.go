//go:build unix

package txn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// What an agent (or anything else running as the user) can put where
// memtui expects a plain file, and what memtui must do about each: return
// promptly, read nothing unbounded, follow no link out, say what it found.
// The write path's side of memfs's saferead_test.go (whose hostile files
// and returnsIn are copied here, with the journal fixtures that test had).

// outsideSecret is written to files outside every directory memtui reads;
// it must never show up in anything memtui returns.
const outsideSecret = "OUTSIDE-b7c1e0-never-read"

// hostile is one thing put in place of a file.
type hostile struct {
	name string
	put  func(t *testing.T, path string)
	// says is what the problem or error must say about it.
	says string
}

func hostiles(outside string) []hostile {
	return []hostile{
		{"fifo", func(t *testing.T, p string) { mkfifo(t, p) }, "named pipe"},
		{"link to /dev/zero", func(t *testing.T, p string) { os.Remove(p); symlink(t, "/dev/zero", p) }, "symlink"},
		{"link outside", func(t *testing.T, p string) { os.Remove(p); symlink(t, outside, p) }, "symlink"},
		{"3 GiB sparse file", func(t *testing.T, p string) { sparse(t, p, 3<<30) }, "3 GiB, more than"},
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sparse makes p a file of size bytes that occupies almost no disk.
func sparse(t *testing.T, p string, size int64) {
	t.Helper()
	os.Remove(p)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		t.Skipf("this file system cannot make a %d-byte sparse file: %v", size, err)
	}
	f.Close()
}

// returnsIn runs f and fails the test if it has not returned after a generous
// while: a read that blocks on a FIFO or streams /dev/zero never returns.
func returnsIn(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not return (a read that blocks or never ends)", what)
	}
}

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
	write(t, filepath.Join(root, id, manifestName), string(b))
}

// update is a journaled update of rel from before to after, whose
// before-image is written as before/<n>.
func update(t *testing.T, root, id string, n int, rel, before, after string) JournalFile {
	img := "before/" + fmt.Sprint(n)
	write(t, filepath.Join(root, id, img), before)
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
	outside := write(t, filepath.Join(tmp, "outside"), outsideSecret+"\n")
	for _, c := range hostiles(outside) {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			mem, root := mkdir(t, filepath.Join(base, "memory")), filepath.Join(base, "journal")
			write(t, filepath.Join(mem, "a.md"), "alpha2\n")
			id := "20261101T100000.000000000Z-cccccccc"
			journalEntry(t, root, id, mem, update(t, root, id, 0, "a.md", "alpha\n", "alpha2\n"))
			c.put(t, filepath.Join(root, id, "before", "0"))
			// A second entry whose manifest itself is the hostile file.
			bad := "20261102T100000.000000000Z-dddddddd"
			mkdir(t, filepath.Join(root, bad))
			c.put(t, filepath.Join(root, bad, manifestName))

			var ents []JournalEntry
			var err error
			returnsIn(t, "List", func() { ents, err = List(root) })
			if err != nil || len(ents) != 1 || ents[0].ID != id {
				t.Errorf("List = %+v, %v; want only the readable entry", ents, err)
			}
			var r ApplyResult
			returnsIn(t, "Undo", func() { r = Undo(context.Background(), id, ApplyOptions{JournalRoot: root}) })
			if r.Err == nil || !strings.Contains(r.Err.Error(), c.says) {
				t.Errorf("Undo with a %s before-image: %+v", c.name, r)
			}
			if b, _ := os.ReadFile(filepath.Join(mem, "a.md")); string(b) != "alpha2\n" {
				t.Errorf("undo changed a.md to %q", b)
			}
			returnsIn(t, "Undo of the bad entry", func() { r = Undo(context.Background(), bad, ApplyOptions{JournalRoot: root}) })
			if r.Err == nil || !strings.Contains(r.Err.Error(), c.says) {
				t.Errorf("Undo with a %s manifest: %+v", c.name, r)
			}
			if strings.Contains(dump(ents)+dump(r), outsideSecret) {
				t.Error("the outside file was read")
			}
		})
	}
}
