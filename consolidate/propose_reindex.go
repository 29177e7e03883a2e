package consolidate

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
)

// The reindex proposer rewrites MEMORY.md so that Claude Code loads it
// whole, and makes one proposal per directory. It works on the index line by
// line and keeps every line it has no reason to touch byte for byte (line
// endings included), so the diff shows only the repairs:
//
//   - an entry whose main link names a missing file (index-broken-link) is
//     dropped; a broken link elsewhere on a kept line (a hook, prose, a
//     heading) is turned into its plain text;
//   - the second entry for a file (index-duplicate-entry) is dropped;
//   - indented lines hanging under an entry (index-entry-multiline) are
//     folded away. Their detail is never lost: a line whose words the topic
//     file already holds is simply dropped, any other is appended to the
//     topic file under "Moved here from MEMORY.md:". A single line under an
//     entry with no hook becomes its hook instead, when that fits in 150
//     characters. An entry whose target cannot take the text (outside the
//     directory, a wikilink to nothing, a file read only in part) keeps its
//     lines;
//   - a hook that makes the line longer than 150 characters
//     (index-entry-too-long) is replaced by the memory's description, or,
//     when that is too long as well, cut at a word boundary with "…". The
//     long hook goes into the topic file when its words are not there yet;
//   - memory content written into the index (index-not-pointer: fenced code,
//     runs of prose) moves into a new topic file at the top level, with
//     frontmatter in the shape the directory uses, named after the heading
//     it sat under, and one entry pointing at it takes its place;
//   - topic files nothing reaches (memory-orphan) get an entry built from
//     their frontmatter, - [name](file.md) — description. When the index
//     groups entries by type (a section whose entries are mostly of one
//     type), an orphan goes at the end of the section for its type, else
//     after the last entry;
//   - headings left with no entry (index-empty-section) are removed;
//   - frontmatter in MEMORY.md (Claude Code strips it unread) is removed.
//
// The result must load under 70% of both caps (140 lines, 17,500 UTF-16
// units), whatever the findings were (index-over-lines, index-over-size,
// index-near-limit). When it does not, blank lines between entries are
// dropped first (a loose list becomes a tight one: nothing is lost), and if
// that is not enough the least recently modified entries (metadata.modified,
// else the file's mtime; the later entry first on a tie) move to a linked
// archive index, memory-archive.md, under their original headings, with
// one entry in MEMORY.md pointing at it. No entry is ever deleted to make
// room. Choosing by age rather than cutting the last sections keeps what the
// agent is working on now in the index whatever order the file is in.
//
// hook-echoes-description and index-link-outside are not repaired: a hook
// built from the description is what this proposer writes itself, and a
// file outside the directory cannot be moved from here. Both are left as
// they are and never claimed as fixed.
//
// The proposal's fixes are measured, not assumed: the index rules run again
// over the directory as it would be after the change, and a finding is
// claimed only when no finding of its rule is left on its file.
//
// Proposals follow the findings: a repair whose rule the user silenced (in
// the config or with a memtui-ignore comment) is not made.

// reindexRules are the findings a reindex proposal answers.
var reindexRules = []string{
	RuleIndexOverLines, RuleIndexOverSize, RuleIndexNearLimit, RuleIndexEntryTooLong, RuleIndexBrokenLink,
	RuleIndexLinkOutside, RuleIndexDuplicateEntry, RuleIndexNotPointer, RuleIndexMissing, RuleMemoryOrphan,
	RuleIndexEntryMultiline, RuleIndexEmptySection, RuleHookEchoes,
}

const (
	rxArchive   = "memory-archive.md" // the overflow index this proposer creates
	rxMovedHead = "Moved here from MEMORY.md:"
	rxMinHook   = 12  // fewer characters than this left for a hook: drop it rather than cut it
	rxCovered   = 0.9 // share of a text's words a topic file must hold for the text to be "already there"
	rxNoteTitle = "Notes from MEMORY.md"

	rxArchiveHook = "older entries moved out to keep this index loading whole"
)

// rxLine is one line of the index being rewritten.
type rxLine struct {
	raw  string // without "\n"; with "\r" when the line ends in CRLF
	nl   bool   // false only for a last line with no newline
	orig int    // 1-based line of the original index; 0 for a new line
	del  bool
}

// rxNewFile is a file the proposal creates or rewrites.
type rxNewFile struct {
	path    string
	content []byte
	create  bool
}

// reindexer carries one directory's index through the rewrite.
type reindexer struct {
	s      *dreamState
	now    time.Time
	ix     model.Index             // the index as read (empty when there is none)
	c      *indexChecker           // references of ix resolved to topic files
	doc    []rxLine                // the index being written
	cr     bool                    // new lines end in CRLF
	flag   map[string]map[int]bool // rule → lines of MEMORY.md with a finding
	marker string                  // list marker of new entries ("- ")
	sep    string                  // separator between link and hook (" — ")
	legacy bool                    // new files get a top-level type (the directory's shape)

	hadContent map[int]bool // original heading lines with entries under them

	moved     map[string][]string // topic file → lines moved into it, in index order
	movedSeen map[string]bool
	created   []rxNewFile // new topic files (moved content, the archive)
	taken     map[string]bool
	reads     map[string]bool
	lowText   map[string]string

	// What changed, for the rationale.
	broken, dups, orphans, shortened, folded, unlinked, emptied []string
	notes                                                       []string
	movedLines, archived                                        int
	archivePath                                                 string
	tightened, frontmatter                                      bool
	secretNames                                                 int // files left out: their names hold a secret
}

// proposeReindex rewrites MEMORY.md so that it loads whole.
func proposeReindex(s *dreamState) []model.Proposal {
	if !s.hasReindexFindings() {
		return nil
	}
	if s.d.Index == nil {
		if len(s.byRule[RuleIndexMissing]) == 0 {
			return nil
		}
		return s.proposeNewIndex()
	}
	// An index read only in part cannot be rewritten: the proposal would
	// write back the part that was read and lose the rest, which memtui
	// never saw. The reader's cap is far above the 25,000-unit load cap, so
	// such a file is a runaway that needs a person, not a rewrite.
	if s.d.Index.Truncated {
		return nil
	}
	// An index that is not text is left alone as well (see opaque).
	if s.opaque("MEMORY.md") {
		return nil
	}
	r := newReindexer(s)
	r.rewrite()
	return r.finish()
}

func (s *dreamState) hasReindexFindings() bool {
	for _, rule := range reindexRules {
		if len(s.byRule[rule]) > 0 {
			return true
		}
	}
	return false
}

