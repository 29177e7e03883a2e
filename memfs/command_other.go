//go:build !unix

package memfs

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups: the command
// stays in memtui's console group, so Ctrl-C reaches it too.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the command itself; what it started is not reachable
// without process groups.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// onInterrupt calls f on an interrupt until the returned function is
// called.
func onInterrupt(f func()) (stop func()) {
	return onSignal(f, os.Interrupt)
}
