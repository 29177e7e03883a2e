package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
)

// dismissFlagsValid refuses dream's dismissal flags together with each
// other or with --apply, and under --readonly where they record.
func dismissFlagsValid(g *globals, df dreamFlags) error {
	n := 0
	for _, on := range []bool{len(df.dismiss) > 0, df.dismissed, len(df.restore) > 0, df.apply} {
		if on {
			n++
		}
	}
	switch {
	case n > 1:
		return errors.New("--dismiss, --dismissed, --restore and --apply go one at a time")
	case g.readonly && (len(df.dismiss) > 0 || len(df.restore) > 0):
		return errors.New("--readonly records no review: --dismiss and --restore are off")
	}
	return nil
}

// runDismiss records the proposals ids names as rejected.
func runDismiss(s *app.Workspace, props []model.Proposal, ids []string, stdout io.Writer) error {
	byID := map[string]model.Proposal{}
	for _, p := range props {
		byID[p.ID] = p
	}
	var picked []model.Proposal
	for _, id := range ids {
		p, ok := byID[id]
		if !ok {
			return fmt.Errorf("no proposal %q: run memtui dream to see the IDs", id)
		}
		picked = append(picked, p)
	}
	for _, p := range picked {
		if err := s.Dismiss(p); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "dismissed %s  %s\n", safe.ShowLine(p.ID), safe.ShowLine(p.Title))
	}
	return nil
}

// runDismissed lists the dismissed proposals, or forgets the dismissals
// --restore names.
func runDismissed(s *app.Workspace, df dreamFlags, stdout io.Writer) error {
	if len(df.restore) > 0 {
		for _, id := range df.restore {
			e, err := s.Restore(id)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "restored %s  %s\n", safe.ShowLine(e.ID), safe.ShowLine(e.Title))
		}
		return nil
	}
	es, err := s.Dismissed()
	if err != nil {
		return err
	}
	home := s.ScanOpts.Home
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s  %s  %s  (%s)\n", safe.ShowLine(e.ID), e.Time.Local().Format("2006-01-02 15:04"),
			safe.ShowLine(e.Title), safe.ShowLine(report.Tilde(e.Dir, home)))
	}
	if len(es) == 0 {
		b.WriteString("No dismissed proposals in the memory directories in view.\n")
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}
