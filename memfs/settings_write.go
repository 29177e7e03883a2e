package memfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// The one write memtui makes outside its state and the memory directories:
// Claude Code's settings file, for `memtui hook install` and `uninstall`
// (hook.go works out the new text). The file is the user's and Claude Code
// writes it too (/config, /hooks, permission answers), so the write:
//
//   - reads through the safe reader (a regular file, bounded);
//   - follows a symlink at the named path to its target and writes the
//     target, leaving the link as it is: people keep settings.json in a
//     dotfiles repository and link it into ~/.claude, and replacing the
//     link with a file would quietly cut it from the repository. A link
//     whose target is missing is refused (memtui creates no file at the
//     end of someone's link). The caller says which file is written.
//   - refuses a file with several hard links (a rename would split it from
//     its other names, as the memory write path refuses one);
//   - writes a temporary file beside the target, fsyncs it, re-reads the
//     target and refuses if it is no longer the text that was shown (a
//     compare-and-swap against the read), then renames over it and fsyncs
//     the directory. The file keeps its permission bits; a new one is
//     0600, as settings may hold credentials (env, apiKeyHelper). What is
//     left is the instant between the re-read and the rename, which no
//     lock closes: Claude Code takes none on its settings.
//   - keeps the previous text in memtui's state (StateDirs.Backups), so
//     nothing is lost whatever the edit did.

// SettingsFile is a Claude Code settings file read for an edit.
type SettingsFile struct {
	// Path is the file as named, made absolute; Target the file read and
	// written: Path, or where a symlink at Path leads.
	Path, Target string
	// Exists says the file is there; Data is its content when it is.
	Exists bool
	Data   []byte
	mode   fs.FileMode
}

// Linked reports whether Path is a symlink to Target.
func (f *SettingsFile) Linked() bool { return f.Target != f.Path }

// ErrSettingsChanged is the refusal of a settings write whose file changed
// after it was read: another program wrote it meanwhile.
var ErrSettingsChanged = errors.New("changed since memtui read it")

// ReadSettingsFile reads the settings file at path for an edit (see the
// file comment). A missing file is no error (Exists false) when its folder
// exists: the edit creates it.
func ReadSettingsFile(path string) (*SettingsFile, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	f := &SettingsFile{Path: abs, Target: abs, mode: 0o600}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(abs)
		if di, derr := os.Stat(dir); derr != nil || !di.IsDir() {
			return nil, fmt.Errorf("%s does not exist, nor does its folder %s (is Claude Code set up here? --settings names another file)", abs, dir)
		}
		return f, nil
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s is a symlink to a file that does not exist; memtui does not create a link's target: create it, or name another file with --settings", abs)
		}
		if err != nil {
			return nil, err
		}
		f.Target = target
	}
	file, rfi, err := openRead(f.Target, noFollow)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if n := nlinkOf(rfi); n > 1 {
		return nil, fmt.Errorf("%s has %d names (hard links); replacing it would split it from the others, so memtui does not write it", f.Target, n)
	}
	if f.Data, err = readOpened(file, rfi.Size(), maxSettingsBytes); err != nil {
		return nil, err
	}
	f.Exists, f.mode = true, rfi.Mode().Perm()
	return f, nil
}

// WriteSettingsFile replaces the settings file f was read from with data,
// after keeping what it read in backupDir (when the file existed). It
// refuses, writing nothing, with an error wrapping ErrSettingsChanged when
// the file is no longer what f read. It returns the backup's path ("" for
// a file it creates).
func WriteSettingsFile(f *SettingsFile, data []byte, backupDir string, now time.Time) (backup string, err error) {
	if f.Exists {
		if backup, err = writeBackup(backupDir, filepath.Base(f.Path), f.Data, now); err != nil {
			return "", fmt.Errorf("keeping a copy of %s: %w; nothing written", f.Path, err)
		}
	}
	dropBackup := func() {
		if backup != "" {
			os.Remove(backup)
		}
	}
	dir := filepath.Dir(f.Target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(f.Target)+".memtui-*")
	if err != nil {
		dropBackup()
		return "", err
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// CreateTemp makes the file 0600; Chmod sets the bits exactly, umask
	// aside, as the file had them.
	if err := tmp.Chmod(f.mode); err != nil {
		dropBackup()
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		dropBackup()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		dropBackup()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		dropBackup()
		return "", err
	}
	if err := f.unchanged(); err != nil {
		dropBackup()
		return "", err
	}
	if err := os.Rename(tmp.Name(), f.Target); err != nil {
		dropBackup()
		return "", err
	}
	renamed = true
	// The rename is durable once the directory is; a failure here leaves
	// the new file in place, so it is not worth refusing over.
	if d, err := OpenDir(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return backup, nil
}

// unchanged checks the file is still what f read: the same link target,
// still missing, or the same bytes.
func (f *SettingsFile) unchanged() error {
	changed := func(what string) error {
		return fmt.Errorf("%s %w (%s; another program, Claude Code perhaps, wrote it): nothing written; run the command again to see the change against what it holds now", f.Path, ErrSettingsChanged, what)
	}
	if f.Linked() {
		if t, err := filepath.EvalSymlinks(f.Path); err != nil || t != f.Target {
			return changed("the symlink now leads elsewhere")
		}
	}
	if !f.Exists {
		if _, err := os.Lstat(f.Target); !errors.Is(err, fs.ErrNotExist) {
			return changed("it was created")
		}
		return nil
	}
	now, err := readFile(f.Target, maxSettingsBytes, noFollow)
	if err != nil {
		return changed("it can no longer be read: " + err.Error())
	}
	if !bytes.Equal(now, f.Data) {
		return changed("its content differs")
	}
	return nil
}

// writeBackup writes data to a new owner-only file in dir named for when
// and for name, and fsyncs it.
func writeBackup(dir, name string, data []byte, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	stamp := now.UTC().Format("20060102T150405.000000000Z")
	for i := 0; ; i++ {
		p := filepath.Join(dir, stamp+"-"+name)
		if i > 0 {
			p = filepath.Join(dir, stamp+"-"+strconv.Itoa(i)+"-"+name)
		}
		bf, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = bf.Write(data)
		if err == nil {
			err = bf.Sync()
		}
		if cerr := bf.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(p)
			return "", err
		}
		return p, nil
	}
}
