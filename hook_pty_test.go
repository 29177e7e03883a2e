//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	xterm "github.com/charmbracelet/x/term"
	"github.com/creack/pty"
)

// answerOnPTY runs the built binary on a pseudo-terminal, answers its
// background-colour query as a dark terminal, and types answer once the
// output holds prompt. It returns the exit code and all the terminal got.
func answerOnPTY(t *testing.T, bin string, envv []string, prompt, answer string, args ...string) (int, string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("pty: %v", err)
	}
	defer ptmx.Close()
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
		t.Fatal(err)
	}
	tty.Close()
	var got bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		queried, answered := false, false
		for {
			n, err := ptmx.Read(buf)
			got.Write(buf[:n])
			if !queried && bytes.Contains(got.Bytes(), []byte(termQuery)) {
				queried = true
				ptmx.Write([]byte("\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?62;22c"))
			}
			if !answered && bytes.Contains(got.Bytes(), []byte(prompt)) {
				answered = true
				ptmx.Write([]byte(answer))
			}
			if err != nil {
				return
			}
		}
	}()
	err = cmd.Wait()
	select {
	case <-read:
	case <-time.After(5 * time.Second):
		ptmx.Close()
		<-read
	}
	if ctx.Err() != nil {
		t.Fatalf("%v: hung (no answer asked for, or not read)\n%s", args, got.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, got.String()
}

// TestHookAsksOnARealTerminal: the built binary, its stdin a terminal,
// asks before it writes, and writes on y only.
func TestHookAsksOnARealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildMemtui(t)
	h := newHookEnv(t)
	writeFile(t, h.settings, otherSettings)
	envv := childEnv("HOME", h.home, "XDG_STATE_HOME", h.state)
	args := []string{"hook", "install", "--command", h.bin}
	code, out := answerOnPTY(t, bin, envv, "Install? [y/N] ", "n\r", args...)
	if code != exitFindings || !strings.Contains(out, "Nothing written.") || h.read(t) != otherSettings {
		t.Errorf("answered n: exit %d, wrote %v\n%s", code, h.read(t) != otherSettings, out)
	}
	code, out = answerOnPTY(t, bin, envv, "Install? [y/N] ", "y\r", args...)
	if code != exitOK || !strings.Contains(out, "Installed memtui's snapshot hook") {
		t.Errorf("answered y: exit %d\n%s", code, out)
	}
	if got := hookCommands(t, h.read(t)); len(got["SessionEnd"]) != 1 {
		t.Errorf("answered y: the hook is not in the settings: %q", got)
	}
	if b := h.backups(t); len(b) != 1 || !strings.HasPrefix(b[0], filepath.Join(h.state, "memtui", "backups")) {
		t.Errorf("backups %v", b)
	}
	if _, err := os.Stat(h.settings); err != nil {
		t.Fatal(err)
	}
}
