package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/keymap"
)

// inputMode says who gets a key first: the root's one switch for
// precedence (pug's modes), read before any binding is matched.
type inputMode int

const (
	// modeNormal: the global keys, the view switches, then the view.
	modeNormal inputMode = iota
	// modeOverlay: a part of the view holds the keys (the index editor's
	// pending diff and its orphan picker): the global keys, then the
	// overlay. Switching views waits until it is closed.
	modeOverlay
	// modeInput: a view's text input (the index editor's hook) types
	// every key but the Input group's.
	modeInput
	// modeFilter: the filter box types every key but the Input group's.
	modeFilter
	// modeDialog: the dialog takes the next key, whatever it is.
	modeDialog
)

// navigateMsg asks the root to show a view: the one way views switch.
// Keys hand it to navigate directly rather than through a Cmd, so that a
// key typed right after lands in the new view; a Cmd may return it too.
type navigateMsg struct {
	to viewID
	// line, for the index view, is the line to scroll to (0: the cut, if
	// any, else the top).
	line int
	// back returns to the view as it was left (the index view under the
	// index editor) instead of opening it afresh.
	back bool
	// written: the index editor's edits were just written, so leaving it
	// asks nothing.
	written bool
	// dir, for the index view, is the memory directory to show (a path),
	// whether or not it has a MEMORY.md; "" is the selection's.
	dir string
	// filter, for the findings, changes and proposals views, is the
	// filter they open with (a session's changes and lost updates, a
	// deleted memory's restore).
	filter string
}

// onKey routes a key press by mode: a dialog or a text input takes it
// whole; otherwise the global keys come first, then (outside an overlay)
// the view switches, then the view.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	// A key press acknowledges the last error or note.
	m.err = nil
	if m.status != refreshing {
		m.status = ""
	}
	switch m.mode {
	case modeDialog:
		return m.dialogKey(k)
	case modeFilter:
		return m.filterKey(k)
	case modeInput:
		return m.viewKey(k)
	}
	g := m.c.keys.Global
	switch {
	case key.Matches(k, g.Quit):
		return m.leaveEditor(func() tea.Cmd {
			return m.leaveUnwritten(func() tea.Cmd {
				m.Close()
				return tea.Quit
			})
		})
	case key.Matches(k, g.Help):
		m.help.ShowAll = !m.help.ShowAll
		m.layout()
		return nil
	case key.Matches(k, g.Refresh):
		return m.refresh()
	}
	if m.readOnlyKey(k) {
		return nil
	}
	if m.mode == modeNormal {
		v := m.c.keys.Views
		for _, sw := range []struct {
			b  key.Binding
			to viewID
		}{{v.Browse, viewBrowse}, {v.Findings, viewFindings}, {v.Index, viewIndex}, {v.Proposals, viewProposals},
			{v.Changes, viewChanges}, {v.Journal, viewJournal}, {v.Sessions, viewSessions}} {
			if key.Matches(k, sw.b) {
				return m.navigate(navigateMsg{to: sw.to})
			}
		}
	}
	return m.viewKey(k)
}

// readOnlyKey says why a key does nothing under --readonly: the bindings
// that write are off there, and a key that matches nothing would
// otherwise do nothing without a word. It reports whether k was one.
func (m *Model) readOnlyKey(k tea.KeyPressMsg) bool {
	if !m.c.readonly {
		return false
	}
	for _, g := range m.c.keys.Live(m.scope()) {
		for _, b := range g.Bindings {
			if b.Enabled() {
				continue
			}
			for _, name := range b.Keys() {
				if name == k.String() {
					m.status = "--readonly: " + b.Help().Key + " (" + b.Help().Desc + ") is off; this run writes nothing"
					return true
				}
			}
		}
	}
	return false
}

// viewKey hands a key to the current view, then takes the view's mode: a
// key may have opened or closed its text input or an overlay.
func (m *Model) viewKey(k tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	if v := m.activeView(); v != nil {
		cmd = v.key(k, m)
	} else {
		cmd = m.browseKey(k)
	}
	if was := m.mode; was != modeDialog && was != modeFilter {
		if m.mode = m.viewMode(); m.mode != was {
			m.layout() // the footer is the input's, or the help again
		}
	}
	return cmd
}

// viewMode is the mode the current view asks for: its scope says whether
// a text input or an overlay has its keys.
func (m *Model) viewMode() inputMode {
	switch m.activePane().scope() {
	case keymap.ScopeInput:
		return modeInput
	case keymap.ScopeEditorDiff, keymap.ScopePicker:
		return modeOverlay
	}
	return modeNormal
}

// scope is where the keys are: a dialog's, a text input's, else the
// current view's (or its overlay's).
func (m *Model) scope() keymap.Scope {
	switch m.mode {
	case modeDialog:
		return keymap.ScopeDialog
	case modeFilter, modeInput:
		return keymap.ScopeInput
	}
	return m.activePane().scope()
}

