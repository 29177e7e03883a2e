package codex

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// Codex's store is global: one memory_summary.md is injected into every
// session whatever its cwd, and scope lives only in text the
// consolidation writes (codex facts §5). This file rebuilds the per-project
// view a curator needs, from the exact data first: the cwd: header of
// each rollout summary a task cites (machine-written), the cwd of an
// import's scope.json, then the cwd= of the citing bullet; and only when
// a group cites nothing that says where it ran, from its free-text
// applies_to: cwd= (fuzzy).

// ImportDir is the external-agent importer's folder of copied Claude Code
// memory: resources/<project-key>/ holds scope.json and the project's
// memory files, at their paths in its memory directory (codex facts §1.2).
const ImportDir = ExtensionDir + "external_agent_import/resources/"

// ImportScopeFile names the project's working directory in an import.
const ImportScopeFile = "scope.json"

// Where a cited file's cwd comes from, most exact first.
const (
	CwdFromHeader = "the rollout summary's cwd: header"
	CwdFromScope  = "the import's scope.json"
	CwdFromNote   = "the bullet's cwd="
)

// GlobalProject is the Root of the memories that belong to no single
// project: groups that cite no cwd and whose applies_to names no path,
// and groups that span several projects.
const GlobalProject = ""

// Project is the part of a global store that belongs to one project.
type Project struct {
	// Root is the project's directory, slash-separated; GlobalProject
	// for what belongs to none or to several.
	Root string
	// Fuzzy says nothing exact places anything here: Root comes only
	// from applies_to: cwd= or a summary scope heading.
	Fuzzy bool
	// Groups are the handbook's task groups placed here, in handbook
	// order.
	Groups []PlacedGroup
	// Scopes are the summary's scope headings that name this project.
	Scopes []Scope
}

// Name is how the project is shown: its folder's name, or "global".
func (p Project) Name() string {
	if p.Root == GlobalProject {
		return "global"
	}
	return path.Base(p.Root)
}

// PlacedGroup is a task group placed in a project.
type PlacedGroup struct {
	// Index is the group's position in Handbook.Groups; Title and Line
	// are its header's.
	Index int
	Title string
	Line  int
	// Fuzzy says it was placed by its applies_to: cwd= alone: none of
	// the files its tasks cite says where it ran.
	Fuzzy bool
	// Cwds are the distinct working directories its cited files say it
	// ran in (normalised), sorted; empty for a fuzzy placement.
	Cwds []string
	// Why says, for a group in the global project, why it is there.
	Why string
}

// Scope is a project scope heading of the summary's What's in Memory: a
// "### <scope>" of the recent window, or a "#### <scope>" under "###
// Older Memory Topics".
type Scope struct {
	Title string
	Line  int
	Older bool
}

// SummaryScopes are the scope headings of memory_summary.md's ## What's in
// Memory (codex facts §1.3.1).
func SummaryScopes(content []byte) []Scope {
	var out []Scope
	in, older := false, false
	for i, l := range splitLines(string(content)) {
		text := strings.TrimSuffix(l.text, "\r")
		switch {
		case strings.HasPrefix(text, "## "):
			in, older = strings.TrimSpace(text[3:]) == "What's in Memory", false
		case !in:
		case strings.HasPrefix(text, "### "):
			t := strings.TrimSpace(text[4:])
			older = t == "Older Memory Topics"
			if !older {
				out = append(out, Scope{Title: t, Line: i + 1})
			}
		case older && strings.HasPrefix(text, "#### "):
			out = append(out, Scope{Title: strings.TrimSpace(text[5:]), Line: i + 1, Older: true})
		}
	}
	return out
}

// PathsIn are the absolute and home-relative paths a free text names
// ("cwd=/work/shop", "the /work/shop/* family", "~/src/blog",
// "C:\Users\u\shop"), each as written, cut where a glob begins and with
// surrounding punctuation dropped; "/" alone and URLs are not paths.
func PathsIn(text string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == ';' || r == '\n' || r == '\r' || r == '=' || r == '|'
	}) {
		tok = strings.TrimLeft(tok, "([{<`'\"")
		tok = strings.TrimRight(tok, ")]}>`'\".:!?")
		if i := strings.IndexAny(tok, "*?{["); i >= 0 {
			tok = tok[:i]
		}
		tok = strings.TrimRight(tok, "/\\")
		if isAbsPath(tok) {
			out = append(out, tok)
		}
	}
	return out
}

// isAbsPath: /x, ~/x, ~, or a Windows drive path.
func isAbsPath(s string) bool {
	switch {
	case len(s) > 1 && s[0] == '/' && s[1] != '/':
		return true
	case s == "~" || strings.HasPrefix(s, "~/"):
		return true
	case len(s) > 3 && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z' && s[1] == ':' && (s[2] == '\\' || s[2] == '/'):
		return true
	}
	return false
}

