// Command memtui reviews and curates the memories coding agents keep on disk,
// Claude Code's auto memory first. This file holds the flags and subcommands;
// the work happens in memfs (disk), consolidate (checks) and internal/report
// (printing).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/fang"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/termbg"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/ui"
)

// version is set at build time with -ldflags "-X main.version=..."; a plain
// build reports the module version or "devel".
var version = ""

// lintGCPercent is the collector's GOGC during lint (see runLint).
const lintGCPercent = 200

// Exit codes of the CLI contract (DESIGN.md section 2).
const (
	exitOK       = 0
	exitFindings = 1 // lint found something at error severity
	exitUsage    = 2 // bad flags, unreadable directories, nothing to check
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// globals are the flags every command shares.
type globals struct {
	configDirs []string
	memoryDirs []string
	project    string
	demo       bool
	readonly   bool
	now        string
	getenv     func(string) string
	// exit is the status of a command that succeeded in running (lint
	// sets 1 when it found errors). It does not travel as an error: fang
	// would then query the terminal's colours to print nothing.
	exit int
	// cleanup runs when the command is done (the demo's scratch copy).
	cleanup []func()
}

// run executes memtui with args and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	g := &globals{getenv: getenv}
	defer func() {
		for _, f := range g.cleanup {
			f()
		}
	}()
	root := newRoot(g, stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := fang.Execute(ctx, root,
		fang.WithVersion(versionString()),
		fang.WithoutManpage(),
	)
	if err != nil {
		return exitUsage
	}
	return g.exit
}

func newRoot(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var lf lintFlags
	root := &cobra.Command{
		Use:   "memtui",
		Short: "Review and curate what your coding agents remember",
		Long: `memtui lists every project's Claude Code memory directory, checks each one
the way Claude Code loads it (index cut-offs, stale relative dates, broken
frontmatter, secrets, duplicates and more) and reports what is wrong.

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
	pf.StringVar(&g.project, "project", "", "only projects whose slug or real path contains `TEXT`")
	pf.BoolVar(&g.demo, "demo", false, "use an embedded sample tree, copied to a fresh temp dir")
	pf.BoolVar(&g.readonly, "readonly", false, "never write")
	pf.StringVar(&g.now, "now", "", "pin \"today\" (RFC3339 or YYYY-MM-DD), for reproducible output")
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

	var df dreamFlags
	dream := &cobra.Command{
		Use:   "dream",
		Short: "Propose merges, prunes, index repairs and date fixes, as diffs",
		Long: `Propose what Claude Code's background "Dream" consolidation would change,
as reviewable diffs: re-index MEMORY.md so it loads whole, merge
near-duplicates, prune empty memories, make relative dates absolute, add
missing years, redact secrets and fix frontmatter. Nothing is written.

Each proposal is one transaction over one memory directory and records the
sha256 of every file it read. --proposer runs a command that receives a
directory as JSON on stdin and returns proposals in the --json shape; memtui
checks them like its own.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDream(cmd.Context(), g, df, stdout, stderr)
		},
	}
	fd := dream.Flags()
	fd.BoolVar(&df.json, "json", false, "print proposals as JSON")
	fd.StringSliceVar(&df.kinds, "kind", nil, "only these kinds (reindex, merge, prune, absolutize-dates, add-year, redact-secret, fix-frontmatter)")
	fd.BoolVar(&df.includeTeam, "include-team", false, "also propose changes in team/ (deletes there do not propagate)")
	fd.StringVar(&df.proposer, "proposer", "", "run `CMD` for each memory directory and review its proposals instead of memtui's")
	fd.DurationVar(&df.proposerTimeout, "proposer-timeout", 10*time.Minute, "stop a --proposer command after this long")
	root.AddCommand(dream)

	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print memtui's version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(stdout, "memtui %s\n", versionString())
			return err
		},
	})
	return root
}

// dreamFlags are dream's own flags.
type dreamFlags struct {
	json            bool
	kinds           []string
	includeTeam     bool
	proposer        string
	proposerTimeout time.Duration
}

