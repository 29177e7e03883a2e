package transcript

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"

	"github.com/memtui/memtui/memfs"
)

// memMatcher says which paths are memory files and builds the needles that
// find lines naming them.
type memMatcher struct {
	dirs    []string // memory dirs, slash-separated and cleaned
	top     []string // dirs not nested in another (team/ is inside memory/)
	home    string   // slash-separated
	primary string   // the auto memdir: where a personal memory-store path lands
	// autoTail is "/projects/<slug>/memory/" and auto the project's auto
	// memdir: a path under another config dir's copy of the same project
	// (the config dir moved, was synced from another machine or renamed
	// with the home directory) is the same memory file.
	autoTail, auto string
	// winSlug is set when the project's slug was made from a Windows path:
	// its memory folder is then named case-insensitively (NTFS), as any
	// path with a drive letter is (transcripts §9.1).
	winSlug bool
}

// movedFrom sets the project's transcript dir (<config>/projects/<slug>),
// whose memory/ takes paths written under any other config dir's
// projects/<slug>/memory/.
func (m *memMatcher) movedFrom(tdir string) {
	if tdir == "" {
		return
	}
	tdir = path.Clean(toSlash(tdir))
	if path.Base(path.Dir(tdir)) != "projects" {
		return
	}
	m.auto = tdir + "/" + memfs.MemoryDirName
	m.autoTail = "/projects/" + path.Base(tdir) + "/" + memfs.MemoryDirName + "/"
	m.winSlug = isWinSlug(path.Base(tdir))
}

// isWinSlug reports whether a slug was made from a Windows path: a drive
// letter, then "--" for ":\" (D:\work\shop is D--work-shop). Its sessions
// name the folder with the drive letter in either case (transcripts §9.1).
func isWinSlug(slug string) bool {
	return len(slug) >= 3 && isASCIILetter(slug[0]) && slug[1] == '-' && slug[2] == '-'
}

// hasDrive reports whether a slash-form path starts with a drive letter
// (C:/...), the mark of a path written on Windows.
func hasDrive(p string) bool { return len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) }

// lowerASCII lowers ASCII letters only, so byte offsets into the result
// are offsets into s (strings.ToLower can change a string's length).
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 0x20
		}
	}
	return string(b)
}

func newMemMatcher(dirs []string, home string) *memMatcher {
	m := &memMatcher{home: toSlash(home)}
	for _, d := range dirs {
		m.dirs = append(m.dirs, path.Clean(toSlash(d)))
	}
	if len(m.dirs) > 0 {
		m.primary = m.dirs[0]
	}
	for _, d := range m.dirs {
		nested := false
		for _, o := range m.dirs {
			if o != d && strings.HasPrefix(d, o+"/") {
				nested = true
			}
		}
		if !nested {
			m.top = append(m.top, d)
		}
	}
	return m
}

