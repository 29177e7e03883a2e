package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/transcript"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// TranscriptReader reads one project's session transcripts.
type TranscriptReader func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error)

// TranscriptOptions are how transcripts are read: cached under the state
// dirs, with memtui's own journal as a record of its writes.
func (w *Workspace) TranscriptOptions() transcript.Options {
	return transcript.Options{CacheDir: w.State.Cache, Home: w.ScanOpts.Home, JournalRoot: w.State.Journal}
}

// ReadTranscripts fills each project's Log from its transcripts. A project
// whose transcripts cannot be read keeps a nil Log and a note says why:
// everything else still works without them. Nothing with NoTranscripts.
func (w *Workspace) ReadTranscripts(ctx context.Context) {
	if w.NoTranscripts {
		return
	}
	ps := w.Scan.Projects
	errs := transcript.ReadAll(ctx, ps, 2, w.TranscriptOptions())
	for i, err := range errs {
		if err != nil && ctx.Err() == nil {
			w.note("memtui: the transcripts of %s could not be read: %s", ps[i].Name(), err.Error())
		}
	}
}

// TranscriptReader reads a project's transcripts one at a time (the TUI
// reads them as projects come into view); nil with NoTranscripts.
func (w *Workspace) TranscriptReader() TranscriptReader {
	if w.NoTranscripts {
		return nil
	}
	if w.Transcripts != nil {
		return w.Transcripts
	}
	opts := w.TranscriptOptions()
	return func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
		if p.TranscriptDir == "" {
			return nil, nil
		}
		return transcript.Read(ctx, p, opts)
	}
}

// Load reads one memory directory of the workspace.
func (w *Workspace) Load(ctx context.Context, d *model.MemoryDir) error {
	if w.load != nil {
		return w.load(ctx, d)
	}
	if err := memfs.LoadDir(ctx, d, w.ScanOpts); err != nil {
		return err
	}
	d.Kept = w.kept(d)
	return nil
}

// Check runs every check over every directory of the scan (and over the
// Codex stores Open read) on one bounded
// pool, loading each just before it is checked, so reading and checking
// overlap (while one worker waits on the disk another computes). With
// opts.DropContent each directory's contents are freed once checked, so a
// run holds one directory per worker in memory, not the tree. A directory
// that cannot be read is a finding. The findings come sorted, the scan's
// configuration findings included. Each finding of another agent's store
// names its agent (Claude Code's name none), and a --memory-root store's
// come without the rules a copy of the format does not follow
// (AgentFindings).
func (w *Workspace) Check(ctx context.Context, opts consolidate.Options) []model.Finding {
	opts = opts.ForScan(w.Scan)
	jobs := consolidate.DirJobs(w.Scan, nil)
	results := make([][]model.Finding, len(jobs))
	kept := newClaudeKept(w.Codex, len(jobs))
	pool.Run(ctx, len(jobs), opts.Workers, func(i int) {
		j := jobs[i]
		if err := w.Load(ctx, j.D); err != nil {
			results[i] = AgentFindings(j.P, []model.Finding{consolidate.UnreadableDir(j.P, j.D, err)})
			return
		}
		results[i] = AgentFindings(j.P, consolidate.OrientDir(j.P, j.D, opts))
		kept.keep(i, j.D)
		if opts.DropContent {
			j.D.DropContent()
		}
	})
	// Codex's stores, read at Open, are checked beside Claude Code's dirs.
	results = append(results, CodexFindings(w.Codex, opts), kept.findings(w.Codex, opts))
	return consolidate.MergeFindings(w.Scan, results)
}

