//go:build unix

package memfs

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd as the leader of a new process group, so that
// everything it starts can be killed with it.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup kills cmd's whole process group. A group already gone is not
// an error.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// onInterrupt calls f on SIGINT, SIGTERM or SIGHUP until the returned
// function is called. A command in a group of its own no longer gets the
// terminal's Ctrl-C; memtui passes it on and then exits through the error.
func onInterrupt(f func()) (stop func()) {
	return onSignal(f, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}
