package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/model"
)

// The demo's proposals these tests look at. Other kinds (merge, reindex)
// may join the demo's list, so the tests name proposals rather than count
// them all.
const (
	ciBotTitle    = "Redact 1 secret in reference_ci_bot.md"
	stagingTitle  = "Fix the frontmatter of reference_staging.md"
	loadTestTitle = "Make 1 relative date absolute in project_load_test.md"
	sunsetTitle   = "Add the year to 1 date in project_v1_sunset.md"
)

// openProposals opens the proposals view and waits for the list.
func (d *driver) openProposals() {
	d.t.Helper()
	d.keys("p")
	if d.m.view != viewProposals || !d.m.proposals.computed {
		d.t.Fatalf("p must open the computed proposals view:\n%s", d.screen())
	}
}

// selectProposal moves the list's cursor to the proposal titled title.
func (d *driver) selectProposal(title string) *propItem {
	d.t.Helper()
	v := d.m.proposals
	for i, it := range v.items {
		if it.title == title {
			if !v.list.selectRef(i) {
				d.t.Fatalf("proposal %q has no row", title)
			}
			v.follow()
			return it
		}
	}
	d.t.Fatalf("no proposal titled %q", title)
	return nil
}

// demoToken is the GitHub token the demo's CI bot memory holds.
func demoToken(t *testing.T, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "projects/-home-dev-acme-api/memory/reference_ci_bot.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(raw)) {
		if strings.HasPrefix(f, "ghp_Demo") {
			return f
		}
	}
	t.Fatal("the demo's CI bot memory no longer holds a ghp_Demo token")
	return ""
}

// The list groups proposals by project under a header that counts each
// kind, and the title bar counts them all.
func TestProposalsListedByProjectWithCounts(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	if strings.Contains(d.screen(), "Proposals 0") {
		t.Error("before the view is opened, the tab must not claim a count")
	}
	d.openProposals()
	v := d.m.proposals
	out := d.screen()
	if want := "Proposals " + itoa(len(v.items)); !strings.Contains(out, want) || len(v.items) == 0 {
		t.Errorf("the title bar must say %q:\n%s", want, out)
	}
	// Each header's counts add up to the rows under it, kind by kind.
	var header string
	counts := map[string]int{}
	check := func() {
		for k, n := range counts {
			if want := itoa(n) + " " + k; !strings.Contains(header, want) {
				t.Errorf("header %q must say %q", header, want)
			}
		}
	}
	group := map[string]string{} // title → its header
	for _, r := range v.list.rows {
		if r.header {
			check()
			header, counts = r.left, map[string]int{}
			continue
		}
		it := v.items[r.ref]
		counts[string(it.p.Kind)]++
		group[it.title] = header
		if !strings.Contains(r.left, string(it.p.Kind)) || !strings.Contains(r.left, it.title) {
			t.Errorf("row %q must show the kind and the title", r.left)
		}
	}
	check()
	for _, title := range []string{ciBotTitle, stagingTitle, loadTestTitle, sunsetTitle} {
		if h := group[title]; !strings.HasPrefix(h, "~/acme-api  ") {
			t.Errorf("%q must be listed under acme-api, is under %q", title, h)
		}
	}
	if h := group[ciBotTitle]; !strings.Contains(h, "1 redact-secret") || !strings.Contains(h, "1 add-year") {
		t.Errorf("acme-api's header must count its kinds: %q", h)
	}
	if !strings.Contains(out, "~/acme-api  1 redact-secret · ") {
		t.Errorf("the header must be on screen:\n%s", out)
	}
	// Team memory is left alone, as dream does by default.
	for _, it := range v.items {
		if strings.Contains(it.p.MemoryDir, "/team") {
			t.Errorf("a team directory got a proposal: %s", it.p.ID)
		}
	}
}

