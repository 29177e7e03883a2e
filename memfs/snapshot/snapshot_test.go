package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/internal/testgen"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// t0 is the tests' "now".
var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// awsKey matches the AWS access key IDs the tests plant; fakeRedact is
// the store's redactor in these tests (the real one, built on
// consolidate/secrets, is app's, and tested there end to end).
var awsKey = regexp.MustCompile(`AKIA[0-9A-Z]{16}`)

func fakeRedact(b []byte) ([]byte, bool) {
	if !awsKey.Match(b) {
		return b, false
	}
	return awsKey.ReplaceAll(b, []byte(model.Redacted)), true
}

// token is an AWS-access-key-shaped secret, the same on every run.
func token(seed uint64) string {
	return "AKIA" + testgen.New(seed).S(testgen.Upper2, 16)
}

func newStore(t testing.TB) *Store {
	return &Store{Root: filepath.Join(t.TempDir(), "snapshots"), Redact: fakeRedact, Scan: memfs.Options{Getenv: func(string) string { return "" }}}
}

// memDir writes files into a fresh memory dir.
func memDir(t testing.TB, files map[string]string) *model.MemoryDir {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memory")
	testfs.WriteAll(t, dir, files)
	return &model.MemoryDir{Path: dir, Kind: model.DirAuto}
}

func take(t testing.TB, s *Store, now time.Time, dirs ...*model.MemoryDir) TakeResult {
	t.Helper()
	res, err := s.Take(t.Context(), dirs, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Busy {
		t.Fatal("the take found the store busy, with no other take running")
	}
	return res
}

// countReads counts the files takes open to read, for the rest of t.
func countReads(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	testHookRead = func(string) { n.Add(1) }
	t.Cleanup(func() { testHookRead = nil })
	return &n
}

func list(t testing.TB, s *Store, d *model.MemoryDir) []model.Snapshot {
	t.Helper()
	snaps, err := s.List(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	return snaps
}

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// storeFiles is every regular file under the store, by path.
func storeFiles(t testing.TB, s *Store) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(s.Root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = b
		}
		return nil
	})
	return out
}

func countUnder(t testing.TB, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.HasPrefix(d.Name(), tmpPrefix) {
			n++
		}
		return nil
	})
	return n
}

// TestTakeRecordsFilesAndLock: a take records every memory file the scan
// lists (MEMORY.md and nested ones included, nothing else) with its size,
// mtime and hash, the lock's mtime and PID (read as Claude Code reads
// it), and keeps each text, readable back by its hash.
func TestTakeRecordsFilesAndLock(t *testing.T) {
	files := map[string]string{
		"MEMORY.md":         "- [A](a.md) — a\n",
		"a.md":              "---\nname: a\ntype: user\n---\nalpha\n",
		"notes/b.md":        "beta\n",
		"notes/MEMORY.md":   "not a memory: a nested index\n",
		"c.txt":             "not markdown\n",
		".consolidate-lock": "4242\n1700000000000",
	}
	d := memDir(t, files)
	lockTime := t0.Add(-3 * time.Hour)
	testfs.Touch(t, filepath.Join(d.Path, ".consolidate-lock"), lockTime)
	s := newStore(t)
	res := take(t, s, t0, d)
	if len(res.Recorded) != 1 || !res.Recorded[0].First || res.Recorded[0].Added != 3 || !res.Recorded[0].Lock || res.Read != 3 || res.Blobs != 3 {
		t.Fatalf("result %+v", res)
	}
	snaps := list(t, s, d)
	if len(snaps) != 1 {
		t.Fatalf("%d snapshots", len(snaps))
	}
	sn := snaps[0]
	if sn.Dir != d.Path || !sn.Time.Equal(t0) || !sn.LockMtime.Equal(lockTime) || sn.LockPID != 4242 {
		t.Errorf("snapshot %+v", sn)
	}
	if len(sn.Files) != 3 {
		t.Errorf("files %v; want MEMORY.md, a.md, notes/b.md", sn.Files)
	}
	for _, p := range []string{"MEMORY.md", "a.md", "notes/b.md"} {
		f, ok := sn.Files[p]
		fi, err := os.Stat(filepath.Join(d.Path, p))
		if err != nil {
			t.Fatal(err)
		}
		if !ok || f.SHA256 != hexSum(files[p]) || f.Size != int64(len(files[p])) || !f.Mtime.Equal(fi.ModTime()) || f.Missing || f.Redacted {
			t.Errorf("%s: %+v", p, f)
			continue
		}
		if text, err := s.Text(f.SHA256); err != nil || string(text) != files[p] {
			t.Errorf("%s: Text = %q, %v", p, text, err)
		}
	}
	if got, ok, err := s.Latest(d.Path); !ok || err != nil || !got.Time.Equal(t0) {
		t.Errorf("Latest = %+v %v %v", got, ok, err)
	}
}

