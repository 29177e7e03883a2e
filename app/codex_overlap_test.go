package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model/codex"
)

// TestCheckComparesCodexWithClaude: lint's run (Check, with DropContent)
// compares the Codex store with the Claude Code memory it checked: a note
// repeating a Claude memory, and an imported copy that drifted from its
// source, are findings on the Codex store naming the Claude file; the
// Claude dirs' contents are still freed; with --agent claude there is
// nothing to compare.
func TestCheckComparesCodexWithClaude(t *testing.T) {
	home := t.TempDir()
	fact := "Deploy the payments API only on Tuesdays, after the migration job has finished and the on-call engineer has signed off in the release channel.\n"
	mem := filepath.Join(home, ".claude", "projects", "-work-api", "memory")
	testfs.WriteAll(t, mem, map[string]string{
		"MEMORY.md":  "- [Deploys](deploys.md) — when the API ships\n",
		"deploys.md": "---\nname: deploys\ndescription: When the payments API ships\ntype: project\n---\n\n" + fact,
	})
	cx := codexHome(t, filepath.Join(home, ".codex"))
	imp := filepath.Join(cx, "memories", "extensions", "external_agent_import", "resources", "-work-api")
	testfs.WriteAll(t, filepath.Join(cx, "memories"), map[string]string{
		"extensions/ad_hoc/notes/2026-11-02T12-00-00-deploys.md": fact,
	})
	testfs.WriteAll(t, imp, map[string]string{"scope.json": `{"cwd":"/work/api"}`, "MEMORY.md": "- [Deploys](deploys.md) — an older hook\n"})
	ws, err := openAgents(t, Options{}, map[string]string{"HOME": home})
	if err != nil {
		t.Fatal(err)
	}
	opts := ws.CheckOpts
	opts.DropContent = true
	var overlap, drift []string
	for _, f := range ws.Check(context.Background(), opts) {
		switch f.Rule {
		case consolidate.RuleCodexClaudeOverlap:
			overlap = append(overlap, f.File+": "+f.Message)
		case consolidate.RuleCodexImportDrift:
			drift = append(drift, f.File+": "+f.Message)
		}
	}
	want := filepath.ToSlash(filepath.Join(mem, "deploys.md"))
	if len(overlap) != 1 || !strings.HasPrefix(overlap[0], codex.NotesDir) || !strings.Contains(overlap[0], want) {
		t.Errorf("overlap %q, want the note naming %s", overlap, want)
	}
	if len(drift) != 1 || !strings.Contains(drift[0], "-work-api/MEMORY.md") {
		t.Errorf("drift %q", drift)
	}
	for _, p := range ws.Scan.Projects {
		for _, d := range p.Dirs {
			for _, f := range d.Files {
				if f.Content != nil {
					t.Errorf("%s/%s: DropContent must still free the Claude dirs' contents", d.Path, f.Path)
				}
			}
		}
	}
	// Nothing to compare with: no Codex store read.
	ws, err = openAgents(t, Options{Agent: AgentClaude}, map[string]string{"HOME": home})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ws.Check(context.Background(), opts) {
		if strings.HasPrefix(f.Rule, "codex-") {
			t.Errorf("--agent claude: %+v", f)
		}
	}
}
