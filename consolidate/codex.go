package consolidate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The checks of a Codex memory store (facts: codex-memory-format.md §9):
// what a Codex session loads of the summary and where the cap cuts it,
// the summary's and the handbook's strict formats, the handbook's
// references, files Codex deletes or regenerates, notes it would refuse,
// the config it rejects, secrets with memtui's whole rule set (Codex
// redacts only four patterns, and only in what it extracts). Pure, as
// every check: the store comes read (memfs.LoadCodex).

// The Codex rules.
const (
	RuleCodexOff           = "codex-memories-off"
	RuleCodexConfig        = "codex-config"
	RuleCodexSummaryGone   = "codex-summary-missing"
	RuleCodexSummaryCut    = "codex-summary-over-cap"
	RuleCodexSummaryNear   = "codex-summary-near-cap"
	RuleCodexSummaryShape  = "codex-summary-shape"
	RuleCodexHandbookShape = "codex-handbook-shape"
	RuleCodexDangling      = "codex-rollout-dangling"
	RuleCodexOrphan        = "codex-rollout-orphan"
	RuleCodexSkillMissing  = "codex-skill-missing"
	RuleCodexForeign       = "codex-foreign-file"
	RuleCodexLink          = "codex-symlink"
	RuleCodexNoteName      = "codex-note-name"
	RuleCodexRolloutName   = "codex-rollout-name"
	RuleCodexBusy          = "codex-consolidating"
)

// CheckCodex checks a Codex store. The findings name the store by its
// CODEX_HOME (Project) and memory root (MemoryDir), their files relative
// to it; rules silenced for the project "codex" (or its home) in the
// config file are left out.
func CheckCodex(s *codex.Store, opts Options) []model.Finding {
	opts = opts.WithDefaults()
	c := &codexCheck{s: s, opts: opts, ignored: map[string]bool{}}
	for _, ig := range opts.Ignore {
		if ig.Project == "codex" || ig.Project == s.Home {
			for _, r := range ig.Rules {
				c.ignored[r] = true
			}
		}
	}
	// config.toml: what ParseConfig said of it (memtui's reader says
	// why it could not be read, as one of these); with no file, Codex's
	// defaults, so memories are off.
	for _, p := range s.ConfigProblems {
		rule, what := RuleCodexConfig, p.What
		if strings.HasPrefix(p.What, "memories are off") {
			rule = RuleCodexOff
			if !s.ConfigFound {
				what = "no config.toml in " + s.Home + ": Codex's memories are off by default"
			}
		}
		c.report(rule, "../config.toml", p.Line, what, "Fix config.toml: [features] memories = true turns memories on, and [memories] denies unknown keys and clamps numbers to their ranges.")
	}
	c.db()
	if !s.Exists {
		return c.findings
	}
	if why := s.DiffBusy(); why != "" {
		c.report(RuleCodexBusy, codex.DiffFile, 0, why+"; memtui writes nothing into the store until it is gone", "Let the consolidation finish; if Codex crashed, its next run removes the file.")
	}
	c.summary()
	c.handbook()
	c.files()
	c.content()
	c.baseline()
	SortFindings(c.findings)
	return c.findings
}

type codexCheck struct {
	s        *codex.Store
	opts     Options
	ignored  map[string]bool
	findings []model.Finding
	// hb and summaries are MEMORY.md and the rollout summaries parsed,
	// once per check (handbookDoc, rolloutSummary): several checks read
	// them.
	hb        *codex.Handbook
	summaries map[string]codex.RolloutSummary
}

// handbookDoc is MEMORY.md parsed (the zero Handbook without one).
func (c *codexCheck) handbookDoc() codex.Handbook {
	if c.hb == nil {
		var h codex.Handbook
		if f := c.s.File(codex.HandbookFile); f != nil {
			h = codex.ParseHandbook(f.Content)
		}
		c.hb = &h
	}
	return *c.hb
}

// rolloutSummary is the rollout summary f parsed.
func (c *codexCheck) rolloutSummary(f *model.File) codex.RolloutSummary {
	if r, ok := c.summaries[f.Path]; ok {
		return r
	}
	if c.summaries == nil {
		c.summaries = map[string]codex.RolloutSummary{}
	}
	r := codex.ParseRolloutSummary(f.Content)
	c.summaries[f.Path] = r
	return r
}

func (c *codexCheck) report(rule, file string, line int, message, suggestion string) {
	if c.ignored[rule] {
		return
	}
	r, ok := rulesByID[rule]
	if !ok {
		panic("consolidate: unknown rule " + rule)
	}
	c.findings = append(c.findings, model.Finding{Rule: rule, Severity: r.Severity, Project: c.s.Home, MemoryDir: c.s.Root,
		File: file, Line: line, Message: message, Suggestion: sentence(suggestion)})
}

