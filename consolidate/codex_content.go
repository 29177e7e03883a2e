package consolidate

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/codex"
	"github.com/memtui/memtui/model/prose"
)

// The content checks of a Codex store (codex facts §9 items 5, 10, 11):
// what its memories say rather than how the files are shaped. Codex's
// store is global (codex facts §5): the summary's User Profile, User
// preferences and General Tips reach every session whatever its cwd, so
// a line there that names one project leaks it into all the others
// (openai/codex#23658); the handbook grows into a ledger of near-
// duplicate learnings (#29818). The detectors are the Claude checks'
// own: prose's date finders, similar's near-duplicate engine.

// The content rules. Relative dates and year-less dates reuse the Claude
// rules (relative-date, date-missing-year): same detector, same meaning,
// so one ignore entry silences both. Near-duplicates get a rule of their
// own: duplicate-memory is about files, which Dream merges; these are
// bullets inside Codex's files, which only its consolidation rewrites.
const (
	RuleCodexLeak          = "codex-leak"
	RuleCodexScopeMismatch = "codex-scope-mismatch"
	RuleCodexCwdGone       = "codex-cwd-gone"
	RuleCodexDuplicate     = "codex-duplicate"
	RuleCodexRecited       = "codex-rollout-recited"
	RuleCodexClaudeOverlap = "codex-claude-overlap"
	RuleCodexImportDrift   = "codex-import-drift"
)

// codexContent is what the content checks read of a store, parsed once.
type codexContent struct {
	// home is the user's home as the store shows it ("" when unknown).
	home string
	h    codex.Handbook
	// cited are the cwds of the files the handbook can cite
	// (codex.CitedCwds); projects the store by project.
	cited    map[string]string
	projects []codex.Project
	// bullets are the handbook's bullets (handbookBullets), then the
	// summary's top-section lines (summaryLines).
	bullets []codexBullet
}

func newCodexContent(c *codexCheck) *codexContent {
	s := c.s
	x := &codexContent{home: codex.HomeOf(s), h: c.handbookDoc()}
	if f := s.File(codex.HandbookFile); f != nil {
		x.bullets = handbookBullets(f.Content)
	}
	if f := s.File(codex.SummaryFile); f != nil {
		x.bullets = append(x.bullets, summaryLines(f.Content)...)
	}
	x.cited = codex.CitedCwds(s)
	x.projects = codex.ProjectsOf(s, x.h)
	return x
}

// content runs the content checks (CheckCodex calls it).
func (c *codexCheck) content() {
	x := newCodexContent(c)
	c.leaks(x)
	c.scopeMismatch(x)
	c.cwdGone(x)
	c.codexDates(x)
	c.codexDuplicates(x)
	c.recited(x)
}

// codexBullet is a line of the summary's top sections, or a bullet of a
// handbook group's block-level sections, with its continuation lines.
type codexBullet struct {
	file    string // codex.SummaryFile or codex.HandbookFile
	line    int
	section string // the "## " section it is under
	group   int    // its task group's index in the handbook; -1 in the summary
	bullet  bool   // a "- " bullet (the User Profile is prose)
	text    string // without the "- "
}

// summaryTop are the summary's sections Codex's template says are cross-
// project, injected into every session (codex facts §5).
var summaryTop = map[string]bool{"User Profile": true, "User preferences": true, "General Tips": true}

// summaryLines are the non-blank lines of the summary's top sections,
// a bullet's continuation lines joined to it.
func summaryLines(content []byte) []codexBullet {
	var out []codexBullet
	section := ""
	eachLine(content, func(n, _ int, text string, fenced bool) {
		if fenced {
			return
		}
		if strings.HasPrefix(text, "#") {
			if t, ok := strings.CutPrefix(text, "## "); ok {
				section = strings.TrimSpace(t)
			}
			return
		}
		if !summaryTop[section] {
			return
		}
		out = addLine(out, codexBullet{file: codex.SummaryFile, line: n, section: section, group: -1}, text)
	})
	return out
}

// handbookBullets are the bullets of each task group's block-level
// sections (User preferences, Reusable knowledge, Failures and how to do
// differently): what the group learned, where #29818's repeats are.
func handbookBullets(content []byte) []codexBullet {
	var out []codexBullet
	group, section := -1, ""
	eachLine(content, func(n, _ int, text string, fenced bool) {
		switch {
		case fenced:
			return
		case strings.HasPrefix(text, "# Task Group:"):
			group, section = group+1, ""
			return
		case strings.HasPrefix(text, "## "):
			section = strings.TrimSpace(text[3:])
			if !codexBlockSections[section] {
				section = ""
			}
			return
		case strings.HasPrefix(text, "#"):
			return
		}
		if group < 0 || section == "" {
			return
		}
		out = addLine(out, codexBullet{file: codex.HandbookFile, line: n, section: section, group: group}, text)
	})
	var bullets []codexBullet
	for _, b := range out {
		if b.bullet && !strings.HasPrefix(b.text, "Related skill:") {
			bullets = append(bullets, b)
		}
	}
	return bullets
}

