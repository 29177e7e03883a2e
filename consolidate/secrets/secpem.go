package secrets

import (
	"fmt"
	"math"
	"strings"

	"github.com/memtui/memtui/model"
)

// Multi-line secrets: PEM private keys, and the lines they are made of.
//
// gitleaks' private-key regex finds a key only whole, BEGIN to END, and its
// match is one span: masked as one string it collapses the key to one line,
// and a text that holds only part of the key (one line of a diff, a hunk
// that starts inside the key, a key pasted without its END line) is not
// found at all. So memtui finds private keys itself:
//
//   - From a BEGIN line whose label names a private key (-----BEGIN ...
//     PRIVATE KEY----- or ... PRIVATE KEY BLOCK-----, any key type), the
//     block runs over the lines a PEM body is made of: base64 lines, RFC
//     1421 headers (Proc-Type, DEK-Info, Comment, Version) and blank lines,
//     each maybe indented (a YAML block scalar), quoted (a JSON array of
//     lines) or behind a diff marker when the BEGIN line has one. It ends
//     at the END line, or, unterminated, at the last body line before a
//     line that is none of these: a line of prose cannot be key material,
//     and the key-material rule below still catches any key line after it.
//     A key written on one line with "\n" escapes (a JSON "private_key"
//     field) is found on that line, to its END marker or to the line's end.
//   - From an END line with no BEGIN before it in the text, the block runs
//     back over the body lines before it: a diff hunk that starts inside the
//     key still has its short last line masked.
//   - Any other line that is nothing but a long random base64 run is
//     key-material (secKeyLine): a line of a key seen alone.
//
// A block's secret spans BEGIN to END as gitleaks' does, but its mask keeps
// the line count: the BEGIN and END lines stay as they are (they name the
// key type, nothing secret), every other non-blank line becomes "[masked]"
// and in what memtui writes every line becomes [REDACTED] (BEGIN and END
// too, so that Claude Code's own scanner does not take the redacted block
// for a key). Indentation and diff markers are kept, so a masked diff keeps
// its shape.
//
// Tokens that a YAML folded scalar or a string continuation splits over
// lines are not put back together: that needs the file's syntax, and each
// piece of 20 or more random base64 characters is still found as key
// material.

// secSpan is a byte range of the scanned text.
type secSpan struct{ start, end int }

const secMaskLine = "[masked]"

// secB64Tab marks the base64 alphabet (with '=' for padding).
var secB64Tab = func() (t [256]bool) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['+'], t['/'], t['='] = true, true, true
	return t
}()

func secIsMarker(c byte) bool { return c == '+' || c == '-' || c == ' ' }

// secHasFold reports whether text[i:] starts with the lower-case lit,
// ignoring ASCII case.
func secHasFold(text string, i int, lit string) bool {
	return i >= 0 && i+len(lit) <= len(text) && secEqualFoldLower(text[i:i+len(lit)], lit)
}

// secIndexFold is the offset of the lower-case lit in s ignoring ASCII
// case, -1 when absent.
func secIndexFold(s, lit string) int {
	for i := 0; i+len(lit) <= len(s); i++ {
		if c := s[i]; c == lit[0] || c+'a'-'A' == lit[0] {
			if secEqualFoldLower(s[i:i+len(lit)], lit) {
				return i
			}
		}
	}
	return -1
}

func secIsLabelByte(c byte) bool {
	return c == ' ' || c == '_' || c == '-' || c >= '0' && c <= '9' || secIsAlpha(c)
}

