package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// hookFlags are the flags of hook install and uninstall.
type hookFlags struct {
	settings string
	command  string
	yes      bool
	dryRun   bool
}

func newHookCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	hook := &cobra.Command{
		Use:   "hook",
		Short: "Install or remove the Claude Code hook that snapshots every memory store",
		Long: `Claude Code's background memory writers (autoDream's consolidation and the
memory extraction) leave no transcript, so what they changed can only be
told from what the files held before and after. "memtui hook install"
adds a hook to Claude Code's settings that runs "memtui snapshot" when a
session starts, when each turn ends (Stop: when Claude Code launches those
background runs) and when the session ends; "memtui hook uninstall" takes
it out again. Both show the change to the settings file as a diff and ask
before writing it.`,
	}
	for _, install := range []bool{true, false} {
		var hf hookFlags
		c := &cobra.Command{
			Args: cobra.NoArgs,
			RunE: func(*cobra.Command, []string) error {
				return runHook(g, hf, install, stdout)
			},
		}
		if install {
			c.Use = "install"
			c.Short = "Add memtui's snapshot hook to Claude Code's settings"
			c.Long = `Add a hook to Claude Code's user settings (~/.claude/settings.json, or
$CLAUDE_CONFIG_DIR/settings.json, or --config-dir's) that runs this memtui
binary's snapshot on SessionStart, Stop and SessionEnd:

  {"type": "command", "command": "'/path/to/memtui' snapshot || exit 1", "timeout": 30}

one matcher group per event, added at the end of the event's list. The
"|| exit 1" keeps a failed snapshot from ever exiting 2, which on Stop
would tell Claude to keep working.

Every other byte of the file is kept (key order, layout, other hooks and
settings). The change is shown as a diff and written only on "y" (--yes:
without asking; --dry-run: show it, write nothing); without a terminal to
ask on and without --yes, nothing is written. A hook already there with
another memtui path is pointed at this one; one that is already this one
is left as it is. A symlinked settings.json is written through to its
target, the link kept. The file as it was is kept under
$XDG_STATE_HOME/memtui/backups, and the write is refused if the file
changed after it was shown.

The binary is the running one; a temporary build (go run) is refused:
install memtui first, or name the binary with --command.`
			c.Flags().StringVar(&hf.command, "command", "", "the memtui binary the hook runs (default: this one)")
		} else {
			c.Use = "uninstall"
			c.Short = "Remove memtui's snapshot hook from Claude Code's settings"
			c.Long = `Remove every memtui snapshot hook from Claude Code's user settings: each
handler whose command is a program named memtui followed by "snapshot"
(optionally "|| exit 1"), on any event. A matcher group, an event's list or
the "hooks" object left empty by that goes too, so uninstalling what
install added gives back the file byte for byte; every other hook and
setting is kept as it is. Shown as a diff and asked, as install.`
		}
		f := c.Flags()
		f.StringVar(&hf.settings, "settings", "", "the settings file to edit (default: the config dir's settings.json)")
		f.BoolVar(&hf.yes, "yes", false, "write without asking")
		f.BoolVar(&hf.dryRun, "dry-run", false, "show the change, write nothing")
		hook.AddCommand(c)
	}
	return hook
}

// hookSettingsPath is the settings file to edit: --settings, else the one
// config dir's settings.json (--config-dir, $CLAUDE_CONFIG_DIR, ~/.claude,
// as discovery resolves it).
func hookSettingsPath(g *globals, hf hookFlags) (string, error) {
	if hf.settings != "" {
		return hf.settings, nil
	}
	switch len(g.configDirs) {
	case 0:
		return filepath.Join(memfs.DefaultConfigDir(g.getenv, g.getenv("HOME")), "settings.json"), nil
	case 1:
		return filepath.Join(g.configDirs[0], "settings.json"), nil
	}
	return "", errors.New("the hook goes in one settings file: give one --config-dir, or --settings PATH")
}

