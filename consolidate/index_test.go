package consolidate

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/prose"
)

var ixTestNow = time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)

// ixNoIndex stands for a directory without MEMORY.md.
const ixNoIndex = "\x00no index"

// ixRun runs every check over a memory dir built from an index and
// testmodel.IndexTopic files, and returns the findings of the given rule.
func ixRun(t *testing.T, rule, index string, files []*model.File, problems ...model.Problem) []model.Finding {
	t.Helper()
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	dir := &model.MemoryDir{Path: "/m", Exists: true, Files: files, Problems: problems}
	if index != ixNoIndex {
		dir.Index = &model.File{Path: "MEMORY.md", Content: []byte(index)}
	}
	var out []model.Finding
	for _, f := range OrientDir(&model.Project{Slug: "p"}, dir, Options{Now: ixTestNow}) {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// ixExpect checks the findings' lines (and that each has a message and a
// suggestion), and that each message holds the given fragments.
func ixExpect(t *testing.T, got []model.Finding, lines []int, fragments ...string) {
	t.Helper()
	var gotLines []int
	for _, f := range got {
		gotLines = append(gotLines, f.Line)
		if f.Message == "" || f.Suggestion == "" {
			t.Errorf("finding without message or suggestion: %+v", f)
		}
	}
	if fmt.Sprint(gotLines) != fmt.Sprint(lines) {
		t.Fatalf("lines %v, want %v; findings:\n%s", gotLines, lines, testmodel.Dump(got))
	}
	for _, frag := range fragments {
		found := false
		for _, f := range got {
			if strings.Contains(f.Message+" "+f.Suggestion, frag) {
				found = true
			}
		}
		if !found {
			t.Errorf("no finding mentions %q:\n%s", frag, testmodel.Dump(got))
		}
	}
}

func TestIndexCleanRealWorldShapes(t *testing.T) {
	for _, r := range []string{RuleIndexOverLines, RuleIndexOverSize, RuleIndexNearLimit, RuleIndexEntryTooLong, RuleIndexBrokenLink,
		RuleIndexLinkOutside, RuleIndexDuplicateEntry, RuleIndexNotPointer, RuleIndexMissing, RuleMemoryOrphan,
		RuleIndexEntryMultiline, RuleIndexEmptySection, RuleHookEchoes} {
		if got := ixRun(t, r, testmodel.CleanIndex, testmodel.CleanFiles()); len(got) > 0 {
			t.Errorf("%s fired on a clean index:\n%s", r, testmodel.Dump(got))
		}
	}
}

func TestIndexOverLines(t *testing.T) {
	body, files := testmodel.EntryLines(210, "\n")
	got := ixRun(t, RuleIndexOverLines, body, files)
	ixExpect(t, got, []int{201}, "210 lines", "nothing after line 200", `"Entry 201" (line 201)`, "10 entries", "and 5 more", "under 140 lines")
	if got[0].Severity != model.Error || got[0].File != "MEMORY.md" {
		t.Errorf("severity %v file %q", got[0].Severity, got[0].File)
	}

	crlf, files := testmodel.EntryLines(201, "\r\n")
	ixExpect(t, ixRun(t, RuleIndexOverLines, crlf, files), []int{201}, `"Entry 201" (line 201)`, "1 entry")

	// 200 lines as loaded: frontmatter, comments and a trailing blank run
	// make the file longer, but Claude Code does not count them.
	exact, files := testmodel.EntryLines(200, "\n")
	padded := "---\nname: index\n---\n<!--\nkept out of the load\n-->\n" + exact + "\n\n\n"
	ixExpect(t, ixRun(t, RuleIndexOverLines, padded, files), nil)

	// Comments shift the cut: dropped entries are named by their file line.
	shifted, files := testmodel.EntryLines(201, "\n")
	shifted = "<!-- a -->\n<!-- b -->\n" + shifted
	ixExpect(t, ixRun(t, RuleIndexOverLines, shifted, files), []int{203}, `"Entry 201" (line 203)`)
}

func TestIndexOverSize(t *testing.T) {
	// 150 entries of ~200 characters: under 200 lines, over 25,000 units.
	var b strings.Builder
	var files []*model.File
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&b, "- [Entry %03d](entry-%d.md) — %s\n", i, i, strings.Repeat("h", 170))
		files = append(files, testmodel.IndexTopics(fmt.Sprintf("entry-%d.md", i))...)
	}
	got := ixRun(t, RuleIndexOverSize, b.String(), files)
	ixExpect(t, got, []int{125}, "UTF-16 units", "over its 25,000-unit cap", "the load stops after line 124", `"Entry 125" (line 125)`, "26 entries", "17,500 units")
	if len(ixRun(t, RuleIndexOverLines, b.String(), files)) != 0 {
		t.Errorf("over-lines fired on 150 lines")
	}

	// Both caps, but the line cut already removes the excess.
	both := strings.Repeat("- "+strings.Repeat("x", 98)+"\n", 300)
	ixExpect(t, ixRun(t, RuleIndexOverSize, both, nil), []int{0}, "29.6KB", "the 200-line cut drops more than this cap would")

	// CJK: more than 25,000 bytes, fewer than 25,000 UTF-16 units.
	var cjk strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&cjk, "- [メモ %d](m%d.md) — %s\n", i, i, strings.Repeat("日本語", 30))
	}
	ixExpect(t, ixRun(t, RuleIndexOverSize, cjk.String(), nil), nil)

	// One endless line: the load stops inside it.
	long := "- [One](one.md) — " + strings.Repeat("z", 26000)
	ixExpect(t, ixRun(t, RuleIndexOverSize, long, testmodel.IndexTopics("one.md")), []int{1}, "stops inside line 1")
}

