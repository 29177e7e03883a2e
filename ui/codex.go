package ui

import (
	"charm.land/lipgloss/v2"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
	"github.com/memtui/memtui/themes"
)

// Codex's store in the TUI (issue 17). A store is a row of the projects
// list, after Claude Code's projects and labelled with its agent; the
// memories pane lists it as app.CodexStore arranges it (the summary, the
// handbook's task groups, the notes, what Codex rebuilds), the preview
// renders an entry with what Codex does with it, and the summary opens
// in the codex summary view, as MEMORY.md opens in the index view.

// newCodexData is a project row for a read Codex store: loaded from the
// start (the store is read with the scan), no Claude Code directory.
func newCodexData(cx *app.CodexStore) *projectData {
	pd := &projectData{p: &model.Project{Slug: "codex", Root: cx.Store.Home}, cx: cx, loaded: true, cxdd: codexDirData(cx)}
	pd.summarize()
	return pd
}

// summarizeCodex fills the row's counts from the store.
func (pd *projectData) summarizeCodex() {
	cx := pd.cx
	pd.memories = cx.Memories()
	pd.findings = len(cx.Findings)
	pd.worst, pd.hasWorst = cx.Worst()
	// The one problem worth seeing from the list, as for an index: a
	// session does not get the whole summary.
	pd.cut = cx.Summary.Cut
}

// projectLabel names a row of the projects list: a Claude Code project by
// its path, a Codex store by its agent and home.
func projectLabel(pd *projectData, home string) string {
	if pd.cx != nil {
		return "codex · " + report.Tilde(pd.cx.Store.Home, home)
	}
	return report.Tilde(pd.p.Name(), home)
}

// rebuildCodex lists a Codex store: a heading per kind, then its
// entries; the handbook's task groups under MEMORY.md.
func (m *memoriesPane) rebuildCodex() {
	cx := m.pd.cx
	var rows []row
	var terms []string
	if m.filter != "" {
		terms = strings.Fields(strings.ToLower(m.filter))
	}
	for si := range cx.Sections {
		sec := &cx.Sections[si]
		var secRows []row
		for ei := range sec.Entries {
			e := &sec.Entries[ei]
			if terms != nil && !matchesAll(terms, e.Name, e.Path) {
				continue
			}
			m.items = append(m.items, memItem{dir: -1, ce: e})
			r := row{ref: len(m.items) - 1, left: safe.ShowLine(e.Name), cut: cutAtMiddle}
			r.badge, r.sev = sevBadge(e.Findings)
			switch {
			case e.Group != nil:
				r.left = "  " + r.left
				r.cols = []string{itoa(len(e.Group.Tasks)) + " " + model.Plural(len(e.Group.Tasks), "task", "tasks"), "", ""}
			case e.Kind == codex.KindSummary:
				r.cols = []string{summaryMeter(cx.Summary), age(m.c.now, e.File.ModTime), shortSize(e.File.Size)}
			default:
				r.cols = []string{"", age(m.c.now, e.File.ModTime), shortSize(e.File.Size)}
			}
			if e.ReadOnly != "" {
				r.dim = true
			}
			secRows = append(secRows, r)
		}
		if len(secRows) == 0 {
			continue
		}
		right := ""
		if n := len(secRows); sec.Kind != codex.KindSummary && sec.Kind != codex.KindHandbook {
			right = itoa(n)
		} else if sec.Kind == codex.KindHandbook {
			right = itoa(len(cx.Handbook.Groups)) + " task " + model.Plural(len(cx.Handbook.Groups), "group", "groups")
		}
		title := sec.Title
		rows = append(rows, row{header: true, left: strings.ToUpper(title[:1]) + title[1:], right: right})
		rows = append(rows, secRows...)
	}
	m.list.setRows(rows)
}

// summaryMeter is the summary's size against its cap in a few cells:
// "7.9K/10K", with ✂ when sessions get it cut.
func summaryMeter(l codex.Loaded) string {
	s := fmt.Sprintf("%.1fK/10K", float64(len(l.Trimmed))/1000)
	if l.Cut {
		s = "✂ " + s
	}
	return s
}

