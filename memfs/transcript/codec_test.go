package transcript

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// fullCache is a cache in which every stored field, at every depth, is set
// to something other than its zero value (checked by allFieldsSet).
func fullCache() *transcriptCache {
	at := func(s int) time.Time { return time.Date(2026, 8, 1, 10, 0, s, 123456789, time.UTC) }
	content, store := "content", "store"
	st := &fileState{
		Path: "/t/a.jsonl", Size: 4096, ModTime: at(1).UnixNano(), Offset: 4000, Lines: 12,
		Tail: 0xfedcba9876543210, TailLen: 4000,
		Meta: fileMeta{HasFirst: true, SessionID: "s1", Cwd: "/p", Branch: "main", Version: "2.1.0",
			Start: at(2), First: at(3), Last: at(4), CustomTitle: "custom", AITitle: "ai", Summary: "summary"},
		Writes: []keyedWrite{{Key: "toolu_1", Seq: 3, Text: 99, W: model.MemWrite{
			Path: "/m/a.md", Kind: model.WriteEdit, Session: "s1", Agent: "agent", Time: at(5),
			Cwd: "/p", Branch: "main", Version: "2.1.0", Transcript: "/t/a.jsonl", Line: 7,
			ToolUseID: "toolu_1", AlsoIn: []string{"s2", "s3"},
			Before: "before", HasBefore: true, After: "after", HasAfter: true,
			Edits:   []model.TextEdit{{Old: "o", New: "n", All: true}},
			Created: true, Deleted: true, UserModified: true, Verb: "Improved", Command: "echo x", TextDropped: true,
		}}},
		Obs: []keyedObs{{Seq: 4, Text: 12, O: model.MemObservation{
			Path: "/m/a.md", Kind: model.ObsRead, Session: "s1", Agent: "agent", Time: at(6),
			Content: "seen", Full: true, ContentDropped: true, ID: "toolu_2", AlsoIn: []string{"s4"},
			Transcript: "/t/a.jsonl", Line: 8,
		}}},
		Pending: []*pendingUse{{ID: "toolu_3", Name: "MultiEdit", Paths: []string{"/m/a.md", "/m/b.md"},
			Input: toolInput{FilePath: "/m/a.md", Content: &content, OldString: "old", NewString: "new", ReplaceAll: true,
				Edits:   []editSpec{{OldString: "a", NewString: "b", ReplaceAll: true, OldCamel: "c", NewCamel: "d", AllCamel: true}},
				Command: "cat", Store: &store, Path: "/m", Offset: 3, Limit: 40},
			Offset: 2048, Dropped: true}},
		Orphans:  []orphanResult{{ID: 0x8000000000000001, Off: 1024, Len: 77, Line: 5}},
		Problems: []model.TranscriptProblem{{Transcript: "/t/a.jsonl", Message: "a line could not be read"}},
		Seq:      9,
	}
	return &transcriptCache{Version: transcriptCacheVersion, Key: "/t\x00/home\x00/m",
		Files: map[string]*fileState{st.Path: st},
		Cuts: cuts{Cut: evKey{T: at(7), File: "/t/a.jsonl", Seq: 1}, TextCut: evKey{T: at(8), File: "/t/b.jsonl", Seq: 2},
			HasCut: true, HasTextCut: true}}
}

// allFieldsSet reports the first exported field under v (struct fields,
// slice and map elements, pointer targets) that holds its zero value.
// Unexported fields are not stored (fileState.failed is per call).
func allFieldsSet(v reflect.Value, path string) string {
	if v.Type() == reflect.TypeOf(time.Time{}) {
		if v.Interface().(time.Time).IsZero() {
			return path
		}
		return ""
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				if p := allFieldsSet(v.Field(i), path+"."+f.Name); p != "" {
					return p
				}
			}
		}
		return ""
	case reflect.Pointer:
		if v.IsNil() {
			return path
		}
		return allFieldsSet(v.Elem(), path)
	case reflect.Slice:
		if v.Len() == 0 {
			return path
		}
		for i := 0; i < v.Len(); i++ {
			if p := allFieldsSet(v.Index(i), path+"[]"); p != "" {
				return p
			}
		}
		return ""
	case reflect.Map:
		if v.Len() == 0 {
			return path
		}
		for it := v.MapRange(); it.Next(); {
			if p := allFieldsSet(it.Value(), path+"[]"); p != "" {
				return p
			}
		}
		return ""
	}
	if v.IsZero() {
		return path
	}
	return ""
}

