// Package safe is the one place text read from disk, a transcript, the
// journal or a proposer is made harmless before memtui shows it: secrets
// masked, then every character that could move the cursor, reach the
// terminal as a command (an escape sequence: OSC 52 writes the clipboard,
// OSC 8 makes links, CSI clears the screen) or disguise what the text says
// (bidi overrides, invisible format characters) shown visibly instead.
//
// Line is for one-line places (a file name, a title, a path, a table cell,
// a status line); Block for text of many lines (a body, a diff). Show and
// ShowLine mask secrets first; every text output and every TUI cell goes
// through one of these.
//
// The escapes are Go's: \x1b for a control byte or an invalid UTF-8 byte,
// \n, \r, \t, \u202e (\U000e0041 above the BMP) for a Unicode character. So
// the shown text stays unambiguous, a backslash that would otherwise read
// as the start of an escape is doubled (\\n is a backslash and an n, \n a
// newline); any other backslash (C:\Users, a regex's \d) shows as it is.
// Line is therefore injective: distinct inputs never show the same. Block
// is too, except that a CRLF line ending shows as the LF it is treated as.
// (Rendered as markdown, as the TUI's preview does, a doubled backslash
// reads as one again: the source view shows the text exactly.)
//
// Two helpers cover what is not plain text: KeepSGR strips whatever a
// renderer (glamour) added to text already made safe, but its colours; JSON
// escapes, in encoded JSON, the characters encoding/json leaves raw.
package safe

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model/claude"
)

// Line returns s fit for a one-line place: every control character
// (newlines and tabs too), DEL, C1 control, invalid UTF-8 byte, bidi
// control and invisible format character is replaced by its escape.
func Line(s string) string {
	if plain(s, false) {
		return s
	}
	return escape(s, false)
}

// Block returns s fit for text of many lines: newlines and tabs stay, a
// CRLF line ending becomes a plain newline (the \r never reaches the
// terminal), and everything Line escapes, a stray \r included, is escaped
// the same way. Zero-width joiners stay, as emoji and some scripts need
// them; Line escapes them.
func Block(s string) string {
	if plain(s, true) {
		return s
	}
	return escape(s, true)
}

// Show masks every secret in the whole of s (so a multi-line secret such as
// a PEM key is masked on every line) and returns it as Block does.
func Show(s string) string { return Block(Mask(nil, s)) }

// ShowLine masks every secret in s and returns it as Line does: for file
// names, titles, branches and paths, where a secret can hide too.
func ShowLine(s string) string { return Line(Mask(nil, s)) }

// MaskAll is Mask (the default scanner) of each of ss, each a whole text,
// in a new slice that is never nil (a JSON list, never null).
func MaskAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Mask(nil, s)
	}
	return out
}

// Mask replaces every secret sc finds in the whole of s by its mask (nil
// sc: the default scanner). It is always given a whole text, never a line
// of one: a secret spanning lines is found only whole.
func Mask(sc *secrets.Scanner, s string) string {
	if s == "" {
		return s
	}
	if sc == nil {
		sc = secrets.Default()
	}
	return sc.MaskSecrets(s)
}

// LoadText is what the agent receives of an index (l.Text) and the warning
// appended to it (l.Warning), for showing: every secret the default scanner
// finds in the whole of the index's text is masked, one the load cuts
// through too (the 25,000-unit cut inside a token, the warning's quote
// clipped at 80 characters: masking the cut text would miss what is left of
// it). The result is still raw text: show it through Line, Block or JSON.
func LoadText(l *claude.Load) (text, warning string) {
	var spans []claude.Span
	for _, s := range secrets.Default().Scan(l.Trimmed) {
		spans = append(spans, claude.Span{Start: s.Start, End: s.End, Whole: s.Masked, Part: s.Short})
	}
	text, warning = l.MaskedText(spans)
	// Sanitising deletes invisible characters, which may join a secret
	// that no scan of the file finds.
	return Mask(nil, text), Mask(nil, warning)
}

