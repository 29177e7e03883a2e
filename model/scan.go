package model

import (
	"sort"
	"strings"
	"time"
)

// This file is Claude Code's memory scan as 2.1.332 does it (facts doc 2.1
// and 4.1): which *.md files of a memory directory it lists as memories,
// and which of those it offers to recall (the newest 200 by mtime). The
// loader (memfs) walks the disk and calls these; the checks, `memtui ls`
// and the TUI read the outcome from File.Scan.

// RecallScanCap is how many memory files Claude Code's scan keeps, newest
// first by mtime (facts 4.1): the rest are never offered to recall.
const RecallScanCap = 200

// ScanReason says why Claude Code's scan does not offer a file to recall;
// "" (ScanIn) when it does. The words are stable: `memtui ls --json`
// prints them.
type ScanReason string

// Scan outcomes.
const (
	// ScanIn: listed, and among the newest 200.
	ScanIn ScanReason = ""
	// ScanExcluded: in a path the scan skips (a segment starting with a
	// dot; logs/, sessions/ or proposals/ at the top; a team/<sub>/ that is
	// not a mounted team store). Not a memory as far as Claude Code goes.
	ScanExcluded ScanReason = "excluded-path"
	// ScanPastCap: a memory, but older than the newest 200.
	ScanPastCap ScanReason = "past-200"
	// ScanTie: a memory whose mtime equals others' right at the 200th
	// place: Claude Code keeps some of them, in the order the directory
	// listing gave, which nobody can know in advance. in_scan is null.
	ScanTie ScanReason = "tie-at-200"
	// ScanUnreadable: the scan fails to read it, and drops it.
	ScanUnreadable ScanReason = "unreadable"
	// ScanNotFollowed: reached only through a link the scan does not
	// follow (project and local agent memory follow none).
	ScanNotFollowed ScanReason = "not-followed"
	// ScanHardlinked: a file with more than one hard link, which the
	// regular-files-only scan of project and local agent memory refuses.
	ScanHardlinked ScanReason = "hardlinked"
)

// InScan says whether the scan offers the file to recall: known is false
// when nobody can tell (ScanTie).
func (r ScanReason) InScan() (in, known bool) {
	switch r {
	case ScanIn:
		return true, true
	case ScanTie:
		return false, false
	}
	return false, true
}

// Memory reports whether Claude Code's scan lists the file as a memory at
// all (before the cap): in the scan, past the 200, or tied at the 200th.
// Excluded, unreadable and unfollowed files are not memories to it.
func (r ScanReason) Memory() bool {
	return r == ScanIn || r == ScanPastCap || r == ScanTie
}

// ScanExclusion says why Claude Code's scan of an auto-memory directory
// skips the file at rel (slash-separated, relative to the memory dir), or
// "" when it keeps it (facts 2.1). Segments are compared after removing
// trailing dots and spaces, lower-cased, so Logs/ and sessions./ are
// skipped too. Agent-memory dirs are scanned without these exclusions.
func ScanExclusion(rel string, stores MemoryStores) string {
	segs := strings.Split(rel, "/")
	team := len(segs) > 1 && segs[0] == "team"
	if team {
		if len(segs) == 2 {
			return "" // team/<file>.md is kept, even a dot-named one
		}
		sub := segs[1]
		if stores.Team(sub) == nil {
			why := "team/" + sub + "/ is not the mount of a team store in CLAUDE_MEMORY_STORES"
			if !stores.Set {
				why += " (the variable is not set in memtui's environment, so memtui takes no folder of team/ as mounted; Claude Code scans it only in sessions whose CLAUDE_MEMORY_STORES mounts it)"
			}
			return why
		}
		segs = segs[2:]
	}
	for _, s := range segs {
		if strings.HasPrefix(s, ".") {
			return "the path has a part starting with a dot (" + s + ")"
		}
	}
	if team || len(segs) < 2 {
		return ""
	}
	switch strings.ToLower(strings.TrimRight(segs[0], ". ")) {
	case "logs", "sessions", "proposals":
		return "it is under " + segs[0] + "/, a folder the scan skips"
	}
	return ""
}

// ScanCandidate is one memory file the scan lists, for RankScan.
type ScanCandidate struct {
	ModTime time.Time
	// Reason is set by RankScan: ScanIn, ScanPastCap or ScanTie.
	Reason ScanReason
}

// RankScan sorts the listed memory files as Claude Code does, by mtime,
// newest first, and keeps the first RecallScanCap: each candidate's Reason
// becomes ScanIn or ScanPastCap. Claude Code compares mtimes as
// floating-point milliseconds; memtui compares them to the microsecond, and
// files that share the mtime of the 200th place, with some of them inside
// and some outside, are ScanTie: which of them Claude Code keeps depends on
// the directory listing's order.
func RankScan(cands []*ScanCandidate) {
	for _, c := range cands {
		c.Reason = ScanIn
	}
	if len(cands) <= RecallScanCap {
		return
	}
	sorted := append([]*ScanCandidate(nil), cands...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return sorted[i].ModTime.UnixMicro() > sorted[j].ModTime.UnixMicro()
	})
	last := sorted[RecallScanCap-1].ModTime.UnixMicro()
	tie := sorted[RecallScanCap].ModTime.UnixMicro() == last
	for i, c := range sorted {
		m := c.ModTime.UnixMicro()
		switch {
		case tie && m == last:
			c.Reason = ScanTie
		case i >= RecallScanCap:
			c.Reason = ScanPastCap
		}
	}
}
