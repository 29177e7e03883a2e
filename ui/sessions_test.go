package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/demo"
)

// TestSessionsView: t lists the sessions that touched memory; on the
// demo, ml-pipeline's two racing sessions are marked, and the one whose
// entry was lost shows, beside it, who it raced, what it lost and what it
// wrote as a diff. From it, F shows the lost update, c its changes, m the
// memory it wrote; / filters.
func TestSessionsView(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.keys("t")
	if d.m.view != viewSessions {
		t.Fatal("t must open the sessions view")
	}
	out := d.screen()
	for _, want := range []string{"Sessions (15)", "! f8b0d2e4 Clarify the GPU budget entry", "! e7a9c1d3 Write up the eval metrics",
		"2 open on a directory at the same time as another"} {
		if !strings.Contains(out, want) {
			t.Errorf("the list lacks %q:\n%s", want, out)
		}
	}
	v := d.m.sessions
	for v.selected() == nil || !strings.HasPrefix(v.selected().act.Session, "e7a9c1d3") {
		d.keys("j")
	}
	out = d.screen()
	for _, want := range []string{"e7a9c1d3 “Write up the eval metrics” on feat/eval", "2026-11-11 09:00–09:01 UTC",
		"Open on this directory at the same time as f8b0d2e4", "Lost 1 line it wrote in MEMORY.md to f8b0d2e4's write",
		"project_eval_metrics.md  new file · +13", "+nDCG@10 on the frozen judgement set is the headline metric"} {
		if !strings.Contains(out, want) {
			t.Errorf("the session's pane lacks %q:\n%s", want, out)
		}
	}
	// Its edit of MEMORY.md, as the transcript recorded it: the entry
	// added after the harness's.
	d.keys("tab", "n")
	if out := d.screen(); !strings.Contains(out, "+- [Eval metrics](project_eval_metrics.md): nDCG@10 is the headline metric") {
		t.Errorf("the session's Edit of MEMORY.md must show as a diff:\n%s", out)
	}
	d.keys("esc", "!")
	if f := d.m.findings.selected(); d.m.view != viewFindings || len(d.m.findings.shown) != 1 || f == nil || f.Rule != "lost-update" {
		t.Fatalf("! must show the lost update it was in:\n%s", d.screen())
	}
	d.keys("t", "c")
	// (This tree has no review before the race, as the demo has: the
	// changes view opens on the session's filter, and the tmux test sees
	// what it lists.)
	if d.m.view != viewChanges || d.m.changes.filter != "e7a9c1d3" || !strings.Contains(d.screen(), "matching “e7a9c1d3”") {
		t.Fatalf("c must show its changes:\n%s", d.screen())
	}
	d.keys("t", "m")
	if d.m.view != viewBrowse || !strings.Contains(d.screen(), "eval-metrics") {
		t.Fatalf("m must show the memory it wrote:\n%s", d.screen())
	}
	d.keys("t", "/")
	d.typeText("race")
	d.keys("enter")
	if out := d.screen(); !strings.Contains(out, "No session matches “race”") {
		t.Errorf("a filter that matches nothing says so:\n%s", out)
	}
	d.keys("esc", "/")
	d.typeText("feat/eval")
	d.keys("enter")
	if out := d.screen(); !strings.Contains(out, "1 of 15 sessions matching “feat/eval”") || !strings.Contains(out, "e7a9c1d3") || strings.Contains(out, "f8b0d2e4 Clarify") {
		t.Errorf("the filter must keep the session on feat/eval alone:\n%s", out)
	}
}

// At 80x24 the list sits above the diff and shows as many sessions as its
// share of the rows holds, not the one row it had before they were
// worked out.
func TestSessionsViewNarrow(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 80, 24)
	d.keys("t")
	out := d.screen()
	if !strings.Contains(out, "7b2c3d4e") || !strings.Contains(out, "6a1b2c3d") || !strings.Contains(out, "Diff · unified") {
		t.Errorf("the narrow list must show several sessions above the diff:\n%s", out)
	}
	for _, ln := range strings.Split(out, "\n") {
		if w := len([]rune(ln)); w > 80 {
			t.Errorf("a row wider than 80 columns: %q", ln)
		}
	}
}

