package memfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Config is memtui's own config file (DESIGN §3: rules silenced per
// project; the stale-memory age; the palette and the TUI's keys).
//
//	ignore:
//	  - project: acme
//	    rules: [stale-memory, memory-orphan]
//	stale_after_days: 90
//	journal_retention_days: 365
//	theme: light
//	keys:
//	  quit: [q, ctrl+c]
//	  proposals.accept: [a, enter]
type Config struct {
	// Version is the file's format as it says: 1 (configVersion), or 0
	// when it does not say, which reads as format 1 (every file before
	// the key existed). A
	// file of a later format (a newer memtui's) is read for what this
	// memtui knows, and a note names the keys it leaves out.
	Version int `yaml:"version"`
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
	// Theme is the palette asked for: ThemeDark or ThemeLight, or "" for
	// none (auto: ask the terminal). A value memtui does not know leaves
	// it "" with a note in Notes.
	Theme Theme `yaml:"-"`
	// Keys are the TUI's rebindings, in the file's order, as written:
	// their shape is checked here, their names and keys by the key map
	// (keymap.KeyMap.With), which knows the bindings.
	Keys []KeyBinding `yaml:"-"`
	// Notes are the problems of single entries (an unknown theme, a keys
	// entry of the wrong shape), each left out while the rest of the file
	// applies: unlike an unknown field or a syntax error, such a slip
	// costs the user one setting, not all of them. Each quotes what it
	// read as it is (cut short), so the caller must make it safe before
	// printing it.
	Notes []string `yaml:"-"`
}

// KeyBinding is one entry of the config file's keys: a binding's name and
// the keys it takes instead of its own.
type KeyBinding struct {
	Name string
	Keys []string
	// Line is where the entry starts in the file, for notes.
	Line int
}

// Theme is the palette the user chose: dark or light, or auto to follow
// the terminal's background.
type Theme string

// The themes memtui knows. The zero Theme means nobody chose, which acts
// as ThemeAuto.
const (
	ThemeAuto  Theme = "auto"
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
)

// Themes lists the accepted values, for help and messages.
func Themes() []Theme { return []Theme{ThemeAuto, ThemeDark, ThemeLight} }

// ParseTheme reads a theme as the config file, --theme and MEMTUI_THEME
// give it: one of Themes, in any case, blanks around it ignored. The error
// quotes s (safely, and cut short): the caller adds where it came from.
func ParseTheme(s string) (Theme, error) {
	t := Theme(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Themes(), t) {
		return t, nil
	}
	return "", fmt.Errorf("%s is not a theme: want auto, dark or light", quoteShort(s))
}

// Forced reports the palette the theme fixes: dark or light, with ok
// true; auto and "" fix none (ask the terminal).
func (t Theme) Forced() (dark, ok bool) {
	switch t {
	case ThemeDark:
		return true, true
	case ThemeLight:
		return false, true
	}
	return false, false
}

