package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
	"github.com/memtui/memtui/themes"
)

// ixeMode is what the index editor's body shows and its keys do.
type ixeMode int

const (
	ixeList    ixeMode = iota // the rows, with the cut and the marks
	ixeHook                   // the footer's input edits a hook
	ixeDiff                   // the pending diff
	ixeOrphans                // picking an orphan file to add an entry for
)

// ixEditView edits a MEMORY.md in memory with memindex.Editor: one line
// per row (an entry with its target's type and age and a badge for the
// findings on its lines; a heading or other line as written), the cut
// drawn where the edited index would be cut, meters for both caps with
// the 70% and 80% marks. Nothing reaches the disk until the root writes
// the editor's bytes through txn.Apply.
type ixEditView struct {
	c     *shared
	dd    *dirData
	title string
	ed    *memindex.Editor
	// base is MEMORY.md as the editor read it: the write's base hash.
	base []byte
	// files are the directory's topic files by path.
	files map[string]*model.File
	// sev is the worst finding on each original row, by row ID.
	sev      map[int]model.Severity
	cur, off int
	w, h     int
	mode     ixeMode
	input    textinput.Model
	// diff is the pending diff, drawn by the diff pane proposals use (line
	// numbers, continuation marks, cut lines scrolled sideways); sc masks
	// its secrets.
	diff     *diffView
	diffZoom bool
	sc       *secrets.Scanner
	orphans  []string
	ocur     int
	note     string
	noteErr  bool
	// anchor is the row a range started at (SelectRows), -1 for none: the
	// range runs from it to the cursor.
	anchor int
	// archives are the archive files demotes made, pending with the
	// MEMORY.md edit: one is written (created) only while MEMORY.md's
	// current rows link it, so undoing a demote drops its archive.
	archives []pendingArchive
	// create: the directory has no MEMORY.md; the editor started from
	// an empty file, and the write creates it (its undo deletes it).
	create bool
}

// pendingArchive is an archive file a demote made, not yet on disk.
type pendingArchive struct {
	path    string // beside MEMORY.md
	content []byte
}

// archiveTitle heads every archive file a demote makes.
const archiveTitle = "Memory archive"

func newIxEditView(c *shared, sc *secrets.Scanner) *ixEditView {
	in := textinput.New()
	in.Prompt = "hook: "
	in.CharLimit = 1000
	d := newDiffView(c)
	d.empty = "No pending edits."
	return &ixEditView{c: c, input: in, diff: d, sc: sc}
}

// open starts editing dd's MEMORY.md from the bytes loaded.
func (v *ixEditView) open(dd *dirData, title string) {
	v.start(dd, title, dd.d.Index.Content)
}

// openNew starts a MEMORY.md for dd, which has none: the editor's file is
// empty, and its first edit is the starting index p proposes (Dream's new
// index: dream.NewIndex), shown as its pending diff. u empties it to build
// one by hand; the write creates the file.
func (v *ixEditView) openNew(dd *dirData, title string, p model.Proposal) error {
	index, found := "", false
	var archives []pendingArchive
	for _, c := range p.Changes {
		switch {
		case c.Op != model.OpCreate:
			return fmt.Errorf("the starting index would change %s as well: see it in the proposals view instead", c.Path)
		case c.Path == model.IndexFileName:
			index, found = c.After, true
		default:
			archives = append(archives, pendingArchive{path: c.Path, content: []byte(c.After)})
		}
	}
	if !found {
		return errors.New("no starting index was proposed for this directory")
	}
	v.start(dd, title, nil)
	v.create = true
	if err := v.ed.Replace([]byte(index)); err != nil {
		return fmt.Errorf("the starting index: %w", err)
	}
	v.archives, v.cur = archives, 0
	n := indexable(dd)
	v.showDiff()
	v.say("new MEMORY.md for its %d %s: %s to edit it, %s to empty it, %s to create it",
		n, model.Plural(n, "memory", "memories"), key1(v.c.keys.EditorDiff.Close), key1(v.c.keys.Editor.Undo), key1(v.c.keys.Editor.Write))
	return nil
}

// start opens the editor on base, the bytes of dd's MEMORY.md (nil: none).
func (v *ixEditView) start(dd *dirData, title string, base []byte) {
	v.dd, v.title = dd, title
	v.base, v.create = base, false
	v.ed = memindex.NewEditorMode(v.base, dd.d.Kind.LoadMode())
	v.mode, v.note, v.noteErr, v.off = ixeList, "", false, 0
	v.anchor, v.archives = -1, nil
	v.files = map[string]*model.File{}
	for _, f := range dd.d.Files {
		v.files[f.Path] = f
	}
	v.sev = map[int]model.Severity{}
	fs := dd.byFile["MEMORY.md"]
	for _, r := range v.ed.Rows() {
		for _, f := range fs {
			if f.Line >= r.Line && f.Line < r.Line+r.Lines {
				if s, ok := v.sev[r.ID]; !ok || f.Severity > s {
					v.sev[r.ID] = f.Severity
				}
			}
		}
	}
	// Open at the cut, as the index view does: the rows the agent misses.
	b := v.ed.Budget()
	v.cur = 0
	if b.CutRow >= 0 {
		v.cur = b.CutRow
	}
	if v.c.readonly {
		v.note = "read-only: explore freely; nothing can be edited or written"
	}
}

func (v *ixEditView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.input.SetWidth(max(w-len(v.input.Prompt)-2, 10))
	v.setDiffZoom(v.diffZoom)
}

// setDiffZoom gives the pending diff the whole view (the meters hidden
// under one heading), or the rows below the meters.
func (v *ixEditView) setDiffZoom(on bool) {
	v.diffZoom = on
	if on {
		v.diff.SetSize(v.w, max(v.h-1, 1))
		return
	}
	v.diff.SetSize(v.w, max(v.h-indexHeaderLines, 1))
}

// modified reports pending edits.
func (v *ixEditView) modified() bool { return v.ed != nil && v.ed.Modified() }

func (v *ixEditView) say(format string, a ...any) {
	v.note, v.noteErr = fmt.Sprintf(format, a...), false
}

func (v *ixEditView) fail(err error) {
	v.note, v.noteErr = err.Error(), true
}

