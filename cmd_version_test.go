package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memtui/memtui/model/claude"
)

// TestVersionNamesTheFollowedClaudeCode: `memtui version` names memtui's
// version, the Claude Code version it follows and the behaviours an older
// Claude Code lacks; --json gives the same.
func TestVersionNamesTheFollowedClaudeCode(t *testing.T) {
	code, stdout, _ := runCLI(t, env(), "version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"memtui ",
		"\nfollows the memory behaviour of Claude Code 2.1.332\n",
		"changed after 2.1.261 (Claude Code 2.1.261 and older lack these",
		"  - a missing MEMORY.md is written by Claude Code at session start (claude-memory-format.md §3.4)\n",
		"  - the memory scan follows symlinked files and folders (claude-memory-format.md §4.1)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("version lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "\n  - "); n != len(claude.Changes) || n != 7 {
		t.Errorf("%d changes listed, want the 7 of the version timeline", n)
	}
	code, stdout, _ = runCLI(t, env(), "version", "--json")
	var v versionJSON
	if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil {
		t.Fatalf("version --json: exit %d, %v\n%s", code, err, stdout)
	}
	if v.Version != 1 || v.ClaudeCode != "2.1.332" || v.ComparedWith != "2.1.261" || len(v.ChangedSinceIt) != 7 || v.ChangedSinceIt[2].ID != "index-backfill" {
		t.Errorf("version --json = %+v", v)
	}
}

// versionTree writes a config dir with two projects, one whose session
// ran Claude Code 2.1.400 and one whose newest session ran 2.1.200 (an
// older one before it ran 2.1.100).
func versionTree(t *testing.T) string {
	t.Helper()
	cfg := t.TempDir()
	line := func(cwd, session, version, ts string) string {
		b, _ := json.Marshal(map[string]any{
			"type": "user", "message": map[string]any{"role": "user", "content": "hello"},
			"uuid": "aaaaaaaa-0000-4000-8000-" + session[len(session)-12:], "timestamp": ts,
			"cwd": cwd, "sessionId": session, "version": version, "gitBranch": "main",
			"userType": "external", "entrypoint": "cli", "isSidechain": false, "parentUuid": nil,
		})
		return string(b) + "\n"
	}
	for _, p := range []struct {
		cwd      string
		sessions [][3]string // id, version, timestamp
	}{
		{"/home/u/newer-app", [][3]string{{"0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20", "2.1.400", "2026-11-20T09:00:00.000Z"}}},
		{"/home/u/older-app", [][3]string{
			{"1b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a21", "2.1.100", "2026-11-01T09:00:00.000Z"},
			{"2b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a22", "2.1.200", "2026-11-19T09:00:00.000Z"},
		}},
	} {
		slug := strings.ReplaceAll(p.cwd, "/", "-")
		dir := filepath.Join(cfg, "projects", slug)
		writeFile(t, filepath.Join(dir, "memory", "MEMORY.md"), "- [Note](note.md) — a note\n")
		writeFile(t, filepath.Join(dir, "memory", "note.md"), "---\nname: note\ndescription: a note\ntype: project\n---\n\nA note with enough words in it to be a memory.\n")
		for _, s := range p.sessions {
			writeFile(t, filepath.Join(dir, s[0]+".jsonl"), line(p.cwd, s[0], s[1], s[2]))
		}
	}
	return cfg
}

// TestLintSaysWhichClaudeCodeRan: lint's text summary ends with one line
// that says a newer Claude Code ran (once) and which behaviours differ in
// the project whose newest session ran an older one.
func TestLintSaysWhichClaudeCodeRan(t *testing.T) {
	cfg := versionTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state, "XDG_CACHE_HOME", t.TempDir())
	_, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "lint")
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "claude code: ") {
			if line != "" {
				t.Errorf("two version lines:\n%s", stdout)
			}
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no version line in lint's summary:\n%s\n%s", stdout, stderr)
	}
	for _, want := range []string{
		"sessions of 2.1.400 ran, newer than the 2.1.332 memtui follows: memory behaviour may have moved since",
		"/home/u/older-app (2.1.200) last ran 2.1.261 or older, where, unlike in 2.1.332, the cut-off warning does not say which lines were cut",
		"a missing MEMORY.md is not written",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("the version line lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(line, "newer-app") || strings.Contains(line, "2.1.100") {
		t.Errorf("the version line names what it should not:\n%s", line)
	}
	// Without transcripts there is nothing to say.
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "--no-transcripts", "lint")
	if strings.Contains(stdout, "claude code: ") {
		t.Errorf("--no-transcripts still reports versions:\n%s", stdout)
	}
}

