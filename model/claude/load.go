package claude

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// The truncation warning (facts §3.2 step 6): head, reason, middle, detail,
// tail.
const (
	loadWarnHead = "> WARNING: MEMORY.md is "
	loadWarnMid  = ". Only part of it was loaded: "
	loadWarnTail = ". Keep index entries to one line under ~200 chars; move detail into topic files."
)

// Load is MEMORY.md as Claude Code's loader hands it to the agent, with the
// measurements behind its caps and the way back to lines of the file on disk.
//
// The pipeline is Claude Code 2.1.332's (facts §3.2): skip a file over
// 4,194,304 bytes; strip a BOM and the frontmatter; strip top-level HTML
// comment blocks when the text contains "<!--" (through marked's block
// lexer); trim; count lines and UTF-16 units; cut to 200 lines and 25,000
// units and append a warning that names what was cut; sanitise. A
// subagent's MEMORY.md (model.LoadAgent) skips the size check and both
// strips.
type Load struct {
	// Mode is the pipeline that was run.
	Mode model.LoadMode
	// TooLarge is true when the file is over model.IndexMaxReadBytes and
	// the pipeline is model.LoadAuto: Claude Code loads none of it and says
	// nothing (no warning). Every other field is then zero, but Empty.
	TooLarge bool
	// Text is exactly what the agent receives, without the "Contents of
	// …" header: Loaded, then "\n\n" and the warning when something was
	// cut, sanitised as Claude Code sanitises it (SanitizeLoaded) and
	// trimmed.
	Text string
	// Sent is the index part of Text: Text without the appended warning.
	Sent string
	// Loaded is the part of the trimmed index that was kept, before the
	// warning and before sanitising: offsets and counts refer to it.
	Loaded string
	// Trimmed is the index after stripping and trimming: what the caps
	// measure. It equals Loaded when nothing was cut.
	Trimmed string
	// Empty is true when Trimmed is empty; Claude Code then injects nothing.
	Empty bool
	// LineCount and Units measure Trimmed: lines split on "\n" (a "\r" stays
	// in its line and counts as a unit, as in JavaScript) and UTF-16 code
	// units (characters outside the BMP count 2).
	LineCount int
	Units     int
	// LineTruncated and SizeTruncated are Claude Code's two flags: more than
	// 200 lines, more than 25,000 units (both measured on Trimmed).
	LineTruncated bool
	SizeTruncated bool
	// Warning is the line appended after a cut ("> WARNING: MEMORY.md is
	// ..."), as the agent receives it (sanitised); "" when nothing was cut.
	Warning string
	// Detail is the warning's account of what was cut ("50 of 250 lines
	// were cut off, starting at line 201 (\"…\")", or "everything after
	// the first 25000 characters of line 1 was cut off"), unsanitised; ""
	// when nothing was cut. Its line numbers count lines of the stripped,
	// trimmed text, not of the file.
	Detail string
	// LoadedLines and LoadedUnits measure Loaded.
	LoadedLines int
	LoadedUnits int
	// LastLine is the 1-based line of the file holding the last loaded
	// character (0 when nothing loads); LastLineCut is true when the cut fell
	// inside that line, so part of it was dropped.
	LastLine    int
	LastLineCut bool
	// Dropped lists, in order, the 1-based lines of the file whose content
	// survives stripping but was cut entirely (blank lines are not listed).
	// DroppedBySize is the subset that only the 25,000-unit cut removed: they
	// lie within the first 200 lines.
	Dropped       []int
	DroppedBySize []int
	// HardCut is true when the size cut found no newline to cut at and cut
	// mid-line at 25,000 units.
	HardCut bool
	// FrontmatterEnd is the byte offset where the text after the frontmatter
	// starts (0 when the file has none; past a leading BOM, which is
	// stripped before the frontmatter is matched, when it has some).
	FrontmatterEnd int
	// CommentsStripped is true when at least one block-level HTML comment
	// was removed.
	CommentsStripped bool

	// For MaskedText: where the kept text ends in Trimmed (bytes), the
	// first line cut off in Trimmed ([quoteAt, quoteEnd), -1 when the
	// warning quotes none), and Detail without its quote.
	cut, quoteAt, quoteEnd int
	detailHead             string
}

// Truncated reports whether Claude Code cut the index.
func (l *Load) Truncated() bool { return l.LineTruncated || l.SizeTruncated }

// LinePercent is the share of the 200-line cap the index uses, in percent.
func (l *Load) LinePercent() float64 { return 100 * float64(l.LineCount) / model.IndexMaxLines }

// UnitPercent is the share of the 25,000-unit cap the index uses, in percent.
func (l *Load) UnitPercent() float64 { return 100 * float64(l.Units) / model.IndexMaxUnits }

// UsedPercent is the larger of LinePercent and UnitPercent: the measure
// Claude Code's compaction nudge uses.
func (l *Load) UsedPercent() float64 { return max(l.LinePercent(), l.UnitPercent()) }

// NearLimit reports whether the index uses 80% or more of either cap (160
// lines or 20,000 units) without being cut.
func (l *Load) NearLimit() bool {
	return !l.Truncated() && !l.Empty && (l.LineCount >= model.IndexNearLines || l.Units >= model.IndexNearUnits)
}

// LinesOverTarget is how many lines must go to get under the 70% target
// (140 lines); 0 when already there.
func (l *Load) LinesOverTarget() int { return max(0, l.LineCount-model.IndexTargetLines) }

// UnitsOverTarget is how many UTF-16 units must go to get under the 70%
// target (17,500); 0 when already there.
func (l *Load) UnitsOverTarget() int { return max(0, l.Units-model.IndexTargetUnits) }

// FormatFileSize renders n the way Claude Code's formatFileSize does:
// "<n> bytes" under 1 KB, else n/1024 with one decimal (rounded half up, as
// Number.prototype.toFixed does for these exact values), a trailing ".0"
// dropped, and "KB" (then "MB", "GB").
func FormatFileSize(n int) string {
	switch {
	case n < 1<<10:
		return strconv.Itoa(n) + " bytes"
	case n < 1<<20:
		return loadTenths(n, 1<<10) + "KB"
	case n < 1<<30:
		return loadTenths(n, 1<<20) + "MB"
	}
	return loadTenths(n, 1<<30) + "GB"
}

// loadTenths formats n/unit with one decimal, half up, without a ".0".
func loadTenths(n, unit int) string {
	t := (20*n + unit) / (2 * unit)
	s := strconv.Itoa(t / 10)
	if t%10 != 0 {
		s += "." + strconv.Itoa(t%10)
	}
	return s
}

// SimulateLoad runs Claude Code's auto-memory MEMORY.md load pipeline over
// content and reports what the agent receives and which lines of the file it
// never sees. It is linear in the size of content.
func SimulateLoad(content []byte) Load { return SimulateLoadMode(content, model.LoadAuto) }

// SimulateLoadMode runs the given pipeline over content. For
// model.LoadAuto, a content longer than model.IndexMaxReadBytes is a file
// Claude Code skips (TooLarge): a reader that caps MEMORY.md at
// model.IndexMaxReadBytes+1 bytes decides it right.
func SimulateLoadMode(content []byte, mode model.LoadMode) Load {
	return simulateLoad(content, mode, nil)
}

