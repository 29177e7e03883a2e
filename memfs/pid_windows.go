//go:build windows

package memfs

import "golang.org/x/sys/windows"

// PIDAlive is Claude Code's isProcessRunning (facts §6.2) on Windows,
// where Node's process.kill(pid, 0) opens the process and fails when it
// cannot: pid > 1, the process opens for a limited query, and it has not
// exited (its exit code is STILL_ACTIVE). A process that cannot be opened
// counts as dead, as any error does for Claude Code.
func PIDAlive(pid int) bool {
	if pid <= 1 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	const stillActive = 259 // STILL_ACTIVE
	return code == stillActive
}
