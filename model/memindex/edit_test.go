package memindex

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memtui/memtui/internal/testgen"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// ieShapes are real index shapes (DESIGN.md section 8).
var ieShapes = map[string]string{
	"emdash": "# Memory Index\n\n## User\n- [User role](user_role.md) — data scientist\n- [Prefs](user_prefs.md) — tabs\n\n## Feedback\n- [Testing](feedback_testing.md) — use -race\n- [Style](feedback_style.md) — short commits\n",
	"hyphen": "# Index\n- [A](a.md) - about a\n- [B](b.md) - about b\n- [C](c.md) - about c\n",
	"colon":  "# Index\n* [A](a.md): about a\n* [B](b.md): about b\n",
	"table":  "# Memories\n\n| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n",
	"wiki":   "# Notes\n- [[user-role]] — who\n- [[feedback-style|Style]] — tabs\n",
	"prose":  "# Memory\n\nThe user prefers [bun](feedback_bun.md) and is rewriting [auth](project_auth.md).\n- [A](a.md) — about a\n",
	"crlf":   "# Memory\r\n\r\n## User\r\n- [Role](user_role.md) — hook\r\n  hanging detail\r\n## Work\r\n- [Proj](project.md) — the project\r\n",
	"cont":   "# Index\n- [A](a.md) — about a\n  more about a\n  and more\n- [B](b.md) — about b\n",
	"noeol":  "# Index\n- [A](a.md) — about a\n- [B](b.md) — about b",
	"fm":     "---\nname: index\n---\n- [A](a.md) — about a\n- [B](b.md) — about b\n",
	"code":   "# Index\n```\n- [not](x.md)\n```\n- [A](a.md) — about a\n<!-- a\nb -->\n- [B](b.md) — about b\n",
}

// ieLines splits content into lines with their endings.
func ieLines(b []byte) []string {
	return strings.SplitAfter(string(b), "\n")
}

// ieUntouched checks that every line of before, except those whose text is
// in changed, is in after with the same bytes (line endings included; the
// file's last line may gain or lose its "\n").
func ieUntouched(t *testing.T, before, after []byte, changed ...string) {
	t.Helper()
	have := map[string]int{}
	for _, l := range ieLines(after) {
		have[strings.TrimSuffix(l, "\n")+"\n"]++
	}
	skip := map[string]bool{}
	for _, c := range changed {
		skip[c] = true
	}
	for _, l := range ieLines(before) {
		if l == "" {
			continue
		}
		text := strings.TrimRight(l, "\r\n")
		if skip[text] {
			continue
		}
		k := strings.TrimSuffix(l, "\n") + "\n"
		if have[k] == 0 {
			t.Fatalf("untouched line %q lost or changed in\n%s", l, after)
		}
		have[k]--
	}
}

// ieTargets lists the primary targets of the entries of content.
func ieTargets(b []byte) []string {
	ix := Parse(b)
	var out []string
	for i := range ix.Entries {
		if r, ok := ix.Entries[i].Primary(); ok {
			out = append(out, r.Target)
		}
	}
	return out
}

// ieNonBlank is content's lines that are not blank, in order.
func ieNonBlank(b []byte) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSuffix(l, "\r"))
		}
	}
	return strings.Join(out, "\n")
}

// ieRefs counts every reference target in content.
func ieRefs(b []byte) map[string]int {
	ix := Parse(b)
	return ix.refTargetsAll()
}

