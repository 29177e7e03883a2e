package prose

import (
	"reflect"
	"strings"
	"testing"
)

// proseOf joins the prose ranges of text with "|" so a test can say what is
// in and what is out at a glance.
func proseOf(text string) string {
	var parts []string
	for _, r := range Ranges(text) {
		parts = append(parts, text[r[0]:r[1]])
	}
	return strings.Join(parts, "|")
}

func TestProseRanges(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"plain", "just prose\n", "just prose\n"},
		{"empty", "", ""},
		{"fence", "a\n```go\ncode tomorrow\n```\nb\n", "a\n|b\n"},
		{"tilde fence", "a\n~~~\ncode\n~~~\nb", "a\n|b"},
		{"longer opener needs longer closer", "a\n````\n```\nstill code\n````\nb", "a\n|b"},
		{"closer may be longer", "a\n```\ncode\n`````\nb", "a\n|b"},
		{"closer of other char does not close", "a\n```\ncode\n~~~\nmore\n```\nb", "a\n|b"},
		{"closer with text is not a closer", "a\n```\ncode\n``` not\nmore\n```\nb", "a\n|b"},
		{"unclosed fence runs to end", "a\n```\ncode\nmore", "a\n"},
		{"indented fence in a list", "- step:\n      ```bash\n      make\n      ```\n- next", "- step:\n|- next"},
		{"fence in blockquote", "> ```\n> code\n> ```\nafter", "after"},
		{"backticks in info string: not a fence", "``` a ` b\ntext", "``` a ` b\ntext"},
		{"two backticks: not a fence", "``\ntext", "``\ntext"},
		{"CRLF fence", "a\r\n```\r\ncode\r\n```\r\nb", "a\r\n|b"},
		{"code span", "run `make ship` now", "run | now"},
		{"double backtick span", "use ``a ` b`` here", "use | here"},
		{"unmatched backtick is literal", "it's a ` quote", "it's a ` quote"},
		{"code span across a line", "run `make\nship` now", "run | now"},
		{"code span stops at blank line", "run `make\n\nship now", "run `make\n\nship now"},
		{"html comment", "a <!-- hidden\nstill --> b", "a | b"},
		{"unclosed html comment", "a <!-- hidden", "a "},
		{"url", "see https://x.com/tomorrow for it", "see | for it"},
		{"www", "see www.example.com/today ok", "see | ok"},
		{"link target", "see [notes](notes/today.md) ok", "see [notes]| ok"},
		{"link target with parens", "[a](x_(y).md) z", "[a]| z"},
		{"wikilink", "see [[next-week plan]] ok", "see [[|]] ok"},
		{"indented code stays prose", "text\n\n    indented tomorrow\n", "text\n\n    indented tomorrow\n"},
		{
			"frontmatter values, not keys",
			"---\nname: plan\ndescription: ship tomorrow\nmetadata:\n  type: project\n---\nbody",
			"plan|ship tomorrow|project|body",
		},
		{
			"frontmatter continuation line",
			"---\ndescription: >\n  the freeze starts tomorrow\n---\nbody",
			">|  the freeze starts tomorrow|body",
		},
		{
			"frontmatter value with colon",
			"---\ndescription: Notes: run tomorrow\n---\n",
			"Notes: run tomorrow",
		},
		{
			"unclosed frontmatter is prose",
			"---\nname: x\nbody",
			"---\nname: x\nbody",
		},
		{
			"frontmatter after BOM",
			"\xEF\xBB\xBF---\nname: x\n---\nbody",
			"x|body",
		},
		{
			"CRLF frontmatter",
			"---\r\nname: x\r\n---\r\nbody",
			"x|body",
		},
	}
	for _, tt := range tests {
		if got := proseOf(tt.text); got != tt.want {
			t.Errorf("%s: prose(%q) = %q, want %q", tt.name, tt.text, got, tt.want)
		}
		checkProseRanges(t, tt.text, Ranges(tt.text))
	}
}

// proseRangesTo stops at its limit but must not cut short what starts
// before it: a URL is found at its "://", after the scheme has begun.
func TestProseRangesTo(t *testing.T) {
	for _, tt := range []struct {
		text  string
		limit int
	}{
		{"0://", 1},
		{"see https://x.com/tomorrow ok", 6},
		{"see svn+ssh://host/x ok", 5},
		{"a `code` b\n```\nfence\n```\nc", 3},
		{"plain text", 4},
	} {
		all, to := Ranges(tt.text), proseRangesTo(tt.text, tt.limit)
		checkProseRanges(t, tt.text, to)
		if a, b := proseClip(all, tt.limit), proseClip(to, tt.limit); !reflect.DeepEqual(a, b) {
			t.Errorf("proseRangesTo(%q, %d) = %v; Ranges = %v", tt.text, tt.limit, to, all)
		}
	}
}

// checkProseRanges asserts the ProseRanges contract: in bounds, non-empty,
// sorted, non-overlapping.
func checkProseRanges(t *testing.T, text string, rs [][2]int) {
	t.Helper()
	prev := 0
	for _, r := range rs {
		if r[0] < prev || r[0] >= r[1] || r[1] > len(text) {
			t.Fatalf("bad range %v after %d in %q (all %v)", r, prev, text, rs)
		}
		prev = r[1]
	}
}

func BenchmarkProseRanges(b *testing.B) {
	b.SetBytes(int64(len(dateMemoryNoDates)))
	b.ReportAllocs()
	for b.Loop() {
		Ranges(dateMemoryNoDates)
	}
}
