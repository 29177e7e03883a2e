//go:build unix

package memfs

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
	"golang.org/x/sys/unix"

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
}

func openSession(ctx context.Context, dir string, opts ApplyOptions, neutral bool) (*session, error) {
	rootfd, real, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	s := &session{opts: opts, dir: filepath.Clean(dir), realDir: real, rootfd: rootfd, neutral: neutral}
	s.osLock, err = lockOS(ctx, opts.JournalRoot, real, opts.WaitForLock)
	if err != nil {
		unix.Close(rootfd)
		return nil, err
	}
	deadline := time.Now().Add(opts.WaitForLock)
	for {
		s.claude, err = acquireClaudeLock(rootfd, s.dir, opts.pid(), opts.Now())
		var held *LockHeldError
		if err == nil || !errors.As(err, &held) || !time.Now().Before(deadline) {
			break
		}
		opts.progress(ApplyEvent{Stage: "wait-lock", Index: -1, Err: err})
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(min(lockPoll, time.Until(deadline))):
			continue
		}
		break
	}
	if err != nil {
		s.osLock.Unlock()
		unix.Close(rootfd)
		return nil, err
	}
	return s, nil
}

func (s *session) close() error {
	err := s.claude.release(s.changed && s.opts.MarkConsolidated && !s.neutral, s.opts.Now())
	s.osLock.Unlock()
	unix.Close(s.rootfd)
	return err
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
	if p.MemoryDir != "" && filepath.Clean(p.MemoryDir) != s.dir && filepath.Clean(p.MemoryDir) != s.realDir {
		res.Err = fmt.Errorf("the proposal is for %s, not %s", p.MemoryDir, s.dir)
		return res
	}
	specs := make([]spec, 0, len(p.Changes))
	for _, c := range p.Changes {
		switch c.Op {
		case model.OpCreate, model.OpUpdate, model.OpDelete, model.OpMove:
		default:
			res.Path, res.Err = c.Path, fmt.Errorf("%s: unknown operation %q", c.Path, c.Op)
			return res
		}
		if c.Op == model.OpMove && c.After != "" {
			res.Path, res.Err = c.Path, refuse(c.Path, "a move with new content; a move keeps the file's bytes")
			return res
		}
		specs = append(specs, spec{path: c.Path, op: c.Op, from: c.From, base: c.BaseSHA256, after: []byte(c.After)})
	}
	return s.run(txnMeta{proposalID: p.ID, kind: string(p.Kind), title: p.Title, reads: p.Reads, team: s.opts.IncludeTeam, mtimes: mtimeRuleOf(p)}, specs)
}

// fileTx is one change in flight.
type fileTx struct {
	spec
	idx     int
	dirfd   int
	name    string
	held    *os.File // the file as compared (update, delete): the old inode
	heldIno uint64
	heldDev uint64
	before  []byte
	mode    uint32 // the file's mode, kept by an update
	// oldTimes are the file's atime and mtime as compared (update, delete).
	oldTimes [2]unix.Timespec
	// times, when set, are the atime and mtime the new version gets.
	times   *[2]unix.Timespec
	applied bool
	// A move's destination: dstBase is the deepest of its folders that
	// existed when it was checked, missing the folders to make below it,
	// dstfd the destination's folder once made (-1 before), dstName the
	// file's name there.
	dstBase, dstfd int
	missing        []string
	dstName        string
}

// src is the path of the file the change replaces, deletes or moves away
// (the one held open and compared): a move's source, else its path.
func (f *fileTx) src() string {
	if f.op == model.OpMove {
		return f.from
	}
	return f.path
}

func (f *fileTx) tmpName(jid string) string { return tmpName(jid, f.idx) }
func tmpName(jid string, i int) string      { return ".memtui-" + jid + "-" + strconv.Itoa(i) + ".tmp" }
func asideName(jid string, i int) string    { return ".memtui-" + jid + "-" + strconv.Itoa(i) + ".del" }

