// Package keymap declares every key memtui's terminal UI answers to, once.
// The UI matches keys with key.Matches against these bindings and builds its
// help from them, so what the help says is what the keys do.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is every binding of the TUI. Bindings follow the conventions people
// bring from glow, lazygit and k9s.
type KeyMap struct {
	// Moving.
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// Panes and views.
	NextPane, PrevPane, Open, Back key.Binding
	Findings, Index, Browse        key.Binding
	Proposals                      key.Binding
	// In the preview.
	Source, ScrollDown, ScrollUp key.Binding
	// In the findings view.
	Severity, NextRule, PrevRule key.Binding
	// In the proposals view's diff.
	DiffMode, NextHunk, PrevHunk key.Binding
	// Deciding on proposals: Toggle accepts or un-accepts a proposal (or,
	// in its diff, the hunk under the cursor or the range), Range starts a
	// range of hunks, Write writes the accepted set after a confirmation.
	Toggle, Accept, Reject, Range, Write key.Binding
	// The journal of what memtui wrote, and undoing an entry.
	Journal, Undo key.Binding
	// Changes since the last review: the view, marking the file under the
	// cursor seen, and marking its whole project reviewed.
	Changes, MarkSeen, MarkReviewed key.Binding
	// Sort cycles the memories pane's order within each type: by name, by
	// use (reads and recalls in the transcripts), by last modified.
	Sort key.Binding
	// Confirm answers yes in a confirmation; any other key is no.
	Confirm key.Binding
	// The index editor (EditIndex opens it from the index view): moving
	// the selected row, moving an entry above the cut, deleting and
	// restoring, adding an entry for an orphan file, editing a hook,
	// shortening long hooks, undo and redo of the editor's own history,
	// the pending diff, and writing MEMORY.md. SelectRows starts (or
	// clears) a range of rows at the cursor; Demote moves the range's
	// entries, or with no range every entry from the cursor to the end,
	// into a new archive file beside MEMORY.md.
	EditIndex, RowUp, RowDown, AboveCut, DeleteRow, RestoreRow key.Binding
	AddOrphan, EditHook, ShortenHooks, EditUndo, EditRedo      key.Binding
	ShowDiff, WriteIndex, SelectRows, Demote                   key.Binding
	// Everywhere.
	Filter, ClearFilter, Edit, Refresh, Help, Quit key.Binding
}

// Default is memtui's standard key map.
func Default() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),

		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Open:     key.NewBinding(key.WithKeys("enter", "l", "right"), key.WithHelp("enter", "open")),
		Back:     key.NewBinding(key.WithKeys("esc", "h", "left"), key.WithHelp("esc", "back")),
		Findings: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "all findings")),
		Index:    key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "index as loaded")),
		Browse:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "browse")),
		// Reviewing proposals writes nothing, so the binding stays live
		// under --readonly; deciding on them and writing do not.
		Proposals: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "dream proposals")),

		Source:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "rendered/source")),
		ScrollDown: key.NewBinding(key.WithKeys("J", "ctrl+d"), key.WithHelp("J", "scroll preview down")),
		ScrollUp:   key.NewBinding(key.WithKeys("K", "ctrl+u"), key.WithHelp("K", "scroll preview up")),

		Severity: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "severity")),
		NextRule: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next rule")),
		PrevRule: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous rule")),

		DiffMode: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "unified/side-by-side")),
		NextHunk: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next hunk")),
		PrevHunk: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous hunk")),

		Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "accept/undo (hunk in diff)")),
		Accept: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept proposal")),
		Reject: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject proposal")),
		Range:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "select a range of hunks")),
		Write:  key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write accepted")),

		Journal: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "journal of writes")),
		Undo:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo entry")),
		Confirm: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),

		Changes:      key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "changes since last review")),
		MarkSeen:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark file seen")),
		MarkReviewed: key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "mark project reviewed")),
		Sort:         key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort: name/use/modified")),

		EditIndex:    key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "edit the index")),
		RowUp:        key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K/shift+↑", "move row up")),
		RowDown:      key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J/shift+↓", "move row down")),
		AboveCut:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "move above the cut")),
		DeleteRow:    key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "delete row")),
		RestoreRow:   key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restore last deleted")),
		AddOrphan:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "add an orphan file")),
		EditHook:     key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "edit the hook")),
		ShortenHooks: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "shorten long hooks")),
		EditUndo:     key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo edit")),
		EditRedo:     key.NewBinding(key.WithKeys("U", "ctrl+r"), key.WithHelp("U", "redo edit")),
		ShowDiff:     key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "pending diff")),
		WriteIndex:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write MEMORY.md")),
		SelectRows:   key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "select a range of rows")),
		Demote:       key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "demote range (or cursor to end) to an archive")),

		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Edit:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit in $EDITOR")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ReadOnly returns the map with every binding that writes, or only leads to
// writing (deciding on proposals, editing the index in memory), disabled, so it neither fires nor shows
// in the help.
func (k KeyMap) ReadOnly() KeyMap {
	for _, b := range []*key.Binding{&k.Edit, &k.Toggle, &k.Accept, &k.Reject, &k.Range, &k.Write, &k.Undo,
		&k.RowUp, &k.RowDown, &k.AboveCut, &k.DeleteRow, &k.RestoreRow, &k.AddOrphan, &k.EditHook,
		&k.ShortenHooks, &k.EditUndo, &k.EditRedo, &k.WriteIndex, &k.SelectRows, &k.Demote,
		&k.MarkSeen, &k.MarkReviewed} {
		b.SetEnabled(false)
	}
	return k
}
