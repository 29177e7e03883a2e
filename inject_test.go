package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// linesWith is the lines of out that contain sub, for a short message.
func linesWith(out, sub string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, sub) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// assertHarmless fails when out carries a raw control sequence (anything
// but well-formed SGR colour codes that starts an escape, BEL, another
// control byte, a C1 or bidi control, invalid UTF-8), whether the output
// is text or JSON, or any fragment of a planted secret.
func assertHarmless(t *testing.T, what, out string) {
	t.Helper()
	for _, p := range hostile.Controls(out, hostile.Terminal) {
		t.Errorf("%s: %s", what, p)
	}
	for _, p := range hostile.FakeLeaks(out) {
		t.Errorf("%s prints %s", what, p)
	}
}

// Names of the hostile files. forgedName tries to forge a lint line.
const (
	clipName   = "clip" + hostile.OSC52 + ".md"
	forgedName = "notes\n    error   ~/forged.md:1 FORGED line [frontmatter-missing]\n.md"
	tokenName  = "deploy_" + hostile.FakeToken + ".md"
)

// injectTree writes a config dir whose memory holds escape sequences in
// file names, frontmatter, bodies and index lines, a PEM key and a token,
// and (with transcripts) a transcript whose cwd and branch carry them too.
func injectTree(t *testing.T) (cfg, memDir string) {
	t.Helper()
	cfg = t.TempDir()
	memDir = filepath.Join(cfg, "projects", hostile.PwnSlug, "memory")
	body := "Deploy with care " + hostile.Erase + " see " + hostile.OSC8ST + " and " + hostile.C1Erase + " " + hostile.RLO + "txt.exe\n\n" +
		"The deploy key:\n\n" + hostile.FakePEM + "\nToken " + hostile.FakeToken + " " + hostile.OSC52 + "\n"
	writeFile(t, filepath.Join(memDir, clipName),
		"---\nname: deploy"+hostile.OSC0Short+"\ndescription: How to deploy "+hostile.OSC52+hostile.RLO+"\ntype: project\n---\n\n"+body)
	writeFile(t, filepath.Join(memDir, forgedName), "no frontmatter "+hostile.Erase+"\n")
	writeFile(t, filepath.Join(memDir, tokenName), "---\nname: token\ndescription: a token "+hostile.FakeToken+"\ntype: reference\n---\n\n"+hostile.FakePEM)
	writeFile(t, filepath.Join(memDir, "plain.md"), "---\nname: plain\ndescription: A plain memory\ntype: user\n---\n\nWe launch tomorrow.\n")
	var idx strings.Builder
	idx.WriteString("- [Plain](plain.md) — a plain memory\n")
	for i := range 205 {
		fmt.Fprintf(&idx, "- [Filler %d](filler_%d.md) — filler %s\n", i, i, hostile.Erase)
	}
	// A link's text cannot hold "]" (OSC starts with one): its attacks
	// are in the title's C1 CSI and bidi override, and in the hook.
	idx.WriteString("- [Deploy " + hostile.C1Erase + hostile.RLO + "](" + tokenName + ") — how " + hostile.OSC52 + hostile.OSC0Short + " to deploy " + hostile.FakeToken + "\n")
	idx.WriteString("- [Clip](" + clipName + ") — " + hostile.Erase + "\n")
	writeFile(t, filepath.Join(memDir, "MEMORY.md"), idx.String())
	return cfg, memDir
}

