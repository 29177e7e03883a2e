package main

import (
	"io"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model/claude"
)

// doctorJSON is `memtui doctor --json`: version 1 of its contract. Every
// text from disk or the environment is masked here and made safe by the
// shared JSON writer.
type doctorJSONOut struct {
	Version     int               `json:"version"`
	Now         string            `json:"now"`
	ClaudeCode  string            `json:"claude_code"`
	Environment []doctorVarJSON   `json:"environment"`
	Config      []doctorIgnored   `json:"config_problems"`
	Stores      []doctorStoreJSON `json:"stores"`
	Codex       []doctorCodexJSON `json:"codex"`
	Here        *doctorHereJSON   `json:"here,omitempty"`
}

// doctorHereJSON is what a session launched in the folder doctor was
// asked from would use.
type doctorHereJSON struct {
	Cwd        string            `json:"cwd"`
	ClaudeUses doctorChoiceJSON  `json:"claude_code_uses"`
	Exists     bool              `json:"exists"`
	Memories   int               `json:"memories"`
	Index      bool              `json:"index"`
	AutoMemory *doctorSwitchJSON `json:"auto_memory"`
	AutoDream  *doctorSwitchJSON `json:"auto_dream"`
}

type doctorVarJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type doctorIgnored struct {
	Source string `json:"source"`
	Line   int    `json:"line,omitempty"`
	Why    string `json:"why"`
}

type doctorSwitchJSON struct {
	On      bool     `json:"on"`
	By      string   `json:"decided_by"`
	Caveats []string `json:"caveats"`
}

type doctorChoiceJSON struct {
	Dir     string          `json:"dir"`
	By      string          `json:"chosen_by"`
	How     []string        `json:"how"`
	Ignored []doctorIgnored `json:"ignored"`
}

type doctorStoreJSON struct {
	Agent      string            `json:"agent"`
	Project    string            `json:"project"`
	Slug       string            `json:"slug"`
	ConfigDir  string            `json:"config_dir,omitempty"`
	Dir        string            `json:"dir"`
	Kind       string            `json:"kind"`
	Exists     bool              `json:"exists"`
	Memories   int               `json:"memories"`
	Index      bool              `json:"index"`
	ClaudeUses *doctorChoiceJSON `json:"claude_code_uses,omitempty"`
	AutoMemory *doctorSwitchJSON `json:"auto_memory,omitempty"`
	AutoDream  *doctorSwitchJSON `json:"auto_dream,omitempty"`
	Loaded     string            `json:"loaded,omitempty"`
	LoadedWhy  string            `json:"loaded_why,omitempty"`
	LoadedBy   []string          `json:"loaded_by,omitempty"`
	Stranded   *doctorStrandJSON `json:"stranded,omitempty"`
	Sessions   *doctorSessions   `json:"sessions,omitempty"`
	Dream      *doctorDreamJSON  `json:"dream_gate,omitempty"`
	Lock       *doctorLockJSON   `json:"lock,omitempty"`
	Team       *doctorTeamJSON   `json:"team,omitempty"`
}

type doctorStrandJSON struct {
	Kind string `json:"kind"`
	Why  string `json:"why"`
	To   string `json:"to,omitempty"`
}

type doctorSessions struct {
	Total    int                 `json:"total"`
	Mode     string              `json:"mode"`
	Index    int                 `json:"index_injected"`
	Recall   int                 `json:"recall"`
	Tools    int                 `json:"memory_tools"`
	None     int                 `json:"no_load_recorded"`
	Versions []doctorVersionJSON `json:"versions"`
}

type doctorVersionJSON struct {
	Version      string `json:"version"`
	Sessions     int    `json:"sessions"`
	Relation     string `json:"relation"`
	LacksChanges bool   `json:"lacks_changes"`
}

type doctorDreamJSON struct {
	LastConsolidated string `json:"last_consolidated,omitempty"`
	SessionsSince    int    `json:"sessions_since"`
	SessionsKnown    bool   `json:"sessions_known"`
	MinHours         int    `json:"min_hours"`
	MinSessions      int    `json:"min_sessions"`
	TimeOpen         bool   `json:"time_gate_open"`
	SessionOpen      bool   `json:"session_gate_open"`
	Due              bool   `json:"due"`
}

type doctorLockJSON struct {
	Present bool   `json:"present"`
	Mtime   string `json:"mtime,omitempty"`
	PID     int    `json:"pid,omitempty"`
	Alive   bool   `json:"pid_alive"`
	Held    bool   `json:"held"`
	Problem string `json:"problem,omitempty"`
}

type doctorTeamJSON struct {
	Dir      string            `json:"dir"`
	Exists   bool              `json:"exists"`
	Memories int               `json:"memories"`
	Enabled  bool              `json:"enabled"`
	Mounts   []doctorMountJSON `json:"mounts"`
}

type doctorMountJSON struct {
	Mount  string `json:"mount"`
	Path   string `json:"path"`
	Mode   string `json:"mode"`
	Exists bool   `json:"exists"`
}

type doctorCodexJSON struct {
	Home          string   `json:"home"`
	Root          string   `json:"root"`
	Exists        bool     `json:"exists"`
	Memories      int      `json:"memories"`
	Config        string   `json:"config"`
	ConfigFound   bool     `json:"config_found"`
	Enabled       bool     `json:"enabled"`
	EnabledSet    bool     `json:"enabled_set"`
	Generate      bool     `json:"generate_memories"`
	Use           bool     `json:"use_memories"`
	Consolidation string   `json:"consolidation"`
	LastSuccess   string   `json:"last_success,omitempty"`
	Running       bool     `json:"running"`
	LeaseHeld     bool     `json:"lease_held"`
	Lease         string   `json:"lease,omitempty"`
	PendingDiff   string   `json:"pending_diff,omitempty"`
	Baseline      bool     `json:"baseline"`
	Pending       []string `json:"changed_since_baseline"`
}

func doctorJSON(w io.Writer, d *app.Doctor) error {
	m := func(s string) string { return safe.Mask(nil, s) }
	ms := safe.MaskAll
	sw := func(s claude.Switch) *doctorSwitchJSON {
		return &doctorSwitchJSON{On: s.On, By: m(s.By), Caveats: ms(s.Caveats)}
	}
	ign := func(ig []memfs.Ignored) []doctorIgnored {
		out := make([]doctorIgnored, len(ig))
		for i, x := range ig {
			out[i] = doctorIgnored{Source: m(x.Source), Line: x.Line, Why: m(x.Why)}
		}
		return out
	}
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	out := doctorJSONOut{Version: 1, Now: stamp(d.Now), ClaudeCode: claude.Version, Environment: []doctorVarJSON{},
		Config: []doctorIgnored{}, Stores: []doctorStoreJSON{}, Codex: []doctorCodexJSON{}}
	for _, kv := range d.Env {
		out.Environment = append(out.Environment, doctorVarJSON{Name: kv[0], Value: m(kv[1])})
	}
	for _, cp := range d.Config {
		out.Config = append(out.Config, doctorIgnored{Source: m(cp.Source), Line: cp.Line, Why: m(cp.Detail)})
	}
	for _, s := range d.Stores {
		j := doctorStoreJSON{Agent: m(app.AgentOf(s.Project)), Project: m(s.Project.Name()), Slug: m(s.Project.Slug), ConfigDir: m(s.Project.ConfigDir),
			Dir: m(s.Dir.Path), Kind: s.Dir.Kind.String(), Exists: s.Dir.Exists, Memories: s.Memories, Index: s.Index}
		if s.Claude {
			j.AutoMemory, j.Loaded, j.LoadedWhy, j.LoadedBy = sw(s.AutoMemory), string(s.Loaded), m(s.LoadedWhy), ms(s.LoadedBy)
			if c := s.Choice; c != nil {
				j.ClaudeUses = &doctorChoiceJSON{Dir: m(c.Dir), By: m(c.By), How: ms(c.How), Ignored: ign(c.Ignored)}
			}
			if st := s.Strand; st != nil {
				j.Stranded = &doctorStrandJSON{Kind: string(st.Kind), Why: m(st.Why), To: m(st.To)}
			}
			if ss := s.Sessions; ss != nil {
				js := &doctorSessions{Total: ss.Total, Mode: ss.Mode, Index: ss.Index, Recall: ss.Recall, Tools: ss.Tools, None: ss.None, Versions: []doctorVersionJSON{}}
				for _, v := range ss.Versions {
					js.Versions = append(js.Versions, doctorVersionJSON{Version: m(v.Version), Sessions: v.Sessions, Relation: v.Relation, LacksChanges: v.LacksChanges})
				}
				j.Sessions = js
			}
			if g := s.Gate; g != nil {
				j.AutoDream = sw(s.AutoDream)
				j.Dream = &doctorDreamJSON{LastConsolidated: stamp(g.LastConsolidated), SessionsSince: len(g.Sessions), SessionsKnown: s.Sessions != nil,
					MinHours: g.MinHours, MinSessions: g.MinSessions, TimeOpen: g.TimeOpen, SessionOpen: g.SessionOpen, Due: g.WouldFire()}
			}
			if l := s.Lock; l != nil {
				jl := &doctorLockJSON{Present: l.Present, Alive: l.Alive, Held: l.Held, Problem: m(l.Problem)}
				if l.ModTime != 0 {
					jl.Mtime = stamp(time.Unix(0, l.ModTime))
				}
				if l.HasPID {
					jl.PID = l.PID
				}
				j.Lock = jl
			}
			if t := s.Team; t != nil {
				jt := &doctorTeamJSON{Dir: m(t.Dir), Exists: t.Exists, Memories: t.Memories, Enabled: t.Enabled, Mounts: []doctorMountJSON{}}
				for _, mt := range t.Mounts {
					jt.Mounts = append(jt.Mounts, doctorMountJSON{Mount: m(mt.Mount), Path: m(mt.Path), Mode: m(mt.Mode), Exists: mt.Exists})
				}
				j.Team = jt
			}
		}
		out.Stores = append(out.Stores, j)
	}
	if h := d.Here; h != nil {
		c := h.Choice
		out.Here = &doctorHereJSON{Cwd: m(h.Cwd), ClaudeUses: doctorChoiceJSON{Dir: m(c.Dir), By: m(c.By), How: ms(c.How), Ignored: ign(c.Ignored)},
			Exists: h.Exists, Memories: h.Memories, Index: h.Index, AutoMemory: sw(c.AutoMemory), AutoDream: sw(c.AutoDream)}
	}
	for _, c := range d.Codex {
		s := c.Store
		j := doctorCodexJSON{Home: m(s.Home), Root: m(s.Root), Exists: s.Exists, Memories: c.Memories, Config: m(s.ConfigPath), ConfigFound: s.ConfigFound,
			Enabled: s.Config.Enabled, EnabledSet: s.Config.EnabledSet, Generate: s.Config.Generate, Use: s.Config.Use,
			Consolidation: codexStatusText(c.Status, d.Now), LastSuccess: stamp(c.Status.LastSuccess), Running: c.Status.Running, LeaseHeld: c.Status.LeaseHeld,
			Lease: m(c.Lease), PendingDiff: m(c.Diff), Baseline: s.Baseline != nil, Pending: []string{}}
		for _, p := range c.Pending {
			j.Pending = append(j.Pending, string(p.Status)+" "+m(p.Path))
		}
		out.Codex = append(out.Codex, j)
	}
	return report.WriteJSON(w, out)
}
