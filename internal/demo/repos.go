package demo

import (
	"io/fs"
	"testing/fstest"
)

// ReposDir is where, inside the demo's scratch copy, the folders its
// transcripts name are found (memfs.Options.Chroot): the sample's
// sessions ran in /home/dev/..., which is <scratch>/ReposDir/home/dev/...
// on disk.
const ReposDir = ".memtui-demo-repos"

// Repos is the git metadata of the demo's repositories, as git writes
// it with relative worktree paths (worktree.useRelativePaths): the main
// checkout /home/dev/ml-pipeline and its worktree
// /home/dev/mlp-eval-harness, where session 1a3c5e7b (branch
// eval-harness) wrote two memories into the worktree's own store,
// projects/-home-dev-mlp-eval-harness/memory. Claude Code keys a
// worktree's memory by its main checkout, so it never loads them: the
// demo's stranded store. (git does not track a folder named .git, so
// these are written here rather than kept in the sample.)
func Repos() fs.FS {
	wt := "home/dev/ml-pipeline/.git/worktrees/mlp-eval-harness/"
	return fstest.MapFS{
		"home/dev/ml-pipeline/.git/HEAD":      {Data: []byte("ref: refs/heads/main\n")},
		wt + "HEAD":                           {Data: []byte("ref: refs/heads/eval-harness\n")},
		wt + "commondir":                      {Data: []byte("../..\n")},
		wt + "gitdir":                         {Data: []byte("../../../../mlp-eval-harness/.git\n")},
		"home/dev/mlp-eval-harness/.git":      {Data: []byte("gitdir: ../ml-pipeline/.git/worktrees/mlp-eval-harness\n")},
		"home/dev/mlp-eval-harness/README.md": {Data: []byte("# ml-pipeline (worktree on eval-harness)\n")},
	}
}
