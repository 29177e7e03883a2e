package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/demo"
)

// TestDemoStoriesAreOneProposalAway: on the demo, the memory
// kefu-platform's Dream run deleted comes back, as memtui's snapshot kept
// it, and the worktree's stranded store comes home, each by accepting one
// proposal and writing it. The adopt is taken whole (space on its diff
// accepts the proposal, it is not partly kept), and one undo in the
// journal puts both of its stores back.
func TestDemoStoriesAreOneProposalAway(t *testing.T) {
	cfg, dir := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()

	kefu := filepath.Join(dir, "projects", "-home-dev-kefu-platform", "memory")
	d.selectProposal("Restore reference_escalation.md")
	d.keys("a", "w", "y", "esc")
	ss, err := demo.Snapshots()
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(kefu, "reference_escalation.md")); got != ss[0].Texts["reference_escalation.md"] {
		t.Fatalf("the Dream's deleted memory is not back as the snapshot kept it:\n%s\n%s", got, d.screen())
	}

	live := filepath.Join(dir, "projects", "-home-dev-ml-pipeline", "memory")
	stranded := filepath.Join(dir, "projects", "-home-dev-mlp-eval-harness", "memory")
	liveIx, harness := readFile(t, filepath.Join(live, "MEMORY.md")), readFile(t, filepath.Join(live, "project_eval_harness.md"))
	it := d.selectProposal("Adopt 2 memories stranded in the store of /home/dev/mlp-eval-harness")
	if it.p.Also == nil || it.p.Also.MemoryDir != stranded {
		t.Fatalf("the adopt does not change the stranded store: %+v", it.p.Also)
	}
	d.keys("tab", "space")
	if dec := d.m.proposals.decisionOf(it); dec.state() != stAccepted {
		t.Fatalf("space on an adopt's diff must accept it whole, not in part: %v\n%s", dec.state(), d.screen())
	}
	d.keys("esc", "w", "y")
	if got := readFile(t, filepath.Join(live, "reference_eval_datasets.md")); !strings.Contains(got, "s3://ml-eval/holdout") {
		t.Fatalf("the stranded memory is not home:\n%s", d.screen())
	}
	if got := readFile(t, filepath.Join(live, "project_eval_harness.md")); !strings.Contains(got, "run_offline_eval") || !strings.Contains(got, "TBD.") {
		t.Errorf("the memory of the same name is not merged:\n%s", got)
	}
	for _, f := range []string{"MEMORY.md", "project_eval_harness.md", "reference_eval_datasets.md"} {
		if _, err := os.Stat(filepath.Join(stranded, f)); !os.IsNotExist(err) {
			t.Errorf("%s left in the stranded store: %v", f, err)
		}
	}

	d.keys("esc", "L")
	for d.m.journal.selected() == nil || d.m.journal.selected().ProposalID != it.p.ID {
		d.keys("j")
	}
	d.keys("u", "y")
	if readFile(t, filepath.Join(live, "MEMORY.md")) != liveIx || readFile(t, filepath.Join(live, "project_eval_harness.md")) != harness {
		t.Errorf("the undo must put the live store back")
	}
	if _, err := os.Stat(filepath.Join(stranded, "reference_eval_datasets.md")); err != nil {
		t.Errorf("the undo must put the stranded store back: %v", err)
	}
}

// TestCodexFindingsListed: the demo's Codex store is checked beside
// Claude Code's projects: its findings are in the findings view and its
// count, and enter on the summary's opens it as a Codex session loads it.
func TestCodexFindingsListed(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.keys("f", "/")
	d.typeText("codex-summary-near-cap")
	d.keys("enter")
	if out := d.screen(); !strings.Contains(out, "1 of ") || !strings.Contains(out, "memory_summary.md uses 9440 of 10000 bytes (94%)") {
		t.Fatalf("the Codex summary's finding is not listed:\n%s", out)
	}
	d.keys("enter")
	out := d.screen()
	if d.m.view != viewIndex || !strings.Contains(out, "memory_summary.md  ▲ near the cap") || !strings.Contains(out, "9440 / 10000") || !strings.Contains(out, "2360 / 2500") {
		t.Errorf("enter on a Codex summary finding must open the summary as loaded, with its meters:\n%s", out)
	}
}
