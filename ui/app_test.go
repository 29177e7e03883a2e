package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/internal/pool"
)

// selectProject moves the projects cursor to the project whose name
// contains s.
func (d *driver) selectProject(s string) {
	d.t.Helper()
	d.m.setFocus(focusProjects)
	for i := 0; i < len(d.m.data)+1; i++ {
		if pd := d.m.selectedProject(); pd != nil && strings.Contains(pd.p.Name(), s) {
			return
		}
		d.keys("j")
	}
	d.t.Fatalf("no project matching %q", s)
}

// selectMemory moves the memories cursor to the file whose name contains s.
func (d *driver) selectMemory(s string) {
	d.t.Helper()
	d.m.memories.list.top()
	d.run(d.m.syncSelection())
	for i := 0; i < len(d.m.memories.list.rows)+1; i++ {
		if it := d.m.memories.selectedItem(); it != nil && it.file != nil && strings.Contains(it.file.Path, s) {
			return
		}
		d.m.memories.list.move(1)
		d.run(d.m.syncSelection())
	}
	d.t.Fatalf("no memory matching %q", s)
}

func TestFirstFrameComesBeforeTheScan(t *testing.T) {
	cfg, _ := demoConfig(t)
	m := New(cfg)
	defer m.Close()
	m.Init() // discovery is a Cmd: not run here
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	out := ansi.Strip(m.View().Content)
	if !strings.Contains(out, "looking for projects") || !strings.Contains(out, "Projects (0)") {
		t.Fatalf("the first frame must draw at once, saying it is looking:\n%s", out)
	}
	if !m.View().AltScreen || m.View().MouseMode != tea.MouseModeCellMotion {
		t.Error("the TUI must use the alternate screen and the mouse")
	}
}

// Projects are listed as soon as discovery returns, each with a pending
// badge, and fill in with counts as the loader reaches them.
func TestProjectsFillInAsTheyLoad(t *testing.T) {
	cfg, _ := demoConfig(t)
	m := New(cfg)
	defer m.Close()
	m.Init() // its discovery is run by hand below
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	scan := discoverCmd(m.ctx, m.gen, cfg.Workspace)().(scanMsg)
	_, next := m.Update(scan)
	out := ansi.Strip(m.View().Content)
	if !strings.Contains(out, "… ~/acme-api") || !strings.Contains(out, "reading 0/9 projects") {
		t.Fatalf("before loading, projects show with a pending badge:\n%s", out)
	}
	d := &driver{t: t, m: m}
	d.run(next)
	out = d.screen()
	for _, want := range []string{"✗ ~/acme-api", "92", "✓ ~/blog"} {
		if !strings.Contains(out, want) {
			t.Errorf("after loading, the screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "reading") {
		t.Errorf("loading never finished:\n%s", out)
	}
}

func TestMemoriesGroupedByTypeWithStores(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 60)
	d.selectProject("acme-api")
	var lefts []string
	for _, r := range d.m.memories.list.rows {
		lefts = append(lefts, r.left)
	}
	all := strings.Join(lefts, "\n") + "\n"
	order := []string{"Memory\n", "MEMORY.md\n", "  user\n", "  feedback\n", "  project\n", "  reference\n", "  invalid frontmatter or type\n", "Team memory\n"}
	last := -1
	for _, s := range order {
		i := strings.Index(all, s)
		if i < 0 {
			t.Fatalf("the memories pane lacks %q:\n%s", s, all)
		}
		if i < last {
			t.Errorf("%q is out of order", s)
		}
		last = i
	}
	// Team memory is a store of its own.
	d.m.memories.list.bottom()
	d.run(d.m.syncSelection())
	if out := d.screen(); !strings.Contains(out, "Team memory") {
		t.Errorf("team memory must have its own heading:\n%s", out)
	}
	d.selectProject("agent-memory")
	if out := d.screen(); !strings.Contains(out, "Agent ") {
		t.Errorf("subagent memory must be listed as its own store:\n%s", out)
	}
}

// The preview shows the frontmatter as a header, the body rendered, and
// never a secret whole.
func TestPreviewRendersAndMasksSecrets(t *testing.T) {
	cfg, dir := demoConfig(t)
	d := newDriver(t, cfg, 140, 50)
	d.selectProject("acme-api")
	d.selectMemory("reference_ci_bot")
	raw, err := os.ReadFile(filepath.Join(dir, "projects/-home-dev-acme-api/memory/reference_ci_bot.md"))
	if err != nil {
		t.Fatal(err)
	}
	token := ""
	for _, f := range strings.Fields(string(raw)) {
		if strings.HasPrefix(f, "ghp_") {
			token = f
		}
	}
	if token == "" {
		t.Fatal("the demo's CI bot memory no longer holds a token")
	}
	for _, source := range []bool{false, true} {
		if d.m.source != source {
			d.keys("v")
		}
		out := d.screen()
		if strings.Contains(out, token) || strings.Contains(d.m.View().Content, token[4:]) {
			t.Fatalf("source=%v: the secret is on screen", source)
		}
		for _, want := range []string{"description", "reference (metadata.type)", "ghp_…(40 chars)", "[secret]"} {
			if !strings.Contains(out, want) {
				t.Errorf("source=%v: preview lacks %q:\n%s", source, want, out)
			}
		}
	}
	d.keys("v")
	if out := d.screen(); strings.Contains(out, "\n---") || strings.Contains(out, "name: reference-ci-bot") {
		t.Errorf("the rendered preview must not show raw frontmatter:\n%s", out)
	}
}

// Relative dates are highlighted in the rendered body.
func TestPreviewHighlightsRelativeDates(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 140, 50)
	d.selectProject("acme-api")
	d.selectMemory("project_load_test")
	hl := newHighlighter(d.m.c.st.Theme)
	if !strings.Contains(d.m.View().Content, hl.dateOn+"tomorrow") {
		t.Errorf("\"tomorrow\" is not highlighted:\n%q", d.m.View().Content)
	}
}