// codexPreview shows the selected entry of a Codex store, or the store's
// summary when none is selected.
func (m *Model) codexPreview(pd *projectData, it *memItem) tea.Cmd {
	cx := pd.cx
	width := max(m.preview.width-2, 10)
	if it == nil || it.ce == nil {
		m.preview.clear(codexSummaryText(m.c, cx))
		return nil
	}
	e := it.ce
	content := e.Text()
	lines := map[int]model.Severity{}
	from, _ := e.Lines()
	for _, f := range e.Findings {
		if f.Line > 0 {
			l := f.Line
			if from > 0 {
				l = f.Line - from + 1 // the block's own numbering
			}
			if f.Severity >= lines[l] {
				lines[l] = f.Severity
			}
		}
	}
	header := codexEntryHeader(m.c, cx, e, width)
	t := themes.For(m.dark, m.cfg.NoColor)
	k := renderKey{hash: contentHash(content), width: width, theme: t.Name, source: m.source}
	if m.source {
		k.hash ^= linesHash(lines)
	}
	if out, ok := m.renders[k]; ok {
		m.preview.show(header, out, k, false)
		return nil
	}
	m.preview.show(header, "", k, true)
	return renderCmd(renderInput{key: k, content: content, anchor: e.File.ModTime, theme: t,
		scanner: m.copts.Secrets, lines: lines, st: m.c.st})
}

// codexEntryHeader tops an entry's preview: what it is, where, what Codex
// does with it, whether memtui may edit it and why not, its findings.
func codexEntryHeader(c *shared, cx *app.CodexStore, e *app.CodexEntry, width int) string {
	st := c.st
	name := e.Path
	if e.Group != nil {
		name = "Task group: " + e.Name
	}
	lines := []string{st.Title.Render(ansi.Truncate(safe.ShowLine(name), width, "…"))}
	where := report.Tilde(filepath.Join(cx.Store.Root, filepath.FromSlash(e.Path)), c.home)
	if e.Group != nil {
		where += fmt.Sprintf(":%d-%d", e.Group.Line, e.Group.End)
	}
	lines = append(lines, st.Faint.Render(truncLeft(safe.ShowLine(where), width)))
	switch {
	case e.Kind == codex.KindSummary:
		lines = append(lines, summaryState(c, cx.Summary, width)...)
		lines = append(lines, wrapIn(st.Faint, "press "+key1(c.keys.Views.Index)+" to see it exactly as a Codex session loads it", width)...)
		// The summary is what the store's row opens on: where its
		// consolidation stands goes here.
		for _, l := range codexStatusLines(c, cx) {
			lines = append(lines, wrapIn(st.Item, l, width)...)
		}
	case e.Group != nil:
		g := e.Group
		if g.Scope != "" {
			lines = append(lines, wrapIn(st.Item, "scope: "+safe.ShowLine(g.Scope), width)...)
		}
		if g.AppliesTo != "" {
			lines = append(lines, wrapIn(st.Item, "applies to: "+safe.ShowLine(g.AppliesTo), width)...)
		}
		lines = append(lines, wrapIn(st.Faint, groupEvidence(cx, g), width)...)
	case e.Kind == codex.KindRollout:
		rs := codex.ParseRolloutSummary(e.File.Content)
		if rs.Cwd != "" {
			lines = append(lines, wrapIn(st.Item, "from a session in "+safe.ShowLine(report.Tilde(rs.Cwd, c.home))+dateOf(rs.UpdatedAt), width)...)
		}
	case e.Kind == codex.KindNote:
		lines = append(lines, wrapIn(st.Faint, "a note for Codex's next consolidation, which folds it into the handbook and the summary and never deletes it", width)...)
	}
	switch {
	case e.ReadOnly != "":
		lines = append(lines, wrapIn(st.Sev[model.Info], "read-only: "+e.ReadOnly, width)...)
	case cx.Busy() != "":
		lines = append(lines, wrapIn(st.Sev[model.Warning], "read-only now: "+cx.Busy(), width)...)
	}
	lines = append(lines, findingLines(c, e.Findings, width)...)
	lines = append(lines, st.Faint.Render(strings.Repeat("─", max(width, 1))))
	for i, ln := range lines {
		lines[i] = ansi.Truncate(ln, width, "…")
	}
	return strings.Join(lines, "\n")
}

