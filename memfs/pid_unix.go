//go:build unix

package memfs

import "golang.org/x/sys/unix"

// PIDAlive is Claude Code's isProcessRunning (facts §6.2): pid > 1 and
// kill(pid, 0) succeeds. Any error, EPERM included, counts as dead, as it
// does for Claude Code: a lock of another user's live process is not held.
func PIDAlive(pid int) bool {
	return pid > 1 && unix.Kill(pid, 0) == nil
}