// summary: what a session loads of memory_summary.md, and its shape.
func (c *codexCheck) summary() {
	f := c.s.File(codex.SummaryFile)
	var l codex.Loaded
	if f != nil {
		l = codex.Load(f.Content)
	}
	if f == nil || l.Empty {
		c.report(RuleCodexSummaryGone, codex.SummaryFile, 0, "memory_summary.md is missing or blank: Codex then leaves the whole memory section out of every session (the model is not even told MEMORY.md exists)",
			"Let Codex's consolidation write it, or write one that starts with the line v1.")
		return
	}
	shape := codex.ParseSummary(f.Content)
	n := len(l.Trimmed)
	pct := float64(n) / codex.SummaryByteLimit
	switch {
	case l.Cut:
		first, last := l.CutLines(f.Content)
		whole, part := l.CutSections(shape)
		msg := fmt.Sprintf("memory_summary.md is %d bytes trimmed (%d \"tokens\"), over Codex's cap of %d bytes (%d): sessions get its first and last %d bytes, and %d bytes in the middle (lines %d-%d) are silently replaced with \"%s\"",
			n, codex.Tokens(n), codex.SummaryByteLimit, codex.SummaryTokenLimit, codex.SummaryByteLimit/2, l.Removed(), first, last, l.Marker)
		if len(whole) > 0 {
			msg += "; lost whole: " + sectionNames(whole)
		}
		if len(part) > 0 {
			msg += "; cut in part: " + sectionNames(part)
		}
		c.report(RuleCodexSummaryCut, codex.SummaryFile, first, msg, "Trim it under 10,000 bytes: shorter topic lines, fewer recent days per scope; Codex gives no warning of its own.")
	case l.NearCap():
		c.report(RuleCodexSummaryNear, codex.SummaryFile, 0, fmt.Sprintf("memory_summary.md uses %d of %d bytes (%.0f%%) of Codex's cap; past it, Codex silently cuts its middle", n, codex.SummaryByteLimit, pct*100),
			"Keep it under 80%: shorter topic lines, fewer recent days per scope.")
	}
	for _, p := range shape.Problems {
		c.report(RuleCodexSummaryShape, codex.SummaryFile, p.Line, p.What, "Keep the shape Codex's consolidation writes: v1, then ## User Profile, ## User preferences, ## General Tips, ## What's in Memory.")
	}
	c.secrets(f)
}

// handbook: MEMORY.md's strict format and its references.
func (c *codexCheck) handbook() {
	f := c.s.File(codex.HandbookFile)
	if f == nil {
		return
	}
	h := c.handbookDoc()
	for _, p := range h.Problems {
		c.report(RuleCodexHandbookShape, codex.HandbookFile, p.Line, p.What, "Keep MEMORY.md in the strict format Codex's consolidation follows (# Task Group:, scope:, applies_to: cwd=…; reuse_rule=…, then ## Task n with rollout_summary_files and keywords).")
	}
	files := map[string]bool{}
	for _, x := range c.s.Files {
		files[x.Path] = true
	}
	links := codex.CheckLinks(h, files)
	for _, r := range links.Dangling {
		c.report(RuleCodexDangling, codex.HandbookFile, r.Line, r.Path+" is cited as evidence but is not in the store: Codex deleted it (its input aged out of the selection) or it was never there",
			"The next consolidation should drop what only it supported; if the memory still matters, write it as a note (extensions/ad_hoc/notes/).")
	}
	for _, p := range links.Orphans {
		c.report(RuleCodexOrphan, p, 0, p+" is cited by no task of MEMORY.md: its memory reaches no session", "The next consolidation should fold it into MEMORY.md, or it ages out.")
	}
	for _, r := range links.MissingSkills {
		c.report(RuleCodexSkillMissing, codex.HandbookFile, r.Line, r.Path+" is pointed at as a related skill but does not exist", "Point at an existing skill, or drop the line.")
	}
	c.secrets(f)
}

// files: what Codex deletes, regenerates or refuses, and secrets in all.
func (c *codexCheck) files() {
	for _, l := range c.s.Links {
		c.report(RuleCodexLink, l, 0, l+" is a symbolic link: Codex deletes every link under its memory root at its next run", "Copy the file it points at into the store, or move it out.")
	}
	for _, f := range c.s.Files {
		switch kind := codex.KindOf(f.Path); kind {
		case codex.KindForeign:
			c.report(RuleCodexForeign, f.Path, 0, f.Path+" is nothing Codex writes: it enters the next consolidation's diff as an addition the agent must treat as authoritative",
				"Move it out of the memory root; to tell Codex something, write a note in extensions/ad_hoc/notes/.")
		case codex.KindNote:
			name := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
			if strings.Count(strings.TrimPrefix(f.Path, codex.NotesDir), "/") == 0 && !codex.ValidNoteName(name) {
				c.report(RuleCodexNoteName, f.Path, 0, name+" is not a note name Codex's add_ad_hoc_note accepts (YYYY-MM-DDTHH-MM-SS-<slug of a-z, 0-9, ->.md)",
					"Rename it so: Codex's own tools refuse other names, and such a file may be missed.")
			}
		case codex.KindRollout:
			name := strings.TrimPrefix(f.Path, codex.RolloutDir)
			if strings.HasSuffix(name, ".md") && !codex.IsRolloutSummaryName(name) {
				c.report(RuleCodexRolloutName, f.Path, 0, f.Path+" is not named as Codex names a rollout summary: its next consolidation deletes it",
					"Move what it says into a note (extensions/ad_hoc/notes/); rollout_summaries/ is Codex's own.")
			}
		}
		if f.Path != codex.SummaryFile && f.Path != codex.HandbookFile {
			c.secrets(f)
		}
	}
}

// secrets: memtui's whole rule set over a file (Codex redacts only four
// patterns, and only in what its extraction writes).
func (c *codexCheck) secrets(f *model.File) {
	text := string(f.Content)
	for _, sec := range c.opts.Secrets.Scan(text) {
		line := 1 + strings.Count(text[:sec.Start], "\n")
		c.report(RuleSecret, f.Path, line, fmt.Sprintf("%s in Codex's memory (%s: %s); Codex redacts only four patterns, and only in what it extracts", SecretLabel(sec.Description), sec.RuleID, sec.Short),
			"Remove it and rotate the credential.")
	}
}

func sectionNames(ss []codex.Section) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = "## " + s.Title
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
