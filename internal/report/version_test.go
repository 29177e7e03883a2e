package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/model"
)

func versionProject(name string, sessions ...*model.Session) *model.Project {
	l := &model.TranscriptLog{Sessions: map[string]*model.Session{}}
	for i, s := range sessions {
		l.Sessions[string(rune('a'+i))] = s
	}
	return &model.Project{Root: name, Log: l}
}

func session(version string, day int) *model.Session {
	t := time.Date(2026, 11, day, 9, 0, 0, 0, time.UTC)
	return &model.Session{Version: version, Start: t, End: t.Add(time.Hour)}
}

// TestClaudeCodeVersions: a session of a newer Claude Code is said once,
// whatever the project; a project whose newest session ran an older one
// is named with what differs there (every change when it is 2.1.261 or
// older, "may" past it); versions are compared as versions, not strings;
// the newest session decides; unparsable versions are skipped.
func TestClaudeCodeVersions(t *testing.T) {
	ps := []*model.Project{
		versionProject("/home/u/new", session("2.1.400", 3), session("2.1.1000", 2)),
		versionProject("/home/u/also-new", session("2.1.400", 4)),
		versionProject("/home/u/old", session("2.1.200", 5), session("2.1.99", 1)),
		versionProject("/home/u/upgraded", session("2.1.200", 1), session("2.1.332", 6)),
		versionProject("/home/u/between", session("2.1.300", 2)),
		versionProject("/home/u/garbage", session("not a version", 9), session("", 9)),
		{Root: "/home/u/no-log"},
		nil,
	}
	n := ClaudeCodeVersions(ps)
	if n.Newer != "2.1.1000" {
		t.Errorf("Newer = %q, want 2.1.1000 (2.1.1000 > 2.1.400 as versions)", n.Newer)
	}
	var got []string
	for _, o := range n.Older {
		got = append(got, o.Project+" "+o.Version)
	}
	if strings.Join(got, ", ") != "/home/u/old 2.1.200, /home/u/between 2.1.300" {
		t.Errorf("Older = %q", got)
	}
	line := n.Line("/home/u")
	for _, want := range []string{
		"claude code: sessions of 2.1.1000 ran, newer than the 2.1.332 memtui follows: memory behaviour may have moved since",
		"; ~/old (2.1.200) last ran 2.1.261 or older, where, unlike in 2.1.332, the cut-off warning does not say which lines were cut, ",
		"a missing MEMORY.md is not written", "the memory scan does not follow symlinks", "metadata.pinned is read",
		"autoDream does not check permission rules and there is no own-project write carve-out",
		"; ~/between (2.1.300) last ran a version between 2.1.261 and 2.1.332, which may lack some of the 7 changes memtui version lists",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("Line lacks %q:\n%s", want, line)
		}
	}
	if strings.Count(line, "newer") != 1 || strings.Contains(line, "\n") || strings.Contains(line, "upgraded") || strings.Contains(line, "garbage") {
		t.Errorf("Line:\n%s", line)
	}
	if s := n.Short(); s != "Claude Code 2.1.1000 is newer than 2.1.332 · 2 projects on Claude Code 2.1.200 to 2.1.300: 7 behaviours differ" {
		t.Errorf("Short = %q", s)
	}

	if c := n.Compact(); c != "Claude Code 2.1.1000 is newer · older Claude Code in 2 projects" {
		t.Errorf("Compact = %q", c)
	}

	// Only a newer one; only an older one; nothing.
	if n := ClaudeCodeVersions(ps[:2]); n.Line("") != "claude code: sessions of 2.1.1000 ran, newer than the 2.1.332 memtui follows: memory behaviour may have moved since" ||
		n.Short() != "Claude Code 2.1.1000 is newer than 2.1.332" {
		t.Errorf("newer only: %q / %q", n.Line(""), n.Short())
	}
	if n := ClaudeCodeVersions(ps[4:5]); n.Short() != "1 project on Claude Code 2.1.300: some behaviours may differ" || strings.Contains(n.Line(""), "newer") {
		t.Errorf("between only: %q / %q", n.Line(""), n.Short())
	}
	if n := ClaudeCodeVersions(ps[3:4]); n.Line("") != "" || n.Short() != "" || n.Compact() != "" {
		t.Errorf("the followed version: %q / %q", n.Line(""), n.Short())
	}
	var b strings.Builder
	if err := Version(&b, ClaudeCodeVersions(nil), lipgloss.NewStyle(), ""); err != nil || b.Len() != 0 {
		t.Errorf("nothing to say printed %q", b.String())
	}
}

