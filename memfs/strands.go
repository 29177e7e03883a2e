package memfs

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memtui/memtui/model"
)

// Stranded stores (facts §12.1; model/strand.go): an auto-memory dir is
// named after the folder its sessions were launched in, while Claude Code
// loads the one named after that folder's key root (KeyOf). Where the two
// differ, what the sessions wrote there is never read back. Strands finds
// those dirs and, where the disk proves it, the dir their memories belong
// in; it never guesses a target from a name.

// Bounds on what Strands reads, whatever the tree holds.
const (
	// maxWorktreeEntries caps the worktree registrations read per
	// repository (<common>/worktrees/*/gitdir).
	maxWorktreeEntries = 512
	// maxSameFiles caps the memory files of a moved store compared with
	// each live store, and sameNamed how many of the identical ones the
	// evidence names.
	maxSameFiles = 200
	sameNamed    = 5
	// minSameBytes: a file shorter than this proves nothing by being
	// identical (an empty or boilerplate memory could be anywhere).
	minSameBytes = 64
)

// autoStore is one project's auto-memory dir with what its sessions'
// launch folder keys to.
type autoStore struct {
	p        *model.Project
	d        *model.MemoryDir
	projects string // the projects/ folder d is in (<base>/projects)
	cwd      string
	key      Key
}

// strandScan is one run of Strands.
type strandScan struct {
	ctx  context.Context
	scan *model.Scan
	opts Options
	keys map[string]keyResult
	live []autoStore
	// regs maps a worktree's <folder>/.git, as a repository's
	// worktrees/<name>/gitdir names it, to the registration; built on
	// first use.
	regs map[string]registration
	// listings caches the top-level names of live memory dirs.
	listings map[string]map[string]bool
}

type keyResult struct {
	k   Key
	err error
}

// registration is a worktree a repository still lists.
type registration struct {
	file string // <common>/worktrees/<name>/gitdir
	root string // the key root of the repository that lists it
}

