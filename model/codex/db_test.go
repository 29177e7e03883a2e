package codex

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

var dbNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func ago(d time.Duration) time.Time { return dbNow.Add(-d) }

// out is a stage-1 output of thread id, last active at src, cited n
// times (the last at last; n 0 is never).
func out(id string, src time.Time, n int, last time.Time) Stage1 {
	return Stage1{ThreadID: id, SourceUpdatedAt: src, UsageCount: n, Cited: n > 0, LastUsage: last}
}

func ids(fs []Fate) string {
	var b []string
	for _, f := range fs {
		b = append(b, f.ThreadID)
	}
	return strings.Join(b, " ")
}

// TestForecastOrder: the eligible outputs in Codex's order (usage_count,
// then the last citation or activity, then the activity, newest first,
// then the thread id, highest first), the cut after max_raw, the
// ineligible after them by forget date.
func TestForecastOrder(t *testing.T) {
	db := &DB{Stage1: []Stage1{
		out("a", ago(40*day), 2, ago(5*day)),
		out("b", ago(40*day), 2, ago(1*day)),
		out("c", ago(2*day), 0, time.Time{}),
		out("d", ago(2*day), 0, time.Time{}),
		out("e", ago(50*day), 5, ago(20*day)),
		out("g", ago(10*day), 1, ago(3*day)),
		out("h", ago(4*day), 1, ago(3*day)),
		out("old", ago(31*day), 0, time.Time{}),
		out("older", ago(40*day), 0, time.Time{}),
	}}
	fs := Forecast(db, Config{MaxUnusedDays: 30, MaxRaw: 3}, dbNow)
	if got, want := ids(fs), "e b a h g d c older old"; got != want {
		t.Fatalf("order %q, want %q", got, want)
	}
	for i, f := range fs[:7] {
		if !f.Eligible || f.Rank != i+1 || f.BelowCut != (i >= 3) || f.Kept() == (i >= 3) {
			t.Errorf("%s: eligible %v rank %d below cut %v", f.ThreadID, f.Eligible, f.Rank, f.BelowCut)
		}
	}
	for _, f := range fs[7:] {
		if f.Eligible || f.Rank != 0 || f.BelowCut || !f.Stale {
			t.Errorf("%s: eligible %v rank %d below cut %v stale %v", f.ThreadID, f.Eligible, f.Rank, f.BelowCut, f.Stale)
		}
	}
	// The forget date counts from the last citation, else the activity.
	if f := fs[2]; !f.Basis.Equal(ago(5*day)) || !f.ForgetAt.Equal(ago(5*day).Add(30*day)) {
		t.Errorf("a: basis %v forget %v", f.Basis, f.ForgetAt)
	}
	if f := fs[5]; !f.Basis.Equal(ago(2*day)) || !f.ForgetAt.Equal(ago(2*day).Add(30*day)) {
		t.Errorf("d: basis %v forget %v", f.Basis, f.ForgetAt)
	}
	// A zero MaxRaw is the default 256: nothing is cut here.
	for _, f := range Forecast(db, Config{MaxUnusedDays: 30}, dbNow) {
		if f.BelowCut {
			t.Errorf("%s below the default cut", f.ThreadID)
		}
	}
}

