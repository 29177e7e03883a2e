package consolidate

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// Thresholds of the index rules that are memtui's own (the load caps are
// Claude Code's, in model).
const (
	indexEntryMaxChars  = 150 // the prompt's "under ~150 characters" per entry
	indexProseRun       = 3   // this many reference-less text lines in a row are content
	indexProseLineChars = 200 // a reference-less line this long is content
	indexPlaceholder    = 40  // a lone line this short under a heading is a placeholder ("none yet")
	indexNameList       = 5   // entries named in a message before "and N more"
	indexEchoShare      = 0.9 // share of words a hook must share with the description to echo it
)

// checkIndex runs the MEMORY.md rules over one directory: the load caps as
// Claude Code applies them, the entries, the references, and the topic
// files the index never reaches.
func checkIndex(s *dirState) {
	if s.index == nil {
		checkIndexMissing(s)
		return
	}
	ix := model.ParseIndex(s.index.f.Content)
	ld := model.SimulateLoad(s.index.f.Content)
	c := &indexChecker{s: s, ix: &ix, path: s.index.f.Path}
	if s.index.f.Truncated {
		c.atLeast = "at least "
	}
	c.checkCaps(&ld)
	c.checkEntries()
	c.checkRefs()
	c.checkNotPointer()
	c.checkEmptySections()
	c.checkOrphans()
}

// indexChecker carries one index through the rules, with lookups built on
// first use.
type indexChecker struct {
	s       *dirState
	ix      *model.Index
	path    string // the index's path, "MEMORY.md"
	atLeast string // "at least " when the reader kept only part of the file

	lower    map[string]*fileState   // lower-cased path → file
	base     map[string]string       // lower-cased base name → a path with it
	wiki     map[string][]*fileState // lower-cased name, stem and extension-less path → files
	problems map[string]bool         // lower-cased paths the reader found but could not read
}

// indexExempt reports files that are not meant to be indexed: daily logs
// and session notes, which Dream reads directly.
func indexExempt(p string) bool {
	return strings.HasPrefix(p, "logs/") || strings.HasPrefix(p, "sessions/")
}

