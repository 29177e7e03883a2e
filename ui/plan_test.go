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
