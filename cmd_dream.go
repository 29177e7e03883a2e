package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

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
	// dismiss records proposals as rejected; dismissed lists them;
	// restore forgets a dismissal (cmd_dream_dismiss.go).
	dismiss   []string
	dismissed bool
	restore   []string
}

func newDreamCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
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
	fd.StringVar(&df.proposer, "proposer", "", "run CMD for each memory directory and review its proposals instead of memtui's")
	fd.DurationVar(&df.proposerTimeout, "proposer-timeout", 10*time.Minute, "kill a --proposer command, and everything it started, after this long")
	fd.BoolVar(&df.apply, "apply", false, "write the proposals (a dry run unless --yes is given too)")
	fd.BoolVar(&df.yes, "yes", false, "with --apply: really write, without asking")
	fd.BoolVar(&df.dryRun, "dry-run", false, "with --apply: say what would be written, write nothing (the default without --yes)")
	fd.StringSliceVar(&df.only, "only", nil, "with --apply: only these proposal IDs (comma-separated or repeated)")
	fd.DurationVar(&df.wait, "wait", 0, "with --apply: wait this long for Claude Code's consolidation lock instead of giving up")
	fd.StringSliceVar(&df.dismiss, "dismiss", nil, "record these proposal IDs as rejected: dream leaves them out (the TUI shows them rejected) until the files they read change")
	fd.BoolVar(&df.dismissed, "dismissed", false, "list the dismissed proposals of the directories in view")
	fd.StringSliceVar(&df.restore, "restore", nil, "forget the dismissal of these proposal IDs: they are proposed again")
	fd.BoolVar(&df.markConsolidated, "mark-consolidated", false, "with --apply: record the store as consolidated now in .consolidate-lock (postpones Claude Code's autoDream by a day); without it the lock is left as it was")
	return dream
}

// runDream prints the proposals for every memory directory.
func runDream(ctx context.Context, g *globals, df dreamFlags, stdout, stderr io.Writer) error {
	if _, err := app.ParseNow(g.now); err != nil {
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
	if err := dismissFlagsValid(g, df); err != nil {
		return err
	}
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	if df.dismissed || len(df.restore) > 0 {
		return runDismissed(s, df, stdout)
	}
	s.ReadTranscripts(ctx)
	props, err := s.Propose(ctx, app.ProposeOptions{Kinds: kinds, IncludeTeam: df.includeTeam, Proposer: df.proposer, Timeout: df.proposerTimeout, Stderr: stderr})
	if err != nil {
		return err
	}
	if len(df.dismiss) > 0 {
		return runDismiss(s, props, df.dismiss, stdout)
	}
	props, gone := s.Undismissed(props)
	if len(gone) > 0 {
		fmt.Fprintf(stderr, "memtui: %d dismissed %s left out (memtui dream --dismissed lists them; --restore ID brings one back)\n",
			len(gone), report.Plural(len(gone), "proposal", "proposals"))
	}
	if df.apply {
		return applyProposals(ctx, g, s, props, df, stdout, stderr)
	}
	if df.json {
		return report.ProposalsJSON(stdout, props)
	}
	before := app.ContentLookup(s.Scan, s.Codex...)
	home, _ := os.UserHomeDir()
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.DiffStyles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultDiffStyles(g.darkBackground(stdout, w.Profile))
	}
	return report.Proposals(w, props, before, st, home, termWidth(stdout))
}

// applyProposals writes the proposals (or those --only names) under the
// locks, one memory directory at a time, and reports each: applied (with
// its journal ID), conflict or failed, with why. Without --yes it is a dry
// run. Exit 1 when any did not apply.
func applyProposals(ctx context.Context, g *globals, s *app.Workspace, props []model.Proposal, df dreamFlags, stdout, stderr io.Writer) error {
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
		printMissingGuarantees(stdout)
		return nil
	}
	printMissingGuarantees(stderr)
	var dirs []string
	byDir := map[string][]model.Proposal{}
	for _, p := range props {
		if _, ok := byDir[p.MemoryDir]; !ok {
			dirs = append(dirs, p.MemoryDir)
		}
		byDir[p.MemoryDir] = append(byDir[p.MemoryDir], p)
	}
	opts := txn.ApplyOptions{IncludeTeam: df.includeTeam, WaitForLock: df.wait, MarkConsolidated: df.markConsolidated}
	applied, other := 0, 0
	for _, dir := range dirs {
		// The proposals of one directory are one plan: one that reads what
		// an earlier one wrote is proposed again on it, not refused.
		for _, r := range s.ApplyPlan(ctx, s.Scan, dir, byDir[dir], opts, nil) {
			switch {
			case r.Done:
				applied++
				fmt.Fprintf(stdout, "done      %s  (this run's earlier writes already did it)\n", safe.ShowLine(r.ID))
			case r.Status == txn.StatusApplied && r.Rebuilt != nil:
				applied++
				as := ""
				if r.Rebuilt.ID != r.ID {
					as = " as " + safe.ShowLine(r.Rebuilt.ID)
				}
				fmt.Fprintf(stdout, "applied   %s%s, rebuilt on this run's earlier writes  (journal %s)\n", safe.ShowLine(r.ID), as, r.JournalID)
			case r.Status == txn.StatusApplied:
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

// missingGuarantees is txn.MissingGuarantees; tests stand in another
// system's list.
var missingGuarantees = txn.MissingGuarantees

// printMissingGuarantees says which protections of the Linux write path
// this system's lacks (txn.MissingGuarantees), so a weaker guarantee is
// never a silent one; nothing on Linux.
func printMissingGuarantees(w io.Writer) {
	for _, g := range missingGuarantees() {
		fmt.Fprintf(w, "Note: on this system, %s.\n", safe.Line(g))
	}
}
