package txn

// The write path's side of a foreign store (foreign.go): its temp dir,
// checked once per session, and the agent's busy check.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memtui/memtui/memfs"
)

// errForeignRecover is why Recover leaves an entry of a foreign store
// pending: rolling it back is a write, and only the caller knows how to
// ask the store's agent whether it is at work.
var errForeignRecover = errors.New("an interrupted write to a store another agent consolidates: rolled back by the next write to that store, or by RecoverDir, once the agent is not at work")

// errForeignUndo is why Undo refuses entry m under options that do not
// match its store: an entry of a foreign store is undone only with its
// agent's busy check (ApplyOptions.Foreign), and any other only as Claude
// Code's store, under its lock.
func errForeignUndo(m *JournalEntry) error {
	if foreignEntry(m) {
		return fmt.Errorf("journal entry %s is of %s, a store another agent consolidates; its undo needs that agent's busy check (ApplyOptions.Foreign): nothing undone", m.ID, m.MemoryDir)
	}
	return fmt.Errorf("journal entry %s is of %s, written as Claude Code's store; it is not undone as another agent's: nothing undone", m.ID, m.MemoryDir)
}

// openTempDir opens a foreign store's temp dir (making it, 0700, when it
// is missing) for the store opened as rootfd, whose resolved path is
// realDir. It returns the descriptor and the dir's resolved path, and
// refuses a dir that is a symlink or no directory, another user's or
// writable by group or others (someone else could swap memtui's temp
// files), inside the store (every name there enters the agent's diff), or
// on another file system than the store (the swap would not be one
// atomic rename).
func openTempDir(dir string, rootfd int, realDir string) (int, string, error) {
	if dir == "" {
		return -1, "", refuse("", "a foreign store needs a temp dir outside it (ForeignStore.TempDir)")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return -1, "", err
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return -1, "", fmt.Errorf("memtui's temp dir %s: %w", abs, err)
	}
	real := filepath.Join(parent, filepath.Base(abs))
	if memfs.PathWithin(real, realDir, onWindows) {
		return -1, "", refuse(abs, "memtui's temp dir is inside the store %s, where every file enters the agent's next consolidation", realDir)
	}
	if err := sys.mkdir(atCWD, real, 0o700); err != nil && !isExist(err) {
		return -1, "", &fs.PathError{Op: "mkdir", Path: real, Err: err}
	}
	fd, err := sys.openDir(atCWD, real)
	if err != nil {
		if isLinkOrNotDir(err) {
			return -1, "", refuse(abs, "memtui's temp dir is a symlink or not a directory; memtui does not put its files through one")
		}
		return -1, "", &fs.PathError{Op: "open", Path: real, Err: err}
	}
	st, err := sys.fstat(fd)
	var root fileStat
	if err == nil {
		root, err = sys.fstat(rootfd)
	}
	var why string
	switch {
	case err != nil:
		sys.close(fd)
		return -1, "", err
	case st.dev != root.dev:
		why = "is on another file system than the store " + realDir + "; memtui swaps its files in by a rename, which only works within one"
	case st.uid >= 0 && st.uid != os.Geteuid():
		why = "belongs to another user"
	case st.perm&0o022 != 0:
		why = fmt.Sprintf("is writable by others (mode %04o); memtui keeps its files where only it can swap them", st.perm)
	}
	if why != "" {
		sys.close(fd)
		return -1, "", refuse(abs, "memtui's temp dir %s", why)
	}
	return fd, real, nil
}

// openForeign opens the session's foreign temp dir (a session step).
func (s *session) openForeign() error {
	if s.opts.Foreign.Busy == nil {
		return refuse(s.dir, "a foreign store needs a busy check (ForeignStore.Busy)")
	}
	fd, real, err := openTempDir(s.opts.Foreign.TempDir, s.rootfd, s.realDir)
	if err != nil {
		return err
	}
	s.foreign, s.tempfd, s.tempDir = s.opts.Foreign, fd, real
	return nil
}

// closeForeign closes the temp dir again.
func (s *session) closeForeign() error {
	fd := s.tempfd
	s.tempfd = -1
	return sys.close(fd)
}

// notBusy asks a foreign store's agent whether it is at work: a
// *BusyError when it is, nil when it is not (or the store is memtui's to
// write as Claude Code's).
func (s *session) notBusy() error {
	if s.foreign == nil {
		return nil
	}
	if why := s.foreign.Busy(); why != "" {
		return &BusyError{Agent: s.foreign.Agent, Dir: s.dir, Reason: why}
	}
	return nil
}

// waitNotBusy is notBusy, polled up to opts.WaitForLock while the agent
// is at work (as a held .consolidate-lock is waited for).
func (s *session) waitNotBusy(ctx context.Context) error {
	return s.pollLock(ctx, func() (bool, error) { return true, s.notBusy() })
}

// foreignEntry reports whether journal entry m is of a foreign store.
func foreignEntry(m *JournalEntry) bool { return m.ForeignTempDir != "" }

// entryTempDir is the descriptor of the temp dir of m, an entry of a
// foreign store recovered in s: the session's own when it is the same
// dir, else the dir the entry recorded, opened with the same checks
// (opened is then true, and the caller closes it).
func (s *session) entryTempDir(m *JournalEntry) (fd int, opened bool, err error) {
	if m.ForeignTempDir == s.tempDir {
		return s.tempfd, false, nil
	}
	fd, _, err = openTempDir(m.ForeignTempDir, s.rootfd, s.realDir)
	return fd, err == nil, err
}

// RecoverDir rolls back the unfinished journal entries of the memory dir
// dir, as Recover does, under opts: with opts.Foreign, those of a foreign
// store, which Recover leaves pending (it cannot ask the store's agent
// whether it is at work). The store is opened as Apply opens it, so a
// busy agent refuses the recovery (a *BusyError) and nothing is written;
// once the agent said it is not at work, the rollback runs to its end
// without asking again (a store left half-written is worse). Apply and
// Undo do the same first thing for their own dir. A caller that shows a
// foreign store runs it at startup, after Recover.
func RecoverDir(dir string, opts ApplyOptions) ([]RecoverReport, error) {
	opts = opts.withDefaults()
	s, err := openSession(context.Background(), dir, opts, true)
	if err != nil {
		return nil, err
	}
	defer s.close()
	return s.recoverHere(), nil
}
