//go:build unix

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// Files memtui reads replaced, after it wrote, by what an agent or a tool
// could put there: a FIFO with no writer, a link to /dev/zero, a link to a
// file outside, a 3 GiB sparse file. Every command that reads them must
// finish (within a deadline that fails the test rather than hanging it)
// and show nothing of the outside file.

const outsideText = "OUTSIDE-3f9a2c-must-not-show"

// cliWithin runs the CLI and fails the test if it has not returned after a
// generous while.
func cliWithin(t *testing.T, e func(string) string, args ...string) (int, string, string) {
	t.Helper()
	type res struct {
		code           int
		stdout, stderr string
	}
	done := make(chan res, 1)
	go func() {
		c, o, s := runCLI(t, e, args...)
		done <- res{c, o, s}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(90 * time.Second):
		t.Fatalf("memtui %s did not return: a read blocked or never ended", strings.Join(args, " "))
	}
	return 0, "", ""
}

// putHostile replaces whatever is at p.
func putHostile(t *testing.T, kind, p, outside string) {
	t.Helper()
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var err error
	switch kind {
	case "fifo":
		err = syscall.Mkfifo(p, 0o644)
	case "zero":
		err = os.Symlink("/dev/zero", p)
	case "outside":
		err = os.Symlink(outside, p)
	case "sparse":
		var f *os.File
		if f, err = os.Create(p); err == nil {
			err = f.Truncate(3 << 30)
			f.Close()
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestHostileFilesNeverHangCommands(t *testing.T) {
	for _, kind := range []string{"fifo", "zero", "outside", "sparse"} {
		t.Run(kind, func(t *testing.T) {
			cfg, memDir, _ := proposerTree(t)
			state, cache, home := t.TempDir(), t.TempDir(), t.TempDir()
			e := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", cache)
			tdir := filepath.Dir(memDir)
			outDir := t.TempDir()
			launch := filepath.Join(memDir, "project_launch.md")
			writeFile(t, filepath.Join(outDir, "project_launch.md"), "---\nname: launch\n---\n\n"+outsideText+"\n")
			outTranscript := filepath.Join(outDir, "t.jsonl")
			writeFile(t, outTranscript, `{"type":"user","message":{"role":"user","content":"`+outsideText+`"},"uuid":"u1","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/work/x","sessionId":"0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20"}`+"\n")

			// memtui applied a change to project_launch.md (journal by hand,
			// as Apply leaves it).
			journal := filepath.Join(state, "memtui", "journal")
			id := "20261101T100000.000000000Z-0a0b0c0d"
			before, _ := os.ReadFile(launch)
			after := "---\nname: launch\ndescription: When the portal launches\ntype: project\n---\n\nWe launch on 2026-12-01.\n"
			writeFile(t, launch, after)
			writeFile(t, filepath.Join(journal, id, "before", "0"), string(before))
			m := txn.JournalEntry{Version: 1, ID: id, ProposalID: "p1", Kind: "fix", Title: "date the launch", MemoryDir: memDir, RealDir: memDir,
				Time: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), State: txn.JournalCommitted,
				Files: []txn.JournalFile{{Path: "project_launch.md", Op: string(model.OpUpdate), Before: sha(before), After: sha([]byte(after)), Mode: 0o644, State: "applied", Image: "before/0"}}}
			b, _ := json.Marshal(m)
			writeFile(t, filepath.Join(journal, id, "manifest.json"), string(b))
			// A transcript, so the first run leaves a cache.
			writeFile(t, filepath.Join(tdir, "1c1f8b9f-4d2e-4a68-8b74-3a5f8d0e2b31.jsonl"),
				`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u2","timestamp":"2026-11-01T09:00:00.000Z","cwd":"/work/x","sessionId":"1c1f8b9f-4d2e-4a68-8b74-3a5f8d0e2b31"}`+"\n")

			// A first look records a baseline and a transcript cache.
			if code, _, stderr := cliWithin(t, e, "--config-dir", cfg, "changes"); code != exitOK {
				t.Fatalf("first changes: exit %d\n%s", code, stderr)
			}
			owned := 0
			for _, glob := range []string{filepath.Join(state, "memtui", "seen", "*"), filepath.Join(cache, "memtui", "transcripts", "*.cache")} {
				ps, _ := filepath.Glob(glob)
				for _, p := range ps {
					putHostile(t, kind, p, filepath.Join(outDir, "project_launch.md"))
					owned++
				}
			}
			if owned < 2 {
				t.Fatalf("the first run left %d baseline and cache files, want both", owned)
			}

			// Then everything else is replaced.
			putHostile(t, kind, launch, filepath.Join(outDir, "project_launch.md"))
			putHostile(t, kind, filepath.Join(journal, id, "before", "0"), filepath.Join(outDir, "project_launch.md"))
			if kind != "sparse" {
				// A big transcript is a real one to read (Claude Code's run
				// to gigabytes): streamed, not refused; its bounds are the
				// transcript reader's own tests.
				putHostile(t, kind, filepath.Join(tdir, "0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20.jsonl"), outTranscript)
			}
			putHostile(t, kind, filepath.Join(cfg, "settings.json"), filepath.Join(outDir, "project_launch.md"))

			var all strings.Builder
			for _, args := range [][]string{
				{"lint"}, {"lint", "--json"}, {"changes"}, {"changes", "--json"}, {"undo", "--list"}, {"undo", "--list", "--json"},
			} {
				code, stdout, stderr := cliWithin(t, e, append([]string{"--config-dir", cfg}, args...)...)
				if code != exitOK && code != exitFindings {
					t.Errorf("memtui %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
				}
				all.WriteString(stdout + stderr)
				if args[0] == "undo" && !strings.Contains(stdout, id) {
					t.Errorf("undo %v does not list the entry:\n%s%s", args[1:], stdout, stderr)
				}
			}
			if strings.Contains(all.String(), outsideText) {
				t.Errorf("a file outside was read and shown:\n%s", all.String())
			}
		})
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
