package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// rowOfMemory is the memories pane's row of the file whose path contains s.
func (d *driver) rowOfMemory(s string) (row, bool) {
	for _, r := range d.m.memories.list.rows {
		if r.header || r.ref < 0 || r.ref >= len(d.m.memories.items) {
			continue
		}
		if f := d.m.memories.items[r.ref].file; f != nil && strings.Contains(f.Path, s) {
			return r, true
		}
	}
	return row{}, false
}

// TestScanMarkers: the memories pane marks the files Claude Code's scan
// never offers to recall (dim, with ⊘), so they are not mistaken for
// memories the agent can recall, and the preview says why: a memory saved
// under sessions/ (excluded), and the oldest of 201 files (past the 200).
func TestScanMarkers(t *testing.T) {
	cfg, dir := demoConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-dotfiles", "memory")
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	// The dotfiles project has 4 memories: 197 more make 201, and the
	// oldest of them all is zz_oldest.md.
	for i := 0; i < 197; i++ {
		p := filepath.Join(mem, fmt.Sprintf("note_%03d.md", i))
		name := fmt.Sprintf("note-%03d", i)
		if i == 0 {
			p, name = filepath.Join(mem, "zz_oldest.md"), "zz-oldest"
		}
		if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: d\ntype: user\n---\n\nA fact.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if i == 0 {
			mod = base.AddDate(-1, 0, 0)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	// Wide enough that the preview's lines do not wrap.
	d := newDriver(t, cfg, 400, 60)
	top := func(project string) {
		d.m.setFocus(focusProjects)
		d.keys("g")
		d.selectProject(project)
	}

	for _, c := range []struct {
		project, file string
		preview       []string
	}{
		{"webshop", "sessions/feedback_cart_session_ttl", []string{"excluded-path: never scanned", "under sessions/, a folder the scan skips"}},
		{"dotfiles", "zz_oldest", []string{"past-200: never offered to recall", "lists 201 memory files here"}},
	} {
		top(c.project)
		d.keys("enter")
		d.selectMemory(c.file)
		r, ok := d.rowOfMemory(c.file)
		if !ok || !r.dim || !strings.HasPrefix(r.left, "⊘ ") {
			t.Errorf("%s: row %+v, want it dim and marked ⊘", c.file, r)
		}
		view := ansi.Strip(d.m.View().Content)
		if !strings.Contains(view, "⊘ ") {
			t.Errorf("%s: no ⊘ on screen:\n%s", c.file, view)
		}
		for _, want := range c.preview {
			if !strings.Contains(view, want) {
				t.Errorf("%s: the preview lacks %q:\n%s", c.file, want, view)
			}
		}
	}
	// A memory the scan offers is neither marked nor dim.
	top("dotfiles")
	if r, ok := d.rowOfMemory("note_196"); !ok || r.dim || strings.Contains(r.left, "⊘") {
		t.Errorf("note_196.md, the newest: row %+v", r)
	}
}

// TestProjectCountsOnlyMemories: a project's count in the projects pane,
// the memories pane's title and the project's summary is of the files
// Claude Code's scan lists as memories: webshop's 42 topic files include
// sessions/feedback_cart_session_ttl.md, a path the scan skips, so it has
// 41 (its store's header still counts the 42 files the pane lists). The
// summary says the skipped file is there and why it is not counted; a
// project with none says nothing of it.
func TestProjectCountsOnlyMemories(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 80, 30)
	d.selectProject("webshop")
	var line string
	for _, l := range strings.Split(d.screen(), "\n") {
		if strings.Contains(l, "~/webshop") {
			line = l
		}
	}
	if !strings.Contains(line, "✂ 41") || strings.Contains(line, "42") {
		t.Errorf("at 80 columns webshop's row is %q, want its 41 memories (42 files, one of them under sessions/)", line)
	}

	d.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	d.keys("enter")
	if out := d.screen(); !strings.Contains(out, "Memories (41)") || !strings.Contains(out, "42 files") {
		t.Errorf("webshop: want the title to count 41 memories and the store 42 files:\n%s", out)
	}
	// The summary shows when no memory is selected: a filter that
	// matches none.
	d.keys("/")
	d.typeText("zzzzzz")
	for _, want := range []string{"41 memories in 1 store ", "1 file not counted: Claude Code's scan never lists it as a memory (marked ⊘)"} {
		if out := d.screen(); !strings.Contains(out, want) {
			t.Errorf("webshop's summary lacks %q:\n%s", want, out)
		}
	}
	d.keys("esc")
	d.m.setFocus(focusProjects)
	d.keys("g")
	d.selectProject("blog")
	d.keys("enter", "/")
	d.typeText("zzzzzz")
	if out := d.screen(); !strings.Contains(out, "5 memories in ") || strings.Contains(out, "not counted") {
		t.Errorf("blog, every file a memory: the summary should count 5 and say nothing of files not counted:\n%s", out)
	}
}
