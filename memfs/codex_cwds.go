package memfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memtui/memtui/model/codex"
)

// maxCodexCwds bounds the lookups: a handbook names one cwd per task
// group, a few dozen; past this many, the rest are not looked up (and so
// never reported as gone).
const maxCodexCwds = 256

// codexCwds records in s.CwdExists whether each path the handbook's
// applies_to: cwd= names is there (codex facts §9 item 5: memories of a
// project that moved or was deleted). Each is one Lstat of the path
// itself, so no link at its end is followed; ~ is the user's home. Under
// the demo's Chroot the paths are looked up there, and a missing one
// says nothing (its world is partial). A lookup that fails otherwise
// (permission denied) records nothing: memtui does not know.
func codexCwds(s *codex.Store, opts Options) {
	f := s.File(codex.HandbookFile)
	if f == nil {
		return
	}
	looked := map[string]bool{}
	for _, g := range codex.ParseHandbook(f.Content).Groups {
		for _, p := range codex.PathsIn(g.Cwd) {
			if looked[p] {
				continue
			}
			if len(looked) >= maxCodexCwds {
				return
			}
			looked[p] = true
			abs := p
			if p == "~" || strings.HasPrefix(p, "~/") {
				if opts.Home == "" {
					continue
				}
				abs = filepath.Join(opts.Home, p[1:])
			}
			if !filepath.IsAbs(abs) {
				continue // a Windows path on Unix, or the reverse: nothing here to look at
			}
			if opts.Chroot != "" {
				abs = filepath.Join(opts.Chroot, abs)
			}
			_, err := os.Lstat(abs)
			if s.CwdExists == nil {
				s.CwdExists = map[string]bool{}
			}
			switch {
			case err == nil:
				s.CwdExists[p] = true
			case (errors.Is(err, fs.ErrNotExist) || isNotDir(err)) && opts.Chroot == "":
				s.CwdExists[p] = false
			}
		}
	}
}
