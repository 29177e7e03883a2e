// Package app is memtui's application core: what both faces, the CLI and
// the TUI, do with a tree of agent memory, written once. Open a Workspace
// (options, the demo's scratch tree, discovery, memtui's state dirs and
// config file, crash recovery of an interrupted write); then read
// transcripts, load directories, propose (memtui's proposers or an
// external command), apply and undo under the write scope, and keep review
// baselines, all through it.
//
// app does I/O only through memfs and computes only through consolidate
// and model; it never prints to a terminal (what it has to say goes to the
// Notes writer, made safe) and never imports Bubble Tea.
package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/snapshot"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Options are what the user asked for: where to look, what "today" is,
// and what memtui must not do.
type Options struct {
	ConfigDirs []string // --config-dir
	MemoryDirs []string // --memory-dir
	Project    string   // --project
	// CodexHomes are Codex homes to read (--codex-home, repeatable); none
	// means $CODEX_HOME, else ~/.codex, when it exists and no
	// --config-dir or --memory-dir narrowed where memtui looks.
	CodexHomes []string
	// MemoryRoots are other agents' Claude-format stores to read
	// (--memory-root "[AGENT=]DIR", repeatable; see memroot.go). Like
	// --memory-dir they narrow where memtui looks: with them alone,
	// neither ~/.claude nor ~/.codex is read.
	MemoryRoots []string
	// Agent is whose memory is read (--agent): "" all, AgentClaude,
	// AgentCodex or AgentOther (the --memory-root stores).
	Agent string
	// Demo opens a scratch copy of the embedded sample instead.
	Demo bool
	// ReadOnly writes nothing at all: no journal upkeep, no baselines.
	ReadOnly bool
	// NoTranscripts leaves the session transcripts unread.
	NoTranscripts bool
	// Now pins "today" (RFC3339 or a date); "" is the wall clock.
	Now    string
	Getenv func(string) string
	// Notes receives what the workspace has to say as it opens and works
	// (a write rolled back, a config file ignored, transcripts that could
	// not be read), one safe line each; nil discards it.
	Notes io.Writer
}

// Workspace is one opened tree: the projects discovered and everything a
// command or the TUI needs to read, check and write them.
type Workspace struct {
	// Now is "today" for the checks; Pinned says --now fixed it.
	Now    time.Time
	Pinned bool
	// Scan is the tree discovered (directories not loaded yet): Claude
	// Code's memory, empty with --agent codex.
	Scan *model.Scan
	// Agent is whose memory is read, as ParseAgent checked it.
	Agent string
	// CodexHomes are the Codex homes whose stores are read (absolute,
	// canonical), as OpenState settled them: --codex-home's, else the
	// default one when it exists; none with --agent claude.
	CodexHomes []string
	// Codex are the Codex stores Open read, one per CodexHomes entry.
	Codex []*codex.Store
	// MemoryRoots are the --memory-root folders (canonical, labelled), as
	// OpenState settled them; their stores join Scan as projects whose
	// Agent is the label (Discover).
	MemoryRoots []memfs.MemoryRoot
	// ScanOpts say how the tree was found and how it is read.
	ScanOpts memfs.Options
	// CheckOpts are the checks' options, memtui's config file applied.
	CheckOpts consolidate.Options
	// State is memtui's own journal, review baselines and cache.
	State memfs.StateDirs
	// ReadOnly and NoTranscripts are as asked in Options.
	ReadOnly, NoTranscripts bool
	// Scratch says the tree and the state are a copy Close removes (the
	// demo's): nothing decided in it outlives the run.
	Scratch bool
	// Retention is how long the journal keeps an entry (the config
	// file's journal_retention_days, else memfs's default).
	Retention time.Duration
	// Theme is the config file's theme: memfs.ThemeDark or ThemeLight,
	// or "" when it names none (or one memtui does not know, with a note).
	// --theme and MEMTUI_THEME, the faces' to read, win over it.
	Theme memfs.Theme
	// Keys are the TUI's bindings with the config file's keys applied;
	// each entry that could not be was noted and left out. A workspace
	// built by hand has the zero KeyMap: the TUI then uses the defaults.
	Keys keymap.KeyMap
	// Transcripts, when set, reads a project's transcripts in place of
	// memfs (a caller with its own source: tests replaying a log).
	Transcripts TranscriptReader

	notes   io.Writer
	cleanup []func()
	// opts are the options it was opened with (Empty's advice names them).
	opts Options
	// reviews are the demo's reviews that predate its sessions, by
	// memory dir path, each recorded as the dir's baseline the first time
	// it is opened (see OpenBaseline). Commands and Cmds open baselines
	// from goroutines, so reviewMu guards the map.
	reviewMu sync.Mutex
	reviews  map[string]demo.Review
	// snapRecords keeps the snapshot records read (they never change):
	// every load of a directory asks its snapshots for the texts of its
	// memories gone from disk.
	snapRecords snapshot.RecordCache
	// load stands in for memfs.LoadDir in tests of a load that fails.
	load func(context.Context, *model.MemoryDir) error
}

