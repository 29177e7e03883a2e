// Package codexdb writes SQLite databases in the shapes OpenAI Codex
// keeps its memory state in (codex facts §1.1, §4.2): memories_1.sqlite
// with stage1_outputs and jobs, state_5.sqlite with threads, or the
// legacy layout with all three in state_5.sqlite. Tests build their
// fixtures with it, and the demo its Codex store; it uses the pure-Go
// driver, so neither needs a C compiler. The tables are written by hand
// from the columns the facts list, in WAL mode as Codex opens them.
package codexdb

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver, registered as "sqlite"
)

// Stage1 is one stage1_outputs row. A zero time or an empty Slug is
// NULL where the column allows it.
type Stage1 struct {
	ThreadID                     string
	SourceUpdatedAt, GeneratedAt time.Time
	RawMemory, RolloutSummary    string
	Slug                         string
	// UsageCount nil is NULL: never cited.
	UsageCount              *int
	LastUsage               time.Time
	Selected                bool
	SelectedSourceUpdatedAt time.Time
}

// Job is one jobs row; a zero time or an empty string is NULL.
type Job struct {
	Kind, Key, Status                      string
	WorkerID, OwnershipToken               string
	Started, Finished, LeaseUntil, RetryAt time.Time
	RetryRemaining                         int
	LastError                              string
	InputWatermark, LastSuccessWatermark   time.Time
}

// Thread is one threads row. An empty MemoryMode is "enabled", an empty
// Source "cli"; CreatedAt zero is UpdatedAt.
type Thread struct {
	ID, RolloutPath, Cwd, Title, Source, MemoryMode string
	GitBranch, GitOrigin, ProjectID                 string
	CreatedAt, UpdatedAt                            time.Time
	Archived                                        bool
}

// Fixture is what the databases hold.
type Fixture struct {
	Stage1  []Stage1
	Jobs    []Job
	Threads []Thread
	// Legacy puts stage1_outputs and jobs in state_5.sqlite and writes no
	// memories_1.sqlite: an install from before #24591.
	Legacy bool
}

// Int is a pointer to n, for UsageCount.
func Int(n int) *int { return &n }

// The tables, with the columns and types of Codex's migrations (codex
// facts §4.2; threads as state_5.sqlite has them after the migrations
// that added memory_mode, the millisecond times and project_id).
const (
	stage1Table = `CREATE TABLE stage1_outputs (
    thread_id TEXT PRIMARY KEY,
    source_updated_at INTEGER NOT NULL,
    raw_memory TEXT NOT NULL,
    rollout_summary TEXT NOT NULL,
    generated_at INTEGER NOT NULL,
    rollout_slug TEXT,
    usage_count INTEGER,
    last_usage INTEGER,
    selected_for_phase2 INTEGER NOT NULL DEFAULT 0,
    selected_for_phase2_source_updated_at INTEGER
)`
	jobsTable = `CREATE TABLE jobs (
    kind TEXT NOT NULL,
    job_key TEXT NOT NULL,
    status TEXT NOT NULL,
    worker_id TEXT,
    ownership_token TEXT,
    started_at INTEGER,
    finished_at INTEGER,
    lease_until INTEGER,
    retry_at INTEGER,
    retry_remaining INTEGER NOT NULL,
    last_error TEXT,
    input_watermark INTEGER,
    last_success_watermark INTEGER,
    PRIMARY KEY (kind, job_key)
)`
	threadsTable = `CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    rollout_path TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    source TEXT NOT NULL,
    model_provider TEXT NOT NULL,
    cwd TEXT NOT NULL,
    title TEXT NOT NULL,
    sandbox_policy TEXT NOT NULL,
    approval_mode TEXT NOT NULL,
    tokens_used INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    archived_at INTEGER,
    git_sha TEXT,
    git_branch TEXT,
    git_origin_url TEXT,
    cli_version TEXT NOT NULL DEFAULT '',
    first_user_message TEXT NOT NULL DEFAULT '',
    memory_mode TEXT NOT NULL DEFAULT 'enabled',
    preview TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER,
    updated_at_ms INTEGER,
    project_id TEXT
)`
)

// Conn is a fixture's databases kept open, as a running Codex keeps
// them: with automatic checkpoints off, what was written stays in the
// -wal files (and their -shm indexes beside them) until Close.
type Conn struct {
	// Mem is memories_1.sqlite, nil in the legacy layout; State is
	// state_5.sqlite.
	Mem, State *sql.DB
}

// Close closes the databases; SQLite then checkpoints the WAL into the
// main files and removes the -wal and -shm files.
func (c *Conn) Close() error {
	var errs []error
	for _, db := range []*sql.DB{c.Mem, c.State} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	return errors.Join(errs...)
}

