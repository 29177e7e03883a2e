package memindex

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testgen"
)

// FuzzParseIndex checks that Parse never panics, keeps every byte,
// and returns references that point into their lines.
func FuzzParseIndex(f *testing.F) {
	for _, s := range testgen.IndexSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		ix := Parse(content)
		if !bytes.Equal(ix.Bytes(), content) {
			t.Fatalf("round trip lost bytes")
		}
		if !reflect.DeepEqual(ParseText(string(content)), ix) {
			t.Fatalf("ParseText differs from Parse")
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

func BenchmarkParseIndex(b *testing.B) {
	in := testgen.BenchIndex(false)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse(in)
	}
}

// TestAdversarialInputs runs the shapes that are quadratic in naive
// parsers at a size where such a parser would not finish within go
// test's timeout: the index must round-trip byte for byte. Speed is
// BenchmarkAdversarialInputs's.
func TestAdversarialInputs(t *testing.T) {
	for name, in := range testgen.AdversarialIndexes(40000) {
		ix := Parse([]byte(in))
		if !bytes.Equal(ix.Bytes(), []byte(in)) {
			t.Errorf("%s: the index does not round-trip byte for byte", name)
		}
	}
}

// BenchmarkAdversarialInputs times each shape at n and 2n: linear code
// doubles, quadratic code quadruples.
func BenchmarkAdversarialInputs(b *testing.B) {
	for _, n := range []int{20000, 40000} {
		for name, in := range testgen.AdversarialIndexes(n) {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for i := 0; i < b.N; i++ {
					Parse([]byte(in))
				}
			})
		}
	}
}
