package ui

import (
	"fmt"
	"github.com/memtui/memtui/app"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// statusPage is the demo's last index entry, below acme-api's cut.
const statusPage = "reference_status_page.md"

// acmeMemory is acme-api's memory dir in the demo copy at dir.
func acmeMemory(dir string) string {
	return filepath.Join(dir, "projects", "-home-dev-acme-api", "memory")
}

// openEditor opens the index editor on acme-api's MEMORY.md.
func openEditor(t *testing.T, cfg Config, w, h int) *driver {
	t.Helper()
	d := newDriver(t, cfg, w, h)
	d.selectProject("acme-api")
	d.keys("i", "E")
	if d.m.view != viewIndexEdit {
		t.Fatalf("E in the index view must open the editor:\n%s", d.screen())
	}
	return d
}

// selectedTarget is the target of the row under the editor's cursor.
func (d *driver) selectedTarget() string {
	v := d.m.ixedit
	return v.ed.Rows()[v.cur].Target
}

// The editor opens at the cut: the cut line and both meters show, the
// over-long index counted at 209 of 200 lines.
func TestIndexEditorOpensAtTheCut(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	s := d.screen()
	for _, want := range []string{"209 / 200", "9 over", "/ 25000", "✂── cut", "Standup 2026-11-18 → standup-2026-11-18.md · project", "no pending edits"} {
		if !strings.Contains(s, want) {
			t.Errorf("the editor lacks %q:\n%s", want, s)
		}
	}
	if got := d.selectedTarget(); got != "standup-2026-11-18.md" {
		t.Errorf("the cursor must start on the first cut row, is on %q", got)
	}
	if strings.Index(s, "✂── cut") > strings.Index(s, "Standup 2026-11-18 →") {
		t.Error("the cut line must come before the first cut entry")
	}
}

// c moves the selected entry above the cut: it is drawn above the cut line
// and loads; the file keeps its line count.
func TestIndexEditorMoveAboveCut(t *testing.T) {
	cfg, dir := reviewConfig(t)
	orig := readFile(t, filepath.Join(acmeMemory(dir), "MEMORY.md"))
	d := openEditor(t, cfg, 160, 48)
	d.keys("G")
	if got := d.selectedTarget(); got != statusPage {
		t.Fatalf("G must select the last entry, got %q", got)
	}
	d.keys("c")
	v := d.m.ixedit
	b := v.ed.Budget()
	if at := v.ed.FindRow(statusPage); at >= b.CutRow {
		t.Errorf("the entry is at row %d, the cut at %d", at, b.CutRow)
	}
	if d.selectedTarget() != statusPage {
		t.Error("the cursor must follow the moved entry")
	}
	s := d.screen()
	if strings.Index(s, "Status page →") > strings.Index(s, "✂── cut") {
		t.Errorf("the moved entry must show above the cut line:\n%s", s)
	}
	if n, want := strings.Count(string(v.ed.Bytes()), "\n"), strings.Count(orig, "\n"); n != want {
		t.Errorf("a move must keep the file's %d lines, has %d", want, n)
	}
	// The meter reads the editor's budget: what Claude Code would count.
	if !strings.Contains(s, itoa(b.Lines)+" / 200") || !strings.Contains(s, "pending edits") {
		t.Errorf("the meter must show %d lines and the edits pending:\n%s", b.Lines, s)
	}
	if !strings.Contains(claude.SimulateLoad(v.ed.Bytes()).Loaded, statusPage) {
		t.Error("the moved entry must load")
	}
}

// X deletes the selected row, R restores it where it was.
func TestIndexEditorDeleteRestore(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	v := d.m.ixedit
	d.keys("G", "X")
	if v.ed.FindRow(statusPage) >= 0 || strings.Contains(d.screen(), "Status page →") {
		t.Fatal("X must delete the entry")
	}
	if !v.modified() {
		t.Error("a delete is a pending edit")
	}
	d.keys("R")
	if v.ed.FindRow(statusPage) < 0 || !strings.Contains(d.screen(), "Status page →") {
		t.Fatal("R must restore the entry")
	}
	if v.modified() {
		t.Error("restoring the one deleted row gives the file back byte for byte")
	}
	if d.selectedTarget() != statusPage {
		t.Error("the cursor must be on the restored row")
	}
}

// u undoes, U redoes, the cursor follows its row.
func TestIndexEditorUndoRedo(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	v := d.m.ixedit
	d.keys("G", "K")
	moved := string(v.ed.Bytes())
	if !v.modified() || d.selectedTarget() != statusPage {
		t.Fatal("K must move the entry up, the cursor with it")
	}
	d.keys("u")
	if v.modified() {
		t.Error("u must undo the move")
	}
	d.keys("U")
	if string(v.ed.Bytes()) != moved {
		t.Error("U must redo the move")
	}
	d.keys("u")
	d.send(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	if string(v.ed.Bytes()) != moved {
		t.Error("ctrl+r must redo too")
	}
	d.keys("U")
	if !strings.Contains(d.screen(), "nothing to undo or redo") {
		t.Errorf("a redo with nothing to redo must say so:\n%s", d.screen())
	}
}

// H edits the hook in the footer; enter keeps it, esc drops it. Written,
// only the hook changed: the rest of the file is byte for byte as it was.
func TestIndexEditorEditHookWritesOnlyTheHook(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	orig := readFile(t, path)
	d := openEditor(t, cfg, 120, 40)
	d.keys("G", "H")
	if d.m.ixedit.mode != ixeHook || !strings.Contains(d.screen(), "hook: support and the incident commander post") {
		t.Fatalf("H must edit the hook in the footer:\n%s", d.screen())
	}
	d.typeText(" only")
	d.keys("esc")
	if d.m.ixedit.modified() {
		t.Fatal("esc must drop the hook edit")
	}
	d.keys("H")
	d.send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}) // clear the field
	d.typeText("who posts on the status page")
	d.keys("enter", "w", "y")
	want := strings.Replace(orig, "— support and the incident commander post", "— who posts on the status page", 1)
	if got := readFile(t, path); got != want {
		t.Errorf("only the hook may change; got the last lines\n%s", got[len(got)-200:])
	}
}

