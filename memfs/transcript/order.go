package transcript

import (
	"hash/fnv"
)

// A tool result can be written to the transcript before its call: in
// 2.1.119-2.1.146 the user line with a tool_result sometimes precedes the
// assistant line with its tool_use, by one or two lines mostly and by 21
// at most (transcripts §9.3). Only the file order is wrong, so the two are
// joined by id whichever comes first.
//
// A result whose call has not been seen is not decoded (most results
// belong to calls on other files, and their lines are most of a
// transcript's bytes): its place is kept instead, in a ring of the last
// maxOrphans such results per file, and when a call on a memory file comes
// its line is read again and handled as its result. The ring is part of
// the file's state, so a read resumed from the cache pairs a result from
// before the resume point as a cold read does. An entry is dropped when its
// call takes it, and a line has at most maxOrphansPerLine entries, so the
// extra reading is bounded by a few times the file's own size.

// maxOrphans bounds the unpaired results remembered per file: a result
// comes at most 21 lines before its call (§9.3), and lines in between are
// not all results.
const maxOrphans = 64

// maxOrphansPerLine bounds the results of one line remembered: each is
// read again for its call, so a line of many results must not be read
// many times over (a response's parallel calls have a few results).
const maxOrphansPerLine = 4

// orphanResult is a tool result met before its call: where its line is.
type orphanResult struct {
	ID   uint64 // hash of the tool_use id (a collision only costs a decode)
	Off  int64  // file offset of the line
	Len  int
	Line int // 1-based line number
}

func idHash(id []byte) uint64 {
	h := fnv.New64a()
	h.Write(id)
	return h.Sum64()
}

// orphan remembers the result line at off (n bytes, line lineNo) for the
// call with this id, dropping the oldest one past maxOrphans.
func (x *extractor) orphan(id []byte, off int64, n, lineNo int) {
	if len(id) == 0 || n <= 0 {
		return
	}
	rs := x.st.Orphans
	same := 0
	for i := len(rs) - 1; i >= 0 && rs[i].Off == off; i-- {
		same++
	}
	if same >= maxOrphansPerLine {
		return
	}
	if len(rs) >= maxOrphans {
		rs = append(rs[:0], rs[len(rs)-maxOrphans+1:]...)
	}
	x.st.Orphans = append(rs, orphanResult{ID: idHash(id), Off: off, Len: n, Line: lineNo})
}

// pairOrphan handles a remembered result of the call id just seen, if
// there is one: the line is taken from the buffer when still there, else
// read again from the file.
func (x *extractor) pairOrphan(id string) {
	h := idHash([]byte(id))
	for i := len(x.st.Orphans) - 1; i >= 0; i-- {
		o := x.st.Orphans[i]
		if o.ID != h {
			continue
		}
		x.st.Orphans = append(x.st.Orphans[:i], x.st.Orphans[i+1:]...)
		line := x.run.lineAt(o.Off, o.Len)
		if line == nil {
			return
		}
		off, n := x.lineOff, x.lineLen
		x.only = id
		x.handle(line, o.Line)
		x.only, x.lineOff, x.lineLen = "", off, n
		return
	}
}

// lineAt returns the n bytes at file offset off: from the buffer when it
// still holds them, else read from the file (nil if that fails).
func (r *scanRun) lineAt(off int64, n int) []byte {
	if n <= 0 || n > r.maxLine {
		return nil
	}
	if off >= r.base && off+int64(n) <= r.base+int64(r.filled) {
		return r.buf[off-r.base : off-r.base+int64(n)]
	}
	b := make([]byte, n)
	if m, _ := r.f.ReadAt(b, off); m < n {
		return nil
	}
	return b
}