// dateOf is ", on <date>" for a timestamp Codex wrote ("" when it does
// not parse).
func dateOf(ts string) string {
	if t, err := time.Parse(time.RFC3339, strings.TrimSpace(ts)); err == nil {
		return ", " + t.UTC().Format("2006-01-02")
	}
	return ""
}

// groupEvidence says where a task group's memories come from: its tasks'
// rollout summaries and the working directories they name.
func groupEvidence(cx *app.CodexStore, g *codex.TaskGroup) string {
	n, cwds := 0, map[string]bool{}
	var order []string
	for _, t := range g.Tasks {
		for _, r := range t.Rollouts {
			n++
			// The cwds were read from the summaries when the store loaded.
			cwd, _ := codex.RefCwd(r, cx.Cited)
			if cwd != "" && !cwds[cwd] {
				cwds[cwd] = true
				order = append(order, cwd)
			}
		}
	}
	s := fmt.Sprintf("%d %s, from %d rollout %s", len(g.Tasks), model.Plural(len(g.Tasks), "task", "tasks"), n, model.Plural(n, "summary", "summaries"))
	if len(order) > 0 {
		s += " in " + safe.ShowLine(strings.Join(order, ", "))
	}
	return s
}

// summaryVerdict is how a session gets the summary, in a few words and
// the style to draw them in: the one verdict the browse preview and the
// index view's header give.
func summaryVerdict(c *shared, l codex.Loaded) (string, lipgloss.Style) {
	st := c.st
	switch {
	case l.Empty:
		return "✗ missing: sessions get no memory section at all", st.Sev[model.Error]
	case l.Cut:
		return fmt.Sprintf("✗ cut: %d bytes in the middle never reach a session", l.Removed()), st.Sev[model.Error]
	case l.NearCap():
		return "▲ near the cap", st.Sev[model.Warning]
	}
	return "✓ loads whole", st.OK
}

// summaryState says how a session gets the summary, in one or two lines.
func summaryState(c *shared, l codex.Loaded, width int) []string {
	size := fmt.Sprintf("%d/10,000 bytes · %d/2,500 tokens", len(l.Trimmed), codex.Tokens(len(l.Trimmed)))
	state, stateSt := summaryVerdict(c, l)
	if l.Empty {
		size = "missing or blank"
	}
	if ansi.StringWidth(size+"  "+state) <= width {
		return []string{size + "  " + stateSt.Render(state)}
	}
	return append([]string{size}, wrapIn(stateSt, state, width)...)
}

// codexSummaryText is the preview of a Codex store with nothing selected
// in it: what it holds, and what Codex does with it.
func codexSummaryText(c *shared, cx *app.CodexStore) string {
	var b strings.Builder
	s := cx.Store
	b.WriteString("OpenAI Codex · " + safe.ShowLine(report.Tilde(s.Home, c.home)) + "\n\n")
	if !s.Exists {
		b.WriteString("No memories/ folder: Codex has generated no memory here yet.\n")
	}
	counts := map[model.Severity]int{}
	for _, f := range cx.Findings {
		counts[f.Severity]++
	}
	fmt.Fprintf(&b, "%d task %s and %d %s · %d errors, %d warnings, %d info\n",
		len(cx.Handbook.Groups), model.Plural(len(cx.Handbook.Groups), "group", "groups"),
		cx.Memories()-len(cx.Handbook.Groups), model.Plural(cx.Memories()-len(cx.Handbook.Groups), "note", "notes"),
		counts[model.Error], counts[model.Warning], counts[model.Info])
	b.WriteString("\nOne global store for every project: each session gets memory_summary.md whatever its working directory, and reads MEMORY.md, the skills and the rollout summaries when it needs them. A memory no session cites is forgotten some 30 days after its session.\n")
	for _, l := range codexStatusLines(c, cx) {
		b.WriteString("\n" + l + "\n")
	}
	if why := cx.Busy(); why != "" {
		b.WriteString("\nRead-only now: " + why + ".\n")
	}
	switch {
	case !s.ConfigFound:
		b.WriteString("\nMemories are off by default and there is no config.toml to turn them on: Codex neither writes nor reads this store.\n")
	case !s.Config.Enabled:
		b.WriteString("\nMemories are off in config.toml: Codex neither writes nor reads this store.\n")
	}
	return b.String()
}

