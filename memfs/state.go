package memfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/adrg/xdg"

	"github.com/memtui/memtui/model"
)

// StateDirs is where memtui keeps files of its own, never inside a memory
// directory. docs/STATE.md lists every file kept there, its format
// version, and what an older or newer memtui does with it: nothing a
// person decided or may want to undo is lost across an upgrade
// (stateversion.go).
type StateDirs struct {
	// Journal holds applied proposals (before-images, for undo and crash
	// recovery).
	Journal string
	// Seen holds each memory directory's review baseline ("changes since
	// you last looked").
	Seen string
	// Cache holds what was read from transcripts, per file by size and
	// mtime; deleting it only costs a slower next start.
	Cache string
	// Backups holds copies of files memtui changed outside the memory
	// directories, as they were before: Claude Code's settings.json before
	// a hook install or uninstall.
	Backups string
	// Snapshots holds memtui's record of every memory dir over time
	// (memfs/snapshot): what Claude Code's background runs changed,
	// which no transcript records. "" keeps none.
	Snapshots string
}

// DefaultStateDirs follows the XDG base directories as the given
// environment states them ($XDG_STATE_HOME, $XDG_CACHE_HOME, else under
// $HOME), so tests and the CLI can inject an environment; getenv nil falls
// back to the process's own XDG dirs.
func DefaultStateDirs(getenv func(string) string) StateDirs {
	state := filepath.Join(xdg.StateHome, "memtui")
	cache := filepath.Join(xdg.CacheHome, "memtui")
	if getenv != nil {
		home := getenv("HOME")
		unixy := runtime.GOOS != "darwin" && runtime.GOOS != "windows"
		switch x := getenv("XDG_STATE_HOME"); {
		case x != "":
			state = filepath.Join(x, "memtui")
		case home != "" && unixy:
			state = filepath.Join(home, ".local", "state", "memtui")
		}
		switch x := getenv("XDG_CACHE_HOME"); {
		case x != "":
			cache = filepath.Join(x, "memtui")
		case home != "" && unixy:
			cache = filepath.Join(home, ".cache", "memtui")
		}
	}
	return StateDirs{
		Journal:   filepath.Join(state, "journal"),
		Seen:      filepath.Join(state, "seen"),
		Cache:     cache,
		Backups:   filepath.Join(state, "backups"),
		Snapshots: filepath.Join(state, "snapshots"),
	}
}

// ScratchStateDirs keeps everything inside root: the demo's scratch tree,
// so the demo never writes into the user's own state.
func ScratchStateDirs(root string) StateDirs {
	return StateDirs{
		Journal:   filepath.Join(root, ".memtui-journal"),
		Seen:      filepath.Join(root, ".memtui-seen"),
		Cache:     filepath.Join(root, ".memtui-cache"),
		Backups:   filepath.Join(root, ".memtui-backups"),
		Snapshots: filepath.Join(root, ".memtui-snapshots"),
	}
}

// JournalPendingDir is the journal's folder of unfinished entries
// (<journal>/pending/<id> is present while entry <id> is not finished).
// TightenState leaves those entries' files as they are; it is exported for
// memfs/txn, which writes, lists and clears the marks.
const JournalPendingDir = "pending"

// TightenState makes memtui's own state owner-only: the journal (with its
// before-images, deleted memories and manifests), the review baselines,
// the transcript cache and the snapshots hold copies of memory text
// (secrets included, but for the snapshots, which redact them), and the
// backups copies of settings files, as Claude Code's own transcripts are
// kept owner-only. Directories become
// 0700 and files 0600 where they are looser (made so by an older memtui, a
// copy, a restore from backup). Symlinks are never followed, and the files
// of an unfinished journal entry are left as they are: recovery puts them
// back with their own mode. It returns what it changed, one line per root.
func TightenState(s StateDirs) []string {
	var notes []string
	pending := filepath.Join(s.Journal, JournalPendingDir)
	roots := []string{s.Journal, filepath.Join(filepath.Dir(s.Journal), "locks"), s.Seen, s.Cache, s.Backups, s.Snapshots}
	for _, root := range roots {
		if root == "" {
			continue
		}
		dirs, files := 0, 0
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			if d.IsDir() && root == s.Journal && filepath.Dir(p) == s.Journal && p != pending {
				if _, err := os.Lstat(filepath.Join(pending, d.Name())); err == nil {
					tightenOne(p, 0o700, &dirs) // the entry's dir, not its files
					return fs.SkipDir
				}
			}
			if d.IsDir() {
				tightenOne(p, 0o700, &dirs)
			} else if d.Type().IsRegular() {
				tightenOne(p, 0o600, &files)
			}
			return nil
		})
		if dirs+files > 0 {
			notes = append(notes, fmt.Sprintf("made %s owner-only (%d %s, %d %s were readable by others)", root,
				dirs, model.Plural(dirs, "directory", "directories"), files, model.Plural(files, "file", "files")))
		}
	}
	return notes
}

// tightenOne sets p's permission bits to want when it grants anything to
// group or others.
func tightenOne(p string, want fs.FileMode, n *int) {
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return
	}
	if os.Chmod(p, want) == nil {
		*n++
	}
}
