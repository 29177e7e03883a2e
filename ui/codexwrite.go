package ui

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Writing into Codex's store from the TUI (issue 17): a note for its next
// consolidation (n), the channel Codex reads new facts from, and an edit
// of a file a person may edit (e), made on a copy outside the store and
// written back, as every write, through a question, the journal and
// app.Workspace.ApplyCodex. What Codex rebuilds, a store it is
// consolidating and a --readonly run say why not.

// codexWriteRefusal is why the selected Codex store takes no write now
// ("" when it does).
func (m *Model) codexWriteRefusal(cx *app.CodexStore) string {
	switch {
	case m.ws.ReadOnly:
		return "This --readonly run writes nothing."
	case m.writeBusy():
		return "Still writing; wait for it to finish."
	case cx.Busy() != "":
		return "Codex's store is read-only now: " + cx.Busy() + "."
	}
	return ""
}

// askNote opens the input for a note to Codex (in a Codex store only).
func (m *Model) askNote() tea.Cmd {
	pd, _ := m.codexSelection()
	if pd == nil {
		m.status = "Notes are Codex's: select its store in the projects list (Claude Code's memories are edited with " + key1(m.c.keys.Browse.Edit) + ")."
		return nil
	}
	if why := m.codexWriteRefusal(pd.cx); why != "" {
		m.status = why
		return nil
	}
	m.noting = pd.cx
	m.mode = modeFilter
	m.input.Prompt = "note for Codex: "
	m.input.SetValue("")
	m.layout()
	return m.input.Focus()
}

// noteKey types the note; enter asks to write it, esc cancels.
func (m *Model) noteKey(k tea.KeyPressMsg) tea.Cmd {
	in := m.c.keys.Input
	if !key.Matches(k, in.Accept) && !key.Matches(k, in.Cancel) {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		return cmd
	}
	cx, text := m.noting, strings.TrimSpace(m.input.Value())
	m.noting = nil
	m.input.Prompt = filterPrompt
	m.endFilter()
	switch {
	case key.Matches(k, in.Cancel):
		m.status = "Cancelled: no note written."
		return nil
	case text == "":
		m.status = "An empty note: nothing written (Codex refuses a blank one)."
		return nil
	}
	p, err := dream.CodexNote(cx.Store, m.c.clock(), text)
	return m.askHand(p, err, "Add a note")
}

// codexEdit edits the selected file of a Codex store: on a copy outside
// the store (so the editor's swap files never land in it), written back
// through a question once the editor exits.
func (m *Model) codexEdit(pd *projectData, it *memItem) tea.Cmd {
	if it == nil || it.ce == nil {
		return nil
	}
	e := it.ce
	switch {
	case e.ReadOnly != "":
		m.status = "memtui does not edit " + e.Path + ": " + e.ReadOnly + "."
		return nil
	case e.Kind == codex.KindNote:
		m.status = "Codex never changes a note, and neither does memtui: add another (" + key1(m.c.keys.Browse.Note) + ") that says what changed."
		return nil
	case e.Kind == codex.KindForeign:
		m.status = e.Path + " is not Codex's: its next consolidation takes it as an addition. Move it out of memories/ yourself."
		return nil
	}
	if why := m.codexWriteRefusal(pd.cx); why != "" {
		m.status = why
		return nil
	}
	if e.File.Truncated {
		m.status = e.Path + " was read only in part: memtui does not edit it."
		return nil
	}
	before := e.File.Content
	p, cleanup, err := memfs.EditCopy(path.Base(e.Path), before)
	if err != nil {
		m.err = err
		return nil
	}
	cmd, err := editorCmd(m.c.editor, p)
	if err != nil {
		cleanup()
		m.err = err
		return nil
	}
	cx, rel := pd.cx, e.Path
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		defer cleanup()
		if err != nil {
			return codexEditedMsg{err: err}
		}
		after, err := memfs.ReadEditCopy(p)
		return codexEditedMsg{cx: cx, rel: rel, before: before, after: after, err: err}
	})
}

// codexEditedMsg is an edit of a Codex file back from the editor.
type codexEditedMsg struct {
	cx            *app.CodexStore
	rel           string
	before, after []byte
	err           error
}

// onCodexEdited asks to write the edit back (nothing changed: nothing to
// ask).
func (m *Model) onCodexEdited(msg codexEditedMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		m.err = fmt.Errorf("the edit: %w", msg.err)
		return nil
	case bytes.Equal(msg.before, msg.after):
		m.status = "No change: nothing written."
		return nil
	}
	c := model.Change{Path: msg.rel, Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(msg.before), After: string(msg.after)}
	p := model.Proposal{ID: "codex-edit-" + msg.rel, Kind: model.KindEdit, MemoryDir: msg.cx.Store.Root, Project: msg.cx.Store.Home,
		External: true, Title: "Edit " + msg.rel,
		Rationale: "Codex's next consolidation sees this edit in its diff against its baseline and takes it as the person's: it folds it in, in its own words.",
		Changes:   []model.Change{c}}
	var err error
	if why := app.CodexChangeRefusal(c); why != "" {
		err = errors.New(why + ": nothing written")
	}
	return m.askHand(p, err, "Edit "+safe.ShowLine(msg.rel))
}
