package transcript

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"sort"
	"time"

	"github.com/memtui/memtui/model"
)

// The transcript cache's encoding. It was gob, whose every decoder compiles
// the types it meets first: with one cache file per project, a warm lint of
// 500 projects spent more time compiling gob types than decoding data. This
// codec writes the fields in a fixed order, with nothing about their types:
//
//	magic, version (uvarint), key, cuts, file count, files..., CRC-32C
//
// Integers are varints (signed ones zigzagged), hashes 8 bytes little
// endian, bools one byte (0 or 1), strings and slices a uvarint length
// first, an optional pointer a presence byte first. Times are seconds since
// January 1, year 1 UTC (so the zero Time is 0) and nanoseconds: every time
// the extractor keeps is UTC (parseTime), which is what comes back.
//
// An empty slice comes back nil, as it did from gob: nothing downstream
// tells the two apart.
//
// Every field of fileState and what it holds is written: a new field must
// be added here, where TestCacheCodecEveryField finds it missing.
//
// The cache is untrusted input (anyone who can write the cache dir can put
// bytes there): every length is checked against the bytes left before
// anything is allocated for it, and anything malformed only makes the cache
// ignored.

// cacheMagic starts every cache file: a file that is not one is ignored
// before anything is decoded.
const cacheMagic = "memtui-transcript-cache\n"

// errCorrupt is any malformed cache file.
var errCorrupt = errors.New("corrupt transcript cache")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// zeroTimeUnix is the Unix time of the zero Time, which the encoding makes
// 0: a time never set costs one byte.
const zeroTimeUnix = -62135596800

// encodeCache is the whole cache file's bytes. The files are written in
// path order, so the same cache always gives the same bytes.
func encodeCache(c *transcriptCache) []byte {
	paths := make([]string, 0, len(c.Files))
	for p := range c.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	e := &encoder{b: make([]byte, 0, 4<<10)}
	e.b = append(e.b, cacheMagic...)
	e.uint(uint64(c.Version))
	e.str(c.Key)
	e.cuts(&c.Cuts)
	e.uint(uint64(len(paths)))
	for _, p := range paths {
		e.fileState(c.Files[p])
	}
	return binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli))
}

// decodeCache decodes a whole cache file. It fails on anything that is
// not exactly what encodeCache writes for some cache, including trailing
// bytes; a cache of another version fails before the rest is decoded.
func decodeCache(b []byte) (*transcriptCache, error) {
	if len(b) < len(cacheMagic)+4 || string(b[:len(cacheMagic)]) != cacheMagic {
		return nil, errCorrupt
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, errCorrupt
	}
	// One string holds the whole file and every decoded string is a part
	// of it: one allocation instead of one per string. It keeps the file's
	// bytes alive while any of them is, which is about what they take
	// anyway.
	d := &decoder{b: body, s: string(body), off: len(cacheMagic)}
	c := &transcriptCache{}
	v := d.uint()
	if d.err || v != transcriptCacheVersion {
		return nil, errCorrupt
	}
	c.Version = transcriptCacheVersion
	c.Key = d.str()
	d.cuts(&c.Cuts)
	n := d.count(minFileState)
	c.Files = make(map[string]*fileState, n)
	for range n {
		st := &fileState{}
		d.fileState(st)
		if d.err {
			break
		}
		if c.Files[st.Path] != nil {
			return nil, errCorrupt // encodeCache writes each path once
		}
		c.Files[st.Path] = st
	}
	if d.err || d.off != len(body) {
		return nil, errCorrupt
	}
	return c, nil
}

// encoder appends the encoding of values to b.
type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) u64(v uint64)  { e.b = binary.LittleEndian.AppendUint64(e.b, v) }

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) time(t time.Time) {
	e.int(t.Unix() - zeroTimeUnix)
	e.uint(uint64(t.Nanosecond()))
}

func (e *encoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) optStr(p *string) {
	e.bool(p != nil)
	if p != nil {
		e.str(*p)
	}
}

func (e *encoder) evKey(k *evKey) {
	e.time(k.T)
	e.str(k.File)
	e.int(k.Seq)
}

