package ui

import (
	"errors"
	"fmt"
	"path"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// Deciding on proposals: each proposal's blocks (diff.Blocks: the
// runs of changed lines of each change, a create or a delete one block)
// are selected or not. None selected is undecided, all accepted, some
// partly accepted; rejected is undecided with a mark, skipped by w.

// decState is what a person decided about a proposal.
type decState int

const (
	stUndecided decState = iota
	stAccepted
	stPartly
	stRejected
)

// mark is the one-cell sign of a state in the list.
func (s decState) mark() string {
	switch s {
	case stAccepted:
		return "✓"
	case stPartly:
		return "◐"
	case stRejected:
		return "✗"
	}
	return "·"
}

// decision is a person's choices about one proposal, kept by proposal ID
// so that they outlive a recomputation that finds the same proposal.
type decision struct {
	rejected bool
	// sel is, per change (in the proposal's order), which blocks are kept.
	sel [][]bool
	// edited holds the After a person wrote in $EDITOR, per change index.
	edited map[int]string
	// editErr is dream.CheckExternal's complaint about an edit.
	editErr error
	// final is what w writes; nil when nothing is accepted or err is set.
	final *model.Proposal
	// err says why the accepted choice cannot be written (Partial's
	// refusal, an invalid edit).
	err error
	// result is what the last write did to it.
	result *txn.ApplyResult
}

func newDecision(it *propItem) *decision {
	d := &decision{sel: make([][]bool, len(it.p.Changes))}
	for i := range it.p.Changes {
		d.sel[i] = make([]bool, it.blockCount(i))
	}
	return d
}

func (d *decision) state() decState {
	n, on := 0, 0
	for _, s := range d.sel {
		for _, b := range s {
			n++
			if b {
				on++
			}
		}
	}
	switch {
	case on == 0 && d.rejected:
		return stRejected
	case on == 0:
		return stUndecided
	case on == n:
		return stAccepted
	}
	return stPartly
}

// setAll selects (or drops) every block.
func (d *decision) setAll(on bool) {
	for _, s := range d.sel {
		for i := range s {
			s[i] = on
		}
	}
	if on {
		d.rejected = false
	}
}

// blockCount is how many blocks change i has (at least one, so that a
// change can always be toggled).
func (it *propItem) blockCount(i int) int {
	if i < len(it.blocks) {
		return max(it.blocks[i], 1)
	}
	return 1
}

// before is a file's content as the proposal read it, and whether it was
// there.
func (it *propItem) before(p string) (string, bool) {
	if it.d == nil {
		return "", false
	}
	if p == "MEMORY.md" {
		if it.d.Index != nil {
			return string(it.d.Index.Content), true
		}
		return "", false
	}
	for _, f := range it.d.Files {
		if f.Path == p {
			return string(f.Content), true
		}
	}
	return "", false
}

// proposalBefore is before limited to the files the proposal changes or
// reads, and the index: what dream.Partial expects. (Given every
// file of the directory, Partial counts an index entry of a file the
// proposal never touched as one the kept changes delete.)
func (it *propItem) proposalBefore(p string) (string, bool) {
	known := p == "MEMORY.md"
	for _, c := range it.p.Changes {
		known = known || c.Path == p || c.From == p
	}
	for _, r := range it.p.Reads {
		known = known || r.Path == p
	}
	if !known {
		return "", false
	}
	return it.before(p)
}

// proposal is the proposal with a person's edits, whole. Its Changes are
// a fresh slice: nothing shared with the item is ever changed in place.
func (it *propItem) proposal(d *decision) model.Proposal {
	p := it.p
	p.Changes = slices.Clone(p.Changes)
	for i, after := range d.edited {
		if i < len(p.Changes) {
			p.Changes[i].After = after
			// A person's words now: memtui no longer vouches that it
			// adds no fact, so the file is dated when written.
			p.External = true
		}
	}
	return p
}

// revalidate works out what w would write for the item: the whole
// proposal when every block is kept, else dream.Partial's.
func (it *propItem) revalidate(d *decision) {
	d.final, d.err = nil, nil
	switch d.state() {
	case stUndecided, stRejected:
		return
	}
	if d.editErr != nil {
		d.err = d.editErr
		return
	}
	p := it.proposal(d)
	keep := dream.Keep{}
	for i, c := range p.Changes {
		if slices.Contains(d.sel[i], false) {
			keep[c.Path] = slices.Clone(d.sel[i])
		}
	}
	if len(keep) == 0 {
		d.final = &p
		return
	}
	var out model.Proposal
	var err error
	if it.codex {
		out, err = dream.PartialCodex(p, it.proposalBefore, keep)
	} else {
		out, err = dream.PartialMode(p, it.proposalBefore, keep, it.d.Kind.LoadMode())
	}
	if err != nil {
		d.err = err
		return
	}
	d.final = &out
}

// decisionOf is the item's decision, made on first use.
func (v *proposalsView) decisionOf(it *propItem) *decision {
	if v.dec == nil {
		v.dec = map[string]*decision{}
	}
	d := v.dec[it.p.ID]
	if d == nil || len(d.sel) != len(it.p.Changes) {
		d = newDecision(it)
		v.dec[it.p.ID] = d
	}
	return d
}

// decide changes the selected proposal's decision and re-validates it.
func (v *proposalsView) decide(f func(d *decision)) {
	it := v.selected()
	if it == nil || v.c.readonly {
		return
	}
	d := v.decisionOf(it)
	f(d)
	d.result = nil
	it.revalidate(d)
	v.lostNote = "" // the person is deciding again: the note has been read
	v.refreshRows()
	v.diff.refresh()
}

// toggle accepts an undecided or rejected proposal whole, and makes an
// accepted (or partly accepted) one undecided.
func (v *proposalsView) toggle() {
	v.decide(func(d *decision) {
		switch d.state() {
		case stUndecided, stRejected:
			d.setAll(true)
		default:
			d.setAll(false)
		}
	})
}

func (v *proposalsView) accept() { v.decide(func(d *decision) { d.setAll(true) }) }

// decideShown accepts (or rejects) every proposal the list shows, whole:
// with a filter, the proposals that match it. One already written is
// left as it is.
func (v *proposalsView) decideShown(h host, accept bool) {
	if v.c.readonly {
		return
	}
	n := 0
	for _, it := range v.shownItems() {
		d := v.decisionOf(it)
		if d.result != nil && d.result.Status == txn.StatusApplied {
			continue
		}
		d.setAll(accept)
		d.rejected = !accept
		d.result = nil
		it.revalidate(d)
		n++
	}
	v.lostNote = ""
	v.refreshRows()
	v.diff.refresh()
	verb := "accepted"
	if !accept {
		verb = "rejected"
	}
	what := "every proposal"
	if v.filter != "" {
		what = "every proposal matching “" + safe.ShowLine(v.filter) + "”"
	}
	h.say(fmt.Sprintf("%s %s (%d)", verb, what, n))
}

func (v *proposalsView) reject() {
	v.decide(func(d *decision) {
		d.setAll(false)
		d.rejected = true
	})
}

// toggleHunks toggles the blocks of the diff's cursor (or range): all
// kept when any is not, else all dropped.
func (v *proposalsView) toggleHunks() {
	if it := v.selected(); it != nil && it.p.Also != nil {
		// An adopt spans two stores: part of it could remove a memory
		// from one without creating it in the other. It is taken whole.
		v.toggle()
		return
	}
	units := v.diff.selectedUnits()
	if len(units) == 0 {
		return
	}
	v.decide(func(d *decision) {
		all := true
		for _, u := range units {
			for _, b := range u.real {
				all = all && d.sel[u.ci][b]
			}
		}
		for _, u := range units {
			for _, b := range u.real {
				d.sel[u.ci][b] = !all
			}
		}
		if !all {
			d.rejected = false
		}
	})
	v.diff.anchor = -1
}

// counts says how many proposals are in each state, for the status line.
func (v *proposalsView) counts() (accepted, partly, rejected, invalid int) {
	for _, it := range v.items {
		d := v.dec[it.p.ID]
		if d == nil {
			continue
		}
		switch d.state() {
		case stAccepted:
			accepted++
		case stPartly:
			accepted++
			partly++
		case stRejected:
			rejected++
		}
		if d.err != nil {
			invalid++
		}
	}
	return
}

// leaveUnwritten runs then once quitting may drop the accepted
// proposals not written yet: at once when there are none (or a write is
// under way, which finishes first), else after a question that defaults
// to No: quitting writes nothing, whatever was decided.
func (m *Model) leaveUnwritten(then func() tea.Cmd) tea.Cmd {
	jobs, invalid := m.proposals.writePlan()
	n := len(invalid)
	for _, j := range jobs {
		n += len(j.props)
	}
	if n == 0 || m.ws.ReadOnly || m.writeBusy() {
		return then()
	}
	st := m.c.st
	lines := []string{""}
	for _, j := range jobs {
		for _, it := range j.items {
			lines = append(lines, "  "+safe.ShowLine(it.title))
		}
	}
	for _, it := range invalid {
		lines = append(lines, "  "+safe.ShowLine(it.title)+st.Faint.Render("  (cannot be written as it is)"))
	}
	yes, w := key1(m.c.keys.Dialog.Confirm), key1(m.c.keys.Proposals.Write)
	keep, hint := "Quitting writes nothing; the decisions are kept, and the next start shows them accepted.", yes+" quits without writing · any other key stays (then "+w+" writes them)"
	switch {
	case m.ws.Scratch:
		keep, hint = "Quitting writes nothing, and the demo's copy goes with its decisions.", yes+" quits and drops them · any other key stays (then "+w+" writes them)"
	case m.ws.State.Seen == "":
		keep, hint = "Quitting writes nothing and drops these decisions: there is no state dir to keep them in.", yes+" quits and drops them · any other key stays (then "+w+" writes them)"
	}
	lines = append(lines, "", st.Faint.Render(keep))
	m.openDialog(&dialog{
		kind:  dlgQuit,
		title: fmt.Sprintf("Quit with %d accepted %s not written?", n, model.Plural(n, "proposal", "proposals")),
		lines: lines,
		hint:  hint,
		after: then,
	})
	return nil
}

// writePlan gathers what w writes, grouped by memory directory in list
// order, and the accepted proposals that cannot be written.
func (v *proposalsView) writePlan() (jobs []writeJob, invalid []*propItem) {
	at := map[string]int{}
	for _, it := range v.items {
		d := v.dec[it.p.ID]
		if d == nil || d.result != nil && d.result.Status == txn.StatusApplied {
			continue
		}
		switch d.state() {
		case stUndecided, stRejected:
			continue
		}
		if d.final == nil {
			invalid = append(invalid, it)
			continue
		}
		dir := d.final.MemoryDir
		i, ok := at[dir]
		if !ok {
			i = len(jobs)
			at[dir] = i
			jobs = append(jobs, writeJob{dir: dir})
		}
		jobs[i].items = append(jobs[i].items, it)
		jobs[i].props = append(jobs[i].props, *d.final)
		if d.state() != stAccepted {
			if jobs[i].asIs == nil {
				jobs[i].asIs = map[string]bool{}
			}
			jobs[i].asIs[d.final.ID] = true
		}
	}
	return jobs, invalid
}

// Editing a proposed result in $EDITOR.

// askWrite asks to write the accepted proposals (the root runs the write
// once the dialog is answered).
func (v *proposalsView) askWrite(h host) tea.Cmd {
	if v.c.readonly {
		return nil
	}
	if h.writeBusy() {
		h.say("Still writing; wait for it to finish.")
		return nil
	}
	jobs, invalid := v.writePlan()
	if len(jobs) == 0 {
		if len(invalid) > 0 {
			d := v.dec[invalid[0].p.ID]
			h.fail(fmt.Errorf("\"%s\" cannot be written: %v", invalid[0].title, d.err))
			return nil
		}
		h.say("Nothing accepted to write: space or a accepts a proposal.")
		return nil
	}
	n, files := 0, 0
	var lines []string
	for _, j := range jobs {
		n += len(j.props)
		lines = append(lines, "", v.c.st.Bold.Render(safe.ShowLine(report.Tilde(j.dir, v.c.home))))
		for i, p := range j.props {
			lines = append(lines, "  "+safe.ShowLine(j.items[i].title))
			for _, c := range p.Changes {
				files++
				what := safe.ShowLine(c.Path)
				if c.Op == model.OpMove {
					what = safe.ShowLine(c.From) + " → " + what
				}
				lines = append(lines, "    "+opWord(c.Op)+"  "+what)
			}
		}
	}
	for _, it := range invalid {
		lines = append(lines, "", v.c.st.Error.Render(safe.ShowLine("not written: "+it.title+": "+v.dec[it.p.ID].err.Error())))
	}
	h.openDialog(&dialog{
		kind: dlgWrite,
		title: fmt.Sprintf("Write %d %s (%d %s) to %d memory %s?", n, model.Plural(n, "proposal", "proposals"),
			files, model.Plural(files, "file", "files"), len(jobs), model.Plural(len(jobs), "directory", "directories")),
		lines: lines,
		hint:  key1(v.c.keys.Dialog.Confirm) + " write · " + key1(v.c.keys.Dialog.Mark) + " write and mark the store consolidated (postpones Claude Code's autoDream a day) · any other key cancels",
		jobs:  jobs,
		owner: v,
	})
	return nil
}

// writeProgress shows a write of accepted proposals going on.
func (v *proposalsView) writeProgress(line string) { v.progress = line }

// writeResults marks each written proposal with its result.
func (v *proposalsView) writeResults(j writeJob, rs []txn.ApplyResult) {
	for i, r := range rs {
		if i < len(j.items) {
			v.decisionOf(j.items[i]).result = &r
		}
	}
	v.refreshRows()
	v.diff.refresh()
}

// writeDone puts the write's summary in a dialog.
func (v *proposalsView) writeDone(w *writeRun, h host) {
	v.progress = ""
	st := v.c.st
	counts := map[txn.ApplyStatus]int{}
	var lines []string
	for _, r := range w.results {
		counts[r.status]++
		var mark string
		switch r.status {
		case txn.StatusApplied:
			mark = st.OK.Render("✓ applied ")
		case txn.StatusConflict:
			mark = st.Sev[model.Warning].Render("! conflict")
		default:
			mark = st.Error.Render("✗ failed  ")
		}
		lines = append(lines, mark+"  "+safe.ShowLine(r.title))
		if r.why != "" {
			lines = append(lines, "             "+safe.ShowLine(r.why))
		}
	}
	summary := fmt.Sprintf("%d applied · %d conflict · %d failed", counts[txn.StatusApplied], counts[txn.StatusConflict], counts[txn.StatusFailed])
	v.lastWrite = summary
	dl := &dialog{kind: dlgResult, title: "Written: " + summary, lines: lines, hint: "any key closes · the journal (" + key1(v.c.keys.Views.Journal) + ") can undo what was written"}
	if counts[txn.StatusConflict] > 0 {
		dl.lines = append(dl.lines, "", st.Faint.Render("A conflict wrote nothing of its proposal: the file changed since it was proposed. The list is proposed again from what is on disk."))
	}
	if len(w.lockHeld) > 0 {
		dl.jobs, dl.mark, dl.owner = w.lockHeld, w.mark, v
		dl.hint = fmt.Sprintf("%s retry, waiting up to %s for the lock · any other key closes", key1(v.c.keys.Dialog.Confirm), lockWait)
	}
	h.openDialog(dl)
}

// pendingEdit is a change being edited: the temporary file holds its
// proposed content, outside every memory directory.
type pendingEdit struct {
	id   string
	ci   int
	path string
	tmp  string
}

type proposalEditedMsg struct {
	edit pendingEdit
	err  error
}

// editResult opens the proposed result of the change under the diff's
// cursor (the first change from the list) in the user's editor.
func (v *proposalsView) editResult(h host) tea.Cmd {
	it := v.selected()
	if it == nil || v.c.readonly {
		return nil
	}
	if it.p.Also != nil {
		h.say("An adopt is written whole, in both stores; edit the memories once they are home.")
		return nil
	}
	ci := 0
	if v.diff.item == it {
		ci = v.diff.currentChange()
	}
	if ci < 0 || ci >= len(it.p.Changes) {
		return nil
	}
	c := it.p.Changes[ci]
	switch c.Op {
	case model.OpDelete:
		h.say(c.Path + " is deleted by this proposal: there is no result to edit.")
		return nil
	case model.OpMove:
		h.say(c.From + " is moved by this proposal, unchanged: there is no result to edit.")
		return nil
	}
	d := v.decisionOf(it)
	after := c.After
	if e, ok := d.edited[ci]; ok {
		after = e
	}
	tmp, err := memfs.WriteScratch("proposal-"+path.Base(c.Path), []byte(after))
	if err != nil {
		h.fail(fmt.Errorf("cannot make a file to edit: %w", err))
		return nil
	}
	cmd, err := editorCmd(v.c.editor, tmp)
	if err != nil {
		memfs.TakeScratch(tmp)
		h.fail(err)
		return nil
	}
	pe := pendingEdit{id: it.p.ID, ci: ci, path: c.Path, tmp: tmp}
	v.editing = &pe
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return proposalEditedMsg{edit: pe, err: err} })
}

