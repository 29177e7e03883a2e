package consolidate

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memtui/memtui/model"
)

// Claude Code's memory scan (facts 2.1, 4.1): which files it lists as
// memories, which of those it offers to recall, and in which mode a
// project's sessions use them (facts 4.2). memfs sets File.Scan; the checks
// here report what follows, and the other checks judge as memories only the
// files the scan lists (isMemory).

// isMemory reports whether Claude Code's scan lists f as a memory file
// (offered to recall or not): excluded paths, unfollowed links and refused
// hard links are not memories to it, so orphan, duplicate, stub and
// frontmatter checks leave them alone.
func isMemory(f *model.File) bool { return f.Scan.Memory() }

// MemoryMode is what a project's transcripts say about how Claude Code
// used a memory dir (facts 4.2): in recall mode it scans the folder and
// selects memories each turn, without loading MEMORY.md; in index mode it
// loads MEMORY.md and does not scan.
type MemoryMode struct {
	// Recalls counts relevant_memories attachments of the dir's files;
	// IndexLoads the instructions attachments that loaded its MEMORY.md.
	Recalls, IndexLoads int
	// Recall is true when the newest of those was a recall.
	Recall bool
	// Agent is set for agent memory: its MEMORY.md is always loaded, and
	// its files are recalled when the agent is @-mentioned.
	Agent bool
}

// Known reports whether the transcripts show either mode.
func (m MemoryMode) Known() bool { return m.Recalls+m.IndexLoads > 0 }

// ModeOf reads a memory dir's mode from its project's transcripts. A team
// dir shares its parent's (one scan, one index).
func ModeOf(p *model.Project, d *model.MemoryDir) MemoryMode {
	var m MemoryMode
	switch d.Kind {
	case model.DirAgentUser, model.DirAgentProject, model.DirAgentLocal:
		m.Agent = true
	}
	if p == nil || p.Log == nil {
		return m
	}
	root := strings.TrimSuffix(d.Path, string(filepath.Separator))
	if d.Kind == model.DirTeam {
		root = filepath.Dir(root)
	}
	index := root + string(filepath.Separator) + "MEMORY.md"
	var last model.MemObservation
	for _, o := range p.Log.Observations {
		switch {
		case o.Kind == model.ObsIndexLoad && o.Path == index:
			m.IndexLoads++
		case o.Kind == model.ObsRecall && strings.HasPrefix(o.Path, root+string(filepath.Separator)):
			m.Recalls++
		default:
			continue
		}
		if !o.Time.Before(last.Time) {
			last = o
		}
	}
	m.Recall = m.Recalls > 0 && last.Kind == model.ObsRecall
	return m
}

// recallNote says when a recall-only finding matters, from the mode.
func (m MemoryMode) recallNote() string {
	switch {
	case m.Agent:
		return "this agent's memory is recalled when the agent is @-mentioned"
	case m.Recall:
		return fmt.Sprintf("this project's sessions run in recall mode (its transcripts show %s)", Plural(m.Recalls, "recalled memory"))
	case m.Known():
		return fmt.Sprintf("this project's sessions so far run in index mode (its transcripts show MEMORY.md loaded %s and no recall), where Claude Code loads MEMORY.md and does not scan: it matters once recall mode is on", times(m.IndexLoads))
	}
	return "this matters in recall mode (Claude Code scans and selects memories instead of loading MEMORY.md); the transcripts do not say which mode this project's sessions run in"
}

