package memfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// maxDepth bounds recursion below a memory dir. Claude Code's scan has no
// depth cap (facts §4.1) and, as each folder is entered once, a tree cannot
// loop; this only guards against a pathological tree.
const maxDepth = 64

// errNotRegular marks a path that is not a regular file (a FIFO, socket or
// device would hang or stream forever if read).
var errNotRegular = errors.New("not a regular file")

// testHookBeforeRead, when non-nil, runs just before a file (or, on Linux,
// the directory of a chunk of files) is opened. Tests use it to delete a
// file between readdir and open, the race a live memory dir produces
// whenever an agent prunes a memory during a scan.
var testHookBeforeRead func(path string)

// fileData is one regular file as read.
type fileData struct {
	content   []byte
	size      int64
	mod       time.Time
	perm      uint32
	nlink     uint64
	truncated bool
	tail      *model.IndexTail // the rest counted, for a subagent's index read in part
}

// maxTailCount bounds how much of a subagent's index past the read cap is
// counted: Claude Code would load all of it, but a file this big is an
// attack, not an index, and memtui's time stays bounded. Past it the
// counts are of the first maxTailCount bytes of the rest (lower bounds).
const maxTailCount = 256 << 20

// countTail counts the rest of a subagent's index read in part (head),
// from where the read stopped (rest), as Claude Code measures it. nil
// when the rest cannot be read: the counts are then of head alone.
func countTail(head []byte, rest io.Reader) *model.IndexTail {
	cut := claude.IndexHeadCut(head)
	t, err := claude.CountIndexTail(io.MultiReader(bytes.NewReader(head[cut:]), io.LimitReader(rest, maxTailCount)))
	if err != nil {
		return nil
	}
	return &t
}

// LoadDir reads one memory directory: MEMORY.md into Index, every other
// *.md below it into Files (recursively, as Claude Code's scan does, facts
// §2.1, §4.1), the mtime of .consolidate-lock into LockModTime (facts
// §6.2), and whatever could not be read normally into Problems. It
// replaces whatever d held before, so a refresh is another LoadDir.
//
// The rules, and why:
//   - nested MEMORY.md files are skipped (Claude Code excludes the basename
//     everywhere); a top-level team/ is listed but not read in auto,
//     override and explicit dirs because Discover lists it as its own
//     DirTeam dir (a team dir lists its parent the same way: it is one
//     scan);
//   - each file is marked with what Claude Code's scan makes of it
//     (File.Scan): excluded by its path (auto-memory dirs only), refused
//     (a hard-linked file in project or local agent memory), or listed and
//     then ranked by mtime, newest first, of which only 200 are offered to
//     recall. Excluded files are still read: the user must see them;
//   - symlinks are followed as Claude Code's scan follows them: after the
//     real tree, in sorted order, files and folders alike, each folder
//     entered once (by device and inode; the memory dir and the folders
//     above it count as entered, so a link back up is not followed); out
//     of the dir too, bounded (maxLinked). Every link is reported
//     (ProblemSymlink, ProblemSymlinkEscape with the target,
//     ProblemSymlinkLoop, ProblemLinkSkipped) and each file reached through
//     one carries File.Link: memtui never writes it. Project and local
//     agent memory follow no link, as Claude Code's regular-files-only
//     scan; on Windows linked folders are not entered;
//   - only regular files are opened (O_NONBLOCK, O_NOFOLLOW on the resolved
//     path), so a FIFO named x.md (or a link to one) cannot hang the scan;
//     a directory or device named x.md is ProblemNotFile;
//   - a file vanishing between readdir and open, or unreadable, is
//     ProblemUnreadable, and the scan goes on;
//   - files bigger than MaxFileBytes (MEMORY.md: MaxIndexBytes, 4 MiB and
//     a byte, so that what was read says whether Claude Code loads it) are
//     read up to it: Truncated plus ProblemTooLarge with the real size.
//
// The directory itself may be reached through a symlink (a ~/.claude on
// another disk): Claude Code follows it too, and containment is checked
// against its resolved path. The error is non-nil only when ctx is
// cancelled. An absent directory is not an error: Exists is false.
func LoadDir(ctx context.Context, d *model.MemoryDir, opts Options) error {
	return loadDirs(ctx, []*model.MemoryDir{d}, opts.withDefaults())
}

