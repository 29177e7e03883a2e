// Package keymap declares every key memtui's terminal UI answers to, once,
// grouped by the view (or the part of a view) that answers to them. The UI
// matches keys with key.Matches against these bindings and builds its help
// from the groups live where the user is, so what the help says is what the
// keys do.
//
// A key may mean different things in different views (v is the preview's
// rendered/source switch and the proposals' range of hunks; J and K scroll
// the preview and move an index row), but never in two groups live at the
// same time: Live says which groups are live in each Scope, and a test walks
// every scope for a key bound twice.
//
// Each binding has a name (group.action, from the struct's fields) by which
// the config file rebinds it; With applies those rebindings (config.go).
package keymap

import "charm.land/bubbles/v2/key"

// Group is a group's bindings under its title, in the order the help
// lists them.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// GlobalKeys work everywhere but in a text input and a dialog.
type GlobalKeys struct {
	Quit, Help, Refresh key.Binding
}

// Group lists the bindings for the help.
func (g GlobalKeys) Group() Group {
	return Group{"Everywhere", []key.Binding{g.Refresh, g.Help, g.Quit}}
}

// ViewKeys switch between the views.
type ViewKeys struct {
	Browse, Findings, Index, Proposals, Changes, Journal, Sessions key.Binding
}

// Group lists the bindings for the help.
func (g ViewKeys) Group() Group {
	return Group{"Views", []key.Binding{g.Findings, g.Proposals, g.Changes, g.Sessions, g.Journal, g.Index, g.Browse}}
}

// MoveKeys move a list's cursor or scroll a text, in every view.
type MoveKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// Group lists the bindings for the help.
func (g MoveKeys) Group() Group {
	return Group{"Moving", []key.Binding{g.Up, g.Down, g.PageUp, g.PageDown, g.Top, g.Bottom}}
}

// BrowseKeys are the browse view's: its three panes (projects, memories,
// preview) and what applies to the selection.
type BrowseKeys struct {
	// NextPane and PrevPane cycle the focus; Open focuses the pane to the
	// right, Left the pane to the left.
	NextPane, PrevPane, Open, Left key.Binding
	// Back clears the focused list's filter when one is set, else acts
	// as Left: esc undoes first.
	Back key.Binding
	// Filter filters the focused list (the memories, from the preview).
	Filter key.Binding
	// Edit opens the selected memory in $EDITOR.
	Edit key.Binding
	// Sort cycles the memories pane's order within each type: by name, by
	// use (reads and recalls in the transcripts), by last modified.
	Sort key.Binding
	// Delete deletes the selected memory (journalled: undo brings it
	// back), with its index entries; Retype changes its type; Rename its
	// file name, every link following.
	Delete, Retype, Rename key.Binding
	// Note writes a note for Codex's next consolidation (in a Codex
	// store): the channel Codex reads new facts from.
	Note key.Binding
}

// Group lists the bindings for the help.
func (g BrowseKeys) Group() Group {
	return Group{"Browse", []key.Binding{g.NextPane, g.PrevPane, g.Open, g.Back, g.Left, g.Filter, g.Sort, g.Edit, g.Delete, g.Retype, g.Rename, g.Note}}
}

// PreviewKeys act on the preview from any pane of the browse view.
type PreviewKeys struct {
	Source, ScrollDown, ScrollUp key.Binding
}

// Group lists the bindings for the help.
func (g PreviewKeys) Group() Group {
	return Group{"Preview", []key.Binding{g.ScrollDown, g.ScrollUp, g.Source}}
}

// FindingsKeys are the findings view's.
type FindingsKeys struct {
	// Open jumps to the finding's file and line.
	Open key.Binding
	// Back clears the filter when one is set, else goes back to browse;
	// Leave goes back at once.
	Back, Leave key.Binding
	// Severity cycles the lowest severity shown; NextRule and PrevRule
	// step the rule shown.
	Severity, NextRule, PrevRule key.Binding
	Filter, Edit                 key.Binding
}

// Group lists the bindings for the help.
func (g FindingsKeys) Group() Group {
	return Group{"Findings", []key.Binding{g.Open, g.Severity, g.NextRule, g.PrevRule, g.Filter, g.Edit, g.Back, g.Leave}}
}

