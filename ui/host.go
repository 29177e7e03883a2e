package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
)

// view is a screen of its own (findings, the index, the index editor,
// proposals, changes, the journal): a pane that also owns its keys and its
// feature's logic. What belongs to the screen as a whole (switching views,
// the dialog, the status line, the loaded data, a write in progress) it
// asks of the root through host.
type view interface {
	pane
	// key handles a key press the root routed here (see onKey: global
	// keys and view switches have been matched already).
	key(k tea.KeyPressMsg, h host) tea.Cmd
}

// host is what a view may ask of the root, which owns the layout, the
// dialog, the status line, the loaded data and the write in progress.
// Keeping it this small is the point: a view that needs more is doing the
// root's work, or the root is doing the view's.
type host interface {
	// navigate shows another view (navigateMsg is the one way views
	// switch).
	navigate(navigateMsg) tea.Cmd
	// openDialog puts a question up; it takes the next key.
	openDialog(*dialog)
	// say sets the status line; fail shows an error there.
	say(status string)
	fail(err error)
	// startFilter opens the filter box on the view's list.
	startFilter() tea.Cmd
	// edit opens what the view has selected in $EDITOR; jump goes to a
	// finding's file in the browse view.
	edit() tea.Cmd
	jump(f model.Finding) tea.Cmd
	// handCmd works out a proposal made by hand (a verb: delete,
	// revert) in the background, then asks to write it (direct: writes
	// it at once).
	handCmd(verb string, direct bool, make func() (model.Proposal, error)) tea.Cmd
	// writeBusy says a write or an undo is in flight (only one at a time:
	// a view asking to write checks it first; the dialog it opens hands
	// the write to the root).
	writeBusy() bool
	// run is the current generation's data, for a view's Cmds.
	run() run
}

// run is one generation of the loaded data (a refresh starts the next)
// and what a view's background work needs to act on it. Its values are
// the root's: a view reads them, never keeps them past a message.
type run struct {
	ctx  context.Context
	gen  int
	ws   *app.Workspace
	data []*projectData
	// copts are the checks' options for this run (ForScan over its scan).
	copts   consolidate.Options
	workers int
	// loading: projects are still being read.
	loading bool
	// strands are the scan's stranded stores.
	strands []model.Strand
}

// The root's side of host.

func (m *Model) say(status string) { m.status = status }
func (m *Model) fail(err error)    { m.err = err }
func (m *Model) writeBusy() bool   { return m.write != nil || m.undoing }

func (m *Model) run() run {
	r := run{ctx: m.ctx, gen: m.gen, ws: m.ws, data: m.data, copts: m.copts, workers: max(m.cfg.Workers, 1), loading: m.loading}
	if m.scan != nil {
		r.strands = m.scan.Strands
	}
	return r
}

// activeView is the current view when it is not the browse view (whose
// panes are the root's layout, their keys routed by browseKey).
func (m *Model) activeView() view {
	switch m.view {
	case viewFindings:
		return m.findings
	case viewIndex:
		return m.index
	case viewIndexEdit:
		return m.ixedit
	case viewProposals:
		return m.proposals
	case viewJournal:
		return m.journal
	case viewChanges:
		return m.changes
	case viewSessions:
		return m.sessions
	}
	return nil
}
