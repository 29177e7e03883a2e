// Package paint reduces a lipgloss style to the escape codes it writes
// around one line of text. Text drawn thousands of times (a report's
// findings, a frame's borders, a diff's words) then costs a string
// concatenation rather than a lipgloss render, which measures and re-wraps
// every line.
//
// The codes are lipgloss's own, in full colour: reducing them to what the
// terminal can show (256 or 16 colours, attributes only for NO_COLOR) is
// left to whatever writes them out, Bubble Tea for the TUI and a
// colorprofile.Writer for the CLI, as it is for text lipgloss renders.
//
// This is the only place memtui turns a style into escape codes.
package paint

import (
	"io"
	"strings"

	"charm.land/lipgloss/v2"
)

// Painter styles text the way its lipgloss style does.
type Painter struct {
	style     lipgloss.Style
	pre, post string
	mode      mode
}

type mode uint8

const (
	// viaLipgloss: every Paint is a lipgloss render (a shape the probe
	// could not reduce, or a style lipgloss draws rune by rune).
	viaLipgloss mode = iota
	// exact: the codes around the text, byte for byte what lipgloss
	// renders; text with newlines or tabs still goes through lipgloss.
	exact
	// span: the codes around the text whatever it holds (see Span).
	span
)

// New reduces s to the codes it writes before and after a line. Paint then
// gives exactly what s.Render would.
func New(s lipgloss.Style) Painter {
	// lipgloss draws underlined and struck-through text rune by rune (so
	// spaces can be left plain); such styles keep going through lipgloss.
	if s.GetUnderline() || s.GetStrikethrough() {
		return Painter{style: s}
	}
	pre, post, ok := probe(s)
	if !ok {
		return Painter{style: s} // an unexpected shape: lipgloss does the work
	}
	return Painter{style: s, pre: pre, post: post, mode: exact}
}

// Span reduces s to the codes it writes around one character and puts
// them around whole pieces of text already laid out by the caller (a
// diff's words, cut to their column, tabs expanded): one code for the
// piece even where lipgloss would go rune by rune (underline), nothing
// for an empty piece, and never a lipgloss pass.
func Span(s lipgloss.Style) Painter {
	pre, post, _ := probe(s)
	return Painter{style: s, pre: pre, post: post, mode: span}
}

// FromCodes paints with escape codes written by hand, as Span does: for
// what lipgloss cannot write as one plain code (it writes a single
// underline as "4;4").
func FromCodes(pre, post string) Painter {
	return Painter{pre: pre, post: post, mode: span}
}

// probe renders one character in s and splits the codes around it.
func probe(s lipgloss.Style) (pre, post string, ok bool) {
	const x = "x" // escape sequences hold no x
	r := s.Render(x)
	i := strings.Index(r, x)
	if i < 0 || strings.Contains(r[i+1:], x) {
		return "", "", false
	}
	return r[:i], r[i+len(x):], true
}

// Codes are the escape codes the painter writes before and after text (both
// empty for a plain style, or one lipgloss renders itself). They are for
// a highlight switched on and off by hand inside text styled by others.
func (p Painter) Codes() (pre, post string) { return p.pre, p.post }

// Paint returns s styled. For a New painter that is byte for byte what
// lipgloss renders: text with newlines or tabs (which lipgloss handles
// line by line and expands) goes through lipgloss itself.
func (p Painter) Paint(s string) string {
	switch {
	case p.mode == span:
		if s == "" || p.pre == "" && p.post == "" {
			return s
		}
	case p.mode != exact || strings.ContainsAny(s, "\n\t"):
		return p.style.Render(s)
	case p.pre == "" && p.post == "":
		return s
	}
	return p.pre + s + p.post
}

// PlainLen reports whether Paint(a+b+c) is just the escape codes around
// the text (no lipgloss pass), and if so its length in bytes; WritePlain
// then writes it without joining the pieces first. Only New painters
// answer yes.
func (p Painter) PlainLen(a, b, c string) (int, bool) {
	if p.mode != exact || hasNLTab(a) || hasNLTab(b) || hasNLTab(c) {
		return 0, false
	}
	return len(p.pre) + len(a) + len(b) + len(c) + len(p.post), true
}

// WritePlain writes Paint(a+b+c) to w when PlainLen says it is plain.
func (p Painter) WritePlain(w io.StringWriter, a, b, c string) {
	w.WriteString(p.pre)
	w.WriteString(a)
	w.WriteString(b)
	w.WriteString(c)
	w.WriteString(p.post)
}

func hasNLTab(s string) bool {
	return strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\t') >= 0
}
