package memfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxCommandOutput bounds what RunCommand reads of a command's stdout: at
// the cap it stops reading and kills the command, so a runaway proposer
// costs at most this much memory.
const MaxCommandOutput = 64 << 20

// maxStderrShown bounds how much of a command's stderr is passed on as it
// runs; its last stderrTail bytes are kept for the error message.
const (
	maxStderrShown = 256 << 10
	stderrTail     = 2 << 10
	maxStderrLine  = 4 << 10
)

// waitDelay is how long Wait waits for the output pipes after the command
// exited or was killed: a process it left behind holding them cannot make
// memtui wait longer.
const waitDelay = 2 * time.Second

var (
	errTimedOut    = errors.New("timed out")
	errOutputLimit = errors.New("output over the cap")
	errInterrupted = errors.New("interrupted")
)

// RunCommand runs a shell command line with stdin, and returns its stdout.
// The command runs in a process group of its own, and the whole group is
// killed when it runs past timeout, when its stdout passes
// MaxCommandOutput, when ctx ends or memtui is interrupted, and once it has
// exited (nothing it started outlives it). Its stderr goes to stderr as it
// runs (a proposer's progress), a whole line per write and at most 256 KB
// of it, raw: the caller passes a writer that makes it safe to show (the CLI
// passes safe.Writer). An exit status other than 0 is an error that quotes
// the end of its stderr, raw too (whoever prints the error makes it safe).
func RunCommand(ctx context.Context, command string, stdin []byte, timeout time.Duration, stderr io.Writer) ([]byte, error) {
	return runCommand(ctx, command, stdin, timeout, stderr, MaxCommandOutput)
}

func runCommand(ctx context.Context, command string, stdin []byte, timeout time.Duration, stderr io.Writer, max int) ([]byte, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("no command given")
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, errTimedOut)
		defer cancel()
	}
	shell, flag := "/bin/sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	cmd := exec.CommandContext(ctx, shell, flag, command)
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = waitDelay
	cmd.Stdin = bytes.NewReader(stdin)
	out := &cappedWriter{max: max, full: func() { stop(errOutputLimit) }}
	cmd.Stdout = out
	if stderr == nil {
		stderr = io.Discard
	}
	errw := &stderrWriter{to: stderr, room: maxStderrShown}
	cmd.Stderr = errw

	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%q could not start: %v", command, err)
	}
	// The group is out of the terminal's reach of Ctrl-C: pass an
	// interrupt on as a kill of the whole group.
	unwatch := onInterrupt(func() { stop(errInterrupted) })
	err := cmd.Wait()
	unwatch()
	// Whatever it left running (a daemon, a `sleep &`) goes with it.
	_ = killGroup(cmd)
	errw.flush()

	switch cause := context.Cause(ctx); {
	case out.over:
		return nil, fmt.Errorf("%q: proposer output over %d MB; memtui stopped reading and killed it", command, max>>20)
	case errors.Is(cause, errTimedOut):
		return nil, fmt.Errorf("%q did not finish within %s; memtui killed it and everything it started", command, timeout)
	case errors.Is(cause, errInterrupted):
		return nil, fmt.Errorf("%q was interrupted; memtui killed it and everything it started", command)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%q was stopped: %v", command, cause)
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited, but something it started kept its stdout
		// open: what was read may not be all of it.
		return nil, fmt.Errorf("%q exited, but processes it started kept its output open; memtui killed them and ignored the output", command)
	case err != nil:
		if msg := strings.TrimSpace(errw.tail()); msg != "" {
			return nil, fmt.Errorf("%q failed: %v: %s", command, err, msg)
		}
		return nil, fmt.Errorf("%q failed: %v", command, err)
	}
	return out.buf, nil
}

// cappedWriter keeps at most max bytes. At the cap it fails the write,
// which stops exec's copy from the pipe, and calls full once (which kills
// the command). It has no ReadFrom on purpose: io.Copy would use it and
// read past the cap.
type cappedWriter struct {
	buf  []byte
	max  int
	over bool
	full func()
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if w.over {
		return 0, errOutputLimit
	}
	if len(w.buf)+len(p) > w.max {
		w.over = true
		w.full()
		return 0, errOutputLimit
	}
	if len(w.buf)+len(p) > cap(w.buf) {
		// Double rather than append's 1.25 for large slices: the garbage
		// left on the way to the cap is then at most the cap, not four
		// times it.
		grown := make([]byte, len(w.buf), min(w.max, max(2*cap(w.buf), len(w.buf)+len(p), 64<<10)))
		copy(grown, w.buf)
		w.buf = grown
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// stderrWriter passes a command's stderr on line by line (whole lines, so
// the writer it goes to, which makes it safe to show, sees each escape
// sequence whole), stops passing it on after room bytes, and keeps the last
// stderrTail bytes for an error message. Lines longer than maxStderrLine
// are passed on in pieces, so it holds at most that much.
type stderrWriter struct {
	mu   sync.Mutex
	to   io.Writer
	room int
	cut  bool
	line []byte
	last []byte // ring of the last stderrTail bytes, in order
}

func (w *stderrWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.keep(p)
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			w.line = append(w.line, rest...)
			if len(w.line) >= maxStderrLine {
				n := cutAtRune(w.line, maxStderrLine)
				w.emit(w.line[:n], false)
				w.line = append(w.line[:0], w.line[n:]...)
			}
			break
		}
		w.line = append(w.line, rest[:i]...)
		w.emit(w.line, true)
		w.line = w.line[:0]
		rest = rest[i+1:]
	}
	return len(p), nil
}

// flush passes on a last line without a newline.
func (w *stderrWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.line) > 0 {
		w.emit(w.line, true)
		w.line = w.line[:0]
	}
}

func (w *stderrWriter) emit(line []byte, nl bool) {
	if w.cut {
		return
	}
	s := string(line)
	if nl {
		s += "\n"
	}
	if len(s) > w.room {
		w.cut = true
		fmt.Fprintf(w.to, "\n(memtui: the command's stderr passed %d KB; the rest is not shown)\n", maxStderrShown>>10)
		return
	}
	w.room -= len(s)
	_, _ = io.WriteString(w.to, s)
}

func (w *stderrWriter) keep(p []byte) {
	if len(p) >= stderrTail {
		w.last = append(w.last[:0], p[len(p)-stderrTail:]...)
		return
	}
	if drop := len(w.last) + len(p) - stderrTail; drop > 0 {
		w.last = append(w.last[:0], w.last[drop:]...)
	}
	w.last = append(w.last, p...)
}

// tail is the end of what the command wrote to stderr, as one line: from
// the first whole rune, newlines as " / ". It goes into an error, which
// whoever prints it makes safe to show, as it does any text from outside.
func (w *stderrWriter) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.last
	for i := 0; i < len(b) && i < utf8.UTFMax && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", " / ")
}

// cutAtRune returns a length at most n that does not split a UTF-8
// sequence (or n when b holds no rune start near it).
func cutAtRune(b []byte, n int) int {
	for k := n; k > n-utf8.UTFMax && k > 0; k-- {
		if utf8.RuneStart(b[k]) {
			return k
		}
	}
	return n
}

// onSignal calls f on the first of sigs to arrive, until the returned
// function is called.
func onSignal(f func(), sigs ...os.Signal) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			f()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
