// Package ui is memtui's terminal interface: the only package that imports
// Bubble Tea. The root Model routes messages and lays out panes; each pane
// draws itself; everything slow (discovery, reading and checking, glamour
// rendering, reloads after an edit or a change on disk) runs in a tea.Cmd.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/themes"
)

// Config is what main hands the TUI.
type Config struct {
	// Workspace is the tree opened (app.Open), which the TUI reads,
	// checks and writes through: where to look and how to read
	// (ScanOpts; its Scan, when set, is a discovery already made, which the
	// first frame starts from), the checks' options (CheckOpts), memtui's
	// journal, review baselines and cache (State; a State.Seen of "" turns
	// the changes view's memory off), the transcripts, and ReadOnly, which
	// hides every action that writes.
	Workspace *app.Workspace
	// NoColor draws with attributes only (NO_COLOR).
	NoColor bool
	// Theme is the palette the user chose (--theme, MEMTUI_THEME, the
	// config file): dark or light is drawn from the first frame, the
	// terminal is not asked, and an answer that comes anyway is ignored
	// (the user said which). "" or auto asks the terminal.
	Theme memfs.Theme
	// Keys are the bindings; the zero value means keymap.Default().
	Keys *keymap.KeyMap
	// Home is shown as ~ in paths.
	Home string
	// Editor is the command line that opens a file ($VISUAL, $EDITOR).
	Editor string
	// Watch turns on live updates; WatchLimit bounds the directories
	// watched (0: 2,000).
	Watch      bool
	WatchLimit int
	// Workers bounds background reading (0: 2).
	Workers int
	// Clock is the wall clock (nil: time.Now); tests and --now pin it.
	Clock func() time.Time
	// QuitIfEmpty: the Workspace was opened without discovering (so the
	// TUI's start overlaps discovery); when its first scan finds no
	// memory at all, Run quits and returns Workspace.Empty's advice.
	QuitIfEmpty bool
}

type viewID int

const (
	viewBrowse viewID = iota
	viewFindings
	viewIndex
	viewProposals
	viewJournal
	viewIndexEdit
	viewChanges
	viewSessions
)

type focusID int

const (
	focusProjects focusID = iota
	focusMemories
	focusPreview
)

// Model is the root of the TUI.
type Model struct {
	cfg Config
	// ws is the workspace (cfg.Workspace); copts its checks' options with
	// the TUI's defaults; transcripts its reader (nil: none read);
	// discovered the discovery the first frame starts from.
	ws          *app.Workspace
	copts       consolidate.Options
	transcripts app.TranscriptReader
	discovered  *model.Scan
	// exitErr is what Run returns once the program has quit (an empty
	// machine's advice, see Config.QuitIfEmpty).
	exitErr error

	c    *shared
	ctx  context.Context
	stop context.CancelFunc

	width, height int
	dark          bool
	themeFixed    bool // the user chose dark or light: the terminal is neither asked nor heeded
	view          viewID
	focus         focusID
	left          focusID // which list the narrow layout shows beside the preview

	projects *projectsPane
	memories *memoriesPane
	preview  *previewPane
	findings *findingsView
	index    *indexView
	// ixedit edits the index view's MEMORY.md in memory.
	ixedit *ixEditView
	// proposals reviews Dream's proposals (and computes them).
	proposals *proposalsView
	// journal lists what was written; dialog, when set, is a question or
	// a summary that takes the next key; write is a write in progress.
	journal *journalView
	// sessions lists the sessions that touched memory, and what each did.
	sessions *sessionsView
	// changes shows what changed since each directory's last review
	// (and keeps the review baselines).
	changes *changesView
	dialog  *dialog
	write   *writeRun
	undoing bool
	help    help.Model
	input   textinput.Model
	// mode says who gets a key first (see inputMode).
	mode inputMode
	// renaming, when set, is a rename being typed into input (verbs.go).
	renaming *renameAsk
	// noting, when set, is the Codex store a note is being typed for
	// (codexwrite.go).
	noting *app.CodexStore

	scan *model.Scan
	data []*projectData
	// problems is how many distinct transcript problems the projects'
	// logs met (a transcript two projects read counts once, as lint
	// counts it), kept up to date as logs arrive: the title bar shows it.
	problems int
	// versions is what the sessions' Claude Code versions say against the
	// one memtui follows (a newer one ran, or projects on an older one),
	// for the title bar: in a few words, then in fewer; nil when nothing.
	versions []string
	config   []model.Finding
	// codex are the Codex stores' findings (app.CodexFindings).
	codex   []model.Finding
	gen     int
	loader  *loader
	loaded  int
	loading bool
	// logLimit bounds the transcript reads running at once.
	logLimit *pool.Limit
	// logStop cancels the transcript reads of the current generation: a
	// refresh makes them obsolete, and they would hold the read slots.
	logCtx  context.Context
	logStop context.CancelFunc

	renders      map[renderKey]string
	source       bool
	resizeSeq    int
	findingsSeq  int
	findingsDirt bool

	watcher  *memfs.Watcher
	watchMsg string

	status string
	err    error
	// rects are where each pane was drawn, for the mouse.
	rects []paneRect
	// shownSel remembers what the preview shows, to notice a change.
	shownProject int
	shownItem    memItem
	shownHasItem bool
}