// R in a session's diff reverts the file under it to its text before the
// session's write: asked first, journalled, undoable. The memory
// e7a9c1d3 created goes; undo brings it back byte for byte.
func TestSessionsRevertAWrite(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(dir, "projects", "-home-dev-ml-pipeline", "memory", "project_eval_metrics.md")
	orig := readFile(t, path)
	d := newDriver(t, cfg, 160, 48)
	d.keys("t")
	v := d.m.sessions
	for v.selected() == nil || !strings.HasPrefix(v.selected().act.Session, "e7a9c1d3") {
		d.keys("j")
	}
	d.keys("tab", "R")
	out := d.screen()
	if d.m.dialog == nil || !strings.Contains(out, "Revert project_eval_metrics.md to before session e7a9c1d3 created it?") {
		t.Fatalf("R must ask first, naming the file and the write:\n%s", out)
	}
	d.keys("y")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the file the session created must be gone: %v\n%s", err, d.screen())
	}
	undoLast(t, cfg) // what memtui undo --last does
	if got := readFile(t, path); got != orig {
		t.Errorf("undo must bring the file back byte for byte")
	}

	// Its Edit of MEMORY.md, the second change (n scrolls to it, hunk by
	// hunk): the index
	// goes back to what the session read, the text both racing sessions
	// started from, f8b0d2e4's later rewrite with it (the diff shows it).
	d.run(d.m.reloadPath(filepath.Dir(path)))
	d.keys("t")
	for v.selected() == nil || !strings.HasPrefix(v.selected().act.Session, "e7a9c1d3") {
		d.keys("j")
	}
	d.keys("tab", "n", "n", "R") // its first hunk, then the second change's
	if out := d.screen(); d.m.dialog == nil || !strings.Contains(out, "Revert MEMORY.md to its text before session e7a9c1d3's Edit?") {
		t.Fatalf("R on the second change must revert MEMORY.md:\n%s", out)
	}
	d.keys("y")
	rs, err := demo.Reviewed()
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(filepath.Dir(path), "MEMORY.md")); got != rs[0].Texts["MEMORY.md"] {
		t.Errorf("MEMORY.md must read as before the race:\n%s", got)
	}
}

// enter on a memory-deleted finding opens the proposals view on its
// restore: there is nothing on disk to show.
func TestDeletedFindingLeadsToItsRestore(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.keys("f", "/")
	d.typeText("memory-deleted")
	d.keys("enter", "enter")
	// The first is the memory kefu-platform's Dream run deleted, whose
	// text only memtui's snapshot kept.
	if d.m.view != viewProposals || !strings.Contains(d.screen(), "Restore reference_escalation.md") ||
		!strings.Contains(d.screen(), "memtui's snapshot of 2026-11-15 20:00 UTC holds its") || !strings.Contains(d.screen(), "1 of ") {
		t.Fatalf("the finding must open its restore proposal:\n%s", d.screen())
	}
}

// A reload replaces a directory's data: the sessions worked out for the
// version it replaced are dropped, not kept beside the new ones.
func TestSessionsKeepOnlyCurrentVersions(t *testing.T) {
	cfg, dir := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.keys("t")
	before := len(d.m.sessions.byDir)
	mem := filepath.Join(dir, "projects", "-home-dev-ml-pipeline", "memory")
	if err := os.WriteFile(filepath.Join(mem, "feedback_uv.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.run(d.m.reloadPath(mem))
	if got := len(d.m.sessions.byDir); got != before || before == 0 {
		t.Errorf("after a reload the view holds %d directory versions, want the %d loaded", got, before)
	}
}

// U undoes all a session did in the directory as one proposal: e7a9c1d3
// created project_eval_metrics.md and edited MEMORY.md; both go back, in
// one journal entry, and undo brings both back byte for byte.
func TestSessionsUndoAllOfASession(t *testing.T) {
	cfg, dir := reviewConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-ml-pipeline", "memory")
	path, ix := filepath.Join(mem, "project_eval_metrics.md"), filepath.Join(mem, "MEMORY.md")
	orig, origIx := readFile(t, path), readFile(t, ix)
	d := newDriver(t, cfg, 160, 48)
	d.keys("t")
	v := d.m.sessions
	for v.selected() == nil || !strings.HasPrefix(v.selected().act.Session, "e7a9c1d3") {
		d.keys("j")
	}
	d.keys("U")
	out := d.screen()
	if d.m.dialog == nil || !strings.Contains(out, "Undo e7a9c1d3 in 2 files?") {
		t.Fatalf("U must ask first, naming the session and how many files:\n%s", out)
	}
	d.keys("y")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the file the session created must be gone: %v\n%s", err, d.screen())
	}
	if readFile(t, ix) == origIx {
		t.Fatalf("MEMORY.md must go back to before the session's Edit")
	}
	undoLast(t, cfg)
	if readFile(t, path) != orig || readFile(t, ix) != origIx {
		t.Errorf("one undo must bring both back byte for byte")
	}
}