func TestIndexEditorRoundTrip(t *testing.T) {
	for name, s := range ieShapes {
		t.Run(name, func(t *testing.T) {
			e := NewEditor([]byte(s))
			if got := string(e.Bytes()); got != s {
				t.Fatalf("round trip:\n%q\nwant\n%q", got, s)
			}
			if e.Modified() || e.CanUndo() {
				t.Fatalf("fresh editor is modified")
			}
			// Every entry is one row; its continuations ride with it.
			ix := Parse([]byte(s))
			entries := 0
			for _, r := range e.Rows() {
				if r.Entry != nil {
					entries++
					if want := 1 + len(r.Entry.Continuations); r.Lines != want {
						t.Errorf("row %q has %d lines, want %d", r.Text, r.Lines, want)
					}
				}
			}
			if entries != len(ix.Entries) {
				t.Errorf("%d entry rows, want %d", entries, len(ix.Entries))
			}
		})
	}
	for _, s := range []string{"", "\n", "x", "\r\n\r\n", "a\r", "```\n- [a](a.md)\n"} {
		if got := string(NewEditor([]byte(s)).Bytes()); got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
}

func TestIndexEditorMove(t *testing.T) {
	tests := []struct {
		name, in        string
		from, to, delta int
		want            string
		wantErr         bool
	}{
		{name: "down across heading", in: ieShapes["emdash"], from: 4, to: 5, delta: 2,
			want: "# Memory Index\n\n## User\n- [User role](user_role.md) — data scientist\n\n## Feedback\n- [Prefs](user_prefs.md) — tabs\n- [Testing](feedback_testing.md) — use -race\n- [Style](feedback_style.md) — short commits\n"},
		{name: "up across heading", in: ieShapes["emdash"], from: 7, to: 8, delta: -4,
			want: "# Memory Index\n\n## User\n- [Testing](feedback_testing.md) — use -race\n- [User role](user_role.md) — data scientist\n- [Prefs](user_prefs.md) — tabs\n\n## Feedback\n- [Style](feedback_style.md) — short commits\n"},
		{name: "range", in: ieShapes["hyphen"], from: 1, to: 3, delta: 1,
			want: "# Index\n- [C](c.md) - about c\n- [A](a.md) - about a\n- [B](b.md) - about b\n"},
		{name: "continuations move along", in: ieShapes["cont"], from: 1, to: 2, delta: 1,
			want: "# Index\n- [B](b.md) — about b\n- [A](a.md) — about a\n  more about a\n  and more\n"},
		{name: "crlf", in: ieShapes["crlf"], from: 3, to: 4, delta: 2,
			want: "# Memory\r\n\r\n## User\r\n## Work\r\n- [Proj](project.md) — the project\r\n- [Role](user_role.md) — hook\r\n  hanging detail\r\n"},
		{name: "last line without newline moves up", in: ieShapes["noeol"], from: 2, to: 3, delta: -1,
			want: "# Index\n- [B](b.md) — about b\n- [A](a.md) — about a"},
		{name: "table rows", in: ieShapes["table"], from: 3, to: 4, delta: 1,
			want: "# Memories\n\n| File | Hook |\n|---|---|\n| `b.md` | about b |\n| `a.md` | about a |\n"},
		{name: "frontmatter pinned", in: ieShapes["fm"], from: 1, to: 2, delta: -1, wantErr: true},
		{name: "into a code block", in: ieShapes["code"], from: 2, to: 3, delta: -1,
			want: "# Index\n- [A](a.md) — about a\n```\n- [not](x.md)\n```\n<!-- a\nb -->\n- [B](b.md) — about b\n"},
		{name: "past the end", in: ieShapes["hyphen"], from: 3, to: 4, delta: 1, wantErr: true},
		{name: "no move", in: ieShapes["hyphen"], from: 1, to: 2, delta: 0, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEditor([]byte(tc.in))
			err := e.MoveRange(tc.from, tc.to, tc.delta)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error; got\n%s", e.Bytes())
				}
				if string(e.Bytes()) != tc.in {
					t.Fatalf("a refused move changed the index")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(e.Bytes()); got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
			ieUntouched(t, []byte(tc.in), e.Bytes())
			if err := e.Undo(); err != nil || string(e.Bytes()) != tc.in {
				t.Fatalf("undo: %v\n%q", err, e.Bytes())
			}
		})
	}
}

func TestIndexEditorMoveRefusesHiding(t *testing.T) {
	// An unclosed fence swallows the rest of the file: moving an entry
	// below it would hide it.
	e := NewEditor([]byte("- [A](a.md) — about a\n```\ncode\n"))
	if err := e.MoveRow(0, 1); err == nil {
		t.Fatalf("moved an entry into an unclosed code block:\n%s", e.Bytes())
	}
}

// ieBig is an index of n lines: a heading, sections of entries, blanks.
func ieBig(n int) string {
	var b strings.Builder
	b.WriteString("# Memory Index\n")
	lines := 1
	sec := 0
	for lines < n {
		if lines%40 == 1 {
			sec++
			fmt.Fprintf(&b, "## Section %d\n", sec)
			lines++
			continue
		}
		fmt.Fprintf(&b, "- [Entry %d](e%03d.md) — hook %d\n", lines, lines, lines)
		lines++
	}
	return b.String()
}

