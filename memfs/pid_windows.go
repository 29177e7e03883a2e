//go:build windows

package memfs

import "golang.org/x/sys/windows"

// stillActive is GetExitCodeProcess's STILL_ACTIVE.
const stillActive = 259

// PIDAlive is Claude Code's isProcessRunning on Windows (facts §6.2):
// Node's process.kill(pid, 0), which libuv implements as OpenProcess
// (terminate, query and synchronize rights) and GetExitCodeProcess ==
// STILL_ACTIVE. A process it may not open (access denied) reads as dead
// there, as EPERM does on Unix, and so here. PID 0 and 1 are never a
// holder.
func PIDAlive(pid int) bool {
	if pid <= 1 || pid > 1<<31-1 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE|windows.PROCESS_QUERY_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}
