//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// hostileRun is the hostile tree after its setup, with what the setup's
// writes printed.
type hostileRun struct {
	tr                 *hostile.Tree
	state, cache, home string
	env                func(string) string
	// applyEvil and applyEsc are the setup's real `dream --apply --yes`
	// runs; overrideBefore is the override dir before the first.
	applyEvil, applyEsc outcome
	overrideBefore      map[string]string
	lockAfterApply      os.FileInfo
	lockBodyAfterApply  string
	redactedAfterApply  os.FileInfo
	linkedSameAfter     bool
	journalTitleID      string
	// journalBefore is Evil/JournalTarget before the escape-titled
	// proposal rewrote it; journalAfter its state right after.
	journalBefore string
	journalAfter  os.FileInfo
	journalErr    error
	// bin is the built binary, for the runs on a terminal.
	bin string
	// before is the whole tree once the setup is done.
	before map[string]string
}

func (h *hostileRun) args(sub ...string) []string {
	return append([]string{"--config-dir", h.tr.Config, "--codex-home", h.tr.CodexHome, "--now", "2026-11-21"}, sub...)
}

// colour is the environment of a terminal run in-process: colour forced
// as on a terminal.
func (h *hostileRun) colour() func(string) string {
	return env("HOME", h.home, "XDG_STATE_HOME", h.state, "XDG_CACHE_HOME", h.cache, "CLAUDE_MEMORY_STORES", h.tr.MemoryStores, "CLICOLOR_FORCE", "1", "TERM", "xterm-256color")
}