// clamp keeps the cursor on a row.
func (v *ixEditView) clamp() {
	v.cur = max(min(v.cur, v.ed.Len()-1), 0)
}

// selectID puts the cursor on the row with id, when it is still there.
func (v *ixEditView) selectID(id int) {
	for i, r := range v.ed.Rows() {
		if r.ID == id {
			v.cur = i
			return
		}
	}
	v.clamp()
}

func (v *ixEditView) rowID() int {
	rows := v.ed.Rows()
	if v.cur < len(rows) {
		return rows[v.cur].ID
	}
	return -1
}

// Update takes the keys the root hands the editor (all but leaving and
// writing).
func (v *ixEditView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || v.ed == nil {
		return nil
	}
	keys, mv := v.c.keys.Editor, v.c.keys.Move
	switch v.mode {
	case ixeHook:
		return v.hookKey(k)
	case ixeDiff:
		switch {
		case key.Matches(k, v.c.keys.EditorDiff.Close) && v.diffZoom:
			v.setDiffZoom(false)
		case key.Matches(k, v.c.keys.EditorDiff.Close):
			v.mode = ixeList
		case key.Matches(k, v.c.keys.Diff.Zoom):
			v.setDiffZoom(!v.diffZoom)
		default:
			return v.diff.Update(k)
		}
		return nil
	case ixeOrphans:
		return v.orphanKey(k)
	}
	v.note = ""
	// Any edit ends a range; moving the cursor extends it.
	if v.anchor >= 0 && !key.Matches(k, mv.Up, mv.Down, mv.PageUp, mv.PageDown, mv.Top, mv.Bottom,
		keys.SelectRows, keys.Demote, keys.Fold, keys.ShowDiff, keys.RowUp, keys.RowDown) {
		v.anchor = -1
	}
	switch {
	case key.Matches(k, keys.SelectRows):
		if v.anchor >= 0 {
			v.anchor = -1
			v.say("range cleared")
		} else {
			v.anchor = v.cur
			v.say("range started: move to extend it; %s demotes it, esc clears it", keys.Demote.Help().Key)
		}
	case key.Matches(k, keys.Demote):
		v.demote()
	case key.Matches(k, mv.Up):
		v.cur--
	case key.Matches(k, mv.Down):
		v.cur++
	case key.Matches(k, mv.PageUp):
		v.cur -= max(v.listHeight()-1, 1)
	case key.Matches(k, mv.PageDown):
		v.cur += max(v.listHeight()-1, 1)
	case key.Matches(k, mv.Top):
		v.cur = 0
	case key.Matches(k, mv.Bottom):
		v.cur = v.ed.Len() - 1
	case key.Matches(k, keys.RowUp):
		v.move(-1)
	case key.Matches(k, keys.RowDown):
		v.move(1)
	case key.Matches(k, keys.AboveCut):
		v.aboveCut()
	case key.Matches(k, keys.DeleteRow):
		v.delete()
	case key.Matches(k, keys.RestoreRow):
		v.restore()
	case key.Matches(k, keys.AddOrphan):
		v.openOrphans()
	case key.Matches(k, keys.EditHook):
		return v.startHook()
	case key.Matches(k, keys.ShortenHooks):
		v.shorten()
	case key.Matches(k, keys.Fold):
		v.fold(false)
	case key.Matches(k, keys.FoldAll):
		v.fold(true)
	case key.Matches(k, keys.Collapse):
		v.collapse()
	case key.Matches(k, keys.Undo):
		v.history(v.ed.Undo, "undone")
	case key.Matches(k, keys.Redo):
		v.history(v.ed.Redo, "redone")
	case key.Matches(k, keys.ShowDiff):
		v.showDiff()
	}
	v.clamp()
	return nil
}

// selection is the range's rows [from, to), or with no range the rows
// from the cursor to the end of the index.
func (v *ixEditView) selection() (from, to int) {
	if v.anchor >= 0 {
		a := min(v.anchor, v.ed.Len()-1)
		return min(a, v.cur), max(a, v.cur) + 1
	}
	return v.cur, v.ed.Len()
}

// inRange reports whether row i is in the range being selected.
func (v *ixEditView) inRange(i int) bool {
	if v.anchor < 0 {
		return false
	}
	from, to := v.selection()
	return i >= from && i < to
}

// pending are the archives MEMORY.md's current rows link: those the
// write creates.
func (v *ixEditView) pending() []pendingArchive {
	var out []pendingArchive
	for _, a := range v.archives {
		if v.ed.FindRow(a.path) >= 0 {
			out = append(out, a)
		}
	}
	return out
}

// archivePath is the first of memory-archive.md, memory-archive-2.md, …
// neither on disk beside MEMORY.md nor linked from the edited index.
func (v *ixEditView) archivePath() string {
	for n := 1; ; n++ {
		p := "memory-archive.md"
		if n > 1 {
			p = fmt.Sprintf("memory-archive-%d.md", n)
		}
		if _, ok := v.files[p]; ok || v.ed.FindRow(p) >= 0 {
			continue
		}
		if memfs.Occupied(v.dd.d.Path, p) {
			continue
		}
		return p
	}
}

// demote moves the entries of the range (or, with no range, every entry
// from the cursor to the end) into a new archive file beside MEMORY.md,
// leaving one entry that links it. Headings and other lines stay; a
// pending archive's own entry is never demoted.
func (v *ixEditView) demote() {
	from, to := v.selection()
	var sel []int
	for i, r := range v.ed.Rows()[from:to] {
		if r.Entry == nil || r.Entry.Form == memindex.EntryProse {
			continue
		}
		if slices.ContainsFunc(v.pending(), func(a pendingArchive) bool { return a.path == r.Target }) {
			continue
		}
		sel = append(sel, from+i)
	}
	if len(sel) == 0 {
		v.fail(errors.New("no index entry to demote in the selection"))
		return
	}
	p := v.archivePath()
	content, err := v.ed.Demote(sel, p, archiveTitle)
	if err != nil {
		v.fail(fmt.Errorf("cannot demote: %w", err))
		return
	}
	v.archives = slices.DeleteFunc(v.archives, func(a pendingArchive) bool { return a.path == p })
	v.archives = append(v.archives, pendingArchive{path: p, content: content})
	v.anchor = -1
	if at := v.ed.FindRow(p); at >= 0 {
		v.cur = at
	}
	v.say("demoted %d %s to %s (written with MEMORY.md; %s undoes it)", len(sel), model.Plural(len(sel), "entry", "entries"), p, v.c.keys.Editor.Undo.Help().Key)
}

