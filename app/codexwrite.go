package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Writing into Codex's store (issue 17, codex facts §4.4): through the
// same transactions, journal and undo as Claude Code's memory, as a
// foreign store (txn.ForeignStore): no lock file and no temp file inside
// memories/ (memtui's go to $CODEX_HOME/.memtui-tmp), Codex asked before
// every change whether it is consolidating, and only the files a person
// may edit changed: never what Codex rebuilds from its database, never
// .git, the summary's first line kept.

// CodexTempDir is where memtui keeps its temp files for writes into the
// store of the Codex home: beside memories/, on its file system, never
// inside it.
func CodexTempDir(home string) string { return filepath.Join(home, ".memtui-tmp") }

// codexForeign is the write options' foreign store for a Codex home:
// busy while its workspace diff is on disk or a consolidation holds the
// lease in its database (codex facts §4.4), both looked at afresh each
// time the write asks.
func (w *Workspace) codexForeign(home string) *txn.ForeignStore {
	return &txn.ForeignStore{Agent: "Codex", TempDir: CodexTempDir(home), Busy: func() string { return w.codexBusy(home) }}
}

// codexBusy says why Codex's store at home takes no write now.
func (w *Workspace) codexBusy(home string) string {
	if why := memfs.CodexBusy(home); why != "" {
		return why
	}
	var cfg codex.Config
	for _, s := range w.Codex {
		if s.Home == home {
			cfg = s.Config
		}
	}
	s := &codex.Store{DB: memfs.LoadCodexDB(context.Background(), home, cfg, w.ScanOpts)}
	return s.LeaseBusy(time.Now())
}

// codexHomeOf is the Codex home in view whose memory root is dir, "" for
// none.
func (w *Workspace) codexHomeOf(dir string) string {
	for _, h := range w.CodexHomes {
		if filepath.Join(h, memfs.CodexMemoriesDir) == filepath.Clean(dir) {
			return h
		}
	}
	return ""
}

// CodexRoots are the memory roots of the Codex homes in view.
func (w *Workspace) CodexRoots() []string {
	var out []string
	for _, h := range w.CodexHomes {
		out = append(out, filepath.Join(h, memfs.CodexMemoriesDir))
	}
	return out
}

// CodexChangeRefusal says why memtui will not make a change in a Codex
// store ("" when it may): a file Codex rebuilds from its database or
// owns (an extension's), anything under .git, a note overwritten or
// deleted (Codex never does either), a summary whose first line is no
// longer exactly "v1".
func CodexChangeRefusal(c model.Change) string {
	for _, p := range []string{c.Path, c.From} {
		if p == "" {
			continue
		}
		if p == ".git" || strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/") {
			return p + " is Codex's baseline: memtui never touches .git"
		}
		switch k := codex.KindOf(p); {
		case k.Regenerated():
			return p + ": " + readOnlyWhy(k)
		case k == codex.KindExtension:
			return p + ": " + readOnlyWhy(k)
		case k == codex.KindNote && c.Op != model.OpCreate:
			return p + " is a note: Codex folds notes in and never changes or deletes one; add another note instead"
		case k == codex.KindForeign:
			return p + " is not a file Codex reads: a change to it would only enter its next diff"
		}
	}
	if c.Path == codex.SummaryFile && c.Op != model.OpDelete {
		first, _, _ := strings.Cut(c.After, "\n")
		if strings.TrimSuffix(first, "\r") != codex.SummaryHeader {
			return "memory_summary.md must begin with the line v1: Codex discards a summary without it"
		}
	}
	return ""
}

