package txn

// The steps of one proposal's transaction (txstep.go runs them). The
// journal comes first; then each file's change, a few steps each: stage
// memtui's version, lease the file compared and compare it once more,
// make the change (its undo is rollbackFile, which judges from the disk
// what to put back), check what was done, sync; then the checks of every
// file after every change, the removal of the old names, the checks
// again, and the commit. A step that holds something for the next ones
// (the temp file, a lease) undoes it if they fail; the step that is done
// with it lets it go.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// run is one transaction: check every path, open and compare every
// file; then the steps (txn.steps): journal, apply, check again, commit,
// each undone at the first failure, newest first, and the rollback
// recorded in the journal.
func (s *session) run(meta txnMeta, specs []spec) ApplyResult {
	t, res := s.prepare(meta, specs)
	if t == nil {
		return res
	}
	defer t.close()
	if f := runSteps(t.steps(), step); f != nil {
		return t.failed(f.path, f.err, f.undoErrs)
	}
	return t.done()
}

// prepare checks every path of a transaction and opens and compares every
// file; nothing is written yet. A nil txn comes with the failure's result.
func (s *session) prepare(meta txnMeta, specs []spec) (*txn, ApplyResult) {
	res := ApplyResult{ProposalID: meta.proposalID, Status: StatusFailed}
	t := &txn{s: s, meta: meta, files: make([]*fileTx, len(specs))}
	fail := func(path string, err error) (*txn, ApplyResult) {
		t.close()
		return nil, resultOf(res, path, err)
	}
	if p, err := checkSpecs(meta, specs); err != nil {
		return fail(p, err)
	}
	for i, sp := range specs {
		f := &fileTx{spec: sp, idx: i, dirfd: -1, dstBase: -1, dstfd: -1, movedFd: -1, tmpfd: s.tempfd}
		t.files[i] = f
		if p, err := s.compare(f); err != nil {
			return fail(p, err)
		}
	}
	if p, err := s.checkReads(meta.reads); err != nil {
		return fail(p, err)
	}
	setTimes(t.files, meta.mtimes)
	return t, res
}

// resultOf is res failed at path with err: a conflict when err is one.
func resultOf(res ApplyResult, path string, err error) ApplyResult {
	res.Status = StatusFailed
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

// close lets go of every file t opened.
func (t *txn) close() {
	for _, f := range t.files {
		if f != nil {
			f.close()
		}
	}
}

// failed records t's rollback (what the undos could not put back cleanly
// goes into the entry's notes; were the entry not saved, it stays
// pending: the next start's recovery rolls it back again, judging from
// the disk) and says why it failed.
func (t *txn) failed(path string, err error, undoErrs []error) ApplyResult {
	res := ApplyResult{ProposalID: t.meta.proposalID}
	if t.j != nil {
		res.JournalID = t.j.m.ID
		t.j.rolledBack(undoErrs)
		step("rolled back")
	}
	return resultOf(res, path, err)
}

// done is a committed transaction's result.
func (t *txn) done() ApplyResult {
	// A deleted memory kept in the journal is owner-only from now on, as
	// the before-images are (until the commit, a rollback may link it back
	// with its own mode). Undo re-creates it from the before-image, with
	// the mode recorded.
	for _, f := range t.files {
		if f.op == model.OpDelete {
			// Only a regular file: a symlink's target is not memtui's to chmod.
			p := filepath.Join(t.j.dir, "deleted", strconv.Itoa(f.idx))
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				os.Chmod(p, 0o600)
			}
		}
	}
	t.s.changed = true
	if t.meta.kind != "undo" {
		t.s.scrubAfterRedaction(t.j.m.ID, t.files)
	}
	return ApplyResult{ProposalID: t.meta.proposalID, Status: StatusApplied, JournalID: t.j.m.ID}
}

