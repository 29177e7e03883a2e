package consolidate

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtui/memtui/model/codex"
)

// The checks of what Codex's databases say (codex facts §3.3, §4.1, §9
// items 4-7): which memories Codex is about to forget and why, the
// consolidation's failures and stuck states, the lock it holds, and the
// references of MEMORY.md and the rollout summaries that lead nowhere.
// Every date is the database's, judged at opts.Now.

// The rules of Codex's databases.
const (
	RuleCodexDBUnreadable  = "codex-db-unreadable"
	RuleCodexForgetSoon    = "codex-forgotten-soon"
	RuleCodexNeverCited    = "codex-never-cited"
	RuleCodexBelowCut      = "codex-below-cut"
	RuleCodexStuck         = "codex-consolidation-failed"
	RuleCodexExtractFailed = "codex-extraction-failed"
	RuleCodexThreadUnknown = "codex-thread-unknown"
	RuleCodexSessionGone   = "codex-rollout-path-missing"
)

// codexForgetWindow is how far ahead a forget date is reported.
const codexForgetWindow = 7 * 24 * time.Hour

// codexStuckAfter is how long after the newest extraction a queued
// consolidation that never ran is reported (#23129: "remains pending").
const codexStuckAfter = 24 * time.Hour

// db checks what the databases say; it runs whether or not memories/
// exists (stage 1 can succeed and the consolidation never run, #23129).
func (c *codexCheck) db() {
	s, db := c.s, c.s.DB
	if db == nil {
		return
	}
	now := c.opts.Now
	for _, p := range db.Problems {
		c.report(RuleCodexDBUnreadable, c.rel(p.Path), 0, filepath.Base(p.Path)+": "+p.Detail+"; what it says of Codex's memories is not known",
			"memtui reads a private copy of Codex's databases and never opens Codex's own; a file that is not a database, a link, a FIFO or one over 256 MiB is not read.")
	}
	dbFile := c.rel(db.MemoriesPath)
	if why := s.LeaseBusy(now); why != "" {
		c.report(RuleCodexBusy, dbFile, 0, why+"; memtui writes nothing into the store until it ends", "Let the consolidation finish: if its worker died, the lease runs out by itself.")
	}
	summaries := c.summariesByThread()
	c.consolidation(now, dbFile, summaries)
	c.rolloutPaths()
	if !db.Found {
		return
	}
	fates := codex.Forecast(db, s.Config, now)
	c.forecast(fates, now, dbFile, summaries)
	c.groupsAtRisk(fates, now)
	c.unknownThreads()
}

