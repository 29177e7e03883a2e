// Package paint reduces a lipgloss style to the escape codes it writes
// around one line of text. Text drawn thousands of times (a report's
// findings, a frame's borders) then costs a string concatenation rather
// than a lipgloss render, which measures and re-wraps every line.
package paint

import (
	"io"
	"strings"

	"charm.land/lipgloss/v2"
)

// Painter styles single lines of text the way its lipgloss style does.
type Painter struct {
	style     lipgloss.Style
	pre, post string
	exact     bool
}

// New reduces s to the codes it writes before and after a line.
func New(s lipgloss.Style) Painter {
	// lipgloss draws underlined and struck-through text rune by rune (so
	// spaces can be left plain); such styles keep going through lipgloss.
	if s.GetUnderline() || s.GetStrikethrough() {
		return Painter{style: s}
	}
	const probe = "x" // escape sequences hold no x
	r := s.Render(probe)
	i := strings.Index(r, probe)
	if i < 0 || strings.Contains(r[i+1:], probe) {
		return Painter{style: s} // an unexpected shape: lipgloss does the work
	}
	return Painter{style: s, pre: r[:i], post: r[i+len(probe):], exact: true}
}

// Paint returns s styled, byte for byte as lipgloss would render it. Text
// with newlines or tabs (which lipgloss handles line by line and expands)
// goes through lipgloss itself.
func (p Painter) Paint(s string) string {
	if !p.exact || strings.ContainsAny(s, "\n\t") {
		return p.style.Render(s)
	}
	if p.pre == "" && p.post == "" {
		return s
	}
	return p.pre + s + p.post
}

// PlainLen reports whether Paint(a+b+c) is just the escape codes around
// the text (no lipgloss pass), and if so its length in bytes; WritePlain
// then writes it without joining the pieces first.
func (p Painter) PlainLen(a, b, c string) (int, bool) {
	if !p.exact || hasNLTab(a) || hasNLTab(b) || hasNLTab(c) {
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
