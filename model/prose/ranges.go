package prose

import (
	"strings"

	"github.com/memtui/memtui/model"
)

// Ranges returns the byte ranges of text that are prose: the parts a
// date rule should read. The ranges are sorted, non-overlapping, non-empty and
// within [0, len(text)].
//
// Left out, because a date there is not something the memory says:
//   - fenced code blocks (``` or ~~~, three or more). The closing fence
//     follows CommonMark: the same character, at least as long as the
//     opener, nothing but spaces after it; an unclosed fence runs to the end
//     of the text. Unlike CommonMark, a fence may be indented any amount and
//     may sit behind blockquote markers ("> ```"): agents nest fences under
//     list items at 4+ spaces, and reading such a block as prose would be a
//     false finding, while the cost of the leniency is only a rare missed
//     date.
//   - inline code spans: a run of N backticks up to the next run of exactly
//     N, not across a blank line; an unmatched run is literal text.
//   - HTML comments (an unclosed "<!--" runs to the end, as an HTML block does).
//   - URLs (scheme://… and www.…, up to whitespace), markdown link targets
//     "](…)" and the targets of [[wikilinks]].
//   - in YAML frontmatter, the fences and every "key:"; the values stay in,
//     because a description saying "deploy tomorrow" ages like the body.
//
// Indented code blocks (four spaces) are deliberately NOT left out: memory
// text is full of indented continuation lines under list items, and
// excluding them would silently skip real prose.
func Ranges(text string) [][2]int {
	return proseRangesTo(text, len(text))
}

// proseRangesTo is Ranges for a caller that reads no prose at or after
// limit: it stops classifying there, so its last range may run on where
// ProseRanges would end it. Up to limit the two agree.
func proseRangesTo(text string, limit int) [][2]int {
	// Everything is recognised where it starts, but for a URL, found at its
	// "://" with the scheme running back from there: read on to the end of
	// a scheme that may have begun before limit.
	if limit > 0 && limit < len(text) && prSchemeByte(text[limit-1]) {
		for limit < len(text) && prSchemeByte(text[limit]) {
			limit++
		}
		limit++ // and the byte after it, which may be that ':'
	}
	p := proseScanner{text: text}
	pos := 0
	if body, ok := prFrontmatter(text); ok {
		p.frontmatterValues(body)
		pos = body[1]
		p.start = pos
	}
	p.body(pos, min(limit, len(text)))
	return p.out
}

type proseScanner struct {
	text  string
	out   [][2]int
	start int // start of the prose not yet emitted
}

// skip records that [a, b) is not prose: the pending prose before a is
// emitted and prose resumes at b.
func (p *proseScanner) skip(a, b int) {
	if a < p.start {
		a = p.start
	}
	if a > p.start {
		p.out = append(p.out, [2]int{p.start, a})
	}
	if b > p.start {
		p.start = b
	}
}

// proseSpecial marks (1) the bytes at which something non-prose may begin,
// so the body scan can skip ordinary text without a switch.
var proseSpecial = [256]uint8{'\n': 1, '`': 1, '<': 1, '(': 1, '[': 1, ':': 1, 'w': 1, 'W': 1}

