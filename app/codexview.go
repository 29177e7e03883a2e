package app

import (
	"bytes"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Codex's store seen as a person browses it (issue 17): the one file
// every session loads, the handbook's task groups, the notes that feed
// the next consolidation, and what Codex rebuilds from its database, each
// with what memtui may do to it and why not. The views draw this and
// know nothing else of Codex's layout; a face that lists Claude Code's
// projects lists a CodexStore beside them.

// CodexSection is one heading of a Codex store's listing: its files (or
// task groups) of one kind.
type CodexSection struct {
	// Kind is what its entries are; Title names it as the list shows it.
	Kind    codex.Kind
	Title   string
	Entries []CodexEntry
}

// CodexEntry is one selectable thing of the store: a file, or one task
// group of the handbook (Group set, File the handbook).
type CodexEntry struct {
	Kind codex.Kind
	// Path is relative to the memory root, slash-separated.
	Path string
	// Name is how the list shows it.
	Name  string
	File  *model.File
	Group *codex.TaskGroup
	// ReadOnly says why memtui never edits it; "" when it may (the store
	// permitting: CodexStore.Busy).
	ReadOnly string
	// Findings are the checks' findings on it (for a task group, those on
	// its lines).
	Findings []model.Finding
}

// Lines is the entry's lines in its file (1-based, inclusive): a task
// group's block, else the whole file (0, 0).
func (e CodexEntry) Lines() (from, to int) {
	if e.Group != nil {
		return e.Group.Line, e.Group.End
	}
	return 0, 0
}

// Text is what the entry shows: a task group's block of the handbook,
// else the file's bytes.
func (e CodexEntry) Text() []byte {
	if e.File == nil {
		return nil
	}
	if e.Group == nil {
		return e.File.Content
	}
	return sliceLines(e.File.Content, e.Group.Line, e.Group.End)
}

// sliceLines is lines from..to (1-based, inclusive) of b.
func sliceLines(b []byte, from, to int) []byte {
	start, n := 0, 1
	for n < from && start < len(b) {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			return nil
		}
		start += i + 1
		n++
	}
	end := start
	for end < len(b) && n <= to {
		i := bytes.IndexByte(b[end:], '\n')
		if i < 0 {
			end = len(b)
			break
		}
		end += i + 1
		n++
	}
	return b[start:end]
}

// CodexStore is one Codex home's store as the views show it.
type CodexStore struct {
	Store *codex.Store
	// Summary is memory_summary.md as a session loads it (zero Loaded
	// with Empty set when there is none), Shape its structure.
	Summary codex.Loaded
	Shape   codex.Summary
	// Handbook is MEMORY.md parsed.
	Handbook codex.Handbook
	// Projects are the store's memories by the project they belong to
	// (codex.ProjectsOf: from where their sessions ran, else from
	// applies_to), the global ones under codex.GlobalProject.
	Projects []codex.Project
	// Pending are the files changed since Codex's baseline (codex.Pending:
	// every file hashed, so worked out once here, off the UI thread).
	Pending []codex.Change
	// Cited are the working directories the store's rollout summaries and
	// imports name (codex.CitedCwds), by file: worked out once here, for
	// what a task group's evidence says (codex.RefCwd).
	Cited    map[string]string
	Findings []model.Finding
	// ByFile are the findings by file ("" for the store's own).
	ByFile   map[string][]model.Finding
	Sections []CodexSection
}

// Busy says why memtui writes nothing into the store now ("" when it
// may): a consolidation in progress, or one that crashed.
func (c *CodexStore) Busy() string { return c.Store.Busy() }

// Memories counts what the store remembers as a person counts it: the
// handbook's task groups and the notes waiting for the next
// consolidation.
func (c *CodexStore) Memories() int {
	n := len(c.Handbook.Groups)
	for _, s := range c.Sections {
		if s.Kind == codex.KindNote {
			n += len(s.Entries)
		}
	}
	return n
}

// Worst is the highest severity among the store's findings.
func (c *CodexStore) Worst() (model.Severity, bool) {
	w, ok := model.Info, false
	for _, f := range c.Findings {
		if !ok || f.Severity > w {
			w, ok = f.Severity, true
		}
	}
	return w, ok
}

// GroupEntry is the entry of the handbook's task group whose header is
// on line, ok false when none is.
func (c *CodexStore) GroupEntry(line int) (*CodexEntry, bool) {
	for si := range c.Sections {
		for ei := range c.Sections[si].Entries {
			if e := &c.Sections[si].Entries[ei]; e.Group != nil && e.Group.Line == line {
				return e, true
			}
		}
	}
	return nil, false
}

// The order and the words of the listing's sections.
var codexSections = []struct {
	kind  codex.Kind
	title string
}{
	{codex.KindSummary, "loaded into every session"},
	{codex.KindHandbook, "handbook"},
	{codex.KindNote, "notes"},
	{codex.KindSkill, "skills"},
	{codex.KindExtension, "extensions and imports"},
	{codex.KindRollout, "rollout summaries"},
	{codex.KindRaw, "raw memories"},
	{codex.KindDiff, "consolidation in progress"},
	{codex.KindForeign, "not Codex's"},
}

