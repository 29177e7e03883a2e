package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// helpText is the help screen's part of the frame: its last rows.
func (d *driver) helpText() string {
	d.t.Helper()
	if !d.m.help.ShowAll {
		d.t.Fatal("the help screen is not shown")
	}
	lines := strings.Split(d.screen(), "\n")
	return strings.Join(lines[len(lines)-len(d.m.fullHelp()):], "\n")
}

// quits reports whether cmd (or a command it batches) is tea.Quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// While the filter box is open every key is typed: q does not quit, ?
// shows no help, f does not switch views. esc drops the filter and the
// keys are the view's again.
func TestFilterBoxTypesEveryKey(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.keys("/")
	for _, k := range []string{"q", "?", "f", "r", "L"} {
		_, cmd := d.m.Update(keyMsg(k))
		if quits(cmd) {
			t.Fatalf("%s in the filter box quit", k)
		}
		d.run(cmd)
	}
	if got := d.m.input.Value(); got != "q?frL" {
		t.Errorf("the filter box holds %q, want every key typed", got)
	}
	if d.m.view != viewBrowse || d.m.help.ShowAll {
		t.Errorf("a key typed in the filter acted: view %d, help %v", d.m.view, d.m.help.ShowAll)
	}
	d.keys("esc")
	if d.m.projects.filter != "" || d.m.mode != modeNormal {
		t.Fatalf("esc must drop the filter and give the keys back (mode %d)", d.m.mode)
	}
	d.keys("f")
	if d.m.view != viewFindings {
		t.Error("after the filter, f switches views again")
	}
}

// The index editor has no keys of its own for quitting, help or refresh:
// the root's apply on its rows. Its hook input types them instead.
func TestIndexEditorTakesTheGlobalKeys(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 120, 40)
	d.keys("?")
	if h := d.helpText(); !strings.Contains(h, "move row up") || !strings.Contains(h, "refresh") || !strings.Contains(h, "quit") {
		t.Errorf("? in the editor must show its keys and the global ones:\n%s", h)
	}
	d.keys("?")
	gen := d.m.gen
	d.keys("r")
	if d.m.gen == gen || d.m.view != viewIndexEdit {
		t.Error("r in the editor must read everything again and stay in the editor")
	}
	// The hook input: q, ? and r are typed into the hook.
	d.keys("G", "H")
	if d.m.mode != modeInput {
		t.Fatalf("H must open the hook's input (mode %d)", d.m.mode)
	}
	before := d.m.ixedit.input.Value()
	for _, k := range []string{"q", "?", "r", "f"} {
		_, cmd := d.m.Update(keyMsg(k))
		if quits(cmd) {
			t.Fatalf("%s in the hook input quit", k)
		}
		d.run(cmd)
	}
	if got := d.m.ixedit.input.Value(); got != before+"q?rf" || d.m.help.ShowAll || d.m.view != viewIndexEdit {
		t.Errorf("the hook input holds %q (help %v, view %d): every key must be typed", got, d.m.help.ShowAll, d.m.view)
	}
	d.keys("esc")
	if d.m.mode != modeNormal || d.m.ixedit.mode != ixeList {
		t.Error("esc ends the hook input and gives the rows their keys back")
	}
	// Without edits q quits at once from the editor.
	if _, cmd := d.m.Update(keyMsg("q")); !quits(cmd) {
		t.Error("q in the editor without edits must quit")
	}
}

// q in the editor with pending edits asks before dropping them; No keeps
// editing, y quits.
func TestIndexEditorQuitAsksFirst(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 120, 40)
	d.keys("G", "X")
	_, cmd := d.m.Update(keyMsg("q"))
	if quits(cmd) || d.m.dialog == nil || d.m.dialog.kind != dlgDiscard {
		t.Fatal("q with pending edits must ask first")
	}
	d.keys("n")
	if d.m.view != viewIndexEdit || !d.m.ixedit.modified() || d.m.mode != modeNormal {
		t.Fatal("No keeps the editor, its edits and its keys")
	}
	d.m.Update(keyMsg("q"))
	if _, cmd := d.m.Update(keyMsg("y")); !quits(cmd) {
		t.Error("y to the question must quit")
	}
}

// The editor's pending diff holds the keys: f does not leave, ? shows the
// diff's keys and the global ones (not the rows'), q asks before dropping
// the edits and No goes back to the diff.
func TestIndexEditorOverlayKeepsItsKeys(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 120, 40)
	d.keys("G", "X", "D")
	if d.m.mode != modeOverlay || d.m.ixedit.mode != ixeDiff {
		t.Fatalf("D must show the pending diff as an overlay (mode %d)", d.m.mode)
	}
	d.keys("f", "p", "b")
	if d.m.view != viewIndexEdit || d.m.ixedit.mode != ixeDiff || d.m.dialog != nil {
		t.Fatal("the view switches wait until the diff is closed")
	}
	d.keys("?")
	h := d.helpText()
	for _, want := range []string{"Pending diff", "quit", "help", "page down"} {
		if !strings.Contains(h, want) {
			t.Errorf("the diff's help lacks %q:\n%s", want, h)
		}
	}
	for _, not := range []string{"move row up", "all findings"} {
		if strings.Contains(h, not) {
			t.Errorf("the diff's help offers %q, which it does not do:\n%s", not, h)
		}
	}
	d.keys("?", "q")
	if d.m.dialog == nil || d.m.dialog.kind != dlgDiscard {
		t.Fatal("q over the diff must ask before dropping the edits")
	}
	d.keys("n")
	if d.m.mode != modeOverlay || d.m.ixedit.mode != ixeDiff {
		t.Errorf("No goes back to the diff (mode %d)", d.m.mode)
	}
	d.keys("esc")
	if d.m.mode != modeNormal || d.m.ixedit.mode != ixeList {
		t.Error("esc closes the diff")
	}
}

