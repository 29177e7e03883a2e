package diff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memtui/memtui/model"
)

// Op marks a line of a diff.
type Op byte

// Diff line kinds.
const (
	Same Op = ' '
	Add  Op = '+'
	Del  Op = '-'
)

// Line is one line of a line diff, without its newline. Old and New are
// its 1-based line numbers on each side (0 on the side it is not on).
type Line struct {
	Op       Op
	Text     string
	Old, New int
}

// Hunk is a run of changed lines with their context.
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
	Lines                                  []Line
}

// newDMP returns a differ with no time limit: a deadline would make the
// result depend on the machine's speed, and proposals must be the same on
// every run.
func newDMP() *diffmatchpatch.DiffMatchPatch {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	return dmp
}

// Lines compares two texts line by line (sergi/go-diff over lines).
func Lines(before, after string) []Line {
	dmp := newDMP()
	a, b, lines := dmp.DiffLinesToRunes(before, after)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var out []Line
	oldN, newN := 0, 0
	for _, d := range diffs {
		text := strings.TrimSuffix(d.Text, "\n")
		if text == "" && d.Text == "" {
			continue
		}
		for _, l := range strings.Split(text, "\n") {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				oldN++
				newN++
				out = append(out, Line{Same, l, oldN, newN})
			case diffmatchpatch.DiffDelete:
				oldN++
				out = append(out, Line{Del, l, oldN, 0})
			case diffmatchpatch.DiffInsert:
				newN++
				out = append(out, Line{Add, l, 0, newN})
			}
		}
	}
	return out
}

// Hunks groups a line diff into hunks with context lines around each
// change, as diff -u does.
func Hunks(lines []Line, context int) []Hunk {
	var hunks []Hunk
	i := 0
	for i < len(lines) {
		for i < len(lines) && lines[i].Op == Same {
			i++
		}
		if i == len(lines) {
			break
		}
		start := max(i-context, 0)
		end := i
		// Extend while the next change is within 2×context lines.
		for end < len(lines) {
			if lines[end].Op != Same {
				end++
				continue
			}
			j := end
			for j < len(lines) && lines[j].Op == Same && j-end < 2*context+1 {
				j++
			}
			if j < len(lines) && lines[j].Op != Same && j-end <= 2*context {
				end = j
				continue
			}
			break
		}
		stop := min(end+context, len(lines))
		h := Hunk{Lines: lines[start:stop]}
		for _, l := range h.Lines {
			if l.Op != Add {
				h.OldLines++
				if h.OldStart == 0 {
					h.OldStart = l.Old
				}
			}
			if l.Op != Del {
				h.NewLines++
				if h.NewStart == 0 {
					h.NewStart = l.New
				}
			}
		}
		hunks = append(hunks, h)
		i = stop
	}
	return hunks
}

// Unified renders one change as a unified diff: --- a/path, +++ b/path
// (or /dev/null for a create or a delete) and hunks with 3 lines of context.
// A move is a rename, as git shows one: the two names and a "rename from
// → to" line, no content diff (its bytes do not change).
func Unified(c model.Change, before string) string {
	after := c.After
	from, to := "a/"+c.Path, "b/"+c.Path
	switch c.Op {
	case model.OpMove:
		return fmt.Sprintf("--- a/%s\n+++ b/%s\n%s\n", c.From, c.Path, RenameLine(c.From, c.Path))
	case model.OpCreate:
		before, from = "", "/dev/null"
	case model.OpDelete:
		after, to = "", "/dev/null"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
	for _, h := range Hunks(Lines(before, after), 3) {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			b.WriteByte(byte(l.Op))
			b.WriteString(strings.TrimSuffix(l.Text, "\r"))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", max(start-1, 0))
	}
	if n == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// WordSpan is a piece of a changed line: Changed marks the words that
// differ from the line it was paired with.
type WordSpan struct {
	Text    string
	Changed bool
}

// Words pairs a removed line with the line that replaced it and marks
// the words that differ on each side, for highlights within changed lines.
func Words(before, after string) (old, new []WordSpan) {
	dmp := newDMP()
	a, b, words := wordsToRunes(before, after)
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), words) {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			old = append(old, WordSpan{d.Text, false})
			new = append(new, WordSpan{d.Text, false})
		case diffmatchpatch.DiffDelete:
			old = append(old, WordSpan{d.Text, true})
		case diffmatchpatch.DiffInsert:
			new = append(new, WordSpan{d.Text, true})
		}
	}
	return old, new
}

// wordsToRunes maps each word and each run of spaces and punctuation to a
// rune, so the differ works on words (go-diff's line mode, fed words).
func wordsToRunes(a, b string) ([]rune, []rune, []string) {
	index := map[string]rune{}
	table := []string{""}
	conv := func(s string) []rune {
		var out []rune
		for _, tok := range tokenizeWords(s) {
			r, ok := index[tok]
			if !ok {
				r = rune(len(table))
				index[tok] = r
				table = append(table, tok)
			}
			out = append(out, r)
		}
		return out
	}
	return conv(a), conv(b), table
}

func tokenizeWords(s string) []string {
	var out []string
	start := 0
	kind := func(r rune) int {
		switch {
		case r == ' ' || r == '\t':
			return 0
		case r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r > 127:
			return 1
		}
		return 2
	}
	prev := -1
	for i, r := range s {
		k := kind(r)
		if i > start && (k != prev || k == 2) {
			out = append(out, s[start:i])
			start = i
		}
		prev = k
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// RenameLine is how every diff shows a move in place of hunks: "rename
// <from> → <to>". The names are given as they should be shown (made safe
// by the caller when they come from disk).
func RenameLine(from, to string) string {
	return "rename " + from + " → " + to
}
