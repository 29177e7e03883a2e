package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
)

// memItem is one selectable entry of the memories pane: a topic file, or a
// directory's MEMORY.md (file nil).
type memItem struct {
	dir  int
	file *model.File
	// ce, in a Codex store's list, is the entry (dir is -1, file nil).
	ce *app.CodexEntry
}

// memoriesPane lists the selected project's memories: each store (memory,
// team, each subagent's) under its own heading, and within it the index
// first, then the files grouped by type.
type memoriesPane struct {
	c       *shared
	pd      *projectData
	items   []memItem
	filter  string
	list    list
	focused bool
	// sortBy orders each type's memories: by name, by use, by modified.
	sortBy memSort
	// byProject lists a Codex store's task groups by the project they
	// belong to instead of its files by kind (the sort key toggles it).
	byProject bool
}

// memSort is the memories pane's order within a type.
type memSort int

const (
	sortName memSort = iota
	sortUse
	sortModified
)

func (s memSort) String() string {
	return [...]string{"by name", "by use", "by modified"}[s]
}

func newMemoriesPane(c *shared) *memoriesPane { return &memoriesPane{c: c} }

// setProject shows pd (nil for none), keeping the cursor on the same file
// when pd is the project already shown (a reload).
func (m *memoriesPane) setProject(pd *projectData) {
	same := pd == m.pd
	var keep memItem
	if it := m.selectedItem(); same && it != nil {
		keep = *it
	}
	m.pd = pd
	if !same {
		m.filter = ""
		m.list.cursor, m.list.offset = 0, 0
	}
	m.rebuild()
	switch {
	case same && keep.ce != nil:
		m.selectCodex(keep.ce.Path, keep.ce.Group != nil, codexLine(keep.ce))
	case same && (keep.file != nil || keep.dir >= 0):
		m.selectFile(keep.dir, keep.file)
	}
}

func (m *memoriesPane) rebuild() {
	m.items = m.items[:0]
	var rows []row
	if m.pd == nil || !m.pd.loaded {
		m.list.setRows(nil)
		return
	}
	if m.pd.cx != nil && m.byProject {
		m.rebuildCodexProjects()
		return
	}
	if m.pd.cx != nil {
		m.rebuildCodex()
		return
	}
	var match map[string]bool
	if m.filter != "" {
		var names []string
		var keys []string
		for _, dd := range m.pd.dirs {
			for _, f := range dd.d.Files {
				names = append(names, memName(f.Path, dd.docs[f.Path])+" "+f.Path)
				keys = append(keys, dd.d.Path+"\x00"+f.Path)
			}
		}
		match = map[string]bool{}
		for _, r := range fuzzy.Find(m.filter, names) {
			match[keys[r.Index]] = true
		}
	}
	for di, dd := range m.pd.dirs {
		d := dd.d
		head := dirLabel(d)
		right := itoa(len(d.Files)) + " files"
		if !d.Exists {
			right = "not created yet"
		}
		rows = append(rows, row{header: true, left: strings.ToUpper(head[:1]) + head[1:], right: right})
		if hasGate(dd) && m.filter == "" {
			rows = append(rows, row{header: true, left: "  " + dreamLast(m.c, dd), right: gateCell(m.c, dd)})
		}
		if d.Index != nil && m.filter == "" {
			m.items = append(m.items, memItem{dir: di})
			r := row{ref: len(m.items) - 1, left: "MEMORY.md", sev: -1}
			r.badge, r.sev = sevBadge(dd.byFile["MEMORY.md"])
			if l := dd.load; l != nil {
				r.right = itoa(l.LineCount) + "/200"
				if l.Truncated() {
					r.right = "✂ " + r.right
				}
			}
			rows = append(rows, r)
		}
		groups := map[memType][]*model.File{}
		for _, f := range d.Files {
			if match != nil && !match[d.Path+"\x00"+f.Path] {
				continue
			}
			t := typeOf(dd.docs[f.Path])
			groups[t] = append(groups[t], f)
		}
		for t := typeUser; t <= typeInvalid; t++ {
			fs := groups[t]
			if len(fs) == 0 {
				continue
			}
			m.sortFiles(dd, t, fs)
			rows = append(rows, row{header: true, left: "  " + t.String(), right: itoa(len(fs))})
			names := groupNames(dd, t, fs)
			for i, f := range fs {
				m.items = append(m.items, memItem{dir: di, file: f})
				r := row{ref: len(m.items) - 1, left: names[i], cut: cutAtMiddle}
				if mark := scanMark(f); mark != "" {
					// Claude Code's scan never offers it to recall (or
					// nobody can tell): dim, marked, and said why in the
					// preview.
					r.left, r.dim = mark+" "+r.left, true
				}
				r.badge, r.sev = sevBadge(dd.byFile[f.Path])
				// Uses ("" before the transcripts are read: the column
				// then takes no room), age, size.
				r.cols = []string{heatCell(dd, f.Path), age(m.c.now, modified(dd, f)), shortSize(f.Size)}
				rows = append(rows, r)
			}
		}
	}
	m.list.setRows(rows)
}

