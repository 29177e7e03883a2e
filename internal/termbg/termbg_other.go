//go:build !unix

package termbg

import (
	"os"
	"time"
)

// Dark cannot ask this platform's console; the background is unknown.
func Dark(tty *os.File, timeout time.Duration) (dark, ok bool) { return false, false }
