package memfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/model"
)

// Environment variables that move where Claude Code keeps things.
const (
	envConfigDir      = "CLAUDE_CONFIG_DIR"             // config home (facts §1.1 row 3)
	envRemoteMemory   = "CLAUDE_CODE_REMOTE_MEMORY_DIR" // memory base instead of the config dir (facts §1.1 row 3)
	envProjectDirName = "CLAUDE_CODE_PROJECT_DIR_NAME"  // replaces <project> (facts §1.3 step 4)
	agentMemoryDir    = "agent-memory"                  // <base>/agent-memory/<agent> and <root>/.claude/agent-memory/<agent>
	agentMemoryLocal  = "agent-memory-local"            // <root>/.claude/agent-memory-local/<agent>
	overrideSlugLabel = "override:"                     // Slug prefix of the pseudo-project of a global override
	agentSlugLabel    = "agent-memory"                  // Slug of the per-config pseudo-project of user-scope agent memory
	MemoryDirName     = "memory"                        // AUTO_MEM_DIRNAME (facts §1.1); exported for memfs/transcript, which finds a project's auto memory dir by it in the paths agents wrote
	TeamDirName       = "team"                          // <memdir>/team (facts §7); exported for memfs/txn, which refuses a change under it without IncludeTeam
	LockFileName      = ".consolidate-lock"             // facts §6.2; exported for memfs/txn, which takes the lock (a scan skips it)
	indexFileName     = "MEMORY.md"                     // facts §1.1
)

// Discover finds config dirs, projects, memory dirs, settings and overrides,
// and each project's real path, without reading any topic file: it is meant
// to be cheap enough to draw a first frame from at 500 projects. Per
// project it lists the transcript dir, stats a few paths and reads the head
// of at most five transcripts; projects are handled in parallel.
//
// What it looks at, and why:
//   - each config dir (--config-dir, else $CLAUDE_CONFIG_DIR, else ~/.claude;
//     facts §1.1 row 3): every <config>/projects/<slug>/ is a candidate
//     project whose memory is <base>/projects/<slug>/memory/ (DirAuto), with
//     memory/team/ as a separate DirTeam (facts §7). <base> is the config
//     dir, and also $CLAUDE_CODE_REMOTE_MEMORY_DIR when that is set (Claude
//     Code then keeps memory there; memtui lists both so older memories stay
//     visible). A slug dir that only holds transcripts is not listed unless
//     something else (an override, agent memory) gives it a memory dir.
//   - the project's real path: the cwd of its newest transcripts, accepted
//     only when sanitizePath(cwd) is the slug (facts §1.3; transcripts
//     §1.3). The slug itself is never reversed.
//   - overrides, as Claude Code resolves them (facts §1.1, §1.4): the env
//     override, then autoMemoryDirectory in policy, local and project
//     settings (for projects with a known real path, read as a trusted
//     workspace would: memtui cannot see trust) and user settings, where
//     the first scope that defines the key decides, even with "", and a
//     value it rejects means the default dir. Rejected values and
//     unparsable settings become Scan.Config problems. A valid global
//     override is listed once, as its own project "override:<path>"; a
//     project or local one as a DirOverride of that project. Every valid
//     override is listed even when a higher-precedence one shadows it: the
//     memories in it are real and users split memories between such dirs
//     (facts §9, #36636).
//   - agent memory, when IncludeAgentMemory (facts §1.4, agent memory).
//   - CLAUDE_CODE_PROJECT_DIR_NAME (facts §1.3 step 4): honoured only with
//     CLAUDE_CONFIG_DIR set and a valid name; the project dir of that name
//     under $CLAUDE_CONFIG_DIR takes its real path from its transcripts'
//     cwd without the slug check, since the name no longer derives from the
//     path. Every other slug dir is scanned as usual, so dirs written before
//     or after the variable was set show up too.
//
// A memory dir reachable several ways is listed once, under the most
// specific owner (auto and team dirs first, then user-scope agent memory,
// global overrides, project overrides, project agent memory, --memory-dir).
// Projects are sorted by Name(), dirs within a project by kind, agent name
// and path.
func Discover(ctx context.Context, opts Options) (*model.Scan, error) {
	opts = opts.withDefaults()
	d := &discoverer{opts: opts, seenSettings: make(map[string]bool)}
	return d.run(ctx)
}

