//go:build unix

package memfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// What an agent (or anything else running as the user) can put where
// memtui expects a plain file, and what memtui must do about each: return
// promptly, read nothing unbounded, follow no link out, say what it found.

// TestHeadCwdHostile: the head read that learns a project's cwd takes
// the transcript reader's open step (memfs/transcript's
// TestTranscriptsHostile reads the same files): a transcript that is a
// FIFO, a link to /dev/zero or a link to a transcript outside the
// transcript dir gives no cwd, at once.
func TestHeadCwdHostile(t *testing.T) {
	tdir := testfs.Mkdir(t, filepath.Join(t.TempDir(), "projects", "-p"))
	outside := testfs.Write(t, filepath.Join(t.TempDir(), "elsewhere", "x.jsonl"), msgLine("/p")+"\n")
	testfs.Mkfifo(t, filepath.Join(tdir, uuid2+".jsonl"))
	testfs.Symlink(t, "/dev/zero", filepath.Join(tdir, uuid3+".jsonl"))
	testfs.Symlink(t, outside, filepath.Join(tdir, "4e3f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7.jsonl"))
	testfs.ReturnsIn(t, "headCwd", func() {
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
	for _, c := range []testfs.Hostile{
		{Name: "fifo", Put: func(t testing.TB, p string) { testfs.Mkfifo(t, p) }, Says: "named pipe"},
		{Name: "link to /dev/zero", Put: func(t testing.TB, p string) { os.Remove(p); testfs.Symlink(t, "/dev/zero", p) }, Says: "character device"},
		{Name: "3 GiB sparse file", Put: func(t testing.TB, p string) { testfs.Sparse(t, p, 3<<30) }, Says: "3 GiB, more than"},
	} {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			settings := filepath.Join(dir, "settings.json")
			c.Put(t, settings)
			var prob *model.ConfigProblem
			testfs.ReturnsIn(t, "readSettings", func() { _, prob = readSettings(settings) })
			if prob == nil || prob.Kind != model.SettingsInvalid || !strings.Contains(prob.Detail, c.Says) {
				t.Errorf("settings problem = %+v", prob)
			}

			config := filepath.Join(dir, "config.yaml")
			c.Put(t, config)
			var err error
			testfs.ReturnsIn(t, "LoadConfig", func() { _, err = LoadConfig(config) })
			if err == nil || !strings.Contains(err.Error(), config) || !strings.Contains(err.Error(), c.Says) {
				t.Errorf("LoadConfig: %v", err)
			}

			seen, memDir := filepath.Join(dir, "seen"), filepath.Join(dir, "memory")
			testfs.Mkdir(t, seen)
			c.Put(t, baselinePath(seen, memDir))
			testfs.ReturnsIn(t, "LoadBaseline", func() { _, err = LoadBaseline(seen, memDir) })
			wantKind := c.Says
			if c.Name == "link to /dev/zero" {
				wantKind = "symlink" // memtui's own file: a link is not followed at all
			}
			if err == nil || !strings.Contains(err.Error(), wantKind) {
				t.Errorf("LoadBaseline: %v", err)
			}

			scratch := filepath.Join(dir, "scratch.md")
			c.Put(t, scratch)
			testfs.ReturnsIn(t, "TakeScratch", func() { _, err = TakeScratch(scratch) })
			if err == nil || !strings.Contains(err.Error(), wantKind) {
				t.Errorf("TakeScratch: %v", err)
			}
		})
	}
	// A settings.json kept in a dotfiles repo and linked is still read.
	dir := t.TempDir()
	real := testfs.Write(t, filepath.Join(dir, "dotfiles", "settings.json"), `{"autoMemoryDirectory": "/x/mem"}`)
	testfs.Symlink(t, real, filepath.Join(dir, "settings.json"))
	if v, prob := readSettings(filepath.Join(dir, "settings.json")); prob != nil || v.value != "/x/mem" {
		t.Errorf("linked settings: %+v %+v", v, prob)
	}
}

// TestSafeReaderCaps: the cap is the caller's, a bigger file is refused
// (never cut short), and a file that grows past the cap while being read
// is refused too.
func TestSafeReaderCaps(t *testing.T) {
	dir := t.TempDir()
	p := testfs.Write(t, filepath.Join(dir, "f"), strings.Repeat("x", 100))
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
