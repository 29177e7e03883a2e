package model

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are realistic index shapes: the separators and layouts seen in
// real memory directories, plus the constructs that change how Claude Code
// loads a file.
var fuzzSeeds = []string{
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

// FuzzParseIndex checks that ParseIndex never panics, keeps every byte,
// and returns references that point into their lines.
func FuzzParseIndex(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		ix := ParseIndex(content)
		if !bytes.Equal(ix.Bytes(), content) {
			t.Fatalf("round trip lost bytes")
		}
		if !reflect.DeepEqual(ParseIndexText(string(content)), ix) {
			t.Fatalf("ParseIndexText differs from ParseIndex")
		}
		if want := bytes.Count(content, []byte{'\n'}); len(content) > 0 && content[len(content)-1] != '\n' {
			want++
			if len(ix.Lines) != want {
				t.Fatalf("%d lines, want %d", len(ix.Lines), want)
			}
		}
		for i, l := range ix.Lines {
			if l.Num != i+1 || !strings.HasPrefix(l.Raw, l.Text) {
				t.Fatalf("line %d numbered %d", i+1, l.Num)
			}
			for _, r := range l.Refs {
				if r.Col < 0 || r.Col+len(r.Raw) > len(l.Text) || l.Text[r.Col:r.Col+len(r.Raw)] != r.Raw {
					t.Fatalf("line %d: ref %q not at col %d", l.Num, r.Raw, r.Col)
				}
			}
			if l.Entry >= len(ix.Entries) || (l.Kind == LineEntry) != (l.Entry >= 0 && ix.Entries[l.Entry].Line == l.Num) {
				t.Fatalf("line %d kind %s entry %d", l.Num, l.Kind, l.Entry)
			}
		}
		for _, e := range ix.Entries {
			if len(e.Refs) == 0 || ix.Line(e.Line).Kind != LineEntry {
				t.Fatalf("entry on line %d has no reference", e.Line)
			}
			// consolidate resolves a line's references once and finds an
			// entry's by position: they must be the line's own.
			if l := ix.Line(e.Line); len(e.Refs) != len(l.Refs) || &e.Refs[0] != &l.Refs[0] {
				t.Fatalf("entry on line %d does not share its line's references", e.Line)
			}
			for _, c := range e.Continuations {
				if c <= e.Line || ix.Line(c).Kind != LineContinuation {
					t.Fatalf("continuation %d of entry %d", c, e.Line)
				}
			}
		}
	})
}

// FuzzSimulateLoad checks the invariants of the load pipeline: never more
// than 200 lines or 25,000 units loaded, the trimmed text whole when nothing
// is cut, and dropped lines sorted, unique and inside the file.
func FuzzSimulateLoad(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("- [E](e.md) — hook\n", 230)))
	f.Add([]byte(strings.Repeat("x", 25001)))
	f.Add([]byte(strings.Repeat("a", 24999) + "😀"))
	f.Add([]byte("<!-- c -->\r\n" + strings.Repeat("y\r\n", 205)))
	f.Add([]byte("\ufeff---\nname: x\n---\n<system-reminder>\u2028\u200b\r" + strings.Repeat("z\n", 201)))
	f.Fuzz(func(t *testing.T, content []byte) {
		for _, mode := range []LoadMode{LoadAuto, LoadAgent} {
			checkLoadInvariants(t, content, SimulateLoadMode(content, mode))
		}
	})
}