// newHostileRun builds the tree in two steps with a review baseline
// between them (so `changes` has every attack to show), then writes to it
// through the CLI as a user would: absolutize-dates in the evil project
// (its hardlinked file, the lock, the override dir), a redaction in the
// escaped-cwd project, and one proposal whose title holds escapes.
func newHostileRun(t *testing.T, numbered int) *hostileRun {
	t.Helper()
	h := &hostileRun{state: t.TempDir(), cache: t.TempDir(), home: t.TempDir()}
	tr, err := hostile.Build(t.TempDir(), numbered)
	if err != nil {
		t.Fatal(err)
	}
	h.tr = tr
	h.env = env("HOME", h.home, "XDG_STATE_HOME", h.state, "XDG_CACHE_HOME", h.cache, "CLAUDE_MEMORY_STORES", tr.MemoryStores)
	setup := func(what string, args ...string) outcome {
		o := runHostile(t, h.env, h.args(args...)...)
		if o.hung || o.failed != "" {
			t.Fatalf("setup %s: hung=%v %s\n%s", what, o.hung, o.failed, hostile.Visible(o.both()))
		}
		return o
	}
	setup("first look (records the review baseline)", "changes")
	if err := tr.Grow(); err != nil {
		t.Fatal(err)
	}
	if h.overrideBefore, err = hostile.Snapshot(tr.Override); err != nil {
		t.Fatal(err)
	}
	h.applyEvil = setup("apply absolutize-dates", "--project", tr.EvilSlug, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	if !strings.Contains(h.applyEvil.stdout, "applied") {
		t.Fatalf("setup: the apply wrote nothing (exit %d):\n%s", h.applyEvil.code, hostile.Visible(h.applyEvil.both()))
	}
	h.lockAfterApply, _ = os.Lstat(tr.Lock)
	h.lockBodyAfterApply = readAll(tr.Lock)
	a, _ := os.Stat(filepath.Join(tr.Evil, tr.Hardlink))
	b, _ := os.Stat(tr.HardlinkOther)
	h.linkedSameAfter = a != nil && b != nil && os.SameFile(a, b)
	h.applyEsc = setup("apply redact-secret", "--project", "-work-esc", "dream", "--apply", "--yes", "--kind", "redact-secret")
	h.redactedAfterApply, _ = os.Lstat(filepath.Join(tr.Esc, "pem_redacted.md"))
	h.journalBefore = readAll(filepath.Join(tr.Evil, tr.JournalTarget))
	// Not fatal: a write path that refuses the title is no reason to skip
	// every other attack (setup-frontmatter-fix reports it).
	h.journalTitleID, h.journalErr = tr.JournalTitle(context.Background(), filepath.Join(h.state, "memtui", "journal"))
	h.journalAfter, _ = os.Lstat(filepath.Join(tr.Evil, tr.JournalTarget))
	if h.before, err = hostile.Snapshot(tr.Root); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestHostileCodexStore: the hostile tree's Codex store (escapes and a
// forged line in names and texts, a token, a FIFO where a rollout summary
// goes, a symlink loop, links out, a config.toml that does not parse) is
// read promptly, following no link and opening no FIFO; ls, lint,
// sessions and history run over it cleanly, with --agent codex too (its
// rollouts: escapes in every field, tokens in notes, a line past the
// cap); and nothing under the tree changes. (TestHostileTree names the
// store in every run as well.)
func TestHostileCodexStore(t *testing.T) {
	tr, err := hostile.Build(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	before, err := hostile.Snapshot(tr.Root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	s, err := memfs.LoadCodex(ctx, tr.CodexHome, memfs.Options{Getenv: env()})
	if err != nil {
		t.Fatalf("LoadCodex: %v", err)
	}
	wantLinks := []string{"loop" + hostile.OSC0, "skills/out", "skills/out.md"}
	if !slices.Equal(s.Links, wantLinks) {
		t.Errorf("Links = %q, want %q", s.Links, wantLinks)
	}
	if len(s.Problems) != 1 || s.Problems[0].Path != "rollout_summaries/2026-11-20T09-00-00-pipe.md" || s.Problems[0].Kind != model.ProblemNotFile {
		t.Errorf("Problems = %+v", s.Problems)
	}
	if len(s.Files) != 5 || !s.Git || !s.ConfigFound || len(s.ConfigProblems) == 0 {
		t.Errorf("store: %d files, git %v, config found %v, problems %+v", len(s.Files), s.Git, s.ConfigFound, s.ConfigProblems)
	}
	for _, f := range s.Files {
		if strings.Contains(string(f.Content), tr.Marker) {
			t.Errorf("%q holds the file outside the store: a link was followed", f.Path)
		}
	}
	home, state := t.TempDir(), t.TempDir()
	e := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	outs := map[string]outcome{}
	for _, args := range [][]string{
		{"--config-dir", tr.Config, "--codex-home", tr.CodexHome, "--now", "2026-11-21", "ls"},
		{"--config-dir", tr.Config, "--codex-home", tr.CodexHome, "--now", "2026-11-21", "--readonly", "lint"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "ls"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "ls", "--json"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "index"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "index", "--json"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "lint", "--json"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "sessions"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "sessions", "--json"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "history"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "history", "--json"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "doctor"},
		{"--agent", "codex", "--codex-home", tr.CodexHome, "--now", "2026-11-21", "doctor", "--json"},
	} {
		o := runHostile(t, e, args...)
		mode := hostile.Plain
		if args[len(args)-1] == "--json" {
			mode = hostile.JSON
		}
		outs[strings.Join(args[6:], " ")] = o
		t.Run(o.name, func(t *testing.T) {
			if !ranCleanly(t, o) {
				return
			}
			if o.code == exitUsage {
				t.Errorf("%s: exit %d:\n%s", o.name, o.code, hostile.Visible(o.both()))
			}
			checkOutput(t, tr, o, mode)
		})
	}
	// The checks above ran on the hostile session, not on an empty list:
	// its reads (the one after the huge line too), both notes (their
	// tokens masked), its one citation; the huge line and the compressed
	// rollout are problems.
	var ss struct {
		Sessions []struct {
			ID    string   `json:"id"`
			Read  []string `json:"read"`
			Codex struct {
				Notes     []struct{ Text string }      `json:"notes"`
				Citations []struct{ Raw, Parsed bool } `json:"citations"`
			} `json:"codex"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(outs["sessions --json"].stdout), &ss); err != nil || len(ss.Sessions) != 1 || ss.Sessions[0].ID != hostile.CodexThread {
		t.Fatalf("sessions --json: %v\n%s", err, hostile.Visible(outs["sessions --json"].stdout))
	}
	cs := ss.Sessions[0]
	if !slices.Contains(cs.Read, "MEMORY.md") || !slices.Contains(cs.Read, "raw_memories.md") || len(cs.Codex.Notes) != 2 || len(cs.Codex.Citations) != 1 || !cs.Codex.Citations[0].Raw || !cs.Codex.Citations[0].Parsed {
		t.Errorf("the hostile Codex session: %+v", cs)
	}
	for _, n := range cs.Codex.Notes {
		if !strings.Contains(n.Text, "ghp_") {
			t.Errorf("a note's text lost its (masked) token: %q", n.Text)
		}
	}
	hist := outs["history --json"].stdout
	for _, want := range []string{"more than memtui decodes of a line; left out (it mentions memory", "compressed (zstd", "1 line is not JSON"} {
		if !strings.Contains(hist, want) {
			t.Errorf("history --json's problems lack %q", want)
		}
	}
	checkUnchanged(t, tr, before, "the Codex runs")
}

// TestHostileMemoryRoot: the hostile tree read as other agents' stores
// (--memory-root): its config dir as a Qwen Code home (every
// projects/<slug>/memory a store, escapes, a forged line and secrets in
// its names and texts, FIFOs, hardlinks, links out and loops), the whole
// tree as an unlabelled root, its most hostile store as a root of its
// own, roots whose paths hold escapes (one with no store, one not there
// at all), and a Qwen home of hostile names (a store's, a memory's, a
// link's). Every
// output that lists stores (ls, lint, index, sessions, their JSON) and
// every usage error (a label full of escapes) is checked like the rest of
// the suite: no secret, no raw control, no forged line; the runs end, and
// nothing under the tree changes.
func TestHostileMemoryRoot(t *testing.T) {
	tr, err := hostile.Build(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	before, err := hostile.Snapshot(tr.Root)
	if err != nil {
		t.Fatal(err)
	}
	home, state := t.TempDir(), t.TempDir()
	e := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir(), "CLAUDE_MEMORY_STORES", tr.MemoryStores)
	base := []string{"--now", "2026-11-21", "--readonly"}
	qwen := append(slices.Clone(base), "--memory-root", "qwen="+tr.Config)
	// A Qwen home of names alone, outside the tree: a project folder
	// whose name forges a line, holding a store; a link named so to a
	// folder (not followed: a note names it); a root so named with no
	// store in it (the advice names it).
	forged := "\n" + hostile.OSC0 + hostile.Forged
	names := filepath.Join(t.TempDir(), ".qwen")
	writeFile(t, filepath.Join(names, "projects", "p"+forged, "memory", "MEMORY.md"), "- [A](a"+forged+".md) — "+hostile.All+"\n")
	writeFile(t, filepath.Join(names, "projects", "p"+forged, "memory", "a"+forged+".md"), "---\nname: a"+hostile.OSC8+"\ndescription: d"+hostile.Clear+"\ntype: user\n---\n\nChanged yesterday.\n")
	if err := os.Symlink(tr.Config, filepath.Join(names, "projects", "l"+forged)); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "r"+forged)
	if err := os.Mkdir(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	whole := append(slices.Clone(base), "--memory-root", tr.Root)
	for _, c := range []struct {
		args  []string
		mode  hostile.Mode
		usage bool
	}{
		{append(slices.Clone(qwen), "ls"), hostile.Plain, false},
		{append(slices.Clone(qwen), "ls", "--json"), hostile.JSON, false},
		{append(slices.Clone(qwen), "lint"), hostile.Plain, false},
		{append(slices.Clone(qwen), "lint", "--json"), hostile.JSON, false},
		{append(slices.Clone(qwen), "index"), hostile.Plain, false},
		{append(slices.Clone(qwen), "index", "--json"), hostile.JSON, false},
		{append(slices.Clone(qwen), "sessions"), hostile.Plain, false},
		{append(slices.Clone(qwen), "doctor"), hostile.Plain, false},
		{append(slices.Clone(base), "--memory-root", names, "doctor", "--json"), hostile.JSON, false},
		{append(slices.Clone(qwen), "--agent", "other", "--project", "qwen:", "lint", "--json"), hostile.JSON, false},
		{append(slices.Clone(whole), "ls"), hostile.Plain, false},
		{append(slices.Clone(whole), "lint", "--json"), hostile.JSON, false},
		{append(slices.Clone(whole), "--config-dir", tr.Config, "--codex-home", tr.CodexHome, "lint"), hostile.Plain, false},
		{append(slices.Clone(base), "--memory-root", tr.EscRoot, "lint"), hostile.Plain, true},
		{append(slices.Clone(base), "--memory-root", hostile.OSC0+"x"+hostile.RLO+"="+tr.Config, "lint"), hostile.Plain, true},
		{append(slices.Clone(base), "--memory-root", filepath.Join(tr.Root, hostile.OSC0+"gone\n"+hostile.Forged), "ls"), hostile.Plain, true},
		{append(slices.Clone(base), "--memory-root", tr.Evil, "ls"), hostile.Plain, false},
		{append(slices.Clone(base), "--memory-root", names, "ls"), hostile.Plain, false},
		{append(slices.Clone(base), "--memory-root", names, "index"), hostile.Plain, false},
		{append(slices.Clone(base), "--memory-root", names, "lint"), hostile.Plain, false},
		{append(slices.Clone(base), "--memory-root", names, "lint", "--json"), hostile.JSON, false},
		{append(slices.Clone(base), "--memory-root", bare, "ls"), hostile.Plain, true},
	} {
		o := runHostile(t, e, c.args...)
		t.Run(o.name, func(t *testing.T) {
			if !ranCleanly(t, o) {
				return
			}
			if (o.code == exitUsage) != c.usage {
				t.Errorf("%s: exit %d:\n%s", o.name, o.code, hostile.Visible(o.both()))
			}
			checkOutput(t, tr, o, c.mode)
		})
	}
	// The stores were found: the Qwen home's projects are listed, each
	// under its label.
	o := runHostile(t, e, append(slices.Clone(qwen), "ls")...)
	if !strings.Contains(o.stdout, "qwen:"+tr.EvilSlug) {
		t.Errorf("ls over the hostile Qwen home lists no qwen:%s:\n%s", tr.EvilSlug, hostile.Visible(o.both()))
	}
	checkUnchanged(t, tr, before, "the --memory-root runs")
}

// TestHostileTree is the project's own attack suite (issue 11): a config
// dir holding every attack the issue lists, every output path run on it,
// and each output checked for secrets, raw control characters and lines
// forged by a file name, and the tree for any change. Each output path is
// a subtest; each check of it another, so a failure names both.
func TestHostileTree(t *testing.T) {
	t.Parallel()
	h := newHostileRun(t, 300)
	tr := h.tr

	t.Run("setup-apply", func(t *testing.T) {
		checkOutput(t, tr, h.applyEvil, hostile.Plain)
		t.Run("override-dir-not-written", func(t *testing.T) {
			// A repository's .claude/settings.json named it; the user never did.
			after, err := hostile.Snapshot(tr.Override)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range hostile.Changed(h.overrideBefore, after) {
				t.Errorf("dream --apply --yes wrote into %s, which only a cloned repository's settings name: %s", tr.Override, c)
			}
		})
		t.Run("hardlink-not-split-silently", func(t *testing.T) {
			said := regexp.MustCompile(`(?i)hard[ -]?link|link count|other names?`).MatchString(h.applyEvil.both())
			if !h.linkedSameAfter && !said {
				t.Errorf("%s was split from its other name %s by the apply, and the apply did not say so:\n%s", tr.Hardlink, tr.HardlinkOther, hostile.Visible(h.applyEvil.both()))
			}
		})
		t.Run("lock-released-and-dream-clock-kept", func(t *testing.T) {
			if h.lockAfterApply == nil {
				t.Fatalf("the apply removed %s, Claude Code's record of its last consolidation", tr.Lock)
			}
			if body := strings.TrimSpace(h.lockBodyAfterApply); body == strconv.Itoa(os.Getpid()) {
				t.Errorf(".consolidate-lock still names memtui's live PID %s after the write ended", body)
			}
			if !h.lockAfterApply.ModTime().Equal(tr.LockTime) {
				t.Errorf(".consolidate-lock mtime moved from %s to %s: a memtui write reset Claude Code's autoDream clock",
					tr.LockTime.Format(time.RFC3339), h.lockAfterApply.ModTime().Format(time.RFC3339))
			}
		})
	})
	t.Run("setup-redact", func(t *testing.T) {
		checkOutput(t, tr, h.applyEsc, hostile.Plain)
		t.Run("mtime-kept", func(t *testing.T) {
			if h.redactedAfterApply == nil || !h.redactedAfterApply.ModTime().Equal(tr.RedactTime) {
				var got time.Time
				if h.redactedAfterApply != nil {
					got = h.redactedAfterApply.ModTime()
				}
				t.Errorf("redacting pem_redacted.md moved its mtime from %s to %s", tr.RedactTime.Format(time.RFC3339), got.Format(time.RFC3339))
			}
		})
	})

	t.Run("setup-frontmatter-fix", func(t *testing.T) {
		if h.journalErr != nil {
			t.Fatalf("the escape-titled fix-frontmatter proposal was not applied through txn.Apply: %v", h.journalErr)
		}
		t.Run("mtime-kept", func(t *testing.T) {
			if h.journalAfter == nil || !h.journalAfter.ModTime().Equal(tr.JournalTime) {
				var got time.Time
				if h.journalAfter != nil {
					got = h.journalAfter.ModTime()
				}
				t.Errorf("a fix-frontmatter proposal applied to %s moved its mtime from %s to %s", tr.JournalTarget, tr.JournalTime.Format(time.RFC3339), got.Format(time.RFC3339))
			}
		})
	})

	plain, colour := h.env, h.colour()
	// hook install and uninstall read the tree's settings.json (escapes in
	// its values, a token, an old memtui hook full of escapes) and show
	// their change as a diff: dry runs, so the tree stays as it is. The
	// binary the hook is to run sits in a folder whose name holds escapes
	// and a newline before a forged line.
	hookBin := filepath.Join(h.home, "bin"+hostile.OSC0+"\n"+hostile.Forged, "memtui")
	if err := os.MkdirAll(filepath.Dir(hookBin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hookBin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := []struct {
		name string
		env  func(string) string
		mode hostile.Mode
		args []string
	}{
		{"lint/piped", plain, hostile.Plain, []string{"lint"}},
		{"lint/terminal", colour, hostile.Terminal, []string{"lint"}},
		{"lint/json", plain, hostile.JSON, []string{"lint", "--json"}},
		{"lint-verbose/piped", plain, hostile.Plain, []string{"lint", "--verbose"}},
		{"lint-verbose/terminal", colour, hostile.Terminal, []string{"lint", "--verbose"}},
		{"dream/piped", plain, hostile.Plain, []string{"dream"}},
		{"dream/terminal", colour, hostile.Terminal, []string{"dream"}},
		{"dream/json", plain, hostile.JSON, []string{"dream", "--json"}},
		{"dream-apply-dry-run/piped", plain, hostile.Plain, []string{"dream", "--apply"}},
		{"dream-apply-dry-run/terminal", colour, hostile.Terminal, []string{"dream", "--apply"}},
		{"index-check/piped", plain, hostile.Plain, []string{"index", "--check"}},
		{"index-check/terminal", colour, hostile.Terminal, []string{"index", "--check"}},
		{"index/json", plain, hostile.JSON, []string{"index", "--json"}},
		{"index-move-above-cut/piped", plain, hostile.Plain, []string{"index", "work-evil", "--move-above-cut", tr.CutNote}},
		{"index-move-above-cut/terminal", colour, hostile.Terminal, []string{"index", "work-evil", "--move-above-cut", tr.CutNote}},
		{"changes/piped", plain, hostile.Plain, []string{"changes"}},
		{"changes/terminal", colour, hostile.Terminal, []string{"changes"}},
		{"changes/json", plain, hostile.JSON, []string{"changes", "--json"}},
		{"doctor/piped", plain, hostile.Plain, []string{"doctor"}},
		{"doctor/terminal", colour, hostile.Terminal, []string{"doctor"}},
		{"doctor/json", plain, hostile.JSON, []string{"doctor", "--json"}},
		// Asked from the hostile project's own folder: "here" reads its
		// .claude settings and its key root.
		{"doctor-here/piped", inDir(plain, tr.EvilRoot), hostile.Plain, []string{"doctor"}},
		{"doctor-here/json", inDir(plain, tr.EvilRoot), hostile.JSON, []string{"doctor", "--json"}},
		{"sessions/piped", plain, hostile.Plain, []string{"sessions"}},
		{"sessions/terminal", colour, hostile.Terminal, []string{"sessions"}},
		{"sessions/json", plain, hostile.JSON, []string{"sessions", "--json"}},
		{"history/piped", plain, hostile.Plain, []string{"history"}},
		{"history/terminal", colour, hostile.Terminal, []string{"history"}},
		{"history/json", plain, hostile.JSON, []string{"history", "--json"}},
		{"ls/piped", plain, hostile.Plain, []string{"ls"}},
		{"ls/terminal", colour, hostile.Terminal, []string{"ls"}},
		{"ls/json", plain, hostile.JSON, []string{"ls", "--json"}},
		// The first snapshot records every directory, so its output names
		// them all; the runs after it find nothing changed.
		{"snapshot-verbose/piped", plain, hostile.Plain, []string{"snapshot", "-v"}},
		{"snapshot-verbose/terminal", colour, hostile.Terminal, []string{"snapshot", "--verbose"}},
		{"snapshot/piped", plain, hostile.Plain, []string{"snapshot"}},
		{"undo-list/piped", plain, hostile.Plain, []string{"undo", "--list"}},
		{"undo-list/terminal", colour, hostile.Terminal, []string{"undo", "--list"}},
		{"undo-list/json", plain, hostile.JSON, []string{"undo", "--list", "--json"}},
		{"journal-prune-dry-run/piped", plain, hostile.Plain, []string{"journal", "prune", "--older-than", "0", "--dry-run"}},
		{"journal-prune-dry-run/terminal", colour, hostile.Terminal, []string{"journal", "prune", "--older-than", "0", "--dry-run"}},
		{"dream-dismissed/piped", plain, hostile.Plain, []string{"dream", "--dismissed"}},
		{"rules/piped", plain, hostile.Plain, []string{"rules"}},
		{"rules/json", plain, hostile.JSON, []string{"rules", "--json"}},
		{"version/piped", plain, hostile.Plain, []string{"version"}},
		{"version/json", plain, hostile.JSON, []string{"version", "--json"}},
		{"hook-install-dry-run/piped", plain, hostile.Plain, []string{"hook", "install", "--dry-run", "--command", hookBin}},
		{"hook-install-dry-run/terminal", colour, hostile.Terminal, []string{"hook", "install", "--dry-run", "--command", hookBin}},
		{"hook-uninstall-dry-run/piped", plain, hostile.Plain, []string{"hook", "uninstall", "--dry-run"}},
		{"hook-uninstall-dry-run/terminal", colour, hostile.Terminal, []string{"hook", "uninstall", "--dry-run"}},
	}
	// A hostile proposal dismissed first, so dream --dismissed lists one:
	// its title (a file name with escapes) and rationale come back from
	// memtui's own state file.
	dismissed := ""
	t.Run("dream-dismiss/setup", func(t *testing.T) {
		o := runHostile(t, plain, h.args("dream", "--json")...)
		var got struct {
			Proposals []struct{ ID, Title string } `json:"proposals"`
		}
		if !ranCleanly(t, o) || json.Unmarshal([]byte(o.stdout), &got) != nil || len(got.Proposals) == 0 {
			t.Fatalf("no proposal to dismiss: exit %d\n%s", o.code, o.stderr)
		}
		dismissed = got.Proposals[0].ID
		for _, p := range got.Proposals {
			if strings.ContainsAny(p.Title, "\x1b\x07\n") {
				dismissed = p.ID
				break
			}
		}
		if o := runHostile(t, plain, h.args("dream", "--dismiss", dismissed)...); !ranCleanly(t, o) || o.code != exitOK {
			t.Fatalf("dream --dismiss %s: exit %d\n%s", dismissed, o.code, o.stderr)
		}
	})
	outs := map[string]outcome{}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			o := runHostile(t, p.env, h.args(p.args...)...)
			outs[p.name] = o
			h.checkLook(t, o, p.mode)
		})
	}

	// The sessions output is checked on sessions that carry the attacks,
	// not on an empty list.
	if o := outs["sessions/piped"]; strings.Contains(o.stdout, "No session read or wrote memory") || !strings.Contains(o.stdout, "session") {
		t.Errorf("sessions lists no session of the hostile tree:\n%s", o.stdout)
	}
	h.checkSnapshots(t, outs)
	if o := outs["dream-dismissed/piped"]; dismissed != "" && !strings.Contains(o.stdout, dismissed) {
		t.Errorf("dream --dismissed does not list %s, dismissed before it:\n%s", dismissed, o.stdout)
	}

	// An ID the journal does not have, carrying the attacks: refused as an
	// error (exit 2), which quotes it safely.
	t.Run("undo-unknown-id/piped", func(t *testing.T) {
		o := runHostile(t, plain, h.args("undo", "nope"+hostile.OSC52+"\n"+hostile.Forged)...)
		if !ranCleanly(t, o) {
			return
		}
		if o.code != exitUsage {
			t.Errorf("%s: exit %d, want %d (no such entry)", o.name, o.code, exitUsage)
		}
		checkOutput(t, tr, o, hostile.Plain)
		t.Run("tree-unchanged", func(t *testing.T) { checkUnchanged(t, tr, h.before, o.name) })
	})

	// The same commands on a real terminal: a pseudo-terminal on the built
	// binary's stdin, stdout and stderr.
	h.bin = buildMemtui(t)
	ptyEnv := childEnv("HOME", h.home, "XDG_STATE_HOME", h.state, "XDG_CACHE_HOME", h.cache)
	for _, p := range []struct {
		name string
		args []string
	}{
		{"lint/pty", []string{"lint"}},
		{"lint-verbose/pty", []string{"lint", "--verbose"}},
		{"dream/pty", []string{"dream"}},
		{"dream-apply-dry-run/pty", []string{"dream", "--apply"}},
		{"index/pty", []string{"index"}},
		{"index-move-above-cut/pty", []string{"index", "work-evil", "--move-above-cut", tr.CutNote}},
		{"changes/pty", []string{"changes"}},
		{"history/pty", []string{"history"}},
		{"sessions/pty", []string{"sessions"}},
		{"ls/pty", []string{"ls"}},
		{"snapshot-verbose/pty", []string{"snapshot", "-v"}},
		{"undo-list/pty", []string{"undo", "--list"}},
		{"journal-prune-dry-run/pty", []string{"journal", "prune", "--older-than", "0", "--dry-run"}},
		{"hook-install-dry-run/pty", []string{"hook", "install", "--dry-run", "--command", hookBin}},
		{"hook-uninstall-dry-run/pty", []string{"hook", "uninstall", "--dry-run"}},
	} {
		t.Run(p.name, func(t *testing.T) {
			h.checkLook(t, runOnPTY(t, h.bin, ptyEnv, h.args(p.args...)...), hostile.Terminal)
		})
	}

	// A theme the user chose (MEMTUI_THEME, --theme) is drawn without
	// asking the terminal anything; auto, the control, asks.
	t.Run("theme-chosen/pty", func(t *testing.T) {
		auto := runOnPTY(t, h.bin, ptyEnv, h.args("lint")...)
		light := runOnPTY(t, h.bin, append(slices.Clone(ptyEnv), "MEMTUI_THEME=light"), h.args("lint")...)
		dark := runOnPTY(t, h.bin, ptyEnv, h.args("--theme", "dark", "lint")...)
		for _, o := range []outcome{auto, light, dark} {
			if !ranCleanly(t, o) {
				return
			}
		}
		if !auto.asked {
			t.Error("auto did not ask the terminal for its background: this check cannot tell")
		}
		if light.asked || dark.asked {
			t.Errorf("a chosen theme still asked the terminal (MEMTUI_THEME=light %v, --theme dark %v)", light.asked, dark.asked)
		}
		if light.stdout == dark.stdout {
			t.Error("light and dark drew the same report")
		}
		h.checkLook(t, light, hostile.Terminal)
	})

	// The hook's outputs were checked on output that quotes the attacks:
	// the old hook's command (escapes, a newline, a forged line), the new
	// binary's folder, the settings' raw C1 and bidi characters and token
	// in the diff's context, all shown safe.
	t.Run("attack/hook-settings-shown-escaped", func(t *testing.T) {
		oldHook := safe.ShowLine("'/opt/" + hostile.OSC0 + "\n" + hostile.Forged + "/memtui' snapshot")
		for name, want := range map[string][]string{
			"hook-install-dry-run/piped":   {"replacing on Stop: " + oldHook, "hook: " + safe.ShowLine(memfs.HookCommand(hookBin)), `"env": {"GITHUB_TOKEN": "ghp_`, "added on SessionStart, SessionEnd"},
			"hook-uninstall-dry-run/piped": {"removing on Stop: " + oldHook, `"env": {"GITHUB_TOKEN": "ghp_`},
		} {
			o := outs[name]
			if !ranCleanly(t, o) {
				continue
			}
			for _, w := range want {
				if !strings.Contains(o.stdout, w) {
					t.Errorf("%s does not show %q:\n%s", name, w, hostile.Visible(o.stdout))
				}
			}
		}
	})

	// The tree's sessions ran Claude Code 2.1.226: lint's summary names
	// the projects on it, the one whose cwd holds escapes shown escaped.
	t.Run("attack/version-line-escaped", func(t *testing.T) {
		for _, name := range []string{"lint/piped", "lint-verbose/piped"} {
			o := outs[name]
			if !ranCleanly(t, o) {
				continue
			}
			var line string
			for _, l := range strings.Split(o.stdout, "\n") {
				if strings.HasPrefix(l, "claude code: ") {
					line = l
				}
			}
			if !strings.Contains(line, safe.ShowLine(tr.EscRoot)+" (2.1.226)") || !strings.Contains(line, "last ran 2.1.261 or older") {
				t.Errorf("%s: the version line does not name %q escaped:\n%s", name, safe.ShowLine(tr.EscRoot), hostile.Visible(line))
			}
		}
	})
	// lint --json says the same in claude_code: the project whose cwd holds
	// escapes is named as its transcripts hold it (the JSON escapes the
	// bytes; the checks above ran on the raw output).
	t.Run("attack/version-json-names-project", func(t *testing.T) {
		o := outs["lint/json"]
		if !ranCleanly(t, o) {
			return
		}
		for _, old := range decodeLint(t, o.stdout).ClaudeCode.Older {
			if old.Project == tr.EscRoot {
				if old.Version != "2.1.226" || !old.Compared || len(old.Differs) != len(claude.Changes) {
					t.Errorf("lint --json: claude_code.older names %q as %+v, want 2.1.226 lacking every change", tr.EscRoot, old)
				}
				return
			}
		}
		t.Errorf("lint --json: claude_code.older does not name %q, whose sessions ran 2.1.226:\n%s", tr.EscRoot, hostile.Visible(o.stdout))
	})
	// The store a session in a subdirectory of the repository at EscRoot
	// wrote is reported on both stores, naming both folders (escapes
	// included): the checks above ran on that text, so the findings went
	// through the sanitizer; here they are shown to be there at all.
	t.Run("attack/strand-findings", func(t *testing.T) {
		o := outs["lint/json"]
		if !ranCleanly(t, o) {
			return
		}
		var stranded, has bool
		for _, f := range decodeLint(t, o.stdout).Findings {
			switch {
			case f.Rule == consolidate.RuleStoreStranded && f.MemoryDir == tr.Stranded:
				stranded = strings.Contains(f.Message, tr.StrandRoot+", a subdirectory of the repository "+tr.EscRoot)
			case f.Rule == consolidate.RuleStoreHasStranded && f.MemoryDir == tr.Esc:
				has = strings.Contains(f.Message, "stranded in "+tr.Stranded)
			}
		}
		if !stranded || !has {
			t.Errorf("lint --json: store-stranded on %q %v, store-has-stranded on %q %v; want both, naming the folders:\n%s",
				tr.Stranded, stranded, tr.Esc, has, hostile.Visible(o.stdout))
		}
	})
	// Claude Code's scan follows link_outside.md out of the memory dir: ls
	// lists it (its content is shown masked; the checks above say so).
	t.Run("attack/outside-link-listed", func(t *testing.T) {
		o := outs["ls/json"]
		if !ranCleanly(t, o) {
			return
		}
		var ls struct {
			Memories []struct {
				MemoryDir string `json:"memory_dir"`
				File      string `json:"file"`
			} `json:"memories"`
		}
		if err := json.Unmarshal([]byte(o.stdout), &ls); err != nil {
			t.Fatalf("ls --json: %v", err)
		}
		for _, m := range ls.Memories {
			if m.MemoryDir == tr.Evil && m.File == tr.LinkOutside {
				return
			}
		}
		t.Errorf("ls --json does not list %s, which Claude Code's scan reads", tr.LinkOutside)
	})
	t.Run("attack/override-dir-shown", func(t *testing.T) {
		o := outs["lint/json"]
		if !ranCleanly(t, o) {
			return
		}
		for _, f := range decodeLint(t, o.stdout).Findings {
			if f.MemoryDir == tr.Override {
				return
			}
		}
		t.Errorf("lint shows nothing of %s, the autoMemoryDirectory a project's settings name (its relative date must be reported)", tr.Override)
	})
	// The refused transcript is said in every form of lint's report (so
	// the checks above ran on output that quotes its name).
	t.Run("attack/linked-transcript-reported", func(t *testing.T) {
		shown := safe.Line(filepath.Join(filepath.Dir(tr.Esc), "agent-"+hostile.OSC52+"\n"+hostile.Forged))
		for _, name := range []string{"lint/piped", "lint-verbose/piped"} {
			o := outs[name]
			if !ranCleanly(t, o) {
				continue
			}
			if !strings.Contains(o.stdout, "transcripts: ") || !strings.Contains(o.stdout, shown) {
				t.Errorf("%s does not name the symlinked transcript %q:\n%s", name, shown, hostile.Visible(o.stdout))
			}
		}
		o := outs["lint/json"]
		if !ranCleanly(t, o) {
			return
		}
		for _, p := range decodeLint(t, o.stdout).TranscriptProblems {
			if strings.HasPrefix(p.Transcript, filepath.Join(filepath.Dir(tr.Esc), "agent-"+hostile.OSC52+"\n"+hostile.Forged)) && strings.Contains(p.Message, "symlink") {
				return
			}
		}
		t.Errorf("lint --json has no transcript_problems entry for %q", tr.LinkedTranscript)
	})
	t.Run("attack/unrepresentable-files-reported", func(t *testing.T) {
		o := outs["lint/json"]
		if !ranCleanly(t, o) {
			return
		}
		got := map[string]bool{}
		for _, f := range decodeLint(t, o.stdout).Findings {
			if f.MemoryDir == tr.Evil {
				got[f.File] = true
			}
		}
		for _, name := range []string{tr.Binary, tr.UTF16, tr.NUL} {
			if !got[name] {
				t.Errorf("no finding on %s, a file memtui cannot represent as text", name)
			}
		}
	})

	t.Run("attack/aws-secret-key-found", func(t *testing.T) {
		o := outs["lint/json"]
		if !ranCleanly(t, o) {
			return
		}
		for _, f := range decodeLint(t, o.stdout).Findings {
			if f.MemoryDir == tr.Evil && f.File == "aws_note.md" && f.Rule == "secret" {
				return
			}
		}
		t.Error("lint (without --deep-secrets) does not find the aws_secret_access_key assignment in aws_note.md")
	})

	dream := func(t *testing.T) []model.Proposal {
		o := outs["dream/json"]
		if !ranCleanly(t, o) {
			return nil
		}
		return decodeDream(t, o.stdout).Proposals
	}
	t.Run("attack/unrepresentable-files-not-rewritten", func(t *testing.T) {
		for _, p := range dream(t) {
			for _, c := range p.Changes {
				if p.MemoryDir == tr.Evil && slices.Contains([]string{tr.Binary, tr.UTF16, tr.NUL}, c.Path) {
					t.Errorf("%s (%s) rewrites %s, a file memtui cannot represent as text", p.ID, p.Kind, c.Path)
				}
			}
		}
	})
	t.Run("attack/index-rewrite-is-text", func(t *testing.T) {
		link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
		isIndex := regexp.MustCompile(`^(MEMORY|memory-archive(-\d+)?)\.md$`)
		for _, p := range dream(t) {
			created := map[string]bool{}
			for _, c := range p.Changes {
				created[c.Path] = c.Op != model.OpDelete
			}
			// Lines an index already had are the attacker's own (moving
			// them, redacting a secret in them, or pointing one of their
			// links elsewhere, as an archive does, is no copying); lines
			// memtui writes anew must be text.
			had := map[string]bool{}
			for _, l := range strings.Split(readAll(filepath.Join(p.MemoryDir, "MEMORY.md")), "\n") {
				had[l] = true
				redacted, _ := secrets.Default().Redact(l)
				had[redacted] = true
				if p.Kind == model.KindArchive {
					had[link.ReplaceAllString(l, "]()")] = true
				}
			}
			for _, c := range p.Changes {
				if !isIndex.MatchString(c.Path) || c.Op == model.OpDelete {
					continue
				}
				for _, l := range strings.Split(readAll(filepath.Join(p.MemoryDir, c.Path)), "\n") {
					had[l] = true
				}
				for _, l := range strings.Split(c.After, "\n") {
					if had[l] || p.Kind == model.KindArchive && had[link.ReplaceAllString(l, "]()")] {
						continue
					}
					// A link target names a file as it is named; the text
					// around it (titles, hooks from descriptions) is memtui's.
					text := link.ReplaceAllString(l, "]()")
					switch {
					case strings.ContainsRune(l, 0) || !utf8.ValidString(l):
						t.Errorf("%s (%s) writes a line with NUL bytes or invalid UTF-8 into %s: %q", p.ID, p.Kind, c.Path, l)
					case p.Kind != model.KindRestoreLost && len(hostile.Controls(text, hostile.Plain)) > 0:
						// (restore-lost puts back what a session wrote, as written)
						t.Errorf("%s (%s) copies control characters into a new line of %s: %q", p.ID, p.Kind, c.Path, l)
					}
				}
				for _, m := range link.FindAllStringSubmatch(c.After, -1) {
					target := m[1]
					if created[target] || strings.Contains(target, "://") {
						continue
					}
					if _, err := os.Lstat(filepath.Join(p.MemoryDir, target)); err != nil {
						t.Errorf("%s (%s) writes an entry for %q into %s, a file that does not exist", p.ID, p.Kind, target, c.Path)
					}
				}
			}
		}
	})
	t.Run("attack/numbered-memories-not-merged", func(t *testing.T) {
		numbered := map[string]bool{}
		for _, n := range tr.Numbered {
			numbered[n] = true
		}
		for _, p := range dream(t) {
			if p.Kind != model.KindMerge {
				continue
			}
			// What a merge folds together is what it changes or deletes;
			// its Reads list every file it searched for links to repoint,
			// which says nothing about the group.
			files := map[string]bool{}
			for _, c := range p.Changes {
				if c.Path != "MEMORY.md" {
					files[c.Path] = true
				}
			}
			var steps []string
			for f := range files {
				if numbered[f] {
					steps = append(steps, f)
				}
			}
			slices.Sort(steps)
			if len(steps) > 1 {
				t.Errorf("%s merges %d distinct numbered memories (%s ... %s) into one", p.ID, len(steps), steps[0], steps[len(steps)-1])
			}
			if len(files) > 20 {
				t.Errorf("%s is a merge of %d files: no sane group is that large", p.ID, len(files))
			}
		}
	})
	t.Run("attack/undo-scoped-to-config-dir", func(t *testing.T) {
		other := t.TempDir()
		mem := filepath.Join(other, "projects", "-work-other", "memory")
		writeFile(t, filepath.Join(mem, "MEMORY.md"), "- [Plain](feedback_plain.md) — plain\n")
		writeFile(t, filepath.Join(mem, "feedback_plain.md"), "---\nname: plain\ndescription: plain\ntype: feedback\n---\n\nPlain.\n")
		o := runHostile(t, h.env, "--config-dir", other, "undo", "--list")
		if !ranCleanly(t, o) {
			return
		}
		if strings.Contains(o.stdout, h.journalTitleID) || strings.Contains(o.stdout, tr.Evil) {
			t.Errorf("undo --list --config-dir %s lists journal entries of another tree:\n%s", other, hostile.Visible(o.stdout))
		}
	})
	t.Run("attack/undo-scoped-to-project", func(t *testing.T) {
		o := runHostile(t, h.env, h.args("--project", "work-esc", "undo", "--list")...)
		if !ranCleanly(t, o) {
			return
		}
		if strings.Contains(o.stdout, h.journalTitleID) {
			t.Errorf("undo --list --project work-esc lists an entry of another project:\n%s", hostile.Visible(o.stdout))
		}
	})
	t.Run("attack/proposer", func(t *testing.T) { hostileProposer(t, h) })
	t.Run("attack/state-owner-only", func(t *testing.T) {
		// Baselines, the journal and the transcript cache hold memory text
		// (secrets included): owner-only, as Claude Code's transcripts are.
		for _, root := range []string{h.state, h.cache} {
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err != nil || p == root {
					return err
				}
				info, err := d.Info()
				if err == nil && info.Mode().Perm()&0o077 != 0 {
					rel, _ := filepath.Rel(root, p)
					t.Errorf("%s is %s: readable by others", rel, info.Mode())
				}
				return nil
			})
		}
	})
	redactID := func(t *testing.T) string {
		o := runHostile(t, h.env, h.args("undo", "--list", "--json")...)
		if !ranCleanly(t, o) {
			return ""
		}
		var list struct {
			Entries []struct {
				ID        string `json:"id"`
				Kind      string `json:"kind"`
				MemoryDir string `json:"memory_dir"`
			} `json:"entries"`
		}
		if err := json.Unmarshal([]byte(o.stdout), &list); err != nil {
			t.Fatalf("undo --list --json: %v\n%s", err, hostile.Visible(o.stdout))
		}
		for _, e := range list.Entries {
			if e.Kind == string(model.KindRedactSecret) && e.MemoryDir == tr.Esc {
				return e.ID
			}
		}
		t.Fatalf("the setup's redaction is not in the journal:\n%s", hostile.Visible(o.stdout))
		return ""
	}
	t.Run("attack/redacted-key-kept-only-in-its-journal-entry", func(t *testing.T) {
		id := redactID(t)
		if id == "" {
			return
		}
		key := tr.Secrets["the PEM key in pem_redacted.md (redacted by the setup's apply)"]
		allowed := filepath.Join(h.state, "memtui", "journal", id) + string(filepath.Separator)
		inEntry := false
		for _, root := range []string{tr.Root, h.state, h.cache} {
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err != nil || !d.Type().IsRegular() {
					return err
				}
				text := readAll(p)
				for _, l := range key {
					if !strings.Contains(text, l) {
						continue
					}
					if strings.HasPrefix(p, allowed) {
						inEntry = true
					} else {
						t.Errorf("%s still holds the redacted key (kept outside the redaction's journal entry %s)", p, id)
					}
					break
				}
				return nil
			})
		}
		if !inEntry {
			t.Errorf("the redaction's journal entry %s does not hold the key it removed: nothing could undo it", id)
		}
	})

	// Last, as they write.
	t.Run("attack/undo-restores-bytes-and-mtime", func(t *testing.T) {
		if h.journalErr != nil {
			t.Fatalf("no journal entry to undo: %v", h.journalErr)
		}
		o := runHostile(t, h.env, h.args("undo", h.journalTitleID)...)
		if !ranCleanly(t, o) {
			return
		}
		checkOutput(t, tr, o, hostile.Plain)
		if o.code != exitOK {
			t.Fatalf("undo %s: exit %d\n%s", h.journalTitleID, o.code, hostile.Visible(o.both()))
		}
		p := filepath.Join(tr.Evil, tr.JournalTarget)
		if got := readAll(p); got != h.journalBefore {
			t.Errorf("undo did not restore %s byte for byte:\n%s", tr.JournalTarget, hostile.Visible(got))
		}
		if info, err := os.Lstat(p); err != nil || !info.ModTime().Equal(tr.JournalTime) {
			var got time.Time
			if info != nil {
				got = info.ModTime()
			}
			t.Errorf("undo left %s with mtime %s, not its own %s", tr.JournalTarget, got.Format(time.RFC3339), tr.JournalTime.Format(time.RFC3339))
		}
	})
	// Undoing a redaction brings a credential back,
	// so the CLI must refuse it without an explicit flag.
	t.Run("attack/undo-redaction-refused", func(t *testing.T) {
		id := redactID(t)
		if id == "" {
			return
		}
		o := runHostile(t, h.env, h.args("undo", id)...)
		if !ranCleanly(t, o) {
			return
		}
		checkOutput(t, tr, o, hostile.Plain)
		if o.code == exitOK || strings.Contains(o.stdout, "undone "+id) {
			t.Errorf("undo %s (a redact-secret) put the credential back without asking:\n%s", id, hostile.Visible(o.both()))
		}
		if strings.Contains(readAll(filepath.Join(tr.Esc, "pem_redacted.md")), "PRIVATE KEY-----\n") &&
			!strings.Contains(readAll(filepath.Join(tr.Esc, "pem_redacted.md")), "[REDACTED]") {
			t.Error("the redacted key is back on disk")
		}
	})
}

