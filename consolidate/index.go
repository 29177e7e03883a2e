package consolidate

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
	"github.com/memtui/memtui/model/prose"
)

// Thresholds of the index rules that are memtui's own (the load caps are
// Claude Code's, in model).
const (
	IndexEntryMaxChars = 150 // the prompt's "under ~150 characters" per entry
	indexProseRun      = 3   // a reference-less paragraph of this many lines is content
	indexProseChars    = 200 // a reference-less paragraph this long is content
	indexNoteLines     = 2   // ... and so is one of this many lines, unless it is about the index
	indexPlaceholder   = 40  // a lone line this short under a heading is a placeholder ("none yet")
	IndexNameList      = 5   // entries named in a message before "and N more"
	indexEchoShare     = 0.9 // share of words a hook must share with the description to echo it
)

// checkIndex runs the MEMORY.md rules over one directory: the load caps as
// Claude Code applies them, the entries, the references, and the topic
// files the index never reaches.
func checkIndex(s *dirState) {
	if s.index == nil {
		// A team dir has no index of its own in 2.1.332: its stores'
		// indexes are team/<mount>/<promptIndex> (facts 7.1), and
		// Claude Code writes none for it.
		if s.dir.Kind != model.DirTeam {
			checkIndexMissing(s)
		}
		return
	}
	ix := memindex.ParseText(s.index.text) // shares the text newFileState already made
	ld := claude.LoadIndex(s.index.f, s.dir.Kind.LoadMode())
	c := &IndexView{s: s, ix: &ix, path: s.index.f.Path, lowPath: strings.ToLower(s.index.f.Path)}
	if s.index.f.Truncated && s.index.f.Tail == nil {
		c.atLeast = "at least " // a subagent's index read in part has its rest counted
	}
	c.resolve()
	c.checkCaps(&ld)
	c.checkEntries()
	c.checkRefs()
	c.checkNotPointer()
	c.checkEmptySections()
	c.checkOrphans()
}

// IndexView carries one index through the rules, with lookups built on
// first use. Dream's reindex proposer reads candidate indexes through one
// (CheckIndex), so it resolves references as the rules do.
type IndexView struct {
	s       *dirState
	ix      *memindex.Index
	path    string // the index's path, "MEMORY.md"
	atLeast string // "at least " when the reader kept only part of the file

	lowPath  string                    // path, lower-cased
	refAt    []int                     // line i's references are refFiles[refAt[i]:refAt[i+1]]
	refFiles []*CheckedFile            // the topic file each reference names, nil when none
	lower    map[string]*CheckedFile   // lower-cased path → file
	base     map[string]string         // lower-cased base name → a path with it
	wiki     map[string][]*CheckedFile // lower-cased name, stem and extension-less path → files
	problems map[string]bool           // lower-cased paths the reader found but could not read
}

// IndexExempt reports files that are not meant to be indexed: daily logs
// and session notes, which Dream reads directly, and anything else Claude
// Code's scan does not list as a memory (facts 2.1).
func IndexExempt(f *model.File) bool {
	return !isMemory(f) || strings.HasPrefix(f.Path, "logs/") || strings.HasPrefix(f.Path, "sessions/")
}

// checkIndexMissing reports a directory with topic files and no MEMORY.md.
func checkIndexMissing(s *dirState) {
	n := 0
	for _, f := range s.files {
		if !IndexExempt(f.f) {
			n++
		}
	}
	if n == 0 {
		return
	}
	for _, p := range s.dir.Problems {
		if p.Path == "MEMORY.md" {
			return // it exists; file-unreadable says why it cannot be read
		}
	}
	s.report(RuleIndexMissing, "", 0, indexMissingMessage(s, n),
		"Nothing to do if that index suits you; to choose the order, grouping and hooks yourself, create MEMORY.md first with one line per memory, - [Title](file.md) — one-line hook (memtui dream proposes one).")
}

// Claude Code's backfill of a missing MEMORY.md (facts §3.4): at most 140
// lines or 17,500 characters (70% of the load caps).
const (
	BackfillMaxLines = 140
	backfillMaxChars = 17500
)

// indexMissingMessage says what Claude Code does about a missing index
// (facts §3.4, changed after 2.1.261): at the next session start it writes
// one itself, newest topic files first, and loads it.
func indexMissingMessage(s *dirState, n int) string {
	msg := fmt.Sprintf("the memory directory has %s but no MEMORY.md; at the next session start Claude Code 2.1.332 writes one itself and loads it "+
		"(2.1.261 and older did not, and recall mode never does): one line per topic file, newest first, - [name](path) — its description cut to fit 150 characters, "+
		"up to %d lines or %s characters", Plural(n, "topic file"), BackfillMaxLines, Thousands(backfillMaxChars))
	if n > BackfillMaxLines {
		msg += fmt.Sprintf(", so at most the %d newest of the %d get a line", BackfillMaxLines, n)
	}
	skipped := 0
	for _, f := range s.files {
		if !IndexExempt(f.f) && strings.ContainsAny(f.f.Path, "[]()\n\r\u2028\u2029") {
			skipped++
		}
	}
	if skipped > 0 {
		msg += fmt.Sprintf("; %d %s no line, as %s brackets, parentheses or a line break",
			skipped, model.Plural(skipped, "file gets", "files get"), model.Plural(skipped, "its path holds", "their paths hold"))
	}
	return msg
}

