package app

import (
	"context"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model/codex"
)

// CodexProvenance is what the session rollouts of each Codex store Open
// read say about it (codex facts §6): one Provenance per store of Codex,
// in their order, the reader's problems (rollouts not read, and why)
// first among its Problems. The error is non-nil only when ctx is
// cancelled.
func (w *Workspace) CodexProvenance(ctx context.Context) ([]*codex.Provenance, error) {
	var out []*codex.Provenance
	for _, st := range w.Codex {
		rs, err := memfs.ReadCodexRollouts(ctx, st.Home, memfs.CodexRolloutLimits{Workers: w.ScanOpts.Workers})
		if err != nil {
			return nil, err
		}
		p := codex.Aggregate(st, rs.Rollouts)
		p.Problems = append(rs.Problems, p.Problems...)
		out = append(out, p)
	}
	return out, nil
}
