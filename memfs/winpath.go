package memfs

// Windows path rules for the write path, pure so that the tests run them
// on every system (winpath_test.go). Windows compares names without
// regard to case (NTFS's default, and what Claude Code's own checks do:
// facts §1.4 lower-cases before it compares), strips trailing dots and
// spaces from a component, reads "name:stream" as a file's alternate
// stream and "CON", "NUL", "COM1"... (with any extension) as devices, and
// needs the \\?\ prefix past MAX_PATH.

import (
	"strings"
)

// longPathMin is where a path gets the \\?\ prefix: Go's os package adds
// it from 248 characters on (MAX_PATH 260 less the 12 a directory's
// 8.3 file name needs), and the calls memtui makes itself do the same.
const longPathMin = 248

// LongPath is p as the Windows API takes it past MAX_PATH: an absolute
// path of longPathMin characters or more gets the \\?\ prefix (\\?\UNC\
// for \\server\share), with its slashes turned into backslashes, since
// the prefix turns off every other normalisation. A relative path, one
// with "." or ".." components, and one already prefixed are returned as
// they are (the os package does the same).
func LongPath(p string) string {
	if len(p) < longPathMin || strings.HasPrefix(p, `\\?\`) || strings.HasPrefix(p, `\\.\`) {
		return p
	}
	q := strings.ReplaceAll(p, "/", `\`)
	unc := strings.HasPrefix(q, `\\`)
	if !unc && !(len(q) >= 3 && isASCIILetter(q[0]) && q[1] == ':' && q[2] == '\\') {
		return p // relative, or rooted on the current drive
	}
	rest := q[3:]
	if unc {
		rest = q[2:]
	}
	for _, c := range strings.Split(rest, `\`) {
		if c == "." || c == ".." {
			return p
		}
	}
	if unc {
		return `\\?\UNC\` + q[2:]
	}
	return `\\?\` + q
}

// windowsDevices are the names Windows reads as devices in any folder,
// with or without an extension ("nul.md" is NUL). The superscript digits
// count too.
var windowsDevices = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
}

func isWindowsDevice(base string) bool {
	u := strings.ToUpper(strings.TrimRight(base, " "))
	if windowsDevices[u] {
		return true
	}
	if (strings.HasPrefix(u, "COM") || strings.HasPrefix(u, "LPT")) && len(u) > 3 {
		switch d := u[3:]; d {
		case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// WindowsNameProblem says why Windows would not take the file name name
// (one component) as it is, or "": a character Windows forbids in names
// (< > : " / \ | ? * or a control character; ":" opens an alternate data
// stream, a write to "a.md:x" would land in a hidden stream of "a.md"), a
// trailing dot or space (stripped: "a.md." is "a.md"), or a device name
// ("nul.md" writes to NUL).
func WindowsNameProblem(name string) string {
	for _, r := range name {
		if r < 0x20 || strings.ContainsRune(`<>:"/\|?*`, r) {
			return "has a character Windows does not allow in a file name (< > : \" / \\ | ? * or a control character; \":\" names a hidden stream)"
		}
	}
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return "ends in a dot or a space, which Windows strips (it would name another file)"
	}
	base, _, _ := strings.Cut(name, ".")
	if isWindowsDevice(base) {
		return "is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9), with or without an extension"
	}
	return ""
}

// FoldPath is p as Windows compares it: slashes made backslashes and
// case folded (strings.ToUpper, close to NTFS's upcase table for every
// name people type). Paths are equal on Windows when their FoldPath are.
func FoldPath(p string) string {
	return strings.ToUpper(strings.ReplaceAll(p, "/", `\`))
}

// SamePath reports whether the clean paths a and b name one file, on
// Windows (windows: case-insensitive, either slash) or elsewhere (byte
// for byte).
func SamePath(a, b string, windows bool) bool {
	if !windows {
		return a == b
	}
	return FoldPath(a) == FoldPath(b)
}

// PathWithin reports whether the clean path p is dir or inside it, with
// SamePath's rules.
func PathWithin(p, dir string, windows bool) bool {
	sep := "/"
	if windows {
		p, dir, sep = FoldPath(p), FoldPath(dir), `\`
	}
	return p == dir || strings.HasPrefix(p, dir+sep)
}