// Rendering is a Cmd and is cached: a second visit draws from the cache
// without a command.
func TestRenderIsCachedByContentWidthTheme(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 140, 50)
	d.selectProject("acme-api")
	d.selectMemory("user_role")
	n := len(d.m.renders)
	d.m.memories.list.move(1)
	if cmd := d.m.syncSelection(); cmd == nil {
		t.Fatal("an unrendered memory must be rendered by a command")
	} else {
		d.run(cmd)
	}
	d.m.memories.list.move(-1)
	if cmd := d.m.syncSelection(); cmd != nil {
		t.Error("a memory already rendered at this width must come from the cache")
	}
	if len(d.m.renders) != n+1 {
		t.Errorf("cache has %d entries, want %d", len(d.m.renders), n+1)
	}
	d.send(tea.BackgroundColorMsg{Color: lightBg{}})
	if d.m.dark {
		t.Fatal("a light background must switch the theme")
	}
	if len(d.m.renders) != n+2 {
		t.Errorf("a theme change must render anew: cache %d, want %d", len(d.m.renders), n+2)
	}
}

type lightBg struct{}

func (lightBg) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

// TestIndexViewTeamStore: a team dir has no MEMORY.md of its own in
// Claude Code 2.1.332; the index view shows its mounted store's index,
// measured as MEMORY.md, and says so.
func TestIndexViewTeamStore(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("acme-api")
	d.keys("l")
	d.selectMemory("platform/feedback_code_review")
	d.keys("i")
	out := d.screen()
	for _, want := range []string{"team memory · team store platform index platform/MEMORY.md, measured as MEMORY.md", "✓ loads whole", "3 / 200",
		"1   - [Code review](feedback_code_review.md) — approval rules per directory"} {
		if !strings.Contains(out, want) {
			t.Errorf("team index view lacks %q:\n%s", want, out)
		}
	}
}