// ---- load caps ----

// checkCaps reports an index Claude Code does not load, cuts, or is close
// to cutting.
func (c *IndexView) checkCaps(ld *claude.Load) {
	if ld.TooLarge {
		c.tooLarge()
		return
	}
	if ld.LineTruncated {
		c.overLines(ld)
	}
	if ld.SizeTruncated {
		c.overSize(ld)
	}
	if ld.NearLimit() {
		c.nearLimit(ld)
	}
}

// tooLarge reports an index over the 4,194,304 bytes Claude Code reads: it
// loads none of it, and the agent is not told (facts §3.2 step 1).
func (c *IndexView) tooLarge() {
	f := c.s.index.f
	c.s.report(RuleIndexOverSize, c.path, 0,
		fmt.Sprintf("MEMORY.md is %s bytes, over the %s bytes Claude Code reads of an index: it is not loaded at all, so the agent gets none of its entries and no warning that they are missing",
			Thousands(int(max(f.Size, int64(len(f.Content))))), Thousands(model.IndexMaxReadBytes)),
		fmt.Sprintf("Rewrite the index as one short line per memory, under %s UTF-16 units (%s), and move everything else into topic files.",
			Thousands(model.IndexTargetUnits), claude.FormatFileSize(model.IndexTargetUnits)))
}

// toldAgent is what Claude Code's warning tells the agent was cut, for the
// messages: its line numbers count lines of the stripped text, not of the
// file. A secret in the line it quotes is masked before the quote is
// clipped (the clipped rest would not be found).
func toldAgent(ld *claude.Load) string {
	var spans []claude.Span
	if ld.Detail != "" && strings.HasSuffix(ld.Detail, "\")") {
		for _, s := range secrets.Default().Scan(ld.Trimmed) {
			spans = append(spans, claude.Span{Start: s.Start, End: s.End, Whole: s.Masked, Part: s.Short})
		}
	}
	return "; Claude Code's warning tells the agent only: " + ld.MaskedDetail(spans)
}

// overLines reports the 200-line cut and names what falls after it.
func (c *IndexView) overLines(ld *claude.Load) {
	cut := ixSubtract(ld.Dropped, ld.DroppedBySize)
	line := ld.LastLine + 1
	if len(cut) > 0 {
		line = cut[0]
	}
	c.s.report(RuleIndexOverLines, c.path, line,
		fmt.Sprintf("MEMORY.md is %s%d lines as Claude Code loads it, over its %d-line cap: nothing after line %d reaches the agent, which drops %s%s",
			c.atLeast, ld.LineCount, model.IndexMaxLines, ld.LastLine, c.describeDropped(cut), toldAgent(ld)),
		fmt.Sprintf("Compact the index under %d lines: merge or delete stale entries, keep each entry on one line, or move older entries into a linked archive index such as MEMORY-archive.md.", model.IndexTargetLines))
}

// overSize reports the 25,000-unit cut and names what falls after it.
func (c *IndexView) overSize(ld *claude.Load) {
	size := fmt.Sprintf("%s%s (%s UTF-16 units) as Claude Code loads it, over its %s-unit cap",
		c.atLeast, claude.FormatFileSize(ld.Units), Thousands(ld.Units), Thousands(model.IndexMaxUnits))
	sugg := fmt.Sprintf("Shorten entries to one line under ~%d characters and move detail into topic files; aim for under %s units (%s).",
		IndexEntryMaxChars, Thousands(model.IndexTargetUnits), claude.FormatFileSize(model.IndexTargetUnits))
	if len(ld.DroppedBySize) == 0 && !ld.LastLineCut {
		// overLines quotes the warning.
		c.s.report(RuleIndexOverSize, c.path, 0,
			"MEMORY.md is "+size+"; for now the 200-line cut drops more than this cap would, but the index must also get under 25,000 units to load whole", sugg)
		return
	}
	line, where := ld.LastLine, fmt.Sprintf("the load stops after line %d", ld.LastLine)
	if ld.LastLineCut {
		where = fmt.Sprintf("the load stops inside line %d", ld.LastLine)
	} else if len(ld.DroppedBySize) > 0 {
		line = ld.DroppedBySize[0]
	}
	told := ""
	if !ld.LineTruncated {
		told = toldAgent(ld) // else overLines quotes it
	}
	c.s.report(RuleIndexOverSize, c.path, line,
		fmt.Sprintf("MEMORY.md is %s: %s, which drops %s%s", size, where, c.describeDropped(ld.DroppedBySize), told), sugg)
}

