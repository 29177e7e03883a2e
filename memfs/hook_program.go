package memfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// HookProgram is the memtui binary the hook is to run, as an absolute
// path. given is --command: taken as it is (made absolute; a symlink kept,
// so a package manager's link keeps pointing at its newest version), once
// it names an executable file called memtui. Without it, the running
// binary, its symlinks resolved, unless that is a temporary build (`go
// run`, a test binary): it is gone when the run ends, and a hook running it
// would fail at every turn.
func HookProgram(given string) (string, error) {
	if given != "" {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", err
		}
		fi, err := os.Stat(abs)
		switch {
		case err != nil:
			return "", fmt.Errorf("--command %s: %w", abs, UnwrapPathErr(err))
		case !fi.Mode().IsRegular():
			return "", fmt.Errorf("--command %s is not a regular file", abs)
		case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
			return "", fmt.Errorf("--command %s is not executable", abs)
		case !IsMemtuiName(abs):
			return "", fmt.Errorf("--command %s: the program must be named memtui: the hook is recognised as memtui's by that name, to be replaced or removed later", abs)
		}
		return abs, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot tell where this memtui binary is (%v): give it with --command PATH", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if temporaryBuild(exe) {
		return "", fmt.Errorf("this memtui runs from a temporary build (%s), which is deleted when it exits: install memtui first (go install github.com/memtui/memtui@latest) and run the installed one, or name the binary the hook should run with --command PATH", exe)
	}
	if !IsMemtuiName(exe) {
		return "", errors.New("this binary is named " + filepath.Base(exe) + ", not memtui: the hook is recognised as memtui's by that name; rename it, or name a memtui binary with --command PATH")
	}
	return exe, nil
}

// temporaryBuild reports whether exe is a binary the go tool built to run
// once (under a go-build folder) or sits in the temporary directory.
func temporaryBuild(exe string) bool {
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	tmp := os.TempDir()
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	rel, err := filepath.Rel(tmp, exe)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