func TestIndexViewShowsTheCut(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("acme-api")
	d.keys("i")
	out := d.screen()
	for _, want := range []string{"209 / 200", "9 over", "8554 / 25000", "✗ cut: 5 of its lines never reach the agent"} {
		if !strings.Contains(out, want) {
			t.Errorf("index view lacks %q:\n%s", want, out)
		}
	}
	// A cut index opens at the cut.
	for _, want := range []string{"✂── the agent stops reading here: the 200-line cap", "> WARNING: MEMORY.md is 209 lines", "Never seen by the agent: 5 lines", "201 ✗ - [Standup 2026-11-18]", "209 ✗ - [Status page]"} {
		if !strings.Contains(out, want) {
			t.Errorf("index view bottom lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "201 ✗ - [Standup 2026-11-17]") {
		t.Error("a loaded line is marked as dropped")
	}
	d.keys("g")
	if out := d.screen(); !strings.Contains(out, "  1   ## About the user") {
		t.Errorf("g must go to the index's first line:\n%s", out)
	}
	d.keys("esc")
	if d.m.view != viewBrowse {
		t.Error("esc must leave the index view")
	}
}

func TestFindingsViewFiltersAndJumps(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 140, 45)
	d.keys("f")
	// Every finding planted in the demo (expected.json lists them all).
	exp, err := demo.Expected()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(exp); !strings.Contains(d.screen(), fmt.Sprintf("%d of %d findings", n, n)) {
		t.Fatalf("the findings view must count every finding (%d):\n%s", n, d.screen())
	}
	d.keys("s", "s")
	if !strings.Contains(d.screen(), "errors only") || strings.Contains(d.screen(), "▲ ") {
		t.Errorf("s twice must leave errors only:\n%s", d.screen())
	}
	d.keys("s")
	for d.m.findings.rule != "relative-date" {
		d.keys("]")
	}
	out := d.screen()
	if !strings.Contains(out, "relative-date (") || strings.Contains(out, "secret ") {
		t.Errorf("] must filter by rule:\n%s", out)
	}
	d.keys("[")
	for d.m.findings.rule != "" {
		d.keys("[")
	}
	d.keys("/")
	d.typeText("ci_bot")
	d.keys("enter")
	if n := len(d.m.findings.shown); n != 1 {
		t.Fatalf("filter \"ci_bot\" shows %d findings, want 1:\n%s", n, d.screen())
	}
	d.keys("enter")
	if d.m.view != viewBrowse || d.m.focus != focusPreview || !d.m.source {
		t.Fatalf("enter must open the file's source in the preview (view %v focus %v source %v)", d.m.view, d.m.focus, d.m.source)
	}
	out = d.screen()
	if !strings.Contains(out, "reference-ci-bot") || !strings.Contains(out, "15✗") {
		t.Errorf("the jump must show the file with line 15 flagged:\n%s", out)
	}
	// ...and that line highlighted, as a selection is, the only one.
	st := d.m.c.st
	if hl := highlightedRows(d.m.View().Content, st.Selected.Render("X")); len(hl) != 1 || !strings.HasPrefix(strings.TrimSpace(hl[0]), "15") {
		t.Errorf("the jump's line must be the one row highlighted: %q", hl)
	}
	// A finding on MEMORY.md jumps into the index view. The filter is
	// still set from before: esc clears it.
	d.keys("f", "esc", "/")
	d.typeText("index-over-lines")
	d.keys("enter", "enter")
	if d.m.view != viewIndex || !strings.Contains(d.screen(), "Never seen by the agent") {
		t.Errorf("an index finding must open the index view at its line:\n%s", d.screen())
	}
	f := d.m.findings.selected()
	hl := highlightedRows(d.m.View().Content, st.Selected.Render("X"))
	if f == nil || len(hl) != 1 || !strings.HasPrefix(strings.TrimSpace(hl[0]), itoa(f.Line)+" ✗") {
		t.Errorf("the index view must highlight the finding's line (%v), alone: %q", f, hl)
	}
	// The gutter marks the lines findings point at, by severity.
	if !strings.Contains(d.screen(), "177 ▲ - [Flaky tests]") {
		t.Errorf("the index view's gutter must mark line 177's warning:\n%s", d.screen())
	}
}

// highlightedRows are the rows of a frame below its title bar (where the
// current view's tab is drawn so) drawn in the selection style (sample is
// that style around one letter, for its opening codes), as plain text.
func highlightedRows(frame, sample string) []string {
	open, _, _ := strings.Cut(sample, "X")
	var out []string
	for _, ln := range strings.Split(frame, "\n")[1:] {
		if i := strings.Index(ln, open); i >= 0 {
			out = append(out, ansi.Strip(ln[i:]))
		}
	}
	return out
}

func TestFilterProjectsAndMemories(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.keys("/")
	d.typeText("kefu")
	out := d.screen()
	if !strings.Contains(out, "kefu_platform") || strings.Contains(out, "acme-api") {
		t.Errorf("filtering projects by \"kefu\":\n%s", out)
	}
	d.keys("enter")
	if !strings.Contains(d.screen(), "Projects (9) /kefu") {
		t.Errorf("enter must keep the filter and show it:\n%s", d.screen())
	}
	d.keys("esc")
	if !strings.Contains(d.screen(), "acme-api") {
		t.Error("esc must clear the filter")
	}
	d.selectProject("acme-api")
	d.keys("enter", "/")
	d.typeText("stndup")
	out = d.screen()
	if !strings.Contains(out, "standup-2026-11-16") || strings.Contains(out, "user-role") {
		t.Errorf("fuzzy filter \"stndup\" on memories:\n%s", out)
	}
}

func TestHelpAndReadOnly(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.keys("enter", "?")
	out := d.screen()
	for _, want := range []string{"refresh", "quit", "all findings", "edit in $EDITOR"} {
		if !strings.Contains(out, want) {
			t.Errorf("full help lacks %q:\n%s", want, out)
		}
	}
	cfg.Workspace.ReadOnly = true
	ro := newDriver(t, cfg, 120, 40)
	ro.keys("enter", "?")
	if out := ro.screen(); strings.Contains(out, "edit") || !strings.Contains(out, "read-only") {
		t.Errorf("--readonly must hide editing and say so:\n%s", out)
	}
	ro.selectProject("acme-api")
	ro.keys("enter", "j")
	if cmd := ro.m.edit(); cmd != nil {
		t.Error("--readonly must not open an editor")
	}
}

// After the editor exits the directory is read again and the change shows.
func TestEditorExitReloads(t *testing.T) {
	cfg, dir := demoConfig(t)
	cfg.Editor = "true"
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("acme-api")
	d.selectMemory("user_role")
	if d.m.edit() == nil {
		t.Fatal("e must open the editor")
	}
	path := filepath.Join(dir, "projects/-home-dev-acme-api/memory/user_role.md")
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), "name: user-role", "name: user-role-edited", 1)), 0o644)
	d.send(editorDoneMsg{path: filepath.Dir(path)})
	if out := d.screen(); !strings.Contains(out, "user-role-edited") {
		t.Errorf("the edit must show after the editor exits:\n%s", out)
	}
	cfg.Editor = "no-such-editor-anywhere"
	d2 := newDriver(t, cfg, 120, 40)
	d2.selectProject("acme-api")
	d2.selectMemory("user_role")
	if d2.m.edit() != nil || d2.m.err == nil || !strings.Contains(d2.screen(), "set $EDITOR") {
		t.Errorf("a missing editor must be reported:\n%s", d2.screen())
	}
}

