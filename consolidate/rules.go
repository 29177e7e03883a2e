package consolidate

import (
	"sort"

	"github.com/memtui/memtui/model"
)

// Rule describes one check. Rule IDs are stable: tests, scripts and users'
// ignore lists rely on them.
type Rule struct {
	ID       string
	Severity model.Severity
	Summary  string
}

// Rule IDs, grouped as in DESIGN.md section 3.
const (
	// Index (MEMORY.md).
	RuleIndexOverLines      = "index-over-lines"
	RuleIndexOverSize       = "index-over-size"
	RuleIndexNearLimit      = "index-near-limit"
	RuleIndexEntryTooLong   = "index-entry-too-long"
	RuleIndexBrokenLink     = "index-broken-link"
	RuleIndexLinkOutside    = "index-link-outside"
	RuleIndexDuplicateEntry = "index-duplicate-entry"
	RuleIndexNotPointer     = "index-not-pointer"
	RuleIndexMissing        = "index-missing"
	RuleMemoryOrphan        = "memory-orphan"
	RuleIndexEntryMultiline = "index-entry-multiline"
	RuleIndexEmptySection   = "index-empty-section"
	RuleHookEchoes          = "hook-echoes-description"

	// Topic files.
	RuleFrontmatterMissing    = "frontmatter-missing"
	RuleFrontmatterNotAtStart = "frontmatter-not-at-start"
	RuleFrontmatterInvalid    = "frontmatter-invalid"
	RuleFrontmatterUnreadable = "frontmatter-unreadable"
	RuleFrontmatterUnquoted   = "frontmatter-unquoted"
	RuleFrontmatterIncomplete = "frontmatter-incomplete"
	RuleTypeMissing           = "type-missing"
	RuleTypeInvalid           = "type-invalid"
	RuleDescriptionTooLong    = "description-too-long"
	RuleNameDuplicate         = "name-duplicate"
	RuleWikilinkBroken        = "wikilink-broken"
	RuleRelativeDate          = "relative-date"
	RuleDateMissingYear       = "date-missing-year"
	RuleRecallTruncated       = "recall-truncated"
	RuleRecallNearLimit       = "recall-near-limit"
	RuleContinuationChain     = "continuation-chain"
	RuleEncoding              = "encoding"
	RuleSecret                = "secret"
	RuleDuplicateMemory       = "duplicate-memory"
	RuleDanglingPath          = "dangling-path"
	RuleStaleMemory           = "stale-memory"
	RuleMemoryStub            = "memory-stub"
	RuleSymlink               = "symlink"
	RuleProvenanceSwept       = "provenance-swept"
	RuleLostUpdate            = "lost-update"
	RuleMemoryDeleted         = "memory-deleted"
	RuleFileUnreadable        = "file-unreadable"
	RuleRecallCap             = "recall-cap"
	RuleScanExcluded          = "scan-excluded"

	// Directory and configuration.
	RuleMemdirEmpty      = "memdir-empty"
	RuleStoreStranded    = "store-stranded"
	RuleStoreHasStranded = "store-has-stranded"
	RuleOverrideInvalid  = "override-invalid"
	RuleSettingsInvalid  = "settings-invalid"
)

