package codex

import (
	"path"
	"strings"
)

// Which paths a session named are in the memory store, and what a shell
// command did with them.
//
// A path is in the store when one of its components is "memories" and
// the one before it is ".codex" (any home: ~/.codex, /Users/kim/.codex,
// C:\Users\kim\.codex, a rollout read on another machine or copied) or
// the path up to it is one of the Codex homes memtui reads, or a
// variable naming the home ($CODEX_HOME). A project's own
// memories/MEMORY.md, or Claude Code's memory folder, is not Codex's
// store: Codex's classifier only looks for "memories/MEMORY.md" in the
// path, which counts those too; memtui keys on the home on purpose. `\`
// is a separator on every OS (a Windows session's paths, read anywhere),
// and on a Windows path "memories", ".codex" and the store's own names
// compare without case (NTFS). A relative path is taken from the
// command's working directory.

// pathMatcher knows the Codex homes (slash-separated, cleaned).
type pathMatcher struct{ homes []string }

func newPathMatcher(homes []string) pathMatcher {
	var m pathMatcher
	for _, h := range homes {
		if h = strings.TrimSpace(h); h != "" {
			m.homes = append(m.homes, path.Clean(strings.ReplaceAll(h, `\`, "/")))
		}
	}
	return m
}

// codexHomeMark stands for a variable naming the Codex home.
const codexHomeMark = "\x00codex-home"

var (
	homeVars = []string{"${CODEX_HOME}", "$CODEX_HOME", "%CODEX_HOME%", "$env:CODEX_HOME"}
	userVars = []string{"${HOME}", "$HOME", "%USERPROFILE%", "$env:USERPROFILE", "~"}
)

// isWinAbs reports whether p is an absolute Windows path (D:\x or D:/x).
func isWinAbs(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') && (p[2] == '\\' || p[2] == '/')
}

// isAbsAny reports whether p is absolute on some OS, or from a home.
func isAbsAny(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "~") || isWinAbs(p)
}

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return "", false
}

func eq(a, b string, fold bool) bool {
	if fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// rel is p relative to the memory root ("" for the root itself) when p
// is in a Codex store; cwd resolves a relative p ("" leaves it out).
func (m pathMatcher) rel(p, cwd string) (string, bool) {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if p == "" {
		return "", false
	}
	home := false
	for _, v := range homeVars {
		if rest, ok := cutFold(p, v); ok && (rest == "" || rest[0] == '/') {
			p, home = codexHomeMark+rest, true
			break
		}
	}
	if !home {
		for _, v := range userVars {
			if rest, ok := cutFold(p, v); ok && (rest == "" || rest[0] == '/') {
				p = "~" + rest
				break
			}
		}
	}
	win := isWinAbs(p) || isWinAbs(cwd)
	if !home && !isAbsAny(p) {
		if cwd == "" {
			return "", false
		}
		p = strings.TrimSuffix(strings.ReplaceAll(cwd, `\`, "/"), "/") + "/" + p
	}
	parts := strings.Split(path.Clean(p), "/")
	for i := 1; i < len(parts); i++ {
		if !eq(parts[i], "memories", win) {
			continue
		}
		prev := parts[i-1]
		if prev == codexHomeMark || eq(prev, ".codex", win) || m.isHome(strings.Join(parts[:i], "/"), win) {
			rel := strings.Join(parts[i+1:], "/")
			if win {
				rel = canonical(rel)
			}
			if rel == ".git" || strings.HasPrefix(rel, ".git/") {
				return "", false // Codex's baseline: no memory file
			}
			return rel, true
		}
	}
	return "", false
}

func (m pathMatcher) isHome(p string, win bool) bool {
	for _, h := range m.homes {
		if eq(p, h, win) {
			return true
		}
	}
	return false
}

// canonical spells the store's own names as Codex does, for a path from
// a Windows session (memory.md there is MEMORY.md).
func canonical(rel string) string {
	parts := strings.Split(rel, "/")
	for _, n := range []string{HandbookFile, SummaryFile, RawFile, "rollout_summaries", "skills", "extensions"} {
		if strings.EqualFold(parts[0], n) {
			parts[0] = n
		}
	}
	if len(parts) > 2 && parts[0] == "extensions" && strings.EqualFold(parts[1], "ad_hoc") && strings.EqualFold(parts[2], "notes") {
		parts[1], parts[2] = "ad_hoc", "notes"
	}
	return strings.Join(parts, "/")
}

// shellRef is one store path a command names: what it did with it
// ("read", "create", "modify", "delete", "write"), the command's word,
// and the text it wrote when the command carries it.
type shellRef struct{ rel, op, cmd, text string }

// shellRefs are the store's paths a shell command (or a patch) names.
// A patch's file headers are writes; in a command, a path is written
// when it is a redirection's target or the argument of a command that
// writes (tee, touch, rm, the destination of cp and mv, sed -i, git rm,
// git mv, git checkout and git restore...), else read. A note's path is a write unless the command only reads
// (cat, rg, ls...): notes are the one write Codex's prompt allows, and
// a note named in, say, a python -c script is taken to be written.
func (m pathMatcher) shellRefs(script, cwd string) []shellRef {
	var out []shellRef
	for {
		i := strings.Index(script, "*** Begin Patch")
		if i < 0 {
			break
		}
		patch, rest := script[i:], ""
		if j := strings.Index(patch, "*** End Patch"); j >= 0 {
			patch, rest = patch[:j], patch[j+len("*** End Patch"):]
		}
		out = append(out, m.patchRefs(patch, cwd)...)
		script = script[:i] + "\n" + rest
	}
	_, inRoot := m.rel(cwd, "")
	lines := strings.Split(script, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		body, end := "", i
		if d := heredocDelim(l); d != "" {
			end = i + 1
			for end < len(lines) && strings.TrimSpace(lines[end]) != d {
				end++
			}
			body = strings.Join(lines[i+1:min(end, len(lines))], "\n")
		}
		for _, r := range m.lineRefs(l, cwd, inRoot) {
			if r.op != "read" && body != "" {
				r.text = body + "\n"
			}
			out = append(out, r)
		}
		i = end
	}
	return out
}

// patchRefs are the files a patch (*** Begin Patch ... *** End Patch)
// adds, updates, deletes or moves to, with an added file's text.
func (m pathMatcher) patchRefs(patch, cwd string) []shellRef {
	var out []shellRef
	var add *shellRef
	for _, l := range strings.Split(patch, "\n") {
		l = strings.TrimSuffix(l, "\r")
		op := ""
		var p string
		for _, h := range []struct{ head, op string }{{"*** Add File: ", "create"}, {"*** Update File: ", "modify"}, {"*** Delete File: ", "delete"}, {"*** Move to: ", "create"}} {
			if rest, ok := strings.CutPrefix(l, h.head); ok {
				op, p = h.op, rest
			}
		}
		if op == "" {
			if add != nil && strings.HasPrefix(l, "+") && len(add.text) < MaxNoteText {
				add.text += l[1:] + "\n"
			} else if strings.HasPrefix(l, "*** ") {
				add = nil
			}
			continue
		}
		add = nil
		rel, ok := m.rel(p, cwd)
		if !ok {
			continue
		}
		out = append(out, shellRef{rel: rel, op: op, cmd: "apply_patch"})
		if op == "create" {
			add = &out[len(out)-1]
		}
	}
	return out
}

// heredocDelim is the delimiter of a heredoc the line opens (<<EOF,
// <<'EOF', <<-"EOF"), "" when none.
func heredocDelim(l string) string {
	i := strings.Index(l, "<<")
	if i < 0 || strings.HasPrefix(l[i:], "<<<") {
		return ""
	}
	s := strings.TrimLeft(l[i+2:], "- \t")
	s = strings.TrimLeft(s, `'"`)
	n := 0
	for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	return s[:n]
}

// Commands by what they do to the paths they name.
var (
	shellWrappers = set("bash", "sh", "zsh", "dash", "fish", "env", "sudo", "command", "exec", "time", "nohup", "powershell", "pwsh", "cmd", "/c", "-c", "-lc", "-l", "-command", "-noprofile")
	writeCmds     = set("tee", "touch", "set-content", "out-file", "add-content", "new-item", "truncate")
	deleteCmds    = set("rm", "del", "erase", "unlink", "remove-item", "shred")
	copyCmds      = set("cp", "copy", "copy-item", "install")
	moveCmds      = set("mv", "move", "move-item", "rename", "ren")
	inPlaceCmds   = set("sed", "perl", "ruby", "gsed")
	readOnlyCmds  = set("cat", "head", "tail", "less", "more", "bat", "nl", "wc", "rg", "grep", "egrep", "fgrep", "ag", "ack", "ls", "find", "fd", "stat", "file", "type", "get-content", "gc", "select-string", "findstr", "awk", "diff", "git", "dir", "get-childitem", "tree", "sed")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// lineRefs are the store's paths one line of a script names.
func (m pathMatcher) lineRefs(l, cwd string, inRoot bool) []shellRef {
	var out []shellRef
	for _, seg := range splitSegments(l) {
		toks := shellTokens(seg)
		cmd, inPlace := "", false
		at, last := -1, -1
		for j, t := range toks {
			if t == ">" || t == "<" {
				continue
			}
			w := strings.ToLower(t)
			if k := strings.LastIndexAny(w, `/\`); k >= 0 && k < len(w)-1 {
				w = w[k+1:]
			}
			w = strings.TrimSuffix(w, ".exe")
			switch {
			case cmd == "" && (shellWrappers[w] || strings.Contains(t, "=") && !strings.HasPrefix(t, "-")):
				continue
			case cmd == "":
				cmd, at = w, j
				continue
			case inPlaceCmds[cmd] && inPlaceFlag(t):
				inPlace = true
			}
			if !strings.HasPrefix(t, "-") {
				last = j
			}
		}
		segRoot := inRoot
		var g gitCall
		if cmd == "git" {
			g = parseGit(toks, at+1)
			if g.dir != "" {
				_, segRoot = m.rel(g.dir, cwd)
			}
		}
		for j, t := range toks {
			// The command's own word and the wrappers before it are no
			// paths, nor are options and git's words.
			if j <= at || t == ">" || t == "<" || strings.HasPrefix(t, "-") && !strings.Contains(t, "=") || g.skip[j] {
				continue
			}
			if k := strings.IndexByte(t, '='); k >= 0 && strings.HasPrefix(t, "-") {
				t = t[k+1:]
			}
			if g.dir != "" {
				t = joinDir(g.dir, t) // git -C: paths are the folder's
			}
			if !segRoot && !strings.Contains(strings.ToLower(t), "memories") {
				continue
			}
			rel, ok := m.rel(t, cwd)
			if !ok {
				continue
			}
			op := "read"
			prev := ""
			if j > 0 {
				prev = toks[j-1]
			}
			switch {
			case prev == ">":
				op = "write"
			case prev == "<":
				op = "read"
			case writeCmds[cmd], inPlace, gitWrites[g.sub]:
				op = "write"
			case deleteCmds[cmd], g.sub == "rm":
				op = "delete"
			case (copyCmds[cmd] || moveCmds[cmd] || g.sub == "mv") && j == last:
				op = "write"
			case moveCmds[cmd], g.sub == "mv":
				op = "delete"
			case IsNoteFile(rel) && !readOnlyCmds[cmd] && !copyCmds[cmd]:
				op = "write"
			}
			out = append(out, shellRef{rel: rel, op: op, cmd: cmd})
		}
	}
	return out
}

// gitWrites are git's subcommands that overwrite the files they name
// with another version; rm and mv are told apart on their own, and every
// other subcommand (diff, log, show, add, blame...) only reads.
var gitWrites = set("checkout", "restore")

// gitCall is what a git command's words say before its paths: the
// subcommand, the folder -C runs it in, and the words that are not
// paths (git's own options and their values, the subcommand).
type gitCall struct {
	sub, dir string
	skip     map[int]bool
}

// parseGit reads git's own options (-C dir, -c k=v, --git-dir,
// --work-tree) and the subcommand from toks[from:].
func parseGit(toks []string, from int) gitCall {
	g := gitCall{skip: map[int]bool{}}
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t == "-C" || t == "-c" || t == "--git-dir" || t == "--work-tree":
			g.skip[i], g.skip[i+1] = true, true
			if t == "-C" && i+1 < len(toks) {
				g.dir = joinDir(g.dir, toks[i+1])
			}
			i++
		case strings.HasPrefix(t, "-"):
			g.skip[i] = true
		default:
			g.sub, g.skip[i] = strings.ToLower(t), true
			return g
		}
	}
	return g
}

// joinDir is dir resolved against base as a shell would: an absolute or
// home-relative dir stands alone.
func joinDir(base, dir string) string {
	if base == "" || isAbsAny(dir) || strings.HasPrefix(dir, "~") || strings.HasPrefix(dir, "$") || strings.HasPrefix(dir, "%") {
		return dir
	}
	return strings.TrimSuffix(strings.ReplaceAll(base, `\`, "/"), "/") + "/" + dir
}

// inPlaceFlag says t is sed's (or perl's) edit-in-place flag: -i,
// -i.bak, -pi, --in-place.
func inPlaceFlag(t string) bool {
	if t == "--in-place" || strings.HasPrefix(t, "--in-place=") {
		return true
	}
	return len(t) > 1 && t[0] == '-' && t[1] != '-' && len(t) <= 8 && strings.ContainsRune(t[1:], 'i')
}

// splitSegments cuts a line at ; | & (and their doubles): each piece is
// one command. Quoted text is one word and is not cut (rg "a|b" FILE
// is one command), except a script a shell runs (bash -lc '...', cmd /c
// "...", pwsh -Command "..."): that is commands, cut like the line, with
// quotes of its own again not cut.
func splitSegments(l string) []string {
	var out []string
	start, wordAt, last := 0, 0, "" // last: the word before wordAt's
	var quote, inner byte           // the open quote and, in a script, its own
	script := false
	cut := func(i int) {
		if seg := l[start:i]; strings.TrimSpace(seg) != "" {
			out = append(out, seg)
		}
		start = i + 1
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case inner != 0:
			if c == inner {
				inner = 0
			}
		case quote != 0 && c == quote:
			quote = 0
		case quote == '"' && c == '\\':
			i++ // an escaped character: \" does not close the quote
		case quote != 0 && !script:
		case quote != 0 && (c == '\'' || c == '"'):
			inner = c
		case c == ';' || c == '|' || c == '&':
			cut(i)
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
			flag := l[wordAt:i] // -c'...', or the word before: -c '...'
			if flag == "" {
				flag = last
			}
			script = scriptFlags[strings.ToLower(flag)]
		case quote == 0 && (c == ' ' || c == '\t'):
			if wordAt < i {
				last = l[wordAt:i]
			}
			wordAt = i + 1
		}
	}
	cut(len(l))
	return out
}

// scriptFlags are the options after which a shell's argument is a script
// (sh -c, bash -lc, cmd /c, powershell -Command).
var scriptFlags = set("-c", "-lc", "-ic", "-ec", "-xc", "/c", "/k", "-command")

// shellTokens splits a command into words at blanks, quotes and
// brackets (a quoted script's words are words too: bash -lc 'cat x'
// names x), with ">" and "<" as words of their own. Backslashes are kept:
// they separate a Windows path's folders.
func shellTokens(s string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\r', '\'', '"', '`', '(', ')', '{', '}':
			flush(i)
		case '>', '<':
			flush(i)
			if n := len(out); n == 0 || out[n-1] != string(c) {
				out = append(out, string(c))
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(s))
	return out
}
