package corpus

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"sort"
	"strings"
	"time"
)

type fmShape int

const (
	fmLegacy  fmShape = iota // top-level type:
	fmCurrent                // metadata: block
	fmNone                   // no frontmatter
	fmOther                  // not a memory (archive index, README)
)

// outFile is one file to write, relative to the project's memory dir.
type outFile struct {
	rel         string
	content     []byte
	mtime       time.Time
	index       bool // MEMORY.md (or team/MEMORY.md)
	shape       fmShape
	invalidYAML bool
}

// memory is a topic file before it is rendered.
type memory struct {
	rel, name, desc, typ, title, hook string
	shape                             fmShape
	modified                          time.Time
	session                           string // originSessionId, current shape only
	team                              bool
	indexed                           bool
	body                              string
	invalidYAML                       bool
	rendered                          []byte
}

type project struct {
	files       []outFile
	transcripts []outFile
}

// topicNouns name what a memory is about; combined with a service they make
// kebab-case names.
var topicNouns = []string{
	"deploy", "tests", "staging", "migrations", "retries", "flags", "logging",
	"on-call", "release", "schema", "caching", "auth", "timeouts", "dashboards",
	"secrets", "ci", "review", "naming", "errors", "queues", "backfill", "alerts",
	"rollback", "fixtures", "pagination", "webhooks", "rate-limits", "owners",
	"runbook", "load-test", "perf", "copy", "i18n", "builds", "docker", "vpn",
}

var seriesStems = []string{"standup", "deploy-log", "incident", "retro", "oncall-handoff", "release-notes", "experiment"}

func generateProject(cfg Config, p *projectPlan) *project {
	g := &gen{r: rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(p.index)+1))}
	pr := &project{}
	now := cfg.Now

	sessions := []string{g.uuid(), g.uuid(), g.uuid()}
	primary := sessions[0]

	n := p.files
	hasTeam := n >= 10 && g.chance(0.05)
	hasReadme := n >= 5 && g.chance(0.01)
	wantArchive := g.chance(0.5)
	noIndex := n > 0 && g.chance(0.04)
	shape := indexShape(weighted(g, indexShapeWeights))
	sections := g.chance(0.5)
	loose := g.chance(0.15)
	langZH := g.chance(0.03)

	var mems []*memory
	names := map[string]int{}
	rels := map[string]bool{}
	slots := n
	if hasReadme {
		slots--
	}
	for len(mems) < slots {
		// Dated series: a handful of files with the same stem, one per day.
		if g.chance(0.012) && slots-len(mems) >= 3 {
			stem := g.pick(seriesStems)
			start := now.AddDate(0, 0, -g.between(3, 200))
			k := min(g.between(3, 6), slots-len(mems))
			for d := 0; d < k; d++ {
				day := start.AddDate(0, 0, d)
				m := newSeriesMemory(g, stem, day, names, rels)
				mems = append(mems, m)
			}
			continue
		}
		// Near-duplicate: a rewrite of an earlier memory.
		if len(mems) > 3 && g.chance(0.015) {
			orig := mems[g.r.IntN(len(mems))]
			mems = append(mems, rewriteMemory(g, orig, now, names, rels))
			continue
		}
		mems = append(mems, newMemory(g, now, names, rels, langZH))
	}

	for _, m := range mems {
		if m.shape == fmCurrent {
			if g.chance(0.6) {
				m.session = primary
			} else {
				m.session = g.pick(sessions[1:]) // transcript swept long ago
			}
		}
	}
	if hasTeam {
		k := min(g.between(2, 5), len(mems)-1)
		for _, m := range mems[len(mems)-k:] {
			m.team = true
			m.session = ""
			m.rel = "team/" + path.Base(m.rel)
		}
	}

	// Wikilinks between memories: mostly to names that exist, sometimes not.
	allNames := make([]string, 0, len(mems))
	for _, m := range mems {
		allNames = append(allNames, m.name)
	}
	for _, m := range mems {
		if g.chance(0.05) {
			target := g.pick(allNames)
			if g.chance(0.3) {
				target = slugify(g.pick(services) + " " + g.pick(topicNouns) + " notes")
			}
			m.body += "\n\nRelated: [[" + target + "]]\n"
		}
	}

	// Render topic files.
	var latest time.Time
	for _, m := range mems {
		m.rendered = renderMemory(g, m)
		if m.modified.After(latest) {
			latest = m.modified
		}
		pr.files = append(pr.files, outFile{
			rel: m.rel, content: m.rendered, mtime: m.modified,
			shape: m.shape, invalidYAML: m.invalidYAML,
		})
	}
	if hasReadme {
		readme := fmt.Sprintf("# Memory for %s\n\nClaude keeps its notes about this project here. Edit by hand if you like; the index is MEMORY.md.\n", p.cwd)
		mt := now.AddDate(0, 0, -g.between(30, 250))
		pr.files = append(pr.files, outFile{rel: "README.md", content: []byte(readme), mtime: mt, shape: fmOther})
	}
	if latest.IsZero() {
		latest = now.AddDate(0, 0, -g.between(1, 60))
	}

	// Indexes.
	var main, team []*memory
	for _, m := range mems {
		if m.team {
			team = append(team, m)
		} else {
			main = append(main, m)
		}
	}
	if !noIndex && n > 0 {
		idx, archive := buildIndex(g, main, shape, sections, loose, wantArchive, p.others)
		pr.files = append(pr.files, outFile{rel: "MEMORY.md", content: idx, mtime: latest, index: true})
		if archive != nil {
			// The archive takes the place of one topic file, so the total
			// stays exactly Config.Files.
			victim := len(pr.files) - 2
			for victim >= 0 && (pr.files[victim].index || strings.HasPrefix(pr.files[victim].rel, "team/")) {
				victim--
			}
			if victim >= 0 {
				pr.files[victim] = outFile{rel: "MEMORY-archive.md", content: archive, mtime: latest, shape: fmOther}
			}
		}
	}
	if len(team) > 0 {
		idx, _ := buildIndex(g, team, shapeEmDash, false, false, false, nil)
		pr.files = append(pr.files, outFile{rel: "team/MEMORY.md", content: idx, mtime: latest, index: true})
	}

	if cfg.Transcripts {
		pr.transcripts = append(pr.transcripts, transcript(g, p, primary, mems, latest))
	}
	return pr
}