// TestTakeIsIncremental: a file whose size, mtime and inode are as last
// recorded is not read, even when its bytes changed in place with its
// mtime put back, or it cannot be read at all; a changed one is read,
// alone.
func TestTakeIsIncremental(t *testing.T) {
	d := memDir(t, map[string]string{"MEMORY.md": "index\n", "a.md": "alpha\n", "b.md": "beta\n"})
	s := newStore(t)
	reads := countReads(t)
	take(t, s, t0, d)
	if reads.Load() != 3 {
		t.Fatalf("first take read %d files, want 3", reads.Load())
	}
	// Same size, same mtime, same inode, other bytes: had the take read
	// it, the record would change.
	a := filepath.Join(d.Path, "a.md")
	fi, _ := os.Stat(a)
	f, err := os.OpenFile(a, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("ALPHA\n"), 0)
	f.Close()
	testfs.Touch(t, a, fi.ModTime())
	// And one no one may read (chmod leaves the mtime).
	if err := os.Chmod(filepath.Join(d.Path, "b.md"), 0); err != nil {
		t.Fatal(err)
	}
	reads.Store(0)
	res := take(t, s, t0.Add(time.Hour), d)
	if reads.Load() != 0 || res.Read != 0 || res.Files != 3 || len(res.Recorded) != 0 {
		t.Errorf("a take over unchanged files read %d (result %+v)", reads.Load(), res)
	}
	if sn := list(t, s, d); len(sn) != 1 || sn[0].Files["a.md"].SHA256 != hexSum("alpha\n") {
		t.Errorf("snapshots %+v", sn)
	}
	os.Chmod(filepath.Join(d.Path, "b.md"), 0o644)
	testfs.Write(t, filepath.Join(d.Path, "MEMORY.md"), "index, longer\n")
	reads.Store(0)
	res = take(t, s, t0.Add(2*time.Hour), d)
	if reads.Load() != 1 || len(res.Recorded) != 1 || res.Recorded[0].Changed != 1 || res.Recorded[0].Added+res.Recorded[0].Removed != 0 {
		t.Errorf("after one change: read %d, result %+v", reads.Load(), res)
	}
}

// TestTakeIsIdempotent: a second take with nothing changed writes no
// record; a touched lock, a new file, a removed one, a touched file each
// make one.
func TestTakeIsIdempotent(t *testing.T) {
	d := memDir(t, map[string]string{"MEMORY.md": "index\n", "a.md": "alpha\n", ".consolidate-lock": "1"})
	s := newStore(t)
	take(t, s, t0, d)
	before := storeFiles(t, s)
	res := take(t, s, t0.Add(time.Minute), d)
	if len(res.Recorded) != 0 || res.Unchanged != 1 || res.Blobs != 0 {
		t.Errorf("an unchanged dir: %+v", res)
	}
	after := storeFiles(t, s)
	if len(after) != len(before) {
		t.Errorf("the store went from %d files to %d with nothing changed", len(before), len(after))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed", p)
		}
	}
	steps := []struct {
		what string
		do   func()
		want func(DirChange) bool
	}{
		{"lock touched", func() { testfs.Touch(t, filepath.Join(d.Path, ".consolidate-lock"), t0.Add(-time.Minute)) }, func(c DirChange) bool { return c.Lock }},
		{"file added", func() { testfs.Write(t, filepath.Join(d.Path, "b.md"), "beta\n") }, func(c DirChange) bool { return c.Added == 1 }},
		{"file removed", func() { os.Remove(filepath.Join(d.Path, "a.md")) }, func(c DirChange) bool { return c.Removed == 1 }},
		{"file touched", func() { testfs.Touch(t, filepath.Join(d.Path, "b.md"), t0.Add(-time.Hour)) }, func(c DirChange) bool { return c.Changed == 1 }},
	}
	for i, st := range steps {
		st.do()
		res := take(t, s, t0.Add(time.Duration(i+2)*time.Minute), d)
		if len(res.Recorded) != 1 || !st.want(res.Recorded[0]) {
			t.Errorf("%s: %+v", st.what, res)
		}
		if res := take(t, s, t0.Add(time.Duration(i+2)*time.Minute+time.Second), d); len(res.Recorded) != 0 {
			t.Errorf("%s, then nothing: recorded again %+v", st.what, res)
		}
	}
	if n := len(list(t, s, d)); n != 1+len(steps) {
		t.Errorf("%d snapshots, want %d", n, 1+len(steps))
	}
	// "file touched" kept its text: no second blob for it.
	if n := countUnder(t, filepath.Join(s.Root, blobsDir)); n != 3 {
		t.Errorf("%d blobs, want 3 (index, alpha, beta)", n)
	}
}

