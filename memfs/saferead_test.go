//go:build unix

package memfs

import (
	"errors"
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

// TestHeadCwdHostile: the head read that learns a project's cwd takes
// the transcript reader's open step (memfs/transcript's
// TestTranscriptsHostile reads the same files): a transcript that is a
// FIFO, a link to /dev/zero or a link to a transcript outside the
// transcript dir gives no cwd, at once.
func TestHeadCwdHostile(t *testing.T) {
	tdir := mkdir(t, filepath.Join(t.TempDir(), "projects", "-p"))
	outside := write(t, filepath.Join(t.TempDir(), "elsewhere", "x.jsonl"), msgLine("/p")+"\n")
	mkfifo(t, filepath.Join(tdir, uuid2+".jsonl"))
	symlink(t, "/dev/zero", filepath.Join(tdir, uuid3+".jsonl"))
	symlink(t, outside, filepath.Join(tdir, "4e3f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7.jsonl"))
	returnsIn(t, "headCwd", func() {
		for _, n := range []string{uuid2, uuid3, "4e3f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7"} {
			if c := headCwd(filepath.Join(tdir, n+".jsonl"), make([]byte, 4096)); c != "" {
				t.Errorf("headCwd(%s) = %q", n, c)
			}
		}
	})
}

// TestSettingsConfigBaselineHostile: a settings.json, config.yaml or
// review baseline that is a FIFO, a device or a huge file is an error
// that says what it is, at once.
func TestSettingsConfigBaselineHostile(t *testing.T) {
	for _, c := range []hostile{
		{"fifo", func(t *testing.T, p string) { mkfifo(t, p) }, "named pipe"},
		{"link to /dev/zero", func(t *testing.T, p string) { os.Remove(p); symlink(t, "/dev/zero", p) }, "character device"},
		{"3 GiB sparse file", func(t *testing.T, p string) { sparse(t, p, 3<<30) }, "3 GiB, more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			settings := filepath.Join(dir, "settings.json")
			c.put(t, settings)
			var prob *model.ConfigProblem
			returnsIn(t, "readSettings", func() { _, prob = readSettings(settings) })
			if prob == nil || prob.Kind != model.SettingsInvalid || !strings.Contains(prob.Detail, c.says) {
				t.Errorf("settings problem = %+v", prob)
			}

			config := filepath.Join(dir, "config.yaml")
			c.put(t, config)
			var err error
			returnsIn(t, "LoadConfig", func() { _, err = LoadConfig(config) })
			if err == nil || !strings.Contains(err.Error(), config) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("LoadConfig: %v", err)
			}

			seen, memDir := filepath.Join(dir, "seen"), filepath.Join(dir, "memory")
			mkdir(t, seen)
			c.put(t, baselinePath(seen, memDir))
			returnsIn(t, "LoadBaseline", func() { _, err = LoadBaseline(seen, memDir) })
			wantKind := c.says
			if c.name == "link to /dev/zero" {
				wantKind = "symlink" // memtui's own file: a link is not followed at all
			}
			if err == nil || !strings.Contains(err.Error(), wantKind) {
				t.Errorf("LoadBaseline: %v", err)
			}

			scratch := filepath.Join(dir, "scratch.md")
			c.put(t, scratch)
			returnsIn(t, "TakeScratch", func() { _, err = TakeScratch(scratch) })
			if err == nil || !strings.Contains(err.Error(), wantKind) {
				t.Errorf("TakeScratch: %v", err)
			}
		})
	}
	// A settings.json kept in a dotfiles repo and linked is still read.
	dir := t.TempDir()
	real := write(t, filepath.Join(dir, "dotfiles", "settings.json"), `{"autoMemoryDirectory": "/x/mem"}`)
	symlink(t, real, filepath.Join(dir, "settings.json"))
	if v, prob := readSettings(filepath.Join(dir, "settings.json")); prob != nil || v.value != "/x/mem" {
		t.Errorf("linked settings: %+v %+v", v, prob)
	}
}

// TestSafeReaderCaps: the cap is the caller's, a bigger file is refused
// (never cut short), and a file that grows past the cap while being read
// is refused too.
func TestSafeReaderCaps(t *testing.T) {
	dir := t.TempDir()
	p := write(t, filepath.Join(dir, "f"), strings.Repeat("x", 100))
	if b, err := readFile(p, 100, noFollow); err != nil || len(b) != 100 {
		t.Errorf("at the cap: %d bytes, %v", len(b), err)
	}
	if b, err := readFile(p, 99, noFollow); !errors.Is(err, errTooLarge) || b != nil || !strings.Contains(err.Error(), p) {
		t.Errorf("over the cap: %d bytes, %v", len(b), err)
	}
	if b, err := readIn(dir, "f", 99); !errors.Is(err, errTooLarge) || b != nil {
		t.Errorf("readIn over the cap: %d bytes, %v", len(b), err)
	}
	// Growing past the cap after fstat: the size given says 10, the file
	// holds 100.
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := readOpened(f, 10, 50); !errors.Is(err, errTooLarge) || b != nil || !strings.Contains(err.Error(), "grew past") {
		t.Errorf("grown past the cap: %d bytes, %v", len(b), err)
	}
	if _, err := readIn(dir, "missing", 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := readIn(dir, "/etc/passwd", 1<<20); err == nil {
		t.Error("readIn took an absolute path")
	}
}
