//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mtimeAt is a file's mtime to the nanosecond.
func mtimeAt(t *testing.T, p string) time.Time {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// undo acts on the memory dirs in view only: --list shows another tree's
// entries to nobody, and undo ID of another tree is refused, naming it.
func TestUndoScopedToDirsInView(t *testing.T) {
	cfgA, memA, _ := proposerTree(t)
	cfgB, memB, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state)
	for _, cfg := range []string{cfgA, cfgB} {
		if code, out, errs := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates"); code != exitOK {
			t.Fatalf("apply in %s: %d\n%s%s", cfg, code, out, errs)
		}
	}
	_, outA, _ := runCLI(t, e, "--config-dir", cfgA, "undo", "--list")
	_, outB, _ := runCLI(t, e, "--config-dir", cfgB, "undo", "--list")
	linesA := strings.Split(strings.TrimSpace(outA), "\n")
	linesB := strings.Split(strings.TrimSpace(outB), "\n")
	if len(linesA) != 1 || !strings.Contains(linesA[0], memA) || len(linesB) != 1 || !strings.Contains(linesB[0], memB) {
		t.Fatalf("each tree must list only its own entry:\nA: %s\nB: %s", outA, outB)
	}
	idB := strings.Fields(linesB[0])[0]
	fileB := filepath.Join(memB, "project_launch.md")
	before, _ := os.ReadFile(fileB)
	mt := mtimeAt(t, fileB)
	code, out, errs := runCLI(t, e, "--config-dir", cfgA, "undo", idB)
	if flat := strings.Join(strings.Fields(errs), " "); code != exitUsage || !strings.Contains(flat, "not among the memory directories in view") || !strings.Contains(flat, idB) {
		t.Fatalf("undo of another tree's entry: exit %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(fileB); string(b) != string(before) || !mtimeAt(t, fileB).Equal(mt) {
		t.Fatal("the other tree's file changed")
	}
	if _, err := os.Lstat(filepath.Join(memB, ".consolidate-lock")); !os.IsNotExist(err) {
		t.Errorf("a lock was left in the other tree: %v", err)
	}
	// --project narrows it too.
	_, out, _ = runCLI(t, e, "--config-dir", cfgA, "--project", "no-such-project", "undo", "--list")
	if strings.Contains(out, memA) {
		t.Errorf("--project must scope the list:\n%s", out)
	}
	// In its own tree it undoes, bytes and mtime.
	if code, out, errs := runCLI(t, e, "--config-dir", cfgB, "undo", idB); code != exitOK {
		t.Fatalf("undo in its own tree: %d\n%s%s", code, out, errs)
	}
}

// Undoing a redaction asks for --restore-secret; without it nothing
// changes.
func TestUndoOfRedactionNeedsRestoreSecret(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	token := "ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u"
	file := filepath.Join(memDir, "reference_ci.md")
	orig := "---\nname: ci\ndescription: CI access\ntype: reference\n---\n\nThe CI token is " + token + ".\n"
	os.WriteFile(file, []byte(orig), 0o644)
	old := time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)
	os.Chtimes(file, old, old)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state)
	if code, out, errs := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "redact-secret"); code != exitOK || !strings.Contains(out, "applied") {
		t.Fatalf("redact: %d\n%s%s", code, out, errs)
	}
	red, _ := os.ReadFile(file)
	if strings.Contains(string(red), token) || !mtimeAt(t, file).Equal(old) {
		t.Fatalf("the redaction must remove the token and keep the mtime: %q %v", red, mtimeAt(t, file))
	}
	_, out, _ := runCLI(t, e, "--config-dir", cfg, "undo", "--list")
	id := strings.Fields(out)[0]
	code, out, errs := runCLI(t, e, "--config-dir", cfg, "undo", id)
	if flat := strings.Join(strings.Fields(errs), " "); code != exitUsage || !strings.Contains(flat, "puts the credential back") || !strings.Contains(flat, "--restore-secret") {
		t.Fatalf("undo of a redaction without --restore-secret: %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(file); string(b) != string(red) {
		t.Fatal("the refused undo changed the file")
	}
	code, out, errs = runCLI(t, e, "--config-dir", cfg, "undo", "--restore-secret", id)
	if code != exitOK {
		t.Fatalf("undo --restore-secret: %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(file); string(b) != orig || !mtimeAt(t, file).Equal(old) {
		t.Fatalf("undo must restore bytes and mtime: %q %v", b, mtimeAt(t, file))
	}
}