// nearLimit reports an index at 80% or more of a cap.
func (c *IndexView) nearLimit(ld *claude.Load) {
	var used, todo []string
	if ld.LineCount >= model.IndexNearLines {
		used = append(used, fmt.Sprintf("%d of %d lines (%d%%)", ld.LineCount, model.IndexMaxLines, int(ld.LinePercent())))
		todo = append(todo, fmt.Sprintf("remove at least %s to get to %d", Plural(ld.LinesOverTarget(), "line"), model.IndexTargetLines))
	}
	if ld.Units >= model.IndexNearUnits {
		used = append(used, fmt.Sprintf("%s of %s UTF-16 units (%d%%)", Thousands(ld.Units), Thousands(model.IndexMaxUnits), int(ld.UnitPercent())))
		todo = append(todo, fmt.Sprintf("cut about %s units to get to %s", Thousands(ld.UnitsOverTarget()), Thousands(model.IndexTargetUnits)))
	}
	c.s.report(RuleIndexNearLimit, c.path, 0,
		fmt.Sprintf("MEMORY.md uses %s as Claude Code loads it; from 80%% Claude Code nudges the agent to compact it, and past 100%% the last entries are silently cut",
			strings.Join(used, " and ")),
		"Compact it under 70%: "+strings.Join(todo, ", and ")+". Merge related entries, shorten hooks, or move old entries into a linked MEMORY-archive.md.")
}

// describeDropped names the entries on the given lines: the first few by
// title and line, then a count.
func (c *IndexView) describeDropped(lines []int) string {
	var names []string
	for _, n := range lines {
		if e := c.ix.EntryAt(n); e != nil && e.Line == n {
			names = append(names, fmt.Sprintf("\"%s\" (line %d)", secrets.Clip(e.Name(), 60), n))
		}
	}
	switch {
	case len(names) == 0:
		return Plural(len(lines), "line") + " of text (no entries)"
	case len(names) > IndexNameList:
		return fmt.Sprintf("%s: %s and %d more", Plural(len(names), "entry"), strings.Join(names[:IndexNameList], ", "), len(names)-IndexNameList)
	}
	return Plural(len(names), "entry") + ": " + strings.Join(names, ", ")
}

// ---- entries ----

// checkEntries runs the per-entry rules: length, hanging lines,
// duplicates and hooks that echo the description. Each entry's target is
// resolved once and shared by the rules.
func (c *IndexView) checkEntries() {
	first := make(map[ixDupKey]int, len(c.ix.Entries))
	for i := range c.ix.Entries {
		e := &c.ix.Entries[i]
		t := c.Target(e)
		c.entryTooLong(e, &t)
		c.entryMultiline(e, &t)
		c.duplicate(e, &t, first)
		c.hookEcho(e, &t)
	}
}

// IndexTarget is what an entry points at.
type IndexTarget struct {
	Ref  memindex.Ref // the entry's primary reference
	OK   bool         // false when the entry has none (only URLs and anchors)
	File *CheckedFile // the topic file Ref resolves to, nil when none
}

// Target returns an entry's primary reference (as Entry.Primary picks it)
// and the file it names.
func (c *IndexView) Target(e *memindex.Entry) IndexTarget {
	files := c.LineFiles(e.Line - 1) // an entry's Refs are its line's
	for k, r := range e.Refs {
		if r.Scope != memindex.RefExternal {
			return IndexTarget{Ref: r, OK: true, File: files[k]}
		}
	}
	return IndexTarget{}
}

// Name is the file an entry points at, for suggestions.
func (t *IndexTarget) Name() string {
	switch {
	case t.File != nil:
		return t.File.f.Path
	case t.OK:
		return t.Ref.Target
	}
	return "its topic file"
}

// entryTooLong reports an entry line over ~150 characters.
func (c *IndexView) entryTooLong(e *memindex.Entry, t *IndexTarget) {
	if len(e.Raw) <= IndexEntryMaxChars {
		return // no more characters than bytes: skip counting the short ones
	}
	n := ixRuneCount(e.Raw)
	if n <= IndexEntryMaxChars {
		return
	}
	// Real indexes have this finding on a large share of their lines, so the
	// messages are concatenated rather than formatted: the same text at
	// about half the cost.
	c.s.report(RuleIndexEntryTooLong, c.path, e.Line,
		"the entry for \""+secrets.Clip(e.Name(), 60)+"\" is "+strconv.Itoa(n)+" characters long; Claude Code asks for one line under ~"+strconv.Itoa(IndexEntryMaxChars)+", and long entries eat the 25,000-unit cap",
		"Cut the hook to a few words that say when "+t.Name()+" matters; the detail belongs in the topic file.")
}

