package consolidate

import (
	"sort"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// lintFiles lints a directory of the given topic files (path → content),
// all indexed, and returns the findings of rule.
func lintFiles(t *testing.T, rule string, files map[string]string) []model.Finding {
	t.Helper()
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var fs []*model.File
	for _, p := range paths {
		fs = append(fs, testmodel.File(p, files[p], testmodel.Now.AddDate(0, 0, -3)))
	}
	return testmodel.Only(lint(t, nil, &model.MemoryDir{Files: fs, Index: testmodel.GoodIndex(fs...)}, Options{}), rule)
}

// sized is a topic file of exactly n bytes and lines lines (lines >= 7).
func sized(n, lines int) string {
	head := testmodel.Topic("d", "A fact", "reference", "")
	rest := n - len(head)
	var b strings.Builder
	b.WriteString(head)
	for i := 0; i < lines-6; i++ { // topic's head is 6 lines
		per := rest / (lines - 6 - i)
		b.WriteString(strings.Repeat("x", per-1) + "\n")
		rest -= per
	}
	return b.String()
}

// TestRecallCap: Claude Code's recall-cap lint, at its edges. Bytes count
// against 4,096 and lines against 200; the larger fraction decides; over
// the cap is an error, from 0.8 a warning (facts doc 3.3).
func TestRecallCap(t *testing.T) {
	tests := []struct {
		name       string
		bytes      int
		lines      int
		rule       string // "" for none
		msg        string
		suggestion string
	}{
		{"4,096 bytes is at the cap, not over", 4096, 40, RuleRecallNearLimit, "4KB, approaching the 4KB recall limit", "under 2.8KB"},
		{"4,097 bytes is over", 4097, 40, RuleRecallTruncated, "4KB, over the 4KB recall limit", "under 2.8KB"},
		{"3,277 bytes is 0.8 of the cap", 3277, 40, RuleRecallNearLimit, "3.2KB, approaching", ""},
		{"3,276 bytes is under 0.8", 3276, 40, "", "", ""},
		{"200 lines is at the cap", 1000, 200, RuleRecallNearLimit, "200 lines, approaching the 200-line recall limit", "under 140 lines"},
		{"201 lines is over", 1000, 201, RuleRecallTruncated, "201 lines, over the 200-line recall limit", "under 140 lines"},
		{"160 lines is 0.8", 1000, 160, RuleRecallNearLimit, "160 lines, approaching", ""},
		{"159 lines is under 0.8", 1000, 159, "", "", ""},
		{"the larger fraction names the dimension", 4000, 201, RuleRecallTruncated, "201 lines, over the 200-line recall limit", ""},
		{"bytes larger than lines", 4500, 180, RuleRecallTruncated, "4.4KB, over the 4KB recall limit", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := sized(tt.bytes, tt.lines)
			if len(content) != tt.bytes || strings.Count(content, "\n") != tt.lines {
				t.Fatalf("setup: %d bytes, %d lines", len(content), strings.Count(content, "\n"))
			}
			files := map[string]string{"topic.md": content}
			var got []model.Finding
			for _, r := range []string{RuleRecallTruncated, RuleRecallNearLimit} {
				got = append(got, lintFiles(t, r, files)...)
			}
			if tt.rule == "" {
				if len(got) != 0 {
					t.Errorf("want nothing, got %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Rule != tt.rule {
				t.Fatalf("want one %s, got %+v", tt.rule, got)
			}
			f := got[0]
			wantSev := model.Warning
			if tt.rule == RuleRecallTruncated {
				wantSev = model.Error
			}
			if f.Severity != wantSev || !strings.Contains(f.Message, tt.msg) || !strings.Contains(f.Message, "Claude Code flags this after a write (in recall mode)") ||
				!strings.Contains(f.Suggestion, tt.suggestion) {
				t.Errorf("got %v %q / %q", f.Severity, f.Message, f.Suggestion)
			}
		})
	}
}

// TestDescriptionTooLong: over 300 UTF-16 units, counted as JavaScript
// counts a string's length.
func TestDescriptionTooLong(t *testing.T) {
	tests := []struct {
		name, desc string
		want       bool
	}{
		{"300 ASCII", strings.Repeat("a", 300), false},
		{"301 ASCII", strings.Repeat("a", 301), true},
		{"300 accented letters (600 bytes)", strings.Repeat("é", 300), false},
		{"301 accented letters", strings.Repeat("é", 301), true},
		{"150 emoji are 300 units (150 runes, 600 bytes)", strings.Repeat("😀", 150), false},
		{"150 emoji and a letter are 301 units (151 runes)", strings.Repeat("😀", 150) + "a", true},
		{"300 CJK characters", strings.Repeat("日", 300), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lintFiles(t, RuleDescriptionTooLong, map[string]string{"topic.md": testmodel.Topic("d", tt.desc, "reference", testmodel.Body)})
			if (len(got) == 1) != tt.want || len(got) > 1 {
				t.Fatalf("got %+v, want a finding: %v", got, tt.want)
			}
			if tt.want && (got[0].Line != 3 || got[0].Severity != model.Warning || !strings.Contains(got[0].Message, "over 300 after a write (in recall mode)")) {
				t.Errorf("got %+v", got[0])
			}
		})
	}
	// Claude Code reads no description from frontmatter it cannot parse:
	// nothing to call long.
	long := "---\r\nname: d\r\ndescription: " + strings.Repeat("a: ", 120) + "\r\n---\r\n" + testmodel.Body
	if got := lintFiles(t, RuleDescriptionTooLong, map[string]string{"topic.md": long}); len(got) != 0 {
		t.Errorf("unreadable frontmatter: %+v", got)
	}
}

// TestContinuationChain: Claude Code's ^(.*\D)-(\d{1,2})\.md$ with N >= 2,
// beside <stem>.md, <stem>-<N-1>.md or <stem>-<N-1 zero-padded>.md in the
// same folder.
func TestContinuationChain(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  []string // "file → stem"
	}{
		{"notes-2.md beside notes.md", []string{"notes.md", "notes-2.md"}, []string{"notes-2.md → notes"}},
		{"notes-02.md beside notes-01.md", []string{"notes-01.md", "notes-02.md"}, []string{"notes-02.md → notes"}},
		{"notes-3.md beside notes-2.md, itself beside notes.md", []string{"notes.md", "notes-2.md", "notes-3.md"}, []string{"notes-2.md → notes", "notes-3.md → notes"}},
		{"notes-10.md beside notes-09.md", []string{"notes-09.md", "notes-10.md"}, []string{"notes-10.md → notes"}},
		{"notes-10.md beside notes-9.md", []string{"notes-9.md", "notes-10.md"}, []string{"notes-10.md → notes"}},
		{"notes-2.md alone", []string{"notes-2.md", "other.md"}, nil},
		{"notes-1.md beside notes.md: N is 1", []string{"notes.md", "notes-1.md"}, nil},
		{"notes-03.md beside notes-1.md: the padded N-1 is 02", []string{"notes-1.md", "notes-03.md"}, nil},
		{"v2.md beside v.md: no hyphen", []string{"v.md", "v2.md"}, nil},
		{"v-2.md beside v1.md", []string{"v1.md", "v-2.md"}, nil},
		{"a stem ending in a digit is not a chain", []string{"log2.md", "log2-2.md"}, nil},
		{"three digits is not a chain", []string{"notes-99.md", "notes-100.md"}, nil},
		{"a dated series is not a chain", []string{"standup-2026-11-17.md", "standup-2026-11-18.md"}, nil},
		{"another folder", []string{"notes.md", "sub/notes-2.md"}, nil},
		{"in a subfolder", []string{"sub/notes.md", "sub/notes-2.md"}, []string{"sub/notes-2.md → sub/notes"}},
		{"case matters", []string{"Notes.md", "notes-2.md"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for _, p := range tt.files {
				files[p] = testmodel.Topic(strings.TrimSuffix(p, ".md"), "A fact about "+p, "reference", "Some text of "+p+" that is long enough.\n")
			}
			var got []string
			for _, f := range lintFiles(t, RuleContinuationChain, files) {
				stem := f.Message[strings.Index(f.Message, "continuation of ")+len("continuation of "):]
				stem = stem[:strings.Index(stem, ".md")]
				got = append(got, f.File+" → "+stem)
				if f.Severity != model.Warning || f.Line != 0 || !strings.Contains(f.Message, "(in recall mode)") || !strings.Contains(f.Suggestion, stem+".md") {
					t.Errorf("finding %+v", f)
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// MEMORY.md counts as the file a MEMORY-2.md continues.
	d := &model.MemoryDir{Files: []*model.File{testmodel.File("MEMORY-2.md", testmodel.Topic("m", "more index", "reference", testmodel.Body), testmodel.Now)}}
	d.Index = &model.File{Path: "MEMORY.md", Content: []byte("- [m](MEMORY-2.md) — more\n")}
	if got := testmodel.Only(lint(t, nil, d, Options{}), RuleContinuationChain); len(got) != 1 {
		t.Errorf("MEMORY-2.md beside MEMORY.md: %+v", got)
	}
}

// TestFrontmatterAsClaudeReadsIt: the findings follow what Claude Code
// 2.1.332 reads.
func TestFrontmatterAsClaudeReadsIt(t *testing.T) {
	fm := func(block string) string {
		return "---\nname: d\ndescription: A fact\n" + block + "---\n\n" + testmodel.Body
	}
	tests := []struct {
		name, content string
		rule          string
		n, line       int
		msg           string
	}{
		{"metadata.type wins: its invalid value is reported", fm("type: user\nmetadata:\n  type: decision\n"), RuleTypeInvalid, 1, 6, `metadata.type "decision"`},
		{"metadata.type wins: a valid one hides the top-level one", fm("type: decision\nmetadata:\n  type: user\n"), RuleTypeInvalid, 0, 0, ""},
		{"a padded type is no type", fm("type: \" user \"\n"), RuleTypeInvalid, 1, 4, "neither trims nor folds case"},
		{"a list is no type", fm("type: [user]\n"), RuleTypeInvalid, 1, 4, `"[user]"`},
		{"a number is no type", fm("type: 3\n"), RuleTypeInvalid, 1, 4, `"3"`},
		{"an empty metadata.type", fm("metadata:\n  type: ''\n"), RuleTypeInvalid, 1, 5, "metadata.type is empty"},
		{"metadata.description is not read", "---\nname: d\nmetadata:\n  description: A fact\n  type: user\n---\n\n" + testmodel.Body, RuleFrontmatterIncomplete, 1, 1, "Claude Code flags a missing description after a write (in recall mode)"},
		{"a blank description is Claude Code's, but empty", "---\nname: d\ndescription: \" \"\ntype: user\n---\n\n" + testmodel.Body, RuleFrontmatterIncomplete, 1, 1, "a blank description gives recall nothing"},
		{"a number is no name", "---\nname: 42\ndescription: A fact\ntype: user\n---\n\n" + testmodel.Body, RuleFrontmatterIncomplete, 1, 1, "name is not text"},
		{"only memtui reads it: an error", "---\r\nname: d\r\ndescription: Staging host: acme-stg\r\ntype: reference\r\n---\r\n\r\n" + testmodel.Body, RuleFrontmatterUnreadable, 1, 1, "Claude Code sees no name, description or type"},
		{"only memtui reads it: not the recovered warning", "---\r\nname: d\r\ndescription: Staging host: acme-stg\r\ntype: reference\r\n---\r\n\r\n" + testmodel.Body, RuleFrontmatterUnquoted, 0, 0, ""},
		{"nested value the retry does not quote", fm("metadata:\n  type: user\n  note: a: b\n"), RuleFrontmatterUnreadable, 1, 1, "and so does Claude Code's retry"},
		{"Claude Code's retry reads it: a warning", fm("note: a: b\n"), RuleFrontmatterUnquoted, 1, 4, "Claude Code's retry, quoting 1 value, reads it"},
		{"Claude Code's retry reads it: no error", fm("note: a: b\n"), RuleFrontmatterUnreadable, 0, 0, ""},
		{"frontmatter past 64 KiB is none", "---\nname: d\ndescription: " + strings.Repeat("x", 66000) + "\n---\n\n" + testmodel.Body, RuleFrontmatterInvalid, 1, 1, "65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lintFiles(t, tt.rule, map[string]string{"topic.md": tt.content})
			if len(got) != tt.n {
				t.Fatalf("%s: %d findings, want %d: %+v", tt.rule, len(got), tt.n, got)
			}
			if tt.n == 0 {
				return
			}
			if got[0].Line != tt.line || !strings.Contains(got[0].Message, tt.msg) {
				t.Errorf("line %d, message %q; want line %d and %q", got[0].Line, got[0].Message, tt.line, tt.msg)
			}
			if tt.rule == RuleFrontmatterUnreadable && got[0].Severity != model.Error {
				t.Errorf("severity %v, want error", got[0].Severity)
			}
		})
	}
}

// TestBOMFrontmatterIsRead: Claude Code strips a BOM before it matches the
// frontmatter, so a BOM'd file's fields are read; the encoding finding says
// what the BOM still costs, not that the frontmatter is lost.
func TestBOMFrontmatterIsRead(t *testing.T) {
	content := "\ufeff" + testmodel.Topic("d", "A fact", "user", testmodel.Body)
	f := testmodel.File("topic.md", content, testmodel.Now.AddDate(0, 0, -3))
	fs := lint(t, nil, &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}, Options{})
	if len(fs) != 1 || fs[0].Rule != RuleEncoding {
		t.Fatalf("want only the encoding finding, got %+v", fs)
	}
	if m := fs[0].Message; strings.Contains(m, "sees no") || !strings.Contains(m, "reads the frontmatter past it") {
		t.Errorf("message %q", m)
	}
}

// TestBOMIndexMessage: MEMORY.md is never stamped, so its BOM finding
// says only that it has one.
func TestBOMIndexMessage(t *testing.T) {
	f := testmodel.File("topic.md", testmodel.Topic("d", "A fact", "user", testmodel.Body), testmodel.Now.AddDate(0, 0, -3))
	ix := testmodel.GoodIndex(f)
	ix.Content = append([]byte("\ufeff---\nname: index\n---\n"), ix.Content...)
	fs := testmodel.Only(lint(t, nil, &model.MemoryDir{Files: []*model.File{f}, Index: ix}, Options{}), RuleEncoding)
	if len(fs) != 1 || fs[0].File != "MEMORY.md" || strings.Contains(fs[0].Message, "stamp") {
		t.Errorf("%+v", fs)
	}
}