// TestClaudeCodeVersionsNamesMany: past three older projects the line
// counts the rest.
func TestClaudeCodeVersionsNamesMany(t *testing.T) {
	var ps []*model.Project
	for _, name := range []string{"/a", "/b", "/c", "/d", "/e"} {
		ps = append(ps, versionProject(name, session("2.1.100", 1)))
	}
	line := ClaudeCodeVersions(ps).Line("")
	if !strings.Contains(line, "claude code: /a (2.1.100), /b (2.1.100), /c (2.1.100) and 2 more projects last ran 2.1.261 or older") {
		t.Errorf("line: %s", line)
	}
}

// TestClaudeCodeVersionsHostile: a project name carrying escapes is shown
// escaped, on one line.
func TestClaudeCodeVersionsHostile(t *testing.T) {
	ps := []*model.Project{versionProject("/home/u/"+hostile.OSC52+"\n"+hostile.Forged, session("2.1.200", 1))}
	n := ClaudeCodeVersions(ps)
	for _, s := range []string{n.Line(""), n.Short(), n.Compact()} {
		if strings.ContainsAny(s, "\x1b\x07\n") {
			t.Errorf("unsafe: %q", s)
		}
	}
	if !strings.Contains(n.Line(""), `\x1b]52;`) {
		t.Errorf("the name is not shown escaped: %q", n.Line(""))
	}
}

// TestVersionJSON: lint --json's claude_code names the followed version,
// the newest newer one, and each project on an older one with the ids of
// the changes it lacks: in differs at or before 2.1.261, in may_differ
// past it (never both); with nothing to say it is still there, its list
// [] rather than null.
func TestVersionJSON(t *testing.T) {
	n := ClaudeCodeVersions([]*model.Project{
		versionProject("/home/u/new", session("2.1.400", 3)),
		versionProject("/home/u/old", session("2.1.200", 5)),
		versionProject("/home/u/between", session("2.1.300", 2)),
	})
	var buf bytes.Buffer
	if err := JSON(&buf, nil, Summary{}, nil, n); err != nil {
		t.Fatal(err)
	}
	var out struct {
		ClaudeCode struct {
			Followed     string `json:"followed"`
			ComparedWith string `json:"compared_with"`
			Newer        string `json:"newer"`
			Older        []struct {
				Project   string   `json:"project"`
				Version   string   `json:"version"`
				Compared  bool     `json:"compared"`
				Differs   []string `json:"differs"`
				MayDiffer []string `json:"may_differ"`
			} `json:"older"`
		} `json:"claude_code"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	cc := out.ClaudeCode
	if cc.Followed != "2.1.332" || cc.ComparedWith != "2.1.261" || cc.Newer != "2.1.400" || len(cc.Older) != 2 {
		t.Fatalf("claude_code = %+v", cc)
	}
	old, between := cc.Older[0], cc.Older[1]
	want := "truncation-warning comment-stripping index-backfill scan-symlinks claude-code-item autodream-permission-skip own-project-carve-out"
	if old.Project != "/home/u/old" || old.Version != "2.1.200" || !old.Compared ||
		strings.Join(old.Differs, " ") != want || old.MayDiffer == nil || len(old.MayDiffer) != 0 {
		t.Errorf("older[0] = %+v, want /home/u/old at 2.1.200 lacking every change", old)
	}
	if between.Project != "/home/u/between" || between.Version != "2.1.300" || between.Compared ||
		between.Differs == nil || len(between.Differs) != 0 || strings.Join(between.MayDiffer, " ") != want {
		t.Errorf("older[1] = %+v, want /home/u/between at 2.1.300 that may lack every change", between)
	}

	buf.Reset()
	if err := JSON(&buf, nil, Summary{}, nil, ClaudeCodeVersions(nil)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"followed": "2.1.332"`, `"newer": ""`, `"older": []`} {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("nothing to say: the JSON lacks %s:\n%s", w, buf.String())
		}
	}
}

// TestVersionJSONHostile: a project name from a transcript's cwd has its
// secret masked and its escapes kept out of the raw bytes.
func TestVersionJSONHostile(t *testing.T) {
	name := "/home/u/" + hostile.FakeToken + hostile.OSC52 + "\u202e"
	var buf bytes.Buffer
	if err := JSON(&buf, nil, Summary{}, nil, ClaudeCodeVersions([]*model.Project{versionProject(name, session("2.1.200", 1))})); err != nil {
		t.Fatal(err)
	}
	if leaks := hostile.FakeLeaks(buf.String()); len(leaks) > 0 {
		t.Errorf("the project name's token is in the JSON: %q", leaks)
	}
	if strings.ContainsAny(buf.String(), "\x1b\x07\u202e") {
		t.Errorf("raw escapes in the JSON:\n%q", buf.String())
	}
	if !strings.Contains(buf.String(), `"project": "/home/u/`) {
		t.Errorf("the project is not named:\n%s", buf.String())
	}
}
