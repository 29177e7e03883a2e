//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	xterm "github.com/charmbracelet/x/term"
	"github.com/creack/pty"

	"github.com/memtui/memtui/internal/hostile"
)

// hostileDeadline bounds one command of the hostile-tree suite. It is no
// timing assert: a healthy command takes about a second; one that has not
// finished by then hangs.
const hostileDeadline = 45 * time.Second

// outcome is what one command printed and how it ended.
type outcome struct {
	name           string
	code           int
	stdout, stderr string
	// hung says the command did not finish within the deadline; failed
	// says why it could not run at all (a panic, a crash, a kill).
	hung     bool
	deadline time.Duration
	failed   string
	// asked says the command asked the terminal for its background (a
	// run on a pseudo-terminal only).
	asked bool
}

// runHostile runs memtui in-process under the deadline. A command that
// hangs is left behind (its goroutine cannot be stopped) and reported; a
// panic is recovered and reported, so one defect cannot take the rest of
// the suite down with it.
func runHostile(t *testing.T, getenv func(string) string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	var out, errb syncBuffer
	res := outcome{name: shortName(args)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				res.failed = fmt.Sprintf("panicked: %v\n%s", r, debug.Stack())
			}
		}()
		res.code = run(ctx, args, &out, &errb, getenv)
	}()
	select {
	case <-done:
	case <-time.After(hostileDeadline + 5*time.Second):
		return outcome{name: res.name, hung: true, deadline: hostileDeadline, stdout: out.String(), stderr: errb.String()}
	}
	res.stdout, res.stderr = out.String(), errb.String()
	if ctx.Err() != nil {
		res.hung, res.deadline = true, hostileDeadline // it gave up only when the deadline cancelled it
	}
	return res
}

// shortName is the command line without the global flags every run of
// the suite repeats (--config-dir, --now), and with temp paths cut to
// their base, for messages.
func shortName(args []string) string {
	var out []string
	for i := 0; i < len(args); i++ {
		if (args[i] == "--config-dir" || args[i] == "--now") && i+1 < len(args) {
			i++
			continue
		}
		a := args[i]
		if filepath.IsAbs(a) {
			a = filepath.Base(a)
		}
		out = append(out, a)
	}
	// Shown visibly: the test log is a terminal's text too.
	return hostile.Visible("memtui " + strings.Join(out, " "))
}

// syncBuffer is a bytes.Buffer a hung command may still write to while
// the test reads what it has so far.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// buildMemtui builds the binary into t's temp dir (the build cache makes
// a second build in the same run quick).
func buildMemtui(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "memtui")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// childEnv lists the variables of a hostile run for a child process.
func childEnv(kv ...string) []string {
	out := []string{"PATH=" + os.Getenv("PATH")}
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, kv[i]+"="+kv[i+1])
	}
	return out
}

// termQuery is what memtui itself asks a terminal (its background colour,
// then device attributes): the one sequence other than SGR it may send,
// removed before the output is checked.
const termQuery = ansi.RequestBackgroundColor + ansi.RequestPrimaryDeviceAttributes