// The proposals are computed by a Cmd, with a note on screen meanwhile.
func TestProposalsComputedInACmd(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 100, 30)
	_, cmd := d.m.Update(keyMsg("p"))
	if cmd == nil {
		t.Fatal("opening the view must start a Cmd that computes the proposals")
	}
	if len(d.m.proposals.items) != 0 || d.m.proposals.computed {
		t.Fatal("Update computed the proposals itself")
	}
	if out := d.screen(); !strings.Contains(out, "computing proposals…") || !strings.Contains(out, "Computing proposals…") {
		t.Errorf("the view must say it is computing:\n%s", out)
	}
	d.run(cmd)
	if out := d.screen(); strings.Contains(out, "computing") || !strings.Contains(out, ciBotTitle) {
		t.Errorf("the list must show once computed:\n%s", out)
	}
	// Back and forth: nothing changed, nothing to compute.
	d.keys("b")
	if _, cmd := d.m.Update(keyMsg("p")); cmd != nil {
		t.Error("reopening the view with nothing changed must not compute again")
	}
}

// Selecting a proposal shows its title, rationale, fixes and a unified
// diff with the removed and added lines, the changed words highlighted.
func TestProposalsUnifiedDiff(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	cases := []struct {
		title      string
		want       []string
		addW, delW string // a changed word on each side ("" when none)
	}{
		{sunsetTitle, []string{
			"@@ -8,7 +8,7 @@",
			"-The v1 invoice endpoints are switched off on May 26. Until then",
			"+The v1 invoice endpoints are switched off on May 26, 2026. Until then",
			" `Sunset` header and a link to the migration guide.",
			"fixes: date-missing-year project_v1_sunset.md:11",
			"project_v1_sunset.md  +1 -1",
		}, ", 2026", ""},
		{loadTestTitle, []string{
			"-Load test of the invoice run against staging tomorrow at 06:00 UTC",
			"+Load test of the invoice run against staging on 2026-06-12 at 06:00 UTC",
			`"tomorrow" →`,
		}, "on 2026-06-12", "tomorrow"},
		{stagingTitle, []string{
			"-description: Staging host: acme-stg.internal, reachable only over the eng VPN",
			`+description: "Staging host: acme-stg.internal, reachable only over the eng VPN"`,
		}, `"`, ""},
	}
	ds := d.m.proposals.diff.ds
	for _, c := range cases {
		d.selectProposal(c.title)
		out := d.screen()
		for _, want := range append(c.want, c.title) {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the diff lacks %q:\n%s", c.title, want, out)
			}
		}
		raw := d.m.View().Content
		if c.addW != "" && !strings.Contains(raw, ds.pAddWord.Paint(c.addW)) {
			t.Errorf("%s: %q is not highlighted as added:\n%q", c.title, c.addW, raw)
		}
		if c.delW != "" && !strings.Contains(raw, ds.pDelWord.Paint(c.delW)) {
			t.Errorf("%s: %q is not highlighted as removed:\n%q", c.title, c.delW, raw)
		}
		// Only the changed words: the unchanged start of the line is not.
		if strings.Contains(raw, ds.pAddWord.Paint("The v1")) || strings.Contains(raw, ds.pDelWord.Paint("Load")) {
			t.Errorf("%s: unchanged words are highlighted", c.title)
		}
	}
}