// EachLoadedDir loads every directory of the scan in turn and calls fn
// with it; the first error (a load's or fn's) ends the walk.
func (w *Workspace) EachLoadedDir(ctx context.Context, fn func(p *model.Project, d *model.MemoryDir) error) error {
	for _, p := range w.Scan.Projects {
		for _, d := range p.Dirs {
			if err := w.Load(ctx, d); err != nil {
				return err
			}
			if err := fn(p, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// DirsInView are the memory dirs the options selected: undo and the
// journal act on these only.
func (w *Workspace) DirsInView() []string { return DirsIn(w.Scan) }

// DirInView is the memory dir of the scan at path (as given or resolved),
// or nil.
func (w *Workspace) DirInView(path string) *model.MemoryDir { return DirIn(w.Scan, path) }

// WriteRefusal says why memtui will not write into the memory dir at
// path (nil when it will): a directory only a repository's own settings
// named is never written unless the user named it (memfs.WriteRefusal).
func (w *Workspace) WriteRefusal(path string) error {
	return WriteRefusalIn(w.Scan, w.ScanOpts.MemoryDirs, path)
}

// DirsIn are the memory dirs of a scan (the TUI's, which a refresh
// replaces, or the workspace's).
func DirsIn(scan *model.Scan) []string {
	if scan == nil {
		return nil
	}
	var out []string
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			out = append(out, d.Path)
		}
	}
	return out
}

// DirIn is the memory dir of scan at path (as given or resolved), or nil.
func DirIn(scan *model.Scan, path string) *model.MemoryDir {
	if scan == nil {
		return nil
	}
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			if txn.InScope(txn.JournalEntry{MemoryDir: path, RealDir: path}, []string{d.Path}) {
				return d
			}
		}
	}
	return nil
}

// WriteRefusalIn is WriteRefusal over scan, with the memory dirs the user
// named (--memory-dir).
func WriteRefusalIn(scan *model.Scan, named []string, path string) error {
	return memfs.WriteRefusal(DirIn(scan, path), named)
}

// Apply writes proposals into one memory dir behind the write scope: a
// refused dir gets every proposal failed with the reason, nothing
// written. The journal and baselines are the workspace's unless opts
// name others.
func (w *Workspace) Apply(ctx context.Context, dir string, props []model.Proposal, opts txn.ApplyOptions) []txn.ApplyResult {
	return w.ApplyIn(ctx, w.Scan, dir, props, opts)
}

// ApplyIn is Apply behind the write scope of scan: the TUI's, which a
// refresh replaces, where Apply uses the workspace's own.
func (w *Workspace) ApplyIn(ctx context.Context, scan *model.Scan, dir string, props []model.Proposal, opts txn.ApplyOptions) []txn.ApplyResult {
	if err := WriteRefusalIn(scan, w.ScanOpts.MemoryDirs, dir); err != nil {
		out := make([]txn.ApplyResult, len(props))
		for i, p := range props {
			out[i] = txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusFailed, Err: err}
		}
		return out
	}
	res := make([]txn.ApplyResult, 0, len(props))
	for len(props) > 0 {
		// A run of one-dir proposals goes to txn.Apply together; a
		// proposal that changes a second dir (an adopt) is a linked
		// transaction of its own, behind that dir's write scope too.
		n := slices.IndexFunc(props, func(p model.Proposal) bool { return p.Also != nil })
		if n < 0 {
			n = len(props)
		}
		if n > 0 {
			for i, r := range txn.Apply(ctx, dir, props[:n], w.stateOpts(opts)) {
				if r.Status == txn.StatusApplied {
					w.reviewed(dir, props[i], r.JournalID)
				}
				res = append(res, r)
			}
			props = props[n:]
			continue
		}
		p := props[0]
		props = props[1:]
		if err := WriteRefusalIn(scan, w.ScanOpts.MemoryDirs, p.Also.MemoryDir); err != nil {
			res = append(res, txn.ApplyResult{ProposalID: p.ID, Status: txn.StatusFailed, Err: err})
			continue
		}
		r := txn.ApplyLinked(ctx, p, w.stateOpts(opts))
		if r.Status == txn.StatusApplied {
			w.reviewed(dir, p, r.JournalID)
			other := p
			other.MemoryDir, other.Changes, other.Also = p.Also.MemoryDir, p.Also.Changes, nil
			if e, err := txn.ReadEntry(w.JournalRoot(), r.JournalID); err == nil && len(e.Linked) == 1 {
				w.reviewed(other.MemoryDir, other, e.Linked[0])
			}
		}
		res = append(res, r)
	}
	return res
}