func (e *encoder) cuts(c *cuts) {
	e.evKey(&c.Cut)
	e.evKey(&c.TextCut)
	e.bool(c.HasCut)
	e.bool(c.HasTextCut)
}

func (e *encoder) fileState(st *fileState) {
	e.str(st.Path)
	e.int(st.Size)
	e.int(st.ModTime)
	e.int(st.Offset)
	e.int(int64(st.Lines))
	e.u64(st.Tail)
	e.int(int64(st.TailLen))
	e.fileMeta(&st.Meta)
	e.uint(uint64(len(st.Writes)))
	for i := range st.Writes {
		e.keyedWrite(&st.Writes[i])
	}
	e.uint(uint64(len(st.Obs)))
	for i := range st.Obs {
		e.keyedObs(&st.Obs[i])
	}
	e.uint(uint64(len(st.Pending)))
	for _, p := range st.Pending {
		e.pendingUse(p)
	}
	e.uint(uint64(len(st.Orphans)))
	for i := range st.Orphans {
		e.orphan(&st.Orphans[i])
	}
	e.uint(uint64(len(st.Problems)))
	for i := range st.Problems {
		e.str(st.Problems[i].Transcript)
		e.str(st.Problems[i].Message)
	}
	e.int(st.Seq)
}

func (e *encoder) fileMeta(m *fileMeta) {
	e.bool(m.HasFirst)
	e.str(m.SessionID)
	e.str(m.Cwd)
	e.str(m.Branch)
	e.str(m.Version)
	e.time(m.Start)
	e.time(m.First)
	e.time(m.Last)
	e.str(m.CustomTitle)
	e.str(m.AITitle)
	e.str(m.Summary)
}

func (e *encoder) keyedWrite(kw *keyedWrite) {
	e.str(kw.Key)
	e.int(kw.Seq)
	e.int(kw.Text)
	w := &kw.W
	e.str(w.Path)
	e.str(string(w.Kind))
	e.str(w.Session)
	e.str(w.Agent)
	e.time(w.Time)
	e.str(w.Cwd)
	e.str(w.Branch)
	e.str(w.Version)
	e.str(w.Transcript)
	e.int(int64(w.Line))
	e.str(w.ToolUseID)
	e.strs(w.AlsoIn)
	e.str(w.Before)
	e.bool(w.HasBefore)
	e.str(w.After)
	e.bool(w.HasAfter)
	e.uint(uint64(len(w.Edits)))
	for _, ed := range w.Edits {
		e.str(ed.Old)
		e.str(ed.New)
		e.bool(ed.All)
	}
	e.bool(w.Created)
	e.bool(w.Deleted)
	e.bool(w.UserModified)
	e.str(w.Verb)
	e.str(w.Command)
	e.bool(w.TextDropped)
}

func (e *encoder) keyedObs(ko *keyedObs) {
	e.int(ko.Seq)
	e.int(ko.Text)
	o := &ko.O
	e.str(o.Path)
	e.str(string(o.Kind))
	e.str(o.Session)
	e.str(o.Agent)
	e.time(o.Time)
	e.str(o.Content)
	e.bool(o.Full)
	e.bool(o.ContentDropped)
	e.str(o.ID)
	e.strs(o.AlsoIn)
	e.str(o.Transcript)
	e.int(int64(o.Line))
}

func (e *encoder) pendingUse(p *pendingUse) {
	e.str(p.ID)
	e.str(p.Name)
	e.strs(p.Paths)
	in := &p.Input
	e.str(in.FilePath)
	e.optStr(in.Content)
	e.str(in.OldString)
	e.str(in.NewString)
	e.bool(bool(in.ReplaceAll))
	e.uint(uint64(len(in.Edits)))
	for i := range in.Edits {
		ed := &in.Edits[i]
		e.str(ed.OldString)
		e.str(ed.NewString)
		e.bool(bool(ed.ReplaceAll))
		e.str(ed.OldCamel)
		e.str(ed.NewCamel)
		e.bool(bool(ed.AllCamel))
	}
	e.str(in.Command)
	e.optStr(in.Store)
	e.str(in.Path)
	e.int(int64(in.Offset))
	e.int(int64(in.Limit))
	e.int(p.Offset)
	e.bool(p.Dropped)
}

