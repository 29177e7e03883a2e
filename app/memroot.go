package app

// Other agents' memory in Claude Code's format (--memory-root, issue 17):
// the flag parsed, the roots settled, their stores found and joined to the
// scan as projects labelled with their agent, and the checks that make
// sense for a copy of the format. memfs/roots.go says which agents keep
// such stores, where, and from which sources.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// AgentOther is --agent's value for every --memory-root store, whatever
// its label, and the label of a store whose path names no agent.
const AgentOther = memfs.OtherAgent

// ParseMemoryRoot reads one --memory-root value, "[AGENT=]DIR": the label
// before the first "=" when that part is a valid label (memfs.ValidLabel;
// no path is one, as a label holds no separator), else the whole value is
// DIR and the label comes from its path (memfs.PathLabel: ~/.qwen is
// "qwen"). A DIR whose path names no agent gets label "": each store found
// under it is labelled by its own path below DIR (<repo>/.openhands/memory
// is "openhands's"), else AgentOther. Claude Code and Codex are not copies
// of the format: their labels are refused with the flag that reads them.
// DIR is returned as given.
func ParseMemoryRoot(s string) (label, dir string, err error) {
	given := false
	if l, d, ok := strings.Cut(s, "="); ok && memfs.ValidLabel(l) {
		label, dir, given = l, d, true
	} else if ok && !strings.ContainsAny(l, `/\`) && l != "" && l != "." && l != ".." {
		return "", "", fmt.Errorf("--memory-root %q: %q is no label: a lower-case letter, then up to %d lower-case letters, digits, - or _ (write ./%s for a directory of that name)", s, l, memfs.MaxLabel-1, s)
	} else {
		dir = s
	}
	if dir == "" {
		return "", "", fmt.Errorf("--memory-root %q: no directory", s)
	}
	if label == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", "", fmt.Errorf("--memory-root %s: %w", dir, err)
		}
		label = memfs.PathLabel(abs)
	}
	switch {
	case label == AgentClaude && given:
		return "", "", fmt.Errorf("--memory-root %s=%s: the label claude is Claude Code's own memory, read with --config-dir or --memory-dir: give another", label, dir)
	case label == AgentCodex && given:
		return "", "", fmt.Errorf("--memory-root %s=%s: the label codex is Codex's store, read with --codex-home: give another", label, dir)
	case label == AgentClaude:
		return "", "", fmt.Errorf("--memory-root %s: that is Claude Code's own memory: read it with --config-dir or --memory-dir (or label it, AGENT=DIR)", dir)
	case label == AgentCodex:
		return "", "", fmt.Errorf("--memory-root %s: Codex's store is not in Claude Code's format: read it with --codex-home (or label it, AGENT=DIR)", dir)
	}
	return label, dir, nil
}

// memoryRoots settles Workspace.MemoryRoots from --memory-root: each
// value parsed and its directory checked (usage errors otherwise), the
// same directory once. None with --agent claude or codex (a usage error
// when some were given), none in the demo (which reads only its own
// sample). --agent other needs one, and reads nothing else.
func (w *Workspace) memoryRoots(o Options) error {
	if o.Demo {
		return nil
	}
	switch {
	case len(o.MemoryRoots) > 0 && (w.Agent == AgentClaude || w.Agent == AgentCodex):
		return fmt.Errorf("--memory-root reads another agent's memory, and --agent %s leaves it out: drop one of them", w.Agent)
	case w.Agent == AgentOther && len(o.MemoryRoots) == 0:
		return errors.New("--agent other reads the stores of --memory-root: name one with --memory-root [AGENT=]DIR")
	case w.Agent == AgentOther && (len(o.ConfigDirs) > 0 || len(o.MemoryDirs) > 0 || len(o.CodexHomes) > 0):
		return errors.New("--config-dir, --memory-dir and --codex-home read Claude Code's and Codex's memory, and --agent other leaves them out: drop one of them")
	}
	seen := map[string]bool{}
	for _, v := range o.MemoryRoots {
		label, dir, err := ParseMemoryRoot(v)
		if err != nil {
			return err
		}
		real, err := memfs.MemoryRootDir(dir)
		if err != nil {
			return err
		}
		if !seen[real] {
			seen[real] = true
			w.MemoryRoots = append(w.MemoryRoots, memfs.MemoryRoot{Agent: label, Dir: real})
		}
	}
	return nil
}

// RootProjects finds the stores of MemoryRoots (memfs.RootStores), one
// project each, kept by --project as Claude Code's projects are, their
// names made unique (a "#2" after a repeated one). What the search has to
// say (a link not followed, a bound hit, a root with no store) goes to
// Notes. The error is non-nil only when ctx is cancelled.
func (w *Workspace) RootProjects(ctx context.Context) ([]*model.Project, error) {
	ps, empty, err := w.rootProjects(ctx)
	w.noteEmptyRoots(empty)
	return ps, err
}

// noteEmptyRoots says which roots held no store.
func (w *Workspace) noteEmptyRoots(empty []string) {
	for _, dir := range empty {
		w.note("memtui: --memory-root %s: no memory folder found (one holding MEMORY.md, at most %d levels down)", dir, memfs.MaxRootDepth)
	}
}

// rootProjects is RootProjects with the roots that held no store apart
// (Discover names them only when something else was found: Empty's
// advice says it otherwise).
func (w *Workspace) rootProjects(ctx context.Context) (out []*model.Project, empty []string, err error) {
	used := map[string]int{}
	for _, r := range w.MemoryRoots {
		ps, notes, err := memfs.RootStores(ctx, r)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range notes {
			w.note("memtui: --memory-root %s", n)
		}
		if len(ps) == 0 {
			empty = append(empty, r.Dir)
		}
		for _, p := range ps {
			if used[p.Slug]++; used[p.Slug] > 1 {
				p.Slug = fmt.Sprintf("%s#%d", p.Slug, used[p.Slug])
			}
			if t := w.ScanOpts.Project; t == "" || strings.Contains(p.Slug, t) {
				out = append(out, p)
			}
		}
	}
	return out, empty, nil
}

// withRoots is scan with the root projects added (a memory dir the scan
// has already, named by --memory-dir too, stays Claude Code's), sorted by
// name as memfs sorts the scan.
func withRoots(scan *model.Scan, roots []*model.Project) *model.Scan {
	if len(roots) == 0 {
		return scan
	}
	have := map[string]bool{}
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			have[d.Path] = true
		}
	}
	for _, p := range roots {
		if !have[p.Dirs[0].Path] {
			scan.Projects = append(scan.Projects, p)
		}
	}
	sort.SliceStable(scan.Projects, func(i, j int) bool { return scan.Projects[i].Name() < scan.Projects[j].Name() })
	return scan
}

// AgentOf names whose memory p is: its Agent, else AgentClaude.
func AgentOf(p *model.Project) string {
	if p != nil && p.Agent != "" {
		return p.Agent
	}
	return AgentClaude
}

// AgentFindings are p's findings as reported: for another agent's store,
// each naming the agent and without the rules that do not apply to its
// copy of the format (consolidate.ForAgent, which the external
// proposer's input goes through too). It filters fs in place.
func AgentFindings(p *model.Project, fs []model.Finding) []model.Finding {
	return consolidate.ForAgent(p, fs)
}

// AgentProposals are p's proposals without those that only fix findings
// AgentFindings leaves out of p's agent's store (a reindex adding
// OpenHands' daily logs to its MEMORY.md, say). It filters props in
// place.
func AgentProposals(p *model.Project, props []model.Proposal) []model.Proposal {
	agent := AgentOf(p)
	if agent == AgentClaude {
		return props
	}
	out := props[:0]
	for _, pr := range props {
		keep := len(pr.Fixes) == 0
		for _, f := range pr.Fixes {
			keep = keep || !consolidate.OmittedFor(agent, f.Rule)
		}
		if keep {
			out = append(out, pr)
		}
	}
	return out
}
