package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// propItem is one Dream proposal ready to review: its diffs computed and
// every text it shows masked, in the background.
type propItem struct {
	p                model.Proposal
	project          string // the project as shown (~ for home)
	dir              string // the store, when not the project's main memory
	title, rationale string
	diffs            []fileDiff
	// proj and d are the project (a copy) and the directory as the
	// proposal read them: Partial and CheckExternal check against them.
	proj *model.Project
	d    *model.MemoryDir
	// codex is set for a proposal over a Codex store: its hunks are kept
	// by Codex's rules (dream.PartialCodex), not an index's.
	codex bool
	// blocks counts each change's blocks (diff.Blocks).
	blocks []int
	// edited is set once a person edited a result in $EDITOR.
	edited bool
	// label, when set, replaces the "kind · ID" line over the diff (the
	// changes view shows changes, not proposals).
	label string
	// observed: the diffs are changes someone made (the changes and the
	// sessions views), not ones memtui would write: a delete there kept
	// nothing in memtui's journal.
	observed bool
	// reads caches model.ReadsPrint(p) (readsPrint).
	reads     string
	readsDone bool
}

// propGroup is one project's proposals.
type propGroup struct {
	name  string
	items []*propItem
}

// Messages of the background proposals.
type (
	proposalsTickMsg struct{ seq int }
	proposalsMsg     struct {
		gen     int
		results map[*dirData][]*propItem
	}
)

// propState is the view's bookkeeping for computing proposals. They are
// computed per directory and cached by its *dirData: a reload replaces the
// value, so a cached entry is exact, and a change recomputes only the
// directories it touched.
type propState struct {
	cache map[*dirData][]*propItem
	dirty bool
	// wanted is set once the view has been opened; from then on the list
	// is kept current in the background (the title bar counts it).
	wanted  bool
	tickSeq int
	running int // computations in flight
}

// proposalJob is one directory to propose for. The project is a copy made
// in Update: a reload replaces entries of the live project's Dirs.
type proposalJob struct {
	p       *model.Project
	dd      *dirData
	project string
	// cx, set for a Codex store, is proposed for with Codex's rules.
	cx *app.CodexStore
}

// open notes the view is wanted and computes what is stale.
func (v *proposalsView) open(r run) tea.Cmd {
	v.props.wanted = true
	if v.props.dirty || !v.computed {
		return v.compute(r)
	}
	return nil
}

// changed notes that the loaded data changed; once the view has been
// opened the proposals catch up at most a few times a second.
func (v *proposalsView) changed() tea.Cmd {
	v.props.dirty = true
	if !v.props.wanted {
		return nil
	}
	v.props.tickSeq++
	seq := v.props.tickSeq
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return proposalsTickMsg{seq} })
}

func (v *proposalsView) onTick(msg proposalsTickMsg, r run) tea.Cmd {
	if msg.seq != v.props.tickSeq || !v.props.dirty {
		return nil
	}
	return v.compute(r)
}

