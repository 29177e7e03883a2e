package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/txn"
)

// undoFlags are undo's own flags.
type undoFlags struct {
	list, json    bool
	last          bool
	wait          time.Duration
	restoreSecret bool
}

func newUndoCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var uf undoFlags
	undo := &cobra.Command{
		Use:   "undo [ID | --last]",
		Short: "Undo an applied proposal from the journal",
		Long: `Undo an applied proposal: its files are restored byte for byte, with their
mtimes, from the journal (under $XDG_STATE_HOME/memtui/journal), as a
journaled change of its own. A file an agent changed since memtui wrote it
is not overwritten: the undo is refused and says which.

ID is the journal ID, a start of it no other entry shares, or the ID of
the proposal it applied; --last is the newest applied entry.

Only entries of the memory directories in view count: those --config-dir,
--project and --memory-dir select (by default every project of the default
config dir). An ID of another directory is refused.

Undoing a redact-secret puts the credential back into the memory file; it
is refused without --restore-secret.

--list prints one applied proposal per line, newest first, the journal ID first.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUndo(cmd.Context(), g, uf, args, stdout, stderr)
		},
	}
	fu := undo.Flags()
	fu.BoolVar(&uf.list, "list", false, "list applied proposals, newest first")
	fu.BoolVar(&uf.json, "json", false, "with --list: print JSON")
	fu.BoolVar(&uf.last, "last", false, "undo the newest applied entry in view")
	fu.DurationVar(&uf.wait, "wait", 0, "wait this long for Claude Code's consolidation lock instead of giving up")
	fu.BoolVar(&uf.restoreSecret, "restore-secret", false, "allow undoing a redact-secret: the credential it removed comes back into the file")
	return undo
}

// runUndo lists the journal or undoes one applied proposal, of the memory
// directories in view only.
func runUndo(ctx context.Context, g *globals, uf undoFlags, args []string, stdout, stderr io.Writer) error {
	switch {
	case uf.last && (uf.list || len(args) > 0):
		return errors.New("--last undoes the newest applied entry: give it alone, without an ID or --list")
	case !uf.list && !uf.last && len(args) == 0:
		return errors.New("give the journal ID (or a unique start of it, or the proposal's ID) to undo, --last for the newest, or --list to see them")
	}
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	if uf.list {
		entries, err := s.Journal()
		if err != nil {
			return err
		}
		if uf.json {
			if entries == nil {
				entries = []txn.JournalEntry{}
			}
			// The journal is state, and its text came from files and
			// proposers: masked as text from disk is.
			for i := range entries {
				e := &entries[i]
				e.Title, e.MemoryDir, e.RealDir = safe.Mask(nil, e.Title), safe.Mask(nil, e.MemoryDir), safe.Mask(nil, e.RealDir)
				e.Notes = slices.Clone(e.Notes)
				for j := range e.Notes {
					e.Notes[j] = safe.Mask(nil, e.Notes[j])
				}
				e.Files = slices.Clone(e.Files)
				for j := range e.Files {
					f := &e.Files[j]
					f.Path, f.From = safe.Mask(nil, f.Path), safe.Mask(nil, f.From)
					f.Dirs = slices.Clone(f.Dirs)
					for k := range f.Dirs {
						f.Dirs[k] = safe.Mask(nil, f.Dirs[k])
					}
				}
			}
			return report.WriteJSON(stdout, struct {
				Version int                `json:"version"`
				Entries []txn.JournalEntry `json:"entries"`
			}{1, entries})
		}
		n := 0
		for _, e := range entries {
			if e.State != txn.JournalCommitted {
				continue // rolled back or already undone: nothing to undo
			}
			n++
			// The title and kind come from a proposer: shown escaped.
			fmt.Fprintf(stdout, "%s  %s  %-16s %s  (%s)\n", safe.Line(e.ID), e.Time.Local().Format("2006-01-02 15:04"), safe.Line(e.Kind), safe.ShowLine(e.Title), safe.ShowLine(e.MemoryDir))
		}
		if n == 0 {
			fmt.Fprintln(stderr, "memtui: nothing applied to undo in the memory directories in view")
		}
		return nil
	}
	if g.readonly {
		return errors.New("--readonly forbids undo")
	}
	var e *txn.JournalEntry
	if uf.last {
		e, err = s.LastEntry()
	} else if e, err = s.FindEntry(args[0]); err != nil {
		// A whole ID of an entry out of view is read so the undo can say
		// which directory it is of, and how to select it.
		if whole, rerr := txn.ReadEntry(s.JournalRoot(), args[0]); rerr == nil {
			e, err = whole, nil
		}
	}
	if err != nil {
		return err
	}
	r, err := s.Undo(ctx, *e, txn.ApplyOptions{WaitForLock: uf.wait, RestoreSecret: uf.restoreSecret})
	if errors.Is(err, app.ErrNotInView) {
		return fmt.Errorf("%w (select it with --memory-dir, --project or --config-dir)", err)
	}
	if err != nil {
		return err
	}
	if errors.Is(r.Err, txn.ErrRestoresSecret) {
		// Refused before anything was written: say what it would do.
		var files []string
		for _, f := range e.Files {
			files = append(files, f.Path)
		}
		return fmt.Errorf("journal entry %s redacted a secret; undoing it puts the credential back into %s. Nothing undone: add --restore-secret if that is what you want", e.ID, strings.Join(files, ", "))
	}
	switch r.Status {
	case txn.StatusApplied:
		fmt.Fprintf(stdout, "undone %s, %s (the undo is journal %s)\n", safe.Line(e.ID), safe.ShowLine(e.Title), r.JournalID)
		return nil
	default:
		why := ""
		if r.Err != nil {
			why = ": " + r.Err.Error()
		}
		fmt.Fprintf(stdout, "not undone (%s)%s\n", r.Status, safe.ShowLine(why))
		g.exit = exitFindings
		return nil
	}
}
