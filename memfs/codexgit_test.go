package memfs

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model/codex"
)

// Baselines made with the real git binary, as Codex's looks (codex facts
// §4.3): one root commit by Codex <noreply@openai.com>, message
// "Initialize Codex git baseline" and its trailer, the whole folder
// (dotfiles included) committed.

// needGit skips the test when there is no git binary: these baselines
// are made by git itself, to hold memtui's reader to git's own format.
func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary: the baselines of this test are made with git")
	}
}

// codexIdent makes git commit as Codex does.
var codexIdent = []string{"-c", "user.name=Codex", "-c", "user.email=noreply@openai.com"}

// gitBaseline makes mem a repository on branch with everything in it
// committed as Codex's baseline; it returns the commit's hash.
func gitBaseline(t testing.TB, mem, branch string) string {
	t.Helper()
	testfs.Git(t, mem, "-c", "init.defaultBranch="+branch, "init", "-q")
	testfs.Git(t, mem, "add", "-A")
	testfs.Git(t, mem, append(codexIdent, "commit", "-q", "-m", codex.BaselineSubject, "-m", codex.BaselineTrailer)...)
	return testfs.Git(t, mem, "rev-parse", "HEAD")
}

// lsTree is HEAD's tree as git lists it.
func lsTree(t testing.TB, mem string) map[string]codex.BlobRef {
	t.Helper()
	out := map[string]codex.BlobRef{}
	for _, l := range strings.Split(testfs.Git(t, mem, "ls-tree", "-r", "-z", "HEAD"), "\x00") {
		if l == "" {
			continue
		}
		meta, p, _ := strings.Cut(l, "\t")
		f := strings.Fields(meta)
		mode, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = codex.BlobRef{Hash: f[2], Mode: uint32(mode)}
	}
	return out
}

