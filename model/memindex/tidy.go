package memindex

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The editor's tidying steps: a whole new index (a starting one for a
// directory that has none), blank lines closed up, hanging lines folded
// onto their entry. Claude Code counts every line it loads against the
// 200-line cap, a blank one or an indented one as much as an entry, so
// these give lines back without dropping a word.

// EntryHardMaxChars is the longest line JoinHanging writes. The format
// asks for entries "under ~150 characters" (EntryMaxChars), but Claude
// Code's truncation warning asks for "one line under ~200 chars", and its
// dream prompt demotes lines over ~200: past 200 a line is too long by
// every measure the docs give. A joined line between the two keeps all its
// words, and index-entry-too-long flags it for a shorter hook.
const EntryHardMaxChars = 200

// ErrTooLong is JoinHanging's refusal of an entry whose line, joined,
// would be longer than the limit.
var ErrTooLong = errors.New("the joined line would be too long")

// Replace makes content the whole index, as one step of the history:
// Undo brings back what was there. It is how a starting index made
// elsewhere (Dream's new-index proposal) comes into the editor, so that a
// person sees it as a pending edit, changes it, or undoes it to start from
// nothing. Lines keep their endings; the file's last line follows the
// original's (with or without a final "\n").
func (e *Editor) Replace(content []byte) error {
	if string(content) == string(e.Bytes()) {
		return ErrNoChange
	}
	ix := Parse(content)
	e.push(&ixeState{rows: e.rowsOf(&ix), deleted: e.state().deleted})
	return nil
}

// CollapseBlanks closes up the blank lines as one step: each run of blank
// lines becomes one, and the blank lines at the start and the end of the
// file go. A blank line inside a code block or a comment is part of it and
// stays. It returns how many lines went (Budget says how many of them
// Claude Code counted: it trims the ends itself). One blank line is kept
// at the start when the file would otherwise begin with a "---" line,
// which Claude Code would strip, with what follows it, as frontmatter.
func (e *Editor) CollapseBlanks() (int, error) {
	st := e.state()
	out := make([]ixeRow, 0, len(st.rows))
	var lead *ixeRow // the first blank row at the start, kept aside
	n := 0
	for _, r := range st.rows {
		if !r.blank() {
			out = append(out, r)
			continue
		}
		if len(out) == 0 && lead == nil {
			lead = &r
		}
		if len(out) == 0 || out[len(out)-1].blank() {
			n++
			continue
		}
		out = append(out, r)
	}
	for len(out) > 0 && out[len(out)-1].blank() {
		out = out[:len(out)-1]
		n++
	}
	if lead != nil && len(out) > 0 && !out[0].fm && ixeFenceLike(out[0].lines[0].text) {
		out = slices.Insert(out, 0, *lead)
		n--
	}
	if n == 0 {
		return 0, ErrNoChange
	}
	w := e.viewOf(out)
	if !e.keeps(w) {
		return 0, ErrHides // (a blank line changes no parse; stay safe)
	}
	e.push(&ixeState{rows: out, deleted: st.deleted})
	e.state().view = w
	return n, nil
}

// ixeFenceLike reports a line that opens frontmatter at the top of a file.
func ixeFenceLike(t string) bool {
	return strings.HasPrefix(t, "---") && strings.TrimSpace(t[3:]) == ""
}

// Joined reports what JoinHanging did with one entry.
type Joined struct {
	// Lines is how many hanging lines went onto the entry's line; 0 when
	// the entry was left as it is.
	Lines int
	// Chars is the length in characters of the entry's line joined, also
	// when it was too long to write (0 when there was nothing to join).
	Chars int
	// Err says why the entry was left as it is: ErrNotEntry (a table row
	// or not an entry), ErrNoChange (no hanging line), ErrTooLong, or
	// ErrHides (joined, the line would lose a reference or no longer be the
	// entry for its file).
	Err error
}