func TestIndexEditorMoveAboveCut(t *testing.T) {
	in := ieBig(209)
	e := NewEditor([]byte(in))
	bud := e.Budget()
	if !bud.Truncated || bud.Lines != 209 || bud.CutRow != 200 {
		t.Fatalf("budget %+v", bud)
	}
	// Line 205 is in the last section, whose heading (line 202) is cut too:
	// the entry goes to the end of the loaded part.
	mv, err := e.MoveAboveCut("e205.md")
	if err != nil {
		t.Fatal(err)
	}
	ld := claude.SimulateLoad(e.Bytes())
	if !strings.Contains(ld.Loaded, "(e205.md)") {
		t.Fatalf("e205 not loaded after the move")
	}
	if mv.Row != 199 || len(mv.Pushed) != 1 || e.Rows()[mv.Pushed[0]].Target != "e199.md" {
		t.Fatalf("move %+v pushed %v", mv.Row, mv.Pushed)
	}
	if strings.Contains(ld.Loaded, "(e199.md)") {
		t.Fatalf("e199 should have fallen below the cut")
	}
	ieUntouched(t, []byte(in), e.Bytes())
	if _, err := e.MoveAboveCut("e205.md"); err == nil {
		t.Fatalf("moved a loaded entry")
	}
	if _, err := e.MoveAboveCut("e001.md"); err == nil {
		t.Fatalf("no such entry, no error")
	}

	// An entry whose heading loads stays in its section: here the section
	// "Section 5" starts at line 162 and runs past the cut.
	e = NewEditor([]byte(in))
	rows := e.Rows()
	head := -1
	for i, r := range rows {
		if r.Text == "## Section 6" {
			head = i
		}
	}
	// Move "Section 6" heading to the end so section 5 spans the cut, and
	// an entry of it lies below.
	if err := e.MoveRow(head, len(rows)-1-head); err != nil {
		t.Fatal(err)
	}
	before := e.Bytes()
	mv, err = e.MoveAboveCut("e203.md")
	if err != nil {
		t.Fatal(err)
	}
	r := e.Rows()[mv.Row]
	if r.Entry == nil || r.Entry.Section < 0 || e.Index().Headings[r.Entry.Section].Text != "Section 5" {
		t.Fatalf("moved out of its section: %+v", r)
	}
	ieUntouched(t, before, e.Bytes())

	// An index that loads whole: nothing to do.
	e = NewEditor([]byte(ieShapes["emdash"]))
	if _, err := e.MoveAboveCut("user_role.md"); err == nil {
		t.Fatalf("moved in an index that loads whole")
	}
}

