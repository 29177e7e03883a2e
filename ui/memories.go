package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/memtui/memtui/model"
)

// memItem is one selectable entry of the memories pane: a topic file, or a
// directory's MEMORY.md (file nil).
type memItem struct {
	dir  int
	file *model.File
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
	if same && (keep.file != nil || keep.dir >= 0) {
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
			sort.SliceStable(fs, func(i, j int) bool {
				return strings.ToLower(memName(fs[i].Path, dd.docs[fs[i].Path])) < strings.ToLower(memName(fs[j].Path, dd.docs[fs[j].Path]))
			})
			rows = append(rows, row{header: true, left: "  " + t.String(), right: itoa(len(fs))})
			for _, f := range fs {
				m.items = append(m.items, memItem{dir: di, file: f})
				r := row{ref: len(m.items) - 1, left: memName(f.Path, dd.docs[f.Path])}
				r.badge, r.sev = sevBadge(dd.byFile[f.Path])
				mod := dd.docs[f.Path].FM.ModifiedTime
				if mod.IsZero() {
					mod = f.ModTime
				}
				r.right = age(m.c.now, mod) + " " + shortSize(f.Size)
				rows = append(rows, r)
			}
		}
	}
	m.list.setRows(rows)
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
	empty := "Select a project."
	switch {
	case m.pd != nil && !m.pd.loaded:
		empty = "Reading this project…"
	case m.filter != "":
		empty = "No memory matches “" + m.filter + "”."
	case m.pd != nil:
		empty = "This project has no memory directory."
	}
	return listPaneView(&m.list, m.c, m.focused, empty)
}

func (m *memoriesPane) ShortHelp() []key.Binding {
	k := m.c.keys
	return []key.Binding{k.Up, k.Down, k.Back, k.Index, k.Edit, k.Filter}
}

func (m *memoriesPane) FullHelp() [][]key.Binding {
	k := m.c.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Open, k.Back, k.Index, k.Edit, k.Filter}}
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
