package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// dotfilesMemory is the demo's memory dir with topic files and no
// MEMORY.md.
func dotfilesMemory(dir string) string {
	return filepath.Join(dir, "projects", "-home-dev-dotfiles", "memory")
}

// listDir is the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// undoLast undoes the newest journal entry as `memtui undo --last` does:
// a run of its own that discovers the tree, then (runUndo) the
// workspace's LastEntry and its Undo.
func undoLast(t *testing.T, cfg Config) {
	t.Helper()
	ctx := context.Background()
	ws := &app.Workspace{ScanOpts: cfg.Workspace.ScanOpts, CheckOpts: cfg.Workspace.CheckOpts, State: cfg.Workspace.State}
	scan, err := ws.Discover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ws.Scan = scan
	e, err := ws.LastEntry()
	if err != nil {
		t.Fatalf("no journal entry to undo: %v", err)
	}
	r, err := ws.Undo(ctx, *e, txn.ApplyOptions{})
	if err != nil || r.Status != txn.StatusApplied {
		t.Fatalf("undo: %v %v %v", err, r.Status, r.Err)
	}
}

// openNewIndex opens the editor on the dotfiles project, which has no
// MEMORY.md.
func openNewIndex(t *testing.T, cfg Config, w, h int) *driver {
	t.Helper()
	d := newDriver(t, cfg, w, h)
	d.selectProject("dotfiles")
	d.keys("i")
	if s := d.screen(); !strings.Contains(s, "no MEMORY.md") || !strings.Contains(s, "E starts one: a line for each of its 4 memories") {
		t.Fatalf("the index view must offer to start MEMORY.md:\n%s", s)
	}
	d.keys("E")
	if d.m.view != viewIndexEdit {
		t.Fatalf("E must open the editor on a starting index:\n%s", d.screen())
	}
	return d
}

// A directory with memories and no MEMORY.md: E offers the index Dream's
// reindex would create, as a pending diff against nothing; written, it is
// a create through the journal, and undoing it deletes the file again.
func TestIndexEditorStartsAMissingIndex(t *testing.T) {
	cfg, dir := reviewConfig(t)
	mem := dotfilesMemory(dir)
	before := listDir(t, mem)
	d := openNewIndex(t, cfg, 120, 40)
	v := d.m.ixedit
	pd := d.m.selectedProject()
	want, err := dream.NewIndex(pd.p, v.dd.d, dream.Options{Options: d.m.copts})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.ed.Bytes()); got != want.Changes[0].After || !strings.Contains(got, "## Feedback\n\n- [feedback-no-secrets](feedback_no_secrets.md) — ") {
		t.Fatalf("the starting index must be the reindex proposal's, got\n%s", got)
	}
	s := d.screen()
	if v.mode != ixeDiff || !strings.Contains(s, "--- /dev/null") || !strings.Contains(s, "+## User") || !strings.Contains(s, "new MEMORY.md, not written") {
		t.Fatalf("it must open on its diff against nothing:\n%s", s)
	}
	d.keys("esc")
	if s := d.screen(); !strings.Contains(s, "user-shell → user_shell.md · user") {
		t.Errorf("esc shows its rows to edit:\n%s", s)
	}
	// u empties it, U brings the starting index back.
	d.keys("u")
	if v.ed.Len() != 0 || v.modified() || !strings.Contains(d.screen(), "MEMORY.md is empty") {
		t.Fatalf("u must empty the new index:\n%s", d.screen())
	}
	d.keys("U")
	if string(v.ed.Bytes()) != want.Changes[0].After {
		t.Fatal("U must bring the starting index back")
	}
	d.keys("w")
	if s := d.screen(); !strings.Contains(s, "Create MEMORY.md?") || !strings.Contains(s, "create  MEMORY.md") || !strings.Contains(s, "undoing it (L) deletes it") {
		t.Fatalf("w must ask to create MEMORY.md:\n%s", s)
	}
	d.keys("y")
	path := filepath.Join(mem, "MEMORY.md")
	if got := readFile(t, path); got != want.Changes[0].After {
		t.Fatalf("MEMORY.md on disk must be the editor's bytes:\n%s", got)
	}
	if !strings.Contains(d.screen(), "✓ created") || d.m.view != viewIndex {
		t.Errorf("the result must say created, over the index view:\n%s", d.screen())
	}
	es, err := txn.List(cfg.Workspace.State.Journal)
	if err != nil || len(es) != 1 || len(es[0].Files) != 1 || es[0].Files[0].Op != string(model.OpCreate) {
		t.Fatalf("want one journal entry creating MEMORY.md, got %+v (%v)", es, err)
	}
	undoLast(t, cfg)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("undo must delete the created MEMORY.md: %v", err)
	}
	if got := listDir(t, mem); !slices.Equal(got, before) {
		t.Errorf("after undo the directory must hold what it held: %v, want %v", got, before)
	}
}

