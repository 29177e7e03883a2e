package report

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/model"
)

var sample = []model.Finding{
	{Rule: "settings-invalid", Severity: model.Error, File: "/home/al/.claude/settings.json", Line: 3, Message: "not JSON", Suggestion: "Fix it."},
	{Rule: "index-over-lines", Severity: model.Error, Project: "/home/al/acme", MemoryDir: "/home/al/.claude/projects/-home-al-acme/memory", File: "MEMORY.md", Line: 201,
		Message: "MEMORY.md is 243 lines as Claude Code loads it, over its 200-line cap: nothing after line 200 reaches the agent, which drops 43 entries", Suggestion: "Compact the index under 140 lines."},
	{Rule: "memdir-empty", Severity: model.Info, Project: "/home/al/acme", MemoryDir: "/home/al/.claude/projects/-home-al-acme/memory/team", Message: "the memory directory is empty"},
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	probs := []model.TranscriptProblem{{Transcript: "/home/al/.claude/projects/-home-al-acme/s.jsonl", Message: "line 4 is not JSON and was skipped"}}
	if err := JSON(&buf, sample, Summarize(nil, sample), probs, VersionNotice{}); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out["version"] != float64(1) {
		t.Errorf("version %v", out["version"])
	}
	f := out["findings"].([]any)[1].(map[string]any)
	for _, k := range []string{"rule", "severity", "project", "memory_dir", "file", "line", "message", "suggestion"} {
		if _, ok := f[k]; !ok {
			t.Errorf("finding lacks %q: %v", k, f)
		}
	}
	if f["severity"] != "error" || f["line"] != float64(201) {
		t.Errorf("severity %v line %v", f["severity"], f["line"])
	}
	sum := out["summary"].(map[string]any)
	if sum["errors"] != float64(2) || sum["info"] != float64(1) {
		t.Errorf("summary %v", sum)
	}
	tp := out["transcript_problems"].([]any)
	if len(tp) != 1 || tp[0].(map[string]any)["transcript"] != probs[0].Transcript || tp[0].(map[string]any)["message"] != probs[0].Message {
		t.Errorf("transcript_problems %v", tp)
	}
	var empty bytes.Buffer
	JSON(&empty, nil, Summary{}, nil, VersionNotice{})
	if !strings.Contains(empty.String(), `"findings": []`) || !strings.Contains(empty.String(), `"transcript_problems": []`) {
		t.Errorf("no findings or problems must print empty arrays, not null: %s", empty.String())
	}
}

func TestTextGroupsAndWraps(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, sample, Summarize(nil, sample), Styles{}, "/home/al", 80); err != nil {
		t.Fatal(err)
	}
	out := ansi.Strip(buf.String())
	if !strings.HasPrefix(out, "configuration\n") {
		t.Errorf("configuration findings must come first:\n%s", out)
	}
	if !strings.Contains(out, "~/.claude/projects/-home-al-acme/memory\n") {
		t.Errorf("home not shortened to ~:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("line of %d columns at width 80: %q", w, line)
		}
	}
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		if strings.Contains(line, "MEMORY.md:201") {
			next := lines[i+1]
			if !strings.HasPrefix(next, strings.Repeat(" ", 12)) || strings.HasPrefix(next, strings.Repeat(" ", 13)) || strings.Contains(next, "→") {
				t.Errorf("the long message must continue at column 12, got %q", next)
			}
		}
	}
	if strings.Contains(out, "index-over-\n") || strings.Contains(out, "[index-over-lines") && !strings.Contains(out, "[index-over-lines]") {
		t.Errorf("a rule ID was split:\n%s", out)
	}
	if !strings.HasSuffix(out, "2 errors, 0 warnings, 1 info in 0 projects (0 memory directories, 0 files)\n") {
		t.Errorf("summary line:\n%s", out)
	}
}

func TestTextUnwrappedForPipes(t *testing.T) {
	var buf bytes.Buffer
	Text(&buf, sample, Summarize(nil, sample), Styles{}, "", 0)
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "index-over-lines") && !strings.Contains(line, "MEMORY.md:201") {
			t.Errorf("piped output must keep each finding on one line: %q", line)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	if got := SummaryLine(Summary{Projects: 1, MemoryDirs: 1, Files: 1}); got != "no findings in 1 project (1 memory directory, 1 file)" {
		t.Errorf("got %q", got)
	}
}

