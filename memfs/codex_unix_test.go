//go:build unix

package memfs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// TestLoadCodexHostile: links are recorded and never followed (out of the
// store, to /dev/zero, in a loop), a FIFO is a problem and no wait, a
// name with escape sequences is read as any other, and nothing outside
// the store is read.
func TestLoadCodexHostile(t *testing.T) {
	home := codexStore(t)
	mem := filepath.Join(home, "memories")
	outside := testfs.Mkdir(t, filepath.Join(t.TempDir(), "outside"))
	secret := testfs.Write(t, filepath.Join(outside, "secret.md"), testfs.OutsideSecret)
	testfs.Symlink(t, outside, filepath.Join(mem, "skills", "linked"))
	testfs.Symlink(t, secret, filepath.Join(mem, "extensions", "ad_hoc", "notes", "2026-05-02T10-00-00-out.md"))
	testfs.Symlink(t, "/dev/zero", filepath.Join(mem, "zero.md"))
	testfs.Symlink(t, "loop", filepath.Join(mem, "loop"))
	testfs.Mkfifo(t, filepath.Join(mem, "rollout_summaries", "pipe.md"))
	escaped := "\x1b[31mred\x1b[0m\n.md"
	testfs.Write(t, filepath.Join(mem, escaped), "escaped\n")
	before := treeState(t, filepath.Dir(home))
	var s *codex.Store
	testfs.ReturnsIn(t, "LoadCodex over links and a FIFO", func() { s = loadCodex(t, home, Options{Getenv: env(nil)}) })
	if after := treeState(t, filepath.Dir(home)); !reflect.DeepEqual(before, after) {
		t.Error("reading changed the tree")
	}
	wantLinks := []string{"extensions/ad_hoc/notes/2026-05-02T10-00-00-out.md", "loop", "skills/linked", "zero.md"}
	if !reflect.DeepEqual(s.Links, wantLinks) {
		t.Errorf("Links = %q, want %q", s.Links, wantLinks)
	}
	want := map[string]model.ProblemKind{"rollout_summaries/pipe.md": model.ProblemNotFile}
	if got := problemKinds(s.Problems); !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %+v", s.Problems)
	}
	if f := s.File(escaped); f == nil || string(f.Content) != "escaped\n" {
		t.Errorf("the escaped name: %+v", f)
	}
	for _, f := range s.Files {
		if strings.Contains(string(f.Content), testfs.OutsideSecret) || strings.HasPrefix(f.Path, "skills/linked") {
			t.Errorf("read through a link: %s", f.Path)
		}
	}
	if len(s.Files) != 9 {
		t.Errorf("Files = %q", codexPaths(s))
	}
}

// TestLoadCodexSymlinkedRoot: a memories/ that is a symlink is refused,
// as Codex refuses it, and nothing under it is read.
func TestLoadCodexSymlinkedRoot(t *testing.T) {
	home := codexStore(t)
	real := filepath.Join(home, "real-memories")
	if err := os.Rename(filepath.Join(home, "memories"), real); err != nil {
		t.Fatal(err)
	}
	testfs.Symlink(t, real, filepath.Join(home, "memories"))
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	if s.Exists || s.Git || len(s.Files) != 0 || len(s.Links) != 0 {
		t.Errorf("read through the link: %+v", s)
	}
	if len(s.Problems) != 1 || s.Problems[0].Path != "" || s.Problems[0].Kind != model.ProblemLinkSkipped || !strings.Contains(s.Problems[0].Detail, "cannot be a symbolic link") {
		t.Errorf("problems = %+v", s.Problems)
	}
	if !s.ConfigFound {
		t.Error("the config was not read")
	}
}

// TestLoadCodexConfigHostile: a config.toml that is a FIFO is a problem,
// not a wait; one linked from elsewhere is followed, as Codex follows it.
func TestLoadCodexConfigHostile(t *testing.T) {
	home := codexStore(t)
	cfg := filepath.Join(home, "config.toml")
	testfs.Mkfifo(t, cfg)
	var s *codex.Store
	testfs.ReturnsIn(t, "LoadCodex over a FIFO config.toml", func() { s = loadCodex(t, home, Options{Getenv: env(nil)}) })
	if s.ConfigFound || len(s.ConfigProblems) != 1 || !strings.Contains(s.ConfigProblems[0].What, "named pipe") {
		t.Errorf("config: %v %+v", s.ConfigFound, s.ConfigProblems)
	}
	os.Remove(cfg)
	dotfile := testfs.Write(t, filepath.Join(t.TempDir(), "config.toml"), codexCfg)
	testfs.Symlink(t, dotfile, cfg)
	s = loadCodex(t, home, Options{Getenv: env(nil)})
	if !s.ConfigFound || !s.Config.Enabled || s.Config.MaxUnusedDays != 14 {
		t.Errorf("linked config: %v %+v %+v", s.ConfigFound, s.Config, s.ConfigProblems)
	}
}

// TestCodexHomeCanonical: CODEX_HOME through a symlink is the folder it
// leads to, as Codex canonicalizes it.
func TestCodexHomeCanonical(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := testfs.Mkdir(t, filepath.Join(tmp, "real"))
	testfs.Symlink(t, real, filepath.Join(tmp, "link"))
	if got, ok := CodexHome(env(map[string]string{"CODEX_HOME": filepath.Join(tmp, "link")}), tmp); !ok || got != real {
		t.Errorf("CodexHome = %q, %v; want %q", got, ok, real)
	}
	testfs.Symlink(t, real, filepath.Join(tmp, "home", ".codex"))
	if got, ok := CodexHome(env(nil), filepath.Join(tmp, "home")); !ok || got != real {
		t.Errorf("~/.codex linked: %q, %v", got, ok)
	}
	if got, err := CodexHomeDir(filepath.Join(tmp, "link")); err != nil || got != real {
		t.Errorf("CodexHomeDir = %q, %v", got, err)
	}
}