var codexBlockSections = map[string]bool{"User preferences": true, "Reusable knowledge": true, "Failures and how to do differently": true}

// addLine adds a line to out: a new bullet, a continuation of the last
// one (indented, not a bullet itself, on the next line), or a line of
// prose.
func addLine(out []codexBullet, b codexBullet, text string) []codexBullet {
	trim := strings.TrimSpace(text)
	if trim == "" {
		return out
	}
	if rest, ok := strings.CutPrefix(trim, "- "); ok {
		b.bullet, b.text = true, strings.TrimSpace(rest)
		return append(out, b)
	}
	if k := len(out); k > 0 && out[k-1].bullet && text != trim && out[k-1].section == b.section && out[k-1].group == b.group {
		out[k-1].text += " " + trim
		return out
	}
	b.text = trim
	return append(out, b)
}

// eachLine calls fn with each line (1-based, where it begins, its text
// without the line end) and whether it is inside a fenced code block or
// is a fence.
func eachLine(content []byte, fn func(n, start int, text string, fenced bool)) {
	fence := ""
	s := string(content)
	for n, start := 1, 0; start < len(s); n++ {
		text := s[start:]
		next := len(s)
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text, next = text[:i], start+i+1
		}
		text = strings.TrimSuffix(text, "\r")
		trim := strings.TrimSpace(text)
		fenced := fence != ""
		if f := codex.FenceOf(trim); f != "" && (fence == "" || strings.HasPrefix(trim, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			fenced = true
		}
		fn(n, start, text, fenced)
		start = next
	}
}

// --- Cross-project leakage (codex facts §5, §9 item 11) ---------------------

// genericNames are folder names too common to name one project: a line
// saying "the api" or "src" names no repository.
var genericNames = map[string]bool{
	"app": true, "apps": true, "src": true, "code": true, "repo": true, "repos": true, "project": true, "projects": true,
	"work": true, "workspace": true, "home": true, "tmp": true, "dev": true, "web": true, "api": true, "server": true,
	"client": true, "main": true, "test": true, "tests": true, "docs": true, "lib": true, "pkg": true, "cmd": true,
	"global": true, "general": true, "misc": true, "shared": true, "common": true, "core": true, "frontend": true,
	"backend": true, "service": true, "services": true, "infra": true, "scripts": true, "tools": true, "utils": true,
	"data": true, "config": true, "site": true, "build": true, "notes": true, "memory": true, "memories": true,
	"codex": true, "claude": true, "git": true, "github": true, "users": true, "root": true, "desktop": true, "documents": true,
}

// systemDirs hold no project: a path under them is the machine's, the
// same for every repository.
var systemDirs = []string{"/tmp", "/etc", "/usr", "/var", "/opt", "/dev", "/proc", "/sys", "/bin", "/sbin", "/lib", "/lib64",
	"/private", "/System", "/Library", "/Applications", "/nix", "/snap"}

// projectNames are the names that single out one project of this store,
// lowercased, each with where it comes from: the folders of the
// projects (codex.Projects), of every applies_to path, and the summary's
// scope headings.
func (x *codexContent) projectNames() map[string]string {
	names := map[string]string{}
	add := func(name, from string) {
		n := strings.ToLower(strings.Trim(name, "._-"))
		if len(n) < 3 || genericNames[n] || strings.ContainsAny(n, " \t/\\") {
			return
		}
		if _, ok := names[n]; !ok {
			names[n] = from
		}
	}
	for _, p := range x.projects {
		if p.Root != codex.GlobalProject && !codex.Container(p.Root, x.home) {
			add(path.Base(p.Root), "a project of this store, "+p.Root)
		}
		for _, sc := range p.Scopes {
			if n := codex.ScopeName(sc.Title); n != "" {
				add(n, "a scope of What's in Memory")
			}
		}
	}
	for _, g := range x.h.Groups {
		for _, p := range codex.PathsIn(g.Cwd) {
			if n := codex.NormPath(p, x.home); !codex.Container(n, x.home) {
				add(path.Base(n), "a task group's applies_to, "+p)
			}
		}
	}
	return names
}

