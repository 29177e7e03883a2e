package model

import (
	"testing"
	"time"
)

// TestBaselineMarksPartialTexts: a file memtui read only in part is kept
// in part and marked so (a revert must not put the part back as the
// file); a file read whole is not marked.
func TestBaselineMarksPartialTexts(t *testing.T) {
	d := &MemoryDir{Path: "/m", Index: &File{Path: "MEMORY.md", Content: []byte("# Memory\n")},
		Files: []*File{{Path: "big.md", Content: []byte("the first part"), Truncated: true}, {Path: "small.md", Content: []byte("whole\n")}}}
	b := NewBaseline(d, time.Now(), func(b []byte) string { return string(b) })
	if !b.Files["big.md"].Partial || b.Files["small.md"].Partial || b.Files["MEMORY.md"].Partial {
		t.Errorf("partial marks: %+v", b.Files)
	}
}