// move shifts the row under the cursor, or the whole range when one is
// selected (it stays selected, so it can keep moving).
func (v *ixEditView) move(delta int) {
	if v.anchor >= 0 {
		from, to := v.selection()
		if err := v.ed.MoveRange(from, to, delta); err != nil {
			v.fail(fmt.Errorf("cannot move these rows: %w", err))
			return
		}
		v.anchor += delta
		v.cur += delta
		return
	}
	if err := v.ed.MoveRow(v.cur, delta); err != nil {
		v.fail(fmt.Errorf("cannot move this row: %w", err))
		return
	}
	v.cur += delta
}

func (v *ixEditView) aboveCut() {
	if v.ed.Budget().CutRow < 0 {
		v.fail(errors.New("nothing is cut: every row loads"))
		return
	}
	mv, err := v.ed.MoveRowAboveCut(v.cur)
	if err != nil {
		v.fail(fmt.Errorf("cannot move above the cut: %w", err))
		return
	}
	v.cur = mv.Row
	if n := len(mv.Pushed); n > 0 {
		v.say("moved above the cut; %d %s that loaded now fall below it", n, model.Plural(n, "row", "rows"))
		return
	}
	v.say("moved above the cut")
}

func (v *ixEditView) delete() {
	rows := v.ed.Rows()
	if v.cur >= len(rows) {
		return
	}
	name := strings.TrimSpace(rows[v.cur].Text)
	if rows[v.cur].Entry != nil {
		name = rows[v.cur].Entry.Name()
	}
	if err := v.ed.DeleteRow(v.cur); err != nil {
		v.fail(fmt.Errorf("cannot delete this row: %w", err))
		return
	}
	v.say("deleted %q (the file stays); %s restores it", ansi.Truncate(name, 40, "…"), v.c.keys.Editor.RestoreRow.Help().Key)
}

func (v *ixEditView) restore() {
	dels := v.ed.Deleted()
	if len(dels) == 0 {
		v.fail(errors.New("nothing deleted to restore"))
		return
	}
	last := dels[len(dels)-1]
	if err := v.ed.RestoreRow(len(dels) - 1); err != nil {
		v.fail(fmt.Errorf("cannot restore: %w", err))
		return
	}
	v.selectID(last.ID)
	v.say("restored")
}

func (v *ixEditView) history(step func() error, done string) {
	id := v.rowID()
	if err := step(); err != nil {
		v.fail(err)
		return
	}
	v.selectID(id)
	v.say("%s", done)
}

func (v *ixEditView) shorten() {
	desc := map[string]string{}
	for p, doc := range v.dd.docs {
		desc[p] = doc.FM.Description
	}
	n, err := v.ed.ShortenHooks(desc, 0)
	switch {
	case err != nil:
		v.fail(err)
	case n == 0:
		v.say("no hook is over %d characters", memindex.DefaultHookMax)
	default:
		v.say("shortened %d %s (one step: %s undoes it)", n, model.Plural(n, "hook", "hooks"), v.c.keys.Editor.Undo.Help().Key)
	}
}

// collapse turns each run of blank lines into one and drops those at the
// ends, then shows what it freed and the pending diff.
func (v *ixEditView) collapse() {
	before := v.ed.Budget().Lines
	id := v.rowID()
	n, err := v.ed.CollapseBlanks()
	switch {
	case errors.Is(err, memindex.ErrNoChange):
		v.say("no blank lines to collapse: none in a run, none at the start or the end")
		return
	case err != nil:
		v.fail(fmt.Errorf("cannot collapse the blank lines: %w", err))
		return
	}
	v.selectID(id)
	freed := before - v.ed.Budget().Lines
	v.showDiff()
	if freed == 0 {
		v.say("%d blank %s removed at the ends (Claude Code trims those, so no line is freed); %s undoes it",
			n, model.Plural(n, "line", "lines"), v.c.keys.Editor.Undo.Help().Key)
		return
	}
	v.say("%d blank %s removed: %d %s freed of the %d-line cap; %s undoes it",
		n, model.Plural(n, "line", "lines"), freed, model.Plural(freed, "line", "lines"), model.IndexMaxLines, v.c.keys.Editor.Undo.Help().Key)
}

// fold puts the lines hanging under an entry onto its line, every word
// kept (memindex.JoinHanging): the entry at the cursor, each entry of the
// range, or (all) every entry. Folding them all shows the pending diff.
func (v *ixEditView) fold(all bool) {
	rows := v.ed.Rows()
	from, to := v.cur, min(v.cur+1, len(rows))
	if all {
		from, to = 0, len(rows)
	} else if v.anchor >= 0 {
		from, to = v.selection()
	}
	var sel []int
	for i := from; i < to; i++ {
		if rows[i].Entry != nil && rows[i].Lines > 1 {
			sel = append(sel, i)
		}
	}
	single := !all && v.anchor < 0
	switch {
	case len(sel) > 0:
	case single && (v.cur >= len(rows) || rows[v.cur].Entry == nil):
		v.fail(errors.New("only an index entry has lines hanging under it to fold"))
		return
	case single:
		v.fail(errors.New("this entry is on one line already"))
		return
	case all:
		v.say("no entry has lines hanging under it: nothing to fold")
		return
	default:
		v.fail(errors.New("no entry in the range has lines hanging under it"))
		return
	}
	before := v.ed.Budget().Lines
	res, err := v.ed.JoinHanging(sel, 0)
	if err != nil && !errors.Is(err, memindex.ErrNoChange) {
		v.fail(fmt.Errorf("cannot fold: %w", err))
		return
	}
	v.anchor = -1
	folded, long, left := 0, 0, 0
	var why error
	for _, r := range res {
		switch {
		case r.Lines > 0:
			folded++
			if r.Chars > memindex.EntryMaxChars {
				long++
			}
		case r.Err != nil:
			left++
			if why == nil {
				why = v.foldRefusal(r, single)
			}
		}
	}
	freed := before - v.ed.Budget().Lines
	undo := v.c.keys.Editor.Undo.Help().Key
	if single {
		r := res[0]
		switch {
		case folded == 0:
			v.fail(fmt.Errorf("not folded: %w", why))
		case long > 0:
			v.say("folded: %d %s freed; the line is %d chars, over the ~%d asked for (%s edits the hook)",
				freed, model.Plural(freed, "line", "lines"), r.Chars, memindex.EntryMaxChars, v.c.keys.Editor.EditHook.Help().Key)
		default:
			v.say("folded onto one line of %d chars: %d %s freed; %s undoes it", r.Chars, freed, model.Plural(freed, "line", "lines"), undo)
		}
		return
	}
	if folded == 0 {
		v.fail(fmt.Errorf("nothing folded: %w", why))
		return
	}
	msg := fmt.Sprintf("folded %d %s, %d %s freed", folded, model.Plural(folded, "entry", "entries"), freed, model.Plural(freed, "line", "lines"))
	if left > 0 {
		msg += fmt.Sprintf("; %d left whole: %v", left, why)
	}
	if long > 0 {
		msg += fmt.Sprintf("; %d now over ~%d chars", long, memindex.EntryMaxChars)
	}
	if all {
		v.showDiff()
	}
	v.say("%s", msg)
}

