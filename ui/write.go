package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// writeJob is the accepted proposals of one memory directory, in list
// order: one txn.Apply call.
type writeJob struct {
	dir   string
	items []*propItem
	props []model.Proposal
	// asIs are the proposals a person kept only part of: written as they
	// are, never rebuilt on the plan's earlier writes (app.ApplyPlan).
	asIs map[string]bool
}

// lockWait is how long a retry waits for Claude Code's lock.
const lockWait = time.Minute

// dialogKind says what y does in a dialog.
type dialogKind int

const (
	dlgWrite      dialogKind = iota // y writes the plan
	dlgUndo                         // y undoes a journal entry
	dlgResult                       // a summary; y retries when a lock was held
	dlgWriteIndex                   // y writes the index editor's MEMORY.md
	dlgDiscard                      // y drops the index editor's edits, then runs after
	dlgQuit                         // y quits with accepted proposals not written
	dlgHand                         // y writes a change asked for by hand (verbs.go)
	dlgPick                         // the key picks (pick), anything else cancels
)

// dialog is a modal question or summary that replaces the view's body
// until a key is pressed: y confirms, anything else cancels (the default
// is No).
type dialog struct {
	kind  dialogKind
	title string
	lines []string
	hint  string
	jobs  []writeJob // dlgWrite, dlgWriteIndex, and dlgResult's retry
	entry txn.JournalEntry
	after func() tea.Cmd // dlgDiscard, dlgQuit
	// pick answers a dlgPick with the key pressed: its Cmd, and whether
	// the key was one of the choices.
	pick func(key string) (tea.Cmd, bool)
	// resume is the mode the keys go back to once it is answered.
	resume inputMode
	// owner is the view the write (and its retry) was asked from.
	owner writeOwner
	// mark: the write (and its retry) marks the store consolidated.
	mark bool
	// gaps are the protections this system's write path lacks
	// (txn.MissingGuarantees), shown under the title of a write's question.
	gaps []string
}

// missingGuarantees is txn.MissingGuarantees; tests stand in another
// system's list.
var missingGuarantees = txn.MissingGuarantees

// writeOwner is the view a write was asked from (the proposals view, the
// index editor): it asks the question, shows the write's progress and its
// outcome, and a retry goes back to it. The root runs the write itself:
// one at a time, whichever view asked.
type writeOwner interface {
	// writeProgress shows how far the write is.
	writeProgress(line string)
	// writeResults takes one directory's results as they come in.
	writeResults(j writeJob, rs []txn.ApplyResult)
	// writeDone shows the outcome once every directory is written.
	writeDone(w *writeRun, h host)
}

// Messages of a write in progress. Apply runs in a goroutine; its
// progress comes back through a channel, one message per Cmd, as the
// loader's results do.
type (
	applyProgressMsg struct{ ev txn.ApplyEvent }
	applyDirDoneMsg  struct {
		job     int
		results []txn.ApplyResult
	}
	writeDoneMsg struct{}
	undoDoneMsg  struct {
		entry txn.JournalEntry
		res   txn.ApplyResult
		// refused: the entry is out of view or its dir is not written
		// (nothing was undone).
		refused error
	}
)

// writeRun is a write in progress.
type writeRun struct {
	ch      chan tea.Msg
	jobs    []writeJob
	total   int
	done    int
	current string // the title of the proposal being written
	waiting bool   // Claude Code holds its lock; Apply polls
	// waitMemtui: the lock's holder is another memtui run, not Claude Code.
	waitMemtui bool
	results    []resultLine
	lockHeld   []writeJob
	// owner is the view that asked for the write.
	owner writeOwner
	// mark is a write that marks the store consolidated.
	mark bool
}

// resultLine is one proposal's outcome, for the summary.
type resultLine struct {
	title  string
	status txn.ApplyStatus
	why    string
}

func opWord(op model.ChangeOp) string {
	switch op {
	case model.OpCreate:
		return "create"
	case model.OpDelete:
		return "delete"
	case model.OpMove:
		return "move  "
	}
	return "change"
}