// baselineStore is a Codex store (the files of codexStore, no .git) with
// a nested skill that has a script, and its memories/ path.
func baselineStore(t testing.TB) (home, mem string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), ".codex")
	mem = filepath.Join(home, "memories")
	testfs.WriteAll(t, mem, map[string]string{
		codex.SummaryFile:  codexSummary,
		codex.HandbookFile: codexHandbook,
		codex.RawFile:      codexRaw,
		"rollout_summaries/" + codexRollout + ".md":              codexRolloutBody,
		"skills/release-notes/SKILL.md":                          codexSkill,
		"skills/release-notes/scripts/tag.sh":                    "#!/bin/sh\ngit tag \"$1\"\n",
		"extensions/ad_hoc/instructions.md":                      "Notes are authoritative but untrusted.\n",
		"extensions/ad_hoc/notes/2026-05-01T10-00-00-deploys.md": codexNote,
		".editor-backup.md":                                      "foreign\n",
	})
	if err := os.Chmod(filepath.Join(mem, "skills/release-notes/scripts/tag.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.Mkdir(t, filepath.Join(mem, "skills/empty/sub"))
	return home, mem
}

// gitStatus is git's own view of the working files against HEAD: path ->
// A, M or D (untracked files count as added, as Codex's diff takes them;
// nothing is staged, so the work tree's column says it).
func gitStatus(t testing.TB, mem string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, l := range strings.Split(testfs.Git(t, mem, "status", "--porcelain=v2", "-z", "-uall", "--no-renames"), "\x00") {
		switch {
		case strings.HasPrefix(l, "? "):
			out[l[2:]] = "A"
		case strings.HasPrefix(l, "1 "):
			f := strings.SplitN(l, " ", 9)
			out[f[8]] = f[1][1:]
		case l != "":
			t.Fatalf("git status: %q", l)
		}
	}
	return out
}

func changesOf(cs []codex.Change) map[string]string {
	out := map[string]string{}
	for _, c := range cs {
		s := string(c.Status)
		if c.ModeOnly {
			s += " mode"
		}
		if c.Unknown {
			s += "?"
		}
		out[c.Path] = s
	}
	return out
}

// TestCodexBaseline: a baseline Codex made is read whole (HEAD, its
// branch, one commit by Codex, its time, the tree file by file exactly as
// git lists it), nothing is pending; then every kind of edit (a hand edit,
// a new note, a deleted skill file, a script's execute bit, a dotfile, a
// nested new skill) is pending exactly as git itself sees it, and
// reading wrote nothing under .git.
func TestCodexBaseline(t *testing.T) {
	needGit(t)
	home, mem := baselineStore(t)
	head := gitBaseline(t, mem, "main")
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	b := s.Baseline
	if b == nil {
		t.Fatal("no baseline read")
	}
	if !b.Found || b.Head != head || b.Branch != "main" || b.Commits != 1 || b.Parents != 0 || !b.ByCodex || len(b.Problems) != 0 {
		t.Fatalf("baseline = %+v", b)
	}
	if !b.Time.Equal(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)) || b.Author != codex.BaselineIdent || b.Committer != codex.BaselineIdent || b.Subject != codex.BaselineSubject {
		t.Errorf("time %v author %q committer %q subject %q", b.Time, b.Author, b.Committer, b.Subject)
	}
	if want := lsTree(t, mem); !reflect.DeepEqual(b.Files, want) {
		t.Errorf("Files =\n%v\ngit ls-tree:\n%v", b.Files, want)
	}
	if b.Files["skills/release-notes/scripts/tag.sh"].Mode != codex.ModeExec || b.Files[".editor-backup.md"].Mode != codex.ModeFile {
		t.Errorf("modes: %v", b.Files)
	}
	if p := codex.Pending(b, s.Files); len(p) != 0 {
		t.Errorf("pending right after the baseline: %+v", p)
	}

	// Edits since.
	testfs.Write(t, filepath.Join(mem, codex.HandbookFile), codexHandbook+"- the release script needs GPG\n")
	testfs.Write(t, filepath.Join(mem, "extensions/ad_hoc/notes/2026-11-02T09-00-00-staging.md"), "Staging moved to eu-west-1.\n")
	testfs.Write(t, filepath.Join(mem, ".editor-backup.md"), "foreign, edited\n")
	testfs.Write(t, filepath.Join(mem, "skills/changelog/SKILL.md"), codexSkill)
	if err := os.Remove(filepath.Join(mem, "skills/release-notes/SKILL.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(mem, codex.SummaryFile), 0o744); err != nil {
		t.Fatal(err)
	}
	want := gitStatus(t, mem)
	gitState := treeState(t, filepath.Join(mem, ".git"))
	s = loadCodex(t, home, Options{Getenv: env(nil)})
	if after := treeState(t, filepath.Join(mem, ".git")); !reflect.DeepEqual(gitState, after) {
		t.Errorf("reading the baseline changed .git:\nbefore %v\nafter  %v", gitState, after)
	}
	got := changesOf(codex.Pending(s.Baseline, s.Files))
	wantOurs := map[string]string{
		codex.HandbookFile: "M",
		"extensions/ad_hoc/notes/2026-11-02T09-00-00-staging.md": "A",
		".editor-backup.md":             "M",
		"skills/changelog/SKILL.md":     "A",
		"skills/release-notes/SKILL.md": "D",
		codex.SummaryFile:               "M mode",
	}
	if !reflect.DeepEqual(got, wantOurs) {
		t.Errorf("pending =\n%v\nwant\n%v", got, wantOurs)
	}
	for p, st := range got {
		if st[:1] != want[p] {
			t.Errorf("%s: %s, git says %q", p, st, want[p])
		}
	}
	if len(want) != len(got) {
		t.Errorf("git status %v, pending %v", want, got)
	}
}

// TestCodexBaselineReadInPart: a file read only in part (over the cap)
// has no hash to compare: its change is unknown, not "unchanged".
func TestCodexBaselineReadInPart(t *testing.T) {
	needGit(t)
	home, mem := baselineStore(t)
	gitBaseline(t, mem, "main")
	s := loadCodex(t, home, Options{Getenv: env(nil), MaxFileBytes: 100})
	got := changesOf(codex.Pending(s.Baseline, s.Files))
	for _, f := range s.Files {
		if f.Truncated && got[f.Path] != "M?" {
			t.Errorf("%s read in part: pending %q, want M?", f.Path, got[f.Path])
		}
		if !f.Truncated && got[f.Path] != "" {
			t.Errorf("%s read whole and unchanged: pending %q", f.Path, got[f.Path])
		}
	}
	if len(got) == 0 {
		t.Fatal("the fixture has no file over the cap")
	}
}

// TestCodexBaselinePartialListing: when the store's walk stops at its
// bounds, a file of the baseline it did not reach is not claimed deleted.
func TestCodexBaselinePartialListing(t *testing.T) {
	needGit(t)
	home, mem := baselineStore(t)
	deep := filepath.Join(mem, "skills", filepath.Join(strings.Split(strings.Repeat("d/", maxCodexDepth+2), "/")...), "SKILL.md")
	testfs.Write(t, deep, codexSkill)
	gitBaseline(t, mem, "main")
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if !s.Baseline.WorkPartial {
		t.Fatalf("the walk stopped at its depth, and the baseline does not know: %+v", s.Problems)
	}
	p := changesOf(codex.Pending(s.Baseline, s.Files))
	rel, _ := filepath.Rel(mem, deep)
	if got := p[filepath.ToSlash(rel)]; got != "D?" || len(p) != 1 {
		t.Errorf("pending %v, want only %s unknown", p, rel)
	}
}

// TestCodexBaselineBranchAndHistory: HEAD on another branch is resolved,
// not taken for main; a second commit, or one by someone else, is not
// Codex's baseline.
func TestCodexBaselineBranchAndHistory(t *testing.T) {
	needGit(t)
	home, mem := baselineStore(t)
	head := gitBaseline(t, mem, "baseline")
	b := LoadCodexBaseline(t.Context(), mem)
	if b.Branch != "baseline" || b.Head != head || !b.ByCodex || len(b.Files) == 0 {
		t.Fatalf("on branch baseline: %+v", b)
	}
	testfs.Write(t, filepath.Join(mem, codex.HandbookFile), codexHandbook+"- more\n")
	testfs.Git(t, mem, "commit", "-qam", "hand edit, committed")
	b = LoadCodexBaseline(t.Context(), mem)
	if b.Commits != 2 || b.Parents != 1 || b.ByCodex || b.Author != "memtui test <test@example.invalid>" || b.Subject != "hand edit, committed" {
		t.Errorf("two commits: %+v", b)
	}
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if p := codex.Pending(s.Baseline, s.Files); len(p) != 0 {
		t.Errorf("the committed edit is hidden from the diff, as from Codex's: %+v", p)
	}

	// Two commits, both Codex's in name and message: not one baseline.
	_, mem2 := baselineStore(t)
	gitBaseline(t, mem2, "main")
	testfs.Write(t, filepath.Join(mem2, codex.HandbookFile), codexHandbook+"- more\n")
	testfs.Git(t, mem2, append(codexIdent, "commit", "-qam", codex.BaselineSubject)...)
	if b = LoadCodexBaseline(t.Context(), mem2); b.Commits != 2 || b.ByCodex || b.Author != codex.BaselineIdent {
		t.Errorf("two commits by Codex's name: %+v", b)
	}

	// One root commit, by someone else.
	_, mem = baselineStore(t)
	testfs.Git(t, mem, "init", "-q")
	testfs.Git(t, mem, "add", "-A")
	testfs.Git(t, mem, "commit", "-qm", codex.BaselineSubject)
	b = LoadCodexBaseline(t.Context(), mem)
	if b.Commits != 1 || b.ByCodex || b.Author != "memtui test <test@example.invalid>" {
		t.Errorf("foreign root commit: %+v", b)
	}
	// Codex's identity, another message.
	_, mem = baselineStore(t)
	testfs.Git(t, mem, "init", "-q")
	testfs.Git(t, mem, "add", "-A")
	testfs.Git(t, mem, append(codexIdent, "commit", "-qm", "snapshot")...)
	if b = LoadCodexBaseline(t.Context(), mem); b.ByCodex || b.Author != codex.BaselineIdent {
		t.Errorf("Codex's name, not its message: %+v", b)
	}
}

// TestCodexBaselineNotADir: no .git is no baseline and no problem; a
// .git that is a symlink (to a real repository) or a file (a gitdir
// pointer) is a problem, and nothing is read through it.
func TestCodexBaselineNotADir(t *testing.T) {
	needGit(t)
	_, mem := baselineStore(t)
	if b := LoadCodexBaseline(t.Context(), mem); b.Found || len(b.Problems) != 0 || b.Files != nil {
		t.Errorf("no .git: %+v", b)
	}
	elsewhere := filepath.Join(t.TempDir(), "repo")
	testfs.Write(t, filepath.Join(elsewhere, "secret.md"), testfs.OutsideSecret)
	gitBaseline(t, elsewhere, "main")
	testfs.Symlink(t, filepath.Join(elsewhere, ".git"), filepath.Join(mem, ".git"))
	b := LoadCodexBaseline(t.Context(), mem)
	if b.Found || b.Head != "" || b.Files != nil || len(b.Problems) != 1 || !strings.Contains(b.Problems[0], "symbolic link") {
		t.Errorf(".git a symlink: %+v", b)
	}
	os.Remove(filepath.Join(mem, ".git"))
	testfs.Write(t, filepath.Join(mem, ".git"), "gitdir: "+filepath.Join(elsewhere, ".git")+"\n")
	b = LoadCodexBaseline(t.Context(), mem)
	if b.Found || b.Head != "" || len(b.Problems) != 1 || !strings.Contains(b.Problems[0], "regular file, not a folder") {
		t.Errorf(".git a file: %+v", b)
	}
}

// looseObject writes a loose object of type typ holding body into
// gitDir's objects and returns its hash.
func looseObject(t testing.TB, gitDir, typ string, body []byte) string {
	t.Helper()
	raw := append([]byte(typ+" "+strconv.Itoa(len(body))+"\x00"), body...)
	sum := sha1.Sum(raw)
	h := hex.EncodeToString(sum[:])
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	testfs.Write(t, filepath.Join(gitDir, "objects", h[:2], h[2:]), z.String())
	return h
}

// treeBody is a tree object's body: entries "mode name" -> hash, in the
// order given.
func treeBody(entries ...string) []byte {
	var b bytes.Buffer
	for i := 0; i+1 < len(entries); i += 2 {
		raw, _ := hex.DecodeString(entries[i+1])
		b.WriteString(entries[i] + "\x00")
		b.Write(raw)
	}
	return b.Bytes()
}

func commitBody(tree string) []byte {
	return []byte("tree " + tree + "\nauthor Codex <noreply@openai.com> 1793527200 +0000\ncommitter Codex <noreply@openai.com> 1793527200 +0000\n\n" + codex.BaselineSubject + "\n\n" + codex.BaselineTrailer)
}

// handGit is a .git written by hand (no git binary): HEAD on main, and
// the commit of the tree given.
func handGit(t testing.TB, mem, tree string) (gitDir, commit string) {
	t.Helper()
	gitDir = filepath.Join(mem, ".git")
	commit = looseObject(t, gitDir, "commit", commitBody(tree))
	testfs.Write(t, filepath.Join(gitDir, "HEAD"), "ref: refs/heads/main\n")
	testfs.Write(t, filepath.Join(gitDir, "refs/heads/main"), commit+"\n")
	return gitDir, commit
}

// TestCodexBaselineHostile: a .git built to hurt a reader (garbage HEAD,
// a FIFO or a link out for HEAD, a ref loop, an object that inflates to
// gigabytes, a forged object, a tree that fans out to millions of paths
// or nests past the bound, an alternates file pointing outside, a link
// for objects/) gives problems, promptly, never a panic, a hang or a read
// outside; and nothing under .git changes.
func TestCodexBaselineHostile(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	testfs.Write(t, filepath.Join(outside, "HEAD"), "ref: refs/heads/main\n")
	blob := []byte("v1\n")
	mk := func(t *testing.T) (mem, gitDir, commit string) {
		mem = filepath.Join(t.TempDir(), "memories")
		testfs.Write(t, filepath.Join(mem, codex.SummaryFile), string(blob))
		b := looseObject(t, filepath.Join(mem, ".git"), "blob", blob)
		tree := looseObject(t, filepath.Join(mem, ".git"), "tree", treeBody("100644 "+codex.SummaryFile, b))
		gitDir, commit = handGit(t, mem, tree)
		return mem, gitDir, commit
	}
	cases := []struct {
		name string
		// spoil breaks the sound .git; says is what a problem must say.
		spoil func(t *testing.T, mem, gitDir, commit string)
		says  string
	}{
		{"sound", func(*testing.T, string, string, string) {}, ""},
		{"garbage HEAD", func(t *testing.T, _, g, _ string) { testfs.Write(t, filepath.Join(g, "HEAD"), "\x00\xffgarbage") }, "no commit hash"},
		{"empty HEAD", func(t *testing.T, _, g, _ string) { testfs.Write(t, filepath.Join(g, "HEAD"), "") }, "HEAD could not be read"},
		{"HEAD a FIFO", func(t *testing.T, _, g, _ string) {
			os.Remove(filepath.Join(g, "HEAD"))
			testfs.Mkfifo(t, filepath.Join(g, "HEAD"))
		}, "named pipe"},
		{"HEAD a link out", func(t *testing.T, _, g, _ string) {
			os.Remove(filepath.Join(g, "HEAD"))
			testfs.Symlink(t, filepath.Join(outside, "HEAD"), filepath.Join(g, "HEAD"))
		}, "symlink"},
		{"HEAD huge", func(t *testing.T, _, g, _ string) { testfs.Sparse(t, filepath.Join(g, "HEAD"), 3<<30) }, "more than"},
		{"ref loop", func(t *testing.T, _, g, _ string) {
			testfs.Write(t, filepath.Join(g, "refs/heads/main"), "ref: refs/heads/other\n")
			testfs.Write(t, filepath.Join(g, "refs/heads/other"), "ref: refs/heads/main\n")
		}, "loop"},
		{"unborn branch", func(t *testing.T, _, g, _ string) { os.Remove(filepath.Join(g, "refs/heads/main")) }, "HEAD names refs/heads/main"},
		{"ref escapes", func(t *testing.T, _, g, _ string) {
			testfs.Write(t, filepath.Join(g, "HEAD"), "ref: ../../outside/HEAD\n")
		}, "could not be read"},
		{"commit missing", func(t *testing.T, _, g, c string) { os.Remove(filepath.Join(g, "objects", c[:2], c[2:])) }, "object not found"},
		{"commit forged", func(t *testing.T, _, g, c string) {
			// Another commit's bytes under this commit's name.
			body := commitBody(strings.Repeat("0", 40))
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			fmt.Fprintf(zw, "commit %d\x00", len(body))
			zw.Write(body)
			zw.Close()
			testfs.Write(t, filepath.Join(g, "objects", c[:2], c[2:]), z.String())
		}, "does not hash to its name"},
		{"commit inflates to 64 MiB", func(t *testing.T, _, g, c string) {
			// 80 KiB of zlib that inflate to 64 MiB, under the commit's
			// name (the header says so too).
			var z bytes.Buffer
			zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
			fmt.Fprintf(zw, "commit %d\x00", 64<<20)
			zero := make([]byte, 1<<20)
			for range 64 {
				zw.Write(zero)
			}
			zw.Close()
			testfs.Write(t, filepath.Join(g, "objects", c[:2], c[2:]), z.String())
		}, "memtui reads of one"},
		{"object a FIFO", func(t *testing.T, _, g, c string) {
			p := filepath.Join(g, "objects", c[:2], c[2:])
			os.Remove(p)
			testfs.Mkfifo(t, p)
		}, "named pipe"},
		{"objects a link", func(t *testing.T, _, g, _ string) {
			moved := filepath.Join(t.TempDir(), "objects")
			if err := os.Rename(filepath.Join(g, "objects"), moved); err != nil {
				t.Fatal(err)
			}
			testfs.Symlink(t, moved, filepath.Join(g, "objects"))
		}, "objects is a symlink"},
		{"alternates out", func(t *testing.T, _, g, c string) {
			// The commit lives only in another object store .git names.
			alt := filepath.Join(t.TempDir(), "objects")
			p := filepath.Join(g, "objects", c[:2], c[2:])
			testfs.Mkdir(t, filepath.Join(alt, c[:2]))
			if err := os.Rename(p, filepath.Join(alt, c[:2], c[2:])); err != nil {
				t.Fatal(err)
			}
			testfs.Write(t, filepath.Join(g, "objects/info/alternates"), alt+"\n")
		}, "object not found"},
		{"tree fans out", func(t *testing.T, mem, g, _ string) {
			// 2^16 paths from 17 small trees.
			h := looseObject(t, g, "blob", blob)
			mode := "100644 "
			for range 16 {
				h = looseObject(t, g, "tree", treeBody(mode+"a", h, mode+"b", h))
				mode = "40000 "
			}
			writeHead(t, mem, h)
		}, "more than 20000 files"},
		{"tree too deep", func(t *testing.T, mem, g, _ string) {
			h := looseObject(t, g, "blob", blob)
			mode := "100644 "
			for range 40 {
				h = looseObject(t, g, "tree", treeBody(mode+"d", h))
				mode = "40000 "
			}
			writeHead(t, mem, h)
		}, "folders deep"},
		{"tree names ..", func(t *testing.T, mem, g, _ string) {
			h := looseObject(t, g, "blob", blob)
			h = looseObject(t, g, "tree", treeBody("100644 ..", h))
			writeHead(t, mem, h)
		}, "which no folder can hold"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem, gitDir, commit := mk(t)
			c.spoil(t, mem, gitDir, commit)
			before := treeState(t, gitDir)
			var b = &codex.Baseline{}
			testfs.ReturnsIn(t, "LoadCodexBaseline", func() { b = LoadCodexBaseline(t.Context(), mem) })
			if after := treeState(t, gitDir); !reflect.DeepEqual(before, after) {
				t.Errorf("reading changed .git:\nbefore %v\nafter  %v", before, after)
			}
			if !b.Found {
				t.Errorf("a .git folder not found: %+v", b)
			}
			all := strings.Join(b.Problems, "\n")
			if strings.Contains(all, testfs.OutsideSecret) {
				t.Errorf("read outside: %s", all)
			}
			if c.says == "" {
				if len(b.Problems) != 0 || b.Head != commit || len(b.Files) != 1 || !b.ByCodex {
					t.Errorf("the sound .git: %+v", b)
				}
				return
			}
			if !strings.Contains(all, c.says) {
				t.Errorf("problems %q, want one saying %q", b.Problems, c.says)
			}
			if b.Files != nil {
				t.Errorf("a tree read from a spoilt .git: %v", b.Files)
			}
		})
	}
}

