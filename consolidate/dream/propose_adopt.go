package dream

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// Adopt is the proposal that brings a stranded store's memories home
// (one Claude Code never loads; why and evidence say why it belongs to
// live's project): each memory created in the live store with its index
// entry (the stranded index's, else one made from its frontmatter), a
// memory the live store has under the same name merged into it (the
// blocks it lacks appended, as a merge does) or, byte for byte the same,
// simply dropped; and every memory adopted removed from the stranded
// store, its index entries with it (the stranded MEMORY.md goes when
// nothing else is left in it). Both stores change in one linked
// transaction (Proposal.Also). What cannot be carried whole (a file
// reached through a link, read in part, not text, archived) stays where
// it is, and the rationale says so. ok is false when nothing could be
// adopted.
func Adopt(p *model.Project, live, strand *model.MemoryDir, name, reason string, evidence []string, opts Options) (model.Proposal, bool) {
	ls, ss := bareState(p, live, opts), bareState(nil, strand, opts)
	var liveCh, strandCh []model.Change
	var created, merged, same, left []string
	liveIx, hasLiveIx := ls.content(model.IndexFileName)
	if live.Index != nil && !hasLiveIx {
		return model.Proposal{}, false // an index memtui cannot rewrite whole
	}
	ed := memindex.NewEditorMode(liveIx, live.Kind.LoadMode())
	var strandEntries []memindex.Entry
	if b, ok := ss.content(model.IndexFileName); ok {
		strandEntries = memindex.Parse(b).Entries
	}
	files := append([]*model.File(nil), strand.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	var adds []memindex.NewEntry
	for _, f := range files {
		b, ok := ss.content(f.Path)
		switch {
		case f.Link != "" || model.IsArchived(f.Path) || !ok:
			left = append(left, f.Path)
			continue
		}
		if lf := ls.file(f.Path); lf != nil {
			lb, ok := ls.content(f.Path)
			switch {
			case !ok || lf.Link != "":
				left = append(left, f.Path)
				continue
			case bytes.Equal(lb, b):
				same = append(same, f.Path)
			default:
				m, added := mergeInto(lb, b, f.Path+" of the stranded store", opts)
				if added == 0 {
					same = append(same, f.Path)
					break
				}
				liveCh = append(liveCh, ls.update(f.Path, m))
				merged = append(merged, f.Path)
			}
			strandCh = append(strandCh, ss.remove(f.Path))
			continue
		}
		liveCh = append(liveCh, ls.create(f.Path, b))
		strandCh = append(strandCh, ss.remove(f.Path))
		created = append(created, f.Path)
		if ed.FindRow(f.Path) < 0 {
			title, hook := entryFor(f.Path, b, strandEntries)
			adds = append(adds, memindex.NewEntry{Path: f.Path, Title: title, Hook: hook, After: lastEntry(ed)})
		}
	}
	if len(strandCh) == 0 {
		return model.Proposal{}, false
	}
	if len(adds) > 0 {
		if _, err := ed.AddEntries(adds); err == nil {
			if hasLiveIx {
				liveCh = append(liveCh, ls.update(model.IndexFileName, ed.Bytes()))
			} else {
				liveCh = append(liveCh, ls.create(model.IndexFileName, ed.Bytes()))
			}
		}
	}
	// The stranded index loses the entries of what was adopted; with
	// nothing else in it, it goes.
	if b, ok := ss.content(model.IndexFileName); ok {
		sed := memindex.NewEditorMode(b, strand.Kind.LoadMode())
		for _, c := range strandCh {
			sed.RemoveEntries(c.Path)
		}
		rest := memindex.Parse(sed.Bytes())
		if len(rest.Entries) == 0 && onlyHeadings(rest) {
			strandCh = append(strandCh, ss.remove(model.IndexFileName))
		} else if sed.Modified() {
			strandCh = append(strandCh, ss.update(model.IndexFileName, sed.Bytes()))
		}
	} else if strand.Index != nil {
		left = append(left, model.IndexFileName)
	}
	var why strings.Builder
	fmt.Fprintf(&why, "Nothing Claude Code runs loads %s: %s.", strand.Path, strings.TrimSuffix(reason, "."))
	for _, e := range evidence {
		fmt.Fprintf(&why, " %s.", strings.TrimSuffix(e, "."))
	}
	fmt.Fprintf(&why, " Its memories move to %s, which Claude Code loads:", live.Path)
	if len(created) > 0 {
		fmt.Fprintf(&why, " %s created there with %s;", listNames(created), model.Plural(len(created), "its index entry", "their index entries"))
	}
	if len(merged) > 0 {
		fmt.Fprintf(&why, " %s merged into the memory of the same name there (the text it lacks added at its end);", listNames(merged))
	}
	if len(same) > 0 {
		fmt.Fprintf(&why, " %s already there, word for word;", listNames(same))
	}
	why.WriteString(" and each is removed from the stranded store in the same transaction, under both stores' locks: if either store changed, nothing is written in either.")
	if len(left) > 0 {
		fmt.Fprintf(&why, " Left where they are (memtui cannot carry them whole): %s.", listNames(left))
	}
	n := len(created) + len(merged) + len(same)
	if name == "" {
		name = path.Base(path.Dir(strings.TrimSuffix(filepathSlash(strand.Path), "/")))
	}
	title := fmt.Sprintf("Adopt %d %s stranded in the store of %s", n, model.Plural(n, "memory", "memories"), name)
	prop := ls.proposal(model.KindAdopt, title, why.String(), nil, liveCh)
	sort.Slice(strandCh, func(i, j int) bool { return strandCh[i].Path < strandCh[j].Path })
	prop.Also = &model.DirChanges{MemoryDir: strand.Path, Changes: strandCh}
	// The ID covers both stores' changes.
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", prop.ID, dirKey(p, strand))
	for _, c := range strandCh {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.Path, c.Op, c.BaseSHA256, unstamped(c.After))
	}
	prop.ID = string(model.KindAdopt) + "-" + hex.EncodeToString(h.Sum(nil))[:10]
	return prop, true
}

