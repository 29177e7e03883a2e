package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// TestWriteAcceptedTogetherIsOnePlan: every proposal of the demo's
// acme-api accepted and written at once applies, though the merge reads a
// memory a frontmatter fix writes first and the reindex reads what the
// others wrote: each is rebuilt on memtui's own earlier writes, not
// refused as if an agent had changed the files.
func TestWriteAcceptedTogetherIsOnePlan(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	var mine []*propItem
	kinds := map[model.ProposalKind]bool{}
	for _, it := range d.m.proposals.items {
		if strings.HasSuffix(it.p.MemoryDir, "-home-dev-acme-api/memory") {
			mine = append(mine, it)
			kinds[it.p.Kind] = true
		}
	}
	if !kinds[model.KindMerge] || !kinds[model.KindFixFrontmatter] || !kinds[model.KindReindex] {
		t.Fatalf("acme-api must have a merge, a frontmatter fix and a reindex: %v", kinds)
	}
	for _, it := range mine {
		d.selectProposal(it.title)
		d.keys("a")
	}
	d.keys("w", "y")
	if s := d.screen(); strings.Contains(s, "the answer is No unless you press y") || !strings.Contains(s, "any key closes") {
		t.Errorf("a summary asks nothing: its footer must not say the answer is No:\n%s", s)
	}
	want := fmt.Sprintf("%d applied · 0 conflict · 0 failed", len(mine))
	if got := d.m.proposals.lastWrite; got != want {
		t.Errorf("the write's summary is %q, want %q:\n%s", got, want, d.screen())
	}
}

// TestQuitAsksWithAcceptedWorkUnwritten: q with an accepted proposal not
// written asks first, names it, and any key but y stays; y quits. With
// nothing accepted, q quits at once.
func TestQuitAsksWithAcceptedWorkUnwritten(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	_, cmd := d.m.Update(keyMsg("q"))
	if !quits(cmd) {
		t.Fatal("with nothing accepted, q must quit at once")
	}
	d = newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	d.keys("a")
	_, cmd = d.m.Update(keyMsg("q"))
	if quits(cmd) {
		t.Fatal("q quit with an accepted proposal not written")
	}
	d.run(cmd)
	if s := d.screen(); d.m.dialog == nil || !strings.Contains(s, "Quit with 1 accepted proposal not written?") || !strings.Contains(s, it.title) {
		t.Fatalf("q must ask, naming the proposal:\n%s", s)
	}
	d.keys("n")
	if d.m.dialog != nil || !strings.Contains(d.m.status, "Still here") || d.m.proposals.dec[it.p.ID].state() != stAccepted {
		t.Errorf("n must stay with the decision kept: %q", d.m.status)
	}
	_, cmd = d.m.Update(keyMsg("q"))
	d.run(cmd)
	_, cmd = d.m.Update(keyMsg("y"))
	if !quits(cmd) {
		t.Error("y must quit")
	}
}