// checkSpecs checks every path of a transaction before anything is
// opened: valid, and each changed once.
func checkSpecs(meta txnMeta, specs []spec) (string, error) {
	seen := map[string]bool{}
	for _, sp := range specs {
		paths := []string{sp.path}
		switch {
		case sp.op == model.OpMove && sp.from == "":
			return sp.path, refuse(sp.path, "a move with no file to move")
		case sp.op == model.OpMove:
			paths = append(paths, sp.from)
		case sp.from != "":
			return sp.path, refuse(sp.path, "a %s with a file to move from", sp.op)
		}
		for _, p := range paths {
			if err := validRel(p, meta.team); err != nil {
				return p, err
			}
			// On Windows A.md and a.md are one file.
			key := p
			if onWindows {
				key = memfs.FoldPath(p)
			}
			if seen[key] {
				return p, refuse(p, "changed twice in one proposal")
			}
			seen[key] = true
		}
	}
	for _, r := range meta.reads {
		if err := validRel(r.Path, true); err != nil {
			return r.Path, err
		}
	}
	return "", nil
}

// compare opens f's folder and the file it changes (a move's destination
// folder too) and compares the file with the proposal's hash; it says
// which file failed, and why.
func (s *session) compare(f *fileTx) (string, error) {
	sp := f.spec
	var err error
	if f.dirfd, f.name, err = openParent(s.rootfd, f.src()); err != nil {
		return f.src(), err
	}
	if sp.op == model.OpMove {
		// The destination: nothing may stand there; its folders may
		// be missing (made when the move is applied), never links.
		if f.dstBase, f.missing, f.dstName, err = destAt(s.rootfd, sp.path); err != nil {
			return sp.path, err
		}
		if len(f.missing) == 0 {
			f.dstfd, f.dstBase = f.dstBase, -1 // no folder to make
			st, exists, err := lstatAt(f.dstfd, f.dstName)
			if err != nil {
				return sp.path, err
			}
			if exists {
				if p := kindProblem(&st); p != "" {
					return sp.path, refuse(sp.path, "%s", p)
				}
				return sp.path, conflict(sp.path, "already exists; memtui never moves a file over another")
			}
		}
	}
	switch sp.op {
	case model.OpCreate:
		st, exists, err := lstatAt(f.dirfd, f.name)
		if err != nil {
			return sp.path, err
		}
		if exists {
			if p := kindProblem(&st); p != "" {
				return sp.path, refuse(sp.path, "%s", p)
			}
			return sp.path, conflict(sp.path, "already exists")
		}
	default:
		src := f.src()
		h, st, err := openRegularAt(f.dirfd, f.name, src)
		if errors.Is(err, fs.ErrNotExist) {
			return src, conflict(src, "is gone")
		}
		if err != nil {
			return src, err
		}
		f.held, f.heldIno, f.heldDev, f.mode = h, st.ino, st.dev, st.perm
		f.oldTimes = ftimes{st.atime, st.mtime}
		if st.nlink > 1 {
			// An atomic replace would give this name a new file and
			// leave the other names with the old one; a delete would
			// keep a live copy in the journal. Neither without asking.
			return src, refuse(src, "has %d hard links (other names for the same file); memtui would split it from them, so it does not change it: remove the other links (find -samefile) or edit it by hand", st.nlink)
		}
		if f.before, err = readAllFrom(h); err != nil {
			return src, err
		}
		if sumHex(f.before) != sp.base {
			return src, conflict(src, "changed since the proposal read it")
		}
	}
	return "", nil
}

// txn is one proposal being written.
type txn struct {
	s     *session
	meta  txnMeta
	files []*fileTx // opened and compared
	j     *entry    // the journal entry, once written
}

