package ui

import (
	"context"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/codex"
)

// projectData is one project as the UI knows it. Until loaded is set (by a
// loadedMsg, in Update) the loader goroutine owns the project's directories
// and nothing else may read them.
type projectData struct {
	p *model.Project
	// cx, set for a Codex store's row, is the store (p then only names
	// it, and dirs is empty).
	cx *app.CodexStore
	// cxdd stands for a Codex store in the proposals view, which lists
	// proposals by directory: the store's root and files, no findings.
	cxdd   *dirData
	loaded bool
	dirs   []*dirData // aligned with p.Dirs once loaded
	// Summaries, kept current as directories (re)load. memories counts
	// the topic files Claude Code's scan lists as memories (Scan.Memory:
	// past the 200 and tied at it too); unlisted the rest, which the
	// memories pane still shows (marked ⊘) but the agent never sees as
	// memories: a count that included them would overstate the project.
	memories int
	unlisted int
	findings int
	worst    model.Severity
	hasWorst bool
	// cut is true when Claude Code cuts one of the project's indexes.
	cut bool
	// The transcripts: a read in flight (and whether another should
	// follow it), its sequence number, and why the last read failed.
	logReading, logAgain bool
	logSeq               int
	logErr               error
	// choice is how Claude Code chooses the memory dir for the project's
	// sessions (app.Workspace.StoreChoice), worked out as it loads; nil
	// for a project whose sessions choose none.
	choice *memfs.Choice
}

// dirData is a loaded memory directory with its findings and each file's
// parsed frontmatter. A reload replaces the whole value, never mutates it,
// so a render in flight keeps a consistent view.
type dirData struct {
	d        *model.MemoryDir
	findings []model.Finding
	byFile   map[string][]model.Finding // by File ("" for the directory)
	docs     map[string]model.Doc       // by file path
	load     *claude.Load               // the index as Claude Code loads it; nil without MEMORY.md
	// storeLoads are d.StoreIndexes measured as MEMORY.md is, in order.
	storeLoads []claude.Load
	// From the project's transcripts, once read (log non-nil): who wrote
	// each file, how much each is used, and Claude Code's dream gate.
	log  *model.TranscriptLog
	prov map[string][]model.MemWrite
	heat map[string]model.Heat
	gate model.DreamGate
}

// newDirData checks a freshly loaded directory and indexes the results.
func newDirData(p *model.Project, d *model.MemoryDir, opts consolidate.Options) *dirData {
	dd := &dirData{d: d, byFile: map[string][]model.Finding{}}
	// One pass: the checks parse every file's frontmatter already.
	dd.findings, dd.docs = consolidate.OrientDirDocs(p, d, opts)
	// Another agent's copy of the format is checked with the rules that
	// make sense for it (--memory-root).
	dd.findings = app.AgentFindings(p, dd.findings)
	for _, f := range dd.findings {
		dd.byFile[f.File] = append(dd.byFile[f.File], f)
	}
	if d.Index != nil {
		l := claude.LoadIndex(d.Index, d.Kind.LoadMode())
		dd.load = &l
	}
	for _, si := range d.StoreIndexes {
		dd.storeLoads = append(dd.storeLoads, claude.LoadIndex(si.File, d.Kind.LoadMode()))
	}
	if p.Log != nil {
		dd.log = p.Log
		dd.prov = forensics.Provenance(d, p.Log)
		dd.heat = forensics.HeatOf(d, p.Log)
		dd.gate = forensics.GateOf(d, p.Log, opts.Now)
	}
	return dd
}

// summarize recomputes the project's counts from its directories.
func (pd *projectData) summarize() {
	if pd.cx != nil {
		pd.summarizeCodex()
		return
	}
	pd.memories, pd.unlisted, pd.findings, pd.hasWorst, pd.worst, pd.cut = 0, 0, 0, false, model.Info, false
	for _, dd := range pd.dirs {
		if dd.load != nil && (dd.load.Truncated() || dd.load.TooLarge) {
			pd.cut = true // (or not loaded at all)
		}
		for _, f := range dd.d.Files {
			if f.Scan.Memory() {
				pd.memories++
			} else {
				pd.unlisted++
			}
		}
		pd.findings += len(dd.findings)
		for _, f := range dd.findings {
			if !pd.hasWorst || f.Severity > pd.worst {
				pd.worst, pd.hasWorst = f.Severity, true
			}
		}
	}
}

