//go:build unix

package termbg

import (
	"errors"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"
)

// Dark asks the terminal on tty whether its background is dark. ok is false
// when tty is not a terminal or no colour came back within timeout; the
// terminal's reply is read from tty and so never reaches the shell.
func Dark(tty *os.File, timeout time.Duration) (dark, ok bool) {
	fd := tty.Fd()
	if !term.IsTerminal(fd) {
		return false, false
	}
	state, err := term.MakeRaw(fd)
	if err != nil {
		return false, false
	}
	defer term.Restore(fd, state) //nolint:errcheck // nothing better to do
	if _, err := tty.WriteString(query); err != nil {
		return false, false
	}
	deadline := time.Now().Add(timeout)
	var reply []byte
	buf := make([]byte, 256)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, int(left.Milliseconds())+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			break
		}
		m, err := unix.Read(int(fd), buf)
		if m > 0 {
			reply = append(reply, buf[:m]...)
		}
		if err != nil && !errors.Is(err, unix.EINTR) && !errors.Is(err, unix.EAGAIN) {
			break
		}
		if bg, done := parse(reply); done {
			if bg == nil {
				return false, false
			}
			return isDark(bg), true
		}
	}
	if bg, _ := parse(reply); bg != nil {
		return isDark(bg), true
	}
	return false, false
}
