package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// Escape sequences an attacker would plant in what memtui reads: each does
// something to the terminal that shows it, if it ever arrives raw.
const (
	oscClipboard = "\x1b]52;c;cHduZWQ=\a"                                   // writes the clipboard
	oscTitle     = "\x1b]0;owned\a"                                         // sets the window title
	csiClear     = "\x1b[2J"                                                // clears the screen
	oscLink      = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\" // a hyperlink
	c1CSI        = "\u009b2J"                                               // the 8-bit CSI
	bidiOverride = "\u202e"                                                 // reverses what follows
)

// A fake private key (multi-line) and token: no line of either may show.
const (
	injectToken = "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"
	injectPEM   = "-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" +
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n" +
		"LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo\n" +
		"9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvre\n" +
		"-----END RSA PRIVATE KEY-----\n"
)

// injectSecrets are the fragments no output may hold: the token and every
// line of the key's body.
func injectSecrets() []string {
	s := []string{injectToken, injectToken[4:24]}
	for _, l := range strings.Split(injectPEM, "\n") {
		if len(l) > 40 && !strings.HasPrefix(l, "-----") {
			s = append(s, l, l[:24])
		}
	}
	return s
}

var wellFormedSGR = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// harmful says what in out a terminal would act on or that hides text:
// anything but well-formed SGR colour codes that starts an escape (ESC, a
// C1 control), BEL, another control byte, a bidi control, invalid UTF-8.
func harmful(out string) string {
	s := wellFormedSGR.ReplaceAllString(out, "")
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("control %U at %d: %q", r, i, around(s, i))
		case r >= 0x80 && r < 0xa0:
			return fmt.Sprintf("C1 control %U at %d: %q", r, i, around(s, i))
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("bidi control %U at %d: %q", r, i, around(s, i))
		}
	}
	return ""
}

// linesWith is the lines of out that contain sub, for a short message.
func linesWith(out, sub string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, sub) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func around(s string, i int) string {
	return s[max(i-30, 0):min(i+30, len(s))]
}

// assertHarmless fails when out carries a raw control sequence or any
// fragment of a planted secret.
func assertHarmless(t *testing.T, what, out string) {
	t.Helper()
	if why := harmful(out); why != "" {
		t.Errorf("%s: %s", what, why)
	}
	for _, s := range injectSecrets() {
		if strings.Contains(out, s) {
			t.Errorf("%s prints the secret fragment %q", what, s)
		}
	}
}

// The project's working directory as a transcript records it, and the
// slug Claude Code makes of it (every non-alphanumeric becomes "-").
const (
	injectCwd  = "/work/pwn" + oscTitle + bidiOverride
	injectSlug = "-work-pwn--0-owned--"
)

// Names of the hostile files. forgedName tries to forge a lint line.
const (
	clipName   = "clip" + oscClipboard + ".md"
	forgedName = "notes\n    error   ~/forged.md:1 FORGED line [frontmatter-missing]\n.md"
	tokenName  = "deploy_" + injectToken + ".md"
)

// injectTree writes a config dir whose memory holds escape sequences in
// file names, frontmatter, bodies and index lines, a PEM key and a token,
// and (with transcripts) a transcript whose cwd and branch carry them too.
func injectTree(t *testing.T) (cfg, memDir string) {
	t.Helper()
	cfg = t.TempDir()
	memDir = filepath.Join(cfg, "projects", injectSlug, "memory")
	body := "Deploy with care " + csiClear + " see " + oscLink + " and " + c1CSI + " " + bidiOverride + "txt.exe\n\n" +
		"The deploy key:\n\n" + injectPEM + "\nToken " + injectToken + " " + oscClipboard + "\n"
	writeFile(t, filepath.Join(memDir, clipName),
		"---\nname: deploy"+oscTitle+"\ndescription: How to deploy "+oscClipboard+bidiOverride+"\ntype: project\n---\n\n"+body)
	writeFile(t, filepath.Join(memDir, forgedName), "no frontmatter "+csiClear+"\n")
	writeFile(t, filepath.Join(memDir, tokenName), "---\nname: token\ndescription: a token "+injectToken+"\ntype: reference\n---\n\n"+injectPEM)
	writeFile(t, filepath.Join(memDir, "plain.md"), "---\nname: plain\ndescription: A plain memory\ntype: user\n---\n\nWe launch tomorrow.\n")
	var idx strings.Builder
	idx.WriteString("- [Plain](plain.md) — a plain memory\n")
	for i := range 205 {
		fmt.Fprintf(&idx, "- [Filler %d](filler_%d.md) — filler %s\n", i, i, csiClear)
	}
	// A link's text cannot hold "]" (OSC starts with one): its attacks
	// are in the title's C1 CSI and bidi override, and in the hook.
	idx.WriteString("- [Deploy " + c1CSI + bidiOverride + "](" + tokenName + ") — how " + oscClipboard + oscTitle + " to deploy " + injectToken + "\n")
	idx.WriteString("- [Clip](" + clipName + ") — " + csiClear + "\n")
	writeFile(t, filepath.Join(memDir, "MEMORY.md"), idx.String())
	return cfg, memDir
}

