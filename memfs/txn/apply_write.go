package txn

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/memtui/memtui/model"
)

// Apply writes proposals to the memory dir dir, in order, each all or
// nothing, and says what happened to each. For every proposal:
//
//   - every path is checked (relative, clean, no "..", *.md, team/ only with
//     IncludeTeam, no symlink anywhere below the memory dir, no directory
//     where a file should be); a bad path fails the whole proposal;
//   - every file it changes or read is re-read and compared with the
//     proposal's hash; a mismatch refuses the whole proposal (a conflict);
//   - before the first change, a journal entry with the before-image of
//     every file is written and fsynced outside the memory dir;
//   - each file is written to a temporary file beside it, fsynced and
//     swapped in atomically (renameat2 RENAME_EXCHANGE), keeping its mode;
//     the file swapped out must be the one compared (an agent's rename in
//     between is a conflict, swapped back at once; memtui's version holds
//     a write lease until then, so that anyone who opened it while it
//     stood in front of the agent's file is seen, and the agent's bytes are
//     then kept in the journal), and it is kept open and compared again after
//     every change is made, so an agent that opened the old file before the
//     swap and wrote after it makes the proposal a conflict instead of
//     losing its bytes: the proposal is rolled back, the agent's file put
//     back;
//   - a delete moves the file into the journal;
//   - a move renames the file to its new path (making the folders it
//     needs), never over a file that is there, so the file keeps its
//     bytes, its inode and its mtime (its place in the recall scan's
//     ranking); like a delete's, the file compared must be the file moved.
//
// The whole run holds memtui's OS lock for the directory and Claude Code's
// .consolidate-lock (see ApplyOptions.WaitForLock), released when the run
// ends: put back as it was (body and mtime, or absence), or marked
// "consolidated now" with ApplyOptions.MarkConsolidated. Interrupted
// journal entries of this dir are rolled back first.
//
// With ApplyOptions.Foreign (a store another agent consolidates, such as
// Codex's memories/), no lock file is taken or touched in the dir; the
// temp files (memtui's new versions, the old ones swapped out, a delete's
// aside) are in Foreign.TempDir, and each change reaches the dir by one
// rename, exchange or link from there, so no name but the files the
// proposal changes ever appears in it; Foreign.Busy is asked when the dir
// is opened, before each proposal and before each change (a *BusyError,
// the proposal rolled back).
func Apply(ctx context.Context, dir string, props []model.Proposal, opts ApplyOptions) []ApplyResult {
	opts = opts.withDefaults()
	results := make([]ApplyResult, len(props))
	for i, p := range props {
		results[i] = ApplyResult{ProposalID: p.ID, Status: StatusFailed}
	}
	s, err := openSession(ctx, dir, opts, false)
	if err != nil {
		for i := range results {
			results[i].Err = err
			opts.progress(ApplyEvent{Stage: "failed", ProposalID: props[i].ID, Index: i, Total: len(props), Err: err})
		}
		return results
	}
	defer s.close()
	s.recoverHere()
	for i, p := range props {
		if err := ctx.Err(); err != nil {
			results[i].Err = err
			continue
		}
		opts.progress(ApplyEvent{Stage: "start", ProposalID: p.ID, Index: i, Total: len(props)})
		r := s.applyProposal(p)
		results[i] = r
		opts.progress(ApplyEvent{Stage: string(r.Status), ProposalID: p.ID, Index: i, Total: len(props), Err: r.Err})
	}
	return results
}

func (o ApplyOptions) progress(e ApplyEvent) {
	if o.Progress != nil {
		o.Progress(e)
	}
}

func (o ApplyOptions) pid() int {
	if o.PID > 0 {
		return o.PID
	}
	return os.Getpid()
}

// session is one memory dir opened for writing, both locks held.
type session struct {
	opts    ApplyOptions
	dir     string
	realDir string
	rootfd  int
	osLock  *flock.Flock
	claude  *claudeLock
	changed bool
	neutral bool // restore Claude Code's lock even after changes (recovery)
	// foreign is opts.Foreign once its temp dir is open (tempfd, resolved
	// path tempDir): the store is another agent's (foreign.go). tempfd is
	// -1 otherwise.
	foreign *ForeignStore
	tempfd  int
	tempDir string
	// opened are the steps that opened it (the dir, memtui's lock, Claude
	// Code's lock): closing the session is undoing them.
	opened []txStep
}

