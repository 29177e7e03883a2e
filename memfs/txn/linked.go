package txn

// A linked transaction spans two memory dirs: an adopt creates the
// memories of a stranded store in the live one and removes them from the
// stranded one. Each dir's share is a transaction of its own (its
// journal entry, its files, its steps), but they run as one: both dirs'
// locks are held throughout, every share is journalled and made before
// any commits, and a failure anywhere rolls every share back. The
// entries name each other (Linked), so an undo of either undoes both.
//
// The commits come last, the share that adds first: a crash between two
// commits leaves the memories in both stores (a duplicate, never a loss),
// and the next start's recovery, rolling back the uncommitted share,
// undoes the committed one too (recoverEntry).

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memtui/memtui/model"
)

// part is one memory dir's share of a linked transaction.
type part struct {
	dir   string
	meta  txnMeta
	specs []spec
	s     *session
	t     *txn
	errs  []error // what its undos could not put back cleanly
}

// ApplyLinked writes p, whose changes span its own memory dir (Changes)
// and a second one (Also), as one transaction (see the top of this file):
// all of it or nothing, in both dirs. The result names the journal entry
// of p's own dir; the other's is linked to it.
func ApplyLinked(ctx context.Context, p model.Proposal, opts ApplyOptions) ApplyResult {
	opts = opts.withDefaults()
	res := ApplyResult{ProposalID: p.ID, Status: StatusFailed}
	if p.Also == nil {
		res.Err = errors.New("the proposal changes one memory dir; Apply writes it")
		return res
	}
	if opts.Foreign != nil {
		// An adopt is between Claude Code's stores; another agent's store
		// is not written by a transaction that spans two.
		res.Err = errors.New("a proposal that spans two memory dirs is not written to a store another agent consolidates")
		return res
	}
	meta := txnMeta{proposalID: p.ID, kind: string(p.Kind), title: p.Title, reads: p.Reads, team: opts.IncludeTeam, mtimes: mtimeRuleOf(p)}
	parts := make([]*part, 2)
	for i, dc := range []model.DirChanges{{MemoryDir: p.MemoryDir, Changes: p.Changes}, *p.Also} {
		specs, path, err := specsOf(dc.Changes)
		if err != nil {
			res.Path, res.Err = path, err
			return res
		}
		m := meta
		if i > 0 {
			m.reads = nil // the reads are of the proposal's own dir
		}
		parts[i] = &part{dir: filepath.Clean(dc.MemoryDir), meta: m, specs: specs}
	}
	rs := runLinked(ctx, parts, opts)
	closeParts(parts)
	return rs[0]
}

// undoLinked undoes m and the entries linked to it that are still
// applied, as one linked transaction.
func undoLinked(ctx context.Context, m *JournalEntry, opts ApplyOptions) ApplyResult {
	res := ApplyResult{ProposalID: m.ProposalID, Status: StatusFailed}
	ms := []*JournalEntry{m}
	for _, id := range m.Linked {
		o, err := readManifest(opts.JournalRoot, id)
		if err != nil {
			res.Err = fmt.Errorf("journal entry %s, written with %s: %w", id, m.ID, err)
			return res
		}
		if o.State == JournalCommitted {
			ms = append(ms, o)
		}
	}
	var parts []*part
	var made [][]string
	for _, e := range ms {
		specs, mk, p, err := inverse(e, filepath.Join(opts.JournalRoot, e.ID))
		if err != nil {
			res.Path, res.Err = p, err
			return res
		}
		parts = append(parts, &part{dir: e.RealDir, meta: undoMeta(e), specs: specs})
		made = append(made, mk)
	}
	rs := runLinked(ctx, parts, opts)
	defer closeParts(parts)
	res = rs[0]
	if res.Status == StatusConflict {
		res.Err = &ConflictError{Path: res.Path, Reason: "changed since memtui applied it; undo of " + m.ID + " refused, nothing written"}
		return res
	}
	if res.Status != StatusApplied {
		return res
	}
	var errs []error
	for i, e := range ms {
		if parts[i].s != nil {
			removeEmptyDirs(parts[i].s.rootfd, made[i])
		}
		errs = append(errs, markUndone(opts.JournalRoot, e, rs[i].JournalID))
	}
	res.Err = errors.Join(errs...)
	return res
}