func (e *encoder) orphan(o *orphanResult) {
	e.u64(o.ID)
	e.int(o.Off)
	e.int(int64(o.Len))
	e.int(int64(o.Line))
}

// decoder reads values from b (s is the same bytes as a string, for the
// strings). After the first error every read returns a zero value and err
// stays set: callers check it once at the end, or before a loop goes on.
type decoder struct {
	b   []byte
	s   string
	off int
	err bool
}

func (d *decoder) fail() { d.err, d.off = true, len(d.b) }

func (d *decoder) uint() uint64 {
	if d.err {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int() int64 {
	if d.err {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

// intn is an int field: a value that does not fit an int is corrupt.
func (d *decoder) intn() int {
	v := d.int()
	if int64(int(v)) != v {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *decoder) u64() uint64 {
	if d.err || len(d.b)-d.off < 8 {
		d.fail()
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b[d.off:])
	d.off += 8
	return v
}

func (d *decoder) bool() bool {
	if d.err || d.off >= len(d.b) || d.b[d.off] > 1 {
		d.fail()
		return false
	}
	v := d.b[d.off] == 1
	d.off++
	return v
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err || n > uint64(len(d.b)-d.off) {
		d.fail()
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *decoder) time() time.Time {
	sec := d.int()
	nsec := d.uint()
	if d.err || nsec >= 1e9 {
		d.fail()
		return time.Time{}
	}
	// sec is what Time counts from year 1: moving it to the Unix epoch
	// and back may wrap, and wraps back, so every sec round-trips.
	return time.Unix(sec+zeroTimeUnix, int64(nsec)).UTC()
}

// count reads a slice length and checks it against the bytes left: each
// element takes at least min bytes, so a length the rest of the file
// cannot hold is corrupt, and what is allocated for it is bounded by the
// file's size.
func (d *decoder) count(min int) int {
	n := d.uint()
	if d.err || n > uint64((len(d.b)-d.off)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) strs() []string {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.str()
	}
	return ss
}

func (d *decoder) optStr() *string {
	if !d.bool() {
		return nil
	}
	s := d.str()
	return &s
}

func (d *decoder) evKey(k *evKey) {
	k.T = d.time()
	k.File = d.str()
	k.Seq = d.int()
}

func (d *decoder) cuts(c *cuts) {
	d.evKey(&c.Cut)
	d.evKey(&c.TextCut)
	c.HasCut = d.bool()
	c.HasTextCut = d.bool()
}

func (d *decoder) fileState(st *fileState) {
	st.Path = d.str()
	st.Size = d.int()
	st.ModTime = d.int()
	st.Offset = d.int()
	st.Lines = d.intn()
	st.Tail = d.u64()
	st.TailLen = d.intn()
	d.fileMeta(&st.Meta)
	if n := d.count(minKeyedWrite); n > 0 {
		st.Writes = make([]keyedWrite, n)
		for i := range st.Writes {
			d.keyedWrite(&st.Writes[i])
		}
	}
	if n := d.count(minKeyedObs); n > 0 {
		st.Obs = make([]keyedObs, n)
		for i := range st.Obs {
			d.keyedObs(&st.Obs[i])
		}
	}
	if n := d.count(minPendingUse); n > 0 {
		st.Pending = make([]*pendingUse, n)
		for i := range st.Pending {
			st.Pending[i] = &pendingUse{}
			d.pendingUse(st.Pending[i])
		}
	}
	if n := d.count(minOrphan); n > 0 {
		st.Orphans = make([]orphanResult, n)
		for i := range st.Orphans {
			d.orphan(&st.Orphans[i])
		}
	}
	if n := d.count(2); n > 0 {
		st.Problems = make([]model.TranscriptProblem, n)
		for i := range st.Problems {
			st.Problems[i].Transcript = d.str()
			st.Problems[i].Message = d.str()
		}
	}
	st.Seq = d.int()
}

func (d *decoder) fileMeta(m *fileMeta) {
	m.HasFirst = d.bool()
	m.SessionID = d.str()
	m.Cwd = d.str()
	m.Branch = d.str()
	m.Version = d.str()
	m.Start = d.time()
	m.First = d.time()
	m.Last = d.time()
	m.CustomTitle = d.str()
	m.AITitle = d.str()
	m.Summary = d.str()
}

func (d *decoder) keyedWrite(kw *keyedWrite) {
	kw.Key = d.str()
	kw.Seq = d.int()
	kw.Text = d.int()
	w := &kw.W
	w.Path = d.str()
	w.Kind = model.WriteKind(d.str())
	w.Session = d.str()
	w.Agent = d.str()
	w.Time = d.time()
	w.Cwd = d.str()
	w.Branch = d.str()
	w.Version = d.str()
	w.Transcript = d.str()
	w.Line = d.intn()
	w.ToolUseID = d.str()
	w.AlsoIn = d.strs()
	w.Before = d.str()
	w.HasBefore = d.bool()
	w.After = d.str()
	w.HasAfter = d.bool()
	if n := d.count(3); n > 0 {
		w.Edits = make([]model.TextEdit, n)
		for i := range w.Edits {
			w.Edits[i] = model.TextEdit{Old: d.str(), New: d.str(), All: d.bool()}
		}
	}
	w.Created = d.bool()
	w.Deleted = d.bool()
	w.UserModified = d.bool()
	w.Verb = d.str()
	w.Command = d.str()
	w.TextDropped = d.bool()
}

func (d *decoder) keyedObs(ko *keyedObs) {
	ko.Seq = d.int()
	ko.Text = d.int()
	o := &ko.O
	o.Path = d.str()
	o.Kind = model.ObsKind(d.str())
	o.Session = d.str()
	o.Agent = d.str()
	o.Time = d.time()
	o.Content = d.str()
	o.Full = d.bool()
	o.ContentDropped = d.bool()
	o.ID = d.str()
	o.AlsoIn = d.strs()
	o.Transcript = d.str()
	o.Line = d.intn()
}

func (d *decoder) pendingUse(p *pendingUse) {
	p.ID = d.str()
	p.Name = d.str()
	p.Paths = d.strs()
	in := &p.Input
	in.FilePath = d.str()
	in.Content = d.optStr()
	in.OldString = d.str()
	in.NewString = d.str()
	in.ReplaceAll = semBool(d.bool())
	if n := d.count(6); n > 0 {
		in.Edits = make([]editSpec, n)
		for i := range in.Edits {
			ed := &in.Edits[i]
			ed.OldString = d.str()
			ed.NewString = d.str()
			ed.ReplaceAll = semBool(d.bool())
			ed.OldCamel = d.str()
			ed.NewCamel = d.str()
			ed.AllCamel = semBool(d.bool())
		}
	}
	in.Command = d.str()
	in.Store = d.optStr()
	in.Path = d.str()
	in.Offset = semInt(d.intn())
	in.Limit = semInt(d.intn())
	p.Offset = d.int()
	p.Dropped = d.bool()
}

func (d *decoder) orphan(o *orphanResult) {
	o.ID = d.u64()
	o.Off = d.int()
	o.Len = d.intn()
	o.Line = d.intn()
}

// The fewest bytes one element can take: the encoding of its zero value,
// since every field's zero (0, "", false, no elements, the zero Time) has
// the shortest encoding there is. count divides the bytes left by these.
var (
	minFileState  = encodedLen(func(e *encoder) { e.fileState(&fileState{}) })
	minKeyedWrite = encodedLen(func(e *encoder) { e.keyedWrite(&keyedWrite{}) })
	minKeyedObs   = encodedLen(func(e *encoder) { e.keyedObs(&keyedObs{}) })
	minPendingUse = encodedLen(func(e *encoder) { e.pendingUse(&pendingUse{}) })
	minOrphan     = encodedLen(func(e *encoder) { e.orphan(&orphanResult{}) })
)

func encodedLen(f func(*encoder)) int {
	e := &encoder{}
	f(e)
	return len(e.b)
}
