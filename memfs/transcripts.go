package memfs

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
)

// How much of a project's transcripts Discover reads to learn its real path.
// The cwd sits on the first message line, after a few bookkeeping lines
// (transcripts §1.3), so the head of the newest few files is plenty; reading
// more would make the first frame wait on gigabytes of JSONL.
const (
	headFiles = 5
	headBytes = 64 << 10
)

// maxSanitizedLength is Claude Code's MAX_SANITIZED_LENGTH (facts §1.3 step 3).
const maxSanitizedLength = 200

// sanitizePath is Claude Code's sanitizePath without the hash suffix (facts
// §1.3 step 3): every UTF-16 code unit that is not [a-zA-Z0-9] becomes "-",
// so a character outside the BMP (a surrogate pair) becomes "--". The JS
// regex has no u flag, which is why this counts code units, not runes.
func sanitizePath(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		switch {
		case r < 0x80 && isAlnum(byte(r)):
			b.WriteByte(byte(r))
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// projectSlug is Claude Code's whole sanitizePath, hash suffix included
// (facts §1.3 step 3): past 200 characters the sanitized name is cut there
// and "-" plus the base-36 absolute value of the Java-style 32-bit string
// hash of the original name, over its UTF-16 code units, is appended. It
// names a project folder memtui has not seen (where a stranded store's
// memories belong); matching a folder that exists goes through SlugMatcher,
// which accepts any suffix, as Claude Code's own lookup does.
func projectSlug(name string) string {
	s := sanitizePath(name)
	if len(s) <= maxSanitizedLength {
		return s
	}
	var h int32
	for _, r := range name {
		if r > 0xFFFF {
			hi, lo := utf16.EncodeRune(r)
			h = h*31 + int32(hi)
			h = h*31 + int32(lo)
			continue
		}
		h = h*31 + int32(r)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return s[:maxSanitizedLength] + "-" + strconv.FormatInt(abs, 36)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// slugMatches reports whether Claude Code would have named the directory slug
// after path cwd. Past 200 characters Claude Code appends a hash of the
// whole name (projectSlug); like Claude Code's own findProjectDir, we
// accept the prefix plus "-" (facts §1.3 step 3), so a folder an older
// build or the SDK named with another hash still matches.
//
// Claude Code NFC-normalises the path first; memtui has no NFC tables in the
// standard library, so a non-ASCII cwd stored in another normal form simply
// fails to confirm and the project keeps an empty Root: a miss, never a
// wrong guess.
//
// A Windows cwd is matched case-insensitively: d:\work\shop and
// D:\work\shop are one folder on NTFS, and launchers differ in the drive
// letter's case, so the one slug folder holds sessions of both (transcripts
// §9.1).
func slugMatches(cwd, slug string) bool {
	return SlugMatcher(cwd)(slug)
}

// SlugMatcher is slugMatches(cwd, slug) with cwd sanitized once, for
// matching one cwd against many slugs. It is exported for memfs/transcript,
// which claims the transcript folders of a memory dir's own slug by it:
// the one rule for how Claude Code names a folder after a path.
func SlugMatcher(cwd string) func(slug string) bool {
	s := sanitizePath(cwd)
	win := isWinAbs(cwd)
	if len(s) <= maxSanitizedLength {
		return func(slug string) bool { return slug == s || win && strings.EqualFold(slug, s) }
	}
	prefix := s[:maxSanitizedLength] + "-"
	return func(slug string) bool {
		return len(slug) > len(prefix) && (strings.HasPrefix(slug, prefix) || win && strings.EqualFold(slug[:len(prefix)], prefix))
	}
}

// isWinAbs reports whether p is an absolute Windows path (D:\x or D:/x),
// on any OS: transcripts from Windows are read on Linux and macOS too.
func isWinAbs(p string) bool {
	return len(p) >= 3 && p[1] == ':' && isASCIILetter(p[0]) && (p[2] == '\\' || p[2] == '/')
}

// isAbsCwd reports whether a transcript's cwd is absolute, in this OS's
// sense or as a Windows path.
func isAbsCwd(p string) bool { return filepath.IsAbs(p) || isWinAbs(p) }

// cleanCwd cleans a cwd for display as a project's real path. A Windows
// path keeps Windows form (backslashes, upper-case drive letter) wherever
// memtui runs, so one folder reads the same from every session.
func cleanCwd(p string) string {
	if !isWinAbs(p) {
		return filepath.Clean(p)
	}
	q := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if len(q) == 2 {
		q += "/" // D: alone is the drive's current dir, not its root
	}
	return strings.ToUpper(q[:1]) + strings.ReplaceAll(q[1:], "/", `\`)
}

// IsUUID is Claude Code's validateUuid: 8-4-4-4-12 hex digits, any case
// (facts §6.1: only <uuid>.jsonl files count as sessions, which excludes the
// legacy agent-*.jsonl files). It is exported for memfs/transcript, which
// lists a folder's sessions by the same rule as discovery.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f') {
				return false
			}
		}
	}
	return true
}

// transcriptDir is what Discover learns from one <config>/projects/<slug>/.
type transcriptDir struct {
	sessions map[string]bool
	newest   []string // up to headFiles *.jsonl paths, newest mtime first
}

// listTranscripts lists the session transcripts directly in dir. Errors are
// swallowed: an unreadable transcript dir only means the project's real path
// stays unknown.
func listTranscripts(dir string) transcriptDir {
	var td transcriptDir
	f, err := openDir(dir)
	if err != nil {
		return td
	}
	entries, _ := f.ReadDir(-1)
	f.Close()
	type cand struct {
		path string
		mod  time.Time
		e    fs.DirEntry
	}
	var cands []cand
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		stem := strings.TrimSuffix(name, ".jsonl")
		if IsUUID(stem) {
			if td.sessions == nil {
				td.sessions = make(map[string]bool)
			}
			td.sessions[stem] = true
		}
		// Legacy agent-*.jsonl siblings carry the same cwd (transcripts
		// §1.1), so they are candidates for the head read too.
		cands = append(cands, cand{path: filepath.Join(dir, name), e: e})
	}
	// Newest first: the newest session's cwd is the current one (it matters
	// for CLAUDE_CODE_PROJECT_DIR_NAME dirs, where any cwd is accepted).
	// A lone transcript needs no lstat.
	if len(cands) > 1 {
		kept := cands[:0]
		for _, c := range cands {
			info, err := c.e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			c.mod = info.ModTime()
			kept = append(kept, c)
		}
		cands = kept
	}
	sort.Slice(cands, func(i, j int) bool {
		if !cands[i].mod.Equal(cands[j].mod) {
			return cands[i].mod.After(cands[j].mod)
		}
		return cands[i].path < cands[j].path
	})
	for i := 0; i < len(cands) && i < headFiles; i++ {
		td.newest = append(td.newest, cands[i].path)
	}
	return td
}

// headBufs recycles head-read buffers: at 500 projects, a fresh 64 KiB
// buffer per project was a third of Discover's time.
var headBufs = sync.Pool{New: func() any { b := make([]byte, headBytes); return &b }}

// confirmRoot returns the real path of the project named slug: the cwd of the
// first message line in the head of one of its newest transcripts, accepted
// only when Claude Code would have derived slug from it (transcripts §1.3:
// cwd is realpath'd). anyCwd skips that check, for a project dir named by
// CLAUDE_CODE_PROJECT_DIR_NAME (facts §1.3 step 4), whose name no longer
// derives from the path. The slug is never reversed: "" means unknown.
func confirmRoot(files []string, slug string, anyCwd bool) string {
	if len(files) == 0 {
		return ""
	}
	bp := headBufs.Get().(*[]byte)
	defer headBufs.Put(bp)
	buf := *bp
	for _, p := range files {
		cwd := headCwd(p, buf)
		if cwd == "" {
			continue
		}
		if anyCwd || slugMatches(cwd, slug) {
			return cleanCwd(cwd)
		}
	}
	return ""
}

// headCwd returns the top-level "cwd" of the first line in the first
// headBytes of the file that has one, or "". Metadata lines come first and
// have no cwd (transcripts §1.3); a line cut by the window or torn by a
// concurrent append does not decode and is skipped.
func headCwd(path string, buf []byte) string {
	f, err := OpenRegular(path)
	if err != nil {
		return ""
	}
	n, _ := io.ReadFull(f, buf)
	f.Close()
	data := buf[:n]
	key := []byte(`"cwd"`)
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !bytes.Contains(line, key) {
			continue
		}
		// Decoding into a one-field struct skips every other value without
		// building it, and only matches a top-level cwd, never one nested
		// in a tool input.
		var rec struct {
			Cwd string `json:"cwd"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Cwd == "" {
			continue
		}
		if !isAbsCwd(rec.Cwd) {
			continue
		}
		return rec.Cwd
	}
	return ""
}

// OpenRegular opens a transcript for reading with the safe reader's open
// step: it never blocks (a FIFO is refused at once), it keeps regular files
// only (a link to /dev/zero is refused), and it does not follow a symlink:
// Claude Code writes its transcripts as plain files, so a link in the
// transcript dir was put there by something else and could point anywhere.
// The caller reads incrementally, bounding what it keeps. It is exported
// for memfs/transcript, whose reader opens every transcript with it.
func OpenRegular(path string) (*os.File, error) {
	f, _, err := openRead(path, noFollow)
	return f, err
}
