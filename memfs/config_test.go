package memfs

import (
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
