package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTitleBarSaysWhichClaudeCodeRan: once the transcripts are read, the
// title bar says once that a newer Claude Code ran (a session of 2.1.400)
// and how many projects last ran an older one (a newest session of
// 2.1.200, and the demo's 2.1.226 ones, but not the blog, whose newest is 2.1.400)
// and that its behaviours differ, or in fewer words where room is short;
// where the tabs need the room (80 columns), it says nothing rather than
// crowd them out.
func TestTitleBarSaysWhichClaudeCodeRan(t *testing.T) {
	cfg, dir := demoConfig(t)
	for _, s := range []struct{ slug, cwd, id, version string }{
		{"-home-dev-blog", "/home/dev/blog", "7a0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20", "2.1.400"},
		{"-home-dev-acme-api", "/home/dev/acme-api", "7b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a21", "2.1.200"},
	} {
		b, _ := json.Marshal(map[string]any{
			"type": "user", "message": map[string]any{"role": "user", "content": "hello"},
			"uuid": "cccccccc-0000-4000-8000-" + s.id[len(s.id)-12:], "timestamp": "2026-11-21T11:00:00.000Z",
			"cwd": s.cwd, "sessionId": s.id, "version": s.version, "gitBranch": "main", "isSidechain": false, "parentUuid": nil,
		})
		if err := os.WriteFile(filepath.Join(dir, "projects", s.slug, s.id+".jsonl"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	title := func(w int) string {
		return strings.SplitN(ansi.Strip(newDriver(t, cfg, w, 48).m.View().Content), "\n", 2)[0]
	}
	if got := title(220); !strings.Contains(got, "9 projects · 1 Codex store · Claude Code 2.1.400 is newer than 2.1.332 · 4 projects on Claude Code 2.1.200 to 2.1.226: 7 behaviours differ") ||
		strings.Count(got, "2.1.400") != 1 {
		t.Errorf("title bar at 220 columns:\n%s", got)
	}
	if got := title(160); !strings.Contains(got, "9 projects · Claude Code 2.1.400 is newer · older Claude Code in 4 projects") || !strings.Contains(got, "Journal") {
		t.Errorf("title bar at 160 columns:\n%s", got)
	}
	// At 80 columns the tabs take their short names, each whole, and the
	// versions are left to lint and version.
	narrow := strings.SplitN(ansi.Strip(newDriver(t, cfg, 80, 24).m.View().Content), "\n", 2)[0]
	if strings.Contains(narrow, "Claude Code") || !strings.Contains(narrow, " Jrnl ") || !strings.Contains(narrow, " Sess ") || strings.Contains(narrow, "…") {
		t.Errorf("80 columns: %q", narrow)
	}
}
