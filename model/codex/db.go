package codex

import (
	"fmt"
	"sort"
	"time"

	"github.com/memtui/memtui/model"
)

// What Codex's SQLite databases say about its memories (codex facts §4.1,
// §4.2): the stage-1 outputs each rollout summary is rendered from, the
// jobs (among them the consolidation lock, a row, not a file), and the
// threads they came from. memfs.LoadCodexDB reads them; everything here
// is pure.

// The database files, in the SQLite home (codex facts §1.1).
const (
	MemoriesDBFile = "memories_1.sqlite"
	StateDBFile    = "state_5.sqlite"
)

// The job kinds and the consolidation's key (codex facts §4.1).
const (
	JobStage1 = "memory_stage1"
	JobGlobal = "memory_consolidate_global"
	GlobalKey = "global"
)

// The job statuses (codex facts §4.2).
const (
	StatusPending = "pending"
	StatusRunning = "running"
	StatusDone    = "done"
	StatusError   = "error"
)

// Cooldown is how long after a successful consolidation Codex refuses to
// run another (PHASE2_SUCCESS_COOLDOWN_SECONDS, codex facts §3.2).
const Cooldown = 6 * time.Hour

// ModeEnabled is the one threads.memory_mode whose outputs Codex
// consolidates ("disabled" and "polluted" are forgotten, codex facts §3.3).
const ModeEnabled = "enabled"

// DB is what Codex's databases say, as memfs.LoadCodexDB read them.
type DB struct {
	// Found says the memory tables (stage1_outputs, jobs) were read.
	Found bool
	// MemoriesPath and StatePath are the database files read ("" for one
	// that was not there).
	MemoriesPath, StatePath string
	// Legacy says the memory tables came from state_5.sqlite: an install
	// from before Codex moved them to memories_1.sqlite (#24591).
	Legacy bool
	// Stage1 are the stage-1 outputs, by thread id.
	Stage1 []Stage1
	// Jobs are the memory jobs (stage 1 per thread, the global
	// consolidation), by kind then key.
	Jobs []Job
	// Threads are state_5.sqlite's threads by id; ThreadsRead says that
	// table was read, so a thread missing from it is one Codex does not
	// know (not merely one memtui did not look up).
	Threads     map[string]Thread
	ThreadsRead bool
	// Problems say what could not be read; their Path is the database's
	// (absolute) path, or the SQLite home's when no database was reached.
	Problems []model.Problem
}

// Stage1 is one stage1_outputs row: the extraction of one thread, which
// Codex renders as raw_memories.md's section and a rollout summary.
type Stage1 struct {
	ThreadID                     string
	SourceUpdatedAt, GeneratedAt time.Time
	// Slug is rollout_slug, the tail of the summary's file name.
	Slug string
	// UsageCount counts the sessions that cited it (0 for NULL); Cited
	// says it is set and above 0; LastUsage is the last citation (zero for
	// NULL).
	UsageCount int
	Cited      bool
	LastUsage  time.Time
	// Selected is selected_for_phase2: it was in the last consolidation's
	// input, at SelectedSourceUpdatedAt.
	Selected                bool
	SelectedSourceUpdatedAt time.Time
	// RawBytes and SummaryBytes are the lengths of raw_memory and
	// rollout_summary (the texts themselves are not read); Blank says both
	// are empty once SQLite's trim() has cut their spaces, and Codex's
	// selection (the same trim) never takes such an output.
	RawBytes, SummaryBytes int
	Blank                  bool
}

// Job is one jobs row.
type Job struct {
	Kind, Key, Status        string
	WorkerID, OwnershipToken string
	// The times are the columns' Unix seconds; zero for NULL.
	Started, Finished, LeaseUntil, RetryAt time.Time
	RetryRemaining                         int
	LastError                              string
}

// Thread is one threads row of state_5.sqlite.
type Thread struct {
	ID, Cwd, RolloutPath, GitBranch, GitOrigin, ProjectID string
	// MemoryMode is "enabled", "disabled" or "polluted".
	MemoryMode, Source, Title string
	UpdatedAt                 time.Time
	Archived                  bool
}