type discoverer struct {
	opts Options

	mu           sync.Mutex
	problems     []model.ConfigProblem
	seenSettings map[string]bool

	// What decides the memory dir above a project's own settings (facts
	// §1.1), set before the projects are read: a valid env override
	// (envWins), policy settings that define autoMemoryDirectory, and each
	// config dir's user settings that do.
	envWins bool
	policy  *setting
	users   map[string]*setting
	// projectSet counts the projects whose local or project settings
	// define autoMemoryDirectory (a policy "" hides them).
	projectSet int
}

// configDir is one config dir with the memory bases that go with it.
type configDir struct {
	dir     string   // transcripts and user settings live here
	bases   []string // memory bases: dir, plus the remote memory dir when set
	dirName string   // a valid CLAUDE_CODE_PROJECT_DIR_NAME applying to dir, or ""
}

// memBase is where Claude Code itself puts memory: the remote memory dir
// when set, else the config dir (getMemoryBaseDir, facts §1.1 row 3).
func (c configDir) memBase() string { return c.bases[len(c.bases)-1] }

func (d *discoverer) run(ctx context.Context) (*model.Scan, error) {
	configs, err := d.configDirs()
	if err != nil {
		return nil, err
	}
	explicit, err := explicitDirs(d.opts.MemoryDirs)
	if err != nil {
		return nil, err
	}
	scan := &model.Scan{}
	for _, c := range configs {
		scan.ConfigDirs = append(scan.ConfigDirs, c.dir)
	}

	// Global overrides first: they are shared by every project. Their
	// settings are read before the projects, whose own settings are judged
	// against them; their problems are built after, when what the projects'
	// settings define is known.
	var head []*model.Project
	defaultBase := DefaultConfigDir(d.opts.Getenv, d.opts.Home)
	if len(configs) > 0 {
		defaultBase = configs[0].memBase()
	}
	if raw := d.opts.Getenv(envMemoryOverride); raw != "" {
		if dir, bad := checkEnvOverride(raw, d.opts.Home, defaultMemDir(defaultBase, "")); bad != nil {
			d.addProblem(*bad)
		} else if dir != "" {
			d.envWins = true
			head = append(head, overrideProject("", dir))
		}
	}
	d.policy = d.readSetting(d.opts.ManagedSettings, scopePolicy, "")
	d.users = make(map[string]*setting, len(configs))
	for _, c := range configs {
		d.users[c.dir] = d.readSetting(filepath.Join(c.dir, "settings.json"), scopeUser, "")
	}
	var agents []*model.Project
	if d.opts.IncludeAgentMemory {
		for _, c := range configs {
			p := &model.Project{ConfigDir: c.dir, Slug: agentSlugLabel}
			for _, b := range c.bases {
				addAgentDirs(p, filepath.Join(b, agentMemoryDir), model.DirAgentUser)
			}
			agents = append(agents, p)
		}
	}

	var body []*model.Project
	for _, c := range configs {
		ps, err := d.projects(ctx, c)
		if err != nil {
			return nil, err
		}
		body = append(body, ps...)
	}
	for _, e := range explicit {
		body = append(body, explicitProject(e))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	head = append(head, d.globalOverrides(configs, defaultBase)...)
	head = append(head, agents...)

	all := dedupeDirs(append(head, body...))
	labelExplicit(all)
	kept := make(map[string]bool)
	for _, p := range all {
		if len(p.Dirs) == 0 || !d.matches(p) {
			continue
		}
		sortDirs(p.Dirs)
		scan.Projects = append(scan.Projects, p)
		kept[p.Name()] = true
	}
	sort.SliceStable(scan.Projects, func(i, j int) bool {
		a, b := scan.Projects[i], scan.Projects[j]
		if a.Name() != b.Name() {
			return a.Name() < b.Name()
		}
		if a.ConfigDir != b.ConfigDir {
			return a.ConfigDir < b.ConfigDir
		}
		return a.Slug < b.Slug
	})
	if ms := model.ParseMemoryStores(d.opts.Getenv(envMemoryStores)); ms.Err != "" {
		// Claude Code refuses the value too: it mounts no store, and
		// the sessions still run in recall mode (facts 7.1, 4.2).
		d.problems = append(d.problems, model.ConfigProblem{
			Kind: model.SettingsInvalid, Source: envMemoryStores, Detail: ms.Err +
				"; Claude Code mounts no memory store with this value (no team/<mount>/ is scanned), yet a non-empty value still turns recall mode on",
			Suggestion: `Fix the variable: a JSON array of store paths or {"path", "scope", "mount", …} objects, each team mount once, at most one "user" store`,
		})
	}
	for _, cp := range d.problems {
		if cp.Project == "" || kept[cp.Project] {
			scan.Config = append(scan.Config, cp)
		}
	}
	sort.SliceStable(scan.Config, func(i, j int) bool {
		a, b := scan.Config[i], scan.Config[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Detail < b.Detail
	})
	return scan, nil
}

// configDirs resolves the config dirs to scan. An explicitly given one must
// be a directory (a usage error otherwise); the default may be absent, which
// yields an empty scan for the caller to explain.
func (d *discoverer) configDirs() ([]configDir, error) {
	var dirs []string
	if len(d.opts.ConfigDirs) > 0 {
		for _, c := range d.opts.ConfigDirs {
			abs, err := mustBeDir("--config-dir", c)
			if err != nil {
				return nil, err
			}
			dirs = append(dirs, abs)
		}
	} else if len(d.opts.MemoryDirs) == 0 {
		def := DefaultConfigDir(d.opts.Getenv, d.opts.Home)
		if fi, err := os.Stat(def); err == nil && fi.IsDir() {
			dirs = append(dirs, def)
		}
	}
	remote := d.opts.Getenv(envRemoteMemory)
	if remote != "" {
		if abs, err := filepath.Abs(remote); err == nil {
			remote = abs
		}
	}
	dirName := ""
	envConfig := d.opts.Getenv(envConfigDir)
	if envConfig != "" && validProjectDirName(d.opts.Getenv(envProjectDirName)) {
		dirName = d.opts.Getenv(envProjectDirName)
		if abs, err := filepath.Abs(envConfig); err == nil {
			envConfig = abs
		}
	}
	var out []configDir
	seen := make(map[string]bool)
	for _, dir := range dirs {
		if seen[dir] {
			continue
		}
		seen[dir] = true
		c := configDir{dir: dir, bases: []string{dir}}
		if remote != "" && remote != dir {
			c.bases = append(c.bases, remote)
		}
		if dirName != "" && dir == envConfig {
			c.dirName = dirName
		}
		out = append(out, c)
	}
	return out, nil
}

// validProjectDirName is Claude Code's check on CLAUDE_CODE_PROJECT_DIR_NAME
// (facts §1.3 step 4): 1-64 of [A-Za-z0-9_-], not a Windows device name.
// Anything else is silently ignored by Claude Code, so by memtui too.
func validProjectDirName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' && s[i] != '_' {
			return false
		}
	}
	switch l := strings.ToLower(s); l {
	case "con", "prn", "aux", "nul":
		return false
	default:
		if len(l) == 4 && (strings.HasPrefix(l, "com") || strings.HasPrefix(l, "lpt")) && l[3] >= '0' && l[3] <= '9' {
			return false
		}
	}
	return true
}

