package memfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"gopkg.in/yaml.v3"
)

// Config is memtui's own config file (DESIGN §3: rules silenced per
// project; the stale-memory age).
//
//	ignore:
//	  - project: acme
//	    rules: [stale-memory, memory-orphan]
//	stale_after_days: 90
//	journal_retention_days: 365
type Config struct {
	// Ignore silences rules for projects whose slug or real path contains
	// Project ("" matches every project).
	Ignore []IgnoreEntry `yaml:"ignore"`
	// StaleAfterDays is the age in days after which stale-memory fires; 0
	// means the caller's default.
	StaleAfterDays int `yaml:"stale_after_days"`
	// JournalRetentionDays is how long memtui's journal keeps an entry
	// (its before-images and the memories it deleted) before a run drops
	// it; 0 means the default, DefaultJournalRetention (365 days).
	JournalRetentionDays int `yaml:"journal_retention_days"`
}

// DefaultJournalRetention is how long the journal keeps an entry when the
// config file does not say: a year. The journal holds deleted memories and
// the before-images undo needs, so it keeps them long. (It is the config
// file's default, so it stays here; memfs/txn.PruneJournal drops what is
// older.)
const DefaultJournalRetention = 365 * 24 * time.Hour

// JournalRetention is the configured retention, or the default.
func (c Config) JournalRetention() time.Duration {
	if c.JournalRetentionDays > 0 {
		return time.Duration(c.JournalRetentionDays) * 24 * time.Hour
	}
	return DefaultJournalRetention
}

// IgnoreEntry is one ignore rule of the config file. The caller converts it
// to consolidate.IgnoreRule (memfs does not import consolidate).
type IgnoreEntry struct {
	// Project is matched as a substring of the project's slug or real
	// path; "" matches every project.
	Project string `yaml:"project"`
	// Rules are the rule IDs to silence (DESIGN §3).
	Rules []string `yaml:"rules"`
}

// maxConfigBytes caps the config read; the file is a few lines.
const maxConfigBytes = 1 << 20

// DefaultConfigPath is $XDG_CONFIG_HOME/memtui/config.yaml, else
// ~/.config/memtui/config.yaml. A relative XDG_CONFIG_HOME is ignored, as
// the XDG spec asks. getenv nil means os.Getenv; HOME comes from getenv,
// falling back to os.UserHomeDir().
func DefaultConfigPath(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "memtui", "config.yaml")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".config", "memtui", "config.yaml")
}

// LoadConfig reads the config file at path. A missing file is the zero
// Config and no error: the file is optional. A file that does not parse, or
// that has a key memtui does not know (a typo would otherwise silently do
// nothing), is an error naming the file and the line.
func LoadConfig(path string) (Config, error) {
	var cfg Config
	// A config.yaml symlinked from a dotfiles repo is followed; a FIFO,
	// device or oversized file is an error, never a hang.
	data, err := readFile(path, maxConfigBytes, followLinks)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("config %s: %v", path, UnwrapPathErr(err))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		// yaml.v3 errors already carry "line N".
		return Config{}, fmt.Errorf("config %s: %v", path, err)
	}
	if cfg.StaleAfterDays < 0 {
		return Config{}, fmt.Errorf("config %s: stale_after_days is %d; want 0 (the default) or more days", path, cfg.StaleAfterDays)
	}
	if cfg.JournalRetentionDays < 0 {
		return Config{}, fmt.Errorf("config %s: journal_retention_days is %d; want 0 (the default, 365) or more days", path, cfg.JournalRetentionDays)
	}
	return cfg, nil
}
