package memfs

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// Every earlier format of memtui's state files is read by today's code
// with nothing lost; a newer memtui's file is never replaced, removed or
// moved; one that cannot be read back is moved aside, never deleted. The
// fixtures are written here by hand in the shapes the old code wrote
// (named by commit).

const stateDir = "/home/dev/.claude/projects/-home-dev-acme/memory"

// gz compresses s as the baseline's writer does.
func gz(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// frozen is a state file as it was put there: its bytes and an old mtime,
// set so that any write would show.
type frozen struct {
	path  string
	data  []byte
	mtime time.Time
}

func freeze(t *testing.T, path string, data []byte) frozen {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return frozen{path, data, old}
}

// unchanged fails unless the file is still there, byte for byte, with its
// mtime.
func (f frozen) unchanged(t *testing.T, after string) {
	t.Helper()
	got, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatalf("after %s: %s is gone: %v", after, f.path, err)
	}
	fi, _ := os.Lstat(f.path)
	if !bytes.Equal(got, f.data) || !fi.ModTime().Equal(f.mtime) {
		t.Fatalf("after %s: %s changed (mtime %v, was %v)", after, f.path, fi.ModTime(), f.mtime)
	}
}

// names lists root's files.
func names(t *testing.T, root string) []string {
	t.Helper()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func memDir() *model.MemoryDir {
	return &model.MemoryDir{Path: stateDir, Exists: true, Files: []*model.File{{Path: "now.md", Content: []byte("today\n")}}}
}

// baselineV1Before1a5dc39 is a baseline as memtui wrote it before files
// read in part were marked (commit 43d7c74 to 1a5dc39): version 1, no
// "partial" field; one file marked seen on its own ("time").
const baselineV1Before1a5dc39 = `{"version":1,"dir":"` + stateDir + `","time":"2026-11-02T09:30:00Z","files":{` +
	`"MEMORY.md":{"sha256":"aa","text":"# Memory\n- [A](a.md) — a\n"},` +
	`"a.md":{"sha256":"bb","text":"alpha\n","time":"2026-11-03T10:00:00Z"}}}`

func TestBaselineEarlierFormatLoadsWhole(t *testing.T) {
	root := t.TempDir()
	f := freeze(t, baselinePath(root, stateDir), gz(t, baselineV1Before1a5dc39))
	b, first, err := OpenBaseline(root, memDir(), time.Now(), true)
	if err != nil || first || b == nil {
		t.Fatalf("the earlier baseline: %v, first %v, %v; want it read", b, first, err)
	}
	if len(b.Files) != 2 || b.Files["MEMORY.md"].Text != "# Memory\n- [A](a.md) — a\n" || b.Files["a.md"].SHA256 != "bb" ||
		!b.Files["a.md"].Time.Equal(time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)) || b.Files["a.md"].Partial ||
		!b.Time.Equal(time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)) {
		t.Fatalf("the earlier baseline lost something: %+v", b)
	}
	f.unchanged(t, "opening it")
	// Saved again (a file marked seen), it keeps all it held.
	b.Files["now.md"] = model.BaselineFile{SHA256: "cc", Text: "today\n"}
	if err := SaveBaseline(root, b); err != nil {
		t.Fatal(err)
	}
	got, err := LoadBaseline(root, stateDir)
	if err != nil || len(got.Files) != 3 || got.Files["a.md"] != b.Files["a.md"] {
		t.Fatalf("saved again: %+v, %v", got, err)
	}
}

// baselineV2 is a baseline as a later memtui might write it: another
// shape for the files, unknown fields.
const baselineV2 = `{"version":2,"dir":"` + stateDir + `","time":"2027-01-01T00:00:00Z","files":[{"path":"a.md","blob":"x"}],"reviews":[]}`

