package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/model"
)

// env builds a getenv that sees only the given variables, so the user's own
// Claude Code environment never leaks into a test.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func runCLI(t *testing.T, getenv func(string) string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb, getenv)
	return code, out.String(), errb.String()
}

type lintJSON struct {
	Version  int             `json:"version"`
	Findings []model.Finding `json:"findings"`
	Summary  struct {
		Errors, Warnings, Info, Projects, Files int
	} `json:"summary"`
	TranscriptProblems []model.TranscriptProblem `json:"transcript_problems"`
	ClaudeCode         struct {
		Followed, Newer string
		Older           []struct {
			Project, Version string
			Compared         bool
			Differs          []string
			MayDiffer        []string `json:"may_differ"`
		}
	} `json:"claude_code"`
}

func decodeLint(t *testing.T, s string) lintJSON {
	t.Helper()
	var out lintJSON
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("lint --json is not JSON: %v\n%s", err, s)
	}
	if out.Version != 1 {
		t.Fatalf("version = %d, want 1", out.Version)
	}
	return out
}

// slugOf recovers the project slug from a memory dir path under a config
// dir (<config>/projects/<slug>/memory[/team]) or names the agent dir.
func slugOf(memDir string) string {
	parts := strings.Split(filepath.ToSlash(memDir), "/")
	for i := len(parts) - 1; i > 0; i-- {
		if parts[i-1] == ".codex" && parts[i] == "memories" {
			return "codex"
		}
		if parts[i-1] == "projects" {
			return parts[i]
		}
		if parts[i-1] == "agent-memory" {
			return "agent-memory/" + parts[i]
		}
	}
	return ""
}

type planted struct {
	Rule string `json:"rule"`
	Slug string `json:"project_slug"`
	File string `json:"file"`
	Line int    `json:"line"`
}

