package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestPreviewAgeNeverNowAgo: a memory modified minutes ago reads "just
// now", one dated after "today" "in the future", never "now ago" or
// "future ago".
func TestPreviewAgeNeverNowAgo(t *testing.T) {
	cfg, dir := demoConfig(t)
	mem := filepath.Join(dir, "projects", "-home-dev-blog", "memory")
	// Five minutes before testNow; four days after it.
	redate := func(name, from, to string) {
		t.Helper()
		p := filepath.Join(mem, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(b), "modified: "+from, "modified: "+to, 1)
		if s == string(b) {
			t.Fatalf("setup: %s has no metadata.modified %s", name, from)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	redate("writing-voice.md", "2026-11-02T19:10:00.238Z", testNow.Add(-5*time.Minute).Format(time.RFC3339))
	redate("hugo-build.md", "2026-11-02T19:20:00.238Z", "2026-11-25T19:20:00.238Z")
	d := newDriver(t, cfg, 160, 48)
	selectProjectNamed(d, "/home/dev/blog")
	d.m.setFocus(focusMemories)
	d.m.memories.list.top()
	d.run(d.m.syncSelection())
	got := map[string]string{}
	for range d.m.memories.list.rows {
		if it := d.m.memories.selectedItem(); it != nil && it.file != nil {
			got[it.file.Path] = ansi.Strip(d.m.View().Content)
		}
		d.m.memories.list.move(1)
		d.run(d.m.syncSelection())
	}
	for file, want := range map[string]string{"writing-voice.md": "(metadata.modified · just now)", "hugo-build.md": "(metadata.modified · in the future)"} {
		v, ok := got[file]
		if !ok {
			t.Fatalf("no preview of %s", file)
		}
		if !strings.Contains(v, want) || strings.Contains(v, "now ago") || strings.Contains(v, "future ago") {
			t.Errorf("the preview of %s lacks %q:\n%s", file, want, v)
		}
	}
}
