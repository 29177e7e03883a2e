package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/model"
)

// ruleJSON is one rule of `memtui rules --json`.
type ruleJSON struct {
	ID       string         `json:"id"`
	Severity model.Severity `json:"severity"`
	Summary  string         `json:"summary"`
}

// newRulesCmd lists every check lint runs: its ID (what --rule and
// memtui-ignore take), its severity and what it finds. It reads nothing
// from disk.
func newRulesCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "rules",
		Short: "List every rule lint checks, with its severity and what it finds",
		Long: "List every rule lint checks: its ID (what lint --rule and a <!-- memtui-ignore ID --> comment take),\n" +
			"its severity (error, warning or info) and, in a sentence, what it finds.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			rules := consolidate.Rules()
			if asJSON {
				out := struct {
					Version int        `json:"version"`
					Rules   []ruleJSON `json:"rules"`
				}{Version: 1}
				for _, r := range rules {
					out.Rules = append(out.Rules, ruleJSON{r.ID, r.Severity, r.Summary})
				}
				return report.WriteJSON(stdout, out)
			}
			w := 0
			for _, r := range rules {
				w = max(w, len(r.ID))
			}
			var b strings.Builder
			for _, r := range rules {
				fmt.Fprintf(&b, "%-*s  %-7s  %s\n", w, r.ID, r.Severity, r.Summary)
			}
			_, err := io.WriteString(stdout, b.String())
			return err
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
