package app

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// rootsHome is a HOME holding Claude Code's memory (~/.claude, one
// project), a Codex store (~/.codex), and Qwen Code's (~/.qwen: a
// project's store with a relative date and a memory too long for Claude
// Code's recall, and the cross-project store), in the shapes memfs/roots.go
// cites.
func rootsHome(t *testing.T) (home, qwen string) {
	t.Helper()
	home, _ = agentsHome(t)
	qwen = filepath.Join(home, ".qwen")
	testfs.WriteAll(t, qwen, map[string]string{
		"QWEN.md": "# Instructions\nAnswer briefly.\n",
		"projects/-home-al-acme/memory/MEMORY.md": "- [Deploy](deploy.md) — how the API ships\n- [Long](long.md) — every step\n",
		"projects/-home-al-acme/memory/deploy.md": "---\nname: deploy\ndescription: ship with make ship\ntype: project\n---\n\nWe moved to `make ship` yesterday.\n",
		"projects/-home-al-acme/memory/long.md":   "---\nname: long\ndescription: every step of the release\ntype: project\n---\n\n" + strings.Repeat("A step of the release, written out in full.\n", 120),
		"projects/-home-al-acme/meta.json":        "{}",
		"memories/MEMORY.md":                      "- [Prefs](user.md) — package manager\n",
		"memories/user.md":                        "---\nname: pnpm\ndescription: always pnpm, never npm\ntype: user\n---\n\nUse pnpm in every repository, with a lockfile.\n",
	})
	return home, qwen
}

func projectNames(ps []*model.Project) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name()+"="+AgentOf(p))
	}
	return out
}

// TestParseMemoryRoot: a label before "=" when it is one, else the whole
// value is the directory and the label comes from its path; a path with
// an "=" stays a path; a bad label, no directory, and Claude Code's and
// Codex's labels are usage errors naming what to do.
func TestParseMemoryRoot(t *testing.T) {
	for _, c := range []struct{ in, label, dir, err string }{
		{"qwen=/x/y", "qwen", "/x/y", ""},
		{"/home/al/.qwen", "qwen", "/home/al/.qwen", ""},
		{"/home/al/code/app/.openhands/memory", "openhands", "/home/al/code/app/.openhands/memory", ""},
		{"/srv/mem", "", "/srv/mem", ""},
		{"/srv/a=b", "", "/srv/a=b", ""},
		{"mine=/home/al/.qwen", "mine", "/home/al/.qwen", ""},
		{"Qwen=/x", "", "", `"Qwen" is no label`},
		{"\x1b]0;t\a=/x", "", "", "is no label"},
		{"qwen=", "", "", "no directory"},
		{"", "", "", "no directory"},
		{"claude=/x", "", "", "the label claude is Claude Code's own memory"},
		{"codex=/x", "", "", "the label codex is Codex's store"},
		{"/home/al/.claude", "", "", "read it with --config-dir or --memory-dir"},
		{"/home/al/.codex/memories", "", "", "read it with --codex-home"},
	} {
		label, dir, err := ParseMemoryRoot(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseMemoryRoot(%q): error %v, want one saying %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("ParseMemoryRoot(%q): %v", c.in, err)
		case c.err == "" && (label != c.label || dir != c.dir):
			t.Errorf("ParseMemoryRoot(%q) = %q, %q; want %q, %q", c.in, label, dir, c.label, c.dir)
		}
	}
}