// TestIndexCapsTellWhatTheAgentIsTold: the cap findings quote the detail
// of Claude Code's warning, whose line numbers count the stripped text.
func TestIndexCapsTellWhatTheAgentIsTold(t *testing.T) {
	body, files := testmodel.EntryLines(201, "\n")
	got := ixRun(t, RuleIndexOverLines, "<!-- a -->\n<!-- b -->\n"+body, files)
	ixExpect(t, got, []int{203}, `"Entry 201" (line 203)`, `Claude Code's warning tells the agent only: 1 of 201 lines were cut off, starting at line 201 ("- [Entry 201](entry-201.md)`)
	long := "- [One](one.md) — " + strings.Repeat("z", 26000)
	ixExpect(t, ixRun(t, RuleIndexOverSize, long, testmodel.IndexTopics("one.md")), []int{1}, `tells the agent only: everything after the first 25000 characters of line 1 was cut off`)
	// A token in the line quoted, clipped through: masked before the clip,
	// so no part of it is in the message.
	tok := "ghp_Zq8Wm3Rt6Yp1Lk4Hn7Vb2Xc5Jd9Fg0Ts3Qeu"
	body, files = testmodel.EntryLines(200, "\n")
	got = ixRun(t, RuleIndexOverLines, body+"- [B](b.md) — "+strings.Repeat("y", 30)+tok+" tail\n", files)
	ixExpect(t, got, []int{201}, `starting at line 201 ("- [B](b.md) — yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyghp_…`)
	if strings.Contains(got[0].Message, tok[:20]) {
		t.Errorf("part of a secret in the message: %s", got[0].Message)
	}
}

// TestIndexTooLargeIsNotLoaded: over 4,194,304 bytes Claude Code loads no
// part of MEMORY.md: index-over-size says so, and nothing says "cut".
func TestIndexTooLargeIsNotLoaded(t *testing.T) {
	body, files := testmodel.EntryLines(10, "\n")
	huge := body + strings.Repeat("x", model.IndexMaxReadBytes+1-len(body))
	got := ixRun(t, RuleIndexOverSize, huge, files)
	ixExpect(t, got, []int{0}, "4,194,305 bytes", "over the 4,194,304 bytes Claude Code reads", "not loaded at all", "no warning")
	for _, rule := range []string{RuleIndexOverLines, RuleIndexNearLimit} {
		ixExpect(t, ixRun(t, rule, huge, files), nil)
	}
	// At the limit, it loads (and is cut).
	at := huge[:model.IndexMaxReadBytes]
	ixExpect(t, ixRun(t, RuleIndexOverSize, at, files), []int{11}, "the load stops after line 10")
}

