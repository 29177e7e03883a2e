package memfs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func waitChange(t *testing.T, w *Watcher) []string {
	t.Helper()
	select {
	case b := <-w.Changes():
		return b
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported within 5 s")
	}
	return nil
}

// An agent's burst of writes to one memory directory arrives as one report
// naming that directory.
func TestWatcherDebouncesABurst(t *testing.T) {
	dir := t.TempDir()
	// The quiet period is long enough that a loaded machine (the race
	// run shares two cores with other packages) does not pause that long
	// inside the burst, and the check for a second report waits several
	// of them.
	const debounce = 250 * time.Millisecond
	w, err := NewWatcher(10, debounce)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(dir, "a.md"), []byte{byte('a' + i)}, 0o644)
	}
	os.Rename(filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md"))
	got := waitChange(t, w)
	if !slices.Equal(got, []string{dir}) {
		t.Fatalf("got %v, want [%s]", got, dir)
	}
	select {
	case extra := <-w.Changes():
		t.Fatalf("the burst was reported twice: %v", extra)
	case <-time.After(4 * debounce):
	}
}

func TestWatcherLimitAndRemovedDir(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	w, err := NewWatcher(1, 30*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(a); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(a); err != nil {
		t.Fatalf("adding the same directory twice: %v", err)
	}
	if err := w.Add(b); !errors.Is(err, ErrWatchLimit) {
		t.Fatalf("past the limit: got %v, want ErrWatchLimit", err)
	}
	os.RemoveAll(a)
	got := waitChange(t, w)
	if !slices.Contains(got, a) {
		t.Fatalf("removing a watched directory must report it: %v", got)
	}
	// Its watch is gone, which frees room for another.
	deadline := time.Now().Add(2 * time.Second)
	for w.Len() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := w.Add(b); err != nil {
		t.Fatalf("after the watched directory went away: %v", err)
	}
}
