package forensics

import (
	"strings"

	"github.com/memtui/memtui/consolidate/secrets"
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
// the TUI: `session 5f0c2a8e ("Fix billing") on feat/billing, 2026-08-03
// 09:14 UTC, Edit`. log supplies session titles; it may be nil.
func WriterLabel(w model.MemWrite, log *model.TranscriptLog) string {
	s := WriterName(log, &w)
	if w.Branch != "" && w.Branch != "HEAD" {
		s += " on " + w.Branch
	}
	if !w.Time.IsZero() {
		s += ", " + fmtTime(w.Time)
	}
	if how := writeHow(w); how != "" {
		s += ", " + how
	}
	// The title and the branch come from transcripts.
	return secrets.Default().MaskSecrets(s)
}

// writeHow names the tool behind a write; a fork's and memtui's names
// (WriterName) say how already.
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
		return "shell: " + secrets.Clip(strings.Join(strings.Fields(w.Command), " "), 60)
	}
	return ""
}