// The orphan picker moves with every moving key it lists: G picks the
// last file.
func TestOrphanPickerMoves(t *testing.T) {
	cfg, dir := reviewConfig(t)
	for _, name := range []string{"reference_a_orphan.md", "reference_b_orphan.md", "reference_c_orphan.md"} {
		body := "---\nname: " + name + "\ndescription: an orphan\nmetadata:\n  type: reference\n---\n\nbody\n"
		if err := os.WriteFile(filepath.Join(acmeMemory(dir), name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := openEditor(t, cfg, 120, 40)
	d.keys("A")
	if d.m.mode != modeOverlay || len(d.m.ixedit.orphans) < 3 {
		t.Fatalf("A must open the picker on the orphans (mode %d, %d orphans)", d.m.mode, len(d.m.ixedit.orphans))
	}
	d.keys("G")
	if got := d.m.ixedit.orphans[d.m.ixedit.ocur]; got != "reference_c_orphan.md" {
		t.Errorf("G must move to the last orphan, is on %s", got)
	}
	d.keys("g")
	if d.m.ixedit.ocur != 0 {
		t.Error("g must move to the first orphan")
	}
}

// A dialog that arrives while the filter is being typed (a write's
// summary) takes the next key, then gives the keys back to the filter.
func TestDialogGivesTheKeysBack(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.keys("/")
	d.typeText("kef")
	d.m.openDialog(&dialog{kind: dlgResult, title: "Written: 1 applied", hint: "any key closes"})
	if !strings.Contains(d.screen(), "Written: 1 applied") {
		t.Fatal("the dialog must show")
	}
	d.keys("x")
	if d.m.dialog != nil || d.m.mode != modeFilter {
		t.Fatalf("any key closes the summary and the filter has the keys again (mode %d)", d.m.mode)
	}
	d.typeText("u")
	if got := d.m.input.Value(); got != "kefu" {
		t.Errorf("typing goes on in the filter: got %q", got)
	}
}

// Views switch through navigateMsg: sent as a message it switches too,
// and from the editor with edits it asks first.
func TestNavigateMsg(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("acme-api")
	d.send(navigateMsg{to: viewJournal})
	if d.m.view != viewJournal || !strings.Contains(d.screen(), "Journal (") {
		t.Fatalf("navigateMsg must show the journal:\n%s", d.screen())
	}
	d.keys("b", "i", "E", "G", "X")
	d.send(navigateMsg{to: viewBrowse})
	if d.m.view != viewIndexEdit || d.m.dialog == nil {
		t.Fatal("leaving the editor with edits must ask, whatever asks to leave")
	}
	d.keys("y")
	if d.m.view != viewBrowse {
		t.Errorf("y goes on to the view asked for, got %d", d.m.view)
	}
}

// A view switch is done when the key is handled, not by a Cmd run later:
// the key typed next (queued before any Cmd's message) is the new view's.
func TestNavigationIsImmediate(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.m.Update(keyMsg("f")) // its Cmd is not run
	if d.m.view != viewFindings {
		t.Fatal("f must switch to the findings view at once")
	}
	before := d.m.findings.list.cursor
	d.m.Update(keyMsg("j"))
	if d.m.findings.list.cursor == before {
		t.Error("j right after f must move in the findings view")
	}
}

// C leaves the editor too, like every other view switch (and asks first
// when there are edits).
func TestIndexEditorChangesKeyLeaves(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := openEditor(t, cfg, 120, 40)
	d.keys("C")
	if d.m.view != viewChanges {
		t.Errorf("C in the editor must show the changes view, got %d", d.m.view)
	}
}

// ? lists the keys live in the view, under their groups' titles, and
// none of another view's.
func TestHelpListsTheViewsOwnKeys(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("acme-api")
	for _, c := range []struct {
		name       string
		keys       []string
		want, lack []string
	}{
		{"browse", []string{"enter"}, []string{"Preview", "rendered/source", "sort: name/use/modified", "pane to the left", "Everywhere", "quit"},
			[]string{"select a range of hunks", "move row up", "undo entry", "next rule"}},
		{"findings", []string{"f"}, []string{"next rule", "severity", "back to browse", "Moving"},
			[]string{"rendered/source", "scroll preview down", "next pane"}},
		{"index", []string{"i"}, []string{"edit the index", "edit in $EDITOR"}, []string{"rendered/source", "move row up"}},
		{"editor", []string{"E"}, []string{"Index editor", "move row up", "demote", "all findings"},
			[]string{"undo entry", "rendered/source", "Pending diff"}},
		{"proposals", []string{"esc", "p"}, []string{"select a range of hunks", "scroll diff down", "unified/side-by-side"},
			[]string{"rendered/source", "move row up", "mark file seen"}},
		{"changes", []string{"C"}, []string{"mark file seen", "mark project reviewed", "next hunk"},
			[]string{"accept proposal", "rendered/source"}},
		{"journal", []string{"L"}, []string{"undo entry", "next hunk", "zoom the diff"}, []string{"undo edit", "accept proposal", "rendered/source"}},
	} {
		d.keys(c.keys...)
		d.keys("?")
		h := d.helpText()
		for _, w := range c.want {
			if !strings.Contains(h, w) {
				t.Errorf("%s: the help lacks %q:\n%s", c.name, w, h)
			}
		}
		for _, w := range c.lack {
			if strings.Contains(h, w) {
				t.Errorf("%s: the help offers %q, another view's key:\n%s", c.name, w, h)
			}
		}
		d.keys("?")
	}
}
