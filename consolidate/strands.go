package consolidate

import (
	"strings"

	"github.com/memtui/memtui/model"
)

// Stranded stores (facts §12.1; model.Strand): memfs works out which
// auto-memory dirs no session Claude Code runs loads and where their
// memories belong; ForScan hands that record to every directory's checks,
// and checkStrands reports it on both dirs: the stranded one
// (store-stranded) and the live one its memories belong in
// (store-has-stranded), each saying why the two are one project.

// strandIndex is the scan's strands by memory dir: those stranded there
// (From) and those whose memories belong there (To).
type strandIndex struct {
	from map[string][]model.Strand
	to   map[string][]model.Strand
}

func newStrandIndex(ss []model.Strand) strandIndex {
	if len(ss) == 0 {
		return strandIndex{}
	}
	ix := strandIndex{from: map[string][]model.Strand{}, to: map[string][]model.Strand{}}
	for _, s := range ss {
		ix.from[s.From] = append(ix.from[s.From], s)
		if s.To != "" && s.ToExists {
			ix.to[s.To] = append(ix.to[s.To], s)
		}
	}
	return ix
}

// checkStrands reports the directory if it is stranded, and each stranded
// dir whose memories belong in it.
func checkStrands(s *dirState) {
	for _, st := range s.opts.strands.from[s.dir.Path] {
		msg := "nothing Claude Code runs loads this store: " + st.Why
		fix := "If these memories still matter, copy them into the memory folder of the project's new location; otherwise delete this folder: Claude Code never reads it back."
		if st.To != "" {
			msg += "; its " + st.What() + " " + model.Plural(strandCount(st), "belongs", "belong") + " with " + st.To + ", the store of " + st.Root
			if !st.ToExists {
				msg += " (not created yet: no session has started at " + st.Root + " since)"
			}
			fix = "Review the adopt proposal (memtui dream --kind adopt): it moves its memory files into " + st.To + " with their index entries (a memory both hold under one name merged), and removes them here, in one transaction."
			if !st.ToExists {
				fix = "Start a session at " + st.Root + " (so Claude Code makes its store), then review the adopt proposal (memtui dream --kind adopt); or move the memory files there by hand: Claude Code never reads this folder back."
			}
		}
		s.report(RuleStoreStranded, "", 0, msg+evidence(st), fix)
	}
	for _, st := range s.opts.strands.to[s.dir.Path] {
		msg := st.What() + " of this project " + model.Plural(strandCount(st), "is", "are") + " stranded in " + st.From + ", which nothing Claude Code runs loads: " + st.Why
		s.report(RuleStoreHasStranded, "", 0, msg+evidence(st),
			"Review the adopt proposal (memtui dream --kind adopt): it brings them over from "+st.From+", with their index entries, in one transaction.")
	}
}

// strandCount is 1 when what a strand holds reads as one thing ("1
// memory", "a MEMORY.md"), for the verb's number.
func strandCount(st model.Strand) int {
	if st.Memories == 1 && !st.Index || st.Memories == 0 {
		return 1
	}
	return 2
}

// evidence is the strand's evidence as the end of a message.
func evidence(st model.Strand) string {
	if len(st.Evidence) == 0 {
		return ""
	}
	return ". Evidence: " + strings.Join(st.Evidence, "; ")
}
