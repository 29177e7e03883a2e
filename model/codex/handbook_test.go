package codex

import (
	"strings"
	"testing"
)

// goodHandbook is a handbook in the template's strict format: two task
// groups, one imported from another agent.
const goodHandbook = `# Task Group: /work/shop checkout
scope: the checkout service's payment flow; not the storefront
applies_to: cwd=/work/shop; reuse_rule=safe across branches, check the PSP version

## Task 1: Add retries to the PSP client, merged
### rollout_summary_files
- rollout_summaries/2026-11-20T09-30-15-jqmb-psp_retries.md (cwd=/work/shop, rollout_path=/home/u/.codex/sessions/2026/11/20/rollout-1.jsonl, updated_at=2026-11-20T09:40:00+00:00, thread_id=0194f5a6-89ab-7cde-8123-456789abcdef, retried twice)
### keywords
- psp, retries, backoff

## Task 2: Fix the cart total rounding, partial
### rollout_summary_files
- rollout_summaries/2026-11-21T10-00-00-abcd.md (cwd=/work/shop, rollout_path=/r/2.jsonl, updated_at=2026-11-21T10:05:00+00:00)
### keywords
- rounding, cart

## User preferences
- when the user reviewed retries, the user asked: "cap at 3" -> never retry more than 3 times [Task 1]

## Reusable knowledge
- Related skill: skills/psp-debugging/SKILL.md
` + "```" + `
* not a bullet, inside a fence: **fine**
` + "```" + `

# Task Group: imported Claude memory for /work/blog
scope: the blog's build, imported from Claude Code
applies_to: cwd=/work/blog; reuse_rule=only in this repository

## Task 1: Imported build notes
### extension_resource_files
- extensions/external_agent_import/resources/work-blog/hugo.md (cwd=/work/blog, source=external_agent_import)
### keywords
- hugo, build
`

// TestParseHandbook: the template's handbook reads whole with no
// problem: its groups, scopes, applies_to parts, tasks, rollout bullets
// with their annotations, keywords, block sections and skill pointers.
func TestParseHandbook(t *testing.T) {
	h := ParseHandbook([]byte(goodHandbook))
	if len(h.Problems) != 0 {
		t.Fatalf("problems in a good handbook: %+v", h.Problems)
	}
	if len(h.Groups) != 2 {
		t.Fatalf("%d groups", len(h.Groups))
	}
	g := h.Groups[0]
	if g.Title != "/work/shop checkout" || g.Cwd != "/work/shop" || !strings.HasPrefix(g.ReuseRule, "safe across branches") ||
		len(g.Tasks) != 2 || g.Tasks[1].N != 2 || len(g.Sections) != 2 || g.End != h.Groups[1].Line-1 {
		t.Errorf("group: %+v", g)
	}
	r := g.Tasks[0].Rollouts[0]
	if r.Path != "rollout_summaries/2026-11-20T09-30-15-jqmb-psp_retries.md" || r.Note["thread_id"] != "0194f5a6-89ab-7cde-8123-456789abcdef" ||
		r.Note["updated_at"] != "2026-11-20T09:40:00+00:00" || r.Note[""] != "retried twice" || r.Line != 7 {
		t.Errorf("rollout bullet: %+v", r)
	}
	if k := g.Tasks[0].Keywords; len(k) != 3 || k[2] != "backoff" {
		t.Errorf("keywords: %v", k)
	}
	if len(h.Skills) != 1 || h.Skills[0].Path != "skills/psp-debugging/SKILL.md" {
		t.Errorf("skills: %+v", h.Skills)
	}
	if imp := h.Groups[1].Tasks[0].Rollouts; len(imp) != 1 || imp[0].Note["source"] != "external_agent_import" {
		t.Errorf("an imported group's resource files: %+v", imp)
	}
}

// TestHandbookProblems: each break of the strict format is named at its
// line.
func TestHandbookProblems(t *testing.T) {
	for name, c := range map[string]struct {
		from, to, want string
	}{
		"no scope":       {"scope: the checkout service's payment flow; not the storefront\n", "", "has no scope:"},
		"no applies_to":  {"applies_to: cwd=/work/shop; reuse_rule=safe across branches, check the PSP version\n", "", "has no applies_to:"},
		"no reuse_rule":  {"; reuse_rule=safe across branches, check the PSP version", "", "must give cwd=… and reuse_rule=…"},
		"no keywords":    {"### keywords\n- psp, retries, backoff\n", "", "Task 1 has no ### keywords"},
		"no rollouts":    {"### rollout_summary_files\n- rollout_summaries/2026-11-21T10-00-00-abcd.md (cwd=/work/shop, rollout_path=/r/2.jsonl, updated_at=2026-11-21T10:05:00+00:00)\n", "", "Task 2 has no ### rollout_summary_files"},
		"bad annotation": {", rollout_path=/r/2.jsonl, updated_at=2026-11-21T10:05:00+00:00)", ")", "lacks rollout_path=, updated_at="},
		"block first":    {"## Task 2: Fix the cart", "## User preferences\n- first\n\n## Task 2: Fix the cart", "a task after the block-level sections"},
		"star bullet":    {"- rounding, cart\n", "- rounding, cart\n* a star\n", "a \"*\" bullet"},
		"bold":           {"- when the user reviewed", "- **when** the user reviewed", "bold text"},
		"placeholder":    {"# Task Group: /work/shop checkout", "# Task Group: misc", "a placeholder task group name"},
	} {
		text := strings.Replace(goodHandbook, c.from, c.to, 1)
		if text == goodHandbook {
			t.Fatalf("%s: the fixture did not change", name)
		}
		h := ParseHandbook([]byte(text))
		found := false
		for _, p := range h.Problems {
			found = found || strings.Contains(p.What, c.want) && p.Line > 0
		}
		if !found {
			t.Errorf("%s: no problem %q: %+v", name, c.want, h.Problems)
		}
	}
}