// typeSeparators may join a type's name to the rest of a memory's name
// ("feedback_deploy_window", "feedback-deploy-window").
const typeSeparators = "-_ .:"

// shortName is a memory's name under its type's heading: without the
// type's name in front ("feedback_deploy_window" under feedback reads
// "deploy_window"), which every row of the group would repeat, using up
// the cells that tell the rows apart. A name that is only the type stays
// whole; so do the names of the untyped and of the invalid, which have no
// type to repeat.
func shortName(name string, t memType) string {
	if t > typeReference {
		return name
	}
	p := t.String()
	if len(name) <= len(p) || !strings.EqualFold(name[:len(p)], p) || !strings.ContainsRune(typeSeparators, rune(name[len(p)])) {
		return name
	}
	if rest := strings.TrimLeft(name[len(p):], typeSeparators); rest != "" {
		return rest
	}
	return name
}

// groupNames are the names of one type's memories as their rows show
// them (shortName), so that no two rows look alike: two memories whose
// short names would read the same ("feedback-deploy" and "deploy", both
// feedback) keep their whole names, and two that declare the same name
// show their file names instead, which cannot be the same.
func groupNames(dd *dirData, t memType, fs []*model.File) []string {
	full := make([]string, len(fs))
	short := make([]string, len(fs))
	fullN, shortN := map[string]int{}, map[string]int{}
	for i, f := range fs {
		full[i] = memName(f.Path, dd.docs[f.Path])
		fullN[full[i]]++
	}
	for i, f := range fs {
		if fullN[full[i]] > 1 {
			full[i] = strings.TrimSuffix(f.Path, ".md")
		}
		short[i] = shortName(full[i], t)
		shortN[short[i]]++
	}
	for i := range fs {
		if shortN[short[i]] > 1 {
			short[i] = full[i]
		}
	}
	return short
}

// scanMark marks a file Claude Code's scan does not offer to recall: ⊘ when
// it never does (an excluded path, past the newest 200, a link the scan
// does not follow), ◌ when nobody can tell (tied at the 200th place); ""
// for a file it offers.
func scanMark(f *model.File) string {
	switch f.Scan {
	case model.ScanIn:
		return ""
	case model.ScanTie:
		return "◌"
	}
	return "⊘"
}

// scanNote says in words what Claude Code's scan makes of a file it does
// not offer to recall (its reason word first, as `memtui ls` prints it);
// "" for a file it offers.
func scanNote(dd *dirData, f *model.File) string {
	word := string(f.Scan)
	switch f.Scan {
	case model.ScanIn:
		return ""
	case model.ScanPastCap:
		return fmt.Sprintf("%s: never offered to recall; Claude Code's scan lists %d memory files here and offers only the newest %d by mtime", word, dd.d.ScanListed, model.RecallScanCap)
	case model.ScanTie:
		return fmt.Sprintf("%s: maybe offered to recall; its mtime is that of the 200th newest of %d memory files, and the scan keeps such files in the folder listing's order", word, dd.d.ScanListed)
	}
	if f.ScanWhy != "" {
		return word + ": never scanned, so not a memory to Claude Code; " + f.ScanWhy
	}
	return word + ": never scanned, so not a memory to Claude Code"
}

// modified is when a memory last changed: metadata.modified, else mtime.
func modified(dd *dirData, f *model.File) time.Time {
	if t := dd.docs[f.Path].FM.ModifiedTime; !t.IsZero() {
		return t
	}
	return f.ModTime
}

