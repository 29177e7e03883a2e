package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// externalProposals runs the --proposer command once per memory directory
// that has files, and keeps the proposals that pass memtui's checks; each
// rejected one is reported on stderr with the reason.
func externalProposals(ctx context.Context, scan *model.Scan, dopts consolidate.DreamOptions, df dreamFlags, stderr io.Writer) ([]model.Proposal, error) {
	var out []model.Proposal
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			if d.Kind == model.DirTeam && !df.includeTeam {
				continue
			}
			if err := dopts.Load(d); err != nil {
				return nil, err
			}
			if len(d.Files) == 0 && d.Index == nil {
				continue
			}
			in, err := json.Marshal(consolidate.NewProposerInput(p, d, dopts))
			if err != nil {
				return nil, err
			}
			// The proposer's own stderr is relayed made safe: it is not
			// memtui's to trust.
			raw, err := memfs.RunCommand(ctx, df.proposer, in, df.proposerTimeout, safe.Writer(stderr))
			if err != nil {
				return nil, fmt.Errorf("the proposer for %s: %w", d.Path, err)
			}
			var res consolidate.ProposerOutput
			if err := json.Unmarshal(raw, &res); err != nil {
				return nil, fmt.Errorf("the proposer for %s did not print proposals as JSON ({\"version\":1,\"proposals\":[...]}): %v", d.Path, err)
			}
			if res.Version != consolidate.ProposerVersion {
				return nil, fmt.Errorf("the proposer for %s answered protocol version %d; memtui speaks %d", d.Path, res.Version, consolidate.ProposerVersion)
			}
			for i, prop := range res.Proposals {
				// What is on disk at the paths it names, now: a symlink or
				// a FIFO there is refused before anyone reviews it.
				paths := make([]string, 0, len(prop.Changes))
				for _, c := range prop.Changes {
					paths = append(paths, c.Path)
					if c.From != "" {
						paths = append(paths, c.From) // a move's source
					}
				}
				checked, err := consolidate.CheckExternalOnDisk(p, d, prop, df.includeTeam, memfs.LstatPaths(d.Path, paths))
				if err != nil {
					fmt.Fprintf(stderr, "memtui: rejected proposal %d (\"%s\") from the proposer for %s: %s\n", i+1, safe.ShowLine(prop.Title), safe.ShowLine(d.Path), safe.ShowLine(err.Error()))
					continue
				}
				if len(dopts.Kinds) > 0 && !slices.Contains(dopts.Kinds, checked.Kind) {
					continue
				}
				out = append(out, checked)
			}
		}
	}
	consolidate.SortProposals(out)
	return out, nil
}
