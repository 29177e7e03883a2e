package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
)

// projectsPane lists every project with its worst-severity badge and its
// number of memories, filled in as the loader gets to each. The number is
// of the files Claude Code's scan lists as memories; the files it never
// lists are counted in the project's summary in the preview, not here: at
// 80 columns a row has 29 cells, and "12 (+3 excluded)" would cut most
// names, while showing it only on the rows with room would make its
// absence read as "none".
type projectsPane struct {
	c        *shared
	projects []*projectData
	filter   string
	list     list
	focused  bool
	// scanned is set once discovery has listed the projects: an empty
	// list then means none, not "still looking".
	scanned bool
}

func newProjectsPane(c *shared) *projectsPane {
	p := &projectsPane{c: c}
	p.list.colKinds = []colKind{colMark, colNumber} // ✂, the memories
	return p
}

func (p *projectsPane) setProjects(ps []*projectData) {
	p.projects, p.scanned = ps, true
	p.rebuild()
}

// rebuild recomputes the rows, keeping the cursor on the same project.
func (p *projectsPane) rebuild() {
	cur := -1
	if r := p.list.selected(); r != nil {
		cur = r.ref
	}
	var idx []int
	if p.filter == "" {
		idx = make([]int, len(p.projects))
		for i := range idx {
			idx[i] = i
		}
	} else {
		names := make([]string, len(p.projects))
		for i, pd := range p.projects {
			names[i] = projectLabel(pd, p.c.home)
		}
		for _, m := range fuzzy.Find(p.filter, names) {
			idx = append(idx, m.Index)
		}
	}
	rows := make([]row, 0, len(idx))
	for _, i := range idx {
		rows = append(rows, p.row(i))
	}
	p.list.setRows(rows)
	if cur < 0 || !p.list.selectRef(cur) {
		p.list.clamp()
	}
}

// refresh redraws one project's row after it loaded.
func (p *projectsPane) refresh(i int) {
	for j := range p.list.rows {
		if p.list.rows[j].ref == i {
			p.list.setRow(j, p.row(i))
			return
		}
	}
}

// row is a project's row: its path (the last element kept whole when cut,
// as it names the project), and in columns the ✂ of a cut index and its
// number of memories.
func (p *projectsPane) row(i int) row {
	pd := p.projects[i]
	r := row{ref: i, left: projectLabel(pd, p.c.home), sev: -1, cut: cutKeepLast}
	count := ""
	switch {
	case !pd.loaded:
		r.badge = "…"
	case pd.hasWorst:
		r.badge, r.sev = sevSymbol(pd.worst), int(pd.worst)
		count = strconv.Itoa(pd.memories)
	default:
		r.badge = "✓"
		count = strconv.Itoa(pd.memories)
	}
	cut := ""
	if pd.cut {
		// The one problem worth seeing from the list: the agent is not
		// getting the whole index.
		cut = "✂"
	}
	r.cols = []string{cut, count}
	return r
}

// selected is the index of the project under the cursor, or -1.
func (p *projectsPane) selected() int {
	if r := p.list.selected(); r != nil {
		return r.ref
	}
	return -1
}

func (p *projectsPane) SetSize(w, h int) { p.list.setSize(w, h) }

func (p *projectsPane) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		listKeys(&p.list, p.c, k)
	}
	return nil
}

func (p *projectsPane) View() string {
	empty := "Looking for projects…"
	switch {
	case p.filter != "":
		empty = noMatch("project", p.filter, p.c.keys.Browse.Back)
	case p.scanned:
		empty = "No projects: Claude Code has no project with memory here yet (it keeps them under ~/.claude/projects/)."
	}
	return listPaneView(&p.list, p.c, p.focused, empty)
}

// listPaneView draws a list pane: the selection bright when the pane has
// focus, dimmer when not.
func listPaneView(l *list, c *shared, focused bool, empty string) string {
	sel := c.st.Selected
	if !focused {
		sel = c.st.SelectedBlur
	}
	return l.view(c.st.Item, sel, c.st.GroupHeader, c.st.Badge, empty)
}

func (p *projectsPane) scope() keymap.Scope { return keymap.ScopeBrowse }

func (p *projectsPane) ShortHelp() []key.Binding {
	k := p.c.keys
	return []key.Binding{k.Move.Up, k.Move.Down, k.Browse.Open, k.Browse.Filter}
}

// listKeys moves a list's cursor for the movement keys; it reports whether
// the key was one of them.
func listKeys(l *list, c *shared, k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, c.keys.Move.Up):
		l.move(-1)
	case key.Matches(k, c.keys.Move.Down):
		l.move(1)
	case key.Matches(k, c.keys.Move.PageUp):
		l.move(-max(l.height-1, 1))
	case key.Matches(k, c.keys.Move.PageDown):
		l.move(max(l.height-1, 1))
	case key.Matches(k, c.keys.Move.Top):
		l.top()
	case key.Matches(k, c.keys.Move.Bottom):
		l.bottom()
	default:
		return false
	}
	return true
}

// projectFindingsCount is shown in the memories pane's title.
func projectFindingsCount(pd *projectData) map[model.Severity]int {
	out := map[model.Severity]int{}
	for _, dd := range pd.dirs {
		for _, f := range dd.findings {
			out[f.Severity]++
		}
	}
	return out
}
