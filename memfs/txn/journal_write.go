package txn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// entry is a journal entry being written or recovered.
type entry struct {
	root  string
	dir   string
	delfd int // <dir>/deleted
	m     JournalEntry
	// keep holds delfd open past the commit: a linked transaction may
	// still roll a committed part back (its partner's commit failed).
	keep bool
	// tempfd is a foreign store's temp dir, where the entry's temp names
	// are (borrowed: the session closes it); -1 when they are beside the
	// files.
	tempfd int
}

// tdir is the folder of the temp names of a file in the folder dirfd:
// the foreign store's temp dir, else dirfd itself.
func (j *entry) tdir(dirfd int) int {
	if j.tempfd >= 0 {
		return j.tempfd
	}
	return dirfd
}

func (s *session) newEntry(meta txnMeta, files []*fileTx) (*entry, error) {
	root := s.opts.JournalRoot
	if err := os.MkdirAll(filepath.Join(root, pendingDir), 0o700); err != nil {
		return nil, err
	}
	now := s.opts.Now()
	j := &entry{root: root, delfd: -1, tempfd: s.tempfd, m: JournalEntry{Version: journalVersion, ProposalID: meta.proposalID, Kind: meta.kind,
		Title: meta.title, MemoryDir: s.dir, RealDir: s.realDir, Time: now.UTC(), State: JournalPrepared, UndoOf: meta.undoOf,
		ForeignTempDir: s.tempDir}}
	for {
		j.m.ID = newJournalID(now)
		j.dir = filepath.Join(root, j.m.ID)
		err := os.Mkdir(j.dir, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
	}
	for _, d := range []string{"before", "deleted"} {
		if err := os.Mkdir(filepath.Join(j.dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		jf := JournalFile{Path: f.path, From: f.from, Op: string(f.op), State: "pending", Mode: f.mode}
		if f.op == model.OpMove {
			// Where the folders it makes go: a rollback or an undo
			// removes those it leaves empty.
			parent := path.Dir(f.path)
			for i := len(f.missing) - 1; i >= 0; i-- {
				jf.Dirs = append(jf.Dirs, parent)
				parent = path.Dir(parent)
			}
			slices.Reverse(jf.Dirs)
		}
		if f.op != model.OpCreate {
			jf.Before = f.base
			jf.Mtime = f.oldTimes[1]
			jf.Image = "before/" + strconv.Itoa(f.idx)
			if err := writeNewFile(filepath.Join(j.dir, jf.Image), f.before); err != nil {
				return nil, err
			}
		} else {
			jf.Mode = f.spec.mode
		}
		switch f.op {
		case model.OpDelete:
		case model.OpMove:
			jf.After = f.base // the same bytes, at the new path
		default:
			jf.After = sumHex(f.after)
		}
		j.m.Files = append(j.m.Files, jf)
	}
	if err := fsyncPath(filepath.Join(j.dir, "before")); err != nil {
		return nil, err
	}
	if err := j.save(); err != nil {
		return nil, err
	}
	if err := writeNewFile(filepath.Join(root, pendingDir, j.m.ID), nil); err != nil {
		return nil, err
	}
	for _, d := range []string{filepath.Join(root, pendingDir), root} {
		if err := fsyncPath(d); err != nil {
			return nil, err
		}
	}
	if err := j.openDeleted(); err != nil {
		return nil, err
	}
	return j, nil
}

// openDeleted opens the entry's deleted/ dir, where deletes are moved.
func (j *entry) openDeleted() error {
	fd, err := sys.openDir(atCWD, filepath.Join(j.dir, "deleted"))
	if err != nil {
		return err
	}
	j.delfd = fd
	return nil
}

// save writes the manifest atomically and durably.
func (j *entry) save() error {
	b, err := json.MarshalIndent(&j.m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(j.dir, manifestName), append(b, '\n'), j.dir); err != nil {
		return err
	}
	if err := fsyncPath(j.dir); err != nil {
		return err
	}
	if j.m.State != JournalPrepared {
		if err := os.Remove(filepath.Join(j.root, pendingDir, j.m.ID)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if !j.keep {
			j.release()
		}
	}
	return nil
}

// release closes the entry's deleted/ dir.
func (j *entry) release() {
	if j.delfd >= 0 {
		sys.close(j.delfd)
	}
	j.delfd = -1
}

// openEntry opens an existing entry for recovery; tempfd is its foreign
// store's temp dir, -1 for none.
func openEntry(root string, m *JournalEntry, tempfd int) (*entry, error) {
	j := &entry{root: root, dir: filepath.Join(root, m.ID), m: *m, delfd: -1, tempfd: tempfd}
	if err := os.MkdirAll(filepath.Join(j.dir, "deleted"), 0o700); err != nil {
		return nil, err
	}
	if err := j.openDeleted(); err != nil {
		return nil, err
	}
	return j, nil
}

// undoFile is the undo of change i, in a transaction in flight or one a
// crash interrupted: rollbackFile, and the file marked rolled back. What
// it could not put back cleanly (and where it kept the bytes) is its
// error, a note of the entry.
func (j *entry) undoFile(rootfd, i int, held *os.File) error {
	note := j.rollbackFile(rootfd, i, held)
	j.m.Files[i].State = "rolled_back"
	if note != "" {
		return errors.New(note)
	}
	return nil
}

// rolledBack records a rollback: what the undos reported, in the order
// they ran, goes into the entry's notes, and the entry is marked rolled
// back (no longer pending).
func (j *entry) rolledBack(undoErrs []error) error {
	for _, err := range undoErrs {
		j.m.Notes = append(j.m.Notes, err.Error())
	}
	j.m.State = JournalRolledBack
	return j.save()
}

// rollbackFile puts change i's file back as it was, judging from what is on
// disk (so it serves a transaction in flight and a crashed one alike). held,
// when known, is the old file kept open: its current bytes are what goes
// back, with anything an agent wrote into it. It never overwrites a file
// that is neither memtui's version nor absent; what it cannot put back it
// keeps in the journal and says so in the returned note.
func (j *entry) rollbackFile(rootfd, i int, held *os.File) string {
	jf := j.m.Files[i]
	if model.ChangeOp(jf.Op) == model.OpMove {
		return j.rollbackMove(rootfd, i, held)
	}
	dirfd, name, err := openParent(rootfd, jf.Path)
	if err != nil {
		return jf.Path + ": not rolled back: " + err.Error()
	}
	defer sys.close(dirfd)
	// The temp names are beside the file, or in a foreign store's temp dir.
	tfd := j.tdir(dirfd)
	tmp := tmpName(j.m.ID, i)
	sys.unlink(tfd, tmp+".part") // a temp file cut short by a crash
	cur, curOK, err := readAt(dirfd, name, jf.Path)
	if err != nil {
		return jf.Path + ": not rolled back: " + err.Error()
	}
	ours := curOK && sumHex(cur) == jf.After
	tb, tmpOK, _ := readAt(tfd, tmp, tmp)
	defer fsyncDirs(dirfd, tfd)
	switch model.ChangeOp(jf.Op) {
	case model.OpUpdate:
		if tmpOK && sumHex(tb) != jf.After {
			// The temp name holds the old file, swapped out.
			if !ours {
				if sumHex(tb) == jf.Before {
					sys.unlink(tfd, tmp) // the old version, as in the before-image
					return ""
				}
				return j.salvage(tfd, tmp, jf.Path, i, "the file changed after memtui replaced it")
			}
			if err := exchangeAt(tfd, tmp, dirfd, name); err != nil {
				return jf.Path + ": not rolled back: " + err.Error()
			}
			if !settledAs(tfd, tmp, jf.After) {
				return j.salvage(tfd, tmp, jf.Path, i, "an agent wrote to memtui's version before the rollback")
			}
			sys.unlink(tfd, tmp)
			return ""
		}
		if tmpOK {
			sys.unlink(tfd, tmp) // our new version, never swapped in
		}
		if !ours {
			if held != nil {
				// The old file, out of sight, got an agent's write that its
				// replacement at the path does not have: keep it.
				if b, err := readAllFrom(held); err == nil && sumHex(b) != jf.Before {
					return j.keepCopy(b, jf.Path, i, "an agent wrote to the replaced file and another replaced memtui's version")
				}
			}
			return ""
		}
		content, err := j.image(jf)
		times := jf.times()
		if held != nil {
			content, err = readAllFrom(held)
			times = heldTimes(held, times)
		}
		if err != nil {
			return jf.Path + ": not rolled back: " + err.Error()
		}
		return j.replaceContent(tfd, dirfd, name, tmp, content, jf.Mode, times, jf.After, jf.Path, i)
	case model.OpDelete:
		aside := asideName(j.m.ID, i)
		_, asideOK, _ := lstatAt(tfd, aside)
		_, exists, _ := lstatAt(dirfd, name)
		if exists {
			if asideOK {
				return j.salvage(tfd, aside, jf.Path, i, "a new file took its place")
			}
			return ""
		}
		if asideOK {
			if err := sys.link(tfd, aside, dirfd, name); err != nil {
				return j.salvage(tfd, aside, jf.Path, i, err.Error())
			}
			sys.unlink(tfd, aside)
			return ""
		}
		moved := strconv.Itoa(i)
		if _, ok, _ := lstatAt(j.delfd, moved); ok {
			if err := sys.link(j.delfd, moved, dirfd, name); err == nil {
				sys.unlink(j.delfd, moved)
				return ""
			}
		}
		content, err := j.image(jf)
		if err != nil {
			return jf.Path + ": not rolled back: " + err.Error()
		}
		times := jf.times()
		if held != nil {
			if b, err := readAllFrom(held); err == nil {
				content = b
				times = heldTimes(held, times)
			}
		}
		return createContent(tfd, dirfd, name, tmp, content, jf.Mode, times, jf.Path)
	case model.OpCreate:
		if tmpOK {
			sys.unlink(tfd, tmp)
		}
		if !ours {
			return ""
		}
		return j.unmakeCreated(dirfd, name, tmp, i)
	}
	return ""
}

// unmakeCreated takes the file change i created (at name in dirfd) out
// of the memory dir into the journal's deleted/, unless someone wrote to
// it meanwhile. Where the journal is on another file system, a foreign
// store's file goes through its temp dir (renamed there as tmp, copied
// into the journal), since nothing may be left beside it.
func (j *entry) unmakeCreated(dirfd int, name, tmp string, i int) string {
	jf := j.m.Files[i]
	kept := "created-" + strconv.Itoa(i)
	mfd, moved := j.delfd, kept
	err := sys.rename(dirfd, name, mfd, moved)
	if err != nil && isCrossDevice(err) && j.tempfd >= 0 {
		mfd, moved = j.tempfd, tmp
		err = sys.rename(dirfd, name, mfd, moved)
	}
	if err != nil {
		return jf.Path + ": not rolled back: " + err.Error()
	}
	if b, ok, _ := readAt(mfd, moved, moved); ok && sumHex(b) != jf.After {
		// Written to just now: put it back.
		if err := sys.link(mfd, moved, dirfd, name); err == nil {
			sys.unlink(mfd, moved)
			return jf.Path + ": left in place: written by someone else during the rollback"
		}
		if mfd != j.delfd {
			return j.salvage(mfd, moved, jf.Path, i, "written by someone else during the rollback")
		}
		return jf.Path + ": written by someone else during the rollback; kept at " + filepath.Join(j.dir, "deleted", moved)
	}
	if mfd != j.delfd {
		if err := copyFileAt(mfd, moved, filepath.Join(j.dir, "deleted", kept)); err != nil {
			return j.salvage(mfd, moved, jf.Path, i, "rolled back; the copy into the journal failed ("+err.Error()+")")
		}
		sys.unlink(mfd, moved)
	}
	return ""
}

// rollbackMove puts a moved file back at its source, judging from disk
// as rollbackFile does, and removes the folders the move made if they are
// empty. The file at the destination goes back when it is the one moved
// (held's inode, or without held, the moved bytes) or when the source is
// free and nothing else can have put it there; the same file under both
// names (a crash between the link and the unlink of moveAt) loses its new
// name; a file gone from both places is made again at the source from
// the before-image, with its recorded mtime. Nothing is ever moved over a
// file: one that took the source's place leaves the moved file where it
// is, and the note says where.
func (j *entry) rollbackMove(rootfd, i int, held *os.File) string {
	jf := j.m.Files[i]
	defer removeEmptyDirs(rootfd, jf.Dirs)
	sfd, sname, err := openParent(rootfd, jf.From)
	if err != nil {
		return jf.From + ": not moved back: " + err.Error()
	}
	defer sys.close(sfd)
	defer fsyncDir(sfd)
	sst, srcOK, _ := lstatAt(sfd, sname)
	dfd, dname, err := openParent(rootfd, jf.Path)
	dstOK := false
	var dst fileStat
	if err == nil {
		defer sys.close(dfd)
		defer fsyncDir(dfd)
		dst, dstOK, _ = lstatAt(dfd, dname)
	}
	if dstOK && dst.kind != kindReg {
		dstOK = false // a link or a folder someone put there is not the file moved
	}
	ours := func() bool {
		if held != nil {
			hs, err := sys.fstatFile(held)
			return err == nil && hs.same(&dst)
		}
		b, ok, _ := readAt(dfd, dname, jf.Path)
		return ok && sumHex(b) == jf.Before
	}
	switch {
	case dstOK && srcOK && sst.same(&dst):
		sys.unlink(dfd, dname)
		return ""
	case dstOK && srcOK:
		if ours() {
			return jf.From + ": not moved back: a new file took its place; the file memtui moved is left at " + jf.Path
		}
		return ""
	case dstOK:
		// The source is free: whatever stands at the destination came
		// from the move (memtui made sure nothing was there), with any
		// write an agent made to it since.
		if err := moveAt(dfd, dname, sfd, sname); err != nil {
			return jf.From + ": not moved back from " + jf.Path + ": " + err.Error()
		}
		return ""
	case srcOK:
		return "" // never moved, or back already
	}
	content, err := j.image(jf)
	times := jf.times()
	if held != nil {
		if b, err2 := readAllFrom(held); err2 == nil {
			content, err = b, nil
			times = heldTimes(held, times)
		}
	}
	if err != nil {
		return jf.From + ": not restored: " + err.Error()
	}
	return createContent(j.tdir(sfd), sfd, sname, tmpName(j.m.ID, i), content, jf.Mode, times, jf.From)
}

// times are the atime and mtime a file put back from its before-image
// gets: its recorded mtime, or nil (now) for an entry without one.
func (jf JournalFile) times() *ftimes {
	if jf.Mtime == 0 {
		return nil
	}
	return &ftimes{jf.Mtime, jf.Mtime}
}

// heldTimes are the times of the old file kept open: its bytes go back,
// with the mtime of whoever wrote them last.
func heldTimes(held *os.File, def *ftimes) *ftimes {
	st, err := sys.fstatFile(held)
	if err != nil {
		return def
	}
	return &ftimes{st.atime, st.mtime}
}

func (j *entry) image(jf JournalFile) ([]byte, error) {
	if jf.Image == "" {
		return nil, errors.New("no before-image")
	}
	return memfs.ReadImage(j.dir, jf.Image)
}

// settledAs waits until nobody has name (in dirfd) open for writing, then
// reports whether its bytes hash to want: a file memtui swapped out of
// sight may still be receiving an agent's write.
func settledAs(dirfd int, name, want string) bool {
	f, _, err := openRegularAt(dirfd, name, name)
	if err != nil {
		return false
	}
	defer f.Close()
	deadline := time.Now().Add(writerWait)
	for {
		busy, ok := openForWriting(f)
		if !ok {
			time.Sleep(writerSettle)
			break
		}
		if !busy || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Microsecond)
	}
	b, err := readAllFrom(f)
	return err == nil && sumHex(b) == want
}

// salvageDst is a new name in the journal's salvage folder for bytes of
// change i (path rel): "<i>-<base>", then "<i>-<n>-<base>".
func (j *entry) salvageDst(rel string, i int) string {
	sd := filepath.Join(j.dir, "salvage")
	os.MkdirAll(sd, 0o700)
	dst := filepath.Join(sd, strconv.Itoa(i)+"-"+filepath.Base(rel))
	for n := 2; ; n++ {
		if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
			return dst
		}
		dst = filepath.Join(sd, strconv.Itoa(i)+"-"+strconv.Itoa(n)+"-"+filepath.Base(rel))
	}
}

// keepCopy writes b into the journal's salvage folder and returns the note
// that says so.
func (j *entry) keepCopy(b []byte, rel string, i int, why string) string {
	dst := j.salvageDst(rel, i)
	if err := writeNewFile(dst, b); err != nil {
		return fmt.Sprintf("%s: %s; its bytes could not be kept: %v", rel, why, err)
	}
	fsyncPath(filepath.Dir(dst))
	return fmt.Sprintf("%s: %s; a copy is kept at %s", rel, why, dst)
}

// salvage moves name (in dirfd) into the journal's salvage folder.
func (j *entry) salvage(dirfd int, name, rel string, i int, why string) string {
	dst := j.salvageDst(rel, i)
	sd := filepath.Dir(dst)
	if err := sys.rename(dirfd, name, atCWD, dst); err != nil {
		if err := copyFileAt(dirfd, name, dst); err != nil {
			where := "in the memory dir"
			if j.tempfd >= 0 && dirfd == j.tempfd {
				where = "in memtui's temp dir " + j.m.ForeignTempDir
			}
			return fmt.Sprintf("%s: %s; its earlier version is left at %s %s", rel, why, name, where)
		}
		sys.unlink(dirfd, name)
	}
	// Kept bytes are private, whatever mode they had. What an agent put in
	// place may be a symlink: its target is not memtui's to chmod.
	if fi, err := os.Lstat(dst); err == nil && fi.Mode().IsRegular() {
		os.Chmod(dst, 0o600)
	}
	fsyncPath(sd)
	return fmt.Sprintf("%s: %s; the version memtui replaced is kept at %s", rel, why, dst)
}

// replaceContent swaps content in at name (in dirfd) if name still
// holds expect (compared on the file swapped out; swapped back
// otherwise). Its temp name tmp is in tfd.
func (j *entry) replaceContent(tfd, dirfd int, name, tmp string, content []byte, mode uint32, times *ftimes, expect, rel string, i int) string {
	if err := writeTempAt(tfd, tmp, content, mode, times); err != nil {
		return rel + ": not rolled back: " + err.Error()
	}
	if err := exchangeAt(tfd, tmp, dirfd, name); err != nil {
		sys.unlink(tfd, tmp)
		return rel + ": not rolled back: " + err.Error()
	}
	if b, ok, _ := readAt(tfd, tmp, tmp); !ok || sumHex(b) != expect {
		// Someone replaced memtui's version just before the swap: put
		// theirs back. Our restored content was at the path for a moment,
		// so an agent may have built on it and renamed its own version in
		// since: what comes back out is deleted only if it is exactly what
		// memtui wrote, and kept in the journal otherwise.
		exchangeAt(tfd, tmp, dirfd, name)
		if settledAs(tfd, tmp, sumHex(content)) {
			sys.unlink(tfd, tmp)
			return rel + ": not rolled back: written by someone else during the rollback"
		}
		return j.salvage(tfd, tmp, rel, i, "written by someone else during the rollback")
	}
	sys.unlink(tfd, tmp)
	return ""
}

// createContent puts content at name (in dirfd) unless something is
// there by now, through the temp name tmp in tfd.
func createContent(tfd, dirfd int, name, tmp string, content []byte, mode uint32, times *ftimes, rel string) string {
	sys.unlink(tfd, tmp)
	if err := writeTempAt(tfd, tmp, content, mode, times); err != nil {
		return rel + ": not restored: " + err.Error()
	}
	defer sys.unlink(tfd, tmp)
	if err := sys.link(tfd, tmp, dirfd, name); err != nil {
		return rel + ": not restored: " + err.Error()
	}
	return ""
}

// Recover finishes what a crash interrupted: every journal entry that is
// not committed is rolled back (its files compared by hash, each put back
// as it was; a file someone changed since is left alone and named in the
// notes). Every memtui command runs it at startup. An entry whose memory
// dir is locked by a live memtui run is in progress, not crashed, and is
// skipped.
func Recover(journalRoot string) ([]RecoverReport, error) {
	opts := ApplyOptions{JournalRoot: journalRoot}.withDefaults()
	ids, err := memfs.ReadDir(filepath.Join(opts.JournalRoot, pendingDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []RecoverReport
	for _, e := range ids {
		id := e.Name()
		m, err := readManifest(opts.JournalRoot, id)
		if err != nil {
			out = append(out, RecoverReport{ID: id, Action: "skipped", Err: err})
			continue
		}
		if m.State != JournalPrepared {
			os.Remove(filepath.Join(opts.JournalRoot, pendingDir, id))
			out = append(out, RecoverReport{ID: id, MemoryDir: m.MemoryDir, Action: "finished"})
			continue
		}
		if foreignEntry(m) {
			out = append(out, RecoverReport{ID: id, MemoryDir: m.MemoryDir, Action: "skipped", Err: errForeignRecover})
			continue
		}
		s, err := openSession(context.Background(), m.RealDir, opts, true)
		if err != nil {
			out = append(out, RecoverReport{ID: id, MemoryDir: m.MemoryDir, Action: "skipped", Err: err})
			continue
		}
		out = append(out, s.recoverEntry(m))
		s.close()
	}
	return out, nil
}

// recoverHere rolls back the unfinished entries of this session's dir
// and says what it did. Each is rolled back by a session of its kind: an
// entry of a foreign store by a session that knows the store is one (its
// agent asked, its temp dir open), any other by one that took Claude
// Code's lock; the others are left pending.
func (s *session) recoverHere() []RecoverReport {
	var out []RecoverReport
	ids, _ := memfs.ReadDir(filepath.Join(s.opts.JournalRoot, pendingDir))
	for _, e := range ids {
		m, err := readManifest(s.opts.JournalRoot, e.Name())
		if err == nil && m.RealDir == s.realDir && m.State == JournalPrepared && foreignEntry(m) == (s.foreign != nil) {
			out = append(out, s.recoverEntry(m))
		}
	}
	return out
}

func (s *session) recoverEntry(m *JournalEntry) RecoverReport {
	r := RecoverReport{ID: m.ID, MemoryDir: m.MemoryDir, Action: "rolled back"}
	tempfd := -1
	if foreignEntry(m) {
		fd, opened, err := s.entryTempDir(m)
		if err != nil {
			r.Action, r.Err = "skipped", err
			return r
		}
		if opened {
			defer sys.close(fd)
		}
		tempfd = fd
	}
	j, err := openEntry(s.opts.JournalRoot, m, tempfd)
	if err != nil {
		r.Action, r.Err = "skipped", err
		return r
	}
	// The entry's changes as it recorded them, each with the undo a
	// transaction in flight would have run; which of them were made is
	// not known, so all are undone, newest first: each undo judges from
	// the disk what there is to put back.
	changes := make([]txStep, len(j.m.Files))
	for i, jf := range j.m.Files {
		changes[i] = txStep{name: "apply " + strconv.Itoa(i), path: jf.Path, undo: func() error {
			pre := s.fileState(jf)
			err := j.undoFile(s.rootfd, i, nil)
			note := ""
			if err != nil {
				note = err.Error()
			}
			r.Files = append(r.Files, recoverOutcome(jf, pre, s.fileState(jf), note))
			return err
		}}
	}
	r.Err = j.rolledBack(unwind(changes))
	r.Notes = j.m.Notes
	if len(m.Linked) > 0 {
		r.Notes = append(r.Notes, s.undoPartners(m)...)
	}
	// Oldest change first, as the entry lists them.
	slices.Reverse(r.Files)
	s.changed = true
	return r
}

// Undo restores the files of an applied proposal (journal entry id) as
// they were before it, byte for byte, as a transaction of its own (the
// entry's changes inverted, run through the same steps as any proposal's,
// with its own journal entry, so an undo can be undone). It refuses, writing
// nothing, when any of the files changed since memtui applied the
// proposal: a conflict naming the file.
func Undo(ctx context.Context, id string, opts ApplyOptions) ApplyResult {
	opts = opts.withDefaults()
	res := ApplyResult{Status: StatusFailed}
	m, err := readManifest(opts.JournalRoot, id)
	if err != nil {
		res.Err = err
		return res
	}
	res.ProposalID = m.ProposalID
	if m.State != JournalCommitted {
		res.Err = fmt.Errorf("journal entry %s is %s; only an applied proposal can be undone", id, m.State)
		return res
	}
	if model.ProposalKind(m.Kind) == model.KindRedactSecret && !opts.RestoreSecret {
		res.Err = fmt.Errorf("journal entry %s: %w", id, ErrRestoresSecret)
		return res
	}
	if foreignEntry(m) != (opts.Foreign != nil) {
		res.Err = errForeignUndo(m)
		return res
	}
	if len(m.Linked) > 0 {
		return undoLinked(ctx, m, opts)
	}
	s, err := openSession(ctx, m.RealDir, opts, false)
	if err != nil {
		res.Err = err
		return res
	}
	defer s.close()
	s.recoverHere()
	return s.undoEntry(m)
}

// undoEntry undoes the committed entry m in its own dir, held by s.
func (s *session) undoEntry(m *JournalEntry) ApplyResult {
	res := ApplyResult{ProposalID: m.ProposalID, Status: StatusFailed}
	jdir := filepath.Join(s.opts.JournalRoot, m.ID)
	specs, made, p, err := inverse(m, jdir)
	if err != nil {
		res.Path, res.Err = p, err
		return res
	}
	res = s.run(undoMeta(m), specs)
	if res.Status == StatusConflict {
		res.Err = &ConflictError{Path: res.Path, Reason: "changed since memtui applied it; undo of " + m.ID + " refused, nothing written"}
		return res
	}
	if res.Status == StatusApplied {
		// The archive folders the moves made go too, once empty.
		removeEmptyDirs(s.rootfd, made)
		if err := markUndone(s.opts.JournalRoot, m, res.JournalID); err != nil {
			res.Err = err
		}
	}
	return res
}

// undoMeta is the journal entry of the undo of m.
func undoMeta(m *JournalEntry) txnMeta {
	return txnMeta{proposalID: m.ProposalID, kind: "undo", title: "undo: " + m.Title, undoOf: m.ID, team: true}
}

// markUndone records in m's entry that entry by undid it.
func markUndone(root string, m *JournalEntry, by string) error {
	m.State, m.UndoneBy = JournalUndone, by
	j := &entry{root: root, dir: filepath.Join(root, m.ID), m: *m, delfd: -1}
	if err := j.save(); err != nil {
		return fmt.Errorf("undone, but the journal entry could not be marked: %w", err)
	}
	return nil
}

// inverse is the transaction that undoes entry m (its journal dir jdir):
// its changes inverted, newest first, each file with its recorded mode
// and mtime. made are the folders the entry's moves made. A before-image
// that cannot be read fails it, naming the file.
func inverse(m *JournalEntry, jdir string) (specs []spec, made []string, path string, err error) {
	for i := len(m.Files) - 1; i >= 0; i-- {
		jf := m.Files[i]
		var img []byte
		if jf.Image != "" {
			if img, err = memfs.ReadImage(jdir, jf.Image); err != nil {
				return nil, nil, jf.Path, fmt.Errorf("before-image: %w", err)
			}
		}
		// Each file gets its recorded mtime back, to the nanosecond: the
		// undo puts back the file as it was, not a newer-looking copy.
		switch model.ChangeOp(jf.Op) {
		case model.OpUpdate:
			specs = append(specs, spec{path: jf.Path, op: model.OpUpdate, base: jf.After, after: img, mtime: jf.Mtime})
		case model.OpCreate:
			specs = append(specs, spec{path: jf.Path, op: model.OpDelete, base: jf.After})
		case model.OpDelete:
			specs = append(specs, spec{path: jf.Path, op: model.OpCreate, after: img, mode: jf.Mode, mtime: jf.Mtime})
		case model.OpMove:
			// Moved back, with the mtime it had: its place in the recall
			// scan's ranking is its mtime, so it must not come back newer.
			specs = append(specs, spec{path: jf.From, from: jf.Path, op: model.OpMove, base: jf.After, mtime: jf.Mtime})
			made = append(made, jf.Dirs...)
		}
	}
	return specs, made, "", nil
}

// fileState is what stands at a journal file's path: "" when absent,
// "before" or "after" when it holds the entry's before or after bytes,
// "other" for anything else (or an error reading it).
func (s *session) fileState(jf JournalFile) string {
	if model.ChangeOp(jf.Op) == model.OpMove {
		return s.moveState(jf)
	}
	dirfd, name, err := openParent(s.rootfd, jf.Path)
	if err != nil {
		return "other"
	}
	defer sys.close(dirfd)
	b, ok, err := readAt(dirfd, name, jf.Path)
	switch {
	case err != nil:
		return "other"
	case !ok:
		return ""
	case jf.Before != "" && sumHex(b) == jf.Before:
		return "before"
	case jf.After != "" && sumHex(b) == jf.After:
		return "after"
	}
	return "other"
}

// moveState is fileState for a move: "before" when the file stands at its
// source only, "after" when at its destination only, "" when at neither,
// "other" for anything else (both, or other bytes).
func (s *session) moveState(jf JournalFile) string {
	at := func(rel string) (ok bool, sum string) {
		dirfd, name, err := openParent(s.rootfd, rel)
		if err != nil {
			return false, ""
		}
		defer sys.close(dirfd)
		b, ok, err := readAt(dirfd, name, rel)
		if err != nil || !ok {
			return false, ""
		}
		return true, sumHex(b)
	}
	src, ssum := at(jf.From)
	dst, dsum := at(jf.Path)
	switch {
	case !src && !dst:
		return ""
	case src && !dst && ssum == jf.Before:
		return "before"
	case dst && !src && dsum == jf.After:
		return "after"
	}
	return "other"
}

// recoverOutcome says in words what a recovery did with one file, from
// what stood at its path before and after the rollback.
func recoverOutcome(jf JournalFile, pre, post, note string) RecoverFile {
	rf := RecoverFile{Path: jf.Path}
	asBefore := post == "before" || (jf.Op == string(model.OpCreate) && post == "")
	switch {
	case asBefore && (pre == post):
		rf.RolledBack, rf.Outcome = true, "rolled back: the interrupted write had not changed it"
	case asBefore:
		rf.RolledBack, rf.Outcome = true, "rolled back: put back as it was before the interrupted write"
	case note != "":
		rf.Outcome = "not rolled back: " + note
	case post == "":
		rf.Outcome = "not rolled back: someone else removed it after the interrupted write; left absent"
	case post == "after":
		rf.Outcome = "not rolled back: it still holds what memtui wrote"
	default:
		rf.Outcome = "not rolled back: someone else changed it after the interrupted write; their version is left in place"
	}
	return rf
}
