package dream

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Trimming memory_summary.md under Codex's cap (codex facts §2, §1.3.1).
// Over 10,000 bytes (trimmed), every session gets the summary's first and
// last 5,000 bytes and loses the middle, with no warning. The summary's
// top three sections (User Profile, User preferences, General Tips) are
// the payload a session acts on; ## What's in Memory is a routing index
// into MEMORY.md, by scope and day. So a trim drops whole entries of that
// index, the oldest first, and nothing else: what they point at stays in
// MEMORY.md.

// CodexTrimTarget is what a trim brings the summary down to (trimmed
// bytes): 95% of the cap, so that the next consolidation's few new topics
// do not push it over again at once.
const CodexTrimTarget = 9500

// olderTopics is the heading of the index's older entries (codex facts
// §1.3.1): its "####" blocks are scopes, not days.
const olderTopics = "Older Memory Topics"

// CodexTrim is a trim of memory_summary.md, or why there is none.
type CodexTrim struct {
	// After is the summary trimmed; nil when there is no trim.
	After []byte
	// Dropped name the blocks dropped, in the order they were chosen
	// ("the older topics of /work/blog (2 topics)", "2026-10-01 of
	// /work/shop (3 topics)").
	Dropped []string
	// Before and Size are the summary's trimmed bytes before and after.
	Before, Size int
	// Why says why there is no trim: "" when there is one.
	Why string
}

// trimBlock is one "#### " block of ## What's in Memory.
type trimBlock struct {
	from, to int // bytes, from its heading to the next heading
	scope    int // index of its "### " scope
	title    string
	older    bool // under ### Older Memory Topics: a scope, not a day
	day      time.Time
	topics   int // its "- " bullets
}

// trimScope is one "### " heading of ## What's in Memory.
type trimScope struct {
	from, to int // its heading line through its last byte
	head     int // where its first block starts (to when it has none)
	title    string
	blocks   []int
}

// PlanCodexTrim plans the trim of a memory_summary.md over Codex's cap:
// whole "#### " blocks of ## What's in Memory dropped until the summary
// is at most CodexTrimTarget bytes trimmed; first the blocks under ###
// Older Memory Topics, last first (the template lists the most useful
// first), then the recent days, the oldest first (of two on one day, the
// later in the file first); a "### " scope with nothing left under it
// goes with its last block. Line 1 and the sections before ## What's in
// Memory are never touched. There is no trim (Why says so) when the
// summary is within the cap, blank, without its v1 line (Codex's next
// consolidation writes such a summary again from scratch, so a trim
// would be wasted), without exactly one ## What's in Memory, or still over
// the cap once every block is dropped (the top sections alone are too
// long: only a person can shorten those). Between the target and the cap
// once every block is dropped, the trim drops them all.
func PlanCodexTrim(content []byte) CodexTrim {
	l := codex.Load(content)
	t := CodexTrim{Before: len(l.Trimmed), Size: len(l.Trimmed)}
	switch {
	case l.Empty:
		t.Why = "the summary is blank: there is nothing to trim"
		return t
	case !l.Cut:
		t.Why = fmt.Sprintf("the summary is %d bytes, within Codex's cap of %d", t.Before, codex.SummaryByteLimit)
		return t
	}
	sum := codex.ParseSummary(content)
	if !sum.Header {
		t.Why = "line 1 is not v1: Codex's next consolidation discards the summary and writes it again from scratch, so a trim would be wasted"
		return t
	}
	var sec *codex.Section
	for i := range sum.Sections {
		if sum.Sections[i].Title == codex.SummarySections[3] {
			if sec != nil {
				t.Why = "## What's in Memory appears twice: which entries are the index is not clear"
				return t
			}
			sec = &sum.Sections[i]
		}
	}
	if sec == nil {
		t.Why = "the summary has no ## What's in Memory: there is no index to trim, only sections a person must shorten"
		return t
	}
	scopes, blocks := trimBlocks(content[:sec.To], sec.From)
	order := trimOrder(blocks)
	if len(order) == 0 {
		t.Why = "## What's in Memory has no #### block to drop"
		return t
	}
	drop := map[int]bool{}
	est := t.Before
	n := 0
	// Drop by the estimate (each block's bytes), then measure: a block at
	// the end of the file also takes the trailing space it had.
	for ; n < len(order) && est > CodexTrimTarget; n++ {
		b := blocks[order[n]]
		drop[order[n]] = true
		est -= b.to - b.from
	}
	after := cutBlocks(content, scopes, blocks, drop)
	for len(codex.Load(after).Trimmed) > CodexTrimTarget && n < len(order) {
		drop[order[n]] = true
		n++
		after = cutBlocks(content, scopes, blocks, drop)
	}
	size := len(codex.Load(after).Trimmed)
	if size > codex.SummaryByteLimit {
		t.Why = fmt.Sprintf("dropping every entry of ## What's in Memory still leaves %d bytes, over Codex's cap of %d: the User Profile, User preferences and General Tips sections must be shortened by a person", size, codex.SummaryByteLimit)
		return t
	}
	t.After, t.Size = after, size
	for _, i := range order[:n] {
		b := blocks[i]
		what := fmt.Sprintf("%s of %s", b.title, scopes[b.scope].title)
		if b.older {
			what = "the older topics of " + b.title
		}
		t.Dropped = append(t.Dropped, fmt.Sprintf("%s (%d %s)", what, b.topics, model.Plural(b.topics, "topic", "topics")))
	}
	return t
}

