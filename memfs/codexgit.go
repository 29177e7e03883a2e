package memfs

// Codex's git baseline (memories/.git, codex facts §4.3) read from disk
// without git. Codex writes it with a git library; memtui reads it with
// go-git, never with the git binary, which on a .git someone else put
// there would run that .git's config (core.fsmonitor, hooks, filters).
//
// go-git reads through gitFS, a read-only file system over the .git
// folder built on the safe reader: every file is opened below .git
// without following a symlink, FIFOs and devices are refused, each file
// is read under a cap, and every write go-git could attempt fails. Loose
// objects are inflated and checked (their header, size and hash) under a
// cap before go-git sees them, so a small file that inflates to gigabytes
// is refused, not decoded. Packed objects, alternates (which point
// outside .git) and anything but HEAD, refs and loose objects are not
// read: Codex writes loose objects only. Commits and trees are decoded
// here (codexgit_parse.go). Nothing is written under .git, nor anywhere
// under the store.

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The baseline reader's bounds. Codex's baseline is one commit of a
// store of a few hundred files three folders deep; these are far above
// it, and below what would cost real time or memory.
const (
	// maxBaselineEntries caps the tree entries read (files and folders),
	// as maxCodexEntries caps the store's walk.
	maxBaselineEntries = 20000
	// maxBaselineDepth caps the folders nested in the tree: deeper than
	// the store's walk goes, so that a file the walk did not reach is
	// still in the tree read (and known to be unknown, not deleted).
	maxBaselineDepth = 2 * maxCodexDepth
	// maxBaselineCommits caps the history walked to count commits.
	maxBaselineCommits = 1000
	// maxBaselineObject caps a commit or tree object, inflated: a tree
	// of 20,000 entries is about 2 MB.
	maxBaselineObject int64 = 8 << 20
	// maxGitFileBytes caps any other file read under .git (HEAD, a ref,
	// packed-refs).
	maxGitFileBytes int64 = 1 << 20
	// maxRefHops caps the symbolic refs followed from HEAD (Codex's is
	// one: HEAD -> refs/heads/<branch>).
	maxRefHops = 5
	// maxGitDirEntries caps a folder listed for go-git.
	maxGitDirEntries = 4096
	// maxLooseHeader caps a loose object's "<type> <size>\x00" header.
	maxLooseHeader = 32
	// maxShown caps an author, subject or ref name kept for display.
	maxShown = 200
)

// errCorrupt marks a loose object whose header, size or hash is wrong.
var errCorrupt = errors.New("corrupt")

// LoadCodexBaseline reads Codex's baseline of the memory root root: what
// HEAD names (resolved, never assumed to be main), its commit, the
// history's length, and HEAD's tree file by file (codex facts §4.3). A
// missing .git is Found false with no problem; a .git that is a symlink
// or a file (a "gitdir:" pointer) is a problem and is not followed; what
// cannot be read, or is refused, is a problem in words. Nothing under
// .git is written. A cancelled ctx stops the walk (with a problem).
func LoadCodexBaseline(ctx context.Context, root string) *codex.Baseline {
	b := &codex.Baseline{}
	g, ok := openBaseline(root, maxBaselineObject, b)
	if !ok {
		return b
	}
	l := &baselineLoad{ctx: ctx, b: b, g: g, st: g.storage()}
	l.load()
	return b
}

// CodexBaselineBlob returns the content of the blob hash (40 hex digits,
// from Baseline.Files) in the memory root root's .git, at most max bytes
// inflated (a bigger one is an error, never a part): what a view shows a
// modified file's diff against. It reads as LoadCodexBaseline does.
func CodexBaselineBlob(ctx context.Context, root, hash string, max int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(hash) != 40 || strings.Trim(hash, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("%q is not a blob hash", short(hash))
	}
	var b codex.Baseline
	g, ok := openBaseline(root, max, &b)
	if !ok {
		if len(b.Problems) > 0 {
			return nil, errors.New(b.Problems[0])
		}
		return nil, errors.New("no .git in " + root)
	}
	out, err := readObject(g.storage(), plumbing.BlobObject, plumbing.NewHash(hash), max)
	if err != nil {
		return nil, fmt.Errorf("blob %s: %s", hash, g.describe(err))
	}
	return out, nil
}