// IndexKeys are the index view's (MEMORY.md as the agent loads it).
type IndexKeys struct {
	// EditIndex opens the index editor; Edit opens the file in $EDITOR.
	EditIndex, Edit, Back key.Binding
}

// Group lists the bindings for the help.
func (g IndexKeys) Group() Group {
	return Group{"Index", []key.Binding{g.EditIndex, g.Edit, g.Back}}
}

// EditorKeys are the index editor's, on its rows: moving the selected
// row, moving an entry above the cut, deleting and restoring, adding an
// entry for an orphan file, editing a hook, shortening long hooks, undo and
// redo of the editor's own history, the pending diff, and writing
// MEMORY.md. SelectRows starts (or clears) a range of rows at the cursor;
// Demote moves the range's entries, or with no range every entry from the
// cursor to the end, into a new archive file beside MEMORY.md. Back clears
// a range first, then leaves the editor (asking before it drops edits).
type EditorKeys struct {
	RowUp, RowDown, AboveCut, DeleteRow, RestoreRow key.Binding
	AddOrphan, EditHook, ShortenHooks, Undo, Redo   key.Binding
	SelectRows, Demote, ShowDiff, Write, Back       key.Binding
	// Collapse turns each run of blank lines into one (and drops those at
	// the ends); Fold puts the lines hanging under the entry at the cursor
	// (or each entry of the range) onto its line; FoldAll does it for
	// every entry.
	Collapse, Fold, FoldAll key.Binding
}

// Group lists the bindings for the help.
func (g EditorKeys) Group() Group {
	return Group{"Index editor", []key.Binding{g.RowUp, g.RowDown, g.AboveCut, g.DeleteRow, g.RestoreRow, g.AddOrphan,
		g.SelectRows, g.Demote, g.EditHook, g.ShortenHooks, g.Fold, g.FoldAll, g.Collapse, g.Undo, g.Redo, g.ShowDiff, g.Write, g.Back}}
}

// EditorDiffKeys are the index editor's pending diff's (it scrolls with
// the moving keys).
type EditorDiffKeys struct {
	Close key.Binding
}

// Group lists the bindings for the help.
func (g EditorDiffKeys) Group() Group {
	return Group{"Pending diff", []key.Binding{g.Close}}
}

// PickerKeys pick the orphan file the index editor adds an entry for.
type PickerKeys struct {
	Pick, Cancel key.Binding
}

// Group lists the bindings for the help.
func (g PickerKeys) Group() Group {
	return Group{"Orphan files", []key.Binding{g.Pick, g.Cancel}}
}

// ProposalsKeys are the proposals view's: its list and diff, and deciding.
type ProposalsKeys struct {
	// NextPane and PrevPane switch between the list and the diff; Open
	// focuses the diff; Back drops a range of hunks, leaves the diff for
	// the list, then leaves the view.
	NextPane, PrevPane, Open, Back key.Binding
	// Toggle accepts or un-accepts a proposal (or, in its diff, the hunk
	// under the cursor or the range), Range starts a range of hunks, Write
	// writes the accepted set after a confirmation.
	Toggle, Accept, Reject, Range, Write key.Binding
	// Edit opens the change under the cursor in $EDITOR, to adjust it.
	Edit key.Binding
	// Filter narrows the list by words (title, kind, project, ID);
	// AcceptShown and RejectShown decide every proposal it shows.
	Filter, AcceptShown, RejectShown key.Binding
}

// Group lists the bindings for the help.
func (g ProposalsKeys) Group() Group {
	return Group{"Proposals", []key.Binding{g.NextPane, g.PrevPane, g.Open, g.Back, g.Toggle, g.Accept, g.Reject, g.Range, g.Edit, g.Write, g.Filter, g.AcceptShown, g.RejectShown}}
}

// DiffKeys act on the diff of the proposals and the changes views, from
// their list too.
type DiffKeys struct {
	Mode, NextHunk, PrevHunk, ScrollDown, ScrollUp key.Binding
	// Wrap switches long lines between wrapped (each continuation marked,
	// never a second +/-) and cut, where Left and Right scroll them
	// sideways. Zoom gives the diff the whole screen.
	Wrap, Left, Right, Zoom key.Binding
}

