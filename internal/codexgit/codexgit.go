// Package codexgit writes a git baseline of a folder the way OpenAI Codex
// writes the one of its memory root (codex facts §4.3), in pure Go (with
// go-git's object store), so that tests and the demo can make one on a
// machine with no git binary.
//
// It is test and demo support only: it is called by tests and by the
// demo on its own scratch copy, and must never be used on a user's store.
// memtui never writes into $CODEX_HOME/memories, and never touches its
// .git: a commit there would hide the user's edits from Codex's next
// consolidation.
//
// The baseline is what Codex's writer makes: .git holds one root commit,
// author and committer Codex <noreply@openai.com>, the message
// "Initialize Codex git baseline", a blank line and a Co-authored-by
// trailer (no newline at the end), committed at whole seconds in UTC;
// its tree is the folder minus every .git (at any depth) and every folder
// with nothing in it. A regular file is a blob of mode 100755 when any
// execute bit is set, else 100644; a symbolic link a blob of its target
// (mode 120000); anything else is left out. HEAD names refs/heads/<branch>,
// and the index lists HEAD's tree, as the `git read-tree --reset HEAD`
// Codex runs after its commit leaves it.
package codexgit

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/memtui/memtui/model/codex"
)

// Options shape the baseline.
type Options struct {
	// Branch is the branch HEAD names; "" is "main".
	Branch string
	// Time is the commit's time (cut to the second, in UTC); zero is now.
	Time time.Time
	// Before replaces files of the folder in the baseline, by path
	// relative to it (slash-separated): the baseline holds these bytes
	// instead of the file on disk, and a nil value leaves the path out of
	// the baseline. It is how a test or the demo makes a baseline of the
	// folder as it was before an edit (a file added, changed or deleted
	// since Codex's last consolidation). A path with no file on disk is
	// added as a file of mode 100644, if its folder is there.
	Before map[string][]byte
}

// config is the .git/config written: a plain repository.
const config = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"

// Write makes dir/.git a one-commit baseline of dir as Codex writes one,
// and returns the commit's hash. dir/.git must not exist: Write never
// replaces a repository. Only tests and the demo call it, on folders
// they made.
func Write(dir string, o Options) (string, error) {
	gitDir := filepath.Join(dir, ".git")
	if _, err := os.Lstat(gitDir); err == nil {
		return "", errors.New(gitDir + " exists: codexgit writes a baseline only where there is none")
	}
	if o.Branch == "" {
		o.Branch = "main"
	}
	if o.Time.IsZero() {
		o.Time = time.Now()
	}
	st := filesystem.NewStorage(osfs.New(gitDir), cache.NewObjectLRUDefault())
	if err := st.Init(); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(gitDir, "config"), []byte(config), 0o644); err != nil {
		return "", err
	}
	w := &writer{st: st, before: o.Before}
	root, err := w.tree(dir, "")
	if err != nil {
		return "", err
	}
	if root.IsZero() {
		// An empty folder: Codex commits the empty tree all the same.
		if root, err = w.store(plumbing.TreeObject, nil); err != nil {
			return "", err
		}
	}
	// Codex's signature: whole seconds, offset 0.
	sig := codex.BaselineIdent + " " + strconv.FormatInt(o.Time.Unix(), 10) + " +0000"
	commit, err := w.store(plumbing.CommitObject, []byte("tree "+root.String()+"\nauthor "+sig+"\ncommitter "+sig+"\n\n"+
		codex.BaselineSubject+"\n\n"+codex.BaselineTrailer))
	if err != nil {
		return "", err
	}
	branch := plumbing.NewBranchReferenceName(o.Branch)
	if err := st.SetReference(plumbing.NewHashReference(branch, commit)); err != nil {
		return "", err
	}
	if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, branch)); err != nil {
		return "", err
	}
	sort.Slice(w.index, func(i, j int) bool { return w.index[i].Name < w.index[j].Name })
	if err := st.SetIndex(&index.Index{Version: 2, Entries: w.index}); err != nil {
		return "", err
	}
	return commit.String(), nil
}

// writer is one baseline being written.
type writer struct {
	st     *filesystem.Storage
	before map[string][]byte
	// used marks the Before paths met on disk.
	used  map[string]bool
	index []*index.Entry
}

// store writes an object of type t with the body given (a loose object,
// as go-git and Codex's git library write them) and returns its hash.
func (w *writer) store(t plumbing.ObjectType, body []byte) (plumbing.Hash, error) {
	obj := w.st.NewEncodedObject()
	obj.SetType(t)
	wr, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := wr.Write(body); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := wr.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return w.st.SetEncodedObject(obj)
}

// tree writes the tree of the folder abs (rel below the root) and returns
// its hash, zero when it holds nothing (Codex leaves such a folder out).
func (w *writer) tree(abs, rel string) (plumbing.Hash, error) {
	ents, err := os.ReadDir(abs)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if w.used == nil {
		w.used = map[string]bool{}
	}
	var entries []entry
	add := func(name string, mode filemode.FileMode, h plumbing.Hash) {
		entries = append(entries, entry{name, mode, h})
		if mode != filemode.Dir {
			w.index = append(w.index, &index.Entry{Name: path.Join(rel, name), Mode: mode, Hash: h})
		}
	}
	for _, e := range ents {
		name := e.Name()
		if name == ".git" {
			continue
		}
		p := path.Join(rel, name)
		t := e.Type()
		switch {
		case t.IsDir():
			h, err := w.tree(filepath.Join(abs, name), p)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if !h.IsZero() {
				add(name, filemode.Dir, h)
			}
		case t.IsRegular(), t&fs.ModeSymlink != 0:
			content, mode, err := w.file(filepath.Join(abs, name), t)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if b, ok := w.before[p]; ok {
				w.used[p] = true
				if b == nil {
					continue
				}
				content = b
			}
			h, err := w.store(plumbing.BlobObject, content)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			add(name, mode, h)
		}
	}
	// Before's paths with no file on disk (a file deleted since) that
	// belong in this folder.
	for p, b := range w.before {
		if w.used[p] || b == nil || path.Dir(p) != cleanDir(rel) {
			continue
		}
		w.used[p] = true
		h, err := w.store(plumbing.BlobObject, b)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		add(path.Base(p), filemode.Regular, h)
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	// git's order: a folder sorts as if its name ended in "/".
	key := func(e entry) string {
		if e.mode == filemode.Dir {
			return e.name + "/"
		}
		return e.name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	var body []byte
	for _, e := range entries {
		body = append(body, strconv.FormatUint(uint64(e.mode), 8)+" "+e.name+"\x00"...)
		body = append(body, e.hash[:]...)
	}
	return w.store(plumbing.TreeObject, body)
}

// entry is one entry of a tree being written.
type entry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// cleanDir is rel as path.Dir names it ("." for the root).
func cleanDir(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// file is what the baseline holds of a regular file or a link, and its
// git mode.
func (w *writer) file(abs string, t fs.FileMode) ([]byte, filemode.FileMode, error) {
	if t&fs.ModeSymlink != 0 {
		target, err := os.Readlink(abs)
		return []byte(target), filemode.Symlink, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, 0, err
	}
	content, err := os.ReadFile(abs)
	if err != nil {
		return nil, 0, err
	}
	return content, filemode.FileMode(codex.WorkMode(uint32(fi.Mode().Perm()))), nil
}