// readObject reads the object h of type t from st, at most max bytes (a
// bigger one is an error). gitFS refuses a loose object over its cap
// before go-git decodes it; the size checks here keep the read bounded
// whatever go-git reads it from.
func readObject(st *filesystem.Storage, t plumbing.ObjectType, h plumbing.Hash, max int64) ([]byte, error) {
	obj, err := st.EncodedObject(t, h)
	if err != nil {
		return nil, err
	}
	if obj.Size() > max {
		return nil, fmt.Errorf("%s, more than the %s memtui reads of one", sizeText(obj.Size()), sizeText(max))
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(out)) > max {
		return nil, fmt.Errorf("more than the %s memtui reads of one", sizeText(max))
	}
	return out, nil
}

// openBaseline checks root/.git is a real directory (Lstat: a symlink or
// file is refused, as a problem in b) and returns the file system to
// read it with, objects capped at maxObject.
func openBaseline(root string, maxObject int64, b *codex.Baseline) (*gitFS, bool) {
	dir := filepath.Join(root, ".git")
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return nil, false
	case err != nil:
		b.Problems = append(b.Problems, ".git could not be examined: "+errText(err))
		return nil, false
	case fi.Mode()&fs.ModeSymlink != 0:
		b.Problems = append(b.Problems, ".git is a symbolic link: memtui reads no baseline through it (Codex deletes links under its memory root, and a run with no baseline makes a new one from the files as they are, so edits made since its last run are never shown to its agent)")
		return nil, false
	case !fi.IsDir():
		b.Problems = append(b.Problems, ".git is a "+model.FileKind(fi.Mode())+", not a folder: memtui follows no pointer out of the store (Codex replaces it with a new baseline of the files as they are, so edits made since its last run are never shown to its agent)")
		return nil, false
	}
	b.Found = true
	g := &gitFS{dir: dir, maxObject: maxObject}
	g.packed = g.hasPacks()
	return g, true
}

// baselineLoad is one baseline being read.
type baselineLoad struct {
	ctx context.Context
	b   *codex.Baseline
	g   *gitFS
	st  *filesystem.Storage
	// entries counts the tree entries read.
	entries int
	// trees are the trees decoded, by hash: a tree that names the same
	// subtree many times is read once (the entries bound still counts
	// every path).
	trees map[plumbing.Hash][]gitEntry
}

func (l *baselineLoad) problem(format string, args ...any) {
	l.b.Problems = append(l.b.Problems, fmt.Sprintf(format, args...))
}

func (l *baselineLoad) load() {
	head, ok := l.head()
	if !ok {
		return
	}
	c, err := l.commit(head)
	if err != nil {
		l.problem("HEAD's commit %s could not be read: %s", head, l.g.describe(err))
		return
	}
	b := l.b
	b.Head = head.String()
	b.Time = c.committer.when
	b.Author = short(c.author.ident)
	b.Committer = short(c.committer.ident)
	subject, _, _ := strings.Cut(c.message, "\n")
	b.Subject = short(subject)
	b.Parents = len(c.parents)
	l.count(head, c)
	// One commit is a root commit: count counts a parent it cannot read.
	b.ByCodex = b.Commits == 1 && codex.IsCodexCommit(c.author.ident, c.committer.ident, c.message)
	files := map[string]codex.BlobRef{}
	if l.tree(c.tree, "", 0, files) {
		b.Files = files
	}
}

// head resolves HEAD to a commit hash, following at most maxRefHops
// symbolic refs (a loop is a problem, not a hang). The first ref HEAD
// names is the branch.
func (l *baselineLoad) head() (plumbing.Hash, bool) {
	name := plumbing.HEAD
	for hop := 0; hop <= maxRefHops; hop++ {
		ref, err := l.st.Reference(name)
		if err != nil {
			// go-git looks in packed-refs when a ref's file cannot be
			// read, and says only "not found": say what the file is.
			if f, ferr := l.g.Open(name.String()); ferr != nil && !errors.Is(ferr, fs.ErrNotExist) {
				err = ferr
			} else if ferr == nil {
				f.Close()
			}
			if hop == 0 {
				l.problem("HEAD could not be read: %s (Codex then makes a new baseline of the files as they are, and its next run sees no edit)", l.g.describe(err))
			} else {
				l.problem("HEAD names %s, which could not be read: %s (an unborn or broken branch; Codex then makes a new baseline of the files as they are, and its next run sees no edit)", short(name.String()), l.g.describe(err))
			}
			return plumbing.ZeroHash, false
		}
		if ref.Type() == plumbing.SymbolicReference {
			if hop == 0 {
				l.b.Branch = short(strings.TrimPrefix(ref.Target().String(), "refs/heads/"))
			}
			name = ref.Target()
			continue
		}
		h := ref.Hash()
		if h.IsZero() || !plumbing.IsHash(h.String()) {
			l.problem("%s holds no commit hash (Codex then makes a new baseline of the files as they are, and its next run sees no edit)", short(name.String()))
			return plumbing.ZeroHash, false
		}
		return h, true
	}
	l.problem("HEAD's symbolic refs go more than %d deep, or loop; not followed further", maxRefHops)
	return plumbing.ZeroHash, false
}

