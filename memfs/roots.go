package memfs

// Other agents' memory in Claude Code's format (--memory-root, issue 17).
// Several agents copied Claude Code's auto memory: a folder holding a
// MEMORY.md index and topic files. Where they keep it (read from their
// sources, 2026-11):
//
//   - Qwen Code: <base>/projects/<sanitized git root>/memory/ per project
//     (the base is ~/.qwen unless QWEN_RUNTIME_DIR or
//     QWEN_CODE_MEMORY_BASE_DIR move it), <base>/memories/ for what
//     holds across projects, <repo>/.qwen/team-memory/ when team memory
//     is on, and <project>/.qwen/memory/ with QWEN_CODE_MEMORY_LOCAL=1.
//     Its own state (meta.json, extract-cursor.json, consolidation.lock)
//     sits beside memory/, not in it. (QwenLM/qwen-code
//     packages/core/src/memory/paths.ts, docs/users/features/memory.md.)
//   - OpenHands (the software-agent-sdk, opt-in): ~/.openhands/memory/ for
//     the user and <workspace>/.openhands/memory/ per project, a MEMORY.md
//     index beside daily logs named YYYY-MM-DD.md; no per-project folder
//     under a shared root. (OpenHands/software-agent-sdk
//     openhands-sdk/openhands/sdk/context/memory.py, PR #4178.)
//
// So a root is either one such folder, or a folder the stores sit under,
// one to four levels down. RootStores finds them without following a
// link and without reading a file (RootStores says what makes a store).

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memtui/memtui/model"
)

// MemoryRoot is one --memory-root: a folder where another coding agent
// keeps memory in Claude Code's format, and the agent's label.
type MemoryRoot struct {
	// Agent labels every store found (qwen, openhands, ...); "" labels
	// each by its own path below Dir (PathLabel), else OtherAgent.
	Agent string
	// Dir is absolute and canonical (MemoryRootDir).
	Dir string
}

// The walk's bounds. The stores the agents above write sit at most three
// levels below their root (<base>/projects/<slug>/memory); past four
// levels, or past these counts, the folder is not one of theirs and
// memtui stops rather than list a whole disk.
const (
	// MaxRootDepth is how many levels below a root stores are looked for.
	MaxRootDepth   = 4
	maxRootDirs    = 20000  // folders listed
	maxRootEntries = 200000 // entries seen in them
	maxRootStores  = 1000
	// maxRootNotes bounds the links reported one by one.
	maxRootNotes = 10
)

// OtherAgent labels a store whose path names no agent.
const OtherAgent = "other"

// MaxLabel bounds an agent label: a word, not a sentence.
const MaxLabel = 32

