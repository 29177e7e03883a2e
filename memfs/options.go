// Package memfs is where memtui meets the disk: it finds Claude Code's
// config dirs, projects and memory directories (environment, settings,
// overrides and their validation), loads memory files, and a few helpers
// around them (a path probe for dangling-path checks, memtui's own config
// file and state dirs, review baselines, the --demo tree), and reads
// OpenAI Codex's memory store beside them (codex.go), and finds other
// agents' copies of Claude Code's format under a --memory-root (roots.go).
// Reading what session transcripts say about the memories is its
// sub-package memfs/transcript; discovery's own glance at a transcript
// (a project's real path, transcripts.go) stays here. Writing accepted proposals to a
// memory dir (the transaction under the locks, its journal, crash
// recovery and undo) is its sub-package memfs/txn; what decides whether a
// write may happen at all (WriteRefusal, the review baselines) stays here.
// Both read only through this package's one safe reader (saferead.go),
// and this package imports neither.
//
// Facts about Claude Code's behaviour are cited as "facts §N", meaning the
// sections of docs/claude-memory-format.md, and "transcripts §N" for
// docs/transcript-format.md.
//
// Error policy: Discover, LoadDir and Scan return an error only for
// usage-level failures (a --config-dir or --memory-dir that is not a
// directory, a cancelled context). Everything else found on disk becomes a
// model.Problem on the memory dir or a model.ConfigProblem on the scan, and
// the scan goes on: a curator that stops at the first unreadable file is
// useless on exactly the directories that most need curating.
package memfs

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/memtui/memtui/model"
)

// Options say where to look and how hard to work.
type Options struct {
	// ConfigDirs are Claude Code config dirs (--config-dir, repeatable).
	// Empty means $CLAUDE_CONFIG_DIR, else ~/.claude, the same default as
	// Claude Code (facts §1.1 row 3). When MemoryDirs is set and ConfigDirs
	// is empty, no config dir is scanned: --memory-dir alone opens only the
	// directories named.
	ConfigDirs []string
	// MemoryDirs are memory directories to open directly (--memory-dir,
	// repeatable). Each becomes its own Project of Kind DirExplicit.
	MemoryDirs []string
	// Project keeps only the projects whose slug or real path contains this
	// text (case-sensitive substring; "" keeps all).
	Project string
	// Getenv reads the environment; nil means os.Getenv. Tests inject it.
	Getenv func(string) string
	// Home is the user's home directory, used for ~/ expansion of
	// autoMemoryDirectory and the ~/.claude default; "" means
	// os.UserHomeDir().
	Home string
	// MaxFileBytes caps how much of one file is read (default 1 MiB). A
	// bigger file is read up to the cap, marked Truncated, and reported as
	// ProblemTooLarge.
	MaxFileBytes int64
	// MaxIndexBytes caps how much of a MEMORY.md (the index at the top of a
	// memory dir) is read; 0 means DefaultMaxIndexBytes. It is separate
	// from MaxFileBytes: Claude Code reads an index up to 4 MiB.
	MaxIndexBytes int64
	// Workers bounds parallel reads; 0 means 2*GOMAXPROCS, at most 16.
	Workers int
	// IncludeAgentMemory also lists subagent memory dirs (facts §1.4, agent
	// memory). The zero value leaves them out; callers normally set it.
	IncludeAgentMemory bool
	// ManagedSettings is the path of the policy (managed) settings file.
	// "" means the platform default (ManagedSettingsPath); tests point it
	// into a temp dir so the host's policy never leaks into a test.
	ManagedSettings string
	// Chroot, when set, is where the folders transcripts name are looked
	// up, said without it: the demo's projects live at /home/dev/... in
	// its transcripts and at <scratch>/<Chroot>/home/dev/... on disk, so
	// the demo can show a git worktree's stranded store anywhere. A folder
	// missing under Chroot says nothing (the demo's world is partial).
	Chroot string
}

// DefaultMaxFileBytes is the default per-file read cap. Real topic files run
// up to about 115 KB (DESIGN §8); a megabyte leaves room while keeping a
// stray log file from eating memory.
const DefaultMaxFileBytes int64 = 1 << 20

// DefaultMaxIndexBytes is the read cap of MEMORY.md: Claude Code's 4 MiB
// limit (model.IndexMaxReadBytes) plus one byte, so that the content read
// decides whether Claude Code loads the index at all (facts §3.2 step 1):
// more than model.IndexMaxReadBytes bytes read means it does not.
const DefaultMaxIndexBytes int64 = model.IndexMaxReadBytes + 1

// maxWorkers caps the worker pool: past this, more goroutines only add
// contention on the file system.
const maxWorkers = 16

func (o Options) withDefaults() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			o.Home = h
		}
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.MaxIndexBytes <= 0 {
		o.MaxIndexBytes = DefaultMaxIndexBytes
	}
	if o.Workers <= 0 {
		o.Workers = 2 * runtime.GOMAXPROCS(0)
	}
	if o.Workers > maxWorkers {
		o.Workers = maxWorkers
	}
	if o.ManagedSettings == "" {
		o.ManagedSettings = ManagedSettingsPath(runtime.GOOS)
	}
	return o
}

// DefaultConfigDir is the config dir Claude Code uses when none is given:
// $CLAUDE_CONFIG_DIR, else ~/.claude (facts §1.1 row 3). getenv nil means
// os.Getenv; home "" means os.UserHomeDir(). Callers use it to name the
// directory in a "no ~/.claude found, try --demo" message.
func DefaultConfigDir(getenv func(string) string, home string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
		return d
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".claude")
}

// ManagedSettingsPath is where Claude Code reads policy (managed) settings on
// the given GOOS, the highest-precedence settings scope for
// autoMemoryDirectory (facts §1.1 row 2): /etc/claude-code on Linux (and
// other Unix), the paths of Claude Code's settings documentation on macOS
// and Windows. Drop-in managed-settings.d files are not read.
func ManagedSettingsPath(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\Program Files\ClaudeCode\managed-settings.json`
	default:
		return "/etc/claude-code/managed-settings.json"
	}
}