// Strands finds the auto-memory dirs of scan that no session Claude Code
// runs loads, for the projects whose launch folder the transcripts name
// (Project.Root, and each session's cwd when the project's Log is read):
// a dir is loaded when the key root of one of those folders names it. A
// project whose folder is unknown says nothing. A dir with no memory file
// and no MEMORY.md strands nothing and is left out. A moved folder is
// reported only when the folder above it is still there: a whole tree
// gone (a drive not mounted, a config dir copied from another machine)
// cannot be told from a moved one. The result is sorted by From.
func Strands(ctx context.Context, scan *model.Scan, opts Options) []model.Strand {
	if scan == nil {
		return nil
	}
	a := &strandScan{ctx: ctx, scan: scan, opts: opts.withDefaults(), keys: map[string]keyResult{}}
	var cands []autoStore
	for _, p := range scan.Projects {
		if ctx.Err() != nil {
			return nil
		}
		if p.ConfigDir == "" {
			continue // a --memory-dir: no key names it
		}
		cwds := launchFolders(p)
		for _, d := range p.Dirs {
			if d.Kind != model.DirAuto || !d.Exists || filepath.Base(d.Path) != MemoryDirName || filepath.Base(filepath.Dir(d.Path)) != p.Slug {
				continue
			}
			s := autoStore{p: p, d: d, projects: filepath.Dir(filepath.Dir(d.Path))}
			loaded, first := false, -1
			for i, c := range cwds {
				r := a.keyOf(c)
				if r.err != nil {
					continue
				}
				if first < 0 {
					first = i
				}
				if r.k.Kind != KeyMissing && SlugMatcher(r.k.Root)(p.Slug) {
					s.cwd, s.key, loaded = c, r.k, true
					break
				}
			}
			switch {
			case loaded:
				a.live = append(a.live, s)
			case first >= 0:
				s.cwd, s.key = cwds[first], a.keys[cwds[first]].k
				cands = append(cands, s)
			}
		}
	}
	var out []model.Strand
	for _, c := range cands {
		if ctx.Err() != nil {
			return nil
		}
		if st, ok := a.strand(c); ok {
			out = append(out, st)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// launchFolders are the folders p's sessions were launched in, as far as
// memtui knows: its confirmed Root, and the cwd of each session of its own
// folder when its transcripts have been read. Only a native absolute path
// whose slug is the project's counts: the slug is named after the launch
// folder (transcripts §1.3), so any other cwd is a later cd or another
// machine's path.
func launchFolders(p *model.Project) []string {
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		if c == "" || !filepath.IsAbs(c) {
			return
		}
		c = filepath.Clean(c)
		if seen[c] || !SlugMatcher(c)(p.Slug) {
			return
		}
		seen[c] = true
		out = append(out, c)
	}
	add(p.Root)
	if p.Log != nil {
		ids := make([]string, 0, len(p.Log.Sessions))
		for id := range p.Log.Sessions {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			if s := p.Log.Sessions[id]; s != nil && !s.OtherFolder {
				add(s.Cwd)
			}
		}
	}
	return out
}

func (a *strandScan) keyOf(dir string) keyResult {
	if r, ok := a.keys[dir]; ok {
		return r
	}
	k, err := keyIn(a.opts.Chroot, dir)
	r := keyResult{k, err}
	a.keys[dir] = r
	return r
}

// unchroot says k's paths as the transcripts name them: without root.
func unchroot(k *Key, root string) {
	root = filepath.Clean(root)
	cut := func(p string) string {
		if rest, ok := strings.CutPrefix(p, root); ok && (rest == "" || rest[0] == filepath.Separator) {
			if rest == "" {
				return string(filepath.Separator)
			}
			return rest
		}
		return p
	}
	k.Dir, k.Real, k.Root, k.Top, k.Common = cut(k.Dir), cut(k.Real), cut(k.Root), cut(k.Top), cut(k.Common)
	for i, e := range k.Evidence {
		k.Evidence[i] = strings.ReplaceAll(e, root+string(filepath.Separator), string(filepath.Separator))
	}
}

// strand makes the record for a store no launch folder of its project
// keys to, or says there is none to make.
func (a *strandScan) strand(c autoStore) (model.Strand, bool) {
	k := c.key
	st := model.Strand{From: c.d.Path, Project: c.p.Slug, Cwd: c.cwd}
	ran := "the sessions that wrote it ran in " + c.cwd
	// A copy: the key is cached and may serve another store.
	st.Evidence = slices.Clone(k.Evidence)
	switch {
	case k.Kind == KeyMissing && a.opts.Chroot != "":
		return st, false
	case k.Kind == KeyMissing:
		parent := filepath.Dir(c.cwd)
		if dirState(parent) != present {
			return st, false
		}
		st.Kind = model.StrandMoved
		st.Why = ran + ", which no longer exists"
		st.Evidence = append(st.Evidence, parent+" is still there")
	case k.Real != k.Dir:
		st.Kind = model.StrandMoved
		st.Root = k.Root
		st.Why = ran + ", which is now a link to " + k.Real + ": Claude Code resolves links when a session starts, so it keys the memory of sessions launched there by " + k.Root
	case k.Kind == KeyWorktree:
		st.Kind = model.StrandWorktree
		st.Root = k.Root
		where := "the git worktree " + k.Top
		if k.Top != k.Real {
			where = c.cwd + ", inside the git worktree " + k.Top
		}
		by := "its main checkout " + k.Root
		if filepath.Base(k.Common) != ".git" {
			by = "its bare repository " + k.Root
		}
		st.Why = "the sessions that wrote it ran in " + where + ", and Claude Code keys a worktree's memory by " + by
	case k.Kind == KeySubdir:
		st.Kind = model.StrandSubdir
		st.Root = k.Root
		st.Why = ran + ", a subdirectory of the repository " + k.Root + ", and Claude Code keys all of a repository's memory by its root"
	default:
		// The key names the folder itself, yet not this slug (two paths
		// that sanitize alike, a case-folded Windows path): nothing to say.
		return st, false
	}
	loaded := &model.MemoryDir{Path: c.d.Path, Kind: model.DirAuto, Exists: true}
	if err := LoadDir(a.ctx, loaded, a.opts); err != nil {
		return st, false
	}
	for _, f := range loaded.Files {
		if f.Scan.Memory() {
			st.Memories++
		}
	}
	st.Index = loaded.Index != nil
	if st.Memories == 0 && !st.Index {
		return st, false
	}
	if st.Kind == model.StrandMoved && st.Root == "" {
		a.movedTarget(c, loaded, &st)
	}
	if st.Root != "" {
		st.To, st.ToExists = a.storeFor(c, st.Root)
	}
	return st, true
}

// storeFor is the auto-memory dir Claude Code loads for root, in the same
// projects/ folder as c's: a project of the scan named after root, else
// the folder Claude Code would name (which may not exist yet).
func (a *strandScan) storeFor(c autoStore, root string) (path string, exists bool) {
	match := SlugMatcher(root)
	for _, p := range a.scan.Projects {
		if p.ConfigDir != c.p.ConfigDir || p == c.p || !match(p.Slug) {
			continue
		}
		for _, d := range p.Dirs {
			if d.Kind == model.DirAuto && filepath.Dir(filepath.Dir(d.Path)) == c.projects && filepath.Base(filepath.Dir(d.Path)) == p.Slug {
				return d.Path, d.Exists
			}
		}
	}
	path = filepath.Join(c.projects, projectSlug(root), MemoryDirName)
	return path, dirState(path) == present
}

// movedTarget looks for proof of where a moved project went on: a
// repository that still lists its folder as a worktree, or a live store
// holding some of its memory files byte for byte. Either sets st.Root
// and adds to its Why and Evidence; with neither, st stays targetless.
func (a *strandScan) movedTarget(c autoStore, loaded *model.MemoryDir, st *model.Strand) {
	if r, ok := a.registrations()[filepath.Join(c.cwd, ".git")]; ok {
		st.Root = r.root
		st.Why += "; git still lists " + c.cwd + " as a worktree of the repository at " + r.root + ", and Claude Code keys a worktree's memory by its main checkout"
		st.Evidence = append(st.Evidence, r.file+" still names "+filepath.Join(c.cwd, ".git"))
		return
	}
	var files []*model.File
	for _, f := range loaded.Files {
		if f.Scan.Memory() && !f.Truncated && f.Link == "" && len(f.Content) >= minSameBytes {
			files = append(files, f)
			if len(files) == maxSameFiles {
				break
			}
		}
	}
	if len(files) == 0 {
		return
	}
	var best []string
	var bestAt *autoStore
	tie := false
	for i := range a.live {
		l := &a.live[i]
		if l.projects != c.projects || l.p.ConfigDir != c.p.ConfigDir {
			continue
		}
		same := a.sameFiles(l.d.Path, files)
		switch {
		case len(same) == 0:
		case len(same) > len(best):
			best, bestAt, tie = same, l, false
		case len(same) == len(best):
			tie = true
		}
	}
	if bestAt == nil || tie {
		return
	}
	st.Root = bestAt.key.Root
	named := best
	if len(named) > sameNamed {
		named = append(append([]string(nil), best[:sameNamed]...), fmt.Sprintf("and %d more", len(best)-sameNamed))
	}
	st.Why += fmt.Sprintf("; the store of %s holds %d of its memory %s byte for byte (%s), so the project went on at %s",
		st.Root, len(best), model.Plural(len(best), "file", "files"), strings.Join(named, ", "), st.Root)
	for _, f := range best[:min(len(best), sameNamed)] {
		st.Evidence = append(st.Evidence, f+" is the same, byte for byte, in "+c.d.Path+" and "+bestAt.d.Path)
	}
}

// sameFiles lists the files of files that dir holds byte for byte at the
// same path, read through the safe reader under the file's own size.
func (a *strandScan) sameFiles(dir string, files []*model.File) []string {
	names := a.listing(dir)
	if len(names) == 0 {
		return nil
	}
	var out []string
	for _, f := range files {
		first, _, _ := strings.Cut(f.Path, "/")
		if !names[first] {
			continue
		}
		b, err := readIn(dir, f.Path, int64(len(f.Content)))
		if err == nil && bytes.Equal(b, f.Content) {
			out = append(out, f.Path)
		}
	}
	return out
}

// listing is the set of names at the top of dir, read once.
func (a *strandScan) listing(dir string) map[string]bool {
	if m, ok := a.listings[dir]; ok {
		return m
	}
	if a.listings == nil {
		a.listings = map[string]map[string]bool{}
	}
	ents, _ := ReadDir(dir)
	m := make(map[string]bool, len(ents))
	for _, e := range ents {
		m[e.Name()] = true
	}
	a.listings[dir] = m
	return m
}

// registrations are the worktrees every repository memtui met still
// lists: <common>/worktrees/<name>/gitdir names <folder>/.git. git keeps
// the entry of a worktree whose folder was deleted or moved by hand until
// `git worktree prune`, so the entry proves whose worktree it was.
func (a *strandScan) registrations() map[string]registration {
	if a.regs != nil {
		return a.regs
	}
	a.regs = map[string]registration{}
	seen := map[string]bool{}
	commons := make([]string, 0, len(a.keys))
	roots := map[string]string{}
	for _, r := range a.keys {
		if r.err == nil && r.k.Common != "" && !seen[r.k.Common] {
			seen[r.k.Common] = true
			commons = append(commons, r.k.Common)
			roots[r.k.Common] = r.k.Root
		}
	}
	sort.Strings(commons)
	for _, common := range commons {
		wts := filepath.Join(common, "worktrees")
		ents, err := ReadDir(wts)
		if err != nil {
			continue
		}
		for i, e := range ents {
			if i == maxWorktreeEntries {
				break
			}
			if !e.IsDir() {
				continue
			}
			file := filepath.Join(wts, e.Name(), "gitdir")
			b, err := readFile(file, gitFileMax, noFollow)
			if err != nil {
				continue
			}
			raw := strings.TrimSpace(string(b))
			if raw == "" || posixBackslash(raw) {
				continue
			}
			back := resolvePath(filepath.Dir(file), raw)
			if _, dup := a.regs[back]; !dup {
				a.regs[back] = registration{file: file, root: roots[common]}
			}
		}
	}
	return a.regs
}