// Advice is an error of several lines of memtui's own advice, whose quoted
// parts were made safe when it was built: it may be shown as it is.
type Advice string

func (e Advice) Error() string { return string(e) }

// Open discovers the tree and gets memtui's state ready: a run that died
// half-way through writing is rolled back before anything reads the tree,
// memtui's config file is applied, and (unless ReadOnly) the state dirs
// are made owner-only and the journal trimmed to its retention. A machine
// with no Claude Code memory gets Advice. Close the workspace when done.
func Open(ctx context.Context, o Options) (*Workspace, error) {
	w, err := OpenState(o)
	if err != nil {
		return nil, err
	}
	w.Scan, err = w.Discover(ctx)
	if err != nil {
		w.Close()
		return nil, err
	}
	w.Codex, err = w.LoadCodex(ctx)
	if err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Empty(w.Scan); err != nil {
		w.Close()
		return nil, err
	}
	w.Upkeep()
	return w, nil
}

// Empty is the advice for a scan that found no memory at all (no
// project, no configuration to report, and no Codex home): nil when it
// found some. A face that discovers on its own (the TUI, while it
// starts) asks it of its first scan, as Open does.
func (w *Workspace) Empty(scan *model.Scan) error {
	if scan == nil || len(scan.Projects) > 0 || len(scan.Config) > 0 || len(w.CodexHomes) > 0 {
		return nil
	}
	return noMemory(w.opts, w.ScanOpts, w.MemoryRoots)
}

// Upkeep keeps memtui's own state as it should be (unless ReadOnly):
// its copies of memory text owner-only, the journal no longer than its
// retention says. Open does it; a face that opens with OpenState and
// discovers on its own calls it.
func (w *Workspace) Upkeep() {
	if w.ReadOnly {
		return
	}
	for _, n := range memfs.TightenState(w.State) {
		w.note("memtui: %s", n)
	}
	w.EnforceRetention(w.Retention)
}

// Discover finds the workspace's projects and memory directories again,
// as Open did (a refresh). It returns a new scan and leaves Scan as it is:
// a face that refreshes (the TUI) keeps the scan it shows, and a
// goroutine discovering must not change what the other one reads.
// The scan comes with its stranded stores (memfs.Strands): the memory
// dirs no session Claude Code runs loads, found from the projects' real
// paths, which the checks report on both stores.
//
// With --agent codex or other, Claude Code's memory is left out: nothing
// of Claude Code's is read, and so it is when --memory-root alone says
// where to look. The stores of the --memory-root folders join the scan
// as projects of their own (RootProjects).
func (w *Workspace) Discover(ctx context.Context) (*model.Scan, error) {
	if w.Agent == AgentCodex {
		return &model.Scan{}, nil
	}
	scan := &model.Scan{}
	o := w.ScanOpts
	if w.Agent != AgentOther && (len(w.MemoryRoots) == 0 || len(o.ConfigDirs) > 0 || len(o.MemoryDirs) > 0) {
		var err error
		if scan, err = memfs.Discover(ctx, o); err != nil {
			return nil, err
		}
		scan.Strands = memfs.Strands(ctx, scan, o)
	}
	roots, empty, err := w.rootProjects(ctx)
	if err != nil {
		return nil, err
	}
	scan = withRoots(scan, roots)
	if len(scan.Projects) > 0 {
		w.noteEmptyRoots(empty) // else Empty's advice says it
	}
	return scan, nil
}