// TestAgentIndexIsMeasuredRaw: a subagent's MEMORY.md keeps its comments
// when Claude Code loads it: a 33-line comment and 180 entries are 213
// lines, and the last 13 entries are cut. The same index in auto memory
// loads whole.
func TestAgentIndexIsMeasuredRaw(t *testing.T) {
	body, files := testmodel.EntryLines(180, "\n")
	index := "<!--\n" + strings.Repeat("how to write entries here\n", 31) + "-->\n" + body
	run := func(kind model.DirKind) []model.Finding {
		dir := &model.MemoryDir{Path: "/m", Kind: kind, Exists: true, Files: files, Index: &model.File{Path: "MEMORY.md", Content: []byte(index)}}
		var out []model.Finding
		for _, f := range OrientDir(&model.Project{Slug: "p"}, dir, Options{Now: ixTestNow}) {
			if f.Rule == RuleIndexOverLines {
				out = append(out, f)
			}
		}
		return out
	}
	ixExpect(t, run(model.DirAuto), nil)
	ixExpect(t, run(model.DirAgentProject), []int{201}, "213 lines", `"Entry 168" (line 201)`, "13 entries", "starting at line 201")
}

func TestIndexNearLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		lines []int
		frags []string
	}{
		{"159 lines", 159, nil, nil},
		{"160 lines", 160, []int{0}, []string{"160 of 200 lines (80%)", "remove at least 20 lines to get to 140"}},
		{"200 lines", 200, []int{0}, []string{"200 of 200 lines (100%)"}},
		{"201 lines is over, not near", 201, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, files := testmodel.EntryLines(tc.n, "\n")
			ixExpect(t, ixRun(t, RuleIndexNearLimit, body, files), tc.lines, tc.frags...)
		})
	}
	units := "- [Big](big.md) — " + strings.Repeat("u", 20000-18)
	ixExpect(t, ixRun(t, RuleIndexNearLimit, units, testmodel.IndexTopics("big.md")), []int{0}, "20,000 of 25,000 UTF-16 units (80%)", "cut about 2,500 units")
	ixExpect(t, ixRun(t, RuleIndexNearLimit, units[:len(units)-1], testmodel.IndexTopics("big.md")), nil)
}

func TestIndexEntryTooLong(t *testing.T) {
	pad := func(n int) string { return "- [T](t.md) — " + strings.Repeat("a", n-len([]rune("- [T](t.md) — "))) }
	files := testmodel.IndexTopics("t.md")
	ixExpect(t, ixRun(t, RuleIndexEntryTooLong, pad(151)+"\n", files), []int{1}, "151 characters", "t.md")
	ixExpect(t, ixRun(t, RuleIndexEntryTooLong, pad(150)+"\r\n", files), nil) // the \r is not counted
	// 150 characters of Japanese are 450 bytes: characters count, not bytes.
	jp := "- [T](t.md) — " + strings.Repeat("語", 150-len([]rune("- [T](t.md) — ")))
	ixExpect(t, ixRun(t, RuleIndexEntryTooLong, jp, files), nil)
	// Prose entries count too; a long line without any link is not an entry.
	ixExpect(t, ixRun(t, RuleIndexEntryTooLong, "See [t](t.md) "+strings.Repeat("b", 150), files), []int{1})
	ixExpect(t, ixRun(t, RuleIndexEntryTooLong, strings.Repeat("c", 180), files), nil)
}