// TestTakeDeduplicates: the same text in two dirs, and in two files of
// one, is kept once.
func TestTakeDeduplicates(t *testing.T) {
	same := "---\nname: shared\ntype: feedback\n---\nthe same memory\n"
	d1 := memDir(t, map[string]string{"a.md": same, "copy.md": same})
	d2 := memDir(t, map[string]string{"b.md": same})
	s := newStore(t)
	res := take(t, s, t0, d1, d2)
	if len(res.Recorded) != 2 || res.Blobs != 1 || res.Bytes != int64(len(same)) {
		t.Errorf("result %+v; want two dirs recorded, one text stored", res)
	}
	if n := countUnder(t, filepath.Join(s.Root, blobsDir)); n != 1 {
		t.Errorf("%d blobs for one text", n)
	}
	d3 := memDir(t, map[string]string{"c.md": same})
	if res := take(t, s, t0.Add(time.Hour), d3); res.Blobs != 0 {
		t.Errorf("a later take stored the text again: %+v", res)
	}
}

// TestTakeRedactsSecrets: a file holding a secret is kept redacted, and
// marked so; a file named after one is recorded under its redacted name;
// the memory dir's own path is kept redacted. The secret is nowhere in
// the store, byte for byte.
func TestTakeRedactsSecrets(t *testing.T) {
	inText, inName, inDir := token(1), token(2), token(3)
	text := "---\nname: aws\ntype: reference\n---\nkey " + inText + " for the staging bucket\n"
	base := filepath.Join(t.TempDir(), "proj-"+inDir, "memory")
	testfs.WriteAll(t, base, map[string]string{"aws.md": text, "ref_" + inName + ".md": "plain\n", "other.md": "nothing secret\n"})
	d := &model.MemoryDir{Path: base, Kind: model.DirAuto}
	s := newStore(t)
	take(t, s, t0, d)
	for p, b := range storeFiles(t, s) {
		for _, sec := range []string{inText, inName, inDir} {
			if bytes.Contains(b, []byte(sec)) {
				t.Errorf("%s holds a secret in clear", p)
			}
		}
	}
	sn := list(t, s, d)
	if len(sn) != 1 {
		t.Fatalf("%d snapshots", len(sn))
	}
	f := sn[0].Files["aws.md"]
	if !f.Redacted || f.Missing || f.SHA256 != hexSum(text) {
		t.Errorf("aws.md: %+v; want redacted, hashed as on disk", f)
	}
	got, err := s.Text(f.SHA256)
	if err != nil || !strings.Contains(string(got), model.Redacted) || !strings.Contains(string(got), "staging bucket") {
		t.Errorf("Text = %q, %v", got, err)
	}
	key := s.PathKey("ref_" + inName + ".md")
	if key == "ref_"+inName+".md" || !strings.Contains(key, model.Redacted) {
		t.Errorf("PathKey kept the name: %q", key)
	}
	if _, ok := sn[0].Files[key]; !ok || len(sn[0].Files) != 3 {
		t.Errorf("files %v; want the secret-named one under %q", sn[0].Files, key)
	}
	if sn[0].Files["other.md"].Redacted {
		t.Error("other.md marked redacted")
	}
	// The next take finds everything as recorded, redacted keys too.
	if res := take(t, s, t0.Add(time.Hour), d); len(res.Recorded) != 0 || res.Read != 0 {
		t.Errorf("second take: %+v", res)
	}
}