// Undo undoes a journal entry of a memory dir in view, behind the write
// scope. An entry out of view or of a refused dir is an error and nothing
// is written; otherwise the result says how the undo went. Undoing a
// redaction needs opts.RestoreSecret (txn.Undo refuses without it).
func (w *Workspace) Undo(ctx context.Context, e txn.JournalEntry, opts txn.ApplyOptions) (txn.ApplyResult, error) {
	return w.UndoIn(ctx, w.Scan, e, opts)
}

// ErrNotInView is the reason an undo of an entry of a memory dir outside
// the view is refused: the journal is shared by every tree memtui wrote.
var ErrNotInView = errors.New("which is not among the memory directories in view")

// UndoIn is Undo with the view and write scope of scan (the TUI's).
func (w *Workspace) UndoIn(ctx context.Context, scan *model.Scan, e txn.JournalEntry, opts txn.ApplyOptions) (txn.ApplyResult, error) {
	if w.ReadOnly {
		return txn.ApplyResult{}, fmt.Errorf("--readonly forbids undo")
	}
	if home := w.codexHomeOf(e.MemoryDir); home != "" && txn.InScope(e, w.CodexRoots()) {
		// Codex's store: undone as it was written, as a foreign store.
		opts.Foreign = w.codexForeign(home)
		return txn.Undo(ctx, e.ID, w.stateOpts(opts)), nil
	}
	if !txn.InScope(e, DirsIn(scan)) {
		return txn.ApplyResult{}, fmt.Errorf("journal entry %s is of %s, %w; nothing undone", e.ID, e.MemoryDir, ErrNotInView)
	}
	if err := WriteRefusalIn(scan, w.ScanOpts.MemoryDirs, e.MemoryDir); err != nil {
		return txn.ApplyResult{}, err
	}
	// An entry written with others (an adopt) is undone with them: each
	// of their dirs must be in view and writable too.
	for _, id := range e.Linked {
		o, err := txn.ReadEntry(w.JournalRoot(), id)
		if err != nil {
			return txn.ApplyResult{}, fmt.Errorf("journal entry %s, written with %s: %w; nothing undone", id, e.ID, err)
		}
		if !txn.InScope(*o, DirsIn(scan)) {
			return txn.ApplyResult{}, fmt.Errorf("journal entry %s was written with %s, of %s, %w; nothing undone", e.ID, o.ID, o.MemoryDir, ErrNotInView)
		}
		if err := WriteRefusalIn(scan, w.ScanOpts.MemoryDirs, o.MemoryDir); err != nil {
			return txn.ApplyResult{}, err
		}
	}
	return txn.Undo(ctx, e.ID, w.stateOpts(opts)), nil
}

// Journal lists the journal's entries of the memory dirs in view, newest
// first: the journal is shared by every tree memtui ever wrote, and a run
// shows and undoes only what it can see.
func (w *Workspace) Journal() ([]txn.JournalEntry, error) { return w.JournalIn(w.Scan) }

// JournalIn is Journal for the dirs of scan (the TUI's).
func (w *Workspace) JournalIn(scan *model.Scan) ([]txn.JournalEntry, error) {
	es, err := txn.List(w.JournalRoot())
	return txn.Scope(es, append(DirsIn(scan), w.CodexRoots()...)), err
}

// FindEntry is the journal entry ref names among those in view: its whole
// journal ID, a prefix of one no other entry shares, or the ID of the
// proposal it applied (journal IDs are 36 characters; nobody types one).
// A proposal applied, undone and applied again names its applied entry.
// An unknown or ambiguous ref is an error that says what it matched.
func (w *Workspace) FindEntry(ref string) (*txn.JournalEntry, error) {
	es, err := w.Journal()
	if err != nil {
		return nil, err
	}
	return FindEntry(es, ref)
}