func (p planted) String() string {
	return p.Rule + " " + p.Slug + " " + p.File + ":" + itoa(p.Line)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestDemoFindsExactlyThePlantedProblems runs lint on the embedded demo and
// compares every finding with the list of problems planted in it: each
// planted problem must be found, and nothing else may be (clean files stay
// clean).
func TestDemoFindsExactlyThePlantedProblems(t *testing.T) {
	exp, err := demo.Expected()
	if err != nil {
		t.Fatal(err)
	}
	var want []planted
	for _, e := range exp {
		want = append(want, planted{e.Rule, e.ProjectSlug, e.File, e.Line})
	}
	code, stdout, stderr := runCLI(t, env(), "--demo", "lint", "--json", "--now", "2026-11-21")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d (the demo has error findings)\n%s", code, exitFindings, stderr)
	}
	got := map[string]bool{}
	for _, f := range decodeLint(t, stdout).Findings {
		slug := slugOf(f.MemoryDir)
		file := f.File
		if f.MemoryDir == "" { // configuration findings name a file path
			slug, file = "", filepath.Base(f.File)
		}
		got[planted{f.Rule, slug, file, f.Line}.String()] = true
	}
	wantSet := map[string]bool{}
	for _, w := range want {
		wantSet[w.String()] = true
	}
	var missing, extra []string
	for w := range wantSet {
		if !got[w] {
			missing = append(missing, w)
		}
	}
	for g := range got {
		if !wantSet[g] {
			extra = append(extra, g)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("planted problems not found (%d):\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("findings that were not planted (%d):\n  %s", len(extra), strings.Join(extra, "\n  "))
	}
}

// TestDemoCoversEveryRule keeps the demo honest: every rule memtui has must
// show up in it, except those that need what an embedded tree cannot carry.
func TestDemoCoversEveryRule(t *testing.T) {
	code, stdout, _ := runCLI(t, env(), "--demo", "lint", "--json", "--now", "2026-11-21")
	if code == exitUsage {
		t.Fatal("demo lint failed")
	}
	seen := map[string]bool{}
	for _, f := range decodeLint(t, stdout).Findings {
		seen[f.Rule] = true
	}
	cannot := map[string]string{
		consolidate.RuleSymlink:            "symlinks cannot be embedded",
		consolidate.RuleFileUnreadable:     "permissions cannot be embedded",
		consolidate.RuleDanglingPath:       "the demo's project roots do not exist on this machine",
		consolidate.RuleSettingsInvalid:    "the demo's settings.json carries override-invalid instead",
		consolidate.RuleRecallCap:          "more than 200 memories in one folder would drown the sample",
		consolidate.RuleCodexSummaryGone:   "the demo's one Codex summary is near its cap",
		consolidate.RuleCodexSummaryCut:    "the demo's one Codex summary is near its cap",
		consolidate.RuleCodexOff:           "the demo's Codex memories are on",
		consolidate.RuleCodexBusy:          "the demo's Codex store is idle, so that it can be edited",
		consolidate.RuleCodexLink:          "symlinks cannot be embedded",
		consolidate.RuleCodexCwdGone:       "the demo's world is partial: a folder missing under its chroot says nothing",
		consolidate.RuleCodexClaudeOverlap: "the TUI's findings view does not compare the agents yet, and the demo's findings are the same in both",
		consolidate.RuleCodexImportDrift:   "the TUI's findings view does not compare the agents yet, and the demo's findings are the same in both",
		// The database rules: the demo's Codex store has no databases yet.
		consolidate.RuleCodexDBUnreadable:  "the demo's Codex store has no databases yet",
		consolidate.RuleCodexBelowCut:      "the demo's Codex store has no databases yet",
		consolidate.RuleCodexStuck:         "the demo's Codex store has no databases yet",
		consolidate.RuleCodexThreadUnknown: "the demo's Codex store has no databases yet",
		consolidate.RuleCodexSessionGone:   "the sessions the demo's rollout summaries name are outside its partial world",
		consolidate.RuleCodexBaseline:      "the demo's Codex baseline is Codex's own, so that its pending edits show",
	}
	for _, r := range consolidate.Rules() {
		if !seen[r.ID] && cannot[r.ID] == "" {
			t.Errorf("rule %s never fires on the demo", r.ID)
		}
	}
}

func TestSecretsNeverPrintedWhole(t *testing.T) {
	// The demo plants a fake GitHub token and a database URL with a
	// password; neither may appear in any output.
	var secrets []string
	err := fs.WalkDir(demo.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(demo.FS(), p)
		if err != nil {
			return err
		}
		secrets = append(secrets, regexp.MustCompile(`ghp_[A-Za-z0-9]{36}|://[^:\s/]+:([^@\s/]{6,})@`).FindAllString(string(b), -1)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(secrets) == 0 {
		t.Fatal("the demo plants no secret to test with")
	}
	for _, args := range [][]string{{"--demo", "lint", "--json"}, {"--demo", "lint"}} {
		_, stdout, stderr := runCLI(t, env(), append(args, "--now", "2026-11-21")...)
		for _, s := range secrets {
			if strings.HasPrefix(s, "://") {
				s = strings.TrimSuffix(s[strings.Index(s[3:], ":")+4:], "@")
			}
			if strings.Contains(stdout, s) || strings.Contains(stderr, s) {
				t.Errorf("%v printed the secret %q", args, s)
			}
		}
	}
}

func TestPlainOutputWhenPipedOrNoColor(t *testing.T) {
	for _, e := range []func(string) string{env(), env("NO_COLOR", "1", "TERM", "xterm-256color", "CLICOLOR_FORCE", "1")} {
		_, stdout, _ := runCLI(t, e, "--demo", "lint", "--now", "2026-11-21")
		if strings.Contains(stdout, "\x1b[") {
			t.Errorf("escape codes in plain output: %q", stdout[:min(200, len(stdout))])
		}
		if !strings.Contains(stdout, "[index-over-lines]") {
			t.Errorf("human output lacks the rule IDs:\n%s", stdout)
		}
	}
}

func TestColourWhenForced(t *testing.T) {
	_, stdout, _ := runCLI(t, env("CLICOLOR_FORCE", "1", "TERM", "xterm-256color"), "--demo", "lint", "--now", "2026-11-21")
	if !strings.Contains(stdout, "\x1b[") {
		t.Error("CLICOLOR_FORCE=1 should colour the report")
	}
}

func TestExitCodes(t *testing.T) {
	clean := t.TempDir()
	mem := filepath.Join(clean, "memory")
	writeFile(t, filepath.Join(mem, "MEMORY.md"), "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship, not npm\n")
	writeFile(t, filepath.Join(mem, "feedback_deploy.md"), "---\nname: feedback-deploy\ndescription: Deploy with make ship, never npm run deploy\ntype: feedback\n---\n\nDeploy with `make ship`.\n\n**Why:** npm run deploy skips the migrations.\n")
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"clean directory", []string{"lint", "--memory-dir", mem, "--now", "2026-11-21"}, exitOK, ""},
		{"errors present", []string{"--demo", "lint", "--now", "2026-11-21"}, exitFindings, ""},
		{"errors filtered away", []string{"--demo", "lint", "--rule", "memory-stub", "--now", "2026-11-21"}, exitOK, ""},
		{"missing config dir", []string{"lint", "--config-dir", filepath.Join(clean, "nope")}, exitUsage, "nope"},
		{"bad --now", []string{"--demo", "lint", "--now", "yesterday"}, exitUsage, "--now"},
		{"unknown rule", []string{"--demo", "lint", "--rule", "no-such-rule"}, exitUsage, "no-such-rule"},
		{"unknown flag", []string{"lint", "--frobnicate"}, exitUsage, "frobnicate"},
		{"no memory anywhere", []string{"lint", "--config-dir", clean}, exitUsage, "--demo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, env(), tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if tt.err != "" && !strings.Contains(stderr, tt.err) {
				t.Errorf("stderr does not mention %q:\n%s", tt.err, stderr)
			}
		})
	}
}

func TestNoClaudeDirSuggestsDemo(t *testing.T) {
	home := t.TempDir()
	code, _, stderr := runCLI(t, env("HOME", home), "lint")
	if code != exitUsage || !strings.Contains(stderr, "memtui --demo") {
		t.Fatalf("exit %d, stderr %q: a new user must be pointed at --demo", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCLI(t, env(), "version")
	if code != 0 || !strings.HasPrefix(stdout, "memtui ") {
		t.Fatalf("version: exit %d, %q", code, stdout)
	}
}

// TestReadmeListsEveryRule keeps the README's rule table in step with the
// code.
func TestReadmeListsEveryRule(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range consolidate.Rules() {
		row := "| `" + r.ID + "` | " + r.Severity.String() + " |"
		if !strings.Contains(string(b), row) {
			t.Errorf("README.md has no row %q", row)
		}
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The demo's scratch copy is removed when memtui exits, so repeated runs do
// not pile copies up in the temp dir.
func TestDemoCopyRemovedOnExit(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	_, _, stderr := runCLI(t, env("HOME", t.TempDir()), "--demo", "lint", "--now", "2026-11-21")
	m := regexp.MustCompile(`demo tree copied to (\S+) `).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the demo did not say where it copied the tree: %q", stderr)
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Errorf("the demo copy %s is still there after exit (%v)", m[1], err)
	}
}
