package ui

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
)

// findingsView lists every finding across all loaded projects, filtered by
// minimum severity, by rule and by fuzzy text, with the selected finding's
// full message and suggestion below the list.
type findingsView struct {
	c      *shared
	all    []model.Finding
	shown  []int // indices into all
	minSev model.Severity
	rules  []string
	counts map[string]int
	rule   string // "" for every rule
	filter string
	list   list
	w, h   int
	// loading is set while projects are still being read: no finding
	// yet is not yet "nothing to fix".
	loading bool
}

func newFindingsView(c *shared) *findingsView { return &findingsView{c: c} }

// setFindings replaces the findings (sorted), keeping the filters and, when
// it is still there, the selected finding.
func (v *findingsView) setFindings(fs []model.Finding) {
	var keep *model.Finding
	if f := v.selected(); f != nil {
		c := *f
		keep = &c
	}
	v.all = fs
	v.rules, v.counts = sortedRules(fs)
	v.apply()
	if keep != nil {
		for i, idx := range v.shown {
			if v.all[idx] == *keep {
				v.list.cursor = i
				v.list.clamp()
				break
			}
		}
	}
}

// apply recomputes the shown findings from the filters.
func (v *findingsView) apply() {
	v.shown = v.shown[:0]
	var cand []int
	for i, f := range v.all {
		if f.Severity < v.minSev || v.rule != "" && f.Rule != v.rule {
			continue
		}
		cand = append(cand, i)
	}
	if v.filter != "" {
		// Every word typed must appear somewhere in the finding: a fuzzy
		// match over long messages would match nearly everything.
		terms := strings.Fields(strings.ToLower(v.filter))
		for _, i := range cand {
			f := v.all[i]
			text := strings.ToLower(f.Rule + " " + f.Project + " " + f.MemoryDir + " " + f.File + " " + f.Message)
			ok := true
			for _, t := range terms {
				if !strings.Contains(text, t) {
					ok = false
					break
				}
			}
			if ok {
				v.shown = append(v.shown, i)
			}
		}
	} else {
		v.shown = append(v.shown, cand...)
	}
	v.list.setRows(v.rows())
}

// rows draws the shown findings in three columns, each as wide as its
// widest value (the rule's and the place's capped, so the message keeps
// room): the rule, where (the project's last path element, the file and
// line), the message. The list makes the text safe; widths are measured
// as it will show it, so the columns line up whatever a path holds.
func (v *findingsView) rows() []row {
	rules := make([]string, len(v.shown))
	wheres := make([]string, len(v.shown))
	ruleW, whereW := 0, 0
	ruleCap, whereCap := 24, max(16, (v.w-2)/3)
	for j, i := range v.shown {
		f := v.all[i]
		// The project's last element names it, and a settings file's
		// base name names it (the detail below has the whole paths): the
		// cells left go to the message.
		loc := f.File
		if f.MemoryDir == "" && loc != "" {
			loc = path.Base(filepath.ToSlash(loc)) // configuration: an absolute path
		}
		if f.Line > 0 {
			loc += ":" + itoa(f.Line)
		}
		proj := path.Base(filepath.ToSlash(f.Project))
		if f.Project == "" {
			proj = "configuration"
		}
		rules[j] = cutEnd(f.Rule, ruleCap)
		wheres[j] = truncLeft(proj+" "+loc, whereCap)
		ruleW = max(ruleW, shownWidth(rules[j]))
		whereW = max(whereW, shownWidth(wheres[j]))
	}
	rows := make([]row, len(v.shown))
	for j, i := range v.shown {
		f := v.all[i]
		rows[j] = row{ref: i, badge: sevSymbol(f.Severity), sev: int(f.Severity),
			left: padShown(rules[j], ruleW) + "  " + padShown(wheres[j], whereW) + "  " + f.Message}
	}
	return rows
}

// selected is the finding under the cursor, or nil.
func (v *findingsView) selected() *model.Finding {
	r := v.list.selected()
	if r == nil {
		return nil
	}
	return &v.all[r.ref]
}

// cycleRule steps the rule filter through "every rule" and each rule present.
func (v *findingsView) cycleRule(step int) {
	opts := append([]string{""}, v.rules...)
	i := 0
	for j, r := range opts {
		if r == v.rule {
			i = j
		}
	}
	v.rule = opts[(i+step+len(opts))%len(opts)]
	v.apply()
	v.list.top()
}

// detailLines is the height of the detail box under the list.
const detailLines = 5