// TestCacheCodecEveryField: a cache with every field set comes back
// exactly. A field added to fileState or anything it holds fails here
// until this test sets it, and then until the codec stores it.
func TestCacheCodecEveryField(t *testing.T) {
	c := fullCache()
	if p := allFieldsSet(reflect.ValueOf(c), "cache"); p != "" {
		t.Fatalf("fullCache leaves %s unset: set it here, and store it in codec.go", p)
	}
	b := encodeCache(c)
	got, err := decodeCache(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got.Files["/t/a.jsonl"], c.Files["/t/a.jsonl"])
	}
	if again := encodeCache(got); !bytes.Equal(again, b) {
		t.Error("encoding the decoded cache gives other bytes")
	}
}

// TestCacheCodecEdges: zero and far times, empty texts behind a pointer,
// negative numbers and no files at all round-trip too.
func TestCacheCodecEdges(t *testing.T) {
	empty := ""
	for _, tm := range []time.Time{{}, time.Unix(0, 0).UTC(), time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(-5000, 1, 1, 0, 0, 0, 1, time.UTC)} {
		c := &transcriptCache{Version: transcriptCacheVersion, Files: map[string]*fileState{
			"": {Size: -1, Seq: -7, Meta: fileMeta{Start: tm},
				Pending: []*pendingUse{{Input: toolInput{Content: &empty, Offset: -3}}}}},
			Cuts: cuts{Cut: evKey{T: tm}}}
		got, err := decodeCache(encodeCache(c))
		if err != nil || !reflect.DeepEqual(got, c) {
			t.Errorf("time %v: got %+v, %v", tm, got, err)
		}
	}
	c := &transcriptCache{Version: transcriptCacheVersion, Files: map[string]*fileState{}}
	if got, err := decodeCache(encodeCache(c)); err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("no files: got %+v, %v", got, err)
	}
}

// withCRC is body with the checksum decodeCache expects: what a hostile
// writer who knows the format would produce.
func withCRC(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, castagnoli))
}

// TestCacheCodecRejects: every cut of a good file, a flipped bit, another
// version, trailing bytes, and lengths the file cannot hold are errors,
// never a panic or a huge allocation.
func TestCacheCodecRejects(t *testing.T) {
	b := encodeCache(fullCache())
	for n := range len(b) {
		if _, err := decodeCache(b[:n]); err == nil {
			t.Fatalf("a cache cut to %d of %d bytes decoded", n, len(b))
		}
		body := b[:n:n]
		if n >= len(b)-4 {
			continue // the whole body, or a cut checksum
		}
		// The cut with a good checksum: only the structure can tell.
		if _, err := decodeCache(withCRC(body)); err == nil {
			t.Fatalf("a cache cut to %d of %d bytes, checksum fixed, decoded", n, len(b)-4)
		}
	}
	for i := range len(b) * 8 {
		flip := bytes.Clone(b)
		flip[i/8] ^= 1 << (i % 8)
		if _, err := decodeCache(flip); err == nil {
			t.Fatalf("bit %d flipped decoded", i)
		}
	}
	body := b[: len(b)-4 : len(b)-4]
	if _, err := decodeCache(withCRC(append(bytes.Clone(body), 0))); err == nil {
		t.Error("trailing bytes decoded")
	}
	old := append([]byte(cacheMagic), binary.AppendUvarint(nil, transcriptCacheVersion-1)...)
	if _, err := decodeCache(withCRC(append(old, body[len(old):]...))); err == nil {
		t.Error("another version decoded")
	}

	// A file that claims 2^60 files, then 2^60 writes in one: refused
	// from the bytes left, before anything is allocated for them.
	huge := binary.AppendUvarint(nil, 1<<60)
	e := &encoder{b: append([]byte(cacheMagic), binary.AppendUvarint(nil, transcriptCacheVersion)...)}
	e.str("k")
	e.cuts(&cuts{})
	claim := withCRC(append(bytes.Clone(e.b), huge...))
	e.uint(1)
	st := &fileState{Path: "p"}
	e.str(st.Path)
	e.int(0)
	e.int(0)
	e.int(0)
	e.int(0)
	e.u64(0)
	e.int(0)
	e.fileMeta(&st.Meta)
	writes := withCRC(append(e.b, huge...))
	for name, in := range map[string][]byte{"files": claim, "writes": writes} {
		allocs := testing.AllocsPerRun(1, func() {
			if _, err := decodeCache(in); err == nil {
				t.Errorf("%s: a length past the file decoded", name)
			}
		})
		if allocs > 10 {
			t.Errorf("%s: %v allocations for a refused file", name, allocs)
		}
	}
}

