package memindex

import (
	"errors"
	"strings"
	"testing"
)

// CollapseBlanks: each run of blank lines becomes one, the ends lose theirs,
// blank lines inside a code block or a comment stay, and the lines Claude
// Code counted drop by the blank lines it counted.
func TestCollapseBlanks(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		removed, freed int
	}{
		{"runs", "# Index\n\n\n\n- [A](a.md) — a\n\n\n- [B](b.md) — b\n", "# Index\n\n- [A](a.md) — a\n\n- [B](b.md) — b\n", 3, 3},
		{"ends", "\n\n# Index\n- [A](a.md) — a\n\n \n\t\n", "# Index\n- [A](a.md) — a\n", 5, 0},
		{"crlf", "# Index\r\n\r\n\r\n- [A](a.md) — a\r\n", "# Index\r\n\r\n- [A](a.md) — a\r\n", 1, 1},
		{"code and comment keep theirs", "# Index\n```\na\n\n\nb\n```\n\n\n<!-- x\n\n\ny -->\n- [A](a.md)\n",
			"# Index\n```\na\n\n\nb\n```\n\n<!-- x\n\n\ny -->\n- [A](a.md)\n", 1, 1},
		{"frontmatter stays on top", "---\nname: x\n---\n\n\n- [A](a.md)\n", "---\nname: x\n---\n\n- [A](a.md)\n", 1, 0},
		// Without the blank line, Claude Code would strip the block and
		// the entry under it as frontmatter.
		{"no frontmatter made", "\n\n---\n- [A](a.md)\n---\n- [B](b.md)\n", "\n---\n- [A](a.md)\n---\n- [B](b.md)\n", 1, 0},
		{"no final newline", "- [A](a.md)\n\n\n- [B](b.md)", "- [A](a.md)\n\n- [B](b.md)", 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := NewEditor([]byte(c.in))
			before := e.Budget().Lines
			n, err := e.CollapseBlanks()
			if err != nil || n != c.removed {
				t.Fatalf("removed %d (%v), want %d", n, err, c.removed)
			}
			if got := string(e.Bytes()); got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			if freed := before - e.Budget().Lines; freed != c.freed {
				t.Errorf("%d lines freed, want %d", freed, c.freed)
			}
			if _, err := e.CollapseBlanks(); !errors.Is(err, ErrNoChange) {
				t.Errorf("a second collapse must find nothing, got %v", err)
			}
			if e.Undo() != nil || string(e.Bytes()) != c.in {
				t.Errorf("one undo must give the file back")
			}
		})
	}
	if _, err := NewEditor([]byte("# I\n\n- [A](a.md)\n")).CollapseBlanks(); !errors.Is(err, ErrNoChange) {
		t.Errorf("single blank lines stay: %v", err)
	}
}

