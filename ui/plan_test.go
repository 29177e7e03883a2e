package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
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
	d.keys("esc")
	if v.filter != "" || len(v.shownItems()) != all || v.selected() != sel {
		t.Errorf("esc must clear the filter and keep the selection (filter %q, %d shown)", v.filter, len(v.shownItems()))
	}
	d.keys("X")
	if _, _, rej, _ := v.counts(); rej != all {
		t.Errorf("X with no filter rejects all %d, rejected %d", all, rej)
	}
}
