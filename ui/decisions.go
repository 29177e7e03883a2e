package ui

import (
	"maps"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// Review decisions outlive the TUI: each memory dir's are read from
// memtui's state once its proposals are listed, and written back whenever
// a decision changes (app.Workspace.Decisions, SaveDecisions). A decision
// holds while the proposal is made again the same (same ID, same reads);
// an edited result is a person's text and is not kept.

// Messages of the recorded decisions.
type (
	decisionsLoadedMsg struct {
		dir string
		ds  map[string]model.Decision
		err error
	}
	decisionsSavedMsg struct {
		dir string
		err error
	}
)

// loadDecisions reads the recorded decisions of every dir the list shows
// whose decisions are not read yet.
func (v *proposalsView) loadDecisions(r run) tea.Cmd {
	if v.c.readonly || r.ws.State.Seen == "" {
		return nil
	}
	if v.saved == nil {
		v.saved = map[string]map[string]model.Decision{}
	}
	var cmds []tea.Cmd
	for _, it := range v.items {
		dir := it.p.MemoryDir
		if _, ok := v.saved[dir]; ok {
			continue
		}
		v.saved[dir] = nil // being read
		ws := r.ws
		cmds = append(cmds, func() tea.Msg {
			ds, err := ws.Decisions(dir)
			return decisionsLoadedMsg{dir: dir, ds: ds, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// onDecisionsLoaded puts the recorded decisions back on the proposals
// that are made again the same and not decided since.
func (v *proposalsView) onDecisionsLoaded(msg decisionsLoadedMsg, h host) {
	if msg.err != nil {
		h.fail(msg.err)
	}
	if msg.ds == nil {
		msg.ds = map[string]model.Decision{}
	}
	v.saved[msg.dir] = msg.ds
	n := 0
	for _, it := range v.items {
		rec, ok := msg.ds[it.p.ID]
		if it.p.MemoryDir != msg.dir || !ok || !rec.Holds(it.p) {
			continue
		}
		if cur := v.dec[it.p.ID]; cur != nil && (cur.state() != stUndecided || len(cur.edited) > 0 || cur.result != nil) {
			continue // decided since it was listed: that decision stands
		}
		d := v.decisionOf(it)
		switch {
		case !rec.Accepted:
			d.rejected = true
		case keepFits(rec.Keep, d.sel):
			for i := range d.sel {
				copy(d.sel[i], rec.Keep[i])
			}
		default:
			d.setAll(true)
		}
		it.revalidate(d)
		n++
	}
	if n > 0 {
		v.refreshRows()
		v.diff.refresh()
	}
}

// readsPrint is model.ReadsPrint of the item's proposal, worked out once:
// persist asks for it on every key press in the view.
func (it *propItem) readsPrint() string {
	if !it.readsDone {
		it.reads, it.readsDone = model.ReadsPrint(it.p), true
	}
	return it.reads
}

// keepFits reports whether recorded block choices fit the blocks a
// proposal has now.
func keepFits(keep, sel [][]bool) bool {
	if keep == nil || len(keep) != len(sel) {
		return false
	}
	for i := range keep {
		if len(keep[i]) != len(sel[i]) {
			return false
		}
	}
	return true
}

// persist writes back the decisions of every dir whose recorded ones
// differ from those on screen (only dirs whose record was read: the rest
// is not known yet, and must not be written over).
func (v *proposalsView) persist(r run) tea.Cmd {
	if v.c.readonly || r.ws.State.Seen == "" {
		return nil
	}
	now := map[string]map[string]model.Decision{}
	for _, it := range v.items {
		dir := it.p.MemoryDir
		if v.saved[dir] == nil {
			continue
		}
		if now[dir] == nil {
			now[dir] = map[string]model.Decision{}
		}
		d := v.dec[it.p.ID]
		if d == nil || len(d.edited) > 0 || d.result != nil && d.result.Status == txn.StatusApplied {
			continue
		}
		var rec model.Decision
		switch d.state() {
		case stRejected:
		case stAccepted:
			rec.Accepted = true
		case stPartly:
			rec.Accepted = true
			rec.Keep = make([][]bool, len(d.sel))
			for i := range d.sel {
				rec.Keep[i] = slices.Clone(d.sel[i])
			}
		default:
			continue
		}
		rec.Reads, rec.Kind, rec.Title, rec.Time = it.readsPrint(), it.p.Kind, it.p.Title, v.c.clock()
		now[dir][it.p.ID] = rec
	}
	var cmds []tea.Cmd
	for dir, ds := range now {
		if sameDecisions(v.saved[dir], ds) {
			continue
		}
		v.saved[dir] = ds
		cmds = append(cmds, v.save(r, dir, ds))
	}
	return tea.Batch(cmds...)
}

// save writes dir's decisions in a Cmd, one write per dir at a time: two
// in flight could land out of order and leave the older decisions on
// disk. A save asked for meanwhile waits, and only the newest is written.
func (v *proposalsView) save(r run, dir string, ds map[string]model.Decision) tea.Cmd {
	if v.saving == nil {
		v.saving, v.queued = map[string]bool{}, map[string]map[string]model.Decision{}
	}
	if v.saving[dir] {
		v.queued[dir] = ds
		return nil
	}
	v.saving[dir] = true
	ws := r.ws
	return func() tea.Msg { return decisionsSavedMsg{dir: dir, err: ws.SaveDecisions(dir, ds)} }
}

// onSaved starts the save that waited for this one, if any.
func (v *proposalsView) onSaved(msg decisionsSavedMsg, r run) tea.Cmd {
	v.saving[msg.dir] = false
	ds, ok := v.queued[msg.dir]
	if !ok {
		return nil
	}
	delete(v.queued, msg.dir)
	return v.save(r, msg.dir, ds)
}

// sameDecisions compares two records, their times aside.
func sameDecisions(a, b map[string]model.Decision) bool {
	return maps.EqualFunc(a, b, func(x, y model.Decision) bool {
		return x.Accepted == y.Accepted && x.Reads == y.Reads && slices.EqualFunc(x.Keep, y.Keep, slices.Equal[[]bool])
	})
}