// The index-missing finding leads to the index view of its directory,
// which offers to start one; E opens it.
func TestIndexMissingFindingLeadsToANewIndex(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.keys("f", "/")
	d.typeText("index-missing")
	d.keys("enter")
	if n := len(d.m.findings.shown); n != 1 {
		t.Fatalf("want the one index-missing finding, got %d:\n%s", n, d.screen())
	}
	d.keys("enter")
	if s := d.screen(); d.m.view != viewIndex || !strings.Contains(s, "dotfiles") || !strings.Contains(s, "E starts one") {
		t.Fatalf("enter on index-missing must show that directory's index view and its offer:\n%s", s)
	}
	if s := d.screen(); !strings.Contains(s, "E start MEMORY.md") {
		t.Errorf("the help must say what E does here:\n%s", s)
	}
	d.keys("E")
	if d.m.view != viewIndexEdit || !d.m.ixedit.create || !d.m.ixedit.modified() {
		t.Fatalf("E must open the starting index:\n%s", d.screen())
	}
}

// Claude Code may write its own index while memtui's is pending: the
// create is a conflict, Claude Code's file stays, the editor keeps memtui's.
func TestIndexEditorStartConflict(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(dotfilesMemory(dir), "MEMORY.md")
	d := openNewIndex(t, cfg, 120, 40)
	backfill := "- [user_shell](user_shell.md)\n"
	if err := os.WriteFile(path, []byte(backfill), 0o644); err != nil {
		t.Fatal(err)
	}
	d.keys("esc", "w", "y")
	if got := readFile(t, path); got != backfill {
		t.Errorf("Claude Code's MEMORY.md must stay, got %q", got)
	}
	if s := d.screen(); !strings.Contains(s, "MEMORY.md appeared on disk") || !strings.Contains(s, "! conflict") {
		t.Errorf("the result must say it appeared meanwhile:\n%s", s)
	}
	d.keys("esc")
	if d.m.view != viewIndexEdit || !d.m.ixedit.modified() {
		t.Error("after a conflict memtui's index stays in the editor")
	}
}

// Emptied, a new index is built by hand: A adds its first entry.
func TestIndexEditorBuildsANewIndexByHand(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openNewIndex(t, cfg, 120, 40)
	v := d.m.ixedit
	d.keys("esc", "u", "A", "enter")
	if v.ed.Len() != 1 || v.ed.Rows()[0].Entry == nil || !v.modified() {
		t.Fatalf("A must add the first entry of an empty index: %s\n%s", v.note, d.screen())
	}
}

