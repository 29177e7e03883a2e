package app

import (
	"sync/atomic"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// maxClaudeKept bounds the Claude Code text Check keeps for the overlap
// check: memory directories are small (recall's cap is 200 files a
// directory, most under 4 KB), so this holds a real user's every
// project; on a tree past it, the directories checked after are left
// out of the comparison rather than the run's memory growing with it.
const maxClaudeKept = 64 << 20

// claudeKept is what Check keeps of Claude Code's directories for
// consolidate.CheckCodexOverlap: a copy of each directory's file list
// whose contents outlive DropContent (which frees the originals' only
// reference to them once they are checked), by job, so the comparison
// sees them in the scan's order whatever the pool's. nil (no Codex store
// to compare with) keeps nothing.
type claudeKept struct {
	dirs  []*model.MemoryDir
	bytes atomic.Int64
}

func newClaudeKept(stores []*codex.Store, jobs int) *claudeKept {
	for _, s := range stores {
		if s.Exists {
			return &claudeKept{dirs: make([]*model.MemoryDir, jobs)}
		}
	}
	return nil
}

// keep copies d's file list as job i found it.
func (k *claudeKept) keep(i int, d *model.MemoryDir) {
	if k == nil {
		return
	}
	n := int64(0)
	if d.Index != nil {
		n += int64(len(d.Index.Content))
	}
	for _, f := range d.Files {
		n += int64(len(f.Content))
	}
	if k.bytes.Add(n) > maxClaudeKept {
		return
	}
	cp := *d
	if d.Index != nil {
		ix := *d.Index
		cp.Index = &ix
	}
	cp.Files = make([]*model.File, len(d.Files))
	for j, f := range d.Files {
		c := *f
		cp.Files[j] = &c
	}
	k.dirs[i] = &cp
}

// findings compares each store with the directories kept.
func (k *claudeKept) findings(stores []*codex.Store, opts consolidate.Options) []model.Finding {
	if k == nil {
		return nil
	}
	var dirs []*model.MemoryDir
	for _, d := range k.dirs {
		if d != nil {
			dirs = append(dirs, d)
		}
	}
	var out []model.Finding
	for _, s := range stores {
		out = append(out, consolidate.CheckCodexOverlap(s, dirs, opts)...)
	}
	return out
}