// hostileProposer runs a --proposer that prints escape-laden titles and
// proposals memtui must refuse, and checks what memtui printed and what
// the proposer was given.
func hostileProposer(t *testing.T, h *hostileRun) {
	tr := h.tr
	dir := t.TempDir()
	plain := readAll(filepath.Join(tr.Evil, tr.Plain))
	index := readAll(filepath.Join(tr.Evil, "MEMORY.md"))
	outside := readAll(tr.Outside)
	good := memoryText("ctrl", "d", "user", "Fine.\n")
	type change struct {
		Path  string `json:"path"`
		Op    string `json:"op"`
		Base  string `json:"base_sha256"`
		After string `json:"after"`
	}
	type prop struct {
		Kind      string   `json:"kind"`
		Title     string   `json:"title"`
		Rationale string   `json:"rationale"`
		Changes   []change `json:"changes"`
	}
	escTitle := "Tidy " + hostile.All
	props := []prop{
		{"fix-frontmatter", escTitle, "Because " + hostile.All, []change{{tr.Plain, "update", hostile.SHA(plain), plain + "\nAlso " + hostile.OSC52 + "\n"}}},
		{"prune", "DELETE-INDEX", "drop the index", []change{{"MEMORY.md", "delete", hostile.SHA(index), ""}}},
		{"fix-frontmatter", "CTRL-NAME", "a name with escapes", []change{{"ctrl" + hostile.OSC0 + ".md", "create", "", good}}},
		{"fix-frontmatter", "NEWLINE-NAME", "a name with a newline", []change{{"new\nFORGEDLINE.md", "create", "", good}}},
		{"fix-frontmatter", "SYMLINK-TARGET", "write through a link", []change{{tr.LinkOutside, "update", hostile.SHA(outside), outside + "\nappended\n"}}},
		{"fix-frontmatter", "SYMLINK-INSIDE", "write through a link to another memory", []change{{tr.LinkInside, "update", hostile.SHA(plain), plain + "\nappended\n"}}},
		{"fix-frontmatter", "HUGE-FILE", "2 MiB in one memory", []change{{"huge_note.md", "create", "", memoryText("huge", "d", "user", strings.Repeat("a", 2<<20)+"\n")}}},
	}
	out, _ := json.Marshal(map[string]any{"version": 1, "proposals": props})
	must(t, os.WriteFile(filepath.Join(dir, "out.json"), out, 0o644))
	script := filepath.Join(dir, "proposer.sh")
	must(t, os.WriteFile(script, []byte("#!/bin/sh\ncat >> \""+dir+"/in.jsonl\"\necho >> \""+dir+"/in.jsonl\"\ncat \""+dir+"/out.json\"\n"), 0o755))

	base := []string{"--project", tr.EvilSlug, "dream", "--proposer", script}
	var jsonOut outcome
	for _, p := range []struct {
		name string
		env  func(string) string
		mode hostile.Mode
		args []string
	}{
		{"piped", h.env, hostile.Plain, nil},
		{"terminal", h.colour(), hostile.Terminal, nil},
		{"json", h.env, hostile.JSON, []string{"--json"}},
		{"apply-dry-run", h.env, hostile.Plain, []string{"--apply"}},
	} {
		t.Run(p.name, func(t *testing.T) {
			o := runHostile(t, p.env, h.args(append(slices.Clone(base), p.args...)...)...)
			if p.name == "json" {
				jsonOut = o
			}
			if !ranCleanly(t, o) {
				return
			}
			checkOutput(t, tr, o, p.mode)
			t.Run("tree-unchanged", func(t *testing.T) { checkUnchanged(t, tr, h.before, o.name) })
		})
	}
	t.Run("pty", func(t *testing.T) {
		o := runOnPTY(t, h.bin, childEnv("HOME", h.home, "XDG_STATE_HOME", h.state, "XDG_CACHE_HOME", h.cache), h.args(base...)...)
		if !ranCleanly(t, o) {
			return
		}
		checkOutput(t, tr, o, hostile.Terminal)
	})
	for _, bad := range []struct{ title, why string }{
		{"DELETE-INDEX", "deletes MEMORY.md"},
		{"CTRL-NAME", "creates a file whose name holds escape sequences"},
		{"NEWLINE-NAME", "creates a file whose name holds a newline"},
		{"SYMLINK-TARGET", "writes through a symlink to a file outside the memory dir"},
		{"SYMLINK-INSIDE", "writes through a symlink to another memory"},
		{"HUGE-FILE", "proposes a 2 MiB memory file (memtui reads at most 1 MiB of one)"},
	} {
		t.Run("refused/"+bad.title, func(t *testing.T) {
			if !ranCleanly(t, jsonOut) {
				return
			}
			for _, p := range decodeDream(t, jsonOut.stdout).Proposals {
				if p.Title == bad.title && p.MemoryDir == tr.Evil {
					t.Errorf("accepted a proposal that %s (%s)", bad.why, p.ID)
				}
			}
			if !strings.Contains(jsonOut.stderr, bad.title) {
				t.Errorf("stderr does not say why the proposal that %s was rejected:\n%s", bad.why, hostile.Visible(jsonOut.stderr))
			}
		})
	}
	t.Run("input", func(t *testing.T) {
		raw := readAll(filepath.Join(dir, "in.jsonl"))
		if raw == "" {
			t.Fatal("the proposer was never given its input")
		}
		dec := json.NewDecoder(strings.NewReader(raw))
		n := 0
		for dec.More() {
			var in map[string]any
			if err := dec.Decode(&in); err != nil {
				t.Fatalf("input %d is not JSON: %v", n+1, err)
			}
			n++
		}
		t.Run("no-secret", func(t *testing.T) {
			for _, p := range tr.Leaks(raw) {
				t.Errorf("the proposer's input (README: secrets already replaced with [REDACTED]) %s", p)
			}
		})
		t.Run("no-raw-control", func(t *testing.T) {
			for _, p := range hostile.Controls(raw, hostile.JSON) {
				t.Errorf("the proposer's input: %s", p)
			}
		})
	})
}