// entryMultiline reports indented lines hanging under an entry.
func (c *IndexView) entryMultiline(e *memindex.Entry, t *IndexTarget) {
	n := len(e.Continuations)
	if n == 0 {
		return
	}
	span := fmt.Sprintf("line %d", e.Continuations[0])
	if n > 1 {
		span = fmt.Sprintf("lines %d-%d", e.Continuations[0], e.Continuations[n-1])
	}
	c.s.report(RuleIndexEntryMultiline, c.path, e.Line,
		fmt.Sprintf("the entry for \"%s\" has %s hanging under it (%s); each counts against Claude Code's 200-line cap", secrets.Clip(e.Name(), 60), Plural(n, "indented line"), span),
		fmt.Sprintf("Move the detail into %s and keep the entry on one line.", t.Name()))
}

// ixDupKey is what duplicate-entry compares: the path of the topic file a
// link or code span resolves to (else its target as written), or a
// wikilink's name lower-cased. A file and a wikilink never match.
type ixDupKey struct {
	wiki bool
	name string
}

// duplicate reports a list or table entry whose main target an earlier
// entry already points at.
func (c *IndexView) duplicate(e *memindex.Entry, t *IndexTarget, first map[ixDupKey]int) {
	if e.Form == memindex.EntryProse {
		return // prose mentions a memory as often as it likes
	}
	r := t.Ref
	if !t.OK || r.Scope != memindex.RefFile {
		return
	}
	key := ixDupKey{name: r.Target}
	if r.Kind == memindex.RefWiki {
		key = ixDupKey{wiki: true, name: strings.ToLower(strings.TrimSuffix(r.Target, ".md"))}
	} else if t.File != nil {
		key.name = t.File.f.Path
	}
	prev, seen := first[key]
	if !seen {
		first[key] = e.Line
		return
	}
	c.s.report(RuleIndexDuplicateEntry, c.path, e.Line,
		fmt.Sprintf("this entry points at %s, like the entry on line %d", r.Target, prev),
		fmt.Sprintf("Merge the two entries into one line (keep the better hook) and delete this one, or the one on line %d.", prev))
}

// hookEcho reports a hook that only repeats the target's description.
func (c *IndexView) hookEcho(e *memindex.Entry, t *IndexTarget) {
	if e.Form == memindex.EntryProse || e.Hook == "" {
		return
	}
	fs := t.File
	if fs == nil || fs.doc.FM.Description == "" || !ixEchoes(e.Hook, fs.doc.FM.Description) {
		return
	}
	c.s.report(RuleHookEchoes, c.path, e.Line,
		fmt.Sprintf("the hook for \"%s\" only repeats the description in %s (\"%s\")", secrets.Clip(e.Name(), 60), fs.f.Path, secrets.Clip(fs.doc.FM.Description, 80)),
		"Make the hook add what the description lacks (when to reach for this memory, the one fact that matters), or drop the hook and keep the title short.")
}

// ixEchoes reports whether hook and desc say the same words: equal after
// normalising case, punctuation and spacing, or one containing the other
// with at least 90% of its words.
//
// It runs for nearly every entry, and most hooks have far more or far fewer
// words than the description, so the word counts are compared first:
// counting needs neither lower-casing nor allocation, and stops once the
// hook is past nd/0.9 words, where no share can reach 90%. Only the rare
// pair that passes is split into words.
func ixEchoes(hook, desc string) bool {
	nd := ixWordCount(desc, math.MaxInt)
	if nd == 0 || !ixEchoShare(ixWordCount(hook, int(float64(nd)/indexEchoShare)+1), nd) {
		return false
	}
	a, b := prose.Words(hook), prose.Words(desc)
	if len(a) > len(b) {
		a, b = b, a
	}
	return strings.Contains(" "+strings.Join(b, " ")+" ", " "+strings.Join(a, " ")+" ")
}

// ixEchoShare reports whether texts of n and m words could echo each other:
// neither is empty and the shorter has at least 90% of the longer's words.
func ixEchoShare(n, m int) bool {
	if n == 0 || m == 0 {
		return false
	}
	if n > m {
		n, m = m, n
	}
	return float64(n) >= indexEchoShare*float64(m)
}

// ixWordCount is len(prose.Words(s)) without building the words, or any
// number above limit once the count passes it. It decodes s as
// strings.ToLower and FieldsFunc do (an invalid byte is one U+FFFD) and
// classifies each rune after lower-casing it, so the counts agree exactly.
// ASCII, where case never changes the class, goes through a table, and a
// word start is counted by arithmetic rather than a branch, which word
// boundaries would make unpredictable.
func ixWordCount(s string, limit int) int {
	n, in := 0, 0 // in is 1 inside a word
	for i := 0; i < len(s); {
		var w int
		if c := s[i]; c < utf8.RuneSelf {
			w = int(ixASCIIWord[c])
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if prose.IsWordRune(unicode.ToLower(r)) {
				w = 1
			}
			i += size
		}
		n += w &^ in
		in = w
		if n > limit {
			break
		}
	}
	return n
}

// ixASCIIWord is 1 for the ASCII letters and digits, 0 for other ASCII.
var ixASCIIWord = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		if prose.IsWordRune(rune(c)) {
			t[c] = 1
		}
	}
	return t
}()

// ---- references ----