// compute starts a Cmd that proposes for every loaded directory not yet
// in the cache (team memory is left alone, as dream does by default), on
// the one worker pool with as many workers as the loader (proposing
// re-runs the checks, a few seconds' work on a large tree); with nothing
// to compute it only regroups.
func (v *proposalsView) compute(r run) tea.Cmd {
	v.props.dirty = false
	if v.props.cache == nil {
		v.props.cache = map[*dirData][]*propItem{}
	}
	var jobs []proposalJob
	for _, pd := range r.data {
		if !pd.loaded {
			continue
		}
		if pd.cx != nil {
			if _, ok := v.props.cache[pd.cxdd]; !ok {
				jobs = append(jobs, proposalJob{dd: pd.cxdd, project: projectLabel(pd, v.c.home), cx: pd.cx})
			}
			continue
		}
		var pc *model.Project
		for _, dd := range pd.dirs {
			if _, ok := v.props.cache[dd]; ok || dd.d.Kind == model.DirTeam {
				continue
			}
			if pc == nil {
				c := *pd.p
				c.Dirs = slices.Clone(pd.p.Dirs)
				pc = &c
			}
			jobs = append(jobs, proposalJob{p: pc, dd: dd, project: report.Tilde(pd.p.Name(), v.c.home)})
		}
	}
	if len(jobs) == 0 {
		v.assemble(r)
		return nil
	}
	v.props.running++
	v.computing = true
	opts := dream.Options{Options: r.copts}
	gen, ctx, workers, ws, strands := r.gen, r.ctx, r.workers, r.ws, r.strands
	return func() tea.Msg {
		if ws != nil {
			opts.Adopt = ws.Adoptable(ctx, strands)
		}
		out := make([][]*propItem, len(jobs))
		pool.Run(ctx, len(jobs), workers, func(i int) { out[i] = proposeFor(jobs[i], opts) })
		res := make(map[*dirData][]*propItem, len(jobs))
		if ctx.Err() == nil {
			for i, j := range jobs {
				res[j.dd] = out[i]
			}
		}
		return proposalsMsg{gen: gen, results: res}
	}
}

// proposeFor proposes for one directory and diffs every change against
// the file as the proposal read it.
func proposeFor(j proposalJob, opts dream.Options) []*propItem {
	sc := opts.Secrets
	if sc == nil {
		sc = secrets.Default()
	}
	d := j.dd.d
	label := ""
	if d.Kind != model.DirAuto {
		label = dirLabel(d)
	}
	var ps []model.Proposal
	if j.cx != nil {
		ps = dream.ProposeCodex(j.cx.Store, opts)
	} else {
		ps = app.AgentProposals(j.p, dream.ProposeDir(j.p, d, opts))
	}
	items := make([]*propItem, 0, len(ps))
	for _, p := range ps {
		it := &propItem{p: p, project: j.project, dir: label, proj: j.p, d: d, codex: j.cx != nil,
			// Masked with the view's scanner; made safe where drawn.
			title: safe.Mask(sc, p.Title), rationale: safe.Mask(sc, p.Rationale)}
		for _, c := range p.Changes {
			before := beforeText(d, c.Source())
			it.diffs = append(it.diffs, diffChange(c, before, sc))
			it.blocks = append(it.blocks, diff.Blocks(c, before))
		}
		if p.Also != nil {
			// The second store's changes (an adopt's), shown after the
			// first's under their store's name; the proposal is taken
			// whole, so they have no blocks to toggle.
			other := alsoDir(opts, p.Also.MemoryDir)
			for _, c := range p.Also.Changes {
				before := ""
				if other != nil {
					before = beforeText(other, c.Source())
				}
				fd := diffChange(c, before, sc)
				fd.path = filepath.Base(filepath.Dir(p.Also.MemoryDir)) + ": " + fd.path
				it.diffs = append(it.diffs, fd)
			}
		}
		items = append(items, it)
	}
	return items
}

// alsoDir is the stranded store dir, as the proposers were given it.
func alsoDir(opts dream.Options, dir string) *model.MemoryDir {
	for _, sts := range opts.Adopt {
		for _, st := range sts {
			if st.Dir != nil && st.Dir.Path == dir {
				return st.Dir
			}
		}
	}
	return nil
}

// beforeText is a file's content as loaded ("" when there is none).
func beforeText(d *model.MemoryDir, path string) string {
	if path == "MEMORY.md" {
		if d.Index != nil {
			return string(d.Index.Content)
		}
		return ""
	}
	for _, f := range d.Files {
		if f.Path == path {
			return string(f.Content)
		}
	}
	return ""
}

// onResults caches a computation's proposals (a refresh made an older
// generation's obsolete) and regroups.
func (v *proposalsView) onResults(msg proposalsMsg, r run) tea.Cmd {
	v.props.running = max(v.props.running-1, 0)
	if msg.gen == r.gen {
		for dd, items := range msg.results {
			v.props.cache[dd] = items
		}
	}
	v.assemble(r)
	return v.loadDecisions(r)
}

