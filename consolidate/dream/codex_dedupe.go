package dream

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Duplicate bullets in Codex's handbook (codex facts §9 item 10; users
// report MEMORY.md growing into hundreds of KB of repeated learnings,
// openai/codex#29818): a bullet of a block-level section (User
// preferences, Reusable knowledge, Failures and how to do differently)
// that says again, exactly or nearly, what a bullet of another task group
// says. The first is kept: Codex writes its freshest, most useful blocks
// first (codex facts §1.3.2). Each later copy is one proposal, so each
// can be rejected on its own.

// hbLine is one line of MEMORY.md and where it stands.
type hbLine struct {
	from, to int    // its bytes, its newline included
	text     string // without its line ending
	// group is the index of the "# Task Group:" block holding it (-1
	// before the first); task the 1-based line of the "## Task n"
	// heading whose section holds it (0 outside a task); section the
	// title of the "## " section holding it ("" in the block's header).
	group   int
	task    int
	section string
	fence   bool // fenced code, or a fence line
	heading bool // a "# Task Group:" or "## " heading
}

var hbTaskHead = regexp.MustCompile(`^## Task \d+:`)

// scanHandbook places every line of MEMORY.md as codex.ParseHandbook reads
// it: groups at "# Task Group:" lines, sections at "## " lines, fenced
// code left alone.
func scanHandbook(content []byte) []hbLine {
	var out []hbLine
	group, task, section, fence := -1, 0, "", ""
	text := string(content)
	for from, n := 0, 1; from < len(text); n++ {
		to := len(text)
		if i := strings.IndexByte(text[from:], '\n'); i >= 0 {
			to = from + i + 1
		}
		l := hbLine{from: from, to: to, text: strings.TrimRight(text[from:to], "\r\n")}
		from = to
		trim := strings.TrimSpace(l.text)
		if f := codex.FenceOf(trim); f != "" && (fence == "" || strings.HasPrefix(trim, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			l.fence = true
		} else if fence != "" {
			l.fence = true
		} else if strings.HasPrefix(l.text, "# Task Group:") {
			group, task, section, l.heading = group+1, 0, "", true
		} else if group >= 0 && strings.HasPrefix(l.text, "## ") {
			section, task, l.heading = strings.TrimSpace(l.text[3:]), 0, true
			if hbTaskHead.MatchString(l.text) {
				task = n
			}
		}
		l.group, l.task, l.section = group, task, section
		out = append(out, l)
	}
	return out
}

// hbBullet is one top-level bullet of a block-level section, with its
// indented continuation lines.
type hbBullet struct {
	first, last int // indexes of its lines in the scan
	group       int
	section     string
	text        string // its lines, joined
}

// handbookBullets are the bullets of MEMORY.md's block-level sections.
func handbookBullets(lines []hbLine) []hbBullet {
	var out []hbBullet
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.group < 0 || l.fence || !codexBlockSections[l.section] || !strings.HasPrefix(l.text, "- ") {
			continue
		}
		b := hbBullet{first: i, last: i, group: l.group, section: l.section}
		parts := []string{strings.TrimPrefix(l.text, "- ")}
		for j := i + 1; j < len(lines); j++ {
			n := lines[j]
			if n.group != l.group || n.section != l.section || n.heading || strings.TrimSpace(n.text) == "" ||
				!(strings.HasPrefix(n.text, " ") || strings.HasPrefix(n.text, "\t") || n.fence) {
				break
			}
			b.last = j
			parts = append(parts, strings.TrimSpace(n.text))
		}
		b.text = strings.Join(parts, "\n")
		out = append(out, b)
		i = b.last
	}
	return out
}

// bulletTags are the provenance tags a handbook bullet ends with ("[Task
// 1]", "[Task 1, Task 3]", "[ad-hoc note]", codex facts §1.3.2): two
// bullets that differ only there say the same thing.
var bulletTags = regexp.MustCompile(`(?i)\[(?:tasks? \d+(?:\s*(?:,|and|&)\s*(?:task )?\d+)*|ad-hoc note)\]`)

// bulletKey is a bullet's text with case, punctuation, white space and
// tags set aside: equal keys are exact duplicates.
func bulletKey(text string) string {
	text = bulletTags.ReplaceAllString(text, " ")
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		} else {
			space = true
		}
	}
	return b.String()
}

// dupKeyLetters make the names similar.Find sees for bullets: letters
// only (a digit would make the names a numbered series, which Find never
// links) and none a suffix its stemming strips (s, t, g, d, y), so that
// no two names read as one word. Names differ, so only the bodies match.
const dupKeyLetters = "abcefhijkmnopqruvwxz"

func dupKey(i int) string {
	b := []byte{'q'}
	for {
		b = append(b, dupKeyLetters[i%len(dupKeyLetters)])
		i /= len(dupKeyLetters)
		if i == 0 {
			return string(b)
		}
	}
}

// codexDup is one bullet to drop, as a duplicate of the one kept.
type codexDup struct {
	keep, drop int // indexes into the bullets
	reason     string
}