// Group lists the bindings for the help.
func (g DiffKeys) Group() Group {
	return Group{"Diff", []key.Binding{g.Mode, g.NextHunk, g.PrevHunk, g.ScrollDown, g.ScrollUp, g.Wrap, g.Left, g.Right, g.Zoom}}
}

// ChangesKeys are the changes view's (changes since the last review):
// marking the file under the cursor seen, and its whole project reviewed.
type ChangesKeys struct {
	NextPane, PrevPane, Open, Back key.Binding
	MarkSeen, MarkReviewed         key.Binding
	// Filter narrows the list by words (project, file, who wrote it).
	Filter key.Binding
	// Revert puts the selected file back as it was reviewed (journalled).
	Revert key.Binding
}

// Group lists the bindings for the help.
func (g ChangesKeys) Group() Group {
	return Group{"Changes", []key.Binding{g.NextPane, g.PrevPane, g.Open, g.Back, g.MarkSeen, g.MarkReviewed, g.Filter, g.Revert}}
}

// JournalKeys are the journal view's (what memtui wrote): its list and
// the diff of what undoing the selected entry would do.
type JournalKeys struct {
	NextPane, PrevPane, Open key.Binding
	Undo, Back               key.Binding
	// Filter narrows the list by words (title, kind, proposal, directory).
	Filter key.Binding
}

// Group lists the bindings for the help.
func (g JournalKeys) Group() Group {
	return Group{"Journal", []key.Binding{g.NextPane, g.PrevPane, g.Open, g.Undo, g.Back, g.Filter}}
}

// SessionsKeys are the sessions view's: its list and the selected
// session's writes as a diff, and where to go from a session.
type SessionsKeys struct {
	NextPane, PrevPane, Open, Back key.Binding
	// Filter narrows the list by words (title, kind, branch, ID, file).
	Filter key.Binding
	// Memory shows the memory under the diff's cursor (else the first
	// written) in the browse view; Changes the changes view on the
	// session's writes; Lost the findings of the lost updates it caused
	// or suffered.
	Memory, Changes, Lost key.Binding
	// Revert puts the file under the diff's cursor back as it was before
	// the session's write (journalled); RevertAll every file it wrote
	// here, as one proposal: a Dream run undone.
	Revert, RevertAll key.Binding
}

// Group lists the bindings for the help.
func (g SessionsKeys) Group() Group {
	return Group{"Sessions", []key.Binding{g.NextPane, g.PrevPane, g.Open, g.Back, g.Filter, g.Memory, g.Changes, g.Lost, g.Revert, g.RevertAll}}
}

// DialogKeys answer a question: Confirm says yes, and Mark (asked before
// a write of proposals) writes and marks the store consolidated. Any other
// key says no.
type DialogKeys struct {
	Confirm, Mark key.Binding
}

// Group lists the bindings for the help.
func (g DialogKeys) Group() Group {
	return Group{"Question", []key.Binding{g.Confirm, g.Mark}}
}

// InputKeys end typing in a text input (the filter, a hook): every other
// key is typed.
type InputKeys struct {
	Accept, Cancel key.Binding
}

// Group lists the bindings for the help.
func (g InputKeys) Group() Group {
	return Group{"Typing", []key.Binding{g.Accept, g.Cancel}}
}

// KeyMap is every binding of the TUI, by group. Bindings follow the
// conventions people bring from glow, lazygit and k9s.
type KeyMap struct {
	Global     GlobalKeys
	Views      ViewKeys
	Move       MoveKeys
	Browse     BrowseKeys
	Preview    PreviewKeys
	Findings   FindingsKeys
	Index      IndexKeys
	Editor     EditorKeys
	EditorDiff EditorDiffKeys
	Picker     PickerKeys
	Proposals  ProposalsKeys
	Diff       DiffKeys
	Changes    ChangesKeys
	Journal    JournalKeys
	Sessions   SessionsKeys
	Dialog     DialogKeys
	Input      InputKeys
}