// assemble groups the cached proposals by project, in the project list's
// order, and drops what no longer belongs to a loaded directory.
func (v *proposalsView) assemble(r run) {
	live := map[*dirData]bool{}
	var groups []propGroup
	v.proposedIn = map[string]bool{}
	for _, pd := range r.data {
		if !pd.loaded {
			continue
		}
		g := propGroup{name: projectLabel(pd, v.c.home)}
		dirs := pd.dirs
		if pd.cx != nil {
			dirs = []*dirData{pd.cxdd}
		}
		for _, dd := range dirs {
			live[dd] = true
			items, ok := v.props.cache[dd]
			if ok {
				v.proposedIn[dd.d.Path] = true // in, if with nothing to propose
			}
			g.items = append(g.items, items...)
		}
		if len(g.items) > 0 {
			groups = append(groups, g)
		}
	}
	for dd := range v.props.cache {
		if !live[dd] {
			delete(v.props.cache, dd)
		}
	}
	v.computing = v.props.running > 0
	v.loading = r.loading
	v.setGroups(groups)
}

// key handles the proposals view's keys (keyOf) and records a decision
// it changed.
func (v *proposalsView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	cmd := v.keyOf(k, h)
	return tea.Batch(cmd, v.persist(h.run()))
}

// keyOf handles the proposals view's keys: leaving (from the diff, back to
// the list first), writing the accepted set, editing a result; the rest
// decide and move.
func (v *proposalsView) keyOf(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Proposals
	switch {
	case key.Matches(k, keys.Filter):
		return h.startFilter()
	case key.Matches(k, keys.Back) && !v.focusDiff && v.filter != "":
		v.setFilter("")
		return nil
	case key.Matches(k, keys.AcceptShown):
		v.decideShown(h, true)
		return nil
	case key.Matches(k, keys.RejectShown):
		v.decideShown(h, false)
		return nil
	case key.Matches(k, keys.Back) && !v.back():
		return h.navigate(navigateMsg{to: viewBrowse})
	case key.Matches(k, keys.Back):
		return nil
	case key.Matches(k, keys.Write):
		return v.askWrite(h)
	case key.Matches(k, keys.Edit):
		return v.editResult(h)
	}
	return v.Update(k)
}

// proposalsView lists the Dream proposals of every loaded project, grouped
// by project, beside (wide) or above (narrow) the selected one's diff. A
// person accepts, rejects or keeps some hunks of each; the root writes the
// accepted set (w). The view computes its list itself, in the background.
type proposalsView struct {
	listDiff
	items []*propItem // list rows refer to these
	nproj int
	// dec is the decisions, by proposal ID; sc masks edited results.
	dec map[string]*decision
	sc  *secrets.Scanner
	// progress is a write in progress; lastWrite the last one's counts.
	progress, lastWrite string
	groups              []propGroup
	// filter narrows the list to proposals matching every word of it
	// (title, kind, project, store, ID); shown counts them.
	filter string
	shown  int
	// orphans are decisions whose proposal left the list while its dir
	// was read again, by old ID: they go to its successor (setGroups).
	// proposedIn are the memory dirs whose proposals are in for the data
	// loaded now (some may have none).
	proposedIn map[string]bool
	// lostNote says which hunk choices a proposal made again lost.
	orphans  map[string]orphan
	lostNote string
	// saved are the recorded decisions of each dir, as last read or
	// written (nil while being read): see decisions.go.
	saved map[string]map[string]model.Decision
	// saving marks a dir whose decisions are being written; queued holds
	// the newest ones asked for meanwhile (decisions.go: save).
	saving map[string]bool
	queued map[string]map[string]model.Decision
	// editing is a result open in $EDITOR (e), until it comes back.
	editing *pendingEdit
	// props is the computing of the list, in the background.
	props     propState
	computing bool
	computed  bool
	loading   bool
}

func newProposalsView(c *shared, sc *secrets.Scanner) *proposalsView {
	v := &proposalsView{listDiff: newListDiff(c), sc: sc, dec: map[string]*decision{}}
	if !c.readonly {
		v.diff.decOf = v.decisionOf
	}
	return v
}