func TestIndexBrokenLink(t *testing.T) {
	files := testmodel.IndexTopics("a.md", "sub/b.md", "Mixed_Case.md", "dup/name.md")
	for _, tc := range []struct {
		name  string
		index string
		lines []int
		frags []string
	}{
		{"missing file", "- [Gone](gone.md) — x\n", []int{1}, []string{"[Gone](gone.md) points at gone.md", "does not exist"}},
		{"missing backticked name", "| `gone.md` | x |\n", []int{1}, []string{"gone.md"}},
		{"similar name elsewhere", "- [N](name.md)\n", []int{1}, []string{"Point it at dup/name.md"}},
		{"missing file inside dir by absolute path", "- [G](/m/gone.md)\n", []int{1}, nil},
		{"present", "- [A](a.md)\n- [A2](./a.md#why) and `a.md`\n", nil, nil},
		{"subdirectory", "- [B](sub/b.md)\n", nil, nil},
		{"absolute path inside the dir", "- [A](/m/a.md)\n", nil, nil},
		{"case-insensitive match", "- [M](mixed_case.md)\n", nil, nil},
		{"url-encoded and angle brackets", "- [S](<sub/b.md>)\n- [S2](sub%2Fb.md)\n", nil, nil},
		{"non-markdown target", "- [Diagram](diagram.png)\n- [Dir](logs/)\n- [Sub](sub)\n", nil, nil},
		{"team memory is another directory", "- [Team](team/MEMORY.md)\n- [T](team/x.md)\n", nil, nil},
		{"the index itself", "- [Self](MEMORY.md)\n", nil, nil},
		{"unreadable but present", "- [U](locked.md)\n- [V](vanished.md)\n", []int{2}, []string{"vanished.md"}},
		{"wikilinks may name memories not written yet", "- [[not-yet]]\n", nil, nil},
		{"urls and anchors", "- [W](https://x.example/a.md)\n- [Top](#top)\n", nil, nil},
		{"links in code and comments are not references", "```\n- [G](gone.md)\n```\n<!-- [G](gone.md) -->\n", nil, nil},
		{"one finding per target per line", "- [G](gone.md) — see [again](gone.md)\n", []int{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ixExpect(t, ixRun(t, RuleIndexBrokenLink, tc.index, files, model.Problem{Path: "locked.md", Kind: model.ProblemUnreadable}), tc.lines, tc.frags...)
		})
	}
}

func TestIndexLinkOutside(t *testing.T) {
	files := testmodel.IndexTopics("a.md")
	idx := "- [Claude](../CLAUDE.md) — project rules\n- [Etc](/etc/notes.md)\n- [Home](~/notes.md)\n- [Win](C:\\notes\\x.md)\n- [A](/m/a.md)\n- [Up](sub/../../x.md)\n"
	got := ixRun(t, RuleIndexLinkOutside, idx, files)
	ixExpect(t, got, []int{1, 2, 3, 4, 6}, "../CLAUDE.md", "outside the memory directory")
	if got[0].Severity != model.Warning {
		t.Errorf("severity %v", got[0].Severity)
	}
	// Outside links are not also reported as broken.
	ixExpect(t, ixRun(t, RuleIndexBrokenLink, idx, files), nil)
}

func TestIndexDuplicateEntry(t *testing.T) {
	files := append(testmodel.IndexTopics("a.md", "b.md"), testmodel.IndexTopic("c.md", "c-name", "about c"))
	for _, tc := range []struct {
		name  string
		index string
		lines []int
		frags []string
	}{
		{"two list entries", "- [A](a.md) — x\n- [B](b.md)\n- [A again](a.md) — y\n", []int{3}, []string{"a.md", "line 1"}},
		{"table and list", "| `a.md` | x |\n|---|---|\n\n- [A](./a.md#why)\n", nil, nil},
		{"list then table row", "- [A](a.md)\n\n| File | Hook |\n|---|---|\n| `a.md` | again |\n", []int{5}, []string{"line 1"}},
		{"case differs", "- [A](a.md)\n- [A](A.md)\n", []int{2}, nil},
		{"wikilinks", "- [[c-name]]\n- [[C-Name|C]]\n", []int{2}, nil},
		{"prose mentions are not entries", "Start with [a](a.md).\n- [A](a.md) — x\nSee also [a](a.md).\n", nil, nil},
		{"hooks may mention another entry", "- [A](a.md) — pairs with [B](b.md)\n- [B](b.md) — x\n", nil, nil},
		{"distinct targets", "- [A](a.md)\n- [B](b.md)\n", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ixExpect(t, ixRun(t, RuleIndexDuplicateEntry, tc.index, files), tc.lines, tc.frags...)
		})
	}
}

