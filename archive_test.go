//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// archiveDir writes n memories into a new memory dir, the i-th modified i
// hours after base (the 0-th named first, when given), each linked from
// MEMORY.md, and returns the dir and the names.
func archiveDir(t *testing.T, n int, base time.Time, first string) (string, []string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	var index strings.Builder
	for i := range n {
		name := fmt.Sprintf("project_ticket_%03d.md", i)
		if i == 0 && first != "" {
			name = first
		}
		p := filepath.Join(dir, name)
		body := fmt.Sprintf("---\nname: ticket-%03d\ndescription: Ticket %d and who owns it\ntype: project\n---\n\nTicket %d is owned by team %d.\n", i, i, i, i%7)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		if !strings.ContainsAny(name, "\n()[]") {
			fmt.Fprintf(&index, "- [Ticket %d](%s) — who owns it\n", i, name)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(index.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, names
}

// TestDreamArchivesPastTheRecallCap: `memtui dream --json` on a folder of
// 201 memories proposes one archive whose change moves the oldest
// ("from") to .archive/ ("path"); applied, the folder is back at 200 in
// Claude Code's scan, ls shows the archived file out of it, lint no longer
// reports the cap nor the archived file; undo moves it back with its mtime.
func TestDreamArchivesPastTheRecallCap(t *testing.T) {
	base := time.Date(2026, 5, 1, 9, 30, 0, 123456789, time.UTC)
	dir, names := archiveDir(t, 201, base, "")
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	args := func(a ...string) []string { return append([]string{"--memory-dir", dir, "--now", "2026-11-21"}, a...) }

	code, stdout, stderr := runCLI(t, e, args("dream", "--json", "--kind", "archive")...)
	if code != exitOK {
		t.Fatalf("dream: exit %d\n%s", code, stderr)
	}
	ps := decodeDream(t, stdout).Proposals
	if len(ps) != 1 || ps[0].Kind != model.KindArchive {
		t.Fatalf("proposals: %+v", ps)
	}
	var move *model.Change
	for i, c := range ps[0].Changes {
		if c.Op == model.OpMove {
			if move != nil {
				t.Fatalf("more than one move: %+v", ps[0].Changes)
			}
			move = &ps[0].Changes[i]
		}
	}
	if move == nil || move.From != names[0] || move.Path != ".archive/"+names[0] || move.After != "" || move.BaseSHA256 == "" {
		t.Fatalf("the move: %+v", move)
	}
	if !strings.Contains(stdout, `"from": "`+names[0]+`"`) {
		t.Errorf("dream --json has no \"from\" field:\n%s", stdout[:min(len(stdout), 800)])
	}
	code, stdout, _ = runCLI(t, e, args("dream", "--kind", "archive")...)
	if code != exitOK || !strings.Contains(stdout, "rename "+names[0]+" → .archive/"+names[0]) {
		t.Errorf("dream's text does not show the rename (exit %d):\n%s", code, stdout)
	}

	code, stdout, stderr = runCLI(t, e, args("dream", "--apply", "--yes", "--kind", "archive")...)
	if code != exitOK || !strings.Contains(stdout, "applied   archive-") {
		t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
	}
	fi, err := os.Stat(filepath.Join(dir, ".archive", names[0]))
	if err != nil || !fi.ModTime().Equal(base) {
		t.Fatalf("the archived file: %v, mtime %v (want %s)", err, fi, base)
	}
	if ix, _ := os.ReadFile(filepath.Join(dir, "MEMORY.md")); !strings.Contains(string(ix), "(.archive/"+names[0]+") — who owns it") {
		t.Errorf("MEMORY.md does not lead to the archived file:\n%s", ix)
	}
	code, stdout, _ = runCLI(t, e, args("ls", "--json")...)
	var ls struct {
		Memories []struct {
			File   string `json:"file"`
			InScan *bool  `json:"in_scan"`
			Reason string `json:"reason"`
		} `json:"memories"`
	}
	if err := json.Unmarshal([]byte(stdout), &ls); err != nil {
		t.Fatalf("ls --json (exit %d): %v", code, err)
	}
	inScan, shown := 0, false
	for _, m := range ls.Memories {
		if m.InScan != nil && *m.InScan {
			inScan++
		}
		if m.File == ".archive/"+names[0] {
			shown = m.Reason == string(model.ScanExcluded)
		}
	}
	if inScan != model.RecallScanCap || !shown {
		t.Errorf("ls: %d in the scan (want %d); the archived file listed as excluded: %v", inScan, model.RecallScanCap, shown)
	}
	_, stdout, _ = runCLI(t, e, args("lint", "--json")...)
	for _, f := range decodeLint(t, stdout).Findings {
		if f.Rule == "recall-cap" || model.IsArchived(f.File) {
			t.Errorf("after the archive, lint reports %s on %q: %s", f.Rule, f.File, f.Message)
		}
	}

	_, stdout, _ = runCLI(t, e, args("undo", "--list")...)
	id := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, " archive ") {
			id = strings.Fields(l)[0]
		}
	}
	if code, stdout, stderr = runCLI(t, e, args("undo", id)...); code != exitOK {
		t.Fatalf("undo %q: exit %d\n%s%s", id, code, stdout, stderr)
	}
	fi, err = os.Stat(filepath.Join(dir, names[0]))
	if err != nil || !fi.ModTime().Equal(base) {
		t.Errorf("after undo %s: %v, mtime %v (want %s back)", names[0], err, fi, base)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".archive")); !os.IsNotExist(err) {
		t.Errorf("undo left .archive/ behind: %v", err)
	}
}
