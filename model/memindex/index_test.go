package memindex

import (
	"github.com/memtui/memtui/internal/testgen"
	"reflect"
	"strings"
	"testing"
)

// kinds lists the kind of every line, for compact comparisons.
func kinds(ix *Index) []LineKind {
	out := make([]LineKind, len(ix.Lines))
	for i, l := range ix.Lines {
		out[i] = l.Kind
	}
	return out
}

// ref is the part of a Ref the tests compare.
type ref struct {
	Kind   RefKind
	Scope  RefScope
	Target string
}

func refsOf(rs []Ref) []ref {
	var out []ref
	for _, r := range rs {
		out = append(out, ref{r.Kind, r.Scope, r.Target})
	}
	return out
}

func TestParseIndexEntryShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		line  string
		form  EntryForm
		title string
		sep   string
		hook  string
		refs  []ref
	}{
		{"em dash", "- [User role](user_role.md) — data scientist, prefers Go", EntryList, "User role", "—", "data scientist, prefers Go", []ref{{RefLink, RefFile, "user_role.md"}}},
		{"hyphen", "- [Testing](feedback_testing.md) - run tests with -race", EntryList, "Testing", "-", "run tests with -race", []ref{{RefLink, RefFile, "feedback_testing.md"}}},
		{"colon", "* [Deploy](project_deploy.md): staging first", EntryList, "Deploy", ":", "staging first", []ref{{RefLink, RefFile, "project_deploy.md"}}},
		{"comma", "- [Grafana](reference_grafana.md), dashboards for latency", EntryList, "Grafana", ",", "dashboards for latency", []ref{{RefLink, RefFile, "reference_grafana.md"}}},
		{"en dash and bold", "1. **[Style](feedback_style.md)** – tabs, not spaces", EntryList, "Style", "–", "tabs, not spaces", []ref{{RefLink, RefFile, "feedback_style.md"}}},
		{"no hook", "- [Bare](bare.md)", EntryList, "Bare", "", "", []ref{{RefLink, RefFile, "bare.md"}}},
		{"title before link", "- User role — [user_role.md](user_role.md)", EntryList, "User role", "—", "", []ref{{RefLink, RefFile, "user_role.md"}}},
		{"label then link", "- **Feedback**: [testing](feedback_testing.md) — use -race", EntryList, "testing", "—", "use -race", []ref{{RefLink, RefFile, "feedback_testing.md"}}},
		{"backticked name", "- `project_auth.md` — auth rewrite is compliance-driven", EntryList, "project_auth.md", "—", "auth rewrite is compliance-driven", []ref{{RefCode, RefFile, "project_auth.md"}}},
		{"label and backticked name", "- Auth: `project_auth.md`", EntryList, "Auth", ":", "", []ref{{RefCode, RefFile, "project_auth.md"}}},
		{"wikilink", "- [[user-role]] — who the user is", EntryList, "user-role", "—", "who the user is", []ref{{RefWiki, RefFile, "user-role"}}},
		{"wikilink alias and anchor", "- [[user-role#why|Role]]: background", EntryList, "Role", ":", "background", []ref{{RefWiki, RefFile, "user-role"}}},
		{"task item", "- [x] [Done](done.md) — shipped", EntryList, "Done", "—", "shipped", []ref{{RefLink, RefFile, "done.md"}}},
		{"prose mid-sentence", "The user prefers [bun](feedback_bun.md) and works on [auth](project_auth.md).", EntryProse, "bun", "", "", []ref{{RefLink, RefFile, "feedback_bun.md"}, {RefLink, RefFile, "project_auth.md"}}},
		{"external link", "- [Grafana board](https://grafana.example/d/1) — latency", EntryList, "Grafana board", "—", "latency", []ref{{RefLink, RefExternal, "https://grafana.example/d/1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := Parse([]byte(tc.line + "\n"))
			if len(ix.Entries) != 1 {
				t.Fatalf("got %d entries; lines %v", len(ix.Entries), kinds(&ix))
			}
			e := ix.Entries[0]
			if e.Form != tc.form || e.Title != tc.title || e.Sep != tc.sep || e.Hook != tc.hook || e.Line != 1 || e.Raw != tc.line {
				t.Errorf("form %d title %q sep %q hook %q; want %d %q %q %q", e.Form, e.Title, e.Sep, e.Hook, tc.form, tc.title, tc.sep, tc.hook)
			}
			if got := refsOf(e.Refs); !reflect.DeepEqual(got, tc.refs) {
				t.Errorf("refs %+v, want %+v", got, tc.refs)
			}
		})
	}
}

