package dream

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// Partial acceptance: a person may keep only some of a proposal's hunks
// (diff.Blocks numbers them; diff.KeepBlocks makes the kept ones), and what
// is left must still be a valid proposal.

// Keep is, per change path, which blocks a person kept (by index). A path
// missing from it keeps the whole change; an empty slice drops it.
type Keep map[string][]bool

// Partial returns the proposal with only the kept blocks, re-validated: the
// files it writes must still read as memories, and MEMORY.md must still
// point only at files that exist once it is applied. before gives each
// file's content as the proposal read it. A proposal with nothing kept is
// an error: reject it instead.
func Partial(p model.Proposal, before func(path string) (string, bool), keep Keep) (model.Proposal, error) {
	return PartialMode(p, before, keep, model.LoadAuto)
}

// PartialMode is Partial for a directory whose MEMORY.md Claude Code loads
// with mode (a subagent's is loaded raw: MemoryDir.Kind.LoadMode()).
func PartialMode(p model.Proposal, before func(path string) (string, bool), keep Keep, mode model.LoadMode) (model.Proposal, error) {
	out, err := keepBlocks(p, before, keep)
	if err != nil {
		return p, err
	}
	// Re-validate: every file written must still read as a memory (a
	// move writes nothing: its bytes are the file's).
	for _, c := range out.Changes {
		if c.Op == model.OpDelete || c.Op == model.OpMove {
			continue
		}
		old, had := before(c.Path)
		var prev []byte
		if had {
			prev = []byte(old)
		}
		if err := checkAfter(c, prev, mode); err != nil {
			return p, err
		}
	}
	// And the index may point only at files that exist once the kept
	// changes apply: a kept delete or move, or a create or move that was
	// dropped, must not leave an entry behind (an archive's index hunk
	// that links a move's new path needs the move, and a kept move needs
	// the hunk that repoints its old entry). (Files the proposal never
	// touches are as they were; a link already broken is not this
	// proposal's doing.)
	gone := map[string]bool{}
	for _, c := range out.Changes {
		switch c.Op {
		case model.OpDelete:
			gone[c.Path] = true
		case model.OpMove:
			gone[c.From] = true
		}
	}
	kept := map[string]bool{}
	for _, c := range out.Changes {
		kept[c.Path] = true
	}
	for _, c := range p.Changes {
		if _, had := before(c.Path); (c.Op == model.OpCreate || c.Op == model.OpMove) && !kept[c.Path] && !had {
			gone[c.Path] = true
		}
	}
	index, ok := "", false
	for _, c := range out.Changes {
		if c.Path == "MEMORY.md" && c.Op != model.OpDelete {
			index, ok = c.After, true
		}
	}
	if !ok {
		index, ok = before("MEMORY.md")
	}
	if ok {
		var missing []string
		ix := memindex.Parse([]byte(index))
		for _, e := range ix.Entries {
			for _, r := range e.Refs {
				if r.IsFile() && gone[r.Target] {
					missing = append(missing, r.Target)
				}
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			return p, fmt.Errorf("with only these hunks, MEMORY.md would point at %s, which the kept changes delete or move, or the dropped ones never make; keep the index hunks and the files' changes together", listNames(missing))
		}
	}
	return partlyAccepted(out), nil
}

// keepBlocks is p with only the kept blocks of each change (see Keep),
// not yet re-validated.
func keepBlocks(p model.Proposal, before func(path string) (string, bool), keep Keep) (model.Proposal, error) {
	out := p
	out.Changes = nil
	for _, c := range p.Changes {
		k, partial := keep[c.Path]
		if !partial {
			out.Changes = append(out.Changes, c)
			continue
		}
		old, _ := before(c.Path)
		if c.Op != model.OpUpdate {
			if len(k) > 0 && k[0] {
				out.Changes = append(out.Changes, c)
			}
			continue
		}
		after := diff.KeepBlocks(old, c.After, k)
		if after == old {
			continue // every block dropped: the file is left alone
		}
		c.After = after
		out.Changes = append(out.Changes, c)
	}
	if len(out.Changes) == 0 {
		return p, errors.New("nothing of the proposal is kept: reject it instead")
	}
	return out, nil
}

// partlyAccepted marks a proposal's rationale as partly accepted, once.
func partlyAccepted(p model.Proposal) model.Proposal {
	if p.Rationale != "" && !strings.HasSuffix(p.Rationale, "(partly accepted)") {
		p.Rationale += " (partly accepted)"
	}
	return p
}