func openSession(ctx context.Context, dir string, opts ApplyOptions, neutral bool) (*session, error) {
	s := &session{opts: opts, dir: filepath.Clean(dir), rootfd: -1, tempfd: -1, neutral: neutral}
	steps := []txStep{
		{name: "opened", do: func() (err error) {
			s.rootfd, s.realDir, err = openRoot(dir)
			return err
		}, undo: func() error { return sys.close(s.rootfd) }},
		{name: "locked", do: func() (err error) {
			s.osLock, err = lockOS(ctx, opts.JournalRoot, s.realDir, opts.WaitForLock)
			return err
		}, undo: func() error { return s.osLock.Unlock() }},
	}
	if opts.Foreign != nil {
		// Another agent's store: no lock file of Claude Code's (nor any)
		// in it; its temp dir, and the agent asked, before anything is
		// written (a recovery included).
		steps = append(steps,
			txStep{name: "temp dir opened", do: s.openForeign, undo: s.closeForeign},
			txStep{name: "not busy", do: func() error { return s.waitNotBusy(ctx) }})
	} else {
		// Released as it was taken, unless the user asked to mark the
		// store consolidated and the run changed something (a recovery
		// never marks it).
		steps = append(steps, txStep{name: "consolidate-lock taken", do: s.takeClaudeLock(ctx), undo: func() error {
			return s.claude.release(s.changed && s.opts.MarkConsolidated && !s.neutral, s.opts.Now())
		}})
	}
	if f := runSteps(steps, step); f != nil {
		return nil, f.joined()
	}
	s.opened = steps
	return s, nil
}

// takeClaudeLock takes .consolidate-lock, polling while Claude Code (or
// another memtui) holds it, up to opts.WaitForLock.
func (s *session) takeClaudeLock(ctx context.Context) func() error {
	return func() error {
		return s.pollLock(ctx, func() (bool, error) {
			var err error
			s.claude, err = acquireClaudeLock(s.rootfd, s.dir, s.opts.pid(), s.opts.Now())
			var held *LockHeldError
			return errors.As(err, &held), err
		})
	}
}

// pollLock runs try until it succeeds or its error is not worth waiting
// out (again false), trying again every lockPoll up to opts.WaitForLock
// and reporting each wait as a "wait-lock" event; it returns try's last
// error, or the context's.
func (s *session) pollLock(ctx context.Context, try func() (again bool, err error)) error {
	deadline := time.Now().Add(s.opts.WaitForLock)
	for {
		again, err := try()
		if err == nil || !again || !time.Now().Before(deadline) {
			return err
		}
		s.opts.progress(ApplyEvent{Stage: "wait-lock", Index: -1, Err: err})
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(lockPoll, time.Until(deadline))):
		}
	}
}

// close releases the locks (Claude Code's put back as it was, or marked
// consolidated) and the dir, newest first.
func (s *session) close() error {
	return errors.Join(unwind(s.opened)...)
}

// spec is one change as the engine sees it.
type spec struct {
	path string
	op   model.ChangeOp
	// from is a move's source; path is then its destination.
	from  string
	base  string // sha256 the file must have (update, delete; a move's source)
	after []byte
	mode  uint32 // for a create: 0 = umask default
	// mtime, when not zero, is the exact mtime (Unix ns) the written file
	// gets (an undo puts the file back as it was); otherwise the
	// transaction's mtimeRule decides.
	mtime int64
}

// txnMeta is what goes into a journal entry besides the files.
type txnMeta struct {
	proposalID, kind, title, undoOf string
	reads                           []model.FileRead
	team                            bool
	mtimes                          mtimeRule
}

func (s *session) applyProposal(p model.Proposal) ApplyResult {
	res := ApplyResult{ProposalID: p.ID, Status: StatusFailed}
	if p.MemoryDir != "" && !samePath(filepath.Clean(p.MemoryDir), s.dir) && !samePath(filepath.Clean(p.MemoryDir), s.realDir) {
		res.Err = fmt.Errorf("the proposal is for %s, not %s", p.MemoryDir, s.dir)
		return res
	}
	if p.Also != nil {
		res.Err = fmt.Errorf("the proposal changes %s too; ApplyLinked writes it", p.Also.MemoryDir)
		return res
	}
	specs, path, err := specsOf(p.Changes)
	if err != nil {
		res.Path, res.Err = path, err
		return res
	}
	return s.run(txnMeta{proposalID: p.ID, kind: string(p.Kind), title: p.Title, reads: p.Reads, team: s.opts.IncludeTeam, mtimes: mtimeRuleOf(p)}, specs)
}

