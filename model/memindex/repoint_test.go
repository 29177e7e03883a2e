package memindex

import (
	"errors"
	"testing"
)

// TestRetarget: each kind of reference is written anew to lead to the new
// path, by the rules an entry's link is written with: a blank or a
// parenthesis puts the destination in angle brackets, a text that was the
// old file's name becomes the new one (escaped), a title and an anchor
// stay, a link naming the memory dir absolutely keeps doing so.
func TestRetarget(t *testing.T) {
	for _, c := range []struct{ line, to, want string }{
		{"- [Old](old.md) — hook", "keep.md", "- [Old](keep.md) — hook"},
		{"- [old.md](old.md) — hook", "keep.md", "- [keep.md](keep.md) — hook"},
		{"- [old](old.md) — hook", "keep.md", "- [old](keep.md) — hook"},
		{`- [Old](old.md "the title") — hook`, "keep.md", `- [Old](keep.md "the title") — hook`},
		{"- [Old](<my old.md>) — hook", "keep.md", "- [Old](keep.md) — hook"},
		{"- [Old](old.md) — hook", "my notes (v2).md", "- [Old](<my notes (v2).md>) — hook"},
		{"- [old.md](old.md) — hook", "a[1].md", `- [a\[1\].md](a[1].md) — hook`},
		{"- [Old](/home/u/mem/old.md) — hook", "keep.md", "- [Old](/home/u/mem/keep.md) — hook"},
		{"- `old.md` — hook", ".archive/old.md", "- `.archive/old.md` — hook"},
		{"- [[old|Old one]] — hook", "keep", "- [[keep|Old one]] — hook"},
		{"- [[old]] — hook", ".archive/old", "- [[.archive/old]] — hook"},
	} {
		ix := ParseText(c.line)
		if len(ix.Lines) != 1 || len(ix.Lines[0].Refs) == 0 {
			t.Fatalf("%q: no reference parsed", c.line)
		}
		n, changed := Repoint(&ix, nil, func(r Ref) (string, bool) { return Retarget(r, c.to, "/home/u/mem") })
		if got := string(ix.Bytes()); n != 1 || !changed || got != c.want {
			t.Errorf("%q to %q:\n got %q (%d rewritten)\nwant %q", c.line, c.to, got, n, c.want)
		}
		// What was written parses back to the new target.
		back := ParseText(string(ix.Bytes()))
		if r := back.Lines[0].Refs[0]; r.Kind != RefWiki && r.Target != c.to && r.Target != "/home/u/mem/"+c.to {
			t.Errorf("%q: the rewritten reference reads as %q, want %q", c.line, r.Target, c.to)
		}
	}
}

// TestRepointSkipsLinesAndOtherRefs: a skipped line and a reference newRef
// leaves alone are not touched; two references on one line both move.
func TestRepointSkipsLinesAndOtherRefs(t *testing.T) {
	ix := Parse([]byte("- [A](old.md) and [B](old.md)\n- [C](old.md)\n- [D](other.md)\n"))
	n, changed := Repoint(&ix, map[int]bool{1: true}, func(r Ref) (string, bool) {
		if r.Target != "old.md" {
			return "", false
		}
		return Retarget(r, "new.md", "")
	})
	want := "- [A](new.md) and [B](new.md)\n- [C](old.md)\n- [D](other.md)\n"
	if got := string(ix.Bytes()); n != 2 || !changed || got != want {
		t.Errorf("got %q (%d), want %q", got, n, want)
	}
}