// TestForecastBoundaries: an output is fresh while its basis is no older
// than max_unused_days (to the second), forgotten a second later; blank
// outputs and those of threads not enabled or not known are never
// eligible; without the threads read, they are taken as enabled.
func TestForecastBoundaries(t *testing.T) {
	db := &DB{
		Stage1: []Stage1{
			out("edge", ago(30*day), 0, time.Time{}),
			out("past", ago(30*day+time.Second), 0, time.Time{}),
			out("cited", ago(90*day), 1, ago(30*day)),
			{ThreadID: "blank", SourceUpdatedAt: ago(day), Blank: true},
			out("off", ago(day), 0, time.Time{}),
			out("gone", ago(day), 0, time.Time{}),
		},
		Threads: map[string]Thread{
			"edge": {MemoryMode: ModeEnabled}, "past": {MemoryMode: ModeEnabled}, "cited": {MemoryMode: ModeEnabled},
			"blank": {MemoryMode: ModeEnabled}, "off": {MemoryMode: "polluted"},
		},
		ThreadsRead: true,
	}
	by := map[string]Fate{}
	for _, f := range Forecast(db, Config{MaxUnusedDays: 30, MaxRaw: 256}, dbNow) {
		by[f.ThreadID] = f
	}
	if f := by["edge"]; !f.Eligible || f.Stale || !f.ForgetAt.Equal(dbNow) {
		t.Errorf("edge: %+v", f)
	}
	if f := by["past"]; f.Eligible || !f.Stale || !f.ForgetAt.Equal(dbNow.Add(-time.Second)) {
		t.Errorf("past: %+v", f)
	}
	if f := by["cited"]; !f.Eligible || f.Stale {
		t.Errorf("a citation 30 days ago keeps it: %+v", f)
	}
	if f := by["blank"]; f.Eligible {
		t.Errorf("blank: %+v", f)
	}
	if f := by["off"]; f.Eligible || f.Mode != "polluted" || f.NoThread {
		t.Errorf("off: %+v", f)
	}
	if f := by["gone"]; f.Eligible || !f.NoThread {
		t.Errorf("gone: %+v", f)
	}
	db.ThreadsRead = false
	for _, f := range Forecast(db, Config{MaxUnusedDays: 30, MaxRaw: 256}, dbNow) {
		if (f.ThreadID == "off" || f.ThreadID == "gone") && !f.Eligible {
			t.Errorf("%s: without the threads read, a thread is taken as enabled", f.ThreadID)
		}
	}
	// max_unused_days 0: only an output active this very second is kept.
	zero := Forecast(&DB{Stage1: []Stage1{out("now", dbNow, 0, time.Time{}), out("second", ago(time.Second), 0, time.Time{})}}, Config{MaxRaw: 1}, dbNow)
	if !zero[0].Eligible || zero[0].ThreadID != "now" || zero[1].Eligible {
		t.Errorf("max_unused_days 0: %+v", zero)
	}
}

// TestLease: the lock is held while the row is running and its lease
// lasts, to the second.
func TestLease(t *testing.T) {
	db := &DB{Jobs: []Job{{Kind: JobGlobal, Key: GlobalKey, Status: StatusRunning, WorkerID: "w", LeaseUntil: dbNow.Add(time.Second)}}}
	if db.Lease(dbNow) == nil || db.Lease(dbNow.Add(time.Second)) != nil {
		t.Error("the lease holds until lease_until, not at it")
	}
	db.Jobs[0].Status = StatusDone
	if db.Lease(dbNow) != nil {
		t.Error("a done job holds no lease")
	}
	var none *DB
	if none.Lease(dbNow) != nil || none.Global() != nil || (&DB{}).Global() != nil {
		t.Error("no database, no lease")
	}
}

// TestBusyAt: the workspace diff and the lease each make the store busy,
// both named when both hold; the lease's holder and end are said.
func TestBusyAt(t *testing.T) {
	lease := &DB{Jobs: []Job{{Kind: JobGlobal, Key: GlobalKey, Status: StatusRunning, WorkerID: "0194-w", LeaseUntil: dbNow.Add(time.Hour)}}}
	s := &Store{DB: lease}
	why := s.BusyAt(dbNow)
	if !strings.Contains(why, "0194-w") || !strings.Contains(why, "2026-11-20 13:00 UTC") || strings.Contains(why, DiffFile) {
		t.Errorf("lease: %q", why)
	}
	if s.BusyAt(dbNow.Add(time.Hour)) != "" {
		t.Error("an expired lease keeps the store busy")
	}
	s.Files = []*model.File{{Path: DiffFile}}
	if why := s.BusyAt(dbNow); !strings.Contains(why, DiffFile) || !strings.Contains(why, "holds the lock") {
		t.Errorf("both: %q", why)
	}
}