// foldRefusal says why JoinHanging left an entry as it is: in full for
// one entry, in brief among many.
func (v *ixEditView) foldRefusal(r memindex.Joined, full bool) error {
	switch {
	case errors.Is(r.Err, memindex.ErrTooLong) && full:
		return fmt.Errorf("it would be %d chars on one line, over ~%d: shorten its hook (%s) or move detail to its file",
			r.Chars, memindex.EntryHardMaxChars, v.c.keys.Editor.EditHook.Help().Key)
	case errors.Is(r.Err, memindex.ErrTooLong):
		return fmt.Errorf("over ~%d chars on one line", memindex.EntryHardMaxChars)
	case errors.Is(r.Err, memindex.ErrHides):
		return errors.New("on one line a link in its text would break")
	}
	return r.Err
}

// ---- hooks ----

func (v *ixEditView) startHook() tea.Cmd {
	rows := v.ed.Rows()
	if v.cur >= len(rows) || rows[v.cur].Entry == nil {
		v.fail(errors.New("only an index entry has a hook"))
		return nil
	}
	if rows[v.cur].Entry.Form == memindex.EntryProse {
		v.fail(errors.New("a prose entry has no hook to edit"))
		return nil
	}
	// The input shows its text as it is: a hook holding a control
	// character or a secret is not put in it (the row shows it made safe).
	if hook := rows[v.cur].Entry.Hook; safe.ShowLine(hook) != hook {
		v.fail(errors.New("the hook holds a control character or a secret: edit MEMORY.md in $EDITOR (e) instead"))
		return nil
	}
	v.mode = ixeHook
	v.input.SetValue(rows[v.cur].Entry.Hook)
	v.input.CursorEnd()
	return v.input.Focus()
}

func (v *ixEditView) hookKey(k tea.KeyPressMsg) tea.Cmd {
	in := v.c.keys.Input
	switch {
	case key.Matches(k, in.Accept):
		v.mode = ixeList
		v.input.Blur()
		switch err := v.ed.EditHook(v.cur, v.input.Value()); {
		case errors.Is(err, memindex.ErrNoChange):
			v.say("the hook is unchanged")
		case err != nil:
			v.fail(fmt.Errorf("hook not changed: %w", err))
		default:
			v.say("hook changed")
		}
		return nil
	case key.Matches(k, in.Cancel):
		v.mode = ixeList
		v.input.Blur()
		v.say("hook edit cancelled")
		return nil
	}
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(k)
	return cmd
}

// ---- orphans ----

// orphanFiles are the directory's topic files no row points at.
func (v *ixEditView) orphanFiles() []string {
	var out []string
	for _, f := range v.dd.d.Files {
		if v.ed.FindRow(f.Path) < 0 {
			out = append(out, f.Path)
		}
	}
	slices.Sort(out)
	return out
}

func (v *ixEditView) openOrphans() {
	v.orphans = v.orphanFiles()
	if len(v.orphans) == 0 {
		v.say("every topic file has an entry: no orphan to add")
		return
	}
	v.mode, v.ocur = ixeOrphans, 0
}

func (v *ixEditView) orphanKey(k tea.KeyPressMsg) tea.Cmd {
	keys, mv := v.c.keys.Picker, v.c.keys.Move
	switch {
	case key.Matches(k, keys.Cancel):
		v.mode = ixeList
	case key.Matches(k, mv.Up):
		v.ocur = max(v.ocur-1, 0)
	case key.Matches(k, mv.Down):
		v.ocur = min(v.ocur+1, len(v.orphans)-1)
	case key.Matches(k, mv.PageUp):
		v.ocur = max(v.ocur-max(v.listHeight()-3, 1), 0)
	case key.Matches(k, mv.PageDown):
		v.ocur = min(v.ocur+max(v.listHeight()-3, 1), len(v.orphans)-1)
	case key.Matches(k, mv.Top):
		v.ocur = 0
	case key.Matches(k, mv.Bottom):
		v.ocur = len(v.orphans) - 1
	case key.Matches(k, keys.Pick):
		p := v.orphans[v.ocur]
		doc := v.dd.docs[p]
		title := strings.TrimSpace(doc.FM.Name)
		if title == "" {
			title = strings.TrimSuffix(p, ".md")
		}
		v.mode = ixeList
		after := v.cur
		if v.ed.Len() == 0 {
			after = -1 // an empty index: the entry is its first line
		}
		at, err := v.ed.AddEntry(p, title, doc.FM.Description, after)
		if err != nil {
			v.fail(fmt.Errorf("cannot add an entry: %w", err))
			return nil
		}
		v.cur = at
		v.say("added an entry for %s below the selected row", p)
	}
	return nil
}

// ---- diff ----

// pendingChange is the write's change to MEMORY.md: an update based on
// the bytes the editor read, or the file's creation when there was none
// (a conflict if one appears meanwhile).
func (v *ixEditView) pendingChange() model.Change {
	if v.create {
		return model.Change{Path: "MEMORY.md", Op: model.OpCreate, After: string(v.ed.Bytes())}
	}
	return model.Change{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(v.base), After: string(v.ed.Bytes())}
}