// navigate shows the view msg asks for. Leaving the index editor with
// pending edits asks first; a view switched to while showing is left as it
// is (the index view alone opens afresh, on the selection's index).
func (m *Model) navigate(msg navigateMsg) tea.Cmd {
	if m.view == viewIndexEdit && msg.to != viewIndexEdit && !msg.written {
		return m.leaveEditor(func() tea.Cmd {
			m.show(viewIndex)
			return m.navigate(msg)
		})
	}
	if msg.to == m.view && (msg.to != viewIndex || msg.back) {
		return nil
	}
	switch msg.to {
	case viewBrowse:
		m.show(viewBrowse)
		return m.syncSelection()
	case viewFindings:
		if msg.filter != "" {
			m.findings.filter = msg.filter
			m.findings.rule = ""
		}
		m.refreshFindings()
		m.show(viewFindings)
		return nil
	case viewIndex:
		if msg.back {
			m.show(viewIndex)
			return nil
		}
		return m.openIndex(msg.dir, msg.line)
	case viewIndexEdit:
		return m.openIndexEditor()
	case viewProposals:
		if msg.filter != "" {
			m.proposals.setFilter(msg.filter)
		}
		m.show(viewProposals)
		return m.proposals.open(m.run())
	case viewChanges:
		if msg.filter != "" {
			m.changes.filter = msg.filter
		}
		m.changes.rebuild(m.data)
		m.show(viewChanges)
		return nil
	case viewJournal:
		return m.openJournal()
	case viewSessions:
		m.show(viewSessions)
		return m.sessions.open(m.run())
	}
	return nil
}

// show makes v the current view and lays it out: the one place the view
// changes. The mode follows the view (an overlay left open in the index
// editor is not reopened: the editor opens on its rows).
func (m *Model) show(v viewID) {
	m.view = v
	if m.mode != modeDialog {
		m.mode = m.viewMode()
	}
	m.layout()
}

// openDialog puts a question or a summary up: it takes the next key. A
// dialog arriving over another (a write's summary) takes its place.
func (m *Model) openDialog(dl *dialog) {
	switch dl.kind {
	case dlgWrite, dlgWriteIndex, dlgHand, dlgUndo:
		// What this system's write path lacks, said before every write
		// (nothing on Linux): a weaker guarantee is never a silent one.
		dl.gaps = missingGuarantees()
	}
	dl.resume = m.mode
	if m.mode == modeDialog {
		dl.resume = m.dialog.resume
	}
	m.dialog = dl
	m.mode = modeDialog
	m.layout()
}

// closeDialog takes the dialog down and gives the keys back to whoever
// had them (a filter being typed, the editor's diff).
func (m *Model) closeDialog() *dialog {
	dl := m.dialog
	m.dialog = nil
	m.mode = dl.resume
	m.layout()
	return dl
}

// startFilter opens the filter box on the list the filter applies to.
func (m *Model) startFilter() tea.Cmd {
	m.mode = modeFilter
	m.input.SetValue(m.currentFilter())
	m.input.CursorEnd()
	m.layout()
	return m.input.Focus()
}

// filterKey edits the filter; it applies as you type, enter keeps it, esc
// drops it.
func (m *Model) filterKey(k tea.KeyPressMsg) tea.Cmd {
	in := m.c.keys.Input
	if m.renaming != nil {
		return m.renameKey(k)
	}
	if m.noting != nil {
		return m.noteKey(k)
	}
	switch {
	case key.Matches(k, in.Accept):
		m.endFilter()
		return m.syncSelection()
	case key.Matches(k, in.Cancel):
		m.endFilter()
		m.setFilter("")
		m.layout()
		return m.syncSelection()
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	m.setFilter(m.input.Value())
	return tea.Batch(cmd, m.syncSelection())
}

func (m *Model) endFilter() {
	m.mode = m.viewMode()
	m.input.Blur()
	m.layout()
}

// browseKey routes a key in the browse view: its own keys and the
// preview's, then the focused pane's moves.
func (m *Model) browseKey(k tea.KeyPressMsg) tea.Cmd {
	keys, preview := m.c.keys.Browse, m.c.keys.Preview
	switch {
	case key.Matches(k, keys.Filter):
		return m.startFilter()
	case key.Matches(k, keys.Edit):
		return m.edit()
	case key.Matches(k, keys.Back) && m.currentFilter() != "":
		m.setFilter("")
		return m.syncSelection()
	case key.Matches(k, keys.NextPane):
		m.setFocus((m.focus + 1) % 3)
		return nil
	case key.Matches(k, keys.PrevPane):
		m.setFocus((m.focus + 2) % 3)
		return nil
	case key.Matches(k, keys.Delete):
		return m.askDelete()
	case key.Matches(k, keys.Retype):
		return m.askRetype()
	case key.Matches(k, keys.Rename):
		return m.askRename()
	case key.Matches(k, keys.Note):
		return m.askNote()
	case key.Matches(k, keys.Sort) && m.memories.pd != nil && m.memories.pd.cx != nil:
		m.memories.byProject = !m.memories.byProject
		m.memories.rebuild()
		m.status = "Codex's store listed by kind of file"
		if m.memories.byProject {
			m.status = "Codex's store listed by project: where each task group's sessions ran"
		}
		return m.syncSelection()
	case key.Matches(k, keys.Sort):
		m.memories.cycleSort()
		m.status = "memories sorted " + m.memories.sortBy.String()
		return m.syncSelection()
	case key.Matches(k, preview.Source):
		m.source = !m.source
		return m.requestPreview(true)
	case key.Matches(k, preview.ScrollDown):
		m.preview.scroll(max(m.preview.vp.Height()/2, 1))
		return nil
	case key.Matches(k, preview.ScrollUp):
		m.preview.scroll(-max(m.preview.vp.Height()/2, 1))
		return nil
	case key.Matches(k, keys.Open):
		switch m.focus {
		case focusProjects:
			m.setFocus(focusMemories)
		case focusMemories:
			m.setFocus(focusPreview)
		}
		return nil
	case key.Matches(k, keys.Back, keys.Left):
		switch m.focus {
		case focusPreview:
			m.setFocus(focusMemories)
		case focusMemories:
			m.setFocus(focusProjects)
		}
		return nil
	}
	m.activePane().Update(k)
	return m.syncSelection()
}