// --readonly: E on a directory without MEMORY.md says why it does nothing;
// B, z and Z say they are off; nothing is written or edited.
func TestIndexEditorTidyReadOnly(t *testing.T) {
	cfg, dir := reviewConfig(t)
	cfg.Workspace.ReadOnly = true
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("dotfiles")
	d.keys("i")
	if s := d.screen(); !strings.Contains(s, "--readonly") {
		t.Errorf("the offer must say this run cannot take it:\n%s", s)
	}
	d.keys("E")
	if s := d.screen(); d.m.view != viewIndex || !strings.Contains(s, "--readonly: no MEMORY.md here, and creating one writes; this run writes nothing") {
		t.Errorf("E must refuse with the reason:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(dotfilesMemory(dir), "MEMORY.md")); !os.IsNotExist(err) {
		t.Error("read-only created MEMORY.md")
	}
	d = openEditor(t, cfg, 120, 40)
	for _, k := range []struct{ key, says string }{{"B", "collapse blank lines"}, {"z", "fold the entry"}, {"Z", "fold every entry"}} {
		d.keys(k.key)
		if s := d.screen(); !strings.Contains(s, "--readonly: "+k.key+" ("+k.says) {
			t.Errorf("%s must say it is off under --readonly:\n%s", k.key, s)
		}
	}
	if d.m.ixedit.modified() {
		t.Error("read-only: nothing may edit")
	}
}

// B collapses each run of blank lines to one and drops those at the ends:
// the note says how many lines of the cap it freed, the pending diff
// shows; written and undone, the file comes back byte for byte.
func TestIndexEditorCollapsesBlankLines(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	orig := readFile(t, path)
	loose := "\n\n" + strings.Replace(strings.Replace(orig, "\n\n## How we work", "\n\n\n\n\n## How we work", 1), "\n\n- [Editor]", "\n\n\n\n- [Editor]", 1) + "\n\n\n"
	if err := os.WriteFile(path, []byte(loose), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openEditor(t, cfg, 120, 40)
	v := d.m.ixedit
	lines := v.ed.Budget().Lines
	d.keys("B")
	if got := string(v.ed.Bytes()); got != orig {
		t.Fatalf("B must leave the index as it was before the runs of blank lines:\n%s", got)
	}
	if freed := lines - v.ed.Budget().Lines; freed != 5 {
		t.Errorf("5 counted lines were blank lines of a run, %d freed", freed)
	}
	s := d.screen()
	if !strings.Contains(s, "10 blank lines removed: 5 lines freed of the 200-line cap") || v.mode != ixeDiff || !strings.Contains(s, "@@") {
		t.Fatalf("B must say what it freed and show the diff:\n%s", s)
	}
	d.keys("esc", "B")
	if !strings.Contains(d.screen(), "no blank lines to collapse") {
		t.Errorf("a second B has nothing to do:\n%s", d.screen())
	}
	d.keys("w", "y")
	if got := readFile(t, path); got != orig {
		t.Fatal("the collapsed index must be written")
	}
	undoLast(t, cfg)
	if got := readFile(t, path); got != loose {
		t.Error("undo must bring back the exact bytes")
	}
}

// selectRow puts the editor's cursor on the entry for target.
func (d *driver) selectRow(target string) {
	d.t.Helper()
	v := d.m.ixedit
	at := v.ed.FindRow(target)
	if at < 0 {
		d.t.Fatalf("no row for %s", target)
	}
	d.keys("g")
	for v.cur < at {
		d.keys("down")
	}
}

// z folds the lines hanging under the entry at the cursor onto its line,
// every word kept; one that would pass ~200 characters is left whole and
// says why. Z folds every one it can and shows the diff; written and
// undone, the file comes back byte for byte.
func TestIndexEditorFoldsHangingLines(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	orig := readFile(t, path)
	d := openEditor(t, cfg, 160, 48)
	v := d.m.ixedit
	d.selectRow("feedback_db_tests.md")
	if !strings.Contains(d.screen(), "DB tests → feedback_db_tests.md · feedback 2mo (+2)") {
		t.Fatalf("the entry must show its 2 hanging lines:\n%s", d.screen())
	}
	lines := v.ed.Budget().Lines
	d.keys("z")
	folded := "- [DB tests](feedback_db_tests.md) — dbtest.New(t) instead of mocking the store; `dbtest.New(t)` drops the schema in `t.Cleanup`; set `DBTEST_KEEP=1` to keep it for debugging"
	if r := v.ed.Rows()[v.cur]; r.Text != folded || r.Lines != 1 {
		t.Fatalf("z must fold the entry onto one line, got %q (%d lines)", r.Text, r.Lines)
	}
	if lines-v.ed.Budget().Lines != 2 || !strings.Contains(d.screen(), "folded: 2 lines freed; the line is 174 chars, over the ~150") {
		t.Errorf("z must say what it freed and that the line is long:\n%s", d.screen())
	}
	d.keys("z")
	if !strings.Contains(d.screen(), "on one line already") {
		t.Errorf("a folded entry has nothing left to fold:\n%s", d.screen())
	}
	d.selectRow("feedback_testing.md")
	d.keys("z")
	if r := v.ed.Rows()[v.cur]; r.Lines != 3 || !strings.Contains(d.screen(), "not folded: it would be 215 chars on one line, over ~200") {
		t.Errorf("an entry too long on one line must stay whole and say why:\n%s", d.screen())
	}
	d.keys("Z")
	multi := 0
	for _, r := range v.ed.Rows() {
		if r.Entry != nil && r.Lines > 1 {
			multi++
		}
	}
	if s := d.screen(); multi != 1 || v.mode != ixeDiff || !strings.Contains(s, "folded 8 entries") || !strings.Contains(s, "1 left whole") {
		t.Fatalf("Z must fold every entry but the long one and show the diff (%d multi-line left):\n%s", multi, s)
	}
	want := string(v.ed.Bytes())
	d.keys("esc", "w", "y")
	if got := readFile(t, path); got != want {
		t.Fatal("the folded index must be written")
	}
	undoLast(t, cfg)
	if got := readFile(t, path); got != orig {
		t.Error("undo must bring back the exact bytes")
	}
}

// A range folds the entries in it only.
func TestIndexEditorFoldsARange(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	v := d.m.ixedit
	d.selectRow("feedback_db_tests.md")
	d.keys("V")
	for v.ed.Rows()[v.cur].Target != "feedback_feature_flags.md" {
		d.keys("down")
	}
	d.keys("z")
	rows := v.ed.Rows()
	for _, tc := range []struct {
		target string
		lines  int
	}{{"feedback_db_tests.md", 1}, {"feedback_feature_flags.md", 1}, {"feedback_testing.md", 3}} {
		if r := rows[v.ed.FindRow(tc.target)]; r.Lines != tc.lines {
			t.Errorf("%s has %d lines, want %d", tc.target, r.Lines, tc.lines)
		}
	}
	if v.anchor >= 0 || !strings.Contains(d.screen(), "folded 2 entries, 4 lines freed") {
		t.Errorf("the fold must end the range and say what it did:\n%s", d.screen())
	}
}

// The new keys are in the editor's help, and every frame of a starting
// index fits the window.
func TestIndexEditorTidyHelpAndFit(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {50, 16}} {
		cfg, _ := reviewConfig(t)
		d := openNewIndex(t, cfg, size[0], size[1])
		for _, step := range []string{"", "esc", "?", "?", "Z", "esc", "B", "u", "u", "w", "n", "esc", "y"} {
			if step != "" {
				d.keys(step)
			}
			lines := strings.Split(d.m.View().Content, "\n")
			if len(lines) != size[1] {
				t.Errorf("%v after %q: %d lines", size, step, len(lines))
			}
			for i, ln := range lines {
				if w := ansi.StringWidth(ln); w > size[0] {
					t.Errorf("%v after %q: line %d is %d cells", size, step, i, w)
				}
			}
		}
	}
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	d.keys("?")
	for _, want := range []string{"z fold the entry onto one line", "Z fold every entry onto one line", "B collapse blank lines"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("the help lacks %q:\n%s", want, d.screen())
		}
	}
}
