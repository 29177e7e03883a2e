package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/secrets"
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
// first, beside (wide) or above (narrow) what undoing the selected entry
// would do, as a diff; u undoes an applied one.
type journalView struct {
	listDiff
	sc      *secrets.Scanner
	entries []txn.JournalEntry
	err     error
	loaded  bool
	note    string // the last undo's outcome
	// filter narrows the list to entries matching every word of it.
	filter string
	shown  int
	// previews are the entries' undo diffs, worked out in a Cmd, by
	// previewKey; want is the key of the one the selection waits for.
	previews map[string]*propItem
	want     string
}

func newJournalView(c *shared, sc *secrets.Scanner) *journalView {
	v := &journalView{listDiff: newListDiff(c), sc: sc, previews: map[string]*propItem{}}
	v.list.colKinds = []colKind{colText, colText} // the proposal's ID, the directory
	return v
}

// journalPreviewMsg carries an entry's undo diff, worked out in a Cmd.
type journalPreviewMsg struct {
	key  string
	item *propItem
}

// previewKey names an entry's preview: its ID and state (undone, it has
// nothing to undo any more).
func previewKey(e *txn.JournalEntry) string { return e.ID + "\x00" + e.State }

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

// set takes a new reading of the journal. The previews are dropped: a
// file an entry wrote may have changed since (and undo then refuses).
func (v *journalView) set(msg journalMsg, r run) tea.Cmd {
	keep := ""
	if e := v.selected(); e != nil {
		keep = e.ID
	}
	v.entries, v.err, v.loaded = msg.entries, msg.err, true
	v.previews = map[string]*propItem{}
	v.rebuild(keep)
	return v.follow(r)
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
		// there is room (the diff's heading has them whole).
		r := row{ref: i, left: fmt.Sprintf("%s  %-11s %s", e.Time.Local().Format("2006-01-02 15:04"), stateWord(e.State), e.Title), cut: cutKeepFile}
		if v.w >= wideWidth && !v.wide {
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

// follow shows the selected entry's undo diff: at once when it has been
// worked out, else a placeholder while a Cmd reads the files.
func (v *journalView) follow(r run) tea.Cmd {
	e := v.selected()
	if e == nil {
		v.want = ""
		if v.diff.item != nil {
			v.diff.show(nil)
		}
		return nil
	}
	k := previewKey(e)
	if it, ok := v.previews[k]; ok {
		v.want = k
		if v.diff.item != it {
			v.diff.show(it)
		}
		return nil
	}
	if v.want == k {
		return nil // asked already
	}
	v.want = k
	v.diff.show(entryItem(e, nil, "Reading the files…"))
	ws, entry, sc := r.ws, *e, v.sc
	return func() tea.Msg {
		pv := ws.UndoPreview(entry)
		return journalPreviewMsg{key: k, item: previewItem(&entry, pv, sc)}
	}
}

// dirChanged drops the previews of the entries of memory dir dir (its
// files changed: an undo may now be refused, or differ) and reads the
// selected one's again when it is one of them.
func (v *journalView) dirChanged(dir string, r run) tea.Cmd {
	if !v.loaded {
		return nil
	}
	for _, e := range v.entries {
		if e.MemoryDir == dir {
			delete(v.previews, previewKey(&e))
		}
	}
	if e := v.selected(); e != nil && e.MemoryDir == dir {
		v.want = ""
		return v.follow(r)
	}
	return nil
}

// onPreview takes an entry's undo diff, showing it when it is still the
// one selected.
func (v *journalView) onPreview(msg journalPreviewMsg) {
	v.previews[msg.key] = msg.item
	if msg.key == v.want {
		v.diff.show(msg.item)
	}
}

// entryItem is an entry as the diff pane shows it: its title, what it is
// and did, and, for a committed entry, the changes that undo it.
func entryItem(e *txn.JournalEntry, diffs []fileDiff, why string) *propItem {
	return &propItem{
		p:         model.Proposal{ID: "journal\x00" + previewKey(e), Kind: model.ProposalKind(e.Kind), MemoryDir: e.MemoryDir},
		title:     e.Title,
		rationale: why,
		label:     fmt.Sprintf("%s · %s · %s · journal %s", e.Kind, e.ProposalID, stateWord(e.State), e.ID),
		diffs:     diffs,
	}
}

// previewItem builds the diff pane's item for an entry from its undo
// preview. It runs in a Cmd (diffing is work), so it reads nothing of the
// view.
func previewItem(e *txn.JournalEntry, pv app.UndoPreview, sc *secrets.Scanner) *propItem {
	var why []string
	switch e.State {
	case txn.JournalCommitted:
		why = append(why, "Undo would put back what this entry changed, as below: each file byte for byte, with its mtime.")
	case txn.JournalUndone:
		why = append(why, "Undone already: nothing left to undo.")
	case txn.JournalRolledBack:
		why = append(why, "Rolled back when it was written: nothing of it stayed on disk.")
	case txn.JournalPrepared:
		why = append(why, "Interrupted while being written; the next start rolls it back.")
	}
	if e.UndoneBy != "" {
		why = append(why, "Undone by "+e.UndoneBy+".")
	}
	if e.UndoOf != "" {
		why = append(why, "It undid "+e.UndoOf+".")
	}
	if len(pv.Changed) > 0 {
		why = append(why, "Changed since it was written, so undo refuses the whole entry: "+strings.Join(pv.Changed, ", ")+".")
	}
	for _, u := range pv.Unread {
		why = append(why, "Not read: "+u+".")
	}
	if e.State != txn.JournalCommitted {
		var files []string
		for _, f := range e.Files {
			what := f.Op + " " + f.Path
			if f.From != "" {
				what = f.Op + " " + f.From + " → " + f.Path
			}
			files = append(files, what)
		}
		if len(files) > 0 {
			why = append(why, "It wrote: "+strings.Join(files, ", ")+".")
		}
	}
	why = append(why, e.Notes...)
	diffs := make([]fileDiff, len(pv.Changes))
	for i, c := range pv.Changes {
		diffs[i] = diffChange(c, pv.Before[i], sc)
	}
	return entryItem(e, diffs, strings.Join(why, " "))
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

func (v *journalView) SetSize(w, h int) {
	v.listDiff.SetSize(w, h)
	if v.loaded {
		keep := ""
		if e := v.selected(); e != nil {
			keep = e.ID
		}
		v.rebuild(keep) // the right column follows the width
	}
}

func (v *journalView) setFocus(diff bool) {
	v.focusDiff = diff && v.selected() != nil
	v.layout()
}

// Update has nothing to do: every key comes through key, which has the
// run a newly selected entry's diff is read with.
func (v *journalView) Update(tea.Msg) tea.Cmd { return nil }

func (v *journalView) View() string {
	status := "what memtui wrote, newest first · " + key1(v.c.keys.Journal.Undo) + " undoes an applied entry · " + key1(v.c.keys.Journal.NextPane) + " diff"
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
	v.diff.empty = "Select an entry to see what undoing it would do."
	status = v.c.st.Faint.Render(ansi.Truncate(status, v.w, "…"))
	return v.render(status, title, v.hunkNote(), empty)
}

// key handles the journal's keys: leaving (from the diff, back to the
// list first), undoing the selected entry, moving in the list (the diff
// follows) or in the diff.
func (v *journalView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Journal
	switch {
	case key.Matches(k, keys.Filter):
		return h.startFilter()
	case key.Matches(k, keys.Back) && v.zoom:
		v.setZoom(false)
	case key.Matches(k, keys.Back) && v.focusDiff:
		v.setFocus(false)
	case key.Matches(k, keys.Back) && v.filter != "":
		v.setFilter("")
		return v.follow(h.run())
	case key.Matches(k, keys.Back):
		return h.navigate(navigateMsg{to: viewBrowse})
	case key.Matches(k, keys.Undo):
		return v.askUndo(h)
	case v.paneKeys(k, keys.NextPane, keys.PrevPane, keys.Open, v.selected() != nil, v.setFocus):
	case v.diffKey(k):
		return v.diff.Update(k)
	case listKeys(&v.list, v.c, k):
		return v.follow(h.run())
	}
	return nil
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
	yes := key1(v.c.keys.Dialog.Confirm)
	title, hint := "Undo \""+e.Title+"\" ("+e.ProposalID+")?", yes+" undo · any other key cancels"
	if model.ProposalKind(e.Kind) == model.KindRedactSecret {
		// The one undo that makes things less safe: say so first.
		title = "Undo the redaction \"" + e.Title + "\"? A credential comes back"
		lines = append([]string{"", v.c.st.Error.Render("This puts the redacted secret back into the memory file, in clear text:"),
			v.c.st.Error.Render("Claude Code then injects it into every prompt again.")}, lines...)
		hint = yes + " put the credential back · any other key cancels"
	}
	h.openDialog(&dialog{kind: dlgUndo, title: title, lines: lines, hint: hint, entry: *e})
	return nil
}

func (v *journalView) scope() keymap.Scope { return keymap.ScopeJournal }

func (v *journalView) ShortHelp() []key.Binding {
	k := v.c.keys
	if v.focusDiff {
		return append(v.diff.shortHelp(k.Journal.Back), k.Journal.Undo)
	}
	return []key.Binding{k.Move.Up, k.Move.Down, k.Journal.Undo, k.Journal.NextPane, k.Diff.Zoom, k.Journal.Back}
}
