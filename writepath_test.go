//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/sessionfix"
)

var old = time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)

// A write leaves .consolidate-lock as it was (body and mtime, or absent):
// no PID for other runs to wait on, Claude Code's autoDream clock where it
// was. --mark-consolidated records "consolidated now" instead.
func TestApplyLeavesTheLockAsItWas(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	file := filepath.Join(memDir, "project_launch.md")
	os.Chtimes(file, old, old)
	lock := filepath.Join(memDir, ".consolidate-lock")
	writeFile(t, lock, "31337")
	os.Chtimes(lock, old, old)
	if code, out, errs := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates"); code != exitOK {
		t.Fatalf("%d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(lock); string(b) != "31337" || !mtimeAt(t, lock).Equal(old) {
		t.Errorf("lock %q %v, want \"31337\" %v", b, mtimeAt(t, lock), old)
	}
	if !mtimeAt(t, file).Equal(old) {
		t.Errorf("absolutize-dates moved the file's mtime to %v", mtimeAt(t, file))
	}

	cfg2, memDir2, _ := proposerTree(t)
	lock2 := filepath.Join(memDir2, ".consolidate-lock")
	start := time.Now().Add(-time.Second)
	if code, out, errs := runCLI(t, e, "--config-dir", cfg2, "dream", "--apply", "--yes", "--mark-consolidated", "--kind", "absolutize-dates"); code != exitOK {
		t.Fatalf("%d\n%s%s", code, out, errs)
	}
	if b, err := os.ReadFile(lock2); err != nil || len(b) != 0 || mtimeAt(t, lock2).Before(start) {
		t.Errorf("--mark-consolidated: lock %q %v, want empty, mtime now", b, err)
	}
}

// journal prune says what it drops (entry, files, bytes); --dry-run drops
// nothing; the retention of config.yaml is applied by every run that may
// write, and says so.
func TestJournalPruneAndRetention(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	state, xdgCfg := t.TempDir(), t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CONFIG_HOME", xdgCfg)
	if code, out, errs := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates"); code != exitOK {
		t.Fatalf("%d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, e, "--config-dir", cfg, "undo", "--list")
	id := strings.Fields(out)[0]
	entry := filepath.Join(state, "memtui", "journal", id)
	img, _ := os.ReadFile(filepath.Join(entry, "before", "0"))

	code, out, errs := runCLI(t, e, "journal", "prune", "--older-than", "0", "--dry-run")
	want := regexp.MustCompile(`would drop ` + regexp.QuoteMeta(id) + `  .*absolutize-dates.*: 1 file, ` + itoa(len(img)) + ` bytes`)
	if code != exitOK || !want.MatchString(out) || !strings.Contains(out, "nothing dropped (--dry-run)") {
		t.Fatalf("dry run: %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(entry); err != nil {
		t.Fatal("--dry-run dropped the entry")
	}
	// The default retention keeps a fresh entry.
	code, out, _ = runCLI(t, e, "journal", "prune")
	if code != exitOK || !strings.Contains(out, "Dropped 0 entries") {
		t.Fatalf("default retention: %d\n%s", code, out)
	}
	// Age the entry past a configured retention of 30 days: the next run
	// that may write drops it and says what went.
	writeFile(t, filepath.Join(xdgCfg, "memtui", "config.yaml"), "journal_retention_days: 30\n")
	agedID := "20200101T000000.000000000Z-0badc0de"
	m, _ := os.ReadFile(filepath.Join(entry, "manifest.json"))
	m = bytes.Replace(m, []byte(id), []byte(agedID), 1)
	m = regexp.MustCompile(`"time": "[^"]*"`).ReplaceAll(m, []byte(`"time": "2020-01-01T00:00:00Z"`))
	if err := os.Rename(entry, filepath.Join(filepath.Dir(entry), agedID)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(filepath.Dir(entry), agedID, "manifest.json"), m, 0o600)
	code, _, errs = runCLI(t, e, "--config-dir", cfg, "lint")
	if !strings.Contains(errs, "keeps entries 30 days") || !strings.Contains(errs, "dropped "+agedID) || !strings.Contains(errs, "1 file, "+itoa(len(img))+" bytes") {
		t.Fatalf("retention: %d\n%s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(entry), agedID)); !os.IsNotExist(err) {
		t.Errorf("the aged entry is still there: %v", err)
	}
	_ = memDir
}

// The journal and the review baselines are owner-only, created so and
// tightened when found looser.
func TestStateIsOwnerOnly(t *testing.T) {
	cfg, _, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state)
	runCLI(t, e, "--config-dir", cfg, "changes")
	runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	check := func(when string) {
		t.Helper()
		n := 0
		filepath.WalkDir(filepath.Join(state, "memtui"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == filepath.Join(state, "memtui") {
				return nil
			}
			fi, _ := d.Info()
			n++
			if fi.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s: %s is %v", when, p, fi.Mode().Perm())
			}
			return nil
		})
		if n < 6 {
			t.Fatalf("%s: only %d state files", when, n)
		}
	}
	check("created")
	filepath.WalkDir(filepath.Join(state, "memtui"), func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() {
			os.Chmod(p, 0o755)
		} else {
			os.Chmod(p, 0o644)
		}
		return nil
	})
	runCLI(t, e, "--config-dir", cfg, "lint")
	check("tightened")
}

