package memfs

// Codex's SQLite databases (codex facts §1.1, §4.1, §4.2), read without
// touching them. Opening Codex's own file, even read-only, lets SQLite
// create or write the -shm and -wal files beside it: Codex's live state.
// So each database is copied first, with its -wal when there is one,
// through the safe reader (regular files only, no symlink followed, no
// wait on a FIFO, bounded) into a private folder outside $CODEX_HOME;
// the copy is opened with the pure-Go driver, queried, closed, and the
// folder removed. SQLite finds the WAL's pages beside the copy, so what
// Codex wrote and has not checkpointed yet is seen.
//
// Everything in the files is untrusted: only tables (not views or virtual
// tables) are queried, only the columns that exist (older schemas load),
// with every value cast to the type expected and every text cut short;
// the big texts (raw_memory, rollout_summary) are never read, only their
// lengths; rows are bounded per table, and the queries by a deadline. A
// file that is not a database, is cut short, too big, a link, a FIFO, or
// that SQLite refuses becomes a problem on the DB, never a panic or a
// hang.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// envCodexSqliteHome moves Codex's databases (codex facts §1.1).
const envCodexSqliteHome = "CODEX_SQLITE_HOME"

// Bounds of a database read. Real memory databases hold a few thousand
// rows and a few MB (stage-1 outputs are pruned after 30 days unused, and
// at most 4,096 are consolidated); the state database grows with every
// session. Past these, memtui reads what fits and says so.
const (
	maxCodexDBBytes    int64 = 256 << 20
	maxCodexStage1Rows       = 20000
	maxCodexJobRows          = 40000
	maxCodexThreadRows       = 20000
	// codexDBTimeout bounds the queries of one load: a crafted file can
	// make SQLite work long; the deadline interrupts it.
	codexDBTimeout = 20 * time.Second
	// maxCodexRolloutProbes bounds the session files looked up for the
	// rollout summaries' rollout_path lines.
	maxCodexRolloutProbes = 5000
	// copyTries is how often a database that changed while it was copied
	// is copied again before memtui takes what it got.
	copyTries = 3
)

// maxUnixSeconds is 9999-12-31: a time past it (or at or before the
// epoch) in a column is garbage, read as unknown.
const maxUnixSeconds = 253402300799

// CodexSqliteHome is where Codex keeps its databases (codex facts §1.1):
// config.toml's sqlite_home, else $CODEX_SQLITE_HOME (a relative one
// resolved against the working directory), else the Codex home. A
// relative sqlite_home is taken relative to the home, where config.toml
// is (UNCONFIRMED: the facts do not say). getenv nil means os.Getenv.
func CodexSqliteHome(home string, cfg codex.Config, getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := cfg.SqliteHome; d != "" {
		if !filepath.IsAbs(d) {
			d = filepath.Join(home, d)
		}
		return filepath.Clean(d)
	}
	if d := getenv(envCodexSqliteHome); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
		return d
	}
	return home
}