// TestTakeNeedsRedact: a store with no redactor keeps nothing.
func TestTakeNeedsRedact(t *testing.T) {
	s := newStore(t)
	s.Redact = nil
	if _, err := s.Take(t.Context(), []*model.MemoryDir{memDir(t, map[string]string{"a.md": "a"})}, t0); err == nil {
		t.Fatal("a take without a redactor ran")
	}
	if _, err := os.Stat(s.Root); err == nil {
		t.Error("it made the store")
	}
}

// TestTakeDirGone: a dir removed since its last record gets one empty
// record, then no more; a dir never seen and absent gets none.
func TestTakeDirGone(t *testing.T) {
	d := memDir(t, map[string]string{"a.md": "a"})
	absent := &model.MemoryDir{Path: filepath.Join(t.TempDir(), "nope"), Kind: model.DirAuto}
	s := newStore(t)
	take(t, s, t0, d, absent)
	os.RemoveAll(d.Path)
	if res := take(t, s, t0.Add(time.Hour), d, absent); len(res.Recorded) != 1 || res.Recorded[0].Removed != 1 {
		t.Errorf("after the dir went: %+v", res)
	}
	if res := take(t, s, t0.Add(2*time.Hour), d, absent); len(res.Recorded) != 0 {
		t.Errorf("and again: %+v", res)
	}
	if sn := list(t, s, absent); len(sn) != 0 {
		t.Errorf("an absent dir has %d snapshots", len(sn))
	}
}

