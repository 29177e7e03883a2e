package dream

// Merge proposals: fold each group of near-duplicate memories that lint
// reports (duplicate-memory) into its oldest member.
//
// What merges. Only the groups behind duplicate-memory findings, and of
// each group only the members that carry one: a member silenced with
// <!-- memtui-ignore duplicate-memory --> (or a project-wide ignore) stays
// as it is. name-duplicate alone never merges: two memories that share a
// name but say different things (a pool-settings note and a bastion-tools
// note both named "db-notes") need a rename, not a merge; when their bodies
// (or names and descriptions) are near-duplicates too, similar.Find
// groups them and lint reports duplicate-memory, so they merge through
// that, and the proposal lists the name-duplicate finding it resolves.
//
// What a proposal does, as one transaction over one directory:
//   - the survivor is the group's oldest member (metadata.modified, else
//     mtime; ties by path), as lint names it: it has the history. It keeps
//     its frontmatter byte for byte (its name, type and originSessionId,
//     which is never rewritten) except metadata.modified, stamped with Now,
//     and an empty description, filled from the first other member that
//     has one;
//   - its body is kept as written, then each other member (oldest first)
//     adds the paragraphs the survivor lacks under a line "From x.md
//     (merged YYYY-MM-DD):", so that a dated series keeps its dates and a
//     reader sees where the text came from. A paragraph is already there
//     when its whitespace-normalised text is, or when every one of its lines
//     is; of a flat list only the items not already there are added. No
//     line of any member is lost;
//   - the other members are deleted;
//   - MEMORY.md keeps one entry for the survivor: its own first entry, or,
//     when it had none, the first entry of a deleted member, repointed;
//     the other entries of the group go, with their continuation lines (an
//     entry that also points at a memory outside the group is repointed
//     instead, so that memory keeps its pointer). Every other reference to
//     a deleted file is repointed to the survivor: no link breaks;
//   - every [[wikilink]] in the directory that named a deleted memory (and
//     would name nothing once it is gone) names the survivor instead.
//
// The same tree always gives the same bytes: groups, members, paragraphs
// and files are all walked in a fixed order.

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// proposeMerges folds near-duplicate memories into one file.
func proposeMerges(s *dreamState) []model.Proposal {
	finds := s.byRule[consolidate.RuleDuplicateMemory]
	if len(finds) == 0 {
		return nil
	}
	flagged := map[string][]model.Finding{}
	for _, f := range finds {
		flagged[f.File] = append(flagged[f.File], f)
	}
	// The groups are lint's: the same items, through the same finder. The
	// findings only say which members lint still reports.
	items := make([]similar.Item, 0, len(s.d.Files))
	for _, f := range s.d.Files {
		if consolidate.DupSkipped(f) || s.opaque(f.Path) {
			continue
		}
		doc := s.docs[f.Path]
		items = append(items, consolidate.DupItem(f, &doc, string(doc.Body(f.Content))))
	}
	var out []model.Proposal
	for _, g := range similar.Find(items) {
		if len(g.Paths) > similar.MaxGroup {
			continue // (similar.Find never makes one; a merge that large is not reviewable)
		}
		var drop []string
		for _, p := range g.Paths[1:] {
			if len(flagged[p]) > 0 {
				drop = append(drop, p)
			}
		}
		if len(drop) == 0 {
			continue
		}
		if p, ok := s.mergeGroup(g, drop, flagged); ok {
			out = append(out, p)
		}
	}
	return out
}

// mergeable reports whether a member's bytes can be merged safely.
func (s *dreamState) mergeable(p string) bool {
	f := s.files[p]
	if f == nil || f.Truncated || s.opaque(p) {
		// Only part of the file was read: deleting it, or writing it back
		// with text appended, would lose the rest. A file that is not
		// text is left for a person (see opaque).
		return false
	}
	switch s.docs[p].Status {
	case model.FMOK, model.FMTolerant, model.FMNone:
		return true
	}
	// Invalid or unclosed frontmatter has no reliable end, so the body
	// cannot be told from the header; text before the fence would be lost
	// or misplaced. The fix-frontmatter proposal comes first; the next run
	// merges.
	return false
}