// readOnlyWhy is why memtui never edits a file of kind k ("" when it
// may, the store permitting).
func readOnlyWhy(k codex.Kind) string {
	switch k {
	case codex.KindRaw, codex.KindRollout:
		return "Codex rewrites this file from its database before each consolidation: an edit would be lost unseen"
	case codex.KindDiff:
		return "Codex writes this file for the consolidation in progress and removes it after"
	case codex.KindExtension:
		return "an extension's file: the extension (or Codex's importer) owns it"
	}
	return ""
}

// NewCodexStore arranges a read store and its findings for the views.
func NewCodexStore(s *codex.Store, findings []model.Finding) *CodexStore {
	c := &CodexStore{Store: s, Findings: findings, ByFile: map[string][]model.Finding{}}
	for _, f := range findings {
		c.ByFile[f.File] = append(c.ByFile[f.File], f)
	}
	c.Summary = codex.Loaded{Empty: true}
	if f := s.File(codex.SummaryFile); f != nil {
		c.Summary = codex.Load(f.Content)
		c.Shape = codex.ParseSummary(f.Content)
	}
	hb := s.File(codex.HandbookFile)
	if hb != nil {
		c.Handbook = codex.ParseHandbook(hb.Content)
	}
	c.Cited = codex.CitedCwds(s)
	c.Projects = codex.ProjectsOf(s, c.Handbook)
	c.Pending = codex.Pending(s.Baseline, s.Files)
	byKind := map[codex.Kind][]CodexEntry{}
	for _, f := range s.Files {
		k := codex.KindOf(f.Path)
		e := CodexEntry{Kind: k, Path: f.Path, Name: entryName(k, f.Path), File: f, ReadOnly: readOnlyWhy(k), Findings: c.ByFile[f.Path]}
		byKind[k] = append(byKind[k], e)
		if k == codex.KindHandbook {
			for i := range c.Handbook.Groups {
				g := &c.Handbook.Groups[i]
				byKind[k] = append(byKind[k], CodexEntry{Kind: k, Path: f.Path, Name: groupName(g), File: f, Group: g,
					Findings: findingsIn(c.ByFile[f.Path], g.Line, g.End)})
			}
		}
	}
	for _, sec := range codexSections {
		es := byKind[sec.kind]
		if len(es) == 0 {
			continue
		}
		if sec.kind != codex.KindHandbook {
			sort.SliceStable(es, func(i, j int) bool { return entryLess(sec.kind, es[i], es[j]) })
		}
		c.Sections = append(c.Sections, CodexSection{Kind: sec.kind, Title: sec.title, Entries: es})
	}
	return c
}

// entryLess orders a section: notes and rollout summaries newest first
// (their names begin with the time), the rest by path.
func entryLess(k codex.Kind, a, b CodexEntry) bool {
	if k == codex.KindNote || k == codex.KindRollout {
		return a.Path > b.Path
	}
	return a.Path < b.Path
}

// entryName is a file's name in the listing: the part of its path under
// its kind's folder (a skill by its folder).
func entryName(k codex.Kind, rel string) string {
	switch k {
	case codex.KindNote:
		name := strings.TrimPrefix(rel, codex.NotesDir)
		if codex.ValidNoteName(name) {
			// "2026-11-21T09-00-00-prefer-uv.md": the slug says what it
			// is, the day when it was written.
			return strings.TrimSuffix(name[20:], ".md") + " (" + name[:10] + ")"
		}
		return name
	case codex.KindRollout:
		name := strings.TrimPrefix(rel, codex.RolloutDir)
		if codex.IsRolloutSummaryName(name) {
			// "2026-11-19T10-12-40-aB3d-migration_locks.md": the slug,
			// else the hash, and the day of the session.
			rest := strings.TrimSuffix(name[20:], ".md")
			if _, slug, ok := strings.Cut(rest, "-"); ok {
				rest = slug
			}
			return rest + " (" + name[:10] + ")"
		}
		return name
	case codex.KindSkill:
		rest := strings.TrimPrefix(rel, codex.SkillsDir)
		if dir, file, ok := strings.Cut(rest, "/"); ok && file == "SKILL.md" {
			return dir
		}
		return rest
	case codex.KindExtension:
		return strings.TrimPrefix(rel, codex.ExtensionDir)
	}
	return path.Base(rel)
}

// groupName is a task group's name in the listing: its title, else its
// line.
func groupName(g *codex.TaskGroup) string {
	if t := strings.TrimSpace(g.Title); t != "" {
		return t
	}
	return "task group at line " + strconv.Itoa(g.Line)
}

// findingsIn are the findings of fs on lines from..to.
func findingsIn(fs []model.Finding, from, to int) []model.Finding {
	var out []model.Finding
	for _, f := range fs {
		if f.Line >= from && f.Line <= to && f.Line > 0 {
			out = append(out, f)
		}
	}
	return out
}