var ruleList = []Rule{
	{RuleIndexOverLines, model.Error, "MEMORY.md is past 200 lines as loaded; the entries after the cut never reach the agent"},
	{RuleIndexOverSize, model.Error, "MEMORY.md is past 25,000 UTF-16 units as loaded; the rest is cut off"},
	{RuleIndexNearLimit, model.Warning, "MEMORY.md uses 80% or more of a load cap"},
	{RuleIndexEntryTooLong, model.Warning, "an index entry is longer than 150 characters"},
	{RuleIndexBrokenLink, model.Error, "an index entry points at a file that does not exist"},
	{RuleIndexLinkOutside, model.Warning, "an index entry points outside the memory directory"},
	{RuleIndexDuplicateEntry, model.Warning, "two index entries point at the same file"},
	{RuleIndexNotPointer, model.Warning, "memory content written into the index instead of a topic file"},
	{RuleIndexMissing, model.Warning, "topic files exist but there is no MEMORY.md"},
	{RuleMemoryOrphan, model.Warning, "a topic file the index never references, so it is never loaded by default"},
	{RuleIndexEntryMultiline, model.Warning, "indented lines hang under an index entry, each costing a line of the budget"},
	{RuleIndexEmptySection, model.Info, "an index heading with no entry under it"},
	{RuleHookEchoes, model.Info, "the index hook only repeats the memory's description"},

	{RuleFrontmatterMissing, model.Warning, "a topic file without frontmatter: no name, description or type"},
	{RuleFrontmatterNotAtStart, model.Warning, "text before the opening ---, so Claude Code sees no frontmatter"},
	{RuleFrontmatterInvalid, model.Error, "frontmatter that no parse recovers, or no closing fence in the first 30 lines or 64 KiB"},
	{RuleFrontmatterUnreadable, model.Error, "frontmatter only memtui's tolerant parse reads: Claude Code's own (strict YAML, then one retry quoting values) fails, so it sees no name, description or type"},
	{RuleFrontmatterUnquoted, model.Warning, "frontmatter that strict YAML rejects but Claude Code's retry, quoting values, reads"},
	{RuleFrontmatterIncomplete, model.Warning, "frontmatter with an empty name or description (a missing description is what Claude Code flags after a write, in recall mode)"},
	{RuleTypeMissing, model.Warning, "no type, neither under metadata nor top-level"},
	{RuleTypeInvalid, model.Warning, "a type that is not exactly user, feedback, project or reference (not trimmed, case-sensitive, a string); metadata.type wins over a top-level type"},
	{RuleDescriptionTooLong, model.Warning, "a description over 300 UTF-16 units, which Claude Code flags after a write (in recall mode)"},
	{RuleNameDuplicate, model.Warning, "two memories share one name"},
	{RuleWikilinkBroken, model.Info, "a [[wikilink]] to a memory that does not exist (yet)"},
	{RuleRelativeDate, model.Warning, "a relative date (\"tomorrow\", \"next week\") that loses its meaning over time"},
	{RuleDateMissingYear, model.Info, "a month and day written without a year"},
	{RuleRecallTruncated, model.Error, "over 4,096 bytes or 200 lines: recall injects only the start, and Claude Code flags it after a write (in recall mode)"},
	{RuleRecallNearLimit, model.Warning, "at 80% or more of the recall cap (4,096 bytes or 200 lines, the larger fraction), which Claude Code flags after a write (in recall mode)"},
	{RuleContinuationChain, model.Warning, "a file such as notes-2.md beside notes.md (or notes-02.md beside notes-01.md): a continuation recall rarely finds, which Claude Code flags after a write (in recall mode)"},
	{RuleEncoding, model.Warning, "a byte-order mark, invalid UTF-8 or NUL bytes"},
	{RuleSecret, model.Error, "a credential or key written into memory"},
	{RuleDuplicateMemory, model.Warning, "two or more memories that say the same thing"},
	{RuleDanglingPath, model.Warning, "a source path the memory names no longer exists in the project"},
	{RuleStaleMemory, model.Info, "a memory not updated for a long time"},
	{RuleMemoryStub, model.Info, "frontmatter and almost no body"},
	{RuleSymlink, model.Warning, "a symlink inside the memory directory"},
	{RuleProvenanceSwept, model.Info, "the transcript of the session that wrote the memory is gone"},
	{RuleLostUpdate, model.Warning, "text a session wrote that vanished with no session removing it knowingly"},
	{RuleMemoryDeleted, model.Info, "a memory gone from disk whose last whole text the transcripts hold: restore-deleted can bring it back"},
	{RuleFileUnreadable, model.Warning, "a memory file that could not be read"},
	{RuleRecallCap, model.Warning, "more than 200 memory files: Claude Code's scan offers only the newest 200 to recall"},
	{RuleScanExcluded, model.Warning, "a file with memory frontmatter in a path Claude Code's scan skips"},

	{RuleMemdirEmpty, model.Info, "an empty memory directory"},
	{RuleStoreStranded, model.Warning, "a memory directory no session Claude Code runs loads: written from a git worktree or a repository's subdirectory (both keyed by the repository's root), or left by a project folder moved away"},
	{RuleStoreHasStranded, model.Info, "memories of this project stranded in another memory directory, which no session Claude Code runs loads"},
	{RuleOverrideInvalid, model.Error, "a memory directory override that Claude Code rejects"},

	{RuleCodexOff, model.Info, "Codex's memories are off (the feature gate in config.toml), so Codex neither writes nor reads its store"},
	{RuleCodexConfig, model.Warning, "a config.toml memory setting Codex rejects (an unknown [memories] key, a wrong type) or silently clamps"},
	{RuleCodexSummaryGone, model.Error, "Codex's memory_summary.md missing or blank: sessions get no memory section at all"},
	{RuleCodexSummaryCut, model.Error, "Codex's memory_summary.md over 10,000 bytes (2,500 \"tokens\"): sessions silently lose its middle"},
	{RuleCodexSummaryNear, model.Warning, "Codex's memory_summary.md at 80% or more of its cap"},
	{RuleCodexSummaryShape, model.Warning, "Codex's memory_summary.md breaks its shape: the v1 first line, the four sections in order, the profile's 350 words, day headings"},
	{RuleCodexHandbookShape, model.Warning, "Codex's MEMORY.md breaks the strict task-group format its consolidation follows"},
	{RuleCodexDangling, model.Warning, "a rollout summary Codex's MEMORY.md cites as evidence that is not in the store"},
	{RuleCodexOrphan, model.Info, "a rollout summary no task of Codex's MEMORY.md cites"},
	{RuleCodexSkillMissing, model.Warning, "a related-skill pointer in Codex's MEMORY.md that leads nowhere"},
	{RuleCodexForeign, model.Warning, "a file in Codex's memory root that Codex does not write: its next consolidation takes it for an authoritative addition"},
	{RuleCodexLink, model.Warning, "a symbolic link in Codex's memory root, which Codex deletes at its next run"},
	{RuleCodexNoteName, model.Warning, "a note whose name Codex's add_ad_hoc_note would refuse"},
	{RuleCodexRolloutName, model.Warning, "a file in rollout_summaries/ not named as Codex names them: its next consolidation deletes it"},
	{RuleCodexLeak, model.Warning, "a line of Codex's summary User Profile, User preferences or General Tips (injected into every session) that names one project: a path, its name, a program of its repository"},
	{RuleCodexScopeMismatch, model.Warning, "a task of Codex's MEMORY.md cites a rollout that ran outside its group's applies_to: cwd="},
	{RuleCodexCwdGone, model.Info, "a Codex task group's applies_to: cwd= names a folder that no longer exists"},
	{RuleCodexDuplicate, model.Warning, "bullets of different Codex task groups, or lines of the summary's top sections, that say the same thing"},
	{RuleCodexRecited, model.Info, "a rollout summary cited by more tasks of Codex's MEMORY.md than it records, or twice, with nothing distinct"},
	{RuleCodexClaudeOverlap, model.Info, "a Codex bullet or note that repeats a Claude Code memory file"},
	{RuleCodexImportDrift, model.Warning, "a Claude Code memory file imported into Codex's store that no longer matches its source"},
	{RuleCodexBusy, model.Info, "a Codex consolidation in progress (or crashed): its workspace diff on disk, or its lease held in the database; memtui writes nothing into the store meanwhile"},
	{RuleCodexDBUnreadable, model.Warning, "a Codex database memtui could not read (not a database, a link, a FIFO, too big)"},
	{RuleCodexForgetSoon, model.Warning, "a Codex memory, or a MEMORY.md task group resting only on such memories, that Codex forgets within 7 days or at its next consolidation"},
	{RuleCodexNeverCited, model.Info, "a Codex memory no session ever cited: Codex forgets it 30 days after its session, however useful"},
	{RuleCodexBelowCut, model.Warning, "a Codex memory ranked below the max_raw_memories_for_consolidation Codex consolidates"},
	{RuleCodexStuck, model.Warning, "Codex's consolidation failed, died with its lease, or is queued and never ran"},
	{RuleCodexExtractFailed, model.Warning, "a session whose memory extraction failed, or has no retries left"},
	{RuleCodexThreadUnknown, model.Warning, "a thread_id Codex's MEMORY.md cites that its database does not know"},
	{RuleCodexSessionGone, model.Info, "a rollout summary whose session file (rollout_path) is not on disk"},
	{RuleCodexPending, model.Info, "a file added, changed or deleted since Codex's last consolidation: its next run shows it to its agent (a new note not yet consolidated)"},
	{RuleCodexEditLost, model.Warning, "a hand edit of raw_memories.md or rollout_summaries/, which Codex rebuilds from its database before its next diff: silently lost"},
	{RuleCodexBaseline, model.Warning, "Codex's baseline (memories/.git) missing, unreadable or committed to by something else: its next consolidation misses edits"},
	{RuleSettingsInvalid, model.Error, "a settings file that does not parse"},
}

var rulesByID = func() map[string]Rule {
	m := make(map[string]Rule, len(ruleList))
	for _, r := range ruleList {
		m[r.ID] = r
	}
	return m
}()

// Rules returns every rule, sorted by ID.
func Rules() []Rule {
	out := append([]Rule(nil), ruleList...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// LookupRule returns the rule with the given ID.
func LookupRule(id string) (Rule, bool) {
	r, ok := rulesByID[id]
	return r, ok
}