// runDream prints the proposals for every memory directory.
func runDream(ctx context.Context, g *globals, df dreamFlags, stdout, stderr io.Writer) error {
	if _, err := parseNow(g.now); err != nil {
		return err
	}
	var kinds []model.ProposalKind
	for _, k := range df.kinds {
		kind, ok := model.ParseProposalKind(k)
		if !ok {
			return fmt.Errorf("unknown kind %q in --kind (memtui dream --help lists them)", k)
		}
		kinds = append(kinds, kind)
	}
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	dopts := consolidate.DreamOptions{Options: s.copts, Kinds: kinds, IncludeTeam: df.includeTeam}
	dopts.Load = func(d *model.MemoryDir) error { return memfs.LoadDir(ctx, d, s.opts) }
	var props []model.Proposal
	if df.proposer != "" {
		props, err = externalProposals(ctx, s.scan, dopts, df, stderr)
		if err != nil {
			return err
		}
	} else {
		props = consolidate.Dream(s.scan, dopts)
	}
	if df.json {
		return report.ProposalsJSON(stdout, props)
	}
	before := beforeLookup(s.scan)
	home, _ := os.UserHomeDir()
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.DiffStyles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultDiffStyles(darkBackground(stdout, w.Profile))
	}
	return report.Proposals(w, props, before, st, home, termWidth(stdout))
}

// beforeLookup finds a file's content as read, for the diffs.
func beforeLookup(scan *model.Scan) func(dir, path string) string {
	dirs := map[string]*model.MemoryDir{}
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			dirs[d.Path] = d
		}
	}
	return func(dir, path string) string {
		d := dirs[dir]
		if d == nil {
			return ""
		}
		if path == "MEMORY.md" && d.Index != nil {
			return string(d.Index.Content)
		}
		for _, f := range d.Files {
			if f.Path == path {
				return string(f.Content)
			}
		}
		return ""
	}
}

// externalProposals runs the --proposer command once per memory directory
// that has files, and keeps the proposals that pass memtui's checks; each
// rejected one is reported on stderr with the reason.
func externalProposals(ctx context.Context, scan *model.Scan, dopts consolidate.DreamOptions, df dreamFlags, stderr io.Writer) ([]model.Proposal, error) {
	var out []model.Proposal
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			if d.Kind == model.DirTeam && !df.includeTeam {
				continue
			}
			if err := dopts.Load(d); err != nil {
				return nil, err
			}
			if len(d.Files) == 0 && d.Index == nil {
				continue
			}
			in, err := json.Marshal(consolidate.NewProposerInput(p, d, dopts))
			if err != nil {
				return nil, err
			}
			raw, err := memfs.RunCommand(ctx, df.proposer, in, df.proposerTimeout, stderr)
			if err != nil {
				return nil, fmt.Errorf("the proposer for %s: %w", d.Path, err)
			}
			var res consolidate.ProposerOutput
			if err := json.Unmarshal(raw, &res); err != nil {
				return nil, fmt.Errorf("the proposer for %s did not print proposals as JSON ({\"version\":1,\"proposals\":[...]}): %v", d.Path, err)
			}
			if res.Version != consolidate.ProposerVersion {
				return nil, fmt.Errorf("the proposer for %s answered protocol version %d; memtui speaks %d", d.Path, res.Version, consolidate.ProposerVersion)
			}
			for i, prop := range res.Proposals {
				checked, err := consolidate.CheckExternal(p, d, prop, df.includeTeam)
				if err != nil {
					fmt.Fprintf(stderr, "memtui: rejected proposal %d (%q) from the proposer for %s: %v\n", i+1, prop.Title, d.Path, err)
					continue
				}
				if len(dopts.Kinds) > 0 && !slices.Contains(dopts.Kinds, checked.Kind) {
					continue
				}
				out = append(out, checked)
			}
		}
	}
	consolidate.SortProposals(out)
	return out, nil
}

// lintFlags are lint's own flags.
type lintFlags struct {
	json        bool
	deepSecrets bool
	minSeverity string
	rules       []string
}