// OpenState gets memtui's own state ready without discovering the tree
// (the journal commands need no more): the demo's scratch copy, the state
// dirs, crash recovery, and memtui's config file.
func OpenState(o Options) (*Workspace, error) {
	now, err := ParseNow(o.Now)
	if err != nil {
		return nil, err
	}
	agent, err := ParseAgent(o.Agent)
	if err != nil {
		return nil, err
	}
	w := &Workspace{Agent: agent, Now: now, Pinned: o.Now != "", ReadOnly: o.ReadOnly, NoTranscripts: o.NoTranscripts, notes: o.Notes, opts: o}
	if w.notes == nil {
		w.notes = io.Discard
	}
	if err := w.scanOptions(o); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.codexHomes(o); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.memoryRoots(o); err != nil {
		w.Close()
		return nil, err
	}
	w.CheckOpts = consolidate.Options{Now: now, Paths: &memfs.PathProbe{}}
	if o.Demo && len(w.ScanOpts.ConfigDirs) == 1 {
		// The demo never writes into the user's own state.
		w.State = memfs.ScratchStateDirs(w.ScanOpts.ConfigDirs[0])
		w.Scratch = true
		if err := w.RecordDemoSnapshots(w.ScanOpts.ConfigDirs[0]); err != nil {
			w.note("memtui: the demo's snapshots: %s", err.Error())
		}
	} else {
		w.State = memfs.DefaultStateDirs(o.Getenv)
	}
	// A run that died half-way through writing (a crash, a kill) is
	// rolled back before anything reads the tree.
	w.recoverJournal()
	w.recoverCodex()
	w.Retention = memfs.DefaultJournalRetention
	w.Keys = keymap.Default()
	path := memfs.DefaultConfigPath(w.ScanOpts.Getenv)
	if cfg, err := memfs.LoadConfig(path); err != nil {
		w.note("memtui: ignoring the config file: %s", err.Error())
	} else {
		w.applyLooks(path, cfg)
		for _, ig := range cfg.Ignore {
			w.CheckOpts.Ignore = append(w.CheckOpts.Ignore, consolidate.IgnoreRule{Project: ig.Project, Rules: ig.Rules})
		}
		if cfg.StaleAfterDays > 0 {
			w.CheckOpts.StaleAfter = time.Duration(cfg.StaleAfterDays) * 24 * time.Hour
		}
		w.Retention = cfg.JournalRetention()
	}
	return w, nil
}

// maxKeyNotes bounds what a config file's keys may make memtui say: a
// file of a thousand bad entries gets a few lines and a count, not a
// screenful per run.
const maxKeyNotes = 10

// applyLooks takes the config file's theme and keys (a wrong entry is a
// note; the rest applies).
func (w *Workspace) applyLooks(path string, cfg memfs.Config) {
	for _, n := range cfg.Notes {
		w.note("memtui: config %s: %s", path, n)
	}
	w.Theme = cfg.Theme
	if len(cfg.Keys) == 0 {
		return
	}
	ovs := make([]keymap.Override, len(cfg.Keys))
	for i, kb := range cfg.Keys {
		ovs[i] = keymap.Override{Name: kb.Name, Keys: kb.Keys, Line: kb.Line}
	}
	var probs []keymap.Problem
	w.Keys, probs = w.Keys.With(ovs)
	for i, p := range probs {
		if i == maxKeyNotes {
			w.note("memtui: config %s: %d more keys entries ignored", path, len(probs)-i)
			break
		}
		w.note("memtui: config %s: line %d: %s", path, p.Override.Line, p.Text)
	}
}

// Close removes what the workspace made for itself (the demo's scratch
// tree). It is safe to call more than once.
func (w *Workspace) Close() {
	for _, f := range w.cleanup {
		f()
	}
	w.cleanup = nil
}

// note writes one line to Notes, made safe (paths and errors quote disk).
func (w *Workspace) note(format string, args ...any) {
	if w.notes == nil {
		return // a workspace built by hand (tests, benchmarks) says nothing
	}
	fmt.Fprintln(w.notes, safe.ShowLine(fmt.Sprintf(format, args...)))
}

