package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Other agents' stores in Claude Code's format (--memory-root), written
// in the shapes their sources describe (memfs/roots.go): Qwen Code's home
// with a store per project (~/.qwen/projects/<sanitized path>/memory, its
// state files beside memory/) and the cross-project store
// (~/.qwen/memories); OpenHands' store (~/.openhands/memory: a MEMORY.md
// index and daily logs named YYYY-MM-DD.md, without frontmatter).

// rootMod is every fixture file's mtime: relative dates count from it.
var rootMod = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// putAll writes files under dir with rootMod as their mtime.
func putAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		writeFile(t, p, body)
		if err := os.Chtimes(p, rootMod, rootMod); err != nil {
			t.Fatal(err)
		}
	}
}

// rootsTree is a HOME with Claude Code's memory (one project), Qwen
// Code's (two projects and the cross-project store) and OpenHands' (a
// workspace's store), and a folder outside every store holding a marker
// and a relative date: a link in the Qwen home leads to it (as a
// project), and another in a Qwen store (as a memory).
func rootsTree(t *testing.T) (home, qwen, outside string) {
	t.Helper()
	home = t.TempDir()
	putAll(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory"), map[string]string{
		"MEMORY.md": "- [API](api.md) — how the API is built\n",
		"api.md":    "---\nname: api\ndescription: the API is built with sqlc\ntype: project\n---\n\nThe API uses sqlc for every query.\n",
	})
	qwen = filepath.Join(home, ".qwen")
	putAll(t, qwen, map[string]string{
		"QWEN.md":       "# Instructions\nAnswer briefly.\n",
		"settings.json": `{"memory": {"enableManagedAutoMemory": true}}`,
		"projects/-home-al-acme/memory/MEMORY.md": "- [Deploy](deploy.md) — how the service ships\n",
		"projects/-home-al-acme/memory/deploy.md": "---\nname: deploy\ndescription: ship with make ship\ntype: project\n---\n\nWe moved the deploy to `make ship` yesterday.\n",
		"projects/-home-al-acme/meta.json":        "{}",
		"projects/-home-al-shop/memory/MEMORY.md": "- [Cart](cart.md) — the cart's rules\n",
		"projects/-home-al-shop/memory/cart.md":   "---\nname: cart\ndescription: carts expire after a day\ntype: project\n---\n\nA cart expires after 24 hours without a change.\n",
		"memories/MEMORY.md":                      "- [pnpm](user.md) — the package manager\n",
		"memories/user.md":                        "---\nname: pnpm\ndescription: always pnpm, never npm\ntype: user\n---\n\nUse pnpm in every repository, with the lockfile committed.\n",
	})
	outside = filepath.Join(home, "elsewhere")
	putAll(t, outside, map[string]string{
		"memory/MEMORY.md": "- [Secret](secret.md) — OUTSIDE-MARKER\n",
		"memory/secret.md": "---\nname: secret\ndescription: OUTSIDE-MARKER\ntype: project\n---\n\nOUTSIDE-MARKER changed yesterday.\n",
	})
	if err := os.Symlink(outside, filepath.Join(qwen, "projects", "-home-al-linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "memory", "secret.md"), filepath.Join(qwen, "projects", "-home-al-acme", "memory", "linked.md")); err != nil {
		t.Fatal(err)
	}
	putAll(t, filepath.Join(home, "code", "app", ".openhands", "memory"), map[string]string{
		"MEMORY.md":     "# Project memory\n- build with `make`; test with `make test`\n",
		"2026-11-19.md": "- fixed the parser's off-by-one today\n",
	})
	return home, qwen, outside
}

// fileText is the file at p, or "" when it cannot be read.
func fileText(t *testing.T, p string) string {
	t.Helper()
	b, _ := os.ReadFile(p)
	return string(b)
}

// rootsEnv is an environment with HOME at home and memtui's state apart.
func rootsEnv(t *testing.T, home string) func(string) string {
	return env("HOME", home, "XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"), "XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
}

