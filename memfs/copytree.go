package memfs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// MtimesFile is the optional file at the root of a sample tree that maps
// slash paths to RFC 3339 modification times. embed.FS reports no mtimes,
// and memtui's checks (stale memories, relative dates, "last consolidated")
// need them.
const MtimesFile = "mtimes.json"

// CopyTree copies fsys (for --demo, an embedded sample tree; use fs.Sub to
// drop the embed directory prefix) into dst, which must not exist yet or be
// an empty directory. Directories are created 0700 and files 0600, the modes
// Claude Code itself uses for its state (transcripts §1.2). The mtimes in
// MtimesFile are applied after every file is written, and the file itself is
// not copied. A path in it that the tree does not have is an error, so a
// renamed sample file cannot silently lose its date.
func CopyTree(fsys fs.FS, dst string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	if entries, err := ReadDir(dst); err != nil {
		return err
	} else if len(entries) > 0 {
		return fmt.Errorf("copy sample tree: %s is not empty", dst)
	}
	mtimes, err := readMtimes(fsys)
	if err != nil {
		return err
	}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." || p == MtimesFile {
			return nil
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		switch {
		case d.IsDir():
			return os.Mkdir(target, 0o700)
		case d.Type().IsRegular():
			return copyFile(fsys, p, target)
		}
		return nil // no symlinks or devices in a sample tree
	})
	if err != nil {
		return fmt.Errorf("copy sample tree: %w", err)
	}
	// Deepest first, so that setting a directory's time is not undone by
	// touching something inside it afterwards.
	paths := make([]string, 0, len(mtimes))
	for p := range mtimes {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool { return paths[i] > paths[j] })
	for _, p := range paths {
		target := filepath.Join(dst, filepath.FromSlash(p))
		if _, err := os.Lstat(target); err != nil {
			return fmt.Errorf("copy sample tree: %s names %s, which the tree does not have", MtimesFile, p)
		}
		if err := os.Chtimes(target, mtimes[p], mtimes[p]); err != nil {
			return fmt.Errorf("copy sample tree: %w", err)
		}
	}
	return nil
}

func readMtimes(fsys fs.FS) (map[string]time.Time, error) {
	data, err := fs.ReadFile(fsys, MtimesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("copy sample tree: %w", err)
	}
	var raw map[string]string
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("copy sample tree: %s: %w", MtimesFile, err)
	}
	out := make(map[string]time.Time, len(raw))
	for p, s := range raw {
		if !fs.ValidPath(p) || p == "." || p == MtimesFile {
			return nil, fmt.Errorf("copy sample tree: %s: bad path %q", MtimesFile, p)
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil, fmt.Errorf("copy sample tree: %s: %s: %w", MtimesFile, p, err)
		}
		out[p] = t
	}
	return out, nil
}

func copyFile(fsys fs.FS, p, target string) error {
	in, err := fsys.Open(p)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
