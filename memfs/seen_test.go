package memfs

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

func TestBaselineRoundTrip(t *testing.T) {
	root := filepath.Join(t.TempDir(), "seen")
	dir := "/home/dev/.claude/projects/-home-dev-acme/memory"
	if b, err := LoadBaseline(root, dir); b != nil || err != nil {
		t.Fatalf("no baseline yet: got %v, %v; want nil, nil", b, err)
	}
	when := time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)
	want := &model.Baseline{Dir: dir, Time: when, Files: map[string]model.BaselineFile{
		"MEMORY.md":  {SHA256: "aa", Text: "# Memory\n- [A](a.md) — a\n"},
		"sub/ü b.md": {SHA256: "bb", Text: "line\r\nnext\r\n", Time: when.Add(time.Hour)},
	}}
	if err := SaveBaseline(root, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadBaseline(root, dir+"/") // the same dir, spelled with a slash
	if err != nil {
		t.Fatal(err)
	}
	if !got.Time.Equal(when) || len(got.Files) != 2 || got.Files["sub/ü b.md"] != want.Files["sub/ü b.md"] || got.Files["MEMORY.md"] != want.Files["MEMORY.md"] {
		t.Fatalf("round trip changed the baseline:\n got %+v\nwant %+v", got, want)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("want one baseline file, got %d", len(entries))
	}
	info, _ := entries[0].Info()
	if info.Mode().Perm() != 0o600 {
		t.Errorf("baseline mode %v; the texts are private, want 0600", info.Mode().Perm())
	}
	// Another directory has its own baseline.
	if b, err := LoadBaseline(root, dir+"-other"); b != nil || err != nil {
		t.Fatalf("other dir: got %v, %v", b, err)
	}
}

func TestBaselineCorruptIsAnErrorNotAPanic(t *testing.T) {
	root := t.TempDir()
	dir := "/m"
	if err := os.WriteFile(baselinePath(root, dir), []byte("not gzip"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBaseline(root, dir)
	if b != nil || err == nil || !strings.Contains(err.Error(), "review baseline") {
		t.Fatalf("corrupt baseline: got %v, %v; want a named error", b, err)
	}
	// A save does not write over it (OpenBaseline moves it aside first:
	// TestBaselineThatCannotBeReadIsMovedAside).
	if err := SaveBaseline(root, &model.Baseline{Dir: dir, Files: map[string]model.BaselineFile{}}); !errors.Is(err, ErrCorruptState) {
		t.Fatalf("save over a corrupt baseline: %v; want it refused", err)
	}
}

func TestDefaultStateDirsFollowsTheGivenEnvironment(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/st"}
	d := DefaultStateDirs(func(k string) string { return env[k] })
	if d.Journal != "/st/memtui/journal" || d.Seen != "/st/memtui/seen" || d.Snapshots != "/st/memtui/snapshots" {
		t.Errorf("state dirs %+v; want them under $XDG_STATE_HOME", d)
	}
	// Without $XDG_CACHE_HOME the cache follows $HOME where XDG applies
	// (macOS and Windows keep their own places).
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		if d.Cache != "/home/u/.cache/memtui" {
			t.Errorf("cache %s; want /home/u/.cache/memtui", d.Cache)
		}
		delete(env, "XDG_STATE_HOME")
		if d := DefaultStateDirs(func(k string) string { return env[k] }); d.Seen != "/home/u/.local/state/memtui/seen" {
			t.Errorf("baselines %s; want them under $HOME/.local/state", d.Seen)
		}
	}
	env["XDG_CACHE_HOME"] = "/c"
	if d := DefaultStateDirs(func(k string) string { return env[k] }); d.Cache != "/c/memtui" {
		t.Errorf("cache %s; want /c/memtui", d.Cache)
	}
}
