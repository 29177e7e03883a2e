package consolidate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/codexdb"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The database checks run on stores and databases built in Codex's
// shapes (codex facts §1.3, §4.2), read by memfs as memtui reads them.

var dbNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

const dbDay = 24 * time.Hour

// tid is the n-th thread id, a UUIDv7 as Codex's are.
func tid(n int) string { return fmt.Sprintf("0194f5a6-0000-7000-8000-%012d", n) }

// dbWorld is a Codex home being built: its memories/ files, its
// databases, and the session files on disk.
type dbWorld struct {
	t        *testing.T
	home     string
	sessions string
	files    map[string]string
	fx       codexdb.Fixture
	config   string
}

func newWorld(t *testing.T) *dbWorld {
	base := t.TempDir()
	return &dbWorld{t: t, home: filepath.Join(base, ".codex"), sessions: filepath.Join(base, "sessions"),
		files: map[string]string{}, config: "[features]\nmemories = true\n"}
}

// memory adds thread n's stage-1 output (last active src, cited uses
// times, the last at last), its enabled thread, and, when onDisk, its
// rollout summary, whose session file exists; it returns the summary's
// path.
func (w *dbWorld) memory(n int, src time.Time, uses int, last time.Time, onDisk bool) string {
	id := tid(n)
	o := codexdb.Stage1{ThreadID: id, SourceUpdatedAt: src, GeneratedAt: src.Add(7 * time.Hour),
		RawMemory: "---\ndescription: task " + id + "\n---\n", RolloutSummary: "# Task\n", Slug: "task", LastUsage: last, Selected: onDisk}
	if uses > 0 {
		o.UsageCount = codexdb.Int(uses)
	}
	w.fx.Stage1 = append(w.fx.Stage1, o)
	session := filepath.Join(w.sessions, id+".jsonl")
	w.fx.Threads = append(w.fx.Threads, codexdb.Thread{ID: id, RolloutPath: session, Cwd: "/work/shop", Title: "task", UpdatedAt: src})
	stem, err := codex.RolloutStem(id, src, "task")
	if err != nil {
		w.t.Fatal(err)
	}
	rel := codex.RolloutDir + stem + ".md"
	if onDisk {
		testfs.Write(w.t, session, "{}\n")
		w.files[rel] = "thread_id: " + id + "\nupdated_at: " + src.Format(time.RFC3339) + "\nrollout_path: " + session + "\ncwd: /work/shop\n\n# Task " + id + "\n"
	}
	return rel
}

// group adds a task group to MEMORY.md citing the summaries of threads ns.
func (w *dbWorld) group(title string, ns ...int) {
	var b strings.Builder
	fmt.Fprintf(&b, "# Task Group: %s\nscope: the %s work\napplies_to: cwd=/work/shop; reuse_rule=safe across branches\n\n## Task 1: %s, success\n### rollout_summary_files\n", title, title, title)
	for _, n := range ns {
		stem, _ := codex.RolloutStem(tid(n), time.Time{}, "task")
		fmt.Fprintf(&b, "- rollout_summaries/%s.md (cwd=/work/shop, rollout_path=/r/%d.jsonl, updated_at=2026-11-01T00:00:00+00:00, thread_id=%s)\n", stem, n, tid(n))
	}
	b.WriteString("### keywords\n- " + title + "\n\n")
	w.files[codex.HandbookFile] += b.String()
}

// global sets the consolidation's job row.
func (w *dbWorld) global(j codexdb.Job) {
	j.Kind, j.Key = codex.JobGlobal, codex.GlobalKey
	w.fx.Jobs = append(w.fx.Jobs, j)
}