// runRoots runs memtui with the shared flags of these tests.
func runRoots(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return runCLI(t, rootsEnv(t, home), append([]string{"--now", "2026-11-21", "--no-transcripts"}, args...)...)
}

// TestMemoryRootQwenHome: pointed at a Qwen Code home, `ls` lists each
// store under its label and project folder, and `ls --json` names the
// agent of each file; Claude Code's and Codex's memory are not read.
// `index` measures each store's MEMORY.md, saying whose it is.
func TestMemoryRootQwenHome(t *testing.T) {
	home, qwen, _ := rootsTree(t)
	code, out, errOut := runRoots(t, home, "--memory-root", qwen, "ls")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, w := range []string{"qwen:-home-al-acme\n", "qwen:-home-al-shop\n", "qwen:memories\n", "~/.qwen/projects/-home-al-acme/memory  (memory-root;", "deploy.md", "cart.md", "user.md"} {
		if !strings.Contains(out, w) {
			t.Errorf("ls does not say %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "-work-api") || strings.Contains(out, "QWEN.md") {
		t.Errorf("ls lists what is no Qwen store:\n%s", out)
	}

	code, out, errOut = runRoots(t, home, "--memory-root", qwen, "ls", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var ls struct {
		Memories []struct {
			File, Store, Agent string
			MemoryDir          string `json:"memory_dir"`
		}
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("ls --json: %v\n%s", err, out)
	}
	var files []string
	for _, m := range ls.Memories {
		files = append(files, m.Agent+" "+m.Store+" "+filepath.Base(m.MemoryDir)+"/"+m.File)
	}
	want := []string{"qwen memory-root memory/deploy.md", "qwen memory-root memory/linked.md", "qwen memory-root memory/cart.md", "qwen memory-root memories/user.md"}
	slices.Sort(files)
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("ls --json:\n got %q\nwant %q", files, want)
	}

	code, out, _ = runRoots(t, home, "--memory-root", qwen, "index")
	if code != exitOK || strings.Count(out, "(qwen's store, qwen:") != 3 || !strings.Contains(out, "3 indexes checked, 0 cut off.") {
		t.Errorf("index: exit %d\n%s", code, out)
	}
	code, out, _ = runRoots(t, home, "--memory-root", qwen, "index", "--json")
	var ix struct {
		Indexes []struct{ Agent, File string }
	}
	if err := json.Unmarshal([]byte(out), &ix); err != nil || code != exitOK || len(ix.Indexes) != 3 {
		t.Fatalf("index --json: exit %d, %v\n%s", code, err, out)
	}
	for _, i := range ix.Indexes {
		if i.Agent != "qwen" || i.File != "MEMORY.md" {
			t.Errorf("index --json: %+v", i)
		}
	}
}

// TestMemoryRootLintJSON: `lint --json` beside Claude Code's memory
// names the agent of each finding of a copy's store (Claude Code's name
// none), in a project named by its label; --project narrows to one store
// by it; a single-dir root is one store, named by its path, and checked
// without the rules its agent's files do not follow.
func TestMemoryRootLintJSON(t *testing.T) {
	home, qwen, _ := rootsTree(t)
	// A Claude Code memory too long for its recall, and the same in a
	// Qwen store: only Claude Code's is reported.
	long := "---\nname: long\ndescription: every step of the release\ntype: project\n---\n\n" + strings.Repeat("A step of the release, written out in full.\n", 120)
	putAll(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory"), map[string]string{"long.md": long})
	putAll(t, filepath.Join(qwen, "projects", "-home-al-shop", "memory"), map[string]string{"long.md": long})
	oh := filepath.Join(home, "code", "app", ".openhands", "memory")
	code, out, errOut := runRoots(t, home, "--config-dir", filepath.Join(home, ".claude"), "--memory-root", qwen, "--memory-root", oh, "lint", "--json")
	if code != exitFindings { // Claude Code's recall-truncated is an error
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	got := map[string][]string{}
	for _, f := range decodeLint(t, out).Findings {
		got[f.Agent+" "+f.Project] = append(got[f.Agent+" "+f.Project], f.Rule+" "+f.File)
	}
	want := map[string][]string{
		"qwen qwen:-home-al-acme":               {"relative-date deploy.md"},
		"openhands openhands:.openhands/memory": {"relative-date 2026-11-19.md"},
		" -work-api":                            {"recall-truncated long.md"},
	}
	for k, w := range want {
		for _, r := range w {
			if !slices.Contains(got[k], r) {
				t.Errorf("%q has no %s: %q", k, r, got)
			}
		}
	}
	for k, rs := range got {
		for _, r := range rs {
			if strings.HasPrefix(k, "qwen ") && strings.HasPrefix(r, "recall-") || strings.HasPrefix(k, "openhands ") && (strings.HasPrefix(r, "frontmatter-missing") || strings.HasPrefix(r, "memory-orphan")) {
				t.Errorf("%s: %s does not apply to the copy's store", k, r)
			}
		}
	}
	// The field is there in the JSON, and absent from Claude Code's.
	if !strings.Contains(out, `"agent": "qwen"`) || strings.Count(out, `"agent"`) != len(got["qwen qwen:-home-al-acme"])+len(got["qwen qwen:-home-al-shop"])+len(got["qwen qwen:memories"])+len(got["openhands openhands:.openhands/memory"]) {
		t.Errorf("the agent field is not on exactly the copies' findings:\n%s", out)
	}

	code, out, _ = runRoots(t, home, "--memory-root", qwen, "--project", "qwen:-home-al-acme", "lint", "--json")
	projects := map[string]bool{}
	for _, f := range decodeLint(t, out).Findings {
		projects[f.Project] = true
	}
	if code != exitOK || len(projects) != 1 || !projects["qwen:-home-al-acme"] {
		t.Errorf("--project qwen:-home-al-acme: exit %d, projects %v", code, projects)
	}
}

// TestMemoryRootLinksNotFollowed: a link in the root to a folder outside
// (where a store sits) is not followed, nor a memory linked from outside
// into a store: nothing of theirs shows in any output, the notes say
// which link was not followed, and ls says the linked memory was not.
func TestMemoryRootLinksNotFollowed(t *testing.T) {
	home, qwen, _ := rootsTree(t)
	for _, args := range [][]string{{"ls"}, {"ls", "--json"}, {"lint"}, {"lint", "--json"}, {"index"}, {"index", "--json"}} {
		code, out, errOut := runRoots(t, home, append([]string{"--memory-root", qwen}, args...)...)
		name := strings.Join(args, " ")
		if code != exitOK {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
		if strings.Contains(out+errOut, "OUTSIDE-MARKER") || strings.Contains(out, "-home-al-linked") {
			t.Errorf("%s follows a link out:\n%s%s", name, out, errOut)
		}
		if !strings.Contains(errOut, "projects/-home-al-linked: a link to a folder, not followed") {
			t.Errorf("%s: the notes do not name the link:\n%s", name, errOut)
		}
		if name == "ls" && !strings.Contains(out, "not-followed") {
			t.Errorf("ls does not say linked.md was not followed:\n%s", out)
		}
	}
}

// TestMemoryRootUsage: a root that is no directory, or none at all, a bad
// label, and flags that contradict --agent are usage errors naming what
// to do; --agent other reads the stores alone, and --agent takes no label
// (--project does); the help documents the flag.
func TestMemoryRootUsage(t *testing.T) {
	home, qwen, _ := rootsTree(t)
	empty := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"a file", []string{"--memory-root", filepath.Join(qwen, "QWEN.md"), "lint"}, exitUsage, []string{"--memory-root", "QWEN.md: not a directory"}},
		{"nowhere", []string{"--memory-root", filepath.Join(home, "none"), "lint"}, exitUsage, []string{"no such directory"}},
		{"bad label", []string{"--memory-root", "Qwen=" + qwen, "lint"}, exitUsage, []string{`"Qwen" is no label`}},
		{"Claude Code's", []string{"--memory-root", filepath.Join(home, ".claude"), "lint"}, exitUsage, []string{"that is Claude Code's own memory"}},
		{"with --agent claude", []string{"--agent", "claude", "--memory-root", qwen, "lint"}, exitUsage, []string{"--agent claude leaves it out"}},
		{"--agent other alone", []string{"--agent", "other", "lint"}, exitUsage, []string{"name one with --memory-root"}},
		{"--agent other with --config-dir", []string{"--agent", "other", "--config-dir", filepath.Join(home, ".claude"), "--memory-root", qwen, "lint"}, exitUsage, []string{"and --agent other leaves them"}},
		{"--agent takes no label", []string{"--agent", "qwen", "--memory-root", qwen, "lint"}, exitUsage, []string{`"qwen" for "--agent"`, "or other (the --memory-root stores)"}},
		{"no store", []string{"--memory-root", empty, "lint"}, exitUsage, []string{"No memory folder found under", "~/.qwen for Qwen Code"}},
		{"--agent other", []string{"--agent", "other", "--memory-root", qwen, "lint"}, exitOK, []string{"qwen:-home-al-acme", "in 3 projects"}},
		{"help", []string{"--help"}, exitOK, []string{"--memory-root", "[AGENT=]DIR", "~/.qwen/projects/<project>/memory", "claude (Claude Code) or codex (OpenAI Codex), or other"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runRoots(t, home, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("the output does not say %q:\n%s%s", w, out, errOut)
				}
			}
			if c.name == "--agent other" && strings.Contains(out, "-work-api") {
				t.Errorf("--agent other read Claude Code's memory:\n%s", out)
			}
		})
	}
}

// TestMemoryRootWrites: a store under a --memory-root is written as a
// --memory-dir is (dream --apply fixes its relative date), and nothing
// else is: neither the file a link in the store leads to, nor the store a
// link in the root leads to, nor Claude Code's memory; undo acts only on
// the stores in view.
func TestMemoryRootWrites(t *testing.T) {
	home, qwen, outside := rootsTree(t)
	e := rootsEnv(t, home)
	deploy := filepath.Join(qwen, "projects", "-home-al-acme", "memory", "deploy.md")
	secret := filepath.Join(outside, "memory", "secret.md")
	secretBefore := fileText(t, secret)
	code, out, errOut := runCLI(t, e, "--now", "2026-11-21", "--no-transcripts", "--memory-root", qwen, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	if code != exitOK {
		t.Fatalf("dream --apply: exit %d\n%s%s", code, out, errOut)
	}
	if got := fileText(t, deploy); !strings.Contains(got, "on 2026-11-19") {
		t.Errorf("the store's relative date is not fixed:\n%s", got)
	}
	// Claude Code's lock, taken for the write, is not left in the store.
	if _, err := os.Lstat(filepath.Join(filepath.Dir(deploy), ".consolidate-lock")); err == nil {
		t.Errorf("the write left a .consolidate-lock in the Qwen store")
	}
	if got := fileText(t, secret); got != secretBefore {
		t.Errorf("a file outside the root was written:\n%s", got)
	}
	if got := fileText(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "api.md")); !strings.Contains(got, "sqlc for every query") {
		t.Errorf("Claude Code's memory changed: %q", got)
	}
	// The store is not in view of another root: undo refuses there.
	oh := filepath.Join(home, "code", "app", ".openhands", "memory")
	code, out, errOut = runCLI(t, e, "--no-transcripts", "--memory-root", oh, "undo", "--last")
	if code == exitOK || !strings.Contains(fileText(t, deploy), "on 2026-11-19") {
		t.Errorf("undo from another root: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, e, "--no-transcripts", "--memory-root", qwen, "undo", "--last")
	if code != exitOK || !strings.Contains(fileText(t, deploy), "yesterday") {
		t.Errorf("undo in view: exit %d\n%s%s", code, out, errOut)
	}
}
