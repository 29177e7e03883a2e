package memindex

import (
	"bytes"
	"github.com/memtui/memtui/model"
	"path"
	"strings"
	"unicode/utf8"
)

// LineKind classifies one line of MEMORY.md.
type LineKind uint8

// Kinds of index line.
const (
	LineBlank          LineKind = iota // empty or whitespace only
	LineHeading                        // an ATX heading (# to ######)
	LineEntry                          // a line that references a memory: see Entry
	LineContinuation                   // an indented line hanging under an entry
	LineTableHeader                    // the header row of a table
	LineTableSeparator                 // the |---|---| row of a table
	LineCode                           // a fenced code block, fences included
	LineComment                        // inside an HTML comment that starts the line
	LineFrontmatter                    // a YAML frontmatter block at the top (an index should have none)
	LineRule                           // a thematic break (---, ***, ___)
	LineProse                          // any other text: prose, list items and table rows with no reference
)

var lineKindNames = [...]string{"blank", "heading", "entry", "continuation", "table-header", "table-separator", "code", "comment", "frontmatter", "rule", "prose"}

// String names the kind.
func (k LineKind) String() string {
	if int(k) < len(lineKindNames) {
		return lineKindNames[k]
	}
	return "unknown"
}

// RefKind says how a line refers to a memory.
type RefKind uint8

// Kinds of reference.
const (
	RefLink RefKind = iota // a markdown link: [Title](file.md)
	RefCode                // a backticked file name: `file.md`
	RefWiki                // a wikilink: [[name]] or [[name|alias]]
)

var refKindNames = [...]string{"link", "code", "wikilink"}

// String names the kind.
func (k RefKind) String() string {
	if int(k) < len(refKindNames) {
		return refKindNames[k]
	}
	return "unknown"
}

// RefScope says where a reference points.
type RefScope uint8

// Scopes of reference.
const (
	RefFile     RefScope = iota // a path inside the memory dir (or a wikilink name)
	RefOutside                  // a path that leaves the memory dir: ../x.md, /abs/x.md, ~/x.md, file:
	RefExternal                 // a URL (http:, mailto:, ...) or an in-page #anchor: no file at all
)

// Ref is one reference to a memory on an index line. Raw, Dest and Text are
// the text as written; Target is normalised for comparison.
type Ref struct {
	Kind  RefKind
	Scope RefScope
	// Raw is the whole reference as written: "[Title](./a%20b.md#x)",
	// "`a.md`", "[[name|alias]]".
	Raw string
	// Dest is the destination as written: the link target without <> and
	// title, the code span's content, or the wikilink's inner text.
	Dest string
	// Target is the normalised destination. For links and code spans inside
	// the memory dir: a clean slash path relative to it ("./", "#anchor",
	// "?query" and %XX escapes resolved). For wikilinks: the name, without
	// alias or anchor. For other scopes: the destination cleaned as far as
	// possible.
	Target string
	// Text is the link text or the wikilink alias ("" for code spans).
	Text string
	// Col is the byte offset of Raw in the line's text.
	Col int
}

// IsFile reports whether the reference names a file in the memory dir (a
// link or code span with RefFile scope).
func (r Ref) IsFile() bool { return r.Scope == RefFile && r.Kind != RefWiki }

// Heading is one ATX heading of the index.
type Heading struct {
	Line  int    // 1-based
	Level int    // 1 to 6
	Text  string // without the #s, trimmed
}

// EntryForm says how an entry is written.
type EntryForm uint8

// Forms of entry.
const (
	EntryList  EntryForm = iota // a list item: - [Title](file.md) — hook
	EntryTable                  // a table row: | `file.md` | hook |
	EntryProse                  // a sentence that mentions memories mid-text
)

// Entry is one index line that references at least one memory.
type Entry struct {
	Line int       // 1-based
	Form EntryForm //
	Raw  string    // the line as written, without "\r"
	// Title is the link text, else the text before the reference, else the
	// wikilink alias or the file name.
	Title string
	// Refs are the references on the entry line itself (continuation lines
	// keep theirs on their own Line).
	Refs []Ref
	// Sep is the separator between the reference and the hook as written
	// ("—", "-", ":", ",", "|" ...); "" when there is none.
	Sep string
	// Hook is the text after the separator, trimmed.
	Hook string
	// Continuations are the 1-based lines of indented text hanging under
	// the entry.
	Continuations []int
	// Section is the index in Index.Headings of the heading the entry sits
	// under, -1 when none.
	Section int
}

