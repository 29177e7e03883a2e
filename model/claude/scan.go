package claude

import (
	"strings"

	"github.com/memtui/memtui/model"
)

// ScanFields is what Claude Code's scan reads of a memory's frontmatter
// (facts 2.2 "Parsing on read", 4.1): the type only when it is exactly one
// of the four, name and description only when they are non-empty. With
// CLAUDE_MEMORY_STORES set (stores), a missing description falls back to
// the first non-empty line of the body, without a leading # heading mark,
// trimmed and cut to 120 UTF-16 units. content is the file as read.
//
// This is the one place `memtui ls` (and the manifest-like views) ask what
// Claude Code reads; the frontmatter parser decides the fields.
func ScanFields(d model.Doc, content []byte, stores bool) (typ model.Type, name, desc string) {
	fm := d.Claude() // none where only memtui's tolerant parse reads it
	typ, _ = model.ParseType(fm.Type)
	name, desc = fm.Name, fm.Description
	if desc == "" && stores {
		desc = firstBodyLine(d.Body(content))
	}
	return typ, name, desc
}

// firstBodyLine is the description Claude Code falls back to with memory
// stores: the first non-empty body line, heading marks removed, at most
// 120 UTF-16 units.
func firstBodyLine(body []byte) string {
	for _, l := range strings.Split(string(body), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		for n := 0; n < 6 && strings.HasPrefix(l, "#"); n++ {
			l = l[1:]
		}
		l = strings.TrimSpace(l)
		end, _ := unitPrefix([]byte(l), 120) // a pair split at 120 is left out whole
		return strings.TrimSpace(l[:end])
	}
	return ""
}