// checkIndexMissing reports a directory with topic files and no MEMORY.md.
func checkIndexMissing(s *dirState) {
	n := 0
	for _, f := range s.files {
		if !indexExempt(f.f.Path) {
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
	s.report(RuleIndexMissing, "", 0,
		fmt.Sprintf("the memory directory has %s but no MEMORY.md, so Claude Code loads none of them at session start", ixPlural(n, "topic file")),
		"Create MEMORY.md with one line per memory, - [Title](file.md) — one-line hook (memtui dream proposes one).")
}

// ---- load caps ----

// checkCaps reports an index Claude Code cuts, or one close to being cut.
func (c *indexChecker) checkCaps(ld *model.Load) {
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

// overLines reports the 200-line cut and names what falls after it.
func (c *indexChecker) overLines(ld *model.Load) {
	cut := ixSubtract(ld.Dropped, ld.DroppedBySize)
	line := ld.LastLine + 1
	if len(cut) > 0 {
		line = cut[0]
	}
	c.s.report(RuleIndexOverLines, c.path, line,
		fmt.Sprintf("MEMORY.md is %s%d lines as Claude Code loads it, over its %d-line cap: nothing after line %d reaches the agent, which drops %s",
			c.atLeast, ld.LineCount, model.IndexMaxLines, ld.LastLine, c.describeDropped(cut)),
		fmt.Sprintf("Compact the index under %d lines: merge or delete stale entries, keep each entry on one line, or move older entries into a linked archive index such as MEMORY-archive.md.", model.IndexTargetLines))
}

// overSize reports the 25,000-unit cut and names what falls after it.
func (c *indexChecker) overSize(ld *model.Load) {
	size := fmt.Sprintf("%s%s (%s UTF-16 units) as Claude Code loads it, over its %s-unit cap",
		c.atLeast, model.FormatFileSize(ld.Units), ixThousands(ld.Units), ixThousands(model.IndexMaxUnits))
	sugg := fmt.Sprintf("Shorten entries to one line under ~%d characters and move detail into topic files; aim for under %s units (%s).",
		indexEntryMaxChars, ixThousands(model.IndexTargetUnits), model.FormatFileSize(model.IndexTargetUnits))
	if len(ld.DroppedBySize) == 0 && !ld.LastLineCut {
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
	c.s.report(RuleIndexOverSize, c.path, line,
		fmt.Sprintf("MEMORY.md is %s: %s, which drops %s", size, where, c.describeDropped(ld.DroppedBySize)), sugg)
}

// nearLimit reports an index at 80% or more of a cap.
func (c *indexChecker) nearLimit(ld *model.Load) {
	var used, todo []string
	if ld.LineCount >= model.IndexNearLines {
		used = append(used, fmt.Sprintf("%d of %d lines (%d%%)", ld.LineCount, model.IndexMaxLines, int(ld.LinePercent())))
		todo = append(todo, fmt.Sprintf("remove at least %s to get to %d", ixPlural(ld.LinesOverTarget(), "line"), model.IndexTargetLines))
	}
	if ld.Units >= model.IndexNearUnits {
		used = append(used, fmt.Sprintf("%s of %s UTF-16 units (%d%%)", ixThousands(ld.Units), ixThousands(model.IndexMaxUnits), int(ld.UnitPercent())))
		todo = append(todo, fmt.Sprintf("cut about %s units to get to %s", ixThousands(ld.UnitsOverTarget()), ixThousands(model.IndexTargetUnits)))
	}
	c.s.report(RuleIndexNearLimit, c.path, 0,
		fmt.Sprintf("MEMORY.md uses %s as Claude Code loads it; from 80%% Claude Code nudges the agent to compact it, and past 100%% the last entries are silently cut",
			strings.Join(used, " and ")),
		"Compact it under 70%: "+strings.Join(todo, ", and ")+". Merge related entries, shorten hooks, or move old entries into a linked MEMORY-archive.md.")
}

// describeDropped names the entries on the given lines: the first few by
// title and line, then a count.
func (c *indexChecker) describeDropped(lines []int) string {
	var names []string
	for _, n := range lines {
		if e := c.ix.EntryAt(n); e != nil && e.Line == n {
			names = append(names, fmt.Sprintf("%q (line %d)", ixClip(e.Name(), 60), n))
		}
	}
	switch {
	case len(names) == 0:
		return ixPlural(len(lines), "line") + " of text (no entries)"
	case len(names) > indexNameList:
		return fmt.Sprintf("%s: %s and %d more", ixPlural(len(names), "entry"), strings.Join(names[:indexNameList], ", "), len(names)-indexNameList)
	}
	return ixPlural(len(names), "entry") + ": " + strings.Join(names, ", ")
}

// ---- entries ----

// checkEntries runs the per-entry rules: length, hanging lines,
// duplicates and hooks that echo the description.
func (c *indexChecker) checkEntries() {
	first := map[string]int{}
	for i := range c.ix.Entries {
		e := &c.ix.Entries[i]
		c.entryTooLong(e)
		c.entryMultiline(e)
		c.duplicate(e, first)
		c.hookEcho(e)
	}
}

// entryTooLong reports an entry line over ~150 characters.
func (c *indexChecker) entryTooLong(e *model.Entry) {
	n := utf8.RuneCountInString(e.Raw)
	if n <= indexEntryMaxChars {
		return
	}
	c.s.report(RuleIndexEntryTooLong, c.path, e.Line,
		fmt.Sprintf("the entry for %q is %d characters long; Claude Code asks for one line under ~%d, and long entries eat the 25,000-unit cap", ixClip(e.Name(), 60), n, indexEntryMaxChars),
		fmt.Sprintf("Cut the hook to a few words that say when %s matters; the detail belongs in the topic file.", c.targetName(e)))
}

// entryMultiline reports indented lines hanging under an entry.
func (c *indexChecker) entryMultiline(e *model.Entry) {
	n := len(e.Continuations)
	if n == 0 {
		return
	}
	span := fmt.Sprintf("line %d", e.Continuations[0])
	if n > 1 {
		span = fmt.Sprintf("lines %d-%d", e.Continuations[0], e.Continuations[n-1])
	}
	c.s.report(RuleIndexEntryMultiline, c.path, e.Line,
		fmt.Sprintf("the entry for %q has %s hanging under it (%s); each counts against Claude Code's 200-line cap", ixClip(e.Name(), 60), ixPlural(n, "indented line"), span),
		fmt.Sprintf("Move the detail into %s and keep the entry on one line.", c.targetName(e)))
}

// duplicate reports a list or table entry whose main target an earlier
// entry already points at.
func (c *indexChecker) duplicate(e *model.Entry, first map[string]int) {
	if e.Form == model.EntryProse {
		return // prose mentions a memory as often as it likes
	}
	r, ok := e.Primary()
	if !ok || r.Scope != model.RefFile {
		return
	}
	key := "f:" + r.Target
	if r.Kind == model.RefWiki {
		key = "w:" + strings.ToLower(strings.TrimSuffix(r.Target, ".md"))
	} else if fs := c.lookup(r.Target); fs != nil {
		key = "f:" + fs.f.Path
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
func (c *indexChecker) hookEcho(e *model.Entry) {
	if e.Form == model.EntryProse || e.Hook == "" {
		return
	}
	r, ok := e.Primary()
	if !ok {
		return
	}
	fs := c.refFile(r)
	if fs == nil || fs.doc.FM.Description == "" || !ixEchoes(e.Hook, fs.doc.FM.Description) {
		return
	}
	c.s.report(RuleHookEchoes, c.path, e.Line,
		fmt.Sprintf("the hook for %q only repeats the description in %s (%q)", ixClip(e.Name(), 60), fs.f.Path, ixClip(fs.doc.FM.Description, 80)),
		"Make the hook add what the description lacks (when to reach for this memory, the one fact that matters), or drop the hook and keep the title short.")
}

// ixEchoes reports whether hook and desc say the same words: equal after
// normalising case, punctuation and spacing, or one containing the other
// with at least 90% of its words.
func ixEchoes(hook, desc string) bool {
	a, b := ixWords(hook), ixWords(desc)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if float64(len(a)) < indexEchoShare*float64(len(b)) {
		return false
	}
	return strings.Contains(" "+strings.Join(b, " ")+" ", " "+strings.Join(a, " ")+" ")
}

// ixWords lower-cases s and splits it into runs of letters and digits.
func ixWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// targetName is the file an entry points at, for suggestions.
func (c *indexChecker) targetName(e *model.Entry) string {
	if r, ok := e.Primary(); ok {
		if fs := c.refFile(r); fs != nil {
			return fs.f.Path
		}
		return r.Target
	}
	return "its topic file"
}

// ---- references ----

// checkRefs reports links and backticked names whose target is missing or
// outside the memory directory. Wikilinks may name memories not written
// yet, so they are left to wikilink-broken.
func (c *indexChecker) checkRefs() {
	for i := range c.ix.Lines {
		l := &c.ix.Lines[i]
		var done []string
		for _, r := range l.Refs {
			if r.Kind == model.RefWiki || r.Scope == model.RefExternal || ixContains(done, r.Target) {
				continue
			}
			done = append(done, r.Target)
			target := r.Target
			if r.Scope == model.RefOutside {
				rel, ok := c.inside(target)
				if !ok {
					c.reportOutside(l.Num, r)
					continue
				}
				target = rel
			}
			if c.missing(target) {
				c.reportBroken(l.Num, r, target)
			}
		}
	}
}

// reportOutside reports a reference that leaves the memory directory.
func (c *indexChecker) reportOutside(line int, r model.Ref) {
	c.s.report(RuleIndexLinkOutside, c.path, line,
		fmt.Sprintf("%s points outside the memory directory (%s); Claude Code treats only files inside it as memories", ixClip(r.Raw, 80), r.Target),
		"Move the file into the memory directory and link it by a relative path, or drop the link if it is not a memory.")
}

// reportBroken reports a reference to a file that does not exist, naming a
// file of the same name elsewhere when there is one.
func (c *indexChecker) reportBroken(line int, r model.Ref, target string) {
	sugg := "Remove the entry, or restore the file it names."
	if alt := c.similar(target); alt != "" {
		sugg = fmt.Sprintf("Point it at %s, which exists, or remove the entry if the memory is gone.", alt)
	}
	c.s.report(RuleIndexBrokenLink, c.path, line,
		fmt.Sprintf("%s points at %s, which does not exist in the memory directory", ixClip(r.Raw, 80), target), sugg)
}

// inside maps an absolute target under the memory directory to a relative
// path.
func (c *indexChecker) inside(target string) (string, bool) {
	dir := strings.TrimSuffix(strings.ReplaceAll(c.s.dir.Path, "\\", "/"), "/")
	if dir == "" || !strings.HasPrefix(target, dir+"/") {
		return "", false
	}
	return target[len(dir)+1:], true
}

// missing reports a target that certainly does not exist: a *.md path that
// is neither a topic file (matched case-insensitively, as on macOS and
// Windows), nor the index, nor a path the reader found but could not read.
// Other targets (directories, non-markdown files, team/, nested MEMORY.md)
// cannot be checked from the data at hand and are never reported.
func (c *indexChecker) missing(target string) bool {
	low := strings.ToLower(target)
	switch {
	case !strings.HasSuffix(low, ".md"),
		low == strings.ToLower(c.path),
		path.Base(low) == "memory.md",
		low == "team" || strings.HasPrefix(low, "team/"):
		return false
	}
	if c.lookup(target) != nil {
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

// lookup finds a topic file by path, exactly or ignoring case.
func (c *indexChecker) lookup(p string) *fileState {
	if fs := c.s.byPath[p]; fs != nil {
		return fs
	}
	if c.lower == nil {
		c.lower = make(map[string]*fileState, len(c.s.files))
		for _, f := range c.s.files {
			c.lower[strings.ToLower(f.f.Path)] = f
		}
	}
	return c.lower[strings.ToLower(p)]
}

// similar finds a file with the same base name as a missing target.
func (c *indexChecker) similar(target string) string {
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
func (c *indexChecker) refFile(r model.Ref) *fileState {
	switch {
	case r.Kind == model.RefWiki:
		if fs := c.wikiFiles(r.Target); len(fs) > 0 {
			return fs[0]
		}
	case r.Scope == model.RefFile:
		return c.lookup(r.Target)
	case r.Scope == model.RefOutside:
		if rel, ok := c.inside(r.Target); ok {
			return c.lookup(rel)
		}
	}
	return nil
}

// wikiFiles finds the memories a [[name]] means: by frontmatter name, file
// stem, or path without ".md", ignoring case.
func (c *indexChecker) wikiFiles(name string) []*fileState {
	if c.wiki == nil {
		c.wiki = map[string][]*fileState{}
		add := func(k string, f *fileState) {
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
// code, runs of reference-less text, and long reference-less lines. It
// reports once per block, at its first line.
func (c *indexChecker) checkNotPointer() {
	ls := c.ix.Lines
	for i := 0; i < len(ls); {
		kind := ls[i].Kind
		if kind != model.LineCode && kind != model.LineProse {
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

// notPointerBlock judges one run of code or prose lines.
func (c *indexChecker) notPointerBlock(run []model.Line) {
	a, b := run[0].Num, run[len(run)-1].Num
	sugg := "Move it into a topic file with frontmatter and leave a one-line pointer here, - [Title](file.md) — hook; Claude Code's own prompt says never to write memory content into MEMORY.md."
	switch {
	case run[0].Kind == model.LineCode:
		c.s.report(RuleIndexNotPointer, c.path, a,
			fmt.Sprintf("a fenced code block (lines %d-%d) is memory content written into the index", a, b), sugg)
	case len(run) >= indexProseRun:
		c.s.report(RuleIndexNotPointer, c.path, a,
			fmt.Sprintf("%d lines of text with no link to a topic file (lines %d-%d) are memory content written into the index", len(run), a, b), sugg)
	default:
		for _, l := range run {
			if n := utf8.RuneCountInString(l.Text); n > indexProseLineChars {
				c.s.report(RuleIndexNotPointer, c.path, l.Num,
					fmt.Sprintf("a %d-character line with no link to a topic file is memory content written into the index", n), sugg)
				return
			}
		}
	}
}

// checkEmptySections reports headings with no entry under them, sub-sections
// included. The document title (the only level-1 heading, first) is not a
// section.
func (c *indexChecker) checkEmptySections() {
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
		if !c.hasContent(h.Line+1, end) {
			c.s.report(RuleIndexEmptySection, c.path, h.Line,
				fmt.Sprintf("the heading %q has no entries under it", ixClip(h.Text, 60)),
				"Add entries under it, or remove the heading: it costs a line of the 200-line budget.")
		}
	}
}

// hasContent reports whether lines [from, to) hold an entry or real text;
// blank lines, comments, rules and a single short placeholder ("none yet")
// do not count.
func (c *indexChecker) hasContent(from, to int) bool {
	prose := 0
	for n := from; n < to; n++ {
		l := c.ix.Line(n)
		switch l.Kind {
		case model.LineEntry, model.LineContinuation, model.LineCode:
			return true
		case model.LineProse:
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
func (c *indexChecker) checkOrphans() {
	reached := c.reached()
	for _, f := range c.s.files {
		if indexExempt(f.f.Path) || reached[f] {
			continue
		}
		c.s.report(RuleMemoryOrphan, f.f.Path, 0,
			fmt.Sprintf("%s is not referenced from MEMORY.md (no link, backticked file name or [[wikilink]] to it), so Claude Code never loads it at session start", f.f.Path),
			ixOrphanSuggestion(f))
	}
}

// ixOrphanSuggestion proposes the index line for an orphan, from its
// frontmatter when it has one.
func ixOrphanSuggestion(f *fileState) string {
	title := f.doc.FM.Name
	if title == "" {
		title = strings.TrimSuffix(path.Base(f.f.Path), path.Ext(f.f.Path))
	}
	hook := f.doc.FM.Description
	if hook == "" {
		hook = "one-line hook"
	}
	link := f.f.Path
	if strings.ContainsAny(link, " ()") {
		link = "<" + link + ">"
	}
	return fmt.Sprintf("Add a line to MEMORY.md, - [%s](%s) — %s, or delete the file if the memory is obsolete.", title, link, ixClip(hook, 100))
}

// reached returns the topic files the index references, following overflow
// indexes (a linked file that is mostly references, such as
// MEMORY-archive.md) to what they reference in turn.
func (c *indexChecker) reached() map[*fileState]bool {
	seen := map[*fileState]bool{}
	var queue []*fileState
	mark := func(f *fileState) {
		if f != nil && !seen[f] {
			seen[f] = true
			queue = append(queue, f)
		}
	}
	c.collect(c.ix, "", mark)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if ixOverflowIndex(f) {
			sub := model.ParseIndex(f.f.Content)
			c.collect(&sub, path.Dir(f.f.Path), mark)
		}
	}
	return seen
}

// collect marks every file the index's references reach. base is the
// directory of the index within the memory dir: links in an overflow index
// are relative to it, though some are written from the root, so both are
// tried.
func (c *indexChecker) collect(ix *model.Index, base string, mark func(*fileState)) {
	for i := range ix.Lines {
		for _, r := range ix.Lines[i].Refs {
			if r.Kind == model.RefWiki {
				for _, f := range c.wikiFiles(r.Target) {
					mark(f)
				}
				continue
			}
			if base != "" && base != "." && r.Scope == model.RefFile {
				if f := c.lookup(path.Join(base, r.Target)); f != nil {
					mark(f)
					continue
				}
			}
			mark(c.refFile(r))
		}
	}
}

// ixOverflowIndex reports a topic file that works as an index: named like
// one (MEMORY-archive.md, index.md) and holding references, or mostly
// reference lines. A cheap byte scan decides before any parsing.
func ixOverflowIndex(f *fileState) bool {
	refs, text := 0, 0
	for rest := f.doc.Body(f.f.Content); len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		text++
		if bytes.Contains(line, []byte(".md")) || bytes.Contains(line, []byte("[[")) {
			refs++
		}
	}
	base := strings.ToLower(path.Base(f.f.Path))
	named := strings.HasPrefix(base, "memory-") || strings.HasPrefix(base, "memory_") || strings.Contains(base, "index") || strings.Contains(base, "archive")
	return (named && refs > 0) || (refs >= 2 && 2*refs >= text)
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

func ixContainsFile(list []*fileState, f *fileState) bool {
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

// ixPlural renders "1 line", "3 lines", "2 entries".
func ixPlural(n int, noun string) string {
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

// ixThousands renders n with comma separators.
func ixThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// ixClip shortens s to at most n characters, marking the cut.
func ixClip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
