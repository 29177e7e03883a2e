package memfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/codexdb"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model/codex"
)

// dbNow is the fixtures' "now": times are whole seconds, as Codex stores
// them.
var dbNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

const (
	threadA = "0194f5a6-89ab-7cde-8123-456789abcdef"
	threadB = "0194f5a7-0000-7000-8000-000000000002"
	threadC = "0194f5a8-0000-7000-8000-000000000003"
)

// dbFixture is a Codex memory state as Codex writes it: two outputs (one
// cited), a consolidation holding its lease, a failed extraction, and
// the threads.
func dbFixture() codexdb.Fixture {
	day := 24 * time.Hour
	return codexdb.Fixture{
		Stage1: []codexdb.Stage1{
			{ThreadID: threadA, SourceUpdatedAt: dbNow.Add(-3 * day), GeneratedAt: dbNow.Add(-2 * day),
				RawMemory: "---\ndescription: release\n---\n", RolloutSummary: "# Cut release 2.3\n", Slug: "release",
				UsageCount: codexdb.Int(4), LastUsage: dbNow.Add(-day), Selected: true, SelectedSourceUpdatedAt: dbNow.Add(-3 * day)},
			{ThreadID: threadB, SourceUpdatedAt: dbNow.Add(-25 * day), GeneratedAt: dbNow.Add(-24 * day),
				RawMemory: "   ", RolloutSummary: ""},
		},
		Jobs: []codexdb.Job{
			{Kind: codex.JobGlobal, Key: codex.GlobalKey, Status: codex.StatusRunning, WorkerID: threadC, OwnershipToken: "tok",
				Started: dbNow.Add(-time.Minute), LeaseUntil: dbNow.Add(time.Hour), RetryRemaining: 3},
			{Kind: codex.JobStage1, Key: threadC, Status: codex.StatusError, Finished: dbNow.Add(-2 * time.Hour),
				RetryAt: dbNow.Add(-time.Hour), RetryRemaining: 0, LastError: "context_length_exceeded"},
		},
		Threads: []codexdb.Thread{
			{ID: threadA, RolloutPath: "/home/dev/.codex/sessions/2026/11/17/rollout-a.jsonl", Cwd: "/home/dev/api", Title: "release",
				GitBranch: "main", GitOrigin: "git@example.com:dev/api.git", ProjectID: "p1", UpdatedAt: dbNow.Add(-3 * day)},
			{ID: threadB, RolloutPath: "/r/b.jsonl", Cwd: "/home/dev/web", MemoryMode: "polluted", UpdatedAt: dbNow.Add(-25 * day), Archived: true},
			{ID: threadC, RolloutPath: "/r/c.jsonl", Cwd: "/home/dev/api", MemoryMode: "disabled", UpdatedAt: dbNow.Add(-time.Hour)},
		},
	}
}

// dbDirState is every entry of dir with its size and modification time:
// what a read must leave as it was.
func dbDirState(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		fi, err := os.Lstat(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %d %d %v", e.Name(), fi.Size(), fi.ModTime().UnixNano(), fi.Mode()))
	}
	return out
}