// ParseNow reads --now: RFC3339 or a date; "" is the wall clock.
func ParseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Now(), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid --now %q: want RFC3339 (2026-11-21T09:00:00Z) or a date (2026-11-21)", s)
}

// scanOptions turns the options into memfs's, copying the demo tree first
// when asked.
func (w *Workspace) scanOptions(o Options) error {
	w.ScanOpts = memfs.Options{
		ConfigDirs:         o.ConfigDirs,
		MemoryDirs:         o.MemoryDirs,
		Project:            o.Project,
		Getenv:             o.Getenv,
		IncludeAgentMemory: true,
	}
	// HOME comes through Getenv too, so tests (and wrappers) can move it.
	if h := o.Getenv("HOME"); h != "" {
		w.ScanOpts.Home = h
	}
	if !o.Demo {
		return nil
	}
	dir, err := os.MkdirTemp("", "memtui-demo-")
	if err != nil {
		return fmt.Errorf("cannot set up the demo: %w", err)
	}
	// The copy is scratch: writes go there, and it goes when memtui exits.
	w.cleanup = append(w.cleanup, func() { os.RemoveAll(dir) })
	if err := memfs.CopyTree(demo.FS(), dir); err != nil {
		return fmt.Errorf("cannot copy the demo sample: %w", err)
	}
	// Its Codex store's git baseline (go:embed keeps no .git).
	if err := demo.CodexBaseline(dir); err != nil {
		return fmt.Errorf("cannot set up the demo's Codex store: %w", err)
	}
	// And its databases (go:embed holds text, not Codex's SQLite files).
	if err := demo.CodexDatabases(dir); err != nil {
		return fmt.Errorf("cannot set up the demo's Codex databases: %w", err)
	}
	// The folders the demo's transcripts name, with their git metadata:
	// where its stranded worktree store comes from.
	repos := filepath.Join(dir, demo.ReposDir)
	if err := memfs.CopyTree(demo.Repos(), repos); err != nil {
		return fmt.Errorf("cannot set up the demo's repositories: %w", err)
	}
	if real, err := filepath.EvalSymlinks(repos); err == nil {
		repos = real
	}
	w.ScanOpts.Chroot = repos
	w.note("memtui: demo tree copied to %s (any writes go there; removed on exit)", dir)
	rs, err := demo.Reviewed()
	if err != nil {
		return err
	}
	w.reviews = make(map[string]demo.Review, len(rs))
	for _, r := range rs {
		w.reviews[filepath.Join(dir, filepath.FromSlash(r.Dir))] = r
	}
	// The demo is hermetic: none of the user's own Claude Code environment
	// (overrides, remote dirs, stores) may leak into it.
	w.ScanOpts.ConfigDirs = []string{dir}
	w.ScanOpts.MemoryDirs = nil
	w.ScanOpts.Getenv = demo.Getenv(o.Getenv)
	w.ScanOpts.Home = dir
	// No policy file either: a path inside the demo that does not exist.
	w.ScanOpts.ManagedSettings = filepath.Join(dir, "managed-settings.json")
	return nil
}

// noMemory explains an empty scan, pointing a new user at --demo (or,
// with --agent codex, at --codex-home; with --memory-root alone, at what
// a memory folder is).
func noMemory(o Options, opts memfs.Options, roots []memfs.MemoryRoot) error {
	if len(roots) > 0 && (o.Agent == AgentOther || (len(opts.ConfigDirs) == 0 && len(opts.MemoryDirs) == 0)) {
		if o.Project != "" {
			return fmt.Errorf("no store matches --project %q.", o.Project)
		}
		dirs := make([]string, len(roots))
		for i, r := range roots {
			dirs[i] = r.Dir
		}
		return Advice(fmt.Sprintf("no memory folder found under %s.\n"+
			"--memory-root looks for folders holding MEMORY.md (and Qwen Code's projects/<project>/memory), at most %d levels down;\n"+
			"point it at one, or at the folder they sit under: ~/.qwen for Qwen Code, ~/.openhands for OpenHands",
			safe.ShowLine(strings.Join(dirs, ", ")), memfs.MaxRootDepth))
	}
	if o.Agent == AgentCodex {
		where, _ := memfs.CodexHome(opts.Getenv, opts.Home)
		return Advice(fmt.Sprintf("no Codex home found at %s.\n"+
			"Codex keeps its memory under $CODEX_HOME/memories (by default ~/.codex/memories);\n"+
			"point memtui at a Codex home with --codex-home DIR",
			safe.ShowLine(where)))
	}
	where := "~/.claude"
	switch {
	case len(opts.ConfigDirs) > 0:
		where = strings.Join(opts.ConfigDirs, ", ")
	case o.Getenv("CLAUDE_CONFIG_DIR") != "":
		where = o.Getenv("CLAUDE_CONFIG_DIR") + " ($CLAUDE_CONFIG_DIR)"
	}
	if o.Project != "" {
		return fmt.Errorf("no project matches --project %q.", o.Project)
	}
	return Advice(fmt.Sprintf("no Claude Code memory found in %s.\n"+
		"Claude Code keeps memory under <config>/projects/<project>/memory/; point memtui at it with --config-dir or --memory-dir,\n"+
		"or see memtui on a sample first: memtui --demo", safe.ShowLine(where)))
}