// dirIndex finds a directory of the project by path.
func (pd *projectData) dirIndex(path string) int {
	for i, dd := range pd.dirs {
		if dd.d.Path == path {
			return i
		}
	}
	return -1
}

// Messages of the loading pipeline. gen ties each to one load, so results
// of a load that a refresh replaced are dropped.
type (
	scanMsg struct {
		gen  int
		scan *model.Scan
		err  error
		// codex are the Codex stores, read again with the scan, arranged
		// for the views with their findings.
		codex []*app.CodexStore
	}
	loadedMsg struct {
		gen, idx int
		dirs     []*dirData
		choice   *memfs.Choice
	}
	loadDoneMsg    struct{ gen int }
	dirReloadedMsg struct {
		gen, idx int
		path     string
		dd       *dirData
		err      error
	}
)

// discoverCmd finds every project and memory directory: quick, so the
// project list appears before any file is read.
func discoverCmd(ctx context.Context, gen int, ws *app.Workspace) tea.Cmd {
	return func() tea.Msg {
		scan, err := ws.Discover(ctx)
		msg := scanMsg{gen: gen, scan: scan, err: err}
		if err == nil {
			// Codex's stores are read beside Claude Code's projects.
			if stores, err := ws.LoadCodex(ctx); err == nil {
				for _, s := range stores {
					msg.codex = append(msg.codex, app.NewCodexStore(s, app.CodexFindings([]*codex.Store{s}, ws.CheckOpts)))
				}
			}
		}
		return msg
	}
}

// snapshotCmd records every memory dir of the scan as it is now
// (app.Workspace.Snapshot: memtui's own record of what Claude Code's
// background runs change with no transcript), off the UI thread. It
// writes nothing under --readonly (Snapshot sees to it), and reports
// nothing: a failed or skipped snapshot is no reason to interrupt the
// user, and the next start takes another.
func snapshotCmd(ctx context.Context, ws *app.Workspace, scan *model.Scan) tea.Cmd {
	return func() tea.Msg {
		ws.Snapshot(ctx, scan)
		return nil
	}
}

// loader reads and checks every project in the background on the pool
// (pool.Queue), in list order except that a project the user selects
// before it is read jumps the queue; it sends one loadedMsg per project on
// its channel, then loadDoneMsg.
type loader struct {
	ch     chan tea.Msg
	cancel context.CancelFunc
	q      *pool.Queue
}

// copts are the run's options (consolidate.Options.ForScan of the scan:
// the checks share what they know across projects, as lint's do).
func startLoader(parent context.Context, gen int, projects []*model.Project, ws *app.Workspace, copts consolidate.Options, workers int) *loader {
	ctx, cancel := context.WithCancel(parent)
	l := &loader{ch: make(chan tea.Msg, 64), cancel: cancel}
	l.q = pool.Start(ctx, len(projects), workers, func(i int) {
		p := projects[i]
		dirs := make([]*dirData, 0, len(p.Dirs))
		for _, d := range p.Dirs {
			if err := ws.Load(ctx, d); err != nil {
				return // cancelled
			}
			dirs = append(dirs, newDirData(p, d, copts))
		}
		// Which dir Claude Code uses for the project's sessions reads
		// settings and .git files: here, off the UI thread.
		choice := ws.StoreChoice(p)
		select {
		case l.ch <- loadedMsg{gen: gen, idx: i, dirs: dirs, choice: choice}:
		case <-ctx.Done():
		}
	})
	go func() {
		l.q.Wait()
		select {
		case l.ch <- loadDoneMsg{gen: gen}:
		case <-ctx.Done():
		}
		close(l.ch)
	}()
	return l
}

