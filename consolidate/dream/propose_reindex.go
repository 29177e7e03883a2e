package dream

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
	"github.com/memtui/memtui/model/prose"
)

// The reindex proposer rewrites MEMORY.md so that Claude Code loads it
// whole, and makes one proposal per directory. It writes the index only
// through memindex.Editor, the writer the TUI's index editor and memtui
// index --move-above-cut use: each repair below is a sequence of editor
// operations (remove rows, fit hooks, fold rows, unlink references, add
// entries, demote to an archive), so a new entry reads as the editor would
// write it (a table row in a table, a wikilink among wikilinks) and every
// line it has no reason to touch stays byte for byte (line endings, trailing
// blanks, comments), so the diff shows only the repairs:
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
//     their frontmatter, - [name](file.md) — description in the index's own
//     style, its hook cut to keep the line under 150 characters. When the index
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
	consolidate.RuleIndexOverLines, consolidate.RuleIndexOverSize, consolidate.RuleIndexNearLimit, consolidate.RuleIndexEntryTooLong, consolidate.RuleIndexBrokenLink,
	consolidate.RuleIndexLinkOutside, consolidate.RuleIndexDuplicateEntry, consolidate.RuleIndexNotPointer, consolidate.RuleIndexMissing, consolidate.RuleMemoryOrphan,
	consolidate.RuleIndexEntryMultiline, consolidate.RuleIndexEmptySection, consolidate.RuleHookEchoes,
}

const (
	rxArchive   = "memory-archive.md" // the overflow index this proposer creates
	rxMovedHead = "Moved here from MEMORY.md:"
	rxCovered   = 0.9 // share of a text's words a topic file must hold for the text to be "already there"
	rxNoteTitle = "Notes from MEMORY.md"

	rxArchiveTitle = "Memory archive"
	rxArchiveHook  = "older entries moved out to keep this index loading whole"
)

// rxNewFile is a file the proposal creates or rewrites.
type rxNewFile struct {
	path    string
	content []byte
	create  bool
}