// projectPath says an absolute or ~ path names something of one project:
// not a system folder, not a home directory or what sits right in it
// as a dotfile (~/.zshrc, ~/.config/…: the user's, in every project).
func projectPath(p, home string) bool {
	n := codex.NormPath(p, home)
	if codex.Container(n, home) || strings.HasPrefix(p, "~/.") {
		return false
	}
	for _, d := range systemDirs {
		if codex.Within(n, d) {
			return false
		}
	}
	parts := strings.Split(strings.Trim(n, "/"), "/")
	if len(parts) > 0 && len(parts[0]) == 2 && parts[0][1] == ':' {
		parts = parts[1:]
	}
	// /home/u/.config, /Users/u/.ssh, ~/.codex expanded: the user's own.
	if len(parts) >= 3 && (parts[0] == "home" || parts[0] == "Users") && strings.HasPrefix(parts[2], ".") {
		return false
	}
	if home != "" && codex.Within(n, home) && strings.HasPrefix(strings.TrimPrefix(n, home+"/"), ".") {
		return false
	}
	return true
}

// wrappers are repository-local programs every project of their kind
// has: advice about them is general.
var wrappers = map[string]bool{"./gradlew": true, "./mvnw": true, "./configure": true}

// repoCommands are the repository's own programs a line runs: a
// "./tool" or "../tool" (not "./..." of go test), and a code span that
// starts with a relative path into the repository ("scripts/release.sh").
func repoCommands(line string) []string {
	var out []string
	for _, tok := range strings.Fields(line) {
		tok = strings.TrimRight(strings.TrimLeft(tok, "`'\"("), "`'\"(),;:.!?")
		rest, ok := strings.CutPrefix(tok, "./")
		if !ok {
			rest, ok = strings.CutPrefix(tok, "../")
		}
		if ok && rest != "" && isWordByte(rest[0]) && rest[0] != '.' && !wrappers[tok] {
			out = append(out, tok)
		}
	}
	for rest := line; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			break
		}
		span := rest[i+1 : i+1+j]
		rest = rest[i+1+j+1:]
		first, _, _ := strings.Cut(strings.TrimSpace(span), " ")
		if strings.Contains(first, "/") && !strings.HasPrefix(first, "/") && !strings.HasPrefix(first, ".") &&
			!strings.HasPrefix(first, "~") && !strings.Contains(first, "://") && repoScript(first) {
			out = append(out, first)
		}
	}
	return out
}

// repoScript: a script file, or a program in a repository's scripts or
// bin folder.
func repoScript(p string) bool {
	switch path.Ext(p) {
	case ".sh", ".bash", ".py", ".rb", ".pl", ".js", ".mjs", ".ts", ".ps1":
		return true
	}
	top, _, _ := strings.Cut(p, "/")
	return top == "scripts" || top == "script" || top == "bin" || top == "hack" || top == "tools"
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.'
}

// word is a word of a line and where it begins.
type word struct {
	text string
	at   int
}

// words are the line's words as repository names are spelt: runs of
// letters, digits, "_", "-" and ".", without a trailing "." or "-".
func words(s string) []word {
	var out []word
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if w := strings.TrimRight(s[i:j], ".-_"); w != "" {
			out = append(out, word{w, i})
		}
		i = j
	}
	return out
}

// nameQualifiers say the word beside them is the name of a project: "the
// blog repo", "shop's codebase", "the ledger service".
var nameQualifiers = map[string]bool{"repo": true, "repos": true, "repository": true, "project": true, "codebase": true,
	"monorepo": true, "service": true, "app": true, "site": true, "package": true, "module": true, "crate": true, "workspace": true}

// namedAsProject says the k-th word of ws, a project's name, is written
// as one. A name with a digit or a "-", "_" or "." (acme-api, web3) is
// one wherever it stands; a plain word ("blog", "kubernetes") only in
// a code span or beside a word that says so, since prose uses it in its
// ordinary sense ("writes a static blog").
func namedAsProject(line string, ws []word, k int) bool {
	w := ws[k].text
	if strings.ContainsAny(w, "-_.0123456789") || strings.Count(line[:ws[k].at], "`")%2 == 1 {
		return true
	}
	if k > 0 && nameQualifiers[strings.ToLower(ws[k-1].text)] {
		return true
	}
	next := k + 1
	if next < len(ws) && ws[next].text == "s" && ws[next].at == ws[k].at+len(w)+1 {
		next++ // shop's codebase
	}
	return next < len(ws) && nameQualifiers[strings.ToLower(ws[next].text)]
}

