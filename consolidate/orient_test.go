package consolidate

import (
	"errors"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

func TestOrientLoadsEachDirAndDropsContent(t *testing.T) {
	f := mem("a.md", topic("a", "b", "decision", body), testNow)
	loaded := &model.MemoryDir{Path: "/ok", Exists: true}
	broken := &model.MemoryDir{Path: "/broken", Exists: true}
	scan := &model.Scan{Projects: []*model.Project{{Slug: "p", Dirs: []*model.MemoryDir{loaded, broken}}}}
	load := func(d *model.MemoryDir) error {
		if d == broken {
			return errors.New("permission denied")
		}
		d.Files = []*model.File{f}
		d.Index = goodIndex(f)
		return nil
	}
	got := Orient(scan, Options{Now: testNow, Load: load, DropContent: true})
	if n := len(only(got, RuleTypeInvalid)); n != 1 {
		t.Errorf("the loaded dir was not checked: %+v", got)
	}
	un := only(got, RuleFileUnreadable)
	if len(un) != 1 || un[0].MemoryDir != "/broken" {
		t.Errorf("a load error must become a finding on its dir: %+v", un)
	}
	if f.Content != nil || loaded.Index.Content != nil {
		t.Error("DropContent kept the contents")
	}
	if len(loaded.Files) != 1 {
		t.Error("DropContent must keep the file list (the summary counts it)")
	}
}

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
