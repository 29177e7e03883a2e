package app

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"

	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/memfs"

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
	return &snapshot.Store{Root: w.State.Snapshots, Retention: w.Retention, Redact: snapshotRedactor(w.CheckOpts.Secrets), Scan: w.ScanOpts,
		Records: &w.snapRecords}
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
	// Codex's stores too: Codex keeps no history of what its
	// consolidation changed (it deletes its baseline after each run), so
	// memtui's own records are the only before and after there are
	// (codex facts §6.2). Listed as a memory dir is, its markdown files:
	// .git, a dot folder, is left out.
	for _, root := range w.CodexRoots() {
		dirs = append(dirs, &model.MemoryDir{Path: root, Kind: model.DirExplicit})
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

// RecordDemoSnapshots (the demo's setup, and a test's that builds the
// demo's workspace by hand) puts into the demo's scratch store the snapshots
// its sample says memtui took before (demo.Snapshots): each dir's files
// as the sample has them, but for the texts that changed since, those
// deleted since and those created since. The demo then shows what a
// background Dream run did between that snapshot and the disk.
func (w *Workspace) RecordDemoSnapshots(root string) error {
	st := w.Snapshots()
	if st == nil {
		return nil
	}
	ss, err := demo.Snapshots()
	if err != nil {
		return err
	}
	for _, s := range ss {
		dir := filepath.Join(root, filepath.FromSlash(s.Dir))
		snap := model.Snapshot{Dir: dir, Time: s.Time, LockMtime: s.LockMtime, LockPID: s.LockPID, Files: map[string]model.SnapFile{}}
		texts := map[string][]byte{}
		// The files a snapshot of the scratch copy would list, as it
		// lists them (memfs.ListDir), read through the safe reader.
		for _, f := range memfs.ListDir(&model.MemoryDir{Path: dir, Kind: model.DirAuto}, w.ScanOpts).Files {
			if f.Link != "" {
				continue
			}
			b, err := memfs.ReadIn(dir, f.Path, memfs.DefaultMaxFileBytes)
			if err != nil {
				return fmt.Errorf("demo snapshot %s: %w", s.Dir, err)
			}
			texts[f.Path] = b
			snap.Files[f.Path] = model.SnapFile{}
		}
		for _, a := range s.Absent {
			delete(texts, a)
			delete(snap.Files, a)
		}
		for p, t := range s.Texts {
			texts[p] = []byte(t)
			snap.Files[p] = model.SnapFile{Mtime: s.Time}
		}
		if err := st.Put(snap, texts); err != nil {
			return err
		}
	}
	return nil
}

// Runs are the background runs (Dream, memory extraction) memtui's
// snapshots of d caught: the changes between two snapshots, or between
// the last one and d as loaded now, that no transcript's tool call in log
// explains (forensics.Runs). text gives a text the snapshots kept whole,
// by hash, for the runs' diffs.
func (w *Workspace) Runs(d *model.MemoryDir, log *model.TranscriptLog) (runs []forensics.Run, text func(string) (string, bool)) {
	st := w.Snapshots()
	if st == nil {
		return nil, nil
	}
	snaps, err := st.List(d.Path)
	if err != nil || len(snaps) == 0 {
		return nil, nil
	}
	snaps = append(snaps, w.diskSnapshot(st, d, snaps[len(snaps)-1]))
	// The texts on disk now are d's as loaded; the older ones the store's.
	loaded := map[string]string{}
	for _, f := range dirFiles(d) {
		if !f.Truncated && f.Link == "" {
			loaded[consolidate.SHA256Hex(f.Content)] = string(f.Content)
		}
	}
	text = func(sum string) (string, bool) {
		if t, ok := loaded[sum]; ok {
			return t, true
		}
		b, err := st.Text(sum)
		return string(b), err == nil
	}
	return forensics.Runs(d, snaps, log), text
}

// diskSnapshot is d as loaded, as a snapshot taken now: each file by the
// hash of its content, or, read only in part, by the last snapshot's
// entry when its size and mtime are the same (else unknown).
func (w *Workspace) diskSnapshot(st *snapshot.Store, d *model.MemoryDir, last model.Snapshot) model.Snapshot {
	now := model.Snapshot{Dir: d.Path, Time: time.Now(), LockMtime: d.LockModTime, Files: map[string]model.SnapFile{}}
	if mt, pid := snapshot.ReadLock(d.Path); mt.Equal(d.LockModTime) {
		now.LockPID = pid
	}
	for _, f := range dirFiles(d) {
		if f.Link != "" {
			continue // snapshots follow no link: not theirs to compare
		}
		key := st.PathKey(f.Path)
		sf := model.SnapFile{Size: f.Size, Mtime: f.ModTime}
		switch prev, ok := last.Files[key]; {
		case !f.Truncated:
			sf.SHA256 = consolidate.SHA256Hex(f.Content)
		case ok && prev.Size == f.Size && prev.Mtime.Equal(f.ModTime):
			sf = prev
		default:
			sf.Missing = true
		}
		now.Files[key] = sf
	}
	// What memtui did not read (a problem file) stands as last seen: no
	// change is made up for it.
	for _, p := range d.Problems {
		if prev, ok := last.Files[st.PathKey(p.Path)]; ok {
			now.Files[st.PathKey(p.Path)] = prev
		}
	}
	return now
}
