package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model/claude"
)

// Set at build time with -ldflags "-X main.version=... -X main.commit=...
// -X main.date=..." (the release configuration, .goreleaser.yaml, does);
// a plain build leaves them empty and the build info speaks instead.
var (
	version = ""
	commit  = ""
	date    = ""
)

// build is what the binary knows of itself.
type build struct {
	// Version is the release (v1.2.3), the module version `go install
	// ...@v1.2.3` recorded, or "devel" for a build from a checkout with no
	// version stamped.
	Version string
	// Commit is the revision the binary was built from; Date when it was
	// built (a release's build date). CommitDate is the revision's own
	// time, which a build from a git checkout records. Each is "" when
	// unknown.
	Commit, Date, CommitDate string
	// Modified says the checkout had uncommitted changes.
	Modified bool
	// Go is the Go version the binary was built with.
	Go string
}

// maxStamp bounds each stamped value: they are strings whoever built the
// binary chose, printed on one line.
const maxStamp = 200

// buildOf works out the build from the -ldflags values and the build info
// (nil when the binary has none). A value set by -ldflags wins: GoReleaser
// sets all three, and a release's version is its tag.
func buildOf(ldVersion, ldCommit, ldDate string, info *debug.BuildInfo) build {
	b := build{Version: ldVersion, Commit: ldCommit, Date: ldDate}
	// GoReleaser stamps "none" as the commit when it has no git to ask
	// (a snapshot outside a clone with a remote): not a commit.
	if b.Commit == "none" {
		b.Commit = ""
	}
	if info != nil {
		b.Go = info.GoVersion
		// "(devel)" is what the main module reports when built from its
		// own checkout without a version (GOFLAGS=-buildvcs=false, or no
		// VCS): no version at all.
		if v := info.Main.Version; b.Version == "" && v != "" && v != "(devel)" {
			b.Version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				b.CommitDate = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	b.Version, b.Commit, b.Date, b.CommitDate, b.Go = clip(b.Version), clip(b.Commit), clip(b.Date), clip(b.CommitDate), clip(b.Go)
	return b
}

// clip bounds a stamped value and masks any secret in it. It is escaped
// where it is printed (safe.Line for text, report.WriteJSON for JSON).
func clip(s string) string {
	s = safe.Mask(nil, s)
	if len(s) > maxStamp {
		cut := maxStamp
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// thisBuild is the running binary's build.
func thisBuild() build {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return buildOf(version, commit, date, info)
}

// versionString is memtui's version and commit, made safe, for fang's
// --version (which prints the first 7 characters of the commit).
func versionString() (v, commit string) {
	b := thisBuild()
	return safe.Line(b.Version), safe.Line(b.Commit)
}

// line is the build as one line of text, every part made safe:
// "v1.2.3 (commit 0123abc…, built 2026-11-21T09:00:00Z, go1.26.8)".
func (b build) line() string {
	var parts []string
	switch {
	case b.Commit == "":
		parts = append(parts, "commit unknown")
	case b.Modified:
		parts = append(parts, "commit "+b.Commit+" with uncommitted changes")
	default:
		parts = append(parts, "commit "+b.Commit)
	}
	switch {
	case b.Date != "":
		parts = append(parts, "built "+b.Date)
	case b.CommitDate != "":
		parts = append(parts, "committed "+b.CommitDate)
	default:
		parts = append(parts, "build date unknown")
	}
	if b.Go != "" {
		parts = append(parts, b.Go)
	}
	return safe.Line(b.Version + " (" + strings.Join(parts, ", ") + ")")
}

// versionJSON is `memtui version --json`. Fields are only ever added, so
// "version" stays 1.
type versionJSON struct {
	Version        int             `json:"version"`
	Memtui         string          `json:"memtui"`
	ClaudeCode     string          `json:"claude_code"`
	ComparedWith   string          `json:"compared_with"`
	ChangedSinceIt []claude.Change `json:"changes"`
	// Commit, Date ("" when unknown), CommitDate, Modified and Go: the
	// build (see build).
	Commit     string `json:"commit"`
	Date       string `json:"date"`
	CommitDate string `json:"commit_date"`
	Modified   bool   `json:"modified"`
	Go         string `json:"go"`
}

// newVersionCmd prints memtui's version and build, the Claude Code version
// whose memory behaviour it follows, and the behaviours of that version
// that an older Claude Code lacks (what lint and the TUI point at when the
// transcripts show older sessions).
func newVersionCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Print memtui's version, commit and build date, and the Claude Code version it follows",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			bi := thisBuild()
			if asJSON {
				return report.WriteJSON(stdout, versionJSON{Version: 1, Memtui: bi.Version, ClaudeCode: claude.Version,
					ComparedWith: claude.ComparedWith, ChangedSinceIt: claude.Changes,
					Commit: bi.Commit, Date: bi.Date, CommitDate: bi.CommitDate, Modified: bi.Modified, Go: bi.Go})
			}
			var b strings.Builder
			fmt.Fprintf(&b, "memtui %s\n", bi.line())
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