// mustBeDir makes a user-given directory absolute and checks it, naming the
// flag and the path in the error.
func mustBeDir(flag, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", flag, p, err)
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s %s: no such directory", flag, abs)
	}
	if err != nil {
		return "", fmt.Errorf("%s %s: %v", flag, abs, UnwrapPathErr(err))
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s %s: not a directory", flag, abs)
	}
	return abs, nil
}

func explicitDirs(dirs []string) ([]string, error) {
	var out []string
	for _, m := range dirs {
		abs, err := mustBeDir("--memory-dir", m)
		if err != nil {
			return nil, err
		}
		out = append(out, abs)
	}
	return out, nil
}

// readSetting reads autoMemoryDirectory from a settings file (once: a
// file read for two scopes reports its problems once). nil when the file
// does not define it, or cannot be used (a problem then says why).
func (d *discoverer) readSetting(path string, sc scope, project string) *setting {
	if path == "" || !d.claimSettings(path) {
		return nil
	}
	v, prob := readSettings(path)
	if prob != nil {
		prob.Project = project
		d.addProblem(*prob)
		return nil
	}
	if !v.set {
		return nil
	}
	return &setting{sc: sc, source: path, line: v.line, value: v.value}
}

// shadowAbove names what decides the memory dir before local, project and
// user settings are read: a valid env override, else policy settings that
// define autoMemoryDirectory (even as "" or a value Claude Code rejects:
// the default dir then); "" when nothing.
func (d *discoverer) shadowAbove() string {
	switch {
	case d.envWins:
		return envMemoryOverride
	case d.policy != nil:
		return settingWhere(*d.policy)
	}
	return ""
}