// TestMemoryRootsInTheWorkspace: --memory-root alone reads its stores and
// nothing else (neither ~/.claude nor ~/.codex); beside --config-dir both
// are read, sorted by name; --agent other reads the stores alone, and
// --project narrows them by label as any project; the flags that
// contradict --agent, and a root that is no directory, are usage errors.
func TestMemoryRootsInTheWorkspace(t *testing.T) {
	home, qwen := rootsHome(t)
	env := map[string]string{"HOME": home}
	qwenOnly := []string{"qwen:-home-al-acme=qwen", "qwen:memories=qwen"}

	// Named twice (the second time through a link), the root is read once.
	link := filepath.Join(t.TempDir(), "qwen-link")
	testfs.Symlink(t, qwen, link)
	ws, err := openAgents(t, Options{MemoryRoots: []string{qwen, link}}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got := projectNames(ws.Scan.Projects); !slices.Equal(got, qwenOnly) || len(ws.CodexHomes) != 0 {
		t.Errorf("--memory-root alone: projects %q, Codex homes %q; want %q and none", got, ws.CodexHomes, qwenOnly)
	}

	ws, err = openAgents(t, Options{MemoryRoots: []string{qwen}, ConfigDirs: []string{filepath.Join(home, ".claude")}}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := projectNames(ws.Scan.Projects), append([]string{"-work-api=claude"}, qwenOnly...); !slices.Equal(got, want) {
		t.Errorf("with --config-dir: %q, want %q", got, want)
	}

	ws, err = openAgents(t, Options{MemoryRoots: []string{qwen}, Agent: AgentOther, Project: "qwen:mem"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got := projectNames(ws.Scan.Projects); !slices.Equal(got, []string{"qwen:memories=qwen"}) {
		t.Errorf("--agent other --project qwen:mem: %q", got)
	}

	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{MemoryRoots: []string{qwen}, Agent: AgentClaude}, "--agent claude leaves it out"},
		{Options{MemoryRoots: []string{qwen}, Agent: AgentCodex}, "--agent codex leaves it out"},
		{Options{Agent: AgentOther}, "name one with --memory-root"},
		{Options{MemoryRoots: []string{qwen}, Agent: AgentOther, CodexHomes: []string{filepath.Join(home, ".codex")}}, "--agent other leaves them out"},
		{Options{MemoryRoots: []string{filepath.Join(qwen, "QWEN.md")}}, "not a directory"},
		{Options{MemoryRoots: []string{filepath.Join(home, "none")}}, "no such directory"},
	} {
		if _, err := openAgents(t, c.o, env); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.o, err, c.want)
		}
	}

	// A root with no store: advice naming it, when nothing else is read.
	empty := testfs.Mkdir(t, filepath.Join(t.TempDir(), ".hermes"))
	if _, err := openAgents(t, Options{MemoryRoots: []string{empty}}, env); err == nil || !strings.Contains(err.Error(), "no memory folder found under") {
		t.Errorf("an empty root: %v", err)
	}
}

// TestMemoryRootChecks: a copy's store is checked with the rules of the
// format (a relative date) but not those of Claude Code's own recall (a
// memory over its 4 KB), which Claude Code's store still gets; the copy's
// findings name its agent, Claude Code's (its settings' too) none; the
// notes say which link was not followed.
func TestMemoryRootChecks(t *testing.T) {
	home, qwen := rootsHome(t)
	claudeDir := filepath.Join(home, ".claude", "projects", "-work-api", "memory")
	testfs.Write(t, filepath.Join(claudeDir, "long.md"), "---\nname: long\ndescription: every step\ntype: project\n---\n\n"+strings.Repeat("A step of the release, written out in full.\n", 120))
	testfs.Symlink(t, t.TempDir(), filepath.Join(qwen, "projects", "-elsewhere"))
	// Claude Code's settings, broken: a finding of the configuration.
	testfs.Write(t, filepath.Join(home, ".claude", "settings.json"), "{")
	var notes bytes.Buffer
	ws, err := openAgents(t, Options{MemoryRoots: []string{qwen}, ConfigDirs: []string{filepath.Join(home, ".claude")}, Notes: &notes}, map[string]string{"HOME": home})
	if err != nil {
		t.Fatal(err)
	}
	// Claude Code's findings name no agent (their JSON is as it was).
	rules := map[string][]string{}
	for _, f := range ws.Check(context.Background(), ws.CheckOpts) {
		agent := f.Agent
		if agent == "" {
			agent = AgentClaude
		}
		if strings.HasPrefix(f.Project, "qwen:") != (agent == "qwen") {
			t.Errorf("%s %s: agent %q", f.Rule, f.Project, f.Agent)
		}
		rules[agent] = append(rules[agent], f.Rule+" "+f.Project+"/"+f.File)
	}
	has := func(agent, rule string) bool {
		return slices.ContainsFunc(rules[agent], func(s string) bool { return strings.HasPrefix(s, rule+" ") })
	}
	if !has("qwen", consolidate.RuleRelativeDate) {
		t.Errorf("the qwen store's relative date is not reported: %q", rules["qwen"])
	}
	if has("qwen", consolidate.RuleRecallTruncated) {
		t.Errorf("Claude Code's recall cap is reported on the qwen store: %q", rules["qwen"])
	}
	if !has("claude", consolidate.RuleSettingsInvalid) {
		t.Errorf("the broken settings are not Claude Code's: %q", rules)
	}
	if !has("claude", consolidate.RuleRecallTruncated) {
		t.Errorf("Claude Code's own store lost its recall check: %q", rules["claude"])
	}
	if !strings.Contains(notes.String(), "-elsewhere: a link to a folder, not followed") {
		t.Errorf("notes: %q", notes.String())
	}
}

