package consolidate

import (
	"errors"
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