// leaks: lines of the summary's top sections that name one project (a
// path of it, its name, a program of its repository). Codex injects
// these sections into every session whatever its cwd (#23658); what
// belongs to one project belongs under its scope. Lines of the What's
// in Memory scopes and of the handbook's groups are where such names
// belong, and are not read here.
func (c *codexCheck) leaks(x *codexContent) {
	names := x.projectNames()
	for _, b := range x.bullets {
		if b.file != codex.SummaryFile {
			continue
		}
		var what []string
		rest := b.text
		for _, p := range codex.PathsIn(b.text) {
			if projectPath(p, x.home) {
				what = append(what, "the path "+p)
			}
			rest = strings.ReplaceAll(rest, p, " ")
		}
		cmds := repoCommands(rest)
		for _, cmd := range cmds {
			what = append(what, "the repository's own "+cmd)
			rest = strings.ReplaceAll(rest, cmd, " ")
		}
		seen := map[string]bool{}
		ws := words(rest)
		for k, w := range ws {
			n := strings.ToLower(w.text)
			if from, ok := names[n]; ok && !seen[n] && namedAsProject(rest, ws, k) {
				seen[n] = true
				what = append(what, "\""+w.text+"\" ("+from+")")
			}
		}
		if len(what) == 0 {
			continue
		}
		c.report(RuleCodexLeak, codex.SummaryFile, b.line,
			fmt.Sprintf("the summary's ## %s reaches every Codex session, whatever its project, and this line names %s: what one project taught is applied in all the others", b.section, strings.Join(what, ", ")),
			"Keep it under that project: in its task group of MEMORY.md, or its ### scope of What's in Memory (a note in extensions/ad_hoc/notes/ can ask Codex's consolidation to move it); or say it so that it holds everywhere.")
	}
}

// maxScopePaths bounds the folders of one applies_to compared with each
// citation: real ones name one, a family a few.
const maxScopePaths = 16

// scopeMismatch: a task group whose applies_to: cwd= names paths none of
// which holds (or lies within) the cwd a cited file says its task ran in:
// what was learned in one project is filed, and reused, under another.
func (c *codexCheck) scopeMismatch(x *codexContent) {
	for _, g := range x.h.Groups {
		var scope []string
		for _, p := range codex.PathsIn(g.Cwd) {
			if len(scope) == maxScopePaths {
				break
			}
			scope = append(scope, codex.NormPath(p, x.home))
		}
		if len(scope) == 0 {
			continue // a workflow or a family in words: nothing to compare
		}
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				cwd, from := codex.RefCwd(r, x.cited)
				if cwd == "" {
					continue
				}
				n := codex.NormPath(cwd, x.home)
				related := false
				for _, p := range scope {
					if codex.Within(n, p) || codex.Within(p, n) {
						related = true
						break
					}
				}
				if related {
					continue
				}
				c.report(RuleCodexScopeMismatch, codex.HandbookFile, r.Line,
					fmt.Sprintf("Task %d of the task group %q cites %s, which ran in %s (%s), but the group applies to %s: a session in that project reuses what another project taught",
						t.N, g.Title, r.Path, cwd, from, g.Cwd),
					"Check which project the task belongs to; a note in extensions/ad_hoc/notes/ can ask Codex's consolidation to move it to that project's task group, or to correct applies_to.")
			}
		}
	}
}

// cwdGone: applies_to: cwd= paths that are not on this machine any more
// (codex facts §9 item 5): the project moved or was deleted, and its
// memories stay until they go unused for max_unused_days.
func (c *codexCheck) cwdGone(x *codexContent) {
	for _, g := range x.h.Groups {
		seen := map[string]bool{}
		for _, p := range codex.PathsIn(g.Cwd) {
			if exists, known := c.s.CwdExists[p]; !known || exists || seen[p] {
				continue
			}
			seen[p] = true
			c.report(RuleCodexCwdGone, codex.HandbookFile, g.Line,
				fmt.Sprintf("the task group %q applies to %s, which does not exist on this machine: the project moved or was deleted, and Codex keeps its memories until they go unused for %d days",
					g.Title, p, c.s.Config.MaxUnusedDays),
				"If the project moved, a note in extensions/ad_hoc/notes/ can ask Codex's consolidation to update applies_to; if it is gone, to forget the group.")
		}
	}
}

// --- Dates --------------------------------------------------------------------

// dateRegion is a part of a file with the time its relative dates count
// from, and what that time is.
type dateRegion struct {
	from, to int
	at       time.Time
	source   string
}