// LoadCodexDB reads what Codex's databases say about the memories of the
// Codex home home, with cfg its config (for sqlite_home): the memory
// tables from memories_1.sqlite, or, for an install from before they
// moved there, from state_5.sqlite (Legacy); the threads from
// state_5.sqlite. It never returns nil; what it could not read is in the
// DB's Problems (a cancelled ctx among them: the caller checks ctx).
func LoadCodexDB(ctx context.Context, home string, cfg codex.Config, opts Options) *codex.DB {
	opts = opts.withDefaults()
	db := &codex.DB{}
	dir := CodexSqliteHome(home, cfg, opts.Getenv)
	memPath := filepath.Join(dir, codex.MemoriesDBFile)
	statePath := filepath.Join(dir, codex.StateDBFile)
	_, memErr := os.Lstat(memPath)
	_, stateErr := os.Lstat(statePath)
	if errors.Is(memErr, fs.ErrNotExist) && errors.Is(stateErr, fs.ErrNotExist) {
		return db // no database: Codex never ran with memories here
	}
	// A TMPDIR inside $CODEX_HOME: the copy would be a file Codex sees (in
	// memories/, one its next diff takes for an addition). Asked before
	// the folder is made, so not even a moment's folder appears there.
	if t := os.TempDir(); within(home, t) || withinReal(home, t) {
		db.Problems = append(db.Problems, model.Problem{Path: dir, Kind: model.ProblemUnreadable, Detail: "Codex's databases not read: the temporary folder " + t + " is inside " + home + ", and memtui creates nothing there"})
		return db
	}
	tmp, err := os.MkdirTemp("", "memtui-codexdb-")
	if err != nil {
		db.Problems = append(db.Problems, model.Problem{Path: dir, Kind: model.ProblemUnreadable, Detail: "Codex's databases not read: no private folder to copy them to: " + err.Error()})
		return db
	}
	defer os.RemoveAll(tmp)
	if within(home, tmp) { // the folder moved under it meanwhile
		db.Problems = append(db.Problems, model.Problem{Path: dir, Kind: model.ProblemUnreadable, Detail: "Codex's databases not read: the temporary folder " + tmp + " is inside " + home + ", and memtui creates nothing there"})
		return db
	}
	ctx, cancel := context.WithTimeout(ctx, codexDBTimeout)
	defer cancel()
	r := &dbRead{ctx: ctx, db: db, tmp: tmp}
	mem, memThere := r.open(memPath, "m")
	state, _ := r.open(statePath, "s")
	defer func() {
		for _, c := range []*sql.DB{mem, state} {
			if c != nil {
				c.Close()
			}
		}
	}()
	var memTables, stateTables map[string]bool
	if mem != nil {
		memTables = r.tables(mem, memPath)
	}
	if state != nil {
		stateTables = r.tables(state, statePath)
	}
	switch {
	case memTables["stage1_outputs"] || memTables["jobs"]:
		db.MemoriesPath = memPath
		r.memory(mem, memPath, memTables)
	case (!memThere || (mem != nil && memTables != nil)) && (stateTables["stage1_outputs"] || stateTables["jobs"]):
		// No memory database, or one Codex created but never migrated:
		// the tables of an older Codex in the state database (#24591
		// dropped them there on upgrade, so both never hold data).
		db.MemoriesPath, db.Legacy = statePath, true
		r.memory(state, statePath, stateTables)
	}
	if stateTables["threads"] {
		db.StatePath = statePath
		r.threads(state, statePath)
	}
	return db
}

// dbRead is one LoadCodexDB.
type dbRead struct {
	ctx context.Context
	db  *codex.DB
	tmp string
}

// problem records what went wrong with the database at path.
func (r *dbRead) problem(path string, kind model.ProblemKind, format string, args ...any) {
	r.db.Problems = append(r.db.Problems, model.Problem{Path: path, Kind: kind, Detail: fmt.Sprintf(format, args...)})
}

// open copies the database at path (and its -wal) into the private
// folder, under name, and opens the copy. there says a file is at path,
// whether or not it could be read.
func (r *dbRead) open(path, name string) (c *sql.DB, there bool) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	dst := filepath.Join(r.tmp, name+".sqlite")
	if err := r.copyStable(path, dst); err != nil {
		kind := codexProblemKind(err)
		if errors.Is(err, errTooLarge) {
			kind = model.ProblemTooLarge
		}
		r.problem(path, kind, "not read: %s", errText(err))
		return nil, true
	}
	q := url.Values{"_pragma": {
		// Nothing is written, even to the copy; a crafted schema's
		// functions are not trusted; a corrupt page is checked before it
		// is used; the file is read, not mapped. A 1 MiB page cache
		// (SQLite's default is 2): each page is read about once, and the
		// smaller cache halved BenchmarkLoadCodexDB's time.
		"query_only(1)", "trusted_schema(0)", "cell_size_check(1)", "mmap_size(0)", "cache_size(-1024)",
	}}
	c, err := sql.Open("sqlite", sqliteDSN(dst, q))
	if err != nil {
		r.problem(path, model.ProblemUnreadable, "not read: %v", err)
		return nil, true
	}
	c.SetMaxOpenConns(1)
	if err := c.PingContext(r.ctx); err != nil {
		c.Close()
		r.problem(path, model.ProblemUnreadable, "not read: %v", err)
		return nil, true
	}
	return c, true
}

