// Command memtui reviews and curates the memories coding agents keep on disk,
// Claude Code's auto memory first. This file holds the flags and subcommands;
// the work happens in memfs (disk), consolidate (checks) and internal/report
// (printing).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/internal/termbg"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/ui"
)

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
	// noTranscripts skips the session transcripts (no provenance, lost
	// updates, heat or dream gate).
	noTranscripts bool
	now           string
	getenv        func(string) string
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
		fang.WithErrorHandler(safeErrors),
	)
	if err != nil {
		return exitUsage
	}
	return g.exit
}

// safeErrors prints an error as fang does, made safe first: errors quote
// paths, titles and a proposer's words, so an error is shown on one line
// (a newline in a file name shows as \n), secrets masked. Only advice memtui
// wrote on several lines itself, its quoted parts made safe as it was
// built, keeps its lines.
func safeErrors(w io.Writer, st fang.Styles, err error) {
	var advice adviceError
	if !errors.As(err, &advice) {
		err = shownError{err}
	}
	fang.DefaultErrorHandler(w, st, err)
}

// shownError is an error whose text is masked and made safe to print.
type shownError struct{ err error }

func (e shownError) Error() string { return safe.ShowLine(e.err.Error()) }
func (e shownError) Unwrap() error { return e.err }

// adviceError is an error of several lines of memtui's own advice, whose
// quoted parts were made safe (safe.ShowLine) when it was built.
type adviceError string