// TestProposalsFilterAndDecideShown: / narrows the proposals by words
// (kind, title, project), the header says "N of M", A accepts exactly the
// proposals shown, and esc clears the filter with the selection kept.
func TestProposalsFilterAndDecideShown(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	all := len(v.items)
	d.keys("/")
	d.typeText("fix acme")
	d.keys("enter")
	shown := v.shownItems()
	if len(shown) == 0 || len(shown) >= all {
		t.Fatalf("the filter shows %d of %d", len(shown), all)
	}
	for _, it := range shown {
		if it.p.Kind != model.KindFixFrontmatter || !strings.Contains(it.project, "acme") {
			t.Errorf("%s (%s, %s) does not match \"fix acme\"", it.p.ID, it.p.Kind, it.project)
		}
	}
	if s := d.screen(); !strings.Contains(s, fmt.Sprintf("%d of %d proposals", len(shown), all)) {
		t.Errorf("the header must say how many show:\n%s", s)
	}
	sel := v.selected()
	d.keys("A")
	acc, _, _, _ := v.counts()
	if acc != len(shown) {
		t.Errorf("A accepted %d proposals, want the %d shown", acc, len(shown))
	}
	for _, it := range shown {
		if dec := v.dec[it.p.ID]; dec == nil || dec.state() != stAccepted {
			t.Errorf("%s shown but not accepted", it.p.ID)
		}
	}
	d.keys("/")
	d.typeText("zzz-no-such-proposal")
	if s := d.screen(); !strings.Contains(s, "No proposal matches") {
		t.Errorf("a filter that matches nothing must say so:\n%s", s)
	}
	d.m.input.SetValue("fix acme")
	d.m.setFilter("fix acme")
	d.keys("enter")
	d.keys("esc")
	if v.filter != "" || len(v.shownItems()) != all || v.selected() != sel {
		t.Errorf("esc must clear the filter and keep the selection (filter %q, %d shown)", v.filter, len(v.shownItems()))
	}
	d.keys("X")
	if _, _, rej, _ := v.counts(); rej != all {
		t.Errorf("X with no filter rejects all %d, rejected %d", all, rej)
	}
}

