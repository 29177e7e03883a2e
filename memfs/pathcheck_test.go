package memfs

import (
	"strings"
	"testing"
)

// TestValidateMemoryPath covers every rule of facts §1.4 for both path
// flavors, with the reason memtui gives.
func TestValidateMemoryPath(t *testing.T) {
	const home = "/home/al"
	cases := []struct {
		name   string
		raw    string
		expand bool
		want   string // validated path, "" when rejected or ignored
		reason string
	}{
		{"unset", "", true, "", ""},
		{"absolute", "/home/al/notes/memory", true, "/home/al/notes/memory", ""},
		{"trailing separators stripped", "/home/al/notes/memory///", true, "/home/al/notes/memory", ""},
		{"normalized", "/home/al/./notes/../notes/memory", true, "/home/al/notes/memory", ""},
		{"tilde slash", "~/notes/memory", true, "/home/al/notes/memory", ""},
		{"tilde backslash", `~\notes`, true, "/home/al/notes", ""},
		{"bare tilde", "~", true, "", reasonBareTilde},
		{"tilde slash only", "~/", true, "", reasonTildeHome},
		{"tilde dot", "~/.", true, "", reasonTildeHome},
		{"tilde dotdot", "~/..", true, "", reasonTildeHome},
		{"tilde up and back", "~/foo/..", true, "", reasonTildeHome},
		// Node keeps the trailing separator of "./", so Claude Code accepts
		// "~/./" as the home directory itself: we mirror it, not fix it.
		{"tilde dot slash quirk", "~/./", true, "/home/al", ""},
		{"tilde user", "~al/notes", true, "", reasonTildeUser},
		{"dot relative", "./.claude/memory", true, "", reasonRelative},
		{"plain relative", ".claude/memory", true, "", reasonRelative},
		{"root", "/", true, "", reasonRoot},
		{"near root", "/a", true, "", reasonRoot},
		{"near root trailing", "/a//", true, "", reasonRoot},
		{"three chars ok", "/ab", true, "/ab", ""},
		{"utf16 length", "/é", true, "", reasonRoot},
		{"drive root on posix", `C:\`, true, "", reasonDrive},
		{"nul", "/home/al/me\x00mory", true, "", reasonNUL},
		{"env tilde not expanded", "~/notes", false, "", reasonEnvTilde},
		{"env bare tilde", "~", false, "", reasonEnvTilde},
		{"env absolute", "/srv/memory", false, "/srv/memory", ""},
		{"env relative", "srv/memory", false, "", reasonRelative},
		// On POSIX, Node's normalize folds a leading // into /, so the UNC
		// test never fires there.
		{"double slash on posix", "//server/share", true, "/server/share", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, reason := validateMemoryPath(c.raw, c.expand, home, posixPaths)
			if got != c.want || reason != c.reason {
				t.Errorf("validateMemoryPath(%q, %v) = %q, %q; want %q, %q", c.raw, c.expand, got, reason, c.want, c.reason)
			}
		})
	}
}

func TestValidateMemoryPathWindows(t *testing.T) {
	const home = `C:\Users\al`
	cases := []struct {
		raw    string
		want   string
		reason string
	}{
		{`C:\`, "", reasonDrive},
		{`C:`, "", reasonDrive},
		{`c:/`, "", reasonDrive},
		{`\\server\share\memory`, "", reasonUNC},
		{`//server/share`, "", reasonUNC},
		{`D:\notes\memory\`, `D:\notes\memory`, ""},
		{`D:/notes/./x/../memory`, `D:\notes\memory`, ""},
		{`~\notes\memory`, `C:\Users\al\notes\memory`, ""},
		{`~/notes`, `C:\Users\al\notes`, ""},
		{`notes\memory`, "", reasonRelative},
		{`C:notes`, "", reasonRelative},
		{`\a`, "", reasonRoot},
		{`~\..`, "", reasonTildeHome},
	}
	for _, c := range cases {
		got, reason := validateMemoryPath(c.raw, true, home, windowsPaths)
		if got != c.want || reason != c.reason {
			t.Errorf("windows validateMemoryPath(%q) = %q, %q; want %q, %q", c.raw, got, reason, c.want, c.reason)
		}
	}
}

func TestCheckOverrideProblem(t *testing.T) {
	_, prob := checkOverride("./.claude/memory", "/r/.claude/settings.json", 3, scopeProject, "/home/al", "/r", "/home/al/.claude/projects/-r/memory/")
	if prob == nil {
		t.Fatal("relative override accepted")
	}
	for _, want := range []string{`"./.claude/memory"`, reasonRelative, "falls back to autoMemoryDirectory from user settings", "/home/al/.claude/projects/-r/memory/"} {
		if !strings.Contains(prob.Detail, want) {
			t.Errorf("Detail %q lacks %q", prob.Detail, want)
		}
	}
	if prob.Suggestion != "use an absolute path such as /r/.claude/memory" {
		t.Errorf("Suggestion = %q", prob.Suggestion)
	}
	if prob.Line != 3 || prob.Source != "/r/.claude/settings.json" {
		t.Errorf("Line/Source = %d %q", prob.Line, prob.Source)
	}

	_, prob = checkOverride("~", "/home/al/.claude/settings.json", 1, scopeUser, "/home/al", "", "/home/al/.claude/projects/<project>/memory/")
	if prob == nil || !strings.Contains(prob.Suggestion, "/home/al/.claude/memory or ~/notes/memory") {
		t.Errorf("bare ~: %+v", prob)
	}
	if !strings.Contains(prob.Detail, "falls back to the default /home/al/.claude/projects/<project>/memory/") {
		t.Errorf("user scope fallback: %q", prob.Detail)
	}

	_, prob = checkOverride("~/notes", envMemoryOverride, 0, scopeEnv, "/home/al", "", "/d/")
	if prob == nil || prob.Suggestion != "write the home directory out: /home/al/notes" {
		t.Errorf("env ~: %+v", prob)
	}
	if dir, prob := checkOverride("/srv/m", envMemoryOverride, 0, scopeEnv, "/home/al", "", "/d/"); prob != nil || dir != "/srv/m" {
		t.Errorf("valid env override: %q %+v", dir, prob)
	}
}

func TestSanitizePath(t *testing.T) {
	cases := map[string]string{
		"/Users/al/my_repo.v2": "-Users-al-my-repo-v2", // facts §1.3 example
		`C:\Users\al\repo`:     "C--Users-al-repo",     // facts §1.3 example
		"/home/al/café":        "-home-al-caf-",        // BMP: one unit, one dash
		"/home/al/😀x":          "-home-al---x",         // astral: two units, two dashes
		"/A/b/C9":              "-A-b-C9",
	}
	for in, want := range cases {
		if got := sanitizePath(in); got != want {
			t.Errorf("sanitizePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlugMatchesLongPath(t *testing.T) {
	long := "/" + strings.Repeat("abcdefghij/", 25) // 276 chars
	s := sanitizePath(long)
	if len(s) <= maxSanitizedLength {
		t.Fatalf("fixture too short: %d", len(s))
	}
	hashed := s[:200] + "-1x2y3z" // whatever hash: CLI and SDK differ
	if !slugMatches(long, hashed) {
		t.Error("long path with hash suffix not confirmed")
	}
	if slugMatches(long, s[:200]) {
		t.Error("prefix without the '-' accepted")
	}
	if slugMatches(long, s[:199]+"x-abc") {
		t.Error("different prefix accepted")
	}
	if !slugMatches("/home/al/acme", "-home-al-acme") || slugMatches("/home/al/acme", "-home-al-acme2") {
		t.Error("short path exact match wrong")
	}
}

func TestIsUUID(t *testing.T) {
	good := []string{"0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20", "0B0E7A8E-3C1D-4F57-9A63-2F4E7C9D1A20"}
	bad := []string{"agent-a2271d1", "0b0e7a8e3c1d4f579a632f4e7c9d1a20", "0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a2g", ""}
	for _, s := range good {
		if !isUUID(s) {
			t.Errorf("isUUID(%q) = false", s)
		}
	}
	for _, s := range bad {
		if isUUID(s) {
			t.Errorf("isUUID(%q) = true", s)
		}
	}
}

func TestValidProjectDirName(t *testing.T) {
	for s, want := range map[string]bool{
		"work": true, "a_b-C9": true, strings.Repeat("a", 64): true,
		"": false, strings.Repeat("a", 65): false, "a/b": false, "a.b": false,
		"con": false, "NUL": false, "com1": false, "lpt9": false, "com": true,
	} {
		if got := validProjectDirName(s); got != want {
			t.Errorf("validProjectDirName(%q) = %v", s, got)
		}
	}
}
