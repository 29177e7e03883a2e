package ui

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// The verbs of curating by hand (delete a memory, revert an agent's
// change): each is a proposal made on the spot (dream.Delete,
// dream.Revert), asked about in a dialog and written as any proposal is,
// through the journal, so undo brings it back. The root follows the write
// (it is the writeOwner of a write no view asked for).

// handMsg is a hand-made proposal, worked out in a Cmd: making one runs
// every check over the directory, too slow for a key press on a large
// one. direct writes it at once (the key that asked was the answer).
type handMsg struct {
	verb   string
	p      model.Proposal
	err    error
	direct bool
}

// handCmd works out a hand-made proposal in the background; the dialog
// (or, direct, the write) follows when it comes back.
func (m *Model) handCmd(verb string, direct bool, make func() (model.Proposal, error)) tea.Cmd {
	m.status = verb + ": working out the change…"
	return func() tea.Msg {
		p, err := make()
		return handMsg{verb: verb, p: p, err: err, direct: direct}
	}
}

// onHand asks about a hand-made proposal, or writes it when it was asked
// for already.
func (m *Model) onHand(msg handMsg) tea.Cmd {
	if m.status == msg.verb+": working out the change…" {
		m.status = ""
	}
	if msg.direct && msg.err == nil && !m.ws.ReadOnly && !m.writeBusy() {
		return m.runWrite(nil, []writeJob{{dir: msg.p.MemoryDir, props: []model.Proposal{msg.p}}}, 0, false)
	}
	return m.askHand(msg.p, msg.err, msg.verb)
}

// askHand puts a hand-made proposal to the person: y writes it.
func (m *Model) askHand(p model.Proposal, err error, verb string) tea.Cmd {
	switch {
	case m.ws.ReadOnly:
		return nil
	case m.writeBusy():
		m.status = "Still writing; wait for it to finish."
		return nil
	case err != nil:
		m.err = err
		return nil
	}
	st := m.c.st
	lines := []string{"", st.Bold.Render(safe.ShowLine(report.Tilde(p.MemoryDir, m.c.home)))}
	for _, c := range p.Changes {
		lines = append(lines, "  "+opWord(c.Op)+"  "+safe.ShowLine(c.Path))
	}
	// The why wraps: cut at the dialog's edge, it would lose its end.
	lines = append(lines, "")
	for _, ln := range strings.Split(ansi.Wrap(safe.ShowLine(p.Rationale), max(m.width-6, 20), " "), "\n") {
		lines = append(lines, st.Faint.Render(ln))
	}
	m.openDialog(&dialog{
		kind:  dlgHand,
		title: verb + "?",
		lines: lines,
		hint:  key1(m.c.keys.Dialog.Confirm) + " " + verb + " · any other key cancels",
		jobs:  []writeJob{{dir: p.MemoryDir, props: []model.Proposal{p}}},
	})
	return nil
}

// askDelete asks to delete the memory selected in the browse view.
func (m *Model) askDelete() tea.Cmd {
	pd, dd, it := m.selection()
	if pd == nil || dd == nil || it == nil {
		return nil
	}
	if it.file == nil {
		m.status = "MEMORY.md is the index, not a memory: the index editor (" + key1(m.c.keys.Views.Index) + ", then " + key1(m.c.keys.Index.EditIndex) + ") edits it."
		return nil
	}
	if err := m.writeRefusal(dd.d.Path); err != nil {
		m.err = err
		return nil
	}
	proj, d, path, opts := snapshot(pd.p), dd.d, it.file.Path, dream.Options{Options: m.copts}
	return m.handCmd("Delete "+path, false, func() (model.Proposal, error) { return dream.Delete(proj, d, path, opts) })
}

// askRetype asks which type the selected memory becomes; the key that
// picks it writes (the question is the confirmation).
func (m *Model) askRetype() tea.Cmd {
	pd, dd, it := m.selection()
	if pd == nil || dd == nil || it == nil || m.ws.ReadOnly {
		return nil
	}
	if it.file == nil {
		m.status = "MEMORY.md is the index: it has no type."
		return nil
	}
	if m.writeBusy() {
		m.status = "Still writing; wait for it to finish."
		return nil
	}
	if err := m.writeRefusal(dd.d.Path); err != nil {
		m.err = err
		return nil
	}
	proj, d, path := snapshot(pd.p), dd.d, it.file.Path
	keys := map[string]model.Type{"u": model.TypeUser, "f": model.TypeFeedback, "p": model.TypeProject, "r": model.TypeReference}
	m.openDialog(&dialog{
		kind:  dlgPick,
		title: "Change the type of " + path + "?",
		lines: []string{"", "now: " + safe.ShowLine(typeWord(claude.ParseDoc(it.file.Content).Claude().Type)), "",
			m.c.st.Faint.Render("The type Claude Code reads changes, nothing else; the journal (" + key1(m.c.keys.Views.Journal) + ") can undo it.")},
		hint: "u user · f feedback · p project · r reference · any other key cancels",
		pick: func(k string) (tea.Cmd, bool) {
			typ, ok := keys[k]
			if !ok {
				return nil, false
			}
			opts := dream.Options{Options: m.copts}
			return m.handCmd("Retype "+path, true, func() (model.Proposal, error) { return dream.Retype(proj, d, path, typ, opts) }), true
		},
	})
	return nil
}