func TestIndexEditorMoveAboveCutHeadingAtCut(t *testing.T) {
	// The entry's heading is the last loaded line: no room under it, so
	// the entry goes just above it and the heading is what falls out.
	var b strings.Builder
	b.WriteString("# Index\n")
	for i := 0; i < 198; i++ {
		fmt.Fprintf(&b, "- [R%d](r%03d.md) — r\n", i, i)
	}
	b.WriteString("## Late\n- [L1](l1.md) — l\n- [L2](l2.md) — l\n")
	in := b.String()
	e := NewEditor([]byte(in))
	if bud := e.Budget(); bud.CutRow != 200 {
		t.Fatalf("cut row %d", bud.CutRow)
	}
	mv, err := e.MoveAboveCut("l2.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := e.Rows()
	if mv.Row != 199 || rows[200].Text != "## Late" || len(mv.Pushed) != 1 || mv.Pushed[0] != 200 {
		t.Fatalf("row %d pushed %v: %q", mv.Row, mv.Pushed, rows[200].Text)
	}
	if !strings.Contains(mv.Load.Loaded, "(l2.md)") || mv.Load.Truncated() != true {
		t.Fatalf("l2 not loaded")
	}
	ieUntouched(t, []byte(in), e.Bytes())
}

func TestIndexEditorDeleteRestore(t *testing.T) {
	for name, s := range ieShapes {
		t.Run(name, func(t *testing.T) {
			e := NewEditor([]byte(s))
			for i, r := range e.Rows() {
				if r.Entry == nil {
					continue
				}
				before := e.Bytes()
				if err := e.DeleteRow(i); err != nil {
					t.Fatal(err)
				}
				after := e.Bytes()
				if bytes.Contains(after, []byte(r.Text+"\n")) && !strings.Contains(string(before), r.Text+"\n"+r.Text) {
					// duplicate lines are fine; otherwise the line is gone
					if strings.Count(string(after), r.Text) >= strings.Count(string(before), r.Text) {
						t.Fatalf("row %q still there", r.Text)
					}
				}
				ieUntouched(t, after, before)
				d := e.Deleted()
				if len(d) != 1 || d[0].Text != r.Text || d[0].Target != r.Target {
					t.Fatalf("deleted %+v, want %q", d, r.Text)
				}
				if err := e.RestoreRow(0); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(e.Bytes(), before) {
					t.Fatalf("restore:\n%q\nwant\n%q", e.Bytes(), before)
				}
				if len(e.Deleted()) != 0 {
					t.Fatalf("still listed as deleted")
				}
			}
		})
	}
	// Restore after the rows around it moved: it goes back after the row
	// that preceded it.
	e := NewEditor([]byte(ieShapes["hyphen"]))
	if err := e.DeleteRow(2); err != nil { // B
		t.Fatal(err)
	}
	if err := e.MoveRow(1, 1); err != nil { // A below C
		t.Fatal(err)
	}
	if err := e.RestoreRow(0); err != nil {
		t.Fatal(err)
	}
	if got, want := string(e.Bytes()), "# Index\n- [C](c.md) - about c\n- [A](a.md) - about a\n- [B](b.md) - about b\n"; got != want {
		t.Fatalf("got %q", got)
	}
	if e.DeleteRow(99) == nil || e.RestoreRow(5) == nil {
		t.Fatalf("bad rows accepted")
	}
	if e := NewEditor([]byte(ieShapes["fm"])); e.DeleteRow(0) == nil {
		t.Fatalf("deleted the frontmatter")
	}
}

func TestIndexEditorAddEntry(t *testing.T) {
	tests := []struct {
		shape, path, title, hook string
		after                    int
		want                     string // the new line
	}{
		{"emdash", "orphan.md", "Orphan", "a lost memory", 4, "- [Orphan](orphan.md) — a lost memory"},
		{"hyphen", "d.md", "D", "about d", 3, "- [D](d.md) - about d"},
		{"colon", "c.md", "C", "about c", 2, "* [C](c.md): about c"},
		{"table", "c.md", "C", "about c", 4, "| `c.md` | about c |"},
		{"wiki", "notes/x.md", "X", "about x", 2, "- [[notes/x|X]] — about x"},
		{"crlf", "new.md", "New", "fresh", 3, "- [New](new.md) — fresh"},
		{"prose", "z.md", "Z", "", 3, "- [Z](z.md)"},
		{"noeol", "c.md", "C [draft]", "about c", 2, "- [C \\[draft\\]](c.md) — about c"},
		{"emdash", "my notes.md", "Notes", "spaces", 0, "- [Notes](<my notes.md>) — spaces"},
	}
	for _, tc := range tests {
		t.Run(tc.shape+"/"+tc.path, func(t *testing.T) {
			in := ieShapes[tc.shape]
			e := NewEditor([]byte(in))
			at, err := e.AddEntry(tc.path, tc.title, tc.hook, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			r := e.Rows()[at]
			if r.Text != tc.want {
				t.Fatalf("new line %q, want %q", r.Text, tc.want)
			}
			if at != tc.after+1 || e.FindRow(tc.path) != at {
				t.Fatalf("added at %d, found at %d", at, e.FindRow(tc.path))
			}
			out := string(e.Bytes())
			if strings.Contains(in, "\r\n") && strings.Count(out, "\n") != strings.Count(out, "\r\n") {
				t.Fatalf("CRLF file got a LF line: %q", out)
			}
			ieUntouched(t, []byte(in), e.Bytes())
			if _, err := e.AddEntry(tc.path, "again", "", 0); err == nil {
				t.Fatalf("added %s twice", tc.path)
			}
		})
	}
	e := NewEditor(nil)
	if _, err := e.AddEntry("a.md", "A", "first", -1); err != nil || string(e.Bytes()) != "- [A](a.md) — first\n" {
		t.Fatalf("empty index: %v %q", err, e.Bytes())
	}
	if _, err := e.AddEntry("", "A", "", 0); err == nil {
		t.Fatalf("empty path accepted")
	}
	if _, err := e.AddEntry("b.md", "B", "", 7); err == nil {
		t.Fatalf("bad row accepted")
	}
}

func TestIndexEditorEditHook(t *testing.T) {
	tests := []struct {
		name, in, hook, want string
		row                  int
		wantErr              bool
	}{
		{"emdash", "- [A](a.md) — old hook\n", "new hook", "- [A](a.md) — new hook\n", 0, false},
		{"hyphen", "  * [A](a.md) - old\n", "new", "  * [A](a.md) - new\n", 0, false},
		{"colon", "- [A](a.md): old\n", "new", "- [A](a.md): new\n", 0, false},
		{"bold link", "- **[A](a.md)** — old\n", "new", "- **[A](a.md)** — new\n", 0, false},
		{"no separator gets the usual", "- [A](a.md) - x\n- [B](b.md) - y\n- [C](c.md)\n", "new", "- [A](a.md) - x\n- [B](b.md) - y\n- [C](c.md) - new\n", 2, false},
		{"text without separator", "- [A](a.md) — x\n- [C](c.md) (old)\n", "new", "- [A](a.md) — x\n- [C](c.md) — new\n", 1, false},
		{"separator without text", "- [A](a.md) —\n", "new", "- [A](a.md) — new\n", 0, false},
		{"trailing blanks kept", "- [A](a.md) — old  \n", "new", "- [A](a.md) — new  \n", 0, false},
		{"remove", "- [A](a.md) — old\n", "", "- [A](a.md)\n", 0, false},
		{"crlf", "- [A](a.md) — old\r\n- [B](b.md) — b\r\n", "new", "- [A](a.md) — new\r\n- [B](b.md) — b\r\n", 0, false},
		{"wikilink", "- [[a|A]] — old\n", "new", "- [[a|A]] — new\n", 0, false},
		{"table", "| File | Hook |\n|---|---|\n| `a.md` | old |\n", "new | piped", "| File | Hook |\n|---|---|\n| `a.md` | new \\| piped |\n", 1, false},
		{"table padded", "| File | Hook |\n|---|---|\n|`a.md`|old|\n", "new", "| File | Hook |\n|---|---|\n|`a.md`| new |\n", 1, false},
		{"prose", "See [A](a.md) for more.\n", "new", "", 0, true},
		{"heading", "# H\n", "new", "", 0, true},
		{"same", "- [A](a.md) — old\n", "old", "", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEditor([]byte(tc.in))
			err := e.EditHook(tc.row, tc.hook)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error: %q", e.Bytes())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(e.Bytes()); got != tc.want {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
			// Everything before the hook is kept byte for byte.
			old := e.hist[0].rows[tc.row].lines[0].text
			oix := ParseText(tc.in)
			en := oix.EntryAt(e.Rows()[tc.row].Line)
			if en != nil && en.Form == EntryList && en.Hook != "" && tc.hook != "" {
				keep := old[:strings.LastIndex(old, en.Hook)]
				if !strings.HasPrefix(e.Rows()[tc.row].Text, keep) {
					t.Fatalf("prefix %q not kept in %q", keep, e.Rows()[tc.row].Text)
				}
			}
			if got := e.Rows()[tc.row].Entry; got == nil || (tc.hook != "" && !strings.Contains(got.Hook, strings.ReplaceAll(tc.hook, "|", `\|`))) {
				t.Fatalf("hook reads back as %+v", got)
			}
			ieUntouched(t, []byte(tc.in), e.Bytes(), old)
		})
	}
}

func TestIndexEditorShortenHooks(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", 40)) // 199 characters
	in := "# Index\n" +
		"- [A](a.md) — " + long + "\n" +
		"- [B](b.md) — " + long + "\n" +
		"- [C](c.md) — short\n" +
		"- [D](d.md) — " + strings.Repeat("日本語 ", 60) + "\n" +
		"| `t.md` | " + long + " |\n"
	e := NewEditor([]byte(in))
	n, err := e.ShortenHooks(map[string]string{"a.md": "Description of A", "b.md": strings.Repeat("x", 200)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Fatalf("shortened %d, want 3", n)
	}
	rows := e.Rows()
	if rows[1].Text != "- [A](a.md) — Description of A" {
		t.Fatalf("A: %q", rows[1].Text)
	}
	for _, i := range []int{2, 4} {
		h := rows[i].Entry.Hook
		if utf8.RuneCountInString(h) > DefaultHookMax || !strings.HasSuffix(h, "…") || strings.Contains(h, "wor…") {
			t.Fatalf("row %d hook %q", i, h)
		}
	}
	if rows[3].Text != "- [C](c.md) — short" {
		t.Fatalf("C touched")
	}
	ieUntouched(t, []byte(in), e.Bytes(), strings.Split(in, "\n")[1], strings.Split(in, "\n")[2], strings.Split(in, "\n")[4])
	if err := e.Undo(); err != nil || string(e.Bytes()) != in {
		t.Fatalf("one undo step should restore all")
	}
	if n, _ := NewEditor([]byte("- [A](a.md) — short\n")).ShortenHooks(nil, 150); n != 0 {
		t.Fatalf("shortened a short hook")
	}
	// A cut never lands inside a link.
	if got := Clip("see [a long title here](x.md) and more", 20); got != "see…" {
		t.Fatalf("clip %q", got)
	}
}

func TestIndexEditorDemote(t *testing.T) {
	in := ieBig(209)
	e := NewEditor([]byte(in))
	orig := ieTargets([]byte(in))
	// Demote the 30 entries of the first two sections' tail.
	var rows []int
	for i, r := range e.Rows() {
		if r.Entry != nil && len(rows) < 30 {
			rows = append(rows, i)
		}
	}
	arch, err := e.Demote(rows, "MEMORY-archive.md", "Archive")
	if err != nil {
		t.Fatal(err)
	}
	ld := claude.SimulateLoad(e.Bytes())
	if ld.Truncated() {
		t.Fatalf("still cut: %d lines", ld.LineCount)
	}
	got := map[string]bool{}
	for _, tg := range append(ieTargets(e.Bytes()), ieTargets(arch)...) {
		got[tg] = true
	}
	for _, tg := range orig {
		if !got[tg] {
			t.Fatalf("%s lost", tg)
		}
	}
	if !got["MEMORY-archive.md"] {
		t.Fatalf("no entry points at the archive")
	}
	doc := claude.ParseDoc(arch)
	if doc.Status != model.FMOK || doc.FM.Name != "Archive" || doc.FM.Type != "reference" || doc.FM.Description == "" {
		t.Fatalf("archive frontmatter %+v %v\n%s", doc.FM, doc.Status, arch)
	}
	if !strings.Contains(string(arch), "node_type: memory") {
		t.Fatalf("no node_type")
	}
	// What stays is as it was, plus the archive's entry.
	ieUntouched(t, e.Bytes(), []byte(in), e.Rows()[e.FindRow("MEMORY-archive.md")].Text)
	if err := e.Undo(); err != nil || string(e.Bytes()) != in {
		t.Fatalf("undo demote")
	}

	// Table rows take their header along; CRLF stays CRLF.
	tin := "# Memories\r\n\r\n| File | Hook |\r\n|---|---|\r\n| `a.md` | about a |\r\n| `b.md` | about b |\r\n"
	e = NewEditor([]byte(tin))
	arch, err = e.Demote([]int{3}, "archive.md", "Old")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(arch), "| File | Hook |\r\n|---|---|\r\n| `a.md` | about a |\r\n") {
		t.Fatalf("archive %q", arch)
	}
	if out := string(e.Bytes()); !strings.Contains(out, "| `b.md` | about b |\r\n") || !strings.Contains(out, "archive.md") || strings.Count(out, "\n") != strings.Count(out, "\r\n") {
		t.Fatalf("index %q", out)
	}
	if rows := e.Rows(); rows[3].Entry == nil || rows[3].Entry.Form != EntryTable {
		t.Fatalf("archive entry is not a table row: %q", rows[3].Text)
	}

	for _, bad := range []struct {
		rows []int
		path string
	}{{nil, "x.md"}, {[]int{0}, "x.md"}, {[]int{3}, "sub/x.md"}, {[]int{3}, "MEMORY.md"}, {[]int{3}, "x.txt"}, {[]int{4, 4}, "x.md"}, {[]int{4}, "b.md"}} {
		e := NewEditor([]byte(tin))
		if _, err := e.Demote(bad.rows, bad.path, "t"); err == nil {
			t.Errorf("demote %v to %s accepted", bad.rows, bad.path)
		}
	}
}

func TestIndexEditorUndoRedo(t *testing.T) {
	in := ieShapes["crlf"]
	e := NewEditor([]byte(in))
	var states []string
	states = append(states, string(e.Bytes()))
	step := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, string(e.Bytes()))
	}
	step(e.MoveRow(3, 2))
	step(e.EditHook(5, "changed"))
	_, err := e.AddEntry("new.md", "New", "fresh", 0)
	step(err)
	step(e.DeleteRow(1))
	step(e.RestoreRow(0))
	for i := len(states) - 2; i >= 0; i-- {
		if err := e.Undo(); err != nil {
			t.Fatal(err)
		}
		if string(e.Bytes()) != states[i] {
			t.Fatalf("undo to %d: %q", i, e.Bytes())
		}
	}
	if e.Undo() == nil || e.CanUndo() {
		t.Fatalf("undo past the start")
	}
	for i := 1; i < len(states); i++ {
		if err := e.Redo(); err != nil || string(e.Bytes()) != states[i] {
			t.Fatalf("redo to %d: %v", i, err)
		}
	}
	if e.Redo() == nil {
		t.Fatalf("redo past the end")
	}
	// A new edit drops the redo steps.
	e.Undo()
	step(e.MoveRow(1, 1))
	if e.CanRedo() {
		t.Fatalf("redo after a new edit")
	}
}