// toSlash turns a path as an agent wrote it into slash form. Backslashes
// are separators in the Windows forms real transcripts hold (C:\Users\...,
// §2); no memory file name contains one.
func toSlash(p string) string {
	return strings.ReplaceAll(p, `\`, "/")
}

// path normalises p as Claude Code compares paths (lexically, no realpath,
// transcripts §2): "~" is expanded, a relative path is taken against the
// line's cwd, separators become "/" and the result is cleaned. It returns
// the OS form of the path and true when it is a .md file under a memory
// dir.
func (m *memMatcher) path(p, cwd string) (string, bool) {
	if p == "" || len(m.dirs) == 0 {
		return "", false
	}
	p = toSlash(p)
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if m.home == "" {
			return "", false
		}
		p = m.home + p[1:]
	case !isAbsSlash(p):
		if cwd == "" {
			return "", false
		}
		p = toSlash(cwd) + "/" + p
	}
	p = path.Clean(p)
	if !strings.HasSuffix(p, ".md") {
		return "", false
	}
	// A path written on Windows names one folder whatever the case of its
	// letters (NTFS), and sessions launched as d:\work and D:\work write
	// both (transcripts §9.1): it is compared case-insensitively, as is any
	// path into a Windows-made slug's memory folder. Everything else is
	// compared as the bytes are.
	fold := hasDrive(p) || m.winSlug
	lp := p
	if fold {
		lp = lowerASCII(p)
	}
	for _, d := range m.dirs {
		if strings.HasPrefix(p, d+"/") {
			return filepath.FromSlash(p), true
		}
		if fold && strings.HasPrefix(lp, lowerASCII(d)+"/") {
			return filepath.FromSlash(d + p[len(d):]), true // the dir as it is on disk
		}
	}
	// Keyed on the projects/<slug>/memory/ tail, not on the config dir's
	// prefix: a config dir moved, synced or seen through WSL names the same
	// files. So a second config tree inside a project (d:\shop\.claude\
	// projects\D--shop\memory\x.md next to the real one under C:\Users,
	// transcripts §9.1) counts as this project's memory folder too, on
	// purpose: the session meant the project's memory, and only one folder
	// of that slug is listed here.
	if m.autoTail != "" {
		i := strings.LastIndex(p, m.autoTail)
		if i < 0 && fold {
			i = strings.LastIndex(lp, lowerASCII(m.autoTail))
		}
		if i >= 0 {
			return filepath.FromSlash(m.auto + "/" + p[i+len(m.autoTail):]), true
		}
	}
	return "", false
}

// isAbsSlash reports whether a slash-form path is absolute: /x or C:/x.
func isAbsSlash(p string) bool {
	if strings.HasPrefix(p, "/") {
		return true
	}
	return len(p) >= 3 && p[2] == '/' && hasDrive(p)
}

// storePath places a memory-store path (memory_write, memory_read;
// claude-memory-format §7.3, §12.3). Only the personal store is the local
// memdir; a project store is remote organisation memory with no local
// file, so only an absolute path that lands in a memory dir is taken from
// it. A personal path is the memdir-relative path, written "/<rel>" or
// "<rel>": it lands under the auto memdir unless it is an absolute path
// that already lands in a memory dir.
func (m *memMatcher) storePath(store, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	sp := toSlash(p)
	if isAbsSlash(sp) || strings.HasPrefix(p, "~") {
		if q, ok := m.path(p, ""); ok || store != "personal" || !strings.HasPrefix(sp, "/") {
			return q, ok
		}
	} else if store != "personal" {
		return "", false
	}
	return m.path(strings.TrimLeft(sp, "/"), m.primary)
}

// relativeNear reports whether a relative path written in cwd can land in
// a memory dir without naming the dir's parent: cwd is the parent, a
// sibling or inside it.
func (m *memMatcher) relativeNear(cwd string) bool {
	cwd = path.Clean(toSlash(cwd))
	for _, d := range m.top {
		parent := path.Dir(d)
		if cwd == parent || strings.HasPrefix(cwd, strings.TrimSuffix(parent, "/")+"/") {
			return true
		}
	}
	return false
}

// tailNeedles are "<parent>/<dir>/" for each top memory dir: every
// absolute or ~ path into the dir contains it (the slug of an auto memdir
// makes it rare in transcripts). "<parent>/<dir>"" (the dir's path ending
// a JSON string) is searched too: it is the cwd of every line of a
// session started inside the memory folder, whose calls may name files
// relative to it (notes.md, ./notes.md, echo x > notes.md; transcripts
// §9.5), which no other needle sees. A slug made from a Windows path gets its
// drive letter in both cases too: the rest of it is searched as it is,
// since sessions differ in the drive letter's case (transcripts §9.1),
// and a case-blind search would cost the needle its speed.
func (m *memMatcher) tailNeedles() []*needle {
	var out []*needle
	seen := make(map[string]bool)
	for _, d := range m.top {
		parent := path.Base(path.Dir(d))
		tail := parent + "/" + path.Base(d) + "/"
		if path.Dir(d) == "/" {
			tail = "/" + path.Base(d) + "/"
		}
		if path.Dir(d) == "/" || len(parent) < 4 {
			out = appendNeedles(out, seen, tail, needlePlain)
			out = appendNeedles(out, seen, strings.TrimSuffix(tail, "/")+`"`, needlePlain)
			continue
		}
		if !seen[parent+"/"] {
			seen[parent+"/"] = true
			out = append(out, sepNeedle(parent, path.Base(d)))
		}
	}
	return out
}