// ValidLabel reports whether s can label an agent: a lower-case letter,
// then lower-case letters, digits, '-' or '_', at most MaxLabel in all.
// It is shown before every store's name and in JSON, so nothing else.
func ValidLabel(s string) bool {
	if s == "" || len(s) > MaxLabel || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// xdgDirs are dot folders that hold many programs' files, so they name
// no agent (~/.config/foo/memory is not "config"'s).
var xdgDirs = map[string]bool{"config": true, "local": true, "cache": true, "share": true}

// PathLabel is the agent a path names: its nearest folder whose name
// starts with a dot, without the dots and lower-cased (~/.qwen/... is
// "qwen", <repo>/.openhands/memory "openhands"), when that is a valid
// label; "" when no folder of p names one.
func PathLabel(p string) string {
	for d := filepath.Clean(p); ; d = filepath.Dir(d) {
		b := filepath.Base(d)
		if len(b) > 1 && b[0] == '.' && b != ".." {
			l := strings.ToLower(strings.TrimLeft(b, "."))
			if ValidLabel(l) && !xdgDirs[l] {
				return l
			}
		}
		if up := filepath.Dir(d); up == d || up == "." {
			return ""
		}
	}
}

// rootSkipped are folders never entered: a repository's objects and
// packages hold no memory, and Claude Code's and Codex's own folders are
// read by their own readers (--config-dir, --codex-home), not as a copy.
var rootSkipped = map[string]bool{".git": true, "node_modules": true, ".claude": true, ".codex": true}

// MemoryRootDir checks a --memory-root directory: it must be a directory
// (the usage error names the flag and the path otherwise), and it is
// returned absolute and canonical, so every path found under it is real.
func MemoryRootDir(p string) (string, error) {
	abs, err := mustBeDir("--memory-root", p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("--memory-root %s: %v", abs, UnwrapPathErr(err))
	}
	return real, nil
}

// RootStores finds the memory stores under r and returns one project per
// store: Agent r.Agent (else the store's own path's label, else
// OtherAgent), Slug "<agent>:<where>", one memory dir of kind DirRoot. <where> is the project folder's name for Qwen Code's
// projects/<slug>/memory, the path below the root otherwise, and the
// last two elements of the root's path when the root is the store itself.
// A folder is a store when it holds MEMORY.md; when it is Qwen Code's
// projects/<slug>/memory; or when it holds *.md files and is named as the
// agents name a store (storeNamed). The root is the store when it holds
// MEMORY.md, or when nothing below it is one and it is named as a store
// and holds *.md files (a ~/.qwen holding only QWEN.md is no store).
//
// The rules, and why:
//   - no link is followed: a link to a folder is not entered (it is
//     named in notes), and every folder is opened without following one,
//     so a folder swapped for a link since its parent was listed is
//     refused; nothing is read, only listed;
//   - a store is not entered further (its subfolders are its own);
//   - .git, node_modules, .claude and .codex folders are skipped;
//   - the walk stops at MaxRootDepth levels, and past maxRootDirs
//     folders, maxRootEntries entries or maxRootStores stores, with a
//     note.
//
// notes are what the user should know (plain text, for the caller to make
// safe). The error is non-nil only when ctx is cancelled.
func RootStores(ctx context.Context, r MemoryRoot) (ps []*model.Project, notes []string, err error) {
	rw := &rootWalk{ctx: ctx, root: r.Dir}
	rw.walk("", r.Dir, 0)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if rw.rootIndex || (len(rw.found) == 0 && rw.rootMD && storeNames[filepath.Base(r.Dir)]) {
		rw.found = []string{""}
	}
	if len(rw.links) > maxRootNotes {
		n := len(rw.links) - maxRootNotes
		rw.links = append(rw.links[:maxRootNotes], fmt.Sprintf("%s: %d more %s to folders not followed", r.Dir, n, model.Plural(n, "link", "links")))
	}
	notes = append(rw.links, rw.notes...)
	for _, rel := range rw.found {
		dir := filepath.Join(r.Dir, filepath.FromSlash(rel))
		agent := r.Agent
		if agent == "" && rel != "" {
			agent = PathLabel(filepath.FromSlash(rel))
		}
		if agent == "" || agent == "claude" || agent == "codex" {
			agent = OtherAgent // Claude Code's and Codex's folders are skipped; a label like theirs is no copy's
		}
		ps = append(ps, &model.Project{Slug: agent + ":" + storeWhere(r.Dir, rel), Agent: agent,
			Dirs: []*model.MemoryDir{{Path: dir, Kind: model.DirRoot, Exists: true}}})
	}
	return ps, notes, nil
}

// storeWhere is how a store found at rel below root is named: the project
// folder's name for projects/<slug>/memory, the path below the root for
// any other, the root's last two path elements for the root itself.
func storeWhere(root, rel string) string {
	if rel == "" {
		return filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(root)), filepath.Base(root)))
	}
	if qwenProjectMemory(rel) {
		parts := strings.Split(rel, "/")
		return parts[len(parts)-2]
	}
	return rel
}

// rootWalk is the state of one root being searched.
type rootWalk struct {
	ctx  context.Context
	root string
	// found are the stores, slash paths below the root, in walk order.
	found []string
	// links are the links to folders not followed; notes the rest.
	links, notes []string
	// rootIndex and rootMD say the root holds a MEMORY.md, and any *.md.
	rootIndex, rootMD bool
	// dirs and entries count what was listed; stopped says a bound was
	// hit (and noted).
	dirs, entries int
	stopped       bool
}

// stop notes the bound hit, once, and ends the walk.
func (rw *rootWalk) stop(msg string) {
	if !rw.stopped {
		rw.stopped = true
		rw.notes = append(rw.notes, msg)
	}
}

