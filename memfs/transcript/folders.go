package transcript

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// Other folders (transcripts §9.5): the transcript folder is named after
// the launch directory, the memory folder after the project, so a
// project's memory writes can sit under another slug. Two shapes are read:
//
//   - a session launched in a subdirectory of the project: its folder's
//     slug is the project's slug, "-", then the rest of the path (every
//     non-alphanumeric character becomes "-", so /home/u/app/web is
//     -home-u-app-web). The "-" matters: -home-u-apple is /home/u/apple,
//     not a subdirectory of /home/u/app;
//   - a session launched inside the memory folder itself: its cwd is
//     <config>/projects/<slug>/memory, so its slug is the sanitized config
//     dir, then "-projects-<slug>-memory" (-home-u--claude-projects--home-u-app-memory).
//     The config dir may have been elsewhere when the session ran (a copied
//     tree, WSL reading C:\Users\u\.claude), so the tail is what is matched;
//     a memory dir's own slug is matched too, which covers a custom memory
//     dir and a path long enough to carry Claude Code's hash suffix. A
//     session started in a subfolder of the memory folder (memory/roles)
//     has "-projects-<slug>-memory-roles": claimed too.
//
// Only these folders are claimed, never every folder: a candidate costs a
// directory listing per start, and its files are scanned once for this
// project (the prefilter keeps only lines naming this project's memory
// dirs). A sibling folder that merely shares the prefix (/home/u/app-web
// is -home-u-app-web too) costs a read and adds nothing.

// otherFolders returns the folders beside tdir, among names (the entries of
// tdir's parent that are directories), whose sessions may have written into
// dirs: subdirectory sessions and sessions started in a memory folder.
func otherFolders(tdir string, dirs []string, names []string) []string {
	if tdir == "" {
		return nil
	}
	slug := filepath.Base(tdir)
	if slug == "" || slug == "." || slug == string(filepath.Separator) {
		return nil
	}
	// A slug made from a Windows path names one case-blind folder: d:\work
	// and D:\work launch into it alike (transcripts §9.1).
	fold := isWinSlug(slug)
	hasPrefix := func(s, p string) bool {
		if fold {
			return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
		}
		return strings.HasPrefix(s, p)
	}
	hasSuffix := func(s, p string) bool {
		if fold {
			return len(s) >= len(p) && strings.EqualFold(s[len(s)-len(p):], p)
		}
		return strings.HasSuffix(s, p)
	}
	sub := slug + "-"
	inMem := "-projects-" + slug + "-" + memfs.MemoryDirName
	// A session started in a subfolder of the memory folder. Built once:
	// this loop runs over every folder of projects/ for every project.
	inMemSub := inMem + "-"
	contains := strings.Contains
	if fold {
		inMemSub = lowerASCII(inMemSub)
		contains = func(s, sub string) bool { return len(s) >= len(sub) && strings.Contains(lowerASCII(s), sub) }
	}
	// A memory dir's own slug, sanitized once (this loop runs over every
	// folder of projects/ for every project).
	own := make([]func(string) bool, len(dirs))
	for i, d := range dirs {
		own[i] = memfs.SlugMatcher(d)
	}
	var out []string
	for _, n := range names {
		if n == slug || n == "" {
			continue
		}
		ok := hasPrefix(n, sub) || hasSuffix(n, inMem) || contains(n, inMemSub)
		for _, m := range own {
			if ok {
				break
			}
			ok = m(n)
		}
		if ok {
			out = append(out, filepath.Join(filepath.Dir(tdir), n))
		}
	}
	return out
}

// folderNames lists the directories directly in parent (a config dir's
// projects/), names only: the listing's types, no lstat, and a symlink is
// not a directory here, so a link to elsewhere is never followed.
func folderNames(parent string) []string {
	ents, err := memfs.ReadDir(parent)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// listings shares transcript-folder listings between the projects of one
// ReadAll call: a folder claimed by its own project and by the
// projects it is a subdirectory of is listed once, so claiming it costs a
// warm start no more directory reads or lstats.
type listings struct {
	mu sync.Mutex
	m  map[string]*listing
}

type listing struct {
	once  sync.Once
	files []transcriptFile
	probs []model.TranscriptProblem
}

// list is listTranscriptFiles(dir), done once per dir; the slices are the
// caller's own. A nil *listings lists every time.
func (ls *listings) list(dir string) ([]transcriptFile, []model.TranscriptProblem) {
	if ls == nil {
		return listTranscriptFiles(dir)
	}
	ls.mu.Lock()
	l := ls.m[dir]
	if l == nil {
		l = &listing{}
		ls.m[dir] = l
	}
	ls.mu.Unlock()
	l.once.Do(func() { l.files, l.probs = listTranscriptFiles(dir) })
	return slices.Clone(l.files), slices.Clone(l.probs)
}