// HomeOf is the user's home directory as a Codex home shows it: the
// folder holding the default ~/.codex; "" when the home is elsewhere.
func HomeOf(s *Store) string {
	if path.Base(toSlash(s.Home)) == ".codex" {
		return path.Dir(toSlash(s.Home))
	}
	return ""
}

// NormPath is p as the per-project view compares paths: slash-separated,
// ~ expanded when home is known, cleaned, with no trailing slash.
func NormPath(p, home string) string {
	p = toSlash(strings.TrimSpace(p))
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = home + p[1:]
	}
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

func toSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// Within reports whether p is root or below it (both normalised).
func Within(p, root string) bool {
	return p == root || root == "/" && strings.HasPrefix(p, "/") || strings.HasPrefix(p, root+"/")
}

// Container says p holds projects rather than being one: the root, a
// top-level folder, a home directory (/home/u, /Users/u, /root,
// C:/Users/u, the Codex home's owner). A cwd below it is never merged
// into it.
func Container(p, home string) bool {
	if p == home || p == "~" {
		return true
	}
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) > 0 && len(parts[0]) == 2 && parts[0][1] == ':' {
		parts = parts[1:] // a drive
	}
	switch {
	case len(parts) <= 1:
		return true
	case len(parts) == 2 && (parts[0] == "home" || parts[0] == "Users" || parts[0] == "users"):
		return true
	}
	return false
}

// CitedCwds are the working directories of the files a handbook can cite
// as evidence, by path relative to the root: each rollout summary's cwd:
// header, and for each imported file its project's scope.json cwd.
func CitedCwds(s *Store) map[string]string {
	out := map[string]string{}
	scopes := map[string]string{} // resources/<key>/ → cwd
	for _, f := range s.Files {
		if rest, ok := strings.CutPrefix(f.Path, ImportDir); ok {
			if key, file, ok := strings.Cut(rest, "/"); ok && file == ImportScopeFile {
				if cwd := ImportCwd(f.Content); cwd != "" {
					scopes[key] = cwd
				}
			}
		}
	}
	for _, f := range s.Files {
		switch {
		case strings.HasPrefix(f.Path, RolloutDir):
			if cwd := ParseRolloutSummary(f.Content).Cwd; cwd != "" {
				out[f.Path] = cwd
			}
		case strings.HasPrefix(f.Path, ImportDir):
			key, _, _ := strings.Cut(strings.TrimPrefix(f.Path, ImportDir), "/")
			if cwd := scopes[key]; cwd != "" {
				out[f.Path] = cwd
			}
		}
	}
	return out
}

// ImportCwd is the cwd of an import's scope.json ({"cwd": "<abs path>"}),
// "" when it names none.
func ImportCwd(content []byte) string {
	var v struct {
		Cwd string `json:"cwd"`
	}
	if json.Unmarshal(content, &v) != nil {
		return ""
	}
	return v.Cwd
}

// RefCwd is where the file a handbook bullet cites ran, and what says so:
// the file's own record (cited, from CitedCwds) when the store has it,
// else the bullet's cwd=; "" when neither says.
func RefCwd(r Ref, cited map[string]string) (cwd, from string) {
	if c := cited[path.Clean(r.Path)]; c != "" {
		from = CwdFromHeader
		if strings.HasPrefix(r.Path, ImportDir) {
			from = CwdFromScope
		}
		return c, from
	}
	if c := r.Note["cwd"]; c != "" {
		return c, CwdFromNote
	}
	return "", ""
}

// Projects groups a global store's memories by project (codex facts §5);
// see ProjectsOf.
func Projects(s *Store) []Project {
	var h Handbook
	if f := s.File(HandbookFile); f != nil {
		h = ParseHandbook(f.Content)
	}
	return ProjectsOf(s, h)
}