func TestParseIndexLinkTargets(t *testing.T) {
	for _, tc := range []struct {
		line   string
		scope  RefScope
		target string
		dest   string
	}{
		{"[a](./a.md)", RefFile, "a.md", "./a.md"},
		{"[a](<my notes.md>)", RefFile, "my notes.md", "my notes.md"},
		{"[a](my%20notes.md)", RefFile, "my notes.md", "my%20notes.md"},
		{"[a](a.md#why)", RefFile, "a.md", "a.md#why"},
		{"[a](a.md \"title\")", RefFile, "a.md", "a.md"},
		{"[a](a.md 'title')", RefFile, "a.md", "a.md"},
		{"[a](sub/dir/../b.md)", RefFile, "sub/b.md", "sub/dir/../b.md"},
		{"[a](logs/2026/01/2026-01-02.md)", RefFile, "logs/2026/01/2026-01-02.md", "logs/2026/01/2026-01-02.md"},
		{"[a](file\\(1\\).md)", RefFile, "file(1).md", "file\\(1\\).md"},
		{"[a](notes\\sub.md)", RefFile, "notes/sub.md", "notes\\sub.md"},
		{"[a](../CLAUDE.md)", RefOutside, "../CLAUDE.md", "../CLAUDE.md"},
		{"[a](/home/u/x.md)", RefOutside, "/home/u/x.md", "/home/u/x.md"},
		{"[a](~/notes.md)", RefOutside, "~/notes.md", "~/notes.md"},
		{"[a](C:\\notes\\x.md)", RefOutside, "C:\\notes\\x.md", "C:\\notes\\x.md"},
		{"[a](file:///tmp/x.md)", RefOutside, "file:///tmp/x.md", "file:///tmp/x.md"},
		{"[a](https://example.com/a.md)", RefExternal, "https://example.com/a.md", "https://example.com/a.md"},
		{"[a](mailto:me@example.com)", RefExternal, "mailto:me@example.com", "mailto:me@example.com"},
		{"[a](#section)", RefExternal, "#section", "#section"},
		{"`../outside.md`", RefOutside, "../outside.md", "../outside.md"},
	} {
		ix := Parse([]byte(tc.line))
		rs := ix.Lines[0].Refs
		if len(rs) != 1 || rs[0].Scope != tc.scope || rs[0].Target != tc.target || rs[0].Dest != tc.dest || rs[0].Raw != tc.line {
			t.Errorf("%s: %+v; want scope %d target %q dest %q", tc.line, rs, tc.scope, tc.target, tc.dest)
		}
	}
}

func TestParseIndexNotReferences(t *testing.T) {
	for _, line := range []string{
		"![diagram](diagram.md)",     // an image
		"\\[not](a link.md)",         // escaped bracket
		"`go test ./...`",            // code that is not a file name
		"`*.md` files",               // a glob
		"`my notes.md`",              // a name with a space is not a backticked file name
		"see <https://example.com>",  // autolink
		"text <!-- [c](c.md) --> x",  // inline comment
		"[ref-style][id] link",       // reference-style links are not followed
		"[[]] and [[ ]] empty",       // empty wikilinks
		"[unclosed](a.md",            // no closing parenthesis
		"plain text mentioning a.md", // a bare name is not a reference
	} {
		ix := Parse([]byte(line))
		if n := len(ix.Lines[0].Refs); n != 0 {
			t.Errorf("%q: %d refs %+v", line, n, ix.Lines[0].Refs)
		}
	}
}

