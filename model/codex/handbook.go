package codex

import (
	"regexp"
	"strconv"
	"strings"
)

// Handbook is MEMORY.md, Codex's handbook (facts §1.3.2): task groups,
// each a "# Task Group:" block with its scope and where it applies, its
// tasks with the rollout summaries they come from, and block-level
// sections after them.
type Handbook struct {
	Groups []TaskGroup
	// Skills are the "- Related skill: skills/<name>/SKILL.md" pointers.
	Skills []Ref
	// Problems are where the handbook breaks the consolidation
	// template's strict format.
	Problems []Problem
}

// TaskGroup is one "# Task Group:" block.
type TaskGroup struct {
	Title string
	// Line is the header's 1-based line, End the block's last.
	Line, End int
	Scope     string
	// AppliesTo is the applies_to line's value; Cwd and ReuseRule its
	// two parts ("" when missing).
	AppliesTo, Cwd, ReuseRule string
	Tasks                     []Task
	// Sections are the block-level sections present (User preferences,
	// Reusable knowledge, Failures and how to do differently).
	Sections []string
}

// Task is one "## Task <n>:" section of a group.
type Task struct {
	N     int
	Title string
	Line  int
	// Rollouts are its rollout_summary_files bullets (for imported
	// memory, its extension_resource_files).
	Rollouts []Ref
	Keywords []string
}

// Ref is a file a handbook line points at, with the bullet's annotation
// (cwd=, rollout_path=, updated_at=, thread_id=, source=), by key.
type Ref struct {
	Path string
	Line int
	Note map[string]string
}

// blockSections are the block-level sections, after the tasks.
var blockSections = map[string]bool{"User preferences": true, "Reusable knowledge": true, "Failures and how to do differently": true}

var (
	taskHead  = regexp.MustCompile(`^## Task (\d+):\s*(.*)$`)
	refBullet = regexp.MustCompile(`^-\s+(\S+)(?:\s+\((.*)\))?\s*$`)
	skillRef  = regexp.MustCompile(`^-\s+Related skill:\s*(\S+)`)
	boldRun   = regexp.MustCompile(`\*\*[^*\s][^*]*\*\*|__[^_\s][^_]*__`)
)

// placeholders are the names the template forbids.
var placeholders = map[string]bool{"misc": true, "general": true, "task": true, "other": true, "various": true}