// Default is memtui's standard key map.
func Default() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	ks := func(keys ...string) []string { return keys }
	// The same key does the same thing in each view that has it; each
	// group gets its own copy, so a view's binding can change alone.
	var (
		nextPane = b(ks("tab"), "tab", "next pane")
		prevPane = b(ks("shift+tab"), "shift+tab", "previous pane")
		open     = b(ks("enter", "l", "right"), "enter", "open")
		back     = b(ks("esc", "h", "left"), "esc", "back")
		filter   = b(ks("/"), "/", "filter")
		edit     = b(ks("e"), "e", "edit in $EDITOR")
	)
	return KeyMap{
		Global: GlobalKeys{
			Quit:    b(ks("q", "ctrl+c"), "q", "quit"),
			Help:    b(ks("?"), "?", "help"),
			Refresh: b(ks("r"), "r", "refresh"),
		},
		Views: ViewKeys{
			Browse:   b(ks("b"), "b", "browse"),
			Findings: b(ks("f"), "f", "all findings"),
			Index:    b(ks("i"), "i", "index as loaded"),
			// Reviewing proposals writes nothing, so the binding stays
			// live under --readonly; deciding on them and writing do not.
			Proposals: b(ks("p"), "p", "dream proposals"),
			Changes:   b(ks("C"), "C", "changes since last review"),
			Journal:   b(ks("L"), "L", "journal of writes"),
			Sessions:  b(ks("t"), "t", "sessions that touched memory"),
		},
		Move: MoveKeys{
			Up:       b(ks("up", "k"), "↑/k", "up"),
			Down:     b(ks("down", "j"), "↓/j", "down"),
			PageUp:   b(ks("pgup", "ctrl+b"), "pgup", "page up"),
			PageDown: b(ks("pgdown", "ctrl+f"), "pgdn", "page down"),
			Top:      b(ks("home", "g"), "g", "top"),
			Bottom:   b(ks("end", "G"), "G", "bottom"),
		},
		Browse: BrowseKeys{
			NextPane: nextPane,
			PrevPane: prevPane,
			Open:     open,
			// esc alone clears a filter first; h and ← only move left,
			// even with a filter set.
			Back:   b(ks("esc"), "esc", "back"),
			Left:   b(ks("h", "left"), "h/←", "pane to the left"),
			Filter: filter,
			Edit:   edit,
			Sort:   b(ks("o"), "o", "sort: name/use/modified"),
			Delete: b(ks("D"), "D", "delete memory (undoable)"),
			Retype: b(ks("T"), "T", "change the memory's type (undoable)"),
			Rename: b(ks("N"), "N", "rename the memory, links following (undoable)"),
			Note:   b(ks("n"), "n", "add a note for Codex (undoable)"),
		},
		Preview: PreviewKeys{
			Source:     b(ks("v"), "v", "rendered/source"),
			ScrollDown: b(ks("J", "ctrl+d"), "J", "scroll preview down"),
			ScrollUp:   b(ks("K", "ctrl+u"), "K", "scroll preview up"),
		},
		Findings: FindingsKeys{
			Open:     open,
			Back:     b(ks("esc"), "esc", "back"),
			Leave:    b(ks("h", "left"), "h/←", "back to browse"),
			Severity: b(ks("s"), "s", "severity"),
			NextRule: b(ks("]"), "]", "next rule"),
			PrevRule: b(ks("["), "[", "previous rule"),
			Filter:   filter,
			Edit:     edit,
		},
		Index: IndexKeys{
			EditIndex: b(ks("E"), "E", "edit the index"),
			Edit:      edit,
			Back:      back,
		},
		Editor: EditorKeys{
			RowUp:        b(ks("K", "shift+up"), "K/shift+↑", "move row up"),
			RowDown:      b(ks("J", "shift+down"), "J/shift+↓", "move row down"),
			AboveCut:     b(ks("c"), "c", "move above the cut"),
			DeleteRow:    b(ks("X"), "X", "delete row"),
			RestoreRow:   b(ks("R"), "R", "restore last deleted"),
			AddOrphan:    b(ks("A"), "A", "add an orphan file"),
			EditHook:     b(ks("H"), "H", "edit the hook"),
			ShortenHooks: b(ks("S"), "S", "shorten long hooks"),
			Undo:         b(ks("u"), "u", "undo edit"),
			Redo:         b(ks("U", "ctrl+r"), "U", "redo edit"),
			SelectRows:   b(ks("V"), "V", "select a range of rows"),
			Demote:       b(ks("M"), "M", "demote range (or cursor to end) to an archive"),
			ShowDiff:     b(ks("D"), "D", "pending diff"),
			Write:        b(ks("w"), "w", "write MEMORY.md"),
			Back:         back,
			// z as in vim's folds; Z, the capital, folds them all.
			Fold:     b(ks("z"), "z", "fold the entry onto one line"),
			FoldAll:  b(ks("Z"), "Z", "fold every entry onto one line"),
			Collapse: b(ks("B"), "B", "collapse blank lines"),
		},
		EditorDiff: EditorDiffKeys{
			Close: b(ks("esc", "h", "left", "D"), "esc", "back"),
		},
		Picker: PickerKeys{
			Pick:   b(ks("enter", "l", "right"), "enter", "add an entry for it"),
			Cancel: b(ks("esc", "h", "left"), "esc", "cancel"),
		},
		Proposals: ProposalsKeys{
			NextPane: nextPane,
			PrevPane: prevPane,
			Open:     open,
			Back:     back,
			Toggle:   b(ks("space"), "space", "accept/undo (hunk in diff)"),
			Accept:   b(ks("a"), "a", "accept proposal"),
			Reject:   b(ks("x"), "x", "reject proposal"),
			Range:    b(ks("v"), "v", "select a range of hunks"),
			Write:    b(ks("w"), "w", "write accepted"),
			Edit:     edit,
			Filter:   filter,
			// Capitals: a decision over many proposals at once.
			AcceptShown: b(ks("A"), "A", "accept every proposal shown"),
			RejectShown: b(ks("X"), "X", "reject every proposal shown"),
		},
		Diff: DiffKeys{
			Mode:       b(ks("d"), "d", "unified/side-by-side"),
			NextHunk:   b(ks("n"), "n", "next hunk"),
			PrevHunk:   b(ks("N"), "N", "previous hunk"),
			ScrollDown: b(ks("J", "ctrl+d"), "J", "scroll diff down"),
			ScrollUp:   b(ks("K", "ctrl+u"), "K", "scroll diff up"),
			Wrap:       b(ks("W"), "W", "wrap long lines/cut them"),
			Left:       b(ks("<", "shift+left"), "<", "scroll diff left (lines cut)"),
			Right:      b(ks(">", "shift+right"), ">", "scroll diff right (lines cut)"),
			Zoom:       b(ks("z"), "z", "zoom the diff full screen"),
		},
		Changes: ChangesKeys{
			NextPane:     nextPane,
			PrevPane:     prevPane,
			Open:         open,
			Back:         back,
			MarkSeen:     b(ks("m"), "m", "mark file seen"),
			MarkReviewed: b(ks("M"), "M", "mark project reviewed"),
			Filter:       filter,
			Revert:       b(ks("R"), "R", "revert to the reviewed version"),
		},
		Journal: JournalKeys{
			NextPane: nextPane, PrevPane: prevPane, Open: open,
			Undo:   b(ks("u"), "u", "undo entry"),
			Back:   back,
			Filter: filter,
		},
		Sessions: SessionsKeys{
			NextPane: nextPane, PrevPane: prevPane, Open: open, Back: back, Filter: filter,
			Memory:    b(ks("m"), "m", "show the memory it wrote"),
			Changes:   b(ks("c"), "c", "its changes since the review"),
			Lost:      b(ks("!"), "!", "the lost updates it caused or suffered (marked !)"),
			Revert:    b(ks("R"), "R", "revert the file to its text before this write (undoable)"),
			RevertAll: b(ks("U"), "U", "undo all it did here: every file it wrote back as before (undoable)"),
		},
		Dialog: DialogKeys{
			Confirm: b(ks("y"), "y", "yes"),
			Mark:    b(ks("m"), "m", "write and mark consolidated"),
		},
		Input: InputKeys{
			Accept: b(ks("enter"), "enter", "keep"),
			Cancel: b(ks("esc"), "esc", "cancel"),
		},
	}
}

