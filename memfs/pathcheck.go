package memfs

import (
	"fmt"
	"path"
	"runtime"
	"strings"

	"github.com/memtui/memtui/model/claude"
	"golang.org/x/text/unicode/norm"
)

// pathFlavor selects path semantics for override validation: Claude Code
// runs Node's path module for the platform it is on, so "C:\" is a drive root
// on Windows and a relative file name on Linux. Tests run both flavors on any
// host.
type pathFlavor int

const (
	posixPaths pathFlavor = iota
	windowsPaths
)

func nativeFlavor() pathFlavor {
	if runtime.GOOS == "windows" {
		return windowsPaths
	}
	return posixPaths
}

// Reasons Claude Code rejects an override (facts §1.4). They complete the
// sentence "Claude Code rejects it because ...", and tests compare them.
const (
	reasonNUL        = "it contains a NUL byte"
	reasonBareTilde  = "a bare ~ is not expanded (only ~/ and ~\\ are), so it is a relative path"
	reasonTildeUser  = "~user is not expanded (only ~/ and ~\\ are), so it is a relative path"
	reasonTildeHome  = "it resolves to the home directory itself or above it (~/ followed by nothing, ., .. or a path that climbs out with ..)"
	reasonEnvTilde   = "this variable is not ~-expanded, so a leading ~ makes it a relative path"
	reasonRelative   = "it is a relative path (Claude Code requires an absolute path or one starting with ~/)"
	reasonRoot       = "it is the filesystem root or too close to it (under 3 characters once trailing separators are stripped)"
	reasonDrive      = "it is a Windows drive root"
	reasonUNC        = "it is a UNC network path (starts with \\\\ or //)"
	reasonNT         = "it is a Windows NT namespace path (starts with \\??\\)"
	reasonAutomount  = "it lies under a network automount (/net/<host> or /Network/Servers/<host>)"
	reasonMacSpecial = "its first folder is one of macOS's special roots (.vol, .file, .nofollow, .resolve)"
	reasonEmpty      = "it is empty"
)

