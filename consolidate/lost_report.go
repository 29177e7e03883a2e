package consolidate

import (
	"fmt"
	"strings"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// The lost-update finding. It places lost text through the same restoreDoc
// the restore-lost proposal uses, so the line a finding names is the line
// the proposal puts the text back on.

// checkLostUpdates reports one lost-update finding per Lost, when the
// project's transcripts have been read.
func checkLostUpdates(s *dirState) {
	if s.project == nil || s.project.Log == nil {
		return
	}
	s.lost = LostUpdates(s.dir, s.project.Log)
	for _, l := range s.lost {
		f := s.fileByPath(l.File)
		if f == nil {
			continue
		}
		line, suggestion := lostPlace(s.dir, f.text, l)
		sc := s.opts.Secrets
		s.report(RuleLostUpdate, l.File, line, lostMessage(sc, s.project.Log, l), sc.MaskSecrets(suggestion))
	}
}

// lostPlace is the line the first restorable line of l would go back on
// (0 when nothing places it) and what to suggest.
func lostPlace(d *model.MemoryDir, content string, l Lost) (int, string) {
	doc := newRestoreDoc(content, isIndexPath(d, l.File))
	why := ""
	for i := range l.Lines {
		if r := unrestorable(d, l, i); r != "" {
			why = r
			continue
		}
		return doc.line(l.Anchors[i]), "Review the restore-lost proposal (memtui dream --kind restore-lost)"
	}
	if len(l.Anchors) > 0 && l.Anchors[0].Fragment {
		return 0, "Put the text back by hand if it still holds: " + why
	}
	return 0, "Nothing to restore: " + why + " (bring the memory back first if the entry should stay)"
}

// lostMessage names the lost text, who wrote it and when, and what dropped
// it; a possible loss says "possibly" up front. Everything in it comes from
// transcripts (the text, session titles, the branch), so its secrets are
// masked: those of the lost text before it is cut to 80 characters (a cut
// token would no longer be recognised), the others at the end.
func lostMessage(sc *secrets.Scanner, log *model.TranscriptLog, l Lost) string {
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
	fmt.Fprintf(&b, ", written by %s at %s", writerName(log, &l.Writer), fmtTime(l.Writer.Time))
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

// unrestorable says why line i of l cannot go back, "" when it can.
func unrestorable(d *model.MemoryDir, l Lost, i int) string {
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

// restoreDoc is a file as lines with their endings, for putting lines back
// while every other byte stays as it was.
type restoreDoc struct {
	lines []string // each with its "\n" or "\r\n", the last maybe without
	eol   string
	index bool
}

func newRestoreDoc(content string, index bool) *restoreDoc {
	r := &restoreDoc{eol: eol([]byte(content)), index: index}
	if content != "" {
		r.lines = strings.SplitAfter(content, "\n")
		if r.lines[len(r.lines)-1] == "" {
			r.lines = r.lines[:len(r.lines)-1]
		}
	}
	return r
}

func (r *restoreDoc) key(i int) string { return strings.TrimSpace(r.lines[i]) }

func (r *restoreDoc) blank(i int) bool { return i >= 0 && i < len(r.lines) && r.key(i) == "" }

// bodyStart is the first line after the frontmatter.
func (r *restoreDoc) bodyStart() int {
	keys := make([]string, 0, model.FrontmatterMaxLines)
	for i := 0; i < len(r.lines) && i < model.FrontmatterMaxLines; i++ {
		keys = append(keys, r.key(i))
	}
	return frontmatterEnd(keys) + 1
}

// find is the first body line whose text is line, -1 when none.
func (r *restoreDoc) find(line string) int {
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
func (r *restoreDoc) place(a Anchor) (pos int, anchored bool) {
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

// superseded is the body line holding the older version the lost line
// replaced when it was written (Anchor.Replaces), -1 when the file has
// none: the line goes there instead, so the file never says both.
func (r *restoreDoc) superseded(a Anchor) int {
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
func (r *restoreDoc) plan(text string, a Anchor) (pos int, add []string, at int, anchored bool, old int) {
	if i := r.superseded(a); i >= 0 {
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

// line is the 1-based line a line with anchor a would go back on, 0 when
// no line of the file places it (it would go at the end).
func (r *restoreDoc) line(a Anchor) int {
	pos, _, at, anchored, _ := r.plan("", a)
	if !anchored {
		return 0
	}
	return pos + at + 1
}

// insert puts text back where a places it, in place of the older version
// it replaced when the file holds that.
func (r *restoreDoc) insert(text string, a Anchor) {
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

func (r *restoreDoc) String() string { return strings.Join(r.lines, "") }

// says reports whether the file's body already says line (see says): a
// restore never puts in text the file has, wherever and however wrapped.
func (r *restoreDoc) says(line string) bool {
	if r.find(line) >= 0 {
		return true
	}
	start := r.bodyStart()
	if start > len(r.lines) {
		start = len(r.lines)
	}
	return says(flowWords(r.lines[start:]), line)
}

// TranscriptFindings runs only the checks that need the project's
// transcript log (lost updates) over one directory: what the TUI adds when
// a project's transcripts arrive after its files were checked, without
// checking every file again. Ignores apply as in OrientDir.
func TranscriptFindings(p *model.Project, d *model.MemoryDir, opts Options) []model.Finding {
	if p == nil || p.Log == nil {
		return nil
	}
	opts = opts.withDefaults()
	if opts.sessions == nil {
		opts.sessions = newSessionSet([]*model.Project{p})
	}
	s := newDirState(p, d, opts)
	checkLostUpdates(s)
	return s.findings
}
