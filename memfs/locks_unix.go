//go:build unix

package memfs

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
	"golang.org/x/sys/unix"
)

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
	b, ok, err := readAt(rootfd, lockFileName, lockFileName)
	if err != nil {
		return claudeLockState{}, err
	}
	if !ok { // gone between stat and open: as if absent
		return claudeLockState{}, nil
	}
	return claudeLockState{exists: true, mtime: time.Unix(st.Mtim.Unix()), body: string(b)}, nil
}

// pidAlive is Claude Code's isProcessRunning: kill(pid, 0) succeeds. PID 0
// and 1 are never a holder, and EPERM reads as dead, as in Claude Code.
func pidAlive(pid int) bool {
	return pid > 1 && unix.Kill(pid, 0) == nil
}

// holder returns the PID holding the lock, or 0 when it is free or stale:
// held means mtime less than an hour old, a body that parses as an integer,
// and that PID alive. Our own PID is not a holder: that is a lock we left
// after an earlier run (the OS lock keeps our own runs apart).
func (s claudeLockState) holder(now time.Time, self int) int {
	if !s.exists || now.Sub(s.mtime) >= claudeLockStale {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s.body))
	if err != nil || pid == self || !pidAlive(pid) {
		return 0
	}
	return pid
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
		return nil, &LockHeldError{Dir: dir, PID: h, Since: prior.mtime}
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
	if strings.TrimSpace(after.body) != strconv.Itoa(pid) {
		other, _ := strconv.Atoi(strings.TrimSpace(after.body))
		return nil, &LockHeldError{Dir: dir, PID: other, Since: after.mtime}
	}
	return &claudeLock{rootfd: rootfd, dir: dir, pid: pid, prior: prior}, nil
}

// testHookLockRace runs between writing our PID and reading it back.
var testHookLockRace func()

func writeLockBody(rootfd int, body string) error {
	fd, err := openat(rootfd, lockFileName, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o644)
	if err != nil {
		if err == unix.ELOOP {
			return refuse(lockFileName, "is a symlink; memtui never writes through one")
		}
		return &fs.PathError{Op: "open", Path: lockFileName, Err: err}
	}
	f := os.NewFile(uintptr(fd), lockFileName)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		f.Close()
		return refuse(lockFileName, "is not a regular file")
	}
	_, err = f.WriteString(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// release leaves the lock as Claude Code's manual /dream does when the run
// changed something (our PID, mtime now: "consolidated now"), and otherwise
// rolls it back as Claude Code does on failure: no file if there was none
// before, else an empty body and the previous mtime, so autoDream's time
// gate is where it was. A lock someone else has taken since is left alone.
func (l *claudeLock) release(changed bool, now time.Time) error {
	cur, err := readClaudeLock(l.rootfd)
	if err != nil {
		return err
	}
	if !cur.exists || strings.TrimSpace(cur.body) != strconv.Itoa(l.pid) {
		return nil
	}
	if changed {
		ts := unix.NsecToTimespec(now.UnixNano())
		return unix.UtimesNanoAt(l.rootfd, lockFileName, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
	}
	if !l.prior.exists {
		return unix.Unlinkat(l.rootfd, lockFileName, 0)
	}
	if err := writeLockBody(l.rootfd, ""); err != nil {
		return err
	}
	ts := unix.NsecToTimespec(l.prior.mtime.UnixNano())
	return unix.UtimesNanoAt(l.rootfd, lockFileName, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
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
