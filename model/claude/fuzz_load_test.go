package claude

import (
	"bytes"
	"fmt"
	"github.com/memtui/memtui/internal/testgen"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// FuzzSimulateLoad checks the invariants of the load pipeline: never more
// than 200 lines or 25,000 units loaded, the trimmed text whole when nothing
// is cut, and dropped lines sorted, unique and inside the file.
func FuzzSimulateLoad(f *testing.F) {
	for _, s := range testgen.IndexSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("- [E](e.md) — hook\n", 230)))
	f.Add([]byte(strings.Repeat("x", 25001)))
	f.Add([]byte(strings.Repeat("a", 24999) + "😀"))
	f.Add([]byte("<!-- c -->\r\n" + strings.Repeat("y\r\n", 205)))
	f.Add([]byte("\ufeff---\nname: x\n---\n<system-reminder>\u2028\u200b\r" + strings.Repeat("z\n", 201)))
	f.Fuzz(func(t *testing.T, content []byte) {
		for _, mode := range []model.LoadMode{model.LoadAuto, model.LoadAgent} {
			checkLoadInvariants(t, content, SimulateLoadMode(content, mode))
		}
	})
}

// checkLoadInvariants checks one load of content.
func checkLoadInvariants(t *testing.T, content []byte, ld Load) {
	t.Helper()
	if ld.LoadedLines > model.IndexMaxLines || ld.LoadedUnits > model.IndexMaxUnits {
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

// TestAdversarialInputs runs the adversarial shapes at a size where a
// quadratic parser would not finish within go test's timeout, and checks
// the load invariants hold. Speed itself is measured by
// BenchmarkAdversarialInputs, not asserted here.
func TestAdversarialInputs(t *testing.T) {
	for name, in := range testgen.AdversarialIndexes(40000) {
		l := SimulateLoad([]byte(in))
		if l.LoadedLines > model.IndexMaxLines || l.LoadedUnits > model.IndexMaxUnits {
			t.Errorf("%s: loaded %d lines, %d units: past the caps", name, l.LoadedLines, l.LoadedUnits)
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
					SimulateLoad([]byte(in))
				}
			})
		}
	}
}

func BenchmarkSimulateLoad(b *testing.B) {
	for _, comment := range []bool{false, true} {
		in := testgen.BenchIndex(comment)
		b.Run(fmt.Sprintf("comment=%v", comment), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				SimulateLoad(in)
			}
		})
	}
}
