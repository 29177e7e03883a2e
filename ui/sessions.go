package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
)

// sessionsView lists every session (its subagents, the background
// extraction and Dream runs from it, memtui's own runs) that read or wrote
// each loaded memory directory, newest first, beside what it wrote as a
// diff: who raced whom, and what each lost. From a session, m shows a
// memory it wrote, c its changes since the review, ! the lost updates it
// was in.
type sessionsView struct {
	listDiff
	sc    *secrets.Scanner
	items []*sessItem
	// filter narrows the list to sessions matching every word of it;
	// total counts them all.
	filter string
	total  int
	// byDir are the activities worked out per directory version (a
	// dirData and the log it was read with are replaced, never changed,
	// so the pair names one version); want says the view was opened, so
	// new data is worked out as it comes.
	byDir     map[sessKey][]*sessItem
	want      bool
	computing bool
}

// sessKey is one version of a directory and its project's transcripts.
type sessKey struct {
	dd  *dirData
	log *model.TranscriptLog
}

// sessItem is one activity, with the diff pane's item for it.
type sessItem struct {
	act     forensics.SessionActivity
	project string // as shown
	dir     string // the memory dir's path
	item    *propItem
	// writes are the writes the item's changes show, in its order: what
	// a revert puts back comes from them.
	writes []forensics.HistoryWrite
	// names are the directory's activities' names, by key.
	names map[string]string
}

// sessionsMsg carries the activities of the directories a Cmd worked out.
type sessionsMsg struct {
	byDir map[sessKey][]*sessItem
}

func newSessionsView(c *shared, sc *secrets.Scanner) *sessionsView {
	v := &sessionsView{listDiff: newListDiff(c), sc: sc, byDir: map[sessKey][]*sessItem{}}
	v.diff.empty = "Select a session to see what it did."
	v.list.colKinds = []colKind{colText, colText} // kind, when
	return v
}

// open shows the view, working out what is new.
func (v *sessionsView) open(r run) tea.Cmd {
	v.want = true
	v.rebuild(r)
	return v.compute(r)
}

// changed notes new data: worked out when the view has been opened.
func (v *sessionsView) changed(r run) tea.Cmd {
	if !v.want {
		return nil
	}
	return v.compute(r)
}