// ReadOnly returns the map with every binding that writes, or only leads to
// writing (deciding on proposals, editing the index in memory), disabled,
// so it neither fires nor shows in the help.
func (k KeyMap) ReadOnly() KeyMap {
	e := &k.Editor
	for _, b := range []*key.Binding{&k.Browse.Edit, &k.Browse.Delete, &k.Browse.Retype, &k.Browse.Rename, &k.Browse.Note, &k.Changes.Revert, &k.Sessions.Revert, &k.Findings.Edit, &k.Index.Edit,
		&k.Proposals.Edit, &k.Proposals.Toggle, &k.Proposals.Accept, &k.Proposals.Reject, &k.Proposals.Range, &k.Proposals.Write,
		&k.Proposals.AcceptShown, &k.Proposals.RejectShown,
		&k.Journal.Undo, &k.Changes.MarkSeen, &k.Changes.MarkReviewed, &k.Dialog.Mark,
		&e.RowUp, &e.RowDown, &e.AboveCut, &e.DeleteRow, &e.RestoreRow, &e.AddOrphan, &e.EditHook,
		&e.ShortenHooks, &e.Undo, &e.Redo, &e.Write, &e.SelectRows, &e.Demote, &e.Collapse, &e.Fold, &e.FoldAll} {
		b.SetEnabled(false)
	}
	return k
}