func TestIndexEditorBudget(t *testing.T) {
	e := NewEditor([]byte(ieBig(170)))
	b := e.Budget()
	if b.Truncated || b.CutRow != -1 || b.Lines != 170 {
		t.Fatalf("budget %+v", b)
	}
	if b.NearRow != 159 || b.TargetRow != 140 {
		t.Fatalf("near %d target %d", b.NearRow, b.TargetRow)
	}
	if !b.Load.NearLimit() {
		t.Fatalf("not near")
	}
	e = NewEditor([]byte(ieShapes["emdash"]))
	if b := e.Budget(); b.NearRow != -1 || b.TargetRow != -1 || b.CutRow != -1 {
		t.Fatalf("small index %+v", b)
	}
	// Size cut: long lines under 200 lines.
	var sb strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&sb, "- [E](e%d.md) — %s\n", i, strings.Repeat("x", 300))
	}
	b = NewEditor([]byte(sb.String())).Budget()
	if !b.Truncated || b.CutRow < 70 || b.CutRow > 90 || b.NearRow < 0 || b.NearRow >= b.CutRow {
		t.Fatalf("size budget %+v", b)
	}
}

// FuzzIndexEditor applies random operations and checks the invariants:
// the bytes always parse back to themselves, no entry's target is lost
// except by DeleteRow (or into a Demote archive), undoing everything
// returns the original bytes, and redoing everything the final ones.
func FuzzIndexEditor(f *testing.F) {
	for _, s := range ieShapes {
		f.Add([]byte(s), []byte{0, 1, 3, 5, 2, 7, 6, 3, 1, 3, 1, 0, 4, 0, 0, 8, 1, 2, 7, 0, 9})
		f.Add([]byte(s), []byte{241, 1, 0, 241, 2, 1, 240, 0, 0, 242, 0, 1, 9, 0, 0, 241, 3, 200})
	}
	for _, s := range testgen.IndexSeeds {
		f.Add([]byte(s), []byte{1, 0, 200, 3, 0, 0, 6, 0, 1, 0, 2, 3})
	}
	f.Add([]byte(ieBig(205)), []byte{2, 203, 0, 2, 202, 0, 8, 3, 9, 0, 190, 1, 3, 4, 0})
	f.Add([]byte(ieBig(205)+"- [X](x.md)"), []byte{2, 205, 0, 3, 205, 0, 4, 0, 0})
	hooks := []string{"", "new hook", "a | b", strings.Repeat("long words ", 30), "see [Z](z.md)", "x\ny"}
	f.Fuzz(func(t *testing.T, content, ops []byte) {
		if len(content) > 20000 || len(ops) > 60 {
			return
		}
		e := NewEditor(content)
		if !bytes.Equal(e.Bytes(), content) {
			t.Fatalf("round trip lost bytes")
		}
		orig := ieTargets(content)
		spared := map[string]bool{} // targets a delete or a demote took out
		for k := 0; k+2 < len(ops); k += 3 {
			n := max(e.Len(), 1)
			a, b := int(ops[k+1]), int(ops[k+2])
			// spare marks the targets of rows an op may take out.
			spare := func(rows ...int) {
				ix := e.Index()
				for _, i := range rows {
					if i < 0 || i >= e.Len() {
						continue
					}
					r := e.Rows()[i]
					for l := r.Line; l < r.Line+r.Lines && l <= len(ix.Lines); l++ {
						for _, ref := range ix.Lines[l-1].Refs {
							spared[ref.Target] = true
						}
					}
				}
			}
			op := int(ops[k]) % 15
			if ops[k] >= 240 { // the later operations, so the corpus keeps its meaning
				op = 15 + int(ops[k]-240)%3
			}
			switch op {
			case 0:
				e.MoveRow(a%n, int(int8(b))%7)
			case 1:
				e.MoveRange(a%n, a%n+1+b%3, int(b>>4)-8)
			case 2:
				e.MoveRowAboveCut(a % n)
			case 3:
				if a%n < e.Len() {
					r := e.Rows()[a%n]
					ix := e.Index()
					for l := r.Line; l < r.Line+r.Lines && l <= len(ix.Lines); l++ {
						for _, ref := range ix.Lines[l-1].Refs {
							spared[ref.Target] = true
						}
					}
				}
				e.DeleteRow(a % n)
			case 4:
				e.RestoreRow(a % max(len(e.Deleted()), 1))
			case 5:
				e.AddEntry(fmt.Sprintf("new%d.md", a), "T", hooks[b%len(hooks)], b%(n+1)-1)
			case 6:
				e.EditHook(a%n, hooks[b%len(hooks)])
			case 7:
				e.ShortenHooks(map[string]string{"a.md": "short"}, 10+b%50)
			case 8:
				if arch, err := e.Demote([]int{a % n, b % n}, fmt.Sprintf("arch%d.md", k), "Archive"); err == nil {
					for t := range ieRefs(arch) {
						spared[t] = true
					}
				}
			case 9:
				e.Undo()
			case 10:
				e.Redo()
			case 11:
				spare(a%n, b%n)
				e.RemoveRows([]int{a % n, b % n})
			case 12:
				e.AddEntries([]NewEntry{{Path: fmt.Sprintf("b%d.md", a), Title: "B", Hook: hooks[b%len(hooks)], After: a%(n+1) - 1},
					{Path: fmt.Sprintf("c%d.md", b), Title: "C", After: a%(n+1) - 1, Blank: b%2 == 0}})
			case 13:
				spare(a%n, b%n) // a fold drops hanging lines, a fitted hook its links
				e.FitHooks([]HookFit{{a % n, hooks[b%len(hooks)]}}, 20+b%150)
				e.FoldRows([]Fold{{Row: b % n, Hook: hooks[a%len(hooks)]}}, 0)
			case 14:
				if arch, err := e.DemoteTo([]int{a % n}, Archive{Path: fmt.Sprintf("arch%d.md", k), NoLink: b%2 == 0, Content: []byte("x\r\n")}); err == nil {
					for t := range ieRefs(arch) {
						spared[t] = true
					}
				}
			case 15:
				// Only blank lines go: the others stay, in order.
				before := e.Bytes()
				if _, err := e.CollapseBlanks(); err == nil && ieNonBlank(e.Bytes()) != ieNonBlank(before) {
					t.Fatalf("collapse changed a non-blank line:\n%q\nfrom\n%q", e.Bytes(), before)
				}
			case 16:
				// Joining keeps every word, references included: nothing
				// is spared.
				e.JoinHanging([]int{a % n, b % n}, 20+b)
			case 17:
				e.Replace(append(e.Bytes(), hooks[b%len(hooks)]...))
			}
			out := e.Bytes()
			if ix := Parse(out); !bytes.Equal(ix.Bytes(), out) {
				t.Fatalf("bytes do not parse back")
			}
			if len(e.Rows()) != e.Len() {
				t.Fatalf("rows")
			}
			have := ieRefs(out)
			for _, tg := range orig {
				if have[tg] == 0 && !spared[tg] {
					t.Fatalf("op %d (%d): target %s lost:\n%q\nfrom\n%q", k/3, ops[k]%15, tg, out, content)
				}
			}
			e.Budget()
		}
		final := e.Bytes()
		undone := 0
		for e.Undo() == nil {
			undone++
		}
		if !bytes.Equal(e.Bytes(), content) {
			t.Fatalf("undo all:\n%q\nwant\n%q", e.Bytes(), content)
		}
		for ; undone > 0; undone-- {
			if err := e.Redo(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(e.Bytes(), final) {
			t.Fatalf("redo all:\n%q\nwant\n%q", e.Bytes(), final)
		}
	})
}

func TestIndexEditorShortenHooksTable(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", 40))
	in := "| File | Hook | Updated |\n|---|---|---|\n| `a.md` | " + long + " | 2026-01-02 |\n| `b.md` | " + long + " | 2026-01-03 |\n"
	e := NewEditor([]byte(in))
	n, err := e.ShortenHooks(map[string]string{"a.md": "Short A"}, 150)
	if err != nil || n != 2 {
		t.Fatalf("n %d err %v", n, err)
	}
	rows := e.Rows()
	if rows[1].Text != "| `a.md` | Short A | 2026-01-02 |" {
		t.Fatalf("a: %q", rows[1].Text)
	}
	if !strings.HasPrefix(rows[2].Text, "| `b.md` | word word") || !strings.HasSuffix(rows[2].Text, "… | 2026-01-03 |") {
		t.Fatalf("b: %q", rows[2].Text)
	}
	ieUntouched(t, []byte(in), e.Bytes(), strings.Split(in, "\n")[2], strings.Split(in, "\n")[3])
}

func TestIndexEditorMoveAboveSizeCut(t *testing.T) {
	// Under 200 lines but over 25,000 units: the size cut decides.
	var sb strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&sb, "- [E%d](e%02d.md) — %s\n", i, i, strings.Repeat("x", 300))
	}
	in := sb.String()
	e := NewEditor([]byte(in))
	mv, err := e.MoveAboveCut("e99.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(mv.Load.Loaded, "(e99.md)") || len(mv.Pushed) == 0 {
		t.Fatalf("row %d pushed %v", mv.Row, mv.Pushed)
	}
	for _, p := range mv.Pushed {
		if strings.Contains(mv.Load.Loaded, "("+e.Rows()[p].Target+")") && !mv.Load.LastLineCut {
			t.Fatalf("pushed row %d still loads", p)
		}
	}
	ieUntouched(t, []byte(in), e.Bytes())
}