// plain reports whether s needs no escape: printable ASCII, newlines and
// tabs when block, and no backslash (which may need doubling).
func plain(s string, block bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '\\' {
			continue
		}
		if block && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// escape is the slow path: s holds something that is not plain ASCII.
func escape(s string, block bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		switch c {
		case '\\':
			// Doubled only where what follows would make it read as an
			// escape: the next character is an escape letter or a
			// backslash, or will itself be shown as an escape.
			if i+1 < len(s) && startsEscape(s[i+1:], block) {
				b.WriteString(`\\`)
			} else {
				b.WriteByte('\\')
			}
			i++
			continue
		case '\n':
			if block {
				b.WriteByte('\n')
			} else {
				b.WriteString(`\n`)
			}
			i++
			continue
		case '\t':
			if block {
				b.WriteByte('\t')
			} else {
				b.WriteString(`\t`)
			}
			i++
			continue
		case '\r':
			if block && i+1 < len(s) && s[i+1] == '\n' {
				i++ // CRLF: the \n is written next
				continue
			}
			b.WriteString(`\r`)
			i++
			continue
		}
		if c < 0x80 { // the other C0 controls and DEL
			hexByte(&b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			hexByte(&b, c)
			i++
			continue
		}
		if hidden(r, block) {
			hexRune(&b, r)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// startsEscape reports whether rest, shown after a backslash, would make
// it read as the start of an escape.
func startsEscape(rest string, block bool) bool {
	switch c := rest[0]; c {
	case 'x', 'n', 'r', 't', 'u', 'U', '\\':
		return true
	case '\n', '\t':
		return !block
	case '\r':
		return !block || len(rest) < 2 || rest[1] != '\n'
	default:
		if c < 0x20 || c == 0x7f {
			return true
		}
		if c < 0x80 {
			return false
		}
		r, n := utf8.DecodeRuneInString(rest)
		return r == utf8.RuneError && n == 1 || hidden(r, block)
	}
}

// hidden reports whether r, valid UTF-8 and not ASCII, must be escaped: a
// C1 control, a line or paragraph separator, or a format character
// (category Cf: the bidi embeddings, overrides, isolates and marks, zero
// width spaces, the BOM, the tag characters that can smuggle invisible
// text). Block keeps the zero-width joiner and non-joiner, which emoji and
// Persian or Indic text need.
func hidden(r rune, block bool) bool {
	switch {
	case r < 0xa0:
		return true // C1
	case r == 0x2028 || r == 0x2029:
		return true
	case block && (r == 0x200c || r == 0x200d):
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// Writer passes what is written to w through Block: for a stream memtui
// relays but did not write (an external proposer's stderr). Each write is
// made safe on its own, so a character split between two writes shows as
// escaped bytes rather than whole: never raw.
func Writer(w io.Writer) io.Writer { return blockWriter{w} }

type blockWriter struct{ w io.Writer }

func (bw blockWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(bw.w, Block(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

const hexDigits = "0123456789abcdef"

func hexByte(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

func hexRune(b *strings.Builder, r rune) {
	n := 4
	if r > 0xffff {
		b.WriteString(`\U`)
		n = 8
	} else {
		b.WriteString(`\u`)
	}
	for i := n - 1; i >= 0; i-- {
		b.WriteByte(hexDigits[(r>>(4*i))&0xf])
	}
}

// KeepSGR returns styled text (a renderer's output, glamour's) with only
// its colours and attributes left: every well-formed SGR sequence
// (ESC [ digits ; : m) stays, and every other escape sequence (an OSC 8
// link the renderer made from a URL in a memory, a window title, a
// clipboard write, a cursor move), every other control character but
// newline and tab, and every invalid UTF-8 byte is dropped. The text itself must already have been made
// safe (Block) before it was rendered; KeepSGR removes what the renderer
// added.
func KeepSGR(s string) string {
	if !strings.ContainsFunc(s, isCtl) && utf8.ValidString(s) {
		return s
	}
	// Built lazily: a renderer's output is mostly text and SGR, kept as
	// it is, so the copy starts at the first thing dropped.
	var b strings.Builder
	copied := false
	drop := func(i int) {
		if !copied {
			b.Grow(len(s))
			b.WriteString(s[:i])
			copied = true
		}
	}
	keep := func(part string) {
		if copied {
			b.WriteString(part)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			n, sgr := escapeLen(s[i:])
			if sgr {
				keep(s[i : i+n])
			} else {
				drop(i)
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			drop(i)
		case isCtl(r) && r != '\n' && r != '\t':
			drop(i)
			if r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f {
				// A C1 introducer: drop the sequence it starts too.
				n += sequenceLen(s[i+n:], r == 0x9b)
			}
		default:
			keep(s[i : i+n])
		}
		i += n
	}
	if !copied {
		return s
	}
	return b.String()
}

func isCtl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// escapeLen is the length of s's leading escape sequence, and whether it
// is SGR (kept).
func escapeLen(s string) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		n := 2 + sequenceLen(s[2:], true)
		return n, isSGR(s[:n])
	case ']', 'P', 'X', '^', '_':
		return 2 + sequenceLen(s[2:], false), false
	}
	if s[1] >= 0x20 && s[1] < 0x7f {
		return 2, false
	}
	return 1, false
}

// sequenceLen is how long the rest of a sequence is: a CSI's parameters,
// intermediates and final byte (csi), or a string's text up to and with
// its terminator (BEL, ESC \, or ST); to the end when it has none.
func sequenceLen(s string, csi bool) int {
	if csi {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			} else if c < 0x20 || c > 0x7e {
				return i // malformed: stop before what is not part of it
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}

// isSGR reports whether seq is ESC [ params m with only digits, ; and :.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// JSON returns encoded JSON with every character Line would hide escaped as
// \uXXXX (a pair of surrogates above the BMP): encoding/json escapes the C0
// controls and U+2028/U+2029 but passes C1 controls (U+009B is a CSI to some
// terminals) and bidi overrides through raw, and JSON is printed to
// terminals too. Outside strings JSON holds only ASCII, so the result is
// the same JSON value.
func JSON(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); i++ {
		if b[i] >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			out = append(out, b[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || !hidden(r, false) {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			out = appendU(appendU(out, r1), r2)
		} else {
			out = appendU(out, r)
		}
		i += n
	}
	return out
}

func appendU(b []byte, r rune) []byte {
	b = append(b, '\\', 'u')
	for i := 3; i >= 0; i-- {
		b = append(b, hexDigits[(r>>(4*i))&0xf])
	}
	return b
}