// body classifies text[pos:] up to limit (see proseRangesTo).
func (p *proseScanner) body(pos, limit int) {
	text := p.text
	n := len(text)
	lineStart := true
	for pos < limit {
		if lineStart {
			lineStart = false
			// Most lines cannot open a fence; they skip the call.
			if c := text[pos]; c == ' ' || c == '\t' || c == '>' || c == '`' || c == '~' {
				if end, ok := prFence(text, pos); ok {
					p.skip(pos, end)
					pos = end
					lineStart = true
					continue
				}
			}
		}
		// Eight bytes at a time while none is special (one branch, not
		// eight: a special byte comes about one in twenty), then one by one.
		for pos+8 <= n {
			t := text[pos : pos+8]
			if proseSpecial[t[0]]|proseSpecial[t[1]]|proseSpecial[t[2]]|proseSpecial[t[3]]|
				proseSpecial[t[4]]|proseSpecial[t[5]]|proseSpecial[t[6]]|proseSpecial[t[7]] != 0 {
				break
			}
			pos += 8
		}
		for pos < n && proseSpecial[text[pos]] == 0 {
			pos++
		}
		if pos >= limit {
			break
		}
		switch c := text[pos]; c {
		case '\n':
			lineStart = true
			pos++
		case '`':
			run := prRunLen(text, pos, '`')
			if end := prCodeSpanEnd(text, pos+run, run); end > 0 {
				p.skip(pos, end)
				pos = end
			} else {
				pos += run
			}
		case '<':
			if prHasAt(text, pos, "<!--") {
				end := prIndexFrom(text, pos+4, "-->")
				if end < 0 {
					end = n
				} else {
					end += 3
				}
				p.skip(pos, end)
				pos = end
			} else {
				pos++
			}
		case '(':
			if pos > 0 && text[pos-1] == ']' {
				if end := prLinkTargetEnd(text, pos); end > 0 {
					p.skip(pos, end)
					pos = end
					continue
				}
			}
			pos++
		case '[':
			if prHasAt(text, pos, "[[") {
				if end := prSameLineIndex(text, pos+2, "]]"); end >= 0 {
					p.skip(pos+2, end)
					pos = end + 2
					continue
				}
			}
			pos++
		case ':':
			if prHasAt(text, pos, "://") {
				s := pos
				for s > 0 && prSchemeByte(text[s-1]) {
					s--
				}
				if s < pos {
					end := prURLEnd(text, pos+3)
					p.skip(s, end)
					pos = end
					continue
				}
			}
			pos++
		default: // 'w', 'W'
			if (pos == 0 || !prAlnum(text[pos-1])) && pos+4 <= n &&
				text[pos+1]|0x20 == 'w' && text[pos+2]|0x20 == 'w' && text[pos+3] == '.' {
				end := prURLEnd(text, pos+4)
				p.skip(pos, end)
				pos = end
				continue
			}
			pos++
		}
	}
	p.skip(n, n)
}

// prFrontmatter finds YAML frontmatter at the start of text (after an
// optional BOM) that closes within FrontmatterMaxLines lines, as Claude Code
// reads it. It returns the byte range from the start of the first line after
// the opening fence to the end of the closing fence line.
func prFrontmatter(text string) (r [2]int, ok bool) {
	pos := 0
	if prHasAt(text, 0, "\xEF\xBB\xBF") {
		pos = 3
	}
	if !prHasAt(text, pos, "---") || !prBlankFrom(text, pos+3) {
		return r, false
	}
	open := prLineEnd(text, pos)
	if open >= len(text) {
		return r, false
	}
	line := open + 1
	for n := 2; n <= model.FrontmatterMaxLines && line < len(text); n++ {
		end := prLineEnd(text, line)
		if prHasAt(text, line, "---") && prBlankFrom(text, line+3) {
			next := end
			if next < len(text) {
				next++
			}
			return [2]int{open + 1, next}, true
		}
		line = end + 1
	}
	return r, false
}

// frontmatterValues emits the value part of each frontmatter line in
// body (which ends with the closing fence line, itself not prose). A line
// that looks like "key: value" (optionally indented or a "- " list item)
// contributes the value; any other line, such as the continuation of a
// folded description, is all value.
func (p *proseScanner) frontmatterValues(body [2]int) {
	text := p.text
	line := body[0]
	for line < body[1] {
		end := prLineEnd(text, line)
		if end >= body[1] || prHasAt(text, line, "---") && prBlankFrom(text, line+3) {
			break // the closing fence
		}
		v := line
		for v < end && (text[v] == ' ' || text[v] == '\t') {
			v++
		}
		if prHasAt(text, v, "- ") {
			v += 2
		}
		k := v
		for k < end && text[k] != ':' && text[k] != ' ' && text[k] != '\t' && text[k] != '#' {
			k++
		}
		if k > v && k < end && text[k] == ':' && (k+1 == end || text[k+1] == ' ' || text[k+1] == '\t' || text[k+1] == '\r') {
			v = k + 1
			for v < end && (text[v] == ' ' || text[v] == '\t') {
				v++
			}
		} else {
			v = line
		}
		e := end
		if e > v && text[e-1] == '\r' {
			e--
		}
		if v < e {
			p.out = append(p.out, [2]int{v, e})
		}
		line = end + 1
	}
	p.start = body[1]
}