// codexDates: relative dates and dates without a year in the files a
// person or Codex's agent writes (the summary, the handbook, notes,
// skills), with the Claude checks' detectors and wording. Not in
// raw_memories.md and rollout summaries: Codex rebuilds them from its
// database, and an edit there is lost. Each date counts from the best
// time the file gives: a recent-memory day heading of the summary for
// the lines under it, a task group's newest cited rollout (updated_at)
// for the group's lines, a note's name (when it was written), else the
// file's mtime, as Claude's check counts from the file's.
func (c *codexCheck) codexDates(x *codexContent) {
	for _, f := range c.s.Files {
		var regions []dateRegion
		mtime := dateRegion{0, len(f.Content), f.ModTime.In(time.Local), "the file's mtime"}
		switch codex.KindOf(f.Path) {
		case codex.KindSummary:
			regions = summaryDays(f.Content, mtime)
		case codex.KindHandbook:
			regions = groupTimes(f.Content, x.h, mtime)
		case codex.KindNote:
			regions = []dateRegion{mtime}
			name := path.Base(f.Path)
			if codex.ValidNoteName(name) {
				if t, err := time.Parse("2006-01-02T15-04-05", name[:19]); err == nil {
					regions = []dateRegion{{0, len(f.Content), t.In(time.Local), "the note's name"}}
				}
			}
		case codex.KindSkill:
			if path.Ext(f.Path) != ".md" {
				continue
			}
			regions = []dateRegion{mtime}
		default:
			continue
		}
		text := string(f.Content)
		lines := lineStarts(text)
		for _, r := range regions {
			if r.at.IsZero() || r.at.Year() < 2000 || r.from >= r.to {
				continue
			}
			part := text[r.from:r.to]
			for _, sp := range prose.FindRelativeDates(part, r.at) {
				msg := fmt.Sprintf("\"%s\" meant %s, counted from %s (%s)", sp.Text, sp.Meant, r.source, r.at.Format("2006-01-02"))
				if sp.Ambiguous {
					msg += "; ambiguous: " + sp.Note
				}
				c.report(RuleRelativeDate, f.Path, lineAt(lines, r.from+sp.Start), msg, fmt.Sprintf("Write \"%s\" instead.", sp.Replacement))
			}
			for _, sp := range prose.FindMissingYears(part, r.at) {
				c.report(RuleDateMissingYear, f.Path, lineAt(lines, r.from+sp.Start),
					fmt.Sprintf("\"%s\" has no year; written %s, it most likely means %s", sp.Text, r.at.Format("2006-01-02"), sp.Meant),
					fmt.Sprintf("Write \"%s\".", sp.Replacement))
			}
		}
	}
}

// summaryDays splits the summary: the lines under each "#### YYYY-MM-DD"
// day heading of What's in Memory count from that day, the rest from
// the file's mtime.
func summaryDays(content []byte, base dateRegion) []dateRegion {
	var out []dateRegion
	at := 0 // where the current mtime region began
	in, older := false, false
	var day *dateRegion
	closeDay := func(end int) {
		if day != nil {
			day.to = end
			out = append(out, *day)
			day = nil
			at = end
		}
	}
	eachLine(content, func(_, start int, text string, fenced bool) {
		if fenced || !isHeading(text) {
			return
		}
		closeDay(start)
		switch {
		case strings.HasPrefix(text, "## "):
			in, older = strings.TrimSpace(text[3:]) == "What's in Memory", false
		case strings.HasPrefix(text, "### "):
			older = strings.TrimSpace(text[4:]) == "Older Memory Topics"
		case in && !older && strings.HasPrefix(text, "#### "):
			d, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(text[5:]), time.Local)
			if err != nil {
				return
			}
			if at < start {
				out = append(out, dateRegion{at, start, base.at, base.source})
			}
			day = &dateRegion{from: start, at: d, source: "its day heading"}
		}
	})
	closeDay(len(content))
	if at < len(content) {
		out = append(out, dateRegion{at, len(content), base.at, base.source})
	}
	return out
}

// isHeading: a Markdown heading of level 1 to 4.
func isHeading(text string) bool {
	t := strings.TrimLeft(text, "#")
	n := len(text) - len(t)
	return n >= 1 && n <= 4 && strings.HasPrefix(t, " ")
}

// groupTimes splits the handbook by task group: a group's lines count
// from the newest updated_at of the rollouts it cites (when its text was
// learned), the rest from the file's mtime.
func groupTimes(content []byte, h codex.Handbook, base dateRegion) []dateRegion {
	starts := lineStarts(string(content))
	offset := func(line int) int { // where 1-based line begins; len at the end
		if line-1 < len(starts) {
			return starts[line-1]
		}
		return len(content)
	}
	var out []dateRegion
	at := 0
	for _, g := range h.Groups {
		var newest time.Time
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				if u, err := time.Parse(time.RFC3339, r.Note["updated_at"]); err == nil && u.After(newest) {
					newest = u
				}
			}
		}
		if newest.IsZero() {
			continue
		}
		from, to := offset(g.Line), offset(g.End+1)
		if at < from {
			out = append(out, dateRegion{at, from, base.at, base.source})
		}
		out = append(out, dateRegion{from, to, newest.In(time.Local), "the group's newest cited rollout (updated_at)"})
		at = to
	}
	if at < len(content) {
		out = append(out, dateRegion{at, len(content), base.at, base.source})
	}
	return out
}

