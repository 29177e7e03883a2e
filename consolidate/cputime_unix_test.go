//go:build unix

package consolidate

import "syscall"

// cpuTime is the process's user and system CPU time so far, in ns (0
// when unknown).
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