// writeHead points main at a new commit of tree.
func writeHead(t testing.TB, mem, tree string) {
	t.Helper()
	g := filepath.Join(mem, ".git")
	c := looseObject(t, g, "commit", commitBody(tree))
	testfs.Write(t, filepath.Join(g, "refs/heads/main"), c+"\n")
}

// TestCodexBaselinePacked: after git gc the objects are packed, which
// memtui does not read (Codex writes loose objects): a problem says so.
func TestCodexBaselinePacked(t *testing.T) {
	needGit(t)
	_, mem := baselineStore(t)
	gitBaseline(t, mem, "main")
	testfs.Git(t, mem, "gc", "-q", "--prune=now")
	b := LoadCodexBaseline(t.Context(), mem)
	if b.Head == "" && len(b.Problems) == 0 {
		t.Fatalf("nothing said: %+v", b)
	}
	if b.Files != nil || !strings.Contains(strings.Join(b.Problems, "\n"), "packed objects") {
		t.Errorf("packed: %+v", b)
	}
}

// TestCodexBaselineBlob: a file's content at the baseline, for a view's
// diff; bounded, and refused for what is not a blob hash.
func TestCodexBaselineBlob(t *testing.T) {
	needGit(t)
	_, mem := baselineStore(t)
	gitBaseline(t, mem, "main")
	b := LoadCodexBaseline(t.Context(), mem)
	ref := b.Files[codex.HandbookFile]
	got, err := CodexBaselineBlob(t.Context(), mem, ref.Hash, 1<<20)
	if err != nil || string(got) != codexHandbook {
		t.Fatalf("blob = %q, %v", got, err)
	}
	if _, err := CodexBaselineBlob(t.Context(), mem, ref.Hash, 100); err == nil || !strings.Contains(err.Error(), "memtui reads of one") {
		t.Errorf("over the cap: %v", err)
	}
	for _, h := range []string{"", "../../HEAD", strings.Repeat("g", 40), strings.ToUpper(ref.Hash)} {
		if _, err := CodexBaselineBlob(t.Context(), mem, h, 1<<20); err == nil {
			t.Errorf("%q read", h)
		}
	}
	if _, err := CodexBaselineBlob(t.Context(), mem, strings.Repeat("0", 40), 1<<20); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("absent blob: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := CodexBaselineBlob(ctx, mem, ref.Hash, 1<<20); err == nil {
		t.Error("read with a cancelled context")
	}
}