// fileTx is one change in flight.
type fileTx struct {
	spec
	idx     int
	dirfd   int
	name    string
	held    *os.File // the file as compared (update, delete, move): the old inode
	heldIno uint64
	heldDev uint64
	before  []byte
	mode    uint32 // the file's mode, kept by an update
	// oldTimes are the file's atime and mtime as compared (update, delete).
	oldTimes ftimes
	// times, when set, are the atime and mtime the new version gets.
	times *ftimes
	// A move's destination: dstBase is the deepest of its folders that
	// existed when it was checked, missing the folders to make below it,
	// dstfd the destination's folder once it exists (-1 before), dstName
	// the file's name there.
	dstBase, dstfd int
	missing        []string
	dstName        string

	// tmpfd is the folder of f's temp names when they are not beside it:
	// a foreign store's temp dir (the session's; not f's to close), else -1.
	tmpfd int

	// What the steps hold while they run (txn.go). staged: the temp
	// name holds memtui's new version, not (yet) swapped in; guard:
	// memtui's version, leased while it is swapped in; release drops the
	// read lease on held (nil when none is held); movedFd and movedName:
	// where a delete moved the file.
	staged    bool
	guard     *oursGuard
	release   func()
	movedFd   int
	movedName string
}

// src is the path of the file the change replaces, deletes or moves away
// (the one held open and compared): a move's source, else its path.
func (f *fileTx) src() string {
	if f.op == model.OpMove {
		return f.from
	}
	return f.path
}

// tdir is the folder f's temp names live in: a foreign store's temp dir,
// else f's own folder.
func (f *fileTx) tdir() int {
	if f.tmpfd >= 0 {
		return f.tmpfd
	}
	return f.dirfd
}

func tmpName(jid string, i int) string   { return ".memtui-" + jid + "-" + strconv.Itoa(i) + ".tmp" }
func asideName(jid string, i int) string { return ".memtui-" + jid + "-" + strconv.Itoa(i) + ".del" }

func (f *fileTx) close() {
	if f.held != nil {
		f.held.Close()
	}
	for _, fd := range []int{f.dirfd, f.dstBase, f.dstfd} {
		if fd >= 0 {
			sys.close(fd)
		}
	}
}

func conflict(path, reason string) error { return &ConflictError{Path: path, Reason: reason} }

func (s *session) checkReads(reads []model.FileRead) (string, error) {
	for _, r := range reads {
		dfd, name, err := openParent(s.rootfd, r.Path)
		if err != nil {
			return r.Path, err
		}
		b, ok, err := readAt(dfd, name, r.Path)
		sys.close(dfd)
		if err != nil {
			return r.Path, err
		}
		if !ok || sumHex(b) != r.SHA256 {
			return r.Path, conflict(r.Path, "changed since the proposal read it")
		}
	}
	return "", nil
}

// checkHeld compares every replaced or deleted file, through the
// descriptor opened before the change, with the hash it had.
func checkHeld(files []*fileTx) (string, error) {
	for _, f := range files {
		if f.held == nil {
			continue
		}
		b, err := readAllFrom(f.held)
		if err != nil {
			return f.src(), err
		}
		if sumHex(b) != f.base {
			return f.src(), conflict(f.src(), "written by someone else while memtui replaced it (the write is kept)")
		}
	}
	return "", nil
}

// writerWait bounds how long Apply waits for an agent to close an old file
// it holds open for writing; writerSettle is the pause that replaces the
// probe where leases are not available.
var (
	writerWait   = 2 * time.Second
	writerSettle = 20 * time.Millisecond
)

// waitWriters waits until no process has a replaced or deleted file open
// for writing; one still writing after writerWait makes the proposal a
// conflict (rolled back, the writer's file put back where it writes).
func waitWriters(files []*fileTx) (string, error) {
	deadline := time.Now().Add(writerWait)
	settled := false
	for _, f := range files {
		if f.held == nil {
			continue
		}
		for {
			busy, ok := openForWriting(f.held)
			if !ok {
				if !settled {
					time.Sleep(writerSettle)
					settled = true
				}
				break
			}
			if !busy {
				break
			}
			if time.Now().After(deadline) {
				return f.src(), conflict(f.src(), "is held open for writing by another process")
			}
			time.Sleep(200 * time.Microsecond)
		}
	}
	return "", nil
}