// Primary returns the entry's main reference: its first reference that is
// not an external URL.
func (e *Entry) Primary() (Ref, bool) {
	for _, r := range e.Refs {
		if r.Scope != RefExternal {
			return r, true
		}
	}
	return Ref{}, false
}

// Name is how to name the entry to a person: its title, else its primary
// target, else its raw text.
func (e *Entry) Name() string {
	if e.Title != "" {
		return e.Title
	}
	if r, ok := e.Primary(); ok {
		return r.Target
	}
	return strings.TrimSpace(e.Raw)
}

// Line is one line of the index, byte for byte.
type Line struct {
	Num  int      // 1-based
	Kind LineKind //
	// Raw is the line exactly as written, without its "\n" but with any
	// "\r"; Text is Raw without a trailing "\r".
	Raw  string
	Text string
	// Newline is false only for a last line that has no "\n".
	Newline bool
	// Refs are the references on this line (none inside code, comments or
	// frontmatter).
	Refs []Ref
	// Entry is the index in Index.Entries of the entry this line is or
	// hangs under, -1 otherwise.
	Entry int
}

// CR reports whether the line ends in "\r\n".
func (l *Line) CR() bool { return len(l.Raw) != len(l.Text) }

// Index is MEMORY.md parsed line by line. Every line of the file is kept
// byte for byte, so an edit can rewrite some lines and leave the others
// exactly as they were.
type Index struct {
	Lines    []Line
	Headings []Heading
	Entries  []Entry
	// CRLF is true when the file's first line ending is "\r\n": new lines
	// should be written that way.
	CRLF bool
}

// Line returns line n (1-based), or nil when out of range.
func (ix *Index) Line(n int) *Line {
	if n < 1 || n > len(ix.Lines) {
		return nil
	}
	return &ix.Lines[n-1]
}

// EntryAt returns the entry on line n, or the one line n hangs under; nil
// when there is none.
func (ix *Index) EntryAt(n int) *Entry {
	l := ix.Line(n)
	if l == nil || l.Entry < 0 {
		return nil
	}
	return &ix.Entries[l.Entry]
}

// Bytes reassembles the file; for an unmodified Index it equals the content
// Parse was given.
func (ix *Index) Bytes() []byte {
	n := 0
	for i := range ix.Lines {
		n += len(ix.Lines[i].Raw) + 1
	}
	out := make([]byte, 0, n)
	for i := range ix.Lines {
		out = append(out, ix.Lines[i].Raw...)
		if ix.Lines[i].Newline {
			out = append(out, '\n')
		}
	}
	return out
}

// Parse parses MEMORY.md in every shape seen in real memory dirs:
// list entries with any separator, tables with backticked file names,
// wikilinks, prose with links mid-sentence, headings, CRLF line endings.
// It is linear in the size of content and never fails: a line it cannot
// place is prose.
func Parse(content []byte) Index {
	return ParseText(string(content)) // one copy; every string of the Index shares it
}

// ParseText is Parse over content already held as a string: the
// Index's strings share text, so a caller that has the file as a string
// saves a copy of it.
func ParseText(text string) Index {
	ix := Index{Lines: ixSplit(text)}
	if len(ix.Lines) > 0 {
		ix.CRLF = ix.Lines[0].CR()
	}
	// Size the entry and reference stores once: each needs a '[' or a
	// backtick, so these counts bound them (closely, for real indexes).
	guess := min(len(ix.Lines), strings.Count(text, "](")+strings.Count(text, "[[")+strings.Count(text, "`")/2+1)
	ix.Entries = make([]Entry, 0, guess)
	p := ixParser{ix: &ix, chain: -1, section: -1, refs: make([]Ref, 0, guess)}
	p.frontmatter()
	for i := p.start; i < len(ix.Lines); i++ {
		p.classify(i)
	}
	return ix
}

// ixSplit cuts text into lines.
func ixSplit(text string) []Line {
	lines := make([]Line, 0, strings.Count(text, "\n")+1)
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		nl := end >= 0
		if !nl {
			end = len(text) - start
		}
		raw := text[start : start+end]
		lines = append(lines, Line{Num: len(lines) + 1, Raw: raw, Text: strings.TrimSuffix(raw, "\r"), Newline: nl, Entry: -1})
		start += end + 1
	}
	return lines
}

