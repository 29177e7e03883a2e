//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/sessionfix"
	"github.com/memtui/memtui/memfs"
)

// Attacks by an external --proposer: what it prints, what it leaves
// running, and what it proposes. Each runs `dream --proposer` with a shell
// script, as a user would.

// proposerScript writes an executable shell script and returns its path.
func proposerScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "proposer.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// treeState is every file under dir with its bytes and mtime.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() { // (never a FIFO: reading one blocks)
			b, _ := os.ReadFile(p)
			out[p] = fi.ModTime().String() + "\x00" + string(b)
		}
		return nil
	})
	return out
}

func TestProposerOutputOverTheCapIsRefused(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	before := treeState(t, memDir)
	// 200 MB of a JSON-looking answer, never stored anywhere: only what
	// memtui keeps of it counts.
	script := proposerScript(t, `cat >/dev/null; yes '{"version":1,"proposals":[]}' | head -c 200000000`)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	alloc := ms.TotalAlloc
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "dream", "--json", "--proposer", script)
	runtime.ReadMemStats(&ms)
	if code != exitUsage || !strings.Contains(stderr, "proposer output over 64 MB") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "" {
		t.Errorf("proposals from a refused proposer: %s", stdout[:min(len(stdout), 200)])
	}
	// Reading stops at the 64 MB cap: what dream allocated in all is a
	// small multiple of it, not of the 200 MB printed.
	if got := (ms.TotalAlloc - alloc) >> 20; got > 200 {
		t.Errorf("dream allocated %d MB reading a proposer capped at 64 MB", got)
	}
	if after := treeState(t, memDir); len(after) != len(before) {
		t.Errorf("the memory directory changed: %d files, was %d", len(after), len(before))
	}
}

// pidGone reports whether pid no longer runs (a zombie nobody reaped
// counts as gone: in a container init may not reap).
func pidGone(pid int) bool {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
			return s[i+2] == 'Z' || s[i+2] == 'X'
		}
	}
	return syscall.Kill(pid, 0) == syscall.ESRCH
}

