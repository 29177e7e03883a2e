package memfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// Other agents' stores in the shapes their sources describe (roots.go):
// Qwen Code's home with a store per project, its cross-project store and
// its own state beside memory/; OpenHands' MEMORY.md with daily logs.
const (
	qwenIndex  = "- [Deploy](deploy.md) — ship with make ship\n"
	qwenTopic  = "---\nname: deploy\ndescription: ship with make ship\ntype: project\n---\n\nThe API deploys with `make ship`.\n"
	qwenUser   = "- [Prefers pnpm](user.md) — package manager\n"
	qwenPrefs  = "---\nname: pnpm\ndescription: always pnpm, never npm\ntype: user\n---\n\nUse pnpm in every repository.\n"
	ohIndex    = "# Project memory\n- build with `make`; tests with `make test`\n"
	ohDailyLog = "- 10:02 fixed the parser's off-by-one\n"
)

// qwenHome writes a Qwen Code home (~/.qwen): QWEN.md (instructions, not
// memory), settings, a project whose store has an index and a topic, a
// project whose memory/ is still empty, the state files Qwen keeps beside
// memory/, and the cross-project store memories/.
func qwenHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), ".qwen")
	testfs.WriteAll(t, home, map[string]string{
		"QWEN.md":       "# My instructions\nAlways answer briefly.\n",
		"settings.json": `{"memory": {"enableManagedAutoMemory": true}}`,
		"projects/-home-al-acme/memory/MEMORY.md":       qwenIndex,
		"projects/-home-al-acme/memory/deploy.md":       qwenTopic,
		"projects/-home-al-acme/memory/pinned/arch.md":  "---\nname: arch\ndescription: the architecture\ntype: project\n---\n\nHexagonal.\n",
		"projects/-home-al-acme/meta.json":              `{"lastExtract": "2026-11-20T10:00:00Z"}`,
		"projects/-home-al-acme/extract-cursor.json":    `{"offset": 12}`,
		"projects/-home-al-acme/consolidation.lock":     "",
		"memories/MEMORY.md":                            qwenUser,
		"memories/user.md":                              qwenPrefs,
		"projects/-home-al-webshop/meta.json":           `{}`,
		"projects/-home-al-webshop/extract-cursor.json": `{"offset": 0}`,
	})
	testfs.Mkdir(t, filepath.Join(home, "projects", "-home-al-webshop", "memory"))
	return home
}

// storesOf runs RootStores and returns each store as "slug agent rel".
func storesOf(t *testing.T, r MemoryRoot) ([]string, []string) {
	t.Helper()
	ps, notes, err := RootStores(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		if len(p.Dirs) != 1 || p.Dirs[0].Kind != model.DirRoot || !p.Dirs[0].Exists {
			t.Errorf("%s: dirs %+v, want one existing memory-root dir", p.Slug, p.Dirs)
			continue
		}
		rel, _ := filepath.Rel(r.Dir, p.Dirs[0].Path)
		out = append(out, p.Slug+" "+p.Agent+" "+filepath.ToSlash(rel))
	}
	return out, notes
}

// TestRootStoresQwenHome: pointed at a Qwen Code home, every store is
// found and named: each project's by its folder, the cross-project one
// as memories; an empty memory/ of a project is a store too; QWEN.md,
// settings and Qwen's state files beside memory/ are none; a store's
// subfolder (pinned/) is its own, not another store.
func TestRootStoresQwenHome(t *testing.T) {
	home := qwenHome(t)
	got, notes := storesOf(t, MemoryRoot{Agent: "qwen", Dir: home})
	want := []string{"qwen:memories qwen memories", "qwen:-home-al-acme qwen projects/-home-al-acme/memory", "qwen:-home-al-webshop qwen projects/-home-al-webshop/memory"}
	if !slices.Equal(got, want) {
		t.Errorf("stores:\n got %q\nwant %q", got, want)
	}
	if len(notes) != 0 {
		t.Errorf("notes: %q", notes)
	}
	// The home without its stores is no store itself, though it holds
	// QWEN.md: it is not named as one.
	os.RemoveAll(filepath.Join(home, "projects"))
	os.RemoveAll(filepath.Join(home, "memories"))
	if got, _ := storesOf(t, MemoryRoot{Agent: "qwen", Dir: home}); len(got) != 0 {
		t.Errorf("a home with no store: %q", got)
	}
}