// setGroups replaces the proposals, keeping the selected one when it is
// still proposed.
func (v *proposalsView) setGroups(groups []propGroup) {
	keep := ""
	if it := v.selected(); it != nil {
		keep = it.p.ID
	}
	was := map[string]*propItem{}
	for _, it := range v.items {
		was[it.p.ID] = it
	}
	v.items = v.items[:0]
	v.nproj = len(groups)
	v.groups = groups
	live := map[string]bool{}
	for _, g := range groups {
		for _, it := range g.items {
			v.items = append(v.items, it)
			live[it.p.ID] = true
			d := v.dec[it.p.ID]
			if d == nil || was[it.p.ID] == it {
				continue
			}
			// A recomputed item starts from the proposal as made: redo a
			// person's edits on it, and work out what w writes from it,
			// with the bases of the files as they are now (the old ones
			// would conflict for ever).
			if len(d.edited) > 0 && !it.edited {
				v.rediff(it, d)
			}
			v.carry(it, d, "")
		}
	}
	if v.orphans == nil {
		v.orphans = map[string]orphan{}
	}
	for id, d := range v.dec {
		if live[id] {
			continue
		}
		delete(v.dec, id) // applied, or proposed no more
		if old := was[id]; old != nil && d.state() != stUndecided && (d.result == nil || d.result.Status != txn.StatusApplied) {
			v.orphans[id] = orphan{old, d} // made again, perhaps: see below
		}
	}
	// A decision whose proposal was made again over files that changed
	// (a conflict, an agent's write) goes to its successor, the same kind
	// over the same files, once the dir's proposals are in again; with no
	// successor among them, it goes (it must not wait for a proposal made
	// hours later).
	var lost []string
	for id, o := range v.orphans {
		if !v.proposedIn[o.old.p.MemoryDir] {
			continue // not proposed again yet (the dir is being read)
		}
		delete(v.orphans, id)
		if it := v.successor(o.old); it != nil {
			if note := v.carry(it, o.d, o.old.title); note != "" {
				lost = append(lost, note)
			}
			v.dec[it.p.ID] = o.d
		}
	}
	if len(lost) > 0 {
		v.lostNote = strings.Join(lost, "; ")
	}
	v.refreshRows()
	v.computed = true
	v.layout() // the narrow list's height follows its rows
	kept := false
	if keep != "" {
		for i, it := range v.items {
			if it.p.ID == keep {
				kept = v.list.selectRef(i)
				break
			}
		}
	}
	if !kept {
		v.list.top()
	}
	v.follow()
}

// refreshRows redraws the list's rows: each proposal with its state mark
// (✓ accepted, ◐ partly, ✗ rejected, · undecided), its kind and title,
// and on the right what became of it or what is wrong with it.
func (v *proposalsView) refreshRows() {
	kindW := 0
	for _, it := range v.items {
		kindW = max(kindW, len(it.p.Kind))
	}
	var rows []row
	i := 0
	terms := strings.Fields(strings.ToLower(v.filter))
	v.shown = 0
	for _, g := range v.groups {
		head := len(rows)
		rows = append(rows, row{header: true, left: g.name + "  " + kindCounts(g.items)})
		for _, it := range g.items {
			// The title names the file it acts on last: a cut keeps it.
			r := row{ref: i, right: it.dir, cut: cutKeepFile}
			i++
			if !matchesAll(terms, g.name, string(it.p.Kind), it.title, it.dir, it.p.ID) {
				continue
			}
			v.shown++
			if v.c.readonly {
				r.left = fmt.Sprintf("  %-*s  %s", kindW, it.p.Kind, it.title)
				rows = append(rows, r)
				continue
			}
			r.left = fmt.Sprintf("%-*s  %s", kindW, it.p.Kind, it.title)
			r.badge, r.sev = "·", -1
			var notes []string
			if d := v.dec[it.p.ID]; d != nil {
				st := d.state()
				r.badge = st.mark()
				r.dim = st == stRejected
				switch {
				case d.result != nil:
					notes = append(notes, string(d.result.Status))
				case d.err != nil:
					notes = append(notes, "invalid")
				}
				if it.edited {
					notes = append(notes, "edited")
				}
			}
			if it.dir != "" {
				notes = append(notes, it.dir)
			}
			r.right = strings.Join(notes, " · ")
			rows = append(rows, r)
		}
		if len(rows) == head+1 {
			rows = rows[:head] // a project none of whose proposals match
		}
	}
	v.list.setRows(rows)
}