// secPEMMarker parses "-----BEGIN <label>-----" (or END, by kw) at i: the
// offset just past it, and whether the label names a private key.
func secPEMMarker(text string, i int, kw string) (end int, private, ok bool) {
	if !secHasFold(text, i, "-----") || !secHasFold(text, i+5, kw) {
		return 0, false, false
	}
	ls := i + 5 + len(kw)
	for j := ls; j < len(text) && j-ls <= 120; j++ {
		if strings.HasPrefix(text[j:], "-----") {
			label := strings.ToUpper(strings.TrimSpace(text[ls:j]))
			label = strings.TrimSuffix(label, " BLOCK")
			return j + 5, strings.HasSuffix(label, "PRIVATE KEY"), true
		}
		if !secIsLabelByte(text[j]) {
			break
		}
	}
	return 0, false, false
}

// Kinds of line in a PEM body.
const (
	secLineNone = iota
	secLineBlank
	secLineHeader
	secLineB64
)

// secBodyLine classifies the line text[a:b] (no newline) as a PEM body
// line: its kind, where its content starts (after indentation, and a diff
// marker when diff is set), and how many base64 bytes it holds.
func secBodyLine(text string, a, b int, diff bool) (kind, content, n int) {
	p := a
	if diff && p < b && secIsMarker(text[p]) {
		p++
	}
	for p < b && (text[p] == ' ' || text[p] == '\t') {
		p++
	}
	q := b
	for q > p && (text[q-1] == ' ' || text[q-1] == '\t' || text[q-1] == '\r') {
		q--
	}
	if p == q {
		return secLineBlank, p, 0
	}
	// An RFC 1421 header: Name: value.
	if secIsAlpha(text[p]) {
		j := p + 1
		for j < q && (secIsAlpha(text[j]) || text[j] == '-' || text[j] >= '0' && text[j] <= '9') {
			j++
		}
		if j < q && text[j] == ':' && j-p >= 2 {
			return secLineHeader, p, 0
		}
	}
	if run, ok := secB64Run(text, p, q); ok {
		return secLineB64, p, run
	}
	return secLineNone, p, 0
}

// secB64Run reports whether text[p:q] is one base64 run in the wrappers a
// line of a key is written in: an opening quote or backtick; then after
// it a literal "\n" (a JSON string), an elision ("...", "…"), a closing
// quote, a comma, semicolon, '+' or '\' (a string continued on the next
// line). n is the run's length.
func secB64Run(text string, p, q int) (n int, ok bool) {
	if p < q && (text[p] == '"' || text[p] == '\'' || text[p] == '`') {
		p++
	}
	r := p
	for r < q && secB64Tab[text[r]] {
		r++
	}
	if r == p {
		return 0, false
	}
	return r - p, secTailOK(text[r:q])
}

// secTailOK reports whether rest, what follows a base64 run on its line,
// is only the wrappers secB64Run allows.
func secTailOK(rest string) bool {
	for _, suf := range []string{`\r\n`, `\n`, "...", "…"} {
		rest = strings.TrimPrefix(rest, suf)
	}
	if rest != "" && (rest[0] == '"' || rest[0] == '\'' || rest[0] == '`') {
		rest = rest[1:]
	}
	rest = strings.TrimLeft(rest, " \t")
	if len(rest) == 1 && strings.IndexByte(",;+\\", rest[0]) >= 0 {
		rest = ""
	}
	return rest == ""
}

// secPEMBlock is one PEM block found in a text.
type secPEMBlock struct {
	start, end int  // the secret: "-----BEGIN" (or the first body line) to the END marker's end (or the last body line's)
	begin      int  // end of the BEGIN marker; start when there is none
	endMark    int  // start of the END marker; end when there is none
	private    bool // the label names a private key
	material   int  // base64 bytes in the body
	diff       bool // lines start with a diff marker
}

// secPEMMinMaterial is how many base64 bytes a block's body needs for the
// block to be a key: a body of [REDACTED] lines, or a BEGIN line quoted
// in prose, holds none.
const secPEMMinMaterial = 16

