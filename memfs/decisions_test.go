package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// TestDecisionsRoundTrip: decisions written for a dir read back the same,
// owner-only; none recorded is an empty map; a record of another dir, a
// link in the file's place or a huge file is refused with an error, and
// an empty set removes the file.
func TestDecisionsRoundTrip(t *testing.T) {
	root := t.TempDir()
	dir := "/home/u/.claude/projects/p/memory"
	if ds, err := LoadDecisions(root, dir); err != nil || len(ds) != 0 {
		t.Fatalf("nothing recorded: %v %v", ds, err)
	}
	want := map[string]model.Decision{
		"merge-0123456789": {Accepted: true, Keep: [][]bool{{true, false}}, Reads: "abc", Kind: model.KindMerge, Title: "Merge a into b", Time: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)},
		"prune-9876543210": {Kind: model.KindPrune, Title: "Prune c"},
	}
	if err := SaveDecisions(root, dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadDecisions(root, dir)
	if err != nil || len(got) != 2 || !got["merge-0123456789"].Accepted || got["merge-0123456789"].Keep[0][1] || got["prune-9876543210"].Accepted {
		t.Fatalf("read back %+v, %v", got, err)
	}
	path := decisionsPath(root, dir)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the record must be owner-only: %v %v", fi.Mode(), err)
	}
	if _, err := LoadDecisions(root, "/elsewhere"); err != nil {
		t.Errorf("another dir has no record: %v", err)
	}
	// A record moved to another dir's name is refused.
	os.Rename(path, decisionsPath(root, "/elsewhere"))
	if _, err := LoadDecisions(root, "/elsewhere"); err == nil || !strings.Contains(err.Error(), "belong to") {
		t.Errorf("a record of another dir: %v", err)
	}
	os.Remove(decisionsPath(root, "/elsewhere"))
	// A link in the record's place is not followed.
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte(`{"version":1}`), 0o600)
	if err := os.Symlink(secret, path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDecisions(root, dir); err == nil {
		t.Error("a symlink in the record's place was read")
	}
	os.Remove(path)
	// A huge record is refused before it is read.
	if err := os.WriteFile(path, make([]byte, maxDecisionsBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDecisions(root, dir); err == nil {
		t.Error("a record over the bound was read")
	}
	// Nor removed by forgetting every decision: it cannot be read, so
	// what it holds is not known (SetAside moves it out of the way).
	if err := SaveDecisions(root, dir, nil); err == nil {
		t.Fatal("a record that cannot be read was removed")
	}
	os.Remove(path)
	if err := SaveDecisions(root, dir, want); err != nil {
		t.Fatal(err)
	}
	if err := SaveDecisions(root, dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("no decisions left must remove the record: %v", err)
	}
}