// stop cancels the loader's reading; a nil loader is already stopped.
func (l *loader) stop() {
	if l != nil && l.cancel != nil {
		l.cancel()
	}
}

// prefer asks for project i to be read next (the user selected it).
func (l *loader) prefer(i int) {
	if l != nil && l.q != nil {
		l.q.Prefer(i)
	}
}

// next waits for the loader's next message. The root re-issues it after
// each one, so the results trickle into Update one at a time.
func (l *loader) next() tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-l.ch
		if !ok {
			return nil
		}
		return msg
	}
}

// reloadDirCmd reads one directory afresh into a new value (the current one
// may be on screen) and checks it.
func reloadDirCmd(ctx context.Context, gen, idx int, p *model.Project, old *model.MemoryDir, ws *app.Workspace, copts consolidate.Options) tea.Cmd {
	return func() tea.Msg {
		d := &model.MemoryDir{Path: old.Path, Kind: old.Kind, Agent: old.Agent}
		if err := ws.Load(ctx, d); err != nil {
			return dirReloadedMsg{gen: gen, idx: idx, path: old.Path, err: err}
		}
		return dirReloadedMsg{gen: gen, idx: idx, path: old.Path, dd: newDirData(p, d, copts)}
	}
}

// memType is how the memories pane groups a file.
type memType int

const (
	typeUser memType = iota
	typeFeedback
	typeProject
	typeReference
	typeUntyped
	typeInvalid
)

var memTypeNames = [...]string{"user", "feedback", "project", "reference", "untyped", "invalid frontmatter or type"}

func (t memType) String() string { return memTypeNames[t] }

// typeOf places a file in its group: its declared type, untyped when it
// declares none, invalid when the frontmatter cannot be read or the type is
// not one Claude Code knows.
func typeOf(doc model.Doc) memType {
	switch {
	case doc.Status == model.FMInvalid, doc.Status == model.FMUnclosed, doc.ClaudeSeesNone:
		// (ClaudeSeesNone: memtui recovers a type Claude Code never reads.)
		return typeInvalid
	}
	if doc.FM.TypeKey == "" {
		return typeUntyped
	}
	t, ok := model.ParseType(doc.FM.Type)
	if !ok {
		return typeInvalid
	}
	switch t {
	case model.TypeUser:
		return typeUser
	case model.TypeFeedback:
		return typeFeedback
	case model.TypeProject:
		return typeProject
	case model.TypeReference:
		return typeReference
	}
	return typeUntyped
}

// dirLabel names a memory store the way a person thinks of it.
func dirLabel(d *model.MemoryDir) string {
	switch d.Kind {
	case model.DirTeam:
		return "team memory"
	case model.DirAgentUser:
		return "agent " + d.Agent + " (user)"
	case model.DirAgentProject:
		return "agent " + d.Agent + " (project)"
	case model.DirAgentLocal:
		return "agent " + d.Agent + " (local)"
	case model.DirOverride:
		return "memory (autoMemoryDirectory)"
	case model.DirExplicit:
		return "memory (--memory-dir)"
	case model.DirRoot:
		return "memory (--memory-root)"
	}
	return "memory"
}

// worstOf is the highest severity among findings; ok is false for none.
func worstOf(fs []model.Finding) (model.Severity, bool) {
	w, ok := model.Info, false
	for _, f := range fs {
		if !ok || f.Severity > w {
			w, ok = f.Severity, true
		}
	}
	return w, ok
}

// memName is a file's display name: its frontmatter name, else its stem.
func memName(path string, doc model.Doc) string {
	if n := strings.TrimSpace(doc.FM.Name); n != "" {
		return n
	}
	return strings.TrimSuffix(path, ".md")
}

// sortedRules lists the distinct rules among findings with their counts.
func sortedRules(fs []model.Finding) ([]string, map[string]int) {
	counts := map[string]int{}
	for _, f := range fs {
		counts[f.Rule]++
	}
	rules := make([]string, 0, len(counts))
	for r := range counts {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	return rules, counts
}