// runLinked opens every part's dir (in path order, so that two memtui
// runs never wait on each other's second lock), prepares every part, and
// runs them as one: each part's steps but its commit, the entries linked,
// then the commits in order. A failure rolls every part back. The
// sessions stay open in the parts until closeParts (undoLinked still
// tidies the dirs); runLinked closes them when it fails.
func runLinked(ctx context.Context, parts []*part, opts ApplyOptions) []ApplyResult {
	rs := make([]ApplyResult, len(parts))
	failAll := func(i int, r ApplyResult) []ApplyResult {
		closeParts(parts)
		for k := range rs {
			if k != i {
				rs[k] = ApplyResult{ProposalID: parts[k].meta.proposalID, Status: r.Status, Err: fmt.Errorf("not written: %s: %w", parts[i].dir, r.Err)}
			}
		}
		rs[i] = r
		return rs
	}
	order := make([]*part, len(parts))
	copy(order, parts)
	slices.SortFunc(order, func(a, b *part) int { return strings.Compare(a.dir, b.dir) })
	for i := 1; i < len(order); i++ {
		if order[i].dir == order[i-1].dir {
			return failAll(0, ApplyResult{ProposalID: parts[0].meta.proposalID, Status: StatusFailed, Err: errors.New("two shares of one transaction in the same memory dir " + order[i].dir)})
		}
	}
	for _, p := range order {
		s, err := openSession(ctx, p.dir, opts, false)
		if err != nil {
			return failAll(slices.Index(parts, p), ApplyResult{ProposalID: p.meta.proposalID, Status: StatusFailed, Err: err})
		}
		p.s = s
		s.recoverHere()
	}
	for i, p := range parts {
		t, r := p.s.prepare(p.meta, p.specs)
		if t == nil {
			return failAll(i, r)
		}
		p.t = t
	}
	var steps []txStep
	for _, p := range parts {
		own := p.t.steps()
		own = own[:len(own)-1] // its commit comes after every part's changes
		for _, st := range own {
			if st.undo != nil {
				undo := st.undo
				st.undo = func() error {
					err := undo()
					if err != nil {
						p.errs = append(p.errs, err)
					}
					return err
				}
			}
			steps = append(steps, st)
		}
	}
	steps = append(steps, txStep{name: "linked", do: func() error {
		for _, p := range parts {
			p.t.j.keep = true
			p.t.j.m.Linked = nil
			for _, o := range parts {
				if o != p {
					p.t.j.m.Linked = append(p.t.j.m.Linked, o.t.j.m.ID)
				}
			}
			if err := p.t.j.save(); err != nil {
				return fmt.Errorf("journal: %w", err)
			}
		}
		return nil
	}})
	for _, p := range parts {
		steps = append(steps, txStep{name: "commit " + p.dir, do: p.t.commit})
	}
	f := runSteps(steps, step)
	for i, p := range parts {
		if f != nil {
			rs[i] = p.t.failed(f.path, f.err, p.errs)
		} else {
			rs[i] = p.t.done()
		}
		if p.t.j != nil {
			p.t.j.keep = false
			p.t.j.release()
		}
		p.t.close()
	}
	if f != nil {
		closeParts(parts)
	}
	return rs
}

// closeParts closes every part's session (its locks released).
func closeParts(parts []*part) {
	for i := len(parts) - 1; i >= 0; i-- {
		if p := parts[i]; p.s != nil {
			if p.t != nil {
				p.t.close()
			}
			p.s.close()
			p.s = nil
		}
	}
}

// undoPartners undoes the applied entries linked to m, whose own share
// was just rolled back by a recovery: a crash between the commits of a
// linked transaction left them applied alone. s holds m's dir. What could
// not be undone (an agent changed a file since) is said in the returned
// notes; its memories then stand in both stores, none lost.
func (s *session) undoPartners(m *JournalEntry) []string {
	var notes []string
	for _, id := range m.Linked {
		o, err := readManifest(s.opts.JournalRoot, id)
		if err != nil || o.State != JournalCommitted {
			continue
		}
		var r ApplyResult
		if o.RealDir == s.realDir {
			r = s.undoEntry(o)
		} else {
			other, err := openSession(context.Background(), o.RealDir, s.opts, true)
			if err != nil {
				notes = append(notes, fmt.Sprintf("entry %s, written with this one, is still applied: %s", id, err))
				continue
			}
			r = other.undoEntry(o)
			other.close()
		}
		if r.Status != StatusApplied {
			notes = append(notes, fmt.Sprintf("entry %s, written with this one, is still applied (its undo: %s)", id, r.Err))
			continue
		}
		notes = append(notes, fmt.Sprintf("entry %s, written with this one, was undone too (entry %s)", id, r.JournalID))
	}
	return notes
}

// specsOf is the engine's view of changes: each operation checked.
func specsOf(cs []model.Change) ([]spec, string, error) {
	specs := make([]spec, 0, len(cs))
	for _, c := range cs {
		switch c.Op {
		case model.OpCreate, model.OpUpdate, model.OpDelete, model.OpMove:
		default:
			return nil, c.Path, fmt.Errorf("%s: unknown operation %q", c.Path, c.Op)
		}
		if c.Op == model.OpMove && c.After != "" {
			return nil, c.Path, refuse(c.Path, "a move with new content; a move keeps the file's bytes")
		}
		specs = append(specs, spec{path: c.Path, op: c.Op, from: c.From, base: c.BaseSHA256, after: []byte(c.After)})
	}
	return specs, "", nil
}
