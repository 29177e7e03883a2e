package memfs

import (
	"path/filepath"
	"strings"
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
//     dir and a path long enough to carry Claude Code's hash suffix.
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
	inMem := "-projects-" + slug + "-" + memoryDirName
	var out []string
	for _, n := range names {
		if n == slug || n == "" {
			continue
		}
		ok := hasPrefix(n, sub) || hasSuffix(n, inMem)
		for _, d := range dirs {
			if ok {
				break
			}
			ok = slugMatches(d, n)
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
	ents, err := readDir(parent)
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