type paneRect struct {
	focus      focusID
	x, y, w, h int // the list area inside the border and title
}

// New builds the TUI for cfg.
func New(cfg Config) *Model {
	keys := keymap.Default()
	if cfg.Keys != nil {
		keys = *cfg.Keys
	}
	ws := cfg.Workspace
	if ws.ReadOnly {
		keys = keys.ReadOnly()
	}
	// The checks' options with what the TUI needs of them filled in.
	copts := ws.CheckOpts
	if copts.Now.IsZero() {
		copts.Now = time.Now()
	}
	if copts.Secrets == nil {
		copts.Secrets = secrets.Default()
	}
	if cfg.WatchLimit <= 0 {
		cfg.WatchLimit = 2000
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	ctx, stop := context.WithCancel(context.Background())
	m := &Model{cfg: cfg, ws: ws, copts: copts, transcripts: ws.TranscriptReader(), discovered: ws.Scan, ctx: ctx, stop: stop, renders: map[renderKey]string{}, shownProject: -1}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	m.dark, m.themeFixed = cfg.Theme.Forced()
	if !m.themeFixed {
		m.dark = true // until the terminal answers: dark is the common case
	}
	m.c = &shared{keys: keys, now: copts.Now, clock: cfg.Clock, home: cfg.Home, readonly: ws.ReadOnly, editor: cfg.Editor}
	m.c.st = themes.NewStyles(themes.For(m.dark, cfg.NoColor))
	m.projects = newProjectsPane(m.c)
	m.memories = newMemoriesPane(m.c)
	m.preview = newPreviewPane(m.c)
	m.findings = newFindingsView(m.c)
	m.index = newIndexView(m.c)
	m.ixedit = newIxEditView(m.c, copts.Secrets)
	m.proposals = newProposalsView(m.c, copts.Secrets)
	m.journal = newJournalView(m.c, copts.Secrets)
	m.changes = newChangesView(m.c, copts.Secrets)
	m.sessions = newSessionsView(m.c, copts.Secrets)
	m.help = help.New()
	m.input = textinput.New()
	m.input.Prompt = filterPrompt
	m.input.CharLimit = 200
	m.applyStyles()
	m.projects.focused = true
	return m
}

// Init starts discovery and asks the terminal for its background (unless
// the user chose a theme).
func (m *Model) Init() tea.Cmd {
	m.gen++
	m.loading = true
	discover := discoverCmd(m.ctx, m.gen, m.ws)
	if scan := m.discovered; scan != nil {
		gen := m.gen
		discover = func() tea.Msg { return scanMsg{gen: gen, scan: scan} }
		m.discovered = nil // a refresh discovers afresh
	}
	if m.themeFixed {
		return discover
	}
	return tea.Batch(tea.RequestBackgroundColor, discover)
}

// Close stops background work and the watcher.
func (m *Model) Close() {
	m.stop()
	m.loader.stop()
	if m.watcher != nil {
		m.watcher.Close()
	}
}

func (m *Model) applyStyles() {
	t := themes.For(m.dark, m.cfg.NoColor)
	m.c.st = themes.NewStyles(t)
	hs := help.DefaultStyles(m.dark)
	if m.cfg.NoColor {
		plain := lipgloss.NewStyle()
		hs = help.Styles{ShortKey: plain.Bold(true), ShortDesc: plain, ShortSeparator: plain, FullKey: plain.Bold(true), FullDesc: plain, FullSeparator: plain, Ellipsis: plain}
	}
	m.help.Styles = hs
	is := textinput.DefaultStyles(m.dark)
	is.Cursor.Blink = false // a steady cursor: nothing ticks while typing
	m.input.SetStyles(is)
	m.ixedit.input.SetStyles(is)
}

// Messages the root handles besides loading and rendering.
type (
	resizeDoneMsg   struct{ seq int }
	findingsTickMsg struct{ seq int }
	changesMsg      struct{ paths []string }
	watchErrMsg     struct{ err error }
	editorDoneMsg   struct {
		err  error
		path string // the memory dir to reload
	}
)

// Update routes a message: sizes, then app-wide messages, then keys by
// mode, then the mouse.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		// A drag sends many sizes; render the preview once it settles.
		m.resizeSeq++
		seq := m.resizeSeq
		return m, tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return resizeDoneMsg{seq} })
	case resizeDoneMsg:
		if msg.seq != m.resizeSeq {
			return m, nil
		}
		if m.view == viewIndex {
			m.index.SetSize(m.index.w, m.index.h)
		}
		return m, m.requestPreview(true)
	case tea.BackgroundColorMsg:
		if m.themeFixed {
			return m, nil
		}
		m.dark = msg.IsDark()
		m.applyStyles()
		m.projects.rebuild()
		m.memories.rebuild()
		m.findings.apply()
		m.proposals.diff.applyStyles()
		if m.view == viewIndex {
			m.index.build()
		}
		return m, m.requestPreview(true)
	case scanMsg:
		return m, m.onScan(msg)
	case loadedMsg:
		return m, m.onLoaded(msg)
	case loadDoneMsg:
		if msg.gen == m.gen {
			m.loading = false
			if m.status == refreshing {
				m.status = ""
			}
		}
		return m, m.dataChanged()
	case dirReloadedMsg:
		return m, m.onDirReloaded(msg)
	case transcriptsMsg:
		return m, m.onTranscripts(msg)
	case baselinesMsg:
		m.changes.onBaselines(msg, m)
		return m, nil
	case baselineSavedMsg:
		m.changes.onBaselineSaved(msg, m)
		return m, nil
	case renderedMsg:
		if msg.err != nil {
			m.err = fmt.Errorf("rendering failed: %w", msg.err)
			return m, nil
		}
		if len(m.renders) > 1000 {
			clear(m.renders) // a bound, not an LRU: a full cache is rare
		}
		m.renders[msg.key] = msg.out
		m.preview.rendered(msg.key, msg.out)
		return m, nil
	case proposalsTickMsg:
		return m, m.proposals.onTick(msg, m.run())
	case proposalsMsg:
		return m, m.proposals.onResults(msg, m.run())
	case newIndexMsg:
		return m, m.onNewIndex(msg)
	case handMsg:
		return m, m.onHand(msg)
	case decisionsLoadedMsg:
		// A dir's record does not depend on the generation: a refresh
		// lists the same proposals, which take it as well.
		m.proposals.onDecisionsLoaded(msg, m)
		return m, nil
	case decisionsSavedMsg:
		if msg.err != nil {
			m.err = fmt.Errorf("could not record the review's decisions: %w", msg.err)
		}
		return m, m.proposals.onSaved(msg, m.run())
	case findingsTickMsg:
		if msg.seq == m.findingsSeq && m.findingsDirt {
			m.refreshFindings()
		}
		return m, nil
	case changesMsg:
		return m, tea.Batch(m.onChanges(msg.paths), m.waitChanges())
	case codexReloadedMsg:
		return m, m.onCodexReloaded(msg)
	case codexEditedMsg:
		return m, m.onCodexEdited(msg)
	case watchErrMsg:
		m.watchMsg = "live updates stalled: " + msg.err.Error()
		return m, tea.Batch(m.refresh(), m.waitWatchErr())
	case applyProgressMsg, applyDirDoneMsg, writeDoneMsg:
		return m, m.onWrite(msg)
	case undoDoneMsg:
		return m, m.onUndone(msg)
	case journalMsg:
		return m, m.journal.set(msg, m.run())
	case sessionsMsg:
		return m, m.sessions.onResults(msg, m.run())
	case journalPreviewMsg:
		m.journal.onPreview(msg)
		return m, nil
	case proposalEditedMsg:
		m.proposals.onEdited(msg, m)
		return m, nil
	case editorDoneMsg:
		if msg.err != nil {
			m.err = fmt.Errorf("the editor failed: %w", msg.err)
		}
		return m, m.reloadPath(msg.path)
	case navigateMsg:
		return m, m.navigate(msg)
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.MouseWheelMsg:
		m.onWheel(msg.Mouse())
		return m, m.syncSelection()
	case tea.MouseClickMsg:
		m.onClick(msg.Mouse())
		return m, m.syncSelection()
	}
	return m, nil
}