func weighted(g *gen, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := g.r.IntN(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// age draws how long ago a memory was last modified: most are recent, a
// long tail goes back most of a year.
func age(g *gen) time.Duration {
	var days float64
	if g.chance(0.7) {
		days = g.r.ExpFloat64() * 25
		if days > 120 {
			days = 120
		}
	} else {
		days = 60 + g.r.Float64()*240
	}
	return time.Duration(days*24*float64(time.Hour)) + time.Duration(g.r.IntN(int(time.Hour/time.Millisecond)))*time.Millisecond
}

func uniqueName(name string, names map[string]int) string {
	names[name]++
	if c := names[name]; c > 1 {
		return fmt.Sprintf("%s-%d", name, c)
	}
	return name
}

func uniqueRel(rel string, rels map[string]bool) string {
	base := strings.TrimSuffix(rel, ".md")
	for i := 2; rels[rel]; i++ {
		rel = fmt.Sprintf("%s-%d.md", base, i)
	}
	rels[rel] = true
	return rel
}

func newMemory(g *gen, now time.Time, names map[string]int, rels map[string]bool, langZH bool) *memory {
	m := &memory{typ: pickType(g)}
	topic := g.pick(topicNouns)
	subject := g.pick(services)
	switch m.typ {
	case "user":
		topic = g.pick([]string{"role", "preferences", "workflow", "tooling", "style", "background"})
		subject = "user"
		m.name = slugify("user " + topic)
	default:
		m.name = slugify(subject + " " + topic)
	}
	if g.chance(0.01) && len(names) > 0 {
		// Two memories that share one name (name-duplicate): keep it.
		names[m.name]++
	} else {
		m.name = uniqueName(m.name, names)
	}
	if g.chance(0.6) && !strings.HasPrefix(m.name, m.typ) {
		m.rel = uniqueRel(m.typ+"_"+strings.ReplaceAll(m.name, "-", "_")+".md", rels)
	} else {
		m.rel = uniqueRel(m.name+".md", rels)
	}
	m.title = titleCase(m.name)
	m.desc = description(g, m.typ, subject, topic)
	m.hook = hook(g, subject, topic)
	m.modified = now.Add(-age(g))
	m.shape = pickShape(g)
	m.body = body(g, m.typ, subject, targetSize(g), langZH)
	return m
}

func newSeriesMemory(g *gen, stem string, day time.Time, names map[string]int, rels map[string]bool) *memory {
	date := day.Format("2006-01-02")
	m := &memory{typ: "project", name: uniqueName(stem+"-"+date, names)}
	m.rel = uniqueRel(stem+"-"+date+".md", rels)
	m.title = titleCase(stem) + " " + date
	m.desc = fmt.Sprintf("%s notes for %s", titleCase(stem), date)
	m.hook = fmt.Sprintf("%s, %s", strings.ReplaceAll(stem, "-", " "), date)
	m.modified = day.Add(time.Duration(g.between(9, 19))*time.Hour + time.Duration(g.r.IntN(3600000))*time.Millisecond)
	m.shape = pickShape(g)
	var b strings.Builder
	fmt.Fprintf(&b, "## %s %s\n\n", titleCase(stem), date)
	for i, k := 0, g.between(3, 6); i < k; i++ {
		fmt.Fprintf(&b, "- %s\n", g.sentence())
	}
	if g.chance(0.5) {
		fmt.Fprintf(&b, "\nBlocked on %s; %s to follow up.\n", g.pick(things), g.pick(teams))
	}
	m.body = b.String()
	return m
}

// rewriteMemory writes a near-duplicate of orig: the same fact in other
// words, as a second session that did not check the index would.
func rewriteMemory(g *gen, orig *memory, now time.Time, names map[string]int, rels map[string]bool) *memory {
	m := &memory{typ: orig.typ}
	m.name = uniqueName(orig.name+"-"+g.pick([]string{"notes", "v2", "update", "details"}), names)
	m.rel = uniqueRel(strings.TrimSuffix(path.Base(orig.rel), ".md")+"_"+g.pick([]string{"new", "2", "notes"})+".md", rels)
	m.title = titleCase(m.name)
	m.desc = g.pick([]string{"Update: ", "More on ", "Notes: ", "Revised "}) + lowerFirst(orig.desc)
	m.hook = orig.hook + g.pick([]string{" (newer)", ", revised", " again", ""})
	m.modified = now.Add(-age(g))
	m.shape = pickShape(g)
	lines := strings.Split(strings.TrimSpace(orig.body), "\n")
	g.r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	if len(lines) > 3 {
		lines = lines[:len(lines)-1]
	}
	lines = append(lines, "", g.sentence())
	m.body = strings.Join(lines, "\n") + "\n"
	return m
}

func pickType(g *gen) string {
	switch x := g.r.Float64(); {
	case x < 0.10:
		return "user"
	case x < 0.45:
		return "feedback"
	case x < 0.80:
		return "project"
	default:
		return "reference"
	}
}

// pickShape follows DESIGN §8: type at top level in 55% of files, under
// metadata: in 42%, no frontmatter in 3%.
func pickShape(g *gen) fmShape {
	switch x := g.r.Float64(); {
	case x < 0.03:
		return fmNone
	case x < 0.58:
		return fmLegacy
	default:
		return fmCurrent
	}
}

// targetSize draws a body size: lognormal around a kilobyte, with a rare
// giant (runbooks and pasted logs reach tens of kilobytes).
func targetSize(g *gen) int {
	if g.chance(0.0025) {
		return g.between(15_000, 60_000)
	}
	s := math.Exp(math.Log(900) + g.r.NormFloat64()*0.62)
	return int(min(max(s, 120), 12_000))
}

func description(g *gen, typ, subject, topic string) string {
	switch typ {
	case "user":
		return fmt.Sprintf("User is a %s who prefers %s", g.pick(roles), g.pick(prefs))
	case "feedback":
		switch g.r.IntN(4) {
		case 0:
			return fmt.Sprintf("Run %s before pushing %s %s changes", g.pick(commands), subject, topic)
		case 1:
			return fmt.Sprintf("Never run %s for %s %s, use %s", g.pick(badCommands), subject, topic, g.pick(commands))
		case 2:
			return fmt.Sprintf("Prefer %s over %s for %s %s", g.pick(libs), g.pick(libs), subject, topic)
		default:
			return fmt.Sprintf("How the user wants %s %s handled in reviews", subject, topic)
		}
	case "project":
		switch g.r.IntN(4) {
		case 0:
			return fmt.Sprintf("Status and owners of the %s %s work", subject, topic)
		case 1:
			return fmt.Sprintf("%s %s work, in progress, owned by %s", capitalize(subject), topic, g.pick(teams))
		case 2:
			return fmt.Sprintf("Freeze and rollout rules for %s %s", subject, topic)
		default:
			return fmt.Sprintf("Why %s %s is %s and what is planned", subject, topic, g.pick(adjectives))
		}
	default:
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("Where the %s %s dashboard lives and what it shows", subject, topic)
		case 1:
			return fmt.Sprintf("%s host for %s %s (%s) and how to reach it", capitalize(g.pick(envs)), subject, topic, g.pick(hosts))
		default:
			return fmt.Sprintf("Links and commands for %s %s", subject, topic)
		}
	}
}

func hook(g *gen, subject, topic string) string {
	h := strings.NewReplacer("{s}", subject, "{t}", topic).Replace(g.pick(hookTemplates))
	// 40% of real index lines exceed 150 characters: hooks grow as agents
	// append what they learned.
	if g.chance(0.5) {
		var b strings.Builder
		b.WriteString(h)
		for b.Len() < g.between(140, 380) {
			b.WriteString("; ")
			b.WriteString(strings.TrimSuffix(lowerFirst(g.sentence()), "."))
		}
		return b.String()
	}
	return h
}

func body(g *gen, typ, subject string, target int, langZH bool) string {
	var b strings.Builder
	if g.chance(0.005) {
		return g.pick([]string{"TBD.", "See above.", "todo", "(empty)"}) + "\n"
	}
	if g.chance(0.25) {
		fmt.Fprintf(&b, "# %s\n\n", titleCase(subject))
	}
	switch typ {
	case "user":
		fmt.Fprintf(&b, "The user is a %s working mostly in %s. Prefers %s.\n", g.pick(roles), g.pick(languages), g.pick(prefs))
	case "feedback", "project":
		b.WriteString(g.sentence())
		b.WriteString("\n\n")
		if g.chance(0.8) {
			b.WriteString(g.why())
			b.WriteString("\n")
			b.WriteString(g.howTo())
			b.WriteString("\n")
		}
	default:
		fmt.Fprintf(&b, "%s\n", g.sentence())
	}
	if langZH {
		fmt.Fprintf(&b, "\n%s 的负责人是%s，改动前先在 %s 里说一声。\n", subject, g.pick([]string{"平台组", "数据组", "支付组", "运维"}), g.pick(channels))
	}
	if g.chance(0.08) {
		b.WriteString("\n")
		b.WriteString(g.relativeDateSentence())
		b.WriteString("\n")
	}
	if g.chance(0.06) {
		b.WriteString("\n")
		b.WriteString(g.monthDaySentence())
		b.WriteString("\n")
	}
	if g.chance(0.001) {
		// A fake credential, shaped like a GitHub token so that scanners
		// using gitleaks' prefix rules fire. Clearly marked as fake.
		fmt.Fprintf(&b, "\nCI bot token (rotate!): ghp_FAKE%s\n", g.alnum(32))
	}
	for b.Len() < target {
		b.WriteString("\n")
		switch x := g.r.IntN(10); {
		case x < 3:
			for i, k := 0, g.between(2, 4); i < k; i++ {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(g.sentence())
			}
			b.WriteString("\n")
		case x < 6:
			b.WriteString(g.bullets(g.between(2, 6)))
			b.WriteString("\n")
		case x < 8:
			fmt.Fprintf(&b, "## %s\n\n%s\n", g.pick(headings), g.bullets(g.between(1, 4)))
		case x < 9:
			b.WriteString(g.codeBlock())
			b.WriteString("\n")
		default:
			b.WriteString(g.link())
			b.WriteString("\n")
		}
	}
	return b.String()
}

// renderMemory produces the file bytes: frontmatter in the memory's shape,
// with the defects real directories show at their real rates.
func renderMemory(g *gen, m *memory) []byte {
	var b strings.Builder
	typ := m.typ
	if g.chance(0.005) {
		typ = g.pick([]string{"decision", "infra"})
	}
	desc := m.desc
	switch {
	case g.chance(0.003):
		desc = ""
	case strings.ContainsAny(desc, "#:") || strings.HasPrefix(desc, "`"):
		desc = quoteYAML(desc)
	}
	broken := false
	if m.shape != fmNone {
		switch x := g.r.Float64(); {
		case x < 0.022:
			// The usual invalid YAML: an unquoted ": " in a description.
			desc = fmt.Sprintf("%s: %s", titleCase(g.pick(topicNouns)), lowerFirst(m.desc))
			m.invalidYAML = true
		case x < 0.026:
			broken = true
			m.invalidYAML = true
		}
	}
	if m.shape != fmNone && g.chance(0.003) {
		b.WriteString("<!-- edited by hand -->\n")
	}
	switch {
	case m.shape == fmNone:
		if g.chance(0.03) {
			b.WriteString("\ufeff")
		}
		fmt.Fprintf(&b, "# %s\n\n", m.title)
	case broken:
		fmt.Fprintf(&b, "---\nname: %s\n\tdescription: [%s\n\ttags: [%s, %s\n  type:\t%s {\n", m.name, desc, m.typ, g.word(), typ)
		for i, k := 0, g.between(2, 6); i < k; i++ {
			fmt.Fprintf(&b, "\t- %s: [%s\n", g.word(), g.word())
		}
		b.WriteString("\n")
	case m.shape == fmLegacy:
		fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\ntype: %s\n---\n\n", m.name, desc, typ)
	default:
		trailing := ""
		if g.chance(0.7) {
			trailing = " "
		}
		fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\nmetadata:%s\n  node_type: memory\n  type: %s\n", m.name, desc, trailing, typ)
		if m.session != "" {
			fmt.Fprintf(&b, "  originSessionId: %s\n", m.session)
		}
		fmt.Fprintf(&b, "  modified: %s\n---\n\n", m.modified.UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	b.WriteString(strings.TrimLeft(m.body, "\n"))
	out := b.String()
	if g.chance(0.01) {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	return []byte(out)
}

func quoteYAML(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// buildIndex renders MEMORY.md for mems in one of the real shapes. When the
// index would pass 400 lines and wantArchive is set, the rest go into an
// overflow index, MEMORY-archive.md, linked from the last line.
func buildIndex(g *gen, mems []*memory, shape indexShape, sections, loose, wantArchive bool, others []string) (index, archive []byte) {
	const maxLines = 400
	var order []*memory
	for _, m := range mems {
		// About 4% of files are orphans: written, never indexed.
		if g.chance(0.04) {
			continue
		}
		m.indexed = true
		order = append(order, m)
	}
	if sections {
		rank := map[string]int{"user": 0, "feedback": 1, "project": 2, "reference": 3}
		sort.SliceStable(order, func(i, j int) bool { return rank[order[i].typ] < rank[order[j].typ] })
	}

	var lines []string
	var overflow []string
	add := func(l ...string) {
		if len(lines)+len(l) > maxLines && wantArchive {
			overflow = append(overflow, l...)
			return
		}
		lines = append(lines, l...)
	}
	if shape == shapeTable {
		add("| File | What it holds |", "|---|---|")
	}
	current := ""
	for _, m := range order {
		if sections && shape != shapeTable && shape != shapeProse && m.typ != current {
			current = m.typ
			if len(lines) > 0 {
				add("")
			}
			add("## "+titleCase(current), "")
		}
		add(entryLine(g, m, shape))
		if g.chance(0.03) && shape != shapeTable && shape != shapeProse {
			for i, k := 0, g.between(1, 2); i < k; i++ {
				add("  - " + g.sentence())
			}
		}
		if loose && shape != shapeTable {
			add("")
		}
		// Dangling entries: the file was renamed or deleted, the line stayed.
		if g.chance(0.02) {
			gone := &memory{rel: slugify(g.pick(services)+" "+g.pick(topicNouns)) + "-old.md", title: "Old notes", name: "old-notes", hook: "superseded"}
			add(entryLine(g, gone, shape))
		}
	}
	if len(others) > 0 && g.chance(0.02) && shape != shapeTable {
		add(fmt.Sprintf("- [Shared conventions](../../%s/memory/feedback_conventions.md) — kept in the other repo", others[0]))
	}
	if len(overflow) > 0 {
		lines = append(lines, "", "- [Archive](MEMORY-archive.md) — older entries, not loaded by default")
		archive = []byte("# Memory archive\n\n" + strings.Join(overflow, "\n") + "\n")
	}
	return []byte(strings.Join(lines, "\n") + "\n"), archive
}

func entryLine(g *gen, m *memory, shape indexShape) string {
	switch shape {
	case shapeHyphen:
		return fmt.Sprintf("- [%s](%s) - %s", m.title, m.rel, m.hook)
	case shapeColon:
		return fmt.Sprintf("- [%s](%s): %s", m.title, m.rel, m.hook)
	case shapeComma:
		return fmt.Sprintf("- [%s](%s), %s", m.title, m.rel, m.hook)
	case shapeTable:
		return fmt.Sprintf("| `%s` | %s |", m.rel, strings.ReplaceAll(m.hook, "|", "/"))
	case shapeWiki:
		return fmt.Sprintf("- [[%s]] — %s", m.name, m.hook)
	case shapeProse:
		return fmt.Sprintf("For %s, read %s (%s).", strings.ToLower(m.title), m.rel, m.hook)
	default:
		return fmt.Sprintf("- [%s](%s) — %s", m.title, m.rel, m.hook)
	}
}

// transcript writes a short main-thread session file in the shape of
// transcript-format.md §6.1: bookkeeping lines, a prompt, a Write of a
// memory file and its result, all carrying the project's cwd.
func transcript(g *gen, p *projectPlan, session string, mems []*memory, latest time.Time) outFile {
	memdir := "/home/dev/.claude/projects/" + p.slug + "/memory/"
	target := "feedback_notes.md"
	content := "---\nname: notes\ndescription: Notes\ntype: feedback\n---\n\nNotes.\n"
	for _, m := range mems {
		if m.session == session && !m.team {
			target, content = m.rel, string(m.rendered)
			break
		}
	}
	t0 := latest.Add(-time.Duration(g.between(5, 300)) * time.Second)
	ts := func(d int) string {
		return t0.Add(time.Duration(d) * time.Millisecond).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	u1, u2, u3 := g.uuid(), g.uuid(), g.uuid()
	prompt := g.uuid()
	common := fmt.Sprintf(`"userType":"external","entrypoint":"cli","cwd":%s,"sessionId":%q,"version":"2.1.226","gitBranch":"main"`, js(p.cwd), session)
	toolID := "toolu_01" + g.alnum(22)
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"permission-mode","permissionMode":"default","sessionId":%q}`+"\n", session)
	fmt.Fprintf(&b, `{"parentUuid":null,"isSidechain":false,"promptId":%q,"type":"user","message":{"role":"user","content":%s},"uuid":%q,"timestamp":%q,"permissionMode":"default","promptSource":"typed",%s}`+"\n",
		prompt, js("remember: "+g.sentence()), u1, ts(0), common)
	fmt.Fprintf(&b, `{"parentUuid":%q,"isSidechain":false,"message":{"model":"claude-opus-4-8","id":"msg_01%s","type":"message","role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Write","input":{"file_path":%s,"content":%s},"caller":{"type":"direct"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":512,"cache_read_input_tokens":20480,"output_tokens":96}},"requestId":"req_011C%s","type":"assistant","uuid":%q,"timestamp":%q,%s}`+"\n",
		u1, g.alnum(22), toolID, js(memdir+target), js(content), g.alnum(20), u2, ts(6800), common)
	fmt.Fprintf(&b, `{"parentUuid":%q,"isSidechain":false,"promptId":%q,"type":"user","message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":%s}]},"uuid":%q,"timestamp":%q,"toolUseResult":{"type":"create","filePath":%s,"content":%s,"structuredPatch":[],"originalFile":null,"userModified":false},"sourceToolAssistantUUID":%q,%s}`+"\n",
		u2, prompt, toolID, js("File created successfully at: "+memdir+target), u3, ts(7400), js(memdir+target), js(content), u2, common)
	fmt.Fprintf(&b, `{"type":"last-prompt","lastPrompt":%s,"sessionId":%q,"leafUuid":%q}`+"\n", js("remember the deploy rule"), session, u3)
	return outFile{rel: session + ".jsonl", content: []byte(b.String()), mtime: t0.Add(8 * time.Second)}
}

func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func titleCase(slug string) string {
	words := strings.FieldsFunc(slug, func(c rune) bool { return c == '-' || c == '_' || c == ' ' })
	for i, w := range words {
		words[i] = capitalize(w)
	}
	return strings.Join(words, " ")
}

func lowerFirst(s string) string {
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		return string(s[0]-'A'+'a') + s[1:]
	}
	return s
}
