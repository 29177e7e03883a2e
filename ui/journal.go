package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// journalMsg carries the journal's entries, read in a Cmd.
type journalMsg struct {
	entries []txn.JournalEntry
	err     error
}

// loadJournalCmd lists the journal's entries of the memory dirs of scan
// (Workspace.JournalIn: newest first, only what this run can see).
func loadJournalCmd(ws *app.Workspace, scan *model.Scan) tea.Cmd {
	return func() tea.Msg {
		es, err := ws.JournalIn(scan)
		return journalMsg{entries: es, err: err}
	}
}

// journalView lists what memtui applied, undid or rolled back, newest
// first, with the selected entry's files below; u undoes an applied one.
type journalView struct {
	c       *shared
	entries []txn.JournalEntry
	err     error
	loaded  bool
	list    list
	note    string // the last undo's outcome
	// filter narrows the list to entries matching every word of it.
	filter string
	shown  int
	w, h   int
}

func newJournalView(c *shared) *journalView {
	v := &journalView{c: c}
	v.list.colKinds = []colKind{colText, colText} // the proposal's ID, the directory
	return v
}

// journalChanged re-reads the journal when its view has been opened.
func (m *Model) journalChanged() tea.Cmd {
	if !m.journal.loaded && m.view != viewJournal {
		return nil
	}
	return loadJournalCmd(m.ws, m.scan)
}

func (m *Model) openJournal() tea.Cmd {
	m.show(viewJournal)
	return loadJournalCmd(m.ws, m.scan)
}

func (v *journalView) set(msg journalMsg) {
	keep := ""
	if e := v.selected(); e != nil {
		keep = e.ID
	}
	v.entries, v.err, v.loaded = msg.entries, msg.err, true
	v.rebuild(keep)
}

// rebuild lists the entries the filter keeps, selecting keep (an ID)
// when it shows.
func (v *journalView) rebuild(keep string) {
	terms := strings.Fields(strings.ToLower(v.filter))
	rows := make([]row, 0, len(v.entries))
	for i, e := range v.entries {
		if !matchesAll(terms, e.Title, e.Kind, e.ProposalID, e.ID, stateWord(e.State), e.MemoryDir) {
			continue
		}
		// The title names the file last: a cut keeps it. The proposal's
		// ID (it names the kind) and the directory show in columns when
		// the view is wide (the lines below have them whole).
		r := row{ref: i, left: fmt.Sprintf("%s  %-11s %s", e.Time.Local().Format("2006-01-02 15:04"), stateWord(e.State), e.Title), cut: cutKeepFile}
		if v.w >= wideWidth {
			r.cols = []string{e.ProposalID, truncLeft(report.Tilde(e.MemoryDir, v.c.home), v.w/4)}
		}
		rows = append(rows, r)
	}
	v.shown = len(rows)
	v.list.setRows(rows)
	if !v.list.selectRef(indexOfEntry(v.entries, keep)) {
		v.list.top()
	}
}

// setFilter narrows the list, keeping the selection when it still shows.
func (v *journalView) setFilter(s string) {
	keep := ""
	if e := v.selected(); e != nil {
		keep = e.ID
	}
	v.filter = s
	v.rebuild(keep)
}

func indexOfEntry(es []txn.JournalEntry, id string) int {
	for i, e := range es {
		if e.ID == id && id != "" {
			return i
		}
	}
	return -1
}

// stateWord names a journal state for people.
func stateWord(s string) string {
	switch s {
	case txn.JournalCommitted:
		return "committed"
	case txn.JournalUndone:
		return "undone"
	case txn.JournalRolledBack:
		return "rolled back"
	case txn.JournalPrepared:
		return "interrupted"
	}
	return s
}

func (v *journalView) selected() *txn.JournalEntry {
	r := v.list.selected()
	if r == nil || r.ref >= len(v.entries) {
		return nil
	}
	return &v.entries[r.ref]
}

// detailH is the rows under the list for the selected entry.
func (v *journalView) detailH() int { return min(max(v.h/3, 4), 10) }

func (v *journalView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.list.setSize(w, max(h-2-v.detailH(), 1))
	if v.loaded {
		v.set(journalMsg{entries: v.entries, err: v.err}) // the right column follows the width
	}
}

func (v *journalView) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		listKeys(&v.list, v.c, k)
	}
	return nil
}