func memoryText(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n---\n\n" + body
}

// TestHostileProposerBounds: a proposer that never stops talking, and one
// that leaves a process behind when it times out.
func TestHostileProposerBounds(t *testing.T) {
	t.Parallel()
	cfg, memDir, _ := proposerTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	before, err := hostile.Snapshot(cfg)
	if err != nil {
		t.Fatal(err)
	}
	unchanged := func(t *testing.T) {
		after, _ := hostile.Snapshot(cfg)
		for _, c := range hostile.Changed(before, after) {
			t.Errorf("changed the tree: %s", c)
		}
	}

	t.Run("huge-output-refused", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: skips the 80 MB proposer output")
		}
		// 80 MB of one proposal, generated by the script, never stored:
		// over the 64 MB output cap and far over one memory's 1 MiB.
		dir := t.TempDir()
		script := filepath.Join(dir, "huge.sh")
		must(t, os.WriteFile(script, []byte(`#!/bin/sh
cat >/dev/null
printf '{"version":1,"proposals":[{"kind":"fix-frontmatter","title":"HUGE","rationale":"r","changes":[{"path":"huge_note.md","op":"create","base_sha256":"","after":"---\\nname: huge\\ndescription: d\\ntype: user\\n---\\n\\n'
head -c 80000000 /dev/zero | tr '\000' a
printf '\\n"}]}]}\n'
`), 0o755))
		o := runHostile(t, e, "--config-dir", cfg, "dream", "--json", "--proposer", script)
		if !ranCleanly(t, o) {
			return
		}
		if len(o.stdout) > 4<<20 {
			t.Errorf("printed %d MB: the proposer's 80 MB output was accepted instead of refused at the cap", len(o.stdout)>>20)
		}
		if o.code == exitOK && strings.Contains(o.stdout, `"HUGE"`) {
			t.Error("accepted the proposal of an 80 MB memory file")
		}
		if !regexp.MustCompile(`(?i)\d+ ?(MB|MiB)|too (large|big|much)|more than`).MatchString(flat(o.stderr)) {
			t.Errorf("stderr does not say the proposer's output was too large:\n%.2000s", hostile.Visible(o.stderr))
		}
		if _, err := os.Lstat(filepath.Join(memDir, "huge_note.md")); err == nil {
			t.Error("huge_note.md was written")
		}
		unchanged(t)
	})

	t.Run("timeout-kills-process-group", func(t *testing.T) {
		dir := t.TempDir()
		pidFile := filepath.Join(dir, "bg.pid")
		script := filepath.Join(dir, "slow.sh")
		// The background sleep is the proposer's own process: the timeout
		// must end it with the shell.
		must(t, os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\nsleep 120 &\necho $! > \""+pidFile+"\"\nwait\n"), 0o755))
		o := runHostile(t, e, "--config-dir", cfg, "dream", "--proposer", script, "--proposer-timeout", "1s")
		if !ranCleanly(t, o) {
			return
		}
		if o.code == exitOK {
			t.Errorf("a proposer that timed out: exit 0\n%s", hostile.Visible(o.both()))
		}
		pid, err := strconv.Atoi(strings.TrimSpace(readAll(pidFile)))
		if err != nil {
			t.Fatalf("the proposer never started its background process: %v", err)
		}
		// Killed processes are gone within moments; give it ample time.
		alive := true
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if syscall.Kill(pid, 0) != nil || isZombie(pid) {
				alive = false
				break
			}
		}
		if alive {
			syscall.Kill(pid, syscall.SIGKILL) // ours: the test started it
			t.Errorf("the proposer's background process (PID %d) outlived --proposer-timeout: only the shell was killed", pid)
		}
		unchanged(t)
	})
}

