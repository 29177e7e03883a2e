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