// simulateLoad is SimulateLoadMode of content followed by what tail
// counts (nil: content is the whole file).
func simulateLoad(content []byte, mode model.LoadMode, tail *model.IndexTail) Load {
	ld := Load{Mode: mode}
	body, fm := content, 0
	pm := loadMap{{out: 0, src: 0, n: len(content)}}
	if mode == model.LoadAuto {
		if len(content) > model.IndexMaxReadBytes {
			ld.TooLarge, ld.Empty = true, true
			return ld
		}
		fm = claudeFrontmatterEnd(content)
		ld.FrontmatterEnd = fm
		body = content[fm:]
		pm = loadMap{{out: 0, src: fm, n: len(body)}}
		if bytes.Contains(body, []byte("<!--")) {
			body, pm, ld.CommentsStripped = stripBlockComments(body, fm)
		}
	}
	a, b := tailTrim(body, tail)
	t := body[a:b]
	ld.Empty = len(t) == 0
	ld.LineCount = bytes.Count(t, []byte{'\n'}) + 1
	ld.Units = utf16Units(t)
	if tail != nil && !tail.Blank {
		ld.Empty = false
		ld.LineCount += tail.Newlines
		ld.Units += tail.Units
	}
	ld.LineTruncated = ld.LineCount > model.IndexMaxLines
	ld.SizeTruncated = ld.Units > model.IndexMaxUnits
	ld.Trimmed = jsString(t)

	end, lineCut, split := len(t), len(t), false
	if ld.Truncated() {
		if ld.LineTruncated {
			lineCut = loadNthNewline(t, model.IndexMaxLines)
			end = lineCut
		}
		if utf16Units(t[:end]) > model.IndexMaxUnits {
			end, ld.HardCut, split = loadSizeCut(t[:end])
		}
	}
	ld.setLoaded(t, end, split)
	ld.locate(content, body, pm, a, b, end, lineCut, split)
	return ld
}

// claudeFrontmatterEnd is where the text after the frontmatter starts, as
// Claude Code reads it (facts §2.2 "Parsing on read" steps 1-2): one
// leading BOM is stripped first, then the frontmatter regexp is matched. 0
// when there is no frontmatter (the BOM then stays: the body is the
// original text).
func claudeFrontmatterEnd(content []byte) int {
	bom := 0
	if bytes.HasPrefix(content, []byte("\uFEFF")) {
		bom = 3
	}
	if e := jsFrontmatterEnd(content[bom:]); e > 0 {
		return bom + e
	}
	return 0
}

// setLoaded fills Loaded, Text, Sent, Warning, Detail and the loaded
// measurements from the first end bytes of the trimmed text t.
func (ld *Load) setLoaded(t []byte, end int, split bool) {
	switch {
	case !ld.Truncated():
		ld.Loaded = ld.Trimmed
	case utf8.Valid(t) && !split:
		ld.Loaded = ld.Trimmed[:end]
	default:
		ld.Loaded = jsString(t[:end])
		if split {
			// JavaScript's slice(0, 25000) keeps the high half of a surrogate
			// pair, which a Go string cannot hold: Loaded shows it as U+FFFD
			// and stays 25,000 units long. The sanitiser deletes the lone
			// surrogate (\p{Cs}), so Text has neither.
			ld.Loaded += "\uFFFD"
		}
	}
	if !ld.Empty {
		ld.LoadedLines = strings.Count(ld.Loaded, "\n") + 1
	}
	ld.LoadedUnits = ld.Units
	if !ld.Truncated() {
		ld.Text = jsTrimString(SanitizeLoaded(ld.Trimmed))
		ld.Sent = ld.Text
		return
	}
	ld.LoadedUnits = utf16Units(t[:end])
	if split {
		ld.LoadedUnits++
	}
	kept := ld.Loaded
	if split {
		kept = jsString(t[:end])
	}
	ld.cut, ld.quoteAt, ld.quoteEnd = len(kept), -1, -1
	ld.Detail = ld.detail(t, end, split)
	warning := loadWarnHead + ld.reason() + loadWarnMid + ld.Detail + loadWarnTail
	// The warning starts with ">", so sanitising the whole content ends in
	// the sanitised warning (a "\r" ending the kept text pairs with the
	// "\n" after it, on the kept side).
	ld.Text = jsTrimString(SanitizeLoaded(kept + "\n\n" + warning))
	ld.Warning = SanitizeLoaded(warning)
	ld.Sent = strings.TrimSuffix(strings.TrimSuffix(ld.Text, ld.Warning), "\n\n")
}

// detail is the warning's account of the cut (facts §3.2 step 6): the
// lines cut off, counted in the trimmed text t, with the first one quoted
// when it has text; or, for a hard cut inside line 1, how many characters
// of it were kept.
func (ld *Load) detail(t []byte, end int, split bool) string {
	if split || end >= len(t) || t[end] != '\n' {
		return "everything after the first " + strconv.Itoa(ld.LoadedUnits) + " characters of line 1 was cut off"
	}
	kept := bytes.Count(t[:end], []byte{'\n'}) + 1
	d := strconv.Itoa(ld.LineCount-kept) + " of " + strconv.Itoa(ld.LineCount) + " lines were cut off, starting at line " + strconv.Itoa(kept+1)
	ld.detailHead = d
	next := t[end+1:]
	if i := bytes.IndexByte(next, '\n'); i >= 0 {
		next = next[:i]
	}
	if a, b := jsTrimBounds(next); a < b {
		ld.quoteAt = ld.cut + 1
		ld.quoteEnd = ld.quoteAt + len(jsString(next))
		d += quoteLine(jsString(next[a:b]))
	}
	return d
}

// quoteLine is the warning's quote of the first line cut off (trimmed).
func quoteLine(line string) string {
	return " (\"" + Clip(line, 80) + "\")"
}

// Span is a part of Trimmed (byte offsets, End exclusive) to show as
// another text: a secret, masked. Whole replaces it where it is shown
// whole, Part where the load cuts through it.
type Span struct {
	Start, End  int
	Whole, Part string
}

// MaskedText returns Text and Warning as they read with each span of
// Trimmed replaced, for showing them: Whole where the span lies inside
// what is shown, Part where the load cuts through it (the hard cut at
// 25,000 units, the 200-line cut through a secret of several lines, the
// quote clipped at 80 units), so that no part of a secret shows. The cut
// and the counts stay those of the real text; spans are sorted and do not
// overlap.
func (ld *Load) MaskedText(spans []Span) (text, warning string) {
	if len(spans) == 0 || ld.Empty {
		return ld.Text, ld.Warning
	}
	if !ld.Truncated() {
		return jsTrimString(SanitizeLoaded(maskRange(ld.Trimmed, 0, len(ld.Trimmed), spans))), ""
	}
	raw := loadWarnHead + ld.reason() + loadWarnMid + ld.MaskedDetail(spans) + loadWarnTail
	kept := maskRange(ld.Trimmed, 0, ld.cut, spans)
	return jsTrimString(SanitizeLoaded(kept + "\n\n" + raw)), SanitizeLoaded(raw)
}

// MaskedDetail is Detail with the spans of the line it quotes replaced
// before the quote is clipped (as MaskedText does).
func (ld *Load) MaskedDetail(spans []Span) string {
	if ld.quoteAt < 0 || len(spans) == 0 {
		return ld.Detail
	}
	return ld.detailHead + quoteLine(jsTrimString(maskRange(ld.Trimmed, ld.quoteAt, ld.quoteEnd, spans)))
}

// maskRange is s[a:b] with the spans in it replaced: Whole when a span lies
// inside [a, b), Part when it sticks out on either side.
func maskRange(s string, a, b int, spans []Span) string {
	var out strings.Builder
	at := a
	for _, sp := range spans {
		if sp.End <= a || sp.Start >= b {
			continue
		}
		s0, e0 := max(sp.Start, a), min(sp.End, b)
		if s0 < at {
			continue
		}
		out.WriteString(s[at:s0])
		if sp.Start >= a && sp.End <= b {
			out.WriteString(sp.Whole)
		} else {
			out.WriteString(sp.Part)
		}
		at = e0
	}
	out.WriteString(s[at:b])
	return out.String()
}

// reason is the middle of the warning, in the three forms of
// truncateEntrypointContent.
func (ld *Load) reason() string {
	switch {
	case ld.SizeTruncated && !ld.LineTruncated:
		return FormatFileSize(ld.Units) + " (limit: " + FormatFileSize(model.IndexMaxUnits) + ") — index entries are too long"
	case ld.LineTruncated && !ld.SizeTruncated:
		return strconv.Itoa(ld.LineCount) + " lines (limit: " + strconv.Itoa(model.IndexMaxLines) + ")"
	}
	return strconv.Itoa(ld.LineCount) + " lines and " + FormatFileSize(ld.Units)
}

