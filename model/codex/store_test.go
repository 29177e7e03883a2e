package codex

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestParseRolloutSummary: the header Codex writes, read; a summary
// missing part of it says which.
func TestParseRolloutSummary(t *testing.T) {
	r := ParseRolloutSummary([]byte("thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\r\nupdated_at: 2026-11-20T09:40:00+00:00\r\nrollout_path: /r/1.jsonl\r\ncwd: /work/shop\r\ngit_branch: main\r\n\r\n# Added retries to the PSP client\r\n\r\nRollout context: the checkout.\r\n"))
	if r.ThreadID != "0194f5a6-89ab-7cde-8123-456789abcdef" || r.Cwd != "/work/shop" || r.GitBranch != "main" || r.Title != "Added retries to the PSP client" || len(r.Missing) != 0 {
		t.Errorf("%+v", r)
	}
	r = ParseRolloutSummary([]byte("thread_id: x\ncwd: /w\n\n# T\n"))
	if strings.Join(r.Missing, ",") != "rollout_path,updated_at" {
		t.Errorf("missing: %v", r.Missing)
	}
}

// TestCheckLinks: a cited summary not in the store is dangling, a
// summary nobody cites an orphan, a skill pointer with no SKILL.md
// missing; an imported resource file cited and present is fine.
func TestCheckLinks(t *testing.T) {
	h := ParseHandbook([]byte(goodHandbook))
	files := map[string]bool{
		"rollout_summaries/2026-11-20T09-30-15-jqmb-psp_retries.md":    true,
		"rollout_summaries/2026-11-19T08-00-00-zzzz.md":                true,
		"extensions/external_agent_import/resources/work-blog/hugo.md": true,
		"memory_summary.md": true,
		"MEMORY.md":         true,
	}
	l := CheckLinks(h, files)
	if len(l.Dangling) != 1 || l.Dangling[0].Path != "rollout_summaries/2026-11-21T10-00-00-abcd.md" || l.Dangling[0].Line == 0 {
		t.Errorf("dangling: %+v", l.Dangling)
	}
	if len(l.Orphans) != 1 || l.Orphans[0] != "rollout_summaries/2026-11-19T08-00-00-zzzz.md" {
		t.Errorf("orphans: %v", l.Orphans)
	}
	if len(l.MissingSkills) != 1 || l.MissingSkills[0].Path != "skills/psp-debugging/SKILL.md" {
		t.Errorf("skills: %+v", l.MissingSkills)
	}
	files["skills/psp-debugging/SKILL.md"] = true
	files["rollout_summaries/2026-11-21T10-00-00-abcd.md"] = true
	if l := CheckLinks(h, files); len(l.Dangling) != 0 || len(l.MissingSkills) != 0 {
		t.Errorf("all present: %+v", l)
	}
}

// TestKindOf: each file of the store by what Codex does with it.
func TestKindOf(t *testing.T) {
	for rel, want := range map[string]Kind{
		"memory_summary.md": KindSummary, "MEMORY.md": KindHandbook, "raw_memories.md": KindRaw,
		"phase2_workspace_diff.md": KindDiff, "rollout_summaries/2026-11-20T09-30-15-jqmb.md": KindRollout,
		"skills/psp/SKILL.md": KindSkill, "extensions/ad_hoc/notes/2026-11-20T09-30-15-x.md": KindNote,
		"extensions/ad_hoc/instructions.md": KindExtension, "notes.md": KindForeign, ".memtui-tmp/x": KindForeign,
	} {
		if got := KindOf(rel); got != want {
			t.Errorf("%s: %s, want %s", rel, got, want)
		}
	}
	if !KindRollout.Regenerated() || !KindRaw.Regenerated() || KindHandbook.Regenerated() || KindNote.Regenerated() {
		t.Error("regenerated kinds")
	}
	s := &Store{Files: []*model.File{{Path: DiffFile}}}
	if s.Busy() == "" || (&Store{}).Busy() != "" {
		t.Error("a workspace diff on disk makes the store busy")
	}
}