// handbookDups pairs each later copy with the first bullet it repeats, in
// another task group: exact copies first (any length: similar.Find skips
// stubs), then near-copies as similar.Find groups them.
func handbookDups(bullets []hbBullet) []codexDup {
	var out []codexDup
	keeper := map[int]int{} // a dropped bullet -> the one kept for it
	resolve := func(i int) int {
		for {
			k, ok := keeper[i]
			if !ok {
				return i
			}
			i = k
		}
	}
	first := map[string]int{}
	for i, b := range bullets {
		k := bulletKey(b.text)
		if k == "" {
			continue
		}
		j, ok := first[k]
		if !ok {
			first[k] = i
			continue
		}
		if bullets[j].group != b.group {
			keeper[i] = j
			out = append(out, codexDup{j, i, "identical once case, punctuation and task tags are set aside"})
		}
	}
	items := make([]similar.Item, 0, len(bullets))
	byKey := map[string]int{}
	base := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, b := range bullets {
		if _, gone := keeper[i]; gone {
			continue
		}
		k := dupKey(i)
		byKey[k] = i
		// The earlier bullet is the older: Find keeps it (Paths[0]) and
		// links each other member to it.
		items = append(items, similar.Item{Path: k + ".md", Body: bulletTags.ReplaceAllString(b.text, " "), Modified: base.Add(time.Duration(i) * time.Second)})
	}
	for _, g := range similar.Find(items) {
		keep := resolve(byKey[strings.TrimSuffix(g.Paths[0], ".md")])
		for _, p := range g.Paths[1:] {
			i := byKey[strings.TrimSuffix(p, ".md")]
			if _, gone := keeper[i]; gone || bullets[i].group == bullets[keep].group {
				continue
			}
			keeper[i] = keep
			out = append(out, codexDup{keep, i, g.Reason})
		}
	}
	return out
}

// codexMaxDedupe caps the dedupe proposals of one run. Each carries the
// whole handbook rewritten (hundreds of KB in the ledgers users report),
// and each one applied makes the others stale: past a few dozen, a run
// costs memory for proposals nobody can apply in one go. The next run
// proposes the rest.
const codexMaxDedupe = 32

// proposeCodexDedupe proposes dropping each later copy of a handbook
// bullet, one proposal a copy (the first codexMaxDedupe: exact copies,
// then near ones, each in file order).
func proposeCodexDedupe(st *codexState) []model.Proposal {
	content, h, lines, ok := st.handbook()
	if !ok {
		return nil
	}
	bullets := handbookBullets(lines)
	if len(bullets) < 2 {
		return nil
	}
	dups := handbookDups(bullets)
	if len(dups) > codexMaxDedupe {
		dups = dups[:codexMaxDedupe]
	}
	var out []model.Proposal
	for _, d := range dups {
		keep, drop := bullets[d.keep], bullets[d.drop]
		gk, gd := h.Groups[keep.group], h.Groups[drop.group]
		from, to, whole := dropRange(lines, drop)
		after := make([]byte, 0, len(content)-(to-from))
		after = append(append(after, content[:from]...), content[to:]...)
		kl, dl := keep.first+1, drop.first+1
		var why strings.Builder
		fmt.Fprintf(&why, "Line %d (## %s of the task group \"%s\") repeats line %d (## %s of \"%s\"): %s. ",
			dl, drop.section, gd.Title, kl, keep.section, gk.Title, d.reason)
		why.WriteString("Codex's handbook grows into a ledger of repeated learnings that every search of it wades through (openai/codex#29818). ")
		fmt.Fprintf(&why, "Line %d is kept, as Codex writes its freshest blocks first, and line %d goes: \"%s\"", kl, dl, quote(st.opts.Secrets, drop.text, 200))
		if whole {
			fmt.Fprintf(&why, ", with its heading ## %s, which nothing else is left under", drop.section)
		}
		why.WriteString(". Reject it if it says something line " + strconv.Itoa(kl) + " does not")
		if gk.Cwd != gd.Cwd && gk.Cwd != "" && gd.Cwd != "" {
			fmt.Fprintf(&why, ", or if both scopes need it (the groups apply to cwd=%s and cwd=%s)", gk.Cwd, gd.Cwd)
		}
		why.WriteString(". Codex's next consolidation sees the deletion in its diff.")
		out = append(out, st.proposal(model.KindMerge,
			fmt.Sprintf("Drop %s line %d, a duplicate of line %d", codex.HandbookFile, dl, kl),
			why.String(), nil, []model.Change{st.update(codex.HandbookFile, after)}))
	}
	return out
}

// dropRange is the bytes to remove to drop bullet b: its lines, and a
// blank line after it when one stands before it too (bullets set apart by
// blank lines stay so); or, when nothing else is under its section, the
// section's heading with it and the blank lines up to what follows (whole
// is then true).
func dropRange(lines []hbLine, b hbBullet) (from, to int, whole bool) {
	from, to = lines[b.first].from, lines[b.last].to
	blank := func(i int) bool { return i >= 0 && i < len(lines) && strings.TrimSpace(lines[i].text) == "" }
	// The section: its heading, and its lines up to the next heading.
	head := b.first - 1
	for head >= 0 && !lines[head].heading {
		head--
	}
	end := b.last + 1
	for end < len(lines) && !lines[end].heading {
		end++
	}
	alone := head >= 0 && lines[head].section == b.section
	for i := head + 1; i < end && alone; i++ {
		if (i < b.first || i > b.last) && !blank(i) {
			alone = false
		}
	}
	if alone {
		// Up to the next heading: the blank line before this heading
		// stays, and now stands before that one.
		last := lines[len(lines)-1].to
		if end < len(lines) {
			last = lines[end].from
		}
		return lines[head].from, last, true
	}
	if blank(b.first-1) && blank(b.last+1) {
		to = lines[b.last+1].to
	}
	return from, to, false
}

// quote is s on one line, its secrets masked, then cut to about n bytes
// on a character boundary with "…": masked first, so that a cut inside a
// secret never leaves part of it shown.
func quote(sc *secrets.Scanner, s string, n int) string {
	s = strings.Join(strings.Fields(sc.MaskSecrets(s)), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
