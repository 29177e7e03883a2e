package txn

// The two locks of a write (DESIGN §5): Claude Code's own
// <memdir>/.consolidate-lock, taken exactly as Claude Code takes it (facts
// §6.2), and an flock on a file in memtui's state dir, keyed by the memory
// dir, so that two memtui processes (or two goroutines) never interleave.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/memtui/memtui/memfs"
)

// lockFileName is Claude Code's lock in a memory dir (memfs owns the
// name: a scan skips the file).
const lockFileName = memfs.LockFileName

// claudeLockStale is Claude Code's HOLDER_STALE_MS (facts §6.2).
const claudeLockStale = time.Hour

// lockPoll is how often a wait for a lock looks again; tests shorten it.
var lockPoll = 250 * time.Millisecond

// claudeLockState is .consolidate-lock as read.
type claudeLockState struct {
	exists bool
	mtime  time.Time
	body   string
}

func readClaudeLock(rootfd int) (claudeLockState, error) {
	st, ok, err := lstatAt(rootfd, lockFileName)
	if err != nil {
		return claudeLockState{}, &fs.PathError{Op: "stat", Path: lockFileName, Err: err}
	}
	if !ok {
		return claudeLockState{}, nil
	}
	if p := kindProblem(&st); p != "" {
		return claudeLockState{}, refuse(lockFileName, "%s; memtui will not take a lock it cannot read safely", p)
	}
	if st.nlink > 1 {
		// Writing our PID would write into every other name of the file.
		return claudeLockState{}, refuse(lockFileName, "has %d hard links; memtui does not write through them (remove the other links)", st.nlink)
	}
	b, ok, err := readAt(rootfd, lockFileName, lockFileName)
	if err != nil {
		return claudeLockState{}, err
	}
	if !ok { // gone between stat and open: as if absent
		return claudeLockState{}, nil
	}
	return claudeLockState{exists: true, mtime: time.Unix(0, st.mtime), body: string(b)}, nil
}

// holder returns the PID holding the lock, or 0 when it is free or stale:
// held means mtime less than an hour old, a body whose leading integer (as
// JavaScript's parseInt reads it, memfs.ParseLockPID: "123\n…", "123abc"
// and " 123 " are all 123; the storage-v5 body "<pid>\n<ms>" too) is a
// PID, and that PID alive. Our own PID is not a holder: that is a lock
// we left after an earlier run (the OS lock keeps our own runs apart).
func (s claudeLockState) holder(now time.Time, self int) int {
	if !s.exists || now.Sub(s.mtime) >= claudeLockStale {
		return 0
	}
	pid, ok := memfs.ParseLockPID(s.body)
	if !ok || pid == self || !memfs.PIDAlive(pid) {
		return 0
	}
	return pid
}

// isMemtui reports whether process pid is a memtui (its command name is
// memtui's, or this very program's): a lock left or held by another memtui
// run is named as such, not blamed on Claude Code. Where /proc is not
// available it says no. The name is compared, never printed.
func isMemtui(pid int) bool {
	b, err := readProcComm(pid)
	if err != nil {
		return false
	}
	name := strings.TrimSpace(b)
	if name == "memtui" {
		return true
	}
	own, err := readProcComm(os.Getpid())
	return err == nil && name != "" && name == strings.TrimSpace(own)
}

// readProcComm reads /proc/<pid>/comm (at most 64 bytes: the kernel keeps
// 15).
func readProcComm(pid int) (string, error) {
	b, err := memfs.ReadRegular(filepath.Join("/proc", strconv.Itoa(pid), "comm"), 64)
	return string(b), err
}

// claudeLock is a .consolidate-lock we took.
type claudeLock struct {
	rootfd int
	dir    string
	pid    int
	prior  claudeLockState
}

