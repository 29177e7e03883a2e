package codex

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// FuzzLoad: whatever the file, the loaded text is the trimmed file when
// within the cap, else its first and last bytes around the marker, never
// more than 5,000 of each, never a split character of a valid text; and
// the parsers never panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(summaryOf(20, "")))
	f.Add([]byte(strings.Repeat("€", 4000)))
	f.Add([]byte(goodHandbook))
	f.Fuzz(func(t *testing.T, b []byte) {
		l := Load(b)
		ParseSummary(b)
		ParseHandbook(b)
		Projects(&Store{Home: "/h/.codex", Files: []*model.File{{Path: HandbookFile, Content: b}, {Path: SummaryFile, Content: b}}})
		t2 := strings.TrimSpace(string(b))
		if !l.Cut {
			if l.Text != t2 {
				t.Fatalf("uncut text differs from the trimmed file")
			}
			return
		}
		if l.CutFrom > SummaryByteLimit/2 || len(t2)-l.CutTo > SummaryByteLimit/2 || l.CutTo < l.CutFrom {
			t.Fatalf("cut %d-%d of %d", l.CutFrom, l.CutTo, len(t2))
		}
		if l.Text != t2[:l.CutFrom]+l.Marker+t2[l.CutTo:] {
			t.Fatalf("the text is not head, marker, tail")
		}
		if utf8.ValidString(t2) && !utf8.ValidString(l.Text) {
			t.Fatalf("a character was split")
		}
	})
}