// sepNeedle finds "<parent>/<dir>/" and "<parent>\\<dir>\\" (a Windows
// path in JSON), and both with a closing quote in place of the last
// separator (the dir itself as a cwd), in one pass: the key is taken from
// parent alone and what follows is checked at each hit, so the other forms
// cost no second search of the line.
//
// A slug made from a Windows path is found whatever the case of its
// letters: sessions launched as d:\work and D:\Work name one NTFS folder
// (transcripts §9.1). Its key is then the run of non-letters after the
// drive letter ("--" and what follows up to the next letter), which reads
// the same in any case, and each hit is compared case-blind.
func sepNeedle(parent, dir string) *needle {
	n := newNeedle([]byte(parent), needlePlain)
	if isWinSlug(parent) {
		n.fold, n.full = true, []byte(lowerASCII(parent))
		end := 1
		for end < len(parent) && !isASCIILetter(parent[end]) {
			end++
		}
		n.skip, n.key = 1, n.full[1:min(end, 1+maxKey)]
	}
	n.alts = [][]byte{[]byte("/" + dir + "/"), []byte(`\\` + dir + `\\`), []byte("/" + dir + `"`), []byte(`\\` + dir + `"`)}
	return n
}

// equalFoldASCII reports whether a equals lower, a lower-cased ASCII
// pattern, ignoring the case of ASCII letters in a.
func equalFoldASCII(a, lower []byte) bool {
	if len(a) != len(lower) {
		return false
	}
	for i, c := range a {
		if c >= 'A' && c <= 'Z' {
			c += 0x20
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// relNeedles are "<dir>/" for each top memory dir, for relative paths
// (memory/x.md, ./memory/x.md); their hits are checked for what precedes.
func (m *memMatcher) relNeedles() []*needle {
	var out []*needle
	seen := make(map[string]bool)
	for _, d := range m.top {
		out = appendNeedles(out, seen, path.Base(d)+"/", needleRel)
	}
	return out
}

// appendNeedles adds the needle for a slash-form pattern and its JSON
// form with escaped backslashes, on every OS: a transcript written on
// Windows names C:\\Users\\...\\memory\\x.md, and it is read on Linux
// or macOS too (WSL on /mnt/c, a synced or copied config dir; §9.1).
func appendNeedles(out []*needle, seen map[string]bool, pat string, kind needleKind) []*needle {
	for _, p := range []string{pat, strings.ReplaceAll(pat, "/", `\\`)} {
		if !seen[p] {
			seen[p] = true
			out = append(out, newNeedle([]byte(p), kind))
		}
	}
	return out
}

type needleKind uint8

const (
	needlePlain needleKind = iota // matched as is: "<parent>/<dir>/", a fixed key
	needleRel                     // "<dir>/", checked for a relative start
	needleID                      // a pending tool call's "<id>"
)

// needle is one pattern searched for in a line. The search key is the
// part of the pattern from its rarest byte on: bytes.Index skips ahead
// with IndexByte on the key's first byte, which runs several times faster
// on a byte that is rare in transcripts (measured: 1.5 GB/s when it is a
// letter, 6-7 GB/s for the '-' a slug starts with).
type needle struct {
	kind  needleKind
	full  []byte
	skip  int    // key starts at full[skip]
	key   []byte // full[skip:], at most maxKey bytes
	id    string // needleID: the tool call
	since int64  // needleID: file offset of the call
	// alts, when set, are what may follow full: one of them must (see
	// sepNeedle). fold compares full (then lower-case) case-blind.
	alts [][]byte
	fold bool
}

func (n *needle) equal(b []byte) bool {
	if n.fold {
		return equalFoldASCII(b, n.full)
	}
	return bytes.Equal(b, n.full)
}

// altAt reports whether one of n's alts (if it has any) starts at b[i:].
func (n *needle) altAt(b []byte, i int) bool {
	if len(n.alts) == 0 {
		return true
	}
	for _, a := range n.alts {
		if bytes.HasPrefix(b[i:], a) {
			return true
		}
	}
	return false
}

const maxKey = 32

func newNeedle(full []byte, kind needleKind) *needle {
	n := &needle{kind: kind, full: full, skip: rarestStart(full)}
	n.key = full[n.skip:]
	if len(n.key) > maxKey {
		n.key = n.key[:maxKey]
	}
	return n
}

// in reports whether the needle occurs in line (and, for a relative
// needle, starts a relative path there).
func (n *needle) in(line []byte) bool { return n.index(line) >= 0 }

// index returns where the needle first occurs in b, or -1.
func (n *needle) index(b []byte) int {
	for from := 0; ; {
		ks := from + n.skip
		if ks >= len(b) {
			return -1
		}
		i := bytes.Index(b[ks:], n.key)
		if i < 0 {
			return -1
		}
		start := ks + i - n.skip
		if start+len(n.full) <= len(b) && n.equal(b[start:start+len(n.full)]) && n.altAt(b, start+len(n.full)) &&
			(n.kind != needleRel || relativeStart(b, start)) {
			return start
		}
		from = start + 1
	}
}

// relativeStart reports whether the "<dir>/" at buf[start] begins a
// relative path: nothing path-like before it, or "./", "../" or "~/".
// Any other component before it belongs to another directory ("x/memory/"
// under the dir's real parent is found by the tail needle).
func relativeStart(buf []byte, start int) bool {
	if start == 0 {
		return true
	}
	c := buf[start-1]
	if c != '/' && c != '\\' {
		return !isNameByte(c)
	}
	j := start - 1
	for j > 0 && (buf[j-1] == '\\' || buf[j-1] == '/') {
		j--
	}
	k := j
	for k > 0 && j-k < 256 && isNameByte(buf[k-1]) {
		k--
	}
	comp := string(buf[k:j])
	return comp == "." || comp == ".." || comp == "~"
}

func isNameByte(c byte) bool {
	return isAlnum(c) || c == '-' || c == '_' || c == '.' || c == '@' || c == '+' || c >= 0x80
}

// isASCIILetter and isAlnum are byte classes memfs keeps for its own path
// checks; two lines each, so this package has its own.
func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// rarityOrder lists bytes from the rarest to the commonest in Claude Code
// transcripts (JSON of prose, code, base64 images; measured on the
// benchmark corpus). Bytes not listed are control bytes (escaped in JSON,
// so never seen raw) and rank rarest.
const rarityOrder = "<&>$^@?~#" + "\x80" + ";%*!'`|_][}{-QXVZYGJzKUHqWNBOALjIMFPEDR=+C79T85S4:xv36k1)(2bwy/g.,0hmpf\"ucldoasrient\\ "

var byteRank = func() (r [256]int) {
	for i := 0; i < len(rarityOrder); i++ {
		r[rarityOrder[i]] = i + 1
	}
	for b := 0x81; b < 0x100; b++ {
		r[b] = r[0x80] // UTF-8 bytes: as rare as one another
	}
	return r
}()

// rarestStart picks where the search key starts: at the pattern's rarest
// byte, leaving at least 4 bytes of key so hits are few.
func rarestStart(p []byte) int {
	best := 0
	for i := 1; i+4 <= len(p); i++ {
		if byteRank[p[i]] < byteRank[p[best]] {
			best = i
		}
	}
	return best
}