// commit reads and decodes the commit h.
func (l *baselineLoad) commit(h plumbing.Hash) (gitCommit, error) {
	raw, err := readObject(l.st, plumbing.CommitObject, h, l.g.maxObject)
	if err != nil {
		return gitCommit{}, err
	}
	return parseCommit(raw)
}

// count walks the history from c (the commit head), each commit once, up
// to maxBaselineCommits.
func (l *baselineLoad) count(head plumbing.Hash, c gitCommit) {
	seen := map[plumbing.Hash]bool{head: true}
	queue := append([]plumbing.Hash(nil), c.parents...)
	l.b.Commits = 1
	for len(queue) > 0 {
		if l.ctx.Err() != nil {
			l.problem("the history was not walked whole: %v", l.ctx.Err())
			return
		}
		h := queue[0]
		queue = queue[1:]
		if seen[h] {
			continue
		}
		seen[h] = true
		if l.b.Commits >= maxBaselineCommits {
			l.problem("the history holds more than %d commits; memtui counted no further", maxBaselineCommits)
			return
		}
		l.b.Commits++
		p, err := l.commit(h)
		if err != nil {
			l.problem("commit %s of the history could not be read: %s", h, l.g.describe(err))
			continue
		}
		queue = append(queue, p.parents...)
	}
}

// tree reads the tree h (at prefix) into files; false when it could not
// be read whole (a problem says why).
func (l *baselineLoad) tree(h plumbing.Hash, prefix string, depth int, files map[string]codex.BlobRef) bool {
	if l.ctx.Err() != nil {
		l.problem("HEAD's tree was not read whole: %v", l.ctx.Err())
		return false
	}
	if depth > maxBaselineDepth {
		l.problem("HEAD's tree nests more than %d folders deep at %s; memtui read no further, so what is pending is not known", maxBaselineDepth, short(prefix))
		return false
	}
	t, ok := l.trees[h]
	var err error
	if !ok {
		var raw []byte
		if raw, err = readObject(l.st, plumbing.TreeObject, h, l.g.maxObject); err == nil {
			t, err = parseTree(raw)
		}
		if err == nil {
			if l.trees == nil {
				l.trees = map[plumbing.Hash][]gitEntry{}
			}
			l.trees[h] = t
		}
	}
	if err != nil {
		where := "HEAD's tree"
		if prefix != "" {
			where = "the tree of " + short(prefix)
		}
		l.problem("%s (%s) could not be read, so what is pending is not known: %s", where, h, l.g.describe(err))
		return false
	}
	for _, e := range t {
		if l.entries++; l.entries > maxBaselineEntries {
			l.problem("HEAD's tree holds more than %d files and folders; memtui read no further, so what is pending is not known", maxBaselineEntries)
			return false
		}
		if !validTreeName(e.name) {
			l.problem("HEAD's tree names an entry %q under %q, which no folder can hold; what is pending is not known", short(e.name), short(prefix))
			return false
		}
		p := joinRel(prefix, e.name)
		if e.mode == modeDir {
			if !l.tree(e.hash, p, depth+1, files) {
				return false
			}
			continue
		}
		files[p] = codex.BlobRef{Hash: e.hash.String(), Mode: e.mode}
	}
	return true
}

// validTreeName says a tree entry's name is one a folder can hold: not
// empty, ".", "..", and without a slash or NUL.
func validTreeName(n string) bool {
	return n != "" && n != "." && n != ".." && !strings.ContainsAny(n, "/\x00")
}

