package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// strandTree is a config dir with the stores real sessions leave (facts
// §12.1): a repository's main checkout with its own store, a git worktree
// of it (made by git) whose sessions wrote into the worktree's own store,
// and a session launched in a subdirectory of the repository that wrote
// into the subdirectory's store. It returns the config dir, the main
// checkout, the worktree and the subdirectory.
func strandTree(t *testing.T) (cfg, main, wt, sub string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir()) // transcripts hold realpath'd cwds
	if err != nil {
		t.Fatal(err)
	}
	cfg = testfs.Mkdir(t, filepath.Join(tmp, "claude"))
	main = testfs.Repo(t, filepath.Join(tmp, "src", "app"))
	wt = filepath.Join(tmp, "src", "app-fix")
	testfs.Git(t, main, "worktree", "add", "-q", wt)
	sub = testfs.Mkdir(t, filepath.Join(main, "web"))
	for i, c := range []struct {
		cwd  string
		name string
	}{{main, "build"}, {wt, "deploy"}, {sub, "css"}} {
		dir := filepath.Join(cfg, "projects", sanitize(c.cwd))
		cwd, _ := json.Marshal(c.cwd)
		id := []string{"0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20", "1c1f8b9f-4d2e-4a68-8b74-3a5f8d0e2b31", "2d209ca0-5e3f-4b79-9c85-4b6a9e1f3c42"}[i]
		testfs.Write(t, filepath.Join(dir, id+".jsonl"),
			`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-11-20T10:00:00.000Z","cwd":`+string(cwd)+`,"sessionId":"`+id+`","version":"2.1.332"}`+"\n")
		testfs.WriteAll(t, filepath.Join(dir, "memory"), map[string]string{
			"MEMORY.md":    "- [" + c.name + "](" + c.name + ".md) — how " + c.name + " works here\n",
			c.name + ".md": "---\nname: " + c.name + "\ndescription: how " + c.name + " works here\ntype: project\n---\n\nRun `make " + c.name + "` before pushing.\n",
		})
	}
	return cfg, main, wt, sub
}

// sanitize is Claude Code's sanitizePath for the short ASCII paths of
// these tests (facts §1.3 step 3).
func sanitize(p string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, p)
}

// TestLintStrands: lint reports a worktree's and a subdirectory's own
// stores as stranded, saying why and where their memories belong, and the
// main checkout's store as holding its project's stranded memories, in
// the text report and in the JSON.
func TestLintStrands(t *testing.T) {
	cfg, main, wt, sub := strandTree(t)
	mainMem := filepath.Join(cfg, "projects", sanitize(main), "memory")
	wtMem := filepath.Join(cfg, "projects", sanitize(wt), "memory")
	subMem := filepath.Join(cfg, "projects", sanitize(sub), "memory")
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())

	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "lint", "--json")
	if code == exitUsage {
		t.Fatalf("lint --json: exit %d: %s", code, stderr)
	}
	var stranded, has []model.Finding
	for _, f := range decodeLint(t, stdout).Findings {
		switch f.Rule {
		case consolidate.RuleStoreStranded:
			stranded = append(stranded, f)
		case consolidate.RuleStoreHasStranded:
			has = append(has, f)
		}
	}
	if len(stranded) != 2 || len(has) != 2 {
		t.Fatalf("store-stranded %+v, store-has-stranded %+v; want two of each", stranded, has)
	}
	byDir := map[string]model.Finding{}
	for _, f := range stranded {
		byDir[f.MemoryDir] = f
	}
	for dir, want := range map[string][]string{
		wtMem: {"nothing Claude Code runs loads this store: the sessions that wrote it ran in the git worktree " + wt,
			"keys a worktree's memory by its main checkout " + main, "its 1 memory and a MEMORY.md belong with " + mainMem,
			filepath.Join(main, ".git", "worktrees", "app-fix", "gitdir") + " points back to " + filepath.Join(wt, ".git")},
		subMem: {"the sessions that wrote it ran in " + sub + ", a subdirectory of the repository " + main,
			"belong with " + mainMem, filepath.Join(main, ".git") + " is the first .git found walking up from " + sub},
	} {
		f, ok := byDir[dir]
		if !ok || f.Severity != model.Warning {
			t.Errorf("%s: finding %+v", dir, f)
			continue
		}
		for _, w := range want {
			if !strings.Contains(f.Message, w) {
				t.Errorf("%s: message %q lacks %q", dir, f.Message, w)
			}
		}
	}
	for _, f := range has {
		if f.MemoryDir != mainMem || f.Severity != model.Info ||
			!strings.Contains(f.Message, "1 memory and a MEMORY.md of this project are stranded in ") {
			t.Errorf("store-has-stranded: %+v", f)
		}
	}

	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint")
	for _, w := range []string{"store-stranded", "store-has-stranded", "git worktree " + wt} {
		if !strings.Contains(stdout, w) {
			t.Errorf("lint text lacks %q:\n%s", w, stdout)
		}
	}
}