// recoverJournal finishes or rolls back what an interrupted run left, and
// says so in Notes, file by file.
func (w *Workspace) recoverJournal() {
	reports, err := txn.Recover(w.State.Journal)
	if err != nil {
		w.note("memtui: could not check the journal %s: %s", w.State.Journal, err.Error())
		return
	}
	for _, r := range reports {
		msg := fmt.Sprintf("memtui: an interrupted write (journal %s, %s) was %s", r.ID, r.MemoryDir, r.Action)
		if r.Err != nil {
			msg += ": " + r.Err.Error()
		}
		w.note("%s", msg)
		// What was put back, and what was left as someone else changed
		// it since (with where its bytes are kept).
		for _, f := range r.Files {
			fmt.Fprintf(w.notes, "  %s: %s\n", safe.ShowLine(f.Path), safe.ShowLine(f.Outcome))
		}
		for _, n := range r.Notes {
			if !noteShown(r.Files, n) {
				fmt.Fprintln(w.notes, "  "+safe.ShowLine(n))
			}
		}
	}
}

// noteShown reports whether a recovery note is already part of a file's
// outcome.
func noteShown(fs []txn.RecoverFile, n string) bool {
	for _, f := range fs {
		if strings.Contains(f.Outcome, n) {
			return true
		}
	}
	return false
}

// EnforceRetention drops the journal entries older than the retention, at
// the start of a run that may write, and says in Notes what went.
func (w *Workspace) EnforceRetention(retention time.Duration) {
	dropped, err := txn.PruneJournal(w.State.Journal, time.Now().Add(-retention), false)
	if err != nil {
		w.note("memtui: pruning the journal %s: %s", w.State.Journal, err.Error())
	}
	if len(dropped) == 0 {
		return
	}
	files, bytes := PrunedTotals(dropped)
	fmt.Fprintf(w.notes, "memtui: the journal keeps entries %d days (journal_retention_days); dropped %d older %s (%d %s, %s):\n",
		int(retention.Hours()/24), len(dropped), model.Plural(len(dropped), "entry", "entries"), files, model.Plural(files, "file", "files"), SizeWords(bytes))
	for _, l := range PrunedLines(dropped, "dropped") {
		fmt.Fprintln(w.notes, l)
	}
}

// PrunedLines are journal entries dropped (or that would be), one line
// each, made safe: verb, ID, time, kind, title, memory dir, files, size.
func PrunedLines(es []txn.PrunedEntry, verb string) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, fmt.Sprintf("%s %s  %s  %-16s %s  (%s): %d %s, %s", verb, e.ID, e.Time.Local().Format("2006-01-02 15:04"), safe.ShowLine(e.Kind), safe.ShowLine(e.Title),
			safe.ShowLine(e.MemoryDir), e.Files, model.Plural(e.Files, "file", "files"), SizeWords(e.Bytes)))
	}
	return out
}

// PrunedTotals are the files and bytes of the entries.
func PrunedTotals(es []txn.PrunedEntry) (files int, bytes int64) {
	for _, e := range es {
		files += e.Files
		bytes += e.Bytes
	}
	return files, bytes
}

// SizeWords is a byte count for people, exact below a KiB.
func SizeWords(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d %s", n, model.Plural(int(n), "byte", "bytes"))
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
