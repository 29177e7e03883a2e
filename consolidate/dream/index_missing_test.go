package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
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
