package memfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model/codex"
)

// TestLoadCodexCwds: LoadCodex records whether each folder the
// handbook's applies_to: cwd= names is there: an absolute path, a ~ path
// under the home, a glob's folder; a folder gone is false; a link is
// looked at, not followed; a Windows path on Unix is not looked up; the
// lookup creates nothing.
func TestLoadCodexCwds(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	shop := filepath.Join(base, "work", "shop")
	testfs.WriteAll(t, shop, map[string]string{"go.mod": "module shop\n"})
	testfs.WriteAll(t, filepath.Join(home, "src", "blog"), map[string]string{"config.toml": "x\n"})
	link := filepath.Join(base, "work", "link")
	if err := os.Symlink(filepath.Join(base, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(base, "work", "gone")
	group := func(cwd string) string {
		return "# Task Group: g\nscope: s\napplies_to: cwd=" + cwd + "; reuse_rule=r\n\n"
	}
	cx := filepath.Join(base, ".codex")
	testfs.WriteAll(t, filepath.Join(cx, "memories"), map[string]string{
		codex.HandbookFile: group(shop) + group("~/src/blog/*") + group(gone+", "+link) + group("C:\\Users\\u\\shop") + group("any repository"),
	})
	before := treeState(t, base)
	s := loadCodex(t, cx, Options{Home: home})
	want := map[string]bool{shop: true, "~/src/blog": true, gone: false, link: true}
	if len(s.CwdExists) != len(want) {
		t.Errorf("CwdExists %v, want %v", s.CwdExists, want)
	}
	for p, ok := range want {
		if got, known := s.CwdExists[p]; !known || got != ok {
			t.Errorf("%s: %v (known %v), want %v", p, got, known, ok)
		}
	}
	if after := treeState(t, base); len(after) != len(before) {
		t.Errorf("the lookups changed the tree: %d paths, were %d", len(after), len(before))
	}
	// Under the demo's chroot, a folder missing says nothing.
	s = loadCodex(t, cx, Options{Home: home, Chroot: filepath.Join(base, "chroot")})
	if _, known := s.CwdExists[gone]; known {
		t.Errorf("under Chroot a missing folder is unknown: %v", s.CwdExists)
	}
}