// TestIndexEditorAgentMode: the editor of a subagent's index measures it
// raw, as Claude Code loads it: a 33-line comment counts, so 13 entries
// fall below the cut.
func TestIndexEditorAgentMode(t *testing.T) {
	content := "<!--\n" + strings.Repeat("note\n", 31) + "-->\n" + testgen.Entries(180, "\n")
	if b := NewEditor([]byte(content)).Budget(); b.Truncated || b.Lines != 180 {
		t.Fatalf("auto: %d lines, cut %v", b.Lines, b.Truncated)
	}
	ed := NewEditorMode([]byte(content), model.LoadAgent)
	b := ed.Budget()
	if !b.Truncated || b.Lines != 213 || b.CutRow < 0 {
		t.Fatalf("agent: %d lines, cut %v at row %d", b.Lines, b.Truncated, b.CutRow)
	}
	if r := ed.Rows()[b.CutRow]; r.Entry == nil || r.Entry.Title != "Entry 168" {
		t.Errorf("the cut falls at row %d (%+v), want the entry of Entry 168", b.CutRow, r)
	}
}

// TestIndexLinkDestAndTitle: a destination with a blank goes in angle
// brackets and brackets in a title are escaped, so the link reads back as
// written (moved here from the reindex proposer's helpers).
func TestIndexLinkDestAndTitle(t *testing.T) {
	if ixeDest("a b.md") != "<a b.md>" || ixeEscTitle("[x]") != `\[x\]` {
		t.Errorf("dest or title")
	}
	if got := Link("C [draft]", "my notes.md"); got != `[C \[draft\]](<my notes.md>)` {
		t.Errorf("link %q", got)
	}
}
