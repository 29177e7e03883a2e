package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// PlanResult is one proposal's outcome in a plan (ApplyPlan).
type PlanResult struct {
	// ID is the proposal's ID as accepted (ApplyResult.ProposalID is the
	// one written, which a rebuild may have changed).
	ID string
	txn.ApplyResult
	// Rebuilt is the proposal as written when an earlier proposal of the
	// plan changed a file it reads, so it was proposed again from the
	// directory as the plan left it (its ID is then another).
	Rebuilt *model.Proposal
	// Done says the rebuild found nothing left to do: the plan's earlier
	// writes already did it (ApplyResult.Status is then StatusApplied
	// with no JournalID).
	Done bool
}

// ApplyPlan writes the proposals accepted together for one memory dir as
// one plan, in order, behind the write scope of scan. A proposal that
// reads a file an earlier proposal of this plan wrote is not refused as
// if an agent had changed it: it is proposed again from the directory as
// the plan left it (the same kind, over the same files) and written as
// rebuilt, so a merge still applies after the frontmatter fix of one of
// its memories. This holds only for memtui's own proposers (an external
// proposer's output is written as it is) and only while every file the
// proposal touches is either as it read it or as this plan left it: a
// change by anyone else is still a conflict, nothing written. A proposal
// whose ID asIs holds (a person kept only part of it) is written as it
// is, never rebuilt: a rebuild would write what they left out.
func (w *Workspace) ApplyPlan(ctx context.Context, scan *model.Scan, dir string, props []model.Proposal, opts txn.ApplyOptions, asIs map[string]bool) []PlanResult {
	// wrote is each file the plan changed, by path: the sha256 it left
	// ("" when it deleted the file).
	wrote := map[string]string{}
	out := make([]PlanResult, 0, len(props))
	if home := w.codexHomeOf(dir); home != "" {
		return w.applyCodexPlan(ctx, home, dir, props, opts, asIs)
	}
	for _, p := range props {
		if err := ctx.Err(); err != nil {
			out = append(out, PlanResult{ID: p.ID, ApplyResult: txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusFailed, Err: err}})
			continue
		}
		res := PlanResult{ID: p.ID}
		if touched(p, wrote) && !p.External && !asIs[p.ID] {
			np, done, err := w.rebuild(ctx, scan, dir, p, wrote, opts.IncludeTeam)
			switch {
			case err != nil:
				out = append(out, PlanResult{ID: p.ID, ApplyResult: txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusConflict, Err: err}})
				continue
			case done:
				out = append(out, PlanResult{ID: p.ID, ApplyResult: txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusApplied}, Done: true})
				continue
			}
			res.Rebuilt = &np
			p = np
		}
		res.ApplyResult = w.ApplyIn(ctx, scan, dir, []model.Proposal{p}, opts)[0]
		if res.Status == txn.StatusApplied {
			w.noteWritten(res.JournalID, wrote)
		}
		out = append(out, res)
	}
	return out
}

// touched reports a proposal that changes or reads a file the plan wrote.
func touched(p model.Proposal, wrote map[string]string) bool {
	for _, c := range p.Changes {
		if _, ok := wrote[c.Source()]; ok {
			return true
		}
		if _, ok := wrote[c.Path]; ok {
			return true
		}
	}
	for _, r := range p.Reads {
		if _, ok := wrote[r.Path]; ok {
			return true
		}
	}
	return false
}

// noteWritten records what an applied entry left each of its files at,
// from its journal entry (a move: its destination written, its source
// gone).
func (w *Workspace) noteWritten(journalID string, wrote map[string]string) {
	e, err := txn.ReadEntry(w.JournalRoot(), journalID)
	if err != nil {
		return // the rebuild then finds the files changed, and says so
	}
	for _, f := range e.Files {
		wrote[f.Path] = f.After
		if f.From != "" {
			wrote[f.From] = ""
		}
	}
}