func TestBaselineOfANewerMemtuiIsKept(t *testing.T) {
	root := t.TempDir()
	f := freeze(t, baselinePath(root, stateDir), gz(t, baselineV2))
	b, err := LoadBaseline(root, stateDir)
	if b != nil || !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), "format 2") || !strings.Contains(err.Error(), f.path) {
		t.Fatalf("a newer baseline: %v, %v; want ErrNewerFormat naming it", b, err)
	}
	for _, record := range []bool{true, false} {
		b, first, err := OpenBaseline(root, memDir(), time.Now(), record)
		if b != nil || first || !errors.Is(err, ErrNewerFormat) {
			t.Fatalf("open (record %v): %v, first %v, %v; want nothing recorded over it", record, b, first, err)
		}
		f.unchanged(t, "opening it")
	}
	// What a review would save is refused, not written over it.
	err = SaveBaseline(root, model.NewBaseline(memDir(), time.Now(), sumHex))
	if !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), "not replaced") {
		t.Fatalf("save over a newer baseline: %v", err)
	}
	f.unchanged(t, "a save")
	if n := names(t, root); len(n) != 1 {
		t.Errorf("files beside it: %v", n)
	}
}

func TestBaselineThatCannotBeReadIsMovedAside(t *testing.T) {
	whole := gz(t, baselineV1Before1a5dc39)
	for name, data := range map[string][]byte{
		"not gzip":          []byte("not gzip"),
		"truncated gzip":    whole[:len(whole)-12],
		"not JSON":          gz(t, "{\"version\":1,"),
		"cut after its dir": gz(t, `{"version":1,"dir":"`+stateDir+`","files":{"a.md":{"sha256":"bb","te`),
		"another dir's":     gz(t, strings.Replace(baselineV1Before1a5dc39, stateDir, "/elsewhere", 1)),
		"no version at all": gz(t, `{"dir":"`+stateDir+`","files":{}}`),
		"version a string":  gz(t, `{"version":"1","dir":"`+stateDir+`","files":{}}`),
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			f := freeze(t, baselinePath(root, stateDir), data)
			if _, err := LoadBaseline(root, stateDir); !errors.Is(err, ErrCorruptState) {
				t.Fatalf("load: %v; want ErrCorruptState", err)
			}
			// --readonly moves nothing.
			if b, first, err := OpenBaseline(root, memDir(), time.Now(), false); b != nil || !first || !errors.Is(err, ErrCorruptState) || !strings.Contains(err.Error(), "left as it is") {
				t.Fatalf("readonly open: %v, %v, %v", b, first, err)
			}
			f.unchanged(t, "a readonly open")
			// A save does not write over it either.
			if err := SaveBaseline(root, model.NewBaseline(memDir(), time.Now(), sumHex)); !errors.Is(err, ErrCorruptState) {
				t.Fatalf("save over it: %v; want it refused", err)
			}
			f.unchanged(t, "a save")
			// Opened for a review: moved aside, named, a new one started.
			b, first, err := OpenBaseline(root, memDir(), time.Now(), true)
			if b == nil || !first || !MovedAside(err) || !strings.Contains(err.Error(), "a new one was started") {
				t.Fatalf("open: %v, first %v, %v", b, first, err)
			}
			var se *StateError
			errors.As(err, &se)
			if !strings.Contains(err.Error(), se.Aside) || filepath.Dir(se.Aside) != root {
				t.Fatalf("the message %q does not name %q, beside the baseline", err, se.Aside)
			}
			kept, rerr := os.ReadFile(se.Aside)
			if rerr != nil || !bytes.Equal(kept, f.data) {
				t.Fatalf("the file moved aside is not the one that was there: %v", rerr)
			}
			if got, err := LoadBaseline(root, stateDir); err != nil || got == nil || got.Files["now.md"].Text != "today\n" {
				t.Fatalf("the new baseline: %+v, %v", got, err)
			}
		})
	}
}

