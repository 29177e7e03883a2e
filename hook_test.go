//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/memfs"
)

// hookEnv is a home with a Claude Code config dir, memtui's state, and a
// memtui binary to name with --command (the test binary itself is a
// temporary build, which install refuses).
type hookEnv struct {
	home, config, state, bin string
	settings                 string
	env                      func(string) string
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	h := &hookEnv{home: t.TempDir(), state: t.TempDir()}
	h.config = filepath.Join(h.home, ".claude")
	h.settings = filepath.Join(h.config, "settings.json")
	h.bin = filepath.Join(t.TempDir(), "go bin", "memtui")
	for _, d := range []string{h.config, filepath.Dir(h.bin)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(h.bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.env = env("HOME", h.home, "XDG_STATE_HOME", h.state)
	return h
}

// run runs memtui with its answers read from in. The error output comes
// back on one line (fang wraps it to the width of a terminal).
func (h *hookEnv) run(t *testing.T, in input, args ...string) (int, string, string) {
	t.Helper()
	if in.r == nil {
		in.r = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	code := runWith(context.Background(), args, in, &out, &errb, h.env)
	return code, out.String(), strings.Join(strings.Fields(errb.String()), " ")
}

// install runs hook install --yes with this env's binary.
func (h *hookEnv) install(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return h.run(t, input{}, append([]string{"hook", "install", "--yes", "--command", h.bin}, args...)...)
}

func (h *hookEnv) read(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(h.settings)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (h *hookEnv) backups(t *testing.T) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(h.state, "memtui", "backups"))
	var out []string
	for _, e := range ents {
		out = append(out, filepath.Join(h.state, "memtui", "backups", e.Name()))
	}
	return out
}

// hookCommands are the command lines on each event of a settings text.
func hookCommands(t *testing.T, text string) map[string][]string {
	t.Helper()
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("settings are not JSON: %v\n%s", err, text)
	}
	out := map[string][]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out[ev] = append(out[ev], h.Command)
			}
		}
	}
	return out
}

func TestHookInstallCreatesMissingSettings(t *testing.T) {
	h := newHookEnv(t)
	code, out, errs := h.install(t)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	want := memfs.HookCommand(h.bin)
	if !strings.HasPrefix(want, "'") {
		t.Fatalf("a path with a space was not quoted: %s", want)
	}
	got := hookCommands(t, h.read(t))
	for _, ev := range memfs.HookEvents {
		if !slices.Equal(got[ev], []string{want}) {
			t.Errorf("%s runs %q, want %q", ev, got[ev], want)
		}
	}
	for _, s := range []string{"--- /dev/null", "+++ b/settings.json", `+            "command": "'` + h.bin + `' snapshot || exit 1",`, "Installed memtui's snapshot hook in " + h.settings} {
		if !strings.Contains(out, s) {
			t.Errorf("output does not say %q:\n%s", s, out)
		}
	}
	if b := h.backups(t); len(b) != 0 {
		t.Errorf("a backup of a file that did not exist: %v", b)
	}
}

// otherSettings has settings and hooks of its own, laid out by hand.
const otherSettings = `{
  "permissions": {
    "allow": ["Bash(npm test:*)"]
  },
  "hooks": {
    "PreToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "prettier --write \"$FILE\""}]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "notify-send 'done'", "timeout": 5}]}
    ]
  },
  "model": "opus",
  "statusLine": {"type": "command", "command": "~/bin/status"}
}
`

// TestHookInstallKeepsOtherSettingsAndUninstallRestoresThem: every other
// setting and hook is kept, in its order, and the uninstall gives back the
// file byte for byte; each write keeps the file as it was in the backups.
func TestHookInstallKeepsOtherSettingsAndUninstallRestoresThem(t *testing.T) {
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	if code, out, errs := h.install(t); code != exitOK {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	after := h.read(t)
	got := hookCommands(t, after)
	want := memfs.HookCommand(h.bin)
	if !slices.Equal(got["Stop"], []string{"notify-send 'done'", want}) || !slices.Equal(got["PreToolUse"], []string{`prettier --write "$FILE"`}) {
		t.Errorf("hooks after the install: %q", got)
	}
	// Everything before "hooks"' last event and after the hooks object is
	// the original's, byte for byte.
	if !strings.HasPrefix(after, otherSettings[:strings.Index(otherSettings, `"timeout": 5}]}`)]) ||
		!strings.HasSuffix(after, otherSettings[strings.Index(otherSettings, "\n  },\n  \"model\""):]) {
		t.Errorf("the install changed more than it added:\n%s", after)
	}
	if b := h.backups(t); len(b) != 1 || readAll(b[0]) != otherSettings {
		t.Errorf("backups %v do not hold the settings as they were", b)
	}
	code, out, errs := h.run(t, input{}, "hook", "uninstall", "--yes")
	if code != exitOK {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errs)
	}
	if got := h.read(t); got != otherSettings {
		t.Errorf("uninstall did not give back the original:\n%s\nwant:\n%s", got, otherSettings)
	}
	if !strings.Contains(out, "removing on SessionEnd: '"+h.bin+"' snapshot || exit 1") {
		t.Errorf("uninstall does not name what it removes:\n%s", out)
	}
	if b := h.backups(t); len(b) != 2 {
		t.Errorf("backups %v, want one per write", b)
	}
}

