package dream

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// proposePrunes deletes memories that hold nothing: an empty file, or
// frontmatter with no description and next to no body. Anything that says
// something is left for a person (or a merge); a delete is applied as a
// move into the journal, never an unlink. The index entries that point at
// a pruned file go in the same proposal, so no link is left dangling.
func proposePrunes(s *dreamState) []model.Proposal {
	var out []model.Proposal
	for _, e := range s.prunes().empty {
		f, why, doc := e.f, e.why, s.docs[e.f.Path]
		fixes := s.fileFindings(f.Path, consolidate.RuleMemoryStub, consolidate.RuleFrontmatterMissing, consolidate.RuleFrontmatterIncomplete, consolidate.RuleMemoryOrphan, consolidate.RuleTypeMissing)
		changes := []model.Change{s.remove(f.Path)}
		if ix, ok := s.content("MEMORY.md"); ok {
			ed := memindex.NewEditorMode(ix, s.d.Kind.LoadMode())
			if n := dropEntries(ed, f.Path); n > 0 {
				changes = append(changes, s.update("MEMORY.md", ed.Bytes()))
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
	}
	return append(out, proposeCapPrunes(s)...)
}

// emptyMemory is a memory with nothing in it, and why it counts as one.
type emptyMemory struct {
	f   *model.File
	why string
}

// prunePlan is what the prune proposals take out of a directory: the
// memories that hold nothing, then, in a folder past the recall cap, the
// old ones nobody used. The archive proposal counts both before it moves
// anything out of the scan, so the plan is worked out once, whichever
// kinds are asked for: the same tree gives the same archive.
type prunePlan struct {
	empty  []emptyMemory
	pruned map[string]bool // the empty ones' paths
	capped []*model.File   // the cap's prunes, oldest first
}

// prunes is the directory's prune plan, worked out on first use.
func (s *dreamState) prunes() *prunePlan {
	if s.plan != nil {
		return s.plan
	}
	pl := &prunePlan{pruned: map[string]bool{}}
	for _, f := range s.d.Files {
		if f.Truncated || s.opaque(f.Path) || !f.Scan.Memory() || f.Link != "" {
			continue // a file memtui cannot read whole, or as text, or no memory to Claude Code, is a person's
		}
		doc := s.docs[f.Path]
		var why string
		switch {
		case len(bytes.TrimSpace(f.Content)) == 0:
			why = f.Path + " is empty"
		case (doc.Status == model.FMOK || doc.Status == model.FMTolerant) && strings.TrimSpace(doc.FM.Description) == "" &&
			consolidate.CountWords(doc.Body(f.Content), consolidate.StubWords) == 0:
			why = f.Path + " has frontmatter but no description and no body"
		default:
			continue
		}
		pl.empty = append(pl.empty, emptyMemory{f, why})
		pl.pruned[f.Path] = true
	}
	pl.capped = capPruneCandidates(s, pl.pruned)
	s.plan = pl
	return pl
}

// dropEntries removes the index entries that point at path (with their
// continuation lines) through the index editor; n is how many went.
func dropEntries(ed *memindex.Editor, path string) int {
	n, err := ed.RemoveEntries(path)
	if err != nil {
		return 0
	}
	return n
}