// checkRefs reports links and backticked names whose target is missing or
// outside the memory directory. Wikilinks may name memories not written
// yet, so they are left to wikilink-broken.
func (c *IndexView) checkRefs() {
	var done []string // the targets already checked on this line
	for i := range c.ix.Lines {
		l := &c.ix.Lines[i]
		files := c.LineFiles(i)
		done = done[:0]
		for k, r := range l.Refs {
			if r.Kind == memindex.RefWiki || r.Scope == memindex.RefExternal || ixContains(done, r.Target) {
				continue
			}
			done = append(done, r.Target)
			target := r.Target
			if r.Scope == memindex.RefOutside {
				rel, ok := c.Inside(target)
				if !ok {
					c.reportOutside(l.Num, r)
					continue
				}
				target = rel
			}
			if c.Missing(target, files[k]) {
				c.reportBroken(l.Num, r, target)
			}
		}
	}
}

// reportOutside reports a reference that leaves the memory directory.
func (c *IndexView) reportOutside(line int, r memindex.Ref) {
	c.s.report(RuleIndexLinkOutside, c.path, line,
		fmt.Sprintf("%s points outside the memory directory (%s); Claude Code treats only files inside it as memories", secrets.Clip(r.Raw, 80), r.Target),
		"Move the file into the memory directory and link it by a relative path, or drop the link if it is not a memory.")
}

// reportBroken reports a reference to a file that does not exist, naming a
// file of the same name elsewhere when there is one.
func (c *IndexView) reportBroken(line int, r memindex.Ref, target string) {
	sugg := "Remove the entry, or restore the file it names."
	if alt := c.similar(target); alt != "" {
		sugg = fmt.Sprintf("Point it at %s, which exists, or remove the entry if the memory is gone.", alt)
	}
	c.s.report(RuleIndexBrokenLink, c.path, line,
		fmt.Sprintf("%s points at %s, which does not exist in the memory directory", secrets.Clip(r.Raw, 80), target), sugg)
}

// Inside maps an absolute target under the memory directory to a relative
// path.
func (c *IndexView) Inside(target string) (string, bool) {
	dir := strings.TrimSuffix(strings.ReplaceAll(c.s.dir.Path, "\\", "/"), "/")
	if dir == "" || !strings.HasPrefix(target, dir+"/") {
		return "", false
	}
	return target[len(dir)+1:], true
}

// Missing reports a target that certainly does not exist: a *.md path that
// is neither a topic file (matched case-insensitively, as on macOS and
// Windows), nor the index, nor a path the reader found but could not read.
// Other targets (directories, non-markdown files, team/, nested MEMORY.md)
// cannot be checked from the data at hand and are never reported. file is
// the topic file target resolved to, nil when none.
func (c *IndexView) Missing(target string, file *CheckedFile) bool {
	if file != nil {
		return false
	}
	low := strings.ToLower(target)
	switch {
	case !strings.HasSuffix(low, ".md"),
		low == c.lowPath,
		path.Base(low) == "memory.md",
		low == "team" || strings.HasPrefix(low, "team/"):
		return false
	}
	if c.problems == nil {
		c.problems = map[string]bool{}
		for _, p := range c.s.dir.Problems {
			c.problems[strings.ToLower(p.Path)] = true
		}
	}
	return !c.problems[low]
}

// resolve maps each reference of the index to the topic file it names, once:
// the entry rules, the link checks and the orphan walk all ask about the
// same references, and every lookup hashes and compares a path.
func (c *IndexView) resolve() {
	ls := c.ix.Lines
	c.refAt = make([]int, len(ls)+1)
	for i := range ls {
		c.refAt[i+1] = c.refAt[i] + len(ls[i].Refs)
	}
	c.refFiles = make([]*CheckedFile, c.refAt[len(ls)])
	for i := range ls {
		files := c.LineFiles(i)
		for k, r := range ls[i].Refs {
			files[k] = c.refFile(r)
		}
	}
}

// LineFiles returns the files the references of line i (0-based) name, in
// the order of the line's Refs.
func (c *IndexView) LineFiles(i int) []*CheckedFile {
	return c.refFiles[c.refAt[i]:c.refAt[i+1]]
}

// lookup finds a topic file by path, exactly or ignoring case.
func (c *IndexView) lookup(p string) *CheckedFile {
	if fs := c.s.byPath[p]; fs != nil {
		return fs
	}
	if c.lower == nil {
		c.lower = make(map[string]*CheckedFile, len(c.s.files))
		for _, f := range c.s.files {
			c.lower[strings.ToLower(f.f.Path)] = f
		}
	}
	return c.lower[strings.ToLower(p)]
}

// similar finds a file with the same base name as a missing target.
func (c *IndexView) similar(target string) string {
	if c.base == nil {
		c.base = make(map[string]string, len(c.s.files))
		for _, f := range c.s.files {
			b := strings.ToLower(path.Base(f.f.Path))
			if _, dup := c.base[b]; !dup {
				c.base[b] = f.f.Path
			}
		}
	}
	return c.base[strings.ToLower(path.Base(target))]
}

