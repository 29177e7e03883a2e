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
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/sys/unix"

	"github.com/memtui/memtui/model"
)

// testHookStep, when set, runs at every step of a transaction that leaves
// the disk in a new state ("journal", "apply 0 exchanged", "commit", ...).
// The crash test kills the process there.
var testHookStep func(step string)

func step(s string) {
	if testHookStep != nil {
		testHookStep(s)
	}
}

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
//     between is a conflict), and it is kept open and compared again after
//     every change is made, so an agent that opened the old file before the
//     swap and wrote after it makes the proposal a conflict instead of
//     losing its bytes: the proposal is rolled back, the agent's file put
//     back;
//   - a delete moves the file into the journal.
//
// The whole run holds memtui's OS lock for the directory and Claude Code's
// .consolidate-lock (see ApplyOptions.WaitForLock); a run that changed
// files leaves the lock as Claude Code's /dream does (our PID, mtime now),
// one that changed nothing restores it. Interrupted journal entries of this
// dir are rolled back first.
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
	err := s.claude.release(s.changed && !s.neutral, s.opts.Now())
	s.osLock.Unlock()
	unix.Close(s.rootfd)
	return err
}

// spec is one change as the engine sees it.
type spec struct {
	path  string
	op    model.ChangeOp
	base  string // sha256 the file must have (update, delete)
	after []byte
	mode  uint32 // for a create: 0 = umask default
}

// txnMeta is what goes into a journal entry besides the files.
type txnMeta struct {
	proposalID, kind, title, undoOf string
	reads                           []model.FileRead
	team                            bool
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
		case model.OpCreate, model.OpUpdate, model.OpDelete:
		default:
			res.Path, res.Err = c.Path, fmt.Errorf("%s: unknown operation %q", c.Path, c.Op)
			return res
		}
		specs = append(specs, spec{path: c.Path, op: c.Op, base: c.BaseSHA256, after: []byte(c.After)})
	}
	return s.run(txnMeta{proposalID: p.ID, kind: string(p.Kind), title: p.Title, reads: p.Reads, team: s.opts.IncludeTeam}, specs)
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
	applied bool
}

func (f *fileTx) tmpName(jid string) string { return tmpName(jid, f.idx) }
func tmpName(jid string, i int) string      { return ".memtui-" + jid + "-" + strconv.Itoa(i) + ".tmp" }
func asideName(jid string, i int) string    { return ".memtui-" + jid + "-" + strconv.Itoa(i) + ".del" }

func (f *fileTx) close() {
	if f.held != nil {
		f.held.Close()
	}
	if f.dirfd >= 0 {
		unix.Close(f.dirfd)
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
		}
		return res
	}
	seen := map[string]bool{}
	for _, sp := range specs {
		if err := validRel(sp.path, meta.team); err != nil {
			return fail(sp.path, err)
		}
		if seen[sp.path] {
			return fail(sp.path, refuse(sp.path, "changed twice in one proposal"))
		}
		seen[sp.path] = true
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
		f := &fileTx{spec: sp, idx: i, dirfd: -1}
		files[i] = f
		var err error
		if f.dirfd, f.name, err = openParent(s.rootfd, sp.path); err != nil {
			return fail(sp.path, err)
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
			h, st, err := openRegularAt(f.dirfd, f.name, sp.path)
			if errors.Is(err, fs.ErrNotExist) {
				return fail(sp.path, conflict(sp.path, "is gone"))
			}
			if err != nil {
				return fail(sp.path, err)
			}
			f.held, f.heldIno, f.heldDev, f.mode = h, uint64(st.Ino), uint64(st.Dev), uint32(st.Mode)&0o7777
			if f.before, err = readAllFrom(h); err != nil {
				return fail(sp.path, err)
			}
			if sumHex(f.before) != sp.base {
				return fail(sp.path, conflict(sp.path, "changed since the proposal read it"))
			}
		}
	}
	if p, err := s.checkReads(meta.reads); err != nil {
		return fail(p, err)
	}

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
	s.changed = true
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
			return f.path, err
		}
		if sumHex(b) != f.base {
			return f.path, conflict(f.path, "written by someone else while memtui replaced it (the write is kept)")
		}
	}
	return "", nil
}

// recheck compares the file at f's path with the one compared at first:
// the same inode, the same bytes.
func recheck(f *fileTx) error {
	st, exists, err := lstatAt(f.dirfd, f.name)
	if err != nil {
		return err
	}
	if !exists {
		return conflict(f.path, "was removed by someone else")
	}
	if uint64(st.Ino) != f.heldIno || uint64(st.Dev) != f.heldDev {
		return conflict(f.path, "was replaced by someone else")
	}
	b, err := readAllFrom(f.held)
	if err != nil {
		return err
	}
	if sumHex(b) != f.base {
		return conflict(f.path, "changed since the proposal read it")
	}
	return nil
}

func (s *session) applyOne(j *entry, f *fileTx) error {
	tag := "apply " + strconv.Itoa(f.idx) + " "
	tmp := f.tmpName(j.m.ID)
	switch f.op {
	case model.OpUpdate:
		if err := writeTempAt(f.dirfd, tmp, f.after, f.mode); err != nil {
			return err
		}
		step(tag + "temp")
		if err := recheck(f); err != nil {
			unix.Unlinkat(f.dirfd, tmp, 0)
			return err
		}
		if err := exchangeAt(f.dirfd, tmp, f.name); err != nil {
			unix.Unlinkat(f.dirfd, tmp, 0)
			return err
		}
		f.applied = true
		step(tag + "exchanged")
		// The file swapped out must be the one compared: otherwise an agent
		// renamed its own version in between (the rollback swaps it back).
		st, _, err := lstatAt(f.dirfd, tmp)
		if err != nil {
			return err
		}
		if uint64(st.Ino) != f.heldIno || uint64(st.Dev) != f.heldDev {
			return conflict(f.path, "was replaced by someone else while memtui wrote it (their version is kept)")
		}
		return fsyncDir(f.dirfd)
	case model.OpDelete:
		if err := recheck(f); err != nil {
			return err
		}
		err := unix.Renameat(f.dirfd, f.name, j.delfd, strconv.Itoa(f.idx))
		movedFd, movedName := j.delfd, strconv.Itoa(f.idx)
		if err == unix.EXDEV {
			movedFd, movedName = f.dirfd, asideName(j.m.ID, f.idx)
			err = unix.Renameat(f.dirfd, f.name, movedFd, movedName)
		}
		if err != nil {
			return &fs.PathError{Op: "move into the journal", Path: f.path, Err: err}
		}
		f.applied = true
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
	case model.OpCreate:
		if err := writeTempAt(f.dirfd, tmp, f.after, f.spec.mode); err != nil {
			return err
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
			return &fs.PathError{Op: "link", Path: f.path, Err: err}
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
