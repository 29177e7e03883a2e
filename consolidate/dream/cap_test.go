package dream

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// Moved from consolidate/scan_test.go: the proposals for the recall cap
// and excluded files.

// TestNoProposalWritesThroughALink: a file reached through a link is read
// and checked, but no proposal changes it.
func TestNoProposalWritesThroughALink(t *testing.T) {
	d := testmodel.Dir(map[string]string{
		"a.md":      testmodel.Topic("a", "A", "user", "Ship it tomorrow.\n"),
		"linked.md": testmodel.Topic("l", "L", "user", "Ship it tomorrow.\n"),
	}, testmodel.Now.AddDate(0, 0, -3))
	d.Files[1].Link = "linked.md"
	ps := propose(t, d)
	if len(ps) == 0 {
		t.Fatal("no proposal at all: the test proves nothing")
	}
	for _, p := range ps {
		for _, c := range p.Changes {
			if c.Path == "linked.md" {
				t.Errorf("%s changes linked.md, reached through a link", p.ID)
			}
		}
	}
}

// TestCapPrunes: Dream proposes pruning the oldest never-used memories past
// the 200, as many as bring the folder back to 200, in one proposal.
func TestCapPrunes(t *testing.T) {
	base := testmodel.Now.AddDate(0, -3, 0)
	d := testmodel.CapDir(205, base)
	used := model.MemObservation{Path: d.Path + "/m001.md", Kind: model.ObsRead, Time: testmodel.Now}
	recall := model.MemObservation{Path: d.Path + "/m204.md", Kind: model.ObsRecall, Time: testmodel.Now}
	p := &model.Project{Slug: "p", ConfigDir: "/cfg", Log: testmodel.LogWith(used, recall)}
	ps := ProposeDir(p, d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindPrune}})
	if len(ps) != 1 {
		t.Fatalf("%d proposals: %+v", len(ps), ps)
	}
	var deleted []string
	ixChanged := false
	for _, c := range ps[0].Changes {
		switch {
		case c.Op == model.OpDelete:
			deleted = append(deleted, c.Path)
		case c.Path == "MEMORY.md":
			ixChanged = true
			for _, g := range deleted {
				if strings.Contains(c.After, "("+g+")") {
					t.Errorf("MEMORY.md still links %s", g)
				}
			}
		}
	}
	// m001 was read: m000, m002, m003, m004 and m005 go (five, the oldest
	// unused), and m001 comes back into the scan.
	if strings.Join(deleted, ",") != "m000.md,m002.md,m003.md,m004.md,m005.md" || !ixChanged {
		t.Errorf("deleted %v (index changed %v)", deleted, ixChanged)
	}
	if len(ps[0].Fixes) != 1 || ps[0].Fixes[0].Rule != consolidate.RuleRecallCap {
		t.Errorf("fixes %+v", ps[0].Fixes)
	}
	applied, err := Apply(filesOf(d), ps[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := len(applied) - 1; n != model.RecallScanCap {
		t.Errorf("%d memories left, want %d", n, model.RecallScanCap)
	}
	// No transcripts, only index loads, or memories all written since the
	// transcripts begin: nothing proposed.
	late := testmodel.LogWith(used)
	late.Oldest = base.Add(-time.Hour)
	for name, proj := range map[string]*model.Project{
		"new since":      {Slug: "p", ConfigDir: "/cfg", Log: late},
		"no transcripts": {Slug: "p", ConfigDir: "/cfg"},
		"index mode":     {Slug: "p", ConfigDir: "/cfg", Log: testmodel.LogWith(model.MemObservation{Path: d.Path + "/MEMORY.md", Kind: model.ObsIndexLoad, Time: testmodel.Now})},
	} {
		if ps := ProposeDir(proj, d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindPrune}}); len(ps) != 0 {
			t.Errorf("%s: %d proposals", name, len(ps))
		}
	}
}