func TestProposerTimeoutKillsEverythingItStarted(t *testing.T) {
	cfg, _, _ := proposerTree(t)
	pids := filepath.Join(t.TempDir(), "pids")
	// A child that holds the output pipe, a grandchild that does not, and
	// the script itself waiting on them.
	script := proposerScript(t, `cat >/dev/null
sleep 1000 & echo $! >> `+pids+`
sh -c 'sleep 1000 >/dev/null 2>&1 & echo $! >> `+pids+`; wait' >/dev/null 2>&1 &
wait`)
	code, _, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "dream", "--proposer", script, "--proposer-timeout", "500ms")
	if code != exitUsage || !strings.Contains(stderr, "did not finish within 500ms") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	b, _ := os.ReadFile(pids)
	list := strings.Fields(string(b))
	if len(list) != 2 {
		t.Fatalf("the script recorded pids %q", b)
	}
	for _, s := range list {
		pid, _ := strconv.Atoi(s)
		// A deadline against a hang, not a speed target: SIGKILL is
		// delivered at once, reaping may take a moment.
		for end := time.Now().Add(10 * time.Second); !pidGone(pid) && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		}
		if !pidGone(pid) {
			t.Errorf("process %d the proposer started still runs after the timeout", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func TestProposerHostileProposalsAreRefusedWithReasons(t *testing.T) {
	cfg, memDir, hash := proposerTree(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "victim.md"), "not yours\n")
	for link, target := range map[string]string{
		"out":      outside,                                    // a directory outside
		"alias.md": "project_launch.md",                        // a memory read through a link inside
		"new.md":   filepath.Join(outside, "not-there-yet.md"), // a dangling link
	} {
		if err := os.Symlink(target, filepath.Join(memDir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(memDir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, outBefore := treeState(t, memDir), treeState(t, outside)
	index, _ := os.ReadFile(filepath.Join(memDir, "MEMORY.md"))
	ixHash := consolidate.SHA256Hex(index)
	after := `---\nname: launch\ndescription: When the portal launches\ntype: project\n---\n\nWe launch on 2026-11-22.\n`
	prop := func(title, changes string) string {
		return `{"kind":"reindex","title":"` + title + `","rationale":"r","changes":[` + changes + `]}`
	}
	create := func(path string) string {
		return `{"path":"` + path + `","op":"create","base_sha256":"","after":"x\n"}`
	}
	out := `{"version":1,"proposals":[` + strings.Join([]string{
		prop("Good", `{"path":"project_launch.md","op":"update","base_sha256":"`+hash+`","after":"`+after+`"}`),
		prop("Drop the index", `{"path":"MEMORY.md","op":"delete","base_sha256":"`+ixHash+`","after":""}`),
		prop("Clipboard", create(`evil\u001b]52;c;cm0gLXJmIH4=\u0007.md`)),
		prop("Forged line", create(`a\nproject_launch.md:1: error: forged.md`)),
		prop("Outside", create(`out/victim2.md`)),
		prop("Through a link", `{"path":"alias.md","op":"update","base_sha256":"`+hash+`","after":"`+after+`"}`),
		prop("Dangling", create(`new.md`)),
		prop("FIFO", create(`pipe.md`)),
		prop("Huge", `{"path":"huge.md","op":"create","base_sha256":"","after":"`+strings.Repeat("x", dream.MaxProposedFileBytes+1)+`"}`),
		prop(`Title\u001b]0;owned\u0007`, create(`fine.md`)),
	}, ",") + `]}`
	// The proposer's own stderr, relayed, tries the clipboard too.
	script := proposerScript(t, "cat >/dev/null; printf 'thinking\\033]52;c;eA==\\007\\n' >&2; cat <<'EOF'\n"+out+"\nEOF")
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "dream", "--json", "--now", "2026-11-21", "--proposer", script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeDream(t, stdout)
	if len(got.Proposals) != 1 || got.Proposals[0].Title != "Good" {
		var titles []string
		for _, p := range got.Proposals {
			titles = append(titles, p.Title)
		}
		t.Errorf("want only the good proposal, got %q", titles)
	}
	for _, want := range []string{
		`"Drop the index"`, "never delete it",
		`"Clipboard"`, "control character (U+001B)",
		`"Forged line"`, "control character (U+000A)",
		`"Outside"`, "out/victim2.md (its directory out) is a symlink",
		`"Through a link"`, "alias.md is a symlink",
		`"Dangling"`, "new.md is a symlink",
		`"FIFO"`, "pipe.md is not a regular file",
		`"Huge"`, "over the 1024 KB",
		`"Title\x1b]0;owned\x07"`, "not one line",
		`thinking\x1b]52;c;eA==\x07`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.ContainsAny(stderr, "\x1b\x07") {
		t.Errorf("a raw control character reached stderr: %q", stderr)
	}
	if lines := strings.Count(stderr, "\n"); lines != 10 {
		t.Errorf("%d lines on stderr for the proposer's one and 9 rejections (a name forged a line?):\n%s", lines, stderr)
	}
	// dream without --apply writes nothing, anywhere.
	if a := treeState(t, memDir); len(a) != len(before) {
		t.Errorf("the memory directory changed")
	}
	if a := treeState(t, outside); len(a) != len(outBefore) {
		t.Errorf("the directory outside changed")
	}
}

// The proposer's input carries no secret: not from a file's content or
// name, the index, nor the findings, which quote text lost from a
// transcript and the branch it was written on.
func TestProposerInputIsRedacted(t *testing.T) {
	token := "ghp_Hn4Wq8Zt2Lp6Vb9Xc3Mk7Rj1Fd5Gs0Ya8uEq"
	branch := "xoxb-2837465019-7364519283-aZ3kQ9wLm2Xc8Vb4Nd7Rt1Yp"
	lostToken := "glpat-Zr8Kq2Wx6Lm4Np9Tb3Vc"
	cfg := t.TempDir()
	proj := filepath.Join(cfg, "projects", "-work-shop")
	memDir := filepath.Join(proj, "memory")
	index := filepath.Join(memDir, "MEMORY.md")
	v0 := "# Memory\n\n- [CI](reference_ci_" + token + ".md) — the CI token\n"
	lineA := "- [Deploy](project_deploy.md) — deploy token " + lostToken
	lineB := "- [Staging](reference_staging.md) — staging lives on stg.test"
	v1, v2 := v0+lineA+"\n", v0+lineB+"\n"
	deploy := "---\nname: deploy\ndescription: Deploy token\ntype: project\n---\n\nThe deploy token is " + lostToken + ".\n"
	staging := "---\nname: staging\ndescription: Where staging lives\ntype: reference\n---\n\nStaging lives on stg.test.\n"
	t0 := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	a := sessionfix.New(proj, "aaaa1111-1d7b-4c3e-9a46-0b8e2f1d7c90", "/work/shop", branch)
	b := sessionfix.New(proj, "bbbb2222-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "/work/shop", "main")
	a.Prompt(t0, "remember the deploy token")
	b.Prompt(t0.Add(time.Second), "remember staging")
	a.Read(t0.Add(10*time.Second), index, v0)
	b.Read(t0.Add(12*time.Second), index, v0)
	a.Write(t0.Add(20*time.Second), filepath.Join(memDir, "project_deploy.md"), deploy, "", true)
	a.Edit(t0.Add(30*time.Second), index, strings.TrimSuffix(v0, "\n"), strings.TrimSuffix(v0, "\n")+"\n"+lineA, v0)
	b.Write(t0.Add(40*time.Second), filepath.Join(memDir, "reference_staging.md"), staging, "", true)
	b.Write(t0.Add(50*time.Second), index, v2, v1, false)
	if err := a.Save(t0.Add(31 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(t0.Add(51 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{index: v2, filepath.Join(memDir, "project_deploy.md"): deploy,
		filepath.Join(memDir, "reference_staging.md"):      staging,
		filepath.Join(memDir, "reference_ci_"+token+".md"): "---\nname: ci\ndescription: The CI token " + token + "\ntype: reference\n---\n\nToken: " + token + "\n"} {
		writeFile(t, p, c)
	}
	saved := filepath.Join(t.TempDir(), "in.json")
	script := proposerScript(t, `cat > `+saved+`; echo '{"version":1,"proposals":[]}'`)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	code, _, stderr := runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "dream", "--proposer", script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	in, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	var parsed dream.ProposerInput
	if err := json.Unmarshal(in, &parsed); err != nil {
		t.Fatal(err)
	}
	lost := false
	for _, f := range parsed.Findings {
		lost = lost || f.Rule == "lost-update"
	}
	if !lost || parsed.Index == nil || len(parsed.Files) != 3 {
		t.Fatalf("the fixture must give a lost-update finding, the index and three files:\n%s", in)
	}
	for _, secret := range []string{token, branch, lostToken} {
		// Not whole, and not in part either.
		for _, part := range []string{secret, secret[:len(secret)/2], secret[len(secret)/2:]} {
			if strings.Contains(string(in), part) {
				t.Errorf("the proposer's input holds %q (of %q):\n%s", part, secret, in)
			}
		}
	}
}

// The cap on a proposed file is memtui's own read cap: a file it writes
// is one it can read whole again.
func TestProposedFileCapIsTheReadCap(t *testing.T) {
	if dream.MaxProposedFileBytes != memfs.DefaultMaxFileBytes {
		t.Errorf("dream.MaxProposedFileBytes %d, memfs.DefaultMaxFileBytes %d", dream.MaxProposedFileBytes, memfs.DefaultMaxFileBytes)
	}
}
