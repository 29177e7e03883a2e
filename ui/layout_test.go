package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// listLines draws a list (as the pane does) and returns each visible row's
// line without escape codes, with the row it draws.
func listLines(d *driver, l *list) ([]string, []row) {
	c := d.m.c
	lines := strings.Split(ansi.Strip(l.view(c.st.Item, c.st.Selected, c.st.GroupHeader, c.st.Badge, "")), "\n")
	end := min(l.offset+l.height, len(l.rows))
	return lines[:end-l.offset], l.rows[l.offset:end]
}

// memoryCols matches a memory row's columns at its end: uses, age, size.
var memoryCols = regexp.MustCompile(`\s+(\d+×)\s+(\S+)\s+(\S+)$`)

// shownMemories walks the memories pane from top to bottom, a page at a
// time, and returns for every memory file its row's name as drawn, and
// every memory row's line.
func shownMemories(t *testing.T, d *driver) (names map[string]string, lines []string) {
	t.Helper()
	m := d.m.memories
	names = map[string]string{}
	m.list.top()
	for {
		ls, rs := listLines(d, &m.list)
		for i, r := range rs {
			if r.header || m.items[r.ref].file == nil {
				continue
			}
			path := m.items[r.ref].file.Path
			if _, seen := names[path]; seen {
				continue
			}
			line := string([]rune(ls[i])[2:]) // the badge and its space
			loc := memoryCols.FindStringIndex(line)
			if loc == nil {
				t.Fatalf("row of %s has no use, age and size columns: %q", path, ls[i])
			}
			names[path] = strings.TrimSpace(line[:loc[0]])
			lines = append(lines, ls[i])
		}
		if m.list.offset+m.list.height >= len(m.list.rows) {
			return names, lines
		}
		m.list.scroll(m.list.height)
	}
}

// At 80 columns every memory of acme-api reads differently from every
// other: the type's prefix is dropped under its heading, and names that
// still do not fit are cut in the middle, cut apart again when the cut
// would make two read the same (the same start and end, or a difference
// deep inside).
func TestMemoryNamesReadApartAt80(t *testing.T) {
	cfg, dir := demoConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-acme-api", "memory")
	for _, name := range []string{
		"feedback-deploy-command-for-the-staging-cluster", "feedback-deploy-command-for-the-production-cluster",
		"feedback-release-checklist-for-team-alpha-before-the-freeze", "feedback-release-checklist-for-team-gamma-before-the-freeze",
	} {
		body := "---\nname: " + name + "\ndescription: a long name\ntype: feedback\n---\n\nBody.\n"
		writeTestFile(t, filepath.Join(mem, strings.ReplaceAll(name, "-", "_")+".md"), body)
	}
	d := newDriver(t, cfg, 80, 24)
	d.selectProject("acme-api")
	d.keys("enter")
	names, _ := shownMemories(t, d)
	if len(names) < 90 {
		t.Fatalf("only %d memories walked", len(names))
	}
	byName := map[string]string{}
	for path, n := range names {
		if other, dup := byName[n]; dup {
			t.Errorf("%s and %s both read %q", other, path, n)
		}
		byName[n] = path
		if strings.HasPrefix(path, "feedback_") && strings.HasPrefix(n, "feedback") {
			t.Errorf("%s keeps its type's prefix under the feedback heading: %q", path, n)
		}
	}
	if names["feedback_deploy_command.md"] != "deploy-command" || names["feedback_deploy_window.md"] != "deploy-window" {
		t.Errorf("the two deploy memories read %q and %q", names["feedback_deploy_command.md"], names["feedback_deploy_window.md"])
	}
	for _, p := range []string{"feedback_deploy_command_for_the_staging_cluster.md", "feedback_release_checklist_for_team_alpha_before_the_freeze.md"} {
		if n := names[p]; !strings.Contains(n, "…") || !strings.HasPrefix(n, strings.TrimPrefix(strings.ReplaceAll(p, "_", "-"), "feedback-")[:3]) {
			t.Errorf("%s reads %q: not cut in the middle", p, n)
		}
	}
}