// Global is the consolidation's job row, nil when there is none (Codex
// never queued a consolidation, or the tables were not read).
func (db *DB) Global() *Job {
	if db == nil {
		return nil
	}
	for i := range db.Jobs {
		if j := &db.Jobs[i]; j.Kind == JobGlobal && j.Key == GlobalKey {
			return j
		}
	}
	return nil
}

// Lease is the consolidation's job when it holds the lock at now (status
// running and lease_until after now, codex facts §4.1), nil when not.
func (db *DB) Lease(now time.Time) *Job {
	j := db.Global()
	if j == nil || j.Status != StatusRunning || j.LeaseUntil.IsZero() || j.LeaseUntil.Unix() <= now.Unix() {
		return nil
	}
	return j
}

// Output is the stage-1 output of thread id, nil when there is none.
func (db *DB) Output(id string) *Stage1 {
	if db == nil {
		return nil
	}
	i := sort.Search(len(db.Stage1), func(i int) bool { return db.Stage1[i].ThreadID >= id })
	if i < len(db.Stage1) && db.Stage1[i].ThreadID == id {
		return &db.Stage1[i]
	}
	return nil
}

// LeaseBusy says why memtui must not write while a consolidation holds
// the lease at now, "" when none does (or the database was not read).
func (s *Store) LeaseBusy(now time.Time) string {
	j := s.DB.Lease(now)
	if j == nil {
		return ""
	}
	who := "a Codex worker"
	if j.WorkerID != "" {
		who = "thread " + j.WorkerID
	}
	return fmt.Sprintf("a Codex consolidation holds the lock (%s, lease until %s): an edit now could be overwritten or baked into its baseline unseen", who, Stamp(j.LeaseUntil))
}

// Stamp is a database time as memtui names it: the date and the time,
// in UTC.
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// Day is a date as memtui names it.
func Day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// Fate is what Codex's retention does with one stage-1 output (codex
// facts §3.3): when it drops out of the consolidation's input, and
// whether it is in that input now.
type Fate struct {
	Stage1
	// Basis is COALESCE(last_usage, source_updated_at): the last citation,
	// else the thread's last activity. ForgetAt is Basis plus
	// max_unused_days: from then on the consolidation no longer selects
	// the output, deletes its rollout summary and drops what only it
	// supports.
	Basis, ForgetAt time.Time
	// Stale says ForgetAt has passed.
	Stale bool
	// Mode is the thread's memory_mode, "" when the threads were not read;
	// NoThread says they were and the thread is not among them. Codex
	// selects only outputs of enabled threads it knows.
	Mode     string
	NoThread bool
	// Eligible says the consolidation would consider it now: not blank,
	// not stale, its thread enabled. Rank is its place among the eligible
	// (1 first) by Codex's order (usage_count, then Basis, then
	// source_updated_at, newest first, then thread id), 0 when not
	// eligible; BelowCut says Rank is past max_raw_memories_for_consolidation.
	Eligible bool
	Rank     int
	BelowCut bool
}

// Kept says the next consolidation would take the output as input.
func (f Fate) Kept() bool { return f.Eligible && !f.BelowCut }