// TestLintJSONSaysWhichClaudeCodeRan: lint --json carries what the text
// line says: the newer version that ran, and the project whose newest
// session ran an older one with the ids of the changes it lacks. Without
// transcripts the object is there with nothing in it.
func TestLintJSONSaysWhichClaudeCodeRan(t *testing.T) {
	cfg := versionTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	_, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "lint", "--json")
	cc := decodeLint(t, stdout).ClaudeCode
	if cc.Followed != "2.1.332" || cc.Newer != "2.1.400" {
		t.Errorf("claude_code: followed %q newer %q, want 2.1.332 and 2.1.400\n%s%s", cc.Followed, cc.Newer, stdout, stderr)
	}
	if len(cc.Older) != 1 {
		t.Fatalf("claude_code.older = %+v, want only /home/u/older-app", cc.Older)
	}
	o := cc.Older[0]
	if o.Project != "/home/u/older-app" || o.Version != "2.1.200" || !o.Compared || len(o.MayDiffer) != 0 {
		t.Errorf("claude_code.older[0] = %+v, want /home/u/older-app at its newest session's 2.1.200, compared", o)
	}
	if len(o.Differs) != len(claude.Changes) || !slices.Contains(o.Differs, "index-backfill") || !slices.Contains(o.Differs, "scan-symlinks") {
		t.Errorf("claude_code.older[0].differs = %q, want every change id", o.Differs)
	}

	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "--now", "2026-11-21", "--no-transcripts", "lint", "--json")
	cc = decodeLint(t, stdout).ClaudeCode
	if cc.Followed != "2.1.332" || cc.Newer != "" || cc.Older == nil || len(cc.Older) != 0 {
		t.Errorf("--no-transcripts: claude_code = %+v, want the followed version and nothing else", cc)
	}
}

// TestBuildOf: where each part of `memtui version` comes from. -ldflags
// (a release) wins; else `go install ...@vX` gives the module version and
// a build from a checkout its VCS stamp; else devel and unknown.
func TestBuildOf(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	info := func(v string, s []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/memtui/memtui", Version: v}, Settings: s}
	}
	rev := "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name                    string
		ldVersion, ldCommit, ld string
		info                    *debug.BuildInfo
		want                    build
		line                    string
	}{
		{"release", "v1.2.3", rev, "2026-11-21T09:00:00Z", info("(devel)", vcs("vcs.revision", "ffff", "vcs.time", "2026-11-20T08:00:00Z")),
			build{Version: "v1.2.3", Commit: rev, Date: "2026-11-21T09:00:00Z", CommitDate: "2026-11-20T08:00:00Z", Go: "go1.26.8"},
			"v1.2.3 (commit " + rev + ", built 2026-11-21T09:00:00Z, go1.26.8)"},
		{"go install @version", "", "", "", info("v1.2.3", nil),
			build{Version: "v1.2.3", Go: "go1.26.8"},
			"v1.2.3 (commit unknown, build date unknown, go1.26.8)"},
		{"checkout with vcs", "", "", "", info("v0.0.0-20261120080000-0123456789ab+dirty", vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-20T08:00:00Z", "vcs.modified", "true")),
			build{Version: "v0.0.0-20261120080000-0123456789ab+dirty", Commit: rev, CommitDate: "2026-11-20T08:00:00Z", Modified: true, Go: "go1.26.8"},
			"v0.0.0-20261120080000-0123456789ab+dirty (commit " + rev + " with uncommitted changes, committed 2026-11-20T08:00:00Z, go1.26.8)"},
		{"clean checkout", "", "", "", info("(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-11-20T08:00:00Z", "vcs.modified", "false")),
			build{Version: "devel", Commit: rev, CommitDate: "2026-11-20T08:00:00Z", Go: "go1.26.8"},
			"devel (commit " + rev + ", committed 2026-11-20T08:00:00Z, go1.26.8)"},
		{"no vcs", "", "", "", info("(devel)", nil),
			build{Version: "devel", Go: "go1.26.8"},
			"devel (commit unknown, build date unknown, go1.26.8)"},
		{"no build info", "", "", "", nil, build{Version: "devel"}, "devel (commit unknown, build date unknown)"},
		{"snapshot without git", "v0.0.1-next", "none", "2026-11-21T09:00:00Z", info("(devel)", nil),
			build{Version: "v0.0.1-next", Date: "2026-11-21T09:00:00Z", Go: "go1.26.8"},
			"v0.0.1-next (commit unknown, built 2026-11-21T09:00:00Z, go1.26.8)"},
		{"only a version stamped", "v2.0.0", "", "", info("(devel)", vcs("vcs.revision", rev)),
			build{Version: "v2.0.0", Commit: rev, Go: "go1.26.8"},
			"v2.0.0 (commit " + rev + ", build date unknown, go1.26.8)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := buildOf(c.ldVersion, c.ldCommit, c.ld, c.info)
			if b != c.want {
				t.Errorf("buildOf = %+v\nwant       %+v", b, c.want)
			}
			if got := b.line(); got != c.line {
				t.Errorf("line = %q\nwant   %q", got, c.line)
			}
		})
	}
}

// TestVersionStampsAreBounded: a stamped value is someone else's string:
// a long one is cut (on a rune boundary) and a secret in one is masked.
func TestVersionStampsAreBounded(t *testing.T) {
	b := buildOf(strings.Repeat("é", 1000), "ghp_"+"Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8", "", nil)
	if len(b.Version) > maxStamp+len("…") || !utf8.ValidString(b.Version) || !strings.HasSuffix(b.Version, "…") {
		t.Errorf("a 2,000-byte version became %d bytes, valid UTF-8 %v: %q", len(b.Version), utf8.ValidString(b.Version), b.Version)
	}
	if strings.Contains(b.Commit, "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8") {
		t.Errorf("a token stamped as the commit is shown: %q", b.Commit)
	}
}

