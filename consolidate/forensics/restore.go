package forensics

import (
	"fmt"
	"strings"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// This file says what a Lost is, for a finding and a proposal, and puts its
// lines back: the lost-update finding and the restore-lost proposal both
// place lost text through RestoreDoc, so the line a finding names is the
// line the proposal puts the text back on.

// Message names the lost text, who wrote it and when, and what dropped
// it; a possible loss says "possibly" up front. Everything in it comes from
// transcripts (the text, session titles, the branch), so its secrets are
// masked: those of the lost text before it is cut to 80 characters (a cut
// token would no longer be recognised), the others at the end.
func (l Lost) Message(sc *secrets.Scanner, log *model.TranscriptLog) string {
	var b strings.Builder
	if l.Definite {
		b.WriteString("lost: ")
	} else {
		b.WriteString("possibly lost: ")
	}
	if len(l.Lines) > 0 {
		fmt.Fprintf(&b, "\"%s\"", shorten(maskedLine(sc, l.Lines, 0), 80))
		if n := len(l.Lines) - 1; n > 0 {
			fmt.Fprintf(&b, " and %d more %s", n, model.Plural(n, "line", "lines"))
		}
	}
	fmt.Fprintf(&b, ", written by %s at %s", WriterName(log, &l.Writer), fmtTime(l.Writer.Time))
	if br := branchOf(log, &l.Writer); br != "" {
		b.WriteString(" on branch " + br)
	}
	clause := l.clause
	if clause == "" {
		clause = strings.TrimSuffix(l.Why, ".")
	}
	b.WriteString("; " + clause)
	return sc.MaskSecrets(b.String())
}

// Quote is line i of l, masked as in maskedLine and cut to 80 characters,
// for a message.
func (l Lost) Quote(sc *secrets.Scanner, i int) string {
	return shorten(maskedLine(sc, l.Lines, i), 80)
}

// maskedLine is line i of lines, trimmed, with its secrets masked as they
// are in all of lines together: a line of a private key is masked as the
// key's. (Masks keep the line count.)
func maskedLine(sc *secrets.Scanner, lines []string, i int) string {
	m := strings.Split(sc.MaskSecrets(strings.Join(lines, "\n")), "\n")
	if len(m) != len(lines) {
		return strings.TrimSpace(sc.MaskSecrets(lines[i]))
	}
	return strings.TrimSpace(m[i])
}

func isIndexPath(d *model.MemoryDir, p string) bool {
	return d.Index != nil && d.Index.Path == p || p == "MEMORY.md"
}

// Unrestorable says why line i of l cannot go back, "" when it can.
func (l Lost) Unrestorable(d *model.MemoryDir, i int) string {
	if l.Anchors[i].Fragment {
		return "only part of a line is recorded, so memtui cannot put it back as a line"
	}
	if isIndexPath(d, l.File) {
		if t := entryTarget(l.Lines[i]); t != "" && !hasFile(d, t) {
			return "the entry points at " + t + ", which no longer exists"
		}
	}
	return ""
}

func hasFile(d *model.MemoryDir, rel string) bool {
	for _, f := range d.Files {
		if f.Path == rel {
			return true
		}
	}
	return false
}

// RestoreDoc is a file as lines with their endings, for putting lines back
// while every other byte stays as it was.
type RestoreDoc struct {
	lines []string // each with its "\n" or "\r\n", the last maybe without
	eol   string
	index bool
}

// NewRestoreDoc is content, the file at path in d, ready to have lines put
// back.
func NewRestoreDoc(d *model.MemoryDir, path, content string) *RestoreDoc {
	return newRestoreDoc(content, isIndexPath(d, path))
}

func newRestoreDoc(content string, index bool) *RestoreDoc {
	r := &RestoreDoc{eol: model.EOL([]byte(content)), index: index}
	if content != "" {
		r.lines = strings.SplitAfter(content, "\n")
		if r.lines[len(r.lines)-1] == "" {
			r.lines = r.lines[:len(r.lines)-1]
		}
	}
	return r
}

func (r *RestoreDoc) key(i int) string { return strings.TrimSpace(r.lines[i]) }

func (r *RestoreDoc) blank(i int) bool { return i >= 0 && i < len(r.lines) && r.key(i) == "" }

// bodyStart is the first line after the frontmatter.
func (r *RestoreDoc) bodyStart() int {
	keys := make([]string, 0, model.FrontmatterMaxLines)
	for i := 0; i < len(r.lines) && i < model.FrontmatterMaxLines; i++ {
		keys = append(keys, r.key(i))
	}
	return frontmatterEnd(keys) + 1
}

// find is the first body line whose text is line, -1 when none.
func (r *RestoreDoc) find(line string) int {
	k := strings.TrimSpace(line)
	for i := r.bodyStart(); i < len(r.lines); i++ {
		if r.key(i) == k {
			return i
		}
	}
	return -1
}

// place is where a line with anchor a goes back (an index into lines):
// after the nearest line that preceded it when it was written, else
// before the nearest one that followed it, else (an index entry) after the
// last entry of the list, else at the end. anchored is false for the end.
func (r *RestoreDoc) place(a Anchor) (pos int, anchored bool) {
	for _, p := range a.Prev {
		if i := r.find(p); i >= 0 {
			// An index entry's indented continuation lines stay with it.
			for r.index && i+1 < len(r.lines) && !r.blank(i+1) && (r.lines[i+1][0] == ' ' || r.lines[i+1][0] == '\t') {
				i++
			}
			return i + 1, true
		}
	}
	for _, n := range a.Next {
		if i := r.find(n); i >= 0 {
			return i, true
		}
	}
	if r.index {
		ix := memindex.ParseText(strings.Join(r.lines, ""))
		last := -1
		for i := range ix.Lines {
			if k := ix.Lines[i].Kind; k == memindex.LineEntry || k == memindex.LineContinuation {
				last = i
			}
		}
		if last >= 0 {
			return last + 1, true
		}
	}
	return len(r.lines), false
}

// Superseded is the body line holding the older version the lost line
// replaced when it was written (Anchor.Replaces), -1 when the file has
// none: the line goes there instead, so the file never says both.
func (r *RestoreDoc) Superseded(a Anchor) int {
	for _, old := range a.Replaces {
		if i := r.find(old); i >= 0 {
			return i
		}
	}
	return -1
}

// plan is where a line with anchor a goes back and what goes in there: the
// line, with the blank lines that set it apart when it was written, in the
// file's line ending. at is the index of the line itself in add. When the
// file holds the older version the line replaced, the plan is that line
// alone, to be replaced (old is its index, else -1).
func (r *RestoreDoc) plan(text string, a Anchor) (pos int, add []string, at int, anchored bool, old int) {
	if i := r.Superseded(a); i >= 0 {
		end := r.eol
		if !strings.HasSuffix(r.lines[i], "\n") {
			end = ""
		}
		return i, []string{text + end}, 0, true, i
	}
	pos, anchored = r.place(a)
	if a.BlankBefore && r.blank(pos) && pos > 0 && !r.blank(pos-1) {
		pos++ // the blank line is there already: go after it
	}
	if a.BlankBefore && pos > 0 && !r.blank(pos-1) {
		add = append(add, r.eol)
	}
	at = len(add)
	add = append(add, text+r.eol)
	if a.BlankAfter && pos < len(r.lines) && !r.blank(pos) {
		add = append(add, r.eol)
	}
	return pos, add, at, anchored, -1
}

// Line is the 1-based line a line with anchor a would go back on, 0 when
// no line of the file places it (it would go at the end).
func (r *RestoreDoc) Line(a Anchor) int {
	pos, _, at, anchored, _ := r.plan("", a)
	if !anchored {
		return 0
	}
	return pos + at + 1
}

// Insert puts text back where a places it, in place of the older version
// it replaced when the file holds that.
func (r *RestoreDoc) Insert(text string, a Anchor) {
	pos, add, _, _, old := r.plan(text, a)
	if old >= 0 {
		r.lines[old] = add[0]
		return
	}
	if pos == len(r.lines) && pos > 0 && !strings.HasSuffix(r.lines[pos-1], "\n") {
		r.lines[pos-1] += r.eol
	}
	r.lines = append(r.lines[:pos], append(add, r.lines[pos:]...)...)
}

func (r *RestoreDoc) String() string { return strings.Join(r.lines, "") }

// Says reports whether the file's body already says line (see says): a
// restore never puts in text the file has, wherever and however wrapped.
func (r *RestoreDoc) Says(line string) bool {
	if r.find(line) >= 0 {
		return true
	}
	start := r.bodyStart()
	if start > len(r.lines) {
		start = len(r.lines)
	}
	return says(flowWords(r.lines[start:]), line)
}

// Story tells one Lost's story for a proposal's rationale.
func (l Lost) Story(sc *secrets.Scanner, log *model.TranscriptLog) string {
	w := &l.Writer
	s := capitalize(WriterName(log, w))
	if w.Session != "" && w.Kind != model.WriteMemtui {
		s += " [" + w.Session + "]"
	}
	if br := branchOf(log, w); br != "" {
		s += " on branch " + br
	}
	s += fmt.Sprintf(" wrote %s at %s", describeLines(sc, l.Lines), fmtTime(w.Time))
	if l.Definite {
		s += "; it is definitely lost: " + strings.TrimSuffix(lowerFirst(l.Why), ".") + "."
	} else {
		s += "; it is possibly lost, so check it was not removed on purpose: " + strings.TrimSuffix(lowerFirst(l.Why), ".") + "."
	}
	return s
}

func describeLines(sc *secrets.Scanner, lines []string) string {
	q := fmt.Sprintf("\"%s\"", shorten(maskedLine(sc, lines, 0), 80))
	if len(lines) > 1 {
		q += fmt.Sprintf(" and %d more %s", len(lines)-1, model.Plural(len(lines)-1, "line", "lines"))
	}
	return q
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "Claude") || strings.HasPrefix(s, "memtui") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