// A memory named the same as another once its type's prefix is dropped
// keeps its whole name.
func TestShortNamesNeverCollide(t *testing.T) {
	cfg, dir := demoConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-acme-api", "memory")
	writeTestFile(t, filepath.Join(mem, "deploy_window.md"), "---\nname: deploy-window\ndescription: the same short name\ntype: feedback\n---\n\nBody.\n")
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("acme-api")
	d.keys("enter")
	names, _ := shownMemories(t, d)
	if names["deploy_window.md"] != "deploy-window" || names["feedback_deploy_window.md"] != "feedback-deploy-window" {
		t.Errorf("deploy_window.md reads %q and feedback_deploy_window.md %q", names["deploy_window.md"], names["feedback_deploy_window.md"])
	}
}

// colEnds is the cell at which each match of re's groups ends in line.
func colEnds(line string, re *regexp.Regexp) []int {
	m := re.FindStringSubmatchIndex(line)
	if m == nil {
		return nil
	}
	var ends []int
	for g := 1; 2*g+1 < len(m); g++ {
		ends = append(ends, ansi.StringWidth(line[:m[2*g+1]]))
	}
	return ends
}

// The use, age and size columns of the memories pane line up, each right
// aligned (ages of two and three cells, sizes of three and four), at 80
// and at 160 columns.
func TestMemoryColumnsLineUp(t *testing.T) {
	for _, w := range []int{80, 160} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			cfg, _ := demoConfig(t)
			d := newDriver(t, cfg, w, 48)
			d.selectProject("acme-api")
			d.keys("enter")
			_, lines := shownMemories(t, d)
			var want []int
			ages := map[int]bool{}
			for _, ln := range lines {
				ends := colEnds(ln, memoryCols)
				if want == nil {
					want = ends
				}
				if fmt.Sprint(ends) != fmt.Sprint(want) {
					t.Errorf("columns end at %v, not %v: %q", ends, want, ln)
				}
				ages[len(memoryCols.FindStringSubmatch(ln)[2])] = true
			}
			if len(ages) < 2 {
				t.Fatalf("every age has the same width: the test shows nothing")
			}
		})
	}
}

