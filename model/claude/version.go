package claude

// Version is the Claude Code release whose memory behaviour memtui follows:
// claude-memory-format.md was revised for it (its BIN332 source). `memtui
// version` names it, and sessions the transcripts show of another version
// are compared with it.
const Version = "2.1.332"

// ComparedWith is the older release the facts file was checked against:
// the behaviours in Changes were verified to differ from it ("changed after
// 2.1.261"). The first version with each change, between the two, is not
// established.
const ComparedWith = "2.1.261"

// Change is a memory behaviour of Version that the facts file marks as
// changed after ComparedWith (its version timeline row "2.1.262–2.1.332"
// and its "(changed after 2.1.261)" marks).
type Change struct {
	ID      string `json:"id"`      // a stable short word
	Now     string `json:"now"`     // what Version does
	Before  string `json:"before"`  // what ComparedWith and older do instead
	Section string `json:"section"` // the section of claude-memory-format.md
}

// Changes lists the changed behaviours, in the timeline's order.
var Changes = []Change{
	{"truncation-warning", "the cut-off warning of MEMORY.md says which lines were cut, from which line",
		"the cut-off warning does not say which lines were cut", "3.2"},
	{"comment-stripping", "HTML comments are stripped by the rewritten rules (CRLF kept when no block comment goes, duplicate link definitions kept)",
		"HTML comments are stripped by the old rules", "3.2"},
	{"index-backfill", "a missing MEMORY.md is written by Claude Code at session start",
		"a missing MEMORY.md is not written", "3.4"},
	{"scan-symlinks", "the memory scan follows symlinked files and folders",
		"the memory scan does not follow symlinks", "4.1"},
	{"claude-code-item", "metadata.claudeCodeItem is read (and stripped by recall), metadata.pinned is ignored",
		"metadata.claudeCodeItem means nothing and metadata.pinned is read", "2.2"},
	{"autodream-permission-skip", "autoDream skips its run when a deny or ask rule covers memory writes",
		"autoDream does not check permission rules", "6.1"},
	{"own-project-carve-out", "writes of .md files under the session's own project memory folder need no prompt",
		"there is no own-project write carve-out", "1.4"},
}
