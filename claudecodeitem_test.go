//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model/claude"
)

// Claude Code's metadata.claudeCodeItem block survives memtui's writes
// byte for byte, through the real apply path (memfs: lock, compare,
// atomic write, journal) and back through undo.
func TestClaudeCodeItemThroughApplyAndUndo(t *testing.T) {
	item := "  claudeCodeItem: \n" +
		"    id: 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n" +
		"    state: acked\n" +
		"    consent: on\n" +
		"    typed: \n" +
		"      turn: 2\n" +
		"      prompt: \"the freeze starts tomorrow; see [[stub]]\"\n" +
		"      modified: 2026-01-01T00:00:00.000Z\n" +
		"    promoted: \n" +
		"      - account_path: CLAUDE.md\n" +
		"        line_hash: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n" +
		"        at: 2026-06-09T10:00:00.000Z\n"
	freeze := "---\nname: freeze\ndescription: The release freeze and when it starts\nmetadata: \n  node_type: memory\n  type: project\n" +
		item + "  modified: 2026-06-10T09:00:00.000Z\n---\n\nThe release freeze starts tomorrow. Ask in #release before merging.\n"
	stub := "---\nname: stub\ndescription:\nmetadata: \n  node_type: memory\n  type: project\n" + item + "  modified: 2026-06-10T09:00:00.000Z\n---\n"
	mem := t.TempDir()
	for name, c := range map[string]string{
		"project_freeze.md": freeze,
		"stub.md":           stub,
		"MEMORY.md":         "- [Freeze](project_freeze.md) — when merges stop\n- [Stub](stub.md) — nothing yet\n",
	} {
		if err := os.WriteFile(filepath.Join(mem, name), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	blocks := func(b []byte) string {
		var out []string
		for _, s := range claude.ItemSpans(b) {
			out = append(out, string(b[s[0]:s[1]]))
		}
		return strings.Join(out, "|")
	}
	want := blocks([]byte(freeze))
	if want != item {
		t.Fatalf("setup: the block is %q", want)
	}
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())

	code, stdout, stderr := runCLI(t, e, "--memory-dir", mem, "--now", "2026-11-21", "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	if code != exitOK || !strings.Contains(stdout, "applied   absolutize-dates-") {
		t.Fatalf("absolutize-dates: exit %d\n%s%s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(mem, "project_freeze.md"))
	if !strings.Contains(string(got), "The release freeze starts on 2026-06-11.") {
		t.Fatalf("the date was not made absolute:\n%s", got)
	}
	if blocks(got) != item {
		t.Errorf("after absolutize-dates the block is\n%q\nwant\n%q", blocks(got), item)
	}

	code, stdout, stderr = runCLI(t, e, "--memory-dir", mem, "--now", "2026-11-21", "dream", "--apply", "--yes", "--kind", "prune")
	if code != exitOK || !strings.Contains(stdout, "applied   prune-") {
		t.Fatalf("prune: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(mem, "stub.md")); !os.IsNotExist(err) {
		t.Fatalf("stub.md not pruned: %v", err)
	}
	_, stdout, _ = runCLI(t, e, "--memory-dir", mem, "undo", "--list")
	id := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, "prune") {
			id = strings.Fields(l)[0]
		}
	}
	if code, stdout, stderr = runCLI(t, e, "--memory-dir", mem, "undo", id); code != exitOK {
		t.Fatalf("undo %q: exit %d\n%s%s", id, code, stdout, stderr)
	}
	back, _ := os.ReadFile(filepath.Join(mem, "stub.md"))
	if string(back) != stub {
		t.Errorf("undo of the prune gave back\n%q\nwant\n%q", back, stub)
	}
}

// An archive moves a memory with its claudeCodeItem block into .archive/
// and repoints a link to it in another memory whose block names it too:
// both blocks come through the apply and the undo byte for byte.
func TestClaudeCodeItemThroughArchiveAndUndo(t *testing.T) {
	item := func(prompt string) string {
		return "  claudeCodeItem: \n" +
			"    id: 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n" +
			"    state: acked\n" +
			"    consent: on\n" +
			"    typed: \n" +
			"      turn: 2\n" +
			"      prompt: \"" + prompt + "\"\n"
	}
	file := func(name, prompt, body string) string {
		return "---\nname: " + name + "\ndescription: " + name + " and what it says\nmetadata: \n  node_type: memory\n  type: project\n" +
			item(prompt) + "  modified: 2026-06-10T09:00:00.000Z\n---\n\n" + body
	}
	base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	dir, names := archiveDir(t, 201, base, "")
	oldest := file("oldest", "the first ticket", "Ticket 0 came first.\n")
	linker := file("linker", "see [[oldest]] and [it](project_ticket_000.md)", "Follows [[oldest]]; see [it](project_ticket_000.md).\n")
	for name, c := range map[string]string{names[0]: oldest, names[150]: linker} {
		p := filepath.Join(dir, name)
		fi, _ := os.Stat(p)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
	}
	blocks := func(b []byte) string {
		var out []string
		for _, s := range claude.ItemSpans(b) {
			out = append(out, string(b[s[0]:s[1]]))
		}
		return strings.Join(out, "|")
	}
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	code, stdout, stderr := runCLI(t, e, "--memory-dir", dir, "--now", "2026-11-21", "dream", "--apply", "--yes", "--kind", "archive")
	if code != exitOK || !strings.Contains(stdout, "applied   archive-") {
		t.Fatalf("archive: exit %d\n%s%s", code, stdout, stderr)
	}
	moved, _ := os.ReadFile(filepath.Join(dir, ".archive", names[0]))
	got, _ := os.ReadFile(filepath.Join(dir, names[150]))
	if string(moved) != oldest {
		t.Errorf("the archived memory changed:\n%s", moved)
	}
	if !strings.Contains(string(got), "Follows [[.archive/project_ticket_000]]; see [it](.archive/project_ticket_000.md).") || blocks(got) != blocks([]byte(linker)) {
		t.Errorf("the linking memory: want its body repointed and its block as it was:\n%s", got)
	}
	_, stdout, _ = runCLI(t, e, "--memory-dir", dir, "undo", "--list")
	id := strings.Fields(stdout)[0]
	if code, stdout, stderr = runCLI(t, e, "--memory-dir", dir, "undo", id); code != exitOK {
		t.Fatalf("undo %q: exit %d\n%s%s", id, code, stdout, stderr)
	}
	for name, want := range map[string]string{names[0]: oldest, names[150]: linker} {
		if back, _ := os.ReadFile(filepath.Join(dir, name)); string(back) != want {
			t.Errorf("undo gave back %s as\n%q\nwant\n%q", name, back, want)
		}
	}
}