func addLintFlags(c *cobra.Command, lf *lintFlags) {
	f := c.Flags()
	f.BoolVar(&lf.json, "json", false, "print findings as JSON")
	f.BoolVar(&lf.deepSecrets, "deep-secrets", false, "also run gitleaks' generic keyword rule (slower, noisier)")
	f.StringVar(&lf.minSeverity, "severity", "info", "show findings at or above `LEVEL` (info, warning, error)")
	f.StringSliceVar(&lf.rules, "rule", nil, "show only these rule IDs (comma-separated or repeated)")
}

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// parseNow reads --now.
func parseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Now(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid --now %q: want RFC3339 (2026-11-21T09:00:00Z) or a date (2026-11-21)", s)
}

// scanOptions turns the flags into memfs options, copying the demo tree
// first when --demo is set.
func scanOptions(g *globals, stderr io.Writer) (memfs.Options, error) {
	opts := memfs.Options{
		ConfigDirs:         g.configDirs,
		MemoryDirs:         g.memoryDirs,
		Project:            g.project,
		Getenv:             g.getenv,
		IncludeAgentMemory: true,
	}
	// HOME comes through getenv too, so tests (and wrappers) can move it.
	if h := g.getenv("HOME"); h != "" {
		opts.Home = h
	}
	if !g.demo {
		return opts, nil
	}
	dir, err := os.MkdirTemp("", "memtui-demo-")
	if err != nil {
		return opts, fmt.Errorf("cannot set up the demo: %w", err)
	}
	if err := memfs.CopyTree(demo.FS(), dir); err != nil {
		return opts, fmt.Errorf("cannot copy the demo sample: %w", err)
	}
	// The copy is scratch: writes go there, and it goes when memtui exits.
	g.cleanup = append(g.cleanup, func() { os.RemoveAll(dir) })
	fmt.Fprintf(stderr, "memtui: demo tree copied to %s (any writes go there; removed on exit)\n", dir)
	// The demo is hermetic: none of the user's own Claude Code environment
	// (overrides, remote dirs) may leak into it.
	opts.ConfigDirs = []string{dir}
	opts.MemoryDirs = nil
	opts.Getenv = func(k string) string {
		if strings.HasPrefix(k, "CLAUDE_") {
			return ""
		}
		return g.getenv(k)
	}
	opts.Home = dir
	// No policy file either: point it at a path inside the demo that does
	// not exist.
	opts.ManagedSettings = filepath.Join(dir, "managed-settings.json")
	return opts, nil
}

func runLint(ctx context.Context, g *globals, lf lintFlags, stdout, stderr io.Writer) error {
	if _, err := parseNow(g.now); err != nil {
		return err // before the other flags, as every command checks it
	}
	minSev, err := model.ParseSeverity(lf.minSeverity)
	if err != nil {
		return fmt.Errorf("invalid --severity: %w", err)
	}
	for _, r := range lf.rules {
		if _, ok := consolidate.LookupRule(r); !ok {
			return fmt.Errorf("unknown rule %q in --rule (memtui lint --help lists the flags; README.md lists the rules)", r)
		}
	}
	// lint keeps little alive (the directories being checked and the
	// findings so far) while nearly all it allocates dies with its
	// directory, so the collector's default pace ran some twenty cycles on
	// a large tree, an eighth of the run's CPU. Twice the headroom halves
	// that for a few MB of peak memory; an explicit GOGC still wins.
	if g.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(lintGCPercent))
	}
	// Discover first (cheap), then load each directory just before it is
	// checked, so reading and checking overlap and only the directories
	// being checked are held in memory.
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	scan, opts, copts := s.scan, s.opts, s.copts
	copts.Load = func(d *model.MemoryDir) error { return memfs.LoadDir(ctx, d, opts) }
	copts.DropContent = true
	if lf.deepSecrets {
		sc, err := consolidate.NewSecretScanner(true)
		if err != nil {
			return err
		}
		copts.Secrets = sc
	}
	all := consolidate.Orient(scan, copts)
	shown := filterFindings(all, minSev, lf.rules)
	sum := report.Summarize(scan, shown)
	if lf.json {
		err = report.JSON(stdout, shown, sum)
	} else {
		home, _ := os.UserHomeDir()
		w := colorprofile.NewWriter(stdout, environ(g.getenv))
		if w.Profile == colorprofile.NoTTY {
			// Not a terminal: plain text straight to stdout, rather than
			// escape codes the profile writer would strip again (a
			// tenth of the run on a large tree).
			err = report.Text(stdout, shown, sum, report.Styles{}, home, termWidth(stdout))
		} else {
			err = report.Text(w, shown, sum, report.DefaultStyles(darkBackground(stdout, w.Profile)), home, termWidth(stdout))
		}
	}
	if err != nil {
		return err
	}
	if sum.Errors > 0 {
		g.exit = exitFindings
	}
	return nil
}