func (e adviceError) Error() string { return string(e) }

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
	pf.BoolVar(&g.noTranscripts, "no-transcripts", false, "do not read session transcripts (no lost updates, provenance or use counts)")
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
missing years, redact secrets, fix frontmatter and restore text a session
lost to another one's blind overwrite. Nothing is written.

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
	fd.StringSliceVar(&df.kinds, "kind", nil, "only these kinds (reindex, merge, prune, absolutize-dates, add-year, redact-secret, fix-frontmatter, restore-lost)")
	fd.BoolVar(&df.includeTeam, "include-team", false, "also propose changes in team/ (team stores, synced to other people)")
	fd.StringVar(&df.proposer, "proposer", "", "run `CMD` for each memory directory and review its proposals instead of memtui's")
	fd.DurationVar(&df.proposerTimeout, "proposer-timeout", 10*time.Minute, "kill a --proposer command, and everything it started, after this long")
	fd.BoolVar(&df.apply, "apply", false, "write the proposals (a dry run unless --yes is given too)")
	fd.BoolVar(&df.yes, "yes", false, "with --apply: really write, without asking")
	fd.BoolVar(&df.dryRun, "dry-run", false, "with --apply: say what would be written, write nothing (the default without --yes)")
	fd.StringSliceVar(&df.only, "only", nil, "with --apply: only these proposal `IDs` (comma-separated or repeated)")
	fd.DurationVar(&df.wait, "wait", 0, "with --apply: wait this long for Claude Code's consolidation lock instead of giving up")
	fd.BoolVar(&df.markConsolidated, "mark-consolidated", false, "with --apply: record the store as consolidated now in .consolidate-lock (postpones Claude Code's autoDream by a day); without it the lock is left as it was")
	root.AddCommand(dream)

	root.AddCommand(newIndexCmd(g, stdout, stderr))

	root.AddCommand(newUndoCmd(g, stdout, stderr))
	root.AddCommand(newJournalCmd(g, stdout, stderr))
	root.AddCommand(newHistoryCmd(g, stdout, stderr))
	root.AddCommand(newLsCmd(g, stdout, stderr))

	var cf changesFlags
	changes := &cobra.Command{
		Use:   "changes",
		Short: "Show what changed in each memory directory since you last reviewed it",
		Long: `Show every memory file created, changed or deleted since you last reviewed
its directory, as unified diffs, each with the sessions that wrote it (from
the transcripts) or a plain note that no recorded session did.

The first run records each directory as reviewed and shows nothing. --reviewed
marks every directory shown as reviewed after printing, so the next run starts
from here; the TUI's changes view (key C) does the same per file or project.
Baselines live under $XDG_STATE_HOME/memtui/seen.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runChanges(cmd.Context(), g, cf, stdout, stderr)
		},
	}
	changes.Flags().BoolVar(&cf.json, "json", false, "print JSON")
	changes.Flags().BoolVar(&cf.reviewed, "reviewed", false, "mark every directory reviewed after printing its changes")
	root.AddCommand(changes)

	root.AddCommand(newVersionCmd(stdout))
	return root
}

// dreamFlags are dream's own flags.
type dreamFlags struct {
	json            bool
	kinds           []string
	includeTeam     bool
	proposer        string
	proposerTimeout time.Duration
	apply, yes      bool
	dryRun          bool
	only            []string
	wait            time.Duration
	// markConsolidated moves .consolidate-lock's mtime to now after a
	// write (Claude Code's "last consolidated"); off, the lock is put back.
	markConsolidated bool
}

// changesFlags are changes' own flags.
type changesFlags struct {
	json     bool
	reviewed bool
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
	s.readTranscripts(ctx, stderr)
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
	if df.apply {
		return applyProposals(ctx, g, s, props, df, stdout, stderr)
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

// applyProposals writes the proposals (or those --only names) under the
// locks, one memory directory at a time, and reports each: applied (with
// its journal ID), conflict or failed, with why. Without --yes it is a dry
// run. Exit 1 when any did not apply.
func applyProposals(ctx context.Context, g *globals, s *session, props []model.Proposal, df dreamFlags, stdout, stderr io.Writer) error {
	if g.readonly {
		return errors.New("--readonly forbids --apply")
	}
	if len(df.only) > 0 {
		byID := map[string]model.Proposal{}
		for _, p := range props {
			byID[p.ID] = p
		}
		var picked []model.Proposal
		for _, id := range df.only {
			p, ok := byID[id]
			if !ok {
				return fmt.Errorf("no proposal %q in --only: run memtui dream to see the IDs (they change when the files do)", id)
			}
			picked = append(picked, p)
		}
		props = picked
	}
	if len(props) == 0 {
		fmt.Fprintln(stdout, "Nothing to apply.")
		return nil
	}
	if !df.yes || df.dryRun {
		for _, p := range props {
			fmt.Fprintf(stdout, "would apply %s  %s\n", safe.ShowLine(p.ID), safe.ShowLine(p.Title))
			for _, c := range p.Changes {
				where := safe.ShowLine(filepath.Join(p.MemoryDir, c.Path))
				if c.Op == model.OpMove {
					where = safe.ShowLine(filepath.Join(p.MemoryDir, c.From)) + " → " + where
				}
				fmt.Fprintf(stdout, "  %-6s %s\n", safe.Line(string(c.Op)), where)
			}
		}
		fmt.Fprintf(stdout, "Dry run: %d %s, nothing written. Add --yes to write.\n", len(props), report.Plural(len(props), "proposal", "proposals"))
		return nil
	}
	var dirs []string
	byDir := map[string][]model.Proposal{}
	for _, p := range props {
		if _, ok := byDir[p.MemoryDir]; !ok {
			dirs = append(dirs, p.MemoryDir)
		}
		byDir[p.MemoryDir] = append(byDir[p.MemoryDir], p)
	}
	opts := memfs.ApplyOptions{JournalRoot: s.state.Journal, SeenRoot: s.state.Seen, IncludeTeam: df.includeTeam, WaitForLock: df.wait, MarkConsolidated: df.markConsolidated}
	applied, other := 0, 0
	for _, dir := range dirs {
		results := s.applyIn(ctx, dir, byDir[dir], opts)
		for _, r := range results {
			switch r.Status {
			case memfs.StatusApplied:
				applied++
				fmt.Fprintf(stdout, "applied   %s  (journal %s)\n", safe.ShowLine(r.ProposalID), r.JournalID)
			default:
				other++
				why := ""
				if r.Err != nil {
					why = ": " + r.Err.Error()
				}
				fmt.Fprintf(stdout, "%-9s %s%s\n", r.Status, safe.ShowLine(r.ProposalID), safe.ShowLine(why))
			}
		}
	}
	fmt.Fprintf(stdout, "%d applied, %d not. ", applied, other)
	if other > 0 {
		fmt.Fprintln(stdout, "Run memtui dream again: proposals that conflicted are proposed afresh from the files as they are now.")
		g.exit = exitFindings
	} else {
		fmt.Fprintln(stdout, "memtui undo --list shows them; memtui undo ID restores one.")
	}
	return nil
}

// runChanges prints what changed since each directory's last review. A
// directory seen for the first time gets its baseline recorded (never
// with --readonly, which writes nothing at all).
func runChanges(ctx context.Context, g *globals, cf changesFlags, stdout, stderr io.Writer) error {
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	if cf.reviewed && g.readonly {
		return errors.New("--readonly forbids --reviewed")
	}
	s.readTranscripts(ctx, stderr)
	var dirs []report.DirChanges
	for _, p := range s.scan.Projects {
		for _, d := range p.Dirs {
			if err := memfs.LoadDir(ctx, d, s.opts); err != nil {
				fmt.Fprintf(stderr, "memtui: %s: %s\n", safe.ShowLine(d.Path), safe.ShowLine(err.Error()))
				continue
			}
			if !d.Exists {
				continue
			}
			// A review happens on the wall clock, not on a pinned "today":
			// the writes that count are those after it. One reading of
			// it: what is printed is what is stored.
			now := time.Now().UTC()
			base, first, err := memfs.OpenBaseline(s.state.Seen, d, now, !g.readonly)
			if err != nil && (base != nil || g.readonly) {
				fmt.Fprintf(stderr, "memtui: %s; starting a new one\n", safe.ShowLine(err.Error()))
			} else if err != nil {
				return err
			}
			dc := report.DirChanges{Project: p.Name(), Dir: d.Path, Log: p.Log, FirstLook: first, Unrecorded: first && g.readonly}
			switch {
			case first && base != nil:
				dc.Reviewed = base.Time // the time recorded
			case first:
				dc.Reviewed = now // --readonly: the look, recorded nowhere
			default:
				dc.Reviewed = base.Time
				dc.Deltas = consolidate.ChangesSince(d, base, p.Log)
				if cf.reviewed && len(dc.Deltas) > 0 {
					if err := memfs.SaveBaseline(s.state.Seen, model.NewBaseline(d, now, consolidate.SHA256Hex)); err != nil {
						return err
					}
				}
			}
			dirs = append(dirs, dc)
		}
	}
	if cf.json {
		return report.ChangesJSON(stdout, dirs)
	}
	home, _ := os.UserHomeDir()
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.DiffStyles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultDiffStyles(darkBackground(stdout, w.Profile))
	}
	if err := report.Changes(w, dirs, st, home, termWidth(stdout)); err != nil {
		return err
	}
	if cf.reviewed {
		fmt.Fprintln(stdout, "Marked reviewed.")
	}
	return nil
}

// readTranscripts fills each project's Log from its transcripts (cached by
// size and mtime under the state cache dir). A project whose transcripts
// cannot be read keeps a nil Log and says why on stderr: everything else
// still works without them.
func (s *session) readTranscripts(ctx context.Context, stderr io.Writer) {
	if s.noTranscripts {
		return
	}
	ps := s.scan.Projects
	errs := memfs.ReadAllTranscripts(ctx, ps, 2, s.transcriptOptions())
	for i, err := range errs {
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "memtui: the transcripts of %s could not be read: %s\n", safe.ShowLine(ps[i].Name()), safe.ShowLine(err.Error()))
		}
	}
}

// transcriptReader is the TUI's way to read a project's transcripts; nil
// with --no-transcripts.
func (s *session) transcriptReader() ui.TranscriptReader {
	if s.noTranscripts {
		return nil
	}
	opts := s.transcriptOptions()
	return func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
		if p.TranscriptDir == "" {
			return nil, nil
		}
		return memfs.ReadTranscripts(ctx, p, opts)
	}
}

// transcriptOptions are how every command reads transcripts: cached under
// the state dirs, with memtui's own journal as a record of its writes.
func (s *session) transcriptOptions() memfs.TranscriptOptions {
	return memfs.TranscriptOptions{CacheDir: s.state.Cache, Home: s.opts.Home, JournalRoot: s.state.Journal}
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
	opts.Getenv = demo.Getenv(g.getenv)
	opts.Home = dir
	// No policy file either: point it at a path inside the demo that does
	// not exist.
	opts.ManagedSettings = filepath.Join(dir, "managed-settings.json")
	return opts, nil
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
	if g.project != "" {
		return fmt.Errorf("no project matches --project %q.", g.project)
	}
	return adviceError(fmt.Sprintf("no Claude Code memory found in %s.\n"+
		"Claude Code keeps memory under <config>/projects/<project>/memory/; point memtui at it with --config-dir or --memory-dir,\n"+
		"or see memtui on a sample first: memtui --demo", safe.ShowLine(where)))
}

// session is what every command starts from: "today", where to look, the
// tree discovered, and the checks' options with the config file applied.
type session struct {
	now   time.Time
	opts  memfs.Options
	scan  *model.Scan
	copts consolidate.Options
	state memfs.StateDirs // memtui's own journal, review baselines and cache
	// noTranscripts is --no-transcripts.
	noTranscripts bool
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
	s := &session{now: now, opts: opts, scan: scan, copts: consolidate.Options{Now: now, Paths: &memfs.PathProbe{}}, state: stateDirs(g, opts), noTranscripts: g.noTranscripts}
	// A run that died half-way through writing (a crash, a kill) is rolled
	// back before anything reads the tree.
	recoverJournal(s.state.Journal, stderr)
	retention := memfs.DefaultJournalRetention
	if cfg, err := memfs.LoadConfig(memfs.DefaultConfigPath(opts.Getenv)); err != nil {
		fmt.Fprintf(stderr, "memtui: ignoring the config file: %s\n", safe.ShowLine(err.Error()))
	} else {
		s.copts.Ignore = ignoreRules(cfg)
		if cfg.StaleAfterDays > 0 {
			s.copts.StaleAfter = time.Duration(cfg.StaleAfterDays) * 24 * time.Hour
		}
		retention = cfg.JournalRetention()
	}
	// memtui's copies of memory text are owner-only; the journal keeps
	// them only as long as its retention says.
	if !g.readonly {
		for _, n := range memfs.TightenState(s.state) {
			fmt.Fprintf(stderr, "memtui: %s\n", safe.ShowLine(n))
		}
		enforceRetention(s.state.Journal, retention, stderr)
	}
	return s, nil
}

// stateDirs is where memtui keeps its own files: the XDG dirs of the
// environment memtui was given, or inside the demo's scratch tree, so the
// demo never writes into the user's own state.
func stateDirs(g *globals, opts memfs.Options) memfs.StateDirs {
	if g.demo && len(opts.ConfigDirs) == 1 {
		return memfs.ScratchStateDirs(opts.ConfigDirs[0])
	}
	return memfs.DefaultStateDirs(g.getenv)
}

// recoverJournal finishes or rolls back what an interrupted run left, and
// says so.
func recoverJournal(root string, stderr io.Writer) {
	reports, err := memfs.Recover(root)
	if err != nil {
		fmt.Fprintf(stderr, "memtui: could not check the journal %s: %s\n", safe.ShowLine(root), safe.ShowLine(err.Error()))
		return
	}
	for _, r := range reports {
		// Paths come from disk: shown through the one sanitizer.
		msg := fmt.Sprintf("memtui: an interrupted write (journal %s, %s) was %s", r.ID, r.MemoryDir, r.Action)
		if r.Err != nil {
			msg += ": " + r.Err.Error()
		}
		fmt.Fprintln(stderr, safe.ShowLine(msg))
		// File by file: what was put back, and what was left as someone
		// else changed it since (with where its bytes are kept).
		for _, f := range r.Files {
			fmt.Fprintf(stderr, "  %s: %s\n", safe.ShowLine(f.Path), safe.ShowLine(f.Outcome))
		}
		for _, n := range r.Notes {
			if !noteShown(r.Files, n) {
				fmt.Fprintln(stderr, "  "+safe.ShowLine(n))
			}
		}
	}
}

// noteShown reports whether a recovery note is already part of a file's
// outcome.
func noteShown(fs []memfs.RecoverFile, n string) bool {
	for _, f := range fs {
		if strings.Contains(f.Outcome, n) {
			return true
		}
	}
	return false
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
	var clock func() time.Time // the wall clock, unless --now pins it
	if g.now != "" {
		clock = func() time.Time { return s.now }
	}
	m := ui.New(ui.Config{
		Scan:        s.opts,
		Orient:      s.copts,
		ReadOnly:    g.readonly,
		NoColor:     g.getenv("NO_COLOR") != "",
		Home:        g.getenv("HOME"),
		Editor:      editor,
		Watch:       true,
		Discovered:  s.scan,
		JournalRoot: s.state.Journal,
		SeenRoot:    s.state.Seen,
		Transcripts: s.transcriptReader(),
		Clock:       clock,
	})
	defer m.Close()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(stdout), tea.WithEnvironment(environ(g.getenv)))
	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
