package transcript

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// fileState is what scanning one transcript leaves behind, kept in the
// cache between calls: where the scan stopped, and the events it found
// (before cross-file dedupe).
type fileState struct {
	Path    string
	Size    int64
	ModTime int64 // UnixNano
	// Offset is how many bytes were consumed: every complete line. A final
	// line without '\n' is not consumed (transcripts §5.2).
	Offset int64
	// Lines is how many lines Offset covers (line numbers go on from it).
	Lines int
	// Tail is a hash of the last TailLen bytes before Offset: if they
	// still hash the same when the file has grown, the file was appended
	// to and reading can go on from Offset; otherwise it was rewritten
	// (a tombstone, §1.2) and is read again from the start.
	Tail    uint64
	TailLen int

	Meta    fileMeta
	Writes  []keyedWrite
	Obs     []keyedObs
	Pending []*pendingUse // tool calls still waiting for their result
	// Orphans are results met before their calls (order.go).
	Orphans  []orphanResult
	Problems []model.TranscriptProblem
	// Seq counts the events ever found in the file: each event's place in
	// it, which orders events of one time and file (see evKey). It goes on
	// across resumed reads, and events trimmed away keep their numbers.
	Seq int64

	// failed marks a file that could not be read: it is not cached, so the
	// next call tries again.
	failed bool
}

// fileMeta is what a transcript says about its session.
type fileMeta struct {
	// HasFirst is set once the first message line (the first line with a
	// cwd) has been seen; SessionID..Start come from it.
	HasFirst  bool
	SessionID string
	Cwd       string
	Branch    string
	Version   string
	Start     time.Time
	// First is the earliest timestamp seen: the first line's, or an older
	// one on a decoded line (fork copies and legacy lines can be older).
	// Last is the latest.
	First, Last time.Time
	// The last title of each kind (titles can be renamed).
	CustomTitle, AITitle, Summary string
}

const (
	// tailHashLen is how much of the consumed end is hashed to tell an
	// append from a rewrite.
	tailHashLen = 4 << 10
	// tinyLine bounds the lines checked for title keys beyond the
	// line-start test: title lines are tiny, and checking every byte of
	// the others for more keys would cost as much as the memory needles.
	tinyLine = 512
	// idWatchBytes is how far past a tool call its id is searched for: a
	// result follows its call within a few lines. A result further away
	// is still paired when its line names the memory dir (every Write,
	// Edit and main-thread Read result does).
	idWatchBytes = 16 << 20
	// lastLines is how many lines before the end are tried for the last
	// timestamp (metadata lines at the end of a file carry none).
	lastLines = 64
	// tsLineMax bounds the lines searched for a bare timestamp.
	tsLineMax = 64 << 10
)

// scanner scans transcripts one after another, reusing its buffer.
type scanner struct {
	mem  *memMatcher
	keep *keeper
	opts Options
	buf  []byte
}

func newScanner(mem *memMatcher, keep *keeper, opts Options) *scanner {
	return &scanner{mem: mem, keep: keep, opts: opts}
}

// scan brings the state of tf up to date, from prev where the file was
// only appended to since, from the start otherwise. It returns the new
// state and the bytes read.
func (sc *scanner) scan(ctx context.Context, tf transcriptFile, prev *fileState) (*fileState, int64) {
	if sc.opts.onOpen != nil {
		sc.opts.onOpen(tf.path)
	}
	f, err := memfs.OpenRegular(tf.path)
	if err != nil {
		return failedState(tf.path, err), 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return failedState(tf.path, err), 0
	}
	if cap(sc.buf) != tlogChunk {
		sc.buf = make([]byte, tlogChunk) // drop a buffer grown for a long line
	}
	r := &scanRun{sc: sc, f: f, buf: sc.buf[:tlogChunk], maxLine: sc.opts.maxLine}
	st, tail, read := resumeState(f, prev, fi.Size())
	st.Path, st.Size, st.ModTime = tf.path, fi.Size(), fi.ModTime().UnixNano()
	r.st, r.tail, r.read = st, tail, read
	r.x = newExtractor(sc.mem, tf, st, r)
	if _, err := f.Seek(st.Offset, io.SeekStart); err != nil {
		return failedState(tf.path, err), read
	}
	r.base = st.Offset
	r.run(ctx)
	if r.err != nil {
		st.Problems = append(st.Problems, problem(tf.path, "could not be read past byte %d: %v", st.Offset, memfs.UnwrapPathErr(r.err)))
	}
	if cap(r.buf) == tlogChunk {
		sc.buf = r.buf
	}
	return st, r.read
}