func (f *fileTx) close() {
	if f.held != nil {
		f.held.Close()
	}
	for _, fd := range []int{f.dirfd, f.dstBase, f.dstfd} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
}

func conflict(path, reason string) error { return &ConflictError{Path: path, Reason: reason} }

// run is one transaction: check, journal, apply, check again, commit; or
// roll back.
func (s *session) run(meta txnMeta, specs []spec) ApplyResult {
	res := ApplyResult{ProposalID: meta.proposalID, Status: StatusFailed}
	fail := func(path string, err error) ApplyResult {
		res.Path, res.Err = path, err
		var ce *ConflictError
		if errors.As(err, &ce) {
			res.Status = StatusConflict
			if ce.Path != "" {
				res.Path = ce.Path // the file that conflicted: a move's source, say
			}
		}
		return res
	}
	seen := map[string]bool{}
	for _, sp := range specs {
		paths := []string{sp.path}
		switch {
		case sp.op == model.OpMove && sp.from == "":
			return fail(sp.path, refuse(sp.path, "a move with no file to move"))
		case sp.op == model.OpMove:
			paths = append(paths, sp.from)
		case sp.from != "":
			return fail(sp.path, refuse(sp.path, "a %s with a file to move from", sp.op))
		}
		for _, p := range paths {
			if err := validRel(p, meta.team); err != nil {
				return fail(p, err)
			}
			if seen[p] {
				return fail(p, refuse(p, "changed twice in one proposal"))
			}
			seen[p] = true
		}
	}
	for _, r := range meta.reads {
		if err := validRel(r.Path, true); err != nil {
			return fail(r.Path, err)
		}
	}

	// 1. Open and compare everything; nothing is written yet.
	files := make([]*fileTx, len(specs))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.close()
			}
		}
	}()
	for i, sp := range specs {
		f := &fileTx{spec: sp, idx: i, dirfd: -1, dstBase: -1, dstfd: -1}
		files[i] = f
		var err error
		if f.dirfd, f.name, err = openParent(s.rootfd, f.src()); err != nil {
			return fail(f.src(), err)
		}
		if sp.op == model.OpMove {
			// The destination: nothing may stand there; its folders may
			// be missing (made when the move is applied), never links.
			if f.dstBase, f.missing, f.dstName, err = destAt(s.rootfd, sp.path); err != nil {
				return fail(sp.path, err)
			}
			if len(f.missing) == 0 {
				st, exists, err := lstatAt(f.dstBase, f.dstName)
				if err != nil {
					return fail(sp.path, err)
				}
				if exists {
					if p := kindProblem(&st); p != "" {
						return fail(sp.path, refuse(sp.path, "%s", p))
					}
					return fail(sp.path, conflict(sp.path, "already exists; memtui never moves a file over another"))
				}
			}
		}
		switch sp.op {
		case model.OpCreate:
			st, exists, err := lstatAt(f.dirfd, f.name)
			if err != nil {
				return fail(sp.path, err)
			}
			if exists {
				if p := kindProblem(&st); p != "" {
					return fail(sp.path, refuse(sp.path, "%s", p))
				}
				return fail(sp.path, conflict(sp.path, "already exists"))
			}
		default:
			src := f.src()
			h, st, err := openRegularAt(f.dirfd, f.name, src)
			if errors.Is(err, fs.ErrNotExist) {
				return fail(src, conflict(src, "is gone"))
			}
			if err != nil {
				return fail(src, err)
			}
			f.held, f.heldIno, f.heldDev, f.mode = h, uint64(st.Ino), uint64(st.Dev), uint32(st.Mode)&0o7777
			f.oldTimes = [2]unix.Timespec{st.Atim, st.Mtim}
			if st.Nlink > 1 {
				// An atomic replace would give this name a new file and
				// leave the other names with the old one; a delete would
				// keep a live copy in the journal. Neither without asking.
				return fail(src, refuse(src, "has %d hard links (other names for the same file); memtui would split it from them, so it does not change it: remove the other links (find -samefile) or edit it by hand", st.Nlink))
			}
			if f.before, err = readAllFrom(h); err != nil {
				return fail(src, err)
			}
			if sumHex(f.before) != sp.base {
				return fail(src, conflict(src, "changed since the proposal read it"))
			}
		}
	}
	if p, err := s.checkReads(meta.reads); err != nil {
		return fail(p, err)
	}
	setTimes(files, meta.mtimes)

	// 2. The journal, before the first change.
	j, err := s.newEntry(meta, files)
	if err != nil {
		return fail("", fmt.Errorf("journal: %w", err))
	}
	res.JournalID = j.m.ID
	step("journal")

	// 3. The changes, 4. the checks after them, 5. commit.
	abort := func(path string, cause error) ApplyResult {
		j.rollback(s, files)
		return fail(path, cause)
	}
	for _, f := range files {
		if err := s.applyOne(j, f); err != nil {
			return abort(f.path, err)
		}
	}
	// The last window: an agent that opened an old file before it was
	// swapped out may still write to it. Wait until nobody has it open for
	// writing (nobody can open it by its old name any more), then compare.
	if p, err := waitWriters(files); err != nil {
		return abort(p, err)
	}
	step("settled")
	if p, err := checkHeld(files); err != nil {
		return abort(p, err)
	}
	if p, err := s.checkReads(meta.reads); err != nil {
		return abort(p, err)
	}
	// The old files are unlinked, then compared a last time: an agent that
	// wrote to one in the meantime is seen here, and the rollback writes its
	// bytes back.
	for _, f := range files {
		if err := s.unlinkOld(j, f); err != nil {
			return abort(f.path, err)
		}
	}
	step("cleaned")
	if p, err := waitWriters(files); err != nil {
		return abort(p, err)
	}
	if p, err := checkHeld(files); err != nil {
		return abort(p, err)
	}
	for i := range j.m.Files {
		j.m.Files[i].State = "applied"
	}
	j.m.State = JournalCommitted
	if err := j.save(); err != nil {
		return abort("", fmt.Errorf("journal: %w", err))
	}
	step("commit")
	// A deleted memory kept in the journal is owner-only from now on, as
	// the before-images are (until the commit, a rollback may link it back
	// with its own mode). Undo re-creates it from the before-image, with
	// the mode recorded.
	for _, f := range files {
		if f.op == model.OpDelete {
			// Only a regular file: a symlink's target is not memtui's to chmod.
			p := filepath.Join(j.dir, "deleted", strconv.Itoa(f.idx))
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				os.Chmod(p, 0o600)
			}
		}
	}
	s.changed = true
	if meta.kind != "undo" {
		s.scrubAfterRedaction(j.m.ID, files)
	}
	res.Status = StatusApplied
	return res
}

