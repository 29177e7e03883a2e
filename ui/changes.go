package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
)

// chgItem is one file created, changed or deleted since its directory was
// last reviewed.
type chgItem struct {
	project int // index into Model.data
	dd      *dirData
	delta   consolidate.Delta
	item    *propItem // the diff, as the diff view draws it
}

// changesView lists what changed in every loaded project since its last
// review, each change as a diff with the sessions that wrote it. m marks
// one file seen, M the whole project reviewed.
type changesView struct {
	listDiff
	sc    *secrets.Scanner
	items []*chgItem
	// nproj counts the projects with changes; first counts directories
	// seen for the first time (their baseline is being recorded).
	nproj, pending int
	// filter narrows the list to changes matching every word of it;
	// total counts them all.
	filter string
	total  int
	// bases are the review baselines, by memory dir path: the view loads
	// and records them.
	bases map[string]*model.Baseline
	// cache keeps each directory's changes while neither it, its
	// baseline nor its project's log changed: every value here is
	// replaced, never mutated, so pointers identify versions.
	cache map[*dirData]chgCache
}

type chgCache struct {
	base  *model.Baseline
	log   *model.TranscriptLog
	items []*chgItem
}

func newChangesView(c *shared, sc *secrets.Scanner) *changesView {
	v := &changesView{listDiff: newListDiff(c), sc: sc}
	v.diff.empty = "Select a change to see its diff."
	v.list.colKinds = []colKind{colText, colNumber} // who wrote, then when
	return v
}

// Messages of the review baselines.
type (
	baselinesMsg struct {
		gen, idx int
		bases    map[string]*model.Baseline // by memory dir path
		errs     []error
	}
	baselineSavedMsg struct {
		bases map[string]*model.Baseline
		err   error
	}
)

// loadBaselines reads project idx's review baselines; a directory seen for
// the first time gets one recorded now, so "changes since" starts here
// (not under --readonly, which records nothing).
func (v *changesView) loadBaselines(r run, idx int) tea.Cmd {
	if r.ws.State.Seen == "" || idx < 0 || idx >= len(r.data) || !r.data[idx].loaded {
		return nil
	}
	pd := r.data[idx]
	dirs := make([]*model.MemoryDir, 0, len(pd.dirs))
	for _, dd := range pd.dirs {
		if dd.d.Exists {
			dirs = append(dirs, dd.d)
		}
	}
	// A review happens on the wall clock, not on a pinned "today": the
	// writes that count are those after it.
	ws, gen, now := r.ws, r.gen, v.c.clock()
	return func() tea.Msg {
		msg := baselinesMsg{gen: gen, idx: idx, bases: map[string]*model.Baseline{}}
		for _, d := range dirs {
			b, _, err := ws.OpenBaseline(d, now)
			if err != nil {
				msg.errs = append(msg.errs, err)
			}
			if b != nil {
				msg.bases[d.Path] = b
			}
		}
		return msg
	}
}

// reloadBaseline reads dir's review baseline from disk again, after a
// write that may have scrubbed a secret from it.
func (v *changesView) reloadBaseline(r run, dir string) tea.Cmd {
	if r.ws.State.Seen == "" {
		return nil
	}
	for i, pd := range r.data {
		if !pd.loaded || pd.dirIndex(dir) < 0 {
			continue
		}
		ws, gen := r.ws, r.gen
		return func() tea.Msg {
			msg := baselinesMsg{gen: gen, idx: i, bases: map[string]*model.Baseline{}}
			b, err := ws.Baseline(dir)
			if err != nil {
				msg.errs = append(msg.errs, err)
			}
			if b != nil {
				msg.bases[dir] = b
			}
			return msg
		}
	}
	return nil
}

func (v *changesView) onBaselines(msg baselinesMsg, h host) {
	r := h.run()
	if msg.gen != r.gen {
		return
	}
	if v.bases == nil {
		v.bases = map[string]*model.Baseline{}
	}
	for dir, b := range msg.bases {
		v.bases[dir] = b
	}
	if len(msg.errs) > 0 {
		h.fail(fmt.Errorf("review baseline: %w", msg.errs[0]))
	}
	v.rebuild(r.data)
}