// secParsePEM parses the block whose BEGIN marker is at st.
func secParsePEM(text string, st int) (secPEMBlock, bool) {
	hdrEnd, private, ok := secPEMMarker(text, st, "begin")
	if !ok {
		return secPEMBlock{}, false
	}
	ls := secLineStart(text, st)
	b := secPEMBlock{start: st, begin: hdrEnd, end: hdrEnd, endMark: -1, private: private,
		diff: st-ls == 1 && secIsMarker(text[ls])}
	eol := secEOL(text, hdrEnd)
	// The rest of the BEGIN line: a key on one line with "\n" escapes.
	rest := text[hdrEnd:eol]
	if i := secIndexFold(rest, "-----end"); i >= 0 {
		if me, _, ok := secPEMMarker(text, hdrEnd+i, "end"); ok {
			b.endMark, b.end = hdrEnd+i, me
			b.material = secCountB64(text[hdrEnd : hdrEnd+i])
			return b, true
		}
	}
	if t := strings.TrimRight(rest, " \t\r\"',;"); t != "" {
		b.end = hdrEnd + len(t)
		b.material = secCountB64(t)
	}
	blank := false
	for a := eol + 1; a < len(text); {
		e := secEOL(text, a)
		if i := secIndexFold(text[a:e], "-----end"); i >= 0 {
			kind, _, n := secBodyLine(text, a, a+i, b.diff)
			if me, _, ok := secPEMMarker(text, a+i, "end"); ok && kind != secLineNone && kind != secLineHeader {
				b.endMark, b.end = a+i, me
				b.material += n
			}
			break
		}
		kind, content, n := secBodyLine(text, a, e, b.diff)
		// Headers come before the body; after a blank line inside the
		// body only a long line continues it (not a one-word line of
		// prose, which is base64 too).
		if kind == secLineNone || kind == secLineHeader && b.material > 0 ||
			kind == secLineB64 && blank && b.material > 0 && n < secPEMMinMaterial {
			break
		}
		blank = kind == secLineBlank
		if !blank {
			b.end = content + len(strings.TrimRight(text[content:e], " \t\r"))
			b.material += n
		}
		a = e + 1
	}
	if b.endMark < 0 {
		b.endMark = b.end
	}
	return b, true
}

// secParsePEMBack parses the block whose END marker is at at, with no
// BEGIN before it: back over the body lines before it, but not before
// floor (the end of the previous block).
func secParsePEMBack(text string, at, floor int) (secPEMBlock, bool) {
	me, private, ok := secPEMMarker(text, at, "end")
	if !ok {
		return secPEMBlock{}, false
	}
	ls := secLineStart(text, at)
	b := secPEMBlock{start: at, begin: at, end: me, endMark: at, private: private,
		diff: at-ls == 1 && secIsMarker(text[ls])}
	// A body on the END line itself ("...AB==-----END").
	kind, content, n := secBodyLine(text, ls, at, b.diff)
	if kind == secLineNone || kind == secLineHeader {
		return b, true
	}
	if kind == secLineB64 {
		b.start, b.begin, b.material = content, content, n
	}
	// Only base64 lines: without the BEGIN line, a header or a blank line
	// is where the hunk or the quote began.
	for e := ls - 1; e >= floor && e > 0; {
		a := max(secLineStart(text, e), floor)
		kind, content, n := secBodyLine(text, a, e, b.diff)
		if kind != secLineB64 {
			break
		}
		b.start, b.begin = content, content
		b.material += n
		e = a - 1
	}
	return b, true
}

func secCountB64(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if secB64Tab[s[i]] {
			n++
		}
	}
	return n
}