// Forecast is the fate of each stage-1 output at now under cfg's
// max_unused_days and max_raw_memories_for_consolidation (cfg as
// ParseConfig returns it, clamped; a zero MaxRaw is the default 256): the
// eligible ones in rank order, then the others by forget date and thread
// id. It follows Codex's own selection (codex facts §3.3): fresh means
// Basis no earlier than now minus max_unused_days, in whole seconds.
func Forecast(db *DB, cfg Config, now time.Time) []Fate {
	if db == nil {
		return nil
	}
	maxRaw := cfg.MaxRaw
	if maxRaw <= 0 {
		maxRaw = limits["max_raw_memories_for_consolidation"].def
	}
	window := int64(max(cfg.MaxUnusedDays, 0)) * 86400
	cutoff := now.Unix() - window
	out := make([]Fate, 0, len(db.Stage1))
	for _, s := range db.Stage1 {
		f := Fate{Stage1: s, Basis: s.SourceUpdatedAt}
		if !s.LastUsage.IsZero() {
			f.Basis = s.LastUsage
		}
		f.ForgetAt = time.Unix(f.Basis.Unix()+window, 0).UTC()
		f.Stale = f.Basis.Unix() < cutoff
		enabled := true
		if db.ThreadsRead {
			t, ok := db.Threads[s.ThreadID]
			f.Mode, f.NoThread = t.MemoryMode, !ok
			enabled = ok && t.MemoryMode == ModeEnabled
		}
		f.Eligible = !s.Blank && !f.Stale && enabled
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Eligible != b.Eligible {
			return a.Eligible
		}
		if !a.Eligible {
			if !a.ForgetAt.Equal(b.ForgetAt) {
				return a.ForgetAt.Before(b.ForgetAt)
			}
			return a.ThreadID < b.ThreadID
		}
		if a.UsageCount != b.UsageCount {
			return a.UsageCount > b.UsageCount
		}
		if !a.Basis.Equal(b.Basis) {
			return a.Basis.After(b.Basis)
		}
		if !a.SourceUpdatedAt.Equal(b.SourceUpdatedAt) {
			return a.SourceUpdatedAt.After(b.SourceUpdatedAt)
		}
		return a.ThreadID > b.ThreadID
	})
	for i := range out {
		if !out[i].Eligible {
			break
		}
		out[i].Rank = i + 1
		out[i].BelowCut = out[i].Rank > maxRaw
	}
	return out
}

// Consolidation is the state of Codex's consolidation at a moment
// (codex facts §4.1, §9 item 6).
type Consolidation struct {
	// Job is the global row, nil when there is none.
	Job *Job
	// LastSuccess is when the last consolidation succeeded (finished_at of
	// a done job, or of a pending one queued since with no error), zero
	// when unknown; CooldownLeft is what remains of the 6 hours after it
	// during which Codex runs none.
	LastSuccess  time.Time
	CooldownLeft time.Duration
	// Pending says one is queued; NeverRan that it never started.
	Pending, NeverRan bool
	// Running says the row is running: LeaseHeld while its lease lasts,
	// Stale once it ran out (its worker died; another may take over).
	Running, LeaseHeld, Stale bool
	// Failed says the last run failed (LastError, RetryAt and
	// RetryRemaining are on Job); Exhausted that no retries are left.
	Failed, Exhausted bool
	// Stage1Failed are the extraction jobs that failed, by thread id;
	// Stage1Exhausted those of them with no retries left: their threads
	// are never memorized unless they are continued.
	Stage1Failed, Stage1Exhausted []Job
}

// Status is the consolidation's state at now.
func Status(db *DB, now time.Time) Consolidation {
	var c Consolidation
	if db == nil {
		return c
	}
	for _, j := range db.Jobs {
		if j.Kind == JobStage1 && j.Status == StatusError {
			c.Stage1Failed = append(c.Stage1Failed, j)
			if j.RetryRemaining <= 0 {
				c.Stage1Exhausted = append(c.Stage1Exhausted, j)
			}
		}
	}
	j := db.Global()
	if j == nil {
		return c
	}
	c.Job = j
	switch j.Status {
	case StatusDone:
		c.LastSuccess = j.Finished
	case StatusPending:
		c.Pending = true
		c.NeverRan = j.Started.IsZero() && j.Finished.IsZero()
		if j.LastError == "" {
			c.LastSuccess = j.Finished
		}
	case StatusRunning:
		c.Running = true
		c.LeaseHeld = db.Lease(now) != nil
		c.Stale = !c.LeaseHeld
	case StatusError:
		c.Failed = true
		c.Exhausted = j.RetryRemaining <= 0
	}
	if !c.LastSuccess.IsZero() {
		if left := c.LastSuccess.Add(Cooldown).Sub(now); left > 0 {
			c.CooldownLeft = left
		}
	}
	return c
}