// validateMemoryPath mirrors Claude Code's path validation for overrides
// (facts §1.4; c0234 `Bu`, `XWs`). It returns the validated path without a
// trailing separator (NFC, as Claude Code uses it), or the reason Claude
// Code rejects raw. Both are empty when raw is empty (an empty value is
// judged by the caller: facts §1.1 counts it as defined) or when ~/ cannot
// be expanded because the home directory is unknown.
//
// Acceptance is exactly Claude Code's; only the order of the checks differs
// where several fail at once, so that the reason named is the most specific
// one (Claude Code rejects "C:" as "not absolute" before its drive-root
// test; we say "drive root").
func validateMemoryPath(raw string, expandTilde bool, home string, fl pathFlavor) (validated, reason string) {
	if raw == "" {
		return "", ""
	}
	if strings.ContainsRune(raw, 0) {
		return "", reasonNUL
	}
	candidate := raw
	if expandTilde {
		switch {
		case raw == "~":
			return "", reasonBareTilde
		case strings.HasPrefix(raw, "~/") || strings.HasPrefix(raw, `~\`):
			rest := raw[2:]
			restNorm := fl.normalize(orDot(rest))
			// "~/", "~/.", "~/..", "~/foo/.." and "~/../x": the home
			// directory itself, or a path that climbs out of it.
			if restNorm == "." || restNorm == ".." || strings.HasPrefix(restNorm, "../") || strings.HasPrefix(restNorm, `..\`) {
				return "", reasonTildeHome
			}
			if home == "" {
				return "", ""
			}
			candidate = fl.join(home, rest)
		}
	}
	normalized := strings.TrimRight(fl.normalize(candidate), `/\`)
	if isDriveRoot(normalized) || isDriveRoot(strings.TrimRight(raw, `/\`)) {
		return "", reasonDrive
	}
	if strings.HasPrefix(normalized, `\??\`) || strings.HasPrefix(raw, `\??\`) {
		return "", reasonNT
	}
	if !fl.isAbs(normalized) {
		switch {
		case normalized == "" && strings.ContainsAny(raw, `/\`):
			// "/" normalizes to "" once the separator is stripped.
			return "", reasonRoot
		case strings.HasPrefix(raw, "~") && !expandTilde:
			return "", reasonEnvTilde
		case strings.HasPrefix(raw, "~") && raw != "~":
			return "", reasonTildeUser
		}
		return "", reasonRelative
	}
	if claude.UTF16Len(normalized) < 3 {
		return "", reasonRoot
	}
	if strings.HasPrefix(normalized, `\\`) || strings.HasPrefix(normalized, "//") {
		return "", reasonUNC
	}
	if r := rootedSegmentReason(normalized); r != "" {
		return "", r
	}
	return norm.NFC.String(normalized), ""
}

// rootedSegmentReason applies the checks on a rooted path's first
// segments (facts §1.4, new in 2.1.332 or earlier): network automounts
// (/net/<host>, /Network/Servers/<host>) and macOS's special roots (.vol,
// .file, .nofollow, .resolve), all compared case-insensitively. A path
// with a drive letter has no such segments.
func rootedSegmentReason(p string) string {
	if p == "" || (p[0] != '/' && p[0] != '\\') {
		return ""
	}
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	if len(segs) == 0 {
		return ""
	}
	switch strings.ToLower(segs[0]) {
	case ".vol", ".file", ".nofollow", ".resolve":
		return reasonMacSpecial
	case "net":
		if len(segs) >= 2 {
			return reasonAutomount
		}
	case "network":
		if len(segs) >= 3 && strings.EqualFold(segs[1], "servers") {
			return reasonAutomount
		}
	}
	return ""
}

// overrideFix suggests a value Claude Code would accept, for the Suggestion
// of an OverrideInvalid problem. base is the directory a relative value was
// presumably meant against (the project root for project and local
// settings), "" when unknown.
func overrideFix(raw, reason, home, base string, expandTilde bool) string {
	example := path.Join(home, ".claude", "memory")
	if home == "" {
		example = "/home/you/.claude/memory"
	}
	generic := fmt.Sprintf("use an absolute path such as %s or ~/notes/memory", example)
	if !expandTilde {
		generic = fmt.Sprintf("use an absolute path such as %s (this variable does not expand ~)", example)
	}
	switch reason {
	case reasonEnvTilde:
		if home != "" && (strings.HasPrefix(raw, "~/") || strings.HasPrefix(raw, `~\`)) {
			return fmt.Sprintf("write the home directory out: %s", path.Join(home, raw[2:]))
		}
	case reasonRelative:
		if base != "" {
			return fmt.Sprintf("use an absolute path such as %s", path.Join(base, raw))
		}
		if expandTilde && home != "" {
			return fmt.Sprintf("use an absolute path such as %s, or write it as ~/%s", path.Join(home, raw), path.Clean(raw))
		}
	case reasonNUL:
		return "remove the NUL byte; " + generic
	}
	return generic
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

func isDriveRoot(s string) bool {
	return len(s) == 2 && s[1] == ':' && isASCIILetter(s[0])
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func (fl pathFlavor) isAbs(p string) bool {
	if fl == posixPaths {
		return strings.HasPrefix(p, "/")
	}
	if p == "" {
		return false
	}
	if p[0] == '/' || p[0] == '\\' {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && isASCIILetter(p[0]) && (p[2] == '/' || p[2] == '\\')
}

func (fl pathFlavor) join(a, b string) string {
	if b == "" {
		return fl.normalize(a)
	}
	sep := "/"
	if fl == windowsPaths {
		sep = `\`
	}
	return fl.normalize(a + sep + b)
}

// normalize is Node's path.normalize for the flavor: "." for "", a trailing
// separator kept, ".." above an absolute root dropped.
func (fl pathFlavor) normalize(p string) string {
	if fl == windowsPaths {
		return normalizeWindows(p)
	}
	if p == "" {
		return "."
	}
	trailing := strings.HasSuffix(p, "/")
	n := path.Clean(p)
	if n == "/" {
		return n
	}
	if trailing {
		n += "/"
	}
	return n
}

// normalizeWindows is a compact version of Node's path.win32.normalize:
// either separator accepted, backslashes out, device (drive or UNC
// \\server\share) kept in front.
func normalizeWindows(p string) string {
	if p == "" {
		return "."
	}
	p = strings.ReplaceAll(p, "/", `\`)
	device, rest, abs := "", p, false
	switch {
	case strings.HasPrefix(p, `\\`):
		parts := strings.SplitN(p[2:], `\`, 3)
		if len(parts) >= 2 && parts[0] != "" && parts[1] != "" {
			device = `\\` + parts[0] + `\` + parts[1]
			rest = ""
			if len(parts) == 3 {
				rest = parts[2]
			}
			abs = true
		} else {
			// An incomplete UNC prefix: keep the leading separators so the
			// caller's UNC check still sees them.
			return p
		}
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		device, rest = p[:2], p[2:]
		if strings.HasPrefix(rest, `\`) {
			abs = true
		}
	case strings.HasPrefix(p, `\`):
		abs = true
	}
	trailing := strings.HasSuffix(rest, `\`)
	var out []string
	for _, seg := range strings.Split(rest, `\`) {
		switch seg {
		case "", ".":
		case "..":
			if len(out) > 0 && out[len(out)-1] != ".." {
				out = out[:len(out)-1]
			} else if !abs {
				out = append(out, "..")
			}
		default:
			out = append(out, seg)
		}
	}
	tail := strings.Join(out, `\`)
	if tail == "" && !abs {
		tail = "."
	}
	if tail != "" && trailing {
		tail += `\`
	}
	if abs {
		return device + `\` + tail
	}
	return device + tail
}