// copyStable copies path and its -wal to dst and dst-wal, again if
// either changed meanwhile (Codex wrote or checkpointed: the pair would
// not agree), at most copyTries times.
func (r *dbRead) copyStable(path, dst string) error {
	var err error
	for try := 0; try < copyTries; try++ {
		before := stamps(path)
		os.Remove(dst + "-wal")
		if err = copyCapped(path, dst); err != nil {
			return err
		}
		wal := path + "-wal"
		if _, lerr := os.Lstat(wal); lerr == nil {
			if err = copyCapped(wal, dst+"-wal"); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // checkpointed away meanwhile: copy again
				}
				// Without its log the file is another state than Codex's.
				return fmt.Errorf("its write-ahead log %s: %s", filepath.Base(wal), errText(err))
			}
		}
		if stamps(path) == before {
			return nil
		}
		if err = r.ctx.Err(); err != nil {
			return err
		}
	}
	return err // changing still: what the last copy holds
}

// stamps are the size and modification time of a database and its -wal:
// what a write by Codex changes.
func stamps(path string) string {
	var b strings.Builder
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Lstat(p); err == nil {
			fmt.Fprintf(&b, "%d/%d;", fi.Size(), fi.ModTime().UnixNano())
		} else {
			b.WriteString("-;")
		}
	}
	return b.String()
}

// copyCapped copies the regular file at src (refusing a symlink, a FIFO,
// a device, and a file over maxCodexDBBytes) to a new file dst.
func copyCapped(src, dst string) error {
	in, fi, err := openRead(src, noFollow)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi.Size() > maxCodexDBBytes {
		return tooLargeErr(src, fi.Size(), maxCodexDBBytes)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(in, maxCodexDBBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > maxCodexDBBytes {
		err = grewErr(src, maxCodexDBBytes)
	}
	return err
}

// sqliteDSN is the driver's name of the file at path with the query q: a
// file: URI, the path escaped so that a "?" or "#" in it is not read as
// the query or a fragment.
func sqliteDSN(path string, q url.Values) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

// tables are the plain tables of the database that memtui reads (a view
// or a virtual table by those names is not one Codex made, and could run
// anything).
func (r *dbRead) tables(c *sql.DB, path string) map[string]bool {
	rows, err := c.QueryContext(r.ctx, `SELECT name, coalesce(sql, '') FROM sqlite_master
		WHERE type = 'table' AND name IN ('stage1_outputs', 'jobs', 'threads')`)
	if err != nil {
		r.problem(path, model.ProblemUnreadable, "not read: %v", err)
		return nil
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			r.problem(path, model.ProblemUnreadable, "not read: %v", err)
			return nil
		}
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(def)), "CREATE VIRTUAL") {
			r.problem(path, model.ProblemNotFile, "its table %s is a virtual table, not one Codex makes; not read", name)
			continue
		}
		out[name] = true
	}
	if err := rows.Err(); err != nil {
		r.problem(path, model.ProblemUnreadable, "not read: %v", err)
		return nil
	}
	return out
}

// columns are the columns table has.
func (r *dbRead) columns(c *sql.DB, table string) (map[string]bool, error) {
	rows, err := c.QueryContext(r.ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out[name] = true
	}
	return out, rows.Err()
}

// colList builds a SELECT list from the columns a table has: a column it
// lacks is NULL.
type colList struct {
	have  map[string]bool
	exprs []string
}

// int selects col as an integer (text that is not a number is 0).
func (s *colList) int(col string) {
	s.add(col, "CAST(%s AS INTEGER)")
}

// text selects col as text, at most n characters of it.
func (s *colList) text(col string, n int) {
	s.add(col, fmt.Sprintf("substr(CAST(%%s AS TEXT), 1, %d)", n))
}

