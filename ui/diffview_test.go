package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/model"
)

// longRemoval is a proposal removing four long lines (each wraps at the
// widths below) between two lines of context.
func longRemoval(t *testing.T) (*diffView, *propItem) {
	t.Helper()
	cfg, _ := demoConfig(t)
	m := New(cfg)
	t.Cleanup(m.Close)
	v := newDiffView(m.c)
	var before strings.Builder
	before.WriteString("# Notes\n")
	for i := range 4 {
		before.WriteString("- line " + itoa(i+1) + ": " + strings.Repeat("memory that goes on and on ", 5) + "end" + itoa(i+1) + "\n")
	}
	before.WriteString("kept\n")
	after := "# Notes\nkept\n"
	it := &propItem{
		p:     model.Proposal{ID: "prune-0000000000", Kind: model.KindPrune, MemoryDir: "/home/dev/x/memory"},
		title: "Drop four lines", rationale: "Because.",
		diffs: []fileDiff{diffChange(model.Change{Path: "notes.md", Op: model.OpUpdate, After: after}, before.String(), m.copts.Secrets)},
	}
	return v, it
}

// diffLines are the rows of the diff body (after the hunk header).
func diffLines(out string) []string {
	var rows []string
	in := false
	for _, ln := range strings.Split(ansi.Strip(out), "\n") {
		ln = strings.TrimRight(ln, " ")
		if in && ln != "" {
			rows = append(rows, ln)
		}
		in = in || strings.HasPrefix(ln, "@@ -1,6 +1,2 @@")
	}
	return rows
}

// A removal of four lines shows four - marks, whatever they wrap to: the
// rows a line goes on to are marked ┆ and carry no line number, and no
// text is lost on the way. The line numbers say which line each is.
func TestDiffWrapMarksEachLineOnce(t *testing.T) {
	v, it := longRemoval(t)
	for _, w := range []int{50, 80, 120} {
		v.SetSize(w, 60)
		v.show(it)
		rows := diffLines(v.View())
		minus, cont := 0, 0
		var text strings.Builder
		for _, r := range rows {
			trimmed := strings.TrimLeft(r, " 0123456789")
			switch {
			case strings.HasPrefix(trimmed, "-"):
				minus++
				text.WriteString("\n" + strings.TrimPrefix(trimmed, "-"))
			case strings.HasPrefix(trimmed, "┆"):
				cont++
				if strings.TrimLeft(r, " ") != trimmed {
					t.Errorf("width %d: a continuation row carries a line number: %q", w, r)
				}
				text.WriteString(strings.TrimPrefix(trimmed, "┆"))
			}
		}
		if minus != 4 {
			t.Errorf("width %d: %d rows marked -, want 4 (one per removed line):\n%s", w, minus, strings.Join(rows, "\n"))
		}
		if cont == 0 {
			t.Errorf("width %d: the long lines did not wrap (the test needs them to):\n%s", w, strings.Join(rows, "\n"))
		}
		for i := 1; i <= 4; i++ {
			if !strings.Contains(text.String(), "end"+itoa(i)) {
				t.Errorf("width %d: line %d's end is lost in the wrap", w, i)
			}
		}
		if !strings.HasPrefix(strings.TrimLeft(rows[1], " "), "2") || !strings.HasPrefix(strings.TrimLeft(rows[0], " "), "1") {
			t.Errorf("width %d: the rows must start with their line numbers: %q, %q", w, rows[0], rows[1])
		}
	}
	// At 120 columns both numbers show: the kept line is 6 before, 2 after.
	v.SetSize(120, 60)
	v.show(it)
	found := false
	for _, r := range diffLines(v.View()) {
		if strings.HasPrefix(r, " 6  2  kept") {
			found = true
		}
	}
	if !found {
		t.Errorf("no row numbers the kept line as old 6, new 2:\n%s", ansi.Strip(v.View()))
	}
}

