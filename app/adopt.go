package app

import (
	"context"

	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// Adoptable are the stranded stores whose memories belong in a live one
// (the scan's strands that name a live store on disk), each loaded, by
// the live store's path: what dream.Options.Adopt wants. A stranded store
// that cannot be read is left out (lint reports it). The stranded store
// is read on its own, apart from the scan's MemoryDir for it, so the
// proposal never shares (or frees) another run's contents.
func (w *Workspace) Adoptable(ctx context.Context, strands []model.Strand) map[string][]dream.Stranded {
	var out map[string][]dream.Stranded
	for _, st := range strands {
		if st.To == "" || !st.ToExists || ctx.Err() != nil {
			continue
		}
		d := &model.MemoryDir{Path: st.From, Kind: model.DirAuto, Exists: true}
		if err := memfs.LoadDir(ctx, d, w.ScanOpts); err != nil {
			continue
		}
		if out == nil {
			out = map[string][]dream.Stranded{}
		}
		out[st.To] = append(out[st.To], dream.Stranded{Dir: d, Name: st.Cwd, Reason: st.Why, Evidence: st.Evidence})
	}
	return out
}