// decisionsV1 is a decisions file as memtui wrote it since commit 21c1b63:
// one proposal accepted in part, one rejected.
const decisionsV1 = `{"version":1,"dir":"` + stateDir + `","decisions":{` +
	`"merge-0123456789":{"accepted":true,"keep":[[true,false]],"reads":"abc","kind":"merge","title":"Merge a into b","time":"2026-11-28T12:00:00Z"},` +
	`"prune-9876543210":{"accepted":false,"kind":"prune","title":"Prune c","time":"2026-11-28T12:01:00Z"}}}`

func TestDecisionsEarlierFormatLoadsWhole(t *testing.T) {
	root := t.TempDir()
	f := freeze(t, decisionsPath(root, stateDir), []byte(decisionsV1))
	ds, err := LoadDecisions(root, stateDir)
	if err != nil || len(ds) != 2 {
		t.Fatalf("%v, %v", ds, err)
	}
	m, p := ds["merge-0123456789"], ds["prune-9876543210"]
	if !m.Accepted || len(m.Keep) != 1 || !m.Keep[0][0] || m.Keep[0][1] || m.Reads != "abc" || m.Kind != model.KindMerge ||
		p.Accepted || p.Title != "Prune c" || !p.Time.Equal(time.Date(2026, 11, 28, 12, 1, 0, 0, time.UTC)) {
		t.Fatalf("the earlier decisions lost something: %+v", ds)
	}
	f.unchanged(t, "a load")
}

func TestDecisionsOfANewerMemtuiAreKept(t *testing.T) {
	root := t.TempDir()
	f := freeze(t, decisionsPath(root, stateDir), []byte(`{"version":3,"dir":"`+stateDir+`","decisions":[{"id":"x","verdict":"snoozed"}]}`))
	ds, err := LoadDecisions(root, stateDir)
	if len(ds) != 0 || !errors.Is(err, ErrNewerFormat) {
		t.Fatalf("load: %v, %v; want ErrNewerFormat", ds, err)
	}
	// Neither a new decision nor forgetting the last one touches it.
	if err := SaveDecisions(root, stateDir, map[string]model.Decision{"p": {Title: "t"}}); !errors.Is(err, ErrNewerFormat) {
		t.Fatalf("save: %v", err)
	}
	f.unchanged(t, "a save")
	if err := SaveDecisions(root, stateDir, nil); !errors.Is(err, ErrNewerFormat) {
		t.Fatalf("save of none: %v", err)
	}
	f.unchanged(t, "a save of none (which removes the file)")
	// SetAside moves only what cannot be read.
	if err := SetAside(err, time.Now()); MovedAside(err) {
		t.Fatalf("a newer file was moved: %v", err)
	}
	f.unchanged(t, "SetAside")
}