// With W the lines are cut at the view's edge instead, one row each, and
// > and < scroll them sideways, up to where the longest line ends.
func TestDiffCutScrollsSideways(t *testing.T) {
	v, it := longRemoval(t)
	v.SetSize(60, 60)
	v.show(it)
	v.Update(keyMsg("W"))
	if v.wrap || !strings.Contains(v.modeName(), "lines cut") {
		t.Fatalf("W must cut the lines: wrap %v, %q", v.wrap, v.modeName())
	}
	rows := diffLines(v.View())
	for i := 1; i <= 4; i++ {
		r := rows[i]
		if strings.Contains(r, "┆") || !strings.HasSuffix(r, "…") {
			t.Errorf("a cut line is one row ending in …: %q", r)
		}
		if ansi.StringWidth(r) > 60 {
			t.Errorf("a cut row is wider than the view: %d cells", ansi.StringWidth(r))
		}
	}
	if strings.Contains(ansi.Strip(v.View()), "end1") {
		t.Fatal("the end of line 1 shows before scrolling")
	}
	for range 30 {
		v.Update(keyMsg(">"))
	}
	out := ansi.Strip(v.View())
	if !strings.Contains(out, "end1") || !strings.Contains(v.modeName(), "from column") {
		t.Errorf("scrolled right to the end, line 1's end must show and the heading say where:\n%s\n%s", v.modeName(), out)
	}
	rows = diffLines(v.View())
	if !strings.Contains(rows[1], "-…") {
		t.Errorf("a line scrolled out on the left starts with …: %q", rows[1])
	}
	far := v.xoff
	v.Update(keyMsg(">"))
	if v.xoff != far {
		t.Errorf("scrolling goes past the longest line's end: %d then %d", far, v.xoff)
	}
	for range 30 {
		v.Update(keyMsg("<"))
	}
	if v.xoff != 0 || strings.Contains(v.modeName(), "from column") {
		t.Errorf("< back to the start: offset %d, %q", v.xoff, v.modeName())
	}
	v.Update(keyMsg("W"))
	if !v.wrap {
		t.Error("W again must wrap the lines")
	}
	// > from wrapped lines cuts them: scrolling is what was asked for.
	v.Update(keyMsg(">"))
	if v.wrap || v.xoff == 0 {
		t.Errorf("> on wrapped lines must cut and scroll them: wrap %v, offset %d", v.wrap, v.xoff)
	}
}

// z gives the diff the whole view; esc gives the list its place back, the
// diff keeping the keys, and esc again returns them to the list.
func TestDiffZoom(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		cfg, _ := demoConfig(t)
		d := newDriver(t, cfg, size[0], size[1])
		d.openProposals()
		d.selectProposal(loadTestTitle)
		d.keys("z")
		out := d.screen()
		if !strings.Contains(out, "zoomed (z)") || strings.Contains(out, "Proposals (") || !d.m.proposals.focusDiff {
			t.Fatalf("%v: z must hide the list and give the diff the keys:\n%s", size, out)
		}
		for _, ln := range strings.Split(out, "\n") {
			if ansi.StringWidth(ln) > size[0] {
				t.Errorf("%v: a zoomed row is wider than the screen: %q", size, ln)
			}
		}
		if !strings.Contains(out, "+Load test of the invoice run against staging on 2026-06-12") {
			t.Errorf("%v: the zoomed diff must show the change:\n%s", size, out)
		}
		d.keys("esc")
		out = d.screen()
		if strings.Contains(out, "zoomed") || !strings.Contains(out, "Proposals (") || !d.m.proposals.focusDiff {
			t.Errorf("%v: esc must unzoom, the diff keeping the keys:\n%s", size, out)
		}
		d.keys("z", "z")
		if d.m.proposals.zoom {
			t.Errorf("%v: z again must unzoom", size)
		}
		d.keys("esc")
		if d.m.proposals.focusDiff || d.m.view != viewProposals {
			t.Errorf("%v: esc from the diff goes back to the list", size)
		}
	}
}
