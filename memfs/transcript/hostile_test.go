//go:build unix

package transcript

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// What an agent (or anything else running as the user) can put where
// memtui expects a plain file, and what memtui must do about each: return
// promptly, read nothing unbounded, follow no link out, say what it found.
// The transcript reader's side of memfs's saferead_test.go; the hostile
// files and ReturnsIn are internal/testfs's, the journal fixtures a copy
// of memfs/txn's (whose tests cannot import a package importing txn).

// journalEntry writes a committed journal entry by hand, as Apply leaves
// one: a manifest, and a before-image per update.
func journalEntry(t *testing.T, root, id, memDir string, files ...txn.JournalFile) {
	t.Helper()
	m := txn.JournalEntry{Version: 1, ID: id, ProposalID: "p-" + id, Kind: "fix", Title: "t", MemoryDir: memDir, RealDir: memDir,
		Time: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), State: txn.JournalCommitted, Files: files}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, filepath.Join(root, id, "manifest.json"), string(b))
}

// update is a journaled update of rel from before to after, whose
// before-image is written as before/<n>.
func update(t *testing.T, root, id string, n int, rel, before, after string) txn.JournalFile {
	img := "before/" + fmt.Sprint(n)
	testfs.Write(t, filepath.Join(root, id, img), before)
	return txn.JournalFile{Path: rel, Op: string(model.OpUpdate), Before: sumHex([]byte(before)), After: sumHex([]byte(after)), Mode: 0o644, State: "applied", Image: img}
}

func readJournalLog(t *testing.T, memDir, root string) *model.TranscriptLog {
	t.Helper()
	var l *model.TranscriptLog
	var err error
	testfs.ReturnsIn(t, "Read", func() {
		l, err = Read(context.Background(), &model.Project{Dirs: []*model.MemoryDir{{Path: memDir}}}, Options{JournalRoot: root})
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// dump is everything a log holds, for "this string is nowhere" checks.
func dump(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%s %+v", b, v)
}

// TestJournalAfterImageNotReadThroughHostileFile: after memtui applied a
// change, the memory file it wrote is replaced. The after-image is filled
// in from a plain file that still holds what memtui wrote (the control);
// from a FIFO, a link to /dev/zero, a link out of the memory dir or a
// 3 GiB file it is not, the read returns promptly, the problem names the
// path and what is there, and nothing of the outside file appears.
func TestJournalAfterImageNotReadThroughHostileFile(t *testing.T) {
	tmp := t.TempDir()
	outside := testfs.Write(t, filepath.Join(tmp, "outside", "a.md"), "alpha2\n"+testfs.OutsideSecret+"\n")
	cases := append([]testfs.Hostile{{Name: "plain file (control)", Put: func(t testing.TB, p string) { testfs.Write(t, p, "alpha2\n") }}}, testfs.Hostiles(outside)...)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			base := t.TempDir()
			mem, root := testfs.Mkdir(t, filepath.Join(base, "memory")), filepath.Join(base, "journal")
			journalEntry(t, root, "20261101T100000.000000000Z-aaaaaaaa", mem, update(t, root, "20261101T100000.000000000Z-aaaaaaaa", 0, "a.md", "alpha\n", "alpha2\n"))
			// The outside file's own hash is what memtui "wrote": a link
			// followed would resolve, and leak it.
			if c.Name == "link outside" {
				journalEntry(t, root, "20261101T100000.000000000Z-aaaaaaaa", mem,
					update(t, root, "20261101T100000.000000000Z-aaaaaaaa", 0, "a.md", "alpha\n", "alpha2\n"+testfs.OutsideSecret+"\n"))
			}
			c.Put(t, filepath.Join(mem, "a.md"))
			l := readJournalLog(t, mem, root)
			if len(l.Writes) != 1 || l.Writes[0].Before != "alpha\n" {
				t.Fatalf("writes = %+v", l.Writes)
			}
			g := l.Writes[0]
			if c.Says == "" {
				if !g.HasAfter || g.After != "alpha2\n" || len(l.Problems) != 0 {
					t.Fatalf("a plain file must resolve the after-image: %+v, problems %q", g, l.Problems)
				}
				return
			}
			if g.HasAfter || g.After != "" {
				t.Errorf("after-image resolved through a %s: %+v", c.Name, g)
			}
			if len(l.Problems) != 1 || !strings.Contains(l.Problems[0].String(), filepath.Join(mem, "a.md")) || !strings.Contains(l.Problems[0].String(), c.Says) {
				t.Errorf("problems = %q, want one naming %s and saying %q", l.Problems, filepath.Join(mem, "a.md"), c.Says)
			}
			if strings.Contains(dump(l), testfs.OutsideSecret) {
				t.Errorf("the outside file was read: %s", dump(l))
			}
		})
	}
}