// D shows the pending diff: the move as a removed and an added line.
func TestIndexEditorDiff(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	d.keys("D")
	if d.m.ixedit.mode == ixeDiff {
		t.Error("D with no pending edit has nothing to show")
	}
	d.keys("G", "c", "D")
	s := d.screen()
	line := "- [Status page](reference_status_page.md) — support and the incident commander post"
	if d.m.ixedit.mode != ixeDiff || !strings.Contains(s, "+"+line) || !strings.Contains(s, "-"+line) || !strings.Contains(s, "@@") {
		t.Errorf("the diff must show the move:\n%s", s)
	}
	// It is the diff pane proposals use: numbered lines, the moved line
	// once on each side, and z zooms it over the meters.
	if !regexp.MustCompile(`\n\s*\d+\s+-- \[Status page\]`).MatchString(s) || strings.Count(s, "-"+line) != 1 || strings.Count(s, "+"+line) != 1 {
		t.Errorf("the pending diff must number its lines and show the move once a side:\n%s", s)
	}
	d.keys("z")
	if s := d.screen(); !strings.Contains(s, "Pending diff · unified · zoomed (z)") || strings.Contains(s, "lines  ") {
		t.Errorf("z must give the diff the meters' rows:\n%s", s)
	}
	d.keys("esc")
	if d.m.ixedit.mode != ixeDiff || d.m.ixedit.diffZoom {
		t.Error("esc from the zoomed diff unzooms it first")
	}
	d.keys("esc")
	if d.m.view != viewIndexEdit || d.m.ixedit.mode != ixeList {
		t.Error("esc leaves the diff for the rows, not the editor")
	}
}

// w, y writes through txn.Apply: MEMORY.md changes on disk, the entry
// loads, the journal has the write, the editor closes on the reloaded
// index view.
func TestIndexEditorWrite(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	orig := readFile(t, path)
	d := openEditor(t, cfg, 160, 48)
	d.keys("G", "c", "w")
	if d.m.dialog == nil || !strings.Contains(d.screen(), "change  MEMORY.md") {
		t.Fatalf("w must ask first, naming MEMORY.md:\n%s", d.screen())
	}
	d.keys("n")
	if readFile(t, path) != orig || d.m.view != viewIndexEdit {
		t.Fatal("anything but y writes nothing and stays in the editor")
	}
	want := string(d.m.ixedit.ed.Bytes())
	d.keys("w", "y")
	got := readFile(t, path)
	if got != want {
		t.Fatal("MEMORY.md on disk must be the editor's bytes")
	}
	if !strings.Contains(claude.SimulateLoad([]byte(got)).Loaded, statusPage) {
		t.Error("after the write Claude Code must load " + statusPage)
	}
	es, err := txn.List(cfg.Workspace.State.Journal)
	if err != nil || len(es) != 1 {
		t.Fatalf("want one journal entry, got %d (%v)", len(es), err)
	}
	if d.m.view != viewIndex || d.m.dialog == nil || !strings.Contains(d.screen(), "✓ applied") {
		t.Errorf("the editor must close on the index view with the result:\n%s", d.screen())
	}
	d.keys("esc")
	if string(d.m.index.dd.d.Index.Content) != got {
		t.Error("the index view must show the reloaded MEMORY.md")
	}
}

