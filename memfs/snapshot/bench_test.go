package snapshot

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// benchDir is a memory dir of n topic files of about 1.5 KiB (a
// frontmatter and a few paragraphs, as real memories run) and its index.
func benchDir(b *testing.B, n int) *model.MemoryDir {
	b.Helper()
	files := map[string]string{}
	var index strings.Builder
	for i := range n {
		name := fmt.Sprintf("topic_%04d.md", i)
		body := strings.Repeat(fmt.Sprintf("Memory %d: the build runs with make check before a push; see the runbook. ", i), 18)
		files[name] = "---\nname: topic " + strconv.Itoa(i) + "\ndescription: a memory\ntype: project\n---\n" + body + "\n"
		fmt.Fprintf(&index, "- [Topic %d](%s) — a memory\n", i, name)
	}
	files["MEMORY.md"] = index.String()
	return memDir(b, files)
}

// BenchmarkSnapshot measures a take of one memory dir of 300 and of 3000
// files: the first (every file read, hashed, redacted and stored), one
// over the unchanged dir (a listing and an lstat per file, no read, no
// write), and one after a single file changed (one read, one new record).
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{300, 3000} {
		d := benchDir(b, n)
		b.Run(fmt.Sprintf("files=%d/first", n), func(b *testing.B) {
			base := b.TempDir()
			i := 0
			for b.Loop() {
				s := newStore(b)
				s.Root = filepath.Join(base, strconv.Itoa(i))
				i++
				take(b, s, t0, d)
			}
		})
		b.Run(fmt.Sprintf("files=%d/unchanged", n), func(b *testing.B) {
			s := newStore(b)
			take(b, s, t0, d)
			for b.Loop() {
				if res := take(b, s, t0.Add(time.Minute), d); res.Read != 0 || len(res.Recorded) != 0 {
					b.Fatalf("an unchanged dir: %+v", res)
				}
			}
		})
		b.Run(fmt.Sprintf("files=%d/one-changed", n), func(b *testing.B) {
			s := newStore(b)
			take(b, s, t0, d)
			p := filepath.Join(d.Path, "topic_0000.md")
			i := 0
			for b.Loop() {
				i++
				testfs.Touch(b, p, t0.Add(time.Duration(i)*time.Second))
				if res := take(b, s, t0.Add(time.Duration(i)*time.Minute), d); res.Read != 1 || len(res.Recorded) != 1 {
					b.Fatalf("one changed file: %+v", res)
				}
			}
		})
	}
}
