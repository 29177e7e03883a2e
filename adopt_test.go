//go:build unix

package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
)

// TestAdoptEndToEnd: in a real git repository with a worktree and a
// subdirectory session (strandTree), dream proposes one adopt per
// stranded store; applied, the main checkout's store holds every memory
// of all three with its index entry, the stranded stores hold none, and
// lint no longer reports them; undoing each adopt puts all three stores
// back byte for byte.
func TestAdoptEndToEnd(t *testing.T) {
	cfg, main, wt, sub := strandTree(t)
	mainMem := filepath.Join(cfg, "projects", sanitize(main), "memory")
	wtMem := filepath.Join(cfg, "projects", sanitize(wt), "memory")
	subMem := filepath.Join(cfg, "projects", sanitize(sub), "memory")
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	before := map[string]map[string]string{}
	for _, d := range []string{mainMem, wtMem, subMem} {
		before[d] = treeState(t, d)
	}

	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--kind", "adopt", "--json")
	if code == exitUsage {
		t.Fatalf("dream --json: exit %d %s", code, stderr)
	}
	var got struct {
		Proposals []struct {
			ID        string `json:"id"`
			Kind      string `json:"kind"`
			Rationale string `json:"rationale"`
			Also      *struct {
				MemoryDir string `json:"memory_dir"`
			} `json:"also"`
		} `json:"proposals"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(got.Proposals) != 2 {
		t.Fatalf("want an adopt per stranded store: %s", stdout)
	}
	for _, p := range got.Proposals {
		if p.Kind != "adopt" || p.Also == nil || p.Also.MemoryDir != wtMem && p.Also.MemoryDir != subMem || !strings.Contains(p.Rationale, "Nothing Claude Code runs loads") {
			t.Errorf("proposal %+v", p)
		}
	}
	if _, stdout, _ = runCLI(t, e, "--config-dir", cfg, "dream", "--kind", "adopt"); !strings.Contains(stdout, "in the same transaction:") || !strings.Contains(stdout, "deploy.md") {
		t.Errorf("the text report must show the stranded store's changes:\n%s", stdout)
	}

	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "dream", "--kind", "adopt", "--apply", "--yes")
	if code != exitOK || !strings.Contains(stdout, "2 applied") {
		t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
	}
	ix, err := os.ReadFile(filepath.Join(mainMem, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"build", "deploy", "css"} {
		b, err := os.ReadFile(filepath.Join(mainMem, name+".md"))
		if err != nil || !strings.Contains(string(b), "Run `make "+name+"` before pushing.") {
			t.Errorf("%s.md not home: %v %q", name, err, b)
		}
		if !strings.Contains(string(ix), "("+name+".md) — how "+name+" works here") {
			t.Errorf("no index entry for %s.md:\n%s", name, ix)
		}
	}
	for _, d := range []string{wtMem, subMem} {
		if st := treeState(t, d); len(st) != 0 {
			t.Errorf("%s still holds %v", d, st)
		}
	}
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint", "--json")
	for _, f := range decodeLint(t, stdout).Findings {
		if f.Rule == consolidate.RuleStoreStranded || f.Rule == consolidate.RuleStoreHasStranded {
			t.Errorf("after the adopt lint still reports %+v", f)
		}
	}

	// The second adopt, rebuilt over the first's write of the main
	// MEMORY.md, is the last entry; the first is undone by its ID. Each
	// undo puts back both its stores at once.
	for _, ref := range []string{"--last", got.Proposals[0].ID} {
		code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "undo", ref)
		if code != exitOK {
			t.Fatalf("undo %s: exit %d\n%s%s", ref, code, stdout, stderr)
		}
	}
	for d, want := range before {
		if got := treeState(t, d); !maps.Equal(got, want) {
			t.Errorf("%s after the undos:\n%v\nwant\n%v", d, got, want)
		}
	}
}
