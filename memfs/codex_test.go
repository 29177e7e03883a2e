package memfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// A Codex store in the shapes Codex writes (codex facts §1.2, §1.3).
const (
	codexSummary = "v1\n\n## User Profile\nBackend engineer on a payments API; prefers small reviewed changes.\n\n" +
		"## User preferences\n- run the linters before pushing\n\n## General Tips\n- the staging deploy takes ten minutes\n\n" +
		"## What's in Memory\n### /home/dev/api\n#### 2025-02-11\n- release: changelog, tags\n  - desc: cutting a release\n  - learnings: tag after the changelog\n"
	codexRollout  = "2025-02-11T15-35-19-jqmb"
	codexHandbook = "# Task Group: /home/dev/api release workflow\n" +
		"scope: cutting and tagging releases of the payments API\n" +
		"applies_to: cwd=/home/dev/api; reuse_rule=safe while the release script is unchanged\n\n" +
		"## Task 1: cut release 2.3, success\n\n### rollout_summary_files\n" +
		"- rollout_summaries/" + codexRollout + ".md (cwd=/home/dev/api, rollout_path=/home/dev/.codex/sessions/2025/02/11/rollout.jsonl, updated_at=2025-02-11T15:40:00+00:00, thread_id=0194f5a6-89ab-7cde-8123-456789abcdef)\n\n" +
		"### keywords\n- release, changelog, tags\n\n## Reusable knowledge\n- Related skill: skills/release-notes/SKILL.md\n"
	codexRaw = "# Raw Memories\n\nMerged stage-1 raw memories (stable ascending thread-id order):\n\n" +
		"## Thread `0194f5a6-89ab-7cde-8123-456789abcdef`\nupdated_at: 2025-02-11T15:40:00+00:00\ncwd: /home/dev/api\n" +
		"rollout_path: /home/dev/.codex/sessions/2025/02/11/rollout.jsonl\nrollout_summary_file: " + codexRollout + ".md\n\n" +
		"---\ndescription: cut release 2.3\ntask: release\ntask_group: /home/dev/api release workflow\ntask_outcome: success\ncwd: /home/dev/api\nkeywords: release, changelog\n---\n\n" +
		"### Task 1: cut release 2.3\ntask: release\ntask_group: release\ntask_outcome: success\n"
	codexRolloutBody = "thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\nupdated_at: 2025-02-11T15:40:00+00:00\n" +
		"rollout_path: /home/dev/.codex/sessions/2025/02/11/rollout.jsonl\ncwd: /home/dev/api\ngit_branch: main\n\n" +
		"# Cut release 2.3 of the payments API\n\nRollout context: a release branch\n\n## Task 1: cut the release\nOutcome: success\n"
	codexSkill = "---\nname: release-notes\ndescription: write the release notes from the changelog\n---\n\n## When to use\nBefore tagging.\n"
	codexNote  = "Remember: the payments API deploys on Tuesdays only.\n"
	codexCfg   = "model = \"gpt-5\"\n\n[features]\nmemories = true\n\n[memories]\nmax_unused_days = 14\n"
)

// codexStore writes a Codex home under a fresh temp dir, with the files
// of a consolidated store, Codex's .git baseline and a nested .git, and a
// dotfile someone left; it returns the home.
func codexStore(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), ".codex")
	mem := filepath.Join(home, "memories")
	testfs.WriteAll(t, mem, map[string]string{
		codex.SummaryFile:  codexSummary,
		codex.HandbookFile: codexHandbook,
		codex.RawFile:      codexRaw,
		"rollout_summaries/" + codexRollout + ".md":              codexRolloutBody,
		"skills/release-notes/SKILL.md":                          codexSkill,
		"extensions/ad_hoc/instructions.md":                      "Notes are authoritative but untrusted.\n",
		"extensions/ad_hoc/notes/2026-05-01T10-00-00-deploys.md": codexNote,
		".editor-backup.md":                                      "foreign\n",
		".git/HEAD":                                              "ref: refs/heads/main\n",
		".git/objects/ab/cdef":                                   "blob",
		"skills/release-notes/.git/config":                       "[core]\n",
	})
	testfs.Write(t, filepath.Join(home, "config.toml"), codexCfg)
	return home
}

