package memfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// Which folder Claude Code keys a working directory's memory by (facts
// §1.3 step 2, §12.1): the launch folder, realpath'd; then the first
// folder walking up that has a .git; then, for a worktree, its main
// checkout, once two back-pointers agree. KeyOf follows the steps and
// keeps the paths that prove each, so a finding can show them.

// KeyKind says how a working directory comes to its key root.
type KeyKind int

// Kinds of key root, from Claude Code's rules (facts §1.3 step 2).
const (
	// KeyNoRepo: no .git above the folder: the folder itself is the key.
	KeyNoRepo KeyKind = iota
	// KeyRepo: the folder is the top of a checkout whose .git keeps its
	// own root (a .git directory; or a .git file that is no worktree's:
	// a submodule, a worktree whose back-pointers do not agree).
	KeyRepo
	// KeyWorktree: the folder is in a git worktree checkout (its top or
	// below it): the key is the main checkout, or a bare repository.
	KeyWorktree
	// KeySubdir: the folder is below a checkout's top, which is the key.
	KeySubdir
	// KeyMissing: the folder is gone (or is no longer a folder): no
	// session can start there, so nothing is keyed by it.
	KeyMissing
)

var keyKindNames = [...]string{"no repository", "repository root", "worktree", "subdirectory", "folder missing"}

// String names the kind for people.
func (k KeyKind) String() string {
	if k < 0 || int(k) >= len(keyKindNames) {
		return "unknown"
	}
	return keyKindNames[k]
}

// Key is the root Claude Code keys a working directory's memory by, with
// what proves it.
type Key struct {
	// Dir is the folder asked about, cleaned.
	Dir string
	// Real is Dir with its symbolic links resolved: Claude Code realpaths
	// the launch folder before anything else (facts §1.3 step 1). "" when
	// the folder is missing.
	Real string
	// Root is the key root: the memory dir is projects/<sanitizePath(Root)>.
	// "" when the folder is missing.
	Root string
	Kind KeyKind
	// Top is the folder whose .git the walk up from Real found (the
	// checkout's top), "" outside any repository.
	Top string
	// Common is the repository's git common dir when known: <Top>/.git
	// for a .git directory, the commondir a worktree's files lead to.
	Common string
	// Evidence are the facts on disk behind Root, one line each, naming
	// the paths that prove them.
	Evidence []string
}

// gitFileMax caps the read of a .git file and of a worktree's gitdir and
// commondir files: each holds one path (git writes a line; PATH_MAX is
// 4096 on Linux), and Claude Code caps these reads too (facts §1.3).
const gitFileMax = 16 << 10

// KeyOf works out the key root of the working directory dir, as Claude
// Code 2.1.332 does at launch (facts §1.3 step 2, §12.1). dir is a
// transcript's cwd: absolute, realpath'd when the session ran. The walk
// only stats; the .git file and a worktree's gitdir and commondir are
// read through the safe reader, bounded, regular files only. The error is
// for a folder that can be neither resolved nor ruled gone (a permission
// denied, a link loop): then nobody can tell its key.
func KeyOf(dir string) (Key, error) {
	k := Key{Dir: filepath.Clean(dir)}
	real, err := filepath.EvalSymlinks(k.Dir)
	if err == nil {
		if fi, serr := os.Stat(real); serr != nil || !fi.IsDir() {
			err = syscall.ENOTDIR
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			k.Kind = KeyMissing
			k.Evidence = []string{k.Dir + " no longer exists as a folder"}
			return k, nil
		}
		return k, err
	}
	k.Real = real
	if real != k.Dir {
		k.Evidence = append(k.Evidence, k.Dir+" resolves to "+real+" (Claude Code starts from the resolved path)")
	}
	top, isDir := findGitTop(real)
	if top == "" {
		k.Root, k.Kind = real, KeyNoRepo
		k.Evidence = append(k.Evidence, "no .git in "+real+" or any folder above it")
		return k, nil
	}
	k.Top = top
	if top != real {
		k.Evidence = append(k.Evidence, filepath.Join(top, ".git")+" is the first .git found walking up from "+real)
	}
	if isDir {
		k.Root, k.Common = top, filepath.Join(top, ".git")
		k.Kind = KeyRepo
		if top != real {
			k.Kind = KeySubdir
		} else {
			k.Evidence = append(k.Evidence, k.Common+" is a directory: "+top+" is a repository's root")
		}
		return k, nil
	}
	wt := canonicalRoot(top)
	k.Evidence = append(k.Evidence, wt.evidence...)
	switch {
	case wt.root != "":
		k.Root, k.Common, k.Kind = wt.root, wt.common, KeyWorktree
	case top != real:
		k.Root, k.Kind = top, KeySubdir
	default:
		k.Root, k.Kind = top, KeyRepo
	}
	return k, nil
}