// privateTmp points the temp folder at a fresh one, to see that the copy
// is made there and removed.
func privateTmp(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// probText is a DB's problems, one a line: the path, its kind, what.
func probText(db *codex.DB) string {
	var b strings.Builder
	for _, p := range db.Problems {
		fmt.Fprintf(&b, "%s (%v): %s\n", p.Path, p.Kind, p.Detail)
	}
	return b.String()
}

func loadDB(t testing.TB, home string, cfg codex.Config) *codex.DB {
	t.Helper()
	db := LoadCodexDB(context.Background(), home, cfg, Options{Getenv: env(nil)})
	if db == nil {
		t.Fatal("LoadCodexDB returned nil")
	}
	return db
}

// TestLoadCodexDBLive: the databases of a running Codex (its connection
// open, every page still in the -wal files, their -shm beside them) are
// read whole, and nothing beside them appears or changes: no file, no
// size, no modification time; the private copy is gone afterwards.
func TestLoadCodexDBLive(t *testing.T) {
	tmp := privateTmp(t)
	home := filepath.Join(t.TempDir(), ".codex")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	live, err := codexdb.Live(home, dbFixture())
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	wal, err := os.Stat(filepath.Join(home, codex.MemoriesDBFile+"-wal"))
	if err != nil || wal.Size() == 0 {
		t.Fatalf("the fixture's WAL is not there, so the test shows nothing: %v", err)
	}
	before := dbDirState(t, home)
	db := loadDB(t, home, codex.Config{})
	if after := dbDirState(t, home); !reflect.DeepEqual(before, after) {
		t.Errorf("the read changed what is beside the databases:\nbefore %q\nafter  %q", before, after)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the private copy was left behind: %v", left)
	}
	if len(db.Problems) != 0 || !db.Found || db.Legacy || !db.ThreadsRead {
		t.Fatalf("db: found %v legacy %v threads %v, problems %s", db.Found, db.Legacy, db.ThreadsRead, probText(db))
	}
	if db.MemoriesPath != filepath.Join(home, codex.MemoriesDBFile) || db.StatePath != filepath.Join(home, codex.StateDBFile) {
		t.Errorf("paths %q %q", db.MemoriesPath, db.StatePath)
	}
	day := 24 * time.Hour
	want := []codex.Stage1{
		{ThreadID: threadA, SourceUpdatedAt: dbNow.Add(-3 * day), GeneratedAt: dbNow.Add(-2 * day), Slug: "release",
			UsageCount: 4, Cited: true, LastUsage: dbNow.Add(-day), Selected: true, SelectedSourceUpdatedAt: dbNow.Add(-3 * day),
			RawBytes: len("---\ndescription: release\n---\n"), SummaryBytes: len("# Cut release 2.3\n")},
		{ThreadID: threadB, SourceUpdatedAt: dbNow.Add(-25 * day), GeneratedAt: dbNow.Add(-24 * day), RawBytes: 3, Blank: true},
	}
	if !reflect.DeepEqual(db.Stage1, want) {
		t.Errorf("stage-1 outputs:\n got %+v\nwant %+v", db.Stage1, want)
	}
	g := db.Global()
	if g == nil || g.Status != codex.StatusRunning || g.WorkerID != threadC || !g.LeaseUntil.Equal(dbNow.Add(time.Hour)) || g.RetryRemaining != 3 {
		t.Errorf("global job %+v", g)
	}
	if len(db.Jobs) != 2 || db.Jobs[1].Key != threadC || db.Jobs[1].LastError != "context_length_exceeded" || db.Jobs[1].RetryRemaining != 0 {
		t.Errorf("jobs %+v", db.Jobs)
	}
	a := db.Threads[threadA]
	if a.Cwd != "/home/dev/api" || a.GitBranch != "main" || a.GitOrigin != "git@example.com:dev/api.git" || a.ProjectID != "p1" ||
		a.MemoryMode != codex.ModeEnabled || a.Source != "cli" || a.Title != "release" || !a.UpdatedAt.Equal(dbNow.Add(-3*day)) || a.Archived {
		t.Errorf("thread a %+v", a)
	}
	if b := db.Threads[threadB]; b.MemoryMode != "polluted" || !b.Archived {
		t.Errorf("thread b %+v", b)
	}
	if len(db.Threads) != 3 {
		t.Errorf("%d threads", len(db.Threads))
	}
}

// TestLoadCodexDBClosed: databases Codex closed (checkpointed, no -wal)
// read the same; none at all is an empty DB with no problem and no
// temporary folder made.
func TestLoadCodexDBClosed(t *testing.T) {
	tmp := privateTmp(t)
	home := t.TempDir()
	db := loadDB(t, home, codex.Config{})
	if db.Found || db.ThreadsRead || len(db.Problems) != 0 {
		t.Errorf("no database: %+v", db)
	}
	if err := codexdb.Write(home, dbFixture()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, codex.MemoriesDBFile+"-wal")); err == nil {
		t.Fatal("a closed fixture left its WAL")
	}
	before := dbDirState(t, home)
	db = loadDB(t, home, codex.Config{})
	if after := dbDirState(t, home); !reflect.DeepEqual(before, after) {
		t.Errorf("the read changed the folder of closed databases:\nbefore %q\nafter  %q", before, after)
	}
	if !db.Found || len(db.Stage1) != 2 || len(db.Jobs) != 2 || len(db.Threads) != 3 || len(db.Problems) != 0 {
		t.Errorf("closed databases: %+v", db)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the private copy was left behind: %v", left)
	}
}

