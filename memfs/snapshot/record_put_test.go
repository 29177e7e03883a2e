package snapshot

import (
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
