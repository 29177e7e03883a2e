package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

const (
	oncallTitle = "Fix the frontmatter of project_oncall_handoff.md" // one change, two blocks
	bffTitle    = "Merge feedback_payments_through_bff.md into feedback_payments_via_bff.md"
)

// reviewConfig is the demo with a journal of its own.
func reviewConfig(t *testing.T) (Config, string) {
	t.Helper()
	cfg, dir := demoConfig(t)
	cfg.Workspace.State.Journal = t.TempDir()
	return cfg, dir
}

// rowOf is the list row of the proposal titled title.
func (d *driver) rowOf(title string) row {
	d.t.Helper()
	v := d.m.proposals
	for _, r := range v.list.rows {
		if !r.header && v.items[r.ref].title == title {
			return r
		}
	}
	d.t.Fatalf("no row for %q", title)
	return row{}
}

// fileOf is the path on disk of a change of the proposal.
func fileOf(it *propItem, path string) string {
	return filepath.Join(it.p.MemoryDir, filepath.FromSlash(path))
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// space, a and x set each proposal's state; the list marks it and the
// status line counts them.
func TestDecideAcceptRejectToggle(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	if !strings.Contains(d.screen(), "0 accepted · 0 rejected") {
		t.Errorf("the status line must count decisions:\n%s", d.screen())
	}
	d.selectProposal(ciBotTitle)
	d.keys("space")
	if r := d.rowOf(ciBotTitle); r.badge != "✓" {
		t.Errorf("space must accept: mark %q", r.badge)
	}
	d.selectProposal(stagingTitle)
	d.keys("x")
	if r := d.rowOf(stagingTitle); r.badge != "✗" || !r.dim {
		t.Errorf("x must reject and dim: mark %q dim %v", r.badge, r.dim)
	}
	d.selectProposal(loadTestTitle)
	d.keys("a")
	if !strings.Contains(d.screen(), "2 accepted · 1 rejected") {
		t.Errorf("want 2 accepted · 1 rejected:\n%s", d.screen())
	}
	for _, want := range []string{"✓ redact-secret", "✗ fix-frontmatter", "✓ absolutize-dates", "· add-year"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("the list lacks %q:\n%s", want, d.screen())
		}
	}
	d.selectProposal(ciBotTitle)
	d.keys("space")
	if r := d.rowOf(ciBotTitle); r.badge != "·" {
		t.Errorf("space again must make it undecided: %q", r.badge)
	}
	d.selectProposal(stagingTitle)
	d.keys("space")
	if r := d.rowOf(stagingTitle); r.badge != "✓" || r.dim {
		t.Errorf("space on a rejected proposal accepts it: %q", r.badge)
	}
	if !strings.Contains(d.screen(), "2 accepted · 0 rejected") {
		t.Errorf("want 2 accepted · 0 rejected:\n%s", d.screen())
	}
	// Only the accepted are planned for writing; the rejected are skipped.
	d.selectProposal(loadTestTitle)
	d.keys("x")
	jobs, _ := v.writePlan()
	var planned []string
	for _, j := range jobs {
		for _, it := range j.items {
			planned = append(planned, it.title)
		}
	}
	if !slices.Equal(planned, []string{stagingTitle}) {
		t.Errorf("w would write %v", planned)
	}
}