// compute works out, in a Cmd, the activities of every loaded directory
// whose version has none yet. The inputs are gathered here, on the UI
// goroutine: the Cmd reads only values that are replaced, never changed.
func (v *sessionsView) compute(r run) tea.Cmd {
	if v.computing {
		return nil
	}
	type job struct {
		key     sessKey
		project string
	}
	var jobs []job
	for _, pd := range r.data {
		if !pd.loaded || pd.p.Log == nil {
			continue
		}
		for _, dd := range pd.dirs {
			k := sessKey{dd, pd.p.Log}
			if _, ok := v.byDir[k]; !ok && dd.d.Exists {
				jobs = append(jobs, job{k, report.Tilde(pd.p.Name(), v.c.home)})
			}
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	v.computing = true
	sc, ws := v.sc, r.ws
	return func() tea.Msg {
		out := map[sessKey][]*sessItem{}
		for _, j := range jobs {
			d, log := j.key.dd.d, j.key.log
			acts := forensics.Sessions(d, log, forensics.LostUpdates(d, log))
			if ws != nil {
				runs, text := ws.Runs(d, log)
				acts = forensics.WithRuns(d, acts, runs, text)
			}
			items := make([]*sessItem, len(acts))
			names := map[string]string{}
			for i := range acts {
				names[acts[i].Key()] = acts[i].Name()
			}
			for i := range acts {
				items[i] = &sessItem{act: acts[i], project: j.project, dir: d.Path, names: names}
				items[i].item = sessionItem(items[i], sc)
			}
			out[j.key] = items
		}
		return sessionsMsg{byDir: out}
	}
}

// onResults takes what a Cmd worked out, and works out what came since.
func (v *sessionsView) onResults(msg sessionsMsg, r run) tea.Cmd {
	v.computing = false
	for k, items := range msg.byDir {
		v.byDir[k] = items
	}
	v.rebuild(r)
	return v.compute(r)
}

// sessionItem is the diff pane's item for an activity: what it is, what
// it read, raced and lost, then each write whose text the transcripts
// kept, as a diff.
func sessionItem(si *sessItem, sc *secrets.Scanner) *propItem {
	a := &si.act
	var why []string
	if a.Cwd != "" {
		why = append(why, "In "+a.Cwd+".")
	}
	if !a.RunAt.IsZero() {
		run := "A background run memtui's snapshots caught: no transcript records what it wrote, the snapshots before and after it do."
		if a.LockPID > 0 {
			run += fmt.Sprintf(" It took the .consolidate-lock (PID %d).", a.LockPID)
		}
		why = append(why, run)
	}
	if len(a.Overlaps) > 0 {
		others := make([]string, len(a.Overlaps))
		for i, k := range a.Overlaps {
			others[i] = si.names[k]
		}
		why = append(why, "Open on this directory at the same time as "+strings.Join(others, ", ")+".")
	}
	if len(a.Read) > 0 {
		why = append(why, "Read "+strings.Join(a.Read, ", ")+".")
	}
	for _, l := range a.Lost {
		by := "a change no session recorded"
		if l.Other != "" {
			by = si.names[l.Other] + "'s write"
		}
		why = append(why, fmt.Sprintf("Lost %d %s it wrote in %s to %s%s.", len(l.Lines), model.Plural(len(l.Lines), "line", "lines"), l.File, by, possibly(l.Definite)))
	}
	for _, l := range a.Dropped {
		why = append(why, fmt.Sprintf("Dropped %d %s %s wrote in %s%s.", len(l.Lines), model.Plural(len(l.Lines), "line", "lines"), si.names[l.Other], l.File, possibly(l.Definite)))
	}
	var untold []string
	it := &propItem{
		p:        model.Proposal{ID: "session\x00" + si.dir + "\x00" + a.Key(), MemoryDir: si.dir},
		project:  si.project,
		title:    sessionTitle(a),
		label:    string(a.Kind) + " · " + a.Session + " · " + a.When(),
		observed: true,
	}
	for _, w := range a.Wrote {
		c, before, ok := writeChange(w)
		if !ok {
			untold = append(untold, w.Path+" ("+w.Tool+")")
			continue
		}
		it.p.Changes = append(it.p.Changes, c)
		it.diffs = append(it.diffs, diffChange(c, before, sc))
		si.writes = append(si.writes, w)
	}
	switch {
	case len(a.Wrote) == 0:
		why = append(why, "It wrote nothing here.")
	case len(untold) > 0:
		why = append(why, "What it wrote in "+strings.Join(untold, ", ")+" is not in the transcripts.")
	}
	it.rationale = safe.Mask(sc, strings.Join(why, " "))
	return it
}

// possibly marks a loss the transcripts leave in doubt.
func possibly(definite bool) string {
	if definite {
		return ""
	}
	return " (possibly)"
}

// sessionTitle is an activity's heading: its name, title and branch.
func sessionTitle(a *forensics.SessionActivity) string {
	t := a.Name()
	if a.Title != "" {
		t += " “" + a.Title + "”"
	}
	if a.Branch != "" && a.Branch != "HEAD" {
		t += " on " + a.Branch
	}
	return t
}

// writeChange is a recorded write as a change over the text before it,
// when the transcripts kept both (ok false otherwise: a shell command, a
// background fork, memtui's own write, a text the reader dropped).
func writeChange(w forensics.HistoryWrite) (c model.Change, before string, ok bool) {
	if w.TextDropped {
		return c, "", false
	}
	c.Path = w.Path
	switch {
	case w.Op == forensics.OpDeleted:
		c.Op = model.OpDelete
		return c, w.Before, w.HasBefore
	case w.Kind == model.WriteFull || w.Kind == model.WriteStore || w.Kind == model.WriteFork && w.HasAfter:
		if !w.HasAfter || !w.HasBefore && !w.Created {
			return c, "", false
		}
		c.Op, c.After = model.OpUpdate, w.After
		if w.Created || w.HasBefore && w.Before == "" {
			c.Op = model.OpCreate
		}
		return c, w.Before, true
	case w.Kind == model.WriteEdit || w.Kind == model.WriteMulti:
		if !w.HasBefore {
			return c, "", false
		}
		after, ok := forensics.ApplyEdits(w.Before, w.Edits)
		if !ok {
			return c, "", false // the transcript's texts disagree: shown as untold
		}
		c.Op, c.After = model.OpUpdate, after
		return c, w.Before, true
	}
	return c, "", false
}

// rebuild lists the activities of the loaded directories, by project and
// directory, newest first within each, that the filter keeps; the
// selection stays on the session it was on.
func (v *sessionsView) rebuild(r run) {
	var keep string
	if it := v.selected(); it != nil {
		keep = it.item.p.ID
	}
	v.items, v.total = v.items[:0], 0
	terms := strings.Fields(strings.ToLower(v.filter))
	var rows []row
	// Only the versions of the directories loaded now are kept: a reload
	// replaces a dirData, and a long session with live updates would
	// otherwise keep every version it ever worked out.
	current := make(map[sessKey]bool, len(v.byDir))
	for _, pd := range r.data {
		for _, dd := range pd.dirs {
			current[sessKey{dd, pd.p.Log}] = true
		}
	}
	for k := range v.byDir {
		if !current[k] {
			delete(v.byDir, k)
		}
	}
	for _, pd := range r.data {
		if !pd.loaded {
			continue
		}
		headed := false
		for _, dd := range pd.dirs {
			items := v.byDir[sessKey{dd, pd.p.Log}]
			dirHeaded := false
			for _, si := range items {
				v.total++
				a := &si.act
				files := make([]string, 0, len(a.Wrote)+len(a.Read))
				for _, w := range a.Wrote {
					files = append(files, w.Path)
				}
				files = append(files, a.Read...)
				if !matchesAll(terms, append(files, a.Session, a.Agent, string(a.Kind), a.Title, a.Branch, a.Cwd, si.project)...) {
					continue
				}
				if !headed {
					rows = append(rows, row{header: true, left: si.project})
					headed = true
				}
				if !dirHeaded && dd.d.Kind != model.DirAuto {
					rows = append(rows, row{header: true, left: "  " + dirLabel(dd.d)})
				}
				dirHeaded = true
				v.items = append(v.items, si)
				mark := " "
				switch {
				case len(a.Lost) > 0 || len(a.Dropped) > 0:
					mark = "!"
				case len(a.Overlaps) > 0:
					mark = "≈"
				}
				title := a.Name()
				if a.Title != "" {
					title += " " + a.Title
				}
				rows = append(rows, row{ref: len(v.items) - 1, left: mark + " " + safe.ShowLine(safe.Mask(v.sc, title)), sev: -1,
					cols: []string{string(a.Kind), a.End.UTC().Format("01-02 15:04")}})
			}
		}
	}
	v.list.setRows(rows)
	v.layout() // narrow, the list's height follows its rows
	sel := -1
	for i, si := range v.items {
		if si.item.p.ID == keep {
			sel = i
		}
	}
	if !v.list.selectRef(sel) {
		v.list.top()
	}
	v.follow()
}

// setFilter narrows the list, keeping the selection when it still shows.
func (v *sessionsView) setFilter(s string, r run) {
	v.filter = s
	v.rebuild(r)
}

func (v *sessionsView) selected() *sessItem {
	rw := v.list.selected()
	if rw == nil || rw.ref < 0 || rw.ref >= len(v.items) {
		return nil
	}
	return v.items[rw.ref]
}

// follow shows the selected session in the diff pane.
func (v *sessionsView) follow() {
	var it *propItem
	if si := v.selected(); si != nil {
		it = si.item
	}
	if it != v.diff.item {
		v.diff.show(it)
	}
}

func (v *sessionsView) setFocus(diff bool) {
	v.focusDiff = diff && v.selected() != nil
	v.layout()
}

// Update has nothing to do: every key comes through key.
func (v *sessionsView) Update(tea.Msg) tea.Cmd { return nil }

// key handles the view's keys: leaving (from the diff, the list first),
// the filter, moving (the diff follows), and going from a session to a
// memory it wrote, its changes or its lost updates.
func (v *sessionsView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Sessions
	switch {
	case key.Matches(k, keys.Filter):
		return h.startFilter()
	case key.Matches(k, keys.Back) && v.zoom:
		v.setZoom(false)
	case key.Matches(k, keys.Back) && v.focusDiff:
		v.setFocus(false)
	case key.Matches(k, keys.Back) && v.filter != "":
		v.setFilter("", h.run())
	case key.Matches(k, keys.Back):
		return h.navigate(navigateMsg{to: viewBrowse})
	case key.Matches(k, keys.Memory):
		return v.showMemory(h)
	case key.Matches(k, keys.Revert):
		return v.askRevert(h)
	case key.Matches(k, keys.RevertAll):
		return v.askRevertAll(h)
	case key.Matches(k, keys.Changes):
		if si := v.selected(); si != nil {
			return h.navigate(navigateMsg{to: viewChanges, filter: forensics.ShortSession(si.act.Session)})
		}
	case key.Matches(k, keys.Lost):
		if si := v.selected(); si != nil {
			return h.navigate(navigateMsg{to: viewFindings, filter: "lost-update " + forensics.ShortSession(si.act.Session)})
		}
	case v.paneKeys(k, keys.NextPane, keys.PrevPane, keys.Open, v.selected() != nil, v.setFocus):
	case v.diffKey(k):
		return v.diff.Update(k)
	case listKeys(&v.list, v.c, k):
		v.follow()
	}
	return nil
}

// askRevert asks to put the file of the write under the diff's cursor
// back as it was before that write, as the transcript recorded it: a
// proposal like any other, shown as a diff, journalled, undoable. Every
// change made to the file since goes too, and the diff shows it.
func (v *sessionsView) askRevert(h host) tea.Cmd {
	si := v.selected()
	if si == nil || v.c.readonly {
		return nil
	}
	if v.diff.item != si.item || len(si.writes) == 0 {
		h.say(si.act.Name() + ": no write here whose text the transcript kept")
		return nil
	}
	w := si.writes[v.diff.currentChange()]
	r := h.run()
	proj, d := loadedDir(r, si.dir)
	if d == nil {
		h.say("That session's directory is no longer loaded.")
		return nil
	}
	// A write that made the file leaves nothing before it: the revert
	// deletes it.
	existed := w.Op != forensics.OpCreated
	who := fmt.Sprintf("session %s's %s of %s", forensics.ShortSession(w.Session), w.Tool, w.Time.UTC().Format("2006-01-02 15:04 UTC"))
	to := "its text before session " + forensics.ShortSession(w.Session) + "'s " + w.Tool
	if w.Kind == model.WriteFork {
		// A background run: named as the list names it.
		who = fmt.Sprintf("%s of %s", si.act.Name(), w.Time.UTC().Format("2006-01-02 15:04 UTC"))
		to = "its text before " + si.act.Name()
	}
	why := "Reverted by hand in memtui, from the sessions view: the file goes back to the text " + who + " found, as its transcript recorded it; every change since goes with it."
	if !existed {
		to = "before session " + forensics.ShortSession(w.Session) + " created it"
		why = "Reverted by hand in memtui, from the sessions view: " + who + " created the file, so it goes; every change since goes with it."
	}
	path, before, opts := w.Path, w.Before, dream.Options{Options: r.copts}
	return h.handCmd("Revert "+path+" to "+to, false, func() (model.Proposal, error) {
		return dream.RevertTo(proj, d, path, before, existed, to, why, opts)
	})
}

// loadedDir is the memory dir at path as the run has it loaded, with a
// snapshot of its project; nil when it is not (any more).
func loadedDir(r run, path string) (*model.Project, *model.MemoryDir) {
	for _, pd := range r.data {
		if di := pd.dirIndex(path); pd.loaded && di >= 0 {
			return snapshot(pd.p), pd.dirs[di].d
		}
	}
	return nil, nil
}

// askRevertAll asks to put every file the session (or Dream run) wrote
// in the directory back as it was before its first write there: the
// whole of its work undone, as one proposal. Refused when what it wrote
// in some file is not known (its revert would be a guess).
func (v *sessionsView) askRevertAll(h host) tea.Cmd {
	si := v.selected()
	if si == nil || v.c.readonly {
		return nil
	}
	if len(si.writes) == 0 || len(si.writes) < len(si.act.Wrote) {
		h.say(si.act.Name() + ": what it wrote is not all known; revert file by file with " + key1(v.c.keys.Sessions.Revert))
		return nil
	}
	r := h.run()
	proj, d := loadedDir(r, si.dir)
	if d == nil {
		h.say("That session's directory is no longer loaded.")
		return nil
	}
	var files []dream.RevertFile
	seen := map[string]bool{}
	for _, w := range si.writes {
		if seen[w.Path] {
			continue // its first write there found the text to go back to
		}
		seen[w.Path] = true
		files = append(files, dream.RevertFile{Path: w.Path, Text: w.Before, Existed: w.Op != forensics.OpCreated})
	}
	name := si.act.Name()
	title := "Undo " + name + " in " + model.Plural(len(files), "one file", fmt.Sprintf("%d files", len(files)))
	why := "Undone by hand in memtui, from the sessions view: every file " + name + " wrote here goes back to the text it found (" +
		strings.Join(slices.Sorted(maps.Keys(seen)), ", ") + "); a file it created goes, a file it deleted comes back; every change since goes with it."
	opts := dream.Options{Options: r.copts}
	return h.handCmd(title, false, func() (model.Proposal, error) {
		return dream.RevertFiles(proj, d, files, title, why, opts)
	})
}

// showMemory shows, in the browse view, the memory under the diff's
// cursor, else the first the session wrote that is still on disk.
func (v *sessionsView) showMemory(h host) tea.Cmd {
	si := v.selected()
	if si == nil {
		return nil
	}
	var file string
	if v.diff.item == si.item && len(si.item.p.Changes) > 0 {
		file = si.item.p.Changes[v.diff.currentChange()].Path
	} else if len(si.act.Wrote) > 0 {
		file = si.act.Wrote[0].Path
	}
	if file == "" {
		h.say(si.act.Name() + " wrote nothing here to show")
		return nil
	}
	return h.jump(model.Finding{MemoryDir: si.dir, File: file})
}

func (v *sessionsView) View() string {
	empty := "No session read or wrote memory in the transcripts read so far."
	switch {
	case v.computing && v.total == 0:
		empty = "Working out what each session did…"
	case v.filter != "" && v.total > 0:
		empty = "No session matches “" + safe.ShowLine(v.filter) + "”: " + key1(v.c.keys.Sessions.Back) + " clears the filter."
	}
	races := 0
	for _, si := range v.items {
		if len(si.act.Overlaps) > 0 {
			races++
		}
	}
	left := fmt.Sprintf("%d %s", len(v.items), model.Plural(len(v.items), "session", "sessions"))
	if v.filter != "" {
		left = fmt.Sprintf("%d of %d sessions matching “%s”", len(v.items), v.total, safe.ShowLine(v.filter))
	}
	if races > 0 {
		left += fmt.Sprintf(" · %d open on a directory at the same time as another (≈, ! lost an update)", races)
	}
	if v.computing {
		left += " · working…"
	}
	ks := v.c.keys.Sessions
	hint := key1(ks.Memory) + " memory · " + key1(ks.Changes) + " changes · " + key1(ks.Lost) + " lost updates · " + key1(ks.Revert) + " revert · " + key1(ks.RevertAll) + " undo all"
	status := v.c.st.Faint.Render(layoutRow(left, hint, v.w))
	return v.render(status, fmt.Sprintf("Sessions (%d)", len(v.items)), v.hunkNote(), empty)
}

func (v *sessionsView) scope() keymap.Scope { return keymap.ScopeSessions }

func (v *sessionsView) ShortHelp() []key.Binding {
	k := v.c.keys
	s := k.Sessions
	if v.focusDiff {
		return append(v.diff.shortHelp(s.Back), s.Revert, s.Memory)
	}
	return []key.Binding{k.Move.Up, k.Move.Down, s.Memory, s.Changes, s.Lost, s.NextPane, s.Back}
}
