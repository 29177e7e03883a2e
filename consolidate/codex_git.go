package consolidate

import (
	"fmt"
	"strings"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The checks of Codex's git baseline (codex facts §4.3, §4.4, §6.2, §9
// items 6 and 8): what its next consolidation will see in its diff
// against memories/.git, the hand edits it will silently overwrite
// instead, and a baseline that makes it see nothing.

// The Codex baseline rules.
const (
	RuleCodexPending  = "codex-pending-edit"
	RuleCodexEditLost = "codex-edit-lost"
	RuleCodexBaseline = "codex-baseline"
)

// baseline checks the store's baseline (nil when none was read, as for a
// store built by hand: nothing to say).
func (c *codexCheck) baseline() {
	b := c.s.Baseline
	if b == nil {
		return
	}
	for _, p := range b.Problems {
		c.report(RuleCodexBaseline, ".git", 0, "Codex's baseline (memories/.git): "+p,
			"Leave memories/.git to Codex: it deletes and re-makes it after each successful consolidation, and memtui never writes there.")
	}
	if !b.Found {
		if len(b.Problems) == 0 && (c.s.File(codex.SummaryFile) != nil || c.s.File(codex.HandbookFile) != nil) {
			c.report(RuleCodexBaseline, ".git", 0, "memories/.git is missing, though Codex has consolidated (the summary or MEMORY.md is there): its next run makes a new baseline of the files as they are and takes them all for consolidated, so an edit made since its last run is never shown to its agent",
				"After Codex's next run, restate any such edit as a note in extensions/ad_hoc/notes/, which it consolidates.")
		}
		return
	}
	if b.Head == "" {
		return // its problems said why
	}
	if !b.ByCodex {
		what := fmt.Sprintf("HEAD of memories/.git is commit %s by %s (%q)", shortHash(b.Head), b.Author, b.Subject)
		if b.Commits > 1 {
			what += fmt.Sprintf(", one of %d commits", b.Commits)
		}
		c.report(RuleCodexBaseline, ".git", 0, what+": Codex's baseline is one root commit by "+codex.BaselineIdent+" (\""+codex.BaselineSubject+"\"), so something else committed there, and whatever it committed is hidden from Codex's next diff",
			"Leave memories/.git to Codex; an edit committed there reaches Codex's agent only if made again after its next run, or written as a note in extensions/ad_hoc/notes/.")
	}
	since := "since the baseline"
	if b.ByCodex {
		since = "since Codex's last consolidation (" + b.Time.UTC().Format("2006-01-02 15:04 UTC") + ")"
	}
	busy := c.s.Busy() != ""
	unread := unreadPaths(c.s.Problems)
	for _, ch := range codex.Pending(b, c.s.Files) {
		if ch.Path == codex.DiffFile {
			continue // Codex removes it before every diff
		}
		if ch.Status == 'D' && unread(ch.Path) {
			ch.Unknown = true
		}
		if regeneratedMD(ch.Path) && !ch.Unknown && !busy {
			c.lost(ch, since)
			continue
		}
		c.pending(ch, since)
	}
}

// regeneratedMD says Codex rewrites the file at rel from its database
// before it diffs (facts §1.2): raw_memories.md, and every .md of
// rollout_summaries/ (one whose thread is not selected is deleted; other
// files there are left alone, so they do reach the diff).
func regeneratedMD(rel string) bool {
	return rel == codex.RawFile || strings.HasPrefix(rel, codex.RolloutDir) && strings.HasSuffix(rel, ".md")
}

// lost reports a hand edit Codex overwrites before its agent sees it.
func (c *codexCheck) lost(ch codex.Change, since string) {
	var what string
	switch ch.Status {
	case 'A':
		what = ch.Path + " was added " + since
	case 'D':
		what = ch.Path + " was deleted " + since
	default:
		what = ch.Path + " was edited " + since
	}
	c.report(RuleCodexEditLost, ch.Path, 0, what+", by hand: Codex rebuilds raw_memories.md and rollout_summaries/ from its database before its next consolidation diffs the store, so the edit is silently lost and its agent never sees it",
		"Put what the edit says in a note (extensions/ad_hoc/notes/), which Codex consolidates; these files are Codex's own.")
}

// pending reports an edit Codex's next consolidation will show its agent.
func (c *codexCheck) pending(ch codex.Change, since string) {
	var what string
	switch {
	case ch.Unknown && ch.Status == 'D':
		what = ch.Path + " is in Codex's baseline, and memtui could not list or read it now: whether it was deleted " + since + " is not known"
	case ch.Unknown:
		what = ch.Path + " was read only in part (over memtui's cap), so whether it changed " + since + " is not known"
	case ch.Status == 'A' && codex.KindOf(ch.Path) == codex.KindNote:
		what = ch.Path + " is a note added " + since + ", not yet consolidated: Codex's next run shows it to its agent, which folds it into MEMORY.md and the summary"
	case ch.Status == 'A':
		what = ch.Path + " was added " + since + ": Codex's next run shows it to its agent as an addition to fold in"
	case ch.Status == 'D':
		what = ch.Path + " was deleted " + since + ": Codex's next run shows the deletion to its agent"
	case ch.ModeOnly:
		what = ch.Path + "'s execute bit changed " + since + ": Codex's next run shows the mode change to its agent"
	default:
		what = ch.Path + " was changed " + since + ": Codex's next run shows the diff to its agent, which must fold it in (and may reword it)"
	}
	c.report(RuleCodexPending, ch.Path, 0, what,
		"Nothing to do: Codex's next consolidation takes it in (after its 6-hour cooldown, at a user turn); a new fact is best written as a note in extensions/ad_hoc/notes/.")
}

// unreadPaths says a path could not be read or listed now: it, or a
// folder above it, is a problem of the unreadable kind.
func unreadPaths(ps []model.Problem) func(string) bool {
	bad := map[string]bool{}
	for _, p := range ps {
		if p.Kind == model.ProblemUnreadable {
			bad[p.Path] = true
		}
	}
	return func(rel string) bool {
		if bad[""] {
			return true
		}
		for p := rel; ; {
			if bad[p] {
				return true
			}
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				return false
			}
			p = p[:i]
		}
	}
}

// shortHash is a commit hash as git abbreviates it.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