// secPEMBlocks finds the private keys behind the private-key rule's anchor
// hits (BEGIN and END markers, in text order), and returns every block it
// parsed (a certificate's too) for the key-material rule to skip.
func secPEMBlocks(out []Secret, r *secretRule, text string, hits []secHit) ([]Secret, []secSpan) {
	var blocks []secSpan
	done := 0 // the end of the last block: a marker before it is inside it
	for _, h := range hits {
		st := int(h.start)
		if st < done {
			continue
		}
		var b secPEMBlock
		var ok bool
		if secHasFold(text, st, "-----begin") {
			b, ok = secParsePEM(text, st)
		} else {
			b, ok = secParsePEMBack(text, st, done)
		}
		if !ok {
			continue
		}
		done = b.end
		blocks = append(blocks, secSpan{secLineStart(text, b.start), b.end})
		// Back from an END marker, the marker says it is a key: even the
		// short last line alone is masked.
		need := secPEMMinMaterial
		if b.begin == b.start {
			need = 4
		}
		if !b.private || b.material < need {
			continue
		}
		out = append(out, Secret{
			RuleID:      r.id,
			Description: r.desc,
			Start:       b.start,
			End:         b.end,
			Masked:      secMaskLines(text, b, secMaskLine, true),
			Short:       secPEMShort(text, b),
			redacted:    secMaskLines(text, b, Redacted, false),
		})
	}
	return out, blocks
}

// secPEMShort names a block on one line: its BEGIN marker (or END marker)
// and how many lines it spans, "-----BEGIN RSA PRIVATE KEY-----…(27 lines)".
// The markers hold only the label's letters, digits, spaces, '_' and '-'.
func secPEMShort(text string, b secPEMBlock) string {
	n := strings.Count(text[b.start:b.end], "\n") + 1
	size := fmt.Sprintf("…(%d %s)", n, model.Plural(n, "line", "lines"))
	if b.begin > b.start {
		return text[b.start:b.begin] + size
	}
	return size + text[b.endMark:b.end]
}

// secMaskLines rewrites the block's span line by line: each line keeps its
// indentation (and diff marker) and trailing blanks; its content becomes
// mark. With markers set, the BEGIN and END markers stay as they are and
// only what lies between them is marked.
func secMaskLines(text string, b secPEMBlock, mark string, markers bool) string {
	var sb strings.Builder
	for a := b.start; a < b.end; {
		e := strings.IndexByte(text[a:b.end], '\n')
		if e < 0 {
			e = b.end
		} else {
			e += a
		}
		p := a
		if a != b.start {
			if b.diff && p < e && secIsMarker(text[p]) {
				p++
			}
			for p < e && (text[p] == ' ' || text[p] == '\t') {
				p++
			}
		}
		q := e
		for q > p && (text[q-1] == ' ' || text[q-1] == '\t' || text[q-1] == '\r') {
			q--
		}
		sb.WriteString(text[a:p])
		if q > p {
			if !markers {
				sb.WriteString(mark)
			} else {
				// Keep [start, begin) and [endMark, end); mark the rest.
				mid0, mid1 := max(p, min(q, b.begin)), min(q, max(p, b.endMark))
				sb.WriteString(text[p:mid0])
				if mid1 > mid0 && strings.TrimSpace(text[mid0:mid1]) != "" {
					sb.WriteString(mark)
				} else {
					sb.WriteString(text[mid0:max(mid0, mid1)])
				}
				sb.WriteString(text[max(mid0, mid1):q])
			}
		}
		sb.WriteString(text[q:e])
		if e < b.end {
			sb.WriteByte('\n')
			e++
		}
		a = e
	}
	return sb.String()
}

// secKeyLines adds a key-material finding for every line outside the given
// PEM blocks that is nothing but key material (secKeyLine). It costs a
// memchr per line and a look at the line's first bytes: prose fails at its
// first space. (Testing aligned 8-byte words for bytes outside the base64
// range, or sampling one byte in 16 and widening it to its run, both cost
// more on memory text: prose has enough long words. See
// BenchmarkSecretPrefilter/keylines.)
func secKeyLines(text string, out []Secret, skip []secSpan) []Secret {
	k := 0
	for a := 0; a < len(text); {
		e := strings.IndexByte(text[a:], '\n')
		if e < 0 {
			e = len(text)
		} else {
			e += a
		}
		if e-a >= secKeyMin {
			if st, en, ok := secKeyLine(text, a, e); ok {
				for k < len(skip) && skip[k].end <= st {
					k++
				}
				if k == len(skip) || skip[k].start >= en {
					out = append(out, Secret{
						RuleID:      KeyMaterialRuleID,
						Description: "Identified a line of key material (a long random base64 line, such as one line of a private key)",
						Start:       st,
						End:         en,
						Masked:      secMaskLine,
						Short:       secMaskLine,
					})
				}
			}
		}
		a = e + 1
	}
	return out
}