// refFile resolves a reference of the index to a topic file, or nil.
func (c *IndexView) refFile(r memindex.Ref) *CheckedFile {
	switch {
	case r.Kind == memindex.RefWiki:
		if fs := c.wikiFiles(r.Target); len(fs) > 0 {
			return fs[0]
		}
	case r.Scope == memindex.RefFile:
		return c.lookup(r.Target)
	case r.Scope == memindex.RefOutside:
		if rel, ok := c.Inside(r.Target); ok {
			return c.lookup(rel)
		}
	}
	return nil
}

// wikiFiles finds the memories a [[name]] means: by frontmatter name, file
// stem, or path without ".md", ignoring case.
func (c *IndexView) wikiFiles(name string) []*CheckedFile {
	if c.wiki == nil {
		c.wiki = map[string][]*CheckedFile{}
		add := func(k string, f *CheckedFile) {
			if k = strings.ToLower(k); k != "" && !ixContainsFile(c.wiki[k], f) {
				c.wiki[k] = append(c.wiki[k], f)
			}
		}
		for _, f := range c.s.files {
			noExt := strings.TrimSuffix(f.f.Path, path.Ext(f.f.Path))
			add(noExt, f)
			add(path.Base(noExt), f)
			add(f.doc.FM.Name, f)
		}
	}
	return c.wiki[strings.ToLower(strings.TrimSuffix(name, ".md"))]
}

// ---- content in the index ----

// checkNotPointer reports memory content written into the index: fenced
// code, and paragraphs of reference-less text (notePara says which). It
// reports once per block, at its first line.
func (c *IndexView) checkNotPointer() {
	ls := c.ix.Lines
	for i := 0; i < len(ls); {
		kind := ls[i].Kind
		if kind != memindex.LineCode && kind != memindex.LineProse {
			i++
			continue
		}
		j := i
		for j < len(ls) && ls[j].Kind == kind {
			j++
		}
		c.notPointerBlock(ls[i:j])
		i = j
	}
}

// notPointerBlock judges one fenced block or one paragraph (a run of
// reference-less text lines between blank lines, headings and entries).
func (c *IndexView) notPointerBlock(run []memindex.Line) {
	a, b := run[0].Num, run[len(run)-1].Num
	sugg := "Move it into a topic file with frontmatter and leave a one-line pointer here, - [Title](file.md) — hook; Claude Code's own prompt says never to write memory content into MEMORY.md."
	if run[0].Kind == memindex.LineCode {
		c.s.report(RuleIndexNotPointer, c.path, a,
			fmt.Sprintf("a fenced code block (lines %d-%d) is memory content written into the index", a, b), sugg)
		return
	}
	p := notePara(run)
	switch {
	case !p.content:
	case p.lines == 1:
		c.s.report(RuleIndexNotPointer, c.path, p.first,
			fmt.Sprintf("a %d-character line with no link to a topic file is memory content written into the index", p.chars), sugg)
	default:
		c.s.report(RuleIndexNotPointer, c.path, p.first,
			fmt.Sprintf("%d lines of text with no link to a topic file (lines %d-%d) are memory content written into the index", p.lines, p.first, b), sugg)
	}
}

// indexPara is a paragraph of reference-less text as index-not-pointer
// weighs it.
type indexPara struct {
	first   int  // its first line of text (past any setext heading)
	lines   int  // lines of text: not headings or lone HTML tags
	chars   int  // characters in them
	about   bool // it speaks of the index itself ("this index", "memories", "topic files")
	content bool // the verdict
}

// notePara judges a paragraph by what it is, not by a count of lines in a
// row: memory content when it runs to three lines or more, to more than 200
// characters, or to two lines that do not speak of the index (two lines of
// notes: "Deploys go through staging." / "Never push to main."). A short
// intro ("Pointers to this project's memories; details live in the
// files."), one line or two about the index, is not content; neither are
// setext headings and lines that are only an HTML tag (<details>).
func notePara(run []memindex.Line) indexPara {
	var p indexPara
	var text []string
	for i, l := range run {
		t := strings.TrimSpace(l.Text)
		if ixSetextUnderline(t) {
			// The lines above it since the last underline are a heading.
			text, p.lines, p.chars, p.first = nil, 0, 0, 0
			continue
		}
		if ixLoneTag(t) {
			continue
		}
		if p.first == 0 {
			p.first = run[i].Num
		}
		text = append(text, t)
		p.lines++
		p.chars += utf8.RuneCountInString(l.Text)
	}
	if p.lines == 0 {
		return p
	}
	p.about = ixAboutIndex(strings.ToLower(strings.Join(text, " ")))
	p.content = p.lines >= indexProseRun || p.chars > indexProseChars || (p.lines >= indexNoteLines && !p.about)
	return p
}

// ixSetextUnderline reports a line of "=" (a setext heading's underline;
// "---" is a rule to the index parser).
func ixSetextUnderline(t string) bool {
	return t != "" && strings.Trim(t, "=") == ""
}

