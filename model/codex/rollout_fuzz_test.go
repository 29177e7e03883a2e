package codex

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseRollout: whatever a rollout holds, the parser never panics,
// counts every line, and reports only paths relative to the memory root
// (no absolute path, no "..", no backslash) for what sessions read and
// wrote.
func FuzzParseRollout(f *testing.F) {
	f.Add([]byte(linuxRollout()))
	f.Add([]byte(rl(0, "session_meta", meta(fxThread, `C:\w`)) + "\n" + rl(1, "response_item", call("shell_command", "", "c", map[string]any{"command": `type ..\..\.codex\memories\MEMORY.md`})) + "\n"))
	f.Add([]byte(rl(1, "response_item", message("assistant", rawCitation)) + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := ParseRollout("r", b, []string{fxHome})
		if want := bytes.Count(b, []byte("\n")); r.Lines > want+1 {
			t.Fatalf("%d lines counted of %d", r.Lines, want+1)
		}
		check := func(p string) {
			if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") {
				t.Fatalf("a path not relative to the root: %q", p)
			}
		}
		for _, x := range r.Reads {
			check(x.Path)
		}
		for _, w := range append(r.NoteWrites, r.Edits...) {
			check(w.Path)
			if len(w.Text) > MaxNoteText {
				t.Fatalf("a text of %d bytes kept", len(w.Text))
			}
		}
	})
}

// FuzzShellRefs: whatever a command and its working directory, every
// store path found is relative to the root, and the parse never panics.
func FuzzShellRefs(f *testing.F) {
	f.Add(`rg -n "deploy" ~/.codex/memories/MEMORY.md`, "/home/dev/shop")
	f.Add("cat > ~/.codex/memories/extensions/ad_hoc/notes/a.md <<'EOF'\nx\nEOF", "")
	f.Add("*** Begin Patch\n*** Add File: ../.codex/memories/skills/x/SKILL.md\n+y\n*** End Patch", `C:\Users\u\w`)
	f.Add(`Get-Content memories\..\memories\MEMORY.md`, `c:\users\u\.codex`)
	f.Add(`git -C ../.codex/memories mv "a|b.md" -- ../x.md`, "/home/dev/shop")
	f.Add(`bash -lc 'rg "x|y" memories/MEMORY.md; rm "memories/a;b.md"' && cmd /c "del memories\c.md"`, "/home/dev/.codex")
	m := newPathMatcher([]string{fxHome})
	f.Fuzz(func(t *testing.T, script, cwd string) {
		for _, r := range m.shellRefs(script, cwd) {
			p := r.rel
			if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasPrefix(p, ".git") {
				t.Fatalf("%q in %q: a path not relative to the root: %q", script, cwd, p)
			}
		}
	})
}