// filterPrompt is the text input's prompt while it filters.
const filterPrompt = "/"

// renameAsk is a rename being typed: the new name goes into the root's
// text input (modeFilter), enter asks to write it, esc cancels.
type renameAsk struct {
	proj *model.Project
	d    *model.MemoryDir
	path string
}

// askRename opens the input for the selected memory's new file name.
func (m *Model) askRename() tea.Cmd {
	pd, dd, it := m.selection()
	if pd == nil || dd == nil || it == nil || m.ws.ReadOnly {
		return nil
	}
	if it.file == nil {
		m.status = "MEMORY.md keeps its name: Claude Code loads it by it."
		return nil
	}
	if err := m.writeRefusal(dd.d.Path); err != nil {
		m.err = err
		return nil
	}
	m.renaming = &renameAsk{proj: snapshot(pd.p), d: dd.d, path: it.file.Path}
	m.mode = modeFilter
	m.input.Prompt = "rename " + safe.ShowLine(it.file.Path) + " to: "
	m.input.SetValue(strings.TrimSuffix(path.Base(it.file.Path), ".md"))
	m.input.CursorEnd()
	m.layout()
	return m.input.Focus()
}

// renameKey types the new name; enter asks to write the rename (every
// link follows), esc cancels.
func (m *Model) renameKey(k tea.KeyPressMsg) tea.Cmd {
	in := m.c.keys.Input
	switch {
	case key.Matches(k, in.Accept), key.Matches(k, in.Cancel):
		r := m.renaming
		name := m.input.Value()
		m.renaming = nil
		m.input.Prompt = filterPrompt
		m.endFilter()
		if key.Matches(k, in.Cancel) {
			m.status = "Cancelled: nothing renamed."
			return nil
		}
		opts := dream.Options{Options: m.copts}
		return m.handCmd("Rename "+r.path, false, func() (model.Proposal, error) { return dream.Rename(r.proj, r.d, r.path, name, opts) })
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// typeWord names a type as read ("none" for none).
func typeWord(t string) string {
	if t == "" {
		return "none"
	}
	return t
}

// The root as the writeOwner of a hand-made write.

func (m *Model) writeProgress(line string)                { m.status = line }
func (m *Model) writeResults(writeJob, []txn.ApplyResult) {}

func (m *Model) writeDone(w *writeRun, h host) {
	st := m.c.st
	dl := &dialog{kind: dlgResult, hint: "any key closes"}
	r := resultLine{status: txn.StatusFailed, why: "no result"}
	if len(w.results) > 0 {
		r = w.results[0]
	}
	switch r.status {
	case txn.StatusApplied:
		dl.title = "Done: " + r.title
		dl.lines = []string{"", st.OK.Render("✓ applied") + "  " + safe.ShowLine(r.title), "", st.Faint.Render("The journal (" + key1(m.c.keys.Views.Journal) + ") can undo it.")}
		m.status = ""
	case txn.StatusConflict:
		dl.title = "Not written: the file changed"
		dl.lines = []string{"", st.Sev[model.Warning].Render("! conflict") + "  " + safe.ShowLine(r.title), safe.ShowLine(r.why), "An agent changed it meanwhile: nothing was written."}
		m.err = errors.New("conflict: nothing written")
	default:
		dl.title = "Not written"
		dl.lines = []string{"", st.Error.Render("✗ failed") + "  " + safe.ShowLine(r.title), safe.ShowLine(r.why)}
		m.err = fmt.Errorf("not written: %s", r.why)
	}
	if len(w.lockHeld) > 0 {
		dl.jobs, dl.owner = w.lockHeld, w.owner
		dl.hint = fmt.Sprintf("%s retry, waiting up to %s for the lock · any other key closes", key1(m.c.keys.Dialog.Confirm), lockWait)
	}
	h.openDialog(dl)
}
