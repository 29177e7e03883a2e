package ui

import (
	"fmt"
	"hash/fnv"
	"image/color"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/prose"
	"github.com/memtui/memtui/themes"
)

// renderKey identifies one rendering of a file's body: the same bytes at
// the same width in the same theme and mode always render the same, so the
// result is cached under it.
type renderKey struct {
	hash   uint64
	width  int
	theme  string
	source bool
}

// renderedMsg carries a finished rendering back to Update.
type renderedMsg struct {
	key renderKey
	out string
	err error
}

func contentHash(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// linesHash folds the flagged lines of a source view into a hash.
func linesHash(lines map[int]model.Severity) uint64 {
	var h uint64
	for n, sev := range lines {
		// Order-independent: a sum of mixed per-line values.
		x := uint64(n)<<2 | uint64(sev)
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		x ^= x >> 33
		h += x
	}
	return h
}

// mark is a highlight: what a span is, where, and what to show for it.
type mark struct {
	start, end int
	secret     bool
	show       string // the text to draw (a mask for secrets)
}

// Private-use runes stand in for highlight starts and ends while glamour
// lays the text out; they are swapped for escape codes afterwards. Glamour
// counts each as one column, so a highlighted line wraps at most two
// columns early.
const (
	markDateOn    = '\uE000'
	markSecretOn  = '\uE001'
	markOff       = '\uE002'
	markRunes     = "\uE000\uE001\uE002"
	markRuneBytes = 3
	// markLT stands in for a '<' of the text while glamour lays it out:
	// goldmark reads "<list>", "<tree>" or "<system-reminder>" as raw
	// HTML, which glamour drops, where the agent reads them as text. It
	// is swapped back to '<' afterwards.
	markLT = '\uE003'
)

// findMarks locates the relative dates, year-less dates and secrets in
// text. Secrets win over dates where they overlap; every secret is masked.
func findMarks(text string, anchor time.Time, sc *secrets.Scanner) []mark {
	var ms []mark
	for _, s := range sc.Scan(text) {
		ms = append(ms, mark{start: s.Start, end: s.End, secret: true, show: s.Masked})
	}
	if !anchor.IsZero() {
		for _, d := range append(prose.FindRelativeDates(text, anchor), prose.FindMissingYears(text, anchor)...) {
			ms = append(ms, mark{start: d.Start, end: d.End, show: text[d.Start:d.End]})
		}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		return ms[i].secret && !ms[j].secret
	})
	out := ms[:0]
	end := -1
	for _, m := range ms {
		if m.start < end {
			if m.secret && len(out) > 0 && !out[len(out)-1].secret {
				out[len(out)-1] = m // a secret replaces the date it overlaps
				end = m.end
			}
			continue
		}
		out = append(out, m)
		end = m.end
	}
	return out
}

// markText rewrites text with each mark's shown text between marker runes.
// In markdown prose a mask's punctuation is escaped, so "****" stays text.
// With hideLT, a '<' in prose, or opening an HTML comment, becomes markLT
// (see showLT): markdown's raw HTML is shown as the text it is.
func markText(text string, ms []mark, prose [][2]int, hideLT bool) string {
	var b strings.Builder
	b.Grow(len(text) + len(ms)*8)
	last := 0
	seg := func(from, to int) {
		if hideLT {
			writeHidingLT(&b, text, from, to, prose)
		} else {
			b.WriteString(stripMarkers(text[from:to]))
		}
	}
	for _, m := range ms {
		seg(last, m.start)
		if m.secret {
			b.WriteRune(markSecretOn)
		} else {
			b.WriteRune(markDateOn)
		}
		show := stripMarkers(m.show)
		if m.secret && inRanges(prose, m.start) {
			show = escapeMarkdown(show)
		}
		b.WriteString(show)
		b.WriteRune(markOff)
		last = m.end
	}
	seg(last, len(text))
	return b.String()
}

// stripMarkers removes marker runes a file might itself contain, so they
// cannot open a highlight (or become a '<').
func stripMarkers(s string) string {
	if !strings.ContainsAny(s, markRunes+string(markLT)) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= markDateOn && r <= markLT {
			return -1
		}
		return r
	}, s)
}