// ApplyCodex writes proposals into the Codex store whose memory root is
// dir (one of CodexRoots): refused whole, nothing written, under
// --readonly, for a root not in view, or when a change is one memtui
// never makes (CodexChangeRefusal); otherwise through txn.Apply as a
// foreign store, so Codex consolidating refuses it with a
// *txn.BusyError.
func (w *Workspace) ApplyCodex(ctx context.Context, dir string, props []model.Proposal, opts txn.ApplyOptions) []txn.ApplyResult {
	fail := func(err error) []txn.ApplyResult {
		out := make([]txn.ApplyResult, len(props))
		for i, p := range props {
			out[i] = txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusFailed, Err: err}
		}
		return out
	}
	home := w.codexHomeOf(dir)
	switch {
	case w.ReadOnly:
		return fail(errors.New("--readonly forbids writing"))
	case home == "":
		return fail(fmt.Errorf("%s is not the memories/ of a Codex home in view", dir))
	}
	for _, p := range props {
		if p.Also != nil {
			return fail(errors.New("a proposal that changes two stores cannot write into Codex's"))
		}
		for _, c := range p.Changes {
			if why := CodexChangeRefusal(c); why != "" {
				return fail(errors.New(why))
			}
		}
	}
	if notesIn(props) {
		// The notes' folders, as Codex's own tool makes them before its
		// first note; not while it consolidates.
		if why := w.codexBusy(home); why != "" {
			return fail(&txn.BusyError{Agent: "Codex", Dir: dir, Reason: why})
		}
		if err := memfs.MakeCodexNotesDir(home); err != nil {
			return fail(err)
		}
	}
	opts.Foreign = w.codexForeign(home)
	res := txn.Apply(ctx, dir, props, w.stateOpts(opts))
	for i, r := range res {
		if r.Status == txn.StatusApplied {
			w.reviewed(dir, props[i], r.JournalID)
		}
	}
	return res
}

// recoverCodex rolls back what an interrupted write left in each Codex
// store in view (txn.Recover leaves a foreign store's entries: it cannot
// ask Codex whether it is at work).
func (w *Workspace) recoverCodex() {
	if len(w.CodexHomes) == 0 {
		return
	}
	// Only a store with an entry left unfinished is opened (opening one
	// makes memtui's temp dir beside it): a run that never wrote there
	// changes nothing under $CODEX_HOME.
	es, err := txn.List(w.State.Journal)
	if err != nil {
		return // recoverJournal said why
	}
	pending := map[string]bool{}
	for _, e := range es {
		if e.State == txn.JournalPrepared && e.ForeignTempDir != "" {
			pending[filepath.Clean(e.MemoryDir)] = true
		}
	}
	for _, h := range w.CodexHomes {
		root := filepath.Join(h, memfs.CodexMemoriesDir)
		if !pending[root] {
			continue
		}
		reports, err := txn.RecoverDir(root, w.stateOpts(txn.ApplyOptions{Foreign: w.codexForeign(h)}))
		if err != nil {
			w.note("memtui: an interrupted write into %s is left as it is for now: %s", root, err.Error())
			continue
		}
		for _, r := range reports {
			w.note("memtui: an interrupted write into Codex's store (journal %s) was %s", r.ID, r.Action)
		}
	}
}

// notesIn says a proposal creates a note.
func notesIn(props []model.Proposal) bool {
	for _, p := range props {
		for _, c := range p.Changes {
			if c.Op == model.OpCreate && codex.KindOf(c.Path) == codex.KindNote {
				return true
			}
		}
	}
	return false
}

// applyCodexPlan is ApplyPlan for a Codex store: each proposal in turn,
// and one that reads a file an earlier one wrote proposed again from the
// store as the plan left it (dream.ProposeCodex on the store read again:
// the proposal of the same kind and title), as Claude Code's are rebuilt;
// none left means the earlier writes did it. A proposal a person edited
// or cut to some hunks (asIs) is written as it is, or refused.
func (w *Workspace) applyCodexPlan(ctx context.Context, home, dir string, props []model.Proposal, opts txn.ApplyOptions, asIs map[string]bool) []PlanResult {
	wrote := map[string]string{}
	out := make([]PlanResult, 0, len(props))
	for _, p := range props {
		res := PlanResult{ID: p.ID}
		if touched(p, wrote) && !p.External && !asIs[p.ID] {
			s, err := memfs.LoadCodex(ctx, home, w.ScanOpts)
			if err != nil {
				out = append(out, PlanResult{ID: p.ID, ApplyResult: txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusFailed, Err: err}})
				continue
			}
			var again *model.Proposal
			for _, q := range dream.ProposeCodex(s, dream.Options{Options: w.CheckOpts}) {
				if q.Kind == p.Kind && q.Title == p.Title {
					again = &q
					break
				}
			}
			if again == nil {
				out = append(out, PlanResult{ID: p.ID, ApplyResult: txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusApplied}, Done: true})
				continue
			}
			res.Rebuilt, p = again, *again
		}
		res.ApplyResult = w.ApplyCodex(ctx, dir, []model.Proposal{p}, opts)[0]
		if res.Status == txn.StatusApplied {
			for _, c := range p.Changes {
				wrote[c.Path] = ""
			}
		}
		out = append(out, res)
	}
	return out
}