// TestLoadCodexDBLegacy: an install from before memories_1.sqlite has the
// memory tables in state_5.sqlite; they are read there, and said to be.
// Once Codex made memories_1.sqlite, its tables are the memory's, empty
// or not.
func TestLoadCodexDBLegacy(t *testing.T) {
	home := t.TempDir()
	fx := dbFixture()
	fx.Legacy = true
	if err := codexdb.Write(home, fx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, codex.MemoriesDBFile)); err == nil {
		t.Fatal("the legacy fixture wrote memories_1.sqlite")
	}
	db := loadDB(t, home, codex.Config{})
	if !db.Found || !db.Legacy || db.MemoriesPath != filepath.Join(home, codex.StateDBFile) || len(db.Stage1) != 2 || len(db.Jobs) != 2 || len(db.Threads) != 3 {
		t.Errorf("legacy: found %v legacy %v path %q, %d outputs %d jobs %d threads; %s", db.Found, db.Legacy, db.MemoriesPath, len(db.Stage1), len(db.Jobs), len(db.Threads), probText(db))
	}

	// After the upgrade: an empty memories_1.sqlite, the threads alone in
	// the state database.
	home = t.TempDir()
	if err := codexdb.Write(home, codexdb.Fixture{Threads: fx.Threads}); err != nil {
		t.Fatal(err)
	}
	db = loadDB(t, home, codex.Config{})
	if !db.Found || db.Legacy || len(db.Stage1) != 0 || len(db.Threads) != 3 {
		t.Errorf("upgraded: %+v", db)
	}
}

