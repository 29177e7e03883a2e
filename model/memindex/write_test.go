package memindex

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// The operations the reindex proposer is made of. Each keeps the lines it
// does not touch byte for byte and is one undo step.

func TestIndexEditorRemoveRows(t *testing.T) {
	tests := []struct {
		name, in string
		rows     []int
		want     string
	}{
		{"a loose list stays loose, without a double blank", "# I\n\n- [A](a.md)\n\n- [B](b.md)\n\n- [C](c.md)\n", []int{4},
			"# I\n\n- [A](a.md)\n\n- [C](c.md)\n"},
		{"no blank left at the end", "# I\n\n- [A](a.md)\n\n- [B](b.md)\n", []int{4}, "# I\n\n- [A](a.md)\n"},
		{"the frontmatter and the blank after it", "---\nname: x\n---\n\n- [A](a.md)\n", []int{0}, "- [A](a.md)\n"},
		{"crlf", "# I\r\n\r\n- [A](a.md) — x  \r\n- [B](b.md)\r\n\r\n## H\r\n- [C](c.md)\r\n", []int{3},
			"# I\r\n\r\n- [A](a.md) — x  \r\n\r\n## H\r\n- [C](c.md)\r\n"},
		{"blank lines written as they were stay", "- [A](a.md)\n\n\n- [B](b.md)\n- [C](c.md)\n", []int{4}, "- [A](a.md)\n\n\n- [B](b.md)\n"},
		{"an entry takes its hanging lines", "- [A](a.md)\n  more\n- [B](b.md)\n", []int{0}, "- [B](b.md)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEditor([]byte(tc.in))
			if err := e.RemoveRows(tc.rows); err != nil {
				t.Fatal(err)
			}
			if got := string(e.Bytes()); got != tc.want {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
			ieUntouched(t, e.Bytes(), []byte(tc.in))
			if e.Undo() != nil || string(e.Bytes()) != tc.in {
				t.Fatalf("one undo step should restore %q", tc.in)
			}
		})
	}
	e := NewEditor([]byte("- [A](a.md)\n"))
	if e.RemoveRows(nil) == nil || e.RemoveRows([]int{3}) == nil {
		t.Fatal("nothing to remove, or a bad row, accepted")
	}
}