// Side by side puts the old line beside the new, numbered; a line longer
// than its column wraps in it under a continuation mark, or, with W,
// is cut with … where the column ends.
func TestProposalsSideBySide(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 220, 50)
	d.openProposals()
	d.selectProposal(loadTestTitle)
	d.keys("d")
	if !d.m.proposals.diff.split || !strings.Contains(d.screen(), "Diff · side by side") {
		t.Fatalf("d must switch to side by side:\n%s", d.screen())
	}
	rowAt := func(prefix string) (int, []string) {
		lines := strings.Split(d.screen(), "\n")
		for i, ln := range lines {
			if strings.Contains(ln, prefix) {
				return i, lines
			}
		}
		t.Fatalf("no side-by-side row with %q:\n%s", prefix, d.screen())
		return 0, nil
	}
	i, lines := rowAt(" 7 -Load test")
	row := lines[i]
	old, nw, ok := strings.Cut(row[strings.Index(row, " 7 -Load"):], "│")
	if !ok || !strings.Contains(old, "staging tomorrow at") || !strings.HasPrefix(nw, " 7 +Load test of the invoice run against staging on 2026-06-12") {
		t.Errorf("line 7 must show old | new side by side: %q", row)
	}
	// Wrapped: the rest of each side is on the next row, marked as going
	// on, with no second - or +.
	next := lines[i+1]
	oldNext, newNext, _ := strings.Cut(next[strings.Index(row, " 7 -Load"):], "│")
	if !strings.Contains(oldNext, "┆") || !strings.Contains(newNext, "┆") {
		t.Errorf("the wrapped rest must follow under ┆: %q", next)
	}
	if !strings.Contains(oldNext+newNext, "synthetic tenants.") {
		t.Errorf("no text of a wrapped line may be lost: %q / %q", row, next)
	}
	if !strings.Contains(d.screen(), " 5  ---") || !strings.Contains(d.screen(), "│ 5  ---") {
		t.Errorf("context lines show on both sides, numbered:\n%s", d.screen())
	}
	raw := d.m.View().Content
	ds := d.m.proposals.diff.ds
	if !strings.Contains(raw, ds.pDelWord.Paint("tomorrow")) || !strings.Contains(raw, ds.pAddWord.Paint("on 2026-06-12")) {
		t.Error("side by side must highlight the changed words too")
	}
	// W cuts the lines instead: one row per line, … at the column's end.
	d.keys("W")
	i, lines = rowAt(" 7 -Load test")
	old, _, _ = strings.Cut(lines[i][strings.Index(lines[i], " 7 -Load"):], "│")
	if !strings.HasSuffix(strings.TrimRight(old, " "), "…") || strings.Contains(lines[i+1], "┆") {
		t.Errorf("with lines cut, a long line ends with … and nothing follows it: %q / %q", lines[i], lines[i+1])
	}
	if !strings.Contains(d.screen(), "Diff · side by side · lines cut") {
		t.Errorf("the heading must say the lines are cut:\n%s", d.screen())
	}
	d.keys("d")
	if d.m.proposals.diff.split {
		t.Error("d again must go back to unified")
	}
}

// No frame of the view holds a secret whole, in either mode, for any
// proposal; the removed line shows the mask.
func TestProposalsNeverShowASecret(t *testing.T) {
	cfg, dir := demoConfig(t)
	token := demoToken(t, dir)
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		d := newDriver(t, cfg, size[0], size[1])
		d.openProposals()
		d.selectProposal(ciBotTitle)
		d.keys("tab", "n")
		if out := d.screen(); !strings.Contains(out, "-ghp_…(40 chars)") || !strings.Contains(out, "+[REDACTED]") {
			t.Errorf("%v: the redaction's diff must show the mask and [REDACTED]:\n%s", size, out)
		}
		d.keys("esc")
		for _, split := range []bool{false, true} {
			if d.m.proposals.diff.split != split {
				d.keys("d")
			}
			d.m.proposals.list.top()
			for range d.m.proposals.items {
				d.m.proposals.follow()
				for _, k := range []string{"g", "tab", "G", "esc"} {
					d.keys(k)
					raw := d.m.View().Content
					if strings.Contains(raw, token) || strings.Contains(raw, token[4:]) || strings.Contains(raw, "ghp_Demo") {
						t.Fatalf("%v split=%v: the token is on screen (%s)", size, split, d.m.proposals.selected().p.ID)
					}
				}
				d.keys("j")
			}
		}
	}
}