// Write writes f's databases into dir (which must exist) and closes them.
func Write(dir string, f Fixture) error {
	c, err := open(dir, f, false)
	if err != nil {
		return err
	}
	return c.Close()
}

// Live writes f's databases into dir and keeps them open; the caller
// closes them.
func Live(dir string, f Fixture) (*Conn, error) {
	return open(dir, f, true)
}

// Open opens the database at path (creating it if missing) as Codex does:
// WAL mode. It is for tests that write a shape of their own (an older
// schema, a hostile one).
func Open(path string) (*sql.DB, error) { return openDB(path, false) }

func open(dir string, f Fixture, live bool) (c *Conn, err error) {
	c = &Conn{}
	defer func() {
		if err != nil {
			c.Close()
			c = nil
		}
	}()
	if c.State, err = openDB(filepath.Join(dir, "state_5.sqlite"), live); err != nil {
		return c, err
	}
	mem := c.State
	if !f.Legacy {
		if c.Mem, err = openDB(filepath.Join(dir, "memories_1.sqlite"), live); err != nil {
			return c, err
		}
		mem = c.Mem
	}
	if err = exec(c.State, threadsTable); err != nil {
		return c, err
	}
	if err = exec(mem, stage1Table, jobsTable); err != nil {
		return c, err
	}
	for _, t := range f.Threads {
		mode, src, created := t.MemoryMode, t.Source, t.CreatedAt
		if mode == "" {
			mode = "enabled"
		}
		if src == "" {
			src = "cli"
		}
		if created.IsZero() {
			created = t.UpdatedAt
		}
		archivedAt := time.Time{}
		if t.Archived {
			archivedAt = t.UpdatedAt
		}
		_, err = c.State.Exec(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title,
			sandbox_policy, approval_mode, archived, archived_at, git_branch, git_origin_url, memory_mode, preview,
			created_at_ms, updated_at_ms, project_id) VALUES (?, ?, ?, ?, ?, 'openai', ?, ?, 'workspace-write', 'on-request', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.RolloutPath, created.Unix(), t.UpdatedAt.Unix(), src, t.Cwd, t.Title,
			b2i(t.Archived), unix(archivedAt), text(t.GitBranch), text(t.GitOrigin), mode, t.Title,
			created.UnixMilli(), t.UpdatedAt.UnixMilli(), text(t.ProjectID))
		if err != nil {
			return c, fmt.Errorf("thread %s: %w", t.ID, err)
		}
	}
	for _, s := range f.Stage1 {
		var usage any
		if s.UsageCount != nil {
			usage = *s.UsageCount
		}
		_, err = mem.Exec(`INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, generated_at,
			rollout_slug, usage_count, last_usage, selected_for_phase2, selected_for_phase2_source_updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			s.ThreadID, s.SourceUpdatedAt.Unix(), s.RawMemory, s.RolloutSummary, s.GeneratedAt.Unix(),
			text(s.Slug), usage, unix(s.LastUsage), b2i(s.Selected), unix(s.SelectedSourceUpdatedAt))
		if err != nil {
			return c, fmt.Errorf("stage-1 output %s: %w", s.ThreadID, err)
		}
	}
	for _, j := range f.Jobs {
		_, err = mem.Exec(`INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at,
			lease_until, retry_at, retry_remaining, last_error, input_watermark, last_success_watermark)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			j.Kind, j.Key, j.Status, text(j.WorkerID), text(j.OwnershipToken), unix(j.Started), unix(j.Finished),
			unix(j.LeaseUntil), unix(j.RetryAt), j.RetryRemaining, text(j.LastError), unix(j.InputWatermark), unix(j.LastSuccessWatermark))
		if err != nil {
			return c, fmt.Errorf("job %s/%s: %w", j.Kind, j.Key, err)
		}
	}
	return c, nil
}

// openDB opens path in WAL mode on one connection; live turns automatic
// checkpoints off, so that every page written stays in the -wal file.
func openDB(path string, live bool) (*sql.DB, error) {
	q := url.Values{"_pragma": {"journal_mode(WAL)", "synchronous(NORMAL)", "busy_timeout(5000)"}}
	if live {
		q["_pragma"] = append(q["_pragma"], "wal_autocheckpoint(0)")
	}
	db, err := sql.Open("sqlite", DSN(path, q))
	if err != nil {
		return nil, err
	}
	// One connection, kept: closing the last one checkpoints the WAL.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// DSN is the driver's name for the database at path with the query q: a
// file: URI, the path escaped so that a "?" or "#" in it is not taken for
// the query or a fragment.
func DSN(path string, q url.Values) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

func exec(db *sql.DB, stmts ...string) error {
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return err
		}
	}
	return nil
}

func unix(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

func text(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