func TestMouseWheelAndClick(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 40)
	r := d.m.rects[0]
	d.send(tea.MouseClickMsg{X: r.x + 2, Y: r.y + 1, Button: tea.MouseLeft})
	if pd := d.m.selectedProject(); pd == nil || !strings.Contains(pd.p.Name(), "acme-api") {
		t.Fatalf("clicking the second project row must select it")
	}
	mem := d.m.rects[1]
	d.send(tea.MouseClickMsg{X: mem.x + 2, Y: mem.y + 3, Button: tea.MouseLeft})
	if d.m.focus != focusMemories || d.m.memories.selectedItem() == nil {
		t.Fatal("clicking a memory must focus the pane and select it")
	}
	before := d.m.memories.list.offset
	d.send(tea.MouseWheelMsg{X: mem.x + 2, Y: mem.y + 3, Button: tea.MouseWheelDown})
	if d.m.memories.list.offset <= before {
		t.Error("the wheel must scroll the pane under the pointer")
	}
}

// Nothing is drawn past the window's edge, at any size, in any view.
func TestLayoutFitsEverySize(t *testing.T) {
	cfg, _ := demoConfig(t)
	cfg.Workspace.State.Journal = t.TempDir()
	for _, size := range [][2]int{{80, 24}, {100, 30}, {119, 35}, {160, 48}, {220, 60}, {50, 16}} {
		d := newDriver(t, cfg, size[0], size[1])
		d.selectProject("acme-api")
		steps := []string{"", "enter", "j", "enter", "?", "?", "i",
			// The index editor: a move, its diff, a hook, the write and
			// discard questions.
			"E", "G", "c", "?", "?", "D", "esc", "H", "esc", "A", "w", "n", "esc", "y",
			"b", "f", "esc",
			// The proposals view: list, diff focused, side by side, help.
			"p", "j", "j", "j", "tab", "n", "G", "d", "?", "?", "esc", "j", "d",
			// Deciding: marks, hunks, a range, the confirmation, a write's
			// summary, the journal and its undo question.
			"space", "j", "x", "j", "a", "tab", "space", "v", "n", "space", "esc", "esc",
			"w", "n", "w", "y", "esc", "L", "j", "?", "?", "u", "n", "esc", "p", "esc"}
		for _, step := range steps {
			if step != "" {
				d.keys(step)
			}
			d.run(d.m.requestPreview(true))
			lines := strings.Split(d.m.View().Content, "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d after %q: %d lines", size[0], size[1], step, len(lines))
			}
			for i, ln := range lines {
				if w := ansi.StringWidth(ln); w > size[0] {
					t.Errorf("%dx%d after %q: line %d is %d cells: %q", size[0], size[1], step, i, w, ansi.Strip(ln))
					break
				}
			}
		}
	}
}