// A create is all additions; a delete is all removals and says where the
// file goes. Control characters in a file never reach the terminal.
func TestDiffCreateAndDelete(t *testing.T) {
	cfg, _ := demoConfig(t)
	m := New(cfg)
	defer m.Close()
	v := newDiffView(m.c)
	sc := m.copts.Secrets
	it := &propItem{
		p:     model.Proposal{ID: "merge-0000000000", Kind: model.KindMerge, MemoryDir: "/home/dev/x/memory"},
		title: "Merge a.md into b.md", rationale: "Because.",
		diffs: []fileDiff{
			diffChange(model.Change{Path: "new.md", Op: model.OpCreate, After: "one\ntwo\n"}, "", sc),
			diffChange(model.Change{Path: "old.md", Op: model.OpDelete}, "gone\nalso \x1b[31mgone\x1b[0m\n", sc),
		},
	}
	for _, split := range []bool{false, true} {
		v.split = split
		v.SetSize(100, 40)
		v.show(it)
		out := ansi.Strip(v.View())
		for _, want := range []string{"new.md  new file · +2", "old.md  deleted; kept in the journal when applied · -2", "@@ -0,0 +1,2 @@", "@@ -1,2 +0,0 @@"} {
			if !strings.Contains(out, want) {
				t.Errorf("split=%v: lacks %q:\n%s", split, want, out)
			}
		}
		if strings.Contains(v.View(), "\x1b[31m") || strings.Contains(v.View(), "\x1b[0m") {
			t.Errorf("split=%v: a file's escape codes reached the screen", split)
		}
		if !split {
			for _, want := range []string{"+one", "+two", "-gone", `-also \x1b[31mgone\x1b[0m`} {
				if !strings.Contains(out, want) {
					t.Errorf("lacks %q:\n%s", want, out)
				}
			}
		} else if !strings.Contains(out, " 1 +one") || !strings.Contains(out, " 1 -gone") {
			t.Errorf("side by side: a create fills the right, a delete the left:\n%s", out)
		}
	}
}

// Narrow, the diff sits below the list; tab gives it the keys and most of
// the rows, esc gives them back, esc again leaves the view.
func TestProposalsNarrowToggleAndScroll(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 80, 24)
	d.openProposals()
	v := d.m.proposals
	d.selectProposal(ciBotTitle)
	if v.wide || v.focusDiff {
		t.Fatal("at 80 columns the diff must sit below the list, the list focused")
	}
	listH := v.list.height
	sel := v.selected()
	d.keys("tab")
	if !v.focusDiff || v.list.height >= listH || v.diff.h <= 24-listH-5 {
		t.Errorf("tab must give the diff the keys and the rows (list %d→%d, diff %d)", listH, v.list.height, v.diff.h)
	}
	d.keys("j", "j")
	if v.selected() != sel || v.diff.off != 2 {
		t.Errorf("with the diff focused, j scrolls it (offset %d) and leaves the selection", v.diff.off)
	}
	d.keys("G")
	if v.diff.off != len(v.diff.rows)-v.diff.h {
		t.Errorf("G must scroll to the end: %d of %d rows, %d shown", v.diff.off, len(v.diff.rows), v.diff.h)
	}
	d.keys("g", "n")
	if len(v.diff.hunkRows) == 0 || v.diff.off != min(v.diff.hunkRows[0], len(v.diff.rows)-v.diff.h) {
		t.Errorf("n must jump to the first hunk (offset %d, hunks at %v)", v.diff.off, v.diff.hunkRows)
	}
	if !strings.Contains(d.screen(), "@@ -12,6 +12,6 @@") {
		t.Errorf("the hunk must be on screen after n:\n%s", d.screen())
	}
	d.keys("esc")
	if v.focusDiff || d.m.view != viewProposals {
		t.Fatal("esc must give the list the keys back")
	}
	d.keys("j")
	if v.selected() == sel {
		t.Error("with the list focused, j moves the selection")
	}
	d.keys("enter")
	if !v.focusDiff {
		t.Error("enter must focus the diff")
	}
	d.keys("esc", "esc")
	if d.m.view != viewBrowse {
		t.Error("esc from the list must leave the view")
	}
}

func TestProposalsMouse(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	v := d.m.proposals
	// The title bar, the status line and the heading are above row 0.
	d.send(tea.MouseClickMsg{X: 5, Y: 3 + 2, Button: tea.MouseLeft})
	if it := v.selected(); it == nil || it != v.items[v.list.rows[2].ref] {
		t.Fatalf("clicking the third row must select it")
	}
	d.send(tea.MouseWheelMsg{X: v.listW + 10, Y: 10, Button: tea.MouseWheelDown})
	if v.diff.off == 0 && len(v.diff.rows) > v.diff.h {
		t.Error("the wheel over the diff must scroll it")
	}
	d.send(tea.MouseClickMsg{X: v.listW + 10, Y: 10, Button: tea.MouseLeft})
	if !v.focusDiff {
		t.Error("clicking the diff must focus it")
	}
}