func settingWhere(v setting) string { return v.sc.name() + " (" + v.source + ")" }

// globalOverrides judges policy and user settings (facts §1.1 row 2) and
// returns the pseudo-projects of the valid ones. Every valid override is
// listed, even one something higher shadows: the memories in it are real.
func (d *discoverer) globalOverrides(configs []configDir, defaultBase string) []*model.Project {
	var out []*model.Project
	if v := d.policy; v != nil {
		j := settingJudgement{defaultDir: defaultMemDir(defaultBase, ""), caveat: " for every project", home: d.opts.Home}
		if d.envWins {
			j.shadow = envMemoryOverride
		}
		for _, c := range configs {
			if u := d.users[c.dir]; u != nil {
				j.lower = append(j.lower, settingWhere(*u))
			}
		}
		if d.projectSet > 0 {
			j.lower = append(j.lower, fmt.Sprintf("the local or project settings of %d %s", d.projectSet, model.Plural(d.projectSet, "project", "projects")))
		}
		dir, prob := judgeSetting(*v, j)
		if prob != nil {
			d.addProblem(*prob)
		}
		if dir != "" {
			out = append(out, overrideProject("", dir))
		}
	}
	for _, c := range configs {
		v := d.users[c.dir]
		if v == nil {
			continue
		}
		j := settingJudgement{shadow: d.shadowAbove(), defaultDir: defaultMemDir(c.memBase(), ""),
			caveat: " for every project whose own local or project settings do not set it", home: d.opts.Home}
		dir, prob := judgeSetting(*v, j)
		if prob != nil {
			d.addProblem(*prob)
		}
		if dir != "" {
			out = append(out, overrideProject(c.dir, dir))
		}
	}
	return out
}

func overrideProject(configDir, dir string) *model.Project {
	dir = filepath.Clean(dir)
	p := &model.Project{ConfigDir: configDir, Slug: overrideSlugLabel + dir}
	addWithTeam(p, dir, model.DirOverride, dirState(dir) == present)
	return p
}