// prFence reports whether a fenced code block opens on the line starting
// at pos and returns the offset just past its closing fence line (or the end
// of the text when it never closes).
func prFence(text string, pos int) (end int, ok bool) {
	i := prSkipIndent(text, pos)
	if i >= len(text) || (text[i] != '`' && text[i] != '~') {
		return 0, false
	}
	c := text[i]
	run := prRunLen(text, i, c)
	if run < 3 {
		return 0, false
	}
	le := prLineEnd(text, i)
	if c == '`' && prIndexByte(text, i+run, le, '`') >= 0 {
		return 0, false // an info string may not hold a backtick: this is inline code
	}
	line := le + 1
	for line < len(text) {
		le = prLineEnd(text, line)
		j := prSkipIndent(text, line)
		if j < le && text[j] == c {
			if r := prRunLen(text, j, c); r >= run && prBlankFrom(text, j+r) {
				if le < len(text) {
					le++
				}
				return le, true
			}
		}
		line = le + 1
	}
	return len(text), true
}

// prSkipIndent skips spaces, tabs and blockquote markers at the start of a line.
func prSkipIndent(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '>') {
		i++
	}
	return i
}

// prCodeSpanEnd finds the backtick run of exactly n that closes a code span
// whose content starts at from, and returns the offset just past it; 0 when
// there is none before a blank line or a line that opens a fence.
func prCodeSpanEnd(text string, from, n int) int {
	for j := from; j < len(text); {
		k := strings.IndexByte(text[j:], '`')
		if k < 0 {
			return 0 // no closing run, whatever the lines hold
		}
		// The line breaks before the next run, in order: a blank line or a
		// fence ends the search.
		for at, end := j, j+k; ; at++ {
			nl := strings.IndexByte(text[at:end], '\n')
			if nl < 0 {
				break
			}
			at += nl
			if prBlankLineAfter(text, at) {
				return 0
			}
			if _, ok := prFence(text, at+1); ok {
				return 0
			}
		}
		j += k
		r := prRunLen(text, j, '`')
		if r == n {
			return j + r
		}
		j += r
	}
	return 0
}

// prBlankLineAfter reports whether the line after the '\n' at j is blank (or
// there is none).
func prBlankLineAfter(text string, j int) bool {
	k := j + 1
	for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
		k++
	}
	return k >= len(text) || text[k] == '\n'
}

// prLinkTargetEnd returns the offset just past the ')' matching the '(' at
// pos, allowing nested parentheses, on the same line; 0 when unmatched.
func prLinkTargetEnd(text string, pos int) int {
	depth := 0
	for j := pos; j < len(text); j++ {
		switch text[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '\n':
			return 0
		}
	}
	return 0
}

// prURLEnd returns where a URL starting before from ends: at whitespace or a
// character that cannot be part of one in running text.
func prURLEnd(text string, from int) int {
	j := from
	for j < len(text) {
		switch text[j] {
		case ' ', '\t', '\n', '\r', '<', '>', '"', '`':
			return j
		}
		j++
	}
	return j
}

func prSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func prAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func prRunLen(text string, i int, c byte) int {
	j := i
	for j < len(text) && text[j] == c {
		j++
	}
	return j - i
}

func prHasAt(text string, i int, prefix string) bool {
	return i >= 0 && i <= len(text) && len(text)-i >= len(prefix) && text[i:i+len(prefix)] == prefix
}

// prLineEnd returns the offset of the '\n' ending the line containing i, or
// len(text).
func prLineEnd(text string, i int) int {
	if i >= len(text) {
		return i
	}
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

// prBlankFrom reports whether only spaces, tabs and '\r' lie between i and the
// end of the line.
func prBlankFrom(text string, i int) bool {
	for ; i < len(text) && text[i] != '\n'; i++ {
		if text[i] != ' ' && text[i] != '\t' && text[i] != '\r' {
			return false
		}
	}
	return true
}

func prIndexFrom(text string, from int, sub string) int {
	if from > len(text) {
		return -1
	}
	if i := strings.Index(text[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

// prSameLineIndex is prIndexFrom that gives up at the end of the line.
func prSameLineIndex(text string, from int, sub string) int {
	for i := from; i+len(sub) <= len(text) && text[i] != '\n'; i++ {
		if text[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func prIndexByte(text string, from, to int, c byte) int {
	for i := from; i < to && i < len(text); i++ {
		if text[i] == c {
			return i
		}
	}
	return -1
}
