//go:build unix

package snapshot

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
)

// TestRecordFormats: a record as the first snapshot store wrote it
// (commit a18e290, format 1, written here by hand) is read with all it
// holds; a trim moves a record nothing can read aside, under unreadable/,
// and says where, and leaves a later memtui's record as it was, bytes and
// mtime.
func TestRecordFormats(t *testing.T) {
	d := memDir(t, map[string]string{"a.md": "alpha\n"})
	s := newStore(t)
	dir := filepath.Clean(d.Path)
	key := dirKey(dir)
	recs := filepath.Join(s.Root, recordsDir, key)
	sum := sumBytes([]byte("alpha\n"))
	testfs.Write(t, filepath.Join(s.Root, blobsDir, sum[:2], sum), "alpha\n")
	at := func(d time.Duration) int64 { return t0.Add(d).UnixNano() }
	v1 := fmt.Sprintf(`{"v":1,"dir_sha256":"%s","dir":"~/memory","time":%d,"lock":true,"lock_mtime":{"s":1763715600,"ns":5},"lock_pid":4242,`+
		`"files":[{"path":"a.md","size":6,"mtime":{"s":1763715000},"inode":77,"sha256":"%s"},{"path":"big.md","size":9000000,"mtime":{"s":1763715001},"missing":true}]}`,
		sumHex(dir), at(0), sum)
	testfs.Write(t, filepath.Join(recs, recordName(at(0))), v1)
	snaps := list(t, s, d)
	if len(snaps) != 1 {
		t.Fatalf("%d snapshots; want the format-1 record", len(snaps))
	}
	sn := snaps[0]
	if !sn.Time.Equal(t0) || sn.LockPID != 4242 || sn.LockMtime.Unix() != 1763715600 || len(sn.Files) != 2 ||
		sn.Files["a.md"].SHA256 != sum || sn.Files["a.md"].Inode != 77 || !sn.Files["big.md"].Missing || sn.Files["big.md"].Size != 9000000 {
		t.Fatalf("the format-1 record read as %+v", sn)
	}
	if b, err := s.Text(sum); err != nil || string(b) != "alpha\n" {
		t.Fatalf("its text: %q, %v", b, err)
	}

	// Within the retention: a record cut short, and a later memtui's.
	cut := recordName(at(time.Minute))
	testfs.Write(t, filepath.Join(recs, cut), v1[:len(v1)/2])
	newer := filepath.Join(recs, recordName(at(2*time.Minute)))
	body := []byte(`{"v":2,"dir_sha256":"` + sumHex(dir) + `","snapshot":{"files":"elsewhere"}}`)
	testfs.Write(t, newer, string(body))
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(newer, old, old)
	// A change, so the take writes and trims; the store over its bound,
	// so the trim reads every record (the later memtui's record then
	// keeps every other: what it names is not known).
	testfs.Write(t, filepath.Join(d.Path, "a.md"), "alpha 2\n")
	s.MaxBytes = 1
	res := take(t, s, t0.Add(time.Hour), d)
	want := filepath.Join(s.Root, unreadableDir, key, cut)
	if len(res.Aside) != 1 || res.Aside[0] != want {
		t.Fatalf("set aside %q; want %s", res.Aside, want)
	}
	if b, err := os.ReadFile(want); err != nil || string(b) != v1[:len(v1)/2] {
		t.Fatalf("the record cut short was not kept as it was: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(recs, cut)); err == nil {
		t.Error("the record cut short is still among the records")
	}
	b, err := os.ReadFile(newer)
	fi, _ := os.Stat(newer)
	if err != nil || !bytes.Equal(b, body) || !fi.ModTime().Equal(old) {
		t.Fatalf("the later memtui's record changed or went: %v", err)
	}
	if n := len(list(t, s, d)); n != 2 {
		t.Errorf("%d snapshots after the take; want the format-1 record and the new one", n)
	}
	// A second trim leaves what was set aside alone.
	testfs.Write(t, filepath.Join(d.Path, "a.md"), "alpha 3\n")
	if res := take(t, s, t0.Add(2*time.Hour), d); len(res.Aside) != 0 {
		t.Errorf("second take set aside %q", res.Aside)
	}
	if _, err := os.Stat(want); err != nil {
		t.Error(err)
	}
}