// lineAt is the 1-based line holding offset off.
func lineAt(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

// --- Near-duplicates (codex facts §9 item 10) ---------------------------------

// bulletItems are bullets as similar.Find sees them: the text alone, with
// no name, so only the body rules apply (identical once normalised, or
// word pairs mostly in common). The path is a key made of letters, in the
// bullets' order: digits in it would read as a numbered series, and the
// first bullet is the one kept. The tags that cite a task ("[Task 2]",
// "[ad-hoc note]") are dropped: their numbers would make two copies of
// one learning state different facts.
func bulletItems(bs []codexBullet, prefix string, at time.Time) []similar.Item {
	items := make([]similar.Item, len(bs))
	for i, b := range bs {
		items[i] = similar.Item{Path: prefix + letterKey(i, len(bs)) + "/-.md", Body: untag(b.text), Modified: at}
	}
	return items
}

// letterKey is i in base 26, width digits for n keys: keys sort as their
// numbers do.
func letterKey(i, n int) string {
	width := 1
	for m := 26; m < n; m *= 26 {
		width++
	}
	b := make([]byte, width)
	for k := width - 1; k >= 0; k-- {
		b[k] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

// keyIndex is the bullet a letterKey path names.
func keyIndex(p, prefix string) int {
	k := strings.TrimSuffix(strings.TrimPrefix(p, prefix), "/-.md")
	i := 0
	for _, c := range []byte(k) {
		i = i*26 + int(c-'a')
	}
	return i
}

// untag drops the bracketed citations of tasks and notes.
func untag(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		tag := s[i+1 : i+j]
		b.WriteString(s[:i])
		if !strings.HasPrefix(tag, "Task") && tag != "ad-hoc note" {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// codexDuplicates: bullets of different task groups that say the same
// thing (#29818: a handbook grown into a ledger of repeated learnings),
// and lines of the summary's top sections that repeat each other (the
// summary is injected whole, under a 10,000-byte cap). A repeat inside
// one group is left alone (its failure restated as its fix), and so is a
// summary line that repeats a handbook bullet: the template lifts the
// handbook's preferences into the summary on purpose.
func (c *codexCheck) codexDuplicates(x *codexContent) {
	var hb, sb []codexBullet
	for _, b := range x.bullets {
		switch {
		case b.file == codex.HandbookFile:
			hb = append(hb, b)
		case b.bullet && b.section != "User Profile":
			sb = append(sb, b)
		}
	}
	for _, g := range similar.Find(bulletItems(hb, "h", time.Time{})) {
		keep := hb[keyIndex(g.Paths[0], "h")]
		for _, p := range g.Paths[1:] {
			b := hb[keyIndex(p, "h")]
			if b.group == keep.group || max(b.group, keep.group) >= len(x.h.Groups) {
				continue
			}
			c.report(RuleCodexDuplicate, codex.HandbookFile, b.line,
				fmt.Sprintf("this %s bullet of the task group %q repeats line %d, in the task group %q (%s)", b.section, x.h.Groups[b.group].Title, keep.line, x.h.Groups[keep.group].Title, g.Reason),
				"Keep it once, in the group it belongs to (or in the summary's General Tips if it holds everywhere); a note in extensions/ad_hoc/notes/ can ask Codex's consolidation to merge them.")
		}
	}
	for _, g := range similar.Find(bulletItems(sb, "s", time.Time{})) {
		keep := sb[keyIndex(g.Paths[0], "s")]
		for _, p := range g.Paths[1:] {
			b := sb[keyIndex(p, "s")]
			c.report(RuleCodexDuplicate, codex.SummaryFile, b.line,
				fmt.Sprintf("this line of the summary's ## %s repeats line %d (## %s) (%s): the summary is injected into every session under a 10,000-byte cap, and a repeat spends it twice", b.section, keep.line, keep.section, g.Reason),
				"Keep one of the two.")
		}
	}
}

// recited: a rollout summary cited by more tasks than it records, or by
// two tasks with the same keywords, or twice by one task: the same work
// recorded again, with nothing distinct to add (codex facts §9 item 10).
func (c *codexCheck) recited(x *codexContent) {
	type cite struct {
		g, t int
		line int
		kw   string
	}
	by := map[string][]cite{}
	var order []string
	for gi, g := range x.h.Groups {
		for ti, t := range g.Tasks {
			kws := make([]string, len(t.Keywords))
			for i, k := range t.Keywords {
				kws[i] = strings.ToLower(k)
			}
			sort.Strings(kws)
			for _, r := range t.Rollouts {
				p := path.Clean(r.Path)
				if !strings.HasPrefix(p, codex.RolloutDir) {
					continue // an import's file may serve several tasks
				}
				if by[p] == nil {
					order = append(order, p)
				}
				by[p] = append(by[p], cite{gi, ti, r.Line, strings.Join(kws, ",")})
			}
		}
	}
	name := func(ct cite) string {
		g := x.h.Groups[ct.g]
		return fmt.Sprintf("Task %d of %q", g.Tasks[ct.t].N, g.Title)
	}
	files := make(map[string]*model.File, len(c.s.Files))
	for _, f := range c.s.Files {
		files[f.Path] = f
	}
	for _, p := range order {
		cs := by[p]
		recorded := 0
		if f := files[p]; f != nil {
			eachLine(f.Content, func(_, _ int, text string, fenced bool) {
				if !fenced && strings.HasPrefix(text, "## Task ") {
					recorded++
				}
			})
		}
		// The first citation by each task, and by each set of keywords.
		byTask := map[[2]int]int{}
		byKw := map[string]int{}
		for i, ct := range cs {
			if first, ok := byTask[[2]int{ct.g, ct.t}]; ok {
				c.report(RuleCodexRecited, codex.HandbookFile, ct.line, fmt.Sprintf("%s cites %s twice (line %d)", name(ct), p, cs[first].line), "Drop the second bullet.")
				continue
			}
			byTask[[2]int{ct.g, ct.t}] = i
			same, kwSeen := byKw[ct.kw]
			switch {
			case recorded > 0 && len(byTask) > recorded:
				c.report(RuleCodexRecited, codex.HandbookFile, ct.line,
					fmt.Sprintf("%s cites %s, which records %d task(s), already cited by %s: the same work is recorded more than once", name(ct), p, recorded, name(cs[0])),
					"Keep it under the task it records; a note in extensions/ad_hoc/notes/ can ask Codex's consolidation to merge the repeats.")
			case kwSeen && ct.kw != "":
				c.report(RuleCodexRecited, codex.HandbookFile, ct.line,
					fmt.Sprintf("%s cites %s with the same keywords as %s: the same work is recorded twice", name(ct), p, name(cs[same])),
					"Keep one of the two tasks; a note in extensions/ad_hoc/notes/ can ask Codex's consolidation to merge them.")
			}
			if !kwSeen {
				byKw[ct.kw] = i
			}
		}
	}
}

// --- Overlap with Claude Code's memory (codex facts §9 item 10) ---------------

// codexLater dates the Codex side of an overlap group after every Claude
// memory, so that the memory similar.Find keeps (the oldest) is Claude
// Code's, and each Codex member is linked to it.
var codexLater = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// CheckCodexOverlap checks a Codex store against the same user's Claude
// Code memory (dirs, as loaded, their contents still there):
//
//   - codex-claude-overlap: a bullet of the handbook's block sections or
//     the summary's top sections, or a note, that near-duplicates a
//     Claude memory file (similar.Find, the duplicate-memory engine):
//     the same fact kept by both agents, where an edit to one leaves the
//     other stale. Files imported from Claude Code are left to the next
//     check.
//   - codex-import-drift: a file the external-agent importer copied into
//     extensions/external_agent_import/resources/<key>/ that no longer
//     matches its source, <claude>/projects/<key>/memory/<same path>
//     (codex facts §1.2), when that directory is among dirs: changed on
//     either side since, or gone from Claude Code's memory.
//
// Rules silenced for the project "codex" stay silent, as in CheckCodex.
func CheckCodexOverlap(s *codex.Store, dirs []*model.MemoryDir, opts Options) []model.Finding {
	opts = opts.WithDefaults()
	c := &codexCheck{s: s, opts: opts, ignored: map[string]bool{}}
	for _, ig := range opts.Ignore {
		if ig.Project == "codex" || ig.Project == s.Home {
			for _, r := range ig.Rules {
				c.ignored[r] = true
			}
		}
	}
	if !s.Exists || len(dirs) == 0 {
		return nil
	}
	c.overlap(newCodexContent(c), dirs)
	c.importDrift(dirs)
	SortFindings(c.findings)
	return c.findings
}

// overlap reports Codex bullets and notes that repeat a Claude memory.
func (c *codexCheck) overlap(x *codexContent, dirs []*model.MemoryDir) {
	var items []similar.Item
	type claudeRef struct {
		dir *model.MemoryDir
		rel string
	}
	claudeOf := map[string]claudeRef{}
	for di, d := range dirs {
		prefix := "c" + letterKey(di, len(dirs)) + "/"
		for _, f := range d.Files {
			if DupSkipped(f) || len(f.Content) == 0 {
				continue
			}
			doc := claude.ParseDoc(f.Content)
			it := DupItem(f, &doc, string(doc.Body(f.Content)))
			it.Path = prefix + f.Path
			claudeOf[it.Path] = claudeRef{d, f.Path}
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		return
	}
	// A group drawn only from imported Claude memory repeats it by
	// design; whether the copy is current is importDrift's question.
	imported := make([]bool, len(x.h.Groups))
	for gi, g := range x.h.Groups {
		n, in := 0, 0
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				n++
				if strings.HasPrefix(path.Clean(r.Path), codex.ImportDir) {
					in++
				}
			}
		}
		imported[gi] = n > 0 && in == n
	}
	var bs []codexBullet
	for _, b := range x.bullets {
		if b.bullet && (b.group < 0 || b.group >= len(imported) || !imported[b.group]) {
			bs = append(bs, b)
		}
	}
	items = append(items, bulletItems(bs, "x", codexLater)...)
	notes := map[string]*model.File{}
	for _, f := range c.s.Files {
		if codex.KindOf(f.Path) == codex.KindNote && path.Ext(f.Path) == ".md" {
			p := "n/" + f.Path
			notes[p] = f
			items = append(items, similar.Item{Path: p, Body: string(f.Content), Modified: codexLater})
		}
	}
	for _, g := range similar.Find(items) {
		src, ok := claudeOf[g.Paths[0]]
		if !ok {
			continue
		}
		where := strings.TrimSuffix(src.dir.Path, "/") + "/" + src.rel
		for _, p := range g.Paths[1:] {
			file, line, what := "", 0, ""
			switch {
			case strings.HasPrefix(p, "x"):
				b := bs[keyIndex(p, "x")]
				file, line, what = b.file, b.line, "this line"
			case notes[p] != nil:
				file, what = notes[p].Path, "this note"
			default:
				continue // another Claude memory: duplicate-memory's business
			}
			c.report(RuleCodexClaudeOverlap, file, line,
				fmt.Sprintf("%s repeats the Claude Code memory %s (%s): both agents keep the fact, and an edit to one leaves the other stale", what, where, g.Reason),
				"If both agents need it, keep the two in step; if only one does, drop it from the other (for Codex, a note in extensions/ad_hoc/notes/ can ask its consolidation to forget it).")
		}
	}
}

// importDrift reports imported copies of Claude memory that no longer
// match their source.
func (c *codexCheck) importDrift(dirs []*model.MemoryDir) {
	// The Claude dir of each project key: <config>/projects/<key>/memory,
	// the importer's source.
	byKey := map[string]*model.MemoryDir{}
	for _, d := range dirs {
		p := strings.ReplaceAll(d.Path, "\\", "/")
		if d.Exists && path.Base(p) == "memory" && path.Base(path.Dir(path.Dir(p))) == "projects" {
			byKey[path.Base(path.Dir(p))] = d
		}
	}
	for _, f := range c.s.Files {
		rest, ok := strings.CutPrefix(f.Path, codex.ImportDir)
		if !ok || path.Ext(f.Path) != ".md" {
			continue
		}
		key, rel, ok := strings.Cut(rest, "/")
		d := byKey[key]
		if !ok || d == nil {
			continue
		}
		var src *model.File
		if rel == "MEMORY.md" {
			src = d.Index
		} else {
			for _, x := range d.Files {
				if x.Path == rel {
					src = x
					break
				}
			}
		}
		where := strings.TrimSuffix(d.Path, "/") + "/" + rel
		switch {
		case src == nil:
			if path.Base(rel) == "MEMORY.md" || strings.HasPrefix(rel, "team/") {
				continue // memtui does not list these in a Claude dir: no telling
			}
			c.report(RuleCodexImportDrift, f.Path, 0,
				fmt.Sprintf("imported from Claude Code's %s, which is no longer there: Codex keeps drawing on a memory Claude Code has dropped", where),
				"Import the project's Claude Code memory into Codex again: the importer replaces its copies whole.")
		case src.Content == nil || src.Truncated || f.Truncated:
			// Not read whole on one side: no telling.
		case string(src.Content) != string(f.Content):
			why := "the copy in Codex's store was edited since (its source is older), and the next import replaces it whole"
			if src.ModTime.After(f.ModTime) {
				why = "the Claude Code memory changed after it was imported: Codex's copy, and what its consolidation drew from it, are stale"
			}
			c.report(RuleCodexImportDrift, f.Path, 0, fmt.Sprintf("differs from its source, Claude Code's %s: %s", where, why),
				"Import the project's Claude Code memory into Codex again: the importer replaces its copies whole.")
		}
	}
}
