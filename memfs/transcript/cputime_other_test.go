//go:build !unix

package transcript

import "time"

// cpuTime is 0 where the process's CPU time is not to be had: the
// benchmarks' cpu-ms figures are then 0 and only the wall clock counts.
func cpuTime() time.Duration { return 0 }