// ParseHandbook reads MEMORY.md's task groups and says where it breaks
// the format Codex's consolidation must follow: a group without scope: or
// applies_to: (with its cwd= and reuse_rule=) right after its header; a
// task without its rollout_summary_files or keywords, or a rollout bullet
// without cwd=, rollout_path= and updated_at=; a block-level section
// before a task; "*" bullets, bold, placeholder names. Fenced code is
// left alone.
func ParseHandbook(content []byte) Handbook {
	var h Handbook
	var g *TaskGroup
	var task *Task
	sub := "" // the ### subsection being read inside a task
	fence := ""
	header := 0 // lines of the group's header read: scope, applies_to
	sawBlock := false
	probe := func(n int, what string) { h.Problems = append(h.Problems, Problem{Line: n, What: what}) }
	closeTask := func() {
		if task == nil {
			return
		}
		if len(task.Rollouts) == 0 {
			probe(task.Line, "Task "+strconv.Itoa(task.N)+" has no ### rollout_summary_files bullets: the consolidation must say which rollouts it comes from")
		}
		if len(task.Keywords) == 0 {
			probe(task.Line, "Task "+strconv.Itoa(task.N)+" has no ### keywords line")
		}
		g.Tasks = append(g.Tasks, *task)
		task = nil
	}
	closeGroup := func(end int) {
		if g == nil {
			return
		}
		closeTask()
		g.End = end
		if g.Scope == "" {
			probe(g.Line, "the task group \""+g.Title+"\" has no scope: line right after its header")
		}
		switch {
		case g.AppliesTo == "":
			probe(g.Line, "the task group \""+g.Title+"\" has no applies_to: line (it is mandatory)")
		case g.Cwd == "" || g.ReuseRule == "":
			probe(g.Line, "the task group \""+g.Title+"\"'s applies_to: must give cwd=… and reuse_rule=…")
		}
		if len(g.Tasks) == 0 {
			probe(g.Line, "the task group \""+g.Title+"\" has no ## Task section")
		}
		h.Groups = append(h.Groups, *g)
		g = nil
	}
	lines := splitLines(string(content))
	for i, l := range lines {
		n := i + 1
		text := strings.TrimSuffix(l.text, "\r")
		trim := strings.TrimSpace(text)
		if f := FenceOf(trim); f != "" && (fence == "" || strings.HasPrefix(trim, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if title, ok := strings.CutPrefix(text, "# Task Group:"); ok {
			closeGroup(n - 1)
			g = &TaskGroup{Title: strings.TrimSpace(title), Line: n}
			header, sub, sawBlock = 0, "", false
			if placeholders[strings.ToLower(g.Title)] || g.Title == "" {
				probe(n, "a placeholder task group name: \""+g.Title+"\"")
			}
			continue
		}
		if g == nil {
			continue
		}
		if header < 2 && trim != "" {
			// The two header lines come right after the group's title.
			header++
			if v, ok := strings.CutPrefix(trim, "scope:"); ok && header == 1 {
				g.Scope = strings.TrimSpace(v)
				if placeholders[strings.ToLower(g.Scope)] {
					probe(n, "a placeholder scope: \""+g.Scope+"\"")
				}
				continue
			}
			if v, ok := strings.CutPrefix(trim, "applies_to:"); ok {
				g.AppliesTo = strings.TrimSpace(v)
				for _, part := range strings.Split(g.AppliesTo, ";") {
					k, val, _ := strings.Cut(strings.TrimSpace(part), "=")
					switch strings.TrimSpace(k) {
					case "cwd":
						g.Cwd = strings.TrimSpace(val)
					case "reuse_rule":
						g.ReuseRule = strings.TrimSpace(val)
					}
				}
				header = 2
				continue
			}
			header = 2 // the header ended early: what is missing is said at the end
		}
		switch {
		case strings.HasPrefix(text, "## "):
			closeTask()
			sub = ""
			if m := taskHead.FindStringSubmatch(text); m != nil {
				if sawBlock {
					probe(n, "a task after the block-level sections: tasks come first")
				}
				num, _ := strconv.Atoi(m[1])
				task = &Task{N: num, Title: strings.TrimSpace(m[2]), Line: n}
				if placeholders[strings.ToLower(task.Title)] || task.Title == "" {
					probe(n, "a placeholder task name: \""+task.Title+"\"")
				}
				continue
			}
			name := strings.TrimSpace(text[3:])
			if blockSections[name] {
				sawBlock = true
				g.Sections = append(g.Sections, name)
			}
			continue
		case strings.HasPrefix(text, "### "):
			sub = strings.TrimSpace(text[4:])
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(text, " \t"), "* ") {
			probe(n, "a \"*\" bullet: Codex's handbook uses \"-\" bullets only")
		}
		if boldRun.MatchString(text) {
			probe(n, "bold text: Codex's handbook has none in the body")
		}
		if m := skillRef.FindStringSubmatch(trim); m != nil {
			h.Skills = append(h.Skills, Ref{Path: m[1], Line: n})
		}
		if task == nil || !strings.HasPrefix(trim, "- ") {
			continue
		}
		switch sub {
		case "rollout_summary_files", "extension_resource_files":
			m := refBullet.FindStringSubmatch(trim)
			if m == nil {
				continue
			}
			r := Ref{Path: m[1], Line: n, Note: annotation(m[2])}
			task.Rollouts = append(task.Rollouts, r)
			if sub == "rollout_summary_files" {
				var miss []string
				for _, k := range []string{"cwd", "rollout_path", "updated_at"} {
					if r.Note[k] == "" {
						miss = append(miss, k+"=")
					}
				}
				if len(miss) > 0 {
					probe(n, "the rollout summary bullet lacks "+strings.Join(miss, ", "))
				}
			}
		case "keywords":
			for _, k := range strings.Split(strings.TrimPrefix(trim, "- "), ",") {
				if k = strings.TrimSpace(k); k != "" {
					task.Keywords = append(task.Keywords, k)
				}
			}
		}
	}
	closeGroup(len(lines))
	return h
}

// annotation reads a bullet's "(cwd=…, rollout_path=…, note)" as keys
// and values; a part with no "=" is a free note, kept under "".
func annotation(s string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			if t := strings.TrimSpace(part); t != "" {
				out[""] = strings.TrimSpace(out[""] + " " + t)
			}
			continue
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}

// FenceOf is the fence a line opens or closes ("```" or "~~~"), "" for
// none.
func FenceOf(trim string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trim, f) {
			return f
		}
	}
	return ""
}
