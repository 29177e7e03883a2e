package ui

import (
	"strings"
	"testing"
)

// The demo's worktree store (mlp-eval-harness) is not what its sessions
// load: Claude Code keys a worktree by its main checkout. Its index's
// preview says so, naming the dir they use; the main checkout's store,
// which they do load, says nothing of the kind.
func TestPreviewSaysWhichDirClaudeUses(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 140, 40)
	d.selectProject("mlp-eval-harness")
	out := strings.Join(strings.Fields(d.screen()), " ")
	if !strings.Contains(out, "▲ not loaded: this project's sessions use") || !strings.Contains(out, "home-dev-ml-pipeline/memory") {
		t.Errorf("the worktree store's index does not say its sessions load another dir:\n%s", d.screen())
	}
	d.keys("g")
	d.selectProject("/ml-pipeline")
	if out := d.screen(); strings.Contains(out, "not loaded: this project's sessions use") {
		t.Errorf("the store its sessions load is flagged as not loaded:\n%s", out)
	}
	d.selectProject("scratch")
	if s := projectSummary(d.m.c, d.m.selectedProject()); strings.Contains(s, "Claude Code uses") || strings.Contains(s, "Auto memory is off") {
		t.Errorf("a project whose store is loaded as it should be gets a warning:\n%s", s)
	}
}

// With auto memory off in the environment, every store's index says
// Claude Code neither loads nor writes it, and a project's summary says
// what turned it off.
func TestPreviewSaysAutoMemoryIsOff(t *testing.T) {
	cfg, _ := demoConfig(t)
	base := cfg.Workspace.ScanOpts.Getenv
	cfg.Workspace.ScanOpts.Getenv = func(k string) string {
		if k == "CLAUDE_CODE_DISABLE_AUTO_MEMORY" {
			return "1"
		}
		return base(k)
	}
	d := newDriver(t, cfg, 140, 40)
	d.selectProject("acme-api")
	out := strings.Join(strings.Fields(d.screen()), " ")
	if !strings.Contains(out, "▲ auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)") {
		t.Errorf("the index does not say auto memory is off:\n%s", d.screen())
	}
	d.selectProject("scratch")
	if s := projectSummary(d.m.c, d.m.selectedProject()); !strings.Contains(s, "Auto memory is off: CLAUDE_CODE_DISABLE_AUTO_MEMORY=1.") {
		t.Errorf("the project summary does not say auto memory is off:\n%s", s)
	}
}