// TestGroupOutOfOrder checks group keeps each project's directories in the
// order the findings name them, and each directory's findings in order,
// when findings of one directory are not adjacent (group shares the input
// for the runs that are).
func TestGroupOutOfOrder(t *testing.T) {
	f := func(project, dir, msg string) model.Finding {
		return model.Finding{Project: project, MemoryDir: dir, Message: msg}
	}
	fs := []model.Finding{f("a", "d1", "0"), f("b", "d1", "1"), f("a", "d1", "2"), f("a", "d2", "3"), f("a", "d1", "4"), f("a", "d1", "5")}
	var got []string
	for _, g := range group(fs) {
		for _, d := range g.dirs {
			s := g.project + "/" + d.dir + ":"
			for _, x := range d.findings {
				s += x.Message
			}
			got = append(got, s)
		}
	}
	want := []string{"a/d1:02", "a/d2:3", "a/d1:45", "b/d1:1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("group = %v, want %v", got, want)
	}
	if fs[0].Message != "0" || fs[2].Message != "2" {
		t.Fatal("group changed its input")
	}
}

// A diff names its file on one line whatever the name holds, masks a key
// found only in the whole text, and shows escapes rather than sending them.
func TestDiffLinesAreSafe(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" +
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n" +
		"-----END RSA PRIVATE KEY-----\n"
	c := model.Change{Path: "a\n+++ b/forged.md\x1b]0;t\a.md", Op: model.OpUpdate, After: "keep\n" + key + "new \x1b[2J\n"}
	lines := DiffLines(c, "keep\nold\n")
	if len(lines) < 3 || lines[0] != `--- a/a\n+++ b/forged.md\x1b]0;t\x07.md` || lines[1] != `+++ b/a\n+++ b/forged.md\x1b]0;t\x07.md` {
		t.Fatalf("headers: %q", lines[:min(len(lines), 2)])
	}
	out := strings.Join(lines, "\n")
	for _, bad := range []string{"\x1b", "\a", "MIIEowIBAAKCAQEAu1SU1Lf", "VTLw7onLRnrq0/IzW7yWR7Qk"} {
		if strings.Contains(out, bad) {
			t.Errorf("the diff holds %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, `+new \x1b[2J`) || !strings.Contains(out, "-old") {
		t.Errorf("the diff lost its lines:\n%s", out)
	}
}

// BenchmarkText prints 20,000 findings as lint does to a pipe: every piece
// that quotes a file goes through the sanitizer and the secret masker.
func BenchmarkText(b *testing.B) {
	fs := make([]model.Finding, 20000)
	for i := range fs {
		fs[i] = model.Finding{Rule: "index-broken-link", Severity: model.Error, Project: "/home/al/proj" + strconv.Itoa(i/400),
			MemoryDir: "/home/al/.claude/projects/-home-al-proj/memory", File: "MEMORY.md", Line: i%200 + 1,
			Message:    "[Note " + strconv.Itoa(i) + "](note_" + strconv.Itoa(i) + ".md) points at note_" + strconv.Itoa(i) + ".md, which does not exist in the memory directory",
			Suggestion: "Remove the entry, or restore the file it names."}
	}
	sum := Summarize(nil, fs)
	b.ReportAllocs()
	for b.Loop() {
		if err := Text(io.Discard, fs, sum, Styles{}, "/home/al", 0); err != nil {
			b.Fatal(err)
		}
	}
}

// On a terminal (colour, wrapped to its width) as in a pipe, a finding
// that quotes escape sequences and a newline shows them as escapes: the
// only escape codes written are lint's own colours, and no line is forged.
func TestTextShowsEscapesOnATerminal(t *testing.T) {
	fs := []model.Finding{{Rule: "frontmatter-missing", Severity: model.Warning, Project: "/work/p\x1b]0;title\a",
		MemoryDir: "/home/al/.claude/projects/-work-p/memory", File: "a\n    error   forged.md:1 FORGED [x]\n.md", Line: 1,
		Message:    "the name \x1b]52;c;aGk=\a is long enough to wrap at sixty columns \u009b2J and \u202eevil",
		Suggestion: "Add frontmatter \x1b[2J to it."}}
	for _, width := range []int{0, 60} {
		var buf bytes.Buffer
		if err := Text(&buf, fs, Summarize(nil, fs), DefaultStyles(true), "/home/al", width); err != nil {
			t.Fatal(err)
		}
		out := regexp.MustCompile(`\x1b\[[0-9;:]*m`).ReplaceAllString(buf.String(), "")
		if strings.ContainsAny(out, "\x1b\a\u009b\u202e") {
			t.Errorf("width %d: a raw control character reached the output: %q", width, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "    error   forged.md") {
				t.Errorf("width %d: the file name forged a line:\n%s", width, out)
			}
		}
		if !strings.Contains(out, `\x1b]52;c;aGk=\x07`) {
			t.Errorf("width %d: the escape is not shown visibly:\n%s", width, out)
		}
	}
}