// Keeping one hunk of two writes that hunk only, as Partial makes it; a
// range toggles both; the mark says partly.
func TestHunkToggleMakesPartial(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	it := d.selectProposal(oncallTitle)
	c := it.p.Changes[0]
	before, _ := it.before(c.Path)
	if n := diff.Blocks(c, before); n != 2 {
		t.Fatalf("the demo's %s has %d blocks, the test wants 2", c.Path, n)
	}
	d.keys("enter")
	if len(v.diff.units) != 2 || v.diff.cur != 0 {
		t.Fatalf("the diff must have a cursor on the first of 2 hunks: %d units, cursor %d", len(v.diff.units), v.diff.cur)
	}
	d.keys("space")
	dec := v.dec[it.p.ID]
	if dec.state() != stPartly || d.rowOf(oncallTitle).badge != "◐" {
		t.Fatalf("keeping one hunk of two is partly accepted: %v", dec.state())
	}
	want, err := dream.Partial(it.p, it.proposalBefore, dream.Keep{c.Path: {true, false}})
	if err != nil {
		t.Fatal(err)
	}
	if dec.final == nil || dec.final.Changes[0].After != want.Changes[0].After {
		t.Fatalf("the proposal to write must keep the first hunk only")
	}
	if got := dec.final.Changes[0].After; got == c.After || got == before {
		t.Error("a partial After must differ from both the file and the whole proposal")
	}
	if !strings.Contains(d.screen(), "(1 partly)") || !strings.Contains(d.screen(), "hunk 1/2") {
		t.Errorf("the status must count the partly accepted and the heading the hunk:\n%s", d.screen())
	}
	// n moves to the second hunk; space keeps it too: accepted whole.
	d.keys("n", "space")
	if dec.state() != stAccepted || dec.final.Changes[0].After != c.After {
		t.Errorf("both hunks kept must write the whole proposal: %v", dec.state())
	}
	// A range over both drops both: undecided.
	d.keys("v", "N")
	if !strings.Contains(d.screen(), "hunks 1–2/2") {
		t.Errorf("the heading must show the range:\n%s", d.screen())
	}
	d.keys("space")
	if dec.state() != stUndecided || dec.final != nil {
		t.Errorf("dropping every hunk leaves the proposal undecided: %v", dec.state())
	}
	// Only the second hunk.
	d.keys("n", "space")
	want, _ = dream.Partial(it.p, it.proposalBefore, dream.Keep{c.Path: {false, true}})
	if dec.final == nil || dec.final.Changes[0].After != want.Changes[0].After {
		t.Error("keeping the second hunk only must write that")
	}
}

// A merge whose index hunk is dropped but whose delete is kept is refused
// with Partial's message, and w writes nothing of it.
func TestInvalidPartialMergeIsRefused(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	it := d.selectProposal(bffTitle)
	ix := slices.IndexFunc(it.p.Changes, func(c model.Change) bool { return c.Path == "MEMORY.md" })
	if ix < 0 {
		t.Fatal("the merge has no index change")
	}
	d.keys("a", "enter")
	for range len(v.diff.units) {
		if v.diff.currentChange() == ix {
			break
		}
		d.keys("n")
	}
	if v.diff.currentChange() != ix {
		t.Fatal("no hunk of MEMORY.md in the diff")
	}
	d.keys("space")
	dec := v.dec[it.p.ID]
	if dec.err == nil || dec.final != nil || !strings.Contains(dec.err.Error(), "feedback_payments_through_bff.md") {
		t.Fatalf("dropping the index hunk but deleting the file must be refused: %v", dec.err)
	}
	out := d.screen()
	if !strings.Contains(out, "cannot be written: with only these hunks, MEMORY.md would point at") || !strings.Contains(out, "1 invalid") {
		t.Errorf("the refusal must show:\n%s", out)
	}
	before := readFile(t, fileOf(it, "MEMORY.md"))
	d.keys("w")
	if d.m.dialog != nil || d.m.err == nil || !strings.Contains(d.m.err.Error(), "cannot be written") {
		t.Errorf("w must refuse an invalid proposal: dialog %v, err %v", d.m.dialog != nil, d.m.err)
	}
	if readFile(t, fileOf(it, "MEMORY.md")) != before {
		t.Error("nothing may be written")
	}
}

