package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScratchRoundTripAndOccupied(t *testing.T) {
	p, err := WriteScratch("feedback_x.md", []byte("edited result\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(p, "feedback_x.md") || filepath.Dir(p) != filepath.Clean(os.TempDir()) {
		t.Errorf("scratch file %s must be in the temp dir and keep the name", p)
	}
	b, err := TakeScratch(p)
	if err != nil || string(b) != "edited result\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Error("TakeScratch must remove the file")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), nil, 0o644)
	if !Occupied(dir, "a.md") || Occupied(dir, "b.md") {
		t.Error("Occupied must see a.md and not b.md")
	}
}