// TestIndexEditorAddEntriesWhereTheyGo: a new entry is written in the
// style of the place it goes: a row of the table it continues, else the
// index's list item, never a table row standing alone.
func TestIndexEditorAddEntriesWhereTheyGo(t *testing.T) {
	in := "# Memories\n\n## Kept\n\n| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n"
	e := NewEditor([]byte(in))
	at, err := e.AddEntries([]NewEntry{
		{Path: "c.md", Title: "C", Hook: "about c", After: 6},                      // after the last row: the table goes on
		{Path: "d.md", Title: "D", Hook: "about d", After: 6},                      // and on, in the order given
		{Path: "h.md", Title: "H", Hook: "under the heading", After: 2},            // after a heading: a list item
		{Path: "z.md", Title: "Z", Hook: "after the table", After: 6, Blank: true}, // after a blank line: a list item
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Memories\n\n## Kept\n- [H](h.md) — under the heading\n\n| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n" +
		"| `c.md` | about c |\n| `d.md` | about d |\n\n- [Z](z.md) — after the table\n"
	if got := string(e.Bytes()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	rows := e.Rows()
	for k, form := range []EntryForm{EntryTable, EntryTable, EntryList, EntryList} {
		if en := rows[at[k]].Entry; en == nil || en.Form != form {
			t.Errorf("entry %d is %+v, want form %d", k, en, form)
		}
	}
	if e.Undo() != nil || string(e.Bytes()) != in {
		t.Fatal("one undo step should take the whole batch back")
	}
	// A path given twice, or indexed already, refuses the batch.
	if _, err := e.AddEntries([]NewEntry{{Path: "x.md", After: 0}, {Path: "x.md", After: 1}}); err == nil {
		t.Error("the same path twice accepted")
	}
	if _, err := e.AddEntries([]NewEntry{{Path: "b.md", After: 0}}); err == nil {
		t.Error("an indexed path accepted")
	}
	if string(e.Bytes()) != in {
		t.Error("a refused batch changed the index")
	}
}

// TestIndexEditorNewEntryFits: a new entry's hook is cut so the line stays
// within EntryMaxChars, and left out when too little room is left for it.
func TestIndexEditorNewEntryFits(t *testing.T) {
	long := strings.Repeat("a word ", 40)
	e := NewEditor([]byte("- [A](a.md) — x\n"))
	if _, err := e.AddEntry("b.md", "B", long, 0); err != nil {
		t.Fatal(err)
	}
	line := e.Rows()[1].Text
	if n := utf8.RuneCountInString(line); n > EntryMaxChars || !strings.HasPrefix(line, "- [B](b.md) — a word a word") || !strings.HasSuffix(line, "…") || strings.Contains(line, "wor…") {
		t.Errorf("%d characters: %q", n, line)
	}
	title := strings.Repeat("T", 130)
	if _, err := e.AddEntry("c.md", title, long, 1); err != nil {
		t.Fatal(err)
	}
	if got := e.Rows()[2].Text; got != "- ["+title+"](c.md)" {
		t.Errorf("no room for a hook, yet %q", got)
	}
	// The redaction the caller sets runs before the cut.
	e.SetRedact(func(s string) string { return strings.ReplaceAll(s, "secret", "[R]") })
	if _, err := e.AddEntry("d.md", "D", "a secret here", 2); err != nil {
		t.Fatal(err)
	}
	if got := e.Rows()[3].Text; got != "- [D](d.md) — a [R] here" {
		t.Errorf("redacted hook %q", got)
	}
}

func TestIndexEditorFitHooks(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("words that go on ", 10))
	in := "# I\r\n" +
		"- **[A](a.md)** — " + long + "\r\n" + // the description fits
		"- [B](b.md) — " + long + "\r\n" + // the description is long too: it is cut
		"- [C](c.md) — " + long + "\r\n" + // no description: the hook is cut
		"- [" + strings.Repeat("T", 145) + "](d.md) — " + long + "\r\n" + // the title alone is too long
		"- [E](e.md) — short\r\n" + // fits already
		"\r\n| File | Hook | Year |\r\n|---|---|---|\r\n| `f.md` | " + long + " | 2026 |\r\n"
	e := NewEditor([]byte(in))
	fits := []HookFit{{1, "About A"}, {2, strings.Repeat("a long description ", 10)}, {3, ""}, {4, "d"}, {5, "about e"}}
	done, err := e.FitHooks(fits, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []bool{true, true, true, false, false} {
		if done[k] != want {
			t.Errorf("entry %d changed %v, want %v", k, done[k], want)
		}
	}
	rows := e.Rows()
	if rows[1].Text != "- **[A](a.md)** — About A" {
		t.Errorf("A: %q", rows[1].Text)
	}
	for _, i := range []int{2, 3} {
		if n := utf8.RuneCountInString(rows[i].Text); n > EntryMaxChars || !strings.HasSuffix(rows[i].Text, "…") {
			t.Errorf("row %d (%d characters): %q", i, n, rows[i].Text)
		}
	}
	if !strings.HasPrefix(rows[2].Text, "- [B](b.md) — a long description") || !strings.HasPrefix(rows[3].Text, "- [C](c.md) — words that go on") {
		t.Errorf("B or C: %q %q", rows[2].Text, rows[3].Text)
	}
	ieUntouched(t, []byte(in), e.Bytes(), strings.TrimSuffix(strings.Split(in, "\n")[1], "\r"),
		strings.TrimSuffix(strings.Split(in, "\n")[2], "\r"), strings.TrimSuffix(strings.Split(in, "\n")[3], "\r"))
	// A table row's hook cell, the cells around it kept.
	if done, _ := e.FitHooks([]HookFit{{8, "About F"}}, 0); !done[0] || e.Rows()[8].Text != "| `f.md` | About F | 2026 |" {
		t.Errorf("table: %q", e.Rows()[8].Text)
	}
	e.Undo()
	e.Undo()
	if string(e.Bytes()) != in {
		t.Error("two undo steps should restore the index")
	}
}

func TestIndexEditorFoldRows(t *testing.T) {
	in := "- [A](a.md) — x\n  more about a\n\n\n## H\n- [B](b.md)\n  when deploying\n- [C](c.md)\n  " + strings.Repeat("z", 150) + "\n"
	e := NewEditor([]byte(in))
	done, err := e.FoldRows([]Fold{{Row: 0}, {Row: 4, Hook: "when deploying"}, {Row: 5, Hook: strings.Repeat("z", 150)}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !done[0] || !done[1] || done[2] {
		t.Fatalf("done %v", done)
	}
	// The fold closes up the blank lines after it, as a removal does.
	want := "- [A](a.md) — x\n\n## H\n- [B](b.md) — when deploying\n- [C](c.md)\n  " + strings.Repeat("z", 150) + "\n"
	if got := string(e.Bytes()); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestIndexEditorUnlinkRefs(t *testing.T) {
	in := "- [B](b.md) — replaces [old](old.md) and `gone.md`\r\n- [C](c.md)\r\n  see [[nowhere]]\r\n"
	e := NewEditor([]byte(in))
	ix := Parse([]byte(in))
	done, err := e.UnlinkRefs([]Unlink{{Row: 0, Refs: ix.Lines[0].Refs[1:]}, {Row: 1, Line: 1, Refs: ix.Lines[2].Refs}})
	if err != nil {
		t.Fatal(err)
	}
	if len(done[0]) != 2 || len(done[1]) != 1 {
		t.Fatalf("done %v", done)
	}
	if got, want := string(e.Bytes()), "- [B](b.md) — replaces old and gone.md\r\n- [C](c.md)\r\n  see nowhere\r\n"; got != want {
		t.Fatalf("got %q", got)
	}
	if _, err := e.UnlinkRefs([]Unlink{{Row: 0, Refs: ix.Lines[0].Refs[1:2]}}); !errors.Is(err, ErrNoChange) {
		t.Errorf("a reference no longer there: %v", err)
	}
}

// TestIndexEditorDemoteTo: the archive keeps the headings the moved
// entries sat under; an existing archive is appended to in its own line
// endings; NoLink leaves the linking to the caller.
func TestIndexEditorDemoteTo(t *testing.T) {
	in := "# Memory\n\n## Old\n\n- [A](a.md) — a\n- [B](b.md) — b\n\n## New\n\n- [C](c.md) — c\n- [D](d.md) — d\n"
	e := NewEditor([]byte(in))
	arch, err := e.DemoteTo([]int{4, 5, 9}, Archive{Path: "memory-archive.md", Title: "Memory archive", NoLink: true,
		Frontmatter: "---\nname: memory-archive\n---\n\n", Intro: "Older entries."})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(arch), "---\nname: memory-archive\n---\n\n# Memory archive\n\nOlder entries.\n\n## Old\n\n- [A](a.md) — a\n- [B](b.md) — b\n\n## New\n\n- [C](c.md) — c\n"; got != want {
		t.Errorf("archive\n%s\nwant\n%s", got, want)
	}
	// The emptied heading stays (whether it goes is the caller's call);
	// the blank lines close up.
	if got, want := string(e.Bytes()), "# Memory\n\n## Old\n\n## New\n\n- [D](d.md) — d\n"; got != want {
		t.Errorf("index %q", got)
	}
	e.Undo()
	arch, err = e.DemoteTo([]int{10}, Archive{Path: "memory-archive.md", Content: []byte("# Archive\r\n- [Z](z.md)"), NoLink: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(arch), "# Archive\r\n- [Z](z.md)\r\n\r\n## New\r\n\r\n- [D](d.md) — d\r\n"; got != want {
		t.Errorf("appended %q", got)
	}
}

func TestIndexEditorAddSection(t *testing.T) {
	e := NewEditor(nil)
	for _, sec := range []string{"User", "Feedback"} {
		h, err := e.AddSection(2, sec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.AddEntry(strings.ToLower(sec)+".md", sec, "about "+sec, h+1); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := string(e.Bytes()), "## User\n\n- [User](user.md) — about User\n\n## Feedback\n\n- [Feedback](feedback.md) — about Feedback\n"; got != want {
		t.Errorf("got %q", got)
	}
	if _, err := e.AddSection(7, "x"); err == nil {
		t.Error("level 7 accepted")
	}
}

// TestClip: the one cut of index text and messages.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four five six", 14, "one two three…"},
		{"日本語のテキストです", 5, "日本語の…"},
		{"a verylongwordthatgoeson", 12, "a verylongw…"}, // no blank in the second half: cut in the word
		{"see [a long title here](x.md) and more", 20, "see…"},
		{"keep this, and that", 12, "keep this…"},
		{"abcdef", 4, "abc…"},
		{"x", 0, ""},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
