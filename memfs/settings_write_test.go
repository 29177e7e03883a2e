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
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// dirNames are the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteSettingsCreatesMissingFile(t *testing.T) {
	dir, backups := t.TempDir(), filepath.Join(t.TempDir(), "backups")
	p := filepath.Join(dir, "settings.json")
	f, err := ReadSettingsFile(p)
	if err != nil || f.Exists {
		t.Fatalf("a missing file: exists %v, %v", f != nil && f.Exists, err)
	}
	b, err := WriteSettingsFile(f, []byte("{}\n"), backups, testNow)
	if err != nil || b != "" {
		t.Fatalf("backup %q, %v", b, err)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("created %v, %v; want a 0600 file", fi, err)
	}
	if names := dirNames(t, backups); len(names) != 0 {
		t.Errorf("backups of a file that did not exist: %v", names)
	}
	if _, err := ReadSettingsFile(filepath.Join(dir, "nope", "settings.json")); err == nil || !strings.Contains(err.Error(), "nor does its folder") {
		t.Errorf("a missing folder: %v", err)
	}
}

// TestWriteSettingsKeepsModeAndBackup: the file keeps its permission bits,
// the old text is kept owner-only in the backups, and no temporary file
// is left beside it.
func TestWriteSettingsKeepsModeAndBackup(t *testing.T) {
	dir, backups := t.TempDir(), filepath.Join(t.TempDir(), "backups")
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"model": "opus"}`), 0o640)
	os.Chmod(p, 0o640)
	f, err := ReadSettingsFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := WriteSettingsFile(f, []byte(`{"model": "haiku"}`), backups, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != `{"model": "haiku"}` {
		t.Errorf("file holds %q", got)
	}
	if fi, _ := os.Lstat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	if got, _ := os.ReadFile(b); string(got) != `{"model": "opus"}` || filepath.Dir(b) != backups || !strings.HasSuffix(b, "-settings.json") {
		t.Errorf("backup %s holds %q", b, got)
	}
	if fi, _ := os.Lstat(b); fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Lstat(backups); fi.Mode().Perm() != 0o700 {
		t.Errorf("backups folder mode %v, want 0700", fi.Mode().Perm())
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("left beside the settings: %v", names)
	}
	// A second write in the same instant gets its own backup.
	f, _ = ReadSettingsFile(p)
	b2, err := WriteSettingsFile(f, []byte(`{}`), backups, testNow)
	if err != nil || b2 == b {
		t.Errorf("second backup %s (first %s), %v", b2, b, err)
	}
}

// TestWriteSettingsCompareAndSwap: a file another program wrote after the
// read is not overwritten, and nothing of the attempt is left behind.
func TestWriteSettingsCompareAndSwap(t *testing.T) {
	dir, backups := t.TempDir(), filepath.Join(t.TempDir(), "backups")
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"model": "opus"}`), 0o644)
	f, err := ReadSettingsFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte(`{"model": "sonnet"}`), 0o644) // Claude Code's /config, meanwhile
	_, err = WriteSettingsFile(f, []byte(`{"model": "opus", "hooks": {}}`), backups, testNow)
	if !errors.Is(err, ErrSettingsChanged) {
		t.Fatalf("error %v, want ErrSettingsChanged", err)
	}
	if got, _ := os.ReadFile(p); string(got) != `{"model": "sonnet"}` {
		t.Errorf("the other program's write was lost: %q", got)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("left beside the settings: %v", names)
	}
	if names := dirNames(t, backups); len(names) != 0 {
		t.Errorf("a backup of a write that did not happen: %v", names)
	}

	// A file created after a read that found none.
	q := filepath.Join(dir, "new.json")
	f, _ = ReadSettingsFile(q)
	os.WriteFile(q, []byte(`{"a": 1}`), 0o644)
	if _, err := WriteSettingsFile(f, []byte(`{}`), backups, testNow); !errors.Is(err, ErrSettingsChanged) {
		t.Errorf("a file created meanwhile: %v, want ErrSettingsChanged", err)
	}
	if got, _ := os.ReadFile(q); string(got) != `{"a": 1}` {
		t.Errorf("the file created meanwhile was overwritten: %q", got)
	}
}

