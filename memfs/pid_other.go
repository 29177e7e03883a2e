//go:build !unix && !windows

package memfs

// PIDAlive cannot tell on this platform: every PID counts as dead, as any
// error does for Claude Code (facts §6.2).
func PIDAlive(pid int) bool { return false }