// JoinHanging folds the lines hanging under each given entry row onto the
// entry's own line, as one step, keeping every word: a list marker at
// the start of a hanging line goes (its item joins after "; "), the
// indentation goes, the rest is appended in order (a wrapped line after a
// space). An entry with no hook takes the first line after the index's
// usual separator, so it reads as - [Title](file.md) — hook. An entry is
// left as it is when its joined line would be longer than max characters
// (max ≤ 0: EntryHardMaxChars): nothing is cut. It reports, per row given,
// what happened; when no entry changed the error is ErrNoChange.
func (e *Editor) JoinHanging(rows []int, max int) ([]Joined, error) {
	if max <= 0 {
		max = EntryHardMaxChars
	}
	st, v := e.state(), e.view()
	out := slices.Clone(st.rows)
	res := make([]Joined, len(rows))
	gap := e.styles().list.gap
	done := map[int]bool{}
	for k, i := range rows {
		if i < e.pinned() || i >= len(out) {
			return nil, fmt.Errorf("row %d: %w", i, ErrNoRow)
		}
		en := v.entry(i)
		switch {
		case en == nil || en.Form == EntryTable:
			res[k].Err = ErrNotEntry
			continue
		case len(out[i].lines) < 2 || done[i]:
			res[k].Err = ErrNoChange
			continue
		}
		text := ixeJoin(en, out[i].lines[1:], gap)
		res[k].Chars = utf8.RuneCountInString(text)
		if res[k].Chars > max {
			res[k].Err = fmt.Errorf("%d characters, over %d: %w", res[k].Chars, max, ErrTooLong)
			continue
		}
		if !ixeJoinKeeps(v, i, en, text) {
			res[k].Err = ErrHides
			continue
		}
		r := out[i]
		r.lines = []ixeLine{{text: text, eol: r.lines[0].eol}}
		out[i] = r
		res[k].Lines = len(st.rows[i].lines) - 1
		done[i] = true
	}
	if len(done) == 0 {
		return res, ErrNoChange
	}
	w := e.viewOf(out)
	if !e.keeps(w) {
		// Each line keeps its references alone; in place it cannot lose
		// one (a row holds no open code or comment). Stay safe all the same.
		for k := range res {
			if res[k].Lines > 0 {
				res[k].Lines, res[k].Err = 0, ErrHides
			}
		}
		return res, ErrNoChange
	}
	e.push(&ixeState{rows: out, deleted: st.deleted})
	e.state().view = w
	return res, nil
}

// ixeJoin writes an entry's line with its hanging lines appended.
func ixeJoin(en *Entry, hanging []ixeLine, gap string) string {
	t := strings.TrimRightFunc(en.Raw, unicode.IsSpace)
	var h ixeSpan
	bare := false // a list entry with nothing after its reference yet
	if en.Form == EntryList {
		h = ixeHookSpan(en)
		bare = h.start >= h.end
	}
	for _, l := range hanging {
		s := strings.TrimSpace(l.text)
		item := false
		if n := ixMarkerLen(s); n > 0 {
			// Only the marker goes: a task box or a number's words stay.
			s, item = strings.TrimSpace(s[n:]), true
		}
		switch {
		case s == "":
		case bare && h.sep:
			t = strings.TrimRightFunc(t[:h.start], unicode.IsSpace) + " " + s
			bare = false
		case bare:
			t = t[:h.base] + gap + s
			bare = false
		case item && !strings.ContainsRune(".,;:!?", lastRune(t)):
			t += "; " + s
		default:
			t += " " + s
		}
	}
	return t
}

// ixMarkerLen is the length of the list marker t starts with (a bullet,
// or a number and "." or ")"), 0 when t is no list item.
func ixMarkerLen(t string) int {
	if _, ok := ixListBody(t); !ok {
		return 0
	}
	if t[0] == '-' || t[0] == '*' || t[0] == '+' {
		return 1
	}
	return strings.IndexAny(t, ".)") + 1
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// ixeJoinKeeps reports whether text, standing for row i's lines, is still
// the entry for its file and holds every reference the lines held.
func ixeJoinKeeps(v *ixeView, i int, en *Entry, text string) bool {
	one := ParseText(text)
	if len(one.Lines) != 1 || one.Lines[0].Kind != LineEntry || ixeTarget(&one.Entries[0]) != ixeTarget(en) {
		return false
	}
	have := one.refTargetsAll()
	for n := v.first[i]; n <= len(v.ix.Lines) && v.row[n-1] == i; n++ {
		for _, r := range v.ix.Lines[n-1].Refs {
			if have[r.Target]--; have[r.Target] < 0 {
				return false
			}
		}
	}
	return true
}