// pendingChanges are the write's changes: MEMORY.md, then each pending
// archive file created.
func (v *ixEditView) pendingChanges() []model.Change {
	cs := []model.Change{v.pendingChange()}
	for _, a := range v.pending() {
		cs = append(cs, model.Change{Path: a.path, Op: model.OpCreate, After: string(a.content)})
	}
	return cs
}

// pendingDiff is the unified diff of every pending change.
func (v *ixEditView) pendingDiff() string {
	var b strings.Builder
	for _, c := range v.pendingChanges() {
		base := ""
		if c.Op == model.OpUpdate {
			base = string(v.base)
		}
		b.WriteString(strings.TrimRight(diff.Unified(c, base), "\n") + "\n")
	}
	return b.String()
}

func (v *ixEditView) showDiff() {
	if !v.modified() {
		v.say("no pending edits: nothing to diff")
		return
	}
	// Masked in whole texts, made safe, as every diff pane is.
	cs := v.pendingChanges()
	it := &propItem{
		p:         model.Proposal{ID: "index-edit", Kind: model.KindReindex, MemoryDir: v.dd.d.Path, Changes: cs},
		title:     "Pending edits to MEMORY.md",
		rationale: v.diffSummary() + " Nothing is written until " + key1(v.c.keys.Editor.Write) + ".",
		label:     "not written yet",
	}
	for _, c := range cs {
		base := ""
		if c.Op == model.OpUpdate {
			base = string(v.base)
		}
		it.diffs = append(it.diffs, diffChange(c, base, v.sc))
	}
	v.diff.show(it)
	v.mode = ixeDiff
}

// ---- drawing ----

func (v *ixEditView) listHeight() int { return max(v.h-indexHeaderLines, 1) }

// header is the title, the two meters with their marks, a note and a rule.
func (v *ixEditView) header(b memindex.Budget) string {
	st := v.c.st
	status := st.OK.Render("✓ loads whole")
	switch {
	case b.Load.TooLarge:
		status = st.Sev[model.Error].Render("✗ not loaded: over the 4 MiB Claude Code reads")
	case b.Truncated:
		status = st.Sev[model.Error].Render(fmt.Sprintf("✗ cut: %d %s never reach the agent", len(b.Load.Dropped), model.Plural(len(b.Load.Dropped), "line", "lines")) + blankCut(&b.Load))
	case b.Load.NearLimit():
		status = st.Sev[model.Warning].Render("▲ near a cap")
	}
	state := st.Faint.Render("no pending edits")
	switch {
	case v.c.readonly:
		state = st.Sev[model.Warning].Render("read-only")
	case v.create && v.modified():
		state = st.Accent.Render("✎ new MEMORY.md, not written")
	case v.create:
		state = st.Faint.Render("no MEMORY.md: empty, nothing to write")
	case v.modified():
		state = st.Accent.Render("✎ pending edits, not written")
	}
	barW := max(min(v.w-34, 50), 8)
	note := st.Faint.Render("marks ┊ at 70% (the size Claude Code asks for) and 80% (where it nudges)")
	if v.note != "" {
		note = st.Status.Render(safe.ShowLine(v.note))
		if v.noteErr {
			note = st.Error.Render("✗ " + safe.ShowLine(v.note))
		}
	}
	lines := []string{
		ansi.Truncate(st.Title.Render("Edit "+safe.ShowLine(v.title))+"  "+status+"  "+state, v.w, "…"),
		markedMeter(st, "lines", b.Lines, model.IndexMaxLines, barW),
		markedMeter(st, "units", b.Units, model.IndexMaxUnits, barW),
		ansi.Truncate(note, v.w, "…"),
		st.Faint.Render(strings.Repeat("─", v.w)),
	}
	return fit(strings.Join(lines, "\n"), v.w, indexHeaderLines)
}

// markedMeter is meter with the 70% and 80% marks drawn on the bar.
func markedMeter(st themes.Styles, label string, n, cap, w int) string {
	fill := int(min(float64(n)/float64(cap), 1) * float64(w))
	m70, m80 := w*7/10, w*8/10
	fillStyle := st.MeterFill
	over := ""
	if n > cap {
		fillStyle = st.Cut
		over = st.Cut.Render(fmt.Sprintf("  %d over", n-cap))
	}
	var b strings.Builder
	run, runStyle := "", lipgloss.Style{}
	flush := func() {
		if run != "" {
			b.WriteString(runStyle.Render(run))
		}
		run = ""
	}
	for i := range w {
		ch, s := "░", st.MeterEmpty
		if i < fill {
			ch, s = "█", fillStyle
		}
		if i == m70 || i == m80 {
			ch, s = "┊", st.Sev[model.Warning]
		}
		if run != "" && s.String() != runStyle.String() {
			flush()
		}
		if run == "" {
			runStyle = s
		}
		run += ch
	}
	flush()
	return fmt.Sprintf("%-6s %s %d / %d%s", label, b.String(), n, cap, over)
}

// dispLine is one line of the list: a row (row ≥ 0) or a marker.
type dispLine struct {
	row  int
	text string
}

func (v *ixEditView) lines(b memindex.Budget) []dispLine {
	st := v.c.st
	rows := v.ed.Rows()
	rule := func(s string) string { return s + " " + strings.Repeat("┄", max(v.w, 1)) }
	var out []dispLine
	for i, r := range rows {
		if i == b.TargetRow {
			out = append(out, dispLine{-1, st.Faint.Render(ansi.Truncate(rule("┄┄ 70%: Claude Code asks to stay above here"), v.w, ""))})
		}
		if i == b.NearRow {
			out = append(out, dispLine{-1, st.Sev[model.Warning].Render(ansi.Truncate(rule("┄┄ 80%: Claude Code nudges from here"), v.w, ""))})
		}
		if i == b.CutRow {
			out = append(out, dispLine{-1, st.Cut.Render(ansi.Truncate("✂── cut: the agent stops reading here "+strings.Repeat("─", v.w), v.w, ""))})
		}
		out = append(out, dispLine{i, v.rowText(r, i == v.cur, v.inRange(i), b.CutRow >= 0 && i >= b.CutRow)})
	}
	return out
}

