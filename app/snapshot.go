package app

import (
	"context"
	"time"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/memfs/snapshot"
	"github.com/memtui/memtui/model"
)

// Snapshots is the workspace's snapshot store (memfs/snapshot): memtui's
// record of every memory dir over time, for what Claude Code's background
// runs change with no transcript. It lives in the state dirs (the demo's
// in its scratch tree), keeps records as long as the journal keeps
// entries (journal_retention_days) and redacts every text with the
// scanner the checks use. nil when the workspace keeps no snapshots (a
// workspace built by hand with no snapshot dir).
func (w *Workspace) Snapshots() *snapshot.Store {
	if w.State.Snapshots == "" {
		return nil
	}
	return &snapshot.Store{Root: w.State.Snapshots, Retention: w.Retention, Redact: snapshotRedactor(w.CheckOpts.Secrets), Scan: w.ScanOpts}
}

// Snapshot records every memory dir of scan (w.Scan when nil) whose files
// or .consolidate-lock changed since the last snapshot, reading only what
// changed, and trims the store. Under ReadOnly it writes nothing and
// returns the zero result, as it does with no snapshot dir. When another
// memtui is taking one, this one is skipped (TakeResult.Busy). Records
// carry the wall clock's time, not --now: they order what happened.
func (w *Workspace) Snapshot(ctx context.Context, scan *model.Scan) (snapshot.TakeResult, error) {
	st := w.Snapshots()
	if scan == nil {
		scan = w.Scan
	}
	if w.ReadOnly || st == nil || scan == nil {
		return snapshot.TakeResult{}, nil
	}
	var dirs []*model.MemoryDir
	for _, p := range scan.Projects {
		dirs = append(dirs, p.Dirs...)
	}
	return st.Take(ctx, dirs, time.Now())
}

// snapshotRedactor redacts a text as the external proposer's input is
// redacted: with the checks' scanner, and the default one when that is
// another (nil is the default).
func snapshotRedactor(sc *secrets.Scanner) func([]byte) ([]byte, bool) {
	def := secrets.Default()
	if sc == nil {
		sc = def
	}
	return func(b []byte) ([]byte, bool) {
		s, n := sc.Redact(string(b))
		if sc != def {
			var m int
			s, m = def.Redact(s)
			n += m
		}
		if n == 0 {
			return b, false
		}
		return []byte(s), true
	}
}
