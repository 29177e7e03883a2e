package themes

import (
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/model"
)

// colourLiteral matches a colour written in Go source: a hex code, a
// lipgloss colour, an RGBA value, or a hand-written 256- or true-colour
// escape code.
var colourLiteral = regexp.MustCompile(`#[0-9a-fA-F]{6}\b|lipgloss\.Color\(|lipgloss\.ANSIColor\(|color\.N?RGBA\{|[34]8;[25];`)

var hexCode = regexp.MustCompile(`#[0-9a-fA-F]{6}\b`)

// The palette is written once: no colour outside themes/, and no hex code
// twice even inside it (roles that look alike share one value), so the
// TUI, its diffs and the CLI report cannot drift apart.
func TestColoursAreWrittenOnlyOnce(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not %s: %v", root, err)
	}
	seen := map[string][]string{} // hex code → where it is written
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		inThemes := filepath.Dir(rel) == "themes"
		for i, line := range strings.Split(string(src), "\n") {
			where := rel + ":" + strconv.Itoa(i+1)
			if !inThemes {
				if m := colourLiteral.FindString(line); m != "" {
					t.Errorf("%s: a colour (%q) written outside themes/; add a role to the palette instead", where, m)
				}
			}
			for _, h := range hexCode.FindAllString(line, -1) {
				h = strings.ToUpper(h)
				seen[h] = append(seen[h], where)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d Go files under %s: the walk missed the repository", files, root)
	}
	if len(seen) < 10 {
		t.Fatalf("only %d hex codes found: the palette was not read", len(seen))
	}
	var dups []string
	for h, at := range seen {
		if len(at) > 1 {
			dups = append(dups, h+" at "+strings.Join(at, ", "))
		}
	}
	sort.Strings(dups)
	for _, d := range dups {
		t.Errorf("colour written more than once: %s", d)
	}
}

// hasColour reports whether c is a colour: lipgloss answers NoColor{},
// not nil, for a colour a style does not set.
func hasColour(c color.Color) bool {
	_, none := c.(lipgloss.NoColor)
	return c != nil && !none
}

func sameColour(a, b color.Color) bool {
	if !hasColour(a) || !hasColour(b) {
		return !hasColour(a) && !hasColour(b)
	}
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

// The CLI report draws each role in the TUI's colour for it, except its
// own shades, which are exactly the ones listed here: a new difference
// fails, and so does unifying one (then drop it from the list and from
// Theme's Report fields).
func TestReportUsesTheTUIsColourForEachRole(t *testing.T) {
	own := map[string][]string{
		"dark":  {"faint", "text"},
		"light": {"faint", "info", "text", "warning"},
	}
	for _, th := range []Theme{Dark(), Light()} {
		tui, diff := NewStyles(th), NewDiffStyles(th)
		rep, drep := NewReportStyles(th), NewDiffReportStyles(th)
		roles := []struct {
			role        string
			report, tui lipgloss.Style
			shade       color.Color // the report's own shade for the role, if it has one
		}{
			{role: "accent", report: rep.Project, tui: tui.Title},
			{role: "accent", report: drep.ID, tui: tui.Accent},
			{role: "error", report: rep.Severity[model.Error], tui: tui.Sev[model.Error]},
			{role: "diff add", report: drep.Add, tui: diff.Add},
			{role: "diff delete", report: drep.Del, tui: diff.Del},
			{role: "info", report: rep.Severity[model.Info], tui: tui.Sev[model.Info], shade: th.ReportInfo},
			{role: "info", report: drep.Hunk, tui: diff.Hunk, shade: th.ReportInfo},
			{role: "warning", report: rep.Severity[model.Warning], tui: tui.Sev[model.Warning], shade: th.ReportWarning},
			{role: "faint", report: rep.Dir, tui: tui.Faint, shade: th.ReportFaint},
			{role: "faint", report: rep.Rule, tui: tui.Faint, shade: th.ReportFaint},
			{role: "faint", report: rep.Suggestion, tui: tui.Faint, shade: th.ReportFaint},
			{role: "faint", report: drep.Rationale, tui: tui.Faint, shade: th.ReportFaint},
			{role: "text", report: rep.Location, tui: tui.Text, shade: th.ReportText},
		}
		differ := map[string]bool{}
		for _, r := range roles {
			got, want := r.report.GetForeground(), r.tui.GetForeground()
			if !hasColour(got) || !hasColour(want) {
				t.Fatalf("%s: %s has no colour (report %v, TUI %v)", th.Name, r.role, got, want)
			}
			if sameColour(got, want) {
				continue
			}
			if !hasColour(r.shade) || !sameColour(got, r.shade) {
				t.Errorf("%s: the report's %s is %v, neither the TUI's %v nor a shade of its own", th.Name, r.role, got, want)
				continue
			}
			differ[r.role] = true
		}
		var got []string
		for role := range differ {
			got = append(got, role)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(own[th.Name], ",") {
			t.Errorf("%s: the report differs from the TUI in %v, want exactly %v", th.Name, got, own[th.Name])
		}
	}
}