func newReindexer(s *dreamState) *reindexer {
	r := &reindexer{s: s, now: s.opts.Now, flag: map[string]map[int]bool{}, marker: "- ", sep: " — ",
		hadContent: map[int]bool{}, moved: map[string][]string{}, movedSeen: map[string]bool{},
		taken: map[string]bool{}, reads: map[string]bool{}, lowText: map[string]string{}}
	for _, rule := range reindexRules {
		for _, f := range s.byRule[rule] {
			if f.File == "MEMORY.md" {
				if r.flag[rule] == nil {
					r.flag[rule] = map[int]bool{}
				}
				r.flag[rule][f.Line] = true
			}
		}
	}
	r.taken["memory.md"] = true
	for _, f := range s.d.Files {
		r.taken[strings.ToLower(f.Path)] = true
	}
	cur, old := 0, 0
	for _, d := range s.docs {
		switch d.FM.Generation {
		case model.GenCurrent:
			cur++
		case model.GenLegacy:
			old++
		}
	}
	r.legacy = old > cur
	if s.d.Index != nil {
		r.ix = model.ParseIndex(s.d.Index.Content)
		r.cr = r.ix.CRLF
		_, r.c = r.check(s.d.Index.Content, nil)
		for i := range r.ix.Lines {
			l := &r.ix.Lines[i]
			r.doc = append(r.doc, rxLine{raw: l.Raw, nl: l.Newline, orig: l.Num})
		}
		for i, h := range r.ix.Headings {
			if r.c.hasContent(h.Line+1, r.sectionEnd(&r.ix, i)) {
				r.hadContent[h.Line] = true
			}
		}
		r.style()
	}
	return r
}

// check runs the index rules over the directory with the given index and
// extra files, and returns the findings and a checker over that index with
// its references resolved.
func (r *reindexer) check(index []byte, extra []rxNewFile) ([]model.Finding, *indexChecker) {
	d := *r.s.d
	d.Index = &model.File{Path: "MEMORY.md", Content: index}
	if len(extra) > 0 {
		byPath := map[string]*model.File{}
		for _, f := range r.s.d.Files {
			byPath[f.Path] = f
		}
		for _, x := range extra {
			old := byPath[x.path]
			nf := &model.File{Path: x.path, Content: x.content}
			if old != nil {
				cp := *old
				cp.Content, cp.Size = x.content, int64(len(x.content))
				nf = &cp
			}
			byPath[x.path] = nf
		}
		d.Files = make([]*model.File, 0, len(byPath))
		for _, f := range byPath {
			d.Files = append(d.Files, f)
		}
		sort.Slice(d.Files, func(i, j int) bool { return d.Files[i].Path < d.Files[j].Path })
	}
	ds := newDirState(r.s.p, &d, r.s.opts.Options)
	checkIndex(ds)
	ix := model.ParseIndex(index)
	c := &indexChecker{s: ds, ix: &ix, path: "MEMORY.md", lowPath: "memory.md"}
	c.resolve()
	return ds.findings, c
}

func (r *reindexer) has(rule string, line int) bool { return r.flag[rule][line] }

// style learns the list marker and separator the index's entries use.
func (r *reindexer) style() {
	seps, marks := map[string]int{}, map[string]int{}
	var sepOrder, markOrder []string
	for i := range r.ix.Entries {
		e := &r.ix.Entries[i]
		if e.Form != model.EntryList || len(e.Refs) == 0 {
			continue
		}
		ref := e.Refs[0]
		if m := e.Raw[:ref.Col]; m == "- " || m == "* " || m == "+ " {
			if marks[m]++; marks[m] == 1 {
				markOrder = append(markOrder, m)
			}
		}
		if e.Hook == "" || e.Sep == "" {
			continue
		}
		if start, _, ok := rxHookSpan(e); ok && start >= ref.Col+len(ref.Raw) {
			between := e.Raw[ref.Col+len(ref.Raw) : start]
			if strings.TrimSpace(between) == e.Sep && strings.HasSuffix(between, " ") {
				if seps[between]++; seps[between] == 1 {
					sepOrder = append(sepOrder, between)
				}
			}
		}
	}
	r.sep = rxMost(seps, sepOrder, r.sep)
	r.marker = rxMost(marks, markOrder, r.marker)
}

func rxMost(counts map[string]int, order []string, def string) string {
	best, n := def, 0
	for _, k := range order {
		if counts[k] > n {
			best, n = k, counts[k]
		}
	}
	return best
}

// rxHookSpan locates an entry's hook in its raw text: the hook is the end of
// a list or prose line, or one cell of a table row.
func rxHookSpan(e *model.Entry) (start, end int, ok bool) {
	if e.Hook == "" {
		return 0, 0, false
	}
	t := strings.TrimRightFunc(e.Raw, unicode.IsSpace)
	if strings.HasSuffix(t, e.Hook) {
		return len(t) - len(e.Hook), len(t), true
	}
	if e.Form == model.EntryTable {
		if k := strings.LastIndex(e.Raw, e.Hook); k > 0 && len(e.Refs) > 0 && k >= e.Refs[0].Col+len(e.Refs[0].Raw) {
			return k, k + len(e.Hook), true
		}
	}
	return 0, 0, false
}

// ---- the rewrite ----

func (r *reindexer) rewrite() {
	for i := range r.ix.Lines {
		if r.ix.Lines[i].Kind == model.LineFrontmatter {
			r.doc[i].del = true
			r.frontmatter = true
		}
	}
	r.moveContent()
	for i := range r.ix.Entries {
		r.entry(&r.ix.Entries[i])
	}
	r.unlinkBroken()
	r.compact()
	r.addOrphans()
	r.removeEmptySections()
	r.fit()
}

// line returns the working line for an original line number.
func (r *reindexer) line(n int) *rxLine { return &r.doc[n-1] }

// text is a working line without its "\r".
func (l *rxLine) text() string { return strings.TrimSuffix(l.raw, "\r") }

// set replaces a line's text, keeping its line ending.
func (l *rxLine) set(text string) {
	if strings.HasSuffix(l.raw, "\r") {
		text += "\r"
	}
	l.raw = text
}

func (r *reindexer) newLine(text string) rxLine {
	if r.cr {
		text += "\r"
	}
	return rxLine{raw: text, nl: true}
}

// entry repairs one entry: drops it when broken or a duplicate, else
// shortens its hook and folds its hanging lines.
func (r *reindexer) entry(e *model.Entry) {
	if r.line(e.Line).del {
		return // inside content moved out
	}
	t := r.c.target(e)
	if e.Form != model.EntryProse && t.ok && r.has(RuleIndexBrokenLink, e.Line) && r.refBroken(t.ref, t.file) {
		r.drop(e)
		r.broken = append(r.broken, fmt.Sprintf("%s (%s)", rxQuote(e.Name()), t.ref.Target))
		return
	}
	if e.Form != model.EntryProse && r.has(RuleIndexDuplicateEntry, e.Line) {
		var check, write []string
		if e.Hook != "" {
			check, write = append(check, e.Hook), append(write, e.Title+": "+e.Hook)
		}
		conts := r.contTexts(e)
		check, write = append(check, conts...), append(write, conts...)
		if len(check) > 0 && !r.carryAs(t.file, check, write) {
			return // its words exist only here and there is nowhere to put them
		}
		r.drop(e)
		r.dups = append(r.dups, fmt.Sprintf("%s (line %d, %s)", rxQuote(e.Name()), e.Line, t.name()))
		return
	}
	if r.has(RuleIndexEntryTooLong, e.Line) {
		r.shorten(e, t)
	}
	if r.has(RuleIndexEntryMultiline, e.Line) && len(e.Continuations) > 0 {
		r.fold(e, t)
	}
}

