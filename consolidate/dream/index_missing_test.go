package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// TestReindexForMissingIndexSaysClaudeWritesOne: the reindex proposal for a
// missing MEMORY.md says what consolidate's index-missing finding says
// (TestIndexMissingSaysClaudeWritesOne there): Claude Code writes one itself
// at the next session start.
func TestReindexForMissingIndexSaysClaudeWritesOne(t *testing.T) {
	// The proposal that writes an index now says why it still helps.
	p := rxOne(t, rxTestDir(ixNoIndex, testmodel.IndexTopics("a.md", "b.md")))
	for _, want := range []string{"Claude Code 2.1.332 would write one itself at the next session start", "up to 140 lines", "written now instead"} {
		if !strings.Contains(p.Rationale, want) {
			t.Errorf("rationale %q lacks %q", p.Rationale, want)
		}
	}
	if strings.Contains(p.Rationale, "loads none") {
		t.Errorf("rationale still says nothing is loaded: %q", p.Rationale)
	}
}

// TestNewIndexIsTheReindexProposals: the starting index the index editor
// offers is the one the reindex proposal would create, byte for byte; it
// is offered when index-missing is silenced too (a person asked for it),
// and refused where MEMORY.md exists.
func TestNewIndexIsTheReindexProposals(t *testing.T) {
	d := rxTestDir(ixNoIndex, testmodel.IndexTopics("a.md", "b.md"))
	want := rxOne(t, d)
	opts := Options{Options: consolidate.Options{Now: ixTestNow}}
	got, err := NewIndex(&model.Project{Slug: "p"}, d, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Changes) != 1 || got.Changes[0].Op != model.OpCreate || got.Changes[0].Path != "MEMORY.md" || got.Changes[0].After != want.Changes[0].After {
		t.Fatalf("changes %+v, want the reindex proposal's %q", got.Changes, want.Changes[0].After)
	}
	opts.Ignore = []consolidate.IgnoreRule{{Project: "p", Rules: []string{consolidate.RuleIndexMissing}}}
	if ps := ProposeDir(&model.Project{Slug: "p"}, d, Options{Options: opts.Options, Kinds: []model.ProposalKind{model.KindReindex}}); len(ps) != 0 {
		t.Fatalf("silenced, dream proposes no index: %+v", ps)
	}
	if silenced, err := NewIndex(&model.Project{Slug: "p"}, d, opts); err != nil || silenced.Changes[0].After != want.Changes[0].After {
		t.Errorf("silenced, the editor's starting index must still be offered: %v", err)
	}
	if _, err := NewIndex(&model.Project{Slug: "p"}, rxTestDir("- [A](a.md)\n", testmodel.IndexTopics("a.md")), opts); err == nil {
		t.Error("a directory with MEMORY.md gets no new one")
	}
}
