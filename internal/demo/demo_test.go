package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
)

var wantProjects = map[string]string{
	"-home-dev-acme-api":         "/home/dev/acme-api",
	"-home-dev-webshop":          "/home/dev/webshop",
	"-home-dev-ml-pipeline":      "/home/dev/ml-pipeline",
	"-home-dev-mlp-eval-harness": "/home/dev/mlp-eval-harness", // a git worktree's own store: stranded
	"-home-dev-kefu-platform":    "/home/dev/kefu_platform",
	"-home-dev-blog":             "/home/dev/blog",
	"-home-dev-dotfiles":         "", // no transcripts: memtui shows the slug
	"-home-dev-scratch":          "/home/dev/scratch",
}

// notPlantable lists the rules a static embedded tree cannot show; the
// package comment says why.
var notPlantable = map[string]bool{
	// The demo has one Codex store, with one summary, near its cap, and
	// memories on; it is idle (so it can be edited), and go:embed keeps
	// no symlink.
	consolidate.RuleCodexSummaryGone: true,
	consolidate.RuleCodexSummaryCut:  true,
	consolidate.RuleCodexOff:         true,
	consolidate.RuleCodexBusy:        true,
	consolidate.RuleCodexLink:        true,
	// The demo's world is partial: a folder missing under its chroot
	// says nothing, so no applies_to folder is known to be gone.
	consolidate.RuleCodexCwdGone: true,
	// lint compares the Codex store with Claude Code's memory; the TUI's
	// findings view does not yet, and the demo's findings are the same in
	// both.
	consolidate.RuleCodexClaudeOverlap: true,
	consolidate.RuleCodexImportDrift:   true,
	// It has no databases yet (its store is files only), and the
	// sessions its rollout summaries name are not in its partial world.
	consolidate.RuleCodexDBUnreadable:  true,
	consolidate.RuleCodexBelowCut:      true,
	consolidate.RuleCodexStuck:         true,
	consolidate.RuleCodexThreadUnknown: true,
	consolidate.RuleCodexSessionGone:   true,
	// Its baseline is Codex's own, so that its pending edits show.
	consolidate.RuleCodexBaseline: true,

	consolidate.RuleSymlink:         true,
	consolidate.RuleFileUnreadable:  true,
	consolidate.RuleSettingsInvalid: true,
	consolidate.RuleDanglingPath:    true,
	consolidate.RuleRecallCap:       true,
}

func allFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

func TestProjects(t *testing.T) {
	entries, err := fs.ReadDir(FS(), "projects")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Name()] = true
		if _, ok := wantProjects[e.Name()]; !ok {
			t.Errorf("unexpected project %s", e.Name())
		}
	}
	for slug, cwd := range wantProjects {
		if !got[slug] {
			t.Errorf("project %s missing", slug)
			continue
		}
		if _, err := fs.Stat(FS(), path.Join("projects", slug, "memory")); err != nil {
			t.Errorf("%s has no memory dir: %v", slug, err)
		}
		transcripts, _ := fs.Glob(FS(), path.Join("projects", slug, "*.jsonl"))
		if cwd == "" {
			if len(transcripts) != 0 {
				t.Errorf("%s should have no transcripts, has %v", slug, transcripts)
			}
			continue
		}
		if len(transcripts) == 0 {
			t.Errorf("%s has no transcripts", slug)
		}
		for _, tr := range transcripts {
			checkTranscript(t, tr, slug, cwd)
		}
	}
	for _, p := range []string{"settings.json", "agent-memory/code-reviewer/MEMORY.md", "projects/-home-dev-acme-api/memory/team/platform/MEMORY.md"} {
		if _, err := fs.Stat(FS(), p); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
}

