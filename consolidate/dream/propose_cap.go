package dream

import (
	"fmt"
	"sort"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// proposeCapPrunes brings a memory folder whose scan lists more than 200
// memories back to 200 (facts 4.1): past the newest 200 by mtime, Claude
// Code's recall never offers a file, and each new memory silently pushes
// the oldest out, used or not. It proposes, in one proposal, to prune the
// oldest memories that no session used (read, recalled or loaded) in all
// the time the transcripts cover, last written before they begin, and no
// more of them than needed once the merges and the prunes of empty files
// are counted: a used file past the 200 comes back into the scan. Files in
// a near-duplicate group are left to the merge proposals; a file memtui
// cannot read whole, or as text, or reached through a link, is left alone.
//
// Nothing is proposed without transcripts (use is unknown), nor when they
// show the project's sessions in index mode only (there the cap does not
// bite: Claude Code loads MEMORY.md and does not scan).
func proposeCapPrunes(s *dreamState) []model.Proposal {
	pl := s.prunes()
	cands, pruned := pl.capped, pl.pruned
	if len(cands) == 0 {
		return nil
	}
	oldest := s.p.Log.Oldest
	since := "the transcripts (since " + oldest.Format("2006-01-02") + ")"
	var names []string
	changes := make([]model.Change, 0, len(cands)+1)
	var ed *memindex.Editor
	if ix, ok := s.content("MEMORY.md"); ok {
		ed = memindex.NewEditorMode(ix, s.d.Kind.LoadMode())
	}
	entries := 0
	for _, f := range cands {
		names = append(names, fmt.Sprintf("%s (%s)", f.Path, f.ModTime.Format("2006-01-02")))
		changes = append(changes, s.remove(f.Path))
		if ed != nil {
			entries += dropEntries(ed, f.Path)
		}
	}
	why := fmt.Sprintf("Claude Code's scan lists %d memory files here and offers only the newest %d (by mtime) to recall; each new memory pushes the oldest out, used or not. %s the oldest memories that %s show no session reading, recalling or loading, all written before them: %s. ",
		s.d.ScanListed, model.RecallScanCap, model.Plural(len(cands), "This is", fmt.Sprintf("These %d are", len(cands))), since, listNames(names))
	if entries > 0 {
		changes = append(changes, s.update("MEMORY.md", ed.Bytes()))
		why += fmt.Sprintf("Their %d index %s go with them. ", entries, model.Plural(entries, "entry", "entries"))
	}
	if left := s.d.ScanListed - len(cands) - len(s.byRule[consolidate.RuleDuplicateMemory]) - len(pruned); left > model.RecallScanCap {
		why += fmt.Sprintf("That leaves %d memory files: the other old ones were used, are new since the transcripts began, or are left to merges; the archive proposal moves the rest out of the scan without deleting them, or decide on them by hand. ", left)
	}
	why += "Recall then chooses among what is left; everything pruned is kept in memtui's journal, so undo brings it back."
	title := fmt.Sprintf("Prune %s past the recall scan's %d that nobody used", consolidate.Plural(len(cands), "old memory"), model.RecallScanCap)
	return []model.Proposal{s.proposal(model.KindPrune, title, why, s.byRule[consolidate.RuleRecallCap], changes)}
}

// capPruneCandidates chooses the cap's prunes (see proposeCapPrunes), the
// empty memories pruned already counted, oldest first.
func capPruneCandidates(s *dreamState, pruned map[string]bool) []*model.File {
	over := s.d.ScanListed - model.RecallScanCap
	if over <= 0 || s.p == nil || s.p.Log == nil {
		return nil
	}
	mode := consolidate.ModeOf(s.p, s.d)
	if mode.Known() && !mode.Recall && !mode.Agent {
		return nil
	}
	// What other proposals remove already.
	over -= len(s.byRule[consolidate.RuleDuplicateMemory]) + len(pruned)
	if over <= 0 {
		return nil
	}
	inGroup := s.nearDuplicates()
	heat := forensics.HeatOf(s.d, s.p.Log)
	oldest := s.p.Log.Oldest
	var cands []*model.File
	for _, f := range s.d.Files {
		switch {
		case !f.Scan.Memory(), pruned[f.Path], inGroup[f.Path], f.Link != "", f.Truncated, s.opaque(f.Path),
			heat[f.Path].Uses() > 0, oldest.IsZero() || !f.ModTime.Before(oldest):
			continue
		}
		cands = append(cands, f)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if a, b := cands[i].ModTime, cands[j].ModTime; !a.Equal(b) {
			return a.Before(b)
		}
		return cands[i].Path < cands[j].Path
	})
	if len(cands) > over {
		cands = cands[:over]
	}
	return cands
}

// nearDuplicates are the memories in a near-duplicate group (the merge
// proposals' groups), which the cap's prunes and the archive leave to the
// merges; worked out once per directory.
func (s *dreamState) nearDuplicates() map[string]bool {
	if s.inGroup != nil {
		return s.inGroup
	}
	s.inGroup = map[string]bool{}
	var items []similar.Item
	for _, f := range s.d.Files {
		if consolidate.DupSkipped(f) || s.opaque(f.Path) {
			continue
		}
		doc := s.docs[f.Path]
		items = append(items, consolidate.DupItem(f, &doc, string(doc.Body(f.Content))))
	}
	for _, g := range similar.Find(items) {
		for _, p := range g.Paths {
			s.inGroup[p] = true
		}
	}
	return s.inGroup
}

// touchesLink reports whether a proposal changes a file reached through a
// symbolic link: Claude Code's scan reads it, memtui shows it, and nothing
// memtui proposes writes through the link (the write path refuses it too).
func (s *dreamState) touchesLink(changes []string) bool {
	for _, p := range changes {
		if f := s.file(p); f != nil && f.Link != "" {
			return true
		}
	}
	return false
}