// isZombie reports whether pid has exited and waits only to be reaped.
func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// TestHostileRecords replaces a file memtui wrote (so the journal names
// it) with a FIFO, a link to /dev/zero or a link to a file outside the
// memory dir, and runs the commands that resolve the journal's
// after-images. They run as a separate binary, under a deadline and an
// address-space cap: in this process a blocked open or an endless read
// would take the rest of the suite (or the machine's memory) with it.
// "control" is the same tree with nothing replaced: it must pass, or the
// cap itself is what fails.
func TestHostileRecords(t *testing.T) {
	t.Parallel()
	bin := buildMemtui(t)
	for _, trap := range []string{"control", "fifo", "dev-zero", "outside-link"} {
		t.Run(trap, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			cfg := filepath.Join(root, "claude")
			proj := filepath.Join(cfg, "projects", "-work-victim")
			mem := filepath.Join(proj, "memory")
			writeFile(t, filepath.Join(mem, "MEMORY.md"), "- [Launch](project_launch.md) — the launch\n")
			writeFile(t, filepath.Join(mem, "project_launch.md"), memoryText("launch", "When the portal launches", "project", "We launch tomorrow.\n"))
			// A session transcript: commands read the transcripts, and with
			// them the journal's after-images.
			writeFile(t, filepath.Join(proj, "dddd4444-0000-4000-8000-000000000004.jsonl"),
				`{"type":"user","cwd":"/work/victim","sessionId":"dddd4444-0000-4000-8000-000000000004","version":"2.1.226","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"hello"}}`+"\n")
			st, cache := t.TempDir(), t.TempDir()
			e := env("HOME", root, "XDG_STATE_HOME", st, "XDG_CACHE_HOME", cache)
			o := runHostile(t, e, "--config-dir", cfg, "--now", "2026-11-21", "dream", "--apply", "--yes")
			if o.hung || o.failed != "" || !strings.Contains(o.stdout, "applied") {
				t.Fatalf("setup: the apply did not write (exit %d):\n%s", o.code, hostile.Visible(o.both()))
			}
			victim := filepath.Join(mem, "project_launch.md")
			// The outside file is a FIFO that hands out a marker to each
			// reader: opening it at all is what the test detects.
			outside := filepath.Join(root, "outside.md")
			marker := "OUTSIDE-VICTIM-" + strconv.Itoa(os.Getpid())
			var opened atomic.Int32
			stop := make(chan struct{})
			switch trap {
			case "fifo":
				must(t, os.Remove(victim))
				must(t, syscall.Mkfifo(victim, 0o644))
			case "dev-zero":
				must(t, os.Remove(victim))
				must(t, os.Symlink("/dev/zero", victim))
			case "outside-link":
				must(t, os.Remove(victim))
				must(t, syscall.Mkfifo(outside, 0o644))
				must(t, os.Symlink(outside, victim))
				go func() {
					for {
						f, err := os.OpenFile(outside, os.O_WRONLY, 0) // blocks until someone reads
						select {
						case <-stop:
							if err == nil {
								f.Close()
							}
							return
						default:
						}
						if err != nil {
							return
						}
						opened.Add(1)
						f.WriteString(memoryText("outside", "d", "user", marker+"\n"))
						f.Close()
					}
				}()
				t.Cleanup(func() {
					close(stop)
					if f, err := os.OpenFile(outside, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
						time.Sleep(10 * time.Millisecond) // let the writer's open return
						f.Close()
					}
				})
			}
			before, err := hostile.Snapshot(root)
			if err != nil {
				t.Fatal(err)
			}
			ce := childEnv("HOME", root, "XDG_STATE_HOME", st, "XDG_CACHE_HOME", cache)
			cmds := [][]string{{"lint"}, {"dream", "--json"}, {"changes"}, {"undo", "--list"}}
			outs := make([]outcome, len(cmds))
			newlyOpened := make([]int32, len(cmds))
			if trap == "fifo" {
				// Each may block for the whole deadline: run them at once.
				var wg sync.WaitGroup
				for i, args := range cmds {
					wg.Go(func() {
						outs[i] = runLimited(bin, ce, append([]string{"--config-dir", cfg, "--now", "2026-11-21"}, args...)...)
					})
				}
				wg.Wait()
			} else {
				for i, args := range cmds {
					was := opened.Load()
					outs[i] = runLimited(bin, ce, append([]string{"--config-dir", cfg, "--now", "2026-11-21"}, args...)...)
					newlyOpened[i] = opened.Load() - was
				}
			}
			for i, args := range cmds {
				t.Run(strings.Join(args, "-"), func(t *testing.T) {
					o := outs[i]
					if newlyOpened[i] > 0 {
						t.Errorf("%s opened %s (outside the memory dir, and no regular file) through the link that replaced a file the journal names", o.name, outside)
					}
					if !ranCleanly(t, o) {
						return
					}
					if strings.Contains(o.both(), marker) {
						t.Errorf("%s printed the content of %s, reached through a link where memtui had written a file", o.name, outside)
					}
					after, _ := hostile.Snapshot(root)
					for _, c := range hostile.Changed(before, after) {
						t.Errorf("%s changed the tree: %s", o.name, c)
					}
				})
			}
		})
	}
}