// w asks first, listing every file per directory; n and esc cancel and
// nothing is written.
func TestWriteAsksAndCancels(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	ci := d.selectProposal(ciBotTitle)
	d.keys("a")
	bff := d.selectProposal(bffTitle)
	d.keys("a")
	disk := map[string]string{}
	for _, it := range []*propItem{ci, bff} {
		for _, c := range it.p.Changes {
			disk[fileOf(it, c.Path)] = readFile(t, fileOf(it, c.Path))
		}
	}
	for _, cancel := range []string{"n", "esc", "j"} {
		d.keys("w")
		if d.m.dialog == nil {
			t.Fatal("w must ask first")
		}
		out := d.screen()
		for _, want := range []string{"Write 2 proposals (4 files) to 2 memory directories?", "-home-dev-acme-api/memory", "-home-dev-webshop/memory",
			"change  reference_ci_bot.md", "change  MEMORY.md", "delete  feedback_payments_through_bff.md", "y write · m write and mark the store consolidated"} {
			if !strings.Contains(out, want) {
				t.Errorf("the confirmation lacks %q:\n%s", want, out)
			}
		}
		d.keys(cancel)
		if d.m.dialog != nil || d.m.write != nil {
			t.Fatalf("%s must cancel", cancel)
		}
		for p, b := range disk {
			if got, err := os.ReadFile(p); err != nil || string(got) != b {
				t.Errorf("%s: %s changed after cancelling", cancel, p)
			}
		}
	}
	if es, _ := txn.List(cfg.Workspace.State.Journal); len(es) != 0 {
		t.Errorf("cancelled writes left %d journal entries", len(es))
	}
}

// y writes: the file becomes the proposal's After, the summary says
// applied, the journal has the entry, and the proposal is gone once the
// directory is read again.
func TestWriteAppliesAndRefreshes(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	c := it.p.Changes[0]
	d.keys("a", "w", "y")
	if got := readFile(t, fileOf(it, c.Path)); got != c.After {
		t.Errorf("the file must hold the proposal's After:\n%s", got)
	}
	if d.m.write != nil || d.m.dialog == nil || d.m.dialog.kind != dlgResult {
		t.Fatal("the write must end with a summary")
	}
	out := d.screen()
	if !strings.Contains(out, "Written: 1 applied · 0 conflict · 0 failed") || !strings.Contains(out, "✓ applied   "+sunsetTitle) {
		t.Errorf("the summary must say applied:\n%s", out)
	}
	es, err := txn.List(cfg.Workspace.State.Journal)
	if err != nil || len(es) != 1 || es[0].ProposalID != it.p.ID || es[0].State != txn.JournalCommitted {
		t.Fatalf("the journal must hold one committed entry for %s: %+v %v", it.p.ID, es, err)
	}
	d.keys("esc") // closes the summary
	for _, x := range d.m.proposals.items {
		if x.title == sunsetTitle {
			t.Error("the applied proposal must be gone after the reload")
		}
	}
	if !strings.Contains(d.screen(), "last write: 1 applied") {
		t.Errorf("the status line keeps the last write's counts:\n%s", d.screen())
	}
}

