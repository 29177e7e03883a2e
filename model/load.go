package model

// Claude Code's caps on MEMORY.md as it loads it (memdir.ts
// MAX_ENTRYPOINT_LINES and MAX_ENTRYPOINT_BYTES; the "bytes" are UTF-16 code
// units, JavaScript's String.length).
const (
	IndexMaxLines = 200
	IndexMaxUnits = 25000
)

// The compaction nudge Claude Code gives at 80% of either cap, and the 70%
// it asks the agent to compact under (facts doc section 3.3).
const (
	IndexNearLines   = IndexMaxLines * 8 / 10 // 160
	IndexNearUnits   = IndexMaxUnits * 8 / 10 // 20,000
	IndexTargetLines = IndexMaxLines * 7 / 10 // 140
	IndexTargetUnits = IndexMaxUnits * 7 / 10 // 17,500
)

// IndexMaxReadBytes is the largest MEMORY.md Claude Code reads for the
// auto-memory index (facts §3.2 step 1): a bigger file is skipped entirely,
// with no text and no warning. A subagent's MEMORY.md has no such check.
const IndexMaxReadBytes = 4 << 20 // 4,194,304

// LoadMode is which of Claude Code's two MEMORY.md pipelines applies.
type LoadMode uint8

// The pipelines (facts §3.2).
const (
	// LoadAuto is the auto-memory index (and memtui's other index dirs):
	// BOM and frontmatter stripped, block HTML comments stripped, not
	// loaded at all over 4,194,304 bytes, then trimmed, cut and sanitised.
	LoadAuto LoadMode = iota
	// LoadAgent is a subagent's MEMORY.md (agent-memory/<agent>/, facts
	// §3.2 step 10): read raw, with no BOM, frontmatter or comment strip
	// and no size check, then trimmed, cut and sanitised.
	LoadAgent
)

// String names the mode for people and JSON.
func (m LoadMode) String() string {
	if m == LoadAgent {
		return "agent"
	}
	return "auto"
}

// LoadMode is the pipeline Claude Code runs over this kind of directory's
// MEMORY.md: the raw one for subagent memory, the auto-memory one for the
// rest.
func (k DirKind) LoadMode() LoadMode {
	switch k {
	case DirAgentUser, DirAgentProject, DirAgentLocal:
		return LoadAgent
	}
	return LoadAuto
}