// Once a secret is redacted through memtui (here by a re-dating that
// redacts the file it writes), that write's journal entry is the only copy
// memtui keeps: the review baseline no longer holds it.
func TestRedactionScrubsOtherCopies(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	token := "ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u"
	file := filepath.Join(memDir, "reference_ci.md")
	writeFile(t, file, "---\nname: ci\ndescription: CI access\ntype: reference\n---\n\nThe CI token is "+token+". Ask tomorrow.\n")
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state)
	runCLI(t, e, "--config-dir", cfg, "changes") // the baseline: a copy with the token
	if !containsUnder(t, filepath.Join(state, "memtui"), token) {
		t.Fatal("the test needs a copy of the token in the baseline")
	}
	if code, out, errs := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates"); code != exitOK || !strings.Contains(out, "applied") {
		t.Fatalf("%d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(file); strings.Contains(string(b), token) {
		t.Fatal("the write must have redacted the token")
	}
	var holders []string
	filepath.WalkDir(filepath.Join(state, "memtui"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && fileHas(t, p, token) {
			holders = append(holders, p)
		}
		return nil
	})
	if len(holders) != 1 || !strings.Contains(holders[0], filepath.Join("journal")) || !strings.Contains(holders[0], "before") {
		t.Fatalf("the token must be kept only in the redacting entry's before-image; found in %v", holders)
	}
	// The baseline is still there, scrubbed: the writes were memtui's own,
	// reviewed, so they are no change to review again (issue 15), and no
	// copy of the token comes back through it.
	code, out, _ := runCLI(t, e, "--config-dir", cfg, "changes")
	if code != exitOK || strings.Contains(out, token) || !strings.Contains(out, "no changes since the last review") {
		t.Errorf("changes after the scrub:\n%s", out)
	}
}

func containsUnder(t *testing.T, root, s string) bool {
	found := false
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && fileHas(t, p, s) {
			found = true
		}
		return nil
	})
	return found
}

// fileHas reads a state file (gunzipped when it is gzip) and looks for s.
func fileHas(t *testing.T, p, s string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
		if u, err := io.ReadAll(zr); err == nil {
			b = u
		}
	}
	return bytes.Contains(b, []byte(s))
}