// FindEntry is Workspace.FindEntry over entries (newest first).
func FindEntry(entries []txn.JournalEntry, ref string) (*txn.JournalEntry, error) {
	if ref == "" {
		return nil, errors.New("no journal entry named")
	}
	var byID, byProposal []*txn.JournalEntry
	for i := range entries {
		e := &entries[i]
		switch {
		case e.ID == ref:
			return e, nil
		case strings.HasPrefix(e.ID, ref):
			byID = append(byID, e)
		case e.ProposalID == ref && e.UndoOf == "":
			// (an undo's entry carries the proposal's ID too; the ID names
			// the entry that applied it)
			byProposal = append(byProposal, e)
		}
	}
	if len(byID) == 1 {
		return byID[0], nil
	}
	if len(byID) == 0 && len(byProposal) > 0 {
		var applied []*txn.JournalEntry
		for _, e := range byProposal {
			if e.State == txn.JournalCommitted {
				applied = append(applied, e)
			}
		}
		switch {
		case len(applied) == 1 || oneTransaction(applied):
			// (the shares of one linked transaction, an adopt's, are
			// undone together: any of them names it)
			return applied[len(applied)-1], nil
		case len(applied) == 0:
			return byProposal[0], nil // the newest: undo says why it cannot be undone
		}
		byID = applied
	}
	if len(byID) == 0 {
		return nil, fmt.Errorf("no journal entry in view is %q or starts with it, and no applied proposal has that ID", ref)
	}
	ids := make([]string, 0, min(len(byID), 5))
	for _, e := range byID[:min(len(byID), 5)] {
		ids = append(ids, e.ID)
	}
	more := ""
	if len(byID) > 5 {
		more = fmt.Sprintf(" and %d more", len(byID)-5)
	}
	return nil, fmt.Errorf("%q names %d journal entries (%s%s): give more of the ID", ref, len(byID), strings.Join(ids, ", "), more)
}

// oneTransaction reports entries that are the shares of one linked
// transaction: each names every other as linked.
func oneTransaction(es []*txn.JournalEntry) bool {
	for _, e := range es {
		for _, o := range es {
			if o != e && !slices.Contains(e.Linked, o.ID) {
				return false
			}
		}
	}
	return len(es) > 1
}

// LastEntry is the newest applied (committed) journal entry in view.
func (w *Workspace) LastEntry() (*txn.JournalEntry, error) {
	es, err := w.Journal()
	if err != nil {
		return nil, err
	}
	for i := range es {
		if es[i].State == txn.JournalCommitted {
			return &es[i], nil
		}
	}
	return nil, errors.New("nothing applied to undo in the memory directories in view")
}

// JournalRoot is where the workspace's journal lives.
func (w *Workspace) JournalRoot() string {
	if w.State.Journal != "" {
		return w.State.Journal
	}
	return txn.DefaultJournalRoot()
}

// stateOpts fills in the workspace's journal and review baselines where
// opts names none: a write scrubs a redacted secret from both, whichever
// face asked for it.
func (w *Workspace) stateOpts(opts txn.ApplyOptions) txn.ApplyOptions {
	if opts.JournalRoot == "" {
		opts.JournalRoot = w.JournalRoot()
	}
	if opts.SeenRoot == "" {
		opts.SeenRoot = w.State.Seen
	}
	return opts
}

// ContentLookup finds a file's content as read by the scan's loaded
// directories (dir, path relative to it), or by the Codex stores given,
// for diffs; "" when unknown.
func ContentLookup(scan *model.Scan, stores ...*codex.Store) func(dir, path string) string {
	dirs := map[string]*model.MemoryDir{}
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			dirs[d.Path] = d
		}
	}
	cx := map[string]*codex.Store{}
	for _, s := range stores {
		cx[s.Root] = s
	}
	return func(dir, path string) string {
		if s := cx[dir]; s != nil {
			if f := s.File(path); f != nil {
				return string(f.Content)
			}
			return ""
		}
		d := dirs[dir]
		if d == nil {
			return ""
		}
		if path == model.IndexFileName && d.Index != nil {
			return string(d.Index.Content)
		}
		for _, f := range d.Files {
			if f.Path == path {
				return string(f.Content)
			}
		}
		return ""
	}
}

