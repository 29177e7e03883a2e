package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/internal/termbg"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// The command tree, the flags every command shares, and what several
// commands share: opening the workspace, the terminal's facts, the
// per-project layout of listings.

// globals are the flags every command shares.
type globals struct {
	configDirs []string
	memoryDirs []string
	project    string
	// codexHomes are --codex-home's; memoryRoots --memory-root's
	// ("[AGENT=]DIR"); agent is --agent's ("" all).
	codexHomes  []string
	memoryRoots []string
	agent       string
	demo        bool
	readonly    bool
	// noTranscripts skips the session transcripts (no provenance, lost
	// updates, heat or dream gate).
	noTranscripts bool
	now           string
	// theme is the palette --theme or MEMTUI_THEME asked for ("" when
	// neither did); once the workspace is open, the config file's theme
	// fills it in (see resolveTheme).
	theme  memfs.Theme
	getenv func(string) string
	// in is where a question's answer is read (hook install asks one).
	in input
	// exit is the status of a command that succeeded in running (lint
	// sets 1 when it found errors). It does not travel as an error: fang
	// would then query the terminal's colours to print nothing.
	exit int
	// cleanup runs when the command is done (the demo's scratch copy).
	cleanup []func()
}

func newRoot(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var lf lintFlags
	root := &cobra.Command{
		Use:   "memtui",
		Short: "Review and curate what your coding agents remember",
		Long: `memtui lists every project's Claude Code memory directory, checks each one
the way Claude Code loads it (index cut-offs, stale relative dates, broken
frontmatter, secrets, duplicates and more) and reports what is wrong.

OpenAI Codex's store is checked beside it (--codex-home), and so are other
agents' copies of Claude Code's format, a MEMORY.md index with topic files
(--memory-root): Qwen Code keeps them in ~/.qwen/projects/<project>/memory
and ~/.qwen/memories, OpenHands in ~/.openhands/memory and
<workspace>/.openhands/memory. Each such store is a project named
AGENT:WHERE (qwen:-home-al-acme), checked with the Claude rules a copy of
the format follows.

Run it on the built-in sample first:  memtui --demo`,
		Args: cobra.NoArgs,
		// On a terminal the bare command is the TUI; piped, it prints the
		// lint report, so scripts get text rather than escape codes.
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !interactive(stdout) {
				return runLint(cmd.Context(), g, lf, stdout, stderr)
			}
			return runTUI(cmd.Context(), g, stdout, stderr)
		},
	}
	pf := root.PersistentFlags()
	pf.StringArrayVar(&g.configDirs, "config-dir", nil, "Claude Code config dir (default $CLAUDE_CONFIG_DIR, else ~/.claude); repeatable")
	pf.StringArrayVar(&g.memoryDirs, "memory-dir", nil, "open one memory directory directly; repeatable")
	pf.StringVar(&g.project, "project", "", "only projects whose slug or real path contains TEXT")
	pf.StringArrayVar(&g.codexHomes, "codex-home", nil, "Codex home whose memories/ to read (default $CODEX_HOME, else ~/.codex, unless --config-dir, --memory-dir or --memory-root is given); repeatable")
	pf.StringArrayVar(&g.memoryRoots, "memory-root", nil, "read another agent's Claude-format memory, given as [AGENT=]DIR: DIR is one store (a folder holding MEMORY.md) or the folder stores sit under, up to 4 levels down (~/.qwen, ~/.openhands); AGENT labels its stores (default: DIR's dot folder, such as qwen or openhands, else other); repeatable; alone, it leaves ~/.claude and ~/.codex unread")
	pf.Var(agentFlag{&g.agent}, "agent", "read only this agent's memory: claude (Claude Code) or codex (OpenAI Codex), or other (the --memory-root stores; --project LABEL: narrows to one label); default all")
	pf.BoolVar(&g.demo, "demo", false, "use an embedded sample tree, copied to a fresh temp dir")
	pf.BoolVar(&g.readonly, "readonly", false, "never write")
	pf.BoolVar(&g.noTranscripts, "no-transcripts", false, "do not read session transcripts (no lost updates, provenance or use counts)")
	pf.StringVar(&g.now, "now", "", "pin \"today\" (RFC3339 or YYYY-MM-DD), for reproducible output")
	pf.Var(themeFlag{&g.theme}, "theme", "colours for a dark or light background, or auto to ask the terminal (default $MEMTUI_THEME, else the config file's theme)")
	// MEMTUI_THEME stands in for --theme, as CLAUDE_CONFIG_DIR does for
	// --config-dir; a wrong one is the same usage error, before any work.
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		return g.themeFromEnv()
	}
	addLintFlags(root, &lf)

	var lintOnly lintFlags
	lint := &cobra.Command{
		Use:   "lint",
		Short: "Check every memory directory and print the findings",
		Long: `Check every memory directory and print the findings, grouped by project.

Exit status: 0 when nothing is at error severity, 1 when something is,
2 on a usage or I/O error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLint(cmd.Context(), g, lintOnly, stdout, stderr)
		},
	}
	addLintFlags(lint, &lintOnly)
	root.AddCommand(lint)

	root.AddCommand(newDreamCmd(g, stdout, stderr))

	root.AddCommand(newIndexCmd(g, stdout, stderr))

	root.AddCommand(newUndoCmd(g, stdout, stderr))
	root.AddCommand(newJournalCmd(g, stdout, stderr))
	root.AddCommand(newHistoryCmd(g, stdout, stderr))
	root.AddCommand(newSessionsCmd(g, stdout, stderr))
	root.AddCommand(newLsCmd(g, stdout, stderr))
	root.AddCommand(newSnapshotCmd(g, stdout, stderr))

	root.AddCommand(newChangesCmd(g, stdout, stderr))
	root.AddCommand(newHookCmd(g, stdout, stderr))

	root.AddCommand(newRulesCmd(stdout))
	root.AddCommand(newDoctorCmd(g, stdout, stderr))
	root.AddCommand(newVersionCmd(stdout))
	root.AddCommand(newManCmd(stdout))
	return root
}

// start opens the workspace the shared flags describe; it is closed when
// the command is done. A machine with no Claude Code memory gets the same
// plain advice from every command.
func start(ctx context.Context, g *globals, stderr io.Writer) (*app.Workspace, error) {
	ws, err := app.Open(ctx, g.options(stderr))
	if err != nil {
		return nil, err
	}
	g.cleanup = append(g.cleanup, ws.Close)
	g.resolveTheme(ws)
	return ws, nil
}

// themeFlag is --theme: checked as it is parsed, so a wrong value is a
// usage error (exit 2) naming the accepted ones.
type themeFlag struct{ t *memfs.Theme }

func (f themeFlag) String() string { return string(*f.t) }

func (f themeFlag) Set(s string) error {
	t, err := memfs.ParseTheme(s)
	if err != nil {
		return err
	}
	*f.t = t
	return nil
}

// Type is what the help shows as the flag's value.
func (themeFlag) Type() string { return "auto|dark|light" }

// agentFlag is --agent: checked as it is parsed (app.ParseAgent), so a
// wrong value is a usage error naming the accepted ones.
type agentFlag struct{ a *string }

func (f agentFlag) String() string { return *f.a }

func (f agentFlag) Set(s string) error {
	a, err := app.ParseAgent(s)
	if err != nil {
		// The flag's parser names the flag and the value already.
		return fmt.Errorf("want %s or %s, or %s (the --memory-root stores)", app.AgentClaude, app.AgentCodex, app.AgentOther)
	}
	*f.a = a
	return nil
}

// Type is what the help shows as the flag's value.
func (agentFlag) Type() string { return "claude|codex|other" }

// themeFromEnv reads MEMTUI_THEME when --theme was not given.
func (g *globals) themeFromEnv() error {
	v := g.getenv("MEMTUI_THEME")
	if g.theme != "" || v == "" {
		return nil
	}
	t, err := memfs.ParseTheme(v)
	if err != nil {
		return fmt.Errorf("MEMTUI_THEME: %w", err)
	}
	g.theme = t
	return nil
}

// resolveTheme settles the palette: --theme, else MEMTUI_THEME (both in
// g.theme already), else the config file's theme, else auto.
func (g *globals) resolveTheme(ws *app.Workspace) {
	if g.theme == "" {
		g.theme = ws.Theme
	}
}

// options are the workspace options the shared flags give.
func (g *globals) options(stderr io.Writer) app.Options {
	return app.Options{ConfigDirs: g.configDirs, MemoryDirs: g.memoryDirs, Project: g.project, CodexHomes: g.codexHomes, MemoryRoots: g.memoryRoots, Agent: g.agent, Demo: g.demo,
		ReadOnly: g.readonly, NoTranscripts: g.noTranscripts, Now: g.now, Getenv: g.getenv, Notes: stderr}
}

// interactive reports whether the TUI can run: stdin and stdout are both
// terminals.
func interactive(stdout io.Writer) bool {
	f, ok := stdout.(*os.File)
	return ok && term.IsTerminal(f.Fd()) && term.IsTerminal(os.Stdin.Fd())
}

// darkBackground says whether the CLI's colours are for a dark
// background: the theme the user chose (see resolveTheme), without asking
// the terminal; else the terminal's answer.
func (g *globals) darkBackground(out io.Writer, p colorprofile.Profile) bool {
	if dark, ok := g.theme.Forced(); ok {
		return dark
	}
	return askDark(out, p)
}

// askDark asks the terminal for its background colour, but only when
// colour is going to a terminal at all: a pipe gets no query (and no
// colour). Unknown counts as dark, the common case.
func askDark(out io.Writer, p colorprofile.Profile) bool {
	f, ok := out.(*os.File)
	if !ok || p <= colorprofile.ASCII || !term.IsTerminal(f.Fd()) || !term.IsTerminal(os.Stdin.Fd()) {
		return true
	}
	// Ask the controlling terminal, whose answer then cannot leak into
	// stdin; stdout is the same terminal when /dev/tty cannot be opened.
	tty := f
	if t, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		defer t.Close()
		tty = t
	}
	// Terminals answer in milliseconds; the wait only runs out on one
	// that never answers, which then costs under a second.
	dark, known := termbg.Dark(tty, 750*time.Millisecond)
	return dark || !known
}

// termWidth is the terminal's width when out is one, else 0 (no wrapping,
// so piped output keeps one finding per line for grep).
func termWidth(out io.Writer) int {
	f, ok := out.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return w
}

// environ rebuilds the environment list colorprofile needs from getenv, so
// tests can inject NO_COLOR and TERM.
func environ(getenv func(string) string) []string {
	var env []string
	for _, k := range []string{"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "COLORTERM"} {
		// NO_COLOR wins over CLICOLOR_FORCE (no-color.org: "regardless of
		// its value, prevents the addition of ANSI color").
		if k == "CLICOLOR_FORCE" && getenv("NO_COLOR") != "" {
			continue
		}
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// filterFindings keeps the findings at or above min and, when rules is not
// empty, of those rules. It filters fs in place (a run's tens of thousands of
// findings are not copied again) and returns the kept prefix.
func filterFindings(fs []model.Finding, min model.Severity, rules []string) []model.Finding {
	want := map[string]bool{}
	for _, r := range rules {
		want[r] = true
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Severity < min || (len(want) > 0 && !want[f.Rule]) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// projectHeading starts a project's block in a per-directory listing
// (history, ls): its name on a line of its own, after a blank line when
// another project's block came before. last is the project written last.
func projectHeading(bw *bufio.Writer, p *model.Project, last **model.Project, proj paint.Painter, home string) {
	if p == *last {
		return
	}
	if *last != nil {
		bw.WriteString("\n")
	}
	*last = p
	bw.WriteString(proj.Paint(safe.ShowLine(report.Tilde(p.Name(), home))) + "\n")
}
