package memfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/memtui/memtui/model"
)

// maxDepth bounds recursion below a memory dir. Claude Code's scan has no
// depth cap (facts §4.1) and, without following symlinks, a tree cannot loop;
// this only guards against a bind-mount cycle or a pathological tree.
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
	truncated bool
}

// LoadDir reads one memory directory: MEMORY.md into Index, every other
// *.md below it into Files (recursively, as Claude Code's scan does, facts
// §2.1), the mtime of .consolidate-lock into LockModTime (facts §6.2), and
// whatever could not be read normally into Problems. It replaces whatever d
// held before, so a refresh is another LoadDir.
//
// The rules, and why:
//   - nested MEMORY.md files are skipped (Claude Code excludes the basename
//     everywhere); a top-level team/ is skipped in auto, override and
//     explicit dirs because Discover lists it as its own DirTeam dir;
//   - symlinks are never followed out of the dir and never loop: a link is
//     resolved once, reported (ProblemSymlink, ProblemSymlinkEscape with the
//     target, or ProblemSymlinkLoop), and a link to a file inside is read
//     through; a link to a directory is never descended into;
//   - only regular files are opened (O_NONBLOCK, O_NOFOLLOW), so a FIFO
//     named x.md cannot hang the scan; a directory or device named x.md is
//     ProblemNotFile;
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
}

