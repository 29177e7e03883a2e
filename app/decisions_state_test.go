package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// TestDecisionsThatCannotBeReadAreSetAside: a decisions record cut short
// is moved aside (not under --readonly, which moves nothing) with a note
// naming where, and the next dismissal is recorded; a newer memtui's
// record is neither read nor replaced.
func TestDecisionsThatCannotBeReadAreSetAside(t *testing.T) {
	seen := t.TempDir()
	dir := "/home/u/.claude/projects/p/memory"
	var notes strings.Builder
	w := &Workspace{State: memfs.StateDirs{Seen: seen}, notes: &notes, ReadOnly: true}
	if err := memfs.SaveDecisions(seen, dir, map[string]model.Decision{"p": {Title: "t"}}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(seen)
	path := filepath.Join(seen, ents[0].Name())
	cut := []byte(`{"version":1,"dir":"` + dir + `","decisions":{"p":{"ti`)
	os.WriteFile(path, cut, 0o600)
	if _, err := w.Decisions(dir); !errors.Is(err, memfs.ErrCorruptState) {
		t.Fatalf("readonly: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(cut) {
		t.Fatal("--readonly moved or changed the record")
	}
	w.ReadOnly = false
	ds, err := w.Decisions(dir)
	if err != nil || len(ds) != 0 {
		t.Fatalf("decisions: %v, %v", ds, err)
	}
	aside := path + ".unreadable-"
	if !strings.Contains(notes.String(), "moved aside to "+aside) {
		t.Fatalf("note: %q", notes.String())
	}
	after, _ := os.ReadDir(seen)
	if len(after) != 1 || !strings.HasPrefix(filepath.Join(seen, after[0].Name()), aside) {
		t.Fatalf("files: %v", after)
	}
	if b, _ := os.ReadFile(filepath.Join(seen, after[0].Name())); string(b) != string(cut) {
		t.Fatal("the record set aside is not the one that was there")
	}
	if err := w.SaveDecisions(dir, map[string]model.Decision{"q": {Title: "u"}}); err != nil {
		t.Fatal(err)
	}
	// A newer memtui's record: an error, and kept.
	newer := []byte(`{"version":2,"dir":"` + dir + `"}`)
	os.WriteFile(path, newer, 0o600)
	if _, err := w.Decisions(dir); !errors.Is(err, memfs.ErrNewerFormat) {
		t.Fatalf("newer: %v", err)
	}
	if err := w.SaveDecisions(dir, nil); !errors.Is(err, memfs.ErrNewerFormat) {
		t.Fatalf("save over newer: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(newer) {
		t.Fatal("the newer record changed")
	}
}