// saveBaselines writes new baselines in the background.
func saveBaselines(ws *app.Workspace, bases map[string]*model.Baseline) tea.Cmd {
	return func() tea.Msg {
		for _, b := range bases {
			if err := ws.SaveBaseline(b); err != nil {
				return baselineSavedMsg{err: err}
			}
		}
		return baselineSavedMsg{bases: bases}
	}
}

func (v *changesView) onBaselineSaved(msg baselineSavedMsg, h host) {
	if msg.err != nil {
		h.fail(fmt.Errorf("could not record the review: %w", msg.err))
		return
	}
	for dir, b := range msg.bases {
		v.bases[dir] = b
	}
	v.rebuild(h.run().data)
}

// key handles the changes view's own keys: m marks the selected file seen,
// M its whole project reviewed.
func (v *changesView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Changes
	r := h.run()
	switch {
	case key.Matches(k, keys.Filter):
		return h.startFilter()
	case key.Matches(k, keys.Revert):
		return v.askRevert(h)
	case key.Matches(k, keys.Back):
		if v.zoom {
			v.setZoom(false)
			return nil
		}
		if v.focusDiff {
			v.setFocus(false)
			return nil
		}
		if v.filter != "" {
			v.filter = ""
			v.rebuild(r.data)
			return nil
		}
		return h.navigate(navigateMsg{to: viewBrowse})
	case key.Matches(k, keys.MarkSeen):
		it := v.selected()
		if it == nil || r.ws.State.Seen == "" {
			return nil
		}
		b := consolidate.MarkSeen(v.bases[it.dd.d.Path], it.dd.d, it.delta.Path, v.c.clock())
		h.say("marked " + it.delta.Path + " seen")
		return saveBaselines(r.ws, map[string]*model.Baseline{it.dd.d.Path: b})
	case key.Matches(k, keys.MarkReviewed):
		it := v.selected()
		if it == nil || r.ws.State.Seen == "" {
			return nil
		}
		pd := r.data[it.project]
		bases := map[string]*model.Baseline{}
		for _, dd := range pd.dirs {
			if dd.d.Exists {
				bases[dd.d.Path] = model.NewBaseline(dd.d, v.c.clock(), consolidate.SHA256Hex)
			}
		}
		h.say("marked " + report.Tilde(pd.p.Name(), v.c.home) + " reviewed")
		return saveBaselines(r.ws, bases)
	}
	return v.Update(k)
}

// askRevert asks to put the selected file back as it was reviewed: the
// way back from a change an agent made.
func (v *changesView) askRevert(h host) tea.Cmd {
	it := v.selected()
	if it == nil || v.c.readonly {
		return nil
	}
	r := h.run()
	base := v.bases[it.dd.d.Path]
	if base == nil {
		return nil
	}
	path := it.delta.Path
	bf, existed := base.Files[path]
	if existed && bf.Partial {
		h.fail(fmt.Errorf("%s was reviewed only in part (too large to keep whole): revert it in $EDITOR", path))
		return nil
	}
	proj, d, opts := snapshot(r.data[it.project].p), it.dd.d, dream.Options{Options: r.copts}
	return h.handCmd("Revert "+path, false, func() (model.Proposal, error) { return dream.Revert(proj, d, path, bf.Text, existed, opts) })
}