// readJob is one file to read, and then its result.
type readJob struct {
	rel   string // slash path relative to the memory dir
	dir   string // resolved directory holding the file (no symlinks in it)
	name  string // the file's name in dir
	index bool   // the top-level MEMORY.md
	ok    bool   // file holds what was read
	file  model.File
	prob  *model.Problem
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
	loads := make([]*dirLoad, len(dirs))
	parallel(ctx, len(dirs), opts.Workers, func(i int) {
		dl := &dirLoad{d: dirs[i], root: filepath.Clean(dirs[i].Path)}
		switch dirs[i].Kind {
		case model.DirAuto, model.DirOverride, model.DirExplicit:
			dl.skipTeam = true
		}
		dl.walkRoot()
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
	parallel(ctx, len(chunks), opts.Workers, func(i int) { readChunk(chunks[i].jobs, caps) })
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, dl := range loads {
		dl.finish()
	}
	return nil
}

// parallel runs fn(0..n-1) on at most workers goroutines, handing out
// indices with an atomic counter (cheaper than a channel per item), and
// stops handing out work once ctx is done.
func parallel(ctx context.Context, n, workers int, fn func(int)) {
	if n == 0 {
		return
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n && ctx.Err() == nil; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
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
	// Below the resolved root, no path the walk builds contains a symlink:
	// the walk never descends into one.
	dl.walk("", 0)
}

func (dl *dirLoad) walk(relDir string, depth int) {
	abs := dl.abs(relDir)
	if depth > maxDepth {
		dl.problem(relDir, model.ProblemUnreadable, fmt.Sprintf("nested more than %d directories deep; not read further", maxDepth))
		return
	}
	f, err := openDir(abs)
	if err != nil {
		dl.problem(relDir, model.ProblemUnreadable, errText(err))
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		// Keep what was listed before the error.
		dl.problem(relDir, model.ProblemUnreadable, errText(err))
	}
	top := relDir == ""
	// Room for every entry at once, rather than growing by doubling: the
	// copies would be garbage, and the last array (which the files point
	// into) up to twice the size needed.
	dl.jobs = slices.Grow(dl.jobs, len(entries))
	// Files first, subdirectories after, so that the jobs of one directory
	// are contiguous and can be read as chunks.
	var subdirs []string
	for _, e := range entries {
		name := e.Name()
		rel := joinRel(relDir, name)
		t := e.Type()
		if top {
			if name == lockFileName {
				if fi, err := os.Stat(filepath.Join(abs, name)); err == nil && fi.Mode().IsRegular() {
					dl.lockMod = fi.ModTime()
				}
				continue
			}
			if name == teamDirName && dl.skipTeam && t.IsDir() {
				// A real team/ is a MemoryDir of its own; a symlinked one
				// is reported below like any other link.
				continue
			}
		}
		isMD := strings.HasSuffix(name, ".md")
		switch {
		case t&fs.ModeSymlink != 0:
			dl.symlink(rel, filepath.Join(abs, name), isMD, top && name == indexFileName)
		case t.IsDir():
			if isMD && name != indexFileName {
				dl.problem(rel, model.ProblemNotFile, "a directory named like a memory file; its *.md files are read as memories")
			} else if isMD && top {
				dl.problem(rel, model.ProblemNotFile, "MEMORY.md is a directory, so Claude Code loads no index")
			}
			subdirs = append(subdirs, rel)
		case !isMD:
		case name == indexFileName && !top:
			// Claude Code skips MEMORY.md at any depth (facts §2.1).
		case t.IsRegular():
			dl.jobs = append(dl.jobs, readJob{rel: rel, dir: abs, name: name, index: top && name == indexFileName})
		default:
			dl.problem(rel, model.ProblemNotFile, "a "+model.FileKind(t)+", not a regular file; not read")
		}
	}
	for _, rel := range subdirs {
		dl.walk(rel, depth+1)
	}
}

// symlink resolves the link at abs once. EvalSymlinks gives up after a
// fixed number of hops, so a loop cannot hang it.
func (dl *dirLoad) symlink(rel, abs string, isMD, index bool) {
	raw, _ := os.Readlink(abs)
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if !isMD && !isLoop(err) {
			return // a dangling link to something that is not a memory
		}
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			dl.problem(rel, model.ProblemSymlinkLoop, fmt.Sprintf("dangling symlink: %s does not exist", raw))
		} else {
			dl.problem(rel, model.ProblemSymlinkLoop, fmt.Sprintf("symlink loop (%s → %s)", rel, raw))
		}
		return
	}
	fi, err := os.Stat(target)
	if err != nil {
		if isMD {
			dl.problem(rel, model.ProblemUnreadable, errText(err))
		}
		return
	}
	inside := within(dl.realRoot, target)
	if fi.IsDir() {
		if !inside {
			dl.problem(rel, model.ProblemSymlinkEscape, target)
			return
		}
		dl.problem(rel, model.ProblemSymlink, "symlink to the directory "+dl.relTo(target)+" inside the memory dir; not descended into")
		return
	}
	if !isMD {
		return // a link to a non-memory file: nobody reads it
	}
	if !inside {
		dl.problem(rel, model.ProblemSymlinkEscape, target)
		return
	}
	dl.problem(rel, model.ProblemSymlink, "symlink to "+dl.relTo(target)+"; read through the link")
	if !fi.Mode().IsRegular() {
		dl.problem(rel, model.ProblemNotFile, "the link's target is a "+model.FileKind(fi.Mode())+", not a regular file; not read")
		return
	}
	dl.jobs = append(dl.jobs, readJob{rel: rel, dir: filepath.Dir(target), name: filepath.Base(target), index: index})
}

// readCaps are the read caps: of MEMORY.md (a job's index), of every other
// file.
type readCaps struct{ file, index int64 }

// of is the cap of j's file.
func (c readCaps) of(j *readJob) int64 {
	if j.index {
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
	j.file = model.File{
		Path:      j.rel,
		Size:      fd.size,
		ModTime:   fd.mod,
		Mode:      fd.perm,
		Content:   fd.content,
		Truncated: fd.truncated,
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
	d.Index, d.Files, d.Problems = nil, nil, nil
	d.LockModTime = dl.lockMod
	d.Exists = dl.exists
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
		if j.index {
			d.Index = &j.file
		} else {
			d.Files = append(d.Files, &j.file)
		}
	}
	sort.Slice(d.Files, func(a, b int) bool { return d.Files[a].Path < d.Files[b].Path })
	sort.SliceStable(d.Problems, func(a, b int) bool {
		pa, pb := d.Problems[a], d.Problems[b]
		if pa.Path != pb.Path {
			return pa.Path < pb.Path
		}
		return pa.Kind < pb.Kind
	})
}

func (dl *dirLoad) abs(rel string) string {
	if rel == "" {
		return dl.realRoot
	}
	return filepath.Join(dl.realRoot, filepath.FromSlash(rel))
}

// relTo names a resolved target relative to the memory dir when it is inside.
func (dl *dirLoad) relTo(target string) string {
	if r, err := filepath.Rel(dl.realRoot, target); err == nil {
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