func TestIndexNotPointer(t *testing.T) {
	files := testmodel.IndexTopics("a.md", "b.md", "c.md")
	for _, tc := range []struct {
		name  string
		index string
		lines []int
		frags []string
	}{
		{"three lines of content", "# Memory\n- [A](a.md)\n\nThe API key rotates monthly.\nDeploys go through staging.\nNever push to main.\n", []int{4}, []string{"3 lines of text", "lines 4-6"}},
		{"reference-less bullets", "- Always use bun\n- Never push to main\n- Tests need -race\n", []int{1}, nil},
		{"a fenced block", "- [A](a.md)\n```sh\nmake deploy\n```\n", []int{2}, []string{"fenced code block (lines 2-4)"}},
		{"one very long line", "- [A](a.md)\n" + strings.Repeat("detail ", 40) + "\n", []int{2}, []string{"280-character line"}},
		{"an intro sentence", "# Memory\n\nPointers to this project's memories; details live in the files.\n\n- [A](a.md)\n", nil, nil},
		// A paragraph is judged whole: two lines of notes are content, an
		// intro of one line or two about the index is not.
		{"two short notes", "Note one.\nNote two.\n\n- [A](a.md)\n", []int{1}, []string{"2 lines of text", "lines 1-2"}},
		{"a two-line paragraph of operational notes", "# Memory\n- [A](a.md) — x\n\n## Deploys\nDeploys go through staging, never straight to prod.\nThe release branch is cut on Thursdays.\n\n- [B](b.md) — y\n",
			[]int{5}, []string{"2 lines of text", "lines 5-6"}},
		{"two reference-less bullets", "- [A](a.md)\n\n- Always use bun\n- Never push to main\n", []int{3}, nil},
		{"a two-line paragraph over 200 characters about the index", "This index " + strings.Repeat("lists ", 30) + "\nand more about the entries.\n- [A](a.md)\n", []int{1}, []string{"2 lines of text"}},
		{"a two-line intro about the index", "# Memory\n\nThis index points at the project's memories.\nEach entry links to a topic file with the details.\n\n- [A](a.md)\n", nil, nil},
		{"a one-line note is not judged content", "# Memory\n\nDeploys go through staging.\n\n- [A](a.md)\n", nil, nil},
		{"headings and entries are not content", "# Memory\n\n## Feedback\n- [A](a.md) — x\n- [B](b.md) — y\n\n## Project\n- [C](c.md) — z\n", nil, nil},
		{"a setext heading is not content", "Deploy notes\n============\n\n- [A](a.md)\n", nil, nil},
		{"lone HTML tags are not content", "<details>\n<summary>Archive</summary>\n\n- [A](a.md)\n\n</details>\n", nil, nil},
		{"prose that points", "The user prefers [bun](a.md).\nThey rewrote [auth](b.md) in May.\nDeploys follow [c](c.md).\n", nil, nil},
		{"continuation lines are another rule", "- [A](a.md)\n  one\n  two\n  three\n", nil, nil},
		{"comments are not content", "<!--\nline one\nline two\nline three\n-->\n- [A](a.md)\n", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ixExpect(t, ixRun(t, RuleIndexNotPointer, tc.index, files), tc.lines, tc.frags...)
		})
	}
}

func TestIndexMissing(t *testing.T) {
	got := ixRun(t, RuleIndexMissing, ixNoIndex, testmodel.IndexTopics("a.md", "b.md"))
	ixExpect(t, got, []int{0}, "2 topic files but no MEMORY.md")
	if got[0].File != "" {
		t.Errorf("file %q, want the directory", got[0].File)
	}
	ixExpect(t, ixRun(t, RuleIndexMissing, ixNoIndex, testmodel.IndexTopics("logs/2026/07/2026-07-30.md", "sessions/s.md")), nil)
	ixExpect(t, ixRun(t, RuleIndexMissing, ixNoIndex, nil), nil)
	ixExpect(t, ixRun(t, RuleIndexMissing, ixNoIndex, testmodel.IndexTopics("a.md"), model.Problem{Path: "MEMORY.md", Kind: model.ProblemUnreadable}), nil)
	ixExpect(t, ixRun(t, RuleIndexMissing, "- [A](a.md)\n", testmodel.IndexTopics("a.md")), nil)
	// Without an index, orphans are not reported one by one.
	ixExpect(t, ixRun(t, RuleMemoryOrphan, ixNoIndex, testmodel.IndexTopics("a.md", "b.md")), nil)
}