// rebuild recomputes the changes of every loaded project against its
// baseline, keeping the selection on the same file when it is still
// changed.
func (v *changesView) rebuild(data []*projectData) {
	var keepDir, keepPath string
	if it := v.selected(); it != nil {
		keepDir, keepPath = it.dd.d.Path, it.delta.Path
	}
	v.items = v.items[:0]
	v.nproj, v.pending, v.total = 0, 0, 0
	fresh := make(map[*dirData]chgCache, len(v.cache))
	var rows []row
	terms := strings.Fields(strings.ToLower(v.filter))
	for pi, pd := range data {
		if !pd.loaded {
			continue
		}
		head := false
		for _, dd := range pd.dirs {
			if !dd.d.Exists {
				continue
			}
			base := v.bases[dd.d.Path]
			if base == nil {
				v.pending++
				continue
			}
			cached, ok := v.cache[dd]
			if !ok || cached.base != base || cached.log != pd.p.Log {
				cached = chgCache{base: base, log: pd.p.Log}
				for _, dl := range consolidate.ChangesSince(dd.d, base, pd.p.Log) {
					cached.items = append(cached.items, &chgItem{project: pi, dd: dd, delta: dl, item: v.diffItem(pd, dd, dl, base)})
				}
			}
			fresh[dd] = cached
			v.total += len(cached.items)
			var shown []*chgItem
			for _, it := range cached.items {
				if matchesAll(terms, pd.p.Name(), dirLabel(dd.d), it.delta.Path, writersShort(it.delta, v.c.clock()), allWriters(it.delta)) {
					shown = append(shown, it)
				}
			}
			if len(shown) == 0 {
				continue
			}
			if !head {
				head = true
				v.nproj++
				rows = append(rows, row{header: true, left: report.Tilde(pd.p.Name(), v.c.home), right: "reviewed " + ago(v.c.clock(), base.Time)})
			}
			if dd.d.Kind != model.DirAuto {
				rows = append(rows, row{header: true, left: "  " + dirLabel(dd.d)})
			}
			for _, it := range shown {
				it.project = pi
				dl := it.delta
				v.items = append(v.items, it)
				r := row{ref: len(v.items) - 1, left: dl.Path, sev: -1, cut: cutAtMiddle}
				switch dl.Kind {
				case consolidate.DeltaCreated:
					r.badge = "+"
				case consolidate.DeltaDeleted:
					r.badge = "−"
				default:
					r.badge = "~"
				}
				who, when := writers(dl, v.c.clock())
				r.cols = []string{who, when}
				rows = append(rows, r)
			}
		}
	}
	v.cache = fresh
	v.list.setRows(rows)
	v.layout()
	kept := false
	if keepPath != "" {
		for i, it := range v.items {
			if it.dd.d.Path == keepDir && it.delta.Path == keepPath {
				kept = v.list.selectRef(i)
				break
			}
		}
	}
	if !kept && v.list.selected() == nil {
		v.list.top()
	}
	v.follow()
}

// writersShort names who changed a file and when, in words a filter
// matches.
func writersShort(dl consolidate.Delta, now time.Time) string {
	who, when := writers(dl, now)
	if when == "" {
		return who
	}
	return who + " " + when
}

// allWriters names every session that changed a file since the review,
// for the filter: a session's changes are every file it wrote, not only
// those it wrote last.
func allWriters(dl consolidate.Delta) string {
	ids := make([]string, 0, len(dl.Writes))
	for _, w := range dl.Writes {
		ids = append(ids, forensics.ShortSession(w.Session))
	}
	return strings.Join(ids, " ")
}

// writers names who last changed a file ("5f0c2a8e +1": a session and
// how many wrote it before) and when, for a list row's columns; when is
// "" if no session did.
func writers(dl consolidate.Delta, now time.Time) (who, when string) {
	n := len(dl.Writes)
	if n == 0 {
		return "no session", ""
	}
	last := dl.Writes[n-1]
	who = forensics.ShortSession(last.Session)
	if last.Kind == model.WriteMemtui {
		who = "memtui"
	} else if last.Kind == model.WriteFork {
		who = "autoDream"
		if last.Verb != "Improved" {
			who = "extraction"
		}
	}
	if n > 1 {
		who += fmt.Sprintf(" +%d", n-1)
	}
	return who, ago(now, last.Time)
}

// ago is age with its unit read out: "3d ago", "just now", "in the
// future" (a clock set wrong, or a pinned --now before the file): never
// "now ago".
func ago(now, t time.Time) string {
	switch a := age(now, t); a {
	case "now":
		return "just now"
	case "future":
		return "in the future"
	default:
		return a + " ago"
	}
}