// checkLook checks a command that only looks: it ran, was not refused as
// a usage or I/O error, printed nothing unsafe and left the tree as it was.
func (h *hostileRun) checkLook(t *testing.T, o outcome, mode hostile.Mode) {
	t.Helper()
	if !ranCleanly(t, o) {
		return
	}
	if o.code == exitUsage {
		t.Errorf("%s: exit %d (usage or I/O error):\n%s", o.name, o.code, hostile.Visible(o.both()))
	}
	checkOutput(t, h.tr, o, mode)
	t.Run("tree-unchanged", func(t *testing.T) { checkUnchanged(t, h.tr, h.before, o.name) })
}

// checkSnapshots: `memtui snapshot` recorded the hostile tree (its
// verbose output naming the attacked directories, made safe; the plain
// run saying nothing), and the store it wrote holds none of the tree's
// secrets and nothing of the file outside the tree that a symlink leads
// to (a snapshot follows no link). --readonly refuses it and writes
// nothing.
func (h *hostileRun) checkSnapshots(t *testing.T, outs map[string]outcome) {
	tr := h.tr
	t.Run("snapshot/records-the-tree", func(t *testing.T) {
		o := outs["snapshot-verbose/piped"]
		if !ranCleanly(t, o) {
			return
		}
		for _, d := range []string{tr.Evil, tr.Esc} {
			if !strings.Contains(o.stdout, "recorded "+safe.ShowLine(d)+": ") {
				t.Errorf("snapshot -v does not name %q as recorded:\n%s", safe.ShowLine(d), hostile.Visible(o.stdout))
			}
		}
		if q := outs["snapshot/piped"]; q.code != exitOK || q.stdout != "" {
			t.Errorf("snapshot without -v: exit %d, printed %q", q.code, q.stdout)
		}
	})
	t.Run("snapshot/store-holds-no-secret", func(t *testing.T) {
		root := filepath.Join(h.state, "memtui", "snapshots")
		n := 0
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, l := range tr.Leaks(string(b)) {
				t.Errorf("%s: %s", p, l)
			}
			if strings.Contains(string(b), tr.Marker) {
				t.Errorf("%s holds the text of %s, outside every memory dir (a link was followed)", p, tr.Outside)
			}
			return nil
		})
		if n < 10 {
			t.Errorf("the snapshot store %s holds %d files: the check above saw nothing", root, n)
		}
	})
	t.Run("snapshot-readonly/piped", func(t *testing.T) {
		state := t.TempDir()
		o := runHostile(t, env("HOME", h.home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", h.cache), h.args("--readonly", "snapshot", "-v")...)
		if !ranCleanly(t, o) {
			return
		}
		if o.code != exitUsage || !strings.Contains(o.stderr, "--readonly forbids snapshot") {
			t.Errorf("snapshot --readonly: exit %d\n%s", o.code, hostile.Visible(o.both()))
		}
		if _, err := os.Lstat(filepath.Join(state, "memtui", "snapshots")); err == nil {
			t.Error("snapshot --readonly made a snapshot store")
		}
	})
}

// TestHostileArchive: the oldest memory of a folder past the cap has a
// name full of escape sequences and a newline; dream (text, terminal,
// JSON), the apply's dry run and the real apply, and the journal's list
// show its move with the name made safe, on one line; in JSON, "from"
// and "path" decode to the real names.
func TestHostileArchive(t *testing.T) {
	evil := "evil" + hostile.OSC52 + hostile.OSC0 + hostile.Clear + hostile.C1CSI + hostile.Bidi + "\n" + hostile.Forged + ".md"
	dir, _ := archiveDir(t, 201, time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), evil)
	home, state := t.TempDir(), t.TempDir()
	plain := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	colour := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir(), "CLICOLOR_FORCE", "1", "TERM", "xterm-256color")
	args := func(a ...string) []string { return append([]string{"--memory-dir", dir, "--now", "2026-11-21"}, a...) }
	check := func(t *testing.T, o outcome, mode hostile.Mode, want string) {
		t.Helper()
		if !ranCleanly(t, o) {
			return
		}
		for _, s := range []struct{ which, out string }{{"stdout", o.stdout}, {"stderr", o.stderr}} {
			m := mode
			if s.which == "stderr" {
				m = hostile.Plain
			}
			for _, p := range hostile.Controls(s.out, m) {
				t.Errorf("%s: %s: %s", o.name, s.which, p)
			}
		}
		if mode != hostile.JSON {
			for _, p := range hostile.Forgeries(o.both()) {
				t.Errorf("%s: %s", o.name, p)
			}
		}
		if !strings.Contains(o.stdout, want) {
			t.Errorf("%s does not show %q:\n%s", o.name, want, hostile.Visible(o.stdout))
		}
	}
	shown := `evil\x1b]52;c;aGVsbG8=\x07`
	for _, c := range []struct {
		name string
		env  func(string) string
		mode hostile.Mode
		args []string
		want string
	}{
		{"dream/piped", plain, hostile.Plain, []string{"dream", "--kind", "archive"}, "rename " + shown},
		{"dream/terminal", colour, hostile.Terminal, []string{"dream", "--kind", "archive"}, "rename " + shown},
		{"dream/json", plain, hostile.JSON, []string{"dream", "--json", "--kind", "archive"}, `"from": "evil\u001b]52`},
		{"dream-apply-dry-run", plain, hostile.Plain, []string{"dream", "--apply", "--kind", "archive"}, "move   " + filepath.Join(dir, shown)},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := runHostile(t, c.env, args(c.args...)...)
			check(t, o, c.mode, c.want)
			if c.mode == hostile.JSON && ranCleanly(t, o) {
				ps := decodeDream(t, o.stdout).Proposals
				found := false
				for _, p := range ps {
					for _, ch := range p.Changes {
						found = found || ch.Op == model.OpMove && ch.From == evil && ch.Path == ".archive/"+evil
					}
				}
				if !found {
					t.Errorf("no move of the evil name decodes from dream --json")
				}
			}
		})
	}
	t.Run("apply", func(t *testing.T) {
		o := runHostile(t, plain, args("dream", "--apply", "--yes", "--kind", "archive")...)
		check(t, o, hostile.Plain, "applied   archive-")
		if _, err := os.Lstat(filepath.Join(dir, ".archive", evil)); err != nil {
			t.Errorf("not archived: %v", err)
		}
	})
	for _, c := range []struct {
		name string
		mode hostile.Mode
		args []string
		want string
	}{
		{"undo-list", hostile.Plain, []string{"undo", "--list"}, "archive"},
		{"undo-list/json", hostile.JSON, []string{"undo", "--list", "--json"}, `"from": "evil\u001b]52`},
		{"history", hostile.Plain, []string{"history"}, shown},
		{"ls", hostile.Plain, []string{"ls"}, ".archive/" + shown},
	} {
		t.Run(c.name, func(t *testing.T) { check(t, runHostile(t, plain, args(c.args...)...), c.mode, c.want) })
	}
}