// matchesAll reports whether every term is in one of the fields (terms
// are lower case; the fields are compared lower-cased).
func matchesAll(terms []string, fields ...string) bool {
	if len(terms) == 0 {
		return true
	}
	hay := strings.ToLower(strings.Join(fields, "\x00"))
	for _, t := range terms {
		if !strings.Contains(hay, t) {
			return false
		}
	}
	return true
}

// orphan is a decision waiting for its proposal to be made again.
type orphan struct {
	old *propItem
	d   *decision
}

// carry puts decision d on item it, a proposal made again: hunk choices
// stay where its changes still have the same blocks; a change whose
// blocks differ now is kept whole if it was, else dropped, and the note
// says so (title names the proposal as it was, "" when it is the same).
func (v *proposalsView) carry(it *propItem, d *decision, title string) string {
	var lost []string
	sel := make([][]bool, len(it.p.Changes))
	for i := range it.p.Changes {
		sel[i] = make([]bool, it.blockCount(i))
		if i < len(d.sel) && len(d.sel[i]) == len(sel[i]) {
			copy(sel[i], d.sel[i])
			continue
		}
		if i < len(d.sel) && !slices.Contains(d.sel[i], false) && len(d.sel[i]) > 0 {
			for b := range sel[i] {
				sel[i][b] = true // kept whole before: whole now
			}
			continue
		}
		if i < len(d.sel) && slices.Contains(d.sel[i], true) {
			lost = append(lost, it.p.Changes[i].Path)
		}
	}
	d.sel = sel
	d.result = nil
	it.revalidate(d)
	if len(lost) == 0 {
		return ""
	}
	if title == "" {
		title = it.title
	}
	// What to do and where come first: a status line is cut at its end.
	return safe.ShowLine(fmt.Sprintf("decide again: the hunks kept in %s changed (“%s”)", strings.Join(lost, ", "), title))
}

// successor is the proposal now listed that old is made again as: the
// same kind in the same dir, sharing the most files it reads and replaces.
func (v *proposalsView) successor(old *propItem) *propItem {
	mine := map[string]bool{}
	for _, c := range old.p.Changes {
		mine[c.Source()] = true
	}
	var best *propItem
	most := 0
	for _, it := range v.items {
		if it.p.Kind != old.p.Kind || it.p.MemoryDir != old.p.MemoryDir || v.dec[it.p.ID] != nil {
			continue
		}
		n := 0
		for _, c := range it.p.Changes {
			if mine[c.Source()] {
				n++
			}
		}
		if n > most {
			best, most = it, n
		}
	}
	return best
}

// setFilter narrows the list, keeping the selection when it still shows.
func (v *proposalsView) setFilter(s string) {
	keep := ""
	if it := v.selected(); it != nil {
		keep = it.p.ID
	}
	v.filter = s
	v.refreshRows()
	v.layout()
	for i, it := range v.items {
		if it.p.ID == keep && v.list.selectRef(i) {
			v.follow()
			return
		}
	}
	v.list.top()
	v.follow()
}

// shownItems are the proposals the list shows (the filter's).
func (v *proposalsView) shownItems() []*propItem {
	var out []*propItem
	for _, r := range v.list.rows {
		if !r.header {
			out = append(out, v.items[r.ref])
		}
	}
	return out
}