// TestWriteSettingsThroughSymlink: a settings.json linked from a dotfiles
// repository is written in the repository, and stays a link.
func TestWriteSettingsThroughSymlink(t *testing.T) {
	dots, claude, backups := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "b")
	target := filepath.Join(dots, "claude-settings.json")
	os.WriteFile(target, []byte(`{"model": "opus"}`), 0o600)
	link := filepath.Join(claude, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	f, err := ReadSettingsFile(link)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Linked() || f.Target != target || string(f.Data) != `{"model": "opus"}` {
		t.Fatalf("read %+v", f)
	}
	if _, err := WriteSettingsFile(f, []byte(`{}`), backups, testNow); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	if got, _ := os.ReadFile(target); string(got) != `{}` {
		t.Errorf("the target holds %q", got)
	}
	if names := dirNames(t, claude); len(names) != 1 {
		t.Errorf("left beside the link: %v", names)
	}

	// The link re-pointed after the read: refused.
	other := filepath.Join(dots, "other.json")
	os.WriteFile(other, []byte(`{}`), 0o600)
	f, _ = ReadSettingsFile(link)
	os.Remove(link)
	os.Symlink(other, link)
	if _, err := WriteSettingsFile(f, []byte(`{"x": 1}`), backups, testNow); !errors.Is(err, ErrSettingsChanged) {
		t.Errorf("a re-pointed link: %v, want ErrSettingsChanged", err)
	}

	// A link to nothing is not followed into a new file.
	dangling := filepath.Join(claude, "dangling.json")
	os.Symlink(filepath.Join(dots, "missing.json"), dangling)
	if _, err := ReadSettingsFile(dangling); err == nil || !strings.Contains(err.Error(), "symlink to a file that does not exist") {
		t.Errorf("a dangling link: %v", err)
	}
}

func TestReadSettingsRefusesOddFiles(t *testing.T) {
	dir := t.TempDir()
	linked := filepath.Join(dir, "settings.json")
	os.WriteFile(linked, []byte(`{}`), 0o600)
	os.Link(linked, filepath.Join(dir, "other-name.json"))
	if _, err := ReadSettingsFile(linked); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("a file with two names: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := ReadSettingsFile(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
	if _, err := ReadSettingsFile(dir); err == nil {
		t.Error("a directory was read as settings")
	}
}

func TestHookProgram(t *testing.T) {
	// This test binary is a go-build temporary: refused without --command.
	if _, err := HookProgram(""); err == nil || !strings.Contains(err.Error(), "temporary build") {
		t.Errorf("the test binary: %v, want refused as a temporary build", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "memtui")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	if got, err := HookProgram(bin); err != nil || got != bin {
		t.Errorf("--command %s: %q, %v", bin, got, err)
	}
	other := filepath.Join(dir, "mt")
	os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755)
	plain := filepath.Join(dir, "sub", "memtui")
	os.MkdirAll(filepath.Dir(plain), 0o755)
	os.WriteFile(plain, []byte("x"), 0o644)
	for given, want := range map[string]string{
		other:                         "must be named memtui",
		plain:                         "not executable",
		filepath.Join(dir, "missing"): "no such file",
		dir:                           "not a regular file",
	} {
		if _, err := HookProgram(given); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--command %s: %v, want %q", given, err, want)
		}
	}
	for exe, want := range map[string]bool{
		"/tmp/go-build123/b001/exe/memtui": true,
		filepath.Join(os.TempDir(), "x"):   true,
		"/usr/local/bin/memtui":            false,
		"/home/u/go/bin/memtui":            false,
	} {
		if got := temporaryBuild(exe); got != want {
			t.Errorf("temporaryBuild(%s) = %v, want %v", exe, got, want)
		}
	}
}