func (v *findingsView) SetSize(w, h int) {
	wider := w != v.w
	v.w, v.h = w, h
	v.list.setSize(w, max(h-detailLines-1, 1))
	if wider {
		v.list.setRows(v.rows()) // the place's column follows the width
	}
}

// key handles the findings view's keys: its filter, opening a finding's
// file (enter jumps to it, e edits it), leaving.
func (v *findingsView) key(k tea.KeyPressMsg, h host) tea.Cmd {
	keys := v.c.keys.Findings
	switch {
	case key.Matches(k, keys.Filter):
		return h.startFilter()
	case key.Matches(k, keys.Edit):
		return h.edit()
	case key.Matches(k, keys.Back) && v.filter != "":
		v.filter = ""
		v.apply()
		return nil
	case key.Matches(k, keys.Back, keys.Leave):
		return h.navigate(navigateMsg{to: viewBrowse})
	case key.Matches(k, keys.Open):
		if f := v.selected(); f != nil {
			return h.jump(*f)
		}
		return nil
	}
	return v.Update(k)
}

func (v *findingsView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := v.c.keys.Findings
	switch {
	case listKeys(&v.list, v.c, k):
	case key.Matches(k, keys.Severity):
		v.minSev = (v.minSev + 1) % 3
		v.apply()
		v.list.top()
	case key.Matches(k, keys.NextRule):
		v.cycleRule(1)
	case key.Matches(k, keys.PrevRule):
		v.cycleRule(-1)
	}
	return nil
}

// filterLine says which filters are on and how many findings show.
func (v *findingsView) filterLine() string {
	st := v.c.st
	sev := []string{"all severities", "warnings and errors", "errors only"}[v.minSev]
	rule := "every rule"
	if v.rule != "" {
		rule = v.rule + fmt.Sprintf(" (%d)", v.counts[v.rule])
	}
	parts := []string{fmt.Sprintf("%d of %d findings", len(v.shown), len(v.all)), sev, rule}
	if v.filter != "" {
		parts = append(parts, "matching “"+safe.ShowLine(v.filter)+"”")
	}
	return st.Faint.Render(ansi.Truncate(strings.Join(parts, " · ")+"   s severity · [ ] rule · / filter · enter open", v.w, "…"))
}

func (v *findingsView) View() string {
	st := v.c.st
	listView := v.list.view(st.Item, st.Selected, st.GroupHeader, st.Badge, v.empty())
	var detail []string
	if f := v.selected(); f != nil {
		where := report.Tilde(f.MemoryDir, v.c.home)
		switch {
		case f.MemoryDir == "":
			where = report.Tilde(f.File, v.c.home) // configuration: File is absolute
		case f.File != "":
			where += "/" + f.File
		}
		if f.Line > 0 && f.File != "" {
			where += ":" + itoa(f.Line)
		}
		rule := safe.Line(f.Rule)
		detail = append(detail, st.Sev[f.Severity].Render(sevSymbol(f.Severity)+" "+f.Severity.String())+" "+st.Bold.Render(rule)+"  "+st.Faint.Render(truncLeft(safe.ShowLine(where), max(v.w-len(rule)-12, 10))))
		for _, ln := range strings.Split(ansi.Wrap(safe.ShowLine(f.Message), v.w, " "), "\n") {
			detail = append(detail, st.Text.Render(ln))
		}
		if f.Suggestion != "" {
			for _, ln := range strings.Split(ansi.Wrap("→ "+safe.ShowLine(f.Suggestion), v.w, " "), "\n") {
				detail = append(detail, st.Faint.Render(ln))
			}
		}
	}
	return v.filterLine() + "\n" + listView + "\n" + fit(strings.Join(detail, "\n"), v.w, detailLines)
}

// empty says why the list is empty: nothing found (yet), or filters that
// hide every finding, and the keys that widen them.
func (v *findingsView) empty() string {
	keys := v.c.keys.Findings
	switch {
	case len(v.all) == 0 && v.loading:
		return "No findings yet: the projects are still being read."
	case len(v.all) == 0:
		return "No findings: nothing to fix here."
	case v.filter != "":
		return noMatch("finding", v.filter, keys.Back)
	}
	return fmt.Sprintf("No finding passes these filters: %s widens the severity, %s and %s change the rule.",
		keys.Severity.Help().Key, keys.PrevRule.Help().Key, keys.NextRule.Help().Key)
}

func (v *findingsView) scope() keymap.Scope { return keymap.ScopeFindings }

func (v *findingsView) ShortHelp() []key.Binding {
	k := v.c.keys
	return []key.Binding{k.Move.Up, k.Move.Down, k.Findings.Open, k.Findings.Severity, k.Findings.NextRule, k.Findings.Filter}
}
