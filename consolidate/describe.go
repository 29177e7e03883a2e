package consolidate

import (
	"fmt"
	"strings"

	"github.com/memtui/memtui/model"
)

// ShortSession is how memtui names a session in one line: the first eight
// characters of its ID, enough to find its transcript with a glob.
func ShortSession(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// WriterLabel says in one line who made write w and how, for reports and
// the TUI: "session 5f0c2a8e “Fix billing” (subagent a3f9c2e1) on
// feat/billing, 2026-08-03 09:14 UTC, Edit". log supplies session titles;
// it may be nil.
func WriterLabel(w model.MemWrite, log *model.TranscriptLog) string {
	var b strings.Builder
	switch {
	case w.Kind == model.WriteMemtui:
		b.WriteString("memtui (an applied proposal)")
	case w.Session == "":
		b.WriteString("an unknown session")
	default:
		b.WriteString("session " + ShortSession(w.Session))
		if log != nil {
			if s := log.Sessions[w.Session]; s != nil && s.Title != "" {
				fmt.Fprintf(&b, " “%s”", ixClip(s.Title, 48))
			}
		}
	}
	if w.Agent != "" {
		b.WriteString(" (subagent " + ShortSession(w.Agent) + ")")
	}
	if w.Branch != "" && w.Branch != "HEAD" {
		b.WriteString(" on " + w.Branch)
	}
	if !w.Time.IsZero() {
		b.WriteString(", " + w.Time.UTC().Format("2006-01-02 15:04") + " UTC")
	}
	if how := writeHow(w); how != "" {
		b.WriteString(", " + how)
	}
	return b.String()
}

// writeHow names the tool behind a write.
func writeHow(w model.MemWrite) string {
	switch w.Kind {
	case model.WriteFull:
		if w.Created {
			return "Write (created)"
		}
		return "Write"
	case model.WriteEdit:
		return "Edit"
	case model.WriteMulti:
		return "MultiEdit"
	case model.WriteStore:
		return "memory tool"
	case model.WriteShell:
		return "shell: " + ixClip(strings.Join(strings.Fields(w.Command), " "), 60)
	case model.WriteFork:
		if w.Verb == "Improved" {
			return "background consolidation (autoDream)"
		}
		return "background memory extraction"
	}
	return ""
}