// mergeGroup builds the proposal for one group; ok is false when the group
// cannot be merged safely.
func (s *dreamState) mergeGroup(g similar.Group, drop []string, flagged map[string][]model.Finding) (model.Proposal, bool) {
	keep := g.Paths[0]
	for _, p := range append([]string{keep}, drop...) {
		if !s.mergeable(p) {
			return model.Proposal{}, false
		}
	}
	if s.d.Index != nil && s.d.Index.Truncated {
		// The unread rest of MEMORY.md may point at a deleted file.
		return model.Proposal{}, false
	}
	dropped := map[string]bool{}
	for _, p := range drop {
		dropped[p] = true
	}
	// The other members, oldest first, so their text follows in the order
	// it was written (a dated series reads in date order).
	others := slices.Clone(drop)
	slices.SortStableFunc(others, func(a, b string) int {
		if c := s.modTime(a).Compare(s.modTime(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	links := s.newLinkMap(keep, dropped)

	// The survivor.
	kf, kdoc := s.files[keep], s.docs[keep]
	nl := model.EOL(kf.Content)
	var srcs []mergeSource
	for _, p := range others {
		srcs = append(srcs, mergeSource{path: p, body: string(s.docs[p].Body(s.files[p].Content))})
	}
	body, added, contributors := mergeBodies(string(kdoc.Body(kf.Content)), srcs, nl, s.opts.Now)
	var silent []string // members all of whose text the survivor already holds
	for _, p := range others {
		if !slices.Contains(contributors, p) {
			silent = append(silent, p)
		}
	}
	merged := append(slices.Clone(kf.Content[:kdoc.BodyStart]), body...)
	descFrom := ""
	if kdoc.Status != model.FMNone && strings.TrimSpace(kdoc.FM.Description) == "" {
		for _, p := range others {
			if d := strings.TrimSpace(s.docs[p].FM.Description); d != "" {
				if out, ok := setDescription(merged, d); ok {
					merged, descFrom = out, p
				}
				break
			}
		}
	}
	merged, keepLinks := links.repoint(merged)
	if !sameFrontmatter(kf.Content, merged, descFrom != "") {
		return model.Proposal{}, false // appending must never change how the header reads
	}

	var changes []model.Change
	if string(merged) != string(kf.Content) {
		changes = append(changes, s.update(keep, stamp(merged, s.opts.Now)))
	}
	for _, p := range drop {
		changes = append(changes, s.remove(p))
	}
	var relinked []string
	for _, f := range s.d.Files {
		if f.Path == keep || dropped[f.Path] || s.opaque(f.Path) {
			continue // (a [[link]] in a file that is not text stays as it is)
		}
		after, n := links.repoint(f.Content)
		if n == 0 {
			continue
		}
		if f.Truncated {
			// A wikilink in the read part would break, and the file cannot
			// be written back whole.
			return model.Proposal{}, false
		}
		if !sameFrontmatter(f.Content, after, false) {
			return model.Proposal{}, false
		}
		changes = append(changes, s.update(f.Path, stamp(after, s.opts.Now)))
		relinked = append(relinked, f.Path)
	}
	var ixDropped []int
	ixNote := ""
	if s.d.Index != nil {
		after, lines, note := s.mergeIndex(keep, dropped, links)
		if after != nil {
			changes = append(changes, s.update("MEMORY.md", after))
		}
		ixDropped, ixNote = lines, note
	}

	// The findings it fixes: the group's duplicate-memory findings, the
	// index-duplicate-entry findings on the lines it drops, and the
	// name-duplicate findings no longer true once the others are gone.
	var fixes []model.Finding
	for _, p := range drop {
		fixes = append(fixes, flagged[p]...)
	}
	for _, f := range s.byRule[consolidate.RuleIndexDuplicateEntry] {
		if f.File == "MEMORY.md" && slices.Contains(ixDropped, f.Line) {
			fixes = append(fixes, f)
		}
	}
	if nd := s.byRule[consolidate.RuleNameDuplicate]; len(nd) > 0 {
		left := map[string]int{}
		for _, f := range s.d.Files {
			if n := consolidate.NormName(s.docs[f.Path].FM.Name); n != "" && !dropped[f.Path] {
				left[n]++
			}
		}
		for _, f := range nd {
			if dropped[f.File] || f.File != "" && left[consolidate.NormName(s.docs[f.File].FM.Name)] <= 1 {
				fixes = append(fixes, f)
			}
		}
	}
	reads := []string{keep, "MEMORY.md"}
	for _, f := range s.d.Files {
		if !s.opaque(f.Path) {
			reads = append(reads, f.Path) // each was searched for [[links]] to the deleted files
		}
	}

	title := fmt.Sprintf("Merge %s into %s", listNames(drop), keep)
	var why strings.Builder
	fmt.Fprintf(&why, "Lint reports %s as %s of %s (%s). ", listNames(drop), model.Plural(len(drop), "a duplicate", "duplicates"), keep, g.Reason)
	kept := "name and type"
	if kdoc.FM.OriginSessionID != "" {
		kept = "name, type and originSessionId"
	}
	fmt.Fprintf(&why, "%s is kept as the oldest (modified %s): it keeps its %s", keep, s.modTime(keep).UTC().Format("2006-01-02"), kept)
	if descFrom != "" {
		fmt.Fprintf(&why, ", and takes its empty description from %s", descFrom)
	}
	why.WriteString(". ")
	if added > 0 {
		fmt.Fprintf(&why, "What it lacks of %s (%s) is appended, under a line \"From %s (merged %s):\"%s, so no fact is lost. ",
			listNames(contributors), model.Plural(added, "one paragraph", strconv.Itoa(added)+" paragraphs"), contributors[0], s.opts.Now.Format("2006-01-02"),
			model.Plural(len(contributors), "", " and one per other file"))
	}
	if len(silent) > 0 {
		fmt.Fprintf(&why, "Every line of %s is already in it. ", listNames(silent))
	}
	fmt.Fprintf(&why, "Then %s %s deleted", listNames(drop), model.Plural(len(drop), "is", "are"))
	var items []string
	for _, p := range drop {
		if s.docs[p].FM.Item.Present {
			items = append(items, p)
		}
	}
	if len(items) > 0 {
		// Claude Code's record of the item (its id, consent, promotions)
		// cannot be merged faithfully: it goes whole, into the journal.
		its := model.Plural(len(items), "its", "their")
		if len(items) == len(drop) {
			fmt.Fprintf(&why, " with %s metadata.claudeCodeItem, kept whole in memtui's journal", its)
		} else {
			fmt.Fprintf(&why, " (%s with %s metadata.claudeCodeItem, kept whole in memtui's journal)", listNames(items), its)
		}
	}
	if ixNote != "" {
		why.WriteString("; " + ixNote)
	}
	if len(relinked) > 0 || keepLinks > 0 {
		files := slices.Clone(relinked)
		if keepLinks > 0 {
			files = append([]string{keep}, files...)
		}
		fmt.Fprintf(&why, "; [[links]] to the deleted %s in %s now name [[%s]]", model.Plural(len(drop), "memory", "memories"), listNames(files), links.to)
	}
	why.WriteString(".")
	return s.proposal(model.KindMerge, title, why.String(), fixes, changes, reads...), true
}

// modTime is the time lint orders memories by: metadata.modified, else the
// file's mtime.
func (s *dreamState) modTime(p string) time.Time {
	if t := s.docs[p].FM.ModifiedTime; !t.IsZero() {
		return t
	}
	return s.files[p].ModTime
}

// sameFrontmatter reports whether after's header reads as before's does:
// the same status and fields, modified aside, and the description aside
// when it was filled on purpose.
func sameFrontmatter(before, after []byte, descChanged bool) bool {
	a, b := claude.ParseDoc(before), claude.ParseDoc(after)
	if a.Status != b.Status || a.BOM != b.BOM {
		return false
	}
	fa, fb := a.FM, b.FM
	if descChanged {
		fb.Description, fb.HasDesc = fa.Description, fa.HasDesc
	}
	fa.Keys, fb.Keys = nil, nil
	return fmt.Sprint(fa) == fmt.Sprint(fb)
}

// ---- bodies ----------------------------------------------------------------

// mergeSource is a member whose text is merged into the survivor.
type mergeSource struct {
	path, body string
}

// mdBlock is a paragraph (a run of non-blank lines) or a fenced code block,
// its lines without line endings.
type mdBlock struct {
	lines []string
	code  bool
	// open is the fence of a code block the body never closes, "" else.
	open string
}

// mdBlocks cuts a body into blocks. A fence opens a block of its own that
// runs to the closing fence, blank lines included.
func mdBlocks(body string) []mdBlock {
	body = strings.TrimPrefix(body, "\ufeff")
	var out []mdBlock
	var cur *mdBlock
	fence := ""
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSuffix(l, "\r")
		t := strings.TrimLeft(l, " \t")
		if fence != "" {
			cur.lines = append(cur.lines, l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
				fence, cur = "", nil
			}
			continue
		}
		if f := mdFence(t); f != "" {
			out = append(out, mdBlock{lines: []string{l}, code: true})
			cur, fence = &out[len(out)-1], f
			continue
		}
		if strings.TrimSpace(l) == "" {
			cur = nil
			continue
		}
		if cur == nil || cur.code {
			out = append(out, mdBlock{})
			cur = &out[len(out)-1]
		}
		cur.lines = append(cur.lines, l)
	}
	if fence != "" {
		cur.open = fence
		for len(cur.lines) > 1 && strings.TrimSpace(cur.lines[len(cur.lines)-1]) == "" {
			cur.lines = cur.lines[:len(cur.lines)-1]
		}
	}
	return out
}

// mdFence returns the fence a line opens (``` or ~~~, as long as written),
// or "".
func mdFence(t string) string {
	if len(t) < 3 || t[0] != '`' && t[0] != '~' {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && strings.Contains(t[n:], "`") {
		return ""
	}
	return t[:n]
}

// normSpace collapses runs of whitespace: how text is compared.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// listItem matches a one-line list item: its indentation, then the marker.
var listItem = regexp.MustCompile(`^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+\S`)

// flatList reports whether every line of a block is a list item at one
// indentation, so that items can be dropped one by one without leaving a
// line under the wrong item.
func flatList(b mdBlock) bool {
	if b.code {
		return false
	}
	indent := ""
	for i, l := range b.lines {
		m := listItem.FindStringSubmatch(l)
		if m == nil || i > 0 && m[1] != indent {
			return false
		}
		indent = m[1]
	}
	return true
}

// mergePresence is the text the merged body already holds: its blocks and
// its lines, whitespace-normalised.
type mergePresence struct {
	blocks, lines map[string]bool
}

func (m *mergePresence) add(b mdBlock) {
	m.blocks[normSpace(strings.Join(b.lines, "\n"))] = true
	for _, l := range b.lines {
		if n := normSpace(l); n != "" {
			m.lines[n] = true
		}
	}
}

// fresh returns what of b the merged body lacks: nothing when the block or
// each of its lines is there already, the missing items of a flat list,
// else the whole block.
func (m *mergePresence) fresh(b mdBlock) (mdBlock, bool) {
	if m.blocks[normSpace(strings.Join(b.lines, "\n"))] {
		return mdBlock{}, false
	}
	if b.code {
		return b, true
	}
	var missing []string
	for _, l := range b.lines {
		if n := normSpace(l); n != "" && !m.lines[n] {
			missing = append(missing, l)
		}
	}
	switch {
	case len(missing) == 0:
		return mdBlock{}, false
	case flatList(b):
		return mdBlock{lines: missing}, true
	}
	return b, true
}

// mergeBodies appends to the survivor's body the blocks of the others it
// lacks, each file's under a "From x.md (merged DATE):" line, with line
// ending nl. It returns the body, how many blocks were added, and the
// files that added any.
func mergeBodies(keep string, others []mergeSource, nl string, now time.Time) (string, int, []string) {
	have := mergePresence{blocks: map[string]bool{}, lines: map[string]bool{}}
	closeKeep := ""
	for _, b := range mdBlocks(keep) {
		have.add(b)
		closeKeep = b.open
	}
	var tail strings.Builder
	added := 0
	var contributors []string
	for _, o := range others {
		var parts []mdBlock
		for _, b := range mdBlocks(o.body) {
			if f, ok := have.fresh(b); ok {
				parts = append(parts, f)
				have.add(f)
			}
		}
		if len(parts) == 0 {
			continue
		}
		added += len(parts)
		contributors = append(contributors, o.path)
		fmt.Fprintf(&tail, "%sFrom %s (merged %s):%s", nl, o.path, now.Format("2006-01-02"), nl)
		for _, b := range parts {
			tail.WriteString(nl + strings.Join(b.lines, nl) + nl)
			if b.open != "" {
				// Close what the file left open, or the code block would
				// swallow the text that follows.
				tail.WriteString(b.open + nl)
			}
		}
	}
	if added == 0 {
		return keep, 0, nil
	}
	head := strings.TrimRight(keep, " \t\r\n")
	if closeKeep != "" {
		head += nl + closeKeep
	}
	if head == "" {
		// An empty survivor body: the header's closing fence, a blank line,
		// then the merged text (the separator keeps a "---" from landing
		// right under the fence).
		return tail.String(), added, contributors
	}
	return head + nl + tail.String(), added, contributors
}

// setDescription fills an empty description in content's frontmatter: the
// top-level description line gets the value, or one is added after the
// name line. ok is false when the result would not read back as desc.
func setDescription(content []byte, desc string) ([]byte, bool) {
	doc := claude.ParseDoc(content)
	if doc.Status != model.FMOK && doc.Status != model.FMTolerant || doc.BodyStart == 0 {
		return content, false
	}
	nl := model.EOL(content)
	head := string(content[:doc.BodyStart])
	lines := strings.SplitAfter(head, "\n")
	value := yamlScalar(desc)
	set := false
	for i, l := range lines {
		if strings.HasPrefix(l, "description:") {
			lines[i] = "description: " + value + nl
			set = true
			break
		}
	}
	if !set {
		at := 1 // after the opening fence
		for i, l := range lines {
			if strings.HasPrefix(l, "name:") {
				at = i + 1
				break
			}
		}
		if at > len(lines) || doc.Open != 1 || doc.BOM {
			return content, false
		}
		lines = slices.Insert(lines, at, "description: "+value+nl)
	}
	out := append([]byte(strings.Join(lines, "")), content[doc.BodyStart:]...)
	back := claude.ParseDoc(out)
	if back.Status != doc.Status || back.FM.Description != desc {
		return content, false
	}
	return out, true
}

// yamlScalar writes s as a YAML value for a field memtui repairs: plain
// only when it starts with a letter and holds no quote, colon, hash or
// backslash (so that even a tolerant, line-based reader takes it whole), and
// model.YAMLScalar agrees; else double-quoted.
func yamlScalar(s string) string {
	if s != "" && (s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') && !strings.ContainsAny(s, "#:\"'\\") {
		return model.YAMLScalar(s)
	}
	return strconv.Quote(s)
}

// ---- links -----------------------------------------------------------------

// linkMap says which [[names]] lose their memory when the group's other
// members go (or, for an archive, when the archived memories leave the
// scan), and what they name instead.
type linkMap struct {
	gone  map[string]bool // normalised names, stems and paths of the deleted files
	known map[string]bool // the same of every file that stays
	keep  map[string]bool // the same of the survivor
	to    string          // the survivor's name as a wikilink target
	// dest, when set, gives per normalised name what a [[name]] that
	// breaks names instead, in place of to: an archive sends each name
	// to its own memory's new path.
	dest map[string]string
}

// target is what a [[name]] that breaks names instead.
func (m *linkMap) target(name string) string {
	if t, ok := m.dest[consolidate.NormName(name)]; ok {
		return t
	}
	return m.to
}

func (s *dreamState) newLinkMap(keep string, dropped map[string]bool) *linkMap {
	m := &linkMap{gone: map[string]bool{}, known: map[string]bool{}, keep: map[string]bool{}}
	for _, f := range s.d.Files {
		set := m.known
		if dropped[f.Path] {
			set = m.gone
		}
		for _, k := range s.linkKeys(f.Path) {
			if k != "" {
				set[k] = true
				if f.Path == keep {
					m.keep[k] = true
				}
			}
		}
	}
	if keep == "" {
		return m // (an archive: no survivor; dest says where each name goes)
	}
	m.to = strings.TrimSuffix(keep, ".md")
	if n := strings.TrimSpace(s.docs[keep].FM.Name); n != "" && !strings.ContainsAny(n, "[]|#\r\n") {
		m.to = n
	}
	return m
}

// linkKeys are the normalised names a [[wikilink]] may use for the file
// at p: its path without .md, its file name without .md, and its name.
func (s *dreamState) linkKeys(p string) []string {
	stem := strings.TrimSuffix(p, ".md")
	return []string{consolidate.NormName(stem), consolidate.NormName(path.Base(stem)), consolidate.NormName(s.docs[p].FM.Name)}
}

// breaks reports whether a [[name]] would name nothing once the deleted
// files are gone.
func (m *linkMap) breaks(name string) bool {
	n := consolidate.NormName(name)
	return m.gone[n] && !m.known[n]
}

// repoint rewrites, outside code and claudeCodeItem blocks, every [[name]] that breaks to name the
// survivor (alias and #anchor kept), and reports how many it rewrote.
func (m *linkMap) repoint(content []byte) ([]byte, int) {
	text := string(content)
	ws := consolidate.Wikilinks(text)
	items := claude.ItemSpans(content) // a claudeCodeItem block stays as written
	n := 0
	var b strings.Builder
	last := 0
	for _, w := range ws {
		if !m.breaks(w.Name) || claude.InItem(items, w.Off, w.Off+2) {
			continue
		}
		start := w.Off + 2
		inner := text[start : start+strings.Index(text[start:], "]]")]
		if p := strings.IndexAny(inner, "|#"); p >= 0 {
			inner = inner[:p]
		}
		lead := len(inner) - len(strings.TrimLeft(inner, " \t"))
		from := start + lead
		to := from + len(strings.TrimSpace(inner))
		b.WriteString(text[last:from])
		b.WriteString(m.target(w.Name))
		last = to
		n++
	}
	if n == 0 {
		return content, 0
	}
	b.WriteString(text[last:])
	return []byte(b.String()), n
}

// ---- MEMORY.md -------------------------------------------------------------

// mergeIndex rewrites MEMORY.md for the merge through the index editor:
// one entry left for keep, the group's other entries removed (with their
// continuation lines, the blank lines around them closed up as the editor
// does), every other reference to a deleted file repointed as the editor
// writes a link. It returns nil when nothing changes, the 1-based lines
// dropped, and a note for the rationale.
func (s *dreamState) mergeIndex(keep string, dropped map[string]bool, links *linkMap) ([]byte, []int, string) {
	content, ok := s.content("MEMORY.md")
	if !ok {
		return nil, nil, ""
	}
	ed := memindex.NewEditorMode(content, s.d.Kind.LoadMode())
	ix := ed.Index()
	dir := s.slashDir()
	resolve := s.refResolver()
	gone := func(r memindex.Ref) bool {
		if r.Kind == memindex.RefWiki {
			return links.breaks(r.Target)
		}
		return dropped[resolve(r)]
	}
	// member says whether a reference points into the group (and so may
	// go with a dropped entry); other says it points at another memory.
	member := func(r memindex.Ref) (in, other bool) {
		if r.Scope == memindex.RefExternal {
			return false, false
		}
		if r.Kind == memindex.RefWiki {
			n := consolidate.NormName(r.Target)
			if links.gone[n] || links.keep[n] {
				return true, false
			}
			return false, links.known[n]
		}
		p := resolve(r)
		if p == "" {
			return false, false
		}
		return p == keep || dropped[p], !(p == keep || dropped[p])
	}

	// The group's list and table entries, in line order.
	drop := map[int]bool{} // the entries dropped, by index
	kept := -1             // the entry left for keep
	var candidates []int
	for i := range ix.Entries {
		e := &ix.Entries[i]
		r, ok := e.Primary()
		if !ok || e.Form == memindex.EntryProse {
			continue
		}
		if in, _ := member(r); !in {
			continue
		}
		if kept < 0 && (r.Kind == memindex.RefWiki && links.keep[consolidate.NormName(r.Target)] || r.Kind != memindex.RefWiki && resolve(r) == keep) {
			kept = i
		}
		candidates = append(candidates, i)
	}
	if kept < 0 && len(candidates) > 0 {
		kept = candidates[0] // keep had no entry: the first of the others is repointed
	}
	for _, i := range candidates {
		if i == kept {
			continue
		}
		e := &ix.Entries[i]
		lines := append([]int{e.Line}, e.Continuations...)
		mine := true
		for _, n := range lines {
			for _, r := range ix.Line(n).Refs {
				if _, other := member(r); other {
					mine = false
				}
			}
		}
		if !mine {
			continue // it also points elsewhere: repointed below, not dropped
		}
		drop[i] = true
	}
	// Remove the dropped entries' rows (an entry's row holds its
	// continuation lines), then repoint what stays.
	var rows, lines []int
	for ri, row := range ed.Rows() {
		if row.Entry == nil || row.Kind != memindex.LineEntry {
			continue
		}
		for i := range ix.Entries {
			if drop[i] && ix.Entries[i].Line == row.Line {
				rows = append(rows, ri)
				for n := row.Line; n < row.Line+row.Lines; n++ {
					lines = append(lines, n)
				}
			}
		}
	}
	if len(rows) > 0 {
		if err := ed.RemoveRows(rows); err != nil {
			return nil, nil, ""
		}
	}
	repointed, err := ed.Repoint(func(r memindex.Ref) (string, bool) {
		if !gone(r) {
			return "", false
		}
		if r.Kind == memindex.RefWiki {
			return memindex.Retarget(r, links.to, dir)
		}
		return memindex.Retarget(r, keep, dir)
	})
	switch {
	case errors.Is(err, memindex.ErrNoChange) && len(rows) == 0:
		return nil, nil, ""
	case err != nil && !errors.Is(err, memindex.ErrNoChange):
		return nil, nil, "" // a repoint that would hide a reference: MEMORY.md is left alone
	}
	entries := 0
	for _, i := range candidates {
		if !drop[i] {
			entries++
		}
	}
	note := fmt.Sprintf("MEMORY.md keeps %s for %s", model.Plural(entries, "one entry", strconv.Itoa(entries)+" entries"), keep)
	if repointed > 0 {
		note += fmt.Sprintf(" (%s repointed to it)", model.Plural(repointed, "a reference", strconv.Itoa(repointed)+" references"))
	}
	return ed.Bytes(), lines, note
}

// slashDir is the memory dir's path with slashes and no trailing one, as
// a link that names it absolutely starts.
func (s *dreamState) slashDir() string {
	return strings.TrimSuffix(strings.ReplaceAll(s.d.Path, "\\", "/"), "/")
}

// refResolver returns the function that names the topic file a link or a
// code span (of MEMORY.md, or of another file read the same way: relative
// to the memory dir) points at, matched exactly or ignoring case: "" for
// none, for a URL and for a wikilink (those go by name, see linkMap). A
// link that names the memory dir by its absolute path counts.
func (s *dreamState) refResolver() func(memindex.Ref) string {
	lower := map[string]string{}
	for _, f := range s.d.Files {
		lower[strings.ToLower(f.Path)] = f.Path
	}
	dir := s.slashDir()
	return func(r memindex.Ref) string {
		t := r.Target
		switch {
		case r.Kind == memindex.RefWiki || r.Scope == memindex.RefExternal:
			return ""
		case r.Scope == memindex.RefOutside:
			if dir == "" || !strings.HasPrefix(t, dir+"/") {
				return ""
			}
			t = t[len(dir)+1:]
		}
		if _, ok := s.files[t]; ok {
			return t
		}
		return lower[strings.ToLower(t)]
	}
}