// Scan is Discover followed by LoadDir of every memory dir, with one bounded
// worker pool shared by all dirs so that many small dirs and one huge dir
// keep the same number of cores busy.
func Scan(ctx context.Context, opts Options) (*model.Scan, error) {
	opts = opts.withDefaults()
	scan, err := Discover(ctx, opts)
	if err != nil {
		return nil, err
	}
	var dirs []*model.MemoryDir
	for _, p := range scan.Projects {
		dirs = append(dirs, p.Dirs...)
	}
	if err := loadDirs(ctx, dirs, opts); err != nil {
		return nil, err
	}
	return scan, nil
}

// dirLoad is the state of one directory being loaded.
type dirLoad struct {
	d        *model.MemoryDir
	root     string
	realRoot string
	skipTeam bool
	problems []model.Problem
	jobs     []readJob
	lockMod  time.Time
	exists   bool

	// Claude Code's scan (facts 2.1, 4.1). scanRoot is the memory dir it
	// walks: root, or a team dir's parent (prefix "team/"), whose files
	// are listed in others for the ranking but not read.
	policy                 scanPolicy
	stores                 model.MemoryStores
	scanRoot, realScanRoot string
	prefix                 string
	seen                   map[fileKey]bool // folders entered
	noLinks                bool             // a folder above could not be examined
	links                  []pendingLink
	others                 []otherFile
	linked                 int
	linkCapHit             bool
}

// scanPolicy is how Claude Code's scan treats a kind of memory dir.
type scanPolicy struct {
	// exclusions: the auto-memory dir's excluded paths apply (facts 2.1);
	// agent-memory dirs are scanned without them.
	exclusions bool
	// regularOnly: no link is followed and a file with more than one hard
	// link is refused (project and local agent memory, facts 4.1).
	regularOnly bool
	// noFollow, when set, says why no link is followed (hard links are
	// read): another agent's store (--memory-root), whose reader memtui
	// knows nothing of, so it follows no link out of what the user named.
	noFollow string
}

func policyOf(k model.DirKind) scanPolicy {
	p := scanPolicy{exclusions: k.ScanExcludes(), regularOnly: k == model.DirAgentProject || k == model.DirAgentLocal}
	if k == model.DirRoot {
		p.noFollow = "memtui follows no link in another agent's store (--memory-root)"
	}
	return p
}

// readJob is one file to read, and then its result.
type readJob struct {
	rel     string // slash path relative to the memory dir
	scanRel string // the same relative to the scan root (a team dir's parent)
	dir     string // resolved directory holding the file (no symlinks in it)
	name    string // the file's name in dir
	index   bool   // the top-level MEMORY.md
	// countTail is set for a subagent's MEMORY.md, which Claude Code
	// loads whole: read in part, the rest is counted (fileData.tail).
	countTail bool
	store     *model.Store // set for a store's index file (read like MEMORY.md)
	link      string       // the link it was reached through, relative to the memory dir
	ok        bool         // file holds what was read
	nlink     uint64       // hard links, as read
	file      model.File
	prob      *model.Problem
}

// chunkSize is how many files of one directory a worker reads per turn:
// large enough that opening the directory once per chunk is noise, small
// enough that one big directory still spreads over every worker.
const chunkSize = 64

// chunk is a run of jobs in one directory.
type chunk struct {
	jobs []readJob
}

