package consolidate

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/memtui/memtui/model"
)

// proposePrunes deletes memories that hold nothing: an empty file, or
// frontmatter with no description and next to no body. Anything that says
// something is left for a person (or a merge); a delete is applied as a
// move into the journal, never an unlink. The index entries that point at
// a pruned file go in the same proposal, so no link is left dangling.
func proposePrunes(s *dreamState) []model.Proposal {
	var out []model.Proposal
	pruned := map[string]bool{}
	for _, f := range s.d.Files {
		if f.Truncated || s.opaque(f.Path) || !isMemory(f) || f.Link != "" {
			continue // a file memtui cannot read whole, or as text, or no memory to Claude Code, is a person's
		}
		doc := s.docs[f.Path]
		var why string
		switch {
		case len(bytes.TrimSpace(f.Content)) == 0:
			why = f.Path + " is empty"
		case (doc.Status == model.FMOK || doc.Status == model.FMTolerant) && strings.TrimSpace(doc.FM.Description) == "" &&
			countWords(doc.Body(f.Content), stubWords) == 0:
			why = f.Path + " has frontmatter but no description and no body"
		default:
			continue
		}
		fixes := s.fileFindings(f.Path, RuleMemoryStub, RuleFrontmatterMissing, RuleFrontmatterIncomplete, RuleMemoryOrphan, RuleTypeMissing)
		changes := []model.Change{s.remove(f.Path)}
		if ix, ok := s.content("MEMORY.md"); ok {
			if after, n := dropEntries(ix, f.Path); n > 0 {
				changes = append(changes, s.update("MEMORY.md", after))
				why += fmt.Sprintf("; its %d index %s go%s with it", n, model.Plural(n, "entry", "entries"), model.Plural(n, "es", ""))
			}
		}
		kept := "It is kept in memtui's journal, so undo brings it back."
		if doc.FM.Item.Present {
			kept = "It is kept in memtui's journal, its metadata.claudeCodeItem with it, so undo brings it back as it was."
		}
		out = append(out, s.proposal(model.KindPrune, "Prune "+f.Path,
			why+". A memory with nothing in it only costs recall and index space. "+kept,
			fixes, changes))
		pruned[f.Path] = true
	}
	return append(out, proposeCapPrunes(s, pruned)...)
}

// dropEntries removes the index lines whose entry points at path, with
// their indented continuation lines; n is how many entries went.
func dropEntries(index []byte, path string) ([]byte, int) {
	ix := model.ParseIndex(index)
	drop := map[int]bool{}
	n := 0
	for i := range ix.Lines {
		e := ix.EntryAt(i + 1)
		if e == nil || e.Line != i+1 {
			continue
		}
		ref, ok := e.Primary()
		if !ok || !ref.IsFile() || ref.Target != path {
			continue
		}
		n++
		drop[e.Line] = true
		for _, l := range e.Continuations {
			drop[l] = true
		}
	}
	if n == 0 {
		return index, 0
	}
	var b bytes.Buffer
	for i, l := range ix.Lines {
		if !drop[i+1] {
			b.WriteString(l.Raw)
			if l.Newline {
				b.WriteByte('\n')
			}
		}
	}
	return b.Bytes(), n
}