// onScan shows the project list and starts reading.
func (m *Model) onScan(msg scanMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	if msg.err != nil {
		m.err = msg.err
		m.loading = false
		return nil
	}
	if m.cfg.QuitIfEmpty && msg.gen == 1 {
		// Started before discovering (its start overlaps discovery):
		// a machine with no memory at all is told so as the CLI tells
		// it, after the TUI has gone.
		if err := m.ws.Empty(msg.scan); err != nil {
			m.exitErr = err
			return tea.Quit
		}
	}
	keepSel := m.projects.selected()
	var keepName string
	if keepSel >= 0 && keepSel < len(m.data) {
		keepName = m.data[keepSel].p.Name()
	}
	m.scan = msg.scan
	m.config = consolidate.ConfigFindings(msg.scan.Config)
	m.codex = nil
	m.data = make([]*projectData, len(msg.scan.Projects), len(msg.scan.Projects)+len(msg.codex))
	m.problems, m.versions = 0, nil
	for i, p := range msg.scan.Projects {
		m.data[i] = &projectData{p: p}
	}
	// Codex's stores follow Claude Code's projects, read already (the
	// loader reads only the projects, by their index).
	for _, cx := range msg.codex {
		m.data = append(m.data, newCodexData(cx))
		m.codex = append(m.codex, cx.Findings...)
	}
	m.loaded = 0
	m.projects.setProjects(m.data)
	if keepName != "" {
		for i, pd := range m.data {
			if pd.p.Name() == keepName {
				m.projects.list.selectRef(i)
			}
		}
	}
	m.memories.setProject(nil)
	m.shownProject = -1
	m.loader.stop()
	// One run's options for the first load and every reload after it.
	m.copts = m.copts.ForScan(msg.scan)
	m.loader = startLoader(m.ctx, m.gen, msg.scan.Projects, m.ws, m.copts, m.cfg.Workers)
	cmds := []tea.Cmd{m.loader.next(), m.syncSelection()}
	if msg.gen == 1 {
		// Each start records the memory dirs as they are, once the scan
		// is known and in the background.
		cmds = append(cmds, snapshotCmd(m.ctx, m.ws, msg.scan))
	}
	if m.cfg.Watch {
		cmds = append(cmds, m.startWatching())
		for _, pd := range m.data {
			if pd.cx != nil && m.watcher != nil {
				m.watchCodex(pd)
			}
		}
	}
	if len(m.data) == 0 && len(m.config) == 0 {
		m.status = "No Claude Code memory found. Try memtui --demo, or --config-dir / --memory-dir."
	}
	return tea.Batch(cmds...)
}

