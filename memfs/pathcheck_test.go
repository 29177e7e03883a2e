package memfs

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
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
		// ~/ followed by a path that climbs out of the home directory
		// (facts §1.4: rest normalizing to ., .., or starting with ../).
		{"tilde climbs out", "~/../x", true, "", reasonTildeHome},
		{"tilde climbs far", "~/a/../../etc", true, "", reasonTildeHome},
		{"tilde climbs with backslash", `~\..\x`, true, "", reasonTildeHome},
		{"tilde dotdot name ok", "~/..notes/memory", true, "/home/al/..notes/memory", ""},
		{"nt path", `\??\C:\memory`, true, "", reasonNT},
		{"automount net", "/net/fileserver/memory", true, "", reasonAutomount},
		{"automount net host only", "/net/fileserver", true, "", reasonAutomount},
		{"automount net case", "/NET/Host/m", true, "", reasonAutomount},
		{"net alone ok", "/net", true, "/net", ""},
		{"netx ok", "/netx/host", true, "/netx/host", ""},
		{"automount network servers", "/Network/Servers/nas/memory", true, "", reasonAutomount},
		{"automount network servers case", "/network/SERVERS/nas", true, "", reasonAutomount},
		{"network servers alone ok", "/Network/Servers", true, "/Network/Servers", ""},
		{"network other ok", "/Network/Library/memory", true, "/Network/Library/memory", ""},
		{"net below root ok", "/home/al/net/host", true, "/home/al/net/host", ""},
		{"mac vol", "/.vol/16777220/2", true, "", reasonMacSpecial},
		{"mac vol alone", "/.vol", true, "", reasonMacSpecial},
		{"mac vol case", "/.VOL/1/2", true, "", reasonMacSpecial},
		{"mac file", "/.file/id=6571367.2", true, "", reasonMacSpecial},
		{"mac nofollow", "/.nofollow/Users/al/memory", true, "", reasonMacSpecial},
		{"mac resolve", "/.resolve/1/2", true, "", reasonMacSpecial},
		{"mac vol below root ok", "/home/al/.vol", true, "/home/al/.vol", ""},
		{"mac vol via tilde ok", "~/.vol", true, "/home/al/.vol", ""},
		{"dots climb to automount", "/home/../net/host", true, "", reasonAutomount},
		{"nfc", "/home/al/cafe\u0301", true, "/home/al/caf\u00e9", ""},
		{"env automount", "/net/host/m", false, "", reasonAutomount},
		{"env mac", "/.vol/1", false, "", reasonMacSpecial},
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
		{`~\..\x`, "", reasonTildeHome},
		{`~/../x`, "", reasonTildeHome},
		{`\??\C:\memory`, "", reasonNT},
		{`/??/C:/memory`, "", reasonNT},
		{`\\?\C:\memory`, "", reasonUNC},
		{`\net\host\memory`, "", reasonAutomount},
		{`C:\net\host\memory`, `C:\net\host\memory`, ""},
		{`\.vol\1\2`, "", reasonMacSpecial},
	}
	for _, c := range cases {
		got, reason := validateMemoryPath(c.raw, true, home, windowsPaths)
		if got != c.want || reason != c.reason {
			t.Errorf("windows validateMemoryPath(%q) = %q, %q; want %q, %q", c.raw, got, reason, c.want, c.reason)
		}
	}
}