// kindCounts says how many proposals of each kind, in the order dream
// proposes them: "2 redact-secret · 1 reindex".
func kindCounts(items []*propItem) string {
	counts := map[model.ProposalKind]int{}
	var order []model.ProposalKind
	for _, it := range items {
		if counts[it.p.Kind] == 0 {
			order = append(order, it.p.Kind)
		}
		counts[it.p.Kind]++
	}
	rank := func(k model.ProposalKind) int {
		if i := slices.Index(model.ProposalKinds, k); i >= 0 {
			return i
		}
		return len(model.ProposalKinds)
	}
	slices.SortStableFunc(order, func(a, b model.ProposalKind) int { return rank(a) - rank(b) })
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, " · ")
}

// selected is the proposal under the cursor, or nil.
func (v *proposalsView) selected() *propItem {
	r := v.list.selected()
	if r == nil || r.ref >= len(v.items) {
		return nil
	}
	return v.items[r.ref]
}

// follow shows the selected proposal's diff when the selection moved.
func (v *proposalsView) follow() {
	if it := v.selected(); it != v.diff.item {
		v.diff.show(it)
	}
}

func (v *proposalsView) setFocus(diff bool) {
	v.focusDiff = diff
	v.layout()
}

// back leaves the diff for the list; false when the list has focus
// already (the root then leaves the view).
func (v *proposalsView) back() bool {
	if v.diff.anchor >= 0 {
		v.diff.anchor = -1 // esc drops a range first
		return true
	}
	if v.zoom {
		v.setZoom(false) // then the zoom, leaving the diff the keys
		return true
	}
	if !v.focusDiff {
		return false
	}
	v.setFocus(false)
	return true
}

func (v *proposalsView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys, diff := v.c.keys.Proposals, v.c.keys.Diff
	switch {
	case v.paneKeys(k, keys.NextPane, keys.PrevPane, keys.Open, v.selected() != nil, v.setFocus):
	case key.Matches(k, keys.Accept):
		v.accept()
	case key.Matches(k, keys.Reject):
		v.reject()
	case key.Matches(k, keys.Toggle) && v.focusDiff && v.diff.item != nil:
		v.toggleHunks()
	case key.Matches(k, keys.Toggle):
		v.toggle()
	case key.Matches(k, keys.Range) && v.focusDiff && v.diff.deciding():
		if v.diff.anchor >= 0 {
			v.diff.anchor = -1
		} else {
			v.diff.anchor = v.diff.cur
		}
	case key.Matches(k, diff.NextHunk, diff.PrevHunk) && v.diff.deciding():
		step := 1
		if key.Matches(k, diff.PrevHunk) {
			step = -1
		}
		v.diff.moveUnit(step)
	case v.diffKey(k):
		return v.diff.Update(k)
	case listKeys(&v.list, v.c, k):
		v.follow()
	}
	return nil
}

// wheel scrolls the part under the pointer; x and y count from the view's
// top left corner.
func (v *proposalsView) wheel(x, y, n int) { v.listDiff.wheel(x, y, n, v.follow) }

// click selects the proposal clicked, or gives the diff the keys.
func (v *proposalsView) click(x, y int) { v.listDiff.click(x, y, v.follow, v.setFocus) }

func (v *proposalsView) View() string {
	st := v.c.st
	status := v.statusLine()
	empty := "No proposals: nothing to consolidate."
	switch {
	case v.computing && len(v.items) == 0:
		empty = "Computing proposals…"
	case !v.computed:
		empty = "Waiting for the projects to be read…"
	case v.filter != "" && len(v.items) > 0:
		empty = noMatch("proposal", v.filter, v.c.keys.Proposals.Back)
	}
	v.list.dim = st.Faint
	hunks := v.hunkNote()
	if n := len(v.diff.units); v.diff.deciding() && n > 0 {
		hunks = fmt.Sprintf("hunk %d/%d", v.diff.cur+1, n)
		if v.diff.anchor >= 0 {
			hunks = fmt.Sprintf("hunks %d–%d/%d", min(v.diff.anchor, v.diff.cur)+1, max(v.diff.anchor, v.diff.cur)+1, n)
		}
	}
	return v.render(status, fmt.Sprintf("Proposals (%d)", len(v.items)), hunks, empty)
}