func (m *Model) onLoaded(msg loadedMsg) tea.Cmd {
	if msg.gen != m.gen || msg.idx >= len(m.data) {
		return nil
	}
	pd := m.data[msg.idx]
	pd.dirs, pd.loaded, pd.choice = msg.dirs, true, msg.choice
	pd.summarize()
	m.loaded++
	m.projects.refresh(msg.idx)
	cmds := []tea.Cmd{m.loader.next(), m.dataChanged(), m.readTranscripts(msg.idx), m.changes.loadBaselines(m.run(), msg.idx)}
	if m.projects.selected() == msg.idx {
		m.memories.setProject(pd)
		m.shownProject = -1 // force the preview to follow
		cmds = append(cmds, m.syncSelection())
	}
	if m.watcher != nil {
		m.watchProject(pd)
	}
	return tea.Batch(cmds...)
}

func (m *Model) onDirReloaded(msg dirReloadedMsg) tea.Cmd {
	if msg.gen != m.gen || msg.idx >= len(m.data) {
		return nil
	}
	if msg.err != nil {
		m.err = msg.err
		return nil
	}
	pd := m.data[msg.idx]
	di := pd.dirIndex(msg.path)
	if di < 0 || !pd.loaded {
		return nil
	}
	pd.dirs[di] = msg.dd
	pd.p.Dirs[di] = msg.dd.d
	pd.summarize()
	m.projects.refresh(msg.idx)
	if m.watcher != nil {
		m.watchProject(pd)
	}
	if (m.view == viewIndex || m.view == viewIndexEdit) && m.index.dd != nil && m.index.dd.d.Path == msg.path {
		m.index.pick(msg.dd)
		off := m.index.vp.YOffset()
		m.index.build()
		m.index.vp.SetYOffset(off)
	}
	var cmd tea.Cmd
	if m.projects.selected() == msg.idx {
		m.memories.setProject(pd)
		cmd = m.requestPreview(false)
	}
	m.changes.rebuild(m.data) // cheap: only directories that changed are compared again
	// An undo's preview compares the files as they are: read it again.
	jcmd := m.journal.dirChanged(msg.path, m.run())
	// The write that changed the directory is in a transcript by now.
	return tea.Batch(cmd, jcmd, m.dataChanged(), m.readTranscripts(msg.idx))
}

// dataChanged notes that a project or directory was read: the views
// derived from the loaded data catch up.
func (m *Model) dataChanged() tea.Cmd {
	return tea.Batch(m.findingsChanged(), m.proposals.changed(), m.sessions.changed(m.run()))
}

// findingsChanged notes that findings changed; the findings view, when on
// screen, catches up at most a few times a second.
func (m *Model) findingsChanged() tea.Cmd {
	m.findingsDirt = true
	if m.view != viewFindings {
		return nil
	}
	m.findingsSeq++
	seq := m.findingsSeq
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return findingsTickMsg{seq} })
}

// allFindings gathers the configuration findings, the Codex stores' and
// every loaded project's, in report order.
func (m *Model) allFindings() []model.Finding {
	n := len(m.config) + len(m.codex)
	for _, pd := range m.data {
		n += pd.findings
	}
	out := make([]model.Finding, 0, n)
	out = append(out, m.config...)
	out = append(out, m.codex...)
	for _, pd := range m.data {
		if !pd.loaded {
			continue
		}
		for _, dd := range pd.dirs {
			out = append(out, dd.findings...)
		}
	}
	consolidate.SortFindings(out)
	return out
}

func (m *Model) refreshFindings() {
	m.findings.loading = m.loading
	m.findings.setFindings(m.allFindings())
	m.findingsDirt = false
}

const refreshing = "Reading everything again…"

// refresh discovers and reads everything again.
func (m *Model) refresh() tea.Cmd {
	m.gen++
	if m.logStop != nil {
		m.logStop()
		m.logCtx, m.logStop = nil, nil
	}
	m.loading = true
	m.status = refreshing
	m.loader.stop()
	return discoverCmd(m.ctx, m.gen, m.ws)
}

// reloadPath re-reads the memory directory at path, wherever it is.
func (m *Model) reloadPath(path string) tea.Cmd {
	if cmd, ok := m.codexChanged(path); ok {
		return cmd
	}
	for i, pd := range m.data {
		if !pd.loaded {
			continue
		}
		if di := pd.dirIndex(path); di >= 0 {
			return reloadDirCmd(m.ctx, m.gen, i, snapshot(pd.p), pd.dirs[di].d, m.ws, m.copts)
		}
	}
	return nil
}

// currentFilter is the filter of the list the filter box applies to.
func (m *Model) currentFilter() string {
	switch {
	case m.view == viewProposals:
		return m.proposals.filter
	case m.view == viewChanges:
		return m.changes.filter
	case m.view == viewJournal:
		return m.journal.filter
	case m.view == viewSessions:
		return m.sessions.filter
	case m.view == viewFindings:
		return m.findings.filter
	case m.focus == focusProjects:
		return m.projects.filter
	}
	return m.memories.filter
}

func (m *Model) setFilter(s string) {
	switch {
	case m.view == viewProposals:
		m.proposals.setFilter(s)
	case m.view == viewChanges:
		m.changes.filter = s
		m.changes.rebuild(m.data)
	case m.view == viewJournal:
		m.journal.setFilter(s)
	case m.view == viewSessions:
		m.sessions.setFilter(s, m.run())
	case m.view == viewFindings:
		m.findings.filter = s
		m.findings.apply()
		m.findings.list.top()
	case m.focus == focusProjects:
		m.projects.filter = s
		m.projects.rebuild()
		m.projects.list.top()
	default:
		if m.focus == focusPreview {
			m.setFocus(focusMemories)
		}
		m.memories.filter = s
		m.memories.rebuild()
		m.memories.list.top()
	}
}

func (m *Model) setFocus(f focusID) {
	m.focus = f
	if f != focusPreview {
		m.left = f
	}
	m.projects.focused = f == focusProjects
	m.memories.focused = f == focusMemories
	m.preview.focused = f == focusPreview
	m.layout()
}

// syncSelection follows the cursor: a new project fills the memories pane,
// a new memory fills the preview.
func (m *Model) syncSelection() tea.Cmd {
	if m.view == viewJournal {
		return m.journal.follow(m.run()) // a filter moved its selection
	}
	pi := m.projects.selected()
	if pi != m.shownProject {
		m.shownProject = pi
		switch {
		case pi >= 0 && pi < len(m.data):
			m.memories.setProject(m.data[pi])
			if !m.data[pi].loaded && m.loader != nil {
				m.loader.prefer(pi)
			}
		default:
			m.memories.setProject(nil)
		}
		return m.requestPreview(true)
	}
	it := m.memories.selectedItem()
	if it == nil && m.shownHasItem || it != nil && (!m.shownHasItem || *it != m.shownItem) {
		return m.requestPreview(true)
	}
	return nil
}

// selection is the project and directory data under the cursors.
func (m *Model) selection() (*projectData, *dirData, *memItem) {
	pi := m.projects.selected()
	if pi < 0 || pi >= len(m.data) || !m.data[pi].loaded {
		if pi >= 0 && pi < len(m.data) {
			return m.data[pi], nil, nil
		}
		return nil, nil, nil
	}
	pd := m.data[pi]
	it := m.memories.selectedItem()
	if it == nil || it.dir < 0 || it.dir >= len(pd.dirs) {
		return pd, nil, nil
	}
	return pd, pd.dirs[it.dir], it
}

// requestPreview shows the selected memory, from the cache when it has been
// rendered at this width in this theme, else through a render Cmd.
func (m *Model) requestPreview(force bool) tea.Cmd {
	if pd, it := m.codexSelection(); pd != nil {
		if it != nil {
			m.shownItem, m.shownHasItem = *it, true
		} else {
			m.shownHasItem = false
		}
		return m.codexPreview(pd, it)
	}
	pd, dd, it := m.selection()
	if it != nil {
		m.shownItem, m.shownHasItem = *it, true
	} else {
		m.shownHasItem = false
	}
	width := max(m.preview.width-2, 10)
	switch {
	case pd == nil:
		m.preview.clear("No project selected.")
		return nil
	case !pd.loaded:
		m.preview.clear("Reading " + safe.ShowLine(report.Tilde(pd.p.Name(), m.c.home)) + "…")
		return nil
	case it == nil:
		m.preview.clear(projectSummary(m.c, pd))
		return nil
	}
	var header string
	var content []byte
	var doc model.Doc
	var anchor time.Time
	lines := map[int]model.Severity{}
	if it.file == nil {
		ix := dd.d.Index
		content = ix.Content
		doc = claude.ParseDoc(content)
		header = indexHeader(m.c, dd, pd.choice, width)
		anchor = ix.ModTime
		for _, f := range dd.byFile["MEMORY.md"] {
			if f.Line > 0 && f.Severity >= lines[f.Line] {
				lines[f.Line] = f.Severity
			}
		}
	} else {
		content = it.file.Content
		doc = dd.docs[it.file.Path]
		header = memoryHeader(m.c, dd, it.file, width)
		anchor = doc.FM.ModifiedTime
		if anchor.IsZero() {
			anchor = it.file.ModTime
		}
		for _, f := range dd.byFile[it.file.Path] {
			if f.Line > 0 && f.Severity >= lines[f.Line] {
				lines[f.Line] = f.Severity
			}
		}
	}
	t := themes.For(m.dark, m.cfg.NoColor)
	k := renderKey{hash: contentHash(content), width: width, theme: t.Name, source: m.source}
	if m.source {
		// The source view flags the lines with findings, which can change
		// while the bytes do not (the index stops naming the file).
		k.hash ^= linesHash(lines)
	}
	if out, ok := m.renders[k]; ok {
		m.preview.show(header, out, k, false)
		return nil
	}
	if !force && k == m.preview.key && !m.preview.pending {
		return nil
	}
	m.preview.show(header, "", k, true)
	return renderCmd(renderInput{key: k, content: content, doc: doc, anchor: anchor, theme: t,
		scanner: m.copts.Secrets, lines: lines, st: m.c.st})
}

