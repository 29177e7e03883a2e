package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"time"
)

// dreamedFS holds the texts a memory dir had before a Dream run changed
// or deleted them: dreamed/<dir>/<file>.
//
//go:embed dreamed
var dreamedFS embed.FS

// Snapshot is a memory dir of the sample as memtui's snapshot saw it
// before a background Dream run (which leaves no transcript): what the
// demo's first run records as that snapshot, so the sessions view can
// show what the run did. It is said as a difference from the sample.
type Snapshot struct {
	// Dir is the memory dir, slash-separated and relative to the config
	// dir (FS's root).
	Dir string
	// Time is when the snapshot was taken; LockMtime and LockPID are the
	// .consolidate-lock's then.
	Time      time.Time
	LockMtime time.Time
	LockPID   int
	// Absent are files created since (paths relative to Dir).
	Absent []string
	// Texts are the texts then of the files changed or deleted since,
	// keyed by path relative to Dir.
	Texts map[string]string
}

// snapshots are the sample's recorded snapshots; their texts are the
// files under dreamed/<dir>/.
//
// kefu-platform was snapshotted on the evening of 2026-11-15 (memtui's
// hook, at the end of a session). The next morning, while session
// a9c1e3f5 was open, Claude Code's autoDream took the lock (06:49:30, PID
// 51377) and "Improved" three files, as the memory_saved line in that
// session's transcript says: it cut the gray-release rule from
// project_release_window.md, rewrote that memory's index hook, and
// deleted reference_escalation.md, whose index entry it left behind (the
// index-broken-link finding). Only the snapshot holds the deleted text.
var snapshots = []Snapshot{{
	Dir:       "projects/-home-dev-kefu-platform/memory",
	Time:      time.Date(2026, 11, 15, 20, 0, 0, 0, time.UTC),
	LockMtime: time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC),
	LockPID:   0,
}}

// Snapshots returns the sample's recorded snapshots. A text must name a
// file the sample holds, or one it no longer does (a deletion).
func Snapshots() ([]Snapshot, error) {
	out := make([]Snapshot, 0, len(snapshots))
	for _, s := range snapshots {
		sn := s
		sn.Texts = map[string]string{}
		sub, err := fs.Sub(dreamedFS, path.Join("dreamed", s.Dir))
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(sub, p)
			if err != nil {
				return err
			}
			sn.Texts[p] = string(b)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("demo: snapshot %s: %w", s.Dir, err)
		}
		out = append(out, sn)
	}
	return out, nil
}