// ixParser carries the state of one pass over the lines.
type ixParser struct {
	ix          *Index
	start       int  // first line after frontmatter
	fence       byte // the open fence's character, 0 when none
	fenceLen    int
	comment     bool // inside a multi-line HTML comment
	table       bool // inside a table's body
	piped       bool // the table's header starts with a pipe, so its rows do
	chain       int  // the entry indented lines may hang under, -1 when none
	chainIndent int
	section     int
	refs        []Ref   // backing store for every line's Refs
	match, open []int32 // scratch for ixRefScanner, reused line to line
}

// frontmatter marks a leading ---...--- block (closed within 30 lines).
func (p *ixParser) frontmatter() {
	ls := p.ix.Lines
	if len(ls) == 0 || strings.TrimRight(ls[0].Text, " \t") != "---" {
		return
	}
	for i := 1; i < len(ls) && i < model.FrontmatterMaxLines; i++ {
		if strings.TrimRight(ls[i].Text, " \t") == "---" {
			for j := 0; j <= i; j++ {
				ls[j].Kind = LineFrontmatter
			}
			p.start = i + 1
			return
		}
	}
}

// classify decides the kind of line i, and records entries and headings.
func (p *ixParser) classify(i int) {
	l := &p.ix.Lines[i]
	t := l.Text
	switch {
	case p.fence != 0:
		l.Kind = LineCode
		if ixFenceClose(t, p.fence, p.fenceLen) {
			p.fence = 0
		}
	case p.comment:
		l.Kind = LineComment
		p.comment = !strings.Contains(t, "-->")
	case ixBlank(t):
		l.Kind = LineBlank
		p.chain, p.table = -1, false
	case p.openFence(t):
		l.Kind = LineCode
		p.chain, p.table = -1, false
	case strings.HasPrefix(strings.TrimLeft(t, " \t"), "<!--"):
		l.Kind = LineComment
		open := strings.Index(t, "<!--")
		p.comment = !strings.Contains(t[open+4:], "-->")
		p.chain = -1
	default:
		p.classifyText(i, l)
	}
}

// classifyText handles a line that is neither blank nor code nor comment.
func (p *ixParser) classifyText(i int, l *Line) {
	t := l.Text
	if lv, title := ixHeading(t); lv > 0 {
		l.Kind = LineHeading
		l.Refs = p.scan(t)
		p.ix.Headings = append(p.ix.Headings, Heading{Line: l.Num, Level: lv, Text: title})
		p.section = len(p.ix.Headings) - 1
		p.chain, p.table = -1, false
		return
	}
	if ixRule(t) {
		l.Kind = LineRule
		p.chain, p.table = -1, false
		return
	}
	if p.tableLine(i, l) {
		return
	}
	l.Refs = p.scan(t)
	indent := ixIndent(t)
	body, isItem := ixListBody(t)
	hanging := p.chain >= 0 && indent > p.chainIndent && indent >= 2
	if hanging && !(isItem && len(l.Refs) > 0) {
		l.Kind = LineContinuation
		l.Entry = p.chain
		e := &p.ix.Entries[p.chain]
		e.Continuations = append(e.Continuations, l.Num)
		return
	}
	if len(l.Refs) == 0 {
		l.Kind = LineProse
		p.chain = -1
		return
	}
	form := EntryProse
	if isItem {
		form = EntryList
	} else {
		body = t
	}
	p.addEntry(l, form, body)
	if !hanging { // a nested entry keeps the chain's root indentation
		p.chainIndent = indent
	}
	p.chain = l.Entry
}

// tableLine classifies table headers, separators and rows; it reports
// whether line i was one.
func (p *ixParser) tableLine(i int, l *Line) bool {
	t := l.Text
	switch {
	case p.table && ixTableSep(t):
		l.Kind = LineTableSeparator
	case !p.table && strings.Contains(t, "|") && i+1 < len(p.ix.Lines) && ixTableSep(p.ix.Lines[i+1].Text):
		l.Kind = LineTableHeader
		l.Refs = p.scan(t)
		p.table, p.chain = true, -1
		p.piped = strings.HasPrefix(strings.TrimSpace(t), "|")
	case p.table && ixTableRow(t, p.piped):
		l.Refs = p.scan(t)
		l.Kind = LineProse
		if len(l.Refs) > 0 {
			p.addEntry(l, EntryTable, t)
		}
		p.chain = -1
	default:
		p.table = false
		return false
	}
	return true
}

