package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFormats: a config file as every memtui before the version key
// wrote it (no version: format 1) reads as before; version 1 says the
// same; a newer memtui's file is read for what this one knows, a note
// naming what it leaves out, where a key unknown to format 1 is a typo's
// error; a version that is no format is an error. memtui never writes the
// file, and reading it changes nothing.
func TestConfigFormats(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The shapes of commits 34d6050 (journal_retention_days) and a81417d
	// (theme, keys), without a version.
	before := "ignore:\n  - project: acme\n    rules: [stale-memory]\nstale_after_days: 30\njournal_retention_days: 90\ntheme: light\nkeys:\n  quit: [q, ctrl+c]\n"
	for name, text := range map[string]string{"unversioned": before, "version 1": "version: 1\n" + before} {
		cfg, err := LoadConfig(write(name, text))
		if err != nil || len(cfg.Ignore) != 1 || cfg.Ignore[0].Project != "acme" || cfg.StaleAfterDays != 30 || cfg.JournalRetentionDays != 90 ||
			cfg.Theme != ThemeLight || len(cfg.Keys) != 1 || len(cfg.Notes) != 0 {
			t.Errorf("%s: %+v, %v", name, cfg, err)
		}
	}
	// A typo in format 1 is still an error.
	if _, err := LoadConfig(write("typo", "version: 1\nstale_afer_days: 3\n")); err == nil {
		t.Error("an unknown key in a format-1 file was accepted")
	}
	// A newer memtui's file: what is known applies, the rest is named.
	newer := "version: 2\nstale_after_days: 45\nsync:\n  remote: x\ntheme: dark\nprofiles: []\n"
	p := write("newer", newer)
	cfg, err := LoadConfig(p)
	if err != nil || cfg.StaleAfterDays != 45 || cfg.Theme != ThemeDark || len(cfg.Notes) != 1 {
		t.Fatalf("newer: %+v, %v", cfg, err)
	}
	if n := cfg.Notes[0]; !strings.Contains(n, "line 1: version 2 is a newer memtui's config format") || !strings.Contains(n, `left out: "sync", "profiles"`) {
		t.Errorf("note: %q", n)
	}
	if b, _ := os.ReadFile(p); string(b) != newer {
		t.Error("reading the config changed it")
	}
	// A newer file whose known key changed shape: refused, saying why.
	if _, err := LoadConfig(write("reshaped", "version: 3\nstale_after_days: {default: 4}\n")); err == nil || !strings.Contains(err.Error(), "format 3, a newer memtui's") {
		t.Errorf("reshaped: %v", err)
	}
	for _, bad := range []string{"version: 0\n", "version: -1\n", "version: two\n"} {
		if _, err := LoadConfig(write("bad", bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