// locate maps the cut back to lines of the original file: LastLine,
// LastLineCut, Dropped and DroppedBySize. body[a:b] is the trimmed text; end
// and lineCut are offsets in it.
func (ld *Load) locate(content, body []byte, pm loadMap, a, b, end, lineCut int, split bool) {
	if ld.Empty {
		return
	}
	last := a + end - 1
	if split {
		last = a + end // the first byte of the character the cut went through
	}
	w := lineWalker{content: content, line: 1}
	ld.LastLine = w.lineAt(pm.src(last))
	if !ld.Truncated() {
		return
	}
	cut := a + lineCut
	prev := 0
	same := 0 // body[:same] is known to lie on line prev or before
	for pos := a + end; pos < b; {
		r, sz := jsDecode(body, pos)
		if pos >= same && !jsSpace(r) {
			ln := w.lineAt(pm.src(pos))
			if ln != prev {
				ld.addDropped(ln, pos < cut)
				prev = ln
			}
			// Up to the next "\n" of its span, body is the file byte for byte
			// (or a "\r" swapped for "\n"), so all of it lies on line ln: a cut
			// index drops hundreds of lines, and mapping each character of
			// them back to the file is most of the work. Each byte is searched
			// once, so this stays linear even on one huge line.
			next := min(pm.spanEnd(pos), b)
			switch k := bytes.IndexByte(body[pos:next], '\n'); {
			case k >= 0:
				sz = k // the "\n" starts a character of the walk: jump to it
			case next == b:
				return // the rest is on line ln
			default:
				same = next // walk to the span's end without mapping
			}
		}
		pos += sz
	}
}

// addDropped records line ln as cut; the line the load ends in is partly
// loaded, so it marks LastLineCut instead.
func (ld *Load) addDropped(ln int, bySize bool) {
	if ln == ld.LastLine {
		ld.LastLineCut = true
		return
	}
	ld.Dropped = append(ld.Dropped, ln)
	if bySize {
		ld.DroppedBySize = append(ld.DroppedBySize, ln)
	}
}

// lineWalker turns increasing byte offsets of content into 1-based line
// numbers in linear total time.
type lineWalker struct {
	content []byte
	at      int
	line    int
}

func (w *lineWalker) lineAt(off int) int {
	if off < w.at { // offsets only grow in practice; restart if not
		w.at, w.line = 0, 1
	}
	off = min(off, len(w.content))
	w.line += bytes.Count(w.content[w.at:off], []byte{'\n'})
	w.at = off
	return w.line
}

// loadNthNewline returns the offset of the n-th "\n" in t (so t[:i] is the
// first n lines joined), or len(t) when t has fewer.
func loadNthNewline(t []byte, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(t[off:], '\n')
		if j < 0 {
			return len(t)
		}
		off += j
		if i == n-1 {
			return off
		}
		off++
	}
	return off
}

// loadSizeCut applies `t.slice(0, cutAt > 0 ? cutAt : 25000)` with cutAt =
// t.lastIndexOf("\n", 25000), in UTF-16 units, and returns the byte offset.
// hard is true when no newline qualified; split when that hard cut falls
// between the two halves of a surrogate pair.
func loadSizeCut(t []byte) (end int, hard, split bool) {
	cut, split := unitPrefix(t, model.IndexMaxUnits)
	lastNL := bytes.LastIndexByte(t[:cut], '\n')
	// A newline sitting exactly at unit 25,000 still qualifies for
	// lastIndexOf("\n", 25000).
	if cut < len(t) && t[cut] == '\n' && !split {
		lastNL = cut
	}
	if lastNL > 0 {
		return lastNL, false, false
	}
	return cut, true, split
}

// ---- JavaScript string semantics over UTF-8 bytes ----

// jsSpace reports whether r is whitespace for JavaScript's \s and trim().
func jsSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// unitPrefix is where JavaScript's slice(0, n) of b ends, n counted in
// UTF-16 units over b decoded as Node decodes it (jsDecode: an invalid
// sequence is one U+FFFD, one unit): end is the byte length of the longest
// prefix of whole characters at most n units long, len(b) when all of b
// fits. split is true when the character at end is a surrogate pair whose
// high half is unit n: slice(0, n) keeps that half, which no Go string can
// hold, and each caller decides what stands for it (the load's U+FFFD, the
// quote leaving the character out, the list scanner's stand-in).
func unitPrefix(b []byte, n int) (end int, split bool) {
	units := 0
	for i := 0; i < len(b); {
		// ASCII, nearly all of a real index, eight bytes at a time.
		for i+8 <= len(b) && units+8 <= n && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			units += 8
			i += 8
		}
		if i == len(b) {
			break
		}
		r, sz := rune(b[i]), 1
		if r >= utf8.RuneSelf { // jsDecode is not inlined: keep ASCII out of it
			r, sz = jsDecode(b, i)
		}
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return i, units < n // only a pair can overshoot from below n
		}
		units += w
		i += sz
	}
	return len(b), false
}

// jsDecode decodes the character at b[i] as Node's UTF-8 decoder (WHATWG)
// does: an invalid sequence becomes one U+FFFD per maximal subpart, so its
// size may be more than the 1 byte Go's decoder reports.
func jsDecode(b []byte, i int) (rune, int) {
	c := b[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	r, sz := utf8.DecodeRune(b[i:])
	if r != utf8.RuneError || sz > 1 {
		return r, sz
	}
	return utf8.RuneError, jsInvalidLen(b[i:])
}

// jsInvalidLen is the length of the maximal subpart of an invalid UTF-8
// sequence at the start of b (at least 1).
func jsInvalidLen(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

// jsString converts b to the string JavaScript would hold (invalid UTF-8
// replaced as jsDecode does).
func jsString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, sz := jsDecode(b, i)
		if r == utf8.RuneError && sz > 0 && !bytes.HasPrefix(b[i:], []byte("\uFFFD")) {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[i:i+sz]...)
		}
		i += sz
	}
	return string(out)
}

// utf16Units is JavaScript's String.length of b. ASCII, nearly all of a
// real index, is counted eight bytes at a time.
func utf16Units(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			n += 8
			i += 8
		}
		if i == len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, sz := jsDecode(b, i)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += sz
	}
	return n
}

// jsTrimBounds returns the bounds of b after String.prototype.trim.
func jsTrimBounds(b []byte) (start, end int) {
	for start < len(b) {
		r, sz := jsDecode(b, start)
		if !jsSpace(r) {
			break
		}
		start += sz
	}
	end = len(b)
	for end > start {
		r, sz := utf8.DecodeLastRune(b[start:end])
		if r == utf8.RuneError || !jsSpace(r) {
			break
		}
		end -= sz
	}
	return start, end
}

// jsFrontmatterEnd returns the length of the match of Claude Code's
// FRONTMATTER_REGEX /^---\s*\n([\s\S]*?)---\s*\n?/ at the start of b, or 0.
// The opening \s*\n backtracks to the last newline of the whitespace run
// after "---"; the lazy body then closes at the first "---" anywhere after
// it (even mid-line), and the trailing \s* swallows every whitespace
// character that follows, newlines included.
func jsFrontmatterEnd(b []byte) int {
	if !bytes.HasPrefix(b, []byte("---")) {
		return 0
	}
	i, lastNL := 3, -1
	for i < len(b) {
		r, sz := jsDecode(b, i)
		if !jsSpace(r) {
			break
		}
		if r == '\n' {
			lastNL = i
		}
		i += sz
	}
	if lastNL < 0 {
		return 0
	}
	k := bytes.Index(b[lastNL+1:], []byte("---"))
	if k < 0 {
		return 0
	}
	e := lastNL + 1 + k + 3
	for e < len(b) {
		r, sz := jsDecode(b, e)
		if !jsSpace(r) {
			break
		}
		e += sz
	}
	return e
}

// ---- position map ----

// loadSpan says that out[out:out+n] came from content[src:src+n].
type loadSpan struct{ out, src, n int }

// loadMap maps offsets of a derived text back to the file, as spans sorted
// by out. Stripping only deletes (and swaps a lone "\r" for "\n"), so src
// offsets increase with out.
type loadMap []loadSpan