// ixTableRow reports whether t continues a table: it starts with a pipe,
// or (for a table written without outer pipes) holds one.
func ixTableRow(t string, piped bool) bool {
	if piped {
		return strings.HasPrefix(strings.TrimSpace(t), "|")
	}
	return strings.Contains(t, "|")
}

// addEntry records line l as an entry of the given form.
func (p *ixParser) addEntry(l *Line, form EntryForm, body string) {
	e := Entry{Line: l.Num, Form: form, Raw: l.Text, Refs: l.Refs, Section: p.section}
	switch form {
	case EntryTable:
		ixTableParts(&e, l.Text)
	case EntryList:
		ixListParts(&e, body, l.Text)
	default:
		e.Title = ixRefTitle(l.Refs[0])
	}
	l.Kind = LineEntry
	l.Entry = len(p.ix.Entries)
	p.ix.Entries = append(p.ix.Entries, e)
}

// scan extracts the references of one line into the shared backing array.
func (p *ixParser) scan(t string) []Ref {
	start := len(p.refs)
	sc := ixRefScanner{t: t, refs: p.refs, match: p.match, open: p.open[:0]}
	p.refs, p.match, p.open = sc.scan(), sc.match, sc.open
	if len(p.refs) == start {
		return nil
	}
	return p.refs[start:len(p.refs):len(p.refs)]
}

// openFence starts a fenced code block at a line of ``` or ~~~ (any
// indentation: inside a list item a fence may sit deeper than 3 spaces).
func (p *ixParser) openFence(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return false
	}
	p.fence, p.fenceLen = s[0], n
	return true
}

// ixFenceClose reports whether t closes a fence of n characters c.
func ixFenceClose(t string, c byte, n int) bool {
	s := strings.TrimLeft(t, " \t")
	k := 0
	for k < len(s) && s[k] == c {
		k++
	}
	return k >= n && strings.TrimRight(s[k:], " \t") == ""
}

func ixBlank(t string) bool { return strings.TrimSpace(t) == "" }

