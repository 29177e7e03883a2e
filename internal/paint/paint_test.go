package paint

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// Whatever the style, painting must give exactly what lipgloss renders.
func TestPaintMatchesLipgloss(t *testing.T) {
	styles := []lipgloss.Style{
		lipgloss.NewStyle(),
		lipgloss.NewStyle().Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#7AA2F7")),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#C62828")).Background(lipgloss.Color("#F8C8D0")).Italic(true),
		lipgloss.NewStyle().Underline(true).Reverse(true),
		lipgloss.NewStyle().Foreground(lipgloss.ANSIColor(3)).Faint(true),
	}
	texts := []string{"~/acme/memory", "MEMORY.md:201", "→ Compact the index.", "x", "", "tab\there", "two\nlines", "日本語のメモ", "[index-over-lines]", "╭──╮"}
	for i, s := range styles {
		p := New(s)
		for _, text := range texts {
			if got, want := p.Paint(text), s.Render(text); got != want {
				t.Errorf("style %d: Paint(%q) = %q, lipgloss renders %q", i, text, got, want)
			}
		}
	}
}

// WritePlain, where PlainLen allows it, writes what Paint would, and
// PlainLen counts it right.
func TestWritePlainMatchesPaint(t *testing.T) {
	for _, s := range []lipgloss.Style{lipgloss.NewStyle(), lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7AA2F7")), lipgloss.NewStyle().Underline(true)} {
		p := New(s)
		for _, parts := range [][3]string{{"[", "index-over-lines", "]"}, {"→ ", "Compact the index.", ""}, {"a\t", "b", ""}} {
			n, ok := p.PlainLen(parts[0], parts[1], parts[2])
			if !ok {
				continue
			}
			var b strings.Builder
			p.WritePlain(&b, parts[0], parts[1], parts[2])
			if want := p.Paint(parts[0] + parts[1] + parts[2]); b.String() != want || n != len(want) {
				t.Errorf("WritePlain(%q) = %q (len %d), Paint gives %q", parts, b.String(), n, want)
			}
		}
	}
}

// A span painter puts lipgloss's codes around a whole piece: the same bytes
// as lipgloss for one character, one code for a whole underlined piece
// (lipgloss writes one per rune), and nothing at all for an empty piece.
func TestSpan(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7AA2F7"))
	if got, want := Span(bold).Paint("x"), bold.Render("x"); got != want {
		t.Errorf("Span(bold).Paint(x) = %q, lipgloss renders %q", got, want)
	}
	pre, post := Span(bold).Codes()
	if got := Span(bold).Paint("a b\tc"); got != pre+"a b\tc"+post || pre == "" || post == "" {
		t.Errorf("Span(bold).Paint = %q: want the codes %q %q around the text as it is", got, pre, post)
	}
	ul := lipgloss.NewStyle().Underline(true)
	pre, post = Span(ul).Codes()
	if got := Span(ul).Paint("a b"); got != pre+"a b"+post || strings.Count(got, "\x1b[") != 2 {
		t.Errorf("Span(underline).Paint(a b) = %q: want one code around the piece", got)
	}
	for _, p := range []Painter{Span(bold), Span(ul), Span(lipgloss.NewStyle()), FromCodes("\x1b[4m", "\x1b[m")} {
		if got := p.Paint(""); got != "" {
			t.Errorf("an empty piece painted as %q", got)
		}
	}
	if got := Span(lipgloss.NewStyle()).Paint("plain"); got != "plain" {
		t.Errorf("a plain span added codes: %q", got)
	}
	if got := FromCodes("\x1b[4m", "\x1b[m").Paint("word"); got != "\x1b[4mword\x1b[m" {
		t.Errorf("FromCodes painted %q", got)
	}
	if _, ok := Span(bold).PlainLen("a", "b", "c"); ok {
		t.Error("PlainLen promises lipgloss's bytes, which a span painter does not give")
	}
}