// rebuild proposes p again from the directory as the plan left it. Every
// file p touches must be as p read it or as the plan left it; otherwise
// someone else changed it, which is a conflict. done says there is no
// longer anything of p's kind to do over its files.
func (w *Workspace) rebuild(ctx context.Context, scan *model.Scan, dir string, p model.Proposal, wrote map[string]string, team bool) (model.Proposal, bool, error) {
	proj, old := projectOf(scan, dir)
	if old == nil {
		return p, false, fmt.Errorf("%s is not a memory directory in view", dir)
	}
	d := &model.MemoryDir{Path: old.Path, Kind: old.Kind, Agent: old.Agent, Workspace: old.Workspace}
	if err := w.Load(ctx, d); err != nil {
		return p, false, err
	}
	now := hashes(d)
	check := func(path, base string) error {
		cur, exists := now[path]
		left, ours := wrote[path]
		switch {
		case ours && cur == left && (exists || left == ""):
			return nil // as the plan left it
		case !ours && exists && cur == base:
			return nil // as p read it
		case !ours && !exists && base == "":
			return nil // a file p creates, still absent
		}
		return &txn.ConflictError{Path: path, Reason: "changed since the proposal read it, by someone other than this plan"}
	}
	for _, c := range p.Changes {
		if err := check(c.Source(), c.BaseSHA256); err != nil {
			return p, false, err
		}
	}
	for _, r := range p.Reads {
		if err := check(r.Path, r.SHA256); err != nil {
			return p, false, err
		}
	}
	dopts := dream.Options{Options: w.CheckOpts, Kinds: []model.ProposalKind{p.Kind}, IncludeTeam: team}.ForScan(scan)
	if p.Also != nil {
		// An adopt is made again from its stranded store as it is now
		// (that store alone is read again).
		var mine []model.Strand
		for _, st := range scan.Strands {
			if st.From == p.Also.MemoryDir {
				mine = append(mine, st)
			}
		}
		dopts.Adopt = w.Adoptable(ctx, mine)
	}
	if np, ok := sameProposal(p, dream.ProposeDir(proj, d, dopts)); ok {
		if extra := beyond(np, p); extra != "" {
			// Made again, it reaches a file the person never saw it
			// change (a merge group grown by one): not written unseen.
			return p, false, &txn.ConflictError{Path: extra, Reason: "made again over this plan's earlier writes, the proposal would also change this file, which the one accepted did not: review it again"}
		}
		return np, false, nil
	}
	return p, true, nil
}

// beyond is a file np changes that p neither changed nor read ("" when
// np stays within p's files): what a rebuilt proposal may not add.
func beyond(np, p model.Proposal) string {
	known := map[string]bool{}
	for _, c := range p.Changes {
		known[c.Path], known[c.Source()] = true, true
	}
	for _, r := range p.Reads {
		known[r.Path] = true
	}
	for _, c := range np.Changes {
		for _, f := range []string{c.Path, c.Source()} {
			if !known[f] {
				return f
			}
		}
	}
	return ""
}

// sameProposal is the proposal of cands that is p made again: of p's
// kind, sharing the most files p reads and replaces (a reindex's
// MEMORY.md, a merge's memories, a fix's file). None shares one: what p
// did is no longer there to do.
func sameProposal(p model.Proposal, cands []model.Proposal) (model.Proposal, bool) {
	mine := map[string]bool{}
	for _, c := range p.Changes {
		mine[c.Source()] = true
	}
	best, most := model.Proposal{}, 0
	for _, np := range cands {
		if np.Kind != p.Kind {
			continue
		}
		n := 0
		for _, c := range np.Changes {
			if mine[c.Source()] {
				n++
			}
		}
		if n > most {
			best, most = np, n
		}
	}
	return best, most > 0
}

// hashes are the sha256 of every file of a loaded directory, by path
// (its MEMORY.md included).
func hashes(d *model.MemoryDir) map[string]string {
	out := map[string]string{}
	if d.Index != nil {
		out[d.Index.Path] = consolidate.SHA256Hex(d.Index.Content)
	}
	for _, f := range d.Files {
		out[f.Path] = consolidate.SHA256Hex(f.Content)
	}
	return out
}

// projectOf finds the memory dir at path in scan, with its project.
func projectOf(scan *model.Scan, path string) (*model.Project, *model.MemoryDir) {
	d := DirIn(scan, path)
	if d == nil {
		return nil, nil
	}
	for _, p := range scan.Projects {
		if slices.Contains(p.Dirs, d) {
			return p, d
		}
	}
	return nil, nil
}