// Scope is a place in the TUI with a fixed set of live groups: a view, a
// part of one that takes the keys (the index editor's diff), a dialog, a
// text input.
type Scope int

// The scopes, one per view, then the index editor's overlays, then the
// modes that take every key.
const (
	ScopeBrowse Scope = iota
	ScopeFindings
	ScopeIndex
	ScopeEditor
	ScopeEditorDiff
	ScopePicker
	ScopeProposals
	ScopeChanges
	ScopeJournal
	ScopeSessions
	ScopeDialog
	ScopeInput
	scopeCount
)

// Scopes lists every scope.
func Scopes() []Scope {
	out := make([]Scope, scopeCount)
	for i := range out {
		out[i] = Scope(i)
	}
	return out
}

// Live is the groups live in scope s, in the order the help lists them:
// the scope's own first, the views and the global keys last. Only the
// views' scopes switch views: the editor's overlays, a dialog and a text
// input keep the keys until they end.
func (k KeyMap) Live(s Scope) []Group {
	common := []Group{k.Move.Group(), k.Views.Group(), k.Global.Group()}
	own := func(gs ...Group) []Group { return append(gs, common...) }
	switch s {
	case ScopeBrowse:
		return own(k.Browse.Group(), k.Preview.Group())
	case ScopeFindings:
		return own(k.Findings.Group())
	case ScopeIndex:
		return own(k.Index.Group())
	case ScopeEditor:
		return own(k.Editor.Group())
	case ScopeEditorDiff:
		return []Group{k.EditorDiff.Group(), k.Diff.Group(), k.Move.Group(), k.Global.Group()}
	case ScopePicker:
		return []Group{k.Picker.Group(), k.Move.Group(), k.Global.Group()}
	case ScopeProposals:
		return own(k.Proposals.Group(), k.Diff.Group())
	case ScopeChanges:
		return own(k.Changes.Group(), k.Diff.Group())
	case ScopeJournal:
		return own(k.Journal.Group(), k.Diff.Group())
	case ScopeSessions:
		return own(k.Sessions.Group(), k.Diff.Group())
	case ScopeDialog:
		return []Group{k.Dialog.Group()}
	case ScopeInput:
		return []Group{k.Input.Group()}
	}
	return nil
}

// String names the scope, for test failures.
func (s Scope) String() string {
	names := [...]string{"browse", "findings", "index", "index editor", "index editor's diff", "orphan picker",
		"proposals", "changes", "journal", "sessions", "dialog", "text input"}
	if s >= 0 && int(s) < len(names) {
		return names[s]
	}
	return "scope?"
}