// entriesOf lists the folder abs without following a link to it, in name
// order, counting against the bounds; false once a bound is hit. A folder
// that cannot be listed is a note.
func (rw *rootWalk) entriesOf(abs string) ([]fs.DirEntry, bool) {
	if rw.stopped || rw.ctx.Err() != nil {
		return nil, false
	}
	if rw.dirs++; rw.dirs > maxRootDirs {
		rw.stop(fmt.Sprintf("%s: more than %d folders; memtui stopped looking for memory there", rw.root, maxRootDirs))
		return nil, false
	}
	f, err := openDirNoFollow(abs)
	if err != nil {
		rw.notes = append(rw.notes, fmt.Sprintf("%s: not searched: %s", abs, errText(err)))
		return nil, false
	}
	defer f.Close()
	var out []fs.DirEntry
	for {
		// In batches: a folder of a million entries is not listed at once.
		batch, err := f.ReadDir(1024)
		out = append(out, batch...)
		if rw.entries += len(batch); rw.entries > maxRootEntries {
			rw.stop(fmt.Sprintf("%s: more than %d files and folders; memtui stopped looking for memory there", rw.root, maxRootEntries))
			return nil, false
		}
		if err == io.EOF || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			rw.notes = append(rw.notes, fmt.Sprintf("%s: listed in part: %s", abs, errText(err)))
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, true
}

// walk lists the folder abs, rel below the root and depth levels down:
// a store is taken whole; any other folder is entered, down to
// MaxRootDepth. The root itself is only marked (RootStores decides).
func (rw *rootWalk) walk(rel, abs string, depth int) {
	ents, ok := rw.entriesOf(abs)
	if !ok {
		return
	}
	index, md := false, false
	for _, e := range ents {
		// A MEMORY.md of any kind but a folder (a link, a FIFO) still
		// makes a store: its loader then says what is wrong with it.
		if !e.IsDir() {
			index = index || e.Name() == indexFileName
			md = md || strings.HasSuffix(e.Name(), ".md")
		}
	}
	switch {
	case rel == "":
		rw.rootIndex, rw.rootMD = index, md
		if index {
			return // the root is one store: its folders are its own
		}
	case index || qwenProjectMemory(rel) || (md && storeNamed(rel)):
		if len(rw.found) == maxRootStores {
			rw.stop(fmt.Sprintf("%s: more than %d memory folders; memtui lists the first %d", rw.root, maxRootStores, maxRootStores))
			return
		}
		rw.found = append(rw.found, rel)
		return
	}
	if depth >= MaxRootDepth {
		return
	}
	for _, e := range ents {
		name := e.Name()
		eabs := filepath.Join(abs, name)
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			// Stat only says where it leads; nothing is read through it.
			if fi, err := os.Stat(eabs); err == nil && fi.IsDir() {
				rw.links = append(rw.links, fmt.Sprintf("%s: a link to a folder, not followed", eabs))
			}
		case t.IsDir() && !rootSkipped[name]:
			rw.walk(joinRel(rel, name), eabs, depth+1)
		}
		if rw.stopped || rw.ctx.Err() != nil {
			return
		}
	}
}

// storeNames are the names the agents give a store folder: memory/
// (Qwen Code's per-project and local ones, OpenHands'), memories/ (Qwen
// Code's across projects), team-memory/ (Qwen Code's in a repository).
var storeNames = map[string]bool{MemoryDirName: true, "memories": true, "team-memory": true}

// storeNamed reports whether the folder at rel is named as a store, right
// under the root or under a dot folder (~/.openhands/memory,
// <repo>/.qwen/team-memory): where an agent puts one, not any docs/memory
// folder of a repository. Such a folder is a store once it holds a *.md
// file, before its index is written.
func storeNamed(rel string) bool {
	dir, name := path.Split(rel)
	if !storeNames[name] {
		return false
	}
	dir = strings.TrimSuffix(dir, "/")
	return dir == "" || strings.HasPrefix(path.Base(dir), ".")
}

// qwenProjectMemory reports whether rel ends in projects/<slug>/memory,
// Qwen Code's per-project store (Claude Code's own shape too), under the
// root or deeper (a root above ~/.qwen).
func qwenProjectMemory(rel string) bool {
	parts := strings.Split(rel, "/")
	n := len(parts)
	return n >= 3 && parts[n-3] == "projects" && parts[n-1] == MemoryDirName
}