// An agent that changes MEMORY.md while it is edited wins: the write is a
// conflict, the agent's bytes stay, the edits stay in the editor.
func TestIndexEditorWriteConflict(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	d := openEditor(t, cfg, 160, 48)
	d.keys("G", "c")
	agent := readFile(t, path) + "\n- [Agent note](agent_note.md) — written while memtui edited\n"
	if err := os.WriteFile(path, []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	d.keys("w", "y")
	if got := readFile(t, path); got != agent {
		t.Error("a conflict must keep the agent's bytes")
	}
	s := d.screen()
	if !strings.Contains(s, "! conflict") || !strings.Contains(s, "changed MEMORY.md") {
		t.Errorf("the result must say conflict:\n%s", s)
	}
	d.keys("esc")
	if d.m.view != viewIndexEdit || !d.m.ixedit.modified() {
		t.Error("after a conflict the edits stay in the editor")
	}
}

// Leaving with pending edits asks first, and No keeps them.
func TestIndexEditorLeaveAsksToDiscard(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	orig := readFile(t, path)
	d := openEditor(t, cfg, 120, 40)
	d.keys("G", "X", "esc")
	if d.m.dialog == nil || d.m.dialog.kind != dlgDiscard {
		t.Fatal("esc with pending edits must ask")
	}
	d.keys("n")
	if d.m.view != viewIndexEdit || !d.m.ixedit.modified() {
		t.Fatal("No keeps the editor and its edits")
	}
	d.keys("f")
	if d.m.dialog == nil {
		t.Fatal("going to another view with pending edits must ask too")
	}
	d.keys("y")
	if d.m.view != viewFindings {
		t.Errorf("y discards and goes on to the findings view, got view %d", d.m.view)
	}
	if readFile(t, path) != orig {
		t.Error("discarding writes nothing")
	}
	// Without edits, esc leaves at once.
	d.keys("i", "E", "esc")
	if d.m.view != viewIndex || d.m.dialog != nil {
		t.Error("esc without edits goes back to the index view")
	}
}

// A adds an entry for a topic file no row points at, titled and hooked
// from its frontmatter, below the selected row.
func TestIndexEditorAddOrphan(t *testing.T) {
	cfg, dir := reviewConfig(t)
	orphan := "---\nname: Release checklist\ndescription: what to check before tagging a release\nmetadata:\n  type: reference\n---\n\nbody\n"
	if err := os.WriteFile(filepath.Join(acmeMemory(dir), "reference_release_checklist.md"), []byte(orphan), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openEditor(t, cfg, 120, 40)
	d.keys("g", "A")
	if d.m.ixedit.mode != ixeOrphans || !strings.Contains(d.screen(), "reference_release_checklist.md · reference — what to check") {
		t.Fatalf("A must list the orphan:\n%s", d.screen())
	}
	d.keys("enter")
	v := d.m.ixedit
	at := v.ed.FindRow("reference_release_checklist.md")
	if at != 1 || v.cur != at {
		t.Fatalf("the entry must be added below the selected row and selected: at %d, cursor %d", at, v.cur)
	}
	if got := v.ed.Rows()[at].Text; got != "- [Release checklist](reference_release_checklist.md) — what to check before tagging a release" {
		t.Errorf("the new entry reads %q", got)
	}
	d.keys("A")
	if v.mode == ixeOrphans {
		t.Error("with every file indexed, A has nothing to pick")
	}
}

// S shortens every hook over 150 characters, from the file's description.
func TestIndexEditorShortenHooks(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	long := strings.Repeat("who may post and when, ", 9)
	b := strings.Replace(readFile(t, path), "— support and the incident commander post", "— "+long, 1)
	if err := os.WriteFile(path, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openEditor(t, cfg, 120, 40)
	d.keys("S")
	v := d.m.ixedit
	en := v.ed.Rows()[v.ed.FindRow(statusPage)].Entry
	if en.Hook != "Who can post on the public status page and which components it lists" {
		t.Errorf("the long hook must become the description, is %q", en.Hook)
	}
	d.keys("u")
	if v.modified() {
		t.Error("one u undoes the whole shortening")
	}
}

// --readonly: the editor opens to explore; no key edits or writes.
func TestIndexEditorReadOnly(t *testing.T) {
	cfg, dir := reviewConfig(t)
	cfg.Workspace.ReadOnly = true
	path := filepath.Join(acmeMemory(dir), "MEMORY.md")
	orig := readFile(t, path)
	d := openEditor(t, cfg, 160, 48)
	d.keys("G", "c", "K", "J", "X", "H", "S", "A", "w", "y")
	v := d.m.ixedit
	if v.modified() || v.mode != ixeList || d.m.dialog != nil {
		t.Error("read-only: nothing may edit")
	}
	s := d.screen()
	if !strings.Contains(s, "read-only") || strings.Contains(s, "move row up") {
		t.Errorf("the editor must say read-only and offer no editing keys:\n%s", s)
	}
	if readFile(t, path) != orig {
		t.Error("read-only wrote MEMORY.md")
	}
	d.keys("esc")
	if d.m.view != viewIndex {
		t.Error("esc leaves at once: there is nothing to discard")
	}
}

// Every frame of the editor fits the window.
func TestIndexEditorFits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}, {50, 16}} {
		cfg, _ := reviewConfig(t)
		d := openEditor(t, cfg, size[0], size[1])
		for _, step := range []string{"", "G", "c", "?", "?", "H", "esc", "D", "?", "?", "esc", "A", "esc", "w", "n", "esc"} {
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
}

// V starts a range at the cursor, moving extends it (the rows are marked),
// esc clears it and stays in the editor; M demotes the range's entries into
// a new archive beside MEMORY.md (memory-archive-2.md when memory-archive.md
// exists); u drops the pending archive, U brings it back; w lists both
// files and y writes both in one journal entry.
func TestIndexEditorDemoteRange(t *testing.T) {
	cfg, dir := reviewConfig(t)
	mem := acmeMemory(dir)
	if err := os.WriteFile(filepath.Join(mem, "memory-archive.md"), []byte("---\nname: old archive\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openEditor(t, cfg, 160, 48)
	v := d.m.ixedit
	start := v.cur
	d.keys("V", "down", "down")
	if from, to := v.selection(); from != start || to != start+3 || !v.inRange(start+1) {
		t.Fatalf("V then two downs must select 3 rows, got [%d, %d)", from, to)
	}
	if !strings.Contains(d.screen(), "▌") {
		t.Error("the range's rows must be marked")
	}
	d.keys("esc")
	if v.anchor >= 0 || d.m.view != viewIndexEdit {
		t.Fatal("esc must clear the range and stay in the editor")
	}
	rows := v.ed.Rows()
	var moved []string
	for _, r := range rows[start : start+3] {
		if r.Entry != nil {
			moved = append(moved, r.Target)
		}
	}
	d.keys("up", "up", "V", "down", "down", "M")
	if v.anchor >= 0 {
		t.Error("a demote ends the range")
	}
	p := v.pending()
	if len(p) != 1 || p[0].path != "memory-archive-2.md" {
		t.Fatalf("want one pending memory-archive-2.md, got %+v", p)
	}
	for _, m := range moved {
		if v.ed.FindRow(m) >= 0 || !strings.Contains(string(p[0].content), m) {
			t.Errorf("%s must move to the archive", m)
		}
	}
	d.keys("u")
	if len(v.pending()) != 0 || v.modified() {
		t.Fatal("undoing the demote must drop the pending archive")
	}
	d.keys("U", "w")
	s := d.screen()
	if !strings.Contains(s, "change  MEMORY.md") || !strings.Contains(s, "create  memory-archive-2.md") {
		t.Fatalf("the confirmation must list both files:\n%s", s)
	}
	want := string(v.ed.Bytes())
	d.keys("y")
	if got := readFile(t, filepath.Join(mem, "MEMORY.md")); got != want {
		t.Error("MEMORY.md on disk must be the editor's bytes")
	}
	if got := readFile(t, filepath.Join(mem, "memory-archive-2.md")); got != string(p[0].content) {
		t.Error("the archive must be written as the editor made it")
	}
	if es, err := txn.List(cfg.Workspace.State.Journal); err != nil || len(es) != 1 {
		t.Fatalf("want one journal entry for both files, got %d (%v)", len(es), err)
	}
}

// M with no range demotes every entry from the cursor to the end: from a
// few rows above the cut, the index then loads whole.
func TestIndexEditorDemoteToEnd(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	v := d.m.ixedit
	d.keys("up", "up", "up", "up", "up", "up", "up", "up", "up", "up", "M")
	if len(v.pending()) != 1 || v.pending()[0].path != "memory-archive.md" {
		t.Fatalf("M must make memory-archive.md pending: %s", v.note)
	}
	if v.ed.Budget().Truncated || v.ed.FindRow(statusPage) >= 0 {
		t.Error("demoting from the cut to the end must leave an index that loads whole")
	}
	if !strings.Contains(string(v.pending()[0].content), statusPage) {
		t.Error("the last entry must be in the archive")
	}
}

// bigMemory writes a memory dir shaped like a long-lived project's: an
// index of about 390 lines and 71 KB (entries with long hooks under several
// headings) over both caps, each entry pointing at a topic file with
// frontmatter. It returns the config dir, the memory dir and the targets.
func bigMemory(t *testing.T) (string, string, []string) {
	t.Helper()
	root := t.TempDir()
	mem := filepath.Join(root, "projects", "-home-dev-ledger", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	sections := []struct{ heading, typ string }{
		{"User", "user"}, {"Feedback", "feedback"}, {"Project", "project"},
		{"Reference", "reference"}, {"Incidents", "project"}, {"Runbooks", "reference"},
	}
	subjects := []string{"invoice run", "ledger reconciliation", "webhook signing", "tax provider", "migration locks",
		"staging deploys", "merge queue", "on-call rotation", "status page", "replication lag", "feature flags", "PSP retries"}
	var b strings.Builder
	b.WriteString("# Memory index\n\n")
	var targets []string
	n := 0
	for si, sec := range sections {
		b.WriteString("## " + sec.heading + "\n\n")
		for k := 0; k < 62; k++ {
			n++
			subj := subjects[(n+si)%len(subjects)]
			name := fmt.Sprintf("%s_%s_%03d.md", sec.typ, strings.ReplaceAll(subj, " ", "_"), n)
			title := fmt.Sprintf("%s %d", strings.ToUpper(subj[:1])+subj[1:], n)
			// Every other hook is long, as hooks an agent keeps appending to are.
			hook := fmt.Sprintf("the %s: owner, safe commands, dashboards, the runbook and its alerts (%d)", subj, n)
			if n%2 == 1 {
				hook = fmt.Sprintf("what we learned about the %s in %s: who owns it, the commands that are safe to run, "+
					"the dashboards to watch, the mistakes of session %d and what to check first", subj, sec.heading, n)
			}
			fmt.Fprintf(&b, "- [%s](%s) — %s\n", title, name, hook)
			doc := fmt.Sprintf("---\nname: %s\ndescription: The %s, short: owner and safe commands (%d)\nmetadata:\n  node_type: memory\n  type: %s\n"+
				"  originSessionId: 6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n  modified: 2026-10-%02dT10:00:00.238Z\n---\n\n"+
				"Notes on the %s.\n\n- Ask the owner before changing it.\n- Watch the board while it runs.\n", strings.TrimSuffix(name, ".md"), subj, n, sec.typ, 1+n%28, subj)
			if err := os.WriteFile(filepath.Join(mem, name), []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			targets = append(targets, name)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, mem, targets
}

// Done when: a real-sized index over both caps is brought under both with
// the editor's keys (S shortens the hooks, V…G M demotes the tail) and
// written with w y: MEMORY.md loads whole, every original target is linked
// from MEMORY.md or from the archive, the archive exists with valid
// frontmatter and is linked from MEMORY.md, and the journal has the write.
func TestIndexEditorBringsABigIndexUnderBothCaps(t *testing.T) {
	root, mem, targets := bigMemory(t)
	orig := readFile(t, filepath.Join(mem, "MEMORY.md"))
	ld := claude.SimulateLoad([]byte(orig))
	if ld.LineCount < 380 || ld.LineCount > 400 || len(orig) < 68000 || len(orig) > 74000 || !ld.LineTruncated || !ld.SizeTruncated {
		t.Fatalf("the fixture must be ~390 lines / ~71 KB over both caps: %d lines, %d bytes, %d units", ld.LineCount, len(orig), ld.Units)
	}
	cfg := Config{
		Workspace: &app.Workspace{
			ScanOpts: memfs.Options{ConfigDirs: []string{root}, Getenv: func(string) string { return "" }, Home: root,
				ManagedSettings: filepath.Join(root, "none.json"), IncludeAgentMemory: true},
			CheckOpts: consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
			State:     memfs.StateDirs{Journal: t.TempDir()},
		},
		Home: "/home/dev",
	}
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("ledger")
	d.keys("i", "E")
	if d.m.view != viewIndexEdit {
		t.Fatalf("E must open the editor:\n%s", d.screen())
	}
	v := d.m.ixedit
	d.keys("S")
	if b := v.ed.Budget(); b.Units >= ld.Units {
		t.Fatalf("S must shorten the hooks: %d units, was %d (%s)", b.Units, ld.Units, v.note)
	}
	d.keys("g")
	for range 140 {
		d.keys("down")
	}
	d.keys("V", "G", "M")
	if len(v.pending()) != 1 {
		t.Fatalf("V G M must demote to one archive: %s", v.note)
	}
	if b := v.ed.Budget(); b.Truncated || b.Lines > model.IndexMaxLines || b.Units > model.IndexMaxUnits {
		t.Fatalf("after S and the demote the index must be under both caps: %d lines, %d units", b.Lines, b.Units)
	}
	d.keys("w")
	if s := d.screen(); !strings.Contains(s, "create  memory-archive.md") {
		t.Fatalf("the confirmation must list the archive:\n%s", s)
	}
	d.keys("y")
	got := readFile(t, filepath.Join(mem, "MEMORY.md"))
	if got == orig {
		t.Fatal("MEMORY.md must be written")
	}
	if l := claude.SimulateLoad([]byte(got)); l.Truncated() {
		t.Errorf("the written MEMORY.md must load whole: %d lines, %d units", l.LineCount, l.Units)
	}
	archB, err := os.ReadFile(filepath.Join(mem, "memory-archive.md"))
	if err != nil {
		t.Fatalf("the archive must be on disk: %v", err)
	}
	if doc := claude.ParseDoc(archB); doc.Status != model.FMOK {
		t.Errorf("the archive's frontmatter must parse: %v %s", doc.Status, doc.Problem)
	}
	linked := func(ix memindex.Index) map[string]bool {
		m := map[string]bool{}
		for _, l := range ix.Lines {
			for _, r := range l.Refs {
				m[r.Target] = true
			}
		}
		return m
	}
	inIndex, inArchive := linked(memindex.Parse([]byte(got))), linked(memindex.ParseText(string(archB)))
	if !inIndex["memory-archive.md"] {
		t.Error("MEMORY.md must link the archive")
	}
	for _, tg := range targets {
		if !inIndex[tg] && !inArchive[tg] {
			t.Errorf("%s is linked from neither MEMORY.md nor the archive", tg)
		}
	}
	if es, err := txn.List(cfg.Workspace.State.Journal); err != nil || len(es) != 1 {
		t.Fatalf("want one journal entry, got %d (%v)", len(es), err)
	}
}

// A selected range moves as one: K and J shift every row of it, and it
// stays selected so it can keep moving.
func TestIndexEditorMovesARange(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 160, 48)
	d.keys("g")
	v := d.m.ixedit
	// Go to the third entry of the index and select it and the next two rows.
	for n := 0; n < 3; {
		if v.ed.Rows()[v.cur].Entry != nil {
			n++
			if n == 3 {
				break
			}
		}
		d.keys("down")
	}
	start := v.cur
	before := append([]memindex.Row(nil), v.ed.Rows()...)
	d.keys("V", "down", "down", "K")
	rows := v.ed.Rows()
	for i := 0; i < 3; i++ {
		if rows[start-1+i].Text != before[start+i].Text {
			t.Fatalf("row %d of the range did not move up one: %q, want %q", i, rows[start-1+i].Text, before[start+i].Text)
		}
	}
	if rows[start+2].Text != before[start-1].Text {
		t.Errorf("the row above the range must end up below it: %q", rows[start+2].Text)
	}
	if v.anchor < 0 {
		t.Error("the range must stay selected after a move")
	}
	d.keys("J")
	for i := range before {
		if v.ed.Rows()[i].Text != before[i].Text {
			t.Fatalf("J must move the range back: row %d is %q, want %q", i, v.ed.Rows()[i].Text, before[i].Text)
		}
	}
}