// trimBlocks reads the scopes and blocks of ## What's in Memory, which
// starts at from and ends with text.
func trimBlocks(text []byte, from int) (scopes []trimScope, blocks []trimBlock) {
	s := string(text)
	cur := -1 // the open block
	closeBlock := func(at int) {
		if cur >= 0 {
			blocks[cur].to = at
			cur = -1
		}
	}
	closeScope := func(at int) {
		closeBlock(at)
		if k := len(scopes) - 1; k >= 0 && scopes[k].to < 0 {
			scopes[k].to = at
			if len(scopes[k].blocks) == 0 {
				scopes[k].head = at
			}
		}
	}
	first := true
	for at := from; at < len(s); {
		end := len(s)
		if i := strings.IndexByte(s[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		line := strings.TrimRight(s[at:end], "\r\n")
		switch {
		case first:
			first = false // the section's own heading
		case strings.HasPrefix(line, "#### "):
			closeBlock(at)
			if k := len(scopes) - 1; k >= 0 && scopes[k].to < 0 {
				sc := &scopes[k]
				if len(sc.blocks) == 0 {
					sc.head = at
				}
				b := trimBlock{from: at, scope: k, title: strings.TrimSpace(line[5:]), older: sc.title == olderTopics}
				if !b.older {
					if d, err := time.Parse("2006-01-02", b.title); err == nil {
						b.day = d
					}
				}
				sc.blocks = append(sc.blocks, len(blocks))
				cur = len(blocks)
				blocks = append(blocks, b)
			}
		case strings.HasPrefix(line, "### "):
			closeScope(at)
			scopes = append(scopes, trimScope{from: at, to: -1, title: strings.TrimSpace(line[4:])})
		case strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## "):
			closeScope(at)
		case cur >= 0 && strings.HasPrefix(line, "- "):
			blocks[cur].topics++
		}
		at = end
	}
	closeScope(len(s))
	return scopes, blocks
}

// trimOrder is the order blocks are dropped in (see PlanCodexTrim); a
// recent block whose heading is not a date is never dropped (its age is
// not known).
func trimOrder(blocks []trimBlock) []int {
	var older, days []int
	for i, b := range blocks {
		switch {
		case b.older:
			older = append(older, i)
		case !b.day.IsZero():
			days = append(days, i)
		}
	}
	sort.SliceStable(older, func(i, j int) bool { return older[i] > older[j] })
	sort.SliceStable(days, func(i, j int) bool {
		a, b := blocks[days[i]], blocks[days[j]]
		if !a.day.Equal(b.day) {
			return a.day.Before(b.day)
		}
		return days[i] > days[j]
	})
	return append(older, days...)
}

// cutBlocks is content without the dropped blocks, and without the
// headings of the scopes they leave empty (nothing but blank space
// between the heading and its first block).
func cutBlocks(content []byte, scopes []trimScope, blocks []trimBlock, drop map[int]bool) []byte {
	var cuts [][2]int
	for _, sc := range scopes {
		all := len(sc.blocks) > 0
		for _, i := range sc.blocks {
			all = all && drop[i]
		}
		if all && blankAfterHeading(content[sc.from:sc.head]) {
			cuts = append(cuts, [2]int{sc.from, sc.to})
			continue
		}
		for _, i := range sc.blocks {
			if drop[i] {
				cuts = append(cuts, [2]int{blocks[i].from, blocks[i].to})
			}
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i][0] < cuts[j][0] })
	out := make([]byte, 0, len(content))
	last := 0
	for _, c := range cuts {
		out = append(out, content[last:c[0]]...)
		last = c[1]
	}
	return append(out, content[last:]...)
}

// blankAfterHeading reports whether nothing but blank space follows the
// heading line that begins b.
func blankAfterHeading(b []byte) bool {
	i := bytes.IndexByte(b, '\n')
	return i < 0 || len(bytes.TrimSpace(b[i+1:])) == 0
}

// proposeCodexTrim proposes the trim of memory_summary.md when it is over
// Codex's cap and PlanCodexTrim finds one.
func proposeCodexTrim(st *codexState) []model.Proposal {
	content, ok := st.content(codex.SummaryFile)
	if !ok {
		return nil
	}
	t := PlanCodexTrim(content)
	if t.After == nil {
		return nil
	}
	l := codex.Load(content)
	first, last := l.CutLines(content)
	why := fmt.Sprintf("Codex injects memory_summary.md into every session and silently cuts the middle out of anything over %d bytes (%d \"tokens\"): at %d bytes, %d bytes of lines %d-%d never reach a session. "+
		"This drops the oldest entries of its routing index, ## What's in Memory, oldest first: %s. "+
		"They only point into MEMORY.md, which still holds every one of them, and a session still finds them by searching it. "+
		"Line 1 v1 and the sections ## User Profile, ## User preferences and ## General Tips stay byte for byte; the summary ends at %d bytes (%d%% of the cap), with room for the next consolidation's topics. "+
		"Codex's template wants every task group covered by a topic, so its next consolidation may add some back: check the meter after it runs.",
		codex.SummaryByteLimit, codex.SummaryTokenLimit, t.Before, l.Removed(), first, last, listNames(t.Dropped), t.Size, t.Size*100/codex.SummaryByteLimit)
	return []model.Proposal{st.proposal(model.KindTrimSummary,
		fmt.Sprintf("Trim memory_summary.md from %d to %d bytes, under Codex's cap", t.Before, t.Size), why,
		st.fileFindings(codex.SummaryFile, consolidate.RuleCodexSummaryCut),
		[]model.Change{st.update(codex.SummaryFile, t.After)})}
}