// dialogKey answers a dialog: y confirms, any other key cancels.
func (m *Model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	dl := m.closeDialog()
	// Mark, in the write dialog, writes and marks the store consolidated:
	// .consolidate-lock gets mtime now, which postpones Claude Code's
	// autoDream by a day. Confirm writes and leaves the lock as it was.
	if dl.kind == dlgPick {
		if cmd, ok := dl.pick(k.String()); ok {
			return cmd
		}
		m.status = "Cancelled: nothing written."
		return nil
	}
	if dl.kind == dlgWrite && key.Matches(k, m.c.keys.Dialog.Mark) {
		return m.runWrite(dl.owner, dl.jobs, 0, true)
	}
	if !key.Matches(k, m.c.keys.Dialog.Confirm) {
		switch dl.kind {
		case dlgResult:
		case dlgDiscard:
			m.status = "Kept the edits: nothing discarded."
		case dlgQuit:
			m.status = "Still here: " + key1(m.c.keys.Proposals.Write) + " writes the accepted proposals."
		default:
			m.status = "Cancelled: nothing written."
		}
		return nil
	}
	switch dl.kind {
	case dlgWrite, dlgWriteIndex, dlgHand:
		return m.runWrite(dl.owner, dl.jobs, 0, false)
	case dlgDiscard, dlgQuit:
		return dl.after()
	case dlgResult:
		if len(dl.jobs) > 0 {
			return m.runWrite(dl.owner, dl.jobs, lockWait, dl.mark)
		}
	case dlgUndo:
		return m.runUndo(dl.entry)
	}
	return nil
}

// writeRefusal says why memtui does not write into dir (a directory only
// a repository's own settings named; see memfs.WriteRefusal), or nil.
func (m *Model) writeRefusal(dir string) error {
	return app.WriteRefusalIn(m.scan, m.ws.ScanOpts.MemoryDirs, dir)
}

// runWrite writes each job's proposals in a goroutine, through the
// workspace (Workspace.ApplyPlan: one plan per directory, behind the write
// scope of the scan on screen), waiting up to wait for Claude Code's lock, and returns the Cmd
// that waits for its first message. With mark, a run that changed files
// leaves the store marked consolidated (ApplyOptions.MarkConsolidated);
// without, the lock is left as it was. owner follows the write.
func (m *Model) runWrite(owner writeOwner, jobs []writeJob, wait time.Duration, mark bool) tea.Cmd {
	if owner == nil {
		owner = m // a write no view asked for: a verb's (verbs.go)
	}
	w := &writeRun{ch: make(chan tea.Msg, 64), jobs: jobs, mark: mark, owner: owner}
	for _, j := range jobs {
		w.total += len(j.props)
	}
	m.write = w
	ctx, ch, ws, scan := m.ctx, w.ch, m.ws, m.scan
	send := func(msg tea.Msg) {
		select {
		case ch <- msg:
		case <-ctx.Done():
		}
	}
	go func() {
		defer close(ch)
		base := 0
		for i, j := range jobs {
			off := base
			opts := txn.ApplyOptions{WaitForLock: wait, MarkConsolidated: mark, Progress: func(ev txn.ApplyEvent) {
				if ev.Index >= 0 {
					ev.Index += off
				}
				send(applyProgressMsg{ev})
			}}
			// One plan per directory: a proposal that reads what an
			// earlier one wrote is rebuilt on it, not refused.
			plan := ws.ApplyPlan(ctx, scan, j.dir, j.props, opts, j.asIs)
			rs := make([]txn.ApplyResult, len(plan))
			for k, r := range plan {
				rs[k] = r.ApplyResult
			}
			send(applyDirDoneMsg{job: i, results: rs})
			base += len(j.props)
		}
		send(writeDoneMsg{})
	}()
	return waitWrite(ch)
}

func waitWrite(ch chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		return msg
	}
}

// onWrite follows a write: progress, each directory's results (and its
// reload), the summary at the end.
func (m *Model) onWrite(msg tea.Msg) tea.Cmd {
	w := m.write
	if w == nil {
		return nil
	}
	next := waitWrite(w.ch)
	switch msg := msg.(type) {
	case applyProgressMsg:
		ev := msg.ev
		switch ev.Stage {
		case "wait-lock":
			w.waiting = true
			var held *txn.LockHeldError
			w.waitMemtui = errors.As(ev.Err, &held) && held.Memtui
		case "start":
			w.waiting = false
			w.current = w.titleOf(ev.ProposalID)
		default:
			w.done = min(w.done+1, w.total)
		}
		w.owner.writeProgress(w.progressLine())
		return next
	case applyDirDoneMsg:
		j := w.jobs[msg.job]
		var held *txn.LockHeldError
		locked := false
		for i, r := range msg.results {
			line := resultLine{title: w.titleOf(r.ProposalID), status: r.Status}
			if i < len(j.items) {
				line.title = j.items[i].title
			}
			if r.Err != nil {
				line.why = r.Err.Error()
				if errors.As(r.Err, &held) {
					locked = true
					line.why = report.Tilde(held.Dir, m.c.home) + ": " + held.Short()
				}
			}
			w.results = append(w.results, line)
		}
		if locked {
			w.lockHeld = append(w.lockHeld, j)
		}
		w.owner.writeResults(j, msg.results)
		// Conflicts mean the directory changed too: read it again either way;
		// the review baseline too (a redaction scrubbed it on disk, and the
		// copy in memory must not be saved back over that).
		return tea.Batch(next, m.reloadPath(j.dir), m.changes.reloadBaseline(m.run(), j.dir))
	case writeDoneMsg:
		m.write = nil
		w.owner.writeDone(w, m)
		return m.journalChanged()
	}
	return next
}

