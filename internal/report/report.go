// Package report prints lint findings for people (grouped by project,
// coloured on a terminal) and for programs (the JSON shape of DESIGN.md
// section 2).
package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/themes"
)

// Summary counts what a lint run found.
type Summary struct {
	Errors     int            `json:"errors"`
	Warnings   int            `json:"warnings"`
	Info       int            `json:"info"`
	Projects   int            `json:"projects"`
	MemoryDirs int            `json:"memory_dirs"`
	Files      int            `json:"files"`
	ByRule     map[string]int `json:"by_rule"`
	// Unselected counts the errors in the configuration outside a
	// selection (--project, --memory-dir: the user's own settings, an
	// environment override): reported, but not what the selection is
	// judged on, so they do not set lint's exit code.
	Unselected int `json:"errors_outside_selection,omitempty"`
}

// Summarize counts the findings and the scan's size.
func Summarize(scan *model.Scan, fs []model.Finding) Summary {
	s := Summary{ByRule: map[string]int{}}
	for _, f := range fs {
		switch f.Severity {
		case model.Error:
			s.Errors++
		case model.Warning:
			s.Warnings++
		default:
			s.Info++
		}
		s.ByRule[f.Rule]++
	}
	if scan != nil {
		s.Projects = len(scan.Projects)
		for _, p := range scan.Projects {
			s.MemoryDirs += len(p.Dirs)
			for _, d := range p.Dirs {
				s.Files += len(d.Files)
				if d.Index != nil {
					s.Files++
				}
			}
		}
	}
	return s
}

// JSON writes {"version":1,"findings":[...],"summary":{...},
// "transcript_problems":[{"transcript":...,"message":...}],
// "claude_code":{...}} (claude_code is versions' VersionJSON). Every text
// field has its secrets masked (a message quotes text from a file or a
// transcript); JSON escapes the control characters itself.
func JSON(w io.Writer, fs []model.Finding, sum Summary, probs []model.TranscriptProblem, versions VersionNotice) error {
	masked := make([]model.Finding, len(fs))
	for i, f := range fs {
		f.Project, f.MemoryDir, f.File = safe.Mask(nil, f.Project), safe.Mask(nil, f.MemoryDir), safe.Mask(nil, f.File)
		f.Message, f.Suggestion = safe.Mask(nil, f.Message), safe.Mask(nil, f.Suggestion)
		masked[i] = f
	}
	fs = masked
	mp := make([]model.TranscriptProblem, len(probs))
	for i, p := range probs {
		mp[i] = model.TranscriptProblem{Transcript: safe.Mask(nil, p.Transcript), Message: safe.Mask(nil, p.Message)}
	}
	return WriteJSON(w, struct {
		Version    int                       `json:"version"`
		Findings   []model.Finding           `json:"findings"`
		Summary    Summary                   `json:"summary"`
		Problems   []model.TranscriptProblem `json:"transcript_problems"`
		ClaudeCode VersionJSON               `json:"claude_code"`
	}{1, fs, sum, mp, versions.JSON()})
}

// WriteJSON writes v as indented JSON, as every --json output is: HTML
// characters as they are, and what JSON leaves raw that a terminal could
// act on (C1 controls, bidi overrides) escaped by safe.JSON.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(safe.JSON(buf.Bytes()))
	return err
}

// Styles colour the human report; the zero value is plain text. They are
// built by themes from the one palette the TUI draws with too.
type Styles = themes.ReportStyles

// DefaultStyles colours for a dark or light terminal. Colour is written as
// full ANSI; the caller's colorprofile writer downsamples or strips it for
// pipes and NO_COLOR.
func DefaultStyles(dark bool) Styles { return themes.NewReportStyles(themes.For(dark, false)) }

// findingIndent is where a finding's text starts: four spaces, the
// seven-column severity and a space. Wrapped lines hang at the same column.
const findingIndent = 12

