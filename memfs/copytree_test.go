package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestCopyTree(t *testing.T) {
	fsys := fstest.MapFS{
		"projects/-home-al-acme/memory/MEMORY.md": {Data: []byte("- [a](a.md)\n")},
		"projects/-home-al-acme/memory/a.md":      {Data: []byte("a")},
		"projects/-home-al-acme/memory/sub/b.md":  {Data: []byte("b")},
		"mtimes.json": {Data: []byte(`{
			"projects/-home-al-acme/memory/a.md": "2026-05-01T10:00:00Z",
			"projects/-home-al-acme/memory/sub": "2026-04-01T00:00:00+02:00"
		}`)},
	}
	dst := filepath.Join(t.TempDir(), "demo")
	if err := CopyTree(fsys, dst); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dst, "projects", "-home-al-acme", "memory", "a.md")
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)) || fi.Mode().Perm() != 0o600 {
		t.Errorf("a.md: %v %v", fi.ModTime(), fi.Mode())
	}
	sub, _ := os.Stat(filepath.Dir(filepath.Join(dst, "projects", "-home-al-acme", "memory", "sub", "b.md")))
	if !sub.ModTime().Equal(time.Date(2026, 3, 31, 22, 0, 0, 0, time.UTC)) || sub.Mode().Perm() != 0o700 {
		t.Errorf("sub: %v %v", sub.ModTime(), sub.Mode())
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "projects", "-home-al-acme", "memory", "sub", "b.md")); string(b) != "b" {
		t.Errorf("b.md = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dst, "mtimes.json")); err == nil {
		t.Error("mtimes.json was copied")
	}

	// Not into a non-empty dir.
	if err := CopyTree(fsys, dst); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("non-empty dst: %v", err)
	}
	// A stale mtimes entry is an error, as is a bad time.
	fsys["mtimes.json"] = &fstest.MapFile{Data: []byte(`{"renamed.md": "2026-05-01T10:00:00Z"}`)}
	if err := CopyTree(fsys, t.TempDir()); err == nil || !strings.Contains(err.Error(), "renamed.md") {
		t.Errorf("stale entry: %v", err)
	}
	fsys["mtimes.json"] = &fstest.MapFile{Data: []byte(`{"projects/-home-al-acme/memory/a.md": "yesterday"}`)}
	if err := CopyTree(fsys, t.TempDir()); err == nil || !strings.Contains(err.Error(), "a.md") {
		t.Errorf("bad time: %v", err)
	}
	// Without mtimes.json, a plain copy.
	delete(fsys, "mtimes.json")
	if err := CopyTree(fsys, t.TempDir()); err != nil {
		t.Error(err)
	}
}