// rowText draws one row: badge, line, then the entry's title, target,
// the target's type and age and the hook, or the line as written.
func (v *ixEditView) rowText(r memindex.Row, selected, ranged, cut bool) string {
	st := v.c.st
	badge := " "
	if s, ok := v.sev[r.ID]; ok {
		badge = st.Badge[s].Render(sevSymbol(s))
		if selected {
			badge = sevSymbol(s)
		}
	}
	num := fmt.Sprintf("%4d ", r.Line)
	more := ""
	if r.Lines > 1 {
		more = fmt.Sprintf(" (+%d)", r.Lines-1)
	}
	var plain, styled string
	if r.Entry != nil {
		en := r.Entry
		meta := "no such file"
		if f, ok := v.files[r.Target]; ok {
			doc := v.dd.docs[r.Target]
			mod := doc.FM.ModifiedTime
			if mod.IsZero() {
				mod = f.ModTime
			}
			meta = typeOf(doc).String() + " " + age(v.c.now, mod)
		} else if r.Target == "" {
			meta = "no target"
		}
		// The index's own words: masked and made safe before drawing.
		name, target := safe.ShowLine(en.Name()), safe.ShowLine(r.Target)
		hook := ""
		if en.Hook != "" {
			hook = " — " + safe.ShowLine(en.Hook)
		}
		plain = name + " → " + target + " · " + meta + more + hook
		titleStyle, textStyle := st.Bold, st.Text
		if cut {
			titleStyle, textStyle = st.Dropped, st.Dropped
		}
		styled = titleStyle.Render(name) + st.Faint.Render(" → "+target+" · "+meta+more) + textStyle.Render(hook)
	} else {
		plain = safe.ShowLine(r.Text) + more
		switch {
		case cut:
			styled = st.Dropped.Render(plain)
		case r.Kind == memindex.LineHeading:
			styled = st.Bold.Render(plain)
		default:
			styled = st.Faint.Render(plain)
		}
	}
	textW := max(v.w-len(num)-3, 1)
	if selected {
		return badge + " " + st.Selected.Render(padRight(ansi.Truncate(num+plain, textW+len(num), "…"), textW+len(num)))
	}
	if ranged {
		return badge + "▌" + st.SelectedBlur.Render(padRight(ansi.Truncate(num+plain, textW+len(num), "…"), textW+len(num)))
	}
	return badge + " " + st.LineNo.Render(num) + ansi.Truncate(styled, textW, "…")
}

func (v *ixEditView) View() string {
	if v.ed == nil {
		return ""
	}
	b := v.ed.Budget()
	lh := v.listHeight()
	var body string
	switch v.mode {
	case ixeDiff:
		if v.diffZoom {
			// Zoomed, the diff takes the meters' rows too.
			head := paneHeading(v.c, "Pending diff · "+v.diff.modeName()+" · zoomed (z)", "", v.w, true)
			return head + "\n" + v.diff.View()
		}
		body = v.diff.View()
	case ixeOrphans:
		body = v.orphanView(lh)
	default:
		ls := v.lines(b)
		ci := 0
		for i, l := range ls {
			if l.row == v.cur {
				ci = i
				break
			}
		}
		// Keep the cursor in view with a few lines around it, so the
		// cut or a mark next to it shows.
		margin := min(3, lh/4)
		if ci-margin < v.off {
			v.off = ci - margin
		}
		if ci+margin >= v.off+lh {
			v.off = ci + margin - lh + 1
		}
		v.off = max(min(v.off, len(ls)-lh), 0)
		var out []string
		for _, l := range ls[v.off:min(v.off+lh, len(ls))] {
			out = append(out, l.text)
		}
		if len(ls) == 0 {
			out = []string{v.c.st.Faint.Render(ansi.Wrap(fmt.Sprintf("MEMORY.md is empty. %s adds an entry for a memory; %s brings back the last edit undone.",
				v.c.keys.Editor.AddOrphan.Help().Key, v.c.keys.Editor.Redo.Help().Key), max(v.w, 10), " "))}
		}
		body = strings.Join(out, "\n")
	}
	return v.header(b) + "\n" + fit(body, v.w, lh)
}

func (v *ixEditView) orphanView(h int) string {
	st := v.c.st
	lines := []string{st.Bold.Render(fmt.Sprintf("Add an entry, below the selected row, for one of %d %s no row points at:",
		len(v.orphans), model.Plural(len(v.orphans), "file", "files")))}
	room := max(h-2, 1)
	start := max(min(v.ocur-room/2, len(v.orphans)-room), 0)
	for i := start; i < min(start+room, len(v.orphans)); i++ {
		p := v.orphans[i]
		doc := v.dd.docs[p]
		txt := safe.ShowLine(p) + " · " + typeOf(doc).String()
		if d := strings.TrimSpace(doc.FM.Description); d != "" {
			txt += " — " + safe.ShowLine(d)
		}
		txt = ansi.Truncate(txt, max(v.w-2, 1), "…")
		if i == v.ocur {
			lines = append(lines, "  "+st.Selected.Render(padRight(txt, max(v.w-2, 1))))
		} else {
			lines = append(lines, "  "+txt)
		}
	}
	lines = append(lines, st.Faint.Render(key1(v.c.keys.Picker.Pick)+" adds it (title and hook from its frontmatter) · "+key1(v.c.keys.Picker.Cancel)+" cancels"))
	return strings.Join(lines, "\n")
}

// wheel scrolls the diff or moves the cursor.
func (v *ixEditView) wheel(n int) {
	switch v.mode {
	case ixeDiff:
		v.diff.scroll(n)
	case ixeList:
		v.cur += n
		v.clamp()
	}
}

// scope is the editor's rows, or the part of it that has the keys: the
// hook's input, the pending diff, the orphan picker.
func (v *ixEditView) scope() keymap.Scope {
	switch v.mode {
	case ixeHook:
		return keymap.ScopeInput
	case ixeDiff:
		return keymap.ScopeEditorDiff
	case ixeOrphans:
		return keymap.ScopePicker
	}
	return keymap.ScopeEditor
}