// heading tops the list or the diff: bright when it has the keys, with a
// rule to the right edge.
// paneHeading tops one part of a full-screen view: bright when that part
// has the keys, with a rule to the right edge and a note at its end.
func paneHeading(c *shared, title, right string, w int, focused bool) string {
	st := c.st
	style := st.GroupHeader
	if focused {
		style = st.PaneTitle
	}
	if right != "" {
		right = " " + right + " "
	}
	title = ansi.Truncate(title, w, "…")
	fill := w - ansi.StringWidth(title) - 1 - ansi.StringWidth(right)
	if fill < 1 {
		return style.Render(title)
	}
	rule := paint.New(st.Faint)
	return style.Render(title) + " " + rule.Paint(strings.Repeat("─", fill)) + st.Faint.Render(right)
}

// statusLine counts the proposals and says that nothing here writes.
func (v *proposalsView) statusLine() string {
	st := v.c.st
	var left string
	switch {
	case !v.computed && v.computing:
		left = "computing proposals…"
	case !v.computed:
		left = "proposals are computed once the projects are read"
	default:
		left = fmt.Sprintf("%d %s in %d %s", len(v.items), model.Plural(len(v.items), "proposal", "proposals"),
			v.nproj, model.Plural(v.nproj, "project", "projects"))
		if v.filter != "" {
			left = fmt.Sprintf("%d of %s matching “%s”", v.shown, left, safe.ShowLine(v.filter))
		}
		if v.c.readonly {
			left += " · read-only: nothing is written"
		} else {
			acc, partly, rej, invalid := v.counts()
			left += fmt.Sprintf(" · %d accepted · %d rejected", acc, rej)
			if partly > 0 {
				left += fmt.Sprintf(" (%d partly)", partly)
			}
			if invalid > 0 {
				left += fmt.Sprintf(" · %d invalid", invalid)
			}
		}
		if v.lostNote != "" {
			left += " · " + v.lostNote
		}
		switch {
		case v.progress != "":
			left += " · " + v.progress
		case v.lastWrite != "":
			left += " · last write: " + v.lastWrite
		}
		if v.computing {
			left += " · computing…"
		} else if v.loading {
			left += " · still reading projects"
		}
	}
	other := "side by side"
	if v.diff.split {
		other = "unified"
	}
	p, df := v.c.keys.Proposals, v.c.keys.Diff
	hunk := key1(df.NextHunk) + "/" + key1(df.PrevHunk) + " hunk"
	hint := key1(p.NextPane) + " diff · " + key1(df.Mode) + " " + other + " · " + hunk
	if v.focusDiff {
		hint = key1(p.Back) + " list · " + key1(df.Mode) + " " + other + " · " + hunk
	}
	if !v.c.readonly {
		hint = key1(p.Toggle) + "/" + key1(p.Accept) + "/" + key1(p.Reject) + " decide · " + key1(p.Write) + " write"
		if v.focusDiff {
			hint = hunk + " · " + key1(p.Toggle) + " keep/drop · " + key1(p.Range) + " range · " + key1(p.Write) + " write"
		}
	}
	if ansi.StringWidth(left)+ansi.StringWidth(hint)+2 > v.w {
		hint = "" // the counts matter more; the footer has the keys
	}
	return st.Faint.Render(layoutRow(left, hint, v.w))
}

func (v *proposalsView) scope() keymap.Scope { return keymap.ScopeProposals }

func (v *proposalsView) ShortHelp() []key.Binding {
	k := v.c.keys
	p := k.Proposals
	if v.focusDiff {
		return append(v.diff.shortHelp(p.Back), p.Toggle, p.Range, p.Write)
	}
	return []key.Binding{k.Move.Up, k.Move.Down, p.Toggle, p.Accept, p.Reject, p.Write, p.NextPane, k.Diff.Mode, k.Diff.NextHunk, p.Back}
}
