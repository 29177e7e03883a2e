package memfs

// Codex's memory store on disk (issue 17): where $CODEX_HOME is, and its
// memories/ folder and config.toml as read. Facts cited as "codex facts
// §N" are the sections of docs/codex-memory-format.md. Reading changes
// nothing: the walk lists folders and the files are read through the safe
// reader; nothing is created, not even under $CODEX_HOME, where every
// file would enter Codex's next consolidation diff (codex facts §4.4).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// envCodexHome names Codex's home, as Codex reads it (codex facts §1.1).
const envCodexHome = "CODEX_HOME"

// CodexMemoriesDir and CodexConfigFile are the memory root and the
// config file inside $CODEX_HOME (codex facts §1.1, §3.1).
const (
	CodexMemoriesDir = "memories"
	CodexConfigFile  = "config.toml"
)

// maxCodexConfigBytes caps the read of config.toml: real ones are a few
// KB; a megabyte keeps a stray huge file from costing memory.
const maxCodexConfigBytes int64 = 1 << 20

// The walk's bounds. Codex's store holds a few hundred files at most (256
// rollout summaries by default, 4096 at the clamp, codex facts §3.1) and
// nests three folders deep; past these bounds the tree is not one Codex
// wrote, and memtui stops rather than list it all.
const (
	maxCodexEntries = 20000
	maxCodexDepth   = 16
)

// CodexHome is the Codex home Codex itself would use (codex facts §1.1):
// $CODEX_HOME when set and not empty, else <home>/.codex, made absolute
// and canonical (symlinks resolved, as Codex canonicalizes it). ok says
// it exists and is a directory; when it is not, the path is still
// returned (unresolved) for a message to name. A CODEX_HOME that is not
// there does not fall back to ~/.codex: Codex errors out instead. getenv
// nil means os.Getenv; home "" means os.UserHomeDir().
func CodexHome(getenv func(string) string, home string) (string, bool) {
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := getenv(envCodexHome)
	if dir == "" {
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return "", false
			}
			home = h
		}
		dir = filepath.Join(home, ".codex")
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return dir, false
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return dir, false
	}
	return real, true
}

// CodexHomeDir checks a Codex home the user named (--codex-home): it must
// be a directory, as --config-dir's must (the same usage error naming the
// flag and the path otherwise). It is returned absolute and canonical, as
// CodexHome returns the default.
func CodexHomeDir(p string) (string, error) {
	abs, err := mustBeDir("--codex-home", p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("--codex-home %s: %v", abs, UnwrapPathErr(err))
	}
	return real, nil
}

// LoadCodex reads the Codex store whose home is home: config.toml's
// memory settings, and every file under memories/ as Codex's
// consolidation diff sees them (codex facts §1.2, §4.3).
//
// The rules, and why:
//   - every regular file is read, dotfiles and files Codex never writes
//     included (a foreign file enters the next diff as an addition);
//     anything under a .git folder, at any depth, is skipped, as Codex's
//     diff skips it (Store.Git says the root holds Codex's baseline);
//   - no symlink is followed: each is recorded in Store.Links (Codex
//     deletes every one at its next run), and a memories/ that is itself
//     a symlink is a problem with nothing under it read (Codex refuses
//     such a root and skips its memory pipeline);
//   - folders are listed without following a link (one swapped in since
//     its parent was listed is refused), files read with LoadDir's reader
//     (regular files only, opened without following a link or blocking
//     on a FIFO); a FIFO, socket or device is ProblemNotFile, a file that
//     vanished or cannot be read ProblemUnreadable, as LoadDir reports
//     them;
//   - a file bigger than the cap is read up to it: Truncated plus
//     ProblemTooLarge. The cap is MaxFileBytes, but MaxIndexBytes for
//     MEMORY.md and raw_memories.md, which Codex lets grow to hundreds of
//     KB and past a megabyte (codex facts §1.3.2);
//   - the walk stops past maxCodexEntries entries or maxCodexDepth
//     folders, with one problem each.
//
// A missing config.toml is read as Codex reads one: the defaults, with
// the memory feature off (ConfigFound false, ConfigProblems saying so).
// The error is non-nil only when ctx is cancelled; an absent memories/ is
// Exists false.
func LoadCodex(ctx context.Context, home string, opts Options) (*codex.Store, error) {
	opts = opts.withDefaults()
	s := &codex.Store{
		Home:       home,
		Root:       filepath.Join(home, CodexMemoriesDir),
		ConfigPath: filepath.Join(home, CodexConfigFile),
	}
	loadCodexConfig(s)
	cl := &codexLoad{ctx: ctx, s: s, caps: readCaps{file: opts.MaxFileBytes, index: opts.MaxIndexBytes}}
	cl.load()
	cl.readAll(opts.Workers)
	loadCodexState(ctx, s, opts)
	if s.Exists {
		s.Baseline = LoadCodexBaseline(ctx, s.Root)
		s.Baseline.WorkPartial = cl.full || cl.deep
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	codexCwds(s, opts)
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	sort.Strings(s.Links)
	sort.SliceStable(s.Problems, func(i, j int) bool {
		a, b := s.Problems[i], s.Problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Kind < b.Kind
	})
	return s, nil
}

// loadCodexConfig reads config.toml, following a symlink as Codex does (a
// config kept in a dotfiles repository), and parses its memory settings.
func loadCodexConfig(s *codex.Store) {
	content, err := readFile(s.ConfigPath, maxCodexConfigBytes, followLinks)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// No file is Codex's defaults, the feature off among them.
		s.Config, s.ConfigProblems = codex.ParseConfig(nil)
	case err != nil:
		s.Config, _ = codex.ParseConfig(nil)
		s.ConfigProblems = []codex.Problem{{What: "config.toml not read: " + errText(err)}}
	default:
		s.ConfigFound = true
		s.Config, s.ConfigProblems = codex.ParseConfig(content)
	}
}