// check writes the world, reads it as memtui does, and checks it at
// dbNow.
func (w *dbWorld) check() []model.Finding {
	w.t.Helper()
	testfs.WriteAll(w.t, filepath.Join(w.home, "memories"), w.files)
	testfs.Write(w.t, filepath.Join(w.home, "config.toml"), w.config)
	if err := codexdb.Write(w.home, w.fx); err != nil {
		w.t.Fatal(err)
	}
	s, err := memfs.LoadCodex(context.Background(), w.home, memfs.Options{Getenv: func(string) string { return "" }, Home: w.home})
	if err != nil {
		w.t.Fatal(err)
	}
	if s.DB == nil || len(s.DB.Problems) != 0 {
		w.t.Fatalf("the fixture databases were not read: %+v", s.DB)
	}
	fs := CheckCodex(s, Options{Now: dbNow})
	if again := CheckCodex(s, Options{Now: dbNow}); !reflect.DeepEqual(fs, again) {
		w.t.Errorf("two checks of one store differ:\n%s\n%s", testmodel.Dump(fs), testmodel.Dump(again))
	}
	return fs
}

// only are the findings of rule.
func only(fs []model.Finding, rule string) []model.Finding {
	var out []model.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// findingOn is the finding of rule on file, or nil.
func findingOn(fs []model.Finding, rule, file string) *model.Finding {
	for i, f := range fs {
		if f.Rule == rule && f.File == file {
			return &fs[i]
		}
	}
	return nil
}

var dbRules = []string{RuleCodexDBUnreadable, RuleCodexForgetSoon, RuleCodexNeverCited, RuleCodexBelowCut, RuleCodexStuck,
	RuleCodexExtractFailed, RuleCodexThreadUnknown, RuleCodexSessionGone, RuleCodexBusy}

// TestCodexDBHealthy: memories cited lately, a consolidation done two
// days ago, MEMORY.md citing threads Codex knows, sessions on disk: no
// database rule fires.
func TestCodexDBHealthy(t *testing.T) {
	w := newWorld(t)
	w.memory(1, dbNow.Add(-40*dbDay), 3, dbNow.Add(-2*dbDay), true)
	w.memory(2, dbNow.Add(-3*dbDay), 1, dbNow.Add(-dbDay), true)
	w.group("checkout", 1, 2)
	w.global(codexdb.Job{Status: codex.StatusDone, Finished: dbNow.Add(-2 * dbDay), RetryRemaining: 3})
	w.fx.Jobs = append(w.fx.Jobs, codexdb.Job{Kind: codex.JobStage1, Key: tid(2), Status: codex.StatusDone, Finished: dbNow.Add(-3 * dbDay), RetryRemaining: 3})
	fs := w.check()
	for _, r := range dbRules {
		if got := only(fs, r); len(got) != 0 {
			t.Errorf("%s fired on a healthy store: %s", r, testmodel.Dump(got))
		}
	}
}

// TestCodexForgetSoon: a memory whose forget date is within 7 days (to
// the second) is reported with that date; one a second later is not
// (only as never cited); one past its date whose summary is still on
// disk, and one of a thread no longer enabled, are reported for the next
// consolidation; one gone already is not. A task group resting only on
// such memories is reported at its header; one with other evidence is
// not.
func TestCodexForgetSoon(t *testing.T) {
	w := newWorld(t)
	soon := w.memory(1, dbNow.Add(-23*dbDay), 0, time.Time{}, true)              // forgotten 2026-11-27 12:00, exactly 7 days on
	later := w.memory(2, dbNow.Add(-23*dbDay+time.Second), 0, time.Time{}, true) // a second more
	cited := w.memory(3, dbNow.Add(-60*dbDay), 2, dbNow.Add(-25*dbDay), true)    // last cited 2026-10-26: forgotten 2026-11-25
	stale := w.memory(4, dbNow.Add(-31*dbDay), 0, time.Time{}, true)
	w.memory(5, dbNow.Add(-31*dbDay), 0, time.Time{}, false) // out and off disk: forgotten already
	polluted := w.memory(6, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	w.fx.Threads[5].MemoryMode = "polluted"
	safe := w.memory(7, dbNow.Add(-2*dbDay), 4, dbNow.Add(-dbDay), true)
	w.group("release", 1)
	w.group("deploy", 1, 7)
	w.group("billing", 4)
	fs := w.check()
	for file, want := range map[string][]string{
		soon:     {"forgotten on 2026-11-27", "never cited", "last active on 2026-10-28", "30 days"},
		cited:    {"forgotten on 2026-11-25", "last cited on 2026-10-26"},
		stale:    {"passed its forget date on 2026-11-19", "next consolidation deletes it"},
		polluted: {`memory mode is now "polluted"`},
	} {
		f := findingOn(fs, RuleCodexForgetSoon, file)
		if f == nil {
			t.Errorf("no %s on %s: %s", RuleCodexForgetSoon, file, testmodel.Dump(fs))
			continue
		}
		for _, s := range want {
			if !strings.Contains(f.Message, s) {
				t.Errorf("%s: %q does not say %q", file, f.Message, s)
			}
		}
	}
	for _, file := range []string{later, safe} {
		if f := findingOn(fs, RuleCodexForgetSoon, file); f != nil {
			t.Errorf("%s reported: %+v", file, *f)
		}
	}
	if f := findingOn(fs, RuleCodexNeverCited, later); f == nil || !strings.Contains(f.Message, "2026-11-27") {
		t.Errorf("the uncited memory past the window is not reported as never cited: %s", testmodel.Dump(only(fs, RuleCodexNeverCited)))
	}
	if f := findingOn(fs, RuleCodexNeverCited, soon); f != nil {
		t.Errorf("a memory forgotten soon is said twice: %+v", *f)
	}
	// The five on disk and reported, none for the one gone already.
	var onDB []model.Finding
	for _, f := range only(fs, RuleCodexForgetSoon) {
		if f.File == "../"+codex.MemoriesDBFile {
			onDB = append(onDB, f)
		}
	}
	if len(onDB) != 0 {
		t.Errorf("a memory Codex already forgot is reported: %s", testmodel.Dump(onDB))
	}
	// Task groups: release rests on memory 1 only, billing on a stale one;
	// deploy has memory 7 too.
	var groups []string
	for _, f := range only(fs, RuleCodexForgetSoon) {
		if f.File == codex.HandbookFile {
			groups = append(groups, f.Message)
			if f.Line == 0 {
				t.Errorf("a task group's finding has no line: %+v", f)
			}
		}
	}
	if len(groups) != 2 || !strings.Contains(groups[0]+groups[1], `"release" rests only on memories Codex forgets by 2026-11-27`) ||
		!strings.Contains(groups[0]+groups[1], `"billing" rests only on memories already out`) {
		t.Errorf("task groups at risk: %q", groups)
	}
}

// TestCodexBelowCut: with max_raw_memories_for_consolidation 2, the
// third-ranked memory (its summary still on disk) is reported with its
// rank; those without a summary are counted in one finding; with 4, none.
func TestCodexBelowCut(t *testing.T) {
	for _, c := range []struct {
		max          int
		file, counts bool
	}{{2, true, true}, {3, false, true}, {4, false, false}} {
		w := newWorld(t)
		w.config += fmt.Sprintf("[memories]\nmax_raw_memories_for_consolidation = %d\n", c.max)
		w.memory(1, dbNow.Add(-dbDay), 3, dbNow.Add(-dbDay), true)
		w.memory(2, dbNow.Add(-dbDay), 2, dbNow.Add(-dbDay), true)
		third := w.memory(3, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
		w.memory(4, dbNow.Add(-dbDay), 0, time.Time{}, false)
		fs := w.check()
		f := findingOn(fs, RuleCodexBelowCut, third)
		if (f != nil) != c.file {
			t.Errorf("max %d: the third memory reported %v: %s", c.max, f != nil, testmodel.Dump(fs))
		}
		if f != nil && (!strings.Contains(f.Message, "ranks 3 among the 4") || !strings.Contains(f.Message, "top 2")) {
			t.Errorf("max %d: %q", c.max, f.Message)
		}
		agg := findingOn(fs, RuleCodexBelowCut, "../"+codex.MemoriesDBFile)
		if (agg != nil) != c.counts {
			t.Errorf("max %d: the count of memories below the cut %v: %s", c.max, agg != nil, testmodel.Dump(fs))
		}
		if agg != nil && !strings.HasPrefix(agg.Message, "1 memory ranks below") {
			t.Errorf("max %d: %q", c.max, agg.Message)
		}
	}
}

// TestCodexConsolidationState: the global job failed (with and without
// retries left), died with its lease, or is queued and never ran a day
// after the newest extraction (not a second before); a live lease is
// codex-consolidating naming its holder and end; failed extractions are
// each reported, those with no retries left as never memorized.
func TestCodexConsolidationState(t *testing.T) {
	dbFile := "../" + codex.MemoriesDBFile
	for _, c := range []struct {
		name string
		job  codexdb.Job
		rule string
		want []string
	}{
		{"failed", codexdb.Job{Status: codex.StatusError, Finished: dbNow.Add(-time.Hour), RetryAt: dbNow.Add(30 * time.Minute), RetryRemaining: 2, LastError: "failed_agent: the model refused"},
			RuleCodexStuck, []string{"failed on 2026-11-20 11:00 UTC", "failed_agent: the model refused", "retries after 2026-11-20 12:30 UTC (2 retries left)"}},
		{"exhausted", codexdb.Job{Status: codex.StatusError, Finished: dbNow.Add(-time.Hour), RetryRemaining: 0, LastError: "failed_invalid_artifacts"},
			RuleCodexStuck, []string{"failed_invalid_artifacts", "retries are used up"}},
		{"lease ran out", codexdb.Job{Status: codex.StatusRunning, WorkerID: tid(9), Started: dbNow.Add(-2 * time.Hour), LeaseUntil: dbNow, RetryRemaining: 3},
			RuleCodexStuck, []string{"since 2026-11-20 10:00 UTC", "lease ran out at 2026-11-20 12:00 UTC"}},
		{"lease held", codexdb.Job{Status: codex.StatusRunning, WorkerID: tid(9), Started: dbNow.Add(-time.Minute), LeaseUntil: dbNow.Add(time.Second), RetryRemaining: 3},
			RuleCodexBusy, []string{"holds the lock", tid(9), "lease until 2026-11-20 12:00 UTC"}},
		// Held at dbNow and at the clock's now: the store's Busy says so
		// too, and the finding is still one, on the database.
		{"lease held long", codexdb.Job{Status: codex.StatusRunning, WorkerID: tid(9), Started: dbNow, LeaseUntil: dbNow.Add(100 * 365 * dbDay), RetryRemaining: 3},
			RuleCodexBusy, []string{"holds the lock", tid(9)}},
		{"pending a day", codexdb.Job{Status: codex.StatusPending, RetryRemaining: 3},
			RuleCodexStuck, []string{"queued (pending) and has never run", "newest extraction dates from 2026-11-19", "#23129"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.memory(1, dbNow.Add(-dbDay-7*time.Hour), 2, dbNow.Add(-dbDay), true) // generated exactly a day ago
			w.global(c.job)
			fs := w.check()
			got := only(fs, c.rule)
			if len(got) != 1 || got[0].File != dbFile {
				t.Fatalf("want one %s on %s: %s", c.rule, dbFile, testmodel.Dump(fs))
			}
			for _, s := range c.want {
				if !strings.Contains(got[0].Message, s) {
					t.Errorf("%q does not say %q", got[0].Message, s)
				}
			}
			if c.rule == RuleCodexBusy && len(only(fs, RuleCodexStuck)) != 0 {
				t.Errorf("a live lease is reported as stuck: %s", testmodel.Dump(fs))
			}
		})
	}
	// Pending, its newest extraction a second short of a day old; pending
	// after a success; done: nothing.
	for name, job := range map[string]codexdb.Job{
		"pending, not yet a day":  {Status: codex.StatusPending, RetryRemaining: 3},
		"pending after a success": {Status: codex.StatusPending, Started: dbNow.Add(-3 * dbDay), Finished: dbNow.Add(-3 * dbDay), RetryRemaining: 3},
		"done":                    {Status: codex.StatusDone, Finished: dbNow.Add(-time.Hour), RetryRemaining: 3},
	} {
		w := newWorld(t)
		w.memory(1, dbNow.Add(-dbDay-7*time.Hour+time.Second), 2, dbNow.Add(-dbDay), true)
		w.global(job)
		if fs := w.check(); len(only(fs, RuleCodexStuck))+len(only(fs, RuleCodexBusy)) != 0 {
			t.Errorf("%s: %s", name, testmodel.Dump(fs))
		}
	}

	// Extractions.
	w := newWorld(t)
	retrying := w.memory(1, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	w.fx.Jobs = append(w.fx.Jobs,
		codexdb.Job{Kind: codex.JobStage1, Key: tid(1), Status: codex.StatusError, Finished: dbNow.Add(-2 * time.Hour), RetryAt: dbNow.Add(-time.Hour), RetryRemaining: 1, LastError: "stream disconnected"},
		codexdb.Job{Kind: codex.JobStage1, Key: tid(2), Status: codex.StatusError, Finished: dbNow.Add(-3 * time.Hour), RetryRemaining: 0, LastError: "context_length_exceeded"},
		codexdb.Job{Kind: codex.JobStage1, Key: tid(3), Status: codex.StatusDone, Finished: dbNow.Add(-3 * time.Hour), RetryRemaining: 3},
	)
	w.fx.Threads = append(w.fx.Threads, codexdb.Thread{ID: tid(2), RolloutPath: "/r/2.jsonl", Cwd: "/work/billing", UpdatedAt: dbNow.Add(-dbDay)})
	fs := only(w.check(), RuleCodexExtractFailed)
	if len(fs) != 2 {
		t.Fatalf("failed extractions: %s", testmodel.Dump(fs))
	}
	if f := findingOn(fs, RuleCodexExtractFailed, retrying); f == nil || !strings.Contains(f.Message, "stream disconnected") || !strings.Contains(f.Message, "retries after 2026-11-20 11:00 UTC (1 retries left)") {
		t.Errorf("retrying: %s", testmodel.Dump(fs))
	}
	if f := findingOn(fs, RuleCodexExtractFailed, dbFile); f == nil || !strings.Contains(f.Message, "cwd /work/billing") || !strings.Contains(f.Message, "context_length_exceeded") || !strings.Contains(f.Message, "never memorized") {
		t.Errorf("exhausted: %s", testmodel.Dump(fs))
	}
}

// TestCodexStuckWithoutStore: stage 1 ran and the consolidation never
// did, so there is no memories/ at all (#23129): the database still says
// why.
func TestCodexStuckWithoutStore(t *testing.T) {
	w := newWorld(t)
	w.memory(1, dbNow.Add(-3*dbDay), 0, time.Time{}, false)
	w.global(codexdb.Job{Status: codex.StatusPending, RetryRemaining: 3})
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		t.Fatal(err)
	}
	fs := w.check()
	if len(only(fs, RuleCodexStuck)) != 1 {
		t.Errorf("no memories/, consolidation pending: %s", testmodel.Dump(fs))
	}
}

// TestCodexThreadUnknown: a thread_id MEMORY.md cites that has no stage-1
// output, or no thread either, is reported at its line; one Codex knows is
// not; without databases nothing is said.
func TestCodexThreadUnknown(t *testing.T) {
	w := newWorld(t)
	w.memory(1, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	w.fx.Threads = append(w.fx.Threads, codexdb.Thread{ID: tid(2), RolloutPath: "/r/2.jsonl", Cwd: "/w", UpdatedAt: dbNow.Add(-50 * dbDay)})
	w.group("known", 1)
	w.group("pruned", 2)
	w.group("nowhere", 3)
	all := w.check()
	if got := only(all, RuleCodexForgetSoon); len(got) != 0 {
		t.Errorf("a group citing threads the database does not know is said to be forgotten: %s", testmodel.Dump(got))
	}
	fs := only(all, RuleCodexThreadUnknown)
	if len(fs) != 2 {
		t.Fatalf("unknown threads: %s", testmodel.Dump(fs))
	}
	if !strings.Contains(fs[0].Message, tid(2)) || !strings.Contains(fs[0].Message, "no stage-1 output") || strings.Contains(fs[0].Message, "no thread") || fs[0].Line == 0 {
		t.Errorf("pruned: %+v", fs[0])
	}
	if !strings.Contains(fs[1].Message, tid(3)) || !strings.Contains(fs[1].Message, "no stage-1 output") || !strings.Contains(fs[1].Message, "no thread") || fs[1].Line <= fs[0].Line {
		t.Errorf("nowhere: %+v", fs[1])
	}
	// No databases: nothing known, nothing said.
	s := &codex.Store{Home: "/h", Root: "/h/memories", Exists: true, DB: &codex.DB{},
		Files: []*model.File{testmodel.File(codex.HandbookFile, w.files[codex.HandbookFile], testmodel.Now)}}
	s.Config, _ = codex.ParseConfig([]byte("[features]\nmemories = true\n"))
	if got := only(CheckCodex(s, Options{Now: dbNow}), RuleCodexThreadUnknown); len(got) != 0 {
		t.Errorf("no databases: %s", testmodel.Dump(got))
	}
}

// TestCodexRolloutPathMissing: a rollout summary whose session file is
// gone is reported at its rollout_path line (the thread's archiving
// said); one whose file is there, or compressed beside it, is not.
func TestCodexRolloutPathMissing(t *testing.T) {
	w := newWorld(t)
	kept := w.memory(1, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	gone := w.memory(2, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	archived := w.memory(3, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	zst := w.memory(4, dbNow.Add(-dbDay), 1, dbNow.Add(-dbDay), true)
	w.fx.Threads[2].Archived = true
	for _, n := range []int{2, 3, 4} {
		if err := os.Remove(filepath.Join(w.sessions, tid(n)+".jsonl")); err != nil {
			t.Fatal(err)
		}
	}
	testfs.Write(t, filepath.Join(w.sessions, tid(4)+".jsonl.zst"), "z")
	fs := only(w.check(), RuleCodexSessionGone)
	if findingOn(fs, RuleCodexSessionGone, kept) != nil || findingOn(fs, RuleCodexSessionGone, zst) != nil || len(fs) != 2 {
		t.Fatalf("missing sessions: %s", testmodel.Dump(fs))
	}
	if f := findingOn(fs, RuleCodexSessionGone, gone); f == nil || f.Line != 3 || !strings.Contains(f.Message, tid(2)+".jsonl is not on disk") || strings.Contains(f.Message, "is archived") {
		t.Errorf("gone: %s", testmodel.Dump(fs))
	}
	if f := findingOn(fs, RuleCodexSessionGone, archived); f == nil || !strings.Contains(f.Message, "its thread is archived") {
		t.Errorf("archived: %s", testmodel.Dump(fs))
	}
}

// TestCodexDBUnreadable: a memories_1.sqlite that is not a database is
// reported on it, and checks that need it say nothing.
func TestCodexDBUnreadable(t *testing.T) {
	w := newWorld(t)
	w.memory(1, dbNow.Add(-25*dbDay), 0, time.Time{}, true)
	testfs.WriteAll(t, filepath.Join(w.home, "memories"), w.files)
	testfs.Write(t, filepath.Join(w.home, "config.toml"), w.config)
	if err := codexdb.Write(w.home, w.fx); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, filepath.Join(w.home, codex.MemoriesDBFile), strings.Repeat("garbage ", 1000))
	s, err := memfs.LoadCodex(context.Background(), w.home, memfs.Options{Getenv: func(string) string { return "" }, Home: w.home})
	if err != nil {
		t.Fatal(err)
	}
	fs := CheckCodex(s, Options{Now: dbNow})
	got := only(fs, RuleCodexDBUnreadable)
	if len(got) != 1 || got[0].File != "../"+codex.MemoriesDBFile || !strings.Contains(got[0].Message, "not a database") {
		t.Errorf("unreadable: %s", testmodel.Dump(fs))
	}
	if len(only(fs, RuleCodexForgetSoon))+len(only(fs, RuleCodexNeverCited)) != 0 {
		t.Errorf("a forecast from a database not read: %s", testmodel.Dump(fs))
	}
}