// rel is a database's path as a finding names it: relative to the memory
// root ("../memories_1.sqlite" in the home), or absolute when elsewhere
// on another volume.
func (c *codexCheck) rel(p string) string {
	if p == "" {
		return "../" + codex.MemoriesDBFile
	}
	r, err := filepath.Rel(c.s.Root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// summariesByThread are the rollout summaries in the store by the thread
// their header names (or, failing that, whose name Codex would give them).
func (c *codexCheck) summariesByThread() map[string]string {
	out := map[string]string{}
	for _, f := range c.s.Files {
		if codex.KindOf(f.Path) != codex.KindRollout || !strings.HasSuffix(f.Path, ".md") {
			continue
		}
		if id := c.rolloutSummary(f).ThreadID; id != "" {
			if _, dup := out[id]; !dup {
				out[id] = f.Path
			}
		}
	}
	if c.s.DB != nil {
		for _, o := range c.s.DB.Stage1 {
			if _, ok := out[o.ThreadID]; ok {
				continue
			}
			if stem, err := codex.RolloutStem(o.ThreadID, o.SourceUpdatedAt, o.Slug); err == nil && c.s.File(codex.RolloutDir+stem+".md") != nil {
				out[o.ThreadID] = codex.RolloutDir + stem + ".md"
			}
		}
	}
	return out
}

// consolidation: the global job's failures and stuck states, and the
// extractions that failed (codex facts §4.1, §7: #23129, #35093).
func (c *codexCheck) consolidation(now time.Time, dbFile string, summaries map[string]string) {
	st := codex.Status(c.s.DB, now)
	if j := st.Job; j != nil {
		switch {
		case st.Failed:
			msg := "Codex's last consolidation failed"
			if !j.Finished.IsZero() {
				msg += " on " + codex.Stamp(j.Finished)
			}
			msg += ": " + orNone(j.LastError)
			if st.Exhausted {
				msg += "; its retries are used up (Codex still claims it again at a later turn)"
			} else if !j.RetryAt.IsZero() {
				msg += fmt.Sprintf("; Codex retries after %s (%d retries left)", codex.Stamp(j.RetryAt), j.RetryRemaining)
			}
			c.report(RuleCodexStuck, dbFile, 0, msg, "Until a consolidation succeeds, new memories reach neither MEMORY.md nor the summary; codex doctor checks the database, and the error says what to fix.")
		case st.Stale:
			msg := "Codex's consolidation is marked running"
			if !j.Started.IsZero() {
				msg += " since " + codex.Stamp(j.Started)
			}
			msg += ", but its lease ran out at " + codex.Stamp(j.LeaseUntil) + ": its worker died mid-run"
			c.report(RuleCodexStuck, dbFile, 0, msg, "Codex's next consolidation takes it over; a phase2_workspace_diff.md left in memories/ shows what the dead run was given.")
		case st.Pending && st.NeverRan:
			var newest time.Time
			for _, o := range c.s.DB.Stage1 {
				if o.GeneratedAt.After(newest) {
					newest = o.GeneratedAt
				}
			}
			if newest.IsZero() || now.Sub(newest) >= codexStuckAfter {
				msg := "Codex's consolidation is queued (pending) and has never run"
				if !newest.IsZero() {
					msg += fmt.Sprintf(", though its newest extraction dates from %s (%d in all)", codex.Day(newest), len(c.s.DB.Stage1))
				}
				msg += ": until it runs, no extraction reaches MEMORY.md or the summary (#23129)"
				c.report(RuleCodexStuck, dbFile, 0, msg, "Codex consolidates at a user turn of an interactive session, after its rate-limit check; codex doctor checks the database.")
			}
		}
	}
	for _, j := range st.Stage1Failed {
		subject := "the extraction of thread " + j.Key
		if t, ok := c.s.DB.Threads[j.Key]; ok && t.Cwd != "" {
			subject += " (cwd " + t.Cwd + ")"
		}
		file := dbFile
		if f := summaries[j.Key]; f != "" {
			file = f
		}
		when := ""
		if !j.Finished.IsZero() {
			when = " on " + codex.Stamp(j.Finished)
		}
		if j.RetryRemaining <= 0 {
			c.report(RuleCodexExtractFailed, file, 0, fmt.Sprintf("%s failed%s (%s) and has no retries left: the session is never memorized unless it is continued (#35093)", subject, when, orNone(j.LastError)),
				"A session too long for the extraction model (context_length_exceeded) stays unmemorized; what matters from it can go in a note (extensions/ad_hoc/notes/).")
			continue
		}
		msg := fmt.Sprintf("%s failed%s (%s)", subject, when, orNone(j.LastError))
		if !j.RetryAt.IsZero() {
			msg += fmt.Sprintf("; Codex retries after %s (%d retries left)", codex.Stamp(j.RetryAt), j.RetryRemaining)
		}
		c.report(RuleCodexExtractFailed, file, 0, msg, "Codex retries by itself; if it keeps failing, the session is never memorized.")
	}
}

func orNone(err string) string {
	if err == "" {
		return "no error recorded"
	}
	return err
}

// forecast: each memory about to be forgotten, never cited, or ranked
// below the consolidation's cut (codex facts §3.3).
func (c *codexCheck) forecast(fates []codex.Fate, now time.Time, dbFile string, summaries map[string]string) {
	days := c.s.Config.MaxUnusedDays
	maxRaw := c.s.Config.MaxRaw
	eligible := 0
	for _, f := range fates {
		if f.Eligible {
			eligible++
		}
	}
	var cutAway int
	for _, f := range fates {
		file := summaries[f.ThreadID]
		subject := file
		at := file
		if file == "" {
			subject, at = "the memory of thread "+f.ThreadID, dbFile
		}
		basis := fmt.Sprintf("it was never cited, and its session was last active on %s", codex.Day(f.SourceUpdatedAt))
		if f.Cited {
			basis = "it was last cited on " + codex.Day(f.LastUsage)
		}
		const keep = "If it still matters, cite it from a session, or keep the fact in a note (extensions/ad_hoc/notes/): Codex never forgets notes."
		switch {
		case f.Blank:
			// Nothing to forget: Codex never selects it.
		case f.Eligible && f.BelowCut:
			if file == "" {
				cutAway++
				continue
			}
			c.report(RuleCodexBelowCut, at, 0, fmt.Sprintf("%s ranks %d among the %d memories Codex would consolidate, below the top %d it takes (max_raw_memories_for_consolidation): its next consolidation deletes it and drops what only it supports", subject, f.Rank, eligible, maxRaw),
				"Raise [memories] max_raw_memories_for_consolidation (up to 4096), or keep the fact in a note (extensions/ad_hoc/notes/).")
		case f.Eligible && f.ForgetAt.Sub(now) <= codexForgetWindow:
			c.report(RuleCodexForgetSoon, at, 0, fmt.Sprintf("%s is forgotten on %s: %s, and Codex keeps a memory %d days after that (max_unused_days); its next consolidation then deletes it and drops what only it supports", subject, codex.Day(f.ForgetAt), basis, days), keep)
		case f.Eligible && !f.Cited:
			c.report(RuleCodexNeverCited, at, 0, fmt.Sprintf("%s has never been cited by a Codex session: however useful it is, Codex forgets it on %s, %d days after its session was last active (%s)", subject, codex.Day(f.ForgetAt), days, codex.Day(f.SourceUpdatedAt)),
				"Codex counts a memory as used only when a session cites it; a fact that must stay belongs in a note (extensions/ad_hoc/notes/).")
		case f.Eligible:
		case file == "" && !f.Selected:
			// Already out of Codex's input and off disk: forgotten.
		case f.Stale:
			c.report(RuleCodexForgetSoon, at, 0, fmt.Sprintf("%s passed its forget date on %s (%s): Codex's next consolidation deletes it and drops what only it supports", subject, codex.Day(f.ForgetAt), basis), keep)
		case f.NoThread:
			c.report(RuleCodexForgetSoon, at, 0, subject+" comes from a session Codex no longer knows (deleted): its next consolidation deletes it and drops what only it supports", keep)
		default:
			c.report(RuleCodexForgetSoon, at, 0, fmt.Sprintf("%s comes from a session whose memory mode is now %q: Codex's next consolidation deletes it and drops what only it supports", subject, f.Mode), keep)
		}
	}
	if cutAway > 0 {
		what := fmt.Sprintf("%d memories rank", cutAway)
		if cutAway == 1 {
			what = "1 memory ranks"
		}
		c.report(RuleCodexBelowCut, dbFile, 0, fmt.Sprintf("%s below the top %d Codex consolidates (max_raw_memories_for_consolidation), out of %d it would: Codex leaves them out of its input", what, maxRaw, eligible),
			"Raise [memories] max_raw_memories_for_consolidation (up to 4096), or keep what matters in notes (extensions/ad_hoc/notes/).")
	}
}

// groupsAtRisk: each task group of MEMORY.md whose only evidence is about
// to be forgotten, or already out of Codex's input.
func (c *codexCheck) groupsAtRisk(fates []codex.Fate, now time.Time) {
	f := c.s.File(codex.HandbookFile)
	if f == nil {
		return
	}
	by := map[string]codex.Fate{}
	for _, x := range fates {
		by[x.ThreadID] = x
	}
	threadOf := map[string]string{}
	for _, x := range c.s.Files {
		if codex.KindOf(x.Path) == codex.KindRollout {
			threadOf[x.Path] = c.rolloutSummary(x).ThreadID
		}
	}
	h := c.handbookDoc()
groups:
	for _, g := range h.Groups {
		ids := map[string]bool{}
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				id := r.Note["thread_id"]
				if id == "" {
					id = threadOf[r.Path]
				}
				if id != "" {
					ids[id] = true
				}
			}
		}
		if len(ids) == 0 {
			continue
		}
		var last time.Time
		for id := range ids {
			x, ok := by[id]
			if !ok {
				continue groups // evidence the database does not know: codex-thread-unknown says so
			}
			if x.Kept() {
				if x.ForgetAt.Sub(now) > codexForgetWindow {
					continue groups
				}
				if x.ForgetAt.After(last) {
					last = x.ForgetAt
				}
			}
		}
		n := fmt.Sprintf("%d rollout", len(ids))
		if len(ids) > 1 {
			n += "s"
		}
		if last.IsZero() {
			c.report(RuleCodexForgetSoon, codex.HandbookFile, g.Line, fmt.Sprintf("the task group %q rests only on memories already out of Codex's consolidation input (%s): its next consolidation is told to drop what only they support", g.Title, n),
				"If the group still matters, keep its facts in a note (extensions/ad_hoc/notes/): Codex never forgets notes.")
			continue
		}
		c.report(RuleCodexForgetSoon, codex.HandbookFile, g.Line, fmt.Sprintf("the task group %q rests only on memories Codex forgets by %s (%s): its consolidation then drops what only they support", g.Title, codex.Day(last), n),
			"If the group still matters, cite its memories from a session, or keep its facts in a note (extensions/ad_hoc/notes/): Codex never forgets notes.")
	}
}