// JoinHanging folds an entry's hanging lines onto its line, every word
// kept: items after "; ", wrapped text after a space, the first line of an
// entry with no hook after the index's separator; a line that would be
// over the limit is left whole.
func TestJoinHanging(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		max            int
		err            error
	}{
		{"items", "- [Testing](t.md) — go test -race\n  - needs `docker compose up` first\n  - CI runs with -count=1\n- [B](b.md)\n",
			"- [Testing](t.md) — go test -race; needs `docker compose up` first; CI runs with -count=1\n- [B](b.md)\n", 0, nil},
		{"wrapped", "- [A](a.md) — the first half of a long\n    sentence, wrapped\n", "- [A](a.md) — the first half of a long sentence, wrapped\n", 0, nil},
		{"after punctuation", "- [A](a.md) — steps:\n  1. build\n  2) push\n", "- [A](a.md) — steps: build; push\n", 0, nil},
		{"no hook", "- [A](a.md)\n  what it says\n", "- [A](a.md) — what it says\n", 0, nil},
		{"no hook, the index's separator", "- [X](x.md): x\n- [A](a.md)\n  what it says\n", "- [X](x.md): x\n- [A](a.md): what it says\n", 0, nil},
		{"a separator and nothing after", "- [A](a.md) —\n  what it says\n", "- [A](a.md) — what it says\n", 0, nil},
		{"links kept", "- [A](a.md) — see\n  [B](b.md) too\n", "- [A](a.md) — see [B](b.md) too\n", 0, nil},
		{"task box kept", "- [A](a.md) — todo\n  - [ ] ship it\n", "- [A](a.md) — todo; [ ] ship it\n", 0, nil},
		{"crlf", "- [A](a.md) — a\r\n  more\r\n- [B](b.md)\r\n", "- [A](a.md) — a more\r\n- [B](b.md)\r\n", 0, nil},
		{"prose", "See [A](a.md) for the\n  details of it\n", "See [A](a.md) for the details of it\n", 0, nil},
		{"too long", "- [A](a.md) — " + strings.Repeat("x", 20) + "\n  " + strings.Repeat("y", 20) + "\n",
			"- [A](a.md) — " + strings.Repeat("x", 20) + "\n  " + strings.Repeat("y", 20) + "\n", 40, ErrTooLong},
		// Joined, the open backtick would make a code span of the link.
		{"a link swallowed", "- [A](a.md) — see `x\n  [B](b.md) `\n", "- [A](a.md) — see `x\n  [B](b.md) `\n", 0, ErrHides},
		{"one line already", "- [A](a.md) — a\n", "- [A](a.md) — a\n", 0, ErrNoChange},
		{"not an entry", "# A\n", "# A\n", 0, ErrNotEntry},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := NewEditor([]byte(c.in))
			row := e.FindRow("a.md")
			if row < 0 {
				row = e.FindRow("t.md")
			}
			if row < 0 {
				row = 0
			}
			lines := e.Budget().Lines
			res, err := e.JoinHanging([]int{row}, c.max)
			if len(res) != 1 || !errors.Is(res[0].Err, c.err) {
				t.Fatalf("result %+v (%v), want %v", res, err, c.err)
			}
			if got := string(e.Bytes()); got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			if c.err != nil {
				if !errors.Is(err, ErrNoChange) || e.CanUndo() {
					t.Errorf("nothing joined must be no step: %v", err)
				}
				return
			}
			if res[0].Lines != strings.Count(c.in, "\n")-strings.Count(c.want, "\n") || lines-e.Budget().Lines != res[0].Lines {
				t.Errorf("joined %d lines, %d fewer counted", res[0].Lines, lines-e.Budget().Lines)
			}
			if e.Undo() != nil || string(e.Bytes()) != c.in {
				t.Errorf("one undo must give the file back")
			}
		})
	}
}

// JoinHanging over many rows is one step; an entry too long stays as it
// is and says how long it would have been, one that would lose a link
// stays too, the others join.
func TestJoinHangingMany(t *testing.T) {
	in := "# I\n- [A](a.md) — a\n  more a\n- [B](b.md) — " + strings.Repeat("b", 190) + "\n  more b\n- [C](c.md) — c\n  - more c\n- [D](d.md) — `x\n  [E](e.md) `\n"
	e := NewEditor([]byte(in))
	rows := []int{e.FindRow("a.md"), e.FindRow("b.md"), e.FindRow("c.md"), 0, e.FindRow("d.md")}
	res, err := e.JoinHanging(rows, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Lines != 1 || res[2].Lines != 1 || !errors.Is(res[1].Err, ErrTooLong) || res[1].Chars <= EntryHardMaxChars ||
		!errors.Is(res[3].Err, ErrNotEntry) || !errors.Is(res[4].Err, ErrHides) {
		t.Fatalf("results %+v", res)
	}
	want := "# I\n- [A](a.md) — a more a\n- [B](b.md) — " + strings.Repeat("b", 190) + "\n  more b\n- [C](c.md) — c; more c\n- [D](d.md) — `x\n  [E](e.md) `\n"
	if got := string(e.Bytes()); got != want {
		t.Fatalf("got\n%q", got)
	}
	if e.Undo() != nil || string(e.Bytes()) != in || e.CanUndo() {
		t.Error("the joins must be one step")
	}
}

// Replace puts a whole index in as one step over an empty one: Undo
// empties it again, Redo brings it back, and the editor reads its rows.
func TestReplace(t *testing.T) {
	e := NewEditor(nil)
	idx := "## User\n\n- [Shell](user_shell.md) — zsh\n  with starship\n"
	if err := e.Replace([]byte(idx)); err != nil {
		t.Fatal(err)
	}
	if string(e.Bytes()) != idx || !e.Modified() || e.FindRow("user_shell.md") != 2 || e.Rows()[2].Lines != 2 {
		t.Fatalf("replaced: %q, rows %+v", e.Bytes(), e.Rows())
	}
	if err := e.Replace([]byte(idx)); !errors.Is(err, ErrNoChange) {
		t.Errorf("the same bytes again: %v", err)
	}
	if e.Undo() != nil || len(e.Bytes()) != 0 || e.Modified() {
		t.Error("undo must empty it")
	}
	if e.Redo() != nil || string(e.Bytes()) != idx {
		t.Error("redo must bring it back")
	}
}