// failedState is the state of a file that could not be read. A file gone
// since the listing is no problem: Claude Code deletes old transcripts.
func failedState(path string, err error) *fileState {
	st := &fileState{Path: path, failed: true}
	if !errors.Is(err, fs.ErrNotExist) {
		st.addProblem("could not be read: %v", memfs.UnwrapPathErr(err))
	}
	return st
}

// resumeState returns the state to go on from: prev when the bytes before
// its offset are unchanged, else a fresh one. It also returns those bytes
// (the running tail) and how many bytes checking them read.
func resumeState(f *os.File, prev *fileState, size int64) (*fileState, []byte, int64) {
	// A cache that decodes but says nonsense (a tail longer than what
	// precedes it, or than any tail memtui keeps) means a fresh scan.
	if prev == nil || prev.failed || prev.Offset == 0 || size < prev.Offset ||
		prev.TailLen < 0 || int64(prev.TailLen) > prev.Offset || prev.TailLen > 1<<20 {
		return &fileState{}, nil, 0
	}
	tail := make([]byte, prev.TailLen)
	n, err := f.ReadAt(tail, prev.Offset-int64(prev.TailLen))
	if err != nil && n < len(tail) || hashBytes(tail) != prev.Tail {
		return &fileState{}, nil, int64(n)
	}
	return prev, tail, int64(n)
}