func TestMemoryOrphan(t *testing.T) {
	files := func() []*model.File {
		return append(testmodel.IndexTopics("linked.md", "mid.md", "ticked.md", "stem-only.md", "orphan.md", "sub/deep.md", "fenced.md",
			"commented.md", "logs/2026/07/2026-07-30.md", "sessions/notes.md", "old.md", "older.md", "archive/gone.md"),
			testmodel.IndexTopic("named.md", "by-name", "found through its frontmatter name"),
			&model.File{Path: "MEMORY-archive.md", Content: []byte("# Archive\n- [Old](old.md) — superseded\n- `older.md`\n")},
			&model.File{Path: "archive/index.md", Content: []byte("- [Gone](gone.md) — relative to archive/\n- [[older]]\n")})
	}
	idx := "# Memory\n" +
		"- [Linked](linked.md) — x\n" +
		"The user mentioned [this](mid.md) mid-sentence.\n" +
		"| `ticked.md` | x |\n|---|---|\n\n" +
		"- [[by-name]] and [[stem-only]]\n" +
		"- [Deep](sub/deep.md)\n" +
		"```\n- [F](fenced.md)\n```\n" +
		"<!-- [C](commented.md) -->\n" +
		"Archived: [archive](MEMORY-archive.md), [more](archive/index.md).\n"
	got := ixRun(t, RuleMemoryOrphan, idx, files())
	var paths []string
	for _, f := range got {
		paths = append(paths, f.File)
	}
	if fmt.Sprint(paths) != "[commented.md fenced.md orphan.md]" {
		t.Errorf("orphans %v\n%s", paths, testmodel.Dump(got))
	}
	ixExpect(t, got[2:], []int{0}, "orphan.md is not referenced from MEMORY.md", "- [orphan](orphan.md) — about orphan")
}

func TestIndexEntryMultiline(t *testing.T) {
	files := testmodel.IndexTopics("a.md", "b.md")
	ixExpect(t, ixRun(t, RuleIndexEntryMultiline, "- [A](a.md) — x\n  worked at X\n  then Y\n    and Z\n- [B](b.md)\n", files),
		[]int{1}, "3 indented lines", "lines 2-4", "a.md")
	ixExpect(t, ixRun(t, RuleIndexEntryMultiline, "- [A](a.md) — x\r\n\tdetail\r\n", files), []int{1}, "1 indented line")
	// A nested entry is an entry of its own, not a hanging line.
	ixExpect(t, ixRun(t, RuleIndexEntryMultiline, "- [A](a.md)\n  - [B](b.md) — sub-ixTopic\n", files), nil)
	ixExpect(t, ixRun(t, RuleIndexEntryMultiline, "- [A](a.md)\n\n  after a blank line\n", files), nil)
	ixExpect(t, ixRun(t, RuleIndexEntryMultiline, "- [A](a.md)\n- [B](b.md)\n", files), nil)
}