func (v *ixEditView) ShortHelp() []key.Binding {
	k, e := v.c.keys, v.c.keys.Editor
	switch v.mode {
	case ixeDiff:
		return []key.Binding{k.Move.Up, k.Move.Down, k.Diff.NextHunk, k.Diff.Mode, k.Diff.Wrap, k.EditorDiff.Close}
	case ixeOrphans:
		return []key.Binding{k.Move.Up, k.Move.Down, k.Picker.Pick, k.Picker.Cancel}
	}
	return []key.Binding{e.RowUp, e.RowDown, e.AboveCut, e.DeleteRow, e.EditHook, e.Demote, e.ShowDiff, e.Write, e.Back}
}

// ---- the root's side: opening, leaving, writing ----

// openIndexEditor edits the MEMORY.md the index view shows, or starts one
// for a directory that has none.
func (m *Model) openIndexEditor() tea.Cmd {
	dd := m.index.dd
	switch {
	case dd != nil && dd.d.Index == nil && m.index.file == nil:
		return m.newIndex(dd)
	case dd == nil || dd.d.Index == nil:
		m.status = "This memory directory has no MEMORY.md to edit."
		if m.index.file != nil {
			m.status = "The index editor edits MEMORY.md; a store's index opens in $EDITOR (e)."
		}
		return nil
	case dd.d.Index.Truncated:
		m.err = errors.New("MEMORY.md is larger than memtui reads whole: edit it in $EDITOR")
		return nil
	}
	m.ixedit.open(dd, m.index.title)
	m.show(viewIndexEdit)
	return nil
}

// indexable counts the memories of dd a MEMORY.md would point at (those
// index-missing counts): none in a team dir, which has no index of its own
// (Claude Code 2.1.332 indexes a team store at team/<mount>/<promptIndex>).
func indexable(dd *dirData) int {
	if dd == nil || dd.d.Kind == model.DirTeam {
		return 0
	}
	n := 0
	for _, f := range dd.d.Files {
		if !consolidate.IndexExempt(f) {
			n++
		}
	}
	return n
}

// newIndexMsg is the starting MEMORY.md worked out for the directory at
// dir, which has none.
type newIndexMsg struct {
	dir string
	p   model.Proposal
	err error
}

// workingOutIndex is the status while a starting index is worked out.
const workingOutIndex = "Working out a starting MEMORY.md…"

// newIndex works out a starting MEMORY.md for dd in a Cmd (the new-index
// proposal runs every check over the directory, too slow for a key press on
// a large one); the editor opens on it when it comes back.
func (m *Model) newIndex(dd *dirData) tea.Cmd {
	var proj *model.Project
	for _, pd := range m.data {
		if pd.loaded && pd.dirIndex(dd.d.Path) >= 0 {
			proj = snapshot(pd.p)
		}
	}
	switch {
	case indexable(dd) == 0:
		m.status = "This memory directory has no MEMORY.md, and no memory one would point at."
		return nil
	case m.ws.ReadOnly:
		m.status = "--readonly: no MEMORY.md here, and creating one writes; this run writes nothing"
		return nil
	case proj == nil:
		return nil
	}
	if err := m.writeRefusal(dd.d.Path); err != nil {
		m.err = err
		return nil
	}
	d, dir, opts := dd.d, dd.d.Path, dream.Options{Options: m.copts}
	m.status = workingOutIndex
	return func() tea.Msg {
		p, err := dream.NewIndex(proj, d, opts)
		return newIndexMsg{dir: dir, p: p, err: err}
	}
}

// onNewIndex opens the editor on the starting index, if the index view
// still shows the directory without one.
func (m *Model) onNewIndex(msg newIndexMsg) tea.Cmd {
	if m.status == workingOutIndex {
		m.status = ""
	}
	dd := m.index.dd
	if m.view != viewIndex || dd == nil || dd.d.Path != msg.dir || dd.d.Index != nil {
		return nil // the person moved on, or a MEMORY.md appeared meanwhile
	}
	if msg.err != nil {
		m.err = fmt.Errorf("no starting MEMORY.md: %w", msg.err)
		return nil
	}
	if err := m.ixedit.openNew(dd, m.index.title, msg.p); err != nil {
		m.err = err
		return nil
	}
	m.show(viewIndexEdit)
	return nil
}

// key routes a key in the index editor. Its text input and overlays take
// their keys in the editor itself; on the rows, leaving and writing are
// matched here, the rest are the editor's moves. Quitting, help, refresh
// and the view switches are the root's global keys (see onKey).
func (v *ixEditView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Editor
	if v.mode == ixeList {
		switch {
		case key.Matches(k, keys.Back) && v.anchor >= 0:
			v.anchor = -1
			v.say("range cleared")
			return nil
		case key.Matches(k, keys.Back):
			return h.navigate(navigateMsg{to: viewIndex, back: true})
		case key.Matches(k, keys.Write):
			return v.askWrite(h)
		}
	}
	return v.Update(k)
}

// leaveEditor runs then once the index editor's pending edits may be
// dropped: at once when there are none (or the editor is not open), else
// after a confirmation that defaults to No.
func (m *Model) leaveEditor(then func() tea.Cmd) tea.Cmd {
	if m.view != viewIndexEdit || !m.ixedit.modified() || m.ws.ReadOnly {
		return then()
	}
	title := "Discard the pending edits to MEMORY.md?"
	if m.ixedit.create {
		title = "Discard the new MEMORY.md?"
	}
	m.openDialog(&dialog{
		kind:  dlgDiscard,
		title: title,
		lines: []string{"", "They are in memory only: nothing has been written.", m.ixedit.diffSummary()},
		hint:  key1(m.c.keys.Dialog.Confirm) + " discards them · any other key keeps editing",
		after: then,
	})
	return nil
}

// diffSummary counts the pending diff's lines.
func (v *ixEditView) diffSummary() string {
	add, del := 0, 0
	for _, ln := range strings.Split(v.pendingDiff(), "\n") {
		switch {
		case strings.HasPrefix(ln, "+++"), strings.HasPrefix(ln, "---"):
		case strings.HasPrefix(ln, "+"):
			add++
		case strings.HasPrefix(ln, "-"):
			del++
		}
	}
	return fmt.Sprintf("Pending: %d %s added, %d removed.", add, model.Plural(add, "line", "lines"), del)
}

