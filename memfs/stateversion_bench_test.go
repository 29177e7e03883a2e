package memfs

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// BenchmarkSaveBaseline is one review's save of a 300-file baseline (4 KB
// each), the file there read back whole first (SaveBaseline's check that
// it is not a newer memtui's, nor unreadable).
func BenchmarkSaveBaseline(b *testing.B) {
	root := b.TempDir()
	bl := &model.Baseline{Dir: stateDir, Time: time.Now(), Files: map[string]model.BaselineFile{}}
	for i := range 300 {
		bl.Files[fmt.Sprintf("m%03d.md", i)] = model.BaselineFile{SHA256: strings.Repeat("a", 64), Text: strings.Repeat(fmt.Sprintf("line %d of a memory\n", i), 200)}
	}
	if err := SaveBaseline(root, bl); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := SaveBaseline(root, bl); err != nil {
			b.Fatal(err)
		}
	}
}
