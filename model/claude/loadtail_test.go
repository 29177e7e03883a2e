package claude

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestLoadIndexTail: a subagent's index read in part, with the rest
// counted as it streams past, measures and warns exactly as the whole file
// does, wherever the read stops (inside a CJK character, an emoji, a
// CRLF, a trailing run of spaces) and whatever the rest is (more entries,
// only whitespace).
func TestLoadIndexTail(t *testing.T) {
	var b strings.Builder
	b.WriteString("  \n<!-- kept raw -->\n")
	for i := 0; b.Len() < 300_000; i++ {
		switch i % 3 {
		case 0:
			b.WriteString("- [記憶](m.md) — 説明の文章 😀\r\n")
		case 1:
			b.WriteString("- [Entry](e.md) — plain text\u2028more\n")
		default:
			b.WriteString("\t \n")
		}
	}
	body := b.String()
	for _, whole := range []string{body, body + "  \n\t\u3000\n", body + "- [Last](l.md) — end\n\n  "} {
		want := SimulateLoadMode([]byte(whole), model.LoadAgent)
		for _, n := range []int{150_001, 150_002, 150_003, 200_000, 250_017, len(body) - 1, len(body)} {
			head := []byte(whole[:n])
			cut := IndexHeadCut(head)
			if n-cut > 3 || cut > n {
				t.Fatalf("IndexHeadCut(%d bytes) = %d", n, cut)
			}
			tail, err := CountIndexTail(bytes.NewReader([]byte(whole[cut:])))
			if err != nil {
				t.Fatal(err)
			}
			got := LoadIndex(&model.File{Content: head, Truncated: true, Tail: &tail}, model.LoadAgent)
			if got.LineCount != want.LineCount || got.Units != want.Units || got.Text != want.Text || got.Warning != want.Warning ||
				got.LineTruncated != want.LineTruncated || got.SizeTruncated != want.SizeTruncated || got.Empty != want.Empty {
				t.Errorf("read %d of %d bytes (tail blank %v): lines %d units %d, want %d %d\n warning %q\n want    %q",
					n, len(whole), tail.Blank, got.LineCount, got.Units, want.LineCount, want.Units, got.Warning, want.Warning)
			}
		}
	}
	// Without a tail, or for MEMORY.md's own pipeline, LoadIndex is
	// SimulateLoadMode of what was read.
	f := &model.File{Content: []byte("- [A](a.md)\n")}
	if LoadIndex(f, model.LoadAgent).Text != SimulateLoadMode(f.Content, model.LoadAgent).Text {
		t.Error("LoadIndex without a tail differs")
	}
}

func TestIndexHeadCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0}, {"ab", 2}, {"a記", 4}, {"a記"[:3], 1}, {"a記"[:2], 1}, {"a😀", 5}, {"a😀"[:4], 1}, {"a\xff", 2}, {"a\x80", 2},
	} {
		if got := IndexHeadCut([]byte(c.s)); got != c.want {
			t.Errorf("IndexHeadCut(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