func TestIndexEmptySection(t *testing.T) {
	files := testmodel.IndexTopics("a.md", "b.md")
	for _, tc := range []struct {
		name  string
		index string
		lines []int
	}{
		{"empty between two sections", "# Memory\n\n## Empty\n\n## Full\n- [A](a.md)\n", []int{3}},
		{"empty at the end", "# Memory\n## Full\n- [A](a.md)\n## Later\n", []int{4}},
		{"placeholder text", "# Memory\n## Todo\n(none yet)\n## Full\n- [A](a.md)\n", []int{2}},
		{"sub-headings with entries", "# Memory\n## Work\n### Auth\n- [A](a.md)\n### Deploy\n- [B](b.md)\n", nil},
		{"empty sub-heading", "# Memory\n## Work\n### Auth\n### Deploy\n- [B](b.md)\n", []int{3}},
		{"the title is not a section", "# Memory Index\n", nil},
		{"two titles are two sections", "# One\n# Two\n- [A](a.md)\n", []int{1}},
		{"prose is content, not emptiness", "# Memory\n## Notes\nThe team ships on Thursdays and freezes code on Wednesday evening.\n", nil},
		{"a table of entries", "## Files\n| File | Hook |\n|---|---|\n| `a.md` | x |\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ixRun(t, RuleIndexEmptySection, tc.index, files)
			ixExpect(t, got, tc.lines)
			for _, f := range got {
				if f.Severity != model.Info {
					t.Errorf("severity %v", f.Severity)
				}
			}
		})
	}
}

// TestHookEchoesDescription depends on claude.ParseDoc reading ordinary
// frontmatter (name, description, type).
func TestHookEchoesDescription(t *testing.T) {
	files := []*model.File{
		testmodel.IndexTopic("role.md", "user-role", "Data scientist, new to Go"),
		testmodel.IndexTopic("style.md", "style", "Formatting rules for Go code in this repository"),
		testmodel.IndexTopic("plain.md", "plain", ""),
	}
	for _, tc := range []struct {
		name  string
		index string
		lines []int
	}{
		{"same words", "- [Role](role.md) — data scientist; new to go\n", []int{1}},
		{"hook contains the description", "- [Role](role.md) — a data scientist, new to Go\n", nil}, // 4 of 5 words: under 90%
		{"description contains the hook, 90% of its words", "- [Style](style.md): formatting rules for Go code in this repo\n", nil},
		{"nearly all words", "- [Style](style.md) — formatting rules for Go code in this repository!\n", []int{1}},
		{"a header row is not an entry", "| `role.md` | Data scientist, new to Go. |\n|---|---|\n", nil},
		{"table row with a header", "| File | Hook |\n|---|---|\n| `role.md` | Data scientist, new to Go. |\n", []int{3}},
		{"a hook that adds something", "- [Role](role.md) — explain Go idioms; she knows pandas well\n", nil},
		{"no description to echo", "- [Plain](plain.md) — plain\n", nil},
		{"prose is not a hook", "Data scientist, new to Go: see [role](role.md).\n", nil},
		{"wikilink entries", "- [[user-role]] — Data scientist, new to Go\n", []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ixExpect(t, ixRun(t, RuleHookEchoes, tc.index, files), tc.lines)
		})
	}
}

func TestIndexIgnoreComment(t *testing.T) {
	idx := "<!-- memtui-ignore index-broken-link -->\n- [Gone](gone.md)\n"
	ixExpect(t, ixRun(t, RuleIndexBrokenLink, idx, nil), nil)
}

func TestIxEchoes(t *testing.T) {
	for _, tc := range []struct {
		hook, desc string
		want       bool
	}{
		{"Data scientist", "data-scientist!", true},
		{"one two three four five six seven eight nine ten", "one two three four five six seven eight nine", true},
		{"one two three four five six seven eight nine ten", "two three four five six seven eight nine ten eleven", false},
		{"", "x", false},
		{"a b", "a c", false},
	} {
		if got := ixEchoes(tc.hook, tc.desc); got != tc.want {
			t.Errorf("ixEchoes(%q, %q) = %v", tc.hook, tc.desc, got)
		}
	}
	if Plural(1, "entry") != "1 entry" || Plural(3, "entry") != "3 entries" || Thousands(1234567) != "1,234,567" || secrets.Clip("abcdef", 4) != "abc…" {
		t.Errorf("helpers")
	}
}