// ProposeOptions choose what Propose proposes.
type ProposeOptions struct {
	Kinds       []model.ProposalKind // none: every kind
	IncludeTeam bool
	// Proposer, when set, is a command run once per memory directory in
	// place of memtui's proposers (the proposer protocol); Timeout kills
	// it and everything it started.
	Proposer string
	Timeout  time.Duration
	// Stderr receives the proposer's own stderr, made safe, and a line for
	// each proposal memtui's checks rejected.
	Stderr io.Writer
	// Drop frees each directory's contents once its proposals are made
	// (nothing then shows their diffs).
	Drop bool
}

// Propose computes the proposals for every directory of the scan, loading
// each as it goes on one bounded pool: memtui's own, or an external
// proposer's, checked like memtui's. The contents stay loaded (the diffs
// show them) unless Drop.
func (w *Workspace) Propose(ctx context.Context, po ProposeOptions) ([]model.Proposal, error) {
	dopts := dream.Options{Options: w.CheckOpts, Kinds: po.Kinds, IncludeTeam: po.IncludeTeam}.ForScan(w.Scan)
	if dopts.Wants(model.KindAdopt) {
		dopts.Adopt = w.Adoptable(ctx, w.Scan.Strands)
	}
	if po.Proposer != "" {
		return w.external(ctx, dopts, po)
	}
	jobs := consolidate.DirJobs(w.Scan, dopts.Proposes)
	results := make([][]model.Proposal, len(jobs))
	pool.Run(ctx, len(jobs), dopts.Workers, func(i int) {
		j := jobs[i]
		if err := w.Load(ctx, j.D); err != nil {
			return // lint reports the unreadable directory
		}
		results[i] = AgentProposals(j.P, dream.ProposeDir(j.P, j.D, dopts))
		if po.Drop {
			j.D.DropContent()
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []model.Proposal
	for _, r := range results {
		out = append(out, r...)
	}
	// Codex's stores, with Codex's rules (dream.ProposeCodex): the kinds
	// asked for only.
	for _, s := range w.Codex {
		for _, p := range dream.ProposeCodex(s, dopts) {
			if len(po.Kinds) == 0 || slices.Contains(po.Kinds, p.Kind) {
				out = append(out, p)
			}
		}
	}
	dream.SortProposals(out)
	return out, nil
}

// external runs the proposer once per memory directory that has files,
// and keeps the proposals that pass memtui's checks; each rejected one is
// reported with the reason.
func (w *Workspace) external(ctx context.Context, dopts dream.Options, po ProposeOptions) ([]model.Proposal, error) {
	stderr := po.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	var out []model.Proposal
	for _, p := range w.Scan.Projects {
		for _, d := range p.Dirs {
			if !dopts.Proposes(d) {
				continue
			}
			if err := w.Load(ctx, d); err != nil {
				return nil, err
			}
			if len(d.Files) == 0 && d.Index == nil {
				continue
			}
			in, err := json.Marshal(dream.NewProposerInput(p, d, dopts))
			if err != nil {
				return nil, err
			}
			// The proposer's own stderr is relayed made safe: it is not
			// memtui's to trust.
			raw, err := memfs.RunCommand(ctx, po.Proposer, in, po.Timeout, safe.Writer(stderr))
			if err != nil {
				return nil, fmt.Errorf("the proposer for %s: %w", d.Path, err)
			}
			var res dream.ProposerOutput
			if err := json.Unmarshal(raw, &res); err != nil {
				return nil, fmt.Errorf("the proposer for %s did not print proposals as JSON ({\"version\":1,\"proposals\":[...]}): %v", d.Path, err)
			}
			if res.Version != dream.ProposerVersion {
				return nil, fmt.Errorf("the proposer for %s answered protocol version %d; memtui speaks %d", d.Path, res.Version, dream.ProposerVersion)
			}
			for i, prop := range res.Proposals {
				// What is on disk at the paths it names, now: a symlink or
				// a FIFO there is refused before anyone reviews it.
				paths := make([]string, 0, len(prop.Changes))
				for _, c := range prop.Changes {
					paths = append(paths, c.Path)
					if c.From != "" {
						paths = append(paths, c.From) // a move's source
					}
				}
				checked, err := dream.CheckExternalOnDisk(p, d, prop, po.IncludeTeam, memfs.LstatPaths(d.Path, paths))
				if err != nil {
					fmt.Fprintf(stderr, "memtui: rejected proposal %d (\"%s\") from the proposer for %s: %s\n", i+1, safe.ShowLine(prop.Title), safe.ShowLine(d.Path), safe.ShowLine(err.Error()))
					continue
				}
				if len(dopts.Kinds) > 0 && !slices.Contains(dopts.Kinds, checked.Kind) {
					continue
				}
				out = append(out, checked)
			}
		}
	}
	dream.SortProposals(out)
	return out, nil
}

// OpenBaseline is the memory dir's review baseline. A directory seen for
// the first time gets one recorded at now (not when ReadOnly, which
// records nothing), so "changes since" starts there; first says so.
func (w *Workspace) OpenBaseline(d *model.MemoryDir, now time.Time) (base *model.Baseline, first bool, err error) {
	if err := w.recordDemoReview(d); err != nil {
		return nil, true, err
	}
	return memfs.OpenBaseline(w.State.Seen, d, now, !w.ReadOnly)
}

// recordDemoReview records the demo's review of d, made before the
// sessions that wrote into it since, as d's baseline, the first time d is
// opened: the demo's first run then shows those sessions' writes as
// changes, as a user's own first run after a parallel session would. Only
// the demo has such reviews, and its state is scratch, so even --readonly
// records it (memtui's own copy of the sample, like the tree).
func (w *Workspace) recordDemoReview(d *model.MemoryDir) error {
	w.reviewMu.Lock()
	defer w.reviewMu.Unlock()
	r, ok := w.reviews[d.Path]
	if !ok {
		return nil
	}
	delete(w.reviews, d.Path)
	if b, err := memfs.LoadBaseline(w.State.Seen, d.Path); b != nil || err != nil {
		return nil // recorded already (a review the user made since), or memfs says why not below
	}
	b := model.NewBaseline(d, r.Time, consolidate.SHA256Hex)
	for _, p := range r.Absent {
		delete(b.Files, p)
	}
	for p, text := range r.Texts {
		b.Files[p] = model.BaselineFile{SHA256: consolidate.SHA256Hex([]byte(text)), Text: text}
	}
	return memfs.SaveBaseline(w.State.Seen, b)
}

// Baseline reads the memory dir's review baseline as recorded (nil when
// there is none), after a write that may have scrubbed a secret from it.
func (w *Workspace) Baseline(dir string) (*model.Baseline, error) {
	if w.State.Seen == "" {
		return nil, nil
	}
	return memfs.LoadBaseline(w.State.Seen, dir)
}

// SaveBaseline records a review baseline made already (the TUI builds
// them as the user marks files seen).
func (w *Workspace) SaveBaseline(b *model.Baseline) error {
	if w.ReadOnly {
		return fmt.Errorf("--readonly records no review")
	}
	return memfs.SaveBaseline(w.State.Seen, b)
}

// MarkReviewed records the memory dir as reviewed at now: the next
// "changes since" starts from its files as they are.
func (w *Workspace) MarkReviewed(d *model.MemoryDir, now time.Time) (*model.Baseline, error) {
	if w.ReadOnly {
		return nil, fmt.Errorf("--readonly records no review")
	}
	b := model.NewBaseline(d, now, consolidate.SHA256Hex)
	return b, memfs.SaveBaseline(w.State.Seen, b)
}
