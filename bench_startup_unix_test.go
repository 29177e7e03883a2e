//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	xterm "github.com/charmbracelet/x/term"
	"github.com/creack/pty"
)

// BenchmarkTUIFirstFrame is the time from starting the built binary on a
// pseudo-terminal to its first frame listing the projects of the
// generated tree (benchCorpus: 500 projects by default), the terminal
// answering its questions as a terminal does. ms/frame is the median of
// the runs. Compare it with BenchmarkBareFirstFrame, the floor any Bubble
// Tea program pays.
func BenchmarkTUIFirstFrame(b *testing.B) {
	bin, dir := buildMemtui(b), benchCorpus(b)
	home := b.TempDir()
	env := childEnv("HOME", home, "XDG_STATE_HOME", filepath.Join(home, "state"), "XDG_CACHE_HOME", filepath.Join(home, "cache"))
	benchFirstFrame(b, bin, env, "--config-dir", dir, "--now", "2026-11-21")
}

// BenchmarkBareFirstFrame is BenchmarkTUIFirstFrame for the smallest
// Bubble Tea program (testdata/bareframe): the Go runtime, the terminal
// libraries' tables and the terminal's setup, and nothing of memtui's.
func BenchmarkBareFirstFrame(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "bareframe")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/bareframe").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	benchFirstFrame(b, bin, childEnv("HOME", b.TempDir()))
}

// benchFirstFrame runs bin once per iteration and reports the median time
// to a frame holding "Projects (".
func benchFirstFrame(b *testing.B, bin string, env []string, args ...string) {
	b.Helper()
	var times []time.Duration
	for b.Loop() {
		times = append(times, firstFrame(b, bin, env, args...))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/float64(time.Millisecond), "ms/frame")
}

// firstFrame starts bin on a fresh pseudo-terminal and returns how long
// it took to draw "Projects (", then kills it.
func firstFrame(b *testing.B, bin string, env []string, args ...string) time.Duration {
	b.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		b.Fatalf("pty: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		b.Fatal(err)
	}
	if _, err := xterm.MakeRaw(tty.Fd()); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(env, "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tty.Close()
		b.Fatal(err)
	}
	tty.Close()
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	seen := make(chan time.Duration, 1)
	go func() {
		var got []byte
		buf := make([]byte, 64<<10)
		bg, da := false, false
		for {
			n, err := ptmx.Read(buf)
			got = append(got, buf[:n]...)
			// Answer as a terminal does: its background, its attributes.
			if !bg && bytes.Contains(got, []byte("\x1b]11;?")) {
				bg = true
				ptmx.Write([]byte("\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\"))
			}
			if !da && bytes.Contains(got, []byte("\x1b[c")) {
				da = true
				ptmx.Write([]byte("\x1b[?62;22c"))
			}
			if bytes.Contains(got, []byte("Projects (")) {
				seen <- time.Since(start)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case d := <-seen:
		return d
	case <-time.After(20 * time.Second):
		b.Fatalf("%s drew no frame with its projects in 20 s", filepath.Base(bin))
	}
	return 0
}
