package termbg

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the test plays the terminal on
// master, Dark talks to the slave as it would to a real tty.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals on this machine: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// terminal answers the query on master with reply once it has read it.
func terminal(t *testing.T, master *os.File, reply string) <-chan string {
	got := make(chan string, 1)
	go func() {
		var seen strings.Builder
		buf := make([]byte, 64)
		for !strings.Contains(seen.String(), "\x1b[c") {
			n, err := master.Read(buf)
			if err != nil {
				break
			}
			seen.Write(buf[:n])
		}
		if reply != "" {
			master.WriteString(reply)
		}
		got <- seen.String()
	}()
	return got
}

func TestDarkAsksTheTerminal(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		dark, ok    bool
	}{
		{"light", "\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[?62;c", false, true},
		{"dark", "\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?1;2c", true, true},
		{"no OSC 11", "\x1b[?1;2c", false, false},
		{"silent", "", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			master, slave := openPTY(t)
			seen := terminal(t, master, c.reply)
			dark, ok := Dark(slave, 500*time.Millisecond)
			if dark != c.dark || ok != c.ok {
				t.Errorf("Dark = %v, %v; want %v, %v", dark, ok, c.dark, c.ok)
			}
			if q := <-seen; !strings.Contains(q, "\x1b]11;?") {
				t.Errorf("the terminal was not asked for its background: %q", q)
			}
		})
	}
}