func TestQuit(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 80, 24)
	_, cmd := d.m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q must quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q must return tea.Quit")
	}
}

// A drag sends many sizes; the preview is rendered once, for the last.
func TestResizeRendersOnceSettled(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("acme-api")
	d.keys("enter", "j")
	before := len(d.m.renders)
	var ticks []tea.Cmd
	for w := 121; w <= 140; w++ {
		_, cmd := d.m.Update(tea.WindowSizeMsg{Width: w, Height: 40})
		ticks = append(ticks, cmd)
	}
	for _, c := range ticks {
		d.run(c)
	}
	if got := len(d.m.renders) - before; got != 1 {
		t.Errorf("20 sizes in a row rendered the preview %d times, want once", got)
	}
	if d.m.preview.key.width != d.m.preview.width-2 {
		t.Errorf("the preview was rendered at width %d, the pane is %d", d.m.preview.key.width, d.m.preview.width)
	}
}

// A project selected before the loader reaches it is read next (the
// queue's order itself is pool's to test).
func TestSelectedProjectLoadsFirst(t *testing.T) {
	cfg, _ := demoConfig(t)
	m := New(cfg)
	defer m.Close()
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(discoverCmd(m.ctx, m.gen, cfg.Workspace)())
	m.loader.stop()
	// A stand-in queue over the same projects: one worker, held on the
	// first item until the cursor has moved.
	release := make(chan struct{})
	var mu sync.Mutex
	var order []int
	q := pool.Start(context.Background(), len(m.data), 1, func(i int) {
		if i == 0 {
			<-release
		}
		mu.Lock()
		order = append(order, i)
		mu.Unlock()
	})
	m.loader = &loader{q: q}
	// The last of Claude Code's projects (Codex's store follows, read
	// already).
	last := m.claudeProjects() - 1
	m.projects.list.selectRef(last)
	m.syncSelection()
	close(release)
	q.Wait()
	if slices.Index(order, last) > slices.Index(order, 1) {
		t.Errorf("selecting the last project did not queue it first: read in the order %v", order)
	}
}
