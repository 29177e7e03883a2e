package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUndoByPrefixProposalAndLast: undo takes what a person can type: a
// start of the journal ID no other entry shares, the proposal's ID, or
// --last for the newest applied entry; an ambiguous start and --last with
// an ID are usage errors (exit 2) that write nothing.
func TestUndoByPrefixProposalAndLast(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	file := filepath.Join(memDir, "project_launch.md")
	orig, _ := os.ReadFile(file)
	apply := func() (journalID, proposalID string) {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
		if code != exitOK || !strings.Contains(stdout, "applied   absolutize-dates-") {
			t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
		}
		// applied   <proposal ID>  (journal <journal ID>)
		f := strings.Fields(stdout[strings.Index(stdout, "applied   "):])
		return strings.TrimSuffix(f[3], ")"), f[1]
	}
	undone := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, append([]string{"--config-dir", cfg, "undo"}, args...)...)
		if code != exitOK || !strings.HasPrefix(stdout, "undone ") {
			t.Fatalf("undo %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		if b, _ := os.ReadFile(file); string(b) != string(orig) {
			t.Fatalf("undo %v did not restore the file", args)
		}
		return stdout
	}

	jid, pid := apply()
	if len(jid) < 30 || !strings.HasPrefix(pid, "absolutize-dates-") {
		t.Fatalf("journal %q, proposal %q", jid, pid)
	}
	// Every journal ID starts with its timestamp: the start of the year is
	// shared by the entry and its undo, so it names no one entry.
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "undo", jid[:4])
	if got, _ := os.ReadFile(file); code != exitUsage || !strings.Contains(stderr, "give more of the ID") || string(got) == string(orig) {
		// (one entry so far: the start names it, and that is an undo)
		if code != exitOK {
			t.Fatalf("undo %s with one entry: exit %d\n%s%s", jid[:4], code, stdout, stderr)
		}
	}
	// Whatever that did, the file is back at orig or still applied;
	// apply once more from a known state.
	if b, _ := os.ReadFile(file); string(b) == string(orig) {
		jid, pid = apply()
	}
	if out := undone(jid[:len(jid)-6]); !strings.Contains(out, jid) {
		t.Errorf("undo by a start of the ID undid another entry: %s", out)
	}

	jid, pid = apply()
	if out := undone(pid); !strings.Contains(out, jid) {
		t.Errorf("undo by the proposal's ID undid another entry than %s: %s", jid, out)
	}

	jid, _ = apply()
	if out := undone("--last"); !strings.Contains(out, jid) {
		t.Errorf("undo --last undid another entry than the newest, %s: %s", jid, out)
	}

	// Now the journal holds several entries (applies and their undos): a
	// start they all share names none of them.
	code, _, stderr = runCLI(t, e, "--config-dir", cfg, "undo", jid[:4])
	if code != exitUsage || !strings.Contains(stderr, "give more of the ID") {
		t.Errorf("an ambiguous start: exit %d, %q; want exit 2 asking for more of the ID", code, stderr)
	}
	code, _, stderr = runCLI(t, e, "--config-dir", cfg, "undo", "--last", jid)
	if code != exitUsage || !strings.Contains(stderr, "--last") {
		t.Errorf("--last with an ID: exit %d, %q; want a usage error", code, stderr)
	}
	code, _, stderr = runCLI(t, e, "--config-dir", cfg, "undo", "no-such-entry")
	if code != exitUsage || !strings.Contains(stderr, "o journal entry in view is \"no-such-entry\"") {
		t.Errorf("an unknown ID: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != string(orig) {
		t.Error("a refused undo changed the file")
	}
}