// checkTranscript checks that every line is JSON and that the cwd of the
// message lines is the project's path, which sanitizes to its slug.
func checkTranscript(t *testing.T, name, slug, cwd string) {
	t.Helper()
	if got := sanitizePath(cwd); got != slug {
		t.Errorf("sanitizePath(%q) = %q, want %q", cwd, got, slug)
	}
	data, err := fs.ReadFile(FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	stem := strings.TrimSuffix(path.Base(name), ".jsonl")
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	sawCwd := false
	for n := 1; sc.Scan(); n++ {
		var line struct {
			Cwd       string `json:"cwd"`
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Errorf("%s:%d: %v", name, n, err)
			continue
		}
		if line.SessionID != "" && line.SessionID != stem {
			t.Errorf("%s:%d: sessionId %s, want the file stem", name, n, line.SessionID)
		}
		if line.Cwd != "" {
			sawCwd = true
			if line.Cwd != cwd {
				t.Errorf("%s:%d: cwd %q, want %q", name, n, line.Cwd, cwd)
			}
		}
	}
	if !sawCwd {
		t.Errorf("%s: no line carries a cwd", name)
	}
}

// sanitizePath is Claude Code's sanitizePath for short ASCII paths.
func sanitizePath(p string) string {
	b := []byte(p)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func TestMtimesCoverEveryFile(t *testing.T) {
	mt, err := Mtimes()
	if err != nil {
		t.Fatal(err)
	}
	files := allFiles(t)
	for _, f := range files {
		if f == MtimesFile {
			continue
		}
		m, ok := mt[f]
		if !ok {
			t.Errorf("%s has no entry in %s", f, MtimesFile)
			continue
		}
		if m.Year() != 2026 || !m.Before(Now) {
			t.Errorf("%s: mtime %s, want a date in 2026 before %s", f, m, Now.Format("2006-01-02"))
		}
	}
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	for p := range mt {
		if !have[p] {
			t.Errorf("%s names %s, which the sample does not have", MtimesFile, p)
		}
	}
}

func TestExpected(t *testing.T) {
	exp, err := Expected()
	if err != nil {
		t.Fatal(err)
	}
	if len(exp) == 0 {
		t.Fatal("expected.json is empty")
	}
	seen := map[string]bool{}
	for _, e := range exp {
		if _, ok := consolidate.LookupRule(e.Rule); !ok {
			t.Errorf("%+v: no such rule", e)
		}
		seen[e.Rule] = true
		if e.Line < 0 {
			t.Errorf("%+v: negative line", e)
		}
		var p string
		switch {
		case e.ProjectSlug == "codex": // the Codex store, ~/.codex/memories
			p = path.Clean(path.Join(".codex", "memories", e.File))
		case e.ProjectSlug == "":
			p = e.File
		case e.File == "":
			p = path.Join("projects", e.ProjectSlug, "memory")
		default:
			p = path.Join("projects", e.ProjectSlug, "memory", e.File)
		}
		if _, ok := wantProjects[e.ProjectSlug]; !ok && e.ProjectSlug != "" && e.ProjectSlug != "codex" {
			t.Errorf("%+v: unknown project", e)
		}
		if p == ".codex/memories_1.sqlite" {
			// Codex's database: written at setup (CodexDatabases), not
			// embedded.
			continue
		}
		info, err := fs.Stat(FS(), p)
		if e.Rule == consolidate.RuleMemoryDeleted {
			// A finding about a file gone from disk: it must be gone.
			if err == nil {
				t.Errorf("%+v: the file is on disk", e)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", e, err)
			continue
		}
		if e.Line > 0 {
			if info.IsDir() {
				t.Errorf("%+v: a line in a directory", e)
				continue
			}
			data, _ := fs.ReadFile(FS(), p)
			if n := bytes.Count(data, []byte("\n")) + 1; e.Line > n {
				t.Errorf("%+v: %s has only %d lines", e, p, n)
			}
		}
	}
	// Every rule is planted, except those a static tree cannot show.
	for _, r := range consolidate.Rules() {
		if !seen[r.ID] && !notPlantable[r.ID] {
			t.Errorf("rule %s is not planted in the demo (add it to the sample and expected.json)", r.ID)
		}
	}
}

// TestExpectedSorted keeps expected.json diff-friendly.
func TestExpectedSorted(t *testing.T) {
	exp, err := Expected()
	if err != nil {
		t.Fatal(err)
	}
	if !sort.SliceIsSorted(exp, func(i, j int) bool {
		a, b := exp[i], exp[j]
		if a.ProjectSlug != b.ProjectSlug {
			return a.ProjectSlug < b.ProjectSlug
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	}) {
		t.Error("expected.json is not sorted by project slug, file, line and rule")
	}
}
