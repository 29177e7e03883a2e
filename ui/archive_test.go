package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// TestArchiveProposalShownAndWritten: in a folder of 201 memories whose
// oldest has a name full of escape sequences and a newline, the archive
// proposal shows its move as a rename (the name escaped, on one line, no
// content diff), the write dialog lists it as a move, writing it moves the
// file into .archive/ with its mtime, and the journal shows the move.
// No frame carries a raw control character or a line the name forged.
func TestArchiveProposalShownAndWritten(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	evil := "zz" + hostile.OSC52 + "\n" + hostile.Forged + ".md"
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var index strings.Builder
	for i := range 201 {
		name := fmt.Sprintf("note_%03d.md", i)
		if i == 0 {
			name = evil
		}
		p := filepath.Join(mem, name)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("---\nname: note-%03d\ndescription: fact %d\ntype: user\n---\n\nFact %d.\n", i, i, i)), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			fmt.Fprintf(&index, "- [n%d](%s) — fact %d\n", i, name, i)
		}
	}
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(index.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	cfg := Config{
		Scan: memfs.Options{MemoryDirs: []string{mem}, Getenv: func(string) string { return "" }, Home: t.TempDir(),
			ManagedSettings: filepath.Join(state, "none.json")},
		Orient:      consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
		Home:        "/home/dev",
		Clock:       func() time.Time { return testNow },
		JournalRoot: filepath.Join(state, "journal"),
		SeenRoot:    filepath.Join(state, "seen"),
	}
	d := newDriver(t, cfg, 160, 48)
	var frames []frame
	shot := func(where string) { frames = append(frames, frame{where, d.m.View().Content}) }

	d.openProposals()
	var it *propItem
	for _, x := range d.m.proposals.items {
		if x.p.Kind == model.KindArchive {
			it = x
		}
	}
	if it == nil {
		t.Fatalf("no archive proposal:\n%s", d.screen())
	}
	d.selectProposal(it.title)
	shot("archive proposal")
	// (The line is cut at the pane's edge: its start is enough.)
	want := consolidate.RenameLine(`zz\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE [error] memory-stub owned.md.md`, ".archive/zz")
	if out := d.screen(); !strings.Contains(out, want) {
		t.Errorf("the diff does not show the move as %q:\n%s", want, out)
	}
	d.keys("d")
	shot("archive proposal (side by side)")
	d.keys("d")
	// Accept it alone and write it.
	d.keys("a", "w")
	shot("write dialog")
	if out := d.screen(); !strings.Contains(out, `move    zz\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE`) || !strings.Contains(out, "→ .archive/zz") {
		t.Errorf("the write dialog does not list the move:\n%s", out)
	}
	d.keys("y")
	shot("after the write")
	moved := filepath.Join(mem, ".archive", evil)
	fi, err := os.Lstat(moved)
	if err != nil {
		t.Fatalf("not archived: %v\n%s", err, d.screen())
	}
	if !fi.ModTime().Equal(base) {
		t.Errorf("the archived file's mtime is %s, want %s kept", fi.ModTime(), base)
	}
	if d.m.dialog != nil {
		d.keys("esc") // (the write's result)
	}
	d.keys("L")
	shot("journal")
	if out := ansi.Strip(d.m.View().Content); !strings.Contains(out, "move  zz") {
		t.Errorf("the journal does not show the move:\n%s", out)
	}
	d.keys("u")
	shot("undo dialog")
	if out := d.screen(); !strings.Contains(out, "→ zz") {
		t.Errorf("the undo dialog does not say the file moves back:\n%s", out)
	}
	d.keys("esc")

	for _, f := range frames {
		for _, p := range hostile.Controls(f.content, hostile.Terminal) {
			t.Errorf("%s: %s", f.where, p)
		}
		for _, p := range hostile.Forgeries(f.content) {
			t.Errorf("%s: %s", f.where, p)
		}
	}
}