// writeInjectTranscript records a session in the hostile project that wrote
// file with content at a time after now, on a hostile branch.
func writeInjectTranscript(t *testing.T, cfg, memDir, file, content string) {
	t.Helper()
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	at := time.Now().Add(2 * time.Second).UTC()
	ts := func(ms int) string {
		return at.Add(time.Duration(ms) * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
	}
	session := "5f0c2a9e-1b7d-4c3e-9a8f-2d6b4e8c1a07"
	common := `"userType":"external","entrypoint":"cli","cwd":` + js(injectCwd) + `,"sessionId":"` + session +
		`","version":"2.1.226","gitBranch":` + js("feature/"+oscClipboard+injectToken)
	path := filepath.Join(memDir, file)
	var b strings.Builder
	fmt.Fprintf(&b, `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":%s},"uuid":"a1a1a1a1-0000-4000-8000-000000000001","timestamp":%q,%s}`+"\n",
		js("remember "+oscTitle), ts(0), common)
	fmt.Fprintf(&b, `{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000001","isSidechain":false,"message":{"model":"claude-opus-4-8","id":"msg_01x","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_01abc","name":"Write","input":{"file_path":%s,"content":%s}}],"stop_reason":"tool_use"},"type":"assistant","uuid":"a1a1a1a1-0000-4000-8000-000000000002","timestamp":%q,%s}`+"\n",
		js(path), js(content), ts(100), common)
	fmt.Fprintf(&b, `{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000002","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01abc","type":"tool_result","content":%s}]},"uuid":"a1a1a1a1-0000-4000-8000-000000000003","timestamp":%q,"toolUseResult":{"type":"create","filePath":%s,"content":%s},%s}`+"\n",
		js("File created successfully at: "+path), ts(200), js(path), js(content), common)
	fmt.Fprintf(&b, `{"type":"summary","summary":%s,"leafUuid":"a1a1a1a1-0000-4000-8000-000000000003"}`+"\n", js("Title "+oscTitle+injectToken))
	writeFile(t, filepath.Join(cfg, "projects", injectSlug, session+".jsonl"), b.String())
}

// Every CLI text output, piped and coloured as on a terminal, and every
// JSON output, shows the hostile tree without a raw control sequence or a
// fragment of a secret.
func TestCLIOutputsAreHarmless(t *testing.T) {
	cfg, memDir := injectTree(t)
	home, state, cache := t.TempDir(), t.TempDir(), t.TempDir()
	piped := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", cache)
	colour := env("HOME", home, "XDG_STATE_HOME", state, "XDG_CACHE_HOME", cache, "CLICOLOR_FORCE", "1", "TERM", "xterm-256color")
	type run struct {
		name string
		e    func(string) string
		args []string
	}
	check := func(r run) (string, string) {
		t.Helper()
		_, stdout, stderr := runCLI(t, r.e, append([]string{"--config-dir", cfg}, r.args...)...)
		assertHarmless(t, r.name+" stdout", stdout)
		assertHarmless(t, r.name+" stderr", stderr)
		return stdout, stderr
	}
	now := []string{"--now", "2026-11-21"}
	for _, r := range []run{
		{"lint", piped, append([]string{"lint"}, now...)},
		{"lint (colour)", colour, append([]string{"lint"}, now...)},
		{"lint --json", piped, append([]string{"lint", "--json"}, now...)},
		{"dream", piped, append([]string{"dream"}, now...)},
		{"dream (colour)", colour, append([]string{"dream"}, now...)},
		{"dream --json", piped, append([]string{"dream", "--json"}, now...)},
		{"dream --apply (dry run)", piped, append([]string{"dream", "--apply"}, now...)},
		{"index", piped, []string{"index"}},
		{"index --move-above-cut", piped, []string{"index", "--move-above-cut", tokenName}},
		{"index --move-above-cut (no such entry)", piped, []string{"index", "--move-above-cut", "nope" + oscTitle + "\nFORGED error line.md"}},
	} {
		stdout, stderr := check(r)
		if strings.Contains(r.name, "no such entry") && (strings.Contains(stderr, "\nFORGED") || !strings.Contains(stderr, `nope\x1b]0;owned\x07\nFORGED`)) {
			t.Errorf("an error quoting a name with a newline forged a line, or does not show it visibly:\n%s", stderr)
		}
		if r.name == "lint" {
			// The newline in a file name must not start a line of its own.
			if strings.Contains(stdout, "\n    error   ~/forged.md") || !strings.Contains(stdout, `notes\n    error`) {
				t.Errorf("lint: a file name forged a line, or is not shown escaped:\n%s", linesWith(stdout, "forged"))
			}
			if !strings.Contains(stdout, `clip\x1b]52;c;cHduZWQ=\x07.md`) {
				t.Errorf("lint: the escape in a file name is not shown visibly:\n%s", linesWith(stdout, "clip"))
			}
		}
		if r.name == "index --move-above-cut" && !strings.Contains(stdout, "+++ b/MEMORY.md") {
			t.Errorf("index --move-above-cut printed no diff:\n%s", stdout)
		}
	}

	// A proposer whose title, rationale and stderr carry the attacks; its
	// proposal is applied, so the title lands in the journal.
	plain, _ := os.ReadFile(filepath.Join(memDir, "plain.md"))
	prop := map[string]any{"version": 1, "proposals": []any{map[string]any{
		"kind": "absolutize-dates", "title": "Date it " + oscClipboard + injectToken + bidiOverride,
		"rationale": "because " + oscLink + csiClear,
		"changes": []any{map[string]any{"path": "plain.md", "op": "update", "base_sha256": consolidate.SHA256Hex(plain),
			"after": strings.Replace(string(plain), "tomorrow", "on 2026-11-22", 1)}}}}}
	out, _ := json.Marshal(prop)
	script := stub(t, string(out))
	os.WriteFile(script, []byte("#!/bin/sh\nprintf 'thinking \\033]0;owned\\007\\n' >&2\ncat > /dev/null\ncat \""+filepath.Join(filepath.Dir(script), "out.json")+"\"\n"), 0o755)
	for _, r := range []run{
		{"dream --proposer", piped, append([]string{"dream", "--proposer", script}, now...)},
		{"dream --proposer (colour)", colour, append([]string{"dream", "--proposer", script}, now...)},
		{"dream --proposer --json", piped, append([]string{"dream", "--proposer", script, "--json"}, now...)},
		{"dream --proposer --apply", piped, append([]string{"dream", "--proposer", script, "--apply"}, now...)},
		{"dream --proposer --apply --yes", piped, append([]string{"dream", "--proposer", script, "--apply", "--yes"}, now...)},
	} {
		check(r)
	}
	// The proposer's title is refused (not one line of text), so nothing
	// of it reaches the journal. A title memtui itself builds can still
	// carry a file's name or words: put such an entry in the journal
	// through the write path, and list it.
	title := "Date it " + oscClipboard + injectToken + bidiOverride
	res := memfs.Apply(context.Background(), memDir, []model.Proposal{{ID: "absolutize-dates-0000inject", Kind: model.KindAbsolutizeDates,
		MemoryDir: memDir, Title: title, Rationale: "because " + oscLink + csiClear,
		Changes: []model.Change{{Path: "plain.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(plain),
			After: strings.Replace(string(plain), "tomorrow", "on 2026-11-22", 1)}}}},
		memfs.ApplyOptions{JournalRoot: filepath.Join(state, "memtui", "journal")})
	if len(res) != 1 || res[0].Status != memfs.StatusApplied {
		t.Fatalf("the escape-titled entry was not written: %+v", res)
	}
	for _, r := range []run{
		{"undo --list", piped, []string{"undo", "--list"}},
		{"undo --list (colour)", colour, []string{"undo", "--list"}},
		{"undo --list --json", piped, []string{"undo", "--list", "--json"}},
	} {
		stdout, _ := check(r)
		if r.name == "undo --list" && !strings.Contains(stdout, `Date it \x1b]52;c;`) {
			t.Errorf("undo --list does not show the journal's title visibly:\n%s", stdout)
		}
	}

	// changes: a first look records the baseline; then a session writes
	// a file (the key into it) on a hostile branch.
	check(run{"changes (first look)", piped, []string{"changes"}})
	changed := "---\nname: plain\ndescription: A plain memory " + oscTitle + "\ntype: user\n---\n\nNow with a key:\n\n" + injectPEM
	writeFile(t, filepath.Join(memDir, "plain.md"), changed)
	writeInjectTranscript(t, cfg, memDir, "plain.md", changed)
	for _, r := range []run{
		{"changes", piped, []string{"changes"}},
		{"changes (colour)", colour, []string{"changes"}},
		{"changes --json", piped, []string{"changes", "--json"}},
	} {
		stdout, _ := check(r)
		// The write is attributed to the session, whose branch is shown
		// escaped and masked.
		if r.name == "changes" && (!strings.Contains(stdout, "changed plain.md") || !strings.Contains(stdout, `on feature/\x1b]52;c;`)) {
			t.Errorf("changes does not show the change:\n%s", stdout)
		}
	}
}