// A directory that reloads is proposed for again, after a pause; the
// others come from the cache.
func TestProposalsFollowAReload(t *testing.T) {
	cfg, dir := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	d.openProposals()
	d.selectProposal(sunsetTitle)
	var other *propItem
	for _, it := range d.m.proposals.items {
		if !strings.Contains(it.p.MemoryDir, "acme-api") {
			other = it
			break
		}
	}
	path := filepath.Join(dir, "projects/-home-dev-acme-api/memory/project_v1_sunset.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), "on May 26.", "on May 26, 2026.", 1)), 0o644)
	d.send(editorDoneMsg{path: filepath.Dir(path)})
	titles := map[string]bool{}
	for _, it := range d.m.proposals.items {
		titles[it.title] = true
	}
	if titles[sunsetTitle] || !titles[ciBotTitle] {
		t.Errorf("after the reload the fixed date is no longer proposed, the rest still is: %v", titles)
	}
	if other != nil {
		found := false
		for _, it := range d.m.proposals.items {
			found = found || it == other
		}
		if !found {
			t.Error("another project's proposals were computed again: the cache must keep them")
		}
	}
}

func TestProposalsHelpAndReadOnly(t *testing.T) {
	cfg, _ := demoConfig(t)
	for _, ro := range []bool{false, true} {
		cfg.Workspace.ReadOnly = ro
		d := newDriver(t, cfg, 120, 40)
		d.openProposals()
		d.keys("?")
		out := d.screen()
		for _, want := range []string{"dream proposals", "unified/side-by-side", "next hunk", "previous hunk", "journal of writes", "quit"} {
			if !strings.Contains(out, want) {
				t.Errorf("readonly=%v: the help lacks %q:\n%s", ro, want, out)
			}
		}
		// Deciding, editing and writing show only when they can be used.
		for _, w := range []string{"accept proposal", "reject proposal", "write accepted", "edit in $EDITOR", "select a range of hunks"} {
			if got := strings.Contains(out, w); got == ro {
				t.Errorf("readonly=%v: the help offers %q: %v\n%s", ro, w, got, out)
			}
		}
		if ro {
			if d.m.edit() != nil {
				t.Error("e must do nothing under --readonly")
			}
			if !strings.Contains(out, "read-only") {
				t.Errorf("the view must say read-only:\n%s", out)
			}
		}
		if len(d.m.proposals.items) == 0 {
			t.Errorf("readonly=%v: proposals are for review and show either way", ro)
		}
	}
}

// Without colour the changed words are reversed or underlined, and no
// colour code is written.
func TestProposalsNoColor(t *testing.T) {
	cfg, _ := demoConfig(t)
	cfg.NoColor = true
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	d.selectProposal(loadTestTitle)
	out := d.m.View().Content
	for _, code := range []string{"38;2;", "48;2;", "38;5;", "48;5;"} {
		if strings.Contains(out, code) {
			t.Fatalf("NO_COLOR frame has colour code %q", code)
		}
	}
	if !strings.Contains(out, "\x1b[7mon 2026-06-12") {
		t.Errorf("the added words must be reversed without colour:\n%q", out)
	}
	if !strings.Contains(out, "\x1b[4m") {
		t.Errorf("the removed words must be underlined without colour:\n%q", out)
	}
}

// The Cmd reads only what no Update changes: run it beside a reload and a
// frame (go test -race).
func TestProposalsComputeBesideAReload(t *testing.T) {
	cfg, dir := demoConfig(t)
	d := newDriver(t, cfg, 120, 40)
	_, cmd := d.m.Update(keyMsg("p"))
	if cmd == nil {
		t.Fatal("no Cmd to compute the proposals")
	}
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	d.send(editorDoneMsg{path: filepath.Join(dir, "projects/-home-dev-acme-api/memory")})
	_ = d.m.View()
	d.send(<-done)
	d.selectProposal(ciBotTitle)
	if !strings.Contains(d.screen(), "+[REDACTED]") {
		t.Errorf("the proposals must show:\n%s", d.screen())
	}
}