// steps is the transaction, in order.
func (t *txn) steps() []txStep {
	// The journal, before the first change. A rollback does not remove
	// it: the entry records the rollback (run), so it has no undo. In a
	// foreign store, the agent is asked first: busy, nothing is written,
	// not even the entry.
	var steps []txStep
	if t.s.foreign != nil {
		steps = append(steps, txStep{name: "not busy", do: t.s.notBusy})
	}
	steps = append(steps, txStep{name: "journal", do: t.journal})
	for _, f := range t.files {
		switch f.op {
		case model.OpUpdate:
			steps = append(steps, t.updateSteps(f)...)
		case model.OpDelete:
			steps = append(steps, t.deleteSteps(f)...)
		case model.OpMove:
			steps = append(steps, t.moveSteps(f)...)
		case model.OpCreate:
			steps = append(steps, t.createSteps(f)...)
		default:
			steps = append(steps, txStep{name: f.tag() + "refused", path: f.path, do: func() error {
				return fmt.Errorf("%s: unknown operation %q", f.path, f.op)
			}})
		}
	}
	// The last window: an agent that opened an old file before it was
	// swapped out may still write to it. Wait until nobody has it open for
	// writing (nobody can open it by its old name any more), then compare.
	steps = append(steps,
		txStep{name: "settled", do: func() error { return atFile(waitWriters(t.files)) }},
		txStep{name: "held checked", do: func() error { return atFile(checkHeld(t.files)) }},
		txStep{name: "reads checked", do: func() error { return atFile(t.s.checkReads(t.meta.reads)) }},
	)
	// The old files are unlinked, then compared a last time: an agent that
	// wrote to one in the meantime is seen here, and the rollback writes its
	// bytes back.
	for _, f := range t.files {
		if f.op == model.OpUpdate || f.op == model.OpDelete {
			steps = append(steps, txStep{name: f.tag() + "cleaned", path: f.path, do: func() error { return t.unlinkOld(f) }})
		}
	}
	return append(steps,
		txStep{name: "settled again", do: func() error { return atFile(waitWriters(t.files)) }},
		txStep{name: "held checked again", do: func() error { return atFile(checkHeld(t.files)) }},
		txStep{name: "commit", do: t.commit},
	)
}

// journal writes the entry: every file's before-image, fsynced, and the
// entry marked pending, before anything in the memory dir changes.
func (t *txn) journal() error {
	j, err := t.s.newEntry(t.meta, t.files)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	t.j = j
	return nil
}