// titleOf is a proposal's title as its list shows it, or its ID.
func (w *writeRun) titleOf(id string) string {
	for _, j := range w.jobs {
		for _, it := range j.items {
			if it.p.ID == id {
				return it.title
			}
		}
		for _, p := range j.props {
			if p.ID == id && p.Title != "" {
				return p.Title // a proposal made by hand has no list item
			}
		}
	}
	return id
}

func (w *writeRun) progressLine() string {
	if w.waiting && w.waitMemtui {
		return "waiting for another memtui run to finish writing…"
	}
	if w.waiting {
		return "waiting for Claude Code's lock…"
	}
	s := fmt.Sprintf("writing %d/%d", w.done, w.total)
	if w.current != "" && w.done < w.total {
		s += ": " + safe.ShowLine(w.current)
	}
	return s + "…"
}

// runUndo undoes a journal entry in a Cmd, through the workspace
// (Workspace.UndoIn, behind the scope of the scan on screen). The dialog
// that asked named what comes back, a redacted credential included:
// confirming it is the explicit request txn.Undo wants for a redaction.
func (m *Model) runUndo(e txn.JournalEntry) tea.Cmd {
	if m.ws.ReadOnly {
		return nil
	}
	m.undoing = true
	ctx, ws, scan := m.ctx, m.ws, m.scan
	return func() tea.Msg {
		res, err := ws.UndoIn(ctx, scan, e, txn.ApplyOptions{RestoreSecret: true})
		return undoDoneMsg{entry: e, res: res, refused: err}
	}
}

func (m *Model) onUndone(msg undoDoneMsg) tea.Cmd {
	m.undoing = false
	r := msg.res
	switch {
	case msg.refused != nil:
		m.err = msg.refused
	case r.Status == txn.StatusApplied && r.Err != nil:
		m.err = r.Err
	case r.Status == txn.StatusApplied:
		m.status = "Undone: " + msg.entry.Title
	default:
		var held *txn.LockHeldError
		if errors.As(r.Err, &held) {
			m.err = fmt.Errorf("%s: %s", report.Tilde(held.Dir, m.c.home), held.Short())
		} else {
			m.err = fmt.Errorf("undo refused: %v", r.Err)
		}
	}
	m.journal.note = ""
	if m.err != nil {
		m.journal.note = m.err.Error()
	} else {
		m.journal.note = m.status
	}
	return tea.Batch(m.reloadPath(msg.entry.MemoryDir), m.changes.reloadBaseline(m.run(), msg.entry.MemoryDir), m.journalChanged())
}

// dialogView draws the dialog into the body: its title, its lines cut to
// fit (with a count of the rest) and the keys.
func (m *Model) dialogView(w, h int) string {
	dl := m.dialog
	st := m.c.st
	// Titles quote proposals and journal entries; the lines are made safe
	// where they are built (they mix styled marks with names).
	lines := []string{st.Title.Render(ansi.Truncate(safe.ShowLine(dl.title), w, "…"))}
	// The system's missing guarantees come first, wrapped whole: the body
	// below may be cut to fit, they may not.
	for _, g := range dl.gaps {
		for _, ln := range strings.Split(ansi.Wrap("On this system: "+safe.Line(g)+".", max(w, 20), " "), "\n") {
			lines = append(lines, st.Sev[model.Warning].Render(ln))
		}
	}
	body := dl.lines
	room := max(h-2-len(lines), 1)
	if len(body) > room {
		rest := len(body) - (room - 1)
		body = append(body[:room-1:room-1], st.Faint.Render(fmt.Sprintf("… and %d more lines", rest)))
	}
	for _, ln := range body {
		lines = append(lines, ansi.Truncate(ln, w, "…"))
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.StatusKey.Render(ansi.Truncate(dl.hint, w, "…")))
	return fit(strings.Join(lines, "\n"), w, h)
}