// projectSummary is what the preview says when a project, not a memory,
// is selected.
func projectSummary(c *shared, pd *projectData) string {
	var b strings.Builder
	b.WriteString(safe.ShowLine(report.Tilde(pd.p.Name(), c.home)) + "\n\n")
	counts := projectFindingsCount(pd)
	fmt.Fprintf(&b, "%d %s in %d %s · %d errors, %d warnings, %d info\n", pd.memories, model.Plural(pd.memories, "memory", "memories"),
		len(pd.dirs), model.Plural(len(pd.dirs), "store", "stores"),
		counts[model.Error], counts[model.Warning], counts[model.Info])
	if n := pd.unlisted; n > 0 {
		fmt.Fprintf(&b, "%d %s not counted: Claude Code's scan never lists %s as %s (marked ⊘)\n", n, model.Plural(n, "file", "files"),
			model.Plural(n, "it", "them"), model.Plural(n, "a memory", "memories"))
	}
	if pd.p.Root == "" {
		b.WriteString("\nNo transcript confirms this project's real path, so it is shown by its slug.\n")
	}
	if note := logNote(pd); note != "" {
		b.WriteString("\n" + note + "\n")
	}
	if lines := problemLines(c, pd.p.Log, pd.p.TranscriptDir, mostProblems); lines != nil {
		b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
	if ch := pd.choice; ch != nil {
		if say := choiceSummary(c, pd, ch); say != "" {
			b.WriteString("\n" + say + "\n")
		}
	}
	for _, dd := range pd.dirs {
		if g := gateSummary(c, dd); g != "" && dd.d.Exists {
			label := dirLabel(dd.d)
			b.WriteString("\n" + strings.ToUpper(label[:1]) + label[1:] + ": " + g + "\n")
		}
	}
	return b.String()
}

// choiceSummary says, when something is off, what Claude Code does with
// the project's sessions instead: which dir it uses when that is not the
// project's own store, and that auto memory is off. "" when all is as it
// should be (memtui doctor says the rest).
func choiceSummary(c *shared, pd *projectData, ch *memfs.Choice) string {
	var lines []string
	own := false
	for _, d := range pd.p.Dirs {
		if (d.Kind == model.DirAuto || d.Kind == model.DirOverride) && app.SameDir(d.Path, ch.Dir) {
			own = true
		}
	}
	if !own {
		who := "its sessions"
		if pd.p.Root != "" {
			who = "sessions launched in " + report.Tilde(pd.p.Root, c.home)
		}
		lines = append(lines, "Claude Code uses "+report.Tilde(ch.Dir, c.home)+" for "+who+" ("+ch.By+"), not this project's store.")
	}
	if !ch.AutoMemory.On {
		lines = append(lines, "Auto memory is off: "+ch.AutoMemory.By+".")
	}
	for i, l := range lines {
		lines[i] = safe.ShowLine(l)
	}
	return strings.Join(lines, "\n")
}

// choiceWarning says, wrapped, when Claude Code does not load dd for its
// project's sessions although it is the project's own store: the
// sessions use another dir, or auto memory is off. Nothing when all is
// as it should be (or for a store no project's sessions choose).
func choiceWarning(c *shared, dd *dirData, ch *memfs.Choice, width int) []string {
	var msg string
	switch app.GapOf(dd.d, ch) {
	case app.GapMemoryOff:
		msg = "▲ auto memory is off (" + ch.AutoMemory.By + "): Claude Code neither loads nor writes this store"
	case app.GapOtherDir:
		msg = "▲ not loaded: this project's sessions use " + report.Tilde(ch.Dir, c.home) + " (memtui doctor says why)"
	default:
		return nil
	}
	return wrapIn(c.st.Sev[model.Warning], safe.ShowLine(msg), width)
}

// indexHeader tops the preview of a MEMORY.md with its load summary.
func indexHeader(c *shared, dd *dirData, choice *memfs.Choice, width int) string {
	st := c.st
	l := dd.load
	// The path's end names the project and the store: a cut keeps it.
	lines := []string{st.Title.Render("MEMORY.md") + st.Faint.Render("  "+truncLeft(safe.ShowLine(report.Tilde(dd.d.Path, c.home)), max(width-len("MEMORY.md  "), 10)))}
	if l != nil {
		state, stateSt := "✓ loads whole", st.OK
		switch {
		case l.TooLarge:
			state, stateSt = "✗ not loaded: over the 4 MiB Claude Code reads", st.Sev[model.Error]
		case l.Truncated():
			state, stateSt = fmt.Sprintf("✗ cut: %d %s never reach the agent", len(l.Dropped), model.Plural(len(l.Dropped), "line", "lines")), st.Sev[model.Error]
		case l.NearLimit():
			state, stateSt = "▲ near a cap", st.Sev[model.Warning]
		}
		size := fmt.Sprintf("%d/200 lines · %d/25,000 units", l.LineCount, l.Units)
		if l.TooLarge {
			size = fmt.Sprintf("%d bytes on disk", dd.d.Index.Size)
		}
		// The verdict on a line of its own when both do not fit: cut, it
		// would lose what it says.
		if ansi.StringWidth(size+"  "+state) <= width {
			lines = append(lines, size+"  "+stateSt.Render(state))
		} else {
			lines = append(lines, size)
			lines = append(lines, wrapIn(stateSt, state, width)...)
		}
		lines = append(lines, wrapIn(st.Faint, "press "+key1(c.keys.Views.Index)+" to see it exactly as the agent loads it", width)...)
	}
	lines = append(lines, choiceWarning(c, dd, choice, width)...)
	if g := gateSummary(c, dd); g != "" {
		// Wrapped, not cut: the gate's verdict comes last.
		lines = append(lines, strings.Split(ansi.Wrap(g, max(width, 10), " "), "\n")...)
		if ws := dd.prov["MEMORY.md"]; len(ws) > 0 {
			written, _, _ := provenanceLines(c, dd, "MEMORY.md", "")
			lines = append(lines, wrapIn(st.Faint, "last written by "+safe.ShowLine(written[0]), width)...)
		}
		lines = append(lines, wrapIn(st.Faint, "used: "+heatSummary(c, dd, "MEMORY.md"), width)...)
	}
	for _, l := range problemLines(c, dd.log, filepath.Dir(dd.d.Path), fewProblems) {
		// Wrapped, not cut: what went wrong follows the transcript's name.
		for i, w := range strings.Split(ansi.Wrap(l, max(width-4, 10), " /"), "\n") {
			if i > 0 {
				w = "    " + w
			}
			lines = append(lines, st.Sev[model.Warning].Render(w))
		}
	}
	fs := dd.byFile["MEMORY.md"]
	const most = 4 // the index view and the findings view hold the rest
	if len(fs) > most {
		lines = append(lines, findingLines(c, fs[:most], width)...)
		lines = append(lines, wrapIn(st.Faint, fmt.Sprintf("… and %d more findings on this index: press %s for all", len(fs)-most, key1(c.keys.Views.Findings)), width)...)
	} else {
		lines = append(lines, findingLines(c, fs, width)...)
	}
	lines = append(lines, st.Faint.Render(strings.Repeat("─", max(width, 1))))
	for i, ln := range lines {
		lines[i] = ansi.Truncate(ln, width, "…") // the path's line, and a safety net
	}
	return strings.Join(lines, "\n")
}

// wrapIn wraps plain text (made safe) to width and styles each line on
// its own, so no style runs on past a line's end into the pane's border.
func wrapIn(style lipgloss.Style, s string, width int) []string {
	lines := strings.Split(ansi.Wrap(s, max(width, 1), " /"), "\n")
	for i, ln := range lines {
		lines[i] = style.Render(ln)
	}
	return lines
}

// openIndex shows the index of the selected memory's directory (or the
// project's first with one); line, when positive, is scrolled to. dir,
// when set, names the directory to show, with or without an index.
func (m *Model) openIndex(dir string, line int) tea.Cmd {
	if pd, _ := m.codexSelection(); pd != nil {
		return m.openCodexSummary(pd, line)
	}
	pd, dd, _ := m.selection()
	if pd == nil || !pd.loaded {
		return nil
	}
	if di := pd.dirIndex(dir); dir != "" && di >= 0 {
		dd = pd.dirs[di]
	} else if dd == nil || dd.d.Index == nil && len(dd.d.StoreIndexes) == 0 {
		for _, cand := range pd.dirs {
			if cand.d.Index != nil {
				dd = cand
				break
			}
		}
	}
	if dd == nil {
		if len(pd.dirs) == 0 {
			m.status = "This project has no memory directory."
			return nil
		}
		dd = pd.dirs[0]
	}
	m.show(viewIndex)
	m.index.open(dd, report.Tilde(pd.p.Name(), m.c.home)+" · "+dirLabel(dd.d), line)
	return nil
}

// jump goes from a finding to its file and line.
func (m *Model) jump(f model.Finding) tea.Cmd {
	if f.MemoryDir == "" {
		m.status = "A configuration finding: " + f.File
		return nil
	}
	if f.Rule == consolidate.RuleMemoryDeleted {
		// Nothing on disk to show: its way back is the proposal.
		return m.navigate(navigateMsg{to: viewProposals, filter: "restore-deleted " + f.File})
	}
	for pi, pd := range m.data {
		if !pd.loaded {
			continue
		}
		di := pd.dirIndex(f.MemoryDir)
		if di < 0 {
			continue
		}
		m.projects.filter, m.memories.filter = "", ""
		m.projects.rebuild()
		m.projects.list.selectRef(pi)
		m.memories.setProject(pd)
		m.shownProject = pi
		if f.File == "MEMORY.md" && pd.dirs[di].d.Index != nil {
			m.memories.selectFile(di, nil)
			return m.navigate(navigateMsg{to: viewIndex, line: f.Line})
		}
		if f.Rule == consolidate.RuleIndexMissing {
			// The index view of the directory without one, which offers
			// to start it.
			return m.navigate(navigateMsg{to: viewIndex, dir: f.MemoryDir})
		}
		if f.File != "" && m.memories.selectPath(di, f.File) {
			m.setFocus(focusPreview)
			if f.Line > 0 {
				m.source = true
				m.preview.gotoLine = f.Line
			}
		} else {
			m.setFocus(focusMemories)
			if f.File != "" {
				m.status = f.File + " is not a memory file memtui can show; it is in " + report.Tilde(f.MemoryDir, m.c.home)
			}
		}
		m.show(viewBrowse)
		return m.requestPreview(true)
	}
	if cmd, ok := m.jumpCodex(f); ok {
		return cmd
	}
	m.status = "That finding's directory is no longer loaded."
	return nil
}

// edit opens the selected memory (or, in the index view, MEMORY.md) in the
// user's editor; the directory reloads when the editor exits.
func (m *Model) edit() tea.Cmd {
	if m.ws.ReadOnly {
		return nil
	}
	var path, dir string
	switch m.view {
	case viewJournal:
		return nil
	case viewIndex:
		if m.index.dd == nil || m.index.file == nil {
			return nil
		}
		dir = m.index.dd.d.Path
		path = filepath.Join(dir, filepath.FromSlash(m.index.file.Path))
	case viewFindings:
		f := m.findings.selected()
		if f == nil || f.MemoryDir == "" || f.File == "" {
			return nil
		}
		if cmd, ok := m.jumpCodex(*f); ok {
			// Codex's files are edited from its store's list, on a copy.
			m.status = "Codex's files are edited from its store's list: press " + key1(m.c.keys.Browse.Edit) + " there."
			return cmd
		}
		dir = f.MemoryDir
		path = filepath.Join(dir, filepath.FromSlash(f.File))
	default:
		if pd, it := m.codexSelection(); pd != nil {
			return m.codexEdit(pd, it)
		}
		_, dd, it := m.selection()
		if it == nil {
			return nil
		}
		dir = dd.d.Path
		if it.file == nil {
			path = filepath.Join(dir, "MEMORY.md")
		} else {
			path = filepath.Join(dir, filepath.FromSlash(it.file.Path))
		}
	}
	if err := m.writeRefusal(dir); err != nil {
		m.err = err // a directory only a repository's settings named
		return nil
	}
	cmd, err := editorCmd(m.c.editor, path)
	if err != nil {
		m.err = err
		return nil
	}
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return editorDoneMsg{err: err, path: dir} })
}