// askWrite asks to write the edited MEMORY.md through txn.Apply: a
// reindex proposal with one update, based on the bytes the editor read.
func (v *ixEditView) askWrite(h host) tea.Cmd {
	switch {
	case v.c.readonly:
		return nil
	case h.writeBusy():
		h.say("Still writing; wait for it to finish.")
		return nil
	case !v.modified():
		h.say("Nothing to write: no pending edits.")
		return nil
	}
	changes := v.pendingChanges()
	ptitle := "Edit MEMORY.md in the index editor"
	if v.create {
		ptitle = "Create MEMORY.md in the index editor"
	}
	prop := model.Proposal{
		ID: "index-edit", Kind: model.KindReindex, MemoryDir: v.dd.d.Path,
		Title:     ptitle,
		Rationale: "By hand, in memtui's index editor.",
		Changes:   changes,
	}
	files := []string{"  change  MEMORY.md"}
	if v.create {
		files[0] = "  create  MEMORY.md"
	}
	for _, c := range changes[1:] {
		files = append(files, "  create  "+safe.ShowLine(c.Path)+"  (the demoted entries)")
	}
	b := v.ed.Budget()
	load := "loads whole"
	switch {
	case b.Load.TooLarge:
		load = "still not loaded: over the 4 MiB Claude Code reads"
	case b.Truncated:
		load = fmt.Sprintf("still cut: %d %s never reach the agent", len(b.Load.Dropped), model.Plural(len(b.Load.Dropped), "line", "lines"))
	}
	st := v.c.st
	verb, undo := "Write", []string{"Written through the journal: the journal (" + key1(v.c.keys.Views.Journal) + ") can undo it. If an agent changed MEMORY.md meanwhile, nothing is written."}
	if v.create {
		verb, undo = "Create", []string{"Written through the journal: undoing it (L) deletes it.",
			"Should Claude Code write one first (at a session start), nothing is written."}
	}
	title := verb + " MEMORY.md?"
	if len(changes) > 1 {
		title = fmt.Sprintf("%s MEMORY.md and %d archive %s?", verb, len(changes)-1, model.Plural(len(changes)-1, "file", "files"))
	}
	lines := append([]string{"", st.Bold.Render(safe.ShowLine(report.Tilde(v.dd.d.Path, v.c.home)))}, files...)
	for i, u := range undo {
		undo[i] = st.Faint.Render(u)
	}
	h.openDialog(&dialog{
		kind:  dlgWriteIndex,
		title: title,
		lines: append(append(lines, "", v.diffSummary(),
			fmt.Sprintf("After the write: %d/%d lines · %d/%d units · %s.", b.Lines, model.IndexMaxLines, b.Units, model.IndexMaxUnits, load)),
			undo...),
		hint:  key1(v.c.keys.Dialog.Confirm) + " write · any other key cancels",
		jobs:  []writeJob{{dir: v.dd.d.Path, props: []model.Proposal{prop}}},
		owner: v,
	})
	return nil
}

// writeProgress shows the editor's write going on.
func (v *ixEditView) writeProgress(line string) { v.say("%s", line) }

// writeResults: the editor's write is one proposal; writeDone tells.
func (v *ixEditView) writeResults(writeJob, []txn.ApplyResult) {}

// writeDone shows how the editor's write went; written, the editor
// closes on the index view (the directory reloads as any write's does).
func (v *ixEditView) writeDone(w *writeRun, h host) {
	st := v.c.st
	v.note = ""
	dl := &dialog{kind: dlgResult, owner: v, hint: "any key closes"}
	status, why := txn.StatusFailed, "no result"
	if len(w.results) > 0 {
		status, why = w.results[0].status, w.results[0].why
	}
	path := safe.ShowLine(report.Tilde(v.dd.d.Path, v.c.home) + "/MEMORY.md")
	switch {
	case status == txn.StatusApplied:
		dl.title = "Written: MEMORY.md"
		dl.lines = []string{"", st.OK.Render("✓ applied") + "  " + path}
		if v.create {
			dl.title = "Created: MEMORY.md"
			dl.lines[1] = st.OK.Render("✓ created") + "  " + path
		}
		for _, a := range v.pending() {
			dl.lines = append(dl.lines, st.OK.Render("✓ created")+"  "+safe.ShowLine(report.Tilde(v.dd.d.Path, v.c.home)+"/"+a.path))
		}
		jl := key1(v.c.keys.Views.Journal)
		done, undo := "MEMORY.md written.", "The journal ("+jl+") can undo it."
		if v.create {
			done, undo = "MEMORY.md created.", "The journal ("+jl+") can undo it: undoing deletes it."
		}
		dl.lines = append(dl.lines, "", st.Faint.Render(undo))
		h.say(done)
		// Written: the edits are on disk, nothing to ask about.
		h.navigate(navigateMsg{to: viewIndex, back: true, written: true})
	case status == txn.StatusConflict && v.create:
		dl.title = "Not written: MEMORY.md appeared on disk"
		dl.lines = []string{"", st.Sev[model.Warning].Render("! conflict") + "  " + path,
			"MEMORY.md was created after the editor started one (Claude Code writes one itself at a session start). Nothing was written: that one stays on disk.",
			"Your index is still in the editor: " + key1(v.c.keys.Editor.Back) + " discards it, then " + key1(v.c.keys.Index.EditIndex) + " edits the one on disk."}
		v.fail(errors.New("conflict: MEMORY.md appeared on disk; nothing written"))
	case status == txn.StatusConflict:
		dl.title = "Not written: MEMORY.md changed on disk"
		dl.lines = []string{"", st.Sev[model.Warning].Render("! conflict") + "  " + path,
			"An agent changed MEMORY.md after the editor read it. Nothing was written: its version stays on disk.",
			"Your edits are still in the editor: " + key1(v.c.keys.Editor.Back) + " discards them, then " + key1(v.c.keys.Index.EditIndex) + " edits the new version."}
		v.fail(errors.New("conflict: MEMORY.md changed on disk; nothing written"))
	default:
		dl.title = "Not written: MEMORY.md"
		dl.lines = []string{"", st.Error.Render("✗ failed") + "  " + path, safe.ShowLine(why), "Your edits are still in the editor."}
		v.fail(errors.New("the write failed; nothing written"))
	}
	if len(w.lockHeld) > 0 {
		dl.jobs = w.lockHeld
		dl.hint = fmt.Sprintf("%s retry, waiting up to %s for the lock · any other key closes", key1(v.c.keys.Dialog.Confirm), lockWait)
	}
	h.openDialog(dl)
}