// find returns the index of the span holding derived offset out, or len(m)
// when out is past them all.
func (m loadMap) find(out int) int {
	lo, hi := 0, len(m)
	for lo < hi {
		mid := (lo + hi) / 2
		if m[mid].out+m[mid].n <= out {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// spanEnd returns the derived offset where the span holding out ends (out
// itself when out is past every span): up to there, derived and file
// offsets advance together.
func (m loadMap) spanEnd(out int) int {
	if i := m.find(out); i < len(m) {
		return m[i].out + m[i].n
	}
	return out
}

// src returns the file offset of derived offset out.
func (m loadMap) src(out int) int {
	lo := m.find(out)
	if lo == len(m) {
		if lo == 0 {
			return 0
		}
		s := m[lo-1]
		return s.src + s.n
	}
	return m[lo].src + out - m[lo].out
}

// add appends a span, merging it with the previous one when contiguous.
func (m loadMap) add(out, src, n int) loadMap {
	if n <= 0 {
		return m
	}
	if k := len(m) - 1; k >= 0 && m[k].out+m[k].n == out && m[k].src+m[k].n == src {
		m[k].n += n
		return m
	}
	return append(m, loadSpan{out, src, n})
}

// ---- block-level HTML comment stripping ----

// stripBlockComments mirrors Claude Code 2.1.332's comment strip (facts
// §3.2 step 3, c0818 `OHe`): lex the text with marked (gfm:false); g is the
// text with "\r\n" and lone "\r" turned into "\n", as the lexer sees it;
// each top-level html token that is a comment (its raw text, leading
// whitespace removed, starts with "<!--" and contains "-->") is replaced by
// its residue once the comments are removed, or by nothing when the residue
// is only whitespace; everything else is g as it is (duplicate link
// definitions included: the output is sliced from g, not rebuilt from
// tokens). When no token is a comment, the original text comes back
// untouched, carriage returns and all. base is the file offset of body. It
// returns the new text, its map to the file, and whether a comment token
// was removed.
func stripBlockComments(body []byte, base int) ([]byte, loadMap, bool) {
	norm, nm := loadNormalizeCR(body, base)
	sc := mdScanner{src: norm, links: map[string]bool{}}
	keep := sc.topLevel()
	if !sc.stripped {
		return body, loadMap{{0, base, len(body)}}, false
	}
	out := make([]byte, 0, len(norm))
	var pm loadMap
	si := 0
	for _, r := range keep {
		for pos := r.s; pos < r.e; {
			for nm[si].out+nm[si].n <= pos {
				si++
			}
			sp := nm[si]
			n := min(r.e, sp.out+sp.n) - pos
			pm = pm.add(len(out), sp.src+pos-sp.out, n)
			out = append(out, norm[pos:pos+n]...)
			pos += n
		}
	}
	return out, pm, true
}

// loadNormalizeCR replaces "\r\n" and lone "\r" with "\n", as marked's lexer
// does before tokenizing.
func loadNormalizeCR(body []byte, base int) ([]byte, loadMap) {
	if bytes.IndexByte(body, '\r') < 0 {
		return body, loadMap{{0, base, len(body)}}
	}
	out := make([]byte, 0, len(body))
	var m loadMap
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\r' {
			if i+1 < len(body) && body[i+1] == '\n' {
				continue // the "\n" that follows is copied next
			}
			c = '\n'
		}
		m = m.add(len(out), base+i, 1)
		out = append(out, c)
	}
	return out, m
}

// loadRange is a half-open byte range.
type loadRange struct{ s, e int }

// mdScanner splits markdown into top-level block tokens the way marked's
// block lexer does with gfm:false (marked 17: Lexer.blockTokens with the
// "normal" rules of rules.ts), tracking only what decides where each token
// ends. Tokens nested in lists and blockquotes are never top level, so
// comments inside them survive, as in Claude Code.
type mdScanner struct {
	src      []byte
	links    map[string]bool // labels of link definitions already seen
	depth    int             // blockquote nesting of this scan
	stripped bool            // a comment token was found (and removed)
	// lhFail is where the last failed setext-heading scan stopped: a scan
	// from any line before it meets the same lines and fails the same way,
	// so it is skipped (marked's regexp rescans; this keeps us linear).
	lhFail int
}

type mdKind uint8

const (
	mdSpace mdKind = iota
	mdCode
	mdHeading
	mdHr
	mdBlockquote
	mdList
	mdHTML
	mdDef
	mdDefDup // a link definition whose label was already defined: marked does not push it
	mdLheading
	mdParagraph
)

// topLevel returns the ranges of src Claude Code keeps: every token's text
// except comment html tokens, reduced to their residue. (Duplicate link
// definitions are kept: marked drops them from its tokens, but Claude Code
// slices its output from the source.)
func (m *mdScanner) topLevel() []loadRange {
	var keep []loadRange
	add := func(s, e int) {
		if e <= s {
			return
		}
		if k := len(keep) - 1; k >= 0 && keep[k].e == s {
			keep[k].e = e
			return
		}
		keep = append(keep, loadRange{s, e})
	}
	for p := 0; p < len(m.src); {
		kind, e := m.next(p)
		switch {
		case kind == mdHTML && mdIsComment(m.src[p:e]):
			m.stripped = true
			for _, r := range mdResidue(m.src, p, e) {
				add(r.s, r.e)
			}
		default:
			add(p, e)
		}
		p = e
	}
	return keep
}

// mdIsComment is Claude Code's test on an html token: its raw text, with
// leading whitespace trimmed, starts with "<!--" and contains "-->".
func mdIsComment(raw []byte) bool {
	s, _ := jsTrimBounds(raw)
	return bytes.HasPrefix(raw[s:], []byte("<!--")) && bytes.Contains(raw, []byte("-->"))
}

// mdResidue removes the comment spans /<!--[\s\S]*?-->/g from src[p:e] and
// returns what is left, or nothing when the rest is only whitespace (Claude
// Code then drops the token whole, newlines included).
func mdResidue(src []byte, p, e int) []loadRange {
	var rs []loadRange
	blank := true
	at := p
	for at < e {
		i := bytes.Index(src[at:e], []byte("<!--"))
		if i < 0 {
			break
		}
		j := bytes.Index(src[at+i+4:e], []byte("-->"))
		if j < 0 {
			break
		}
		rs = append(rs, loadRange{at, at + i})
		at = at + i + 4 + j + 3
	}
	rs = append(rs, loadRange{at, e})
	for _, r := range rs {
		if s, t := jsTrimBounds(src[r.s:r.e]); s < t {
			blank = false
		}
	}
	if blank {
		return nil
	}
	return rs
}

// next returns the kind and end of the top-level token starting at p, trying
// marked's tokenizers in its order.
func (m *mdScanner) next(p int) (mdKind, int) {
	if e := m.space(p); e > p {
		return mdSpace, e
	}
	if e := m.code(p); e > p {
		return mdCode, e
	}
	if e := m.fences(p); e > p {
		return mdCode, e
	}
	if e := m.heading(p); e > p {
		return mdHeading, e
	}
	if e := m.hr(p); e > p {
		return mdHr, e
	}
	if e := m.blockquote(p); e > p {
		return mdBlockquote, e
	}
	if e := m.list(p); e > p {
		return mdList, e
	}
	if e := m.html(p); e > p {
		return mdHTML, e
	}
	if e, label := m.def(p); e > p {
		if m.links[label] {
			return mdDefDup, e
		}
		m.links[label] = true
		return mdDef, e
	}
	if e := m.lheading(p); e > p {
		return mdLheading, e
	}
	return mdParagraph, max(m.paragraph(p), p+1)
}

// ---- small helpers over m.src ----

func (m *mdScanner) eol(p int) int {
	if i := bytes.IndexByte(m.src[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(m.src)
}

// indent counts up to max spaces at p.
func (m *mdScanner) indent(p, max int) int {
	n := 0
	for n < max && p+n < len(m.src) && m.src[p+n] == ' ' {
		n++
	}
	return n
}

// newlines skips a run of "\n" at p (the (?:\n+|$) tail of many rules).
func (m *mdScanner) newlines(p int) int {
	for p < len(m.src) && m.src[p] == '\n' {
		p++
	}
	return p
}

func (m *mdScanner) at(p int) byte {
	if p < len(m.src) {
		return m.src[p]
	}
	return 0
}

// jsSpaceAt reports whether a JavaScript \s character starts at p; the end
// of input counts as not.
func (m *mdScanner) jsSpaceAt(p int) bool {
	if p >= len(m.src) {
		return false
	}
	r, _ := jsDecode(m.src, p)
	return jsSpace(r)
}

// blankLine reports whether src[p:e] holds only spaces and tabs.
func (m *mdScanner) blankLine(p, e int) bool {
	for ; p < e; p++ {
		if c := m.src[p]; c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// jsBlank reports whether src[p:e] is empty after JavaScript's trim().
func (m *mdScanner) jsBlank(p, e int) bool {
	s, t := jsTrimBounds(m.src[p:e])
	return s == t
}

// hasJSLineTerm reports whether src[p:e] holds U+2028 or U+2029, which a
// JavaScript "." does not match.
func (m *mdScanner) hasJSLineTerm(p, e int) bool {
	return bytes.Contains(m.src[p:e], []byte("\u2028")) || bytes.Contains(m.src[p:e], []byte("\u2029"))
}

// ---- tokenizers, in marked's order ----

// space: /^(?:[ \t]*(?:\n|$))+/
func (m *mdScanner) space(p int) int {
	e := -1
	for q := p; ; {
		r := q
		for r < len(m.src) && (m.src[r] == ' ' || m.src[r] == '\t') {
			r++
		}
		if r == len(m.src) {
			if r > p {
				e = r
			}
			return e
		}
		if m.src[r] != '\n' {
			return e
		}
		q = r + 1
		e = q
	}
}

// codeLine matches (?: {4}| {0,3}\t)[^\n]+ at q and returns the line end.
func (m *mdScanner) codeLine(q int) int {
	s := m.indent(q, 4)
	c := q + 4
	if s < 4 {
		if m.at(q+s) != '\t' {
			return -1
		}
		c = q + s + 1
	}
	if c >= len(m.src) || m.src[c] == '\n' {
		return -1
	}
	return m.eol(c)
}

// code: /^((?: {4}| {0,3}\t)[^\n]+(?:\n(?:[ \t]*(?:\n|$))*)?)+/
func (m *mdScanner) code(p int) int {
	e := -1
	for q := p; ; {
		le := m.codeLine(q)
		if le < 0 {
			return e
		}
		e, q = le, le
		if q < len(m.src) {
			q++
			e = q
			for {
				r := q
				for r < len(m.src) && (m.src[r] == ' ' || m.src[r] == '\t') {
					r++
				}
				if r == len(m.src) {
					return r
				}
				if m.src[r] != '\n' {
					break
				}
				q = r + 1
				e = q
			}
		}
	}
}

// fenceOpen matches the opening of a fence at p: ≤3 spaces, then ``` (with
// no backtick in the rest of the line) or ~~~. It returns the fence run.
func (m *mdScanner) fenceOpen(p, maxIndent int) (q, run int, ok bool) {
	q = p + m.indent(p, maxIndent)
	c := m.at(q)
	if c != '`' && c != '~' {
		return 0, 0, false
	}
	for q+run < len(m.src) && m.src[q+run] == c {
		run++
	}
	if run < 3 {
		return 0, 0, false
	}
	if c == '`' && bytes.IndexByte(m.src[q+run:m.eol(q+run)], '`') >= 0 {
		return 0, 0, false
	}
	return q, run, true
}

// fences: an opening fence, then everything up to a closing line of
// ≤3 spaces, the same fence run, any more fence characters and spaces; an
// unclosed fence runs to the end.
func (m *mdScanner) fences(p int) int {
	q, run, ok := m.fenceOpen(p, 3)
	if !ok {
		return -1
	}
	fence := m.src[q : q+run]
	le := m.eol(q + run)
	if le == len(m.src) {
		return le
	}
	for x := le + 1; x <= len(m.src); {
		if e := m.fenceClose(x, fence); e >= 0 {
			return e
		}
		nx := m.eol(x)
		if nx == len(m.src) {
			break
		}
		x = nx + 1
	}
	return len(m.src)
}

// fenceClose matches  {0,3}\1[~`]* *(?=\n|$) at x.
func (m *mdScanner) fenceClose(x int, fence []byte) int {
	y := x + m.indent(x, 3)
	if !bytes.HasPrefix(m.src[y:], fence) {
		return -1
	}
	y += len(fence)
	for y < len(m.src) && (m.src[y] == '~' || m.src[y] == '`') {
		y++
	}
	for y < len(m.src) && m.src[y] == ' ' {
		y++
	}
	if y < len(m.src) && m.src[y] != '\n' {
		return -1
	}
	return y
}

// hashes matches  {0,3}#{1,6} followed by \s or the end, returning the
// offset after the hashes.
func (m *mdScanner) hashes(p int) int {
	q := p + m.indent(p, 3)
	h := 0
	for h < 7 && m.at(q+h) == '#' {
		h++
	}
	if h == 0 || h > 6 {
		return -1
	}
	if q+h < len(m.src) && !m.jsSpaceAt(q+h) {
		return -1
	}
	return q + h
}

// heading: /^ {0,3}(#{1,6})(?=\s|$)(.*)(?:\n+|$)/ (a U+2028 in the line
// defeats the ".*").
func (m *mdScanner) heading(p int) int {
	q := m.hashes(p)
	if q < 0 {
		return -1
	}
	le := m.eol(q)
	if m.hasJSLineTerm(q, le) {
		return -1
	}
	return m.newlines(le)
}

// hrLine matches a thematic break line at p: ≤3 spaces, then three or more
// of one of - _ * with only the given blanks between, to the end of line.
func (m *mdScanner) hrLine(p, maxIndent int, tabs bool) bool {
	q := p + m.indent(p, maxIndent)
	c := m.at(q)
	if c != '-' && c != '_' && c != '*' {
		return false
	}
	n := 0
	le := m.eol(q)
	for i := q; i < le; i++ {
		switch m.src[i] {
		case c:
			n++
		case ' ':
		case '\t':
			if !tabs {
				return false
			}
		default:
			return false
		}
	}
	return n >= 3
}

// hr: /^ {0,3}((?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/
func (m *mdScanner) hr(p int) int {
	if !m.hrLine(p, 3, true) {
		return -1
	}
	return m.newlines(m.eol(p))
}

// bqStart matches  {0,3}> at p and returns the offset after ">".
func (m *mdScanner) bqStart(p int) int {
	q := p + m.indent(p, 3)
	if m.at(q) != '>' {
		return -1
	}
	return q + 1
}

// blockquote: /^( {0,3}> ?(paragraph|[^\n]*)(?:\n|$))+/, then the batching
// of Tokenizer.blockquote, which stops before lazy lines that follow a code
// block.
func (m *mdScanner) blockquote(p int) int {
	q, capEnd := p, -1
	for q < len(m.src) {
		r := m.bqStart(q)
		if r < 0 {
			break
		}
		if m.at(r) == ' ' {
			r++
		}
		le := m.eol(r)
		if le > r {
			le = m.paragraph(r)
		}
		capEnd, q = le, le
		if q < len(m.src) {
			q++
		}
	}
	if capEnd < 0 {
		return -1
	}
	for capEnd > p && m.src[capEnd-1] == '\n' { // rtrim(cap[0], '\n')
		capEnd--
	}
	return m.bqBatches(p, capEnd)
}

// bqBatches walks Tokenizer.blockquote's batches (lazy lines, then ">"
// lines) and stops early when a batch ends in a code block.
func (m *mdScanner) bqBatches(p, capEnd int) int {
	for q := p; q < capEnd; {
		bs, inBQ := q, false
		for q < capEnd {
			if m.bqStart(q) >= 0 {
				inBQ = true
			} else if inBQ {
				break
			}
			q = min(m.eol(q), capEnd)
			if q < capEnd {
				q++
			}
		}
		if q >= capEnd {
			return capEnd
		}
		switch m.bqLastKind(bs, q-1) {
		case mdCode:
			return q - 1
		case mdBlockquote:
			return capEnd
		}
	}
	return capEnd
}

// bqLastKind lexes the quoted text of src[s:e] (markers removed) and
// returns the kind of its last token, as the lexer's tokens.at(-1) sees it.
// Deep nesting falls back to "paragraph" to stay linear.
func (m *mdScanner) bqLastKind(s, e int) mdKind {
	if m.depth >= 4 {
		return mdParagraph
	}
	var inner []byte
	for q := s; q < e; {
		le := min(m.eol(q), e)
		line := m.src[q:le]
		if q > s && m.setextUnderline(q, le) {
			// marked re-indents a lazy underline so it is not read as one
			line = append([]byte("    "), m.src[q+m.indent(q, 3):le]...)
		} else if r := m.bqStart(q); r >= 0 && r <= le {
			line = m.src[r:le]
			if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
				line = line[1:]
			}
		}
		inner = append(inner, line...)
		if le < e {
			inner = append(inner, '\n')
		}
		q = le + 1
	}
	sub := mdScanner{src: inner, links: m.links, depth: m.depth + 1}
	last := mdParagraph
	for p := 0; p < len(inner); {
		k, end := sub.next(p)
		if !(k == mdSpace && end-p == 1 && p > 0) { // a lone "\n" joins the token before
			last = k
		}
		p = end
	}
	return last
}

// setextUnderline reports whether src[q:le] is  {0,3}(=+|-+) *.
func (m *mdScanner) setextUnderline(q, le int) bool {
	x := q + m.indent(q, 3)
	if x >= le || (m.src[x] != '=' && m.src[x] != '-') {
		return false
	}
	c := m.src[x]
	for x < le && m.src[x] == c {
		x++
	}
	for x < le && m.src[x] == ' ' {
		x++
	}
	return x == le
}

// bullet matches [*+-] or \d{1,9}[.)] at q and returns the offset after it.
func (m *mdScanner) bullet(q int) int {
	switch c := m.at(q); {
	case c == '*' || c == '+' || c == '-':
		return q + 1
	case c >= '0' && c <= '9':
		d := 0
		for d < 10 && m.at(q+d) >= '0' && m.at(q+d) <= '9' {
			d++
		}
		if d > 9 || (m.at(q+d) != '.' && m.at(q+d) != ')') {
			return -1
		}
		return q + d + 1
	}
	return -1
}

// listStart matches block.list, /^( {0,3}bull)([ \t][^\n]+?)?(?:\n|$)/: a
// bullet followed by the end of the line, or by a blank and at least one
// more character.
func (m *mdScanner) listStart(p int) (bull []byte, ok bool) {
	q := p + m.indent(p, 3)
	b := m.bullet(q)
	if b < 0 {
		return nil, false
	}
	c := m.at(b)
	if b == len(m.src) || c == '\n' {
		return m.src[q:b], true
	}
	if (c == ' ' || c == '\t') && b+1 < len(m.src) && m.src[b+1] != '\n' {
		return m.src[q:b], true
	}
	return nil, false
}

// sameBullet matches itemRegex's bullet: the same character for unordered
// lists, any 1-9 digits with the same delimiter for ordered ones.
func (m *mdScanner) sameBullet(q int, bull []byte) int {
	b := m.bullet(q)
	if b < 0 {
		return -1
	}
	if len(bull) == 1 && b-q == 1 && m.src[q] == bull[0] {
		return b
	}
	if len(bull) > 1 && b-q > 1 && m.src[b-1] == bull[len(bull)-1] {
		return b
	}
	return -1
}

// list: Tokenizer.list, item by item, returning the end of list.raw after
// trimEnd().
func (m *mdScanner) list(p int) int {
	bull, ok := m.listStart(p)
	if !ok {
		return -1
	}
	q := p
	for q < len(m.src) {
		if m.hrLine(q, 3, true) {
			break
		}
		e, ok := m.listItem(q, bull)
		if !ok {
			break
		}
		q = e
	}
	if q == p {
		return -1
	}
	_, t := jsTrimBounds(m.src[p:q])
	return p + t
}

// listItem consumes one item starting at q and returns where the next
// starts. It follows Tokenizer.list line by line.
func (m *mdScanner) listItem(q int, bull []byte) (int, bool) {
	s := m.indent(q, 3)
	b := m.sameBullet(q+s, bull)
	if b < 0 {
		return 0, false
	}
	c := m.at(b)
	if b < len(m.src) && c != '\n' && c != ' ' && c != '\t' {
		return 0, false
	}
	cap1 := b - q
	le := m.eol(b)
	line := mdExpandTabs(m.src[b:le], cap1) // cap[2]'s first line, tabs to the next stop
	next := le
	if next < len(m.src) {
		next++
	}
	blank := m.jsBlank(b, le)
	indent := 0
	if blank {
		indent = cap1 + 1
	} else {
		indent = bytes.IndexFunc(line, func(r rune) bool { return r != ' ' })
		if indent > 4 {
			indent = 1
		}
		indent += cap1
	}
	if blank && (next >= len(m.src) || m.blankLine(next, m.eol(next))) {
		return min(m.eol(next)+1, len(m.src)), true
	}
	return m.itemLines(next, indent, blank, line), true
}

// mdExpandTabs is marked's expandTabs: each tab advances to the next
// multiple of 4, counting columns from col.
func mdExpandTabs(b []byte, col int) []byte {
	if bytes.IndexByte(b, '\t') < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		if b[i] == '\t' {
			n := 4 - col%4
			out = append(out, "    "[:n]...)
			col += n
			i++
			continue
		}
		_, sz := jsDecode(b, i)
		out = append(out, b[i:i+sz]...)
		col++ // one "char" of a for-of loop: a code point
		i += sz
	}
	return out
}

// itemLines consumes the lines that belong to a list item after its first
// line. line is the previous line's content as Tokenizer.list keeps it.
func (m *mdScanner) itemLines(q, indent int, blank bool, line []byte) int {
	k := min(3, indent-1)
	for q < len(m.src) {
		le := m.eol(q)
		raw := m.src[q:le]
		if m.itemBreak(q, le, k) {
			break
		}
		wide := bytes.ReplaceAll(raw, []byte{'\t'}, []byte("    "))
		lead := bytes.IndexFunc(wide, func(r rune) bool { return r != ' ' })
		if !(lead >= indent || m.jsBlank(q, le)) {
			if blank || mdLazyStop(line, k) {
				break
			}
		}
		blank = m.jsBlank(q, le)
		line = mdSliceUnits(wide, indent)
		q = le + 1
	}
	return min(q, len(m.src))
}

// itemBreak reports whether the line at q ends the item: a fence, heading,
// html block, blockquote, bullet or thematic break indented at most k
// spaces.
func (m *mdScanner) itemBreak(q, le, k int) bool {
	x := q + m.indent(q, k)
	if bytes.HasPrefix(m.src[x:le], []byte("```")) || bytes.HasPrefix(m.src[x:le], []byte("~~~")) {
		return true
	}
	if x < le && (m.src[x] == '#' || m.src[x] == '>') {
		return true
	}
	if m.htmlBegin(x, le) {
		return true
	}
	if b := m.bullet(x); b >= 0 && b <= le && (b == le || m.src[b] == ' ' || m.src[b] == '\t') {
		return true
	}
	return m.hrLine(q, k, false)
}

// htmlBegin matches /<(?:[a-z].*>|!--)/i at x (before le).
func (m *mdScanner) htmlBegin(x, le int) bool {
	if x >= le || m.src[x] != '<' {
		return false
	}
	if bytes.HasPrefix(m.src[x+1:le], []byte("!--")) {
		return true
	}
	if !mdLetter(m.at(x + 1)) {
		return false
	}
	rest := m.src[x+2 : le]
	// ".*>" cannot run past a U+2028 or U+2029.
	if i := bytes.Index(rest, []byte("\u2028")); i >= 0 {
		rest = rest[:i]
	}
	if i := bytes.Index(rest, []byte("\u2029")); i >= 0 {
		rest = rest[:i]
	}
	return bytes.IndexByte(rest, '>') >= 0
}

// mdLazyStop reports whether the previous line was a block that a lazy
// continuation line cannot extend: indented code, a fence, a heading or a
// thematic break.
func mdLazyStop(line []byte, k int) bool {
	wide := bytes.ReplaceAll(line, []byte{'\t'}, []byte("    "))
	if bytes.IndexFunc(wide, func(r rune) bool { return r != ' ' }) >= 4 {
		return true
	}
	s := mdScanner{src: line}
	x := s.indent(0, k)
	if bytes.HasPrefix(line[x:], []byte("```")) || bytes.HasPrefix(line[x:], []byte("~~~")) || s.at(x) == '#' {
		return true
	}
	return s.hrLine(0, k, false)
}

// mdSliceUnits is JavaScript's s.slice(n) for n UTF-16 units; a cut through a
// surrogate pair leaves a stand-in character.
func mdSliceUnits(s []byte, n int) []byte {
	end, split := unitPrefix(s, n)
	switch {
	case split:
		return append([]byte("\uFFFD"), s[end+4:]...) // a pair is 4 bytes of UTF-8
	case end == len(s):
		return nil
	}
	return s[end:]
}

func mdLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// ---- html blocks ----

var mdBlockTags = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range bytes.Split([]byte("address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"), []byte("|")) {
		m[string(t)] = true
	}
	return m
}()

// html: block.html, the seven CommonMark html block kinds. Only kind 2
// (comments) matters to Claude Code, but the others decide where a comment
// can start.
func (m *mdScanner) html(p int) int {
	q := p + m.indent(p, 3)
	if m.at(q) != '<' {
		return -1
	}
	for _, f := range []func(int) int{m.htmlRaw, m.htmlComment, m.htmlPI, m.htmlDecl, m.htmlCDATA, m.htmlBlockTag, m.htmlLoneTag} {
		if e := f(q); e >= 0 {
			return e
		}
	}
	return -1
}

// tagName reads [a-z][\w-]* at q (ASCII letters any case).
func (m *mdScanner) tagName(q int) int {
	if !mdLetter(m.at(q)) {
		return -1
	}
	e := q + 1
	for e < len(m.src) {
		c := m.src[e]
		if !(mdLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-') {
			break
		}
		e++
	}
	return e
}

// (1) <(script|pre|style|textarea)[\s>][\s\S]*?(?:</\1>[^\n]*\n+|$)
func (m *mdScanner) htmlRaw(q int) int {
	e := m.tagName(q + 1)
	if e < 0 {
		return -1
	}
	name := bytes.ToLower(m.src[q+1 : e])
	switch string(name) {
	case "script", "pre", "style", "textarea":
	default:
		return -1 // <scripts> and the like: no \s or > right after the name
	}
	if e < len(m.src) && m.src[e] != '>' && !m.jsSpaceAt(e) {
		return -1
	}
	// </\1> with the i flag: the same name in any case.
	for c := e; ; {
		i := bytes.Index(m.src[c:], []byte("</"))
		if i < 0 {
			return len(m.src)
		}
		c += i + 2
		if end := c + len(name); end < len(m.src) && m.src[end] == '>' && bytes.EqualFold(m.src[c:end], name) {
			if le := m.eol(end); le < len(m.src) {
				return m.newlines(le)
			}
		}
	}
}

// (2) <!--(?:-?>|[\s\S]*?(?:-->|$))[^\n]*(\n+|$)
func (m *mdScanner) htmlComment(q int) int {
	if !bytes.HasPrefix(m.src[q:], []byte("<!--")) {
		return -1
	}
	c := q + 4
	switch {
	case m.at(c) == '>':
		c++
	case m.at(c) == '-' && m.at(c+1) == '>':
		c += 2
	default:
		i := bytes.Index(m.src[c:], []byte("-->"))
		if i < 0 {
			return len(m.src)
		}
		c += i + 3
	}
	return m.newlines(m.eol(c))
}

// htmlUntil finds end after q+skip and returns the offset after it and the
// newlines that follow, or the end of input.
func (m *mdScanner) htmlUntil(q, skip int, end string) int {
	i := bytes.Index(m.src[q+skip:], []byte(end))
	if i < 0 {
		return len(m.src)
	}
	return m.newlines(q + skip + i + len(end))
}

// (3) <\?[\s\S]*?(?:\?>\n*|$)
func (m *mdScanner) htmlPI(q int) int {
	if m.at(q+1) != '?' {
		return -1
	}
	return m.htmlUntil(q, 2, "?>")
}

// (4) <![A-Z][\s\S]*?(?:>\n*|$)
func (m *mdScanner) htmlDecl(q int) int {
	if m.at(q+1) != '!' || !mdLetter(m.at(q+2)) {
		return -1
	}
	return m.htmlUntil(q, 3, ">")
}

// (5) <!\[CDATA\[[\s\S]*?(?:\]\]>\n*|$)
func (m *mdScanner) htmlCDATA(q int) int {
	if !bytes.HasPrefix(m.src[q:], []byte("<![CDATA[")) {
		return -1
	}
	return m.htmlUntil(q, 9, "]]>")
}

// toBlank implements [\s\S]*?(?:(?:\n[ \t]*)+\n|$) from q: up to and
// through the first run of blank lines, or the end.
func (m *mdScanner) toBlank(q int) int {
	for j := q; j < len(m.src); j++ {
		if m.src[j] != '\n' {
			continue
		}
		g, last, k := j, -1, 0
		for g < len(m.src) && m.src[g] == '\n' {
			last = g
			k++
			g++
			for g < len(m.src) && (m.src[g] == ' ' || m.src[g] == '\t') {
				g++
			}
		}
		if k >= 2 {
			return last + 1
		}
	}
	return len(m.src)
}

// (6) </?(tag)(?: +|\n|/?>)[\s\S]*?(?:(?:\n[ \t]*)+\n|$)
func (m *mdScanner) htmlBlockTag(q int) int {
	s := q + 1
	if m.at(s) == '/' {
		s++
	}
	e := m.tagName(s)
	if e < 0 {
		return -1
	}
	// The alternation accepts any listed name that is a prefix of what
	// follows, as long as the next character fits; try the longest names
	// (none is longer than 10 characters).
	for n := min(e, s+10); n > s; n-- {
		if !mdBlockTags[string(bytes.ToLower(m.src[s:n]))] {
			continue
		}
		switch c := m.at(n); {
		case n < len(m.src) && c == ' ':
			for m.at(n) == ' ' {
				n++
			}
			return m.toBlank(n)
		case n < len(m.src) && (c == '\n' || c == '>'):
			return m.toBlank(n + 1)
		case c == '/' && m.at(n+1) == '>':
			return m.toBlank(n + 2)
		}
	}
	return -1
}

// (7) a complete open or closing tag alone on its line (other than the raw
// kinds), then up to a blank line.
func (m *mdScanner) htmlLoneTag(q int) int {
	s := q + 1
	closing := m.at(s) == '/'
	if closing {
		s++
	}
	e := m.tagName(s)
	if e < 0 {
		return -1
	}
	low := bytes.ToLower(m.src[s:e])
	for _, n := range []string{"script", "pre", "style", "textarea"} {
		if bytes.HasPrefix(low, []byte(n)) {
			return -1
		}
	}
	var gt int
	if closing {
		gt = e
		for gt < len(m.src) && m.jsSpaceAt(gt) {
			_, sz := jsDecode(m.src, gt)
			gt += sz
		}
		if m.at(gt) != '>' {
			return -1
		}
	} else if gt = m.attrs(e); gt < 0 {
		return -1
	}
	gt++
	le := m.eol(gt)
	if !m.blankLine(gt, le) {
		return -1
	}
	return m.toBlank(gt)
}

// attrs parses (?:attribute)*? */?> after a tag name and returns the offset
// of the closing ">".
func (m *mdScanner) attrs(x int) int {
	for {
		y := x
		for m.at(y) == ' ' {
			y++
		}
		if m.at(y) == '/' && m.at(y+1) == '>' {
			return y + 1
		}
		if m.at(y) == '>' {
			return y
		}
		if y == x || !(mdLetter(m.at(y)) || m.at(y) == ':' || m.at(y) == '_') {
			return -1
		}
		x = m.attr(y)
	}
}

// attr parses one attribute name and optional value at y.
func (m *mdScanner) attr(y int) int {
	for y < len(m.src) {
		c := m.src[y]
		if !(mdLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			break
		}
		y++
	}
	z := y
	for m.at(z) == ' ' {
		z++
	}
	if m.at(z) != '=' {
		return y
	}
	z++
	for m.at(z) == ' ' {
		z++
	}
	switch q := m.at(z); q {
	case '"', '\'':
		for i := z + 1; i < len(m.src) && m.src[i] != '\n'; i++ {
			if m.src[i] == q {
				return i + 1
			}
		}
		return y
	}
	v := z
	for v < len(m.src) && !bytes.ContainsRune([]byte("\"'=<>`"), rune(m.src[v])) && !m.jsSpaceAt(v) {
		v++
	}
	if v == z {
		return y
	}
	return v
}

// ---- link definitions ----

// def matches block.def on one line: [label]: destination, an optional
// title, and trailing spaces. It returns the end (after newlines) and the
// normalised label. Definitions spread over several lines are left to the
// paragraph rule.
func (m *mdScanner) def(p int) (int, string) {
	q := p + m.indent(p, 3)
	le := m.eol(q)
	if m.at(q) != '[' {
		return -1, ""
	}
	lb := q + 1
	i := lb
	for i < le && m.src[i] != ']' {
		switch m.src[i] {
		case '\\':
			i++
		case '[':
			return -1, ""
		}
		i++
	}
	if i >= le || m.at(i+1) != ':' || m.jsBlank(lb, i) {
		return -1, ""
	}
	label := mdLabel(m.src[lb:i])
	x := i + 2
	for m.at(x) == ' ' {
		x++
	}
	x = m.defDest(x, le)
	if x < 0 {
		return -1, ""
	}
	x = m.defTitle(x, le)
	if x < 0 || !m.blankSpaces(x, le) {
		return -1, ""
	}
	return m.newlines(le), label
}

// mdLabel normalises a definition label as marked does:
// toLowerCase().replace(/\s+/g, " ").
func mdLabel(b []byte) string {
	low := bytes.ToLower(b)
	out := make([]byte, 0, len(low))
	space := false
	for i := 0; i < len(low); {
		r, sz := jsDecode(low, i)
		if jsSpace(r) {
			if !space {
				out = append(out, ' ')
			}
			space = true
		} else {
			out = append(out, low[i:i+sz]...)
			space = false
		}
		i += sz
	}
	return string(out)
}

// defDest matches ([^<\s][^\s]*|<.*?>) at x.
func (m *mdScanner) defDest(x, le int) int {
	if x >= le {
		return -1
	}
	if m.src[x] == '<' {
		j := bytes.IndexByte(m.src[x:le], '>')
		if j < 0 {
			return -1
		}
		return x + j + 1
	}
	y := x
	for y < le && !m.jsSpaceAt(y) {
		_, sz := jsDecode(m.src, y)
		y += sz
	}
	if y == x {
		return -1
	}
	return y
}

// defTitle matches an optional " +title" at x and returns the offset after
// it (x itself when there is none).
func (m *mdScanner) defTitle(x, le int) int {
	y := x
	for m.at(y) == ' ' && y < le {
		y++
	}
	if y == x || y >= le {
		return x
	}
	switch m.src[y] {
	case '"':
		// "(?:\\"?|[^"\\])*" backtracks to any later quote as long as the
		// quotes before it are escaped; only spaces may follow the title, so
		// it must be the line's last quote.
		z := y + 1 + bytes.LastIndexByte(m.src[y+1:le], '"')
		if z <= y {
			return x
		}
		for i := y + 1; i < z; i++ {
			if m.src[i] == '"' && m.src[i-1] != '\\' {
				return x
			}
		}
		return z + 1
	case '\'':
		if z := bytes.IndexByte(m.src[y+1:le], '\''); z >= 0 {
			return y + 1 + z + 1
		}
	case '(':
		for z := y + 1; z < le; z++ {
			switch m.src[z] {
			case '(':
				return x
			case ')':
				return z + 1
			}
		}
	}
	return x
}

// blankSpaces reports whether src[x:le] is only spaces.
func (m *mdScanner) blankSpaces(x, le int) bool {
	for ; x < le; x++ {
		if m.src[x] != ' ' {
			return false
		}
	}
	return true
}

// ---- setext headings and paragraphs ----

// lheadStartBlocked is the negative lookahead shared by the first line and
// each continuation of block.lheading: a bullet and space (unindented),
// indented code, a fence, a blockquote, a heading, or a one-line html tag.
func (m *mdScanner) lheadStartBlocked(x int) bool {
	if b := m.bullet(x + m.indent(x, 3)); b >= 0 && m.at(b) == ' ' {
		return true
	}
	if s := m.indent(x, 4); s == 4 || m.at(x+s) == '\t' {
		return true
	}
	y := x + m.indent(x, 3)
	if bytes.HasPrefix(m.src[y:], []byte("```")) || bytes.HasPrefix(m.src[y:], []byte("~~~")) || m.at(y) == '>' {
		return true
	}
	h := 0
	for h < 6 && m.at(y+h) == '#' {
		h++
	}
	if h > 0 {
		return true
	}
	if m.at(y) == '<' {
		le := m.eol(y)
		if gt := bytes.IndexByte(m.src[y+1:le], '>'); gt > 0 && y+1+gt == le-1 && le < len(m.src) {
			return true
		}
	}
	return false
}

// lheading: block.lheading, text lines closed by a line of = or -.
func (m *mdScanner) lheading(p int) int {
	if p < m.lhFail || m.lheadStartBlocked(p) {
		return -1
	}
	for q := p; ; {
		le := m.eol(q)
		if le == q || m.hasJSLineTerm(q, le) || le == len(m.src) {
			m.lhFail = q
			return -1
		}
		x := le + 1
		ue := m.eol(x)
		if m.setextUnderline(x, ue) {
			return m.newlines(ue)
		}
		if (ue < len(m.src) && m.jsBlank(x, ue)) || m.lheadStartBlocked(x) {
			m.lhFail = x
			return -1
		}
		q = x
	}
}

// paragraphBreak reports whether the line at x interrupts a paragraph (the
// negative lookahead of block.paragraph).
func (m *mdScanner) paragraphBreak(x int) bool {
	le := m.eol(x)
	if le == x {
		return true // [^\n]+ needs a character
	}
	if le < len(m.src) && m.indent(x, le-x) == le-x {
		return true //  +\n
	}
	if m.hrLine(x, 3, true) || m.hashes(x) >= 0 || m.bqStart(x) >= 0 {
		return true
	}
	if _, _, ok := m.fenceOpen(x, 3); ok && le < len(m.src) {
		return true // the lookahead wants the fence line's newline
	}
	y := x + m.indent(x, 3)
	if b := m.bullet(y); b >= 0 && (m.at(b) == ' ' || m.at(b) == '\t') {
		if n := b - y; n == 1 || (n == 2 && m.src[y] == '1') {
			return true
		}
	}
	return m.paragraphHTML(x)
}

// paragraphHTML matches the html part of the paragraph lookahead at column
// 0, case-sensitively: </?(tag)(?: +|\n|/?>) or <(script|pre|style|textarea|!--).
func (m *mdScanner) paragraphHTML(x int) bool {
	if m.at(x) != '<' {
		return false
	}
	for _, n := range []string{"script", "pre", "style", "textarea", "!--"} {
		if bytes.HasPrefix(m.src[x+1:], []byte(n)) {
			return true
		}
	}
	s := x + 1
	if m.at(s) == '/' {
		s++
	}
	e := s
	for e < len(m.src) && (m.src[e] >= 'a' && m.src[e] <= 'z' || m.src[e] >= '0' && m.src[e] <= '9') {
		e++
	}
	for n := min(e, s+10); n > s; n-- {
		if !mdBlockTags[string(m.src[s:n])] {
			continue
		}
		if c := m.at(n); n < len(m.src) && (c == ' ' || c == '\n' || c == '>') || c == '/' && m.at(n+1) == '>' {
			return true
		}
	}
	return false
}

// paragraph: /^([^\n]+(?:\n(?!interrupt)[^\n]+)*)/ from p; the end excludes
// the final newline.
func (m *mdScanner) paragraph(p int) int {
	le := m.eol(p)
	for le < len(m.src) {
		x := le + 1
		if x >= len(m.src) || m.paragraphBreak(x) {
			break
		}
		le = m.eol(x)
	}
	return le
}