// A memory dir named only by a repository's own .claude/settings.json is
// shown, but not written unless the user names it with --memory-dir.
func TestWorkspaceOverrideDirNotWritten(t *testing.T) {
	cfg := t.TempDir()
	root := filepath.Join(t.TempDir(), "repo")
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	proj := filepath.Join(cfg, "projects", regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(root, "-"))
	os.MkdirAll(proj, 0o755)
	s := sessionfix.New(proj, "aaaa1111-1d7b-4c3e-9a46-0b8e2f1d7c90", root, "main")
	s.Prompt(old, "hello")
	if err := s.Save(old); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.MkdirAll(target, 0o755)
	file := filepath.Join(target, "project_launch.md")
	content := "---\nname: launch\ndescription: When the portal launches\ntype: project\n---\n\nWe launch tomorrow.\n"
	writeFile(t, file, content)
	writeFile(t, filepath.Join(root, ".claude", "settings.json"), `{"autoMemoryDirectory": "`+target+`"}`)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())

	code, out, errs := runCLI(t, e, "--config-dir", cfg, "lint")
	if !strings.Contains(out, target) && !strings.Contains(errs, target) {
		t.Fatalf("the dir must be shown: %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	if code != exitFindings || !strings.Contains(out, "failed") || !strings.Contains(out, "autoMemoryDirectory") || !strings.Contains(out, "--memory-dir "+target) {
		t.Fatalf("a workspace-named dir must be refused, saying why and how: %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(file); string(b) != content {
		t.Fatal("the workspace-named dir was written")
	}
	if _, err := os.Lstat(filepath.Join(target, ".consolidate-lock")); !os.IsNotExist(err) {
		t.Errorf("a lock was written there: %v", err)
	}
	code, out, errs = runCLI(t, e, "--config-dir", cfg, "--memory-dir", target, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	if code != exitOK || !strings.Contains(out, "applied") {
		t.Fatalf("named with --memory-dir it is written: %d\n%s%s", code, out, errs)
	}
}

// After a crash and an agent's write, the next run's recovery says file by
// file what it put back and what it left as the agent wrote it.
func TestRecoveryReportFileByFile(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state)
	launch := filepath.Join(memDir, "project_launch.md")
	index := filepath.Join(memDir, "MEMORY.md")
	launchBefore, _ := os.ReadFile(launch)
	indexBefore, _ := os.ReadFile(index)
	launchOurs, indexOurs := "memtui's half-written launch\n", "memtui's half-written index\n"
	// The crash: both files hold memtui's version, the entry is pending.
	writeFile(t, launch, launchOurs)
	writeFile(t, index, indexOurs)
	// Then an agent rewrites MEMORY.md.
	agent := "- [Launch](project_launch.md) — rewritten by an agent\n"
	writeFile(t, index, agent)
	id := "20261125T120000.000000000Z-0c0ffee0"
	jdir := filepath.Join(state, "memtui", "journal")
	os.MkdirAll(filepath.Join(jdir, id, "before"), 0o700)
	os.MkdirAll(filepath.Join(jdir, "pending"), 0o700)
	os.WriteFile(filepath.Join(jdir, id, "before", "0"), launchBefore, 0o600)
	os.WriteFile(filepath.Join(jdir, id, "before", "1"), indexBefore, 0o600)
	os.WriteFile(filepath.Join(jdir, "pending", id), nil, 0o600)
	manifest := `{"version":1,"id":"` + id + `","proposal_id":"p","kind":"merge","title":"t","memory_dir":"` + memDir + `","real_dir":"` + memDir + `",
"time":"2026-11-25T12:00:00Z","state":"prepared","files":[
{"path":"project_launch.md","op":"update","before_sha256":"` + sha(launchBefore) + `","after_sha256":"` + sha([]byte(launchOurs)) + `","mode":420,"state":"pending","image":"before/0","before_mtime_ns":` + itoa(int(old.UnixNano())) + `},
{"path":"MEMORY.md","op":"update","before_sha256":"` + sha(indexBefore) + `","after_sha256":"` + sha([]byte(indexOurs)) + `","mode":420,"state":"pending","image":"before/1"}]}`
	os.WriteFile(filepath.Join(jdir, id, "manifest.json"), []byte(manifest), 0o600)

	_, _, errs := runCLI(t, e, "--config-dir", cfg, "lint")
	for _, want := range []string{
		"an interrupted write (journal " + id,
		"project_launch.md: rolled back: put back as it was before the interrupted write",
		"MEMORY.md: not rolled back: someone else changed it after the interrupted write; their version is left in place",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("the recovery report lacks %q:\n%s", want, errs)
		}
	}
	if b, _ := os.ReadFile(launch); string(b) != string(launchBefore) || !mtimeAt(t, launch).Equal(old) {
		t.Errorf("project_launch.md must be back, bytes and mtime: %q %v", b, mtimeAt(t, launch))
	}
	if b, _ := os.ReadFile(index); string(b) != agent {
		t.Errorf("the agent's MEMORY.md must stay: %q", b)
	}
}