// TestEditorRepoint: the editor repoints as one step on lists, tables and
// wikilinks, continuation lines included; undo brings the bytes back; a
// repoint that changes nothing is ErrNoChange.
func TestEditorRepoint(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"list":  {"# I\n- [A](a.md) — about a\n  see also [B](b.md)\n- [B](b.md) — about b\n", "# I\n- [A](a.md) — about a\n  see also [B](keep.md)\n- [B](keep.md) — about b\n"},
		"table": {"| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n", "| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `keep.md` | about b |\n"},
		"wiki":  {"- [[a]] — who\n- [[b|Bee]] — tabs\n", "- [[a]] — who\n- [[keep|Bee]] — tabs\n"},
	} {
		e := NewEditor([]byte(c.in))
		n, err := e.Repoint(func(r Ref) (string, bool) {
			if r.Target != "b.md" && r.Target != "b" {
				return "", false
			}
			to := "keep.md"
			if r.Kind == RefWiki {
				to = "keep"
			}
			return Retarget(r, to, "")
		})
		if err != nil || string(e.Bytes()) != c.want {
			t.Errorf("%s: %v\n got %q\nwant %q", name, err, e.Bytes(), c.want)
			continue
		}
		if n == 0 {
			t.Errorf("%s: no reference counted", name)
		}
		if err := e.Undo(); err != nil || string(e.Bytes()) != c.in {
			t.Errorf("%s: undo must bring the bytes back: %v\n%q", name, err, e.Bytes())
		}
		if _, err := e.Repoint(func(Ref) (string, bool) { return "", false }); !errors.Is(err, ErrNoChange) {
			t.Errorf("%s: a repoint that changes nothing: %v, want ErrNoChange", name, err)
		}
	}
}

// TestEditorRepointRefusesHiding: a new form that would swallow the
// line's other reference into a code span is refused whole, nothing
// changed; one with a line break in it is no reference and is not
// written.
func TestEditorRepointRefusesHiding(t *testing.T) {
	in := "- [A](a.md) and [B](b.md) `x`\n- [C](c.md) — about c\n"
	e := NewEditor([]byte(in))
	_, err := e.Repoint(func(r Ref) (string, bool) {
		if r.Target != "a.md" {
			return "", false
		}
		return "`[A](a.md)", true
	})
	if !errors.Is(err, ErrHides) || string(e.Bytes()) != in {
		t.Errorf("got %v and %q; want ErrHides and the index unchanged", err, e.Bytes())
	}
	_, err = e.Repoint(func(r Ref) (string, bool) {
		if r.Target != "c.md" {
			return "", false
		}
		return "[C](c.md)\n```", true
	})
	if !errors.Is(err, ErrNoChange) || string(e.Bytes()) != in {
		t.Errorf("got %v and %q; want ErrNoChange and the index unchanged", err, e.Bytes())
	}
}

// TestRemoveEntries: every entry pointing at the file goes, as a link, a
// code span or a wikilink by the file's name, with its continuation lines
// and without leaving two blank lines; other entries stay byte for byte;
// undo brings them back; none pointing there is ErrNoChange.
func TestRemoveEntries(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"list":  {"# I\n\n- [A](a.md) — about a\n  more about a\n\n- [B](b.md) — b\n\n- [A again](./a.md) — dup\n", "# I\n\n- [B](b.md) — b\n"},
		"table": {"| File | Hook |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n", "| File | Hook |\n|---|---|\n| `b.md` | about b |\n"},
		"wiki":  {"- [[a]] — who\n- [[b|Bee]] — tabs\n", "- [[b|Bee]] — tabs\n"},
	} {
		e := NewEditor([]byte(c.in))
		n, err := e.RemoveEntries("a.md")
		if err != nil || n == 0 || string(e.Bytes()) != c.want {
			t.Errorf("%s: %d, %v\n got %q\nwant %q", name, n, err, e.Bytes(), c.want)
			continue
		}
		if err := e.Undo(); err != nil || string(e.Bytes()) != c.in {
			t.Errorf("%s: undo: %v %q", name, err, e.Bytes())
		}
		if _, err := e.RemoveEntries("zzz.md"); !errors.Is(err, ErrNoChange) {
			t.Errorf("%s: no entry there: %v, want ErrNoChange", name, err)
		}
	}
}
