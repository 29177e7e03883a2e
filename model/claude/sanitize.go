package claude

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// SanitizeLoaded is Claude Code's sanitiser of loaded memory text (facts
// §3.2 step 7, c0257 `BQ`), which runs over the cut MEMORY.md content
// before it reaches the model:
//
//   - "\r\n", a lone "\r", U+2028 and U+2029 become "\n";
//   - deleted: C0 controls but TAB and LF, DEL and the C1 controls, and every
//     character in \p{Cf} (format), \p{Co} (private use), \p{Cn}
//     (unassigned), \p{Cs} (lone surrogates) or Default_Ignorable_Code_Point,
//     except ZWNJ U+200C, ZWJ U+200D and the variation selectors VS15 U+FE0E
//     and VS16 U+FE0F;
//   - harness tags are neutralised with a backslash after their "<":
//     "<system-reminder>" becomes "<\system-reminder>" (harnessTags).
//
// \p{Cn} is "not assigned in this Unicode version". Go's tables are Unicode
// unicode.Version (15.0.0 for Go 1.26); Claude Code's runtime (Bun, on
// JavaScriptCore's ICU) may know a later version, so a character assigned
// after 15.0 is deleted here and kept by Claude Code. Such characters are
// rare in memory files, and the difference is on the side of showing less.
//
// s is valid UTF-8 (a Go string cannot hold a lone surrogate: the one a hard
// cut leaves is dropped by the caller), so the UTF-8 round trip of the
// original is the identity here.
func SanitizeLoaded(s string) string {
	if sanitizePlain(s) {
		return neutraliseTags(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0 // s[last:i] is kept as it is, and not written yet
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		r, sz := utf8.DecodeRuneInString(s[i:])
		var with string
		switch {
		case r == '\r':
			with = "\n"
			if i+1 < len(s) && s[i+1] == '\n' {
				sz++
			}
		case r == 0x2028 || r == 0x2029:
			with = "\n"
		case !sanitizeDeletes(r):
			i += sz
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(with)
		i += sz
		last = i
	}
	if last == 0 {
		return neutraliseTags(s)
	}
	b.WriteString(s[last:])
	return neutraliseTags(b.String())
}

// sanitizePlain reports whether s is printable ASCII, TAB and LF only:
// nothing for the sanitiser to change but tags.
func sanitizePlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// sanitizeDeletes reports whether the sanitiser deletes r. The BMP is
// answered from a bitmap made once from the tables (an index is mostly
// punctuation and CJK; a lookup in six range tables per character would
// double the cost of a load).
func sanitizeDeletes(r rune) bool {
	if r < 0x10000 {
		bmpDeletesOnce.Do(initBMPDeletes)
		return bmpDeletes[r>>6]&(1<<(r&63)) != 0
	}
	return sanitizeDeletesSlow(r)
}

var (
	bmpDeletesOnce sync.Once
	bmpDeletes     [0x10000 / 64]uint64
)

func initBMPDeletes() {
	for r := rune(0); r < 0x10000; r++ {
		if sanitizeDeletesSlow(r) {
			bmpDeletes[r>>6] |= 1 << (r & 63)
		}
	}
}

// sanitizeDeletesSlow is sanitizeDeletes from the Unicode tables.
func sanitizeDeletesSlow(r rune) bool {
	switch r {
	case '\t', '\n', 0x200C, 0x200D, 0xFE0E, 0xFE0F:
		return false
	}
	if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
		return true
	}
	if r < 0x80 {
		return false
	}
	// Default_Ignorable_Code_Point is Other_Default_Ignorable_Code_Point,
	// Cf and Variation_Selector, less a few Cf characters: with Cf deleted
	// whole, these tables cover it.
	if unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
		return true
	}
	// Cn: in no category. (Go's unicode.C covers unassigned code points
	// too, so the four assigned C categories are named.)
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Co)
}

// harnessTags are the tags the sanitiser neutralises, as far as the facts
// doc names them (§3.2 step 7; its list is "not exhaustive").
var harnessTags = []string{
	"system-reminder", "persisted-output", "function_results",
	"tool_use_error", "sandbox_violations", "user-prompt-submit-hook",
}

// neutraliseTags inserts a backslash after the "<" of every opening or
// closing harness tag: "<system-reminder>" → "<\system-reminder>",
// "</system-reminder>" → "<\/system-reminder>". A tag is its name, in any
// case, after "<" or "</", followed by anything that cannot continue a tag
// name (">", a space, "/", the end). The closing form and the case rule are
// memtui's reading of "inserting a backslash"; the facts doc gives only the
// opening example.
func neutraliseTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '/' {
			j++
		}
		if !harnessTagAt(s, j) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last : i+1])
		b.WriteByte('\\')
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// harnessTagAt reports whether a harness tag name starts at s[j] and ends
// there.
func harnessTagAt(s string, j int) bool {
	for _, t := range harnessTags {
		if len(s)-j < len(t) || !strings.EqualFold(s[j:j+len(t)], t) {
			continue
		}
		if k := j + len(t); k == len(s) || !tagNameByte(s[k]) {
			return true
		}
	}
	return false
}

func tagNameByte(c byte) bool {
	return c == '-' || c == '_' || c == ':' || c == '.' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// Clip shortens s to at most n UTF-16 units the way Claude Code quotes a
// line in its truncation warning (c0028 `PW`, facts §3.2 step 6): s itself
// when it fits; otherwise its first n-1 units (a character that would be
// split in two is left out), cut back to the last whitespace when more than
// n/2 units remain before it, trailing whitespace removed, and "…"
// appended. s is a JavaScript string (valid UTF-8); invalid bytes
// count as Node's decoder reads them.
func Clip(s string, n int) string {
	if utf16Units([]byte(s)) <= n {
		return s
	}
	end, _ := unitPrefix([]byte(s), n-1)
	c := s[:end]
	if i := lastJSSpace(c); i >= 0 && utf16Units([]byte(c[:i])) > n/2 {
		c = c[:i]
	}
	return jsTrimRightString(c) + "…"
}

// lastJSSpace is the byte offset of the last JavaScript white space
// character in s, -1 when it has none.
func lastJSSpace(s string) int {
	for i := len(s); i > 0; {
		r, sz := utf8.DecodeLastRuneInString(s[:i])
		i -= sz
		if jsSpace(r) {
			return i
		}
	}
	return -1
}

// jsTrimString is String.prototype.trim over s.
func jsTrimString(s string) string {
	a, b := jsTrimBounds([]byte(s))
	return s[a:b]
}

// jsTrimRightString is String.prototype.trimEnd over s.
func jsTrimRightString(s string) string {
	for len(s) > 0 {
		r, sz := utf8.DecodeLastRuneInString(s)
		if !jsSpace(r) {
			break
		}
		s = s[:len(s)-sz]
	}
	return s
}