// holdLease waits until nobody has f's file open for writing and takes a
// read lease on it, so that an agent opening it for writing while memtui
// swaps it out is seen (leaseBroken) and waits until the lease is released.
// Without leases it returns a no-op release.
func holdLease(f *fileTx) (release func(), err error) {
	deadline := time.Now().Add(writerWait)
	for {
		busy, ok := leaseRead(f.held)
		if !ok {
			return func() {}, nil
		}
		if !busy {
			return func() { leaseRelease(f.held) }, nil
		}
		if time.Now().After(deadline) {
			return nil, conflict(f.src(), "is held open for writing by another process")
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// recheck compares the file at f's path with the one compared at first:
// the same inode, the same bytes.
func recheck(f *fileTx) error {
	st, exists, err := lstatAt(f.dirfd, f.name)
	if err != nil {
		return err
	}
	if !exists {
		return conflict(f.src(), "was removed by someone else")
	}
	if st.ino != f.heldIno || st.dev != f.heldDev {
		return conflict(f.src(), "was replaced by someone else")
	}
	b, err := readAllFrom(f.held)
	if err != nil {
		return err
	}
	if sumHex(b) != f.base {
		return conflict(f.src(), "changed since the proposal read it")
	}
	return nil
}

// oursGuard is memtui's new version of a file, open read-only with a write
// lease (when the file system has them) from before it is swapped in until
// the swap is known good.
type oursGuard struct {
	f        *os.File
	ino, dev uint64
	leased   bool
}

func guardOurs(dirfd int, name string) (*oursGuard, error) {
	f, st, err := openRegularAt(dirfd, name, name)
	if err != nil {
		return nil, err
	}
	g := &oursGuard{f: f, ino: st.ino, dev: st.dev}
	g.leased = leaseWrite(f)
	return g, nil
}

func (g *oursGuard) is(st *fileStat) bool {
	return st.ino == g.ino && st.dev == g.dev
}

// state says whether anyone opened memtui's version since it was guarded,
// and whether to write; without a lease, both are assumed.
func (g *oursGuard) state() (opened, forWriting bool) {
	if !g.leased || g.f == nil {
		return true, true
	}
	return writeLeaseState(g.f)
}

// release drops the lease: whoever waits to open the file gets in.
func (g *oursGuard) release() {
	if g.f != nil {
		if g.leased {
			leaseRelease(g.f)
		}
		g.f.Close()
		g.f = nil
	}
}

// awaitWriter waits (up to writerWait) for a writer that is about to open
// name (in dirfd) to get in and close it again; where the probe is not
// available, it pauses writerSettle.
func awaitWriter(dirfd int, name string) {
	h, _, err := openRegularAt(dirfd, name, name)
	if err != nil {
		return
	}
	defer h.Close()
	start := time.Now()
	seen := false
	for time.Since(start) < writerWait {
		busy, ok := openForWriting(h)
		if !ok {
			time.Sleep(writerSettle)
			return
		}
		if busy {
			seen = true
		} else if seen || time.Since(start) > writerSettle {
			return
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// newJournalID is sortable by time and unique.
func newJournalID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return now.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b[:])
}

// setTimes decides the mtime each new version gets (see mtimeRule): an
// exact one from the spec (undo), the file's own (a tidy-up), the newest
// of the proposal's memories (a merge), or none (now, as any write). An
// index (MEMORY.md) holds pointers, not facts: under mtimeNewest it keeps
// its own mtime and does not count as a memory merged.
func setTimes(files []*fileTx, rule mtimeRule) {
	var newest *int64
	for _, f := range files {
		if f.op == model.OpCreate || f.op == model.OpMove || isIndexPath(f.path) {
			continue // (a moved file is not merged: it keeps its own mtime)
		}
		if newest == nil || f.oldTimes[1] > *newest {
			t := f.oldTimes[1]
			newest = &t
		}
	}
	for _, f := range files {
		switch {
		case f.op == model.OpDelete, f.op == model.OpMove:
			// Nothing is written: a move keeps the file, mtime and all
			// (a move's "dated" step sets an undo's recorded one).
		case f.spec.mtime != 0:
			f.times = &ftimes{f.spec.mtime, f.spec.mtime}
		case (rule == mtimeKeep || rule == mtimeNewest && isIndexPath(f.path)) && f.op == model.OpUpdate:
			t := f.oldTimes
			f.times = &t
		case rule == mtimeNewest && newest != nil && !isIndexPath(f.path):
			f.times = &ftimes{*newest, *newest}
		}
	}
}

// isIndexPath reports whether rel is a MEMORY.md (the dir's, or team/'s).
func isIndexPath(rel string) bool {
	return rel == model.IndexFileName || strings.HasSuffix(rel, "/"+model.IndexFileName)
}

// opError names the file and the operation of a failed write, and says
// what EPERM most likely means: an immutable or append-only file (chattr
// +i / +a), which even its owner cannot replace or delete.
func opError(op, path string, err error) error {
	var re *refusedError
	if errors.As(err, &re) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if isPermission(err) {
		return fmt.Errorf("%s: cannot %s it: %w (the file or its directory may be immutable or append-only: lsattr -d shows it, chattr -i or -a lifts it)", path, op, err)
	}
	return fmt.Errorf("%s: cannot %s it: %w", path, op, err)
}