// TestJudgeSetting covers what Claude Code makes of one defined
// autoMemoryDirectory given the scopes around it (facts §1.1 row 2): the
// value it takes is validated and, rejected, means the default directory,
// never a lower scope; "" counts as set; a value something higher shadows
// is not used, and is reported only if it would be rejected.
func TestJudgeSetting(t *testing.T) {
	const home = "/home/al"
	const def = "/home/al/.claude/projects/-r/memory/"
	user := setting{sc: scopeUser, source: "/home/al/.claude/settings.json", line: 2}
	local := setting{sc: scopeLocal, source: "/r/.claude/settings.local.json", line: 3}
	with := func(s setting, v string) setting { s.value = v; return s }
	cases := []struct {
		name    string
		v       setting
		j       settingJudgement
		dir     string
		want    []string // fragments of the Detail; nil: no problem
		notWant []string
	}{
		{name: "valid taken", v: with(user, "~/notes/memory"), j: settingJudgement{defaultDir: def}, dir: "/home/al/notes/memory"},
		{name: "valid shadowed still listed", v: with(user, "/srv/m"), j: settingJudgement{shadow: "policy settings (/etc/x)", defaultDir: def}, dir: "/srv/m"},
		{name: "invalid taken: default, not the next scope", v: with(local, "./.claude/memory"),
			j:       settingJudgement{defaultDir: def, lower: []string{"user settings (/home/al/.claude/settings.json)"}, base: "/r"},
			want:    []string{"In a trusted workspace, Claude Code rejects autoMemoryDirectory \"./.claude/memory\" in local settings (/r/.claude/settings.local.json)", reasonRelative, "uses the default directory " + def, "it does not go on to user settings (/home/al/.claude/settings.json)"},
			notWant: []string{"falls back", "would"}},
		{name: "invalid taken user: no trust wording", v: with(user, "~"), j: settingJudgement{defaultDir: def, caveat: " for every project whose own local or project settings do not set it"},
			want:    []string{"Claude Code rejects autoMemoryDirectory \"~\" in user settings", reasonBareTilde, "uses the default directory " + def + " for every project whose own"},
			notWant: []string{"trusted", "does not go on"}},
		{name: "new rule taken", v: with(user, "~/../shared/memory"), j: settingJudgement{defaultDir: def},
			want: []string{reasonTildeHome, "uses the default directory"}},
		{name: "invalid shadowed", v: with(user, "relative/dir"), j: settingJudgement{shadow: "policy settings (/etc/x)", defaultDir: def},
			want:    []string{"Claude Code would reject autoMemoryDirectory \"relative/dir\" in user settings", reasonRelative, "does not use it now, as policy settings (/etc/x) decides the memory directory first"},
			notWant: []string{"default directory"}},
		{name: "invalid shadowed by env", v: with(user, "/net/h/m"), j: settingJudgement{shadow: envMemoryOverride, defaultDir: def},
			want: []string{"would reject", reasonAutomount, "as " + envMemoryOverride + " decides the memory directory first"}},
		{name: "empty alone is the default, said nowhere", v: with(user, ""), j: settingJudgement{defaultDir: def}},
		{name: "empty shadowed", v: with(user, ""), j: settingJudgement{shadow: "policy settings (/etc/x)", defaultDir: def}},
		{name: "empty taken hides a lower value", v: with(local, ""), j: settingJudgement{defaultDir: def, lower: []string{"project settings (/r/.claude/settings.json)", "user settings (/u)"}},
			want: []string{"rejects autoMemoryDirectory \"\" in local settings", reasonEmpty, "an empty value still counts as set", "uses the default directory " + def, "does not go on to project settings (/r/.claude/settings.json), user settings (/u)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.j.home = home
			dir, prob := judgeSetting(c.v, c.j)
			if dir != c.dir {
				t.Errorf("dir = %q, want %q", dir, c.dir)
			}
			if c.want == nil {
				if prob != nil {
					t.Errorf("unexpected problem: %+v", prob)
				}
				return
			}
			if prob == nil {
				t.Fatal("no problem")
			}
			if prob.Kind != model.OverrideInvalid || prob.Source != c.v.source || prob.Line != c.v.line || prob.Suggestion == "" {
				t.Errorf("problem = %+v", prob)
			}
			for _, w := range c.want {
				if !strings.Contains(prob.Detail, w) {
					t.Errorf("Detail %q lacks %q", prob.Detail, w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(prob.Detail, w) {
					t.Errorf("Detail %q has %q", prob.Detail, w)
				}
			}
		})
	}
}

func TestCheckOverrideProblem(t *testing.T) {
	_, prob := judgeSetting(setting{sc: scopeProject, source: "/r/.claude/settings.json", line: 3, value: "./.claude/memory"},
		settingJudgement{defaultDir: "/home/al/.claude/projects/-r/memory/", home: "/home/al", base: "/r"})
	if prob == nil {
		t.Fatal("relative override accepted")
	}
	if prob.Suggestion != "use an absolute path such as /r/.claude/memory" {
		t.Errorf("Suggestion = %q", prob.Suggestion)
	}
	_, prob = judgeSetting(setting{sc: scopeUser, source: "/home/al/.claude/settings.json", line: 1, value: "~"},
		settingJudgement{defaultDir: "/d/", home: "/home/al"})
	if prob == nil || !strings.Contains(prob.Suggestion, "/home/al/.claude/memory or ~/notes/memory") {
		t.Errorf("bare ~: %+v", prob)
	}
	_, prob = judgeSetting(setting{sc: scopeUser, source: "/u", value: ""}, settingJudgement{defaultDir: "/d/", home: "/home/al", lower: []string{"x"}})
	if prob == nil || !strings.Contains(prob.Suggestion, "remove the key") {
		t.Errorf("empty: %+v", prob)
	}

	_, prob = checkEnvOverride("~/notes", "/home/al", "/d/")
	if prob == nil || prob.Suggestion != "write the home directory out: /home/al/notes" ||
		!strings.Contains(prob.Detail, "goes on to autoMemoryDirectory in settings, else the default directory /d/") {
		t.Errorf("env ~: %+v", prob)
	}
	if dir, prob := checkEnvOverride("/srv/m", "/home/al", "/d/"); prob != nil || dir != "/srv/m" {
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
		if !IsUUID(s) {
			t.Errorf("IsUUID(%q) = false", s)
		}
	}
	for _, s := range bad {
		if IsUUID(s) {
			t.Errorf("IsUUID(%q) = true", s)
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