// length selects col's size in bytes (in UTF-8), not its text.
func (s *colList) length(col string) { s.add(col, "octet_length(%s)") }

func (s *colList) add(col, format string) {
	if !s.have[col] {
		s.exprs = append(s.exprs, "NULL")
		return
	}
	s.exprs = append(s.exprs, fmt.Sprintf(format, `"`+col+`"`))
}

func (s *colList) list() string { return strings.Join(s.exprs, ", ") }

// memory reads stage1_outputs and jobs.
func (r *dbRead) memory(c *sql.DB, path string, tables map[string]bool) {
	r.db.Found = true
	if tables["stage1_outputs"] {
		if err := r.stage1(c, path); err != nil {
			r.problem(path, model.ProblemUnreadable, "stage1_outputs not read: %v", err)
		}
	}
	if tables["jobs"] {
		if err := r.jobs(c, path); err != nil {
			r.problem(path, model.ProblemUnreadable, "jobs not read: %v", err)
		}
	}
}

func (r *dbRead) stage1(c *sql.DB, path string) error {
	have, err := r.columns(c, "stage1_outputs")
	if err != nil {
		return err
	}
	if !have["thread_id"] {
		return errors.New("it has no thread_id column")
	}
	s := &colList{have: have}
	s.text("thread_id", 128)
	s.int("source_updated_at")
	s.int("generated_at")
	s.text("rollout_slug", 200)
	s.int("usage_count")
	s.int("last_usage")
	s.int("selected_for_phase2")
	s.int("selected_for_phase2_source_updated_at")
	s.length("raw_memory")
	s.length("rollout_summary")
	// Codex skips an output whose two texts are both blank, as its
	// length(trim(x)) = 0 says: nothing but spaces (trim's default). SQLite
	// says which are, without handing the texts over; GLOB asks the same
	// without copying each text as trim does.
	var blank []string
	for _, col := range []string{"raw_memory", "rollout_summary"} {
		if have[col] {
			blank = append(blank, `coalesce(CAST("`+col+`" AS TEXT), '') NOT GLOB '*[^ ]*'`)
		}
	}
	if len(blank) == 0 {
		blank = []string{"0"}
	}
	q := "SELECT " + s.list() + ", (" + strings.Join(blank, " AND ") + ") FROM stage1_outputs LIMIT ?"
	rows, err := c.QueryContext(r.ctx, q, maxCodexStage1Rows+1)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, slug sql.NullString
		var src, gen, usage, last, sel, selAt, rawLen, sumLen, isBlank sql.NullInt64
		if err := rows.Scan(&id, &src, &gen, &slug, &usage, &last, &sel, &selAt, &rawLen, &sumLen, &isBlank); err != nil {
			return err
		}
		if len(r.db.Stage1) == maxCodexStage1Rows {
			r.problem(path, model.ProblemTooLarge, "stage1_outputs holds more than %d rows; memtui read %d of them", maxCodexStage1Rows, maxCodexStage1Rows)
			break
		}
		if id.String == "" {
			continue
		}
		r.db.Stage1 = append(r.db.Stage1, codex.Stage1{
			ThreadID: id.String, SourceUpdatedAt: secs(src), GeneratedAt: secs(gen), Slug: slug.String,
			UsageCount: int(max(usage.Int64, 0)), Cited: usage.Valid && usage.Int64 > 0, LastUsage: secs(last),
			Selected: sel.Int64 != 0, SelectedSourceUpdatedAt: secs(selAt),
			RawBytes: int(rawLen.Int64), SummaryBytes: int(sumLen.Int64), Blank: isBlank.Int64 != 0,
		})
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// Sorted here, not by SQL: a schema can give the column a collation
	// of its own, and DB.Output searches by Go's order.
	sort.SliceStable(r.db.Stage1, func(i, j int) bool { return r.db.Stage1[i].ThreadID < r.db.Stage1[j].ThreadID })
	return nil
}