// projects discovers every project of one config dir, in parallel.
func (d *discoverer) projects(ctx context.Context, c configDir) ([]*model.Project, error) {
	slugSet := make(map[string]bool)
	for i, base := range c.bases { // bases[0] is the config dir itself
		names, err := subdirs(filepath.Join(base, "projects"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			if i == 0 {
				// The config dir's own projects/ is the whole point of
				// scanning it: failing to list it is worth stopping for.
				return nil, fmt.Errorf("cannot list %s: %v", filepath.Join(base, "projects"), UnwrapPathErr(err))
			}
			continue
		}
		for _, n := range names {
			slugSet[n] = true
		}
	}
	slugs := make([]string, 0, len(slugSet))
	for s := range slugSet {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)

	out := make([]*model.Project, len(slugs))
	pool.Run(ctx, len(slugs), d.opts.Workers, func(i int) { out[i] = d.project(c, slugs[i]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// project builds one project from its slug dir.
func (d *discoverer) project(c configDir, slug string) *model.Project {
	p := &model.Project{ConfigDir: c.dir, Slug: slug}
	tdir := filepath.Join(c.dir, "projects", slug)
	if fi, err := os.Stat(tdir); err == nil && fi.IsDir() {
		p.TranscriptDir = tdir
		td := listTranscripts(tdir)
		p.Sessions = td.sessions
		p.Root = confirmRoot(td.newest, slug, c.dirName != "" && slug == c.dirName)
	}
	for _, base := range c.bases {
		mem := filepath.Join(base, "projects", slug, MemoryDirName)
		if st := dirState(mem); st != absent {
			addWithTeam(p, mem, model.DirAuto, st == present)
		}
	}
	// A real path from another OS (a Windows cwd read on Linux or macOS,
	// transcripts §9.1) is shown, but names no folder here: its settings
	// and agent memory are not looked for, lest a relative path be read.
	if p.Root != "" && filepath.IsAbs(p.Root) {
		// Project and local settings live in the project (facts §1.1 row
		// 2). In 2.1.88 project scope was excluded; later versions honour
		// both, above user settings, once the workspace trust dialog is
		// accepted. memtui cannot see the trust state, so it reads both as
		// a trusted workspace would: the dirs hold memories either way, and
		// a problem about them says "in a trusted workspace".
		local := d.readSetting(filepath.Join(p.Root, ".claude", "settings.local.json"), scopeLocal, p.Name())
		proj := d.readSetting(filepath.Join(p.Root, ".claude", "settings.json"), scopeProject, p.Name())
		if local != nil || proj != nil {
			d.mu.Lock()
			d.projectSet++
			d.mu.Unlock()
		}
		user := d.users[c.dir]
		for _, v := range []*setting{local, proj} {
			if v == nil {
				continue
			}
			j := settingJudgement{shadow: d.shadowAbove(), defaultDir: defaultMemDir(c.memBase(), slug), home: d.opts.Home, base: p.Root}
			lower := []*setting{proj, user}
			if v == proj {
				lower = []*setting{user}
				if local != nil && j.shadow == "" {
					j.shadow = settingWhere(*local)
				}
			}
			for _, lo := range lower {
				if lo != nil {
					j.lower = append(j.lower, settingWhere(*lo))
				}
			}
			dir, bad := judgeSetting(*v, j)
			if bad != nil {
				bad.Project = p.Name()
				d.addProblem(*bad)
			}
			if dir != "" {
				dir = filepath.Clean(dir)
				n := len(p.Dirs)
				addWithTeam(p, dir, model.DirOverride, dirState(dir) == present)
				for _, m := range p.Dirs[n:] {
					m.Workspace = v.source // named by the repository, not the user
				}
			}
		}
		if d.opts.IncludeAgentMemory {
			addAgentDirs(p, filepath.Join(p.Root, ".claude", agentMemoryDir), model.DirAgentProject)
			addAgentDirs(p, filepath.Join(p.Root, ".claude", agentMemoryLocal), model.DirAgentLocal)
		}
	}
	if d.opts.IncludeAgentMemory {
		// With a remote memory dir, local-scope agent memory moves under
		// the project's slug there (facts §1.4, agent memory).
		for _, base := range c.bases[1:] {
			addAgentDirs(p, filepath.Join(base, "projects", slug, agentMemoryLocal), model.DirAgentLocal)
		}
	}
	return p
}

// explicitProject wraps a --memory-dir. When it sits where Claude Code puts
// memory (<config>/projects/<slug>/memory) its transcripts next door still
// tell the real path.
func explicitProject(dir string) *model.Project {
	p := &model.Project{}
	if filepath.Base(dir) == MemoryDirName {
		parent := filepath.Dir(dir)
		td := listTranscripts(parent)
		if td.sessions != nil || len(td.newest) > 0 {
			p.TranscriptDir = parent
			p.Sessions = td.sessions
			p.Root = confirmRoot(td.newest, filepath.Base(parent), false)
		}
	}
	addWithTeam(p, dir, model.DirExplicit, true)
	return p
}

// labelExplicit gives each --memory-dir project a short, unique Slug: the
// last two elements of its path ("-home-al-acme/memory", "notes/memory").
func labelExplicit(ps []*model.Project) {
	used := make(map[string]int)
	for _, p := range ps {
		if p.ConfigDir == "" && p.Slug == "" && len(p.Dirs) > 0 {
			dir := p.Dirs[0].Path
			label := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(dir)), filepath.Base(dir)))
			used[label]++
			if n := used[label]; n > 1 {
				label = fmt.Sprintf("%s#%d", label, n)
			}
			p.Slug = label
		}
	}
}

func (d *discoverer) matches(p *model.Project) bool {
	t := d.opts.Project
	return t == "" || strings.Contains(p.Slug, t) || (p.Root != "" && strings.Contains(p.Root, t))
}

// claimSettings reports whether path has not been read yet: with the project
// root at $HOME, <root>/.claude/settings.json is the user settings file, and
// a problem in it must be reported once.
func (d *discoverer) claimSettings(path string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seenSettings[path] {
		return false
	}
	d.seenSettings[path] = true
	return true
}

func (d *discoverer) addProblem(p model.ConfigProblem) {
	d.mu.Lock()
	d.problems = append(d.problems, p)
	d.mu.Unlock()
}

type presence int

const (
	absent  presence = iota // no such path
	present                 // a directory
	unknown                 // something is there, or the stat failed: let LoadDir say what
)

func dirState(p string) presence {
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		return present
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return absent
	}
	return unknown
}

// subdirs lists the names of the directories in dir (following symlinks to
// directories, as Claude Code's own listing would).
func subdirs(dir string) ([]string, error) {
	f, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	var out []string
	for _, e := range entries {
		if e.IsDir() || (e.Type()&fs.ModeSymlink != 0 && dirState(filepath.Join(dir, e.Name())) == present) {
			out = append(out, e.Name())
		}
	}
	return out, err
}

func addWithTeam(p *model.Project, dir string, kind model.DirKind, exists bool) {
	p.Dirs = append(p.Dirs, &model.MemoryDir{Path: dir, Kind: kind, Exists: exists})
	if exists {
		// Only a real directory: a symlinked team/ could lead anywhere, so
		// LoadDir of the parent follows it (as Claude Code's scan does),
		// reports it, and memtui never writes through it.
		team := filepath.Join(dir, TeamDirName)
		if fi, err := os.Lstat(team); err == nil && fi.IsDir() {
			p.Dirs = append(p.Dirs, &model.MemoryDir{Path: team, Kind: model.DirTeam, Exists: true})
		}
	}
}

func addAgentDirs(p *model.Project, parent string, kind model.DirKind) {
	names, _ := subdirs(parent)
	for _, n := range names {
		p.Dirs = append(p.Dirs, &model.MemoryDir{Path: filepath.Join(parent, n), Kind: kind, Agent: n, Exists: true})
	}
}

// dirRank orders owners of a memory dir reachable several ways: the most
// specific owner keeps it (lower is better).
func dirRank(p *model.Project, m *model.MemoryDir) int {
	switch m.Kind {
	case model.DirAuto:
		return 0
	case model.DirTeam:
		// A team dir goes with the dir it sits in.
		parent := filepath.Dir(m.Path)
		for _, o := range p.Dirs {
			if o != m && o.Kind != model.DirTeam && filepath.Clean(o.Path) == parent {
				return dirRank(p, o)
			}
		}
		return 1
	case model.DirAgentUser:
		return 2
	case model.DirOverride:
		if strings.HasPrefix(p.Slug, overrideSlugLabel) {
			return 3
		}
		return 5
	case model.DirAgentProject:
		return 6
	case model.DirAgentLocal:
		return 7
	}
	return 8
}

// dedupeDirs keeps each memory dir path once, under its best-ranked owner
// (ties: the earlier project in ps, which is a deterministic order).
func dedupeDirs(ps []*model.Project) []*model.Project {
	type ref struct {
		pi, di, rank int
	}
	var refs []ref
	for pi, p := range ps {
		for di, m := range p.Dirs {
			m.Path = filepath.Clean(m.Path)
			refs = append(refs, ref{pi, di, dirRank(p, m)})
		}
	}
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].rank < refs[j].rank })
	seen := make(map[string]bool)
	drop := make(map[[2]int]bool)
	for _, r := range refs {
		path := ps[r.pi].Dirs[r.di].Path
		if seen[path] {
			drop[[2]int{r.pi, r.di}] = true
			continue
		}
		seen[path] = true
	}
	for pi, p := range ps {
		kept := p.Dirs[:0]
		for di, m := range p.Dirs {
			if !drop[[2]int{pi, di}] {
				kept = append(kept, m)
			}
		}
		p.Dirs = kept
	}
	return ps
}

// sortDirs puts a project's dirs in a stable order: auto, override,
// explicit, then agent memory by scope and agent name (the DirKind order),
// each team dir right after the dir it sits in.
func sortDirs(ds []*model.MemoryDir) {
	type key struct {
		kind  model.DirKind
		agent string
		path  string
		team  bool
	}
	keys := make(map[*model.MemoryDir]key, len(ds))
	for _, d := range ds {
		k := key{d.Kind, d.Agent, d.Path, false}
		if d.Kind == model.DirTeam {
			parent := filepath.Dir(d.Path)
			for _, o := range ds {
				if o.Kind != model.DirTeam && o.Path == parent {
					k = key{o.Kind, o.Agent, o.Path, true}
				}
			}
		}
		keys[d] = k
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := keys[ds[i]], keys[ds[j]]
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		if a.agent != b.agent {
			return a.agent < b.agent
		}
		if a.path != b.path {
			return a.path < b.path
		}
		return !a.team && b.team
	})
}