// diffItem builds what the diff view draws for one change: the writers as
// its rationale, the diff masked like a proposal's.
func (v *changesView) diffItem(pd *projectData, dd *dirData, dl consolidate.Delta, base *model.Baseline) *propItem {
	c := dl.Change()
	var why []string
	for _, w := range dl.Writes {
		why = append(why, "by "+forensics.WriterLabel(w, pd.p.Log))
	}
	if len(why) == 0 {
		switch {
		case pd.p.Log == nil:
			why = append(why, "Who wrote it is not known yet: the transcripts are still being read.")
		case dl.Kind == consolidate.DeltaDeleted:
			why = append(why, "No recorded session deleted it: memtui, a person, a script or Claude Code's background consolidation did.")
		default:
			why = append(why, "No recorded session wrote it: a person, a script, or a session whose transcript is gone.")
		}
	}
	since := base.Time
	if t := base.Files[dl.Path].Time; t.After(since) {
		since = t
	}
	it := &propItem{
		p: model.Proposal{ID: "change\x00" + dd.d.Path + "\x00" + dl.Path + "\x00" + consolidate.SHA256Hex([]byte(dl.After)),
			Kind: model.ProposalKind(dl.Kind), MemoryDir: dd.d.Path, Changes: []model.Change{c}},
		project:   report.Tilde(pd.p.Name(), v.c.home),
		title:     string(dl.Kind) + " " + safe.Mask(v.sc, dl.Path),
		rationale: safe.Mask(v.sc, strings.Join(why, "; ")),
		label:     string(dl.Kind) + " since the review of " + since.Local().Format("2006-01-02 15:04"),
		observed:  true,
		d:         dd.d,
	}
	if dd.d.Kind != model.DirAuto {
		it.dir = dirLabel(dd.d)
	}
	it.diffs = []fileDiff{diffChange(c, dl.Before, v.sc)}
	return it
}

func (v *changesView) selected() *chgItem {
	r := v.list.selected()
	if r == nil || r.ref < 0 || r.ref >= len(v.items) {
		return nil
	}
	return v.items[r.ref]
}

// follow shows the selected change's diff.
func (v *changesView) follow() {
	if it := v.selected(); it != nil {
		v.diff.show(it.item)
		return
	}
	v.diff.show(nil)
}

func (v *changesView) setFocus(diff bool) {
	v.focusDiff = diff && v.selected() != nil
	v.layout()
}

func (v *changesView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := v.c.keys.Changes
	switch {
	case v.paneKeys(k, keys.NextPane, keys.PrevPane, keys.Open, v.selected() != nil, v.setFocus):
	case v.diffKey(k):
		return v.diff.Update(k)
	case listKeys(&v.list, v.c, k):
		v.follow()
	}
	return nil
}

func (v *changesView) View() string {
	empty := "Nothing changed since the last review: what an agent or a person writes next shows here."
	switch {
	case len(v.items) == 0 && v.pending > 0 && v.c.readonly:
		empty = "Read-only: no review was recorded before, so there is nothing to compare with."
	case len(v.items) == 0 && v.pending > 0:
		empty = "Recording what each memory looks like now…"
	case v.filter != "" && v.total > 0:
		empty = noMatch("change", v.filter, v.c.keys.Changes.Back)
	}
	return v.render(v.statusLine(), fmt.Sprintf("Changes (%d)", len(v.items)), v.hunkNote(), empty)
}

// statusLine counts the changes and says what the keys do.
func (v *changesView) statusLine() string {
	left := fmt.Sprintf("%d %s in %d %s since the last review", len(v.items), model.Plural(len(v.items), "change", "changes"),
		v.nproj, model.Plural(v.nproj, "project", "projects"))
	if v.filter != "" {
		left = fmt.Sprintf("%d of %d changes matching “%s”", len(v.items), v.total, safe.ShowLine(v.filter))
	}
	ck := v.c.keys.Changes
	hint := key1(ck.MarkSeen) + " file seen · " + key1(ck.MarkReviewed) + " project reviewed · " + key1(ck.NextPane) + " diff"
	if v.c.readonly {
		hint = "read-only: reviews are not recorded"
	}
	if ansi.StringWidth(left)+ansi.StringWidth(hint)+2 > v.w {
		hint = ""
	}
	return v.c.st.Faint.Render(layoutRow(left, hint, v.w))
}

func (v *changesView) scope() keymap.Scope { return keymap.ScopeChanges }

func (v *changesView) ShortHelp() []key.Binding {
	k := v.c.keys
	c := k.Changes
	if v.focusDiff {
		return v.diff.shortHelp(c.Back)
	}
	return []key.Binding{k.Move.Up, k.Move.Down, c.MarkSeen, c.MarkReviewed, c.NextPane, k.Diff.Mode, c.Back}
}

// wheel scrolls the part under the pointer; x and y count from the view's
// top left corner.
func (v *changesView) wheel(x, y, n int) { v.listDiff.wheel(x, y, n, v.follow) }

// click selects the change clicked, or gives the diff the keys.
func (v *changesView) click(x, y int) { v.listDiff.click(x, y, v.follow, v.setFocus) }