// commit marks the entry committed: from here on nothing is undone but by
// `memtui undo`.
func (t *txn) commit() error {
	for i := range t.j.m.Files {
		t.j.m.Files[i].State = "applied"
	}
	t.j.m.State = JournalCommitted
	if err := t.j.save(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// tag names f's steps: "apply 2 ".
func (f *fileTx) tag() string { return "apply " + strconv.Itoa(f.idx) + " " }

// tmp is the name of f's temp file, beside it.
func (t *txn) tmp(f *fileTx) string { return tmpName(t.j.m.ID, f.idx) }

// undoChange is the undo of f's change itself: the file put back as it
// was, judging from the disk; the old file kept open gives back its
// current bytes, with whatever an agent wrote into it.
func (t *txn) undoChange(f *fileTx) func() error {
	return func() error { return t.j.undoFile(t.s.rootfd, f.idx, f.held) }
}

// staging writes memtui's version of f to its temp file (fsynced, with
// its mode and mtime). Its undo removes it, unless it has been swapped
// in or linked: the temp name then holds the old file or is a second
// name of the new one, and the change's undo sees to it.
func (t *txn) staging(f *fileTx, op string, mode uint32) txStep {
	return txStep{name: f.tag() + "temp", path: f.path, do: func() error {
		if err := writeTempAt(f.tdir(), t.tmp(f), f.after, mode, f.times); err != nil {
			return opError(op, f.path, err)
		}
		f.staged = true
		return nil
	}, undo: func() error {
		if !f.staged {
			return nil
		}
		f.staged = false
		if err := sys.unlink(f.tdir(), t.tmp(f)); err != nil && !isNotExist(err) {
			return fmt.Errorf("%s: memtui's unused version is left at %s: %w", f.path, t.tmp(f), err)
		}
		return nil
	}}
}

// leasing waits until nobody has the file compared open for writing and
// takes a read lease on it (holdLease), dropped by the step that changes
// the file once it knows whether an agent tried to open it meanwhile.
func (t *txn) leasing(f *fileTx) txStep {
	return txStep{name: f.tag() + "leased", path: f.path, do: func() (err error) {
		f.release, err = holdLease(f)
		return err
	}, undo: func() error {
		f.unlease()
		return nil
	}}
}

// unlease drops the read lease on f's old file, if it is held: whoever
// waits to open it for writing gets in.
func (f *fileTx) unlease() {
	if f.release != nil {
		f.release()
		f.release = nil
	}
}

// rechecking compares the file at the path once more, leased: the same
// inode, the same bytes.
func (t *txn) rechecking(f *fileTx) txStep {
	return txStep{name: f.tag() + "rechecked", path: f.path, do: func() error { return recheck(f) }}
}

// updateSteps replace a file: memtui's version is staged, guarded and
// swapped in atomically for the file compared.
func (t *txn) updateSteps(f *fileTx) []txStep {
	return []txStep{
		t.staging(f, "write the new version of", f.mode),
		// memtui's version gets a write lease until the swap is known good:
		// if the swap has to be undone, anyone who opened memtui's version
		// while it stood at the path is seen (they wait for the lease).
		{name: f.tag() + "guarded", path: f.path, do: func() (err error) {
			f.guard, err = guardOurs(f.tdir(), t.tmp(f))
			return err
		}, undo: func() error {
			f.guard.release()
			return nil
		}},
		t.leasing(f),
		t.rechecking(f),
		{name: f.tag() + "exchanged", path: f.path, do: func() error { return t.swapIn(f) }, undo: t.undoChange(f)},
		{name: f.tag() + "synced", path: f.path, do: func() error { return fsyncDirs(f.dirfd, f.tdir()) }},
	}
}

// swapIn exchanges memtui's version with the file at the path. An agent
// opening the old file for writing right now (it waits for the read
// lease), or an agent's rename over the path between the recheck and the
// swap (the file swapped out is not the one compared): swap back at once,
// before anyone builds on memtui's version.
func (t *txn) swapIn(f *fileTx) error {
	if err := t.s.notBusy(); err != nil {
		return err
	}
	tmp := t.tmp(f)
	if err := exchangeAt(f.tdir(), tmp, f.dirfd, f.name); err != nil {
		return opError("replace", f.path, err)
	}
	f.staged = false // the temp name holds the old file now
	opening := leaseBroken(f.held)
	st, _, err := lstatAt(f.tdir(), tmp)
	hidden := err != nil || st.ino != f.heldIno || st.dev != f.heldDev
	if opening || hidden {
		return t.swapBack(f, tmp, hidden)
	}
	f.unlease()
	f.guard.release()
	return nil
}

// swapBack undoes the exchange of update f right after it, memtui's
// version still guarded, when an agent is opening the old file for writing
// or when what came out of the path is a file an agent renamed in after
// the recheck (hidden). It always returns a conflict or an error (partly,
// when memtui's version could not be swapped out again), and keeps in the
// journal (with a note) whatever an agent may lose through memtui's
// version having stood at the path for a moment:
//
//   - the hidden file's bytes, when anyone opened memtui's version
//     meanwhile: they may build on it and replace the agent's file;
//   - memtui's version, when someone opened it for writing or wrote to it;
//   - a file an agent renamed over memtui's version meanwhile is put back
//     at the path, and the one it displaced kept.
func (t *txn) swapBack(f *fileTx, tmp string, hidden bool) error {
	j, g := t.j, f.guard
	note := func(n string) { j.m.Notes = append(j.m.Notes, n) }
	var hiddenBytes []byte
	var hiddenErr error
	if hidden {
		hiddenBytes, _, hiddenErr = readAt(f.tdir(), tmp, tmp)
	}
	if err := exchangeAt(f.tdir(), tmp, f.dirfd, f.name); err != nil {
		f.unlease()
		g.release()
		return partly(err) // memtui's version is at the path: the change's undo sorts it out
	}
	if st, ok, _ := lstatAt(f.tdir(), tmp); ok && !g.is(&st) {
		// An agent renamed its version over memtui's while it stood at the
		// path: that one is the newest; put it back, keep what it displaces.
		err := exchangeAt(f.tdir(), tmp, f.dirfd, f.name)
		f.unlease()
		g.release()
		if err != nil {
			note(j.salvage(f.tdir(), tmp, f.path, f.idx, "an agent replaced memtui's version while memtui swapped it out, and it could not be put back ("+err.Error()+")"))
		} else {
			note(j.salvage(f.tdir(), tmp, f.path, f.idx, "an agent replaced memtui's version while memtui swapped it out; the agent's is in place"))
		}
		return conflict(f.path, "was replaced by someone else while memtui wrote it (their version is kept)")
	}
	opened, forWriting := g.state()
	f.unlease()
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
		awaitWriter(f.tdir(), tmp)
		note(j.salvage(f.tdir(), tmp, f.path, f.idx, "an agent opened memtui's version for writing while it was briefly in place"))
	} else if settledAs(f.tdir(), tmp, sumHex(f.after)) {
		sys.unlink(f.tdir(), tmp)
	} else {
		note(j.salvage(f.tdir(), tmp, f.path, f.idx, "an agent wrote to memtui's version while it was briefly in place"))
	}
	if hidden {
		return conflict(f.path, "was replaced by someone else while memtui wrote it (their version is kept)")
	}
	return conflict(f.path, "an agent opened it for writing while memtui replaced it (its write is kept)")
}

// createSteps make a new file: staged, then linked to its name, which
// fails if the name exists: an agent's file created since the check is
// never replaced.
func (t *txn) createSteps(f *fileTx) []txStep {
	return []txStep{
		t.staging(f, "create", f.spec.mode),
		{name: f.tag() + "linked", path: f.path, do: func() error {
			if err := t.s.notBusy(); err != nil {
				return err
			}
			err := sys.link(f.tdir(), t.tmp(f), f.dirfd, f.name)
			if err != nil && isExist(err) {
				return conflict(f.path, "was created by someone else meanwhile")
			}
			if err != nil {
				return opError("create", f.path, err)
			}
			f.staged = false // the temp name is a second name of the file now
			return nil
		}, undo: t.undoChange(f)},
		{name: f.tag() + "synced", path: f.path, do: func() error {
			if err := sys.unlink(f.tdir(), t.tmp(f)); err != nil {
				return err
			}
			return fsyncDirs(f.dirfd, f.tdir())
		}},
	}
}

// deleteSteps move the file compared into the journal.
func (t *txn) deleteSteps(f *fileTx) []txStep {
	return []txStep{
		t.leasing(f),
		t.rechecking(f),
		{name: f.tag() + "moved", path: f.path, do: func() error { return t.moveToJournal(f) }, undo: t.undoChange(f)},
		{name: f.tag() + "verified", path: f.path, do: func() error { return t.keepDeleted(f) }},
		{name: f.tag() + "synced", path: f.path, do: func() error {
			if err := fsyncDir(t.j.delfd); err != nil {
				return err
			}
			return fsyncDirs(f.dirfd, f.tdir())
		}},
	}
}

// moveToJournal renames the file into the entry's deleted/ (or, across
// file systems, aside in its own folder, or a foreign store's temp dir, to
// be copied into the journal). An agent opening it for writing meanwhile
// gets it back at once: its write lands at its path.
func (t *txn) moveToJournal(f *fileTx) error {
	if err := t.s.notBusy(); err != nil {
		return err
	}
	f.movedFd, f.movedName = t.j.delfd, strconv.Itoa(f.idx)
	err := sys.rename(f.dirfd, f.name, f.movedFd, f.movedName)
	if err != nil && isCrossDevice(err) {
		f.movedFd, f.movedName = f.tdir(), asideName(t.j.m.ID, f.idx)
		err = sys.rename(f.dirfd, f.name, f.movedFd, f.movedName)
	}
	if err != nil {
		return opError("delete", f.path, err)
	}
	if leaseBroken(f.held) {
		// Put it back before the agent opening it gets in.
		err := conflict(f.path, "an agent opened it for writing while memtui deleted it (its write is kept)")
		if lerr := sys.link(f.movedFd, f.movedName, f.dirfd, f.name); lerr == nil {
			sys.unlink(f.movedFd, f.movedName)
		} else {
			err = partly(err) // still in the journal: the change's undo sees to it
		}
		f.unlease()
		return err
	}
	f.unlease()
	return nil
}

// keepDeleted checks that the file moved out is the one compared (one an
// agent renamed over it just before is a conflict, and goes back) and,
// across file systems, copies it into the journal; the aside is removed
// once every change is made.
func (t *txn) keepDeleted(f *fileTx) error {
	st, _, err := lstatAt(f.movedFd, f.movedName)
	if err != nil {
		return err
	}
	if st.ino != f.heldIno || st.dev != f.heldDev {
		return conflict(f.path, "was replaced by someone else while memtui deleted it (their version is kept)")
	}
	if f.movedFd != t.j.delfd {
		return copyFileAt(f.movedFd, f.movedName, filepath.Join(t.j.dir, "deleted", strconv.Itoa(f.idx)))
	}
	return nil
}

// moveSteps rename a move's source to its destination: the folders it
// needs are made first, then, with the source leased and compared once
// more, the file is renamed without replacing anything at the
// destination. Like a delete, it is the file compared that must move: an
// agent opening it for writing during the rename gets it back at its old
// path at once (its write lands there), and a file an agent renamed over
// the source just before makes the proposal a conflict (the rollback puts
// it back). The file keeps its inode, bytes and mtime; an undo's move sets
// the mtime the journal recorded.
func (t *txn) moveSteps(f *fileTx) []txStep {
	var steps []txStep
	if len(f.missing) > 0 {
		steps = append(steps, txStep{name: f.tag() + "folders", path: f.path, do: func() (err error) {
			if f.dstfd, err = makeDirsAt(f.dstBase, f.missing, f.path); err != nil {
				return partly(err) // the folders it made before it failed go again
			}
			return nil
		}, undo: func() error {
			removeEmptyDirs(t.s.rootfd, t.j.m.Files[f.idx].Dirs)
			return nil
		}})
	}
	steps = append(steps,
		t.leasing(f),
		t.rechecking(f),
		txStep{name: f.tag() + "moved", path: f.path, do: func() error { return t.move(f) }, undo: t.undoChange(f)},
		txStep{name: f.tag() + "verified", path: f.path, do: func() error {
			st, _, err := lstatAt(f.dstfd, f.dstName)
			if err != nil {
				return err
			}
			if st.ino != f.heldIno || st.dev != f.heldDev {
				return conflict(f.from, "was replaced by someone else while memtui moved it (their version is kept)")
			}
			return nil
		}},
	)
	if f.spec.mtime != 0 {
		steps = append(steps, txStep{name: f.tag() + "dated", path: f.path, do: func() error {
			if err := sys.utimes(f.dstfd, f.dstName, ftimes{f.spec.mtime, f.spec.mtime}); err != nil {
				return opError("date", f.path, err)
			}
			return nil
		}})
	}
	return append(steps, txStep{name: f.tag() + "synced", path: f.path, do: func() error {
		if err := fsyncDir(f.dstfd); err != nil {
			return err
		}
		return fsyncDir(f.dirfd)
	}})
}

// move renames the file, never over one that is there.
func (t *txn) move(f *fileTx) error {
	if err := t.s.notBusy(); err != nil {
		return err
	}
	err := moveAt(f.dirfd, f.name, f.dstfd, f.dstName)
	if err != nil && isExist(err) {
		return conflict(f.path, "was created by someone else meanwhile; memtui never moves a file over another")
	}
	if err != nil {
		f.unlease()
		if _, ok, _ := lstatAt(f.dstfd, f.dstName); ok {
			// A link made before the unlink failed: the undo unlinks it.
			return partly(opError("move", f.from, err))
		}
		return opError("move", f.from, err)
	}
	if leaseBroken(f.held) {
		// Put it back before the agent opening it gets in.
		err := conflict(f.from, "an agent opened it for writing while memtui moved it (its write is kept)")
		if moveAt(f.dstfd, f.dstName, f.dirfd, f.name) != nil {
			err = partly(err) // still moved: the change's undo sees to it
		}
		f.unlease()
		return err
	}
	f.unlease()
	return nil
}

// unlinkOld removes the old file's name from the memory dir (or a
// foreign store's temp dir) once every change is made and checked (it
// stays open, and in the journal).
func (t *txn) unlinkOld(f *fileTx) error {
	name := t.tmp(f)
	if f.op == model.OpDelete {
		name = asideName(t.j.m.ID, f.idx)
	}
	if err := sys.unlink(f.tdir(), name); err != nil && !isNotExist(err) {
		return err
	}
	return fsyncDir(f.tdir())
}
