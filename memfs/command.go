package memfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// MaxCommandOutput bounds what RunCommand keeps of a command's stdout.
const MaxCommandOutput = 64 << 20

// RunCommand runs a shell command line with stdin, and returns its stdout.
// Its stderr goes to stderr (a proposer's progress shows as it runs). It is
// killed after timeout, and an exit status other than 0 is an error that
// quotes the end of its stderr.
func RunCommand(ctx context.Context, command string, stdin []byte, timeout time.Duration, stderr io.Writer) ([]byte, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("no command given")
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	shell, flag := "/bin/sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	cmd := exec.CommandContext(ctx, shell, flag, command)
	cmd.Stdin = bytes.NewReader(stdin)
	var out limitedBuffer
	out.max = MaxCommandOutput
	cmd.Stdout = &out
	var tail tailBuffer
	if stderr == nil {
		stderr = io.Discard
	}
	cmd.Stderr = io.MultiWriter(stderr, &tail)
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("%q did not finish within %s", command, timeout)
	case err != nil:
		msg := strings.TrimSpace(tail.String())
		if msg != "" {
			return nil, fmt.Errorf("%q failed: %v: %s", command, err, msg)
		}
		return nil, fmt.Errorf("%q failed: %v", command, err)
	case out.over:
		return nil, fmt.Errorf("%q wrote more than %d MB", command, MaxCommandOutput>>20)
	}
	return out.Bytes(), nil
}

// limitedBuffer keeps at most max bytes and notes when there were more.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// tailBuffer keeps the last 2 KB written, for error messages.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2048 {
		t.b = t.b[len(t.b)-2048:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }
