package memindex

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// This file rewrites references where they stand: a merge sends the
// references to the memories it deletes to the one it keeps, an archive
// sends them into .archive/. The new reference is written by the same
// code that writes an entry's link (Link's destination and title rules),
// so every link memtui writes into MEMORY.md reads the same way.

// Retarget writes reference r anew so that it leads to to: for a link or
// a code span, the slash path of a memory relative to the memory dir (dir,
// the memory dir's slash path, goes before it when r named the memory dir
// absolutely); for a wikilink, the name it should carry. A link keeps its
// title and anything after the destination; its text becomes to when it
// was the old file's name. It reports false when r's raw text is not in
// the shape its parse says (nothing is rewritten then).
func Retarget(r Ref, to, dir string) (string, bool) {
	switch r.Kind {
	case RefWiki:
		i := strings.Index(r.Raw, r.Target)
		if i < 0 {
			return "", false
		}
		return r.Raw[:i] + to + r.Raw[i+len(r.Target):], true
	case RefCode:
		i := strings.Index(r.Raw, r.Dest)
		if i < 0 {
			return "", false
		}
		return r.Raw[:i] + to + r.Raw[i+len(r.Dest):], true
	}
	// [text](dest "title"): the destination follows "](" after the text,
	// written bare or in angle brackets.
	at := 1 + len(r.Text) + 2
	if at > len(r.Raw) || r.Raw[1+len(r.Text)] != ']' {
		return "", false
	}
	i := strings.Index(r.Raw[at:], r.Dest)
	if i < 0 {
		return "", false
	}
	i += at
	end := i + len(r.Dest)
	if r.Raw[i-1] == '<' && end < len(r.Raw) && r.Raw[end] == '>' {
		i, end = i-1, end+1 // the old brackets go: dest decides anew
	}
	p := to
	if r.Scope == RefOutside {
		p = dir + "/" + to
	}
	text := r.Text
	if t := strings.TrimSpace(text); t == r.Dest || t == r.Target || t == path.Base(r.Target) {
		text = ixeEscTitle(to)
	}
	return "[" + text + "]" + r.Raw[1+len(r.Text)+1:i] + ixeDest(p) + r.Raw[end:], true
}

// Repoint rewrites, on every line of ix whose 0-based number skip does
// not hold, each reference to which newRef gives a new form (Retarget's,
// usually), and says how many it rewrote and whether a line changed. The
// lines' text and raw bytes change; the parse's other fields do not, so
// reparse ix.Bytes() before reading it again.
func Repoint(ix *Index, skip map[int]bool, newRef func(Ref) (string, bool)) (n int, changed bool) {
	for i := range ix.Lines {
		l := &ix.Lines[i]
		if skip[i] || len(l.Refs) == 0 {
			continue
		}
		text, k := repointText(l.Text, l.Refs, newRef)
		n += k
		if text != l.Text {
			l.Raw = text + l.Raw[len(l.Text):]
			l.Text = text
			changed = true
		}
	}
	return n, changed
}

// repointText rewrites refs (of text, in order) from the last to the
// first, so each one's column still holds.
func repointText(text string, refs []Ref, newRef func(Ref) (string, bool)) (string, int) {
	n := 0
	for k := len(refs) - 1; k >= 0; k-- {
		r := refs[k]
		raw, ok := newRef(r)
		if !ok || strings.ContainsAny(raw, "\r\n") || !strings.HasPrefix(text[r.Col:], r.Raw) {
			continue // (a reference is on one line: a line break is no reference)
		}
		text = text[:r.Col] + raw + text[r.Col+len(r.Raw):]
		n++
	}
	return text, n
}

// Repoint rewrites, as one step, every reference of the index to which
// newRef gives a new form (see the function Repoint), and says how many.
// A rewrite that would hide a reference (the new text opening a code span
// or a comment the parse then swallows) is refused whole: ErrHides.
func (e *Editor) Repoint(newRef func(Ref) (string, bool)) (int, error) {
	st, v := e.state(), e.view()
	rows := slices.Clone(st.rows)
	n := 0
	for i, r := range rows {
		var lines []ixeLine
		for k := range r.lines {
			l := v.ix.Line(v.first[i] + k)
			if l == nil || len(l.Refs) == 0 {
				continue
			}
			text, m := repointText(r.lines[k].text, l.Refs, newRef)
			if m == 0 || text == r.lines[k].text {
				continue
			}
			if lines == nil {
				lines = slices.Clone(r.lines)
			}
			lines[k].text = text
			n += m
		}
		if lines != nil {
			rows[i].lines = lines
		}
	}
	if n == 0 {
		return 0, ErrNoChange
	}
	// The targets change, so the editor's usual check (every target
	// still referenced) does not apply; no reference may go missing.
	if refCount(e.viewOf(rows)) < refCount(v) {
		return 0, fmt.Errorf("repointing: %w", ErrHides)
	}
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	return n, nil
}

// refCount is how many references the parser sees in a view.
func refCount(v *ixeView) int {
	n := 0
	for _, k := range v.refTargets() {
		n += k
	}
	return n
}
