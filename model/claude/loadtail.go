package claude

import (
	"errors"
	"io"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// IndexHeadCut is where the tail of an index read in part starts: the
// end of head, less an incomplete UTF-8 sequence it may end in (the read
// cut through a character, which the tail then decodes whole).
func IndexHeadCut(head []byte) int {
	for k := 1; k <= utf8.UTFMax-1 && k <= len(head); k++ {
		c := head[len(head)-k]
		if c < utf8.RuneSelf {
			return len(head)
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(head[len(head)-k:]) {
				return len(head)
			}
			return len(head) - k
		}
	}
	return len(head)
}

// CountIndexTail counts r, the rest of an index from IndexHeadCut of what
// was read, as Node decodes and trims it. It reads r to its end in
// chunks, so a file of any size costs constant memory.
func CountIndexTail(r io.Reader) (model.IndexTail, error) {
	t := model.IndexTail{Blank: true}
	var units, newlines, spaceUnits, spaceNewlines int
	buf := make([]byte, 64<<10)
	carry := 0
	for {
		n, err := r.Read(buf[carry:])
		n += carry
		eof := errors.Is(err, io.EOF)
		if err != nil && !eof {
			return t, err
		}
		i := 0
		for i < n {
			if !eof && n-i < utf8.UTFMax && !utf8.FullRune(buf[i:n]) {
				break // decode it whole with the next read
			}
			c, sz := jsDecode(buf[:n], i)
			w := 1
			if c >= 0x10000 {
				w = 2
			}
			units += w
			if c == '\n' {
				newlines++
			}
			if jsSpace(c) {
				spaceUnits += w
				if c == '\n' {
					spaceNewlines++
				}
			} else {
				t.Blank, spaceUnits, spaceNewlines = false, 0, 0
			}
			i += sz
		}
		carry = copy(buf, buf[i:n])
		if eof {
			break
		}
	}
	t.Units, t.Newlines = units-spaceUnits, newlines-spaceNewlines
	return t, nil
}

// LoadIndex is SimulateLoadMode of an index file as memtui read it: for
// a subagent's index read in part (f.Tail set), with the counts of the
// rest added, as Claude Code measures the whole file.
func LoadIndex(f *model.File, mode model.LoadMode) Load {
	if f.Tail == nil || mode != model.LoadAgent {
		return SimulateLoadMode(f.Content, mode)
	}
	return simulateLoad(f.Content[:IndexHeadCut(f.Content)], mode, f.Tail)
}

// tailTrim is the trimmed text of a head followed by tail: the leading
// trim is the head's; the trailing one reaches into the head only when
// there is no tail, or a blank one.
func tailTrim(body []byte, tail *model.IndexTail) (a, b int) {
	a, b = jsTrimBounds(body)
	if tail != nil && !tail.Blank {
		b = len(body)
	}
	return a, b
}