// ixIndent is the width of the leading blanks (a tab counts 4).
func ixIndent(t string) int {
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// ixHeading parses an ATX heading: ≤3 spaces, 1-6 #s, then a blank or the
// end. It returns the level (0 when t is not a heading) and the text.
func ixHeading(t string) (int, string) {
	s := t
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(s[n:])
	// A closing run of #s preceded by a blank is not part of the text.
	if c := strings.TrimRight(title, "#"); c != title && (c == "" || strings.HasSuffix(c, " ") || strings.HasSuffix(c, "\t")) {
		title = strings.TrimSpace(c)
	}
	return n, title
}

// ixRule reports a thematic break: three or more of one of - * _ with only
// blanks between.
func ixRule(t string) bool {
	s := strings.TrimSpace(t)
	if len(s) < 3 || (s[0] != '-' && s[0] != '*' && s[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// ixTableSep reports a table delimiter row: only |, -, :, blanks, with at
// least one - and one |.
func ixTableSep(t string) bool {
	s := strings.TrimSpace(t)
	if !strings.Contains(s, "-") || !strings.Contains(s, "|") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '|', '-', ':', ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// ixListBody returns the text after a list marker (and a task checkbox),
// and whether t is a list item at all.
func ixListBody(t string) (string, bool) {
	s := strings.TrimLeft(t, " \t")
	n := 0
	switch {
	case s == "":
		return "", false
	case s[0] == '-' || s[0] == '*' || s[0] == '+':
		n = 1
	default:
		for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(s) || (s[n] != '.' && s[n] != ')') {
			return "", false
		}
		n++
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return "", false
	}
	body := strings.TrimLeft(s[n:], " \t")
	if len(body) >= 3 && body[0] == '[' && body[2] == ']' && strings.ContainsRune(" xX", rune(body[1])) && (len(body) == 3 || body[3] == ' ') {
		body = strings.TrimLeft(body[3:], " ")
	}
	return body, true
}

// ixSeps are the separators written between a reference and its hook,
// longest first where one is a prefix of another.
var ixSeps = []string{"—", "–", "―", "->", "→", "=>", "--", "-", ":", ",", ";", "|", "·", "•"}

// ixSplitSep splits s (trimmed) into a leading separator and the rest.
func ixSplitSep(s string) (sep, rest string) {
	for _, p := range ixSeps {
		if strings.HasPrefix(s, p) {
			return p, strings.TrimSpace(s[len(p):])
		}
	}
	return "", s
}

// ixTrimEmph trims emphasis and code markers and blanks around s.
func ixTrimEmph(s string) string { return strings.Trim(s, " \t*_~`") }

// ixRefTitle is the title a reference gives by itself.
func ixRefTitle(r Ref) string {
	switch r.Kind {
	case RefLink:
		if t := ixTrimEmph(r.Text); t != "" {
			return t
		}
		return r.Dest
	case RefWiki:
		if r.Text != "" {
			return r.Text
		}
		return r.Target
	}
	return r.Dest
}

// ixListParts fills Title, Sep and Hook of a list entry from its body (the
// text after the list marker). line is the whole line; refs have columns in
// it.
func ixListParts(e *Entry, body, line string) {
	off := len(line) - len(body)
	r := e.Refs[0]
	if r.Col < off { // cannot happen; stay safe
		e.Title = ixRefTitle(r)
		return
	}
	prefix := body[:r.Col-off]
	after := body[r.Col-off+len(r.Raw):]
	ixParts(e, r, prefix, after)
}

// ixParts derives Title, Sep and Hook from the text before and after the
// entry's first reference.
func ixParts(e *Entry, r Ref, prefix, after string) {
	pre := ixTrimEmph(prefix)
	preSep := ""
	if pre != "" {
		for _, s := range ixSeps {
			if strings.HasSuffix(pre, s) {
				preSep, pre = s, ixTrimEmph(strings.TrimSuffix(pre, s))
				break
			}
		}
	}
	title := ixRefTitle(r)
	if pre != "" && (r.Kind != RefLink || ixTrimEmph(r.Text) == "" || ixTrimEmph(r.Text) == r.Dest || ixTrimEmph(r.Text) == path.Base(r.Target)) {
		title = pre // "User role — [user_role.md](user_role.md)", "Role: `role.md`"
	}
	e.Title = title
	rest := strings.TrimSpace(strings.TrimLeft(after, "*_~"))
	e.Sep, e.Hook = ixSplitSep(rest)
	if e.Sep == "" && e.Hook == "" {
		e.Sep = preSep
	}
}

// ixTableParts fills Title, Sep and Hook of a table row: the title from the
// cell before the one holding the first reference (else the reference), the
// hook from the cells after it.
func ixTableParts(e *Entry, line string) {
	cells := ixCells(line)
	r := e.Refs[0]
	ri := -1
	for i, c := range cells {
		if r.Col >= c.off && r.Col < c.off+len(c.text) {
			ri = i
			break
		}
	}
	if ri < 0 {
		e.Title = ixRefTitle(r)
		return
	}
	var hook []string
	for _, c := range cells[ri+1:] {
		if s := strings.TrimSpace(c.text); s != "" {
			hook = append(hook, s)
		}
	}
	if len(hook) == 0 { // a single cell carrying "[T](f.md) — hook"
		c := cells[ri]
		ixParts(e, r, line[c.off:r.Col], line[r.Col+len(r.Raw):c.off+len(c.text)])
		return
	}
	e.Title = ixRefTitle(r)
	for i := ri - 1; i >= 0; i-- {
		if s := ixTrimEmph(cells[i].text); s != "" {
			e.Title = s
			break
		}
	}
	e.Sep, e.Hook = "|", strings.Join(hook, " | ")
}

// ixCell is one table cell and its byte offset in the line.
type ixCell struct {
	text string
	off  int
}

// ixCells splits a table row on pipes that are neither escaped nor inside
// a code span, dropping the empty cells outside a leading and trailing pipe.
func ixCells(line string) []ixCell {
	var cells []ixCell
	sc := ixRefScanner{t: line}
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '`':
			_, end, _ := sc.codeSpan(i) // a span is skipped whole: its pipes do not split
			i = end - 1
		case '|':
			cells = append(cells, ixCell{line[start:i], start})
			start = i + 1
		}
	}
	cells = append(cells, ixCell{line[start:], start})
	if len(cells) > 1 && strings.TrimSpace(cells[0].text) == "" {
		cells = cells[1:]
	}
	if len(cells) > 1 && strings.TrimSpace(cells[len(cells)-1].text) == "" {
		cells = cells[:len(cells)-1]
	}
	return cells
}

// ---- references ----

// ixRefScanner finds the references on one line in linear time: bracket
// pairs are matched by a single pass that never backs up, and a backtick
// run length known to have no closer is not searched for again.
type ixRefScanner struct {
	t    string
	refs []Ref
	// match[i] is the ']' closing the '[' at i, -1 if none, ixOpen while
	// the pairing pass has not closed it; open holds those, innermost last.
	// The pass has read t[:paired]; pairing is false until it starts.
	match   []int32
	open    []int32
	paired  int
	pairing bool
	noTick  []int // backtick run lengths with no closing run further on
}

// ixOpen marks in ixRefScanner.match a '[' whose ']' is not found yet.
const ixOpen = -2

// ixRefStart and ixBracket mark the bytes the reference scanner stops at.
var ixRefStart, ixBracket = ixByteSet("\\`<!["), ixByteSet("\\[]")

// ixByteSet builds a lookup table of the bytes in chars.
func ixByteSet(chars string) (set [256]bool) {
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

// ixNext returns the offset of the first byte of t at or after i that is in
// set, or len(t).
func ixNext(t string, i int, set *[256]bool) int {
	for i < len(t) && !set[t[i]] {
		i++
	}
	return i
}

// scan appends the references on the line: inline links, backticked *.md
// names and wikilinks. Images, autolinks and inline comments are skipped;
// escaped brackets are not links.
func (sc *ixRefScanner) scan() []Ref {
	t := sc.t
	for i := ixNext(t, 0, &ixRefStart); i < len(t); i = ixNext(t, i, &ixRefStart) {
		switch t[i] {
		case '\\':
			i += 1 + ixPunctLen(t, i+1)
		case '`':
			i = sc.codeRef(i)
		case '<':
			i = ixSkipAngle(t, i)
		case '!':
			if _, _, _, end, ok := sc.link(i + 1); ok {
				i = end // an image is not a reference to a memory
			} else {
				i++
			}
		case '[':
			i = sc.bracketRef(i)
		}
	}
	return sc.refs
}

// ixPunctLen is 1 when t[i] is ASCII punctuation (escaped by a backslash
// before it), else 0.
func ixPunctLen(t string, i int) int {
	if i < len(t) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", t[i]) >= 0 {
		return 1
	}
	return 0
}

// ixSkipAngle skips an inline HTML comment or an autolink starting at t[i].
func ixSkipAngle(t string, i int) int {
	if strings.HasPrefix(t[i:], "<!--") {
		if k := strings.Index(t[i+4:], "-->"); k >= 0 {
			return i + 4 + k + 3
		}
		return len(t)
	}
	if k := strings.IndexAny(t[i+1:], "> <"); k >= 0 && t[i+1+k] == '>' && strings.Contains(t[i+1:i+1+k], ":") {
		return i + 1 + k + 1 // <https://...>
	}
	return i + 1
}

// codeSpan finds the code span opening at t[i]: it returns the content and
// the end, or ok=false when the backticks are not closed.
func (sc *ixRefScanner) codeSpan(i int) (content string, end int, ok bool) {
	t := sc.t
	n := 0
	for i+n < len(t) && t[i+n] == '`' {
		n++
	}
	for _, m := range sc.noTick {
		if m == n {
			return "", i + n, false
		}
	}
	for j := i + n; j < len(t); {
		k := strings.IndexByte(t[j:], '`')
		if k < 0 {
			break
		}
		j += k
		m := 0
		for j+m < len(t) && t[j+m] == '`' {
			m++
		}
		if m == n {
			return t[i+n : j], j + m, true
		}
		j += m
	}
	sc.noTick = append(sc.noTick, n)
	return "", i + n, false
}

// codeRef records a backticked file name and returns where scanning
// resumes.
func (sc *ixRefScanner) codeRef(i int) int {
	content, end, ok := sc.codeSpan(i)
	if !ok {
		return end
	}
	name := strings.TrimSpace(content)
	if len(name) > 3 && strings.EqualFold(name[len(name)-3:], ".md") && !strings.ContainsAny(name, " \t*?[]{}<>|\"'") {
		target, scope := ixClassify(name, false)
		sc.refs = append(sc.refs, Ref{Kind: RefCode, Scope: scope, Raw: sc.t[i:end], Dest: name, Target: target, Col: i})
	}
	return end
}

// bracketRef records a wikilink or an inline link starting at t[i] and
// returns where scanning resumes.
func (sc *ixRefScanner) bracketRef(i int) int {
	t := sc.t
	if strings.HasPrefix(t[i:], "[[") {
		if k := strings.IndexAny(t[i+2:], "[]"); k > 0 && strings.HasPrefix(t[i+2+k:], "]]") {
			inner := t[i+2 : i+2+k]
			name, alias, _ := strings.Cut(inner, "|")
			name, _, _ = strings.Cut(name, "#")
			if name = strings.TrimSpace(name); name != "" {
				sc.refs = append(sc.refs, Ref{Kind: RefWiki, Scope: RefFile, Raw: t[i : i+2+k+2], Dest: inner, Target: name, Text: strings.TrimSpace(alias), Col: i})
				return i + 2 + k + 2
			}
		}
	}
	text, dest, _, end, ok := sc.link(i)
	if !ok {
		return i + 1
	}
	target, scope := ixClassify(dest, true)
	sc.refs = append(sc.refs, Ref{Kind: RefLink, Scope: scope, Raw: t[i:end], Dest: dest, Target: target, Text: text, Col: i})
	return end
}

// link parses an inline link [text](dest "title") at t[i] (which is '['),
// returning its parts and the offset after it.
func (sc *ixRefScanner) link(i int) (text, dest, title string, end int, ok bool) {
	t := sc.t
	if i >= len(t) || t[i] != '[' {
		return
	}
	close := sc.closeBracket(i)
	if close < 0 || close+1 >= len(t) || t[close+1] != '(' {
		return
	}
	text = t[i+1 : close]
	j := ixSkipBlanks(t, close+2)
	dest, j, ok = ixLinkDest(t, j)
	if !ok {
		return
	}
	k := ixSkipBlanks(t, j)
	if k < len(t) && k > j && strings.IndexByte("\"'(", t[k]) >= 0 {
		title, k, ok = ixLinkTitle(t, k)
		if !ok {
			return
		}
		k = ixSkipBlanks(t, k)
	}
	if k >= len(t) || t[k] != ')' {
		return "", "", "", 0, false
	}
	return text, dest, title, k + 1, true
}

// closeBracket returns the ']' that closes the '[' at i (nesting counted,
// escapes skipped), or -1. The pairing pass runs only as far as the
// question needs: a typical entry asks about the link text at its start,
// and the rest of the line, its hook, is never paired.
func (sc *ixRefScanner) closeBracket(i int) int {
	if !sc.pairing {
		if cap(sc.match) < len(sc.t) { // grown by doubling: the parser reuses it line to line
			sc.match = make([]int32, max(len(sc.t), 2*cap(sc.match)))
		}
		sc.match = sc.match[:len(sc.t)]
		sc.pairing = true
	}
	for sc.paired <= i || sc.match[i] == ixOpen {
		if !sc.pairNext() {
			break
		}
	}
	return int(sc.match[i])
}

// pairNext advances the pairing pass over the next backslash or bracket of
// the line, with a stack of the open '['. At the end of the line it marks
// the brackets still open as unmatched and reports false.
func (sc *ixRefScanner) pairNext() bool {
	t := sc.t
	j := ixNext(t, sc.paired, &ixBracket)
	if j >= len(t) {
		for _, o := range sc.open {
			sc.match[o] = -1
		}
		sc.open = sc.open[:0]
		sc.paired = len(t)
		return false
	}
	switch t[j] {
	case '\\':
		j += ixPunctLen(t, j+1)
	case '[':
		sc.match[j] = ixOpen
		sc.open = append(sc.open, int32(j))
	case ']':
		if n := len(sc.open); n > 0 {
			sc.match[sc.open[n-1]] = int32(j)
			sc.open = sc.open[:n-1]
		}
	}
	sc.paired = j + 1
	return true
}

func ixSkipBlanks(t string, j int) int {
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	return j
}

// ixMaxParens is cmark's limit on unescaped parenthesis nesting in a link
// destination; past it the destination is not one, which also keeps a
// line of "[a](" ladders from being rescanned to its end for every link.
const ixMaxParens = 32

// ixLinkDest parses a link destination: <...> or a run without blanks and
// with balanced parentheses.
func ixLinkDest(t string, j int) (string, int, bool) {
	if j < len(t) && t[j] == '<' {
		for k := j + 1; k < len(t); k++ {
			switch t[k] {
			case '\\':
				k += ixPunctLen(t, k+1)
			case '<':
				return "", 0, false
			case '>':
				return t[j+1 : k], k + 1, true
			}
		}
		return "", 0, false
	}
	start, depth := j, 0
	for ; j < len(t); j++ {
		c := t[j]
		if c == '\\' {
			j += ixPunctLen(t, j+1)
			continue
		}
		if c == ' ' || c == '\t' || c < 0x20 {
			break
		}
		if c == '(' {
			if depth++; depth > ixMaxParens {
				return "", 0, false
			}
		} else if c == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	return t[start:j], j, depth == 0
}

// ixLinkTitle parses a "title", 'title' or (title) at t[k].
func ixLinkTitle(t string, k int) (string, int, bool) {
	closeC := t[k]
	if closeC == '(' {
		closeC = ')'
	}
	for j := k + 1; j < len(t); j++ {
		switch {
		case t[j] == '\\':
			j += ixPunctLen(t, j+1)
		case t[j] == closeC:
			return t[k+1 : j], j + 1, true
		case t[j] == '(' && closeC == ')':
			return "", 0, false // a (title) may not hold an unescaped "("
		}
	}
	return "", 0, false
}

// ixClassify normalises a destination and says where it points. decode
// resolves backslash escapes and %XX (link destinations); code spans are
// taken literally.
func ixClassify(dest string, decode bool) (string, RefScope) {
	d := strings.TrimSpace(dest)
	if d == "" || d[0] == '#' {
		return d, RefExternal
	}
	if n := ixSchemeLen(d); n > 0 {
		scheme := strings.ToLower(d[:n])
		if n == 1 || scheme == "file" { // C:\x.md, file:///x.md
			return d, RefOutside
		}
		return d, RefExternal
	}
	if k := strings.IndexAny(d, "#?"); k >= 0 {
		d = d[:k]
	}
	if decode {
		d = ixUnescape(d)
	}
	if strings.Contains(d, "\\") {
		d = strings.ReplaceAll(d, "\\", "/") // a Windows-style path
	}
	switch {
	case strings.HasPrefix(d, "/"):
		return path.Clean(d), RefOutside
	case strings.HasPrefix(d, "~"):
		return d, RefOutside
	}
	c := path.Clean(d)
	switch {
	case c == "." || c == "":
		return c, RefExternal // the directory itself: no file
	case c == ".." || strings.HasPrefix(c, "../"):
		return c, RefOutside
	}
	return c, RefFile
}

// ixSchemeLen returns the length of a URI scheme before ':' at the start
// of d, or 0.
func ixSchemeLen(d string) int {
	if d == "" || !(d[0]|0x20 >= 'a' && d[0]|0x20 <= 'z') {
		return 0
	}
	for i := 1; i < len(d) && i < 33; i++ {
		c := d[i]
		switch {
		case c == ':':
			return i
		case c|0x20 >= 'a' && c|0x20 <= 'z', c >= '0' && c <= '9', c == '+', c == '.', c == '-':
		default:
			return 0
		}
	}
	return 0
}

// ixUnescape resolves backslash escapes of punctuation and valid %XX
// escapes (when the result is valid UTF-8).
func ixUnescape(d string) string {
	if !strings.ContainsAny(d, "\\%") {
		return d
	}
	var b bytes.Buffer
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch {
		case c == '\\' && ixPunctLen(d, i+1) == 1:
			i++
			b.WriteByte(d[i])
		case c == '%' && i+2 < len(d) && ixHex(d[i+1]) >= 0 && ixHex(d[i+2]) >= 0:
			b.WriteByte(byte(ixHex(d[i+1])<<4 | ixHex(d[i+2])))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	if !utf8.Valid(b.Bytes()) {
		return d
	}
	return b.String()
}

func ixHex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}