// loadDirs walks every dir (in parallel, one goroutine per dir at a time),
// then reads every file with a shared pool of opts.Workers goroutines. Walks
// are a small fraction of the time (one getdents batch per directory), so
// two phases cost nothing and keep the read phase free of coordination. The
// read phase hands out chunks of files from one directory: each chunk opens
// its directory once and every file relative to it (openat), which spares
// the kernel a full path lookup per file and refuses a directory that was
// swapped for a symlink after the walk.
func loadDirs(ctx context.Context, dirs []*model.MemoryDir, opts Options) error {
	// The team mounts come from memtui's own environment: the only one it
	// can see (README, "The scan").
	stores := model.ParseMemoryStores(opts.Getenv(envMemoryStores))
	loads := make([]*dirLoad, len(dirs))
	pool.Run(ctx, len(dirs), opts.Workers, func(i int) {
		dl := walkDir(dirs[i], stores)
		if dirs[i].Kind.LoadMode() == model.LoadAgent {
			for k := range dl.jobs {
				dl.jobs[k].countTail = dl.jobs[k].index
			}
		}
		loads[i] = dl
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	var chunks []chunk
	for _, dl := range loads {
		jobs := dl.jobs
		for len(jobs) > 0 {
			n := 1
			for n < len(jobs) && n < chunkSize && jobs[n].dir == jobs[0].dir {
				n++
			}
			chunks = append(chunks, chunk{jobs[:n:n]})
			jobs = jobs[n:]
		}
	}
	caps := readCaps{file: opts.MaxFileBytes, index: opts.MaxIndexBytes}
	pool.Run(ctx, len(chunks), opts.Workers, func(i int) { readChunk(chunks[i].jobs, caps) })
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, dl := range loads {
		dl.finish()
	}
	return nil
}

// walkDir lists the memory dir d as Claude Code's scan does (walkRoot),
// reading nothing yet: the files to read are its jobs.
func walkDir(d *model.MemoryDir, stores model.MemoryStores) *dirLoad {
	dl := &dirLoad{d: d, root: filepath.Clean(d.Path), policy: policyOf(d.Kind), stores: stores}
	switch d.Kind {
	case model.DirAuto, model.DirOverride, model.DirExplicit:
		dl.skipTeam = true
	}
	dl.walkRoot()
	return dl
}

func (dl *dirLoad) problem(rel string, kind model.ProblemKind, detail string) {
	dl.problems = append(dl.problems, model.Problem{Path: rel, Kind: kind, Detail: detail})
}

func (dl *dirLoad) walkRoot() {
	fi, err := os.Stat(dl.root)
	switch {
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return
	case err != nil:
		dl.problem("", model.ProblemUnreadable, errText(err))
		return
	case !fi.IsDir():
		dl.problem("", model.ProblemNotFile, "the memory dir is a "+model.FileKind(fi.Mode())+", not a directory")
		return
	}
	dl.exists = true
	dl.realRoot = dl.root
	if r, err := filepath.EvalSymlinks(dl.root); err == nil {
		dl.realRoot = r
	}
	// Claude Code scans a team dir as part of the memory dir it sits in:
	// one walk, one ranking. The parent's files are listed (for the
	// ranking and the folders already entered), not read.
	dl.scanRoot, dl.realScanRoot = dl.root, dl.realRoot
	if dl.d.Kind == model.DirTeam {
		parent := filepath.Dir(dl.root)
		if r, err := filepath.EvalSymlinks(parent); err == nil && filepath.Join(r, TeamDirName) == dl.realRoot {
			dl.scanRoot, dl.realScanRoot, dl.prefix = parent, r, TeamDirName+"/"
		}
	}
	dl.seen = map[fileKey]bool{}
	dl.registerAncestors(dl.scanRoot)
	dl.registerAncestors(dl.realScanRoot)
	// Below the resolved root, no path the walk of the real tree builds
	// contains a symlink; links are followed after it, each to its
	// resolved target.
	dl.walk("", dl.realScanRoot, dl.prefix == "", "", 0)
	dl.followLinks()
}

// registerAncestors marks the folder at p and every folder above it as
// entered, so that a link back up to one of them is not followed (facts
// 4.1). When one of them cannot be examined, Claude Code follows no link
// at all, and neither does memtui.
func (dl *dirLoad) registerAncestors(p string) {
	for {
		fi, err := os.Stat(p)
		if err != nil {
			dl.noLinks = true
		} else {
			dl.seen[fileKeyOf(fi, p)] = true
		}
		up := filepath.Dir(p)
		if up == p {
			return
		}
		p = up
	}
}

// ownRel is a path relative to the scan root as a path relative to this
// memory dir ("" for the dir itself).
func (dl *dirLoad) ownRel(rel string) string {
	if dl.prefix == "" {
		return rel
	}
	if rel == strings.TrimSuffix(dl.prefix, "/") {
		return ""
	}
	return strings.TrimPrefix(rel, dl.prefix)
}

// role is what the *.md file at rel (relative to the scan root) is to
// Claude Code's scan (facts §2.1): in an auto-memory dir the stores decide
// (model.MemoryStores.Role); agent memory knows no stores, only that
// MEMORY.md is not a memory at any depth.
func (dl *dirLoad) role(rel string) (model.PathRole, *model.Store) {
	if dl.policy.exclusions {
		return dl.stores.Role(rel)
	}
	return model.MemoryStores{}.Role(rel)
}

// pendingLink is a symlink the walk met, to follow once the real tree is
// walked.
type pendingLink struct {
	rel   string // relative to the scan root
	abs   string // the link itself
	own   bool   // in this memory dir (else only listed)
	via   string // the link above it, relative to the scan root ("" when none)
	depth int
}

// otherFile is a memory file of the scan outside this memory dir (the
// parent of a team dir, or its team/): listed for the ranking, not read.
type otherFile struct {
	rel string // relative to the scan root
	mod time.Time
}

// maxLinked bounds what links bring into one scan: a link to a home folder
// would otherwise have memtui read every *.md under it. Claude Code has no
// such bound; past it memtui says so.
const maxLinked = 20000

// walk lists the directory abs, at rel below the scan root, as Claude
// Code's scan does (facts 4.1): own says whether its files belong to this
// memory dir (read) or to the rest of the scan (listed); via is the link
// it was reached through, if any.
func (dl *dirLoad) walk(rel, abs string, own bool, via string, depth int) {
	orel := dl.ownRel(rel)
	if depth > maxDepth {
		if own {
			dl.problem(orel, model.ProblemUnreadable, fmt.Sprintf("nested more than %d directories deep; not read further", maxDepth))
		}
		return
	}
	f, err := openDir(abs)
	if err != nil {
		if own {
			dl.problem(orel, model.ProblemUnreadable, errText(err))
		}
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil && own {
		// Keep what was listed before the error.
		dl.problem(orel, model.ProblemUnreadable, errText(err))
	}
	if via != "" {
		if dl.linked += len(entries); dl.linked > maxLinked {
			if !dl.linkCapHit {
				dl.linkCapHit = true
				dl.problem(dl.ownRel(via), model.ProblemLinkSkipped, fmt.Sprintf("links lead to more than %d files and folders; memtui stopped following them there (Claude Code's scan follows them all)", maxLinked))
			}
			return
		}
	}
	top := rel == ""
	ownRoot := own && orel == ""
	if own {
		// Room for every entry at once, rather than growing by doubling:
		// the copies would be garbage, and the last array (which the
		// files point into) up to twice the size needed.
		dl.jobs = slices.Grow(dl.jobs, len(entries))
	}
	// Files first, subdirectories after, so that the jobs of one directory
	// are contiguous and can be read as chunks.
	type subdir struct {
		rel, abs string
		own      bool
	}
	var subdirs []subdir
	for _, e := range entries {
		name := e.Name()
		erel := joinRel(rel, name)
		t := e.Type()
		eown := own
		if top && name == TeamDirName && t.IsDir() {
			switch {
			case dl.prefix != "":
				eown = true // the team dir being loaded
			case dl.skipTeam:
				// A real team/ is a MemoryDir of its own: listed
				// here, read there. A symlinked one is followed
				// below like any other link.
				eown = false
			}
		}
		if ownRoot && name == LockFileName {
			if fi, err := os.Stat(filepath.Join(abs, name)); err == nil && fi.Mode().IsRegular() {
				dl.lockMod = fi.ModTime()
			}
			continue
		}
		isMD := strings.HasSuffix(name, ".md")
		switch {
		case t&fs.ModeSymlink != 0:
			dl.links = append(dl.links, pendingLink{rel: erel, abs: filepath.Join(abs, name), own: eown, via: via, depth: depth + 1})
		case t.IsDir():
			if eown && isMD && name != indexFileName {
				dl.problem(dl.ownRel(erel), model.ProblemNotFile, "a directory named like a memory file; its *.md files are read as memories")
			} else if eown && isMD && ownRoot {
				dl.problem(dl.ownRel(erel), model.ProblemNotFile, "MEMORY.md is a directory, so Claude Code loads no index")
			}
			subdirs = append(subdirs, subdir{erel, filepath.Join(abs, name), eown})
		case !isMD:
		default:
			role, st := dl.role(erel)
			switch {
			case role == model.RoleNestedIndex || role == model.RoleSkill:
				// Not a memory to Claude Code's scan (facts §2.1):
				// MEMORY.md below the top without stores, skills.
			case (role == model.RoleIndex || role == model.RoleStoreIndex) && !eown:
				// Another memory dir's index: neither read nor ranked.
			case role == model.RoleIndex && !ownRoot:
				// A team dir scanned as its own root sees no index.
			case t.IsRegular() && eown:
				dl.jobs = append(dl.jobs, readJob{rel: dl.ownRel(erel), scanRel: erel, dir: abs, name: name, index: role == model.RoleIndex, store: st, link: dl.ownRel(via)})
			case t.IsRegular():
				dl.other(erel, filepath.Join(abs, name))
			case eown:
				dl.problem(dl.ownRel(erel), model.ProblemNotFile, "a "+model.FileKind(t)+", not a regular file; not read")
			}
		}
	}
	for _, sd := range subdirs {
		fi, err := os.Lstat(sd.abs)
		if err != nil {
			if sd.own {
				dl.problem(dl.ownRel(sd.rel), model.ProblemUnreadable, errText(err))
			}
			continue
		}
		if k := fileKeyOf(fi, sd.abs); dl.seen[k] {
			continue // entered already (a bind mount of a folder above)
		} else {
			dl.seen[k] = true
		}
		dl.walk(sd.rel, sd.abs, sd.own, via, depth+1)
	}
}

// other lists a file of the scan outside this memory dir: only its mtime
// is needed, for the ranking.
func (dl *dirLoad) other(rel, abs string) {
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return // the scan drops what it cannot read
	}
	dl.others = append(dl.others, otherFile{rel: rel, mod: fi.ModTime()})
}

// followLinks follows the links the walk met, after the real tree and in
// sorted order, as Claude Code's scan does (facts 4.1); the links met in a
// followed folder are followed next, in their turn.
func (dl *dirLoad) followLinks() {
	for len(dl.links) > 0 {
		batch := dl.links
		dl.links = nil
		sort.Slice(batch, func(i, j int) bool { return batch[i].rel < batch[j].rel })
		for _, l := range batch {
			dl.follow(l)
		}
	}
}

// follow resolves one link (EvalSymlinks gives up after a fixed number of
// hops, so a loop cannot hang it) and reads, lists or walks its target.
// Only a regular file is read, through the chunk reader's bounded,
// non-blocking open; a folder already entered (the memory dir itself, a
// folder above it, one reached another way) is not entered again.
func (dl *dirLoad) follow(l pendingLink) {
	name := path.Base(l.rel)
	isMD := strings.HasSuffix(name, ".md")
	orel := dl.ownRel(l.rel)
	skip := ""
	switch {
	case dl.policy.regularOnly:
		skip = "Claude Code's scan of project and local agent memory follows no link"
	case dl.policy.noFollow != "":
		skip = dl.policy.noFollow
	case dl.noLinks:
		skip = "a folder above the memory dir could not be examined, and then Claude Code's scan follows no link"
	}
	target, err := filepath.EvalSymlinks(l.abs)
	if err != nil {
		if !l.own || (skip != "" && !isMD) {
			return
		}
		if !isMD && !isLoop(err) {
			return // a dangling link to something that is not a memory
		}
		raw, _ := os.Readlink(l.abs) // only said of a link that leads nowhere
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			dl.problem(orel, model.ProblemSymlinkLoop, fmt.Sprintf("dangling symlink: %s does not exist", raw))
		} else {
			dl.problem(orel, model.ProblemSymlinkLoop, fmt.Sprintf("symlink loop (%s → %s)", orel, raw))
		}
		return
	}
	fi, err := os.Stat(target)
	if err != nil {
		if l.own && isMD {
			dl.problem(orel, model.ProblemUnreadable, errText(err))
		}
		return
	}
	if !fi.IsDir() && !isMD {
		return // a link to a non-memory file: nobody reads it
	}
	if fi.IsDir() && skip == "" && !followDirLinks {
		skip = "Claude Code's scan on Windows does not enter linked folders"
	}
	if skip != "" {
		if l.own {
			dl.problem(orel, model.ProblemLinkSkipped, dl.linkWhat(target, fi.IsDir())+"; not followed: "+skip)
		}
		return
	}
	inside := within(dl.realScanRoot, target)
	kind := model.ProblemSymlink
	if !inside {
		kind = model.ProblemSymlinkEscape
	}
	via := l.via
	if via == "" {
		via = l.rel
	}
	if fi.IsDir() {
		if k := fileKeyOf(fi, target); dl.seen[k] {
			if l.own {
				dl.problem(orel, model.ProblemLinkSkipped, dl.linkWhat(target, true)+", which the scan has entered already (the memory dir, a folder above it, or one reached another way); not followed, as Claude Code does")
			}
			return
		} else {
			dl.seen[k] = true
		}
		if l.own {
			dl.linkProblem(orel, kind, target, true)
		}
		dl.walk(l.rel, target, l.own, via, l.depth)
		return
	}
	role, st := dl.role(l.rel)
	switch {
	case role == model.RoleNestedIndex || role == model.RoleSkill:
		return // not a memory to Claude Code's scan (facts §2.1)
	case role == model.RoleIndex && !(l.own && orel == indexFileName),
		role == model.RoleStoreIndex && !l.own:
		return // another dir's index: neither read nor ranked
	}
	index := role == model.RoleIndex
	if !fi.Mode().IsRegular() {
		if l.own {
			dl.problem(orel, model.ProblemNotFile, "the link's target is a "+model.FileKind(fi.Mode())+", not a regular file; not read")
		}
		return
	}
	if !l.own {
		dl.others = append(dl.others, otherFile{rel: l.rel, mod: fi.ModTime()})
		return
	}
	dl.linkProblem(orel, kind, target, false)
	dl.jobs = append(dl.jobs, readJob{rel: orel, scanRel: l.rel, dir: filepath.Dir(target), name: filepath.Base(target), index: index, store: st, link: dl.ownRel(via)})
}

// readCaps are the read caps: of MEMORY.md (a job's index), of every other
// file.
type readCaps struct{ file, index int64 }

// of is the cap of j's file.
func (c readCaps) of(j *readJob) int64 {
	if j.index || j.store != nil {
		return c.index
	}
	return c.file
}

// record turns the outcome of one read into the job's file or problem.
func (j *readJob) record(fd fileData, err error, max int64) {
	if err != nil {
		switch {
		case errors.Is(err, errNotRegular):
			j.prob = &model.Problem{Path: j.rel, Kind: model.ProblemNotFile, Detail: "not a regular file; not read"}
		case errors.Is(err, fs.ErrNotExist):
			j.prob = &model.Problem{Path: j.rel, Kind: model.ProblemUnreadable, Detail: "vanished during the scan (" + errText(err) + ")"}
		default:
			j.prob = &model.Problem{Path: j.rel, Kind: model.ProblemUnreadable, Detail: errText(err)}
		}
		return
	}
	j.ok = true
	j.nlink = fd.nlink
	j.file = model.File{
		Path:      j.rel,
		Size:      fd.size,
		ModTime:   fd.mod,
		Mode:      fd.perm,
		Content:   fd.content,
		Truncated: fd.truncated,
		Tail:      fd.tail,
		Link:      j.link,
	}
	if fd.truncated {
		j.prob = &model.Problem{Path: j.rel, Kind: model.ProblemTooLarge,
			Detail: fmt.Sprintf("%d bytes on disk; only the first %d were read", fd.size, max)}
	}
}

func beforeRead(j *readJob) {
	if testHookBeforeRead != nil {
		testHookBeforeRead(filepath.Join(j.dir, j.name))
	}
}

// finish moves the results into the MemoryDir, sorted for stable output.
func (dl *dirLoad) finish() {
	d := dl.d
	d.Index, d.Files, d.Problems, d.StoreIndexes = nil, nil, nil, nil
	d.LockModTime = dl.lockMod
	d.Exists = dl.exists
	d.ScanListed = 0
	d.Problems = append(d.Problems, dl.problems...)
	for i := range dl.jobs {
		j := &dl.jobs[i]
		if j.prob != nil {
			d.Problems = append(d.Problems, *j.prob)
		}
		if !j.ok {
			continue
		}
		// Files point into dl.jobs: one allocation per directory instead
		// of one per file.
		switch {
		case j.index:
			d.Index = &j.file
		case j.store != nil:
			d.StoreIndexes = append(d.StoreIndexes, model.StoreIndex{Store: *j.store, File: &j.file})
		default:
			d.Files = append(d.Files, &j.file)
		}
	}
	dl.rank()
	sort.Slice(d.Files, func(a, b int) bool { return d.Files[a].Path < d.Files[b].Path })
	sort.Slice(d.StoreIndexes, func(a, b int) bool { return d.StoreIndexes[a].File.Path < d.StoreIndexes[b].File.Path })
	sort.SliceStable(d.Problems, func(a, b int) bool {
		pa, pb := d.Problems[a], d.Problems[b]
		if pa.Path != pb.Path {
			return pa.Path < pb.Path
		}
		return pa.Kind < pb.Kind
	})
}

// linkProblem reports a link the scan follows: an escape's Detail is its
// target, as it is; one inside says where it leads.
func (dl *dirLoad) linkProblem(rel string, kind model.ProblemKind, target string, dir bool) {
	if kind == model.ProblemSymlinkEscape {
		dl.problem(rel, kind, target)
		return
	}
	dl.problem(rel, kind, dl.linkWhat(target, dir)+"; followed, as Claude Code's scan does")
}

// linkWhat says where a link leads: "symlink to x.md", "symlink to the
// folder notes".
func (dl *dirLoad) linkWhat(target string, dir bool) string {
	if dir {
		return "symlink to the folder " + dl.relTo(target)
	}
	return "symlink to " + dl.relTo(target)
}

// rank decides what Claude Code's scan makes of each file read (facts 2.1,
// 4.1): excluded by its path, refused (a hard-linked file in project or
// local agent memory), or listed; the listed files of the whole scan (this
// dir's and the others') are ranked by mtime, and only the newest 200 are
// offered to recall. A file that could not be read is dropped by the scan
// as by memtui (the problems say which).
func (dl *dirLoad) rank() {
	type pair struct {
		f *model.File
		c *model.ScanCandidate
	}
	var cands []*model.ScanCandidate
	var mine []pair
	for i := range dl.jobs {
		j := &dl.jobs[i]
		if j.index || j.store != nil || !j.ok {
			continue
		}
		f := &j.file
		if dl.policy.exclusions {
			if why := model.ScanExclusion(j.scanRel, dl.stores); why != "" {
				f.Scan, f.ScanWhy = model.ScanExcluded, why
				continue
			}
		}
		if dl.policy.regularOnly && j.nlink > 1 {
			f.Scan = model.ScanHardlinked
			f.ScanWhy = fmt.Sprintf("it has %d hard links, and Claude Code's scan of project and local agent memory reads only files with one", j.nlink)
			continue
		}
		c := &model.ScanCandidate{ModTime: f.ModTime}
		cands = append(cands, c)
		mine = append(mine, pair{f, c})
	}
	for _, o := range dl.others {
		if dl.policy.exclusions && model.ScanExclusion(o.rel, dl.stores) != "" {
			continue
		}
		cands = append(cands, &model.ScanCandidate{ModTime: o.mod})
	}
	model.RankScan(cands)
	for _, p := range mine {
		p.f.Scan = p.c.Reason
	}
	dl.d.ScanListed = len(cands)
}

// relTo names a resolved target relative to the memory dir the scan walks
// when it is inside, else by its path.
func (dl *dirLoad) relTo(target string) string {
	if within(dl.realScanRoot, target) {
		r, _ := filepath.Rel(dl.realScanRoot, target)
		if r == "." {
			return "./ (the memory dir itself)"
		}
		return filepath.ToSlash(r)
	}
	return target
}

// within reports whether target is root or below it (both resolved).
func within(root, target string) bool {
	r, err := filepath.Rel(root, target)
	if err != nil {
		return false
	}
	return r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

func isLoop(err error) bool {
	return err != nil && !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) && !errors.Is(err, fs.ErrPermission)
}

// errText is an error without the absolute path (the problem carries the
// relative one): "open: permission denied".
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