func (s *session) checkReads(reads []model.FileRead) (string, error) {
	for _, r := range reads {
		dfd, name, err := openParent(s.rootfd, r.Path)
		if err != nil {
			return r.Path, err
		}
		b, ok, err := readAt(dfd, name, r.Path)
		unix.Close(dfd)
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
	if uint64(st.Ino) != f.heldIno || uint64(st.Dev) != f.heldDev {
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

func (s *session) applyOne(j *entry, f *fileTx) error {
	tag := "apply " + strconv.Itoa(f.idx) + " "
	tmp := f.tmpName(j.m.ID)
	switch f.op {
	case model.OpUpdate:
		if err := writeTempAt(f.dirfd, tmp, f.after, f.mode, f.times); err != nil {
			return opError("write the new version of", f.path, err)
		}
		step(tag + "temp")
		// memtui's version gets a write lease until the swap is known good:
		// if the swap has to be undone, anyone who opened memtui's version
		// while it stood at the path is seen (they wait for the lease).
		g, err := guardOurs(f.dirfd, tmp)
		if err != nil {
			unix.Unlinkat(f.dirfd, tmp, 0)
			return err
		}
		defer g.release()
		release, err := holdLease(f)
		if err != nil {
			g.release()
			unix.Unlinkat(f.dirfd, tmp, 0)
			return err
		}
		if err := recheck(f); err != nil {
			release()
			g.release()
			unix.Unlinkat(f.dirfd, tmp, 0)
			return err
		}
		if err := exchangeAt(f.dirfd, tmp, f.name); err != nil {
			release()
			g.release()
			unix.Unlinkat(f.dirfd, tmp, 0)
			return opError("replace", f.path, err)
		}
		// An agent opening the old file for writing right now (it waits for
		// the read lease), or an agent's rename over the path between the
		// recheck and the swap (the file swapped out is not the one
		// compared): swap back at once, before anyone builds on memtui's
		// version.
		opening := leaseBroken(f.held)
		st, _, err := lstatAt(f.dirfd, tmp)
		hidden := err != nil || uint64(st.Ino) != f.heldIno || uint64(st.Dev) != f.heldDev
		if opening || hidden {
			return s.swapBack(j, f, tmp, g, release, hidden)
		}
		release()
		g.release()
		f.applied = true
		step(tag + "exchanged")
		return fsyncDir(f.dirfd)
	case model.OpDelete:
		release, err := holdLease(f)
		if err != nil {
			return err
		}
		if err := recheck(f); err != nil {
			release()
			return err
		}
		err = unix.Renameat(f.dirfd, f.name, j.delfd, strconv.Itoa(f.idx))
		movedFd, movedName := j.delfd, strconv.Itoa(f.idx)
		if err == unix.EXDEV {
			movedFd, movedName = f.dirfd, asideName(j.m.ID, f.idx)
			err = unix.Renameat(f.dirfd, f.name, movedFd, movedName)
		}
		if err != nil {
			release()
			return opError("delete", f.path, err)
		}
		f.applied = true
		if leaseBroken(f.held) {
			// Put it back before the agent opening it gets in.
			if err := unix.Linkat(movedFd, movedName, f.dirfd, f.name, 0); err == nil {
				unix.Unlinkat(movedFd, movedName, 0)
				f.applied = false
			}
			release()
			return conflict(f.path, "an agent opened it for writing while memtui deleted it (its write is kept)")
		}
		release()
		step(tag + "moved")
		st, _, err := lstatAt(movedFd, movedName)
		if err != nil {
			return err
		}
		if uint64(st.Ino) != f.heldIno || uint64(st.Dev) != f.heldDev {
			return conflict(f.path, "was replaced by someone else while memtui deleted it (their version is kept)")
		}
		if movedFd != j.delfd {
			// Another file system: copy into the journal; the aside is
			// removed once every change is made.
			if err := copyFileAt(movedFd, movedName, filepath.Join(j.dir, "deleted", strconv.Itoa(f.idx))); err != nil {
				return err
			}
		}
		if err := fsyncDir(j.delfd); err != nil {
			return err
		}
		return fsyncDir(f.dirfd)
	case model.OpMove:
		return s.applyMove(f, tag)
	case model.OpCreate:
		if err := writeTempAt(f.dirfd, tmp, f.after, f.spec.mode, f.times); err != nil {
			return opError("create", f.path, err)
		}
		step(tag + "temp")
		// link fails if the name exists: an agent's file created since the
		// check is never replaced.
		err := unix.Linkat(f.dirfd, tmp, f.dirfd, f.name, 0)
		if err == unix.EEXIST {
			unix.Unlinkat(f.dirfd, tmp, 0)
			return conflict(f.path, "was created by someone else meanwhile")
		}
		if err != nil {
			unix.Unlinkat(f.dirfd, tmp, 0)
			return opError("create", f.path, err)
		}
		f.applied = true
		step(tag + "linked")
		if err := unix.Unlinkat(f.dirfd, tmp, 0); err != nil {
			return err
		}
		return fsyncDir(f.dirfd)
	}
	return fmt.Errorf("%s: unknown operation %q", f.path, f.op)
}

// applyMove renames a move's source to its destination: the folders it
// needs are made first, then, with the source leased and compared once
// more, the file is renamed without replacing anything at the
// destination. Like a delete, it is the file compared that must move: an
// agent opening it for writing during the rename gets it back at its old
// path at once (its write lands there), and a file an agent renamed over
// the source just before makes the proposal a conflict (the rollback puts
// it back). The file keeps its inode, bytes and mtime; an undo's move sets
// the mtime the journal recorded.
func (s *session) applyMove(f *fileTx, tag string) error {
	dfd, err := makeDirsAt(f.dstBase, f.missing, f.path)
	if err != nil {
		return err
	}
	f.dstfd = dfd
	if len(f.missing) > 0 {
		step(tag + "folders")
	}
	release, err := holdLease(f)
	if err != nil {
		return err
	}
	if err := recheck(f); err != nil {
		release()
		return err
	}
	err = moveAt(f.dirfd, f.name, f.dstfd, f.dstName)
	if err == unix.EEXIST {
		release()
		return conflict(f.path, "was created by someone else meanwhile; memtui never moves a file over another")
	}
	if err != nil {
		release()
		if _, ok, _ := lstatAt(f.dstfd, f.dstName); ok {
			f.applied = true // (a link made before the unlink failed: the rollback unlinks it)
		}
		return opError("move", f.from, err)
	}
	f.applied = true
	if leaseBroken(f.held) {
		// Put it back before the agent opening it gets in.
		if err := moveAt(f.dstfd, f.dstName, f.dirfd, f.name); err == nil {
			f.applied = false
		}
		release()
		return conflict(f.from, "an agent opened it for writing while memtui moved it (its write is kept)")
	}
	release()
	step(tag + "moved")
	st, _, err := lstatAt(f.dstfd, f.dstName)
	if err != nil {
		return err
	}
	if uint64(st.Ino) != f.heldIno || uint64(st.Dev) != f.heldDev {
		return conflict(f.from, "was replaced by someone else while memtui moved it (their version is kept)")
	}
	if f.spec.mtime != 0 {
		ts := unix.NsecToTimespec(f.spec.mtime)
		if err := unix.UtimesNanoAt(f.dstfd, f.dstName, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return opError("date", f.path, err)
		}
	}
	if err := fsyncDir(f.dstfd); err != nil {
		return err
	}
	return fsyncDir(f.dirfd)
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
	g := &oursGuard{f: f, ino: uint64(st.Ino), dev: uint64(st.Dev)}
	g.leased = leaseWrite(f)
	return g, nil
}

func (g *oursGuard) is(st *unix.Stat_t) bool {
	return uint64(st.Ino) == g.ino && uint64(st.Dev) == g.dev
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

// swapBack undoes the exchange of update f right after it, memtui's
// version still guarded, when an agent is opening the old file for writing
// or when what came out of the path is a file an agent renamed in after
// the recheck (hidden). It always returns a conflict or an error, and
// keeps in the journal (with a note) whatever an agent may lose through
// memtui's version having stood at the path for a moment:
//
//   - the hidden file's bytes, when anyone opened memtui's version
//     meanwhile: they may build on it and replace the agent's file;
//   - memtui's version, when someone opened it for writing or wrote to it;
//   - a file an agent renamed over memtui's version meanwhile is put back
//     at the path, and the one it displaced kept.
func (s *session) swapBack(j *entry, f *fileTx, tmp string, g *oursGuard, release func(), hidden bool) error {
	note := func(n string) { j.m.Notes = append(j.m.Notes, n) }
	var hiddenBytes []byte
	var hiddenErr error
	if hidden {
		hiddenBytes, _, hiddenErr = readAt(f.dirfd, tmp, tmp)
	}
	if err := exchangeAt(f.dirfd, tmp, f.name); err != nil {
		release()
		g.release()
		f.applied = true // the rollback sorts it out
		return err
	}
	if st, ok, _ := lstatAt(f.dirfd, tmp); ok && !g.is(&st) {
		// An agent renamed its version over memtui's while it stood at the
		// path: that one is the newest; put it back, keep what it displaces.
		err := exchangeAt(f.dirfd, tmp, f.name)
		release()
		g.release()
		if err != nil {
			note(j.salvage(f.dirfd, tmp, f.path, f.idx, "an agent replaced memtui's version while memtui swapped it out, and it could not be put back ("+err.Error()+")"))
		} else {
			note(j.salvage(f.dirfd, tmp, f.path, f.idx, "an agent replaced memtui's version while memtui swapped it out; the agent's is in place"))
		}
		return conflict(f.path, "was replaced by someone else while memtui wrote it (their version is kept)")
	}
	opened, forWriting := g.state()
	release()
	g.release()
	if hidden && opened {
		why := "an agent renamed its version in just before memtui's swap, and someone opened memtui's version while it was in place (they may have replaced the agent's version with one built on memtui's)"
		if hiddenErr != nil {
			note(f.path + ": " + why + "; the agent's version could not be copied: " + hiddenErr.Error())
		} else {
			note(j.keepCopy(hiddenBytes, f.path, f.idx, why))
		}
	}
	if forWriting {
		// The writer waited for the lease and gets in now: let it finish,
		// so that its bytes are in what the journal keeps.
		awaitWriter(f.dirfd, tmp)
		note(j.salvage(f.dirfd, tmp, f.path, f.idx, "an agent opened memtui's version for writing while it was briefly in place"))
	} else if settledAs(f.dirfd, tmp, sumHex(f.after)) {
		unix.Unlinkat(f.dirfd, tmp, 0)
	} else {
		note(j.salvage(f.dirfd, tmp, f.path, f.idx, "an agent wrote to memtui's version while it was briefly in place"))
	}
	if hidden {
		return conflict(f.path, "was replaced by someone else while memtui wrote it (their version is kept)")
	}
	return conflict(f.path, "an agent opened it for writing while memtui replaced it (its write is kept)")
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

// unlinkOld removes the old file's name from the memory dir once every
// change is made and checked (it stays open, and in the journal).
func (s *session) unlinkOld(j *entry, f *fileTx) error {
	var name string
	switch f.op {
	case model.OpUpdate:
		name = f.tmpName(j.m.ID)
	case model.OpDelete:
		name = asideName(j.m.ID, f.idx)
	default:
		return nil
	}
	if err := unix.Unlinkat(f.dirfd, name, 0); err != nil && err != unix.ENOENT {
		return err
	}
	return fsyncDir(f.dirfd)
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
	var newest *unix.Timespec
	for _, f := range files {
		if f.op == model.OpCreate || f.op == model.OpMove || isIndexPath(f.path) {
			continue // (a moved file is not merged: it keeps its own mtime)
		}
		if newest == nil || unix.TimespecToNsec(f.oldTimes[1]) > unix.TimespecToNsec(*newest) {
			t := f.oldTimes[1]
			newest = &t
		}
	}
	for _, f := range files {
		switch {
		case f.op == model.OpDelete, f.op == model.OpMove:
			// Nothing is written: a move keeps the file, mtime and all
			// (applyMove sets an undo's recorded one).
		case f.spec.mtime != 0:
			ts := unix.NsecToTimespec(f.spec.mtime)
			f.times = &[2]unix.Timespec{ts, ts}
		case (rule == mtimeKeep || rule == mtimeNewest && isIndexPath(f.path)) && f.op == model.OpUpdate:
			t := f.oldTimes
			f.times = &t
		case rule == mtimeNewest && newest != nil && !isIndexPath(f.path):
			f.times = &[2]unix.Timespec{*newest, *newest}
		}
	}
}

// isIndexPath reports whether rel is a MEMORY.md (the dir's, or team/'s).
func isIndexPath(rel string) bool {
	return rel == indexFileName || strings.HasSuffix(rel, "/"+indexFileName)
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
	if errors.Is(err, unix.EPERM) {
		return fmt.Errorf("%s: cannot %s it: %w (the file or its directory may be immutable or append-only: lsattr -d shows it, chattr -i or -a lifts it)", path, op, err)
	}
	return fmt.Errorf("%s: cannot %s it: %w", path, op, err)
}
