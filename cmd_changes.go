package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
)

// changesFlags are changes' own flags.
type changesFlags struct {
	json     bool
	reviewed bool
}

func newChangesCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
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
	return changes
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
	s.ReadTranscripts(ctx)
	var dirs []report.DirChanges
	for _, p := range s.Scan.Projects {
		for _, d := range p.Dirs {
			if err := s.Load(ctx, d); err != nil {
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
			base, first, err := s.OpenBaseline(d, now)
			if err != nil && (base != nil || g.readonly || (!first && errors.Is(err, memfs.ErrNewerFormat))) {
				// The error says what became of the baseline that was
				// there: moved aside, or left as it is.
				fmt.Fprintf(stderr, "memtui: %s\n", safe.ShowLine(err.Error()))
				if base == nil && !first {
					continue // kept, not replaced: this dir has no changes to show
				}
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
					if _, err := s.MarkReviewed(d, now); err != nil {
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
		st = report.DefaultDiffStyles(g.darkBackground(stdout, w.Profile))
	}
	if err := report.Changes(w, dirs, st, home, termWidth(stdout)); err != nil {
		return err
	}
	if cf.reviewed {
		fmt.Fprintln(stdout, "Marked reviewed.")
	}
	return nil
}