// short cuts s for a message or a field shown (a ref name or an author
// read from a hostile .git can be a megabyte long), on a rune boundary.
func short(s string) string {
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// gitFS is the read-only billy file system go-git reads .git through.
type gitFS struct {
	// dir is the .git folder (checked a real directory by the caller).
	dir string
	// maxObject caps a loose object, inflated.
	maxObject int64
	// packed says objects/pack holds pack files, which are not read.
	packed bool
}

// storage is go-git's object and ref store over g, with a small cache.
func (g *gitFS) storage() *filesystem.Storage {
	return filesystem.NewStorageWithOptions(g, cache.NewObjectLRU(16*cache.MiByte), filesystem.Options{AlternatesFS: g})
}

// describe is err in words for a problem: a refusal or failure of gitFS
// names its path under .git; go-git's own errors are as go-git says them.
func (g *gitFS) describe(err error) string {
	var pe *fs.PathError
	var msg string
	if errors.As(err, &pe) {
		msg = pe.Path + ": " + pe.Err.Error()
	} else {
		msg = err.Error()
	}
	if g.packed && errors.Is(err, plumbing.ErrObjectNotFound) {
		msg += " (.git/objects/pack holds packed objects, which memtui does not read: Codex writes loose objects, so git ran in the store)"
	}
	return short(msg)
}

// hasPacks says objects/pack holds a pack file.
func (g *gitFS) hasPacks() bool {
	if _, err := g.Stat("objects/pack"); err != nil {
		return false
	}
	f, err := openDirNoFollow(filepath.Join(g.dir, "objects", "pack"))
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxGitDirEntries)
	for _, n := range names {
		if strings.HasSuffix(n, ".pack") {
			return true
		}
	}
	return false
}

// clean is name as a slash path relative to .git ("." for .git itself).
func (g *gitFS) clean(name string) string {
	return filepath.ToSlash(filepath.Clean(name))
}

// hidden says rel is one gitFS does not show go-git: alternates point
// outside .git, and packs are not read (Codex writes loose objects).
func hidden(rel string) bool {
	return rel == "objects/info/alternates" || rel == "objects/pack" || strings.HasPrefix(rel, "objects/pack/")
}

// looseHash is the hash a loose object's path names
// (objects/[incoming/]xx/yyyy…), "" when rel is not one.
func looseHash(rel string) string {
	parts := strings.Split(rel, "/")
	n := len(parts)
	if (n != 3 && n != 4) || parts[0] != "objects" || len(parts[n-2]) != 2 || len(parts[n-1]) != 38 {
		return ""
	}
	h := parts[n-2] + parts[n-1]
	if strings.Trim(h, "0123456789abcdef") != "" {
		return ""
	}
	return h
}

func (g *gitFS) pathErr(op, rel string, err error) error {
	return &fs.PathError{Op: op, Path: ".git/" + rel, Err: UnwrapPathErr(err)}
}

func (g *gitFS) notExist(op, rel string) error {
	return &fs.PathError{Op: op, Path: ".git/" + rel, Err: fs.ErrNotExist}
}

// Open reads the file name under .git whole (under its cap) and returns
// it as a read-only file in memory.
func (g *gitFS) Open(name string) (billy.File, error) {
	rel := g.clean(name)
	if hidden(rel) {
		return nil, g.notExist("open", rel)
	}
	var data []byte
	var err error
	if h := looseHash(rel); h != "" {
		data, err = g.readLoose(rel, h)
	} else {
		data, err = readIn(g.dir, rel, maxGitFileBytes)
	}
	if err != nil {
		return nil, g.pathErr("open", rel, err)
	}
	return &gitFile{name: name, Reader: bytes.NewReader(data)}, nil
}

// readLoose reads the loose object at rel, inflates it under the cap and
// checks its header, its size and that it hashes to its name; it returns
// the file's bytes (still compressed) for go-git to read.
func (g *gitFS) readLoose(rel, hash string) ([]byte, error) {
	// zlib adds at most a few bytes per 16 KiB block to what it cannot
	// compress.
	raw, err := readIn(g.dir, rel, g.maxObject+g.maxObject/64+1024)
	if err != nil {
		return nil, err
	}
	corrupt := func(why string) error {
		return &fs.PathError{Op: "read", Path: rel, Err: &refusal{msg: "a corrupt object (" + why + "); not read", kind: errCorrupt}}
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, corrupt("not zlib data")
	}
	limit := g.maxObject + maxLooseHeader
	body, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, corrupt("it does not inflate")
	}
	if int64(len(body)) > limit {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: &refusal{msg: "an object over the " + sizeText(g.maxObject) + " memtui reads of one; not read", kind: errTooLarge}}
	}
	nul := bytes.IndexByte(body[:min(len(body), maxLooseHeader)], 0)
	if nul < 0 {
		return nil, corrupt("no header")
	}
	typ, size, ok := strings.Cut(string(body[:nul]), " ")
	n, err := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || (typ != "blob" && typ != "tree" && typ != "commit" && typ != "tag") {
		return nil, corrupt("a bad header")
	}
	if n != int64(len(body)-nul-1) {
		return nil, corrupt("its size is not the one its header says")
	}
	sum := sha1.Sum(body)
	if hex.EncodeToString(sum[:]) != hash {
		return nil, corrupt("its content does not hash to its name")
	}
	return raw, nil
}

