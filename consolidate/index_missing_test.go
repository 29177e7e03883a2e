package consolidate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
)

// TestIndexMissingSaysClaudeWritesOne: a missing MEMORY.md is written by
// Claude Code itself at the next session start (facts §3.4, changed after
// 2.1.261), so index-missing says what it will write (newest first, 140
// lines or 17,500 characters, one bare line per file, names with brackets,
// parentheses or line breaks left out), not that no memory is loaded (the
// reindex proposal for a missing index says the same: see
// dream.TestReindexForMissingIndexSaysClaudeWritesOne).
func TestIndexMissingSaysClaudeWritesOne(t *testing.T) {
	got := ixRun(t, RuleIndexMissing, ixNoIndex, testmodel.IndexTopics("a.md", "b.md"))
	ixExpect(t, got, []int{0},
		"2 topic files but no MEMORY.md",
		"at the next session start Claude Code 2.1.332 writes one itself and loads it",
		"2.1.261 and older did not, and recall mode never does",
		"newest first",
		"- [name](path) — its description cut to fit 150 characters",
		"up to 140 lines or 17,500 characters",
		"Nothing to do if that index suits you",
		"memtui dream proposes one")
	if msg := got[0].Message; strings.Contains(msg, "loads none") || strings.Contains(msg, "140 newest") || strings.Contains(msg, "no line") {
		t.Errorf("message: %q", msg)
	}

	// Past 140 files only the newest 140 can get a line; a name Claude
	// Code cannot link gets none.
	var paths []string
	for i := range 141 {
		paths = append(paths, fmt.Sprintf("note_%03d.md", i))
	}
	paths = append(paths, "draft (old).md", "[wip].md", "logs/2026/07/2026-07-30.md")
	ixExpect(t, ixRun(t, RuleIndexMissing, ixNoIndex, testmodel.IndexTopics(paths...)), []int{0},
		"143 topic files but no MEMORY.md",
		"so at most the 140 newest of the 143 get a line",
		"; 2 files get no line, as their paths hold brackets, parentheses or a line break")
	ixExpect(t, ixRun(t, RuleIndexMissing, ixNoIndex, testmodel.IndexTopics("a.md", "b(1).md")), []int{0},
		"; 1 file gets no line, as its path holds brackets")
}