func hashBytes(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// scanRun is one pass over one file. buf[pos:filled] holds bytes not yet
// consumed; base is the file offset of buf[0].
type scanRun struct {
	sc      *scanner
	f       *os.File
	st      *fileState
	x       *extractor
	buf     []byte
	filled  int
	pos     int // start of the first unconsumed line
	nlFrom  int // where the search for the next '\n' resumes
	base    int64
	read    int64
	maxLine int
	tail    []byte // the consumed bytes' end, for the tail hash
	needles []*needle
	// recent holds the starts of the last lastLines lines (a ring, nrecent
	// lines so far), to find the last timestamp without walking back.
	recent  [lastLines]int
	nrecent int
	relMode bool // relative-path needles are on (the session's cwd is near a memory dir)
	err     error
}

func (r *scanRun) run(ctx context.Context) {
	r.needles = r.sc.mem.tailNeedles()
	r.maybeRelative(r.st.Meta.Cwd)
	for _, p := range r.st.Pending {
		if r.st.Offset-p.Offset < idWatchBytes {
			r.watch(p.ID, p.Offset)
		}
	}
	for ctx.Err() == nil {
		if r.filled == len(r.buf) && !r.makeRoom() {
			if !r.skipLongLine(ctx) {
				break
			}
			continue
		}
		n, err := r.f.Read(r.buf[r.filled:min(len(r.buf), r.filled+tlogRead)])
		r.filled += n
		r.read += int64(n)
		r.lines()
		if err == io.EOF || n == 0 && err == nil {
			break
		}
		if err != nil {
			r.err = err
			break
		}
	}
	if ctx.Err() != nil {
		return
	}
	r.finish()
	r.st.trim(r.sc.keep.cuts())
}

// makeRoom frees space in a full buffer: it moves the partial line to the
// front, or grows the buffer when one line fills it. It returns false when
// the line is already at the cap.
func (r *scanRun) makeRoom() bool {
	if r.pos > 0 {
		r.shift()
		return true
	}
	if len(r.buf) >= r.maxLine {
		return false
	}
	nb := make([]byte, min(2*len(r.buf), r.maxLine))
	copy(nb, r.buf[:r.filled])
	r.buf = nb
	return true
}

// shift drops the consumed bytes from the buffer, keeping their end for
// the tail hash.
func (r *scanRun) shift() {
	d := r.pos
	r.tail = keepTail(r.tail, r.buf[:d])
	copy(r.buf, r.buf[d:r.filled])
	r.filled -= d
	r.pos, r.nlFrom = 0, r.nlFrom-d
	r.base += int64(d)
	for i := range r.recent {
		r.recent[i] -= d // negative: no longer in the buffer
	}
}

// longLineEnd is how much of each end of a line too long to decode is
// kept to make what can be made of it.
const longLineEnd = 64 << 10

// keepLast returns the last n bytes of tail followed by b.
func keepLast(tail, b []byte, n int) []byte {
	if len(b) >= n {
		return append(tail[:0], b[len(b)-n:]...)
	}
	if over := len(tail) + len(b) - n; over > 0 {
		tail = append(tail[:0], tail[over:]...)
	}
	return append(tail, b...)
}

// keepTail returns the last tailHashLen bytes of tail followed by b.
func keepTail(tail, b []byte) []byte {
	if len(b) >= tailHashLen {
		return append(tail[:0], b[len(b)-tailHashLen:]...)
	}
	if over := len(tail) + len(b) - tailHashLen; over > 0 {
		tail = append(tail[:0], tail[over:]...)
	}
	return append(tail, b...)
}

// skipLongLine discards a line longer than maxLine, up to and including
// its '\n', and reports it. It returns false at EOF (the line is not
// complete yet: nothing is consumed and the next call meets it again).
//
// What the line's ends say is still used (longLine): its first
// longLineEnd bytes name a tool call's id, tool and file, its last ones
// the time, so a memory write whose input or result is too long to decode
// is recorded without its text rather than lost.
func (r *scanRun) skipLongLine(ctx context.Context) bool {
	skipped := int64(r.filled)
	head := append([]byte(nil), r.buf[:min(r.filled, longLineEnd)]...)
	end := keepLast(nil, r.buf[:r.filled], longLineEnd)
	for ctx.Err() == nil {
		n, err := r.f.Read(r.buf)
		r.read += int64(n)
		if i := bytes.IndexByte(r.buf[:n], '\n'); i >= 0 {
			skipped += int64(i) + 1
			r.st.Lines++
			r.st.addProblem("line %d is longer than %d MiB and was skipped", r.st.Lines, r.maxLine>>20)
			r.x.longLine(head, keepLast(end, r.buf[:i], longLineEnd), r.st.Lines)
			r.base += skipped
			r.st.Offset = r.base
			r.tail = r.tail[:0] // the hash covers the skipped line's end
			r.tail = keepTail(r.tail, r.buf[max(0, i+1-tailHashLen):i+1])
			copy(r.buf, r.buf[i+1:n])
			r.filled, r.pos, r.nlFrom = n-i-1, 0, 0
			for i := range r.recent {
				r.recent[i] = -1
			}
			r.lines()
			return true
		}
		skipped += int64(n)
		end = keepLast(end, r.buf[:n], longLineEnd)
		if err != nil || n == 0 {
			if err != io.EOF && err != nil {
				r.err = err
			}
			return false
		}
	}
	return false
}

// lines handles every complete line in the buffer.
func (r *scanRun) lines() {
	for {
		i := bytes.IndexByte(r.buf[r.nlFrom:r.filled], '\n')
		if i < 0 {
			r.nlFrom = r.filled
			return
		}
		le := r.nlFrom + i
		r.line(r.pos, le)
		r.recent[r.nrecent%lastLines] = r.pos
		r.nrecent++
		r.pos, r.nlFrom = le+1, le+1
		r.st.Lines++
		r.st.Offset = r.base + int64(r.pos)
	}
}

// Line-start prefixes of title lines, as Claude Code itself finds them
// (transcripts §1.2).
var titlePrefixes = [][]byte{[]byte(`{"type":"custom-title"`), []byte(`{"type":"ai-title"`), []byte(`{"type":"summary"`)}

// titleKeys find title lines whatever their key order; only tiny lines
// are checked (a title line is an id and a name).
var titleKeys = []*needle{fixedNeedle(`Title":"`), fixedNeedle(`"type":"summary"`)}

// fixedNeedle is a needle for a fixed pattern (searched from its rarest
// byte like the others).
func fixedNeedle(p string) *needle { return newNeedle([]byte(p), needlePlain) }

var (
	cwdKey = []byte(`"cwd":"`)
	tsKey  = []byte(`"timestamp":"`)
)

// line looks at the line buf[ls:le] and decodes it when it can matter.
func (r *scanRun) line(ls, le int) {
	line := r.buf[ls:le]
	m := &r.st.Meta
	if !m.HasFirst && bytes.Contains(line, cwdKey) {
		// First, as it may turn on the relative needles this line needs.
		r.x.handleMeta(line)
	}
	kind, id := lineHead(line)
	r.x.lineOff, r.x.lineLen = r.base+int64(ls), le-ls
	if r.interesting(line, kind, id) {
		r.x.handle(line, r.st.Lines+1)
		return
	}
	if kind == headResult || id != nil {
		// The result of a call not seen yet: real transcripts sometimes
		// write it before its call (§9.3); its call takes it from here.
		r.x.orphan(id, r.base+int64(ls), le-ls, r.st.Lines+1)
	}
	if m.First.IsZero() {
		if t, ok := quickTimestamp(line); ok {
			m.First = t
		}
	}
}

// interesting reports whether a line can hold an event or a title: a
// needle matches it (a memory dir, a pending call's id), it is a tool call
// with a memory-store input, or a title line.
func (r *scanRun) interesting(line []byte, kind headKind, id []byte) bool {
	other := kind == headResult && !r.x.isPending(id)
	hit := false
	for i := 0; i < len(r.needles); i++ {
		n := r.needles[i]
		if n.kind == needleID && r.base+int64(r.pos)-n.since > idWatchBytes {
			r.needles = append(r.needles[:i], r.needles[i+1:]...) // its result is long overdue
			i--
			continue
		}
		if !hit && (n.kind == needleID || !other) && n.in(line) {
			hit = true
		}
	}
	switch {
	case hit:
		return true
	case kind == headToolUse:
		return storeKey.in(line[:min(len(line), headLen)])
	case kind != headOther:
		return false
	}
	for _, p := range titlePrefixes {
		if bytes.HasPrefix(line, p) {
			return true
		}
	}
	if len(line) <= tinyLine {
		for _, k := range titleKeys {
			if k.in(line) {
				return true
			}
		}
	}
	return false
}

// headLen is how far into a line its kind and first tool id are looked
// for: they follow the envelope's first few fields (§1.3, §6).
const headLen = 1 << 10

type headKind uint8

const (
	headOther   headKind = iota
	headResult           // a user line whose content starts with a tool_result
	headToolUse          // an assistant line whose content starts with a tool_use
)

var (
	toolUseKey = fixedNeedle(`tool_use`)
	resultHead = []byte(`"content":[{"tool_use_id":"`)
	callHead   = []byte(`"content":[{"type":"tool_use","id":"`)
	storeKey   = fixedNeedle(`"store":"`)
)

// lineHead tells, from the first headLen bytes, a tool result line (and
// its first tool id) or a tool call line from others. Results are most of
// a transcript's bytes (file contents, command output); one for a call
// that is not pending cannot be a memory write or read, so the memory
// needles skip it. (So a bashEditDiff is read only from the result of a
// Bash command that named a memory file: searching every command's output
// for one would cost a fifth more time.) A line of any other shape is
// searched in full.
func lineHead(line []byte) (headKind, []byte) {
	head := line[:min(len(line), headLen)]
	i := toolUseKey.index(head)
	if i < 0 {
		return headOther, nil
	}
	if e := i + len(`tool_use_id":"`); e <= len(head) && bytes.HasSuffix(head[:e], resultHead) {
		id := head[e:]
		if j := bytes.IndexByte(id, '"'); j >= 0 {
			return headResult, id[:j]
		}
		return headOther, nil
	}
	if e := i + len(`tool_use","id":"`); e <= len(head) && bytes.HasSuffix(head[:e], callHead) {
		return headToolUse, nil
	}
	// A result block in another key order, such as the type-first one of
	// real transcripts (§9): searched in full like any other line (a
	// bashEditDiff in it can name memory files its command did not), but
	// its id is told so it can wait for its call.
	if i > 0 && head[i-1] == '"' && bytes.HasPrefix(head[i:], []byte(`tool_use_id":"`)) {
		id := head[i+len(`tool_use_id":"`):]
		if j := bytes.IndexByte(id, '"'); j >= 0 {
			return headOther, id[:j]
		}
	}
	return headOther, nil
}

// finish records the last timestamp and the tail hash once the file's end
// is reached.
func (r *scanRun) finish() {
	if t, ok := r.lastTimestamp(); ok && t.After(r.st.Meta.Last) {
		r.st.Meta.Last = t
	}
	r.tail = keepTail(r.tail, r.buf[:r.pos])
	r.st.Tail, r.st.TailLen = hashBytes(r.tail), len(r.tail)
	r.x.savePending()
}

// lastTimestamp finds the timestamp of the last line that has one among the
// last lines still in the buffer.
func (r *scanRun) lastTimestamp() (time.Time, bool) {
	end := r.pos - 1 // the '\n' of the last consumed line
	for k := r.nrecent - 1; k >= 0 && k >= r.nrecent-lastLines; k-- {
		start := r.recent[k%lastLines]
		if start < 0 || start > end {
			break
		}
		if t, ok := quickTimestamp(r.buf[start:end]); ok {
			return t, true
		}
		end = start - 1
	}
	return time.Time{}, false
}

// quickTimestamp parses the first "timestamp":"..." in line without
// decoding the line (they are all ISO 8601 UTC, §1.3). Lines over
// tsLineMax are not searched: in a tool result the timestamp follows the
// whole output, and a neighbouring line tells the time as well.
func quickTimestamp(line []byte) (time.Time, bool) {
	if len(line) > tsLineMax {
		return time.Time{}, false
	}
	i := bytes.Index(line, tsKey)
	if i < 0 {
		return time.Time{}, false
	}
	v := line[i+len(tsKey):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return time.Time{}, false
	}
	return parseTime(string(v[:j]))
}

func parseTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// watch adds a needle for a pending tool call's id, so its result is found
// even when the result does not name the file (a Bash command's output, a
// subagent's Read).
func (r *scanRun) watch(id string, since int64) {
	for _, n := range r.needles {
		if n.id == id {
			return
		}
	}
	n := newNeedle([]byte(`"`+id+`"`), needleID)
	n.id, n.since = id, since
	r.needles = append(r.needles, n)
}

func (r *scanRun) unwatch(id string) {
	for i, n := range r.needles {
		if n.id == id {
			r.needles = append(r.needles[:i], r.needles[i+1:]...)
			return
		}
	}
}

// maybeRelative turns on the relative-path needles once the session's cwd
// is seen to be where a relative path could reach a memory dir.
func (r *scanRun) maybeRelative(cwd string) {
	if r.relMode || cwd == "" || !r.sc.mem.relativeNear(cwd) {
		return
	}
	r.relMode = true
	r.needles = append(r.needles, r.sc.mem.relNeedles()...)
}