func TestDecisionsThatCannotBeReadAreMovedAsideOnlyWhenAsked(t *testing.T) {
	root := t.TempDir()
	f := freeze(t, decisionsPath(root, stateDir), []byte(`{"version":1,"dir":"`+stateDir+`","decisions":{"p":`))
	_, err := LoadDecisions(root, stateDir)
	if !errors.Is(err, ErrCorruptState) {
		t.Fatalf("load: %v", err)
	}
	if serr := SaveDecisions(root, stateDir, nil); !errors.Is(serr, ErrCorruptState) {
		t.Fatalf("a save of none removed a file it could not read: %v", serr)
	}
	f.unchanged(t, "a save")
	err = SetAside(err, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	var se *StateError
	if !MovedAside(err) || !errors.As(err, &se) || !strings.HasSuffix(se.Aside, ".decisions.json.unreadable-20261201T080000Z") {
		t.Fatalf("set aside: %v", err)
	}
	if b, _ := os.ReadFile(se.Aside); !bytes.Equal(b, f.data) {
		t.Fatal("the file set aside is not the one that was there")
	}
	// A second one set aside the same second gets its own name.
	freeze(t, f.path, []byte("x"))
	_, err = LoadDecisions(root, stateDir)
	err = SetAside(err, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	var se2 *StateError
	if !errors.As(err, &se2) || se2.Aside == se.Aside || se2.Aside == "" {
		t.Fatalf("second set aside: %v", err)
	}
	if n := names(t, root); len(n) != 2 {
		t.Fatalf("files: %v; want the two set aside", n)
	}
}

// TestStateMigration runs the mechanism a format change will use: a kind
// at format 3 reads formats 1 and 2 through its steps; the save that
// replaces an older file keeps it (<file>.v<N>.bak) and the next one, the
// new format being on disk, removes that copy.
func TestStateMigration(t *testing.T) {
	k := &stateKind{what: "test state", key: "v", version: 3, up: map[int]func(map[string]json.RawMessage) error{
		// 1 → 2: "name" became "title".
		1: func(doc map[string]json.RawMessage) error {
			doc["title"] = doc["name"]
			delete(doc, "name")
			return nil
		},
		// 2 → 3: "tags" became a list.
		2: func(doc map[string]json.RawMessage) error {
			var s string
			if err := json.Unmarshal(doc["tags"], &s); err != nil {
				return err
			}
			doc["tags"], _ = json.Marshal(strings.Split(s, ","))
			return nil
		},
	}}
	type v3 struct {
		V     int      `json:"v"`
		Title string   `json:"title"`
		Tags  []string `json:"tags"`
	}
	want := v3{V: 3, Title: "kept", Tags: []string{"a", "b"}}
	for _, doc := range []string{
		`{"v":1,"name":"kept","tags":"a,b"}`,
		`{"tags":"a,b","title":"kept","v":2}`, // the version anywhere
		`{"v":3,"title":"kept","tags":["a","b"]}`,
	} {
		var got v3
		if _, err := k.decode("f", []byte(doc), &got); err != nil || got.V != want.V || got.Title != want.Title || !slices.Equal(got.Tags, want.Tags) {
			t.Errorf("%s read as %+v, %v", doc, got, err)
		}
	}
	for doc, wantErr := range map[string]error{
		`{"v":4,"title":1}`:      ErrNewerFormat,
		`{"title":"no version"}`: ErrCorruptState, // format 0: no step
		`{"v":2,"tags":7}`:       ErrCorruptState, // a step that fails
		`[1,2]`:                  ErrCorruptState,
		`{"v":-1}`:               ErrCorruptState,
		`{"v":1.5}`:              ErrCorruptState,
		`{"v":1,"name":"x"`:      ErrCorruptState,
	} {
		var got v3
		if _, err := k.decode("f", []byte(doc), &got); !errors.Is(err, wantErr) {
			t.Errorf("%s: %v; want %v", doc, err, wantErr)
		}
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	onDisk := func() (int, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		return peekVersion(bytes.NewReader(b), "v")
	}
	// Nothing there: nothing kept.
	done, err := k.beforeSave(path, onDisk)
	if err != nil {
		t.Fatal(err)
	}
	done()
	old := freeze(t, path, []byte(`{"v":1,"name":"kept","tags":"a,b"}`))
	save := func(content string) error {
		done, err := k.beforeSave(path, onDisk)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return err
		}
		done()
		return nil
	}
	if err := save(`{"v":3,"title":"kept","tags":["a","b"]}`); err != nil {
		t.Fatal(err)
	}
	bak := frozen{path: path + ".v1.bak", data: old.data}
	if b, err := os.ReadFile(bak.path); err != nil || !bytes.Equal(b, bak.data) {
		t.Fatalf("the format-1 file was not kept beside the new one: %q, %v", b, err)
	}
	if err := save(`{"v":3,"title":"again","tags":[]}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(bak.path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the copy outlived the save after the migration: %v", err)
	}
	// A newer file on disk is not replaced.
	newer := freeze(t, path, []byte(`{"v":9}`))
	if err := save(`{"v":3}`); !errors.Is(err, ErrNewerFormat) {
		t.Fatalf("save over format 9: %v", err)
	}
	newer.unchanged(t, "a save")
}