// secB64Core marks the base64 alphabet without the '=' of padding.
var secB64Core = func() (t [256]bool) {
	t = secB64Tab
	t['='] = false
	return t
}()

// secKeyMin is how many base64 bytes a key line needs: the last line of a
// key is short (a 25-byte one shown alone by a line-by-line diff must still
// be masked), and the other tests keep prose, names and hashes out.
const secKeyMin = 20

// secKeyLine decides whether the line text[a:e] is one line of key
// material, and where its run is. The rule, tuned on random base64 and on
// the identifiers, paths and hashes memories hold:
//   - the line is one base64 run in the wrappers secB64Run allows, after
//     indentation and maybe a diff or list marker;
//   - the run is 20 bytes or longer (not counting '=' padding);
//   - it holds upper-case letters, lower-case letters and digits (a hex
//     hash has no upper case; a long CamelCase name usually no digit);
//   - at most half of it lies in runs of 3 or more lower-case letters (the
//     words of an identifier; random base64 of 40 bytes has that much in
//     1 case out of 500);
//   - its Shannon entropy is at least min(4, log2(n)-1.2) bits (random
//     base64 of 40 bytes never came below 4.19 in 100,000 draws; the DER
//     header line of a PKCS#8 key has 4.69).
func secKeyLine(text string, a, e int) (st, en int, ok bool) {
	p := a
	if p < e && (text[p] == '-' || text[p] == '>' || text[p] == '*') {
		p++
	}
	for p < e && (text[p] == ' ' || text[p] == '\t') {
		p++
	}
	if p < e && (text[p] == '"' || text[p] == '\'' || text[p] == '`') {
		p++
	}
	q := p
	for q < e && secB64Tab[text[q]] && text[q] != '=' {
		q++
	}
	n := q - p
	if n < secKeyMin {
		return 0, 0, false
	}
	r := q
	for r < e && r-q < 2 && text[r] == '=' {
		r++
	}
	if !secTailOK(text[r:secTrimEnd(text, r, e)]) {
		return 0, 0, false
	}
	// A leading '+' at the line's start is a diff marker when the rest has
	// a PEM line's width; otherwise it may be the key's, and is masked.
	if p == a && text[p] == '+' && (n-1 == 64 || n-1 == 70 || n-1 == 76) {
		p++
		n--
	}
	run := text[p:q]
	var up, lo, dig bool
	words, wrun := 0, 0
	for i := 0; i <= len(run); i++ {
		if i < len(run) {
			c := run[i]
			up = up || c >= 'A' && c <= 'Z'
			dig = dig || c >= '0' && c <= '9'
			if c >= 'a' && c <= 'z' {
				lo = true
				wrun++
				continue
			}
		}
		if wrun >= 3 {
			words += wrun
		}
		wrun = 0
	}
	if !up || !lo || !dig || 2*words > n {
		return 0, 0, false
	}
	if secEntropy(run) < min(4, math.Log2(float64(n))-1.2) {
		return 0, 0, false
	}
	return p, r, true
}

func secTrimEnd(text string, p, e int) int {
	for e > p && (text[e-1] == ' ' || text[e-1] == '\t' || text[e-1] == '\r') {
		e--
	}
	return e
}

// secEOL is the offset of the newline ending the line that holds i (or
// len(text)).
func secEOL(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}