// runOnPTY runs the built binary with a pseudo-terminal as stdin, stdout
// and stderr and its controlling terminal, as a person at a terminal runs
// it, and returns everything the terminal received. The terminal is raw
// (no \n to \r\n translation, no echo), so the bytes are exactly memtui's.
// It answers memtui's background-colour query as a dark terminal would.
//
// creack/pty rather than script(1): it gives the child a real controlling
// terminal with a known size, and the exact bytes without script's
// header, footer and line translation.
func runOnPTY(t *testing.T, bin string, envv []string, args ...string) outcome {
	t.Helper()
	res := outcome{name: "on a terminal: " + shortName(args)}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("pty: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 50, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	if _, err := xterm.MakeRaw(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(envv, "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	tty.Close()
	var got bytes.Buffer
	read := make(chan struct{})
	answered := false // read once read is closed
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			got.Write(buf[:n])
			if !answered && bytes.Contains(got.Bytes(), []byte(termQuery)) {
				answered = true
				ptmx.Write([]byte("\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?62;22c"))
			}
			if err != nil { // EIO once the child and its terminal are gone
				return
			}
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.hung, res.deadline = true, hostileDeadline
	case errors.As(err, &exit) && exit.ExitCode() < 0:
		res.failed = "killed by " + exit.String()
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	select {
	case <-read:
	case <-time.After(5 * time.Second):
		// Something else holds the terminal open: stop reading.
		ptmx.Close()
		<-read
	}
	res.stdout = strings.ReplaceAll(got.String(), termQuery, "")
	res.asked = answered
	return res
}

// runLimited runs the built binary piped, with its address space capped
// (ulimit -v) and the deadline enforced by a kill, for the attacks that
// would hang the test process or eat the machine's memory: a FIFO or
// /dev/zero where a memory file was.
// It may run on any goroutine: what goes wrong is in the outcome.
func runLimited(bin string, envv []string, args ...string) outcome {
	res := outcome{name: shortName(args)}
	const deadline = 20 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	// 3 GB of address space: memtui needs about 2 GB of it just to start
	// (the secret scanner's regexp engine reserves much), and a read of
	// /dev/zero stops there rather than at the machine's memory. The
	// "control" case of TestHostileRecords shows the cap alone does not
	// fail a run.
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", `ulimit -v 3000000; exec "$0" "$@"`, bin}, args...)...)
	cmd.Env = envv
	cmd.Stdin = nil
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	res.stdout, res.stderr = out.String(), errb.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.hung, res.deadline = true, deadline
	case strings.Contains(res.stderr, "out of memory") || strings.Contains(res.stderr, "cannot allocate memory"):
		res.failed = "ran out of its 3 GB address space: memory unbounded"
	case errors.As(err, &exit) && exit.ExitCode() < 0:
		res.failed = "killed by " + exit.String()
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
		if strings.Contains(res.stderr, "goroutine ") && strings.Contains(res.stderr, "panic") {
			res.failed = "panicked:\n" + res.stderr
		}
	case err != nil:
		res.failed = err.Error()
	}
	return res
}

// ranCleanly reports a hang, panic or crash as the failure of t and says
// whether the output can be checked.
func ranCleanly(t *testing.T, o outcome) bool {
	t.Helper()
	switch {
	case o.hung:
		t.Errorf("%s: hung (still running after %s)", o.name, o.deadline)
		return false
	case o.failed != "":
		t.Errorf("%s: %s", o.name, o.failed)
		return false
	}
	return true
}

// both is what a person sees of a command: its stdout and stderr.
func (o outcome) both() string { return o.stdout + "\n" + o.stderr }

// checkOutput runs the three checks every output gets, each its own
// subtest: no secret, no raw control character, no line forged by a file
// name's newline.
func checkOutput(t *testing.T, tr *hostile.Tree, o outcome, mode hostile.Mode) {
	t.Helper()
	t.Run("no-secret", func(t *testing.T) {
		for _, p := range tr.Leaks(o.both()) {
			t.Errorf("%s %s", o.name, p)
		}
	})
	t.Run("no-raw-control", func(t *testing.T) {
		for _, s := range []struct{ which, out string }{{"stdout", o.stdout}, {"stderr", o.stderr}} {
			m := mode
			if s.which == "stderr" && mode == hostile.JSON {
				m = hostile.Plain // errors and warnings are text, not JSON
			}
			for _, p := range hostile.Controls(s.out, m) {
				t.Errorf("%s: %s: %s", o.name, s.which, p)
			}
		}
	})
	if mode != hostile.JSON {
		t.Run("no-forged-line", func(t *testing.T) {
			for _, p := range hostile.Forgeries(o.both()) {
				t.Errorf("%s: %s", o.name, p)
			}
		})
	}
}

// checkUnchanged fails t with every entry under the tree's root that
// differs from before.
func checkUnchanged(t *testing.T, tr *hostile.Tree, before map[string]string, what string) {
	t.Helper()
	after, err := hostile.Snapshot(tr.Root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range hostile.Changed(before, after) {
		t.Errorf("%s changed the tree: %s", what, c)
	}
}

// readAll is the content of p, or "" when it cannot be read.
func readAll(p string) string {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 64<<20))
	return string(b)
}