// runHook installs or uninstalls memtui's hook: it reads the settings,
// works out the new text, shows the change, asks, and writes it.
func runHook(g *globals, hf hookFlags, install bool, stdout io.Writer) error {
	verb, Verb := "uninstall", "Remove"
	if install {
		verb, Verb = "install", "Install"
	}
	switch {
	case g.demo:
		return fmt.Errorf("hook %s edits your own Claude Code settings; the demo has none to edit", verb)
	case g.readonly && !hf.dryRun:
		return fmt.Errorf("--readonly forbids hook %s: it writes Claude Code's settings (--dry-run shows the change)", verb)
	case hf.yes && hf.dryRun:
		return errors.New("--yes writes and --dry-run does not: give one")
	}
	path, err := hookSettingsPath(g, hf)
	if err != nil {
		return err
	}
	command := ""
	if install {
		bin, err := memfs.HookProgram(hf.command)
		if err != nil {
			return err
		}
		command = memfs.HookCommand(bin)
	}
	f, err := memfs.ReadSettingsFile(path)
	if err != nil {
		return err
	}
	var plan memfs.HookEdit
	if install {
		plan, err = memfs.PlanHookInstall(string(f.Data), command)
	} else {
		plan, err = memfs.PlanHookUninstall(string(f.Data))
	}
	if err != nil {
		return fmt.Errorf("%s: %w. Claude Code cannot read it as settings either: fix it first; nothing changed", f.Target, err)
	}

	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.DiffStyles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultDiffStyles(g.darkBackground(stdout, w.Profile))
	}
	bw := bufio.NewWriter(w)
	where := safe.ShowLine(f.Path)
	if f.Linked() {
		where += " → " + safe.ShowLine(f.Target) + " (a symlink: its target is written, the link kept)"
	}
	fmt.Fprintf(bw, "settings: %s\n", where)
	if !plan.Changed() {
		if install {
			fmt.Fprintf(bw, "memtui's snapshot hook is already installed on %s: nothing to change.\n", strings.Join(plan.Present, ", "))
		} else if !f.Exists {
			fmt.Fprintln(bw, "It does not exist: no memtui hook to remove.")
		} else {
			fmt.Fprintln(bw, "No memtui hook in it: nothing to remove.")
		}
		return bw.Flush()
	}
	if install {
		fmt.Fprintf(bw, "hook: %s (timeout %ds)\n", safe.ShowLine(command), memfs.HookTimeout)
		if len(plan.Added) > 0 {
			fmt.Fprintf(bw, "  added on %s\n", strings.Join(plan.Added, ", "))
		}
		for _, r := range plan.Replaced {
			fmt.Fprintf(bw, "  replacing on %s: %s\n", safe.Line(r.Event), safe.ShowLine(r.Command))
		}
	} else {
		for _, r := range plan.Removed {
			fmt.Fprintf(bw, "  removing on %s: %s\n", safe.Line(r.Event), safe.ShowLine(r.Command))
		}
	}
	op := model.OpUpdate
	if !f.Exists {
		op = model.OpCreate
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := report.Diff(w, model.Change{Path: filepath.Base(f.Path), Op: op, After: plan.After}, plan.Before, st); err != nil {
		return err
	}
	switch {
	case hf.dryRun:
		fmt.Fprintln(w, "Dry run: nothing written.")
		return nil
	case !hf.yes && !g.in.tty:
		return fmt.Errorf("nothing written: there is no terminal to ask on (stdin is not one); add --yes to %s without asking, or --dry-run to only see the change", verb)
	case !hf.yes:
		fmt.Fprintf(w, "%s? [y/N] ", Verb)
		if !yes(g.in.r) {
			fmt.Fprintln(w, "Nothing written.")
			g.exit = exitFindings
			return nil
		}
	}
	backup, err := memfs.WriteSettingsFile(f, []byte(plan.After), memfs.DefaultStateDirs(g.getenv).Backups, time.Now())
	if err != nil {
		return err
	}
	done := "Removed memtui's snapshot hook from"
	if install {
		done = "Installed memtui's snapshot hook in"
	}
	fmt.Fprintf(w, "%s %s.\n", done, safe.ShowLine(f.Target))
	if backup != "" {
		fmt.Fprintf(w, "The settings as they were are kept in %s.\n", safe.ShowLine(backup))
	}
	if install {
		fmt.Fprintln(w, "Claude Code sessions started from now on run it; memtui hook uninstall takes it out.")
	}
	return nil
}

// yes reads one answer line and reports whether it says yes (y or yes, in
// any case). Anything else, an empty line or the end of input is no. The
// line ends at a newline or a carriage return (a terminal left in raw
// mode sends Enter as one); it is read a byte at a time, so nothing after
// it is taken from stdin.
func yes(r io.Reader) bool {
	var line []byte
	b := make([]byte, 1)
	for len(line) < 1024 {
		n, err := r.Read(b)
		if n == 1 {
			if b[0] == '\n' || b[0] == '\r' {
				break
			}
			line = append(line, b[0])
		}
		if err != nil {
			break
		}
	}
	switch strings.ToLower(strings.TrimSpace(string(line))) {
	case "y", "yes":
		return true
	}
	return false
}