// BenchmarkLoadCodexBaseline reads the baseline of a 300-file store (the
// size Codex's default selection makes: 256 rollout summaries, the rest
// skills and notes).
func BenchmarkLoadCodexBaseline(b *testing.B) {
	needGit(b)
	mem := filepath.Join(b.TempDir(), "memories")
	files := map[string]string{codex.SummaryFile: codexSummary, codex.HandbookFile: strings.Repeat(codexHandbook, 40), codex.RawFile: strings.Repeat(codexRaw, 100)}
	for i := range 256 {
		files[fmt.Sprintf("rollout_summaries/2026-10-%02dT10-00-%02d-ab%02d-task.md", i%28+1, i%60, i%100)] = codexRolloutBody + strconv.Itoa(i)
	}
	for i := range 20 {
		files[fmt.Sprintf("skills/skill-%02d/SKILL.md", i)] = codexSkill
		files[fmt.Sprintf("extensions/ad_hoc/notes/2026-11-%02dT09-00-00-note-%d.md", i%28+1, i)] = codexNote + strconv.Itoa(i)
	}
	testfs.WriteAll(b, mem, files)
	gitBaseline(b, mem, "main")
	n := len(files)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		bl := LoadCodexBaseline(context.Background(), mem)
		if len(bl.Files) != n {
			b.Fatalf("%d files, want %d: %v", len(bl.Files), n, bl.Problems)
		}
	}
}
