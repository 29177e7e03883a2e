package consolidate

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestLineOf checks lineOf's counting, with the questions in order, out of
// order (past the point where it builds the table) and out of range,
// against counting the newlines before the offset.
func TestLineOf(t *testing.T) {
	text := "a\n\nbc\nd\n\n\nefg\nh"
	want := func(off int) int {
		if off < 0 {
			return 0
		}
		return 1 + strings.Count(text[:min(off, len(text))], "\n")
	}
	fs := newFileState(&model.File{Path: "x.md", Content: []byte(text)})
	var offs []int
	for off := -1; off <= len(text)+2; off++ {
		offs = append(offs, off)
	}
	for i := len(offs) - 1; i >= 0; i-- {
		offs = append(offs, offs[i], offs[(i*7)%len(offs)])
	}
	for _, off := range offs {
		if got := fs.lineOf(off); got != want(off) {
			t.Fatalf("lineOf(%d) = %d, want %d (table built: %v)", off, got, want(off), fs.lines != nil)
		}
	}
	if fs.lines == nil {
		t.Fatal("questions going back never built the table")
	}
}