// indexNote says when an index-only finding matters, from the mode: ""
// when the sessions run in index mode or nobody can tell which.
func (m MemoryMode) indexNote() string {
	if m.Recall && !m.Agent {
		return " (this project's sessions run in recall mode, where MEMORY.md is not loaded and the scan can still recall the file)"
	}
	return ""
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// maxNamed is how many files a scan finding names; `memtui ls` lists all.
const maxNamed = 20

// checkScan reports the files past the recall scan's 200 (one finding for
// the directory, naming them newest first) and the files the scan skips
// that look like memories.
func checkScan(s *dirState) {
	mode := s.mode()
	var past, tied []*CheckedFile
	for _, fs := range s.files {
		switch fs.f.Scan {
		case model.ScanPastCap:
			past = append(past, fs)
		case model.ScanTie:
			tied = append(tied, fs)
		}
		if !isMemory(fs.f) {
			checkExcluded(s, fs, mode)
		}
	}
	if len(past)+len(tied) == 0 {
		return
	}
	newestFirst := func(fs []*CheckedFile) {
		sort.SliceStable(fs, func(i, j int) bool {
			if a, b := fs[i].f.ModTime, fs[j].f.ModTime; !a.Equal(b) {
				return a.After(b)
			}
			return fs[i].f.Path < fs[j].f.Path
		})
	}
	newestFirst(past)
	newestFirst(tied)
	var msg strings.Builder
	fmt.Fprintf(&msg, "Claude Code's scan lists %s in this memory folder", Plural(s.dir.ScanListed, "memory file"))
	if s.dir.Kind == model.DirTeam {
		msg.WriteString(" and the one it sits in (one scan)")
	}
	fmt.Fprintf(&msg, " and offers only the newest %d (by mtime) to recall", model.RecallScanCap)
	if len(past) > 0 {
		fmt.Fprintf(&msg, "; %d %s never offered, newest first: %s", len(past), model.Plural(len(past), "file here is", "files here are"), namedFiles(past))
	}
	if len(tied) > 0 {
		fmt.Fprintf(&msg, "; %s the mtime of the 200th place, so whether recall sees %s depends on the folder listing's order: %s",
			model.Plural(len(tied), "one file here shares", fmt.Sprintf("%d files here share", len(tied))), model.Plural(len(tied), "it", "them"), namedFiles(tied))
	}
	msg.WriteString("; " + mode.recallNote())
	s.report(RuleRecallCap, "", 0, msg.String(),
		fmt.Sprintf("Bring the folder under %d memory files: merge near-duplicates and prune old memories nobody uses (memtui dream proposes the merges, and the prunes once the transcripts show which memories go unused), so recall chooses among all of them; memtui ls lists every file with its place.", model.RecallScanCap))
}

// namedFiles names up to maxNamed files with their mtime's date.
func namedFiles(fs []*CheckedFile) string {
	var names []string
	for i, f := range fs {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("and %d more", len(fs)-maxNamed))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", f.f.Path, f.f.ModTime.Format("2006-01-02")))
	}
	return strings.Join(names, ", ")
}

// checkExcluded reports a file the scan skips that has memory frontmatter:
// someone meant it as a memory, and Claude Code never lists it as one. A
// file in the archive folder (model.ArchiveDir) is out of the scan on
// purpose: an archive proposal, or a person, put it there so that recall
// never offers it, and it is no finding.
func checkExcluded(s *dirState, fs *CheckedFile, mode MemoryMode) {
	if model.IsArchived(fs.f.Path) {
		return
	}
	d := fs.doc
	if d.Status != model.FMOK && d.Status != model.FMTolerant || !d.FM.HasName && !d.FM.HasDesc && d.FM.TypeKey == "" {
		return
	}
	why := fs.f.ScanWhy
	if why == "" {
		why = string(fs.f.Scan)
	}
	fix := "If it is a memory, move it to the top of the memory folder and link it from MEMORY.md; if not, remove its frontmatter."
	if strings.HasPrefix(fs.f.ScanWhy, "team/") {
		fix = "If it belongs to a team store, mount the store with CLAUDE_MEMORY_STORES; otherwise move it to team/ itself or to the memory folder."
	}
	s.report(RuleScanExcluded, fs.f.Path, d.Open,
		fmt.Sprintf("%s has memory frontmatter, but Claude Code's scan skips it (%s): it is never listed, recalled or counted as a memory; %s", fs.f.Path, why, mode.recallNote()),
		fix)
}