// TestBuiltBinaryReportsItsStamps builds the binary as the release does,
// with -ldflags setting version, commit and date, and runs it: version,
// version --json and --version say what was stamped; the completion
// scripts and the man page come out of the binary and name its commands,
// and bash's completion, sourced, completes a subcommand.
func TestBuiltBinaryReportsItsStamps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "memtui")
	rev := "89abcdef0123456789abcdef0123456789abcdef"
	ld := "-X main.version=v9.8.7 -X main.commit=" + rev + " -X main.date=2026-11-21T09:00:00Z"
	// -buildvcs=false: the checkout's own stamp, clean or not, must not
	// leak into what is checked.
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-ldflags", ld, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "NO_COLOR=1"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("memtui %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := run("version")
	if first, _, _ := strings.Cut(out, "\n"); first != "memtui v9.8.7 (commit "+rev+", built 2026-11-21T09:00:00Z, "+runtime.Version()+")" {
		t.Errorf("version's first line = %q", first)
	}
	if !strings.Contains(out, "\nfollows the memory behaviour of Claude Code "+claude.Version+"\n") {
		t.Errorf("version lost the Claude Code part:\n%s", out)
	}
	var v versionJSON
	if err := json.Unmarshal([]byte(run("version", "--json")), &v); err != nil {
		t.Fatal(err)
	}
	if v.Version != 1 || v.Memtui != "v9.8.7" || v.Commit != rev || v.Date != "2026-11-21T09:00:00Z" || v.Modified || v.Go != runtime.Version() || v.ClaudeCode != claude.Version {
		t.Errorf("version --json = %+v", v)
	}
	if out := run("--version"); !strings.Contains(out, "v9.8.7 (89abcde)") {
		t.Errorf("--version = %q, want the version and short commit", out)
	}

	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		if out := run("completion", sh); len(out) < 1000 || !strings.Contains(out, "memtui") || !strings.Contains(out, "__complete") {
			t.Errorf("completion %s: %d bytes, not a script that asks memtui for completions:\n%.300s", sh, len(out), out)
		}
	}
	// The scripts ask the binary; what it answers is the command list.
	comp := run("__complete", "")
	for _, sub := range []string{"lint", "dream", "undo", "version", "man", "completion"} {
		if !strings.Contains(comp, "\n"+sub+"\t") && !strings.HasPrefix(comp, sub+"\t") {
			t.Errorf("completing memtui's first word does not offer %s:\n%s", sub, comp)
		}
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		script := filepath.Join(t.TempDir(), "memtui.bash")
		writeFile(t, script, run("completion", "bash"))
		// What bash does at memtui li<TAB>: the completion function fills
		// COMPREPLY, the binary found on PATH as once installed. The script
		// needs the bash-completion package (as the README says); where it
		// is not installed, a stand-in gives the words as it would.
		setup := `source /usr/share/bash-completion/bash_completion`
		if _, err := os.Stat("/usr/share/bash-completion/bash_completion"); err != nil {
			setup = `_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }`
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c",
			setup+`; source "$1"; COMP_WORDS=(memtui li); COMP_CWORD=1; COMP_LINE="memtui li"; COMP_POINT=${#COMP_LINE}; __start_memtui; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script)
		cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}
		// (stderr says compopt has no completion running: no TAB was pressed.)
		out, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(out)) != "lint" {
			t.Errorf("bash completes memtui li to %q (%v), want lint", out, err)
		}
	}

	man := run("man")
	for _, want := range []string{".TH MEMTUI 1 ", ".SH NAME\nmemtui - ", ".SH DESCRIPTION\n", ".SH OPTIONS", ".SH COMMANDS", `\fBlint\fP`, `\fBdream\fP`, `\fBversion\fP`, "--config-dir", ".SH EXIT STATUS"} {
		if !strings.Contains(man, want) {
			t.Errorf("the man page lacks %q", want)
		}
	}
	// A paragraph of the help text stays one paragraph (the builder would
	// make each of its lines one).
	if !strings.Contains(man, "checks each one the way Claude Code loads it") {
		t.Errorf("the description is cut at each line of the help text:\n%.800s", man)
	}
	if man := exec.Command("man", "--warnings", "-l", "-"); man.Err == nil {
		// Where man is installed, it must read the page without a word
		// from groff.
		var stdout, stderr strings.Builder
		man.Stdin, man.Stdout, man.Stderr = strings.NewReader(run("man")), &stdout, &stderr
		man.Env = []string{"PATH=" + os.Getenv("PATH"), "MANWIDTH=80", "HOME=" + t.TempDir()}
		if err := man.Run(); err != nil || stderr.Len() > 0 || !strings.Contains(stdout.String(), "Review and curate what your coding agents remember") {
			t.Errorf("man could not read the page (%v):\n%s\n%.300s", err, stderr.String(), stdout.String())
		}
	}
}