// TestLoadCodexDBOlderSchema: a stage1_outputs from before usage was
// tracked, and a threads table from before memory modes and millisecond
// times, load: what they lack is unknown, not an error.
func TestLoadCodexDBOlderSchema(t *testing.T) {
	home := t.TempDir()
	mem, err := codexdb.Open(filepath.Join(home, codex.MemoriesDBFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE stage1_outputs (thread_id TEXT PRIMARY KEY, source_updated_at INTEGER NOT NULL, raw_memory TEXT NOT NULL, rollout_summary TEXT NOT NULL, generated_at INTEGER NOT NULL)`,
		`INSERT INTO stage1_outputs VALUES ('t1', 1763640000, 'raw', 'summary', 1763640100)`,
		`INSERT INTO stage1_outputs VALUES ('t2', 'garbage', 'raw', 'summary', -5)`,
	} {
		if _, err := mem.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	mem.Close()
	state, err := codexdb.Open(filepath.Join(home, codex.StateDBFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, updated_at INTEGER NOT NULL, cwd TEXT NOT NULL)`,
		`INSERT INTO threads VALUES ('t1', '/r/1.jsonl', 1763640000, '/w')`,
	} {
		if _, err := state.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	state.Close()
	db := loadDB(t, home, codex.Config{})
	if len(db.Problems) != 0 || len(db.Stage1) != 2 || db.Jobs != nil {
		t.Fatalf("older schema: %+v", db)
	}
	s := db.Stage1[0]
	if s.ThreadID != "t1" || s.SourceUpdatedAt.Unix() != 1763640000 || s.Cited || s.UsageCount != 0 || !s.LastUsage.IsZero() || s.Selected || s.Blank {
		t.Errorf("t1 %+v", s)
	}
	if g := db.Stage1[1]; !g.SourceUpdatedAt.IsZero() || !g.GeneratedAt.IsZero() {
		t.Errorf("garbage times read as times: %+v", g)
	}
	if th := db.Threads["t1"]; th.Cwd != "/w" || th.MemoryMode != "" || th.UpdatedAt.Unix() != 1763640000 {
		t.Errorf("thread %+v", th)
	}
}

// TestLoadCodexDBHostile: what is at the database's path is not a
// database memtui should read: bytes that are not SQLite, a database cut
// short, a FIFO, a link (to /dev/zero, outside), a huge sparse file, a
// folder, a view by the table's name that never ends. Each is a problem
// naming the file, and the read returns; nothing panics.
func TestLoadCodexDBHostile(t *testing.T) {
	good := t.TempDir()
	if err := codexdb.Write(good, dbFixture()); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(filepath.Join(good, codex.MemoriesDBFile))
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside.sqlite")
	testfs.Write(t, outside, string(whole))
	cases := []testfs.Hostile{
		{Name: "garbage", Put: func(t testing.TB, p string) { testfs.Write(t, p, strings.Repeat("not a database\n", 500)) }, Says: "not a database"},
		{Name: "cut short", Put: func(t testing.TB, p string) { testfs.Write(t, p, string(whole[:len(whole)/2+7])) }, Says: codex.MemoriesDBFile},
		{Name: "folder", Put: func(t testing.TB, p string) { os.Remove(p); os.Mkdir(p, 0o755) }, Says: "not a regular file"},
		{Name: "huge", Put: func(t testing.TB, p string) { testfs.Sparse(t, p, maxCodexDBBytes+1) }, Says: "more than the 256 MiB"},
		{Name: "endless view", Put: func(t testing.TB, p string) {
			os.Remove(p)
			db, err := codexdb.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE VIEW stage1_outputs AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT 't' || x AS thread_id, x AS source_updated_at FROM n ORDER BY x DESC`); err != nil {
				t.Fatal(err)
			}
		}, Says: ""},
	}
	cases = append(cases, testfs.Hostiles(outside)...)
	for _, h := range cases {
		t.Run(h.Name, func(t *testing.T) {
			home := t.TempDir()
			if err := codexdb.Write(home, dbFixture()); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(home, codex.MemoriesDBFile)
			h.Put(t, p)
			var db *codex.DB
			testfs.ReturnsIn(t, "LoadCodexDB", func() { db = loadDB(t, home, codex.Config{}) })
			if h.Says == "" {
				// The view is no table: no memory data, and no legacy
				// fallback through it either.
				if len(db.Stage1) != 0 || db.Legacy {
					t.Errorf("read through a view: %+v", db)
				}
				return
			}
			joined := probText(db)
			if !strings.Contains(joined, h.Says) || !strings.Contains(joined, p) {
				t.Errorf("problems %s do not say %q of %s", joined, h.Says, p)
			}
			if strings.Contains(fmt.Sprint(db), testfs.OutsideSecret) || len(db.Stage1) != 0 || db.Legacy {
				t.Errorf("read something through %s: %+v", h.Name, db)
			}
			// The state database beside it is read all the same.
			if len(db.Threads) != 3 {
				t.Errorf("threads %d", len(db.Threads))
			}
		})
	}
}

// TestLoadCodexDBHostileWAL: a -wal that is a link or a FIFO is not
// followed: the database is not read without it (it would be another
// state than Codex's), and the problem says why.
func TestLoadCodexDBHostileWAL(t *testing.T) {
	for _, h := range testfs.Hostiles(filepath.Join(t.TempDir(), "outside")) {
		t.Run(h.Name, func(t *testing.T) {
			home := t.TempDir()
			if err := codexdb.Write(home, dbFixture()); err != nil {
				t.Fatal(err)
			}
			h.Put(t, filepath.Join(home, codex.MemoriesDBFile+"-wal"))
			var db *codex.DB
			testfs.ReturnsIn(t, "LoadCodexDB", func() { db = loadDB(t, home, codex.Config{}) })
			joined := probText(db)
			if !strings.Contains(joined, "write-ahead log") || !strings.Contains(joined, h.Says) || len(db.Stage1) != 0 {
				t.Errorf("problems %s, %d outputs", joined, len(db.Stage1))
			}
		})
	}
}

// TestLoadCodexDBCancelled: a cancelled context stops the read; what was
// not read is a problem, not a panic.
func TestLoadCodexDBCancelled(t *testing.T) {
	home := t.TempDir()
	if err := codexdb.Write(home, dbFixture()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	db := LoadCodexDB(ctx, home, codex.Config{}, Options{Getenv: env(nil)})
	if len(db.Stage1) != 0 || len(db.Problems) == 0 {
		t.Errorf("a cancelled read: %+v", db)
	}
	if _, err := LoadCodex(ctx, home, Options{Getenv: env(nil)}); err == nil {
		t.Error("LoadCodex with a cancelled context returned no error")
	}
}

// TestCodexSqliteHome: config.toml's sqlite_home, else
// $CODEX_SQLITE_HOME (a relative one against the working directory),
// else the home; and LoadCodex reads the databases where it says.
func TestCodexSqliteHome(t *testing.T) {
	wd, _ := os.Getwd()
	for _, c := range []struct {
		cfg, env, want string
	}{
		{"", "", "/h"},
		{"", "/db", "/db"},
		{"", "rel/db", filepath.Join(wd, "rel/db")},
		{"/cfg", "/db", "/cfg"},
		{"sub", "", "/h/sub"},
	} {
		got := CodexSqliteHome("/h", codex.Config{SqliteHome: c.cfg}, env(map[string]string{"CODEX_SQLITE_HOME": c.env}))
		if got != c.want {
			t.Errorf("sqlite_home %q, env %q: %s, want %s", c.cfg, c.env, got, c.want)
		}
	}

	home := codexStore(t)
	elsewhere := t.TempDir()
	if err := codexdb.Write(elsewhere, dbFixture()); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, filepath.Join(home, "config.toml"), codexCfg+"\n") // no sqlite_home: not found
	s := loadCodex(t, home, Options{Getenv: env(map[string]string{"CODEX_SQLITE_HOME": elsewhere})})
	if s.DB == nil || !s.DB.Found || s.DB.MemoriesPath != filepath.Join(elsewhere, codex.MemoriesDBFile) {
		t.Errorf("CODEX_SQLITE_HOME not followed: %+v", s.DB)
	}
	testfs.Write(t, filepath.Join(home, "config.toml"), "sqlite_home = \""+elsewhere+"\"\n"+codexCfg)
	s = loadCodex(t, home, Options{Getenv: env(nil)})
	if s.DB == nil || !s.DB.Found || len(s.DB.Stage1) != 2 {
		t.Errorf("sqlite_home not followed: %+v", s.DB)
	}
}

// TestLoadCodexLease: a consolidation holding its lease makes the store
// busy, naming the holder and when the lease ends; an expired lease does
// not.
func TestLoadCodexLease(t *testing.T) {
	home := codexStore(t)
	now := time.Now().UTC().Truncate(time.Second)
	fx := dbFixture()
	fx.Jobs[0].LeaseUntil = now.Add(30 * time.Minute)
	if err := codexdb.Write(home, fx); err != nil {
		t.Fatal(err)
	}
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	why := s.Busy()
	if !strings.Contains(why, "holds the lock") || !strings.Contains(why, threadC) || !strings.Contains(why, codex.Stamp(now.Add(30*time.Minute))) {
		t.Errorf("busy %q", why)
	}
	if s.BusyAt(now.Add(31*time.Minute)) != "" {
		t.Errorf("an expired lease keeps the store busy: %q", s.BusyAt(now.Add(31*time.Minute)))
	}
}

// TestProbeCodexRollouts: each rollout summary's rollout_path is looked up
// (a compressed sibling counts); relative paths are not.
func TestProbeCodexRollouts(t *testing.T) {
	home := codexStore(t)
	sessions := filepath.Join(t.TempDir(), "sessions")
	there := filepath.Join(sessions, "a.jsonl")
	zst := filepath.Join(sessions, "b.jsonl")
	gone := filepath.Join(sessions, "c.jsonl")
	testfs.Write(t, there, "{}\n")
	testfs.Write(t, zst+".zst", "x")
	mem := filepath.Join(home, "memories", "rollout_summaries")
	for i, p := range []string{there, zst, gone, "relative/d.jsonl"} {
		testfs.Write(t, filepath.Join(mem, fmt.Sprintf("2026-11-1%dT10-00-00-abcd.md", i)), "thread_id: x\nupdated_at: y\nrollout_path: "+p+"\ncwd: /w\n\n# T\n")
	}
	s := loadCodex(t, home, Options{Getenv: env(nil)})
	want := map[string]bool{there: true, zst: true, gone: false, "/home/dev/.codex/sessions/2025/02/11/rollout.jsonl": false}
	if !reflect.DeepEqual(s.RolloutFiles, want) {
		var keys []string
		for k := range s.RolloutFiles {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("rollout files %v (%q), want %v", s.RolloutFiles, keys, want)
	}
	// Under Chroot (the demo), a path is looked up there, and one missing
	// says nothing.
	chroot := t.TempDir()
	testfs.Write(t, filepath.Join(chroot, gone), "{}\n")
	s = loadCodex(t, home, Options{Getenv: env(nil), Chroot: chroot})
	if want := map[string]bool{gone: true}; !reflect.DeepEqual(s.RolloutFiles, want) {
		t.Errorf("under chroot: %v, want %v", s.RolloutFiles, want)
	}
}

// BenchmarkLoadCodexDB: the databases of a heavy user, 2,000 stage-1
// outputs (each with a few KB of text), their jobs and threads.
func BenchmarkLoadCodexDB(b *testing.B) {
	home := b.TempDir()
	var fx codexdb.Fixture
	raw := strings.Repeat("- a learning about the build, the tests and the release\n", 40)
	for i := 0; i < 2000; i++ {
		id := fmt.Sprintf("0194f5a6-89ab-7cde-8123-%012d", i)
		at := dbNow.Add(-time.Duration(i) * time.Hour)
		fx.Stage1 = append(fx.Stage1, codexdb.Stage1{ThreadID: id, SourceUpdatedAt: at, GeneratedAt: at, RawMemory: raw, RolloutSummary: raw, Slug: "slug"})
		fx.Jobs = append(fx.Jobs, codexdb.Job{Kind: codex.JobStage1, Key: id, Status: codex.StatusDone, Finished: at, RetryRemaining: 3})
		fx.Threads = append(fx.Threads, codexdb.Thread{ID: id, RolloutPath: "/r/" + id + ".jsonl", Cwd: "/w", Title: "a session", UpdatedAt: at})
	}
	if err := codexdb.Write(home, fx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db := LoadCodexDB(context.Background(), home, codex.Config{}, Options{Getenv: env(nil)})
		if len(db.Stage1) != 2000 || len(db.Threads) != 2000 || len(db.Problems) != 0 {
			b.Fatalf("%d outputs, %d threads, %s", len(db.Stage1), len(db.Threads), probText(db))
		}
	}
}

// TestLoadCodexDBTmpInsideHome: with TMPDIR inside $CODEX_HOME, the
// databases are not copied (a copy would be a file Codex sees), nothing
// is made there even for a moment, and a problem says why.
func TestLoadCodexDBTmpInsideHome(t *testing.T) {
	home := t.TempDir()
	if err := codexdb.Write(home, dbFixture()); err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(home, "memories", "tmp")
	if err := os.MkdirAll(inside, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", inside)
	db := loadDB(t, home, codex.Config{})
	if db.Found || !strings.Contains(probText(db), "memtui creates nothing there") {
		t.Errorf("a TMPDIR inside the home: found %v, problems:\n%s", db.Found, probText(db))
	}
	if left, _ := os.ReadDir(inside); len(left) != 0 {
		t.Errorf("a folder was made inside $CODEX_HOME: %v", left)
	}
}