// startWatching creates the watcher on the first scan and watches each
// config's projects directory, so new projects show up too.
func (m *Model) startWatching() tea.Cmd {
	if m.watcher != nil {
		return nil
	}
	w, err := memfs.NewWatcher(m.cfg.WatchLimit, 250*time.Millisecond)
	if err != nil {
		m.watchMsg = "live updates off: " + err.Error()
		return nil
	}
	m.watcher = w
	for _, c := range m.scan.ConfigDirs {
		w.Add(filepath.Join(c, "projects"))
	}
	return tea.Batch(m.waitChanges(), m.waitWatchErr())
}

// watchProject watches a loaded project's directories (an absent one
// through its parent, to see it appear).
func (m *Model) watchProject(pd *projectData) {
	for _, dd := range pd.dirs {
		p := dd.d.Path
		if !dd.d.Exists {
			p = filepath.Dir(p)
		}
		if err := m.watcher.Add(p); errors.Is(err, memfs.ErrWatchLimit) {
			m.watchMsg = fmt.Sprintf("watching the first %d directories; press %s for the rest", m.cfg.WatchLimit, key1(m.c.keys.Global.Refresh))
			return
		}
	}
}

func (m *Model) waitChanges() tea.Cmd {
	w := m.watcher
	if w == nil {
		return nil
	}
	return func() tea.Msg {
		paths, ok := <-w.Changes()
		if !ok {
			return nil
		}
		return changesMsg{paths}
	}
}

