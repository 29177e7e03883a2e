// Command releasecheck loads a GoReleaser configuration with GoReleaser's
// own loader (its pkg/config, strict: an unknown or misplaced key is an
// error naming its line), so .ci/run checks .goreleaser.yaml against the
// schema of the pinned GoReleaser in about a minute cold, where building
// the whole goreleaser binary for `goreleaser check` takes 10 to 20
// minutes on two cores. It is a module of its own, so memtui's go.mod
// does not carry GoReleaser's dependencies. scripts/release-check.sh runs
// the full `goreleaser check` (defaults and deprecations too).
package main

import (
	"fmt"
	"os"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: releasecheck .goreleaser.yaml")
		os.Exit(2)
	}
	p, err := config.Load(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if p.Version != 2 {
		fmt.Fprintf(os.Stderr, "%s: version %d, want 2 (GoReleaser v2's schema)\n", os.Args[1], p.Version)
		os.Exit(1)
	}
	fmt.Printf("%s: valid for GoReleaser v2 (%d builds, %d archives, %d Homebrew casks, %d Scoop manifests)\n",
		os.Args[1], len(p.Builds), len(p.Archives), len(p.Casks), len(p.Scoops))
}