// acquireClaudeLock does what Claude Code's tryAcquireConsolidationLock
// does: read; if held, fail; else write our PID (a plain write, not
// O_EXCL), read it back, and succeed only if the body is ours (the loser of
// a race bails). The write never follows a symlink.
func acquireClaudeLock(rootfd int, dir string, pid int, now time.Time) (*claudeLock, error) {
	prior, err := readClaudeLock(rootfd)
	if err != nil {
		return nil, err
	}
	if h := prior.holder(now, pid); h != 0 {
		return nil, &LockHeldError{Dir: dir, PID: h, Since: prior.mtime, Memtui: isMemtui(h)}
	}
	if err := writeLockBody(rootfd, strconv.Itoa(pid)); err != nil {
		return nil, err
	}
	if testHookLockRace != nil {
		testHookLockRace()
	}
	after, err := readClaudeLock(rootfd)
	if err != nil {
		return nil, err
	}
	if got, ok := memfs.ParseLockPID(after.body); !ok || got != pid {
		other, _ := memfs.ParseLockPID(after.body)
		return nil, &LockHeldError{Dir: dir, PID: other, Since: after.mtime, Memtui: other > 1 && isMemtui(other)}
	}
	return &claudeLock{rootfd: rootfd, dir: dir, pid: pid, prior: prior}, nil
}

// testHookLockRace runs between writing our PID and reading it back.
var testHookLockRace func()

func writeLockBody(rootfd int, body string) error {
	f, err := sys.openTrunc(rootfd, lockFileName, 0o644)
	if err != nil {
		if isLink(err) {
			return refuse(lockFileName, "is a symlink; memtui never writes through one")
		}
		return &fs.PathError{Op: "open", Path: lockFileName, Err: err}
	}
	if st, err := sys.fstatFile(f); err == nil && st.kind != kindReg {
		f.Close()
		return refuse(lockFileName, "is not a regular file")
	}
	_, err = f.WriteString(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// release ends memtui's hold on the lock. By default it puts the lock
// back exactly as it was before the run (no file if there was none, else
// its body and its mtime, to the nanosecond): a memtui write is not a
// consolidation, so Claude Code's autoDream clock (the lock's mtime) does
// not move, and no PID of ours is left behind for other runs to wait on.
// With mark (the user chose to mark the store consolidated, and the run
// changed something) the lock gets an empty body and mtime now: "last
// consolidated now", held by nobody. A lock someone else has taken since
// is left alone.
func (l *claudeLock) release(mark bool, now time.Time) error {
	cur, err := readClaudeLock(l.rootfd)
	if err != nil {
		return err
	}
	if got, ok := memfs.ParseLockPID(cur.body); !cur.exists || !ok || got != l.pid {
		return nil
	}
	if mark {
		if err := writeLockBody(l.rootfd, ""); err != nil {
			return err
		}
		return sys.utimes(l.rootfd, lockFileName, ftimes{now.UnixNano(), now.UnixNano()})
	}
	if !l.prior.exists {
		return sys.unlink(l.rootfd, lockFileName)
	}
	body := l.prior.body
	if p, ok := memfs.ParseLockPID(body); ok && p == l.pid {
		// Our own PID, left by an earlier run of this process: not put
		// back, or other runs would wait on it for an hour.
		body = ""
	}
	if err := writeLockBody(l.rootfd, body); err != nil {
		return err
	}
	ns := l.prior.mtime.UnixNano()
	return sys.utimes(l.rootfd, lockFileName, ftimes{ns, ns})
}

// lockFilePath is memtui's OS-level lock file for a memory dir: beside the
// journal root, named by a hash of the resolved path.
func lockFilePath(journalRoot, realDir string) string {
	return filepath.Join(filepath.Dir(journalRoot), "locks", sumHex([]byte(realDir))[:32]+".lock")
}

// errBusy: another memtui run holds the OS lock.
var errBusy = errors.New("another memtui run is writing to this memory dir")

// lockOS takes memtui's flock for realDir, waiting up to wait.
func lockOS(ctx context.Context, journalRoot, realDir string, wait time.Duration) (*flock.Flock, error) {
	p := lockFilePath(journalRoot, realDir)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	fl := flock.New(p)
	deadline := time.Now().Add(wait)
	for {
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		if ok {
			return fl, nil
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("%s: %w (lock file %s)", realDir, errBusy, p)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(lockPoll/5, time.Until(deadline))):
		}
	}
}
