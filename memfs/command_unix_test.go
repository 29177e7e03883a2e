//go:build unix

package memfs

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gone reports whether pid no longer runs: it does not exist, or it is a
// zombie nobody has reaped yet (in a container, init may not reap).
func gone(pid int) bool {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		// pid (comm) S ...: the state follows the last ')'.
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
			return s[i+2] == 'Z' || s[i+2] == 'X'
		}
	}
	return syscall.Kill(pid, 0) == syscall.ESRCH
}

// waitGone polls for pid to go, for at most 10 s (a deadline against a
// hang, not a speed target).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if gone(pid) {
			return
		}
	}
	t.Errorf("process %d the command started is still running", pid)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(file)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			return pid
		}
	}
	t.Fatalf("the command never wrote its child's pid to %s", file)
	return 0
}

func TestRunCommandStopsReadingAtTheCap(t *testing.T) {
	// yes never ends on its own: only the cap stops it (the timeout is a
	// guard against a hang, and its error would say so).
	out, err := runCommand(context.Background(), "yes memtui", nil, time.Minute, nil, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "proposer output over 1 MB") {
		t.Fatalf("err = %v, want the output cap named", err)
	}
	if out != nil {
		t.Errorf("kept %d bytes of a refused output", len(out))
	}
}

func TestRunCommandKeepsOutputUpToTheCap(t *testing.T) {
	out, err := runCommand(context.Background(), "head -c 1048576 /dev/zero", nil, time.Minute, nil, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1<<20 {
		t.Errorf("got %d bytes, want exactly the cap", len(out))
	}
}

func TestRunCommandCapKillsAProposerThatIgnoresSIGPIPE(t *testing.T) {
	// Closing the pipe is not enough: this one ignores SIGPIPE and keeps
	// going, writing its pid first.
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `trap '' PIPE; echo $$ > ` + pidFile + `; while :; do printf '%01000d\n' 0 2>/dev/null; done`
	_, err := runCommand(context.Background(), script, nil, time.Minute, nil, 64<<10)
	if err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, readPid(t, pidFile))
}

func TestRunCommandTimeoutKillsTheWholeGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The child holds stdout open too: Wait must not wait for it.
	script := `sleep 1000 & echo $! > ` + pidFile + `; sleep 1000`
	_, err := runCommand(context.Background(), script, nil, 300*time.Millisecond, nil, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 300ms") {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, readPid(t, pidFile))
}

func TestRunCommandCancelKillsTheWholeGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		readPid(t, pidFile)
		cancel()
	}()
	script := `sleep 1000 >/dev/null 2>&1 & echo $! > ` + pidFile + `; sleep 1000`
	_, err := runCommand(ctx, script, nil, time.Minute, nil, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "was stopped") {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, readPid(t, pidFile))
}

func TestRunCommandLeavesNothingRunningAfterItExits(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `sleep 1000 >/dev/null 2>&1 & echo $! > ` + pidFile + `; echo '{}'`
	out, err := runCommand(context.Background(), script, nil, time.Minute, nil, 1<<20)
	if err != nil || string(out) != "{}\n" {
		t.Fatalf("out %q, err %v", out, err)
	}
	waitGone(t, readPid(t, pidFile))
}

func TestRunCommandRefusesOutputAChildKeptOpen(t *testing.T) {
	// The shell exits at once, but its child still holds stdout and could
	// write more: what was read is not known to be the whole answer.
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `sleep 1000 & echo $! > ` + pidFile + `; echo '{}'`
	_, err := runCommand(context.Background(), script, nil, time.Minute, nil, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "kept its output open") {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, readPid(t, pidFile))
}

// TestRunCommandStderrIsBounded: a command's stderr is passed on a whole
// line per write (so the writer the caller wraps it in, which makes it safe
// to show, sees an escape sequence whole), cut after maxStderrShown, and
// its end quoted in the error.
func TestRunCommandStderrIsBounded(t *testing.T) {
	var shown lineWrites
	// An OSC 52 clipboard write and a screen clear, then 1 MB of noise,
	// then a failure.
	script := `{ printf 'step 1\n\033]52;c;aGVsbG8=\007\033[2J\n'; head -c 1048576 /dev/zero | tr '\0' x; printf '\nlast words\033[2J\n' ; } >&2; exit 3`
	_, err := runCommand(context.Background(), script, nil, time.Minute, &shown, 1<<20)
	if err == nil {
		t.Fatal("a failing command succeeded")
	}
	if len(shown.writes) < 2 || shown.writes[0] != "step 1\n" || shown.writes[1] != "\x1b]52;c;aGVsbG8=\a\x1b[2J\n" {
		t.Errorf("the first lines are not passed on one whole line per write: %q", shown.writes[:min(len(shown.writes), 2)])
	}
	all := strings.Join(shown.writes, "")
	if !strings.Contains(all, "the rest is not shown") {
		t.Error("a cut stderr does not say it was cut")
	}
	if len(all) > maxStderrShown+1024 {
		t.Errorf("passed on %d bytes of stderr, over the %d cap", len(all), maxStderrShown)
	}
	if !strings.Contains(err.Error(), "last words\x1b[2J") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("the error does not quote the end of stderr: %q", err)
	}
	if len(err.Error()) > stderrTail+512 {
		t.Errorf("the error is %d bytes long", len(err.Error()))
	}
}

// lineWrites records each Write separately.
type lineWrites struct{ writes []string }

func (w *lineWrites) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	return len(p), nil
}