// refBroken reports a reference index-broken-link reports: a link or
// backticked name to a file missing from the directory.
func (r *reindexer) refBroken(ref model.Ref, file *fileState) bool {
	if ref.Kind == model.RefWiki || ref.Scope == model.RefExternal {
		return false
	}
	target := ref.Target
	if ref.Scope == model.RefOutside {
		rel, ok := r.c.inside(target)
		if !ok {
			return false
		}
		target = rel
	}
	return r.c.missing(target, file)
}

func (r *reindexer) drop(e *model.Entry) {
	r.line(e.Line).del = true
	for _, n := range e.Continuations {
		r.line(n).del = true
	}
}

// contTexts are an entry's hanging lines without indentation and list
// markers.
func (r *reindexer) contTexts(e *model.Entry) []string {
	var out []string
	for _, n := range e.Continuations {
		if t := rxItemText(r.ix.Lines[n-1].Text); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// rxItemText trims a line and a leading list marker.
func rxItemText(s string) string {
	s = strings.TrimSpace(s)
	for _, m := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(s, m) {
			return strings.TrimSpace(s[len(m):])
		}
	}
	return s
}

// shorten brings an entry line under 150 characters through its hook.
func (r *reindexer) shorten(e *model.Entry, t ixTarget) {
	start, end, ok := rxHookSpan(e)
	if !ok || t.file == nil || t.file.f.Truncated || r.s.opaque(t.file.f.Path) {
		return // no hook to cut, or nowhere to keep the long one
	}
	l := r.line(e.Line)
	text := l.text()
	prefix, tail := text[:start], text[end:]
	room := indexEntryMaxChars - utf8.RuneCountInString(prefix) - utf8.RuneCountInString(tail)
	desc := rxOneLine(t.file.doc.FM.Description)
	r.read(t.file.f.Path)
	var hook string
	switch {
	case desc != "" && utf8.RuneCountInString(desc) <= room:
		hook = desc
	case room >= rxMinHook && desc != "":
		hook = rxClip(desc, room)
	case room >= rxMinHook:
		hook = rxClip(e.Hook, room)
	}
	var next string
	if hook != "" {
		next = prefix + hook + tail
	} else {
		next = strings.TrimRightFunc(strings.TrimSuffix(strings.TrimRightFunc(prefix, unicode.IsSpace), e.Sep), unicode.IsSpace)
		if e.Form == model.EntryTable {
			return
		}
	}
	if utf8.RuneCountInString(next) > indexEntryMaxChars {
		return // the title alone is too long: left for a person
	}
	if !r.carry(t.file, []string{e.Hook}) {
		return
	}
	l.set(next)
	r.shortened = append(r.shortened, rxQuote(e.Name()))
}

// fold removes an entry's hanging lines, keeping their detail.
func (r *reindexer) fold(e *model.Entry, t ixTarget) {
	texts := r.contTexts(e)
	l := r.line(e.Line)
	if e.Hook == "" && len(texts) == 1 && len(e.Continuations) == 1 {
		next := strings.TrimRightFunc(l.text(), unicode.IsSpace) + r.sep + texts[0]
		if utf8.RuneCountInString(next) <= indexEntryMaxChars {
			l.set(next)
			r.line(e.Continuations[0]).del = true
			r.folded = append(r.folded, rxQuote(e.Name()))
			return
		}
	}
	if !r.carry(t.file, texts) {
		return
	}
	for _, n := range e.Continuations {
		r.line(n).del = true
	}
	r.folded = append(r.folded, rxQuote(e.Name()))
}

// carry keeps the given lines of index text in a topic file: the ones whose
// words the file holds already need nothing; the others are appended to
// it. It reports false when some need a place and the file cannot take
// them.
func (r *reindexer) carry(f *fileState, lines []string) bool { return r.carryAs(f, lines, lines) }

// carryAs is carry where the text judged (check[i]) and the text written
// (write[i]) differ: a duplicate's hook is judged alone but written after
// its title.
func (r *reindexer) carryAs(f *fileState, check, write []string) bool {
	var need []string
	for i, s := range check {
		if f == nil || !r.covered(f.f.Path, s) {
			need = append(need, write[i])
		}
	}
	if len(need) == 0 {
		return true
	}
	if f == nil || f.f.Truncated || r.s.opaque(f.f.Path) {
		return false
	}
	p := f.f.Path
	for _, s := range need {
		if !r.movedSeen[p+"\x00"+s] {
			r.movedSeen[p+"\x00"+s] = true
			r.moved[p] = append(r.moved[p], s)
			r.movedLines++
		}
	}
	return true
}

// covered reports whether a topic file already holds text: at least 90% of
// its words (those of three letters or more, or of any non-ASCII script)
// occur in the file.
func (r *reindexer) covered(p, text string) bool {
	low, ok := r.lowText[p]
	if !ok {
		f := r.s.files[p]
		if f == nil || r.s.opaque(p) {
			return false // (nothing is read out of a file that is not text)
		}
		low = strings.ToLower(string(f.Content))
		r.lowText[p] = low
		r.read(p)
	}
	n, have := 0, 0
	for _, w := range ixWords(text) {
		if len(w) < 3 {
			continue // "a", "to", "db": present anywhere, so they prove nothing
		}
		n++
		if strings.Contains(low, w) {
			have++
		}
	}
	return float64(have) >= rxCovered*float64(n)
}

// unlinkBroken turns broken references on kept lines into their text.
func (r *reindexer) unlinkBroken() {
	for i := range r.ix.Lines {
		l := &r.ix.Lines[i]
		w := &r.doc[i]
		if w.del || !r.has(RuleIndexBrokenLink, l.Num) {
			continue
		}
		files := r.c.lineFiles(i)
		text := w.text()
		changed := false
		for k, ref := range l.Refs {
			if !r.refBroken(ref, files[k]) || !strings.Contains(text, ref.Raw) {
				continue
			}
			plain := ref.Dest
			if ref.Kind == model.RefLink && strings.TrimSpace(ref.Text) != "" {
				plain = ref.Text
			}
			text = strings.Replace(text, ref.Raw, plain, 1)
			changed = true
			r.unlinked = append(r.unlinked, ref.Target)
		}
		if changed {
			w.set(text)
		}
	}
}

// compact removes deleted lines, closing up the blank lines around them: a
// removal never leaves two blank lines in a row, or blank lines at the start
// or the end of the file.
func (r *reindexer) compact() {
	out := make([]rxLine, 0, len(r.doc))
	gap := false // a line was removed since the last kept non-blank line
	for _, l := range r.doc {
		if l.del {
			gap = true
			continue
		}
		blank := strings.TrimSpace(l.raw) == ""
		if blank && gap && (len(out) == 0 || strings.TrimSpace(out[len(out)-1].raw) == "") {
			continue
		}
		if !blank {
			gap = false
		}
		out = append(out, l)
	}
	if gap {
		for len(out) > 0 && strings.TrimSpace(out[len(out)-1].raw) == "" {
			out = out[:len(out)-1]
		}
		if len(out) > 0 && !out[len(out)-1].nl && len(r.doc) > 0 && r.doc[len(r.doc)-1].nl {
			out[len(out)-1].nl = true
		}
	}
	r.doc = out
}

// bytes assembles the working index.
func (r *reindexer) bytes() []byte {
	var b bytes.Buffer
	for _, l := range r.doc {
		b.WriteString(l.raw)
		if l.nl {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// ---- content written into the index ----

// rxBlock is a run of index lines that is memory content.
type rxBlock struct{ first, last int } // 1-based lines

// moveContent moves each block index-not-pointer reports into a new topic
// file and leaves an entry in its place.
func (r *reindexer) moveContent() {
	var blocks []rxBlock
	ls := r.ix.Lines
	for n := range r.flag[RuleIndexNotPointer] {
		l := r.ix.Line(n)
		if l == nil || (l.Kind != model.LineCode && l.Kind != model.LineProse) {
			continue
		}
		a, b := n, n
		for a > 1 && ls[a-2].Kind == l.Kind {
			a--
		}
		for b < len(ls) && ls[b].Kind == l.Kind {
			b++
		}
		blocks = append(blocks, rxBlock{a, b})
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].first < blocks[j].first })
	// Blocks with only blank lines between them are one piece of content.
	var merged []rxBlock
	for _, b := range blocks {
		if k := len(merged) - 1; k >= 0 {
			if merged[k].last >= b.first {
				continue
			}
			if r.onlyBlank(merged[k].last+1, b.first) {
				merged[k].last = b.last
				continue
			}
		}
		merged = append(merged, b)
	}
	for _, b := range merged {
		r.moveBlock(b)
	}
}

func (r *reindexer) onlyBlank(from, to int) bool {
	for n := from; n < to; n++ {
		if r.ix.Line(n).Kind != model.LineBlank {
			return false
		}
	}
	return true
}

func (r *reindexer) moveBlock(b rxBlock) {
	title, section := rxNoteTitle, -1
	n := b.first - 1
	for n >= 1 && r.ix.Line(n).Kind == model.LineBlank {
		n--
	}
	if l := r.ix.Line(n); l != nil && l.Kind == model.LineHeading {
		for i, h := range r.ix.Headings {
			if h.Line == n {
				if t := strings.Trim(h.Text, " \t*_~`"); t != "" {
					title, section = t, i
				}
			}
		}
	}
	if section < 0 {
		for i, h := range r.ix.Headings {
			if h.Line < b.first {
				section = i
			}
		}
	}
	var body []string
	for n := b.first; n <= b.last; n++ {
		body = append(body, r.ix.Line(n).Text)
	}
	desc := rxContentSummary(r.ix.Line(b.first).Kind == model.LineCode, body)
	typ := model.TypeProject
	if t, ok := r.sectionTypes(&r.ix, r.c)[section]; ok {
		typ = t
	}
	stem := "index-notes"
	if title != rxNoteTitle {
		stem = rxSlug(title, stem)
	}
	p := r.freshName(stem)
	content := r.frontmatterFor(strings.TrimSuffix(p, ".md"), desc, typ) + strings.Join(body, "\n") + "\n"
	r.created = append(r.created, rxNewFile{path: p, content: []byte(content), create: true})
	r.notes = append(r.notes, fmt.Sprintf("%s (lines %d-%d)", p, b.first, b.last))
	first := r.line(b.first)
	first.set(r.entryLine(title, p, desc))
	for n := b.first + 1; n <= b.last; n++ {
		r.line(n).del = true
	}
}

// rxContentSummary describes content moved out of the index: its first
// sentence, or a code block's first line (a comment's marker dropped).
func rxContentSummary(code bool, lines []string) string {
	var text string
	if code {
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				continue
			}
			if text = strings.TrimSpace(strings.TrimLeft(t, "#/;-*<!> ")); text != "" {
				break
			}
		}
	} else {
		var parts []string
		for _, l := range lines {
			if t := rxItemText(l); t != "" {
				parts = append(parts, t)
			}
		}
		text = rxOneLine(strings.Join(parts, " "))
		if k := strings.Index(text, ". "); k > 0 {
			text = text[:k+1]
		}
	}
	if text = rxOneLine(text); text == "" {
		return "content moved out of MEMORY.md"
	}
	return rxClip(text, 120)
}

