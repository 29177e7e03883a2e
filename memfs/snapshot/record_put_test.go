package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// TestPutRecordsAMadeSnapshot: a snapshot made elsewhere (the demo's) is
// recorded with its texts, a secret kept redacted; a second Put into a
// dir with records is refused, leaving the first as it was.
func TestPutRecordsAMadeSnapshot(t *testing.T) {
	s := newStore(t)
	at := time.Date(2026, 11, 15, 20, 0, 0, 0, time.UTC)
	snap := model.Snapshot{Dir: "/cfg/projects/p/memory", Time: at, LockMtime: at.Add(-time.Hour), LockPID: 7,
		Files: map[string]model.SnapFile{"a.md": {}, "b.md": {}, "c.md": {SHA256: strings.Repeat("ab", 32), Size: 3}}}
	texts := map[string][]byte{"a.md": []byte("alpha\n"), "b.md": []byte("key " + token(1) + "\n")}
	if err := s.Put(snap, texts); err != nil {
		t.Fatal(err)
	}
	got, err := s.List(snap.Dir)
	if err != nil || len(got) != 1 || !got[0].Time.Equal(at) || got[0].LockPID != 7 || !got[0].LockMtime.Equal(at.Add(-time.Hour)) {
		t.Fatalf("%+v %v", got, err)
	}
	a := got[0].Files["a.md"]
	if b, err := s.Text(a.SHA256); err != nil || string(b) != "alpha\n" || a.Redacted {
		t.Errorf("a.md: %+v %q %v", a, b, err)
	}
	if b := got[0].Files["b.md"]; !b.Redacted {
		t.Errorf("b.md holds a secret and is not kept redacted: %+v", b)
	}
	if c := got[0].Files["c.md"]; c.SHA256 != strings.Repeat("ab", 32) {
		t.Errorf("c.md, given no text, lost its record: %+v", c)
	}
	if err := s.Put(snap, texts); err == nil {
		t.Errorf("a second Put over a dir with records must be refused")
	}
	if again, _ := s.List(snap.Dir); len(again) != 1 {
		t.Errorf("records: %d", len(again))
	}
}

// TestRecordCacheReadsEachRecordOnce: through a RecordCache, List reads a
// record once (garbage written over it later is not read again: records
// never change), reads the records written since, and forgets those
// gone from the folder.
func TestRecordCacheReadsEachRecordOnce(t *testing.T) {
	s := newStore(t)
	s.Records = &RecordCache{}
	dir := "/cfg/projects/p/memory"
	at := time.Date(2026, 11, 15, 20, 0, 0, 0, time.UTC)
	if err := s.Put(model.Snapshot{Dir: dir, Time: at, Files: map[string]model.SnapFile{"a.md": {}}}, map[string][]byte{"a.md": []byte("alpha\n")}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.List(dir); err != nil || len(got) != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	recs := filepath.Join(s.Root, recordsDir, dirKey(dir))
	names, _ := os.ReadDir(recs)
	if len(names) != 1 {
		t.Fatalf("records: %v", names)
	}
	first := filepath.Join(recs, names[0].Name())
	if err := os.WriteFile(first, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.List(dir); len(got) != 1 || !got[0].Time.Equal(at) {
		t.Errorf("the cached record was read again: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(recs, recordName(at.Add(time.Hour).UnixNano())), mustRecord(t, s, dir, at.Add(time.Hour)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.List(dir); len(got) != 2 {
		t.Errorf("a record written since is not read: %d", len(got))
	}
	os.Remove(first)
	if got, _ := s.List(dir); len(got) != 1 || !got[0].Time.Equal(at.Add(time.Hour)) {
		t.Errorf("a record gone from the folder is still listed: %+v", got)
	}
}

func mustRecord(t *testing.T, s *Store, dir string, at time.Time) []byte {
	t.Helper()
	b, err := encodeRecord(&model.Snapshot{Dir: dir, Time: at, Files: map[string]model.SnapFile{}}, s.redactString(dir))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecordCacheKeepsTexts: through a RecordCache, a text is read from
// the store once (a text kept under a hash never changes).
func TestRecordCacheKeepsTexts(t *testing.T) {
	s := newStore(t)
	s.Records = &RecordCache{}
	at := time.Date(2026, 11, 15, 20, 0, 0, 0, time.UTC)
	dir := "/cfg/projects/p/memory"
	if err := s.Put(model.Snapshot{Dir: dir, Time: at, Files: map[string]model.SnapFile{"a.md": {}}}, map[string][]byte{"a.md": []byte("alpha\n")}); err != nil {
		t.Fatal(err)
	}
	got, _ := s.List(dir)
	sum := got[0].Files["a.md"].SHA256
	if b, err := s.Text(sum); err != nil || string(b) != "alpha\n" {
		t.Fatalf("%q %v", b, err)
	}
	if err := os.RemoveAll(filepath.Join(s.Root, blobsDir)); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Text(sum); err != nil || string(b) != "alpha\n" {
		t.Errorf("the text was read again: %q %v", b, err)
	}
	s.Records = nil
	if _, err := s.Text(sum); err == nil {
		t.Error("without the cache the text is gone")
	}
}