// TestHostileConfigFile: memtui's own config file with a theme and keys
// entries full of escape sequences, newlines before a forged line, a
// bidi override, a list of a hundred thousand keys, a name of a hundred
// kilobytes and two thousand unknown names. Every command still runs;
// what it says about them is safe, one line each, and bounded.
func TestHostileConfigFile(t *testing.T) {
	q := strconv.Quote // YAML reads Go's escapes in a double-quoted string
	var b strings.Builder
	b.WriteString("theme: " + q("dark"+hostile.OSC52+"\n"+hostile.Forged) + "\n")
	b.WriteString("keys:\n")
	b.WriteString("  " + q("quit"+hostile.OSC0+hostile.Clear+"\n"+hostile.Forged) + ": [q]\n")
	b.WriteString("  global.help: [" + q(hostile.C1CSI) + ", " + q(hostile.Bidi) + "]\n")
	b.WriteString("  views.index: [" + q("i\n"+hostile.Forged) + "]\n")
	b.WriteString("  global.refresh: [" + strings.Repeat("x, ", 100000) + "x]\n")
	// An implicit key is at most 1024 characters: a longer one is written
	// as an explicit key.
	b.WriteString("  ? " + q(strings.Repeat(hostile.OSC8, 2000)) + "\n  : [z]\n")
	b.WriteString("  views.browse: " + q(strings.Repeat(hostile.Erase, 5000)) + "\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "  %s: [z]\n", q(fmt.Sprintf("bogus%d%s", i, hostile.OSC0)))
	}
	files := map[string]string{
		"entries": b.String(),
		// Raw escapes are no YAML: the whole file is refused, and the
		// parser's error quoted safely.
		"raw": "theme: dark" + hostile.OSC52 + "\nkeys:\n  quit: [\"" + hostile.Clear + "\n" + hostile.Forged + "\"]\n",
	}
	for name, content := range files {
		t.Run(name, func(t *testing.T) {
			cfgHome := t.TempDir()
			writeFile(t, filepath.Join(cfgHome, "memtui", "config.yaml"), content)
			for _, mode := range []struct {
				name string
				env  func(string) string
				m    hostile.Mode
			}{
				{"piped", env("XDG_CONFIG_HOME", cfgHome), hostile.Plain},
				{"terminal", env("XDG_CONFIG_HOME", cfgHome, "CLICOLOR_FORCE", "1", "TERM", "xterm-256color"), hostile.Terminal},
			} {
				o := runHostile(t, mode.env, "--demo", "--now", "2026-11-21", "lint")
				if !ranCleanly(t, o) {
					continue
				}
				if o.code != exitFindings {
					t.Errorf("%s: exit %d, want %d (the demo's errors):\n%s", mode.name, o.code, exitFindings, hostile.Visible(o.stderr))
				}
				for _, p := range append(hostile.Controls(o.stderr, hostile.Plain), hostile.Forgeries(o.stderr)...) {
					t.Errorf("%s: stderr: %s", mode.name, p)
				}
				for _, p := range hostile.Controls(o.stdout, mode.m) {
					t.Errorf("%s: stdout: %s", mode.name, p)
				}
				if n := strings.Count(o.stderr, "\n"); n > 20 || len(o.stderr) > 8<<10 {
					t.Errorf("%s: %d lines, %d bytes on stderr: the config file's problems must be said in few words", mode.name, n, len(o.stderr))
				}
				if name == "entries" {
					for _, want := range []string{`line 1: theme: "dark\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE`, "more keys entries ignored", "using auto"} {
						if !strings.Contains(o.stderr, want) {
							t.Errorf("%s: stderr does not say %q:\n%s", mode.name, want, hostile.Visible(o.stderr))
						}
					}
				} else if !strings.Contains(o.stderr, "ignoring the config file") {
					t.Errorf("%s: a file YAML cannot read was not refused whole:\n%s", mode.name, hostile.Visible(o.stderr))
				}
			}
		})
	}
}

