package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The palette the CLI's colours are drawn for: --theme, else
// MEMTUI_THEME, else the config file's theme, else auto (the terminal's
// answer; a buffer is no terminal, so dark). Each run's report is
// compared with the forced dark and light ones.
func TestThemePrecedence(t *testing.T) {
	cfgHome := t.TempDir()
	config := filepath.Join(cfgHome, "memtui", "config.yaml")
	lint := func(t *testing.T, file string, kv []string, flags ...string) (int, string, string) {
		t.Helper()
		writeFile(t, config, file)
		e := env(append([]string{"XDG_CONFIG_HOME", cfgHome, "CLICOLOR_FORCE", "1", "TERM", "xterm-256color"}, kv...)...)
		code, out, stderr := runCLI(t, e, append(append([]string{"--demo", "--now", "2026-11-21"}, flags...), "lint")...)
		// Each run has its own copy of the demo, named in its findings.
		if m := demoCopied.FindStringSubmatch(stderr); m != nil {
			out = strings.ReplaceAll(out, m[1], "<demo>")
		}
		return code, out, stderr
	}
	_, dark, _ := lint(t, "", nil, "--theme", "dark")
	_, light, _ := lint(t, "", nil, "--theme", "light")
	if dark == light || !strings.Contains(light, "\x1b[") {
		t.Fatal("--theme dark and --theme light print the same report, or no colour")
	}
	for _, c := range []struct {
		name  string
		file  string
		env   []string
		flags []string
		want  string // "dark" or "light"
		note  string
	}{
		{"nothing chosen: auto", "", nil, nil, "dark", ""},
		{"the config file", "theme: light\n", nil, nil, "light", ""},
		{"MEMTUI_THEME over the file", "theme: light\n", []string{"MEMTUI_THEME", "dark"}, nil, "dark", ""},
		{"MEMTUI_THEME in any case", "", []string{"MEMTUI_THEME", " Light "}, nil, "light", ""},
		{"MEMTUI_THEME=auto over the file", "theme: light\n", []string{"MEMTUI_THEME", "auto"}, nil, "dark", ""},
		{"--theme over MEMTUI_THEME", "theme: dark\n", []string{"MEMTUI_THEME", "dark"}, []string{"--theme", "light"}, "light", ""},
		{"--theme auto over the file", "theme: light\n", nil, []string{"--theme", "auto"}, "dark", ""},
		{"--theme over a wrong MEMTUI_THEME", "", []string{"MEMTUI_THEME", "sepia"}, []string{"--theme", "light"}, "light", ""},
		{"a wrong theme in the file: a note, auto", "theme: sepia\njournal_retention_days: 30\n", nil, nil, "dark",
			`config.yaml: line 1: theme: "sepia" is not a theme: want auto, dark or light; using auto`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := lint(t, c.file, c.env, c.flags...)
			if code != exitFindings {
				t.Fatalf("exit %d, want %d (the demo has errors)\n%s", code, exitFindings, stderr)
			}
			if got := map[bool]string{true: "dark", false: "light"}[out == dark]; got != c.want || (out != dark && out != light) {
				t.Errorf("the report is drawn for %s, want %s", got, c.want)
			}
			if c.note != "" && !strings.Contains(stderr, c.note) {
				t.Errorf("stderr does not say %q:\n%s", c.note, stderr)
			}
			if c.note == "" && strings.Contains(stderr, "config") {
				t.Errorf("a note where none is due:\n%s", stderr)
			}
		})
	}
}

// A wrong --theme or MEMTUI_THEME is a usage error naming the accepted
// values, before any work.
func TestThemeUsageErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"flag", nil, []string{"--theme", "blue", "lint"}, `invalid argument "blue" for "--theme" flag: "blue" is not a theme: want auto, dark or light`},
		{"flag on a subcommand", nil, []string{"ls", "--theme="}, `"" is not a theme: want auto, dark or light`},
		{"env", []string{"MEMTUI_THEME", "blue"}, []string{"lint"}, `MEMTUI_THEME: "blue" is not a theme: want auto, dark or light`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, env(append([]string{"XDG_CONFIG_HOME", t.TempDir()}, c.env...)...), append([]string{"--demo"}, c.args...)...)
			if code != exitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, out, exitUsage)
			}
			if !strings.Contains(strings.ToLower(stderr), strings.ToLower(c.want)) {
				t.Errorf("stderr does not say %q:\n%s", c.want, stderr)
			}
			if strings.Contains(stderr, "demo tree copied") {
				t.Errorf("the demo was set up before the usage error:\n%s", stderr)
			}
		})
	}
}

// NO_COLOR wins over every theme: no colour at all.
func TestNoColorWinsOverTheme(t *testing.T) {
	cfgHome := t.TempDir()
	writeFile(t, filepath.Join(cfgHome, "memtui", "config.yaml"), "theme: light\n")
	for _, flags := range [][]string{nil, {"--theme", "dark"}, {"--theme", "light"}} {
		e := env("XDG_CONFIG_HOME", cfgHome, "NO_COLOR", "1", "CLICOLOR_FORCE", "1", "TERM", "xterm-256color", "MEMTUI_THEME", "light")
		_, out, _ := runCLI(t, e, append(append([]string{"--demo", "--now", "2026-11-21"}, flags...), "lint")...)
		if strings.Contains(out, "\x1b[") || !strings.Contains(out, "[index-over-lines]") {
			t.Errorf("%v with NO_COLOR: escape codes, or no report: %q", flags, out[:min(200, len(out))])
		}
	}
}

// Keys from the config file: a wrong entry is a note naming its line and
// what is wrong, and the command runs on.
func TestKeysConfigNotes(t *testing.T) {
	cfgHome := t.TempDir()
	writeFile(t, filepath.Join(cfgHome, "memtui", "config.yaml"), `keys:
  quit: [Q]
  proposals.acept: [z]
  accept: [a, enter]
  global.help: [H]
  journal.undo: []
`)
	code, _, stderr := runCLI(t, env("XDG_CONFIG_HOME", cfgHome), "--demo", "--now", "2026-11-21", "lint")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		`config.yaml: line 3: keys: "proposals.acept" names no binding; did you mean proposals.accept?`,
		`config.yaml: line 4: keys: "accept" means more than one binding (proposals.accept, input.accept)`,
		`config.yaml: line 5: keys: global.help: "H" is also the key of editor.edit_hook, live with it in the index editor; ignored`,
		`config.yaml: line 6: keys: journal.undo: no keys given`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "line 2") || strings.Contains(stderr, "ignoring the config file") {
		t.Errorf("a good entry, or the whole file, was refused:\n%s", stderr)
	}
}

// The config file README shows is one memtui takes without a word.
func TestREADMEConfigExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Configuration\n")
	_, example, ok2 := strings.Cut(section, "```yaml\n")
	example, _, ok3 := strings.Cut(example, "```")
	if !ok || !ok2 || !ok3 || !strings.Contains(example, "keys:") || !strings.Contains(example, "theme:") {
		t.Fatalf("README's Configuration section has no example with theme and keys:\n%s", example)
	}
	cfgHome := t.TempDir()
	writeFile(t, filepath.Join(cfgHome, "memtui", "config.yaml"), example)
	code, _, stderr := runCLI(t, env("XDG_CONFIG_HOME", cfgHome), "--demo", "--now", "2026-11-21", "lint")
	if code != exitFindings || strings.Contains(stderr, "config") {
		t.Errorf("exit %d; the README's example made memtui say:\n%s", code, stderr)
	}
}