// codexSelection is the Codex store under the projects cursor and the
// entry under the memories cursor (nil for none); pd is nil when the
// cursor is on no Codex store.
func (m *Model) codexSelection() (*projectData, *memItem) {
	pi := m.projects.selected()
	if pi < 0 || pi >= len(m.data) || m.data[pi].cx == nil {
		return nil, nil
	}
	it := m.memories.selectedItem()
	if it != nil && it.ce == nil {
		it = nil
	}
	return m.data[pi], it
}

// codexLine is a task group's header line (0 for a whole file).
func codexLine(e *app.CodexEntry) int {
	if e.Group != nil {
		return e.Group.Line
	}
	return 0
}

// selectCodex moves the cursor to a Codex store's entry: the file at
// rel, or with group set, the task group of the handbook holding line
// (the one starting at it after a reload). It reports whether one was
// found.
func (m *memoriesPane) selectCodex(rel string, group bool, line int) bool {
	best := -1
	for i, it := range m.items {
		e := it.ce
		if e == nil || e.Path != rel || (e.Group != nil) != group {
			continue
		}
		if !group {
			return m.list.selectRef(i)
		}
		if line >= e.Group.Line && line <= e.Group.End {
			best = i
		}
	}
	return best >= 0 && m.list.selectRef(best)
}

// jumpCodex goes from a finding on a Codex store to its file and line;
// ok is false when no store shown holds it.
func (m *Model) jumpCodex(f model.Finding) (tea.Cmd, bool) {
	for pi, pd := range m.data {
		if pd.cx == nil || pd.cx.Store.Root != f.MemoryDir {
			continue
		}
		m.projects.filter, m.memories.filter = "", ""
		m.projects.rebuild()
		m.projects.list.selectRef(pi)
		m.memories.setProject(pd)
		m.shownProject = pi
		if f.File == codex.SummaryFile && pd.cx.Store.File(f.File) != nil {
			m.memories.selectCodex(f.File, false, 0)
			return m.openCodexSummary(pd, f.Line), true
		}
		found := f.File == codex.HandbookFile && f.Line > 0 && m.memories.selectCodex(f.File, true, f.Line)
		if !found && f.File != "" {
			found = m.memories.selectCodex(f.File, false, 0)
		}
		if found {
			m.setFocus(focusPreview)
			if f.Line > 0 {
				m.source = true
				line := f.Line
				if it := m.memories.selectedItem(); it != nil && it.ce != nil && it.ce.Group != nil {
					line = f.Line - it.ce.Group.Line + 1
				}
				m.preview.gotoLine = line
			}
		} else {
			m.setFocus(focusMemories)
			if f.File != "" {
				m.status = f.File + " is not a file memtui can show; it is in " + report.Tilde(f.MemoryDir, m.c.home)
			}
		}
		m.show(viewBrowse)
		return m.requestPreview(true), true
	}
	return nil, false
}

// claudeProjects counts the rows of the projects list that are Claude
// Code's projects (the loader reads them; Codex's stores come read).
func (m *Model) claudeProjects() int {
	n := 0
	for _, pd := range m.data {
		if pd.cx == nil {
			n++
		}
	}
	return n
}

// storesCount says what the projects list holds: "9 projects", and with
// codex "· 1 Codex store" when there is one.
func (m *Model) storesCount(codex bool) string {
	n := m.claudeProjects()
	s := fmt.Sprintf("%d %s", n, model.Plural(n, "project", "projects"))
	if c := len(m.data) - n; c > 0 && codex {
		s += fmt.Sprintf(" · %d Codex %s", c, model.Plural(c, "store", "stores"))
	}
	return s
}

// codexReloadedMsg is a Codex store read again after a change on disk.
type codexReloadedMsg struct {
	gen, idx int
	cx       *app.CodexStore
}

// reloadCodexCmd reads the store of the Codex home of row idx afresh.
func reloadCodexCmd(ctx context.Context, gen, idx int, home string, ws *app.Workspace) tea.Cmd {
	return func() tea.Msg {
		s, err := memfs.LoadCodex(ctx, home, ws.ScanOpts)
		if err != nil {
			return nil // cancelled
		}
		return codexReloadedMsg{gen: gen, idx: idx, cx: app.NewCodexStore(s, app.CodexFindings([]*codex.Store{s}, ws.CheckOpts))}
	}
}