// TestRetentionKeepsEachDirsNewest: records past the retention go, a
// dir's newest stays however old, and a text only the dropped records
// named goes with them.
func TestRetentionKeepsEachDirsNewest(t *testing.T) {
	busy := memDir(t, map[string]string{"a.md": "v0\n"})
	quiet := memDir(t, map[string]string{"q.md": "quiet\n"})
	s := newStore(t)
	s.Retention = 10 * 24 * time.Hour
	day := 24 * time.Hour
	take(t, s, t0, busy, quiet)
	for i := 1; i <= 4; i++ {
		testfs.Write(t, filepath.Join(busy.Path, "a.md"), "v"+string(rune('0'+i))+"\n")
		take(t, s, t0.Add(time.Duration(i)*day), busy, quiet)
	}
	if n := len(list(t, s, busy)); n != 5 {
		t.Fatalf("%d snapshots before any expired", n)
	}
	// Thirty days on: only each dir's newest is left, and the texts of
	// v0..v3 are gone. The quiet dir is not in this take: its record is
	// kept for being its newest, not for being seen again.
	res := take(t, s, t0.Add(30*day), busy)
	bs, qs := list(t, s, busy), list(t, s, quiet)
	if len(bs) != 1 || len(qs) != 1 || res.Pruned != 4 || res.Removed != 4 {
		t.Fatalf("busy %d, quiet %d snapshots; result %+v", len(bs), len(qs), res)
	}
	if bs[0].Files["a.md"].SHA256 != hexSum("v4\n") || !qs[0].Time.Equal(t0) {
		t.Errorf("the wrong records were kept: %+v %+v", bs[0], qs[0])
	}
	for _, text := range []string{"v4\n", "quiet\n"} {
		if _, err := s.Text(hexSum(text)); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
	if _, err := s.Text(hexSum("v0\n")); err == nil {
		t.Error("v0's text outlived every record naming it")
	}
}

// TestSizeBoundKeepsEachDirsNewest: past MaxBytes the oldest records go
// first, with the texts only they named, until the store fits; each
// dir's newest record and its texts are kept whatever the bound.
func TestSizeBoundKeepsEachDirsNewest(t *testing.T) {
	big := func(i int) string { return strings.Repeat(string(rune('a'+i)), 4000) + "\n" }
	d1 := memDir(t, map[string]string{"x.md": big(0)})
	d2 := memDir(t, map[string]string{"y.md": "small\n"})
	s := newStore(t)
	s.MaxBytes = 12000
	for i := range 6 {
		testfs.Write(t, filepath.Join(d1.Path, "x.md"), big(i))
		take(t, s, t0.Add(time.Duration(i)*time.Minute), d1, d2)
	}
	var total int64
	for _, b := range storeFiles(t, s) {
		total += int64(len(b))
	}
	if total > s.MaxBytes {
		t.Errorf("the store holds %d bytes, over its %d", total, s.MaxBytes)
	}
	s1, s2 := list(t, s, d1), list(t, s, d2)
	if len(s1) == 0 || len(s1) >= 6 || len(s2) != 1 {
		t.Fatalf("%d and %d snapshots", len(s1), len(s2))
	}
	if got := s1[len(s1)-1].Files["x.md"].SHA256; got != hexSum(big(5)) {
		t.Error("d1's newest record went")
	}
	for _, sn := range append(s1, s2...) {
		for p, f := range sn.Files {
			if _, err := s.Text(f.SHA256); err != nil {
				t.Errorf("a kept record names %s, whose text is gone: %v", p, err)
			}
		}
	}
	// A bound smaller than the newest records (applied by the next take
	// that writes): they stay all the same.
	s.MaxBytes = 1
	testfs.Write(t, filepath.Join(d1.Path, "x.md"), big(6))
	take(t, s, t0.Add(time.Hour), d1, d2)
	if s1, s2 := list(t, s, d1), list(t, s, d2); len(s1) != 1 || len(s2) != 1 {
		t.Errorf("a tiny bound left %d and %d snapshots, want each dir's newest", len(s1), len(s2))
	}
}

// TestTakeOverHostileFiles: a FIFO, links to /dev/zero and out of the
// tree and a 3 GiB sparse file in a memory dir: the take returns
// promptly, follows no link (the outside file's text is nowhere in the
// store), and records the sparse file Missing, unread and unhashed.
func TestTakeOverHostileFiles(t *testing.T) {
	outside := testfs.Write(t, filepath.Join(t.TempDir(), "outside.md"), testfs.OutsideSecret)
	for _, h := range testfs.Hostiles(outside) {
		t.Run(h.Name, func(t *testing.T) {
			d := memDir(t, map[string]string{"MEMORY.md": "index\n", "plain.md": "plain\n"})
			p := filepath.Join(d.Path, "x.md")
			h.Put(t, p)
			s := newStore(t)
			reads := countReads(t)
			var res TakeResult
			testfs.ReturnsIn(t, "a take over "+h.Name, func() { res = take(t, s, t0, d) })
			sn := list(t, s, d)
			if len(sn) != 1 || sn[0].Files["plain.md"].SHA256 != hexSum("plain\n") {
				t.Fatalf("snapshots %+v (result %+v)", sn, res)
			}
			x, ok := sn[0].Files["x.md"]
			if strings.Contains(h.Name, "sparse") {
				if !ok || !x.Missing || x.SHA256 != "" || x.Size != 3<<30 || reads.Load() != 2 {
					t.Errorf("x.md %+v, %d reads; want Missing, no hash, not read", x, reads.Load())
				}
			} else if ok {
				t.Errorf("x.md recorded: %+v", x)
			}
			for f, b := range storeFiles(t, s) {
				if bytes.Contains(b, []byte(testfs.OutsideSecret)) {
					t.Errorf("%s holds the text of a file outside the memory dir", f)
				}
			}
		})
	}
}

// TestCorruptStore: records that are garbage, cut short, another dir's,
// too big, a link, a FIFO, or name paths out of the dir, and a blob whose
// bytes are not its hash, are skipped or refused without a panic; takes
// go on, and a trim removes what nothing can read.
func TestCorruptStore(t *testing.T) {
	d := memDir(t, map[string]string{"a.md": "alpha\n"})
	other := memDir(t, map[string]string{"b.md": "beta\n"})
	s := newStore(t)
	take(t, s, t0, d, other)
	key := dirKey(filepath.Clean(d.Path))
	recs := filepath.Join(s.Root, recordsDir, key)
	good := list(t, s, d)[0]
	otherRec, _ := os.ReadDir(filepath.Join(s.Root, recordsDir, dirKey(filepath.Clean(other.Path))))
	otherBody, _ := os.ReadFile(filepath.Join(s.Root, recordsDir, dirKey(filepath.Clean(other.Path)), otherRec[0].Name()))
	mine, _ := os.ReadDir(recs)
	goodBody, _ := os.ReadFile(filepath.Join(recs, mine[0].Name()))
	name := func(i int) string { return recordName(t0.Add(time.Duration(i) * time.Second).UnixNano()) }
	evil := map[string][]byte{
		name(1): []byte("\x00\xff garbage"),
		name(2): goodBody[:len(goodBody)/2],
		name(3): otherBody,
		name(4): bytes.Replace(goodBody, []byte(`"path":"a.md"`), []byte(`"path":"../../etc/passwd"`), 1),
		name(5): bytes.Replace(goodBody, []byte(`"sha256":"`), []byte(`"sha256":"zz`), 1),
		name(6): []byte(`{"v":1,"dir_sha256":null,"files":[null,{"path":""}]}`),
		name(7): []byte(`[1,2,3]`),
	}
	// A later memtui's record, within the retention below.
	foreign := recordName(t0.Add(2*time.Hour - 30*time.Second).UnixNano())
	evil[foreign] = bytes.Replace(goodBody, []byte(`"v":1`), []byte(`"v":99`), 1)
	for n, b := range evil {
		if err := os.WriteFile(filepath.Join(recs, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	testfs.Sparse(t, filepath.Join(recs, name(9)), maxRecordBytes+1)
	testfs.Symlink(t, filepath.Join(recs, mine[0].Name()), filepath.Join(recs, name(10)))
	testfs.Mkfifo(t, filepath.Join(recs, name(11)))
	testfs.Write(t, filepath.Join(recs, "not-a-record"), "x")
	var snaps []model.Snapshot
	testfs.ReturnsIn(t, "List over a corrupt store", func() { snaps = list(t, s, d) })
	if len(snaps) != 1 || snaps[0].Files["a.md"].SHA256 != good.Files["a.md"].SHA256 {
		t.Fatalf("List = %+v; want the one good record", snaps)
	}
	// A take still finds the good record as the last one (nothing read,
	// nothing recorded), whatever is newer.
	reads := countReads(t)
	res := take(t, s, t0.Add(time.Hour), d)
	if reads.Load() != 0 || len(res.Recorded) != 0 {
		t.Errorf("a take over a corrupt store: %d reads, %+v", reads.Load(), res)
	}
	// Trimming (forced by an expired record) removes what cannot be
	// read; the later memtui's record stays, and so do all blobs.
	testfs.Write(t, filepath.Join(d.Path, "a.md"), "alpha 2\n")
	s.Retention = time.Minute
	take(t, s, t0.Add(2*time.Hour), d)
	left, _ := os.ReadDir(recs)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if len(names) != 3 || !strings.Contains(strings.Join(names, " "), foreign) {
		t.Errorf("left %q; want the later memtui's record, the newest, and not-a-record", names)
	}
	// What the later memtui's record names is unknown: no text went,
	// not even the one only the expired record named.
	if _, err := s.Text(good.Files["a.md"].SHA256); err != nil {
		t.Errorf("a text went while a record this memtui cannot read was there: %v", err)
	}
	// A blob changed behind the store's back is refused by Text.
	sum := good.Files["a.md"].SHA256
	if err := os.WriteFile(filepath.Join(s.Root, blobsDir, sum[:2], sum), []byte("tampered\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Text(sum); err == nil {
		t.Errorf("Text returned tampered bytes %q", b)
	}
	for _, bad := range []string{"", "../../etc/passwd", strings.Repeat("A", 64), strings.Repeat("0", 63)} {
		if _, err := s.Text(bad); err == nil {
			t.Errorf("Text(%q) succeeded", bad)
		}
	}
}

// TestTrimRemovesCrashLeftovers: the temporary files of a take that died
// go with the next take.
func TestTrimRemovesCrashLeftovers(t *testing.T) {
	d := memDir(t, map[string]string{"a.md": "a"})
	s := newStore(t)
	take(t, s, t0, d)
	recLeft := testfs.Write(t, filepath.Join(s.Root, recordsDir, dirKey(filepath.Clean(d.Path)), tmpPrefix+"123"), "half a rec")
	blobLeft := testfs.Write(t, filepath.Join(s.Root, blobsDir, "ab", tmpPrefix+"456"), "half a text")
	take(t, s, t0.Add(time.Minute), d)
	for _, p := range []string{recLeft, blobLeft} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if n := len(list(t, s, d)); n != 1 {
		t.Errorf("%d snapshots", n)
	}
}

// TestTakeIsBusyUnderAnotherTake: a take finding the store's lock held
// skips, at once and writing nothing.
func TestTakeIsBusyUnderAnotherTake(t *testing.T) {
	d := memDir(t, map[string]string{"a.md": "a"})
	s := newStore(t)
	var res TakeResult
	var err error
	release := make(chan struct{})
	entered := make(chan struct{})
	var first atomic.Bool
	testHookRead = func(string) {
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
	}
	t.Cleanup(func() { testHookRead = nil })
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Take(t.Context(), []*model.MemoryDir{d}, t0)
	}()
	<-entered
	res, err = s.Take(t.Context(), []*model.MemoryDir{d}, t0)
	close(release)
	<-done
	if err != nil || !res.Busy || len(res.Recorded) != 0 {
		t.Errorf("a take under another: %+v %v", res, err)
	}
	if n := len(list(t, s, d)); n != 1 {
		t.Errorf("%d snapshots", n)
	}
}

// TestConcurrentTakes: takes from many goroutines (each its own flock,
// as separate processes have) over dirs an agent keeps writing: no take
// fails, every record is whole and readable, and every text a record
// names is there and hashes right. Run with -race.
func TestConcurrentTakes(t *testing.T) {
	dirs := []*model.MemoryDir{
		memDir(t, map[string]string{"MEMORY.md": "i\n", "a.md": "a\n"}),
		memDir(t, map[string]string{"b.md": "b\n"}),
		memDir(t, map[string]string{"c.md": "c\n"}),
	}
	root := filepath.Join(t.TempDir(), "snapshots")
	stop := make(chan struct{})
	var writer sync.WaitGroup
	writer.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			d := dirs[i%len(dirs)]
			if err := os.WriteFile(filepath.Join(d.Path, "w.md"), []byte(strings.Repeat("w", i%50)+"\n"), 0o644); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	var busy, took atomic.Int64
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			s := &Store{Root: root, Redact: fakeRedact, MaxBytes: 4 << 10, Retention: time.Minute, Scan: memfs.Options{Getenv: func(string) string { return "" }}}
			for i := range 15 {
				res, err := s.Take(t.Context(), dirs, t0.Add(time.Duration(g*100+i)*time.Second))
				if err != nil {
					t.Errorf("take: %v", err)
				}
				if res.Busy {
					busy.Add(1)
				} else {
					took.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	writer.Wait()
	if took.Load() == 0 {
		t.Fatal("no take ran")
	}
	s := &Store{Root: root, Redact: fakeRedact}
	for _, d := range dirs {
		key := dirKey(filepath.Clean(d.Path))
		ents, _ := os.ReadDir(filepath.Join(root, recordsDir, key))
		snaps := list(t, s, d)
		if len(snaps) == 0 || len(snaps) != len(ents) {
			t.Errorf("%s: %d records on disk, %d readable", d.Path, len(ents), len(snaps))
		}
		for _, sn := range snaps {
			for p, f := range sn.Files {
				if f.Missing {
					continue
				}
				if b, err := s.Text(f.SHA256); err != nil || (!f.Redacted && hexSum(string(b)) != f.SHA256) {
					t.Errorf("%s of a record: %v", p, err)
				}
			}
		}
	}
	t.Logf("%d takes ran, %d found the store busy", took.Load(), busy.Load())
}