// treeState is every path under root with its size, mode and mtime: what
// a read must leave as it was.
func treeState(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprint(fi.Mode(), fi.ModTime(), fi.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func loadCodex(t *testing.T, home string, opts Options) *codex.Store {
	t.Helper()
	s, err := LoadCodex(t.Context(), home, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func codexPaths(s *codex.Store) []string {
	var out []string
	for _, f := range s.Files {
		out = append(out, f.Path)
	}
	return out
}

// TestLoadCodex: every file under memories/ is read (the dotfile too),
// nothing under a .git at any depth, the config is parsed, and the read
// leaves the tree as it was.
func TestLoadCodex(t *testing.T) {
	home := codexStore(t)
	mod := time.Date(2025, 2, 11, 15, 40, 0, 0, time.UTC)
	testfs.Touch(t, filepath.Join(home, "memories", codex.SummaryFile), mod)
	if err := os.Chmod(filepath.Join(home, "memories", codex.SummaryFile), 0o600); err != nil {
		t.Fatal(err)
	}
	before := treeState(t, filepath.Dir(home))
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if after := treeState(t, filepath.Dir(home)); !reflect.DeepEqual(before, after) {
		t.Errorf("reading changed the tree:\nbefore %v\nafter  %v", before, after)
	}
	want := []string{
		".editor-backup.md",
		codex.HandbookFile,
		"extensions/ad_hoc/instructions.md",
		"extensions/ad_hoc/notes/2026-05-01T10-00-00-deploys.md",
		codex.SummaryFile,
		codex.RawFile,
		"rollout_summaries/" + codexRollout + ".md",
		"skills/release-notes/SKILL.md",
	}
	if got := codexPaths(s); !reflect.DeepEqual(got, want) {
		t.Errorf("Files =\n%q\nwant\n%q", got, want)
	}
	if !s.Exists || !s.Git || s.Home != home || s.Root != filepath.Join(home, "memories") || s.ConfigPath != filepath.Join(home, "config.toml") {
		t.Errorf("store = %+v", s)
	}
	if len(s.Problems) != 0 || len(s.Links) != 0 {
		t.Errorf("Problems = %+v, Links = %q", s.Problems, s.Links)
	}
	for p, c := range map[string]string{
		codex.SummaryFile: codexSummary, codex.HandbookFile: codexHandbook, codex.RawFile: codexRaw,
		"rollout_summaries/" + codexRollout + ".md": codexRolloutBody, ".editor-backup.md": "foreign\n",
	} {
		f := s.File(p)
		if f == nil || string(f.Content) != c || f.Size != int64(len(c)) || f.Truncated {
			t.Errorf("%s read as %+v", p, f)
		}
	}
	sum := s.File(codex.SummaryFile)
	if !sum.ModTime.Equal(mod) || sum.Mode != 0o600 {
		t.Errorf("summary mtime %v mode %o, want %v 600", sum.ModTime, sum.Mode, mod)
	}
	// What the model makes of them: the shapes are Codex's.
	if sh := codex.ParseSummary(sum.Content); !sh.Header || len(sh.Problems) != 0 {
		t.Errorf("summary shape: %+v", sh)
	}
	hb := codex.ParseHandbook(s.File(codex.HandbookFile).Content)
	files := map[string]bool{}
	for _, p := range codexPaths(s) {
		files[p] = true
	}
	if l := codex.CheckLinks(hb, files); len(hb.Groups) != 1 || len(l.Dangling)+len(l.MissingSkills)+len(l.Orphans) != 0 {
		t.Errorf("handbook %d groups, links %+v", len(hb.Groups), l)
	}
	if !s.ConfigFound || !s.Config.Enabled || s.Config.MaxUnusedDays != 14 || len(s.ConfigProblems) != 0 {
		t.Errorf("config: found %v %+v %+v", s.ConfigFound, s.Config, s.ConfigProblems)
	}
}

// TestLoadCodexCaps: the handbook and the raw memories are read under the
// index's cap, every other file under the file cap (Truncated, and said).
func TestLoadCodexCaps(t *testing.T) {
	home := codexStore(t)
	s := loadCodex(t, home, Options{Getenv: env(nil), MaxFileBytes: 100, MaxIndexBytes: 1000})
	if len(s.Files) != 8 {
		t.Fatalf("Files = %q", codexPaths(s))
	}
	want := map[string]model.ProblemKind{}
	for _, f := range s.Files {
		limit := int64(100)
		if f.Path == codex.HandbookFile || f.Path == codex.RawFile {
			limit = 1000
		}
		if f.Size > limit {
			want[f.Path] = model.ProblemTooLarge
		}
		if f.Truncated != (f.Size > limit) || int64(len(f.Content)) != min(f.Size, limit) {
			t.Errorf("%s: %d bytes of %d read under a cap of %d, truncated %v", f.Path, len(f.Content), f.Size, limit, f.Truncated)
		}
	}
	if len(want) < 2 || want[codex.HandbookFile] != 0 || want[codex.RawFile] != 0 {
		t.Fatalf("the fixture does not tell the caps apart: %v", want)
	}
	if got := problemKinds(s.Problems); !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %+v, want %v", s.Problems, want)
	}
}

// TestLoadCodexHugeIndex: a 3 GiB MEMORY.md (sparse) is read up to the
// index cap, not whole.
func TestLoadCodexHugeIndex(t *testing.T) {
	home := codexStore(t)
	testfs.Sparse(t, filepath.Join(home, "memories", codex.HandbookFile), 3<<30)
	var s *codex.Store
	testfs.ReturnsIn(t, "LoadCodex over a 3 GiB MEMORY.md", func() { s = loadCodex(t, home, Options{Getenv: env(nil)}) })
	f := s.File(codex.HandbookFile)
	if f == nil || !f.Truncated || int64(len(f.Content)) != DefaultMaxIndexBytes || f.Size != 3<<30 {
		t.Fatalf("MEMORY.md: truncated %v, %d bytes read of %d", f != nil && f.Truncated, len(f.Content), f.Size)
	}
	if got := problemKinds(s.Problems); got[codex.HandbookFile] != model.ProblemTooLarge {
		t.Errorf("problems = %+v", s.Problems)
	}
}

// TestLoadCodexAbsent: a home with no memories/ and no config.toml is a
// store that does not exist, with Codex's defaults (the feature off).
func TestLoadCodexAbsent(t *testing.T) {
	home := t.TempDir()
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if s.Exists || s.Git || len(s.Files) != 0 || len(s.Problems) != 0 {
		t.Errorf("store = %+v", s)
	}
	if s.ConfigFound || s.Config.Enabled || s.Config.MaxRaw != 256 || len(s.ConfigProblems) != 1 || !strings.Contains(s.ConfigProblems[0].What, "memories are off") {
		t.Errorf("config: %v %+v %+v", s.ConfigFound, s.Config, s.ConfigProblems)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("reading created %v", entries)
	}
}

// TestLoadCodexRootNotDir: memories/ as a file is a problem, not a store.
func TestLoadCodexRootNotDir(t *testing.T) {
	home := t.TempDir()
	testfs.Write(t, filepath.Join(home, "memories"), "x")
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if s.Exists || len(s.Problems) != 1 || s.Problems[0].Kind != model.ProblemNotFile || s.Problems[0].Path != "" {
		t.Errorf("store = %+v", s)
	}
}

// TestLoadCodexDepth: past the depth bound the walk stops with one
// problem, and what is above it is read.
func TestLoadCodexDepth(t *testing.T) {
	home := t.TempDir()
	deep := filepath.Join(home, "memories")
	for i := 0; i < maxCodexDepth+3; i++ {
		deep = filepath.Join(deep, "d")
		testfs.Write(t, filepath.Join(deep, "f.md"), "x")
	}
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if len(s.Files) != maxCodexDepth {
		t.Errorf("%d files read, want %d", len(s.Files), maxCodexDepth)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Detail, "folders deep") {
		t.Errorf("problems = %+v", s.Problems)
	}
}

// TestLoadCodexEntries: a store of more entries than the bound is listed
// up to it, with one problem.
func TestLoadCodexEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 20,000 files")
	}
	home := t.TempDir()
	dir := testfs.Mkdir(t, filepath.Join(home, "memories", "rollout_summaries"))
	for i := 0; i < maxCodexEntries+5; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%06d.md", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	// The rollout_summaries folder itself is the first entry.
	if len(s.Files) != maxCodexEntries-1 {
		t.Errorf("%d files read, want %d", len(s.Files), maxCodexEntries-1)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Detail, "more than 20000") {
		t.Errorf("problems = %+v", s.Problems)
	}
}

// TestLoadCodexCancelled: a cancelled context is the one error.
func TestLoadCodexCancelled(t *testing.T) {
	home := codexStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if s, err := LoadCodex(ctx, home, Options{Getenv: env(nil)}); !errors.Is(err, context.Canceled) || s != nil {
		t.Errorf("LoadCodex = %v, %v", s, err)
	}
}

// TestCodexHome: CODEX_HOME when set (canonical), else ~/.codex; one set
// to nowhere does not fall back, as Codex does not.
func TestCodexHome(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	def := testfs.Mkdir(t, filepath.Join(home, ".codex"))
	other := testfs.Mkdir(t, filepath.Join(tmp, "elsewhere"))
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
		ok   bool
	}{
		{"default", nil, def, true},
		{"empty CODEX_HOME is unset", map[string]string{"CODEX_HOME": ""}, def, true},
		{"CODEX_HOME", map[string]string{"CODEX_HOME": other}, other, true},
		{"CODEX_HOME cleaned", map[string]string{"CODEX_HOME": other + "/./"}, other, true},
		{"CODEX_HOME nowhere", map[string]string{"CODEX_HOME": filepath.Join(tmp, "none")}, filepath.Join(tmp, "none"), false},
	} {
		got, ok := CodexHome(env(c.env), home)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: CodexHome = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if got, ok := CodexHome(env(nil), filepath.Join(tmp, "nohome")); ok || got != filepath.Join(tmp, "nohome", ".codex") {
		t.Errorf("no ~/.codex: %q, %v", got, ok)
	}
	testfs.Write(t, filepath.Join(tmp, "filehome", ".codex"), "x")
	if _, ok := CodexHome(env(nil), filepath.Join(tmp, "filehome")); ok {
		t.Error("a file named .codex is a Codex home")
	}
}

// TestCodexHomeDir: --codex-home must be a directory, named in the error
// as --config-dir is.
func TestCodexHomeDir(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := CodexHomeDir(tmp); err != nil || got != tmp {
		t.Errorf("CodexHomeDir(%s) = %q, %v", tmp, got, err)
	}
	missing := filepath.Join(tmp, "none")
	if _, err := CodexHomeDir(missing); err == nil || err.Error() != "--codex-home "+missing+": no such directory" {
		t.Errorf("missing: %v", err)
	}
	file := testfs.Write(t, filepath.Join(tmp, "f"), "x")
	if _, err := CodexHomeDir(file); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file: %v", err)
	}
}
