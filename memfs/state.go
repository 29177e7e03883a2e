package memfs

import (
	"path/filepath"
	"runtime"

	"github.com/adrg/xdg"
)

// StateDirs is where memtui keeps files of its own, never inside a memory
// directory.
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
		Journal: filepath.Join(state, "journal"),
		Seen:    filepath.Join(state, "seen"),
		Cache:   cache,
	}
}

// ScratchStateDirs keeps everything inside root: the demo's scratch tree,
// so the demo never writes into the user's own state.
func ScratchStateDirs(root string) StateDirs {
	return StateDirs{
		Journal: filepath.Join(root, ".memtui-journal"),
		Seen:    filepath.Join(root, ".memtui-seen"),
		Cache:   filepath.Join(root, ".memtui-cache"),
	}
}