// TestRootStoresOneDir: a root that is a store is the one store, named by
// its last two path elements, even when a subfolder holds a MEMORY.md of
// its own; a folder named as a store with memories but no index yet is
// one too, and a folder of notes that is neither is none.
func TestRootStoresOneDir(t *testing.T) {
	oh := filepath.Join(t.TempDir(), ".openhands", "memory")
	testfs.WriteAll(t, oh, map[string]string{"MEMORY.md": ohIndex, "2026-11-20.md": ohDailyLog, "sub/MEMORY.md": "- nested\n"})
	if got, _ := storesOf(t, MemoryRoot{Agent: "openhands", Dir: oh}); !slices.Equal(got, []string{"openhands:.openhands/memory openhands ."}) {
		t.Errorf("a store as root: %q", got)
	}
	os.Remove(filepath.Join(oh, "MEMORY.md"))
	os.RemoveAll(filepath.Join(oh, "sub"))
	if got, _ := storesOf(t, MemoryRoot{Agent: "openhands", Dir: oh}); !slices.Equal(got, []string{"openhands:.openhands/memory openhands ."}) {
		t.Errorf("a store without its index yet: %q", got)
	}
	notes := testfs.Mkdir(t, filepath.Join(t.TempDir(), "notes"))
	testfs.Write(t, filepath.Join(notes, "todo.md"), "- buy milk\n")
	if got, _ := storesOf(t, MemoryRoot{Agent: "other", Dir: notes}); len(got) != 0 {
		t.Errorf("a folder of notes: %q", got)
	}
}

// TestRootStoresWorkspace: pointed at a repository without a label, the
// stores its agents keep in it are found and each labelled by its own
// dot folder (Qwen Code's team memory, OpenHands' project memory); a
// docs/memory folder, and what sits under .git, node_modules, .claude or
// .codex, is no store.
func TestRootStoresWorkspace(t *testing.T) {
	repo := t.TempDir()
	testfs.WriteAll(t, repo, map[string]string{
		".qwen/team-memory/MEMORY.md":                   qwenIndex,
		".qwen/team-memory/deploy.md":                   qwenTopic,
		".openhands/memory/2026-11-20.md":               ohDailyLog,
		"docs/memory/design.md":                         "# Design\n",
		".git/modules/x/MEMORY.md":                      "- not memory\n",
		"node_modules/pkg/MEMORY.md":                    "- not memory\n",
		".claude/agent-memory/reviewer/MEMORY.md":       "- Claude Code's own\n",
		".codex/memories/MEMORY.md":                     "# Task Group: x\n",
		"tools/agent/memories/MEMORY.md":                "- deeper, named by no dot folder\n",
		"a/b/c/d/MEMORY.md":                             "- four levels down\n",
		"deep/1/2/3/4/MEMORY.md":                        "- five levels down: past the bound\n",
		".openhands/conversations/abc/events/0.json":    "{}",
		".qwen/projects/-home-al-acme/memory/deploy.md": qwenTopic,
	})
	got, _ := storesOf(t, MemoryRoot{Dir: repo})
	want := []string{
		"openhands:.openhands/memory openhands .openhands/memory",
		"qwen:-home-al-acme qwen .qwen/projects/-home-al-acme/memory",
		"qwen:.qwen/team-memory qwen .qwen/team-memory",
		"other:a/b/c/d other a/b/c/d",
		"other:tools/agent/memories other tools/agent/memories",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("stores:\n got %q\nwant %q", got, want)
	}
	// A label given labels every store.
	got, _ = storesOf(t, MemoryRoot{Agent: "mine", Dir: repo})
	for _, g := range got {
		if !strings.HasPrefix(g, "mine:") {
			t.Errorf("with label mine: %q", g)
		}
	}
}