// findGitTop walks up from dir (the filesystem root last) to the first
// folder whose .git is a directory or a regular file, following a
// symlinked .git as Claude Code's stat does (c0103 Ce); isDir says which.
// A FIFO or a device named .git is no .git, and the walk goes on.
func findGitTop(dir string) (top string, isDir bool) {
	for cur := dir; ; {
		if fi, err := os.Stat(filepath.Join(cur, ".git")); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			return cur, fi.IsDir()
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", false
		}
		cur = parent
	}
}

// worktreeRoot is what a .git file at a checkout's top leads to.
type worktreeRoot struct {
	// root is the main checkout (or the bare repository) when the
	// back-pointer checks hold; "" when the checkout keeps its own root.
	root, common string
	evidence     []string
}

// canonicalRoot follows the .git file at top to the root Claude Code keys
// a worktree by (c0103 Wt/Ut; facts §1.3 "Canonical root"): read the
// gitdir it names, that gitdir's commondir and its back-pointer (gitdir),
// and check that the gitdir sits in <commondir>/worktrees and points back
// at top's .git. Anything that fails keeps top's own root, and the
// evidence says which step failed.
func canonicalRoot(top string) worktreeRoot {
	var out worktreeRoot
	own := func(why string) worktreeRoot {
		out.root, out.common = "", ""
		out.evidence = append(out.evidence, why+", so "+top+" keeps its own root")
		return out
	}
	gitFile := filepath.Join(top, ".git")
	// A symlinked .git is followed as Claude Code follows it: the read
	// is still bounded and of a regular file only.
	b, err := readFile(gitFile, gitFileMax, followLinks)
	if err != nil {
		return own(gitFile + " could not be read (" + errText(err) + ")")
	}
	content := strings.TrimSpace(string(b))
	rest, ok := strings.CutPrefix(content, "gitdir:")
	if !ok {
		return own(gitFile + " is a file that names no gitdir")
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return own(gitFile + " names an empty gitdir")
	}
	wtGit := resolvePath(top, rest)
	if posixBackslash(top, rest) {
		return own(gitFile + " names a path with a backslash")
	}
	// git writes commondir and gitdir as plain files: a link there was put
	// by something else, and is not followed out.
	cb, err := readFile(filepath.Join(wtGit, "commondir"), gitFileMax, noFollow)
	if err != nil {
		return own(gitFile + " names " + wtGit + ", which has no readable commondir (a submodule's gitdir has none)")
	}
	craw := strings.TrimSpace(string(cb))
	common := resolvePath(wtGit, craw)
	if craw == "" || posixBackslash(craw) {
		return own(filepath.Join(wtGit, "commondir") + " names no usable path")
	}
	if filepath.Dir(wtGit) != filepath.Join(common, "worktrees") {
		return own(wtGit + " is not in " + filepath.Join(common, "worktrees") + ", where git keeps the worktrees of " + common)
	}
	bb, err := readFile(filepath.Join(wtGit, "gitdir"), gitFileMax, noFollow)
	if err != nil {
		return own(filepath.Join(wtGit, "gitdir") + " could not be read (" + errText(err) + ")")
	}
	braw := strings.TrimSpace(string(bb))
	if braw == "" || posixBackslash(braw) {
		return own(filepath.Join(wtGit, "gitdir") + " names no usable path")
	}
	back, err := filepath.EvalSymlinks(resolvePath(wtGit, braw))
	realTop, terr := filepath.EvalSymlinks(top)
	if err != nil || terr != nil || back != filepath.Join(realTop, ".git") {
		return own(filepath.Join(wtGit, "gitdir") + " does not point back to " + gitFile)
	}
	out.evidence = append(out.evidence,
		gitFile+" is a file naming "+wtGit,
		filepath.Join(wtGit, "commondir")+" leads to "+common,
		filepath.Join(wtGit, "gitdir")+" points back to "+gitFile)
	if filepath.Base(common) == ".git" {
		out.root, out.common = filepath.Dir(common), common
		out.evidence = append(out.evidence, top+" is a worktree of the repository at "+out.root)
		return out
	}
	// A bare repository's worktree keys to the repository folder, unless
	// that folder has a .git of its own (facts §1.3, changed after 2.1.261).
	if _, err := os.Lstat(filepath.Join(common, ".git")); err == nil {
		return own(common + " is no .git folder and holds a .git of its own")
	}
	out.root, out.common = common, common
	out.evidence = append(out.evidence, top+" is a worktree of the bare repository "+common)
	return out
}

// resolvePath is Node's path.resolve(base, p): p if absolute, else joined
// to base; either way cleaned, with no link resolved.
func resolvePath(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// posixBackslash reports a backslash in any of ps where paths are POSIX:
// Claude Code keeps the worktree's own root then (facts §1.3, changed
// after 2.1.261).
func posixBackslash(ps ...string) bool {
	if runtime.GOOS == "windows" {
		return false
	}
	for _, p := range ps {
		if strings.Contains(p, `\`) {
			return true
		}
	}
	return false
}