// TestJournalRecordsCannotLeadOut: a record naming a path through a
// symlinked directory, or with "..", is not read, though the file there
// holds exactly what the record's hash wants.
func TestJournalRecordsCannotLeadOut(t *testing.T) {
	base := t.TempDir()
	mem, root := testfs.Mkdir(t, filepath.Join(base, "memory")), filepath.Join(base, "journal")
	out := testfs.Mkdir(t, filepath.Join(base, "elsewhere"))
	secret := "x\n" + testfs.OutsideSecret + "\n"
	testfs.Write(t, filepath.Join(out, "b.md"), secret)
	testfs.Write(t, filepath.Join(base, "up.md"), secret)
	testfs.Symlink(t, out, filepath.Join(mem, "sub"))
	id := "20261101T100000.000000000Z-bbbbbbbb"
	journalEntry(t, root, id, mem,
		update(t, root, id, 0, "sub/b.md", "x\n", secret),
		update(t, root, id, 1, "../up.md", "x\n", secret))
	l := readJournalLog(t, mem, root)
	if len(l.Writes) != 2 {
		t.Fatalf("writes = %+v", l.Writes)
	}
	for _, g := range l.Writes {
		if g.HasAfter {
			t.Errorf("resolved %s through a record that leads out: %+v", g.Path, g)
		}
	}
	if strings.Contains(dump(l), testfs.OutsideSecret) {
		t.Errorf("a file outside the memory dir was read: %s", dump(l))
	}
	all := problemText(l.Problems)
	if !strings.Contains(all, "sub is a symlink") || !strings.Contains(all, "leaves its directory") {
		t.Errorf("problems = %q", l.Problems)
	}
}

// TestTranscriptsHostile: a transcript that is a FIFO, a link to
// /dev/zero or a link to a transcript outside the transcript dir: the
// read returns, the plain transcript next to them is read (the control),
// and nothing of the outside one is.
func TestTranscriptsHostile(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("notes.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	w.file(uuid1+".jsonl", b.prompt("note"),
		b.call("toolu_A", "Write", map[string]any{"file_path": p, "content": "inside\n"}),
		b.result("toolu_A", "The file "+p+" has been updated successfully.", false, writeTUR(p, "inside\n", nil)))
	o := newLines(uuid2, "/p", time.Date(2026, 8, 1, 11, 0, 0, 0, time.UTC))
	outside := testfs.Write(t, filepath.Join(w.home, "elsewhere", "x.jsonl"), strings.Join([]string{o.prompt("note"),
		o.call("toolu_B", "Write", map[string]any{"file_path": p, "content": testfs.OutsideSecret + "\n"}),
		o.result("toolu_B", "The file "+p+" has been updated successfully.", false, writeTUR(p, testfs.OutsideSecret+"\n", nil))}, "\n")+"\n")
	testfs.Mkfifo(t, filepath.Join(w.tdir, uuid2+".jsonl"))
	testfs.Symlink(t, "/dev/zero", filepath.Join(w.tdir, uuid3+".jsonl"))
	testfs.Symlink(t, outside, filepath.Join(w.tdir, "4e3f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7.jsonl"))
	testfs.Symlink(t, outside, filepath.Join(w.tdir, uuid1, "subagents", "agent-a1.jsonl"))
	testfs.Mkfifo(t, filepath.Join(w.tdir, uuid1, "subagents", "agent-a2.jsonl"))

	var l *model.TranscriptLog
	var err error
	testfs.ReturnsIn(t, "Read", func() { l, err = Read(context.Background(), w.project(), Options{Home: w.home}) })
	if err != nil {
		t.Fatal(err)
	}
	if ws := writesTo(l, p); len(ws) != 1 || ws[0].After != "inside\n" {
		t.Errorf("writes = %+v, want the plain transcript's one", ws)
	}
	if strings.Contains(dump(l), testfs.OutsideSecret) {
		t.Errorf("a transcript outside the transcript dir was read: %s", dump(l))
	}
	if all := problemText(l.Problems); !strings.Contains(all, "symlink; not followed") {
		t.Errorf("problems = %q, want the linked transcript named", l.Problems)
	}
	// The head read that learns a project's cwd takes the same open step:
	// memfs's TestHeadCwdHostile.
}