func (r *dbRead) jobs(c *sql.DB, path string) error {
	have, err := r.columns(c, "jobs")
	if err != nil {
		return err
	}
	if !have["kind"] || !have["job_key"] {
		return errors.New("it has no kind or job_key column")
	}
	s := &colList{have: have}
	s.text("kind", 64)
	s.text("job_key", 128)
	s.text("status", 32)
	s.text("worker_id", 128)
	s.text("ownership_token", 128)
	s.int("started_at")
	s.int("finished_at")
	s.int("lease_until")
	s.int("retry_at")
	s.int("retry_remaining")
	s.text("last_error", 1000)
	// The consolidation's row first, so that a cut never drops it.
	q := "SELECT " + s.list() + ` FROM jobs WHERE kind IN (?, ?) ORDER BY kind = ? DESC LIMIT ?`
	rows, err := c.QueryContext(r.ctx, q, codex.JobStage1, codex.JobGlobal, codex.JobGlobal, maxCodexJobRows+1)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, key, status, worker, token, lastErr sql.NullString
		var started, finished, lease, retry, remaining sql.NullInt64
		if err := rows.Scan(&kind, &key, &status, &worker, &token, &started, &finished, &lease, &retry, &remaining, &lastErr); err != nil {
			return err
		}
		if len(r.db.Jobs) == maxCodexJobRows {
			r.problem(path, model.ProblemTooLarge, "jobs holds more than %d memory jobs; memtui read %d of them", maxCodexJobRows, maxCodexJobRows)
			break
		}
		r.db.Jobs = append(r.db.Jobs, codex.Job{
			Kind: kind.String, Key: key.String, Status: status.String, WorkerID: worker.String, OwnershipToken: token.String,
			Started: secs(started), Finished: secs(finished), LeaseUntil: secs(lease), RetryAt: secs(retry),
			RetryRemaining: int(remaining.Int64), LastError: lastErr.String,
		})
	}
	if err := rows.Err(); err != nil {
		return err
	}
	sort.SliceStable(r.db.Jobs, func(i, j int) bool {
		a, b := r.db.Jobs[i], r.db.Jobs[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Key < b.Key
	})
	return nil
}