// proposeAdopts is one adopt proposal per stranded store whose memories
// belong in this one (Options.Adopt).
func proposeAdopts(s *dreamState) []model.Proposal {
	var out []model.Proposal
	for _, st := range s.opts.Adopt[s.d.Path] {
		if st.Dir == nil || st.Dir.Path == s.d.Path {
			continue
		}
		if p, ok := Adopt(s.p, s.d, st.Dir, st.Name, st.Reason, st.Evidence, s.opts); ok {
			out = append(out, p)
		}
	}
	return out
}

// bareState is a dreamState for reading files and building changes,
// without the checks (an adopt reads a second store).
func bareState(p *model.Project, d *model.MemoryDir, opts Options) *dreamState {
	s := &dreamState{p: p, d: d, opts: opts, byRule: map[string][]model.Finding{},
		files: make(map[string]*model.File, len(d.Files)), hashes: map[string]string{}, opaqueMemo: map[string]bool{}}
	for _, f := range d.Files {
		s.files[f.Path] = f
	}
	return s
}

// mergeInto appends to the live memory live the blocks of the stranded
// one it lacks, under a line naming where they came from; it returns the
// result and how many blocks were added.
func mergeInto(live, stranded []byte, from string, opts Options) ([]byte, int) {
	nl := "\n"
	if bytes.Contains(live, []byte("\r\n")) {
		nl = "\r\n"
	}
	ld, sd := claude.ParseDoc(live), claude.ParseDoc(stranded)
	head, body := string(live[:ld.BodyStart]), string(live[ld.BodyStart:])
	body2, added, _ := mergeBodies(body, []mergeSource{{path: from, body: string(stranded[sd.BodyStart:])}}, nl, opts.Now)
	return []byte(head + body2), added
}

// entryFor is a created memory's index entry: the stranded index's, else
// its frontmatter's name and description, else its file name.
func entryFor(rel string, content []byte, es []memindex.Entry) (title, hook string) {
	for i := range es {
		if r, ok := es[i].Primary(); ok && r.Target == rel {
			return es[i].Title, es[i].Hook
		}
	}
	doc := claude.ParseDoc(content)
	title, hook = doc.FM.Name, doc.FM.Description
	if title == "" {
		title = strings.TrimSuffix(path.Base(rel), ".md")
	}
	return title, hook
}

// lastEntry is the row of the index's last entry (the new ones go after
// it, not after a code block or a note at the end), else its last row.
func lastEntry(ed *memindex.Editor) int {
	rows := ed.Rows()
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Entry != nil {
			return i
		}
	}
	return ed.Len() - 1
}

// onlyHeadings reports an index with nothing in it but headings and
// blank lines.
func onlyHeadings(ix memindex.Index) bool {
	for _, l := range ix.Lines {
		if l.Kind != memindex.LineBlank && l.Kind != memindex.LineHeading {
			return false
		}
	}
	return true
}

// filepathSlash is p with forward slashes.
func filepathSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }
