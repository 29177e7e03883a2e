package app

import (
	"context"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	goversion "github.com/hashicorp/go-version"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/codex"
)

// Doctor is what `memtui doctor` reports: for each memory store, where
// Claude Code (or Codex) keeps it and why, whether it is on, how its
// sessions use it, its autoDream gate and lock, and whether anything loads
// it. Every text in it comes from disk or the environment: the printer
// sanitises and masks it.
type Doctor struct {
	Now time.Time
	// Env are the memory variables memtui's own environment sets, as
	// "NAME", "value" pairs: what a Claude Code launched from here gets.
	Env [][2]string
	// MemoryStores is CLAUDE_MEMORY_STORES parsed.
	MemoryStores model.MemoryStores
	Stores       []DoctorStore
	// Config are the configuration problems of the scan (settings files
	// that do not parse, overrides Claude Code rejects).
	Config []model.ConfigProblem
	Codex  []DoctorCodex
	// Here is the memory dir Claude Code would use for a session launched
	// in the folder doctor was asked from; nil when not asked (the demo,
	// a project named, a folder that is not absolute).
	Here *DoctorHere
}

// DoctorHere is what a session launched in one folder would get: the
// memory dir and why, whether it is there, and the switches.
type DoctorHere struct {
	Cwd    string
	Choice memfs.Choice
	// Exists says the dir is on disk; Memories counts its memory files as
	// the scan found them (0 when it is not one of the scan's dirs).
	Exists   bool
	Memories int
	Index    bool
}

// DoctorStore is one memory dir as doctor reports it.
type DoctorStore struct {
	Project *model.Project
	Dir     *model.MemoryDir
	// Memories and Index say what the dir holds.
	Memories int
	Index    bool
	// Claude is false for another agent's store (--memory-root): only
	// where it is and what it holds are reported.
	Claude bool
	// Choice is how Claude Code chooses the memory dir for the project's
	// sessions; nil for a dir that no project's sessions choose (agent
	// memory, a --memory-dir, a global override's pseudo-project).
	Choice *memfs.Choice
	// AutoMemory and AutoDream are the switches as the environment and
	// settings stand (for a dir with no Choice, as the global settings
	// stand).
	AutoMemory, AutoDream claude.Switch
	// Loaded says whether a session Claude Code runs loads the dir, and
	// LoadedWhy why (or why not, or why memtui cannot tell).
	Loaded    Tri
	LoadedWhy string
	// LoadedBy are the projects whose sessions load it.
	LoadedBy []string
	Strand   *model.Strand
	// Sessions is how the project's sessions used the dir, from the
	// transcripts; nil when they were not read.
	Sessions *DoctorSessions
	// Gate is the autoDream gate and Lock the lock, for a dir autoDream
	// consolidates (the auto-memory dir, wherever an override puts it).
	Gate *model.DreamGate
	Lock *DoctorLock
	// Team is the dir's team/ folder and mounts; nil when there is none
	// and no team store is configured.
	Team *DoctorTeam
}

// Tri is a yes, a no, or "cannot tell".
type Tri string

// The three answers.
const (
	Yes     Tri = "yes"
	No      Tri = "no"
	Unknown Tri = "unknown"
)

// DoctorSessions is how a project's sessions ran with one memory dir.
type DoctorSessions struct {
	// Total counts the sessions of the project's transcripts.
	Total int
	// Index counts the sessions that had the dir's MEMORY.md injected,
	// Recall those that recalled memories from it by scan, Tools those
	// that wrote it with the memory-store tools, None those with no sign
	// of the dir at all (no load recorded: older transcripts record none).
	Index, Recall, Tools, None int
	// Mode names the mode most sessions ran in: "index injected", "recall
	// by scan", "memory-store tools", or "" when none shows.
	Mode     string
	Versions []DoctorVersion
}

// DoctorVersion is one Claude Code version the sessions ran.
type DoctorVersion struct {
	Version  string
	Sessions int
	// Relation is "older" (lacks what changed since claude.ComparedWith,
	// or may), "followed", "newer" (memtui may miss its changes) or
	// "unparsable".
	Relation string
	// LacksChanges is true at or before claude.ComparedWith: every change
	// of claude.Changes is missing there.
	LacksChanges bool
}

// DoctorLock is .consolidate-lock as it stands.
type DoctorLock struct {
	memfs.LockState
	// Alive is whether the body's PID runs, as Claude Code checks it
	// (memfs.PIDAlive); Held is Claude Code's held check at Now: under an
	// hour old and its PID alive (facts §6.2).
	Alive, Held bool
	Age         time.Duration
}

// DoctorTeam is a dir's team memory.
type DoctorTeam struct {
	Dir      string
	Exists   bool
	Memories int
	// Enabled is whether Claude Code mounts team memory here: auto memory
	// on and CLAUDE_MEMORY_STORES with a team entry (facts §7.1).
	Enabled bool
	Mounts  []DoctorMount
}

// DoctorMount is one team store of CLAUDE_MEMORY_STORES in a dir.
type DoctorMount struct {
	Mount, Path, Mode string
	Exists            bool
}

// DoctorCodex is one Codex store.
type DoctorCodex struct {
	Store *codex.Store
	// Memories counts its task groups and pending notes.
	Memories int
	Status   codex.Consolidation
	// Lease is why a consolidation holds the lock now, "" when none does;
	// Diff why the workspace diff says one runs or crashed.
	Lease, Diff string
	Pending     []codex.Change
}

// lockHeldFor is how long Claude Code counts a lock as held (facts §6.2).
const lockHeldFor = time.Hour

// Doctor builds the report over the workspace's scan (transcripts read
// when the workspace reads them) and Codex stores; with cwd (absolute),
// also what a session launched there would use (Doctor.Here).
func (w *Workspace) Doctor(ctx context.Context, now time.Time, cwd string) (*Doctor, error) {
	o := w.ScanOpts
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	d := &Doctor{Now: now, Env: memfs.MemoryEnv(getenv), MemoryStores: model.ParseMemoryStores(getenv(claude.EnvMemoryStores))}
	if w.Scan != nil {
		d.Config = w.Scan.Config
	}
	// The switches for a dir no project's sessions choose (agent memory,
	// a --memory-dir, a global override): the first config dir's.
	cfg := ""
	switch {
	case w.Scan != nil && len(w.Scan.ConfigDirs) > 0:
		cfg = w.Scan.ConfigDirs[0]
	case len(o.ConfigDirs) == 0 && len(o.MemoryDirs) == 0:
		// No config dir on disk yet: where Claude Code would make one.
		cfg = memfs.DefaultConfigDir(getenv, o.Home)
	}
	global := memfs.ChooseDir(o, cfg, "", "")
	strands := map[string]*model.Strand{}
	var projects []*model.Project
	if w.Scan != nil {
		for i := range w.Scan.Strands {
			strands[w.Scan.Strands[i].From] = &w.Scan.Strands[i]
		}
		projects = w.Scan.Projects
	}
	// Each project's choice, then who loads each dir.
	choices := map[*model.Project]*memfs.Choice{}
	loadedBy := map[string][]string{}
	for _, p := range projects {
		if !claudeProject(p) {
			continue
		}
		c := w.StoreChoice(p)
		choices[p] = c
		if c.AutoMemory.On && p.Root != "" {
			key := dirKey(c.Dir)
			loadedBy[key] = append(loadedBy[key], p.Name())
		}
	}
	for _, p := range projects {
		for _, md := range p.Dirs {
			if md.Kind == model.DirTeam {
				continue // reported with its parent
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := w.Load(ctx, md); err != nil {
				w.note("memtui: %s: %s", md.Path, err.Error())
			}
			st := DoctorStore{Project: p, Dir: md, Memories: len(md.Files), Index: md.Index != nil, Claude: md.Kind != model.DirRoot}
			sw := global
			if c := choices[p]; c != nil && (md.Kind == model.DirAuto || md.Kind == model.DirOverride) {
				st.Choice, sw = c, *c
			}
			st.AutoMemory, st.AutoDream = sw.AutoMemory, sw.AutoDream
			if st.Claude {
				st.Strand = strands[md.Path]
				st.Loaded, st.LoadedWhy = loaded(md, st.Choice, st.Strand, loadedBy[dirKey(md.Path)], sw.AutoMemory)
				st.LoadedBy = loadedBy[dirKey(md.Path)]
				if p.Log != nil {
					st.Sessions = sessionsOf(md, p.Log)
				}
				if (md.Kind == model.DirAuto || md.Kind == model.DirOverride) && md.Exists {
					g := forensics.GateOf(md, p.Log, now)
					if p.Log == nil {
						g.Sessions = nil
						g.SessionOpen = false
					}
					st.Gate = &g
					ls := memfs.ReadLock(md.Path)
					lk := &DoctorLock{LockState: ls, Alive: ls.HasPID && memfs.PIDAlive(ls.PID)}
					if ls.Present && ls.ModTime != 0 {
						lk.Age = now.Sub(time.Unix(0, ls.ModTime))
						lk.Held = lk.Age < lockHeldFor && lk.Alive
					}
					st.Lock = lk
				}
				st.Team = teamOf(p, md, d.MemoryStores, sw.AutoMemory.On)
			}
			md.DropContent()
			d.Stores = append(d.Stores, st)
		}
	}
	if cwd != "" && filepath.IsAbs(cwd) && (w.Agent == "" || w.Agent == AgentClaude) {
		d.Here = here(o, cfg, cwd, d.Stores)
	}
	if w.Agent == "" || w.Agent == AgentCodex {
		stores, err := w.LoadCodex(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range stores {
			cs := NewCodexStore(s, nil)
			d.Codex = append(d.Codex, DoctorCodex{Store: s, Memories: cs.Memories(), Status: codex.Status(s.DB, now),
				Lease: s.LeaseBusy(now), Diff: s.DiffBusy(), Pending: cs.Pending})
		}
	}
	return d, nil
}

// claudeProject reports whether p is a Claude Code project whose sessions
// choose a memory dir: not another agent's store, not a --memory-dir, not
// a global override's stand-in, not the agent-memory list.
func claudeProject(p *model.Project) bool {
	if p.Agent != "" || p.ConfigDir == "" {
		return false
	}
	for _, d := range p.Dirs {
		if d.Kind == model.DirAuto {
			return true
		}
	}
	return false
}

// onWindows: paths compare as memfs.SamePath says for Windows.
const onWindows = runtime.GOOS == "windows"

// dirKey is a directory as a map key, compared as the write path compares
// paths (memfs.SamePath): without case on Windows, byte for byte elsewhere.
func dirKey(p string) string {
	p = filepath.Clean(p)
	if onWindows {
		return memfs.FoldPath(p)
	}
	return p
}

// Gap is why Claude Code does not load a project's own store for the
// project's sessions, as far as its Choice says.
type Gap int

// The gaps.
const (
	GapNone      Gap = iota // it loads the store (or the choice says nothing of it)
	GapMemoryOff            // auto memory is off
	GapOtherDir             // the sessions use another dir
)

// GapOf is the one rule, for doctor and the TUI's preview alike: for an
// auto-memory or override dir md of a project whose sessions choose as ch
// says, auto memory off first, then a dir other than md.
func GapOf(md *model.MemoryDir, ch *memfs.Choice) Gap {
	switch {
	case ch == nil || (md.Kind != model.DirAuto && md.Kind != model.DirOverride):
		return GapNone
	case !ch.AutoMemory.On:
		return GapMemoryOff
	case !SameDir(ch.Dir, md.Path):
		return GapOtherDir
	}
	return GapNone
}

// SameDir reports whether two paths name one directory, as dirKey
// compares them.
func SameDir(a, b string) bool { return dirKey(a) == dirKey(b) }

// loaded says whether a session Claude Code runs loads md, and why.
func loaded(md *model.MemoryDir, c *memfs.Choice, st *model.Strand, by []string, mem claude.Switch) (Tri, string) {
	switch md.Kind {
	case model.DirAgentUser, model.DirAgentProject, model.DirAgentLocal:
		return Yes, "a subagent whose definition has memory: " + agentScope(md.Kind) + " loads it (" + md.Agent + ")"
	case model.DirExplicit:
		if len(by) > 0 {
			return Yes, "sessions of " + strings.Join(by, ", ") + " load it"
		}
		return Unknown, "named with --memory-dir: no project memtui read chooses it"
	}
	if st != nil {
		return No, "stranded: " + st.Why
	}
	if len(by) > 0 {
		return Yes, "sessions launched in " + strings.Join(by, ", ") + " load it"
	}
	switch GapOf(md, c) {
	case GapOtherDir:
		return No, "its project's sessions use " + c.Dir + " instead (" + c.By + ")"
	case GapMemoryOff:
		return No, "auto memory is off (" + c.AutoMemory.By + ")"
	}
	if !mem.On {
		return No, "auto memory is off (" + mem.By + ")"
	}
	if md.Kind == model.DirOverride {
		return Unknown, "a setting names it, but no project memtui read has sessions that resolve to it"
	}
	return Unknown, "no transcript names the folder its sessions were launched in, so which dir they load cannot be checked"
}

func agentScope(k model.DirKind) string {
	switch k {
	case model.DirAgentProject:
		return "project"
	case model.DirAgentLocal:
		return "local"
	}
	return "user"
}

// sessionsOf is how the sessions of log used md: each session counted
// once, in the first mode that shows (a recall or a tool write outranks
// an index load, since either implies the mode that hides the index).
func sessionsOf(md *model.MemoryDir, log *model.TranscriptLog) *DoctorSessions {
	in := func(p string) bool { return memfs.PathWithin(filepath.Clean(p), filepath.Clean(md.Path), onWindows) }
	index := filepath.Join(md.Path, "MEMORY.md")
	mode := map[string]string{}
	for _, o := range log.Observations {
		switch {
		case o.Kind == model.ObsRecall && in(o.Path):
			mode[o.Session] = "recall"
		case o.Kind == model.ObsIndexLoad && dirKey(o.Path) == dirKey(index) && mode[o.Session] == "":
			mode[o.Session] = "index"
		}
	}
	for _, w := range log.Writes {
		if w.Kind == model.WriteStore && in(w.Path) {
			mode[w.Session] = "tools"
		}
	}
	s := &DoctorSessions{}
	versions := map[string]int{}
	for id, ses := range log.Sessions {
		if ses == nil {
			continue
		}
		s.Total++
		switch mode[id] {
		case "recall":
			s.Recall++
		case "tools":
			s.Tools++
		case "index":
			s.Index++
		default:
			s.None++
		}
		if ses.Version != "" {
			versions[ses.Version]++
		}
	}
	switch {
	case s.Recall+s.Tools+s.Index == 0:
	case s.Recall >= s.Index && s.Recall >= s.Tools:
		s.Mode = "recall by scan"
	case s.Tools > s.Index:
		s.Mode = "memory-store tools"
	default:
		s.Mode = "index injected"
	}
	for v, n := range versions {
		dv := DoctorVersion{Version: v, Sessions: n}
		dv.Relation, dv.LacksChanges = report.VersionRelation(v)
		s.Versions = append(s.Versions, dv)
	}
	sort.Slice(s.Versions, func(i, j int) bool {
		a, errA := goversion.NewVersion(s.Versions[i].Version)
		b, errB := goversion.NewVersion(s.Versions[j].Version)
		if errA != nil || errB != nil {
			return s.Versions[i].Version < s.Versions[j].Version
		}
		return a.LessThan(b)
	})
	return s
}

// teamOf is md's team memory: its team/ dir (a MemoryDir of the project
// when present) and the team stores CLAUDE_MEMORY_STORES mounts there.
func teamOf(p *model.Project, md *model.MemoryDir, ms model.MemoryStores, memOn bool) *DoctorTeam {
	if md.Kind != model.DirAuto && md.Kind != model.DirOverride && md.Kind != model.DirExplicit {
		return nil
	}
	t := &DoctorTeam{Dir: filepath.Join(md.Path, memfs.TeamDirName)}
	for _, d := range p.Dirs {
		if d.Kind == model.DirTeam && filepath.Dir(d.Path) == md.Path {
			t.Exists, t.Memories = d.Exists, len(d.Files)
		}
	}
	for _, s := range ms.Stores {
		if s.Scope != "team" {
			continue
		}
		path := filepath.Join(t.Dir, s.Mount)
		t.Mounts = append(t.Mounts, DoctorMount{Mount: s.Mount, Path: path, Mode: s.Mode, Exists: memfs.IsDir(path)})
	}
	t.Enabled = memOn && len(t.Mounts) > 0
	if !t.Exists && len(t.Mounts) == 0 {
		return nil
	}
	return t
}

// here is DoctorHere for cwd under the config dir cfg: the choice, and
// the store as the scan found it when it is one of them.
func here(o memfs.Options, cfg, cwd string, stores []DoctorStore) *DoctorHere {
	h := &DoctorHere{Cwd: cwd, Choice: memfs.ChooseDir(o, cfg, cwd, "")}
	for _, s := range stores {
		if dirKey(s.Dir.Path) == dirKey(h.Choice.Dir) {
			h.Exists, h.Memories, h.Index = s.Dir.Exists, s.Memories, s.Index
			return h
		}
	}
	h.Exists = memfs.IsDir(h.Choice.Dir)
	return h
}

// StoreChoice is how Claude Code chooses the memory dir for p's sessions
// (memfs.ChooseDir over the workspace's options), or nil for a project
// whose sessions choose none (another agent's store, a --memory-dir, a
// global override's stand-in). It reads settings files and .git files:
// call it off a UI thread.
func (w *Workspace) StoreChoice(p *model.Project) *memfs.Choice {
	if p == nil || !claudeProject(p) {
		return nil
	}
	c := memfs.ChooseDir(w.ScanOpts, p.ConfigDir, p.Root, p.Slug)
	return &c
}