func (m *Model) waitWatchErr() tea.Cmd {
	w := m.watcher
	if w == nil {
		return nil
	}
	return func() tea.Msg {
		err, ok := <-w.Errors()
		if !ok {
			return nil
		}
		return watchErrMsg{err}
	}
}

// onChanges reloads each changed memory directory; a change anywhere else
// (a new project, a memory directory appearing) means discovering again.
func (m *Model) onChanges(paths []string) tea.Cmd {
	var cmds []tea.Cmd
	rediscover := false
	for _, p := range paths {
		if cmd, ok := m.codexChanged(p); ok {
			cmds = append(cmds, cmd)
			continue
		}
		found := false
		for i, pd := range m.data {
			if !pd.loaded {
				continue
			}
			for _, dd := range pd.dirs {
				if dd.d.Path == p || !dd.d.Exists && filepath.Dir(dd.d.Path) == p {
					cmds = append(cmds, reloadDirCmd(m.ctx, m.gen, i, snapshot(pd.p), dd.d, m.ws, m.copts))
					found = true
				}
			}
		}
		if !found {
			rediscover = true
		}
	}
	if rediscover && !m.loading {
		cmds = append(cmds, m.refresh())
	}
	return tea.Batch(cmds...)
}

// Run shows the TUI on out until the user quits or ctx is done, with env
// as the program's environment (what the terminal is, NO_COLOR). A
// cancelled or killed program is no error: the user left.
func Run(ctx context.Context, cfg Config, out io.Writer, env []string) error {
	m := New(cfg)
	defer m.Close()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(out), tea.WithEnvironment(env))
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		return nil
	}
	if err == nil {
		err = m.exitErr
	}
	return err
}