// onCodexReloaded shows a store read again: its row, its list, its
// findings, the summary view when it shows this store.
func (m *Model) onCodexReloaded(msg codexReloadedMsg) tea.Cmd {
	if msg.gen != m.gen || msg.idx >= len(m.data) || m.data[msg.idx].cx == nil || m.data[msg.idx].cx.Store.Home != msg.cx.Store.Home {
		return nil
	}
	pd := m.data[msg.idx]
	old := pd.cx
	pd.cx, pd.cxdd = msg.cx, codexDirData(msg.cx)
	pd.summarize()
	m.projects.refresh(msg.idx)
	m.codex = m.codex[:0]
	for _, d := range m.data {
		if d.cx != nil {
			m.codex = append(m.codex, d.cx.Findings...)
		}
	}
	if m.view == viewIndex && m.index.cx == old {
		off := m.index.vp.YOffset()
		m.index.cx = msg.cx
		m.index.build()
		m.index.vp.SetYOffset(off)
	}
	if m.watcher != nil {
		m.watchCodex(pd)
	}
	var cmd tea.Cmd
	if m.projects.selected() == msg.idx {
		m.memories.setProject(pd)
		cmd = m.requestPreview(false)
	}
	return tea.Batch(cmd, m.dataChanged())
}

// watchCodex watches a Codex store's folders (fsnotify watches one
// folder, not a tree): its home, to see memories/ appear, the root and
// every folder holding one of its files.
func (m *Model) watchCodex(pd *projectData) {
	s := pd.cx.Store
	dirs := []string{s.Home, s.Root}
	seen := map[string]bool{}
	for _, f := range s.Files {
		if d := filepath.Dir(filepath.Join(s.Root, filepath.FromSlash(f.Path))); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	// The notes' folder, which a session writes into, even before it
	// holds one.
	dirs = append(dirs, filepath.Join(s.Root, filepath.FromSlash(strings.TrimSuffix(codex.NotesDir, "/"))))
	for _, d := range dirs {
		if err := m.watcher.Add(d); errors.Is(err, memfs.ErrWatchLimit) {
			m.watchMsg = fmt.Sprintf("watching the first %d directories; press %s for the rest", m.cfg.WatchLimit, key1(m.c.keys.Global.Refresh))
			return
		}
	}
}

// codexChanged is the command reading again the Codex store a changed
// folder belongs to; ok is false when p is in no store's home.
func (m *Model) codexChanged(p string) (tea.Cmd, bool) {
	for i, pd := range m.data {
		if pd.cx == nil {
			continue
		}
		home := pd.cx.Store.Home
		if p == home || strings.HasPrefix(p, pd.cx.Store.Root+string(filepath.Separator)) || p == pd.cx.Store.Root {
			return reloadCodexCmd(m.ctx, m.gen, i, home, m.ws), true
		}
	}
	return nil, false
}

// codexDirData is the stand-in of a Codex store in the views that list
// by directory (the proposals view): its root and files as read.
// MEMORY.md is its Index, as a memory dir's (the views read it there).
func codexDirData(cx *app.CodexStore) *dirData {
	d := &model.MemoryDir{Path: cx.Store.Root, Exists: cx.Store.Exists}
	for _, f := range cx.Store.Files {
		if f.Path == codex.HandbookFile {
			d.Index = f
		} else {
			d.Files = append(d.Files, f)
		}
	}
	return &dirData{d: d, byFile: map[string][]model.Finding{}}
}

// rebuildCodexProjects lists a Codex store by project: each project with
// the task groups that belong to it (placed by where their sessions ran;
// "≈" when only applies_to says so) and the summary's scopes naming it,
// then the global ones, which every session reads whatever its project.
func (m *memoriesPane) rebuildCodexProjects() {
	cx := m.pd.cx
	var rows []row
	var terms []string
	if m.filter != "" {
		terms = strings.Fields(strings.ToLower(m.filter))
	}
	for _, p := range cx.Projects {
		head := row{header: true, left: p.Name(), right: safe.ShowLine(report.Tilde(p.Root, m.c.home))}
		if p.Root == codex.GlobalProject {
			head = row{header: true, left: "Global", right: "no one project"}
		}
		var prow []row
		for _, g := range p.Groups {
			e, ok := cx.GroupEntry(g.Line)
			if !ok || terms != nil && !matchesAll(terms, e.Name, p.Root) {
				continue
			}
			m.items = append(m.items, memItem{dir: -1, ce: e})
			// Under its project's heading a title need not repeat its path
			// ("/work/shop checkout" reads "checkout").
			name := e.Name
			if rest, ok := strings.CutPrefix(name, p.Root+" "); ok && p.Root != codex.GlobalProject && strings.TrimSpace(rest) != "" {
				name = strings.TrimSpace(rest)
			}
			r := row{ref: len(m.items) - 1, left: "  " + safe.ShowLine(name), cut: cutAtMiddle}
			r.badge, r.sev = sevBadge(e.Findings)
			where := ""
			switch {
			case g.Fuzzy:
				where = "≈ applies_to"
			case g.Why != "":
				where = "spans several"
			}
			r.cols = []string{where, itoa(len(e.Group.Tasks)) + " " + model.Plural(len(e.Group.Tasks), "task", "tasks")}
			prow = append(prow, r)
		}
		if terms == nil && len(p.Scopes) > 0 {
			n := len(p.Scopes)
			prow = append(prow, row{header: true, left: fmt.Sprintf("    + %d %s in memory_summary.md", n, model.Plural(n, "scope", "scopes"))})
		}
		if len(prow) == 0 {
			continue
		}
		rows = append(rows, head)
		rows = append(rows, prow...)
	}
	m.list.setRows(rows)
}

// codexStatusLines say where the store's consolidation stands, from
// Codex's database and its git baseline: the last one and its cooldown,
// one running, failed or queued; the edits its next one will see; what
// it will forget soon.
func codexStatusLines(c *shared, cx *app.CodexStore) []string {
	s := cx.Store
	now := c.clock()
	var out []string
	if s.DB != nil && s.DB.Found {
		st := codex.Status(s.DB, now)
		switch {
		case st.LeaseHeld:
			out = append(out, "A consolidation is running now (its lease is held): the store is read-only until it ends.")
		case st.Failed:
			out = append(out, "The last consolidation failed: "+safe.ShowLine(st.Job.LastError))
		case !st.LastSuccess.IsZero():
			l := "Last consolidated " + ago(now, st.LastSuccess) + " (" + codex.Stamp(st.LastSuccess) + ")"
			if st.CooldownLeft > 0 {
				l += fmt.Sprintf("; Codex runs none for %s more", st.CooldownLeft.Round(time.Minute))
			}
			out = append(out, l+".")
		case st.NeverRan:
			out = append(out, "No consolidation has run yet.")
		}
		if n := len(st.Stage1Exhausted); n > 0 {
			out = append(out, fmt.Sprintf("%d %s never memorized: %s extraction failed with no retries left.", n, model.Plural(n, "session is", "sessions are"), model.Plural(n, "its", "their")))
		}
		soon, never := 0, 0
		for _, f := range codex.Forecast(s.DB, s.Config, now) {
			if !f.Cited {
				never++
			}
			if f.Stale || f.ForgetAt.Sub(now) <= 7*24*time.Hour {
				soon++
			}
		}
		if soon+never > 0 {
			out = append(out, fmt.Sprintf("%d %s forgotten within 7 days; %d never cited by any session (citing is the only use Codex counts).", soon, model.Plural(soon, "memory is", "memories are"), never))
		}
	} else if s.Exists {
		out = append(out, "Codex's database was not read: no use counts, forecast or consolidation state.")
	}
	if b := s.Baseline; b != nil && b.Found {
		if n := len(cx.Pending); n > 0 {
			out = append(out, fmt.Sprintf("%d %s changed since Codex's last consolidation (its baseline of %s): its next run takes %s as the person's.", n, model.Plural(n, "file", "files"), codex.Day(b.Time), model.Plural(n, "it", "them")))
		} else {
			out = append(out, "Nothing changed since Codex's last consolidation (its baseline of "+codex.Day(b.Time)+").")
		}
	}
	return out
}