// TestJournalAndChangesFilter: / filters the journal and the changes
// lists by words too, the header says how many of how many, and esc
// clears the filter before it leaves the view.
func TestJournalAndChangesFilter(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir() // review baselines: changes since the first look
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	var written []*propItem
	for _, it := range d.m.proposals.items {
		if strings.HasSuffix(it.p.MemoryDir, "-home-dev-acme-api/memory") && (it.p.Kind == model.KindAddYear || it.p.Kind == model.KindAbsolutizeDates) {
			d.selectProposal(it.title)
			d.keys("a")
			written = append(written, it)
		}
	}
	if len(written) < 2 {
		t.Fatalf("want two acme-api proposals to write, have %d", len(written))
	}
	d.keys("w", "y", "esc")

	d.keys("L")
	j := d.m.journal
	if len(j.entries) < 2 {
		t.Fatalf("the journal lists %d entries", len(j.entries))
	}
	d.keys("/")
	d.typeText("add-year")
	d.keys("enter")
	if j.shown == 0 || j.shown >= len(j.entries) || !strings.Contains(j.selected().Kind, "add-year") {
		t.Fatalf("the journal filter shows %d of %d (selected %+v)", j.shown, len(j.entries), j.selected())
	}
	if s := d.screen(); !strings.Contains(s, fmt.Sprintf("Journal (%d of %d matching", j.shown, len(j.entries))) {
		t.Errorf("the journal's header must count what shows:\n%s", s)
	}
	d.keys("esc")
	if j.filter != "" || j.shown != len(j.entries) || d.m.view != viewJournal {
		t.Errorf("esc must clear the filter and stay (filter %q, view %d)", j.filter, d.m.view)
	}

	// An agent changes the two files memtui wrote: changes to review.
	for _, it := range written {
		p := fileOf(it, it.p.Changes[0].Path)
		if err := os.WriteFile(p, []byte(readFile(t, p)+"\nAn agent's later note.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d.keys("r", "C")
	c := d.m.changes
	if c.total < 2 {
		t.Fatalf("the changes view lists %d changes after an agent changed two files", c.total)
	}
	path := written[0].p.Changes[0].Path
	d.keys("/")
	d.typeText(path)
	d.keys("enter")
	if len(c.items) == 0 || len(c.items) >= c.total {
		t.Fatalf("the changes filter %q shows %d of %d", path, len(c.items), c.total)
	}
	for _, it := range c.items {
		if !strings.Contains(it.delta.Path, path) {
			t.Errorf("%s shown for %q", it.delta.Path, path)
		}
	}
	if s := d.screen(); !strings.Contains(s, fmt.Sprintf("%d of %d changes matching", len(c.items), c.total)) || !strings.Contains(s, fmt.Sprintf("Changes %d", c.total)) {
		t.Errorf("the header counts what shows, the tab all of them:\n%s", s)
	}
	d.keys("esc")
	if c.filter != "" || len(c.items) != c.total || d.m.view != viewChanges {
		t.Errorf("esc must clear the changes filter and stay")
	}
}

// TestDecisionsSurviveARestart: what a person accepted and rejected is
// there again when memtui starts anew on the same tree and state; under
// the same state a dismissed proposal stays rejected.
func TestDecisionsSurviveARestart(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir()
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	items := d.m.proposals.items
	if len(items) < 3 {
		t.Fatalf("want three proposals, have %d", len(items))
	}
	acc, rej := items[0], items[2]
	d.selectProposal(acc.title)
	d.keys("a")
	d.selectProposal(rej.title)
	d.keys("x")

	d2 := newDriver(t, cfg, 160, 48)
	d2.openProposals()
	v := d2.m.proposals
	if dec := v.dec[acc.p.ID]; dec == nil || dec.state() != stAccepted {
		t.Errorf("%s was accepted before the restart: %+v", acc.p.ID, dec)
	}
	if dec := v.dec[rej.p.ID]; dec == nil || dec.state() != stRejected {
		t.Errorf("%s was rejected before the restart: %+v", rej.p.ID, dec)
	}
	if a, _, r, _ := v.counts(); a != 1 || r != 1 {
		t.Errorf("after the restart %d accepted and %d rejected, want 1 and 1", a, r)
	}
	// Un-deciding is recorded too.
	d2.selectProposal(acc.title)
	d2.keys("space")
	d3 := newDriver(t, cfg, 160, 48)
	d3.openProposals()
	if dec := d3.m.proposals.dec[acc.p.ID]; dec != nil && dec.state() != stUndecided {
		t.Errorf("%s was un-accepted before the second restart: %v", acc.p.ID, dec.state())
	}
}

// TestOwnWritesAreNoChangeToReview: a proposal written from the review is
// recorded in the review baseline, so the changes view does not list
// memtui's own reviewed write as a change to review again.
func TestOwnWritesAreNoChangeToReview(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir()
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	d.keys("a", "w", "y", "esc", "C")
	if got := readFile(t, fileOf(it, it.p.Changes[0].Path)); got != it.p.Changes[0].After {
		t.Fatalf("not written:\n%s", got)
	}
	for _, c := range d.m.changes.items {
		if c.delta.Path == it.p.Changes[0].Path {
			t.Errorf("memtui's own reviewed write of %s is listed as a change: %+v", c.delta.Path, c.delta)
		}
	}
	if d.m.changes.total != 0 {
		t.Errorf("nothing but memtui's reviewed write changed, yet %d changes show:\n%s", d.m.changes.total, d.screen())
	}
}

// TestPartKeptProposalCarriesOverAConflict: a proposal kept in part that
// conflicts (an agent appended to its file) is made again from the file
// as it is, with the same hunk kept, and the next w writes it: before, it
// kept its old bases and could never be written.
func TestPartKeptProposalCarriesOverAConflict(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	it := d.selectProposal(oncallTitle)
	c := it.p.Changes[0]
	path := fileOf(it, c.Path)
	d.keys("enter", "space", "esc") // keep the first hunk of two
	if dec := v.dec[it.p.ID]; dec == nil || dec.state() != stPartly {
		t.Fatalf("want the proposal kept in part: %+v", dec)
	}
	agent := readFile(t, path) + "\nAdded by the agent, at the end.\n"
	if err := os.WriteFile(path, []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	d.keys("w", "y")
	if !strings.Contains(v.lastWrite, "1 conflict") {
		t.Fatalf("the first write must conflict with the agent's change: %q", v.lastWrite)
	}
	d.keys("esc")
	// Made again over the agent's bytes: the same title, a new ID, the
	// first hunk still the only one kept.
	var again *propItem
	for _, x := range v.items {
		if x.title == oncallTitle {
			again = x
		}
	}
	if again == nil || again.p.ID == it.p.ID {
		t.Fatalf("the proposal must be made again with another ID: %+v", again)
	}
	dec := v.dec[again.p.ID]
	if dec == nil || dec.state() != stPartly || len(dec.sel[0]) != 2 || !dec.sel[0][0] || dec.sel[0][1] {
		t.Fatalf("the hunk choice must carry over: %+v", dec)
	}
	d.keys("w", "y")
	if !strings.Contains(v.lastWrite, "1 applied · 0 conflict") {
		t.Fatalf("the carried-over proposal must write: %q", v.lastWrite)
	}
	got := readFile(t, path)
	if !strings.Contains(got, "Added by the agent, at the end.") || got == agent {
		t.Errorf("the write must keep the agent's line and change the file:\n%s", got)
	}
}

// TestDeleteAMemoryByHand: D on a memory asks, then deletes it with its
// index entry, through the journal; undo brings both back byte for byte.
func TestDeleteAMemoryByHand(t *testing.T) {
	cfg, dir := reviewConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-blog", "memory")
	index := readFile(t, filepath.Join(mem, "MEMORY.md"))
	orig := readFile(t, filepath.Join(mem, "hugo-build.md"))
	if !strings.Contains(index, "[[hugo-build]]") {
		t.Fatalf("the demo's blog index must list hugo-build (a wikilink):\n%s", index)
	}
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("blog")
	d.m.setFocus(focusMemories)
	d.selectMemory("hugo-build")
	d.keys("D")
	if s := d.screen(); d.m.dialog == nil || !strings.Contains(s, "Delete hugo-build.md?") || !strings.Contains(s, "delete  hugo-build.md") || !strings.Contains(s, "change  MEMORY.md") {
		t.Fatalf("D must ask, naming the file and the index:\n%s", s)
	}
	d.keys("y")
	if _, err := os.Stat(filepath.Join(mem, "hugo-build.md")); !os.IsNotExist(err) {
		t.Fatalf("the memory must be gone: %v", err)
	}
	if strings.Contains(readFile(t, filepath.Join(mem, "MEMORY.md")), "[[hugo-build]]") {
		t.Error("its index entry (a wikilink) must go with it")
	}
	if !strings.Contains(d.screen(), "The journal (L) can undo it.") {
		t.Errorf("the summary must say how to undo:\n%s", d.screen())
	}
	d.keys("esc", "L")
	if e := d.m.journal.selected(); e == nil || !strings.Contains(e.Title, "Delete hugo-build.md") {
		t.Fatalf("the journal must list the delete: %+v", e)
	}
	d.keys("u", "y")
	if readFile(t, filepath.Join(mem, "hugo-build.md")) != orig || readFile(t, filepath.Join(mem, "MEMORY.md")) != index {
		t.Error("undo must bring the memory and its index entry back byte for byte")
	}
}

// TestRevertAnAgentsChange: R in the changes view puts a file an agent
// changed back as it was reviewed, journalled; it is then no change.
func TestRevertAnAgentsChange(t *testing.T) {
	cfg, dir := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir()
	mem := filepath.Join(dir, "projects", "-home-dev-blog", "memory")
	path := filepath.Join(mem, "writing-voice.md")
	orig := readFile(t, path)
	d := newDriver(t, cfg, 160, 48) // the first look records the baseline
	if err := os.WriteFile(path, []byte(orig+"\nAn agent's note that should not be here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.keys("r", "C")
	var found bool
	for i, it := range d.m.changes.items {
		if it.delta.Path == "writing-voice.md" {
			d.m.changes.list.selectRef(i)
			d.m.changes.follow()
			found = true
		}
	}
	if !found {
		t.Fatalf("the agent's change must be listed:\n%s", d.screen())
	}
	d.keys("R")
	if s := d.screen(); d.m.dialog == nil || !strings.Contains(s, "Revert writing-voice.md?") {
		t.Fatalf("R must ask:\n%s", s)
	}
	d.keys("y")
	if got := readFile(t, path); got != orig {
		t.Fatalf("the file must be back as reviewed:\n%s", got)
	}
	d.keys("esc")
	for _, it := range d.m.changes.items {
		if it.delta.Path == "writing-voice.md" {
			t.Error("the reverted file is still listed as changed")
		}
	}
}

// TestRetypeAMemoryByHand: T asks which type; a key that names one
// writes it through the journal (undo brings the old type back), any
// other key cancels.
func TestRetypeAMemoryByHand(t *testing.T) {
	cfg, dir := reviewConfig(t)
	path := filepath.Join(dir, "projects", "-home-dev-blog", "memory", "hugo-build.md")
	orig := readFile(t, path)
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("blog")
	d.m.setFocus(focusMemories)
	d.selectMemory("hugo-build")
	d.keys("T")
	if s := d.screen(); d.m.dialog == nil || !strings.Contains(s, "Change the type of hugo-build.md?") || !strings.Contains(s, "u user · f feedback · p project · r reference") {
		t.Fatalf("T must ask for the type:\n%s", s)
	}
	d.keys("z")
	if readFile(t, path) != orig || d.m.dialog != nil {
		t.Fatal("a key that names no type must cancel")
	}
	d.keys("T", "u")
	got := readFile(t, path)
	if got == orig || !strings.Contains(claudeTypeOf(got), "user") {
		t.Fatalf("u must make it a user memory:\n%s", got)
	}
	d.keys("esc", "L", "u", "y")
	if readFile(t, path) != orig {
		t.Error("undo must bring the old type back byte for byte")
	}
}

func claudeTypeOf(content string) string { return claude.ParseDoc([]byte(content)).Claude().Type }

// TestRenameAMemoryByHand: N types a new file name for the memory; enter
// asks, y moves it with its bytes (links following), and undo moves it
// back; esc while typing cancels.
func TestRenameAMemoryByHand(t *testing.T) {
	cfg, dir := reviewConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-blog", "memory")
	orig := readFile(t, filepath.Join(mem, "hugo-build.md"))
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("blog")
	d.m.setFocus(focusMemories)
	d.selectMemory("hugo-build")
	d.keys("N")
	if d.m.mode != modeFilter || d.m.renaming == nil || !strings.Contains(d.screen(), "rename hugo-build.md to:") {
		t.Fatalf("N must open the name's input:\n%s", d.screen())
	}
	d.keys("esc")
	if d.m.renaming != nil || d.m.mode == modeFilter {
		t.Fatal("esc must cancel the rename")
	}
	d.keys("N")
	d.m.input.SetValue("site-build")
	d.keys("enter")
	if s := d.screen(); d.m.dialog == nil || !strings.Contains(s, "Rename hugo-build.md?") || !strings.Contains(s, "site-build.md") {
		t.Fatalf("enter must ask:\n%s", s)
	}
	d.keys("y")
	if _, err := os.Stat(filepath.Join(mem, "hugo-build.md")); !os.IsNotExist(err) {
		t.Fatalf("the old name must be gone: %v", err)
	}
	if got := readFile(t, filepath.Join(mem, "site-build.md")); got != orig {
		t.Fatalf("the memory must move byte for byte:\n%s", got)
	}
	if d.m.input.Prompt != filterPrompt {
		t.Errorf("the input's prompt must be the filter's again: %q", d.m.input.Prompt)
	}
	d.keys("esc", "L", "u", "y")
	if readFile(t, filepath.Join(mem, "hugo-build.md")) != orig {
		t.Error("undo must move it back")
	}
}

// TestDecisionSavesAreOrdered: decisions changed while a save of the same
// dir is in flight wait for it, and only the newest is written after it,
// so an older save can never land last.
func TestDecisionSavesAreOrdered(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir()
	d := newDriver(t, cfg, 160, 48)
	v := d.m.proposals
	r := d.m.run()
	dir := "/m"
	first := v.save(r, dir, map[string]model.Decision{"a": {Accepted: true}})
	if first == nil || v.save(r, dir, map[string]model.Decision{"a": {}}) != nil || v.save(r, dir, map[string]model.Decision{"b": {}}) != nil {
		t.Fatal("a save in flight must hold the next ones back")
	}
	msg := first().(decisionsSavedMsg)
	next := v.onSaved(msg, r)
	if next == nil {
		t.Fatal("the held-back save must follow the first")
	}
	next()
	got, err := cfg.Workspace.Decisions(dir)
	if _, ok := got["b"]; err != nil || !ok || len(got) != 1 {
		t.Errorf("the newest decisions must be on disk last: %v %v", got, err)
	}
	if v.onSaved(decisionsSavedMsg{dir: dir}, r) != nil {
		t.Error("nothing waits after the last save")
	}
}

// TestCarryNamesTheHunksLost: a proposal made again whose change now has
// other blocks cannot keep the hunks chosen in it: they are dropped, and
// the status line names the proposal and the file until the next
// decision. A change with the same blocks keeps its choice.
func TestCarryNamesTheHunksLost(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	it := d.selectProposal(oncallTitle) // one change, two blocks
	path := it.p.Changes[0].Path
	dec := &decision{sel: [][]bool{{true, false, false}}} // three blocks when it was chosen
	note := v.carry(it, dec, oncallTitle+", as it was")
	if note != "decide again: the hunks kept in "+path+" changed (“"+oncallTitle+", as it was”)" || dec.state() != stUndecided {
		t.Errorf("a change with other blocks: note %q, state %v", note, dec.state())
	}
	same := &decision{sel: [][]bool{{true, false}}}
	if n := v.carry(it, same, ""); n != "" || !same.sel[0][0] || same.sel[0][1] || same.state() != stPartly {
		t.Errorf("a change with the same blocks keeps its choice: note %q, %v", n, same.sel)
	}
	v.lostNote = note
	if !strings.Contains(d.screen(), "decide again: the hunks kept in "+path+" changed") {
		t.Fatalf("the status line must say which hunks were lost:\n%s", d.screen())
	}
	d.selectProposal(sunsetTitle)
	d.keys("a")
	if strings.Contains(d.screen(), "decide again") {
		t.Errorf("the next decision clears the note:\n%s", d.screen())
	}
}

// TestOrphanedDecisionGoesWithItsProposal: a decision whose proposal is
// proposed no more (its file fixed by someone else) is dropped once the
// directory's proposals are in, though the directory has none left of
// that kind: it must not wait for a later proposal over the same file.
func TestOrphanedDecisionGoesWithItsProposal(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	// dotfiles' one proposal: the MEMORY.md it lacks.
	var it *propItem
	for _, x := range v.items {
		if strings.HasPrefix(x.title, "Create MEMORY.md") {
			it = d.selectProposal(x.title)
		}
	}
	if it == nil {
		t.Fatal("no proposal creates dotfiles' MEMORY.md")
	}
	d.keys("a")
	path := fileOf(it, it.p.Changes[0].Path)
	if err := os.WriteFile(path, []byte(it.p.Changes[0].After), 0o644); err != nil {
		t.Fatal(err)
	}
	d.run(d.m.reloadPath(filepath.Dir(path)))
	for _, x := range v.items {
		if x.p.MemoryDir == it.p.MemoryDir {
			t.Fatalf("the directory still has a proposal (%s): the test needs it to have none", x.title)
		}
	}
	if len(v.orphans) != 0 {
		t.Errorf("the decision of a proposal made no more is kept, waiting: %+v", v.orphans)
	}
}