func TestHookInstallTwiceChangesNothing(t *testing.T) {
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	h.install(t)
	first := h.read(t)
	fi1, _ := os.Stat(h.settings)
	code, out, _ := h.install(t)
	if code != exitOK || !strings.Contains(out, "already installed on SessionStart, Stop, SessionEnd: nothing to change") {
		t.Errorf("second install: exit %d\n%s", code, out)
	}
	fi2, _ := os.Stat(h.settings)
	if h.read(t) != first || !os.SameFile(fi1, fi2) || len(h.backups(t)) != 1 {
		t.Error("the second install wrote the file")
	}
	if strings.Contains(out, "@@") {
		t.Errorf("a diff for no change:\n%s", out)
	}
}

// TestHookInstallReplacesAnotherBinary: a memtui that moved points the
// hooks at itself, showing the old command, with no second copy.
func TestHookInstallReplacesAnotherBinary(t *testing.T) {
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	h.install(t)
	moved := filepath.Join(t.TempDir(), "memtui")
	writeFile(t, moved, "#!/bin/sh\n")
	os.Chmod(moved, 0o755)
	code, out, errs := h.run(t, input{}, "hook", "install", "--yes", "--command", moved)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	got := hookCommands(t, h.read(t))
	for _, ev := range []string{"SessionStart", "SessionEnd"} {
		if !slices.Equal(got[ev], []string{moved + " snapshot || exit 1"}) {
			t.Errorf("%s runs %q", ev, got[ev])
		}
	}
	if !slices.Equal(got["Stop"], []string{"notify-send 'done'", moved + " snapshot || exit 1"}) {
		t.Errorf("Stop runs %q", got["Stop"])
	}
	old := "'" + h.bin + "' snapshot || exit 1"
	if !strings.Contains(out, "replacing on Stop: "+old) || !strings.Contains(out, `-            "command": "`+old+`",`) || !strings.Contains(out, `+            "command": "`+moved+` snapshot || exit 1",`) {
		t.Errorf("the replacement is not shown:\n%s", out)
	}
}

func TestHookDryRunWritesNothing(t *testing.T) {
	for _, start := range []string{"", otherSettings} {
		h := newHookEnv(t)
		if start != "" {
			writeFile(t, h.settings, start)
		}
		code, out, errs := h.run(t, input{tty: true, r: strings.NewReader("y\n")}, "hook", "install", "--dry-run", "--command", h.bin)
		if code != exitOK || !strings.Contains(out, "Dry run: nothing written.") || !strings.Contains(out, "+    \"SessionStart\": [") {
			t.Errorf("exit %d\n%s%s", code, out, errs)
		}
		if strings.Contains(out, "[y/N]") {
			t.Error("a dry run asked")
		}
		if start == "" {
			if _, err := os.Lstat(h.settings); err == nil {
				t.Error("a dry run created the settings")
			}
		} else if h.read(t) != start {
			t.Error("a dry run changed the settings")
		}
		if _, err := os.Lstat(filepath.Join(h.state, "memtui")); err == nil {
			t.Error("a dry run wrote memtui's state")
		}
	}
}

// TestHookRefusesWithoutTerminal: piped, with no --yes, nothing is asked
// and nothing written.
func TestHookRefusesWithoutTerminal(t *testing.T) {
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	for _, args := range [][]string{
		{"hook", "install", "--command", h.bin},
		{"hook", "uninstall"},
	} {
		if args[1] == "uninstall" {
			h.install(t)
		}
		before := h.read(t)
		code, out, errs := h.run(t, input{tty: false, r: strings.NewReader("y\n")}, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s%s", args, code, exitUsage, out, errs)
		}
		if !strings.Contains(errs, "no terminal to ask on") || !strings.Contains(errs, "--yes") {
			t.Errorf("%v: the refusal does not say why and what to do:\n%s", args, errs)
		}
		if !strings.Contains(out, "@@") || strings.Contains(out, "[y/N]") {
			t.Errorf("%v: want the change shown and no question:\n%s", args, out)
		}
		if h.read(t) != before {
			t.Errorf("%v: written without an answer", args)
		}
	}
}

