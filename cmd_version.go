package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model/claude"
)

// version is set at build time with -ldflags "-X main.version=..."; a plain
// build reports the module version or "devel".
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// versionJSON is `memtui version --json`.
type versionJSON struct {
	Version        int             `json:"version"`
	Memtui         string          `json:"memtui"`
	ClaudeCode     string          `json:"claude_code"`
	ComparedWith   string          `json:"compared_with"`
	ChangedSinceIt []claude.Change `json:"changes"`
}

// newVersionCmd prints memtui's version, the Claude Code version whose
// memory behaviour it follows, and the behaviours of that version that an
// older Claude Code lacks (what lint and the TUI point at when the
// transcripts show older sessions).
func newVersionCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Print memtui's version and the Claude Code version it follows",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				return report.WriteJSON(stdout, versionJSON{Version: 1, Memtui: versionString(), ClaudeCode: claude.Version,
					ComparedWith: claude.ComparedWith, ChangedSinceIt: claude.Changes})
			}
			var b strings.Builder
			fmt.Fprintf(&b, "memtui %s\n", safe.ShowLine(versionString()))
			fmt.Fprintf(&b, "follows the memory behaviour of Claude Code %s\n", claude.Version)
			fmt.Fprintf(&b, "changed after %s (Claude Code %s and older lack these; the first version with each is not known):\n",
				claude.ComparedWith, claude.ComparedWith)
			for _, ch := range claude.Changes {
				fmt.Fprintf(&b, "  - %s (claude-memory-format.md §%s)\n", ch.Now, ch.Section)
			}
			b.WriteString("lint and the TUI say when the transcripts show sessions of another version.\n")
			_, err := io.WriteString(stdout, b.String())
			return err
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