// Every CLI text output, piped and coloured as on a terminal, and every
// JSON output, shows the hostile tree without a raw control sequence or a
// fragment of a secret.
func TestCLIOutputsAreHarmless(t *testing.T) {
	cfg, memDir := injectTree(t)
	home, state, cache := t.TempDir(), t.TempDir(), t.TempDir()
	piped := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", cache)
	colour := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", cache, "CLICOLOR_FORCE", "1", "TERM", "xterm-256color")
	type run struct {
		name string
		e    func(string) string
		args []string
	}
	check := func(r run) (string, string) {
		t.Helper()
		_, stdout, stderr := runCLI(t, r.e, append([]string{"--config-dir", cfg}, r.args...)...)
		assertHarmless(t, r.name+" stdout", stdout)
		assertHarmless(t, r.name+" stderr", stderr)
		return stdout, stderr
	}
	now := []string{"--now", "2026-11-21"}
	for _, r := range []run{
		{"lint", piped, append([]string{"lint"}, now...)},
		{"lint (colour)", colour, append([]string{"lint"}, now...)},
		{"lint --json", piped, append([]string{"lint", "--json"}, now...)},
		{"dream", piped, append([]string{"dream"}, now...)},
		{"dream (colour)", colour, append([]string{"dream"}, now...)},
		{"dream --json", piped, append([]string{"dream", "--json"}, now...)},
		{"dream --apply (dry run)", piped, append([]string{"dream", "--apply"}, now...)},
		{"index", piped, []string{"index"}},
		{"index --move-above-cut", piped, []string{"index", "--move-above-cut", tokenName}},
		{"index --move-above-cut (no such entry)", piped, []string{"index", "--move-above-cut", "nope" + hostile.OSC0Short + "\nFORGED error line.md"}},
	} {
		stdout, stderr := check(r)
		if strings.Contains(r.name, "no such entry") && (strings.Contains(stderr, "\nFORGED") || !strings.Contains(stderr, `nope\x1b]0;owned\x07\nFORGED`)) {
			t.Errorf("an error quoting a name with a newline forged a line, or does not show it visibly:\n%s", stderr)
		}
		if r.name == "lint" {
			// The newline in a file name must not start a line of its own.
			if strings.Contains(stdout, "\n    error   ~/forged.md") || !strings.Contains(stdout, `notes\n    error`) {
				t.Errorf("lint: a file name forged a line, or is not shown escaped:\n%s", linesWith(stdout, "forged"))
			}
			if !strings.Contains(stdout, `clip\x1b]52;c;aGVsbG8=\x07.md`) {
				t.Errorf("lint: the escape in a file name is not shown visibly:\n%s", linesWith(stdout, "clip"))
			}
		}
		if r.name == "index --move-above-cut" && !strings.Contains(stdout, "+++ b/MEMORY.md") {
			t.Errorf("index --move-above-cut printed no diff:\n%s", stdout)
		}
	}

	// A proposer whose title, rationale and stderr carry the attacks; its
	// proposal is applied, so the title lands in the journal.
	plain, _ := os.ReadFile(filepath.Join(memDir, "plain.md"))
	prop := map[string]any{"version": 1, "proposals": []any{map[string]any{
		"kind": "absolutize-dates", "title": "Date it " + hostile.OSC52 + hostile.FakeToken + hostile.RLO,
		"rationale": "because " + hostile.OSC8ST + hostile.Erase,
		"changes": []any{map[string]any{"path": "plain.md", "op": "update", "base_sha256": consolidate.SHA256Hex(plain),
			"after": strings.Replace(string(plain), "tomorrow", "on 2026-11-22", 1)}}}}}
	out, _ := json.Marshal(prop)
	script := stub(t, string(out))
	os.WriteFile(script, []byte("#!/bin/sh\nprintf 'thinking \\033]0;owned\\007\\n' >&2\ncat > /dev/null\ncat \""+filepath.Join(filepath.Dir(script), "out.json")+"\"\n"), 0o755)
	for _, r := range []run{
		{"dream --proposer", piped, append([]string{"dream", "--proposer", script}, now...)},
		{"dream --proposer (colour)", colour, append([]string{"dream", "--proposer", script}, now...)},
		{"dream --proposer --json", piped, append([]string{"dream", "--proposer", script, "--json"}, now...)},
		{"dream --proposer --apply", piped, append([]string{"dream", "--proposer", script, "--apply"}, now...)},
		{"dream --proposer --apply --yes", piped, append([]string{"dream", "--proposer", script, "--apply", "--yes"}, now...)},
	} {
		check(r)
	}
	// The proposer's title is refused (not one line of text), so nothing
	// of it reaches the journal. A title memtui itself builds can still
	// carry a file's name or words: put such an entry in the journal
	// through the write path, and list it.
	title := "Date it " + hostile.OSC52 + hostile.FakeToken + hostile.RLO
	res := txn.Apply(context.Background(), memDir, []model.Proposal{{ID: "absolutize-dates-0000inject", Kind: model.KindAbsolutizeDates,
		MemoryDir: memDir, Title: title, Rationale: "because " + hostile.OSC8ST + hostile.Erase,
		Changes: []model.Change{{Path: "plain.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(plain),
			After: strings.Replace(string(plain), "tomorrow", "on 2026-11-22", 1)}}}},
		txn.ApplyOptions{JournalRoot: filepath.Join(state, "memtui", "journal")})
	if len(res) != 1 || res[0].Status != txn.StatusApplied {
		t.Fatalf("the escape-titled entry was not written: %+v", res)
	}
	for _, r := range []run{
		{"undo --list", piped, []string{"undo", "--list"}},
		{"undo --list (colour)", colour, []string{"undo", "--list"}},
		{"undo --list --json", piped, []string{"undo", "--list", "--json"}},
	} {
		stdout, _ := check(r)
		if r.name == "undo --list" && !strings.Contains(stdout, `Date it \x1b]52;c;`) {
			t.Errorf("undo --list does not show the journal's title visibly:\n%s", stdout)
		}
	}

	// changes: a first look records the baseline; then a session writes
	// a file (the key into it) on a hostile branch.
	check(run{"changes (first look)", piped, []string{"changes"}})
	changed := "---\nname: plain\ndescription: A plain memory " + hostile.OSC0Short + "\ntype: user\n---\n\nNow with a key:\n\n" + hostile.FakePEM
	writeFile(t, filepath.Join(memDir, "plain.md"), changed)
	if err := hostile.PwnTranscript(cfg, filepath.Join(memDir, "plain.md"), changed, time.Now().Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, r := range []run{
		{"changes", piped, []string{"changes"}},
		{"changes (colour)", colour, []string{"changes"}},
		{"changes --json", piped, []string{"changes", "--json"}},
	} {
		stdout, _ := check(r)
		// The write is attributed to the session, whose branch is shown
		// escaped and masked.
		if r.name == "changes" && (!strings.Contains(stdout, "changed plain.md") || !strings.Contains(stdout, `on feature/\x1b]52;c;`)) {
			t.Errorf("changes does not show the change:\n%s", stdout)
		}
	}
}