// TestAgentFindingsAndProposals: another agent's store loses the rules a
// copy does not follow (and OpenHands' the frontmatter and orphan rules
// its free-form daily logs would trip), with the proposals that only fix
// them; Claude Code's keeps everything. Each finding of a copy names its
// agent.
func TestAgentFindingsAndProposals(t *testing.T) {
	fs := func() []model.Finding {
		return []model.Finding{{Rule: consolidate.RuleRelativeDate}, {Rule: consolidate.RuleRecallTruncated}, {Rule: consolidate.RuleMemoryOrphan}, {Rule: consolidate.RuleFrontmatterMissing}}
	}
	// Claude Code's findings name no agent.
	rulesOf := func(fs []model.Finding, agent string) []string {
		if agent == AgentClaude {
			agent = ""
		}
		var out []string
		for _, f := range fs {
			if f.Agent != agent {
				t.Errorf("%s: agent %q, want %q", f.Rule, f.Agent, agent)
			}
			out = append(out, f.Rule)
		}
		return out
	}
	for _, c := range []struct {
		p    *model.Project
		want []string
	}{
		{&model.Project{Slug: "-work-api"}, []string{consolidate.RuleRelativeDate, consolidate.RuleRecallTruncated, consolidate.RuleMemoryOrphan, consolidate.RuleFrontmatterMissing}},
		{&model.Project{Slug: "qwen:x", Agent: "qwen"}, []string{consolidate.RuleRelativeDate, consolidate.RuleMemoryOrphan, consolidate.RuleFrontmatterMissing}},
		{&model.Project{Slug: "openhands:x", Agent: "openhands"}, []string{consolidate.RuleRelativeDate}},
	} {
		if got := rulesOf(AgentFindings(c.p, fs()), AgentOf(c.p)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.p.Slug, got, c.want)
		}
	}
	props := func() []model.Proposal {
		return []model.Proposal{
			{ID: "reindex", Fixes: []model.FindingRef{{Rule: consolidate.RuleMemoryOrphan}}},
			{ID: "dates", Fixes: []model.FindingRef{{Rule: consolidate.RuleRelativeDate}}},
			{ID: "both", Fixes: []model.FindingRef{{Rule: consolidate.RuleMemoryOrphan}, {Rule: consolidate.RuleRelativeDate}}},
			{ID: "none"},
		}
	}
	ids := func(ps []model.Proposal) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	if got := ids(AgentProposals(&model.Project{Agent: "openhands"}, props())); !slices.Equal(got, []string{"dates", "both", "none"}) {
		t.Errorf("openhands proposals: %q", got)
	}
	if got := ids(AgentProposals(&model.Project{}, props())); len(got) != 4 {
		t.Errorf("Claude Code's proposals: %q", got)
	}
}