// TestHookAsksOnTerminal: on a terminal the change is written only on y.
func TestHookAsksOnTerminal(t *testing.T) {
	for answer, write := range map[string]bool{"y\n": true, "YES\n": true, "y\r": true, "n\n": false, "\n": false, "": false, "yy\n": false} {
		h := newHookEnv(t)
		writeFile(t, h.settings, otherSettings)
		code, out, errs := h.run(t, input{tty: true, r: strings.NewReader(answer)}, "hook", "install", "--command", h.bin)
		if !strings.Contains(out, "Install? [y/N] ") {
			t.Errorf("%q: not asked:\n%s", answer, out)
		}
		wrote := h.read(t) != otherSettings
		switch {
		case wrote != write:
			t.Errorf("%q: wrote %v, want %v\n%s%s", answer, wrote, write, out, errs)
		case write && code != exitOK:
			t.Errorf("%q: exit %d", answer, code)
		case !write && (code != exitFindings || !strings.Contains(out, "Nothing written.")):
			t.Errorf("%q: declined with exit %d (want %d):\n%s", answer, code, exitFindings, out)
		}
	}
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	h.install(t)
	_, out, _ := h.run(t, input{tty: true, r: strings.NewReader("y\n")}, "hook", "uninstall")
	if !strings.Contains(out, "Remove? [y/N] ") || h.read(t) != otherSettings {
		t.Errorf("uninstall on a terminal:\n%s", out)
	}
}

func TestHookRefusesInvalidJSON(t *testing.T) {
	for _, bad := range []string{
		"{\n  \"model\": \"opus\",\n  \"env\": {},\n}\n",
		"{\n  // Claude Code's settings take no comments\n  \"model\": \"opus\"\n}\n",
		"{\n  \"hooks\": [\n  ]\n}\n",
	} {
		h := newHookEnv(t)
		writeFile(t, h.settings, bad)
		for _, args := range [][]string{{"hook", "install", "--yes", "--command", h.bin}, {"hook", "uninstall", "--yes"}} {
			code, out, errs := h.run(t, input{}, args...)
			if code != exitUsage {
				t.Errorf("%q %v: exit %d, want %d", bad, args[1], code, exitUsage)
			}
			if !strings.Contains(errs, "line 2") && !strings.Contains(errs, "line 4") {
				t.Errorf("%q %v: the error does not name the line:\n%s", bad, args[1], errs)
			}
			if !strings.Contains(errs, "nothing changed") || strings.Contains(out, "@@") {
				t.Errorf("%q %v:\n%s%s", bad, args[1], out, errs)
			}
			if h.read(t) != bad || len(h.backups(t)) != 0 {
				t.Errorf("%q %v: the file or the state was written", bad, args[1])
			}
		}
	}
}

// changingReader is Claude Code writing the settings while the question
// is on the screen: the first read writes the file, then answers y.
type changingReader struct {
	path, text string
	done       bool
}

func (c *changingReader) Read(p []byte) (int, error) {
	if c.done {
		return 0, io.EOF
	}
	c.done = true
	if err := os.WriteFile(c.path, []byte(c.text), 0o644); err != nil {
		return 0, err
	}
	return copy(p, "y\n"), nil
}

// TestHookRefusesSettingsChangedWhileAsking: the file is written only if
// it still holds what was shown.
func TestHookRefusesSettingsChangedWhileAsking(t *testing.T) {
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	theirs := strings.Replace(otherSettings, `"opus"`, `"sonnet"`, 1)
	code, out, errs := h.run(t, input{tty: true, r: &changingReader{path: h.settings, text: theirs}}, "hook", "install", "--command", h.bin)
	if code != exitUsage || !strings.Contains(errs, "changed since memtui read it") || !strings.Contains(errs, "nothing written") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if got := h.read(t); got != theirs {
		t.Errorf("the other write was lost:\n%s", got)
	}
	if b := h.backups(t); len(b) != 0 {
		t.Errorf("backups of a write that did not happen: %v", b)
	}
}