// freshName picks a top-level file name no file has yet.
func (r *reindexer) freshName(stem string) string {
	p := stem + ".md"
	for i := 2; r.taken[strings.ToLower(p)]; i++ {
		p = fmt.Sprintf("%s-%d.md", stem, i)
	}
	r.taken[strings.ToLower(p)] = true
	return p
}

// frontmatterFor writes a new memory's frontmatter in the directory's shape,
// with the blank line Claude Code puts after it.
func (r *reindexer) frontmatterFor(name, desc string, typ model.Type) string {
	if r.legacy {
		return fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: %s\n---\n\n", model.YAMLScalar(name), model.YAMLScalar(desc), typ)
	}
	return fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata: \n  node_type: memory\n  type: %s\n  modified: %s\n---\n\n",
		model.YAMLScalar(name), model.YAMLScalar(desc), typ, r.now.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// entryLine writes a new entry in the index's style, its hook cut to keep
// the line under 150 characters.
func (r *reindexer) entryLine(title, file, hook string) string {
	head := r.marker + "[" + rxEscapeTitle(title) + "](" + rxDest(file) + ")"
	hook = rxOneLine(hook)
	if hook == "" {
		return head
	}
	room := indexEntryMaxChars - utf8.RuneCountInString(head) - utf8.RuneCountInString(r.sep)
	if room < rxMinHook {
		return head
	}
	return head + r.sep + rxClip(hook, room)
}

// ---- orphans ----

// addOrphans gives every topic file the index does not reach an entry.
func (r *reindexer) addOrphans() {
	findings, c := r.check(r.bytes(), nil)
	var orphans []*fileState
	for _, f := range findings {
		if f.Rule == RuleMemoryOrphan {
			// A file that is not text gets no entry: memtui would have to
			// vouch for it with a title and hook read out of bytes it
			// cannot read. The encoding finding and the orphan one stay
			// until a person re-saves it as text.
			if fs := c.s.byPath[f.File]; fs != nil && !r.s.opaque(f.File) {
				orphans = append(orphans, fs)
			}
		}
	}
	if len(orphans) == 0 {
		return
	}
	ix := c.ix
	types := r.sectionTypes(ix, c)
	after := map[int][]rxLine{} // working line index → new lines after it
	end := r.lastEntryLine(ix, -1)
	for _, fs := range orphans {
		if r.secretName(fs.f.Path) {
			continue
		}
		r.read(fs.f.Path)
		typ, _ := model.ParseType(fs.doc.FM.Type)
		sec := r.sectionFor(ix, types, typ)
		at, loose := end, false
		if sec >= 0 {
			at = r.lastEntryLine(ix, sec)
			loose = r.looseAt(ix, at)
		}
		var add []rxLine
		if at < 0 {
			at = len(r.doc) - 1
			if at >= 0 && strings.TrimSpace(r.doc[at].raw) != "" {
				add = append(add, r.newLine(""))
			}
		} else if loose || ix.Lines[at].Kind == model.LineProse && ix.Lines[at].Entry >= 0 && ix.Entries[ix.Lines[at].Entry].Form == model.EntryTable {
			add = append(add, r.newLine(""))
		}
		title := fs.doc.FM.Name
		if title == "" {
			title = strings.TrimSuffix(path.Base(fs.f.Path), path.Ext(fs.f.Path))
		}
		hook := fs.doc.FM.Description
		if strings.TrimSpace(hook) == "" {
			hook = rxFirstLine(fs.doc.Body(fs.f.Content))
		}
		add = append(add, r.newLine(r.entryLine(title, fs.f.Path, hook)))
		if len(after[at]) > 0 && strings.TrimSpace(add[0].raw) == "" && !loose {
			add = add[1:] // one blank before a group appended at the end is enough
		}
		after[at] = append(after[at], add...)
		r.orphans = append(r.orphans, fs.f.Path)
	}
	var out []rxLine
	if lines, ok := after[-1]; ok { // an index with no lines at all
		out = append(out, lines...)
	}
	for i, l := range r.doc {
		if lines, ok := after[i]; ok && !l.nl {
			l.nl = true
			lines[len(lines)-1].nl = false
		}
		out = append(out, l)
		out = append(out, after[i]...)
	}
	r.doc = out
}

// sectionTypes maps each section (index into ix.Headings) whose entries are
// mostly of one type to that type: the index groups by type there.
func (r *reindexer) sectionTypes(ix *model.Index, c *indexChecker) map[int]model.Type {
	counts := map[int]map[model.Type]int{}
	totals := map[int]int{}
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if e.Section < 0 {
			continue
		}
		t := c.target(e)
		if t.file == nil {
			continue
		}
		r.read(t.file.f.Path)
		typ, ok := model.ParseType(t.file.doc.FM.Type)
		if !ok {
			continue
		}
		if counts[e.Section] == nil {
			counts[e.Section] = map[model.Type]int{}
		}
		counts[e.Section][typ]++
		totals[e.Section]++
	}
	out := map[int]model.Type{}
	for sec, m := range counts {
		for _, typ := range model.Types {
			if 2*m[typ] > totals[sec] {
				out[sec] = typ
			}
		}
	}
	return out
}