// TestCacheFileIsOwnerOnly: the cache is saved owner-only, in an
// owner-only dir, and replaces a gob cache an older memtui left at the
// same hash.
func TestCacheFileIsOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	c := fullCache()
	saveTranscriptCache(dir, c)
	fi, err := os.Stat(cachePath(dir, c.Key))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v, %v", fi, err)
	}
	if di, err := os.Stat(filepath.Dir(cachePath(dir, c.Key))); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("cache dir: %v, %v", di, err)
	}
	old := testfs.Write(t, cacheStem(dir, c.Key)+".gob", "gob bytes")
	saveTranscriptCache(dir, c)
	if _, err := os.Lstat(old); !os.IsNotExist(err) {
		t.Errorf("the old gob cache is still there: %v", err)
	}
	got := loadTranscriptCache(dir, "/t", []string{"/m"}, "/home")
	if !reflect.DeepEqual(got, c) {
		t.Errorf("loaded %+v", got)
	}
}

// FuzzTranscriptCache decodes arbitrary bytes as a cache file, as they
// are and with their checksum made good (so the fuzzer gets past it to
// the structure): no panic, and whatever decodes encodes back to a file
// that decodes to the same cache.
func FuzzTranscriptCache(f *testing.F) {
	full := encodeCache(fullCache())
	f.Add(full)
	f.Add(full[:len(full)-4])
	f.Add(encodeCache(&transcriptCache{Version: transcriptCacheVersion, Files: map[string]*fileState{}}))
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, in := range [][]byte{b, withCRC(bytes.Clone(b))} {
			c, err := decodeCache(in)
			if err != nil {
				continue
			}
			again, err := decodeCache(encodeCache(c))
			if err != nil || !reflect.DeepEqual(again, c) {
				t.Fatalf("decoded %+v, re-encoded and decoded %+v, %v", c, again, err)
			}
		}
	})
}

// TestPendingEmptyContentCached: a Write of an empty file whose result
// comes after a read stopped between the two gives what one read gives.
// gob, the cache's former encoding, dropped a pointer to "", so the
// resumed read saw no content and recorded a write of unknown text.
func TestPendingEmptyContentCached(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("empty.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	call := b.call("toolu_E", "Write", map[string]any{"file_path": p, "content": ""})
	res := b.result("toolu_E", "File created successfully at: "+p, false, nil)
	path := w.file(uuid1+".jsonl", call)
	w.read(w.opts()) // the call is cached as pending
	appendTo(t, path, res+"\n")
	warm := w.read(w.opts())
	cold := w.read(Options{Home: w.home})
	if len(cold.Writes) != 1 || !cold.Writes[0].HasAfter {
		t.Fatalf("cold writes = %+v", cold.Writes)
	}
	if !reflect.DeepEqual(warm.Writes, cold.Writes) || !reflect.DeepEqual(warm.Observations, cold.Observations) {
		t.Errorf("resumed through the cache:\n%+v\n%+v\nread at once:\n%+v\n%+v", warm.Writes, warm.Observations, cold.Writes, cold.Observations)
	}
}