// TestStatus: the consolidation's state from its row, and the failed
// extractions.
func TestStatus(t *testing.T) {
	g := func(j Job) *DB {
		j.Kind, j.Key = JobGlobal, GlobalKey
		return &DB{Jobs: []Job{j}}
	}
	c := Status(g(Job{Status: StatusDone, Finished: ago(2 * time.Hour)}), dbNow)
	if !c.LastSuccess.Equal(ago(2*time.Hour)) || c.CooldownLeft != 4*time.Hour || c.Pending || c.Failed {
		t.Errorf("done 2h ago: %+v", c)
	}
	if c := Status(g(Job{Status: StatusDone, Finished: ago(6*time.Hour - time.Minute)}), dbNow); c.CooldownLeft != time.Minute {
		t.Errorf("done 5h59m ago: cooldown %v", c.CooldownLeft)
	}
	if c := Status(g(Job{Status: StatusDone, Finished: ago(6 * time.Hour)}), dbNow); c.CooldownLeft != 0 {
		t.Errorf("done 6h ago: cooldown %v", c.CooldownLeft)
	}
	if c := Status(g(Job{Status: StatusPending}), dbNow); !c.Pending || !c.NeverRan || !c.LastSuccess.IsZero() {
		t.Errorf("pending, never ran: %+v", c)
	}
	c = Status(g(Job{Status: StatusPending, Started: ago(3 * time.Hour), Finished: ago(time.Hour)}), dbNow)
	if !c.Pending || c.NeverRan || !c.LastSuccess.Equal(ago(time.Hour)) || c.CooldownLeft != 5*time.Hour {
		t.Errorf("pending after a success: %+v", c)
	}
	if c := Status(g(Job{Status: StatusPending, Finished: ago(time.Hour), LastError: "x"}), dbNow); !c.LastSuccess.IsZero() {
		t.Errorf("pending after a failure has no success: %+v", c)
	}
	if c := Status(g(Job{Status: StatusRunning, LeaseUntil: dbNow.Add(time.Minute)}), dbNow); !c.Running || !c.LeaseHeld || c.Stale {
		t.Errorf("running: %+v", c)
	}
	if c := Status(g(Job{Status: StatusRunning, LeaseUntil: dbNow}), dbNow); !c.Running || c.LeaseHeld || !c.Stale {
		t.Errorf("running, lease over: %+v", c)
	}
	if c := Status(g(Job{Status: StatusError, RetryRemaining: 1}), dbNow); !c.Failed || c.Exhausted {
		t.Errorf("error: %+v", c)
	}
	if c := Status(g(Job{Status: StatusError, RetryRemaining: 0}), dbNow); !c.Failed || !c.Exhausted {
		t.Errorf("error, exhausted: %+v", c)
	}
	db := &DB{Jobs: []Job{
		{Kind: JobStage1, Key: "t1", Status: StatusError, RetryRemaining: 2},
		{Kind: JobStage1, Key: "t2", Status: StatusError, RetryRemaining: 0},
		{Kind: JobStage1, Key: "t3", Status: StatusDone},
	}}
	c = Status(db, dbNow)
	if c.Job != nil || len(c.Stage1Failed) != 2 || len(c.Stage1Exhausted) != 1 || c.Stage1Exhausted[0].Key != "t2" {
		t.Errorf("extractions: %+v", c)
	}
}

// TestOutput: an output found by thread id.
func TestOutput(t *testing.T) {
	db := &DB{Stage1: []Stage1{{ThreadID: "a"}, {ThreadID: "b"}, {ThreadID: "c"}}}
	if o := db.Output("b"); o == nil || o.ThreadID != "b" {
		t.Errorf("b: %v", o)
	}
	if db.Output("bb") != nil || (*DB)(nil).Output("a") != nil {
		t.Error("found what is not there")
	}
}