// TestTranscriptCacheHostile: the cache file replaced by a FIFO, a link
// or a huge file is ignored (the transcripts are read again), not waited
// on or decoded.
func TestTranscriptCacheHostile(t *testing.T) {
	tmp := t.TempDir()
	outside := testfs.Write(t, filepath.Join(tmp, "outside.gob"), testfs.OutsideSecret)
	for _, c := range testfs.Hostiles(outside) {
		t.Run(c.Name, func(t *testing.T) {
			w := newTlogWorld(t)
			p := w.memPath("notes.md")
			b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
			w.file(uuid1+".jsonl", b.prompt("note"),
				b.call("toolu_A", "Write", map[string]any{"file_path": p, "content": "inside\n"}),
				b.result("toolu_A", "The file "+p+" has been updated successfully.", false, writeTUR(p, "inside\n", nil)))
			path := cachePath(w.cache, cacheKey(w.tdir, memoryDirs(w.project()), w.home))
			testfs.Mkdir(t, filepath.Dir(path))
			c.Put(t, path)
			var l *model.TranscriptLog
			testfs.ReturnsIn(t, "Read", func() { l = w.read(w.opts()) })
			if ws := writesTo(l, p); len(ws) != 1 || l.Read == 0 {
				t.Errorf("writes = %+v, read %d bytes: the transcript must be read afresh", ws, l.Read)
			}
		})
	}
}

// TestJournalImagesAndManifestsHostile: memtui's own journal files
// replaced by a FIFO or links: the transcript read returns promptly, the
// image is not used, and nothing of the outside file is read. (memfs/txn's
// test of the same name has undo --list (List) and undo.)
func TestJournalImagesAndManifestsHostile(t *testing.T) {
	tmp := t.TempDir()
	outside := testfs.Write(t, filepath.Join(tmp, "outside"), testfs.OutsideSecret+"\n")
	for _, c := range testfs.Hostiles(outside) {
		t.Run(c.Name, func(t *testing.T) {
			base := t.TempDir()
			mem, root := testfs.Mkdir(t, filepath.Join(base, "memory")), filepath.Join(base, "journal")
			testfs.Write(t, filepath.Join(mem, "a.md"), "alpha2\n")
			id := "20261101T100000.000000000Z-cccccccc"
			journalEntry(t, root, id, mem, update(t, root, id, 0, "a.md", "alpha\n", "alpha2\n"))
			c.Put(t, filepath.Join(root, id, "before", "0"))
			// A second entry whose manifest itself is the hostile file.
			bad := "20261102T100000.000000000Z-dddddddd"
			testfs.Mkdir(t, filepath.Join(root, bad))
			c.Put(t, filepath.Join(root, bad, "manifest.json"))

			l := readJournalLog(t, mem, root)
			if len(l.Writes) != 1 || l.Writes[0].HasBefore || l.Writes[0].Before != "" || !l.Writes[0].HasAfter {
				t.Fatalf("writes = %+v", l.Writes)
			}
			if len(l.Problems) != 1 || !strings.Contains(l.Problems[0].String(), "before-image") || !strings.Contains(l.Problems[0].String(), c.Says) {
				t.Errorf("problems = %q", l.Problems)
			}
			if strings.Contains(dump(l), testfs.OutsideSecret) {
				t.Error("the outside file was read")
			}
		})
	}
}
