package forensics

import (
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// This file reads what a project's transcripts say about one memory
// directory: who wrote each file (provenance), how much agents use it
// (heat), and whether Claude Code's autoDream would run now (the gate).
// The log covers the whole project; everything here narrows it to d.

// relPath returns the memory-dir-relative slash path of the absolute path
// p when it names a memory file of d: a *.md below d.Path, and not below a
// nested team/ directory when d is one that keeps team/ apart (team/ is a
// MemoryDir of its own, as the reader lists it).
func relPath(d *model.MemoryDir, p string) (string, bool) {
	if d == nil || d.Path == "" {
		return "", false
	}
	root := strings.TrimSuffix(d.Path, string(filepath.Separator))
	rest, ok := strings.CutPrefix(p, root+string(filepath.Separator))
	if !ok || rest == "" || !strings.HasSuffix(rest, ".md") {
		return "", false
	}
	rel := filepath.ToSlash(rest)
	if keepsTeamApart(d) && strings.HasPrefix(rel, "team/") {
		return "", false
	}
	return rel, true
}

// keepsTeamApart reports whether d's team/ subdirectory is a memory dir of
// its own (memfs skips it for these kinds and lists it separately).
func keepsTeamApart(d *model.MemoryDir) bool {
	switch d.Kind {
	case model.DirAuto, model.DirOverride, model.DirExplicit:
		return true
	}
	return false
}

// Provenance lists, per memory-dir-relative slash path, every recorded
// write to that file in time order: files that are gone included, so a
// deleted memory's history can still be told.
func Provenance(d *model.MemoryDir, log *model.TranscriptLog) map[string][]model.MemWrite {
	out := map[string][]model.MemWrite{}
	if log == nil {
		return out
	}
	for _, w := range log.Writes {
		if rel, ok := relPath(d, w.Path); ok {
			out[rel] = append(out[rel], w)
		}
	}
	for _, ws := range out {
		// The log is sorted already; a stable sort keeps a hand-built or
		// merged one honest without reordering ties.
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].Time.Before(ws[j].Time) })
	}
	return out
}

// HeatOf counts, per memory-dir-relative slash path, how agents used each
// file: reads, unchanged re-reads, recalls and index loads, how many
// distinct sessions did so, and when last. Writes and changed-file notices
// are not use, so they do not count.
func HeatOf(d *model.MemoryDir, log *model.TranscriptLog) map[string]model.Heat {
	out := map[string]model.Heat{}
	if log == nil {
		return out
	}
	sessions := map[string]map[string]bool{}
	for _, o := range log.Observations {
		rel, ok := relPath(d, o.Path)
		if !ok {
			continue
		}
		h := out[rel]
		switch o.Kind {
		case model.ObsRead:
			h.Reads++
		case model.ObsUnchanged:
			h.Unchanged++
		case model.ObsRecall:
			h.Recalls++
		case model.ObsIndexLoad:
			h.IndexLoads++
		default:
			continue
		}
		if sessions[rel] == nil {
			sessions[rel] = map[string]bool{}
		}
		if o.Session != "" && !sessions[rel][o.Session] {
			sessions[rel][o.Session] = true
			h.Sessions++
		}
		if o.Time.After(h.Last) {
			h.Last = o.Time
		}
		out[rel] = h
	}
	return out
}

// Claude Code's autoDream defaults (facts §6.1): 24 hours since the last
// consolidation and 5 sessions touched since.
const (
	dreamMinHours    = 24
	dreamMinSessions = 5
)

// GateOf evaluates Claude Code's autoDream gate for d at now: the last
// consolidation is the .consolidate-lock mtime, and a session counts when
// its main transcript was touched (mtime) after it, as Claude Code counts
// them. A directory never consolidated has its time gate open.
func GateOf(d *model.MemoryDir, log *model.TranscriptLog, now time.Time) model.DreamGate {
	g := model.DreamGate{LastConsolidated: d.LockModTime, MinHours: dreamMinHours, MinSessions: dreamMinSessions}
	if log != nil {
		type touched struct {
			id  string
			mod time.Time
		}
		var ts []touched
		for id, s := range log.Sessions {
			// Claude Code lists <uuid>.jsonl files: a session known only
			// from its subagent files has no main transcript to count,
			// and only the cwd's own folder is listed, so a session from
			// a subdirectory or the memory folder is not counted either
			// (facts §6.1 step 5).
			if s == nil || s.Transcript == "" || s.OtherFolder || !s.ModTime.After(g.LastConsolidated) {
				continue
			}
			ts = append(ts, touched{id, s.ModTime})
		}
		sort.Slice(ts, func(i, j int) bool {
			if !ts[i].mod.Equal(ts[j].mod) {
				return ts[i].mod.After(ts[j].mod)
			}
			return ts[i].id < ts[j].id
		})
		for _, t := range ts {
			g.Sessions = append(g.Sessions, t.id)
		}
	}
	g.TimeOpen = g.LastConsolidated.IsZero() || now.Sub(g.LastConsolidated) >= dreamMinHours*time.Hour
	g.SessionOpen = len(g.Sessions) >= dreamMinSessions
	return g
}
