package consolidate

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

const codexSummary = "v1\n\n## User Profile\n\nBackend engineer; Go and Postgres.\n\n## User preferences\n\n- small PRs\n\n## General Tips\n\n- run make check\n\n## What's in Memory\n\n### /work/shop\n\n#### 2026-11-20\n\n- checkout: psp, retries\n"

const codexHandbook = `# Task Group: /work/shop checkout
scope: the checkout's payment flow
applies_to: cwd=/work/shop; reuse_rule=safe across branches

## Task 1: Add retries to the PSP client
### rollout_summary_files
- rollout_summaries/2026-11-20T09-30-15-jqmb.md (cwd=/work/shop, rollout_path=/r/1.jsonl, updated_at=2026-11-20T09:40:00+00:00)
### keywords
- psp, retries
`

// codexStore is a store in Codex's shapes with files; config is
// config.toml's text ("" for none).
func codexStore(config string, files map[string]string) *codex.Store {
	s := &codex.Store{Home: "/home/u/.codex", Root: "/home/u/.codex/memories", Exists: true, ConfigPath: "/home/u/.codex/config.toml"}
	// As memfs.LoadCodex fills it: with no file, Codex's defaults.
	s.Config, s.ConfigProblems = codex.ParseConfig([]byte(config))
	s.ConfigFound = config != ""
	for p, c := range files {
		s.Files = append(s.Files, testmodel.File(p, c, testmodel.Now))
	}
	return s
}

func rulesOf(fs []model.Finding) map[string]int {
	out := map[string]int{}
	for _, f := range fs {
		out[f.Rule]++
	}
	return out
}

// TestCheckCodexCleanStore: a store in Codex's own shapes, memories on,
// gets no finding.
func TestCheckCodexCleanStore(t *testing.T) {
	s := codexStore("[features]\nmemories = true\n", map[string]string{
		"memory_summary.md": codexSummary, "MEMORY.md": codexHandbook,
		"rollout_summaries/2026-11-20T09-30-15-jqmb.md":           "thread_id: x\nupdated_at: y\nrollout_path: /r/1.jsonl\ncwd: /work/shop\n\n# Retries\n",
		"extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md": "Use pnpm, not npm.\n",
		"raw_memories.md": "# Raw Memories\n\nNo raw memories yet.\n",
	})
	if fs := CheckCodex(s, Options{Now: testmodel.Now}); len(fs) != 0 {
		t.Errorf("findings on a clean store: %s", testmodel.Dump(fs))
	}
}

// TestCheckCodexFindings: each Codex rule fires on its case, with what a
// user needs in its message.
func TestCheckCodexFindings(t *testing.T) {
	long := codexSummary + strings.Repeat("- topic: keyword, keyword, keyword\n", 400)
	s := codexStore("[features]\nmemories = true\n[memories]\nphase_2_model = \"x\"\n", map[string]string{
		"memory_summary.md": long,
		"MEMORY.md":         strings.Replace(codexHandbook, "scope: the checkout's payment flow\n", "", 1) + "- Related skill: skills/gone/SKILL.md\n",
		"rollout_summaries/2026-11-19T08-00-00-zzzz.md": "thread_id: x\n\n# Old\n",
		"rollout_summaries/my notes.md":                 "hand written\n",
		"extensions/ad_hoc/notes/remember this.md":      "Use pnpm.\n",
		"notes.md":                 "a stray file\n",
		"phase2_workspace_diff.md": "# Memory Workspace Diff\n",
		"skills/psp/SKILL.md":      "---\nname: psp\ndescription: the PSP\n---\n\nThe token is ghp_Xr7Kq2Lm9Pz4Tb6Wn1Yc8Vd3Hf5Js0Ga2Ek7Q.\n",
	})
	s.Links = []string{"linked.md"}
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	got := rulesOf(fs)
	for _, r := range []string{RuleCodexConfig, RuleCodexSummaryCut, RuleCodexHandbookShape, RuleCodexDangling, RuleCodexOrphan, RuleCodexSkillMissing,
		RuleCodexForeign, RuleCodexLink, RuleCodexNoteName, RuleCodexRolloutName, RuleCodexBusy, RuleSecret} {
		if got[r] == 0 {
			t.Errorf("no %s: %s", r, testmodel.Dump(fs))
		}
	}
	for _, f := range fs {
		if f.Rule == RuleCodexSummaryCut && (!strings.Contains(f.Message, "…") || !strings.Contains(f.Message, "tokens truncated") || f.Line == 0) {
			t.Errorf("the cut must say what is dropped and where: %+v", f)
		}
		if f.Project != "/home/u/.codex" || f.MemoryDir != "/home/u/.codex/memories" {
			t.Errorf("finding not named by its store: %+v", f)
		}
	}
	// Near the cap, and off.
	near := codexStore("", map[string]string{"memory_summary.md": codexSummary + strings.Repeat("x", 8200)})
	if got := rulesOf(CheckCodex(near, Options{Now: testmodel.Now})); got[RuleCodexSummaryNear] != 1 || got[RuleCodexOff] != 1 || got[RuleCodexSummaryCut] != 0 {
		t.Errorf("near and off: %v", got)
	}
	gone := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": " \n"})
	// A config.toml memtui could not read says why, not "no config.toml".
	unread := codexStore("", nil)
	unread.ConfigProblems, unread.Exists = []codex.Problem{{What: "config.toml not read: a FIFO"}}, false
	if fs := CheckCodex(unread, Options{Now: testmodel.Now}); len(fs) != 1 || fs[0].Rule != RuleCodexConfig || !strings.Contains(fs[0].Message, "not read: a FIFO") {
		t.Errorf("an unreadable config: %s", testmodel.Dump(fs))
	}
	if got := rulesOf(CheckCodex(gone, Options{Now: testmodel.Now})); got[RuleCodexSummaryGone] != 1 {
		t.Errorf("blank summary: %v", got)
	}
	// A rule silenced for codex in the config file stays quiet.
	quiet := CheckCodex(near, Options{Now: testmodel.Now, Ignore: []IgnoreRule{{Project: "codex", Rules: []string{RuleCodexOff}}}})
	if rulesOf(quiet)[RuleCodexOff] != 0 {
		t.Errorf("ignore: %v", rulesOf(quiet))
	}
}