// Stat is Lstat: no link is followed, anywhere on the way.
func (g *gitFS) Stat(name string) (os.FileInfo, error) { return g.Lstat(name) }

// Lstat describes name under .git, walking down from .git without
// following a link: one on the way is refused.
func (g *gitFS) Lstat(name string) (os.FileInfo, error) {
	rel := g.clean(name)
	if hidden(rel) && rel != "objects/pack" {
		return nil, g.notExist("stat", rel)
	}
	return g.lstat(rel)
}

func (g *gitFS) lstat(rel string) (os.FileInfo, error) {
	if rel == "." {
		return os.Lstat(g.dir)
	}
	parts, err := relParts(g.dir, rel)
	if err != nil {
		return nil, g.pathErr("stat", rel, err)
	}
	p := g.dir
	for i, c := range parts {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, g.pathErr("stat", rel, err)
		}
		if i == len(parts)-1 {
			return fi, nil
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, g.pathErr("stat", rel, symlinkErr(p, strings.Join(parts[:i+1], "/")))
		case !fi.IsDir():
			return nil, g.pathErr("stat", rel, syscall.ENOTDIR)
		}
	}
	return nil, g.notExist("stat", rel)
}

// ReadDir lists the folder name under .git (at most maxGitDirEntries
// entries), reached without following a link; objects/pack lists empty.
func (g *gitFS) ReadDir(name string) ([]os.FileInfo, error) {
	rel := g.clean(name)
	if hidden(rel) {
		return nil, nil
	}
	dir := g.dir
	if rel != "." {
		fi, err := g.lstat(rel)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, g.pathErr("readdir", rel, syscall.ENOTDIR)
		}
		dir = filepath.Join(g.dir, filepath.FromSlash(rel))
	}
	f, err := openDirNoFollow(dir)
	if err != nil {
		return nil, g.pathErr("readdir", rel, err)
	}
	defer f.Close()
	infos, err := f.Readdir(maxGitDirEntries)
	if err != nil && err != io.EOF {
		return infos, g.pathErr("readdir", rel, err)
	}
	return infos, nil
}

// Join joins path elements, as the OS does.
func (g *gitFS) Join(elem ...string) string { return filepath.Join(elem...) }

// Root is the .git folder.
func (g *gitFS) Root() string { return g.dir }

// OpenFile opens name to read; any other flag is refused: nothing under
// .git is ever written.
func (g *gitFS) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
		return nil, billy.ErrReadOnly
	}
	return g.Open(name)
}

// The writes go-git could attempt, each refused.

// Create is refused: gitFS is read-only.
func (g *gitFS) Create(string) (billy.File, error) { return nil, billy.ErrReadOnly }

// Rename is refused: gitFS is read-only.
func (g *gitFS) Rename(string, string) error { return billy.ErrReadOnly }

// Remove is refused: gitFS is read-only.
func (g *gitFS) Remove(string) error { return billy.ErrReadOnly }

// TempFile is refused: gitFS is read-only.
func (g *gitFS) TempFile(string, string) (billy.File, error) { return nil, billy.ErrReadOnly }

// MkdirAll is refused: gitFS is read-only.
func (g *gitFS) MkdirAll(string, os.FileMode) error { return billy.ErrReadOnly }

// Symlink is refused: gitFS is read-only.
func (g *gitFS) Symlink(string, string) error { return billy.ErrReadOnly }

// Readlink is refused: no link under .git is followed.
func (g *gitFS) Readlink(string) (string, error) { return "", billy.ErrNotSupported }

// Chroot is refused: go-git asks for it only to follow alternates, which
// point outside .git.
func (g *gitFS) Chroot(string) (billy.Filesystem, error) { return nil, billy.ErrNotSupported }

// Capabilities says gitFS reads and seeks, and never writes.
func (g *gitFS) Capabilities() billy.Capability {
	return billy.ReadCapability | billy.SeekCapability
}

// gitFile is a file of .git read whole into memory: read-only.
type gitFile struct {
	name string
	*bytes.Reader
}

func (f *gitFile) Name() string              { return f.name }
func (f *gitFile) Write([]byte) (int, error) { return 0, billy.ErrReadOnly }
func (f *gitFile) Close() error              { return nil }
func (f *gitFile) Lock() error               { return nil }
func (f *gitFile) Unlock() error             { return nil }
func (f *gitFile) Truncate(int64) error      { return billy.ErrReadOnly }
