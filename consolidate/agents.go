package consolidate

import "github.com/memtui/memtui/model"

// copyOmits are the Claude rules that do not apply to another agent's
// copy of the format: each speaks of Claude Code's own recall and scan
// (what it offers recall and flags after a write), its transcripts
// (provenance, lost updates, deleted memories) or its projects (stranded
// stores), none of which the copy shares or memtui reads for it. The
// index caps stay: Qwen Code documents the same 200 lines and 25,000
// UTF-16 units.
var copyOmits = map[string]bool{
	RuleRecallTruncated: true, RuleRecallNearLimit: true, RuleRecallCap: true,
	RuleScanExcluded: true, RuleDescriptionTooLong: true, RuleContinuationChain: true,
	RuleProvenanceSwept: true, RuleLostUpdate: true, RuleMemoryDeleted: true,
	RuleStoreStranded: true, RuleStoreHasStranded: true,
}

// agentOmits are the rules one agent's files do not follow, by label:
// OpenHands' memory files carry no frontmatter and its daily logs
// (YYYY-MM-DD.md) are read on demand, never listed in MEMORY.md.
var agentOmits = map[string]map[string]bool{
	"openhands": {RuleFrontmatterMissing: true, RuleTypeMissing: true, RuleMemoryOrphan: true},
}

// ForAgent are p's findings as reported: for another agent's store
// (p.Agent set: a --memory-root store), each naming the agent
// (Finding.Agent; Claude Code's name none) and without the rules that do
// not apply to a copy of the format (copyOmits, agentOmits). It filters
// fs in place. Every face that reports a directory's findings (lint, the
// TUI, the external proposer's input) goes through it.
func ForAgent(p *model.Project, fs []model.Finding) []model.Finding {
	if p == nil || p.Agent == "" {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if OmittedFor(p.Agent, f.Rule) {
			continue
		}
		f.Agent = p.Agent
		out = append(out, f)
	}
	return out
}

// OmittedFor reports whether rule does not apply to the store of agent
// (a --memory-root label; "" or "claude" is Claude Code's own).
func OmittedFor(agent, rule string) bool {
	return agent != "" && agent != "claude" && (copyOmits[rule] || agentOmits[agent][rule])
}