// A file an agent changed after the proposals were made: the proposal is
// a conflict naming the file, and the file keeps the agent's bytes.
func TestWriteConflictKeepsTheAgentsBytes(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(loadTestTitle)
	p := fileOf(it, it.p.Changes[0].Path)
	agent := readFile(t, p) + "\nAdded by the agent.\n"
	if err := os.WriteFile(p, []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	d.keys("a", "w", "y")
	out := d.screen()
	if !strings.Contains(out, "0 applied · 1 conflict") || !strings.Contains(out, "! conflict  "+loadTestTitle) ||
		!strings.Contains(out, "project_load_test.md: changed since the proposal read it") {
		t.Errorf("the summary must name the conflict and the file:\n%s", out)
	}
	if got := readFile(t, p); got != agent {
		t.Error("the agent's bytes must stay")
	}
}

// The journal view lists the write; u and y undo it byte for byte; an
// entry whose file changed since is refused with the file named.
func TestJournalUndo(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	sunset := d.selectProposal(sunsetTitle)
	load := d.selectProposal(loadTestTitle)
	sunsetPath, loadPath := fileOf(sunset, sunset.p.Changes[0].Path), fileOf(load, load.p.Changes[0].Path)
	orig := readFile(t, sunsetPath)
	d.keys("a")
	d.selectProposal(sunsetTitle)
	d.keys("a", "w", "y", "esc")
	d.keys("L")
	if d.m.view != viewJournal {
		t.Fatal("L must open the journal")
	}
	out := d.screen()
	for _, want := range []string{"Journal (2)", "committed", sunsetTitle, "-home-dev-acme-api/memory"} {
		if !strings.Contains(out, want) {
			t.Errorf("the journal lacks %q:\n%s", want, out)
		}
	}
	// Select the sunset entry: beside it, what undoing it would do, as
	// a diff (the year taken out again), before anything is asked.
	for d.m.journal.selected().ProposalID != sunset.p.ID {
		d.keys("j")
	}
	out = d.screen()
	for _, want := range []string{"add-year · " + sunset.p.ID + " · committed", "Undo would put back what this entry changed",
		"-The v1 invoice endpoints are switched off on May 26, 2026.", "+The v1 invoice endpoints are switched off on May 26. Until"} {
		if !strings.Contains(out, want) {
			t.Errorf("the selected entry's undo diff lacks %q:\n%s", want, out)
		}
	}
	d.keys("u")
	if d.m.dialog == nil || !strings.Contains(d.screen(), "restore  project_v1_sunset.md") {
		t.Fatalf("u must ask first:\n%s", d.screen())
	}
	d.keys("n")
	if readFile(t, sunsetPath) == orig {
		t.Fatal("n must not undo")
	}
	d.keys("u", "y")
	if got := readFile(t, sunsetPath); got != orig {
		t.Errorf("undo must restore the file byte for byte")
	}
	if e := d.m.journal.entries; len(e) != 3 || !strings.Contains(d.screen(), "undone") {
		t.Errorf("the journal must show the undo (3 entries, one undone):\n%s", d.screen())
	}
	// An agent changes the other file, shown already: its preview says
	// the undo will be refused, and it is.
	for d.m.journal.selected().ProposalID != load.p.ID {
		d.keys("j")
	}
	if out := d.screen(); strings.Contains(out, "Changed since it was written") {
		t.Fatalf("nothing changed yet:\n%s", out)
	}
	if err := os.WriteFile(loadPath, []byte(readFile(t, loadPath)+"agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.run(d.m.reloadPath(filepath.Dir(loadPath))) // what the watcher does
	if out := d.screen(); !strings.Contains(out, "Changed since it was written, so undo refuses the whole entry: project_load_test.md") {
		t.Errorf("the preview must say the undo will be refused, and why:\n%s", out)
	}
	d.keys("u", "y")
	if d.m.err == nil || !strings.Contains(d.m.err.Error(), "undo refused") || !strings.Contains(d.m.err.Error(), "project_load_test.md") {
		t.Errorf("the undo must be refused, naming the file: %v", d.m.err)
	}
	if !strings.Contains(d.screen(), "undo refused") {
		t.Errorf("the refusal must show:\n%s", d.screen())
	}
}

// e writes the change's result to a temporary file, and what the editor
// leaves there replaces it, checked: a valid edit is written as edited,
// an invalid one is refused.
func TestEditProposedResult(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Editor = "true"
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	c := it.p.Changes[0]
	d.keys("e")
	pe := d.m.proposals.editing
	if pe == nil || readFile(t, pe.tmp) != c.After || strings.HasPrefix(pe.tmp, it.p.MemoryDir) {
		t.Fatal("e must write the proposed result to a temp file outside the memory dir")
	}
	edited := strings.Replace(c.After, "May 26, 2026.", "May 26, 2026 (confirmed).", 1)
	os.WriteFile(pe.tmp, []byte(edited), 0o600)
	d.send(proposalEditedMsg{edit: *pe})
	dec := d.m.proposals.dec[it.p.ID]
	if dec.final == nil || dec.final.Changes[0].After != edited || d.m.err != nil {
		t.Fatalf("the edit must be what w writes: %v", d.m.err)
	}
	if _, err := os.Stat(pe.tmp); err == nil {
		t.Error("the temp file must be removed")
	}
	if r := d.rowOf(sunsetTitle); r.badge != "✓" || !strings.Contains(r.right, "edited") {
		t.Errorf("an edited proposal is accepted and marked edited: %+v", r)
	}
	if !strings.Contains(d.screen(), "(confirmed)") {
		t.Errorf("the diff must show the edit:\n%s", d.screen())
	}
	// A broken frontmatter is refused.
	d.keys("e")
	pe = d.m.proposals.editing
	os.WriteFile(pe.tmp, []byte("---\nname: sunset\ndescription: the frontmatter never closes\n"), 0o600)
	d.send(proposalEditedMsg{edit: *pe})
	if d.m.err == nil || !strings.Contains(d.m.err.Error(), "not valid") || dec.final != nil {
		t.Errorf("an invalid edit must be refused: %v", d.m.err)
	}
	if r := d.rowOf(sunsetTitle); !strings.Contains(r.right, "invalid") {
		t.Errorf("the row must say invalid: %+v", r)
	}
}

// Under --readonly nothing decides, edits or writes.
func TestReadOnlyWritesNothing(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.ReadOnly = true
	cfg.Editor = "true"
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	before := readFile(t, fileOf(it, it.p.Changes[0].Path))
	d.keys("space", "a", "enter", "space", "e", "w", "y")
	if d.m.dialog != nil || d.m.proposals.editing != nil || len(d.m.proposals.dec) != 0 {
		t.Error("--readonly must not decide, edit or ask to write")
	}
	if readFile(t, fileOf(it, it.p.Changes[0].Path)) != before {
		t.Error("--readonly wrote a file")
	}
	if !strings.Contains(d.screen(), "read-only") {
		t.Errorf("the screen must say read-only:\n%s", d.screen())
	}
	// A key that would write says why it does nothing.
	d.keys("esc", "w")
	if !strings.Contains(d.m.status, "--readonly: w (write accepted) is off") {
		t.Errorf("w under --readonly must say why it does nothing: %q", d.m.status)
	}
	d.keys("L", "u")
	if !strings.Contains(d.m.status, "--readonly") {
		t.Errorf("u under --readonly must say why it does nothing: %q", d.m.status)
	}
	d.keys("y")
	if d.m.dialog != nil {
		t.Error("--readonly must not offer undo")
	}
}

// On a system whose write path lacks a Linux protection (Windows, macOS),
// the write's question says so, whole, above a body that is cut to fit;
// on Linux it says nothing of the kind.
func TestWriteSaysMissingGuarantees(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 100, 24)
	d.openProposals()
	d.selectProposal(ciBotTitle)
	d.keys("a")
	d.keys("w")
	if out := d.screen(); d.m.dialog == nil || strings.Contains(out, "On this system") {
		t.Fatalf("on Linux the question must not name a missing guarantee (dialog %v):\n%s", d.m.dialog != nil, out)
	}
	d.keys("n")
	gap := "no file leases: memtui cannot ask whether an agent has a file open for writing, so it compares every replaced file again after all the changes instead"
	old := missingGuarantees
	missingGuarantees = func() []string { return []string{gap} }
	defer func() { missingGuarantees = old }()
	d.keys("w")
	out := d.screen()
	if d.m.dialog == nil || !strings.Contains(out, "On this system: no file leases") || !strings.Contains(out, "after all the changes") {
		t.Errorf("the question must say what this system lacks, whole:\n%s", out)
	}
	if !strings.Contains(out, "y write") {
		t.Errorf("the keys must stay in view under the note:\n%s", out)
	}
	d.keys("n")
}
