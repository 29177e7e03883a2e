package memfs

import (
	"strings"
	"testing"
)

func TestLongPath(t *testing.T) {
	long := strings.Repeat("d", 250)
	for _, tc := range []struct{ in, want string }{
		{`C:\Users\al\.claude`, `C:\Users\al\.claude`}, // short: as is
		{`C:\` + long, `\\?\C:\` + long},
		{`c:/` + long, `\\?\c:\` + long}, // slashes made backslashes
		{`\\server\share\` + long, `\\?\UNC\server\share\` + long},
		{`\\?\C:\` + long, `\\?\C:\` + long}, // prefixed already
		{long, long},                         // relative
		{`\` + long, `\` + long},             // rooted on the current drive
		{`C:\a\..\` + long, `C:\a\..\` + long},
	} {
		if got := LongPath(tc.in); got != tc.want {
			t.Errorf("LongPath(%.40q…) = %.50q…, want %.50q…", tc.in, got, tc.want)
		}
	}
}

func TestWindowsNameProblem(t *testing.T) {
	for name, bad := range map[string]bool{
		"a.md": false, "feedback_testing.md": false, ".consolidate-lock": false,
		"CONSOLE.md": false, "com10.md": false, "nul": true, "nul.md": true, "NUL.tar.md": true,
		"Com1.md": true, "lpt9.md": true, "COM¹.md": true, "aux .md": true, "conin$.md": true,
		"a.md:stream": true, "a.md.": true, "a.md ": true, "a?.md": true, "a\x01.md": true, `a\b.md`: true,
	} {
		if got := WindowsNameProblem(name) != ""; got != bad {
			t.Errorf("WindowsNameProblem(%q) = %q, want a problem: %v", name, WindowsNameProblem(name), bad)
		}
	}
}

func TestSamePathAndPathWithin(t *testing.T) {
	const dir = `C:\Users\Al\.claude\projects\C--Users-al-repo\memory`
	for _, tc := range []struct {
		p             string
		windows, same bool
		within        bool
	}{
		{`c:\users\al\.claude\projects\c--users-al-repo\memory`, true, true, true},
		{`C:/Users/AL/.claude/projects/C--Users-al-repo/memory/a.md`, true, false, true},
		{`C:\Users\Al\.claude\projects\C--Users-al-repo\memory-old\a.md`, true, false, false},
		{`c:\users\al\.claude\projects\c--users-al-repo\memory`, false, false, false},
	} {
		if got := SamePath(tc.p, dir, tc.windows); got != tc.same {
			t.Errorf("SamePath(%q, windows=%v) = %v", tc.p, tc.windows, got)
		}
		if got := PathWithin(tc.p, dir, tc.windows); got != tc.within {
			t.Errorf("PathWithin(%q, windows=%v) = %v", tc.p, tc.windows, got)
		}
	}
	if !PathWithin("/home/al/m/a.md", "/home/al/m", false) || PathWithin("/home/al/mx", "/home/al/m", false) {
		t.Error("PathWithin on Unix")
	}
}