// quoteShort quotes a value from the config file (or the environment) for
// a message, cut to a few dozen characters, so a megabyte-long value makes
// a short line. It escapes nothing: whoever prints the message makes it
// safe (internal/safe), and escaping here too would show escapes twice.
func quoteShort(s string) string {
	const most = 40
	if utf8.RuneCountInString(s) > most {
		s = string([]rune(s)[:most]) + "…"
	}
	return `"` + s + `"`
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

// configVersion is the config file's format this memtui reads: 1, the
// only one so far. memtui never writes the file, so there is nothing to
// migrate on disk: a later format that renames or reshapes a key reads
// the old spelling too, here.
const configVersion = 1

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
	// theme and keys are read as nodes, so that a wrong value costs that
	// entry alone, with a note, rather than the whole file.
	var raw struct {
		Config `yaml:",inline"`
		Theme  yaml.Node `yaml:"theme"`
		Keys   yaml.Node `yaml:"keys"`
	}
	// A later memtui's file may hold keys this one does not know: they
	// are left out with a note, not a typo's error (read first, loosely).
	var peek struct {
		Version yaml.Node `yaml:"version"`
	}
	newer := 0
	if yaml.Unmarshal(data, &peek) == nil && peek.Version.Kind == yaml.ScalarNode {
		if v, err := strconv.Atoi(peek.Version.Value); err == nil && v > configVersion {
			newer = v
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(newer == 0)
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		// yaml.v3 errors already carry "line N".
		if newer > 0 {
			return Config{}, fmt.Errorf("config %s is in format %d, a newer memtui's (this one reads format %d): %v", path, newer, configVersion, err)
		}
		return Config{}, fmt.Errorf("config %s: %v", path, err)
	}
	cfg = raw.Config
	if newer > 0 {
		cfg.Notes = append(cfg.Notes, newerConfigNote(data, newer, peek.Version.Line))
	}
	if cfg.Version < 0 || (cfg.Version == 0 && peek.Version.Kind != 0 && peek.Version.Tag != "!!null") {
		return Config{}, fmt.Errorf("config %s: version is %d; want %d (or no version)", path, cfg.Version, configVersion)
	}
	cfg.Theme, cfg.Notes = readTheme(&raw.Theme, cfg.Notes)
	cfg.Keys, cfg.Notes = readKeys(&raw.Keys, cfg.Notes)
	if cfg.StaleAfterDays < 0 {
		return Config{}, fmt.Errorf("config %s: stale_after_days is %d; want 0 (the default) or more days", path, cfg.StaleAfterDays)
	}
	if cfg.JournalRetentionDays < 0 {
		return Config{}, fmt.Errorf("config %s: journal_retention_days is %d; want 0 (the default, 365) or more days", path, cfg.JournalRetentionDays)
	}
	return cfg, nil
}

// readTheme reads the theme entry: absent or empty is no choice; a word
// memtui does not know is a note, and auto.
func readTheme(n *yaml.Node, notes []string) (Theme, []string) {
	if n.Kind == 0 || n.Tag == "!!null" {
		return "", notes
	}
	if n.Kind != yaml.ScalarNode {
		return "", append(notes, fmt.Sprintf("line %d: theme is not a word (want auto, dark or light); using auto", n.Line))
	}
	t, err := ParseTheme(n.Value)
	if err != nil {
		return "", append(notes, fmt.Sprintf("line %d: theme: %v; using auto", n.Line, err))
	}
	if t == ThemeAuto {
		t = ""
	}
	return t, notes
}

// readKeys reads the keys entry: a mapping from a binding's name to a list
// of keys (or one key as a plain word). An entry of another shape is a
// note and is left out. Aliases are followed one step, never into a list
// of lists, so an alias bomb expands to nothing.
func readKeys(n *yaml.Node, notes []string) ([]KeyBinding, []string) {
	n = unalias(n)
	if n.Kind == 0 || n.Tag == "!!null" {
		return nil, notes
	}
	if n.Kind != yaml.MappingNode {
		return nil, append(notes, fmt.Sprintf("line %d: keys is not a mapping from a binding's name to its keys (such as quit: [q, ctrl+c]); ignored", n.Line))
	}
	var out []KeyBinding
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := unalias(n.Content[i]), unalias(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			notes = append(notes, fmt.Sprintf("line %d: keys: an entry's name is not a word; ignored", n.Content[i].Line))
			continue
		}
		kb := KeyBinding{Name: k.Value, Line: n.Content[i].Line}
		switch v.Kind {
		case yaml.ScalarNode:
			if v.Tag != "!!null" {
				kb.Keys = []string{v.Value}
			}
		case yaml.SequenceNode:
			ok := true
			for _, e := range v.Content {
				if e = unalias(e); e.Kind != yaml.ScalarNode || e.Tag == "!!null" {
					ok = false
					break
				}
				kb.Keys = append(kb.Keys, e.Value)
			}
			if !ok {
				notes = append(notes, fmt.Sprintf("line %d: keys: %s: every key must be a word, such as q or ctrl+c; ignored", kb.Line, quoteShort(kb.Name)))
				continue
			}
		default:
			notes = append(notes, fmt.Sprintf("line %d: keys: %s: want a list of keys, such as [q, ctrl+c]; ignored", kb.Line, quoteShort(kb.Name)))
			continue
		}
		out = append(out, kb)
	}
	return out, notes
}

// unalias is the node an alias stands for (one step), else n.
func unalias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// newerConfigNote says what of a later format's config file this memtui
// leaves out: the top-level keys it does not know.
func newerConfigNote(data []byte, v, line int) string {
	known := map[string]bool{"theme": true, "keys": true}
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			known[name] = true
		}
	}
	var doc yaml.Node
	var unknown []string
	if yaml.Unmarshal(data, &doc) == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0].Content
		for i := 0; i+1 < len(m); i += 2 {
			if !known[m[i].Value] {
				unknown = append(unknown, quoteShort(m[i].Value))
			}
		}
	}
	note := fmt.Sprintf("line %d: version %d is a newer memtui's config format (this one reads format %d)", line, v, configVersion)
	if len(unknown) == 0 {
		return note + "; every key in it is known here"
	}
	return note + "; left out: " + strings.Join(unknown, ", ")
}
