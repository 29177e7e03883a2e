package testgen

import (
	"fmt"
	"strings"
)

// Inputs shared by the tests of the MEMORY.md load pipeline (model) and of
// the index parser and editor (model/memindex).

// IndexSeeds are realistic MEMORY.md shapes: the separators and layouts seen in
// real memory directories, plus the constructs that change how Claude Code
// loads a file.
var IndexSeeds = []string{
	"# Memory Index\n\n- [User role](user_role.md) — data scientist\n- [Testing](feedback_testing.md) — use -race\n",
	"- [A](a.md) - hook\n- [B](b.md): hook\n- [C](c.md), hook\n",
	"| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n",
	"- [[user-role]] — who\n- [[feedback-style|Style]]: tabs\n",
	"The user prefers [bun](feedback_bun.md) and is rewriting [auth](project_auth.md) for compliance.\n",
	"# Memory\r\n\r\n## User\r\n- [Role](user_role.md) — hook\r\n  hanging detail\r\n",
	"---\nname: index\n---\n<!-- memtui-ignore memory-orphan -->\n- [A](a.md)\n",
	"- [Archive](MEMORY-archive.md) — older entries\n- [Out](../CLAUDE.md)\n- [Web](https://x.example)\n",
	"```\n- [not](x.md)\n```\n<!-- a\nb -->\n> quote\n    code\n",
	"- [A](<my notes.md> \"t\") — [B](b.md#x) `c.md` [[d]] ![e](e.png)\n",
	"1.\ttab\n -\tx\n<div>\n<!-- c -->\n</div>\n[ref]: r.md\n",
	"\ufeff---\nname: x\n---\n" + strings.Repeat("- [E](e.md) — hook\n", 3),
	"😀日本語\xff\xfe\r\r\n",
}

// TestAdversarialInputsStayLinear feeds shapes that make a naive port
// quadratic (marked's own setext-heading regexp rescans a paragraph run for
// every line; unmatched brackets and backticks invite rescans). Each must
// finish far inside the bound, which a quadratic version misses by minutes.
// AdversarialIndexes are the shapes the fuzzer found to be quadratic in
// naive parsers (marked's own setext regexp among them), at scale n.
func AdversarialIndexes(n int) map[string]string {
	return map[string]string{
		"setext rescans":   "<!-- c -->\n" + strings.Repeat("a\n***\n", n),
		"open brackets":    strings.Repeat("[", 5*n),
		"bracket ladders":  strings.Repeat("[[a](", n),
		"title ladders":    strings.Repeat("[a](b (x", n) + strings.Repeat("[a](b \"x", n),
		"angle ladders":    strings.Repeat("[a](<x", n) + strings.Repeat("<a", 2*n),
		"wikilink ladders": strings.Repeat("[[a", 2*n),
		"backtick runs":    strings.Repeat("`a``b```c", n),
		"long tag name":    "<!-- c -->\n<" + strings.Repeat("a", 5*n) + ">",
		"html blocks":      "<!-- c -->\n" + strings.Repeat("<div>\nx\n\n", n),
		"nested quotes":    "<!-- c -->\n" + strings.Repeat(">>>> a\n> - b\nlazy\n", n/2),
		"raw html closers": "<!-- c -->\n" + strings.Repeat("<pre>\n</pre", n),
		"table backticks":  "|a|b|\n|-|-|\n" + strings.Repeat("| `x.md` | `` ` | [a](a.md) |\n", n/2),
	}
}

// BenchIndex is a realistic index near the line cap: headings and 180
// entries of ~110 characters; comment adds an HTML comment, which sends the
// load through the markdown lexer.
func BenchIndex(comment bool) []byte {
	var b strings.Builder
	if comment {
		b.WriteString("<!-- memtui-ignore memory-orphan -->\n")
	}
	b.WriteString("# Memory Index\n")
	for i := 0; i < 180; i++ {
		if i%30 == 0 {
			fmt.Fprintf(&b, "\n## Section %d\n", i/30)
		}
		fmt.Fprintf(&b, "- [Memory number %d](feedback_topic_%d.md) — a one-line hook that says when this memory matters\n", i, i)
	}
	return []byte(b.String())
}

// Entries builds n index lines "- [Entry i](entry-i.md) — hook i", joined
// with sep (and ended with it).
func Entries(n int, sep string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Entry %d](entry-%d.md) — hook %d%s", i, i, i, sep)
	}
	return b.String()
}
