package app

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/internal/testgen"
)

// openWith opens cfg with the options given, the environment in a fresh
// home (state under it).
func openWith(t *testing.T, o Options) (*Workspace, string) {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CACHE_HOME": filepath.Join(home, "cache")}
	o.Getenv = func(k string) string { return env[k] }
	o.Now, o.NoTranscripts = testNow.Format(time.RFC3339), true
	ws, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	return ws, home
}

// filesUnder is every regular file under root.
func filesUnder(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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

// TestSnapshotRedactsWithTheScanner: the workspace's snapshot records
// every memory dir of the scan in its state dir, with memtui's own secret
// scanner: an AWS key, a GitHub token and a private key in a memory, and
// a token in a file's name, are nowhere in the store. Nothing changed, a
// second snapshot records nothing.
func TestSnapshotRedactsWithTheScanner(t *testing.T) {
	cfg, ok, _ := tree(t)
	g := testgen.New(11)
	aws := "AKIA" + g.S(testgen.Upper2, 16)
	ghp := "ghp_" + g.S(testgen.Alnum, 36)
	named := "ghp_" + g.S(testgen.Alnum, 36)
	key := testgen.Keys(g)[0]
	testfs.Write(t, filepath.Join(ok, "creds.md"), "---\nname: creds\ndescription: staging\ntype: reference\n---\n\naws "+aws+"\ngithub "+ghp+"\n\n"+key.Text+"\n")
	testfs.Write(t, filepath.Join(ok, "ref_"+named+".md"), "a memory named after a token\n")
	ws, _ := openWith(t, Options{ConfigDirs: []string{cfg}})
	res, err := ws.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Busy || len(res.Recorded) != 2 {
		t.Fatalf("result %+v; want both memory dirs recorded", res)
	}
	store := filesUnder(t, ws.State.Snapshots)
	if len(store) < 4 {
		t.Fatalf("the store holds %d files", len(store))
	}
	for p, b := range store {
		for _, sec := range []string{aws, ghp, named} {
			if bytes.Contains(b, []byte(sec)) {
				t.Errorf("%s holds a token in clear", p)
			}
		}
		if leak := testgen.Leaks(string(b), key.Material); leak != "" {
			t.Errorf("%s holds key material %q", p, leak)
		}
	}
	snap, found, err := ws.Snapshots().Latest(ok)
	if err != nil || !found {
		t.Fatalf("Latest: %v %v", found, err)
	}
	f := snap.Files["creds.md"]
	text, err := ws.Snapshots().Text(f.SHA256)
	if !f.Redacted || err != nil || !strings.Contains(string(text), "staging") {
		t.Errorf("creds.md: %+v, text %q %v", f, text, err)
	}
	if res, err := ws.Snapshot(context.Background(), nil); err != nil || len(res.Recorded) != 0 || res.Read != 0 {
		t.Errorf("a second snapshot of an unchanged tree: %+v %v", res, err)
	}
}

// TestSnapshotReadOnlyWritesNothing: --readonly takes no snapshot.
func TestSnapshotReadOnlyWritesNothing(t *testing.T) {
	cfg, _, _ := tree(t)
	ws, _ := openWith(t, Options{ConfigDirs: []string{cfg}, ReadOnly: true})
	res, err := ws.Snapshot(context.Background(), nil)
	if err != nil || len(res.Recorded) != 0 {
		t.Errorf("%+v %v", res, err)
	}
	if _, err := os.Lstat(ws.State.Snapshots); err == nil {
		t.Errorf("--readonly made %s", ws.State.Snapshots)
	}
}

// TestSnapshotDemoStaysInItsScratchTree: the demo's snapshots go to its
// scratch copy, never to the user's state dir.
func TestSnapshotDemoStaysInItsScratchTree(t *testing.T) {
	ws, home := openWith(t, Options{Demo: true})
	res, err := ws.Snapshot(context.Background(), nil)
	if err != nil || len(res.Recorded) == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.HasPrefix(ws.State.Snapshots, ws.ScanOpts.ConfigDirs[0]) || len(filesUnder(t, ws.State.Snapshots)) == 0 {
		t.Errorf("the demo's snapshots %s are not in its scratch tree %s", ws.State.Snapshots, ws.ScanOpts.ConfigDirs[0])
	}
	if got := filesUnder(t, filepath.Join(home, "state")); len(got) > 0 {
		t.Errorf("the demo wrote into the user's state: %v", got)
	}
}