// writeHidingLT writes text[from:to] as stripMarkers does, with each '<'
// that markdown could read as the start of raw HTML replaced by markLT:
// every '<' in prose (a tag, an autolink, "a < b", which stays as it is
// either way) and the "<!--" of an HTML comment. A '<' in code (a fence, a
// code span) or in a link's target is left to markdown, which shows it.
func writeHidingLT(b *strings.Builder, text string, from, to int, prose [][2]int) {
	j := 0 // prose[j] is the first range that does not end before i
	for i := from; i < to; {
		c := text[i]
		if c == '<' {
			for j < len(prose) && prose[j][1] <= i {
				j++
			}
			if j < len(prose) && prose[j][0] <= i || strings.HasPrefix(text[i:to], "<!--") {
				b.WriteRune(markLT)
			} else {
				b.WriteByte('<')
			}
			i++
			continue
		}
		if c == 0xEE && i+markRuneBytes <= to { // U+E000..U+EFFF start with 0xEE
			if r, n := utf8.DecodeRuneInString(text[i:to]); n == markRuneBytes && r >= markDateOn && r <= markLT {
				i += markRuneBytes
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
}

// showLT turns the stand-ins of writeHidingLT back into '<'.
func showLT(s string) string { return strings.ReplaceAll(s, string(markLT), "<") }

func inRanges(rs [][2]int, off int) bool {
	for _, r := range rs {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}

func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && strings.ContainsRune("\\`*_{}[]()#+-.!<>|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// highlighter turns marker runes into escape codes. Each highlight ends
// with codes that undo only what it set, so glamour's own styling around
// it survives; a highlight that wraps is closed at the end of the line and
// reopened on the next.
type highlighter struct{ dateOn, secretOn, dateOff, secretOff string }

func newHighlighter(t themes.Theme) highlighter {
	if t.NoColor {
		return highlighter{dateOn: "\x1b[4m", dateOff: "\x1b[24m", secretOn: "\x1b[7m", secretOff: "\x1b[27m"}
	}
	return highlighter{
		dateOn: "\x1b[4m" + bgOn(t.DateBg), dateOff: "\x1b[24;49m",
		secretOn: "\x1b[1m" + bgOn(t.SecretBg), secretOff: "\x1b[22;49m",
	}
}

// bgOn is the code that sets background c, as lipgloss writes it.
func bgOn(c color.Color) string {
	if c == nil {
		return ""
	}
	pre, _ := paint.Span(lipgloss.NewStyle().Background(c)).Codes()
	return pre
}

func (h highlighter) apply(s string) string {
	if !strings.ContainsAny(s, markRunes) {
		return s
	}
	lines := strings.Split(s, "\n")
	var open rune // the highlight carried over from the previous line
	on := func(r rune) string {
		if r == markSecretOn {
			return h.secretOn
		}
		return h.dateOn
	}
	off := func(r rune) string {
		if r == markSecretOn {
			return h.secretOff
		}
		return h.dateOff
	}
	for i, line := range lines {
		var b strings.Builder
		if open != 0 {
			b.WriteString(on(open))
		}
		for _, r := range line {
			switch r {
			case markDateOn, markSecretOn:
				open = r
				b.WriteString(on(r))
			case markOff:
				if open != 0 {
					b.WriteString(off(open))
				}
				open = 0
			default:
				b.WriteRune(r)
			}
		}
		if open != 0 {
			b.WriteString(off(open))
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// renderInput is everything a rendering needs, copied out of the model so
// the Cmd shares nothing with Update.
type renderInput struct {
	key     renderKey
	content []byte
	doc     model.Doc
	anchor  time.Time
	theme   themes.Theme
	scanner *secrets.Scanner
	// lines are the 1-based file lines to flag in source mode.
	lines map[int]model.Severity
	st    themes.Styles
}

// renderCmd renders a memory's body off the Update loop.
func renderCmd(in renderInput) tea.Cmd {
	return func() tea.Msg {
		out, err := render(in)
		return renderedMsg{key: in.key, out: out, err: err}
	}
}

func render(in renderInput) (string, error) {
	if in.key.source {
		return renderSource(in), nil
	}
	body := string(in.doc.Body(in.content))
	ms := findMarks(body, in.anchor, in.scanner)
	// The body is made safe before glamour sees it (secrets are masked by
	// the marks), and glamour's output keeps only its colours: it makes
	// OSC 8 links of the URLs a memory holds.
	md := safe.Block(markText(body, ms, prose.Ranges(body), true))
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(in.theme.Glamour), glamour.WithWordWrap(in.key.width))
	if err != nil {
		return "", err
	}
	out, err := r.Render(md)
	if err != nil {
		return "", err
	}
	out = showLT(strings.Trim(safe.KeepSGR(out), "\n"))
	return newHighlighter(in.theme).apply(out), nil
}

// renderSource shows the file as written, numbered, with secrets masked,
// dates highlighted and the lines that have findings flagged.
func renderSource(in renderInput) string {
	text := string(in.content)
	ms := findMarks(text, in.anchor, in.scanner)
	marked := safe.Block(markText(text, ms, nil, false))
	lines := strings.Split(strings.TrimSuffix(marked, "\n"), "\n")
	numW := len(strconv.Itoa(len(lines)))
	h := newHighlighter(in.theme)
	var b strings.Builder
	avail := max(in.key.width-numW-3, 10)
	for i, line := range lines {
		n := i + 1
		flag := " "
		if sev, ok := in.lines[n]; ok {
			flag = in.st.Sev[sev].Render(sevSymbol(sev))
		}
		num := in.st.LineNo.Render(fmt.Sprintf("%*d", numW, n))
		line = strings.ReplaceAll(line, "\t", "    ")
		wrapped := strings.Split(ansi.Hardwrap(line, avail, true), "\n")
		for j, w := range wrapped {
			if j > 0 {
				num, flag = strings.Repeat(" ", numW), " "
			}
			b.WriteString(num + flag + " " + w)
			b.WriteByte('\n')
		}
	}
	return h.apply(strings.TrimSuffix(b.String(), "\n"))
}

// sevSymbol is a severity's one-cell mark, readable without colour.
func sevSymbol(s model.Severity) string {
	switch s {
	case model.Error:
		return "✗"
	case model.Warning:
		return "▲"
	}
	return "•"
}
