package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/memfs/txn"
)

// journalFlags are `journal prune`'s own flags.
type journalFlags struct {
	olderThan string
	dryRun    bool
}

func newJournalCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	journal := &cobra.Command{
		Use:   "journal",
		Short: "Manage memtui's journal of writes",
		Long: `memtui's journal (under $XDG_STATE_HOME/memtui/journal, owner-only) keeps,
for every write, the files as they were before it and the memories it
deleted: what undo and crash recovery put back. It keeps an entry for
journal_retention_days (config.yaml; 365 by default); every run that may
write drops the entries older than that and says which.`,
	}
	var jf journalFlags
	prune := &cobra.Command{
		Use:   "prune",
		Short: "Drop old journal entries, saying exactly what goes",
		Long: `Drop the journal entries older than --older-than (by default the retention of
config.yaml's journal_retention_days, 365 days): each with its before-images
and the memories it deleted, which can then no longer be undone or brought
back. Every entry dropped is listed with the files it held and their size.
An unfinished entry (a crash's, waiting for recovery) is never dropped. The
journal is shared by every memory dir, and so is the prune.

--older-than takes days (90, 90d) or a Go duration (720h).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runJournalPrune(g, jf, stdout, stderr)
		},
	}
	prune.Flags().StringVar(&jf.olderThan, "older-than", "", "drop entries older than D (days, or a duration like 720h); default the configured retention")
	prune.Flags().BoolVar(&jf.dryRun, "dry-run", false, "say what would be dropped, drop nothing")
	journal.AddCommand(prune)
	return journal
}

// parseAge reads --older-than: whole days ("90", "90d") or a Go duration.
func parseAge(s string) (time.Duration, error) {
	d := strings.TrimSuffix(strings.TrimSpace(s), "d")
	if n, err := strconv.Atoi(d); err == nil && n >= 0 {
		return time.Duration(n) * 24 * time.Hour, nil
	}
	if v, err := time.ParseDuration(s); err == nil && v >= 0 {
		return v, nil
	}
	return 0, fmt.Errorf("--older-than %q: want days (90, 90d) or a duration (720h)", s)
}

func runJournalPrune(g *globals, jf journalFlags, stdout, stderr io.Writer) error {
	if g.readonly && !jf.dryRun {
		return errors.New("--readonly forbids journal prune (--dry-run only says what it would drop)")
	}
	// The journal needs no discovery: memtui's state (the demo's scratch
	// one included), recovered, and its config file.
	ws, err := app.OpenState(g.options(stderr))
	if err != nil {
		return err
	}
	g.cleanup = append(g.cleanup, ws.Close)
	age := ws.Retention
	if jf.olderThan != "" {
		if age, err = parseAge(jf.olderThan); err != nil {
			return err
		}
	}
	root := ws.State.Journal
	cutoff := time.Now().Add(-age)
	dropped, err := txn.PruneJournal(root, cutoff, jf.dryRun)
	verb := "dropped"
	if jf.dryRun {
		verb = "would drop"
	}
	for _, l := range app.PrunedLines(dropped, verb) {
		fmt.Fprintln(stdout, l)
	}
	if err != nil {
		return err
	}
	files, bytes := app.PrunedTotals(dropped)
	fmt.Fprintf(stdout, "%s %d %s older than %s (%d %s, %s)", capitalize(verb), len(dropped), report.Plural(len(dropped), "entry", "entries"),
		cutoff.Local().Format("2006-01-02 15:04"), files, report.Plural(files, "file", "files"), app.SizeWords(bytes))
	if jf.dryRun {
		fmt.Fprint(stdout, "; nothing dropped (--dry-run)")
	}
	fmt.Fprintln(stdout, ".")
	return nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