// sectionFor picks the section an entry of type typ belongs in: the one
// whose entries are mostly of that type (the first of several), else a
// heading named after the type; -1 when none.
func (r *reindexer) sectionFor(ix *model.Index, types map[int]model.Type, typ model.Type) int {
	if typ == "" {
		return -1
	}
	for i := range ix.Headings {
		if types[i] == typ {
			return i
		}
	}
	for i, h := range ix.Headings {
		for _, w := range ixWords(h.Text) {
			if w == string(typ) || w == string(typ)+"s" {
				return i
			}
		}
	}
	return -1
}

// lastEntryLine is the working line index of the last list entry (or its
// last hanging line) in a section, or in the whole index for sec -1; -1 when
// there is none. For a section with no entries it is the heading itself.
func (r *reindexer) lastEntryLine(ix *model.Index, sec int) int {
	last := -1
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if sec >= 0 && e.Section != sec || e.Form == model.EntryProse {
			continue
		}
		last = e.Line - 1
		if n := len(e.Continuations); n > 0 {
			last = e.Continuations[n-1] - 1
		}
	}
	if last < 0 && sec >= 0 {
		return ix.Headings[sec].Line - 1
	}
	return last
}

// looseAt reports whether the entry on line i sits in a loose list: a blank
// line, then an entry, above it.
func (r *reindexer) looseAt(ix *model.Index, i int) bool {
	if i < 2 || ix.Lines[i].Kind != model.LineEntry && ix.Lines[i].Kind != model.LineContinuation {
		return false
	}
	n := i
	for n > 0 && ix.Lines[n].Kind == model.LineContinuation {
		n--
	}
	return n >= 2 && ix.Lines[n-1].Kind == model.LineBlank && (ix.Lines[n-2].Kind == model.LineEntry || ix.Lines[n-2].Kind == model.LineContinuation)
}

// ---- empty sections ----

// removeEmptySections removes headings with nothing under them: those
// index-empty-section reports, and those the rewrite emptied.
func (r *reindexer) removeEmptySections() {
	ix := model.ParseIndex(r.bytes())
	c := &indexChecker{ix: &ix}
	h1 := 0
	for _, h := range ix.Headings {
		if h.Level == 1 {
			h1++
		}
	}
	any := false
	for i, h := range ix.Headings {
		if i == 0 && h.Level == 1 && h1 == 1 {
			continue // the document's title
		}
		end := r.sectionEnd(&ix, i)
		if c.hasContent(h.Line+1, end) {
			continue
		}
		w := &r.doc[h.Line-1]
		if !(w.orig == 0 || r.has(RuleIndexEmptySection, w.orig) || r.hadContent[w.orig]) {
			continue // empty as written, and its finding silenced
		}
		w.del = true
		r.emptied = append(r.emptied, rxQuote(h.Text))
		// A lone placeholder ("none yet") goes with it.
		for n := h.Line + 1; n < end; n++ {
			if l := ix.Line(n); l.Kind == model.LineHeading {
				break
			} else if l.Kind == model.LineProse {
				r.doc[n-1].del = true
			}
		}
		any = true
	}
	if any {
		r.compact()
	}
}

// sectionEnd is the line after heading i's section (sub-sections included).
func (r *reindexer) sectionEnd(ix *model.Index, i int) int {
	h := ix.Headings[i]
	for _, n := range ix.Headings[i+1:] {
		if n.Level <= h.Level {
			return n.Line
		}
	}
	return len(ix.Lines) + 1
}

// ---- fitting under the caps ----