// ProjectsOf groups a global store's memories by project (codex facts
// §5), h being the store's handbook as parsed:
//
//   - Each task group goes to the project where the files its tasks cite
//     ran (exact): a rollout summary's cwd: header, an import's
//     scope.json, else the citing bullet's cwd=. A cwd below another cwd
//     seen in the store goes to that one, the common repository root
//     (never to a home directory or a top-level folder: those hold
//     projects).
//   - A group whose cited files name no cwd is placed by the paths its
//     applies_to: cwd= names (Fuzzy): one path, or several within one
//     project, places it there.
//   - A group with no cwd at all (applies_to names a workflow) or whose
//     cwds fall in several projects is global, with Why saying which.
//   - The summary's scope headings go to the project whose root they
//     name (a path at or below it, or its folder's name); a path no
//     group ran in is a project of its own (Fuzzy); anything else is
//     global.
//
// Projects come sorted by Root, the global one (when it holds anything)
// last.
func ProjectsOf(s *Store, h Handbook) []Project {
	home := HomeOf(s)
	cited := CitedCwds(s)
	// The exact cwds of each group, and every one seen.
	exact := make([][]string, len(h.Groups))
	seen := map[string]bool{}
	for i, g := range h.Groups {
		set := map[string]bool{}
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				if c, _ := RefCwd(r, cited); c != "" {
					set[NormPath(c, home)] = true
				}
			}
		}
		for c := range set {
			exact[i] = append(exact[i], c)
			seen[c] = true
		}
		sort.Strings(exact[i])
	}
	// A cwd's project root: the shallowest seen cwd it lies within that
	// is not a container, found by walking up its folders (a lookup per
	// folder, however many cwds the store names).
	roots := map[string]bool{}
	for c := range seen {
		if !Container(c, home) {
			roots[c] = true
		}
	}
	rootOf := func(p string) string {
		root := p
		for q := p; ; {
			if roots[q] {
				root = q
			}
			up := path.Dir(q)
			if up == q || up == "." {
				return root
			}
			q = up
		}
	}
	byRoot := map[string]*Project{}
	get := func(root string) *Project {
		p := byRoot[root]
		if p == nil {
			p = &Project{Root: root, Fuzzy: true}
			byRoot[root] = p
		}
		return p
	}
	for i, g := range h.Groups {
		pg := PlacedGroup{Index: i, Title: g.Title, Line: g.Line, Cwds: exact[i]}
		found := map[string]bool{}
		if len(exact[i]) == 0 {
			pg.Fuzzy = true
			for _, p := range PathsIn(g.Cwd) {
				found[rootOf(NormPath(p, home))] = true
			}
		} else {
			for _, c := range exact[i] {
				found[rootOf(c)] = true
			}
		}
		names := make([]string, 0, len(found))
		for r := range found {
			names = append(names, r)
		}
		sort.Strings(names)
		root := GlobalProject
		switch {
		case len(names) == 1:
			root = names[0]
		case len(names) > 1 && pg.Fuzzy:
			pg.Why = "its applies_to names several projects: " + strings.Join(names, ", ")
		case len(names) > 1:
			pg.Why = "its tasks ran in several projects: " + strings.Join(names, ", ")
		case g.Cwd != "":
			pg.Why = "no cited file says where it ran, and its applies_to names no path: " + g.Cwd
		default:
			pg.Why = "no cited file says where it ran, and it has no applies_to: cwd="
		}
		p := get(root)
		p.Groups = append(p.Groups, pg)
		if !pg.Fuzzy {
			p.Fuzzy = false
		}
	}
	var sum []byte
	if f := s.File(SummaryFile); f != nil {
		sum = f.Content
	}
	// The groups' projects by folder name, for scopes that name one.
	byName := map[string][]string{}
	for r := range byRoot {
		if r != GlobalProject {
			n := strings.ToLower(path.Base(r))
			byName[n] = append(byName[n], r)
		}
	}
	for _, sc := range SummaryScopes(sum) {
		p := get(scopeRoot(sc.Title, home, rootOf, byName))
		p.Scopes = append(p.Scopes, sc)
	}
	out := make([]Project, 0, len(byRoot))
	for _, p := range byRoot {
		if p.Root == GlobalProject {
			p.Fuzzy = false // nothing is guessed about what belongs nowhere
		}
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Root, out[j].Root
		if (a == GlobalProject) != (b == GlobalProject) {
			return b == GlobalProject
		}
		return a < b
	})
	return out
}

// scopeRoot is the project a summary scope heading names: the root of the
// path it holds, or the project whose folder's name it is ("shop",
// "shop (checkout)"); GlobalProject otherwise.
func scopeRoot(title, home string, rootOf func(string) string, byName map[string][]string) string {
	if ps := PathsIn(title); len(ps) > 0 {
		return rootOf(NormPath(ps[0], home))
	}
	if m := byName[strings.ToLower(ScopeName(title))]; len(m) == 1 {
		return m[0]
	}
	return GlobalProject
}

// ScopeName is the project name a scope heading that holds no path gives:
// its one word, a trailing "(…)" set aside ("shop (checkout)" is "shop");
// "" when it is a phrase (a workflow, "git hygiene").
func ScopeName(title string) string {
	t := strings.TrimSpace(title)
	if i := strings.IndexByte(t, '('); i > 0 {
		t = strings.TrimSpace(t[:i])
	}
	t = strings.Trim(t, "`'\":")
	if t == "" || strings.ContainsAny(t, " \t/\\") {
		return ""
	}
	return t
}