// TestHostileHookSettings: hook install and uninstall on hostile settings
// files, really writing: a file that is no JSON because of raw escape
// sequences and a newline before a forged line (refused, the error shown
// safe, nothing written), and the hostile tree's own settings copied to a
// path whose name holds escapes (installed, then uninstalled back to the
// same bytes, every message safe).
func TestHostileHookSettings(t *testing.T) {
	tr, err := hostile.Build(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	original := readAll(tr.Settings)
	home, state := t.TempDir(), t.TempDir()
	dir := filepath.Join(t.TempDir(), "dot"+hostile.OSC52+"\n"+hostile.Forged)
	bin := filepath.Join(t.TempDir(), "bin"+hostile.Clear+hostile.Bidi, "memtui")
	for p, c := range map[string]string{
		filepath.Join(dir, "settings.json"): original,
		filepath.Join(dir, "broken.json"):   "{\n  \"model\": \"" + hostile.OSC52 + "\n" + hostile.Forged + "\"\n}\n",
		bin:                                 "#!/bin/sh\n",
	} {
		writeFile(t, p, c)
	}
	os.Chmod(bin, 0o755)
	check := func(t *testing.T, o outcome, mode hostile.Mode) {
		t.Helper()
		if !ranCleanly(t, o) {
			return
		}
		checkOutput(t, tr, o, mode)
	}
	for _, mode := range []struct {
		name string
		env  func(string) string
		m    hostile.Mode
	}{
		{"piped", env("HOME", home, "XDG_STATE_HOME", state), hostile.Plain},
		{"terminal", env("HOME", home, "XDG_STATE_HOME", state, "CLICOLOR_FORCE", "1", "TERM", "xterm-256color"), hostile.Terminal},
	} {
		t.Run("broken/"+mode.name, func(t *testing.T) {
			p := filepath.Join(dir, "broken.json")
			before := readAll(p)
			o := runHostile(t, mode.env, "hook", "install", "--yes", "--command", bin, "--settings", p)
			check(t, o, mode.m)
			if o.code != exitUsage || !strings.Contains(o.stderr, "line 2") {
				t.Errorf("exit %d, want %d naming line 2:\n%s", o.code, exitUsage, hostile.Visible(o.stderr))
			}
			if readAll(p) != before {
				t.Error("a file that is no JSON was written")
			}
		})
		t.Run("install-uninstall/"+mode.name, func(t *testing.T) {
			p := filepath.Join(dir, "settings.json")
			o := runHostile(t, mode.env, "hook", "install", "--yes", "--command", bin, "--settings", p)
			check(t, o, mode.m)
			if o.code != exitOK || !strings.Contains(o.stdout, "Installed memtui's snapshot hook in "+safe.ShowLine(p)) {
				t.Fatalf("install: exit %d\n%s", o.code, hostile.Visible(o.both()))
			}
			o = runHostile(t, mode.env, "hook", "uninstall", "--yes", "--settings", p)
			check(t, o, mode.m)
			if o.code != exitOK {
				t.Fatalf("uninstall: exit %d\n%s", o.code, hostile.Visible(o.both()))
			}
			// The old memtui hook went with the new ones: what is left is
			// the original without it.
			want, err := memfs.PlanHookUninstall(original)
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(p); got != want.After {
				t.Errorf("after install and uninstall:\n%s\nwant:\n%s", hostile.Visible(got), hostile.Visible(want.After))
			}
			writeFile(t, p, original)
		})
	}
}

// TestHostileVersion: the version, commit and date a build stamps with
// -ldflags are strings whoever built the binary chose: `memtui version`,
// its --json and --version show them with no escape reaching the
// terminal, no newline forging a line and no secret shown, however long.
// (Not parallel: it sets the stamps every run reads.)
func TestHostileVersion(t *testing.T) {
	saved := [3]string{version, commit, date}
	t.Cleanup(func() { version, commit, date = saved[0], saved[1], saved[2] })
	version = "v1" + hostile.All + "\n" + hostile.Forged + strings.Repeat(hostile.OSC0, 10) + hostile.FakeToken
	commit = hostile.FakeToken + hostile.Clear + "\nFORGEDLINE"
	date = strings.Repeat(hostile.OSC52, 1000) + "\n" + hostile.Forged
	for _, mode := range []struct {
		name string
		env  func(string) string
		m    hostile.Mode
	}{
		{"piped", env(), hostile.Plain},
		{"terminal", env("CLICOLOR_FORCE", "1", "TERM", "xterm-256color"), hostile.Terminal},
	} {
		for _, args := range [][]string{{"version"}, {"version", "--json"}, {"--version"}} {
			o := runHostile(t, mode.env, args...)
			if !ranCleanly(t, o) {
				continue
			}
			m := mode.m
			if args[len(args)-1] == "--json" {
				m = hostile.JSON
			}
			name := mode.name + " " + strings.Join(args, " ")
			if o.code != 0 || !strings.Contains(o.stdout, "v1") {
				t.Errorf("%s: exit %d:\n%s%s", name, o.code, hostile.Visible(o.stdout), hostile.Visible(o.stderr))
			}
			for _, p := range append(append(hostile.Controls(o.stdout, m), hostile.Forgeries(o.stdout)...), hostile.FakeLeaks(o.stdout)...) {
				t.Errorf("%s: stdout: %s", name, p)
			}
			if n := strings.Count(o.stdout, "\n"); args[0] == "version" && args[len(args)-1] == "version" && n != 4+len(claude.Changes) {
				t.Errorf("%s: %d lines, want the 4 + %d of a plain build: a stamp added lines", name, n, len(claude.Changes))
			}
			if len(o.stdout) > 16<<10 {
				t.Errorf("%s: %d bytes: the stamps are not bounded", name, len(o.stdout))
			}
		}
	}
}

// inDir is getenv with $PWD set to dir: a command asked from that folder.
func inDir(getenv func(string) string, dir string) func(string) string {
	return func(k string) string {
		if k == "PWD" {
			return dir
		}
		return getenv(k)
	}
}