// threads reads state_5.sqlite's threads: those the memory tables name
// first, then the most recently updated, up to the bound.
func (r *dbRead) threads(c *sql.DB, path string) {
	err := func() error {
		have, err := r.columns(c, "threads")
		if err != nil {
			return err
		}
		if !have["id"] {
			return errors.New("it has no id column")
		}
		s := &colList{have: have}
		s.text("id", 128)
		s.text("cwd", 4096)
		s.text("rollout_path", 4096)
		s.text("git_branch", 256)
		s.text("git_origin_url", 1024)
		s.text("project_id", 256)
		s.text("memory_mode", 32)
		s.text("source", 64)
		s.text("title", 200)
		s.int("archived")
		// updated_at_ms when the schema has it (newer), else updated_at.
		updated := "NULL"
		switch {
		case have["updated_at_ms"] && have["updated_at"]:
			updated = `COALESCE(CAST("updated_at_ms" AS INTEGER) / 1000, CAST("updated_at" AS INTEGER))`
		case have["updated_at_ms"]:
			updated = `CAST("updated_at_ms" AS INTEGER) / 1000`
		case have["updated_at"]:
			updated = `CAST("updated_at" AS INTEGER)`
		}
		named := map[string]bool{}
		for _, o := range r.db.Stage1 {
			named[o.ThreadID] = true
		}
		for _, j := range r.db.Jobs {
			if j.Kind == codex.JobStage1 {
				named[j.Key] = true
			}
		}
		ids := make([]string, 0, len(named))
		for id := range named {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		list, _ := json.Marshal(ids)
		q := "SELECT " + s.list() + ", " + updated + ` FROM threads
			ORDER BY "id" IN (SELECT value FROM json_each(?)) DESC, ` + updated + ` DESC LIMIT ?`
		rows, err := c.QueryContext(r.ctx, q, string(list), maxCodexThreadRows+1)
		if err != nil {
			return err
		}
		defer rows.Close()
		out := map[string]codex.Thread{}
		for rows.Next() {
			var id, cwd, rollout, branch, origin, project, mode, source, title sql.NullString
			var archived, upd sql.NullInt64
			if err := rows.Scan(&id, &cwd, &rollout, &branch, &origin, &project, &mode, &source, &title, &archived, &upd); err != nil {
				return err
			}
			if len(out) == maxCodexThreadRows {
				r.problem(path, model.ProblemTooLarge, "threads holds more than %d rows; memtui read the %d its memories name and the most recent", maxCodexThreadRows, maxCodexThreadRows)
				break
			}
			out[id.String] = codex.Thread{
				ID: id.String, Cwd: cwd.String, RolloutPath: rollout.String, GitBranch: branch.String, GitOrigin: origin.String,
				ProjectID: project.String, MemoryMode: mode.String, Source: source.String, Title: title.String,
				UpdatedAt: secs(upd), Archived: archived.Int64 != 0,
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		r.db.Threads, r.db.ThreadsRead = out, true
		return nil
	}()
	if err != nil {
		r.problem(path, model.ProblemUnreadable, "threads not read: %v", err)
	}
}

// secs is a column's Unix seconds as a time, zero for NULL and for a
// value no Codex writes (at or before the epoch, past the year 9999).
func secs(n sql.NullInt64) time.Time {
	if !n.Valid || n.Int64 <= 0 || n.Int64 > maxUnixSeconds {
		return time.Time{}
	}
	return time.Unix(n.Int64, 0).UTC()
}

// probeCodexRollouts looks up, for each rollout summary, the session
// file its header's rollout_path names (codex facts §6.1): on disk or not
// (its .zst sibling counts: Codex may compress it). Nothing is read; a
// path that is not absolute, or that cannot be looked up (permission), is
// left out, as is everything past maxCodexRolloutProbes paths. Under
// chroot (Options.Chroot, the demo) the path is looked up there, and one
// missing says nothing: the demo's world is partial.
func probeCodexRollouts(s *codex.Store, chroot string) map[string]bool {
	out := map[string]bool{}
	for _, f := range s.Files {
		if codex.KindOf(f.Path) != codex.KindRollout || !strings.HasSuffix(f.Path, ".md") {
			continue
		}
		p := codex.ParseRolloutSummary(f.Content).RolloutPath
		if _, done := out[p]; done || p == "" || !filepath.IsAbs(p) || strings.ContainsRune(p, 0) {
			continue
		}
		if len(out) == maxCodexRolloutProbes {
			break
		}
		at := p
		if chroot != "" {
			at = filepath.Join(chroot, p)
		}
		if there, known := onDisk(at); known && (there || chroot == "") {
			out[p] = there
		}
	}
	return out
}

// onDisk says whether something is at p or at p.zst, without following a
// link at the end; known is false when p could not be looked up.
func onDisk(p string) (there, known bool) {
	_, err := os.Lstat(p)
	switch {
	case err == nil:
		return true, true
	case !errors.Is(err, fs.ErrNotExist) && !isNotDir(err):
		return false, false
	}
	_, err = os.Lstat(p + ".zst")
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return false, true
	}
	return false, false
}

// loadCodexState adds to a store read by LoadCodex what lies outside its
// memories/: the databases, and which session files its rollout
// summaries name are on disk.
func loadCodexState(ctx context.Context, s *codex.Store, opts Options) {
	s.DB = LoadCodexDB(ctx, s.Home, s.Config, opts)
	s.RolloutFiles = probeCodexRollouts(s, opts.Chroot)
}

// withinReal is within for the two paths with their links resolved: a
// TMPDIR that is a link into $CODEX_HOME is inside it too.
func withinReal(root, target string) bool {
	r, err1 := filepath.EvalSymlinks(root)
	t, err2 := filepath.EvalSymlinks(target)
	return err1 == nil && err2 == nil && within(r, t)
}