// TestHookWritesThroughSymlinkedSettings: a settings.json linked from a
// dotfiles repository is edited there; the link stays a link.
func TestHookWritesThroughSymlinkedSettings(t *testing.T) {
	h := newHookEnv(t)
	dots := filepath.Join(t.TempDir(), "dotfiles", "claude-settings.json")
	writeFile(t, dots, otherSettings)
	if err := os.Symlink(dots, h.settings); err != nil {
		t.Fatal(err)
	}
	code, out, errs := h.install(t)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if fi, err := os.Lstat(h.settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("settings.json is no longer a link: %v %v", fi, err)
	}
	if got := hookCommands(t, readAll(dots)); len(got["SessionStart"]) != 1 {
		t.Errorf("the link's target was not edited: %q", got)
	}
	if !strings.Contains(out, h.settings+" → "+dots+" (a symlink: its target is written, the link kept)") {
		t.Errorf("the output does not say the target is written:\n%s", out)
	}
	os.Remove(dots)
	if code, _, errs := h.install(t); code != exitUsage || !strings.Contains(errs, "symlink to a file that does not exist") {
		t.Errorf("a dangling link: exit %d\n%s", code, errs)
	}
}

func TestHookReadonly(t *testing.T) {
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	for _, args := range [][]string{
		{"--readonly", "hook", "install", "--yes", "--command", h.bin},
		{"--readonly", "hook", "uninstall", "--yes"},
	} {
		code, _, errs := h.run(t, input{tty: true, r: strings.NewReader("y\n")}, args...)
		if code != exitUsage || !strings.Contains(errs, "--readonly forbids hook") {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
	code, out, _ := h.run(t, input{}, "--readonly", "hook", "install", "--dry-run", "--command", h.bin)
	if code != exitOK || !strings.Contains(out, "Dry run") {
		t.Errorf("--readonly --dry-run: exit %d\n%s", code, out)
	}
	if h.read(t) != otherSettings {
		t.Error("--readonly wrote the settings")
	}
}

// TestHookRefusesTemporaryBuild: run as a temporary build (this test
// binary, as `go run` would be), install asks for an installed memtui.
func TestHookRefusesTemporaryBuild(t *testing.T) {
	h := newHookEnv(t)
	code, _, errs := h.run(t, input{}, "hook", "install", "--yes")
	if code != exitUsage || !strings.Contains(errs, "temporary build") || !strings.Contains(errs, "go install") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	if _, err := os.Lstat(h.settings); err == nil {
		t.Error("settings written")
	}
	notMemtui := filepath.Join(t.TempDir(), "mt")
	writeFile(t, notMemtui, "#!/bin/sh\n")
	os.Chmod(notMemtui, 0o755)
	if code, _, errs := h.run(t, input{}, "hook", "install", "--yes", "--command", notMemtui); code != exitUsage || !strings.Contains(errs, "must be named memtui") {
		t.Errorf("--command mt: exit %d\n%s", code, errs)
	}
}

// TestHookSettingsPath: the file is the config dir's, resolved as
// discovery resolves it, or --settings.
func TestHookSettingsPath(t *testing.T) {
	h := newHookEnv(t)
	envDir := filepath.Join(t.TempDir(), "claude-env")
	flagDir := filepath.Join(t.TempDir(), "claude-flag")
	other := filepath.Join(t.TempDir(), "mine.json")
	os.MkdirAll(envDir, 0o755)
	os.MkdirAll(flagDir, 0o755)
	h.env = env("HOME", h.home, "XDG_STATE_HOME", h.state, "CLAUDE_CONFIG_DIR", envDir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, filepath.Join(envDir, "settings.json")},
		{[]string{"--config-dir", flagDir}, filepath.Join(flagDir, "settings.json")},
		{[]string{"--settings", other}, other},
	} {
		args := append(append([]string{}, c.args[:min(len(c.args), 2)]...), "hook", "install", "--yes", "--command", h.bin)
		if len(c.args) > 0 && c.args[0] == "--settings" {
			args = append([]string{"hook", "install", "--yes", "--command", h.bin}, c.args...)
		}
		if code, out, errs := h.run(t, input{}, args...); code != exitOK || !strings.Contains(out, "settings: "+c.want+"\n") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
		if _, err := os.Stat(c.want); err != nil {
			t.Errorf("%v: %s not written: %v", args, c.want, err)
		}
	}
	if _, err := os.Lstat(h.settings); err == nil {
		t.Error("~/.claude/settings.json written though CLAUDE_CONFIG_DIR names another dir")
	}
	if code, _, errs := h.run(t, input{}, "--config-dir", envDir, "--config-dir", flagDir, "hook", "uninstall", "--yes"); code != exitUsage || !strings.Contains(errs, "one settings file") {
		t.Errorf("two config dirs: exit %d\n%s", code, errs)
	}
	if code, _, errs := h.run(t, input{}, "--demo", "hook", "install", "--yes", "--command", h.bin); code != exitUsage || !strings.Contains(errs, "demo") {
		t.Errorf("--demo: exit %d\n%s", code, errs)
	}
}