// ixLoneTag reports a line that is one HTML tag and nothing else.
func ixLoneTag(t string) bool {
	return len(t) > 2 && t[0] == '<' && t[len(t)-1] == '>' && strings.Count(t, "<") == 1
}

// ixIndexWords are words by which a paragraph speaks of the index rather
// than of the project.
var ixIndexWords = []string{"index", "memories", "memory file", "topic file", "entries", "entry", "pointer", "this file", "memory.md"}

func ixAboutIndex(low string) bool {
	for _, w := range ixIndexWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// checkEmptySections reports headings with no entry under them, sub-sections
// included. The document title (the only level-1 heading, first) is not a
// section.
func (c *IndexView) checkEmptySections() {
	hs := c.ix.Headings
	h1 := 0
	for _, h := range hs {
		if h.Level == 1 {
			h1++
		}
	}
	for i, h := range hs {
		if i == 0 && h.Level == 1 && h1 == 1 {
			continue
		}
		end := len(c.ix.Lines) + 1
		for _, n := range hs[i+1:] {
			if n.Level <= h.Level {
				end = n.Line
				break
			}
		}
		if !HasContent(c.ix, h.Line+1, end) {
			c.s.report(RuleIndexEmptySection, c.path, h.Line,
				fmt.Sprintf("the heading \"%s\" has no entries under it", secrets.Clip(h.Text, 60)),
				"Add entries under it, or remove the heading: it costs a line of the 200-line budget.")
		}
	}
}

// HasContent reports whether lines [from, to) of ix hold an entry or real text;
// blank lines, comments, rules and a single short placeholder ("none yet")
// do not count.
func HasContent(ix *memindex.Index, from, to int) bool {
	prose := 0
	for n := from; n < to; n++ {
		l := ix.Line(n)
		switch l.Kind {
		case memindex.LineEntry, memindex.LineContinuation, memindex.LineCode:
			return true
		case memindex.LineProse:
			prose++
			if prose > 1 || utf8.RuneCountInString(strings.TrimSpace(l.Text)) > indexPlaceholder {
				return true
			}
		}
	}
	return false
}

// ---- orphans ----

// checkOrphans reports topic files nothing in the index reaches.
func (c *IndexView) checkOrphans() {
	reached := c.reached()
	note := c.s.mode().indexNote()
	for _, f := range c.s.files {
		if IndexExempt(f.f) || reached[f] {
			continue
		}
		c.s.report(RuleMemoryOrphan, f.f.Path, 0,
			fmt.Sprintf("%s is not referenced from MEMORY.md (no link, backticked file name or [[wikilink]] to it), so Claude Code never loads it at session start%s", f.f.Path, note),
			ixOrphanSuggestion(f))
	}
}

// ixOrphanSuggestion proposes the index line for an orphan, from its
// frontmatter when it has one.
func ixOrphanSuggestion(f *CheckedFile) string {
	title := f.doc.FM.Name
	if title == "" {
		title = strings.TrimSuffix(path.Base(f.f.Path), path.Ext(f.f.Path))
	}
	hook := f.doc.FM.Description
	if hook == "" {
		hook = "one-line hook"
	}
	return fmt.Sprintf("Add a line to MEMORY.md, - %s — %s, or delete the file if the memory is obsolete.", memindex.Link(title, f.f.Path), secrets.Clip(hook, 100))
}

// reached returns the topic files the index references, following overflow
// indexes (a linked file that is mostly references, such as
// MEMORY-archive.md) to what they reference in turn. Telling an overflow
// index from a memory means scanning the file, so the walk stops once every
// file the orphan rule judges (all but the exempt ones) is reached: no
// overflow index could change its findings then.
func (c *IndexView) reached() map[*CheckedFile]bool {
	// Sized for every file, since nearly all are reached; each is queued
	// at most once.
	seen := make(map[*CheckedFile]bool, len(c.s.files))
	queue := make([]*CheckedFile, 0, len(c.s.files))
	left := 0 // files not exempt and not reached yet
	for _, f := range c.s.files {
		if !IndexExempt(f.f) {
			left++
		}
	}
	mark := func(f *CheckedFile) {
		if f != nil && !seen[f] {
			seen[f] = true
			queue = append(queue, f)
			if !IndexExempt(f.f) {
				left--
			}
		}
	}
	c.collect(c.ix, "", mark)
	for i := 0; i < len(queue) && left > 0; i++ {
		if f := queue[i]; IsOverflowIndex(f) {
			sub := memindex.ParseText(f.text)
			c.collect(&sub, path.Dir(f.f.Path), mark)
		}
	}
	return seen
}

// collect marks every file the index's references reach. base is the
// directory of the index within the memory dir: links in an overflow index
// are relative to it, though some are written from the root, so both are
// tried.
func (c *IndexView) collect(ix *memindex.Index, base string, mark func(*CheckedFile)) {
	for i := range ix.Lines {
		for k, r := range ix.Lines[i].Refs {
			if r.Kind == memindex.RefWiki {
				for _, f := range c.wikiFiles(r.Target) {
					mark(f)
				}
				continue
			}
			if ix == c.ix {
				mark(c.LineFiles(i)[k]) // the index's own, resolved already
				continue
			}
			if base != "" && base != "." && r.Scope == memindex.RefFile {
				if f := c.lookup(path.Join(base, r.Target)); f != nil {
					mark(f)
					continue
				}
			}
			mark(c.refFile(r))
		}
	}
}

// IsOverflowIndex reports a topic file that works as an index: named like
// one (MEMORY-archive.md, index.md) and holding references, or mostly
// reference lines (".md" or "[[" on at least half its non-blank lines).
//
// It runs on every file the index reaches, so it is built to cost almost
// nothing on an ordinary memory: the lines holding references are found by
// searching the whole body for the two markers (most bodies have none, and
// are then rejected after one fast scan each), and the non-blank lines are
// counted only when the answer still depends on them.
func IsOverflowIndex(f *CheckedFile) bool {
	body := f.doc.Body(f.f.Content)
	refs := ixRefLines(body)
	if refs == 0 {
		return false
	}
	base := strings.ToLower(path.Base(f.f.Path))
	if strings.HasPrefix(base, "memory-") || strings.HasPrefix(base, "memory_") || strings.Contains(base, "index") || strings.Contains(base, "archive") {
		return true
	}
	if refs < 2 {
		return false
	}
	// Mostly references: 2*refs >= text, where every reference line is a
	// non-blank line too. Stop as soon as the text lines outnumber that.
	text := 0
	for rest := body; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if text++; text > 2*refs {
			return false
		}
	}
	return true
}

