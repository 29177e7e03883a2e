package memfs

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
)

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, err := LoadConfig(filepath.Join(dir, "missing.yaml"))
	if err != nil || !reflect.DeepEqual(cfg, Config{}) {
		t.Errorf("missing file: %+v %v", cfg, err)
	}

	good := testfs.Write(t, filepath.Join(dir, "good.yaml"), `
ignore:
  - project: acme
    rules: [stale-memory, memory-orphan]
  - rules: [memdir-empty]
stale_after_days: 120
journal_retention_days: 90
`)
	cfg, err = LoadConfig(good)
	want := Config{
		Ignore:               []IgnoreEntry{{Project: "acme", Rules: []string{"stale-memory", "memory-orphan"}}, {Rules: []string{"memdir-empty"}}},
		StaleAfterDays:       120,
		JournalRetentionDays: 90,
	}
	if err != nil || !reflect.DeepEqual(cfg, want) {
		t.Errorf("good: %+v %v", cfg, err)
	}
	if cfg.JournalRetention() != 90*24*time.Hour || (Config{}).JournalRetention() != 365*24*time.Hour {
		t.Errorf("retention %v, default %v", cfg.JournalRetention(), (Config{}).JournalRetention())
	}

	empty := testfs.Write(t, filepath.Join(dir, "empty.yaml"), "")
	if cfg, err := LoadConfig(empty); err != nil || !reflect.DeepEqual(cfg, Config{}) {
		t.Errorf("empty: %+v %v", cfg, err)
	}

	for name, c := range map[string]struct{ content, want string }{
		"syntax":    {"stale_after_days: 3\nignore:\n\t- project: acme\n", "line 3"},
		"typo":      {"stale_after_day: 3\n", "line 1"},
		"type":      {"stale_after_days: soon\n", "line 1"},
		"negative":  {"stale_after_days: -1\n", "stale_after_days is -1"},
		"retention": {"journal_retention_days: -5\n", "journal_retention_days is -5"},
	} {
		p := testfs.Write(t, filepath.Join(dir, name+".yaml"), c.content)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want it to mention %q and the path", name, err, c.want)
		}
	}
}

func TestDefaultConfigPath(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/memtui/config.yaml"},
		{map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/memtui/config.yaml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/memtui/config.yaml"},
	}
	for _, c := range cases {
		if got := DefaultConfigPath(env(c.env)); got != c.want {
			t.Errorf("DefaultConfigPath(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// theme and keys: a good file gives them as written; a wrong entry is a
// note naming its line, and only that entry is lost.
func TestLoadConfigThemeAndKeys(t *testing.T) {
	dir := t.TempDir()
	good := testfs.Write(t, filepath.Join(dir, "good.yaml"), `
stale_after_days: 30
theme: Light
keys:
  quit: [q, ctrl+c]
  proposals.accept:
    - a
    - enter
  global.help: "?"
  journal.undo: []
  journal.back:
`)
	cfg, err := LoadConfig(good)
	if err != nil {
		t.Fatal(err)
	}
	want := []KeyBinding{
		{Name: "quit", Keys: []string{"q", "ctrl+c"}, Line: 5},
		{Name: "proposals.accept", Keys: []string{"a", "enter"}, Line: 6},
		{Name: "global.help", Keys: []string{"?"}, Line: 9},
		{Name: "journal.undo", Line: 10}, // empty: the key map says so
		{Name: "journal.back", Line: 11},
	}
	if cfg.Theme != ThemeLight || cfg.StaleAfterDays != 30 || !reflect.DeepEqual(cfg.Keys, want) || len(cfg.Notes) > 0 {
		t.Errorf("got theme %q, stale %d, keys %+v, notes %q", cfg.Theme, cfg.StaleAfterDays, cfg.Keys, cfg.Notes)
	}
	// auto is the same as saying nothing.
	auto := testfs.Write(t, filepath.Join(dir, "auto.yaml"), "theme: auto\n")
	if cfg, err := LoadConfig(auto); err != nil || cfg.Theme != "" || len(cfg.Notes) > 0 {
		t.Errorf("auto: %+v %v", cfg, err)
	}

	for name, c := range map[string]struct {
		content string
		theme   Theme
		keys    int
		note    string
	}{
		"unknown theme":  {"theme: solarized\nkeys:\n  quit: Q\n", "", 1, `line 1: theme: "solarized" is not a theme: want auto, dark or light; using auto`},
		"theme list":     {"theme: [dark]\n", "", 0, "line 1: theme is not a word"},
		"keys list":      {"theme: dark\nkeys: [q]\n", ThemeDark, 0, "line 2: keys is not a mapping"},
		"keys value map": {"keys:\n  quit: {a: b}\n  help: H\n", "", 1, `line 2: keys: "quit": want a list of keys`},
		"nested list":    {"keys:\n  quit: [[q]]\n  help: H\n", "", 1, `line 2: keys: "quit": every key must be a word`},
		"name a list":    {"keys:\n  [a]: q\n  help: H\n", "", 1, "line 2: keys: an entry's name is not a word"},
		"hostile theme":  {"theme: \"\\e]52;c;aGVsbG8=\\a\"\n", "", 0, "theme: \"\x1b]52;c;aGVsbG8=\a\" is not a theme"}, // as read: the printer makes it safe
	} {
		p := testfs.Write(t, filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml"), c.content)
		cfg, err := LoadConfig(p)
		if err != nil {
			t.Errorf("%s: the whole file was refused: %v", name, err)
			continue
		}
		if cfg.Theme != c.theme || len(cfg.Keys) != c.keys || len(cfg.Notes) != 1 || !strings.Contains(cfg.Notes[0], c.note) {
			t.Errorf("%s: theme %q, %d keys, notes %q; want theme %q, %d keys, a note saying %q", name, cfg.Theme, len(cfg.Keys), cfg.Notes, c.theme, c.keys, c.note)
		}
	}

	// A megabyte-long theme makes a short note; an alias bomb under keys
	// expands to nothing.
	long := testfs.Write(t, filepath.Join(dir, "long.yaml"), "theme: "+strings.Repeat("x", 500000)+"\n")
	if cfg, err := LoadConfig(long); err != nil || len(cfg.Notes) != 1 || len(cfg.Notes[0]) > 120 {
		t.Errorf("long theme: %v, notes %d bytes", err, len(strings.Join(cfg.Notes, "")))
	}
	var bomb strings.Builder
	bomb.WriteString("a0: &a0 [q, q, q, q, q, q, q, q, q, q]\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&bomb, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	keysOnly := testfs.Write(t, filepath.Join(dir, "bomb2.yaml"), "keys:\n"+indent(bomb.String()))
	cfg, err = LoadConfig(keysOnly)
	if err != nil {
		t.Fatalf("alias bomb: %v", err)
	}
	total := 0
	for _, k := range cfg.Keys {
		total += len(k.Keys)
	}
	if total > 10 || len(cfg.Notes) != 29 {
		t.Errorf("alias bomb: %d keys read over %d entries, notes %d", total, len(cfg.Keys), len(cfg.Notes))
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}