// sortFiles orders one type's memories. By use, the most used come first
// and ties (the never used, above all) fall back to the name as shown
// under the type's heading, so pruning can tell "rarely" from "never"; by
// modified, the newest first.
func (m *memoriesPane) sortFiles(dd *dirData, t memType, fs []*model.File) {
	name := func(f *model.File) string {
		full := memName(f.Path, dd.docs[f.Path])
		return strings.ToLower(shortName(full, t)) + "\x00" + strings.ToLower(full)
	}
	sort.SliceStable(fs, func(i, j int) bool {
		switch m.sortBy {
		case sortUse:
			if a, b := dd.heat[fs[i].Path].Uses(), dd.heat[fs[j].Path].Uses(); a != b {
				return a > b
			}
		case sortModified:
			if a, b := modified(dd, fs[i]), modified(dd, fs[j]); !a.Equal(b) {
				return a.After(b)
			}
		}
		return name(fs[i]) < name(fs[j])
	})
}

// cycleSort moves to the next order, keeping the cursor on its memory.
func (m *memoriesPane) cycleSort() {
	m.sortBy = (m.sortBy + 1) % 3
	var keep memItem
	it := m.selectedItem()
	if it != nil {
		keep = *it
	}
	m.rebuild()
	if it != nil {
		m.selectFile(keep.dir, keep.file)
	}
}

// dreamLast says briefly when a directory was last consolidated.
func dreamLast(c *shared, dd *dirData) string {
	if dd.gate.LastConsolidated.IsZero() {
		return "never consolidated"
	}
	return "consolidated " + ago(c.clock(), dd.gate.LastConsolidated)
}

// selectedItem is the entry under the cursor, or nil.
func (m *memoriesPane) selectedItem() *memItem {
	r := m.list.selected()
	if r == nil || r.ref < 0 || r.ref >= len(m.items) {
		return nil
	}
	return &m.items[r.ref]
}

// selectFile moves the cursor to a directory's file (nil: its index).
func (m *memoriesPane) selectFile(dir int, f *model.File) bool {
	for i, it := range m.items {
		if it.dir != dir {
			continue
		}
		if f == nil && it.file == nil || f != nil && it.file != nil && it.file.Path == f.Path {
			return m.list.selectRef(i)
		}
	}
	return false
}

// selectPath moves the cursor to the file at a path relative to dir.
func (m *memoriesPane) selectPath(dir int, path string) bool {
	if path == "MEMORY.md" {
		return m.selectFile(dir, nil)
	}
	return m.selectFile(dir, &model.File{Path: path})
}

func (m *memoriesPane) SetSize(w, h int) { m.list.setSize(w, h) }

func (m *memoriesPane) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		listKeys(&m.list, m.c, k)
	}
	return nil
}

func (m *memoriesPane) View() string {
	m.list.dim = m.c.st.Faint
	empty := "Select a project."
	switch {
	case m.pd != nil && !m.pd.loaded:
		empty = "Reading this project…"
	case m.filter != "":
		empty = noMatch("memory", m.filter, m.c.keys.Browse.Back)
	case m.pd != nil && len(m.pd.dirs) == 0:
		empty = "This project has no memory directory."
	case m.pd != nil:
		empty = "No memories yet: Claude Code saves one here when a session learns something worth keeping."
	}
	return listPaneView(&m.list, m.c, m.focused, empty)
}

func (m *memoriesPane) scope() keymap.Scope { return keymap.ScopeBrowse }

func (m *memoriesPane) ShortHelp() []key.Binding {
	k := m.c.keys
	return []key.Binding{k.Move.Up, k.Move.Down, k.Browse.Back, k.Views.Index, k.Browse.Edit, k.Browse.Filter, k.Browse.Sort}
}

// shortSize is a file size in at most five cells: 539B, 2.1K, 14K, 1.2M.
func shortSize(n int64) string {
	switch {
	case n < 1000:
		return itoa(int(n)) + "B"
	case n < 10*1024:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	case n < 1000*1024:
		return itoa(int(n/1024)) + "K"
	}
	return fmt.Sprintf("%.1fM", float64(n)/(1024*1024))
}