// TestRootStoresLinks: a link in the root to a folder outside (holding a
// store) is not followed, nor one in a store's place, nor a loop; each
// link to a folder is named in the notes, and only ten of them one by
// one. A file linked in a store from outside is not read when the store
// is loaded: it is a link not followed.
func TestRootStoresLinks(t *testing.T) {
	outside := t.TempDir()
	testfs.WriteAll(t, outside, map[string]string{"proj/memory/MEMORY.md": qwenIndex, "proj/memory/deploy.md": qwenTopic, "secret.md": qwenTopic})
	home := qwenHome(t)
	testfs.Symlink(t, filepath.Join(outside, "proj"), filepath.Join(home, "projects", "-elsewhere"))
	testfs.Symlink(t, filepath.Join(outside, "proj", "memory"), filepath.Join(home, "projects", "-home-al-linked", "memory"))
	testfs.Symlink(t, filepath.Join(home, "projects"), filepath.Join(home, "projects", "-home-al-acme", "memory", "loop"))
	testfs.Symlink(t, filepath.Join(outside, "secret.md"), filepath.Join(home, "memories", "linked.md"))
	got, notes := storesOf(t, MemoryRoot{Agent: "qwen", Dir: home})
	for _, g := range got {
		if strings.Contains(g, "elsewhere") || strings.Contains(g, "linked") {
			t.Errorf("a link was followed: %q", g)
		}
	}
	if len(got) != 3 {
		t.Errorf("stores: %q", got)
	}
	joined := strings.Join(notes, "\n")
	for _, w := range []string{"-elsewhere: a link to a folder, not followed", "-home-al-linked/memory: a link to a folder, not followed"} {
		if !strings.Contains(joined, w) {
			t.Errorf("notes do not say %q:\n%s", w, joined)
		}
	}
	// The loop sits in a store, which is not entered: no note of it.
	if strings.Contains(joined, "loop") {
		t.Errorf("a store was entered: %s", joined)
	}

	// Loaded, the store does not read the linked file: a link not
	// followed, its text nowhere.
	d := &model.MemoryDir{Path: filepath.Join(home, "memories"), Kind: model.DirRoot, Exists: true}
	if err := LoadDir(context.Background(), d, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Files {
		if f.Path == "linked.md" {
			t.Errorf("linked.md was read through its link: %q", f.Content)
		}
	}
	if !slices.ContainsFunc(d.Problems, func(p model.Problem) bool {
		return p.Path == "linked.md" && p.Kind == model.ProblemLinkSkipped && strings.Contains(p.Detail, "--memory-root")
	}) {
		t.Errorf("linked.md is no link not followed: %+v", d.Problems)
	}

	// Past ten links to folders, the rest are counted.
	many := t.TempDir()
	for i := range 13 {
		testfs.Symlink(t, outside, filepath.Join(many, fmt.Sprintf("l%02d", i)))
	}
	_, notes = storesOf(t, MemoryRoot{Agent: "qwen", Dir: many})
	if len(notes) != maxRootNotes+1 || !strings.Contains(notes[maxRootNotes], "3 more links to folders not followed") {
		t.Errorf("notes of 13 links: %q", notes)
	}
}

// TestRootStoresBounds: past the number of stores memtui lists, the rest
// are left out with a note, and the walk goes no deeper than its bound.
func TestRootStoresBounds(t *testing.T) {
	root := t.TempDir()
	for i := range maxRootStores + 5 {
		// Qwen Code's empty per-project memory/ is a store: no file needed.
		if err := os.MkdirAll(filepath.Join(root, "projects", fmt.Sprintf("p%04d", i), "memory"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, notes := storesOf(t, MemoryRoot{Agent: "qwen", Dir: root})
	if len(got) != maxRootStores {
		t.Errorf("%d stores listed, want %d", len(got), maxRootStores)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], fmt.Sprintf("more than %d memory folders", maxRootStores)) {
		t.Errorf("notes: %q", notes)
	}
}

// TestPathLabel: the label a path names is its nearest agent's dot
// folder, not a folder many programs share; a label is one lower-case
// word.
func TestPathLabel(t *testing.T) {
	for p, want := range map[string]string{
		"/home/al/.qwen":                       "qwen",
		"/home/al/.qwen/projects/-x/memory":    "qwen",
		"/home/al/code/app/.openhands/memory":  "openhands",
		"/home/al/.config/opencode/memory":     "",
		"/home/al/.local/share/agent/memories": "",
		"/srv/agent-mem":                       "",
		"/home/al/.Hermes/memories":            "hermes",
		"/home/al/.my agent/memory":            "",
	} {
		if got := PathLabel(p); got != want {
			t.Errorf("PathLabel(%q) = %q, want %q", p, got, want)
		}
	}
	for s, want := range map[string]bool{"qwen": true, "open-hands_2": true, "": false, "Qwen": false, "2qwen": false, "a b": false, "x\x1b]0;t\a": false, strings.Repeat("a", MaxLabel): true, strings.Repeat("a", MaxLabel+1): false} {
		if got := ValidLabel(s); got != want {
			t.Errorf("ValidLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

// BenchmarkRootStores is the search of a Qwen Code home at DESIGN §7's
// scale: 500 projects, each with the state files Qwen Code keeps beside
// memory/, 400 of them with a store of an index and 5 memories, and the
// cross-project store.
func BenchmarkRootStores(b *testing.B) {
	home := filepath.Join(b.TempDir(), ".qwen")
	for p := range 500 {
		dir := filepath.Join(home, "projects", fmt.Sprintf("-home-al-src-project-%03d", p))
		files := map[string]string{"meta.json": "{}", "extract-cursor.json": `{"offset": 0}`, "consolidation.lock": ""}
		if p%5 != 0 {
			files["memory/MEMORY.md"] = qwenIndex
			for m := range 5 {
				files[fmt.Sprintf("memory/topic-%d.md", m)] = qwenTopic
			}
		}
		for rel, body := range files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	testfs.WriteAll(b, filepath.Join(home, "memories"), map[string]string{"MEMORY.md": qwenUser, "user.md": qwenPrefs})
	b.ResetTimer()
	for b.Loop() {
		ps, _, err := RootStores(b.Context(), MemoryRoot{Agent: "qwen", Dir: home})
		if err != nil || len(ps) != 401 {
			b.Fatalf("%d stores, %v", len(ps), err)
		}
	}
}