// unknownThreads: the thread ids MEMORY.md cites that the databases do
// not know (codex facts §9 item 4).
func (c *codexCheck) unknownThreads() {
	f := c.s.File(codex.HandbookFile)
	db := c.s.DB
	if f == nil || db == nil {
		return
	}
	for _, g := range c.handbookDoc().Groups {
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				id := r.Note["thread_id"]
				if id == "" {
					continue
				}
				_, known := db.Threads[id]
				var lacks []string
				if db.Found && db.Output(id) == nil {
					lacks = append(lacks, "no stage-1 output (pruned after it aged out, or the memories were reset)")
				}
				if db.ThreadsRead && !known {
					lacks = append(lacks, "no thread (deleted, or from another machine)")
				}
				if len(lacks) == 0 {
					continue
				}
				c.report(RuleCodexThreadUnknown, codex.HandbookFile, r.Line, "thread_id="+id+" is cited as evidence, but Codex's database has "+strings.Join(lacks, " and "),
					"What only it supports has no source Codex still holds: check it, and keep what matters in a note (extensions/ad_hoc/notes/).")
			}
		}
	}
}

// rolloutPaths: the sessions the rollout summaries' headers name that
// are not on disk (codex facts §6.1, §9 item 4).
func (c *codexCheck) rolloutPaths() {
	files := c.s.RolloutFiles
	if len(files) == 0 {
		return
	}
	for _, f := range c.s.Files {
		if codex.KindOf(f.Path) != codex.KindRollout || !strings.HasSuffix(f.Path, ".md") {
			continue
		}
		r := c.rolloutSummary(f)
		if there, known := files[r.RolloutPath]; !known || there {
			continue
		}
		why := "deleted, or archived (Codex moves archived sessions to archived_sessions/)"
		if db := c.s.DB; db != nil && db.Threads[r.ThreadID].Archived {
			why = "its thread is archived (Codex moves archived sessions to archived_sessions/)"
		}
		c.report(RuleCodexSessionGone, f.Path, headerLine(f.Content, "rollout_path:"), "its session file "+r.RolloutPath+" is not on disk: "+why+"; the memory can no longer be traced to the session it came from",
			"Nothing to fix in the store; keep the session if its provenance matters.")
	}
}

// headerLine is the 1-based line of a rollout summary's header that
// starts with key, 0 when none.
func headerLine(content []byte, key string) int {
	for i, l := range strings.SplitN(string(content), "\n", 12) {
		if strings.HasPrefix(l, key) {
			return i + 1
		}
	}
	return 0
}