// Text writes findings grouped by project and memory directory, then a
// summary line. home, when set, is shown as ~ in paths. width, when
// positive, wraps long lines at word boundaries with a hanging indent (for a
// terminal); 0 leaves every finding on one line (for grep and pipes).
func Text(w io.Writer, fs []model.Finding, sum Summary, st Styles, home string, width int) error {
	// A real tree can have tens of thousands of findings. Styling each
	// piece through lipgloss cost more than checking the whole tree, so
	// each style is rendered once into the escape codes around its text,
	// and output goes through one buffer.
	bw := bufio.NewWriterSize(w, 64<<10)
	p := painters(st)
	groups := group(fs)
	indent := strings.Repeat(" ", findingIndent)
	for gi, g := range groups {
		if gi > 0 {
			bw.WriteByte('\n')
		}
		title := g.project
		if title == "" {
			title = "configuration"
		}
		bw.WriteString(p.project.Paint(safe.ShowLine(Tilde(title, home))))
		bw.WriteByte('\n')
		for _, d := range g.dirs {
			if d.dir != "" {
				bw.WriteString("  ")
				bw.WriteString(p.dir.Paint(safe.ShowLine(Tilde(d.dir, home))))
				bw.WriteByte('\n')
			}
			for _, f := range d.findings {
				sev := f.Severity
				if sev < model.Info || sev > model.Error {
					sev = model.Info
				}
				bw.WriteString("    ")
				bw.WriteString(p.severity[sev].Paint(sevLabel[sev]))
				bw.WriteByte(' ')
				// Tens of thousands of lines: when a line needs no
				// wrapping (always, off a terminal) and its pieces no
				// lipgloss, the pieces go straight to the buffer rather
				// than being joined first.
				// Every piece that can quote a file, a path or a
				// transcript is made safe: a newline in a file name must
				// not start a forged line of its own.
				loc := p.location.Paint(safe.ShowLine(location(f, home)))
				msg, rule := safe.ShowLine(f.Message), safe.Line(f.Rule)
				if n, ok := p.rule.PlainLen("[", rule, "]"); ok && fits(len(loc)+1+len(msg)+1+n, width, findingIndent) {
					bw.WriteString(loc)
					bw.WriteByte(' ')
					bw.WriteString(msg)
					bw.WriteByte(' ')
					p.rule.WritePlain(bw, "[", rule, "]")
				} else {
					bw.WriteString(hang(loc+" "+msg+" "+p.rule.Paint("["+rule+"]"), width, findingIndent))
				}
				bw.WriteByte('\n')
				if f.Suggestion != "" {
					sug := safe.ShowLine(f.Suggestion)
					bw.WriteString(indent)
					if n, ok := p.suggestion.PlainLen("→ ", sug, ""); ok && fits(n, width, findingIndent+2) {
						p.suggestion.WritePlain(bw, "→ ", sug, "")
					} else {
						bw.WriteString(hang(p.suggestion.Paint("→ "+sug), width, findingIndent+2))
					}
					bw.WriteByte('\n')
				}
			}
		}
	}
	if len(groups) > 0 {
		bw.WriteByte('\n')
	}
	bw.WriteString(p.summary.Paint(SummaryLine(sum)))
	bw.WriteByte('\n')
	return bw.Flush()
}

// sevLabel is each severity padded to the seven columns of "warning".
var sevLabel = [3]string{
	model.Info:    fmt.Sprintf("%-7s", model.Info),
	model.Warning: fmt.Sprintf("%-7s", model.Warning),
	model.Error:   fmt.Sprintf("%-7s", model.Error),
}

// fits reports whether hang leaves text of n bytes as it is.
func fits(n, width, indent int) bool {
	return width <= 0 || width-indent < 20 || n <= width-indent
}

type painterSet struct {
	project, dir, location, rule, suggestion, summary paint.Painter
	severity                                          [3]paint.Painter
}

func painters(st Styles) painterSet {
	ps := painterSet{
		project: paint.New(st.Project), dir: paint.New(st.Dir), location: paint.New(st.Location),
		rule: paint.New(st.Rule), suggestion: paint.New(st.Suggestion), summary: paint.New(st.Summary),
	}
	for i := range ps.severity {
		ps.severity[i] = paint.New(st.Severity[i])
	}
	return ps
}