func (v *journalView) View() string {
	st := v.c.st
	status := "what memtui wrote, newest first · u undoes an applied entry"
	if v.c.readonly {
		status = "what memtui wrote, newest first · read-only"
	}
	if v.note != "" {
		status = safe.ShowLine(v.note)
	}
	empty := "Nothing written yet: the journal is empty."
	if !v.c.readonly {
		empty += " What memtui writes (accepted proposals, a delete, a rename) shows here, and " + v.c.keys.Journal.Undo.Help().Key + " undoes it."
	}
	switch {
	case !v.loaded:
		empty = "Reading the journal…"
	case v.err != nil:
		empty = "The journal cannot be read: " + v.err.Error() // the list makes it safe
	}
	title := fmt.Sprintf("Journal (%d)", len(v.entries))
	if v.filter != "" {
		title = fmt.Sprintf("Journal (%d of %d matching “%s”)", v.shown, len(v.entries), safe.ShowLine(v.filter))
		empty = noMatch("entry", v.filter, v.c.keys.Journal.Back)
	}
	head := st.PaneTitle.Render(ansi.Truncate(title, v.w, "…"))
	out := []string{st.Faint.Render(ansi.Truncate(status, v.w, "…")), head, listPaneView(&v.list, v.c, true, empty)}
	var det []string
	if e := v.selected(); e != nil {
		det = append(det, st.Faint.Render(strings.Repeat("─", max(v.w, 1))))
		// The journal is state written from files and proposers: its
		// text is masked and made safe as text from disk is.
		det = append(det, st.Bold.Render(safe.ShowLine(e.Title)))
		det = append(det, safe.ShowLine(fmt.Sprintf("%s · %s · %s · journal %s", e.Kind, e.ProposalID, stateWord(e.State), e.ID)))
		det = append(det, truncLeft(safe.ShowLine(report.Tilde(e.MemoryDir, v.c.home)), v.w))
		if e.UndoneBy != "" {
			det = append(det, "undone by "+safe.Line(e.UndoneBy))
		}
		if e.UndoOf != "" {
			det = append(det, "undoes "+safe.Line(e.UndoOf))
		}
		for _, f := range e.Files {
			what := safe.ShowLine(f.Path)
			if f.From != "" {
				what = safe.ShowLine(f.From) + " → " + what // a move
			}
			det = append(det, "  "+safe.Line(f.Op)+"  "+what)
		}
		for _, n := range e.Notes {
			det = append(det, safe.ShowLine(n))
		}
	}
	for i, ln := range det {
		det[i] = ansi.Truncate(ln, v.w, "…")
	}
	return fit(strings.Join(out, "\n")+"\n"+strings.Join(det, "\n"), v.w, v.h)
}

// key handles the journal's keys: leaving, undoing the selected entry.
func (v *journalView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Journal
	switch {
	case key.Matches(k, keys.Filter):
		return h.startFilter()
	case key.Matches(k, keys.Back) && v.filter != "":
		v.setFilter("")
		return nil
	case key.Matches(k, keys.Back):
		return h.navigate(navigateMsg{to: viewBrowse})
	case key.Matches(k, keys.Undo):
		return v.askUndo(h)
	}
	return v.Update(k)
}

// askUndo asks to undo the selected entry.
func (v *journalView) askUndo(h host) tea.Cmd {
	e := v.selected()
	if e == nil || v.c.readonly {
		return nil
	}
	if h.writeBusy() {
		h.say("Still writing; wait for it to finish.")
		return nil
	}
	if e.State != txn.JournalCommitted {
		h.say("Only an applied (committed) entry can be undone; this one is " + stateWord(e.State) + ".")
		return nil
	}
	lines := []string{"", report.Tilde(e.MemoryDir, v.c.home)}
	for _, f := range e.Files {
		var what string
		where := safe.ShowLine(f.Path)
		switch f.Op {
		case "create":
			what = "delete " // undoing a create removes the file
		case "move":
			what = "move   " // undoing a move moves the file back
			where = safe.ShowLine(f.Path) + " → " + safe.ShowLine(f.From)
		default:
			what = "restore"
		}
		lines = append(lines, "  "+what+"  "+where)
	}
	lines = append(lines, "", v.c.st.Faint.Render("Each file goes back byte for byte, with its mtime; a file changed since is refused, nothing written."))
	title, hint := "Undo \""+e.Title+"\" ("+e.ProposalID+")?", "y undo · any other key cancels"
	if model.ProposalKind(e.Kind) == model.KindRedactSecret {
		// The one undo that makes things less safe: say so first.
		title = "Undo the redaction \"" + e.Title + "\"? A credential comes back"
		lines = append([]string{"", v.c.st.Error.Render("This puts the redacted secret back into the memory file, in clear text:"),
			v.c.st.Error.Render("Claude Code then injects it into every prompt again.")}, lines...)
		hint = "y put the credential back · any other key cancels"
	}
	h.openDialog(&dialog{kind: dlgUndo, title: title, lines: lines, hint: hint, entry: *e})
	return nil
}

func (v *journalView) scope() keymap.Scope { return keymap.ScopeJournal }

func (v *journalView) ShortHelp() []key.Binding {
	k := v.c.keys
	return []key.Binding{k.Move.Up, k.Move.Down, k.Journal.Undo, k.Journal.Back}
}