// darkBackground asks the terminal for its background colour, but only
// when colour is going to a terminal at all: a pipe gets no query (and no
// colour). Unknown counts as dark, the common case.
func darkBackground(out io.Writer, p colorprofile.Profile) bool {
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

func ignoreRules(cfg memfs.Config) []consolidate.IgnoreRule {
	var out []consolidate.IgnoreRule
	for _, ig := range cfg.Ignore {
		out = append(out, consolidate.IgnoreRule{Project: ig.Project, Rules: ig.Rules})
	}
	return out
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

// noMemoryError explains an empty scan, pointing a new user at --demo.
func noMemoryError(g *globals, opts memfs.Options) error {
	where := "~/.claude"
	switch {
	case len(opts.ConfigDirs) > 0:
		where = strings.Join(opts.ConfigDirs, ", ")
	case g.getenv("CLAUDE_CONFIG_DIR") != "":
		where = g.getenv("CLAUDE_CONFIG_DIR") + " ($CLAUDE_CONFIG_DIR)"
	}
	msg := fmt.Sprintf("no Claude Code memory found in %s.\n"+
		"Claude Code keeps memory under <config>/projects/<project>/memory/; point memtui at it with --config-dir or --memory-dir,\n"+
		"or see memtui on a sample first: memtui --demo", where)
	if g.project != "" {
		msg = fmt.Sprintf("no project matches --project %q.", g.project)
	}
	return errors.New(msg)
}

// session is what every command starts from: "today", where to look, the
// tree discovered, and the checks' options with the config file applied.
type session struct {
	now   time.Time
	opts  memfs.Options
	scan  *model.Scan
	copts consolidate.Options
}

// start reads the shared flags and discovers the tree. A machine with no
// Claude Code memory gets the same plain advice from every command.
func start(ctx context.Context, g *globals, stderr io.Writer) (*session, error) {
	now, err := parseNow(g.now)
	if err != nil {
		return nil, err
	}
	opts, err := scanOptions(g, stderr)
	if err != nil {
		return nil, err
	}
	scan, err := memfs.Discover(ctx, opts)
	if err != nil {
		return nil, err
	}
	if len(scan.Projects) == 0 && len(scan.Config) == 0 {
		return nil, noMemoryError(g, opts)
	}
	s := &session{now: now, opts: opts, scan: scan, copts: consolidate.Options{Now: now, Paths: &memfs.PathProbe{}}}
	if cfg, err := memfs.LoadConfig(memfs.DefaultConfigPath(opts.Getenv)); err != nil {
		fmt.Fprintf(stderr, "memtui: ignoring the config file: %v\n", err)
	} else {
		s.copts.Ignore = ignoreRules(cfg)
		if cfg.StaleAfterDays > 0 {
			s.copts.StaleAfter = time.Duration(cfg.StaleAfterDays) * 24 * time.Hour
		}
	}
	return s, nil
}

// interactive reports whether the TUI can run: stdin and stdout are both
// terminals.
func interactive(stdout io.Writer) bool {
	f, ok := stdout.(*os.File)
	return ok && term.IsTerminal(f.Fd()) && term.IsTerminal(os.Stdin.Fd())
}

// runTUI starts the terminal UI. Bad flags and an empty machine are
// reported before it starts; everything after shows inside it.
func runTUI(ctx context.Context, g *globals, stdout, stderr io.Writer) error {
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	editor := g.getenv("VISUAL")
	if editor == "" {
		editor = g.getenv("EDITOR")
	}
	m := ui.New(ui.Config{
		Scan:       s.opts,
		Orient:     s.copts,
		ReadOnly:   g.readonly,
		NoColor:    g.getenv("NO_COLOR") != "",
		Home:       g.getenv("HOME"),
		Editor:     editor,
		Watch:      true,
		Discovered: s.scan,
	})
	defer m.Close()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(stdout), tea.WithEnvironment(environ(g.getenv)))
	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