// checkLoadInvariants checks one load of content.
func checkLoadInvariants(t *testing.T, content []byte, ld Load) {
	t.Helper()
	if ld.LoadedLines > IndexMaxLines || ld.LoadedUnits > IndexMaxUnits {
		t.Fatalf("loaded %d lines, %d units", ld.LoadedLines, ld.LoadedUnits)
	}
	if u := utf16Units([]byte(ld.Loaded)); u != ld.LoadedUnits {
		t.Fatalf("LoadedUnits %d, counted %d", ld.LoadedUnits, u)
	}
	if u, want := utf16Units(content), utf16UnitsRef(content); u != want {
		t.Fatalf("utf16Units %d, one character at a time %d", u, want)
	}
	if !utf8.ValidString(ld.Text) {
		t.Fatalf("text is not UTF-8")
	}
	// What the agent receives is sanitised: sanitising it again changes
	// nothing.
	if SanitizeLoaded(ld.Text) != ld.Text || jsTrimString(ld.Text) != ld.Text {
		t.Fatalf("text %q is not sanitised and trimmed", ld.Text)
	}
	if !ld.Truncated() {
		if ld.Text != jsTrimString(SanitizeLoaded(ld.Trimmed)) || ld.Sent != ld.Text || ld.Loaded != ld.Trimmed ||
			ld.Warning != "" || ld.Detail != "" || len(ld.Dropped) > 0 {
			t.Fatalf("untruncated load differs from the trimmed text")
		}
	} else {
		raw := loadWarnHead + ld.reason() + loadWarnMid + ld.Detail + loadWarnTail
		if ld.Warning != SanitizeLoaded(raw) || !strings.HasSuffix(ld.Text, ld.Warning) ||
			ld.Sent != strings.TrimSuffix(strings.TrimSuffix(ld.Text, ld.Warning), "\n\n") ||
			!strings.HasPrefix(ld.Trimmed, strings.TrimSuffix(ld.Loaded, "\uFFFD")) {
			t.Fatalf("truncated text is not a prefix plus the warning")
		}
	}
	lines := bytes.Count(content, []byte{'\n'}) + 1
	if ld.LastLine < 0 || ld.LastLine > lines || (ld.LastLine == 0) != ld.Empty {
		t.Fatalf("last line %d of %d (empty %v)", ld.LastLine, lines, ld.Empty)
	}
	if !sort.IntsAreSorted(ld.Dropped) || !sort.IntsAreSorted(ld.DroppedBySize) {
		t.Fatalf("dropped lines out of order: %v", ld.Dropped)
	}
	for i, n := range ld.Dropped {
		if n <= ld.LastLine || n > lines || (i > 0 && n == ld.Dropped[i-1]) {
			t.Fatalf("dropped line %d (last %d, file %d lines)", n, ld.LastLine, lines)
		}
	}
	set := map[int]bool{}
	for _, n := range ld.Dropped {
		set[n] = true
	}
	for _, n := range ld.DroppedBySize {
		if !set[n] {
			t.Fatalf("dropped by size %d not in dropped", n)
		}
	}
}

// TestAdversarialInputsStayLinear feeds shapes that make a naive port
// quadratic (marked's own setext-heading regexp rescans a paragraph run for
// every line; unmatched brackets and backticks invite rescans). Each must
// finish far inside the bound, which a quadratic version misses by minutes.
// adversarialInputs are the shapes the fuzzer found to be quadratic in
// naive parsers (marked's own setext regexp among them), at scale n.
func adversarialInputs(n int) map[string]string {
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

// TestAdversarialInputs runs the adversarial shapes at a size where a
// quadratic parser would not finish within go test's timeout, and checks
// the load invariants hold. Speed itself is measured by
// BenchmarkAdversarialInputs, not asserted here.
func TestAdversarialInputs(t *testing.T) {
	for name, in := range adversarialInputs(40000) {
		l := SimulateLoad([]byte(in))
		if l.LoadedLines > IndexMaxLines || l.LoadedUnits > IndexMaxUnits {
			t.Errorf("%s: loaded %d lines, %d units: past the caps", name, l.LoadedLines, l.LoadedUnits)
		}
		ix := ParseIndex([]byte(in))
		if !bytes.Equal(ix.Bytes(), []byte(in)) {
			t.Errorf("%s: the index does not round-trip byte for byte", name)
		}
	}
}

// BenchmarkAdversarialInputs times each shape at n and 2n: linear code
// doubles, quadratic code quadruples.
func BenchmarkAdversarialInputs(b *testing.B) {
	for _, n := range []int{20000, 40000} {
		for name, in := range adversarialInputs(n) {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for i := 0; i < b.N; i++ {
					SimulateLoad([]byte(in))
					ParseIndex([]byte(in))
				}
			})
		}
	}
}

func BenchmarkSimulateLoad(b *testing.B) {
	for _, comment := range []bool{false, true} {
		in := benchIndex(comment)
		b.Run(fmt.Sprintf("comment=%v", comment), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				SimulateLoad(in)
			}
		})
	}
}

func BenchmarkParseIndex(b *testing.B) {
	in := benchIndex(false)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ParseIndex(in)
	}
}

// benchIndex is a realistic index near the line cap: headings and 180
// entries of ~110 characters; comment adds an HTML comment, which sends the
// load through the markdown lexer.
func benchIndex(comment bool) []byte {
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