// reindexer carries one directory's index through the rewrite. Every
// change to MEMORY.md is an operation of memindex.Editor, the one writer
// of index text (the TUI's index editor is the same): this type decides
// what to repair, and where, and keeps the topic files' side of it.
type reindexer struct {
	s    *dreamState
	now  time.Time
	ix   memindex.Index          // the index as read (empty when there is none)
	c    *consolidate.IndexView  // references of ix resolved to topic files
	ed   *memindex.Editor        // the index being written
	orig map[int]int             // row ID → the line of ix its first line is
	flag map[string]map[int]bool // rule → lines of MEMORY.md with a finding

	legacy bool // new files get a top-level type (the directory's shape)

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
		if len(s.byRule[consolidate.RuleIndexMissing]) == 0 {
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
	r := &reindexer{s: s, now: s.opts.Now, flag: map[string]map[int]bool{}, orig: map[int]int{},
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
	var content []byte
	if s.d.Index != nil {
		content = s.d.Index.Content
	}
	r.ed = memindex.NewEditorMode(content, s.d.Kind.LoadMode())
	r.ed.SetRedact(rxRedact)
	if s.d.Index != nil {
		r.ix = r.ed.Index() // the parse of content (the editor's first state never changes)
		_, r.c = r.check(content, nil)
		for _, row := range r.ed.Rows() {
			r.orig[row.ID] = row.Line
		}
		for i, h := range r.ix.Headings {
			if consolidate.HasContent(r.c.Index(), h.Line+1, r.sectionEnd(&r.ix, i)) {
				r.hadContent[h.Line] = true
			}
		}
	}
	return r
}

// rxRedact takes secrets out of text the rewrite cuts to fit: a token cut
// in half no longer looks like one, and the redaction every proposal's
// content gets could not find what was left of it.
func rxRedact(s string) string {
	s, _ = secrets.Default().Redact(s)
	return s
}

// check runs the index rules over the directory with the given index and
// extra files, and returns the findings and a checker over that index with
// its references resolved.
func (r *reindexer) check(index []byte, extra []rxNewFile) ([]model.Finding, *consolidate.IndexView) {
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
	return consolidate.CheckIndex(r.s.p, &d, r.s.opts.Options)
}

func (r *reindexer) has(rule string, line int) bool { return r.flag[rule][line] }

// addEntries adds entries through the editor as one step, or, when the
// editor refuses the batch, one by one; it reports which went in.
func (r *reindexer) addEntries(adds []memindex.NewEntry) []bool {
	ok := make([]bool, len(adds))
	if len(adds) == 0 {
		return ok
	}
	if _, err := r.ed.AddEntries(adds); err == nil {
		for k := range ok {
			ok[k] = true
		}
		return ok
	}
	// One by one, in the order of the rows they follow, each shifted by
	// the rows added before it.
	order := make([]int, len(adds))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(i, j int) bool { return adds[order[i]].After < adds[order[j]].After })
	shift := 0
	for _, k := range order {
		a, before := adds[k], r.ed.Len()
		a.After += shift
		if _, err := r.ed.AddEntries([]memindex.NewEntry{a}); err == nil {
			ok[k] = true
			shift += r.ed.Len() - before
		}
	}
	return ok
}

// ---- the rewrite ----

// rewrite makes every repair but the fitting under the caps as editor
// operations: the edits of single lines first, while rows still have the
// places the findings name, then the entries for moved content, the
// removals, the orphans' entries and the empty headings.
func (r *reindexer) rewrite() {
	rows := r.ed.Rows()
	rowOf := make([]int, len(r.ix.Lines)+1) // line of ix → its row
	for i, row := range rows {
		for n := row.Line; n < row.Line+row.Lines; n++ {
			rowOf[n] = i
		}
	}
	gone := map[int]bool{} // lines of ix the rewrite removes
	var remove []int       // rows to remove, as numbered in rows
	drop := func(i int) {
		remove = append(remove, i)
		for n := rows[i].Line; n < rows[i].Line+rows[i].Lines; n++ {
			gone[n] = true
		}
	}
	if len(rows) > 0 && rows[0].Kind == memindex.LineFrontmatter {
		drop(0)
		r.frontmatter = true
	}
	blocks := r.moveContent(rowOf, gone)
	r.entries(rows, rowOf, gone, drop)
	r.unlinkBroken(rows, rowOf, gone)

	// The entries for moved content go in before the rows go, so that
	// closing up the blank lines around a block keeps one after its entry.
	at := r.at(rows)
	var adds []memindex.NewEntry
	var moves []rxMove
	for _, b := range blocks {
		if first := at(b.first); first >= 0 {
			b.entry.After = first - 1
			adds = append(adds, b.entry)
			moves = append(moves, b)
		}
	}
	for k, ok := range r.addEntries(adds) {
		b := moves[k]
		if !ok {
			continue // (cannot happen short of a parser surprise: the block stays)
		}
		r.created = append(r.created, b.file)
		r.notes = append(r.notes, b.note)
		for i := b.first; i <= b.last; i++ {
			remove = append(remove, i)
		}
	}
	r.removeRows(rows, remove)
	r.addOrphans()
	r.removeEmptySections()
	r.fit()
}

// at maps the rows of an earlier listing to where they are now (-1: gone):
// a row keeps its ID wherever edits move it.
func (r *reindexer) at(rows []memindex.Row) func(i int) int {
	now := make(map[int]int, len(rows))
	for k, id := range r.ed.IDs() {
		now[id] = k
	}
	return func(i int) int {
		if k, ok := now[rows[i].ID]; ok {
			return k
		}
		return -1
	}
}

// removeRows removes rows given by their index in rows, a listing of an
// earlier state: their IDs say where they are now.
func (r *reindexer) removeRows(rows []memindex.Row, remove []int) {
	if len(remove) == 0 {
		return
	}
	want := map[int]bool{}
	for _, i := range remove {
		want[rows[i].ID] = true
	}
	var now []int
	for i, id := range r.ed.IDs() {
		if want[id] {
			now = append(now, i)
		}
	}
	r.ed.RemoveRows(now)
}

// rxPlan is what the rewrite does to one entry of the index as read.
type rxPlan struct {
	e             *memindex.Entry
	t             consolidate.IndexTarget
	dup           bool     // drop it as a duplicate, its text carried
	check, write  []string // a duplicate's text: judged, and written into its file
	fit, fold     int      // its request to FitHooks and FoldRows (with a hook), -1 when none
	plain         int      // its request to FoldRows without a hook, -1 when none
	multi         bool     // fold its hanging lines
	texts         []string // their text
	fitted, folds bool
}

// entries repairs the entries: drops those broken or duplicated, shortens
// long hooks and folds hanging lines. Every decision is taken on the index
// as read; the edits are then made in three editor steps (hooks, folds
// that make a hook, plain folds), and what they did is recorded in entry
// order, the order the rationale and the topic files' notes follow.
func (r *reindexer) entries(rows []memindex.Row, rowOf []int, gone map[int]bool, drop func(int)) {
	var plans []*rxPlan
	var fits []memindex.HookFit
	var folds []memindex.Fold
	for i := range r.ix.Entries {
		e := &r.ix.Entries[i]
		if gone[e.Line] {
			continue // inside content moved out
		}
		t := r.c.Target(e)
		if e.Form != memindex.EntryProse && t.OK && r.has(consolidate.RuleIndexBrokenLink, e.Line) && r.refBroken(t.Ref, t.File) {
			drop(rowOf[e.Line])
			r.broken = append(r.broken, fmt.Sprintf("%s (%s)", rxQuote(e.Name()), t.Ref.Target))
			continue
		}
		p := &rxPlan{e: e, t: t, fit: -1, fold: -1, plain: -1}
		if e.Form != memindex.EntryProse && r.has(consolidate.RuleIndexDuplicateEntry, e.Line) {
			if e.Hook != "" {
				p.check, p.write = append(p.check, e.Hook), append(p.write, e.Title+": "+e.Hook)
			}
			conts := r.contTexts(e)
			p.check, p.write = append(p.check, conts...), append(p.write, conts...)
			if len(p.check) > 0 && !r.canCarry(t.File, p.check) {
				continue // its words exist only here and there is nowhere to put them
			}
			drop(rowOf[e.Line])
			p.dup = true
			plans = append(plans, p)
			continue
		}
		// A long hook is cut only when its words have a place to go: the
		// topic file, read whole and as text.
		if r.has(consolidate.RuleIndexEntryTooLong, e.Line) && e.Hook != "" && e.Form != memindex.EntryProse &&
			t.File != nil && !t.File.File().Truncated && !r.s.opaque(t.File.File().Path) {
			r.read(t.File.File().Path)
			p.fit = len(fits)
			fits = append(fits, memindex.HookFit{Row: rowOf[e.Line], Desc: t.File.Doc().FM.Description})
		}
		if r.has(consolidate.RuleIndexEntryMultiline, e.Line) && len(e.Continuations) > 0 {
			p.multi, p.texts = true, r.contTexts(e)
			if e.Hook == "" && len(p.texts) == 1 && len(e.Continuations) == 1 {
				p.fold = len(folds)
				folds = append(folds, memindex.Fold{Row: rowOf[e.Line], Hook: p.texts[0]})
			}
		}
		plans = append(plans, p)
	}
	if fitted, err := r.ed.FitHooks(fits, consolidate.IndexEntryMaxChars); err == nil {
		for _, p := range plans {
			p.fitted = p.fit >= 0 && fitted[p.fit]
		}
	}
	if folded, err := r.ed.FoldRows(folds, consolidate.IndexEntryMaxChars); err == nil {
		for _, p := range plans {
			p.folds = p.fold >= 0 && folded[p.fold]
		}
	}
	// A fold that could not make a hook, and every other, moves the lines'
	// words into the topic file. (A fold closes up blank lines: rows are
	// found again by their IDs.)
	at := r.at(rows)
	var plain []memindex.Fold
	for _, p := range plans {
		if p.multi && !p.folds && !p.dup && r.canCarry(p.t.File, p.texts) {
			p.plain = len(plain)
			plain = append(plain, memindex.Fold{Row: at(rowOf[p.e.Line])})
		}
	}
	if folded, err := r.ed.FoldRows(plain, 0); err == nil {
		for _, p := range plans {
			if p.plain >= 0 && folded[p.plain] {
				p.folds = true
			}
		}
	}
	for _, p := range plans {
		e := p.e
		if p.dup {
			r.carryAs(p.t.File, p.check, p.write)
			r.dups = append(r.dups, fmt.Sprintf("%s (line %d, %s)", rxQuote(e.Name()), e.Line, p.t.Name()))
			continue
		}
		if p.fitted {
			r.carry(p.t.File, []string{e.Hook})
			r.shortened = append(r.shortened, rxQuote(e.Name()))
		}
		if p.folds {
			if p.plain >= 0 {
				r.carry(p.t.File, p.texts)
			}
			for _, n := range e.Continuations {
				gone[n] = true
			}
			r.folded = append(r.folded, rxQuote(e.Name()))
		}
	}
}

// refBroken reports a reference index-broken-link reports: a link or
// backticked name to a file missing from the directory.
func (r *reindexer) refBroken(ref memindex.Ref, file *consolidate.CheckedFile) bool {
	if ref.Kind == memindex.RefWiki || ref.Scope == memindex.RefExternal {
		return false
	}
	target := ref.Target
	if ref.Scope == memindex.RefOutside {
		rel, ok := r.c.Inside(target)
		if !ok {
			return false
		}
		target = rel
	}
	return r.c.Missing(target, file)
}

// contTexts are an entry's hanging lines without indentation and list
// markers.
func (r *reindexer) contTexts(e *memindex.Entry) []string {
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

// carry keeps the given lines of index text in a topic file: the ones whose
// words the file holds already need nothing; the others are appended to
// it. It reports false when some need a place and the file cannot take
// them.
func (r *reindexer) carry(f *consolidate.CheckedFile, lines []string) bool {
	return r.carryAs(f, lines, lines)
}

// carryAs is carry where the text judged (check[i]) and the text written
// (write[i]) differ: a duplicate's hook is judged alone but written after
// its title.
func (r *reindexer) carryAs(f *consolidate.CheckedFile, check, write []string) bool {
	if !r.canCarry(f, check) {
		return false
	}
	for i, s := range check {
		if f == nil || r.covered(f.File().Path, s) {
			continue
		}
		p, w := f.File().Path, write[i]
		if !r.movedSeen[p+"\x00"+w] {
			r.movedSeen[p+"\x00"+w] = true
			r.moved[p] = append(r.moved[p], w)
			r.movedLines++
		}
	}
	return true
}

// canCarry reports whether carry would succeed, changing nothing: every
// line's words are in the file already, or the file can take them.
func (r *reindexer) canCarry(f *consolidate.CheckedFile, check []string) bool {
	for _, s := range check {
		if f == nil || !r.covered(f.File().Path, s) {
			return f != nil && !f.File().Truncated && !r.s.opaque(f.File().Path)
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
	for _, w := range prose.Words(text) {
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
func (r *reindexer) unlinkBroken(rows []memindex.Row, rowOf []int, gone map[int]bool) {
	at := r.at(rows)
	var us []memindex.Unlink
	for i := range r.ix.Lines {
		l := &r.ix.Lines[i]
		if gone[l.Num] || !r.has(consolidate.RuleIndexBrokenLink, l.Num) {
			continue
		}
		files := r.c.LineFiles(i)
		var refs []memindex.Ref
		for k, ref := range l.Refs {
			if r.refBroken(ref, files[k]) {
				refs = append(refs, ref)
			}
		}
		if row := rowOf[l.Num]; len(refs) > 0 && at(row) >= 0 {
			us = append(us, memindex.Unlink{Row: at(row), Line: l.Num - rows[row].Line, Refs: refs})
		}
	}
	done, _ := r.ed.UnlinkRefs(us)
	for _, refs := range done {
		for _, ref := range refs {
			r.unlinked = append(r.unlinked, ref.Target)
		}
	}
}

// ---- content written into the index ----

// rxBlock is a run of index lines that is memory content.
type rxBlock struct{ first, last int } // 1-based lines

// rxMove is a block moving into a new topic file: the entry that takes its
// place, the block's first and last rows, the new file.
type rxMove struct {
	entry       memindex.NewEntry
	first, last int
	file        rxNewFile
	note        string
}

// moveContent plans moving each block index-not-pointer reports into a new
// topic file, with an entry in its place.
func (r *reindexer) moveContent(rowOf []int, gone map[int]bool) []rxMove {
	var blocks []rxBlock
	ls := r.ix.Lines
	for n := range r.flag[consolidate.RuleIndexNotPointer] {
		l := r.ix.Line(n)
		if l == nil || (l.Kind != memindex.LineCode && l.Kind != memindex.LineProse) {
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
	var out []rxMove
	for _, b := range merged {
		m := r.moveBlock(b)
		m.first, m.last = rowOf[b.first], rowOf[b.last]
		for n := b.first; n <= b.last; n++ {
			gone[n] = true
		}
		out = append(out, m)
	}
	return out
}

func (r *reindexer) onlyBlank(from, to int) bool {
	for n := from; n < to; n++ {
		if r.ix.Line(n).Kind != memindex.LineBlank {
			return false
		}
	}
	return true
}

// moveBlock names the new topic file for a block and writes it.
func (r *reindexer) moveBlock(b rxBlock) rxMove {
	title, section := rxNoteTitle, -1
	n := b.first - 1
	for n >= 1 && r.ix.Line(n).Kind == memindex.LineBlank {
		n--
	}
	if l := r.ix.Line(n); l != nil && l.Kind == memindex.LineHeading {
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
	desc := rxContentSummary(r.ix.Line(b.first).Kind == memindex.LineCode, body)
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
	return rxMove{entry: memindex.NewEntry{Path: p, Title: title, Hook: desc},
		file: rxNewFile{path: p, content: []byte(content), create: true},
		note: fmt.Sprintf("%s (lines %d-%d)", p, b.first, b.last)}
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

// ---- orphans ----

// addOrphans gives every topic file the index does not reach an entry.
func (r *reindexer) addOrphans() {
	findings, c := r.check(r.ed.Bytes(), nil)
	var orphans []*consolidate.CheckedFile
	for _, f := range findings {
		if f.Rule == consolidate.RuleMemoryOrphan {
			// A file that is not text gets no entry: memtui would have to
			// vouch for it with a title and hook read out of bytes it
			// cannot read. The encoding finding and the orphan one stay
			// until a person re-saves it as text.
			if fs := c.File(f.File); fs != nil && !r.s.opaque(f.File) {
				orphans = append(orphans, fs)
			}
		}
	}
	if len(orphans) == 0 {
		return
	}
	ix := c.Index()
	types := r.sectionTypes(ix, c)
	end := r.lastEntryLine(ix, -1)
	var adds []memindex.NewEntry
	var paths []string
	group := map[int]int{} // row → entries added after it so far
	for _, fs := range orphans {
		if r.secretName(fs.File().Path) {
			continue
		}
		r.read(fs.File().Path)
		typ, _ := model.ParseType(fs.Doc().FM.Type)
		sec := r.sectionFor(ix, types, typ)
		at, loose := end, false
		if sec >= 0 {
			at = r.lastEntryLine(ix, sec)
			loose = r.looseAt(ix, at)
		}
		// After the last entry of its place, a blank line before it in a
		// loose list; with no entry anywhere, at the end after one blank
		// line for the whole group.
		a := memindex.NewEntry{Path: fs.File().Path, Blank: loose}
		if at < 0 {
			a.After, a.Blank = r.ed.Len()-1, group[r.ed.Len()-1] == 0
		} else {
			a.After = r.ed.RowAt(at + 1)
		}
		group[a.After]++
		a.Title = fs.Doc().FM.Name
		if a.Title == "" {
			a.Title = strings.TrimSuffix(path.Base(fs.File().Path), path.Ext(fs.File().Path))
		}
		a.Hook = fs.Doc().FM.Description
		if strings.TrimSpace(a.Hook) == "" {
			a.Hook = rxFirstLine(fs.Doc().Body(fs.File().Content))
		}
		adds = append(adds, a)
		paths = append(paths, fs.File().Path)
	}
	for k, ok := range r.addEntries(adds) {
		if ok {
			r.orphans = append(r.orphans, paths[k])
		}
	}
}

// sectionTypes maps each section (index into ix.Headings) whose entries are
// mostly of one type to that type: the index groups by type there.
func (r *reindexer) sectionTypes(ix *memindex.Index, c *consolidate.IndexView) map[int]model.Type {
	counts := map[int]map[model.Type]int{}
	totals := map[int]int{}
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if e.Section < 0 {
			continue
		}
		t := c.Target(e)
		if t.File == nil {
			continue
		}
		r.read(t.File.File().Path)
		typ, ok := model.ParseType(t.File.Doc().FM.Type)
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
func (r *reindexer) sectionFor(ix *memindex.Index, types map[int]model.Type, typ model.Type) int {
	if typ == "" {
		return -1
	}
	for i := range ix.Headings {
		if types[i] == typ {
			return i
		}
	}
	for i, h := range ix.Headings {
		for _, w := range prose.Words(h.Text) {
			if w == string(typ) || w == string(typ)+"s" {
				return i
			}
		}
	}
	return -1
}

// lastEntryLine is the 0-based line of the last list or table entry (or
// its last hanging line) in a section, or in the whole index for sec -1;
// -1 when there is none. For a section with no entries it is the heading
// itself.
func (r *reindexer) lastEntryLine(ix *memindex.Index, sec int) int {
	last := -1
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if sec >= 0 && e.Section != sec || e.Form == memindex.EntryProse {
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
func (r *reindexer) looseAt(ix *memindex.Index, i int) bool {
	if i < 2 || ix.Lines[i].Kind != memindex.LineEntry && ix.Lines[i].Kind != memindex.LineContinuation {
		return false
	}
	n := i
	for n > 0 && ix.Lines[n].Kind == memindex.LineContinuation {
		n--
	}
	return n >= 2 && ix.Lines[n-1].Kind == memindex.LineBlank && (ix.Lines[n-2].Kind == memindex.LineEntry || ix.Lines[n-2].Kind == memindex.LineContinuation)
}

// ---- empty sections ----

// removeEmptySections removes headings with nothing under them: those
// index-empty-section reports, and those the rewrite emptied. It reports
// whether it changed the index.
func (r *reindexer) removeEmptySections() bool {
	ix := r.ed.Index()
	ids := r.ed.IDs()
	h1 := 0
	for _, h := range ix.Headings {
		if h.Level == 1 {
			h1++
		}
	}
	var remove []int
	for i, h := range ix.Headings {
		if i == 0 && h.Level == 1 && h1 == 1 {
			continue // the document's title
		}
		end := r.sectionEnd(&ix, i)
		if consolidate.HasContent(&ix, h.Line+1, end) {
			continue
		}
		row := r.ed.RowAt(h.Line)
		orig := r.orig[ids[row]] // 0 for a line the rewrite wrote
		if !(orig == 0 || r.has(consolidate.RuleIndexEmptySection, orig) || r.hadContent[orig]) {
			continue // empty as written, and its finding silenced
		}
		remove = append(remove, row)
		r.emptied = append(r.emptied, rxQuote(h.Text))
		// A lone placeholder ("none yet") goes with it.
		for n := h.Line + 1; n < end; n++ {
			if l := ix.Line(n); l.Kind == memindex.LineHeading {
				break
			} else if l.Kind == memindex.LineProse {
				remove = append(remove, r.ed.RowAt(n))
			}
		}
	}
	return len(remove) > 0 && r.ed.RemoveRows(remove) == nil
}

// sectionEnd is the line after heading i's section (sub-sections included).
func (r *reindexer) sectionEnd(ix *memindex.Index, i int) int {
	h := ix.Headings[i]
	for _, n := range ix.Headings[i+1:] {
		if n.Level <= h.Level {
			return n.Line
		}
	}
	return len(ix.Lines) + 1
}

// ---- fitting under the caps ----

// load is Claude Code's load of the index being written, as the editor
// measures it (a subagent's index is loaded raw).
func (r *reindexer) load() claude.Load { return r.ed.Budget().Load }

// rxFits reports whether an index loads under 70% of both caps.
func rxFits(ld *claude.Load) bool {
	return ld.LineCount < model.IndexTargetLines && ld.Units < model.IndexTargetUnits
}

// fit gets the index under 70% of both caps: first by dropping blank lines
// between entries and runs of blank lines, then by archiving the least
// recently modified entries.
func (r *reindexer) fit() {
	if ld := r.load(); rxFits(&ld) {
		return
	}
	r.tighten()
	if ld := r.load(); rxFits(&ld) {
		return
	}
	r.archive()
}

// tighten drops blank lines that only space out entries, and every second
// blank line of a run.
func (r *reindexer) tighten() {
	ix := r.ed.Index()
	ls := ix.Lines
	entryish := func(k memindex.LineKind) bool { return k == memindex.LineEntry || k == memindex.LineContinuation }
	var remove []int
	for i := range ls {
		if ls[i].Kind != memindex.LineBlank || i == 0 {
			continue
		}
		j := i + 1
		for j < len(ls) && ls[j].Kind == memindex.LineBlank {
			j++
		}
		prev := ls[i-1].Kind
		if prev == memindex.LineBlank || (entryish(prev) && j < len(ls) && ls[j].Kind == memindex.LineEntry) {
			remove = append(remove, r.ed.RowAt(i+1))
		}
	}
	if len(remove) > 0 && r.ed.RemoveRows(remove) == nil {
		r.tightened = true
	}
}

// rxCandidate is an entry that may move to the archive.
type rxCandidate struct {
	row  int // its row in the editor
	text string
	date time.Time
	file string
}

// archive moves the oldest entries into the archive index until the index
// fits, and links the archive: each try is a Demote of the editor, undone
// when it is not enough.
func (r *reindexer) archive() {
	_, c := r.check(r.ed.Bytes(), nil)
	ix := c.Index()
	archive, existing := r.archiveFile(c)
	var cands []rxCandidate
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if e.Form == memindex.EntryProse || len(e.Continuations) > 0 {
			continue
		}
		t := c.Target(e)
		cand := rxCandidate{row: r.ed.RowAt(e.Line), text: e.Raw}
		if t.File != nil {
			if strings.EqualFold(t.File.File().Path, archive) || consolidate.IsOverflowIndex(t.File) {
				continue // an archive stays linked
			}
			cand.file = t.File.File().Path
			cand.date = t.File.Doc().FM.ModifiedTime
			if cand.date.IsZero() {
				cand.date = t.File.File().ModTime
			}
		}
		cands = append(cands, cand)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if !cands[i].date.Equal(cands[j].date) {
			return cands[i].date.Before(cands[j].date)
		}
		return cands[i].row > cands[j].row
	})
	// Every candidate's date was compared to choose the entries that go.
	for _, cand := range cands {
		if cand.file != "" {
			r.read(cand.file)
		}
	}
	emptied := r.emptied
	spec := memindex.Archive{Path: archive, Title: rxArchiveTitle, NoLink: true}
	if existing != nil {
		spec.Content = existing.File().Content
	} else {
		spec.Frontmatter = r.frontmatterFor(strings.TrimSuffix(archive, ".md"),
			"Older MEMORY.md entries, moved out so the index loads whole; look here when a memory is not in MEMORY.md", model.TypeReference)
		spec.Intro = "The least recently modified entries of MEMORY.md, moved here on " + r.now.UTC().Format("2006-01-02") +
			" to keep the index under Claude Code's load caps, under the headings they had there."
	}
	link := memindex.NewEntry{Path: archive, Title: rxArchiveTitle, Hook: rxArchiveHook, Blank: true}
	ld := r.load()
	lines, units := ld.LineCount+2, ld.Units+rxUnits(r.ed.EntryText(link))+2 // the link and a blank line before it
	k := 0
	for k < len(cands) && (lines >= model.IndexTargetLines || units >= model.IndexTargetUnits) {
		lines--
		units -= rxUnits(cands[k].text) + 1
		k++
	}
	for ; k <= len(cands); k++ {
		if k == 0 {
			continue // archiving nothing only adds the link
		}
		rows := make([]int, k)
		for i, cand := range cands[:k] {
			rows[i] = cand.row
		}
		content, err := r.ed.DemoteTo(rows, spec)
		if err != nil {
			return // (the editor found a reference the move would lose: nothing is archived)
		}
		steps := 1
		r.emptied = emptied
		if r.removeEmptySections() {
			steps++
		}
		if r.linkArchive(link, existing, c) {
			steps++
		}
		if ld := r.load(); rxFits(&ld) || k == len(cands) {
			r.archivePath, r.archived = archive, k
			if existing != nil {
				content = stamp(content, r.now)
			}
			r.created = append(r.created, rxNewFile{path: archive, content: content, create: existing == nil})
			return
		}
		for ; steps > 0; steps-- {
			r.ed.Undo()
		}
	}
}

// archiveFile is the archive index to use: an existing top-level
// memory-archive.md (in any case) when it can take more, else a new one.
func (r *reindexer) archiveFile(c *consolidate.IndexView) (string, *consolidate.CheckedFile) {
	for _, f := range c.Files() {
		if strings.EqualFold(f.File().Path, rxArchive) && !f.File().Truncated && !r.s.opaque(f.File().Path) {
			return f.File().Path, f
		}
	}
	return r.freshName(strings.TrimSuffix(rxArchive, ".md")), nil
}

// linkArchive appends the entry pointing at the archive after a blank
// line, unless the index links it already (archive candidates never link
// it, so such a link stays). It reports whether it changed the index.
func (r *reindexer) linkArchive(link memindex.NewEntry, existing *consolidate.CheckedFile, c *consolidate.IndexView) bool {
	if existing != nil {
		for i := range c.Index().Lines {
			for _, f := range c.LineFiles(i) {
				if f == existing {
					return false
				}
			}
		}
	}
	link.After = r.ed.Len() - 1
	return r.addEntries([]memindex.NewEntry{link})[0]
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
		nl := model.EOL(base)
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
	index := r.ed.Bytes()
	create := r.s.d.Index == nil
	if !create && bytes.Equal(index, r.s.d.Index.Content) {
		return nil
	}
	after := r.load()
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
	if len(fixes) == 0 && !create { // (a new index asked for by hand may have no finding to fix: see NewIndex)
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
func (r *reindexer) title(after *claude.Load) string {
	if r.s.d.Index == nil {
		return fmt.Sprintf("Create MEMORY.md indexing %s", consolidate.Plural(len(r.orphans), "memory"))
	}
	before := claude.SimulateLoadMode(r.s.d.Index.Content, r.s.d.Kind.LoadMode())
	var parts []string
	switch {
	case before.TooLarge:
		parts = append(parts, fmt.Sprintf("not loaded (over %s) → %d lines", claude.FormatFileSize(model.IndexMaxReadBytes), after.LineCount))
	case before.SizeTruncated || before.Units >= model.IndexNearUnits && !before.LineTruncated:
		parts = append(parts, fmt.Sprintf("%s → %s", claude.FormatFileSize(before.Units), claude.FormatFileSize(after.Units)))
	case before.LineTruncated || before.LineCount >= model.IndexNearLines:
		parts = append(parts, fmt.Sprintf("%d → %d lines", before.LineCount, after.LineCount))
	}
	if n := r.uncut(&before); n > 0 {
		parts = append(parts, fmt.Sprintf("%s no longer cut off", consolidate.Plural(n, "entry")))
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
func (r *reindexer) uncut(before *claude.Load) int {
	cut := map[int]bool{}
	for _, n := range before.Dropped {
		cut[n] = true
	}
	if before.LastLineCut {
		cut[before.LastLine] = true
	}
	n := 0
	for _, id := range r.ed.IDs() {
		if l, ok := r.orig[id]; ok && cut[l] {
			if e := r.ix.EntryAt(l); e != nil && e.Line == l {
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
	add(len(r.broken), "dropped "+consolidate.Plural(len(r.broken), "broken entry"))
	add(len(r.dups), "dropped "+consolidate.Plural(len(r.dups), "duplicate entry"))
	add(len(r.orphans), "added "+consolidate.Plural(len(r.orphans), "orphan"))
	add(len(r.shortened), "shortened "+consolidate.Plural(len(r.shortened), "hook"))
	add(len(r.folded), "folded "+consolidate.Plural(len(r.folded), "multi-line entry"))
	add(len(r.notes), "moved "+consolidate.Plural(len(r.notes), "block")+" of content into topic files")
	add(len(r.emptied), "removed "+consolidate.Plural(len(r.emptied), "empty heading"))
	add(len(r.unlinked), "unlinked "+consolidate.Plural(len(r.unlinked), "missing file"))
	add(r.archived, "archived "+consolidate.Plural(r.archived, "entry"))
	return out
}

func (r *reindexer) rationale(fixed []string, counts map[string]int, after *claude.Load) string {
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
			consolidate.BackfillMaxLines, listNames(rxFirst(r.orphans, consolidate.IndexNameList)))
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
			rxCapital(consolidate.Plural(n, "file")), model.Plural(n, "its name holds", "their names hold"), model.Plural(n, "it", "them"), model.Plural(n, "finding", "findings"))
	}
	if r.movedLines > 0 {
		var ps []string
		for p := range r.moved {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		fmt.Fprintf(&b, " %s of index text found nowhere else went into the topic files they describe, under \"%s\" (%s); lines whose words the topic file already holds were dropped.",
			rxCapital(consolidate.Plural(r.movedLines, "line")), rxMovedHead, listNames(rxFirst(ps, consolidate.IndexNameList)))
	}
	if r.tightened {
		b.WriteString(" Blank lines between entries were removed to save lines.")
	}
	if r.archived > 0 {
		fmt.Fprintf(&b, " The %s least recently modified went to %s, linked from the index; no entry was deleted.", consolidate.Plural(r.archived, "entry"), r.archivePath)
	}
	if r.frontmatter {
		b.WriteString(" The frontmatter at the top of MEMORY.md was removed: Claude Code strips it unread.")
	}
	fmt.Fprintf(&b, " MEMORY.md now loads whole: %d lines and %s UTF-16 units (%d%% and %d%% of the caps).",
		after.LineCount, consolidate.Thousands(after.Units), int(after.LinePercent()), int(after.UnitPercent()))
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
	shown := rxFirst(names, consolidate.IndexNameList)
	s := listNames(shown)
	if len(names) > len(shown) {
		s = strings.Join(shown, ", ") + fmt.Sprintf(" and %d more", len(names)-len(shown))
	}
	fmt.Fprintf(b, " "+format+": %s.", consolidate.Plural(len(names), noun), s)
}

// ---- no index yet ----

// proposeNewIndex creates MEMORY.md for a directory that has memories and
// no index: an entry per memory from its frontmatter, grouped under a
// heading per type when there is more than one type.
func (s *dreamState) proposeNewIndex() []model.Proposal {
	r := newReindexer(s)
	var fs []*model.File
	for _, f := range s.d.Files {
		if !consolidate.IndexExempt(f) && !r.secretName(f.Path) && !s.opaque(f.Path) { // (see addOrphans)
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
			name := "Other"
			if typ != "" {
				name = strings.ToUpper(string(typ[:1])) + string(typ[1:])
			}
			r.ed.AddSection(2, name)
		}
		var adds []memindex.NewEntry
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
			adds = append(adds, memindex.NewEntry{Path: f.Path, Title: title, Hook: hook, After: r.ed.Len() - 1})
			r.read(f.Path)
		}
		for k, ok := range r.addEntries(adds) {
			if ok {
				r.orphans = append(r.orphans, adds[k].Path)
			}
		}
	}
	if len(r.orphans) == 0 {
		return nil
	}
	r.fit()
	return r.finish()
}

// NewIndex proposes a starting MEMORY.md for a directory that has memories
// and no index: the index the reindex proposal writes there (an entry per
// memory from its frontmatter, grouped under a heading per type when there
// is more than one), also when index-missing is silenced, as a person
// asked for it. The index editor offers it as a pending edit.
func NewIndex(p *model.Project, d *model.MemoryDir, opts Options) (model.Proposal, error) {
	opts.Options = opts.Options.WithDefaults()
	if d.Index != nil {
		return model.Proposal{}, errors.New("the directory has a MEMORY.md already")
	}
	for _, pr := range d.Problems {
		if pr.Path == model.IndexFileName {
			return model.Proposal{}, fmt.Errorf("MEMORY.md is there but cannot be read (%s): memtui does not write over it", pr.Detail)
		}
	}
	s := newDreamState(p, d, opts)
	props := s.proposeNewIndex()
	if len(props) == 0 {
		return model.Proposal{}, errors.New("no memory here that an index can point at (none is a text file with a name free of secrets)")
	}
	prop := props[0]
	// The backstops every proposal passes (see ProposeDir).
	if s.touchesOpaque(changedPaths(prop), readPaths(prop)) || s.touchesLink(changedPaths(prop)) || !s.keepsItems(prop) {
		return model.Proposal{}, fmt.Errorf("MEMORY.md: %w", ErrNotHere)
	}
	return redacted(s, prop)
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

// rxClip is memindex.Clip, the one cut of index text, after redaction (see
// rxRedact): what it returns is written into an index or a new memory.
func rxClip(s string, n int) string { return memindex.Clip(rxRedact(s), n) }

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

func rxQuote(s string) string { return "\u201c" + secrets.Clip(s, 60) + "\u201d" }

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
