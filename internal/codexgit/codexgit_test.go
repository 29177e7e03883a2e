package codexgit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model/codex"
)

// store writes a Codex store's shapes under a fresh dir: dotfiles, nested
// skills with an executable script, a note, a symbolic link, folders
// with nothing in them, and a nested .git (Codex skips .git at any depth).
func store(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memories")
	testfs.WriteAll(t, dir, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\nA backend engineer.\n",
		codex.HandbookFile: "# Task Group: api\nscope: releases\napplies_to: cwd=/home/dev/api; reuse_rule=always\n",
		codex.RawFile:      "# Raw Memories\n\nNo raw memories yet.\n",
		"rollout_summaries/2025-02-11T15-35-19-jqmb.md":          "thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\n",
		"skills/release-notes/SKILL.md":                          "---\nname: release-notes\n---\n",
		"skills/release-notes/scripts/tag.sh":                    "#!/bin/sh\n",
		"skills/release-notes/.git/config":                       "[core]\n",
		"extensions/ad_hoc/notes/2026-05-01T10-00-00-deploys.md": "Deploys on Tuesdays.\n",
		".editor-backup.md":                                      "foreign\n",
		"a-b.md":                                                 "sorts before the folder a/\n",
		"a/c.md":                                                 "in a/\n",
	})
	if err := os.Chmod(filepath.Join(dir, "skills/release-notes/scripts/tag.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.Symlink(t, codex.HandbookFile, filepath.Join(dir, "link.md"))
	testfs.Mkdir(t, filepath.Join(dir, "empty/empty-too"))
	return dir
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary: this test compares codexgit's baseline with git's own")
	}
}

// TestWriteMatchesGit: the baseline codexgit writes has the tree git
// itself makes of the same folder (so the same blob hashes, modes, order,
// and empty folders and nested .git left out), passes git fsck --strict,
// is Codex's commit byte for byte (identity, message with no final
// newline, UTC), has an index git agrees with, and memtui reads it back
// as Codex's baseline with nothing pending.
func TestWriteMatchesGit(t *testing.T) {
	needGit(t)
	viaGit := store(t)
	// git would take the nested .git for a repository; Codex skips it.
	os.RemoveAll(filepath.Join(viaGit, "skills/release-notes/.git"))
	testfs.Git(t, viaGit, "init", "-q")
	testfs.Git(t, viaGit, "add", "-A")
	testfs.Git(t, viaGit, "-c", "user.name=Codex", "-c", "user.email=noreply@openai.com", "commit", "-q", "-m", codex.BaselineSubject, "-m", codex.BaselineTrailer)
	wantTree := testfs.Git(t, viaGit, "rev-parse", "HEAD^{tree}")

	dir := store(t)
	at := time.Date(2026, 11, 20, 9, 30, 15, 500, time.FixedZone("CET", 3600))
	head, err := Write(dir, Options{Time: at, Branch: "baseline"})
	if err != nil {
		t.Fatal(err)
	}
	if got := testfs.Git(t, dir, "rev-parse", "HEAD^{tree}"); got != wantTree {
		t.Errorf("tree %s, git makes %s:\n%s\ngit's:\n%s", got, wantTree, testfs.Git(t, dir, "ls-tree", "-r", "HEAD"), testfs.Git(t, viaGit, "ls-tree", "-r", "HEAD"))
	}
	if got := testfs.Git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD %s, Write said %s", got, head)
	}
	if out := testfs.Git(t, dir, "fsck", "--strict", "--no-dangling"); out != "" {
		t.Errorf("git fsck: %s", out)
	}
	raw := testfs.Git(t, dir, "cat-file", "commit", "HEAD")
	want := "tree " + wantTree + "\nauthor Codex <noreply@openai.com> 1795163415 +0000\ncommitter Codex <noreply@openai.com> 1795163415 +0000\n\n" +
		"Initialize Codex git baseline\n\nCo-authored-by: Codex <noreply@openai.com>"
	// The size too: git's output is trimmed, and Codex's message ends
	// with no newline.
	if size := testfs.Git(t, dir, "cat-file", "-s", "HEAD"); raw != want || size != strconv.Itoa(len(want)) {
		t.Errorf("commit (%s bytes) =\n%q\nwant (%d bytes)\n%q", size, raw, len(want), want)
	}
	if b := testfs.Git(t, dir, "symbolic-ref", "HEAD"); b != "refs/heads/baseline" {
		t.Errorf("HEAD names %s", b)
	}
	if st := testfs.Git(t, dir, "status", "--porcelain", "--untracked-files=no"); st != "" {
		t.Errorf("the index does not list HEAD's tree: %s", st)
	}

	s, err := memfs.LoadCodex(context.Background(), filepath.Dir(dir), memfs.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	b := s.Baseline
	if !b.ByCodex || b.Head != head || b.Branch != "baseline" || !b.Time.Equal(at.Truncate(time.Second)) || len(b.Problems) != 0 {
		t.Errorf("read back: %+v", b)
	}
	if b.Files["link.md"].Mode != codex.ModeLink || b.Files["skills/release-notes/scripts/tag.sh"].Mode != codex.ModeExec || b.Files[".editor-backup.md"].Hash != codex.BlobHash([]byte("foreign\n")) {
		t.Errorf("files: %+v", b.Files)
	}
	for p := range b.Files {
		if strings.Contains(p, ".git") || strings.HasPrefix(p, "empty") {
			t.Errorf("%s in the baseline", p)
		}
	}
	// The link is in the tree, as Codex's writer puts one there, but
	// Codex deletes every link before it diffs: pending as deleted.
	if p := codex.Pending(b, s.Files); len(p) != 1 || p[0].Path != "link.md" || p[0].Status != 'D' {
		t.Errorf("pending right after the baseline: %+v", p)
	}
}

// TestWriteBefore: a baseline of the folder as it was before edits (a
// changed file, one added since, one deleted since) shows exactly those
// edits as pending (and the link, which Codex deletes before it diffs); Write refuses a folder that has a .git.
func TestWriteBefore(t *testing.T) {
	dir := store(t)
	_, err := Write(dir, Options{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Before: map[string][]byte{
		codex.HandbookFile: []byte("# Task Group: api (before the hand edit)\n"),
		"extensions/ad_hoc/notes/2026-05-01T10-00-00-deploys.md": nil,
		"skills/release-notes/old.md":                            []byte("deleted since\n"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := memfs.LoadCodex(context.Background(), filepath.Dir(dir), memfs.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]byte{}
	for _, c := range codex.Pending(s.Baseline, s.Files) {
		got[c.Path] = c.Status
	}
	want := map[string]byte{
		codex.HandbookFile: 'M',
		"extensions/ad_hoc/notes/2026-05-01T10-00-00-deploys.md": 'A',
		"skills/release-notes/old.md":                            'D',
		"link.md":                                                'D', // Codex deletes links before it diffs
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pending %q, want %q", got, want)
	}
	if _, err := Write(dir, Options{}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second baseline over the first: %v", err)
	}
}
