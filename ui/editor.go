package ui

import (
	"fmt"
	"os/exec"
	"strings"
)

// editorCmd is the command that opens path in the user's editor: the
// configured command line ($VISUAL, $EDITOR), else vi.
func editorCmd(editor, path string) (*exec.Cmd, error) {
	args := strings.Fields(editor)
	if len(args) == 0 {
		args = []string{"vi"}
	}
	if _, err := exec.LookPath(args[0]); err != nil {
		return nil, fmt.Errorf("cannot open an editor: %q not found (set $EDITOR)", args[0])
	}
	return exec.Command(args[0], append(args[1:], path)...), nil
}