// load is Claude Code's load of index as this directory's MEMORY.md (a
// subagent's is loaded raw).
func (r *reindexer) load(index []byte) model.Load {
	return model.SimulateLoadMode(index, r.s.d.Kind.LoadMode())
}

// rxFits reports whether an index loads under 70% of both caps.
func rxFits(ld *model.Load) bool {
	return ld.LineCount < model.IndexTargetLines && ld.Units < model.IndexTargetUnits
}

// fit gets the index under 70% of both caps: first by dropping blank lines
// between entries and runs of blank lines, then by archiving the least
// recently modified entries.
func (r *reindexer) fit() {
	if ld := r.load(r.bytes()); rxFits(&ld) {
		return
	}
	r.tighten()
	if ld := r.load(r.bytes()); rxFits(&ld) {
		return
	}
	r.archive()
}

// tighten drops blank lines that only space out entries, and every second
// blank line of a run.
func (r *reindexer) tighten() {
	ix := model.ParseIndex(r.bytes())
	ls := ix.Lines
	entryish := func(k model.LineKind) bool { return k == model.LineEntry || k == model.LineContinuation }
	for i := range ls {
		if ls[i].Kind != model.LineBlank || i == 0 {
			continue
		}
		j := i + 1
		for j < len(ls) && ls[j].Kind == model.LineBlank {
			j++
		}
		prev := ls[i-1].Kind
		if prev == model.LineBlank || (entryish(prev) && j < len(ls) && ls[j].Kind == model.LineEntry) {
			r.doc[i].del = true
			r.tightened = true
		}
	}
	r.compact()
}

// rxCandidate is an entry that may move to the archive.
type rxCandidate struct {
	line int // 0-based working line
	date time.Time
	file string
}

// archive moves the oldest entries into the archive index until the index
// fits, and links the archive.
func (r *reindexer) archive() {
	_, c := r.check(r.bytes(), nil)
	ix := c.ix
	archive, existing := r.archiveFile(c)
	var cands []rxCandidate
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if e.Form != model.EntryList || len(e.Continuations) > 0 {
			continue
		}
		t := c.target(e)
		var cand rxCandidate
		cand.line = e.Line - 1
		if t.file != nil {
			if strings.EqualFold(t.file.f.Path, archive) || ixOverflowIndex(t.file) {
				continue // an archive stays linked
			}
			cand.file = t.file.f.Path
			cand.date = t.file.doc.FM.ModifiedTime
			if cand.date.IsZero() {
				cand.date = t.file.f.ModTime
			}
		}
		cands = append(cands, cand)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if !cands[i].date.Equal(cands[j].date) {
			return cands[i].date.Before(cands[j].date)
		}
		return cands[i].line > cands[j].line
	})
	base := append([]rxLine(nil), r.doc...)
	emptied := r.emptied
	pointer := r.entryLine("Memory archive", archive, rxArchiveHook)
	ld := r.load(r.bytes())
	lines, units := ld.LineCount+2, ld.Units+rxUnits(pointer)+2 // the pointer and a blank line before it
	k := 0
	for k < len(cands) && (lines >= model.IndexTargetLines || units >= model.IndexTargetUnits) {
		lines--
		units -= rxUnits(base[cands[k].line].text()) + 1
		k++
	}
	for ; k <= len(cands); k++ {
		r.doc = append([]rxLine(nil), base...)
		moved := map[int]bool{}
		for _, cand := range cands[:k] {
			moved[cand.line] = true
			r.doc[cand.line].del = true
		}
		r.compact()
		r.emptied = emptied
		r.removeEmptySections()
		r.linkArchive(archive, existing, c)
		if ld := r.load(r.bytes()); rxFits(&ld) || k == len(cands) {
			r.writeArchive(archive, existing, ix, moved)
			r.archived = k
			// Every candidate's date was compared to choose these.
			for _, cand := range cands {
				if cand.file != "" {
					r.read(cand.file)
				}
			}
			return
		}
	}
}

// archiveFile is the archive index to use: an existing top-level
// memory-archive.md (in any case) when it can take more, else a new one.
func (r *reindexer) archiveFile(c *indexChecker) (string, *fileState) {
	for _, f := range c.s.files {
		if strings.EqualFold(f.f.Path, rxArchive) && !f.f.Truncated && !r.s.opaque(f.f.Path) {
			return f.f.Path, f
		}
	}
	return r.freshName(strings.TrimSuffix(rxArchive, ".md")), nil
}

// linkArchive appends the entry pointing at the archive, unless the index
// links it already (archive candidates never link it, so such a link stays).
func (r *reindexer) linkArchive(archive string, existing *fileState, c *indexChecker) {
	if existing != nil {
		for i := range c.ix.Lines {
			for _, f := range c.lineFiles(i) {
				if f == existing {
					return
				}
			}
		}
	}
	if n := len(r.doc); n > 0 {
		r.doc[n-1].nl = true
		r.doc = append(r.doc, r.newLine(""))
	}
	r.doc = append(r.doc, r.newLine(r.entryLine("Memory archive", archive, rxArchiveHook)))
}

// writeArchive writes the moved entries into the archive, under the
// headings they sat under in the index.
func (r *reindexer) writeArchive(archive string, existing *fileState, ix *model.Index, moved map[int]bool) {
	r.archivePath = archive
	var b strings.Builder
	sec := -2
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if !moved[e.Line-1] {
			continue
		}
		if e.Section != sec {
			sec = e.Section
			if sec >= 0 {
				b.WriteString("\n## " + ix.Headings[sec].Text + "\n\n")
			} else if b.Len() > 0 {
				b.WriteString("\n")
			}
		}
		b.WriteString(e.Raw + "\n")
	}
	list := strings.TrimLeft(b.String(), "\n")
	if existing != nil {
		old := existing.f.Content
		nl := eol(old)
		add := strings.ReplaceAll(list, "\n", nl)
		out := append([]byte(nil), old...)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, nl...)
		}
		out = append(out, nl...)
		out = append(out, add...)
		r.created = append(r.created, rxNewFile{path: archive, content: stamp(out, r.now)})
		return
	}
	head := r.frontmatterFor(strings.TrimSuffix(archive, ".md"),
		"Older MEMORY.md entries, moved out so the index loads whole; look here when a memory is not in MEMORY.md", model.TypeReference)
	body := head + "# Memory archive\n\nThe least recently modified entries of MEMORY.md, moved here on " + r.now.UTC().Format("2006-01-02") +
		" to keep the index under Claude Code's load caps, under the headings they had there.\n\n" + list
	r.created = append(r.created, rxNewFile{path: archive, content: []byte(body), create: true})
}

// ---- the proposal ----

func (r *reindexer) read(p string) { r.reads[p] = true }

// files are the files the proposal writes besides MEMORY.md: the new ones,
// and the topic files that take text moved out of the index.
func (r *reindexer) files() []rxNewFile {
	out := append([]rxNewFile(nil), r.created...)
	var paths []string
	for p := range r.moved {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		base, at := r.s.files[p].Content, -1
		for i, f := range out {
			if f.path == p { // the archive, rewritten already
				base, at = f.content, i
			}
		}
		nl := eol(base)
		var b bytes.Buffer
		b.Write(base)
		if len(base) > 0 && !bytes.HasSuffix(base, []byte("\n")) {
			b.WriteString(nl)
		}
		b.WriteString(nl + rxMovedHead + nl)
		for _, s := range r.moved[p] {
			b.WriteString("- " + s + nl)
		}
		f := rxNewFile{path: p, content: stamp(b.Bytes(), r.now)}
		if at >= 0 {
			out[at].content = f.content
			continue
		}
		out = append(out, f)
	}
	return out
}

// finish checks the rewrite and assembles the proposal.
func (r *reindexer) finish() []model.Proposal {
	index := r.bytes()
	create := r.s.d.Index == nil
	if !create && bytes.Equal(index, r.s.d.Index.Content) {
		return nil
	}
	after := r.load(index)
	if after.Truncated() {
		return nil // cannot happen short of an index made of one huge non-entry block; never propose a cut index
	}
	files := r.files()
	findings, _ := r.check(index, files)
	left := map[[2]string]bool{}
	for _, f := range findings {
		left[[2]string{f.Rule, f.File}] = true
	}
	var fixes []model.Finding
	counts := map[string]int{}
	var fixed []string
	for _, rule := range reindexRules {
		for _, f := range r.s.byRule[rule] {
			if !left[[2]string{f.Rule, f.File}] {
				fixes = append(fixes, f)
				if counts[rule]++; counts[rule] == 1 {
					fixed = append(fixed, rule)
				}
			}
		}
	}
	if len(fixes) == 0 {
		return nil
	}
	var changes []model.Change
	if create {
		changes = append(changes, r.s.create("MEMORY.md", index))
	} else {
		changes = append(changes, r.s.update("MEMORY.md", index))
	}
	for _, f := range files {
		if f.create {
			changes = append(changes, r.s.create(f.path, f.content))
		} else {
			changes = append(changes, r.s.update(f.path, f.content))
		}
	}
	var reads []string
	for p := range r.reads {
		reads = append(reads, p)
	}
	title := r.title(&after)
	rationale := r.rationale(fixed, counts, &after)
	return []model.Proposal{r.s.proposal(model.KindReindex, title, rationale, fixes, changes, reads...)}
}

// title sums the proposal up in a line: the cap that mattered, before and
// after, and the entries the load no longer cuts.
func (r *reindexer) title(after *model.Load) string {
	if r.s.d.Index == nil {
		return fmt.Sprintf("Create MEMORY.md indexing %s", ixPlural(len(r.orphans), "memory"))
	}
	before := r.load(r.s.d.Index.Content)
	var parts []string
	switch {
	case before.TooLarge:
		parts = append(parts, fmt.Sprintf("not loaded (over %s) → %d lines", model.FormatFileSize(model.IndexMaxReadBytes), after.LineCount))
	case before.SizeTruncated || before.Units >= model.IndexNearUnits && !before.LineTruncated:
		parts = append(parts, fmt.Sprintf("%s → %s", model.FormatFileSize(before.Units), model.FormatFileSize(after.Units)))
	case before.LineTruncated || before.LineCount >= model.IndexNearLines:
		parts = append(parts, fmt.Sprintf("%d → %d lines", before.LineCount, after.LineCount))
	}
	if n := r.uncut(&before); n > 0 {
		parts = append(parts, fmt.Sprintf("%s no longer cut off", ixPlural(n, "entry")))
	}
	if len(parts) == 0 {
		parts = r.summary()
		if len(parts) > 3 {
			parts = parts[:3]
		}
	}
	return "Re-index MEMORY.md: " + strings.Join(parts, ", ")
}

// uncut counts the entries the original load cut that the new index holds.
func (r *reindexer) uncut(before *model.Load) int {
	cut := map[int]bool{}
	for _, n := range before.Dropped {
		cut[n] = true
	}
	if before.LastLineCut {
		cut[before.LastLine] = true
	}
	n := 0
	for _, l := range r.doc {
		if l.orig > 0 && cut[l.orig] {
			if e := r.ix.EntryAt(l.orig); e != nil && e.Line == l.orig {
				n++
			}
		}
	}
	return n
}

// summary lists what changed, shortest first, for the title and rationale.
func (r *reindexer) summary() []string {
	var out []string
	add := func(n int, s string) {
		if n > 0 {
			out = append(out, s)
		}
	}
	add(len(r.broken), "dropped "+ixPlural(len(r.broken), "broken entry"))
	add(len(r.dups), "dropped "+ixPlural(len(r.dups), "duplicate entry"))
	add(len(r.orphans), "added "+ixPlural(len(r.orphans), "orphan"))
	add(len(r.shortened), "shortened "+ixPlural(len(r.shortened), "hook"))
	add(len(r.folded), "folded "+ixPlural(len(r.folded), "multi-line entry"))
	add(len(r.notes), "moved "+ixPlural(len(r.notes), "block")+" of content into topic files")
	add(len(r.emptied), "removed "+ixPlural(len(r.emptied), "empty heading"))
	add(len(r.unlinked), "unlinked "+ixPlural(len(r.unlinked), "missing file"))
	add(r.archived, "archived "+ixPlural(r.archived, "entry"))
	return out
}