// TestIxCounts checks the allocation-free counters against the definitions
// they stand for: ixWordCount against Words, ixRuneCount against
// utf8.RuneCountInString, on text that mixes case, scripts, runes whose
// class could change when lower-cased, and invalid UTF-8.
func TestIxCounts(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", "Data scientist, new to Go!", "data-scientist", "  x1 y_2 z3  ", "é É ß ẞ Σς", "İstanbul Kelvin \u212a",
		"Ⅳ ⅳ ① ² ٣ 日本語 テスト", "a\xffb \xe2\x82 c\xc0", "🙂 emoji 🙂x", "\t\ntab\r\n", strings.Repeat("word ", 40),
		"- [Entry](entry.md) — a hook of the usual length, with punctuation; and more", strings.Repeat("ascii-", 20) + "—" + strings.Repeat("z", 9),
	} {
		if got, want := ixWordCount(s, math.MaxInt), len(prose.Words(s)); got != want {
			t.Errorf("ixWordCount(%q) = %d, want %d", s, got, want)
		}
		if n := len(prose.Words(s)); n > 0 {
			if got := ixWordCount(s, n-1); got != n {
				t.Errorf("ixWordCount(%q, %d) = %d, want %d (past the limit)", s, n-1, got, n)
			}
		}
		if got, want := ixRuneCount(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("ixRuneCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestIxOverflowIndex covers the byte scan that tells an overflow index
// from a memory: named and referencing, mostly reference lines, or not.
func TestIxOverflowIndex(t *testing.T) {
	const fm = "---\nname: n\ndescription: d\n---\n"
	for _, tc := range []struct {
		path, content string
		want          bool
	}{
		{"MEMORY-archive.md", "# Archive\n- [Old](old.md) — x\n", true},
		{"archive/index.md", fm + "prose\nmore prose\n[[older]]\n", true},
		{"memory_2025.md", fm + "no references at all\n", false},
		{"notes.md", fm + "- [A](a.md)\n- [B](b.md)\n\n   \nprose\n", true},         // 2 of 3 non-blank lines
		{"notes.md", fm + "- [A](a.md)\n- [B](b.md)\nprose\nprose\nprose\n", false}, // 2 of 5
		{"notes.md", fm + "- [A](a.md) and [[b]] on one line\nprose\n", false},      // one line counts once
		{"notes.md", fm + "see a.m\nd and [\n[x\n", false},                          // markers do not span lines
		{"notes.md", "see [[a]]\r\nsee b.md\r\n\r\nprose\r\n", true},
		{"notes.md", fm + "- [A](a.md)\n- [B](b.md)", true}, // no final newline
		{"index.md", fm, false},
	} {
		f := newFileState(&model.File{Path: tc.path, Content: []byte(tc.content)})
		if got := IsOverflowIndex(f); got != tc.want {
			t.Errorf("%s %q: %v, want %v", tc.path, tc.content, got, tc.want)
		}
	}
}

// BenchmarkCheckIndexCorpus times the index rules alone over a real-shaped
// tree: MEMTUI_CORPUS names a Claude Code config dir (such as one the corpus
// generator wrote; /tmp/corpus20k holds 500 projects and 20,000 topic
// files). The tree is read and every directory's state (frontmatter parsed)
// is built once, outside the timer, so only checkIndex is measured. Run it
// with -cpu 1 -count 10 and compare medians: the machine is shared.
func BenchmarkCheckIndexCorpus(b *testing.B) {
	dir := os.Getenv("MEMTUI_CORPUS")
	if dir == "" {
		b.Skip("MEMTUI_CORPUS is unset: set it to a corpus tree (a config dir with projects/<slug>/memory/) to run this benchmark")
	}
	scan, err := memfs.Scan(context.Background(), memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir, ManagedSettings: dir + "/none"})
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{Now: ixTestNow}.WithDefaults()
	var states []*dirState
	var size int64
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			states = append(states, newDirState(p, d, opts))
			if d.Index != nil {
				size += int64(len(d.Index.Content))
			}
		}
	}
	if len(states) == 0 {
		b.Fatalf("no memory directories under %s", dir)
	}
	b.SetBytes(size) // the indexes' bytes
	b.ReportAllocs()
	for b.Loop() { // b.Loop times only the loop
		for _, s := range states {
			s.findings = s.findings[:0]
			checkIndex(s)
		}
	}
}