// SummaryLine says in one line what was checked and found.
func SummaryLine(s Summary) string {
	found := fmt.Sprintf("%d %s, %d %s, %d info",
		s.Errors, Plural(s.Errors, "error", "errors"), s.Warnings, Plural(s.Warnings, "warning", "warnings"), s.Info)
	if s.Errors+s.Warnings+s.Info == 0 {
		found = "no findings"
	}
	line := fmt.Sprintf("%s in %d %s (%d memory %s, %d %s)", found,
		s.Projects, Plural(s.Projects, "project", "projects"),
		s.MemoryDirs, Plural(s.MemoryDirs, "directory", "directories"),
		s.Files, Plural(s.Files, "file", "files"))
	if s.Unselected > 0 {
		line += fmt.Sprintf("; %d configuration %s outside the selection, which %s not set the exit code", s.Unselected,
			Plural(s.Unselected, "error", "errors"), Plural(s.Unselected, "does", "do"))
	}
	return line
}

// Unselected counts the configuration errors of fs that belong to no
// project: with a selection (--project, --memory-dir) they lie outside it.
func Unselected(fs []model.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == model.Error && f.MemoryDir == "" && f.Project == "" {
			n++
		}
	}
	return n
}

// hang wraps s to fit width when printed after indent columns, indenting
// every continuation line to the same column. Words longer than a line (a
// long path) are broken rather than allowed to overflow.
func hang(s string, width, indent int) string {
	avail := width - indent
	// No character takes more columns than it has bytes, so text no longer
	// than the line fits without measuring it.
	if width <= 0 || avail < 20 || len(s) <= avail {
		return s
	}
	// ansi.Wrap always breaks after a hyphen; rule IDs and file names must
	// stay whole, so hyphens ride through as a one-cell stand-in.
	const nbHyphen = "\u2011"
	s = strings.ReplaceAll(s, "-", nbHyphen)
	wrapped := strings.ReplaceAll(ansi.Wrap(s, avail, " "), nbHyphen, "-")
	lines := strings.Split(wrapped, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat(" ", indent) + lines[i]
	}
	return strings.Join(lines, "\n")
}

func location(f model.Finding, home string) string {
	loc := f.File
	if loc == "" {
		loc = "(directory)"
	}
	loc = Tilde(loc, home)
	if f.Line > 0 {
		loc += ":" + strconv.Itoa(f.Line)
	}
	return loc
}

// Tilde shows a path under home as ~/... .
func Tilde(p, home string) string {
	if home != "" && home != "/" && (p == home || strings.HasPrefix(p, home+string(filepath.Separator))) {
		return "~" + p[len(home):]
	}
	return p
}

type dirGroup struct {
	dir      string
	findings []model.Finding
	// While view is set, findings is fs[start:end] of the slice being
	// grouped, not a copy: sorted findings (Orient's) arrive in runs.
	view       bool
	start, end int
}

// add appends fs[i] to the group: by widening the view when it is the next
// finding, else to a copy of its own.
func (d *dirGroup) add(fs []model.Finding, i int) {
	switch {
	case d.findings == nil:
		d.view, d.start, d.end = true, i, i+1
		d.findings = fs[i : i+1 : i+1]
	case d.view && d.end == i:
		d.end = i + 1
		d.findings = fs[d.start:d.end:d.end]
	default:
		if d.view {
			d.findings = append([]model.Finding(nil), d.findings...)
			d.view = false
		}
		d.findings = append(d.findings, fs[i])
	}
}

type projectGroup struct {
	project string
	dirs    []dirGroup
}

// group arranges findings by project then directory, keeping their order
// within each group; configuration findings (no project) come first.
func group(fs []model.Finding) []projectGroup {
	var out []projectGroup
	idx := map[string]int{}
	for k := range fs {
		f := &fs[k]
		i, ok := idx[f.Project]
		if !ok {
			i = len(out)
			idx[f.Project] = i
			out = append(out, projectGroup{project: f.Project})
		}
		g := &out[i]
		if n := len(g.dirs); n == 0 || g.dirs[n-1].dir != f.MemoryDir {
			g.dirs = append(g.dirs, dirGroup{dir: f.MemoryDir})
		}
		g.dirs[len(g.dirs)-1].add(fs, k)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].project == "") != (out[j].project == "") {
			return out[i].project == ""
		}
		return out[i].project < out[j].project
	})
	return out
}

// Plural picks the word for n of something.
func Plural(n int, one, many string) string { return model.Plural(n, one, many) }
