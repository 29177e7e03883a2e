package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/snapshot"
)

// snapshotFlags are snapshot's own flags.
type snapshotFlags struct {
	verbose bool
}

func newSnapshotCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var sf snapshotFlags
	c := &cobra.Command{
		Use:   "snapshot",
		Short: "Record every memory directory as it is now, for what Dream changes unseen",
		Long: `Record every memory directory in view as it is now: each memory file's size,
mtime and content, and Claude Code's .consolidate-lock (when its last Dream
run took it, and by which process). Claude Code's background Dream and
memory-extraction runs leave no transcript; two snapshots are the record of
what they changed. The TUI takes one each time it starts.

Only files changed since the last snapshot are read, and a directory with
nothing changed gets no new record. Each text is kept once, with its secrets
redacted, in memtui's state dir ($XDG_STATE_HOME/memtui/snapshots; the demo's
in its scratch tree), owner-only; records older than journal_retention_days
go, but each directory's newest stays. It prints nothing unless --verbose.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSnapshot(cmd.Context(), g, sf, stdout, stderr)
		},
	}
	c.Flags().BoolVarP(&sf.verbose, "verbose", "v", false, "say what was recorded")
	return c
}

func runSnapshot(ctx context.Context, g *globals, sf snapshotFlags, stdout, stderr io.Writer) error {
	if g.readonly {
		return errors.New("--readonly forbids snapshot: it writes memtui's record of every memory directory")
	}
	ws, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	res, err := ws.Snapshot(ctx, nil)
	if sf.verbose {
		if werr := snapshotText(stdout, res, g.getenv("HOME")); err == nil {
			err = werr
		}
	}
	return err
}

// snapshotText says what a snapshot recorded: each directory recorded,
// then one line of totals.
func snapshotText(w io.Writer, res snapshot.TakeResult, home string) error {
	bw := bufio.NewWriter(w)
	if res.Busy {
		bw.WriteString("Another memtui was taking a snapshot; this one recorded nothing.\n")
		return bw.Flush()
	}
	for _, ch := range res.Recorded {
		var what string
		switch {
		case ch.First && ch.Lock:
			what = fmt.Sprintf("%d %s and .consolidate-lock (first snapshot)", ch.Files, report.Plural(ch.Files, "file", "files"))
		case ch.First:
			what = fmt.Sprintf("%d %s (first snapshot)", ch.Files, report.Plural(ch.Files, "file", "files"))
		default:
			what = fmt.Sprintf("%d changed, %d added, %d removed", ch.Changed, ch.Added, ch.Removed)
			if ch.Lock {
				what += "; .consolidate-lock changed"
			}
		}
		fmt.Fprintf(bw, "recorded %s: %s\n", safe.ShowLine(report.Tilde(ch.Dir, home)), what)
	}
	dirs := len(res.Recorded)
	fmt.Fprintf(bw, "%d %s recorded, %d unchanged; %d of %d %s read, %d %s stored (%s)",
		dirs, report.Plural(dirs, "directory", "directories"), res.Unchanged,
		res.Read, res.Files, report.Plural(res.Files, "file", "files"),
		res.Blobs, report.Plural(res.Blobs, "text", "texts"), app.SizeWords(res.Bytes))
	if res.Pruned+res.Removed > 0 {
		fmt.Fprintf(bw, "; dropped %d old %s and %d %s no record kept",
			res.Pruned, report.Plural(res.Pruned, "record", "records"), res.Removed, report.Plural(res.Removed, "text", "texts"))
	}
	if n := len(res.Aside); n > 0 {
		// Never deleted: moved out of the records, where a person can look.
		fmt.Fprintf(bw, "; moved %d unreadable %s aside, under %s", n, report.Plural(n, "record", "records"),
			safe.ShowLine(report.Tilde(filepath.Dir(filepath.Dir(res.Aside[0])), home)))
	}
	bw.WriteString(".\n")
	return bw.Flush()
}