// The projects list's counts and ✂ marks line up, counts of one digit
// and of two.
func TestProjectColumnsLineUp(t *testing.T) {
	cfg, dir := demoConfig(t)
	// webshop keeps its cut index and 1 of its reference memories.
	refs, err := filepath.Glob(filepath.Join(dir, "projects", "-home-dev-webshop", "memory", "*_*.md"))
	if err != nil || len(refs) < 20 {
		t.Fatalf("webshop's memories: %v %v", refs, err)
	}
	for _, p := range refs[1:] {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	d := newDriver(t, cfg, 80, 24)
	lines, rows := listLines(d, &d.m.projects.list)
	cut, count := -1, -1
	for i, ln := range lines {
		if rows[i].header {
			continue
		}
		m := regexp.MustCompile(`(✂)?\s+(\d+)$`).FindStringSubmatchIndex(ln)
		if m == nil {
			t.Fatalf("no count on %q", ln)
		}
		if c := ansi.StringWidth(ln[:m[5]]); count < 0 {
			count = c
		} else if c != count {
			t.Errorf("count ends at %d, not %d: %q", c, count, ln)
		}
		if m[2] >= 0 {
			if c := ansi.StringWidth(ln[:m[2]]); cut < 0 {
				cut = c
			} else if c != cut {
				t.Errorf("✂ at %d, not %d: %q", c, cut, ln)
			}
		}
	}
	if cut < 0 {
		t.Fatal("no project shows ✂: the test shows nothing")
	}
}

// A list's columns line up whatever their values: figures right aligned,
// a text column left aligned, each as wide as its widest value; the last
// go first when the list is too narrow for them and the text.
func TestListColumns(t *testing.T) {
	l := list{colKinds: []colKind{colText}}
	l.setRows([]row{
		{left: "alpha", cols: []string{"5f0c2a8e +1", "3d ago"}, badge: "~"},
		{left: "beta", cols: []string{"memtui", "12d ago"}, badge: "~"},
		{left: "gamma-with-a-long-name", cols: []string{"", "just now"}, badge: "~"},
	})
	draw := func(w int) []string {
		l.setSize(w, 3)
		var badges [3]lipgloss.Style
		plain := lipgloss.NewStyle()
		return strings.Split(ansi.Strip(l.view(plain, plain, plain, badges, "")), "\n")
	}
	want := []string{
		"~ alpha                       5f0c2a8e +1   3d ago",
		"~ beta                        memtui       12d ago",
		"~ gamma-with-a-long-name                  just now",
	}
	if got := draw(50); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("at 50 cells:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	want = []string{
		"~ alpha        5f0c2a8e +1",
		"~ beta         memtui     ",
		"~ gamma-with-…            ", // its blank column keeps its place
	}
	if got := draw(26); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("at 26 cells, the last column goes first:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A mark column (✂) takes cells only on the rows that carry a mark: the
// others keep them for their text, and the marks still line up.
func TestListMarkColumn(t *testing.T) {
	l := list{colKinds: []colKind{colMark, colNumber}}
	l.setRows([]row{
		{left: "/home/dev/acme-api", cols: []string{"✂", "92"}, badge: "✗"},
		{left: "/home/dev/kefu_platform", cols: []string{"", "13"}, badge: "✗"},
		{left: "/home/dev/webshop", cols: []string{"✂", "4"}, badge: "✗"},
	})
	l.setSize(29, 3)
	var badges [3]lipgloss.Style
	plain := lipgloss.NewStyle()
	got := strings.Split(ansi.Strip(l.view(plain, plain, plain, badges, "")), "\n")
	want := []string{
		"✗ /home/dev/acme-api     ✂ 92",
		"✗ /home/dev/kefu_platform  13",
		"✗ /home/dev/webshop      ✂  4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The project summary never runs past the pane's border: every word of it
// shows, wrapped, at 80 columns.
func TestProjectSummaryWraps(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 80, 24)
	d.selectProject("scratch")
	pd := d.m.selectedProject()
	want := strings.Join(strings.Fields(projectSummary(d.m.c, pd)), " ")
	got := strings.Join(strings.Fields(ansi.Strip(d.m.preview.View())), " ")
	if !strings.Contains(got, want) {
		t.Errorf("the summary is clipped:\nshown: %s\nwhole: %s", got, want)
	}
	for _, ln := range strings.Split(ansi.Strip(d.m.preview.View()), "\n") {
		if ansi.StringWidth(strings.TrimRight(ln, " ")) > d.m.preview.width-2 {
			t.Errorf("line wider than the pane's text: %q", ln)
		}
	}
}

// Every list says what is empty, and what to do about it when that helps.
func TestEmptyStates(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir()
	d := newDriver(t, cfg, 80, 24)

	// A filter that matches nothing says so under the headings, and how
	// to clear it.
	d.selectProject("acme-api")
	d.keys("enter", "/")
	d.typeText("zzqq")
	d.keys("enter")
	if s := d.screen(); !strings.Contains(s, "No memory matches “zzqq”: esc") {
		t.Errorf("a filter matching no memory must say so:\n%s", s)
	}
	d.keys("esc")
	// A project with a memory directory but no memory: its heading, then
	// the note.
	d.selectProject("scratch")
	d.keys("enter")
	if s := d.screen(); !strings.Contains(s, "Memory ") || !strings.Contains(s, "No memories yet") {
		t.Errorf("the scratch project's memories must say there are none:\n%s", s)
	}

	// No writes yet: the journal says what will show there.
	d.keys("L")
	if s := d.screen(); !strings.Contains(s, "Nothing written yet: the journal is empty.") {
		t.Errorf("the empty journal must say so:\n%s", s)
	}
	// Nothing changed since the review just recorded.
	d.keys("C")
	if s := d.screen(); !strings.Contains(s, "Nothing changed since the last review") {
		t.Errorf("the changes view must say nothing changed:\n%s", s)
	}

	// Findings: none at all, or none through the filters.
	f := newFindingsView(d.m.c)
	f.SetSize(80, 20)
	f.setFindings(nil)
	if s := ansi.Strip(f.View()); !strings.Contains(s, "No findings: nothing to fix here.") {
		t.Errorf("no findings must say there is nothing to fix:\n%s", s)
	}
	d.keys("f", "/")
	d.typeText("zzqq")
	d.keys("enter")
	if s := d.screen(); !strings.Contains(s, "No finding matches “zzqq”: esc") {
		t.Errorf("a findings filter matching nothing must say so:\n%s", s)
	}
}

// With no project at all, the projects list says so once discovery is
// done, rather than "looking" for ever.
func TestNoProjects(t *testing.T) {
	cfg, _ := demoConfig(t)
	empty := t.TempDir()
	cfg.Workspace.ScanOpts.ConfigDirs = []string{empty}
	cfg.Workspace.ScanOpts.Home = empty
	cfg.Workspace.ScanOpts.IncludeAgentMemory = false
	cfg.Workspace.CodexHomes = nil // nor a Codex store
	d := newDriver(t, cfg, 80, 24)
	if s := d.screen(); !strings.Contains(s, "No projects") || strings.Contains(s, "Looking for projects") {
		t.Errorf("no project must be said:\n%s", s)
	}
}

// Proposal titles keep the file they act on when the list is narrower
// than they are (the list beside the diff at 160 columns), so two of one
// kind read apart.
func TestProposalTitlesKeepTheirFile(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	lines, rows := listLines(d, &d.m.proposals.list)
	seen := map[string]bool{}
	for i, ln := range lines {
		if rows[i].header {
			continue
		}
		it := d.m.proposals.items[rows[i].ref]
		title := strings.TrimSpace(string([]rune(ln)[2:]))
		if seen[title] {
			t.Errorf("two proposals read %q", title)
		}
		seen[title] = true
		if f := it.title[strings.LastIndex(it.title, " ")+1:]; strings.HasSuffix(f, ".md") && !strings.Contains(ln, f) {
			t.Errorf("%q lost its file %s: %q", it.title, f, ln)
		}
	}
	if !seen["fix-frontmatter   Fix the… reference_staging.md"] {
		t.Errorf("the staging fix reads otherwise: %v", seen)
	}
}

// The findings list draws the rule, the place and the message in columns:
// every message starts at the same cell, at 80 and at 160 columns.
func TestFindingsColumnsLineUp(t *testing.T) {
	for _, w := range []int{80, 160} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			cfg, _ := demoConfig(t)
			d := newDriver(t, cfg, w, 48)
			d.keys("f")
			v := d.m.findings
			lines, rows := listLines(d, &v.list)
			at := -1
			places := map[int]bool{}
			for i, ln := range lines {
				f := v.all[rows[i].ref]
				head := string([]rune(f.Message)[:8])
				// (The message may repeat the file the place names.)
				j := strings.LastIndex(ln, "  "+head) + 2
				if j < 2 {
					t.Fatalf("no message on %q", ln)
				}
				if c := ansi.StringWidth(ln[:j]); at < 0 {
					at = c
				} else if c != at {
					t.Errorf("message at %d, not %d: %q", c, at, ln)
				}
				places[len(f.File)] = true
			}
			if len(places) < 2 {
				t.Fatal("every place has the same length: the test shows nothing")
			}
		})
	}
}