func (r *reindexer) rationale(fixed []string, counts map[string]int, after *model.Load) string {
	var b strings.Builder
	var fx []string
	for _, rule := range fixed {
		if counts[rule] > 1 {
			fx = append(fx, fmt.Sprintf("%s (%d)", rule, counts[rule]))
		} else {
			fx = append(fx, rule)
		}
	}
	fmt.Fprintf(&b, "Fixes %s.", listNames(fx))
	if r.s.d.Index == nil {
		fmt.Fprintf(&b, " The directory has no MEMORY.md. Claude Code 2.1.332 would write one itself at the next session start (bare links to the newest files first, up to %d lines); this one is written now instead, with an entry per memory grouped by type, built from the frontmatter (%s).",
			backfillMaxLines, listNames(rxFirst(r.orphans, indexNameList)))
	} else {
		r.detail(&b, "Dropped %s whose file does not exist", "broken entry", r.broken)
		r.detail(&b, "Dropped %s (the first entry for the file stays)", "duplicate entry", r.dups)
		r.detail(&b, "Added %s for the files nothing linked, from their frontmatter", "entry", r.orphans)
		r.detail(&b, "Cut %s to the memory's description", "long hook", r.shortened)
		r.detail(&b, "Folded %s onto one line", "multi-line entry", r.folded)
		r.detail(&b, "Moved %s of memory content into new topic files, each linked where it was", "block", r.notes)
		r.detail(&b, "Removed %s", "empty heading", r.emptied)
		r.detail(&b, "Unlinked %s to missing files, keeping the text", "reference", r.unlinked)
	}
	if n := r.secretNames; n > 0 {
		fmt.Fprintf(&b, " %s left out of the index: %s a secret, which an entry would write into MEMORY.md; rename %s first (see the secret %s).",
			rxCapital(ixPlural(n, "file")), model.Plural(n, "its name holds", "their names hold"), model.Plural(n, "it", "them"), model.Plural(n, "finding", "findings"))
	}
	if r.movedLines > 0 {
		var ps []string
		for p := range r.moved {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		fmt.Fprintf(&b, " %s of index text found nowhere else went into the topic files they describe, under \"%s\" (%s); lines whose words the topic file already holds were dropped.",
			rxCapital(ixPlural(r.movedLines, "line")), rxMovedHead, listNames(rxFirst(ps, indexNameList)))
	}
	if r.tightened {
		b.WriteString(" Blank lines between entries were removed to save lines.")
	}
	if r.archived > 0 {
		fmt.Fprintf(&b, " The %s least recently modified went to %s, linked from the index; no entry was deleted.", ixPlural(r.archived, "entry"), r.archivePath)
	}
	if r.frontmatter {
		b.WriteString(" The frontmatter at the top of MEMORY.md was removed: Claude Code strips it unread.")
	}
	fmt.Fprintf(&b, " MEMORY.md now loads whole: %d lines and %s UTF-16 units (%d%% and %d%% of the caps).",
		after.LineCount, ixThousands(after.Units), int(after.LinePercent()), int(after.UnitPercent()))
	if !rxFits(after) {
		b.WriteString(" That is still above the 70% Claude Code asks for: what is left is not entries.")
	}
	return b.String()
}

// detail writes one sentence of the rationale: what was done, how often,
// and to what (the first few named).
func (r *reindexer) detail(b *strings.Builder, format, noun string, names []string) {
	if len(names) == 0 {
		return
	}
	shown := rxFirst(names, indexNameList)
	s := listNames(shown)
	if len(names) > len(shown) {
		s = strings.Join(shown, ", ") + fmt.Sprintf(" and %d more", len(names)-len(shown))
	}
	fmt.Fprintf(b, " "+format+": %s.", ixPlural(len(names), noun), s)
}

// ---- no index yet ----

// proposeNewIndex creates MEMORY.md for a directory that has memories and
// no index: an entry per memory from its frontmatter, grouped under a
// heading per type when there is more than one type.
func (s *dreamState) proposeNewIndex() []model.Proposal {
	r := newReindexer(s)
	var fs []*model.File
	for _, f := range s.d.Files {
		if !indexExempt(f) && !r.secretName(f.Path) && !s.opaque(f.Path) { // (see addOrphans)
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	groups := map[model.Type][]*model.File{}
	for _, f := range fs {
		typ, _ := model.ParseType(s.docs[f.Path].FM.Type)
		groups[typ] = append(groups[typ], f)
	}
	order := append(append([]model.Type(nil), model.Types...), "")
	headed := len(groups) > 1
	for _, typ := range order {
		if len(groups[typ]) == 0 {
			continue
		}
		if headed {
			if len(r.doc) > 0 {
				r.doc = append(r.doc, r.newLine(""))
			}
			name := "Other"
			if typ != "" {
				name = strings.ToUpper(string(typ[:1])) + string(typ[1:])
			}
			r.doc = append(r.doc, r.newLine("## "+name), r.newLine(""))
		}
		for _, f := range groups[typ] {
			d := s.docs[f.Path]
			title := d.FM.Name
			if title == "" {
				title = strings.TrimSuffix(path.Base(f.Path), path.Ext(f.Path))
			}
			hook := d.FM.Description
			if strings.TrimSpace(hook) == "" {
				hook = rxFirstLine(d.Body(f.Content))
			}
			r.doc = append(r.doc, r.newLine(r.entryLine(title, f.Path, hook)))
			r.orphans = append(r.orphans, f.Path)
			r.read(f.Path)
		}
	}
	if len(r.orphans) == 0 {
		return nil
	}
	r.fit()
	return r.finish()
}

// secretName reports a file whose name holds a secret, and counts it for
// the rationale. Such a file gets no entry: the entry's link would write
// the secret into MEMORY.md, and redacted it would point at
// "[REDACTED].md". The rationale says so without naming it.
func (r *reindexer) secretName(p string) bool {
	if len(r.s.opts.Secrets.Scan(p)) == 0 {
		return false
	}
	r.secretNames++
	return true
}

// ---- text helpers ----

// rxOneLine folds whitespace runs (newlines included) into single spaces.
func rxOneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// rxClip cuts s to at most n characters, at a word boundary when one is
// in the second half, and marks the cut with "…". What it returns is
// written into an index, so secrets are redacted before the cut: a cut
// token no longer looks like one, and the redaction every proposal's
// content gets could not find what was left of it.
func rxClip(s string, n int) string {
	s, _ = secrets.Default().Redact(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	cut := n - 1
	for k := cut; k > cut/2; k-- {
		if unicode.IsSpace(rs[k]) {
			cut = k
			break
		}
	}
	out := strings.TrimRightFunc(string(rs[:cut]), func(c rune) bool {
		return unicode.IsSpace(c) || strings.ContainsRune(",;:—–-(", c)
	})
	return out + "…"
}

// rxFirstLine is the first line of text in a body that is not a heading,
// for a memory with no description.
func rxFirstLine(body []byte) string {
	for _, l := range strings.Split(string(body), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") || strings.HasPrefix(t, "```") {
			continue
		}
		return rxItemText(t)
	}
	return ""
}

// rxSlug makes a name: lower case, each run of other characters a "-".
func rxSlug(s, fallback string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if len(out) > 60 {
		out = strings.TrimRight(out[:60], "-")
	}
	if out == "" {
		return fallback
	}
	return out
}

// rxEscapeTitle escapes what would end a link's text early.
func rxEscapeTitle(s string) string {
	s = rxOneLine(s)
	r := strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`)
	return r.Replace(s)
}

// rxDest writes a link destination; one with blanks or parentheses goes in
// angle brackets.
func rxDest(p string) string {
	if strings.ContainsAny(p, " \t()<>") {
		return "<" + p + ">"
	}
	return p
}

func rxQuote(s string) string { return "\u201c" + ixClip(s, 60) + "\u201d" }

func rxFirst(list []string, n int) []string {
	if len(list) > n {
		return list[:n]
	}
	return list
}

func rxCapital(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// rxUnits counts UTF-16 code units, as the load caps do.
func rxUnits(s string) int {
	n := 0
	for _, c := range s {
		n++
		if c > 0xFFFF {
			n++
		}
	}
	return n
}