// onProposalEdited reads the edited result back, replaces the change's
// After with it and checks the proposal as an external one would be.
func (v *proposalsView) onEdited(msg proposalEditedMsg, h host) {
	v.editing = nil
	raw, rerr := memfs.TakeScratch(msg.edit.tmp)
	switch {
	case msg.err != nil:
		h.fail(fmt.Errorf("the editor failed: %w", msg.err))
		return
	case rerr != nil:
		h.fail(fmt.Errorf("cannot read the edited result back: %w", rerr))
		return
	}
	var it *propItem
	for _, x := range v.items {
		if x.p.ID == msg.edit.id {
			it = x
		}
	}
	if it == nil || msg.edit.ci >= len(it.p.Changes) {
		h.fail(errors.New("the proposal was recomputed while you edited it; the edit is dropped"))
		return
	}
	d := v.decisionOf(it)
	ci := msg.edit.ci
	cur := it.p.Changes[ci].After
	if e, ok := d.edited[ci]; ok {
		cur = e
	}
	if string(raw) == cur {
		h.say("No change to " + msg.edit.path + ".")
		return
	}
	if d.edited == nil {
		d.edited = map[int]string{}
	}
	d.edited[ci] = string(raw)
	// Check the whole proposal as memtui checks an external proposer's
	// (frontmatter, index sanity, no secret written back); its checked
	// form redacts what it must.
	p := it.proposal(d)
	checked, err := dream.CheckExternal(it.proj, it.d, p, false)
	d.editErr = err
	if err == nil {
		for _, c := range checked.Changes {
			if c.Path == msg.edit.path {
				d.edited[ci] = c.After
			}
		}
	}
	v.rediff(it, d)
	// Editing a result means wanting it: the edited change is kept whole,
	// and an undecided proposal becomes accepted.
	switch d.state() {
	case stUndecided, stRejected:
		d.setAll(true)
	}
	for b := range d.sel[ci] {
		d.sel[ci][b] = true
	}
	d.result = nil
	it.revalidate(d)
	v.refreshRows()
	v.diff.show(it)
	if err != nil {
		h.fail(fmt.Errorf("the edited %s is not valid: %w", msg.edit.path, err))
	} else {
		h.say("Edited " + msg.edit.path + "; the proposal is marked edited.")
	}
}

// rediff redraws the item's edited changes and renumbers their blocks;
// the selection of a change whose block count changed starts over.
func (v *proposalsView) rediff(it *propItem, d *decision) {
	if len(d.edited) == 0 {
		return
	}
	it.diffs = slices.Clone(it.diffs)
	it.blocks = slices.Clone(it.blocks)
	for ci, after := range d.edited {
		if ci >= len(it.p.Changes) || ci >= len(it.diffs) {
			continue
		}
		c := it.p.Changes[ci]
		c.After = after
		before, _ := it.before(c.Path)
		it.diffs[ci] = diffChange(c, before, v.sc)
		for len(it.blocks) <= ci {
			it.blocks = append(it.blocks, 1)
		}
		it.blocks[ci] = diff.Blocks(c, before)
		if n := it.blockCount(ci); len(d.sel[ci]) != n {
			d.sel[ci] = make([]bool, n)
		}
	}
	it.edited = true
}
