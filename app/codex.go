package app

import (
	"context"
	"errors"
	"fmt"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model/codex"
)

// The agents whose memory memtui reads, as --agent names them; "" is
// both.
const (
	AgentClaude = "claude"
	AgentCodex  = "codex"
)

// ParseAgent checks --agent: "" (every agent), AgentClaude, AgentCodex,
// or AgentOther: the --memory-root stores, whatever their labels (a
// flag checked as it is parsed cannot know the labels given beside it;
// --project LABEL: narrows to one, as every store's name starts so).
// Anything else is a usage error naming the accepted values.
func ParseAgent(s string) (string, error) {
	switch s {
	case "", AgentClaude, AgentCodex, AgentOther:
		return s, nil
	}
	return "", fmt.Errorf("invalid --agent %q: want %s or %s, or %s (the --memory-root stores)", s, AgentClaude, AgentCodex, AgentOther)
}

// codexHomes settles which Codex homes are read (Workspace.CodexHomes):
// none with --agent claude or other; --codex-home's, each of which must
// be a directory (a usage error otherwise, as --config-dir's); else the
// default home (memfs.CodexHome: $CODEX_HOME, else ~/.codex) when it
// exists and the user did not narrow where memtui looks with
// --config-dir, --memory-dir or --memory-root, as --memory-dir alone
// leaves ~/.claude unread. The demo reads only its own scratch tree: its
// environment hides CODEX_HOME and its home is the scratch copy, so no
// store of the user's is ever read there.
func (w *Workspace) codexHomes(o Options) error {
	switch {
	case w.Agent == AgentClaude && len(o.CodexHomes) > 0 && !o.Demo:
		return errors.New("--codex-home reads Codex's memory, and --agent claude leaves Codex out: drop one of them")
	case w.Agent == AgentCodex && (len(o.ConfigDirs) > 0 || len(o.MemoryDirs) > 0) && !o.Demo:
		return errors.New("--config-dir and --memory-dir read Claude Code's memory, and --agent codex leaves Claude Code out: drop one of them")
	case w.Agent == AgentClaude || w.Agent == AgentOther:
		// --agent other with --codex-home is memoryRoots' usage error.
		return nil
	}
	if len(o.CodexHomes) > 0 && !o.Demo {
		seen := map[string]bool{}
		for _, h := range o.CodexHomes {
			dir, err := memfs.CodexHomeDir(h)
			if err != nil {
				return err
			}
			if !seen[dir] {
				seen[dir] = true
				w.CodexHomes = append(w.CodexHomes, dir)
			}
		}
		return nil
	}
	if !o.Demo && (len(o.ConfigDirs) > 0 || len(o.MemoryDirs) > 0 || len(o.MemoryRoots) > 0) {
		return nil
	}
	if dir, ok := memfs.CodexHome(w.ScanOpts.Getenv, w.ScanOpts.Home); ok {
		w.CodexHomes = []string{dir}
	}
	return nil
}

// LoadCodex reads the store of each of CodexHomes (memfs.LoadCodex), in
// their order. Open keeps them in Codex; a face that refreshes calls it
// again and gets new stores, Codex left as it is. The error is non-nil
// only when ctx is cancelled: what could not be read is in each store's
// Problems.
func (w *Workspace) LoadCodex(ctx context.Context) ([]*codex.Store, error) {
	var out []*codex.Store
	for _, h := range w.CodexHomes {
		s, err := memfs.LoadCodex(ctx, h, w.ScanOpts)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// CodexFindings are the checks' findings over stores (consolidate.
// CheckCodex), with the checks' options.
func CodexFindings(stores []*codex.Store, opts consolidate.Options) []model.Finding {
	var out []model.Finding
	for _, s := range stores {
		out = append(out, consolidate.CheckCodex(s, opts)...)
	}
	for i := range out {
		out[i].Agent = AgentCodex
	}
	return out
}