// codexLoad is the state of one store being read.
type codexLoad struct {
	ctx  context.Context
	s    *codex.Store
	caps readCaps
	// jobs are the regular files listed, to read once the walk is done.
	jobs []readJob
	// entries counts what the walk listed; full and deep say each bound
	// was hit (and reported once).
	entries    int
	full, deep bool
}

func (cl *codexLoad) problem(rel string, kind model.ProblemKind, detail string) {
	cl.s.Problems = append(cl.s.Problems, model.Problem{Path: rel, Kind: kind, Detail: detail})
}

// load checks the root (it must be a real directory: Codex refuses a
// symlinked one) and walks it.
func (cl *codexLoad) load() {
	root := cl.s.Root
	fi, err := os.Lstat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return
	case err != nil:
		cl.problem("", model.ProblemUnreadable, errText(err))
		return
	case fi.Mode()&fs.ModeSymlink != 0:
		cl.problem("", model.ProblemLinkSkipped, "memories/ is a symlink: Codex refuses such a memory root (\"memory root cannot be a symbolic link\") and skips its memory pipeline; memtui reads nothing through it")
		return
	case !fi.IsDir():
		cl.problem("", model.ProblemNotFile, "memories/ is a "+model.FileKind(fi.Mode())+", not a directory")
		return
	}
	cl.s.Exists = true
	if gi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && gi.IsDir() {
		cl.s.Git = true
	}
	cl.walk("", root, 0)
}

// walk lists the folder abs (rel below the root, "" for the root): its
// files become jobs to read, then its folders are walked, in name order.
func (cl *codexLoad) walk(rel, abs string, depth int) {
	if cl.ctx.Err() != nil || cl.full {
		return
	}
	if depth > maxCodexDepth {
		if !cl.deep {
			cl.deep = true
			cl.problem(rel, model.ProblemUnreadable, fmt.Sprintf("nested more than %d folders deep; memtui reads no further (Codex's store nests three)", maxCodexDepth))
		}
		return
	}
	f, err := openDirNoFollow(abs)
	if err != nil {
		cl.problem(rel, codexProblemKind(err), errText(err))
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		// Keep what was listed before the error.
		cl.problem(rel, model.ProblemUnreadable, errText(err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	type subdir struct{ rel, abs string }
	var subdirs []subdir
	for _, e := range entries {
		if cl.entries++; cl.entries > maxCodexEntries {
			cl.full = true
			cl.problem(rel, model.ProblemUnreadable, fmt.Sprintf("the store holds more than %d files and folders; memtui stopped listing it here (Codex writes a few hundred)", maxCodexEntries))
			return
		}
		name := e.Name()
		erel := joinRel(rel, name)
		t := e.Type()
		switch {
		case name == ".git":
			// Codex's baseline (or a repository someone put inside):
			// its diff skips .git at any depth, and so does memtui.
		case t&fs.ModeSymlink != 0:
			cl.s.Links = append(cl.s.Links, erel)
		case t.IsDir():
			subdirs = append(subdirs, subdir{erel, filepath.Join(abs, name)})
		case t.IsRegular():
			cl.jobs = append(cl.jobs, readJob{rel: erel, scanRel: erel, dir: abs, name: name, index: isCodexIndex(erel)})
		default:
			// A FIFO, socket or device: never opened, so never waited on.
			cl.problem(erel, model.ProblemNotFile, "a "+model.FileKind(t)+", not a regular file; not read")
		}
		if cl.ctx.Err() != nil {
			return
		}
	}
	for _, sd := range subdirs {
		cl.walk(sd.rel, sd.abs, depth+1)
	}
}

// isCodexIndex says the file at rel is one of the two Codex lets grow
// past a megabyte: read under the index's cap.
func isCodexIndex(rel string) bool { return rel == codex.HandbookFile || rel == codex.RawFile }

// readAll reads the files the walk listed with LoadDir's reader (the
// folder opened once per chunk and no symlink followed in it, FIFOs
// refused without blocking, each file read up to its cap), on the one
// pool.
func (cl *codexLoad) readAll(workers int) {
	var chunks [][]readJob
	jobs := cl.jobs
	for len(jobs) > 0 {
		n := 1
		for n < len(jobs) && n < chunkSize && jobs[n].dir == jobs[0].dir {
			n++
		}
		chunks = append(chunks, jobs[:n:n])
		jobs = jobs[n:]
	}
	pool.Run(cl.ctx, len(chunks), workers, func(i int) { readChunk(chunks[i], cl.caps) })
	if cl.ctx.Err() != nil {
		return
	}
	for i := range cl.jobs {
		j := &cl.jobs[i]
		if j.prob != nil {
			cl.s.Problems = append(cl.s.Problems, *j.prob)
		}
		if j.ok {
			cl.s.Files = append(cl.s.Files, &j.file)
		}
	}
}

// codexProblemKind is the problem a refused or failed open makes: a link
// not followed, something that is not a file, or unreadable.
func codexProblemKind(err error) model.ProblemKind {
	switch {
	case errors.Is(err, errSymlink):
		return model.ProblemLinkSkipped
	case errors.Is(err, errNotRegular):
		return model.ProblemNotFile
	}
	return model.ProblemUnreadable
}