// ixRefLines counts the lines of b that hold ".md" or "[[". Neither marker
// spans a newline, so each search resumes after the line of the last hit,
// and a marker found further on is kept rather than searched for again:
// the whole count is linear in len(b).
func ixRefLines(b []byte) int {
	md, wiki := ixIndexFrom(b, 0, ".md"), ixIndexFrom(b, 0, "[[")
	n := 0
	for {
		i := min(md, wiki)
		if i == len(b) {
			return n
		}
		n++
		end := len(b)
		if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
			end = i + j + 1
		}
		if md < end {
			md = ixIndexFrom(b, end, ".md")
		}
		if wiki < end {
			wiki = ixIndexFrom(b, end, "[[")
		}
	}
}

// ixIndexFrom returns the offset of the first sep in b at or after from, or
// len(b) when there is none.
func ixIndexFrom(b []byte, from int, sep string) int {
	if i := bytes.Index(b[from:], []byte(sep)); i >= 0 {
		return from + i
	}
	return len(b)
}

// ---- small helpers ----

func ixContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func ixContainsFile(list []*CheckedFile, f *CheckedFile) bool {
	for _, x := range list {
		if x == f {
			return true
		}
	}
	return false
}

// ixSubtract returns the sorted a without the sorted b.
func ixSubtract(a, b []int) []int {
	var out []int
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}

// ixRuneCount is utf8.RuneCountInString(s), with ASCII counted eight bytes
// at a time: the long entries it measures are nearly all ASCII.
func ixRuneCount(s string) int {
	n, i := 0, 0
	for i < len(s) {
		if i+8 <= len(s) {
			if w := s[i : i+8]; w[0]|w[1]|w[2]|w[3]|w[4]|w[5]|w[6]|w[7] < utf8.RuneSelf {
				n, i = n+8, i+8
				continue
			}
		}
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRuneInString(s[i:]) // an invalid byte is one rune, as in RuneCountInString
			i += size
		}
		n++
	}
	return n
}

// Plural renders "1 line", "3 lines", "2 entries".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case strings.HasSuffix(noun, "y"):
		noun = strings.TrimSuffix(noun, "y") + "ies"
	default:
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}

// Thousands renders n with comma separators.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// CheckIndex runs the index rules over d, whose Index is the MEMORY.md to
// check, and returns their findings and a view of that index with its
// references resolved to d's files. Dream's reindex proposer checks each
// index it writes with it. opts are used as given (see Options.WithDefaults).
func CheckIndex(p *model.Project, d *model.MemoryDir, opts Options) ([]model.Finding, *IndexView) {
	ds := newDirState(p, d, opts)
	checkIndex(ds)
	ix := memindex.Parse(d.Index.Content)
	c := &IndexView{s: ds, ix: &ix, path: "MEMORY.md", lowPath: "memory.md"}
	c.resolve()
	return ds.findings, c
}

// Index is the index the view reads.
func (c *IndexView) Index() *memindex.Index { return c.ix }

// Files are the directory's topic files, sorted by path.
func (c *IndexView) Files() []*CheckedFile { return c.s.files }

// File is the topic file at path p exactly, nil when there is none.
func (c *IndexView) File(p string) *CheckedFile { return c.s.byPath[p] }
