package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/model"
)

// lintFlags are lint's own flags.
type lintFlags struct {
	json        bool
	deepSecrets bool
	minSeverity string
	rules       []string
	verbose     bool
}

func addLintFlags(c *cobra.Command, lf *lintFlags) {
	f := c.Flags()
	f.BoolVar(&lf.json, "json", false, "print findings as JSON")
	f.BoolVar(&lf.deepSecrets, "deep-secrets", false, "also run gitleaks' generic keyword rule (slower, noisier)")
	f.StringVar(&lf.minSeverity, "severity", "info", "show findings at or above LEVEL (info, warning, error)")
	f.StringSliceVar(&lf.rules, "rule", nil, "show only these rule IDs (comma-separated or repeated)")
	f.BoolVar(&lf.verbose, "verbose", false, "list every problem met reading transcripts, not only the first")
}

// moreProblems is how the one-line problems summary points at the rest.
const moreProblems = "memtui lint --verbose lists them all"

// lintGCPercent is the collector's GOGC during lint (see runLint).
const lintGCPercent = 200

func runLint(ctx context.Context, g *globals, lf lintFlags, stdout, stderr io.Writer) error {
	if _, err := app.ParseNow(g.now); err != nil {
		return err // before the other flags, as every command checks it
	}
	minSev, err := model.ParseSeverity(lf.minSeverity)
	if err != nil {
		return fmt.Errorf("invalid --severity: %w", err)
	}
	for _, r := range lf.rules {
		if _, ok := consolidate.LookupRule(r); !ok {
			return fmt.Errorf("unknown rule %q in --rule (memtui rules lists them)", r)
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
	s.ReadTranscripts(ctx)
	scan, copts := s.Scan, s.CheckOpts
	copts.DropContent = true
	if lf.deepSecrets {
		sc, err := secrets.New(true)
		if err != nil {
			return err
		}
		copts.Secrets = sc
	}
	all := s.Check(ctx, copts)
	shown := filterFindings(all, minSev, lf.rules)
	sum := report.Summarize(scan, shown)
	if g.project != "" || len(g.memoryDirs) > 0 {
		// A selection is judged on what it selected: an error in the
		// user's own settings (or an environment override) is reported,
		// under "configuration", but does not fail a per-project gate.
		sum.Unselected = report.Unselected(shown)
	}
	// Problems met reading transcripts are no findings (nothing in a
	// memory dir is wrong) but say where provenance and use may be
	// incomplete: every form of the report shows them.
	probs := report.TranscriptProblems(scan.Projects)
	// The Claude Code versions the transcripts show, against the one
	// memtui follows: one line after the text report's summary (before
	// the transcript problems, which --verbose lists at length), the
	// JSON's claude_code object.
	versions := report.ClaudeCodeVersions(scan.Projects)
	if lf.json {
		err = report.JSON(stdout, shown, sum, probs, versions)
	} else {
		home, _ := os.UserHomeDir()
		w := colorprofile.NewWriter(stdout, environ(g.getenv))
		if w.Profile == colorprofile.NoTTY {
			// Not a terminal: plain text straight to stdout, rather than
			// escape codes the profile writer would strip again (a
			// tenth of the run on a large tree).
			err = report.Text(stdout, shown, sum, report.Styles{}, home, termWidth(stdout))
			if err == nil {
				err = report.Version(stdout, versions, lipgloss.NewStyle(), home)
			}
			if err == nil {
				err = report.Problems(stdout, probs, lipgloss.NewStyle(), home, lf.verbose, moreProblems)
			}
		} else {
			st := report.DefaultStyles(g.darkBackground(stdout, w.Profile))
			err = report.Text(w, shown, sum, st, home, termWidth(stdout))
			if err == nil {
				err = report.Version(w, versions, st.Severity[model.Info], home)
			}
			if err == nil {
				err = report.Problems(w, probs, st.Severity[model.Warning], home, lf.verbose, moreProblems)
			}
		}
	}
	if err != nil {
		return err
	}
	if sum.Errors-sum.Unselected > 0 {
		g.exit = exitFindings
	}
	return nil
}