func TestParseIndexLineKinds(t *testing.T) {
	content := strings.Join([]string{
		"---",                      // 1 frontmatter
		"name: index",              // 2
		"---",                      // 3
		"# Memory Index",           // 4 heading
		"",                         // 5 blank
		"Pointers to topic files.", // 6 prose
		"<!-- memtui-ignore index-empty-section -->", // 7 comment
		"## User ##",                    // 8 heading with a closing sequence
		"- [Role](user_role.md) — who",  // 9 entry
		"  worked at X, then Y",         // 10 continuation
		"    - more detail",             // 11 continuation
		"  - [Nested](nested.md) — sub", // 12 nested entry
		"  hanging under nested",        // 13 continuation of the nested entry
		"- a note without a link",       // 14 prose
		"| File | Hook |",               // 15 table header
		"|------|------|",               // 16 table separator
		"| `a.md` | about a |",          // 17 entry (table)
		"| plain | row |",               // 18 prose row
		"***",                           // 19 rule
		"```md",                         // 20 code
		"- [Not a ref](x.md)",           // 21 code
		"```",                           // 22 code
		"<!-- multi",                    // 23 comment
		"[also not](y.md)",              // 24 comment
		"-->",                           // 25 comment
		"#hashtag is prose",             // 26 prose
	}, "\n")
	ix := Parse([]byte(content))
	want := []LineKind{
		LineFrontmatter, LineFrontmatter, LineFrontmatter, LineHeading, LineBlank, LineProse, LineComment,
		LineHeading, LineEntry, LineContinuation, LineContinuation, LineEntry, LineContinuation, LineProse,
		LineTableHeader, LineTableSeparator, LineEntry, LineProse, LineRule, LineCode, LineCode, LineCode,
		LineComment, LineComment, LineComment, LineProse,
	}
	if got := kinds(&ix); !reflect.DeepEqual(got, want) {
		for i := range got {
			if i < len(want) && got[i] != want[i] {
				t.Errorf("line %d %q: %s, want %s", i+1, ix.Lines[i].Text, got[i], want[i])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%d lines, want %d", len(got), len(want))
		}
	}
	if want := []Heading{{4, 1, "Memory Index"}, {8, 2, "User"}}; !reflect.DeepEqual(ix.Headings, want) {
		t.Errorf("headings %+v", ix.Headings)
	}
	if len(ix.Entries) != 3 {
		t.Fatalf("entries %+v", ix.Entries)
	}
	if e := ix.Entries[0]; !reflect.DeepEqual(e.Continuations, []int{10, 11}) || e.Section != 1 {
		t.Errorf("entry 1 continuations %v section %d", e.Continuations, e.Section)
	}
	if e := ix.Entries[1]; e.Line != 12 || !reflect.DeepEqual(e.Continuations, []int{13}) {
		t.Errorf("nested entry %+v", e)
	}
	if e := ix.Entries[2]; e.Form != EntryTable || e.Title != "a.md" || e.Hook != "about a" || e.Sep != "|" {
		t.Errorf("table entry %+v", e)
	}
	if ix.EntryAt(10) != &ix.Entries[0] || ix.EntryAt(14) != nil || ix.Line(0) != nil || ix.Line(27) != nil {
		t.Errorf("EntryAt/Line lookups are off")
	}
}

func TestParseIndexTables(t *testing.T) {
	content := "| Topic | File | Why |\n|:--|:--:|--:|\n| Role | `user_role.md` | who the user is |\n| Deploy | [deploy](project_deploy.md) | staging first |\n| `a|b.md` escaped \\| pipe | [x](x.md) |  |\nafter the table\n"
	ix := Parse([]byte(content))
	if len(ix.Entries) != 3 {
		t.Fatalf("entries: %v", kinds(&ix))
	}
	for i, want := range []struct{ title, hook string }{{"Role", "who the user is"}, {"Deploy", "staging first"}} {
		if e := ix.Entries[i]; e.Title != want.title || e.Hook != want.hook || e.Sep != "|" {
			t.Errorf("row %d: title %q hook %q", i, e.Title, e.Hook)
		}
	}
	if ix.Lines[5].Kind != LineProse {
		t.Errorf("the line after the table is %s", ix.Lines[5].Kind)
	}
}

func TestParseIndexCRLFRoundTrip(t *testing.T) {
	for _, content := range []string{
		"# Memory\r\n\r\n- [A](a.md) — hook\r\n- [B](b.md) — hook\r\n",
		"- [A](a.md)\n- [B](b.md)", // no final newline
		"mixed\r\nendings\nhere\r\n\r\n",
		"",
		"\n",
		"only\r",
	} {
		ix := Parse([]byte(content))
		if got := string(ix.Bytes()); got != content {
			t.Errorf("round trip %q -> %q", content, got)
		}
		for _, l := range ix.Lines {
			if strings.HasSuffix(l.Text, "\r") && l.Newline {
				t.Errorf("line %d keeps \\r in Text", l.Num)
			}
		}
	}
	ix := Parse([]byte("# Memory\r\n- [A](a.md) — hook\r\n"))
	if !ix.CRLF || !ix.Lines[1].CR() || ix.Lines[1].Text != "- [A](a.md) — hook" || ix.Entries[0].Hook != "hook" {
		t.Errorf("CRLF: %+v", ix.Lines[1])
	}
}

func TestParseIndexArchiveAndMentions(t *testing.T) {
	content := "# Memory\n\nOlder entries live in [the archive](MEMORY-archive.md).\n\n## Active\n- [A](a.md) — hook\n"
	ix := Parse([]byte(content))
	var targets []string
	for _, l := range ix.Lines {
		for _, r := range l.Refs {
			targets = append(targets, r.Target)
		}
	}
	if !reflect.DeepEqual(targets, []string{"MEMORY-archive.md", "a.md"}) {
		t.Errorf("targets %v", targets)
	}
	if ix.Entries[0].Form != EntryProse || ix.Entries[1].Section != 1 {
		t.Errorf("entries %+v", ix.Entries)
	}
}

func TestEntryNameAndPrimary(t *testing.T) {
	ix := Parse([]byte("- [Dash](https://x.example) and [b](b.md)\n- `c.md`\n"))
	if r, ok := ix.Entries[0].Primary(); !ok || r.Target != "b.md" {
		t.Errorf("primary %+v", r)
	}
	if n := ix.Entries[1].Name(); n != "c.md" {
		t.Errorf("name %q", n)
	}
	if LineEntry.String() != "entry" || RefWiki.String() != "wikilink" || LineKind(99).String() != "unknown" {
		t.Errorf("kind names")
	}
}

// TestParseIndexBracketPairing covers link texts whose brackets nest, are
// escaped or never close: the pairing pass stops as soon as a link's text
// is closed, and must answer as a pass over the whole line would.
func TestParseIndexBracketPairing(t *testing.T) {
	for _, tc := range []struct {
		line string
		raws []string
	}{
		{"[a [b] c](x.md) and [d](y.md)", []string{"[a [b] c](x.md)", "[d](y.md)"}},
		{"[[a]](x.md)", []string{"[[a]]"}},
		{"\\[a](x.md) [b](y.md)", []string{"[b](y.md)"}},
		{"[a (x.md) [b](y.md)", []string{"[b](y.md)"}},
		{"![i](p.png)[b](y.md)", []string{"[b](y.md)"}},
		{"[a]](x.md) [b]", nil},
		{"[x](a.md)[y](b.md)[z](c.md)", []string{"[x](a.md)", "[y](b.md)", "[z](c.md)"}},
		{"[`]`](a.md)", nil},
		{"[a\\]b](x.md)", []string{"[a\\]b](x.md)"}},
		{"[a](x.md) [b [c](y.md)", []string{"[a](x.md)", "[c](y.md)"}},
		{"[a [b](x.md)] [c](y.md)", []string{"[b](x.md)", "[c](y.md)"}},
		{"[a](x.md [b](y.md)", []string{"[b](y.md)"}},
	} {
		var raws []string
		for _, r := range Parse([]byte(tc.line)).Lines[0].Refs {
			raws = append(raws, r.Raw)
		}
		if !reflect.DeepEqual(raws, tc.raws) {
			t.Errorf("%q: refs %q, want %q", tc.line, raws, tc.raws)
		}
	}
}

func TestParseIndexText(t *testing.T) {
	for _, s := range testgen.IndexSeeds {
		if a, b := Parse([]byte(s)), ParseText(s); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: ParseText differs from Parse", s)
		}
	}
}
