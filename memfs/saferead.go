package memfs

// The one safe reader. Every read of a path that came from disk or from a
// record (the journal, the transcript cache, a transcript listing, the
// user's settings) goes through it; TestNoPlainReads keeps it that way.
// What it guarantees, whoever put what at the path:
//
//   - it never blocks on open: O_NONBLOCK, so a FIFO with no writer opens
//     at once, and is then refused;
//   - it reads regular files only: a FIFO, device (/dev/zero), socket or
//     directory is an error naming the path and what it is;
//   - it reads at most a cap the caller chooses: a file fstat says is
//     bigger is refused before a byte is read, and one that grows while
//     being read is refused when it passes the cap;
//   - it does not follow a symlink a record named (noFollow), and inside a
//     directory (readIn, openIn) it walks down from the directory one
//     component at a time, following no symlink on the way.
//
// Refusals are *fs.PathError values whose Err says what the path is
// ("a named pipe, not a regular file; not read"); errors.Is tells the kind:
// errNotRegular, errSymlink, errTooLarge.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memtui/memtui/model"
)

// MaxImageBytes caps a file memtui wrote or may write: a journal
// before-image, the memory file an after-hash is compared with, the write
// path's reads of the files it changes, a scratch file. memtui analyses at
// most 1 MiB of a memory file (DefaultMaxFileBytes) and can only update a
// file whose whole content it hashed, so what it writes is small; the
// headroom is for a reindexed MEMORY.md of a huge directory. It is
// exported for memfs/txn, which reads the files it changes from a
// descriptor it holds (ReadCapped) under this cap. (The journal
// manifest's cap is memfs/txn's own.)
const MaxImageBytes int64 = 64 << 20

// linkPolicy says whether the last component of a path may be a symlink.
type linkPolicy bool

const (
	// noFollow: a path a record named (journal, cache, transcript, a
	// memory file memtui wrote) or memtui's own state. A symlink there
	// was put by someone else; it is refused, not followed.
	noFollow linkPolicy = false
	// followLinks: a file the user keeps where they like (a settings.json
	// or config.yaml symlinked from a dotfiles repo), followed as Claude
	// Code follows it. The target must still be a regular file.
	followLinks linkPolicy = true
)

var (
	// errSymlink marks a symlink the reader did not follow.
	errSymlink = errors.New("a symlink")
	// errTooLarge marks a file bigger than the reader's cap.
	errTooLarge = errors.New("too large")
)

// refusal says why the reader refused a path, in words fit for a problem
// line; errors.Is sees its kind.
type refusal struct {
	msg  string
	kind error
}

func (r *refusal) Error() string { return r.msg }
func (r *refusal) Unwrap() error { return r.kind }

// IsRefused reports whether err is the safe reader refusing what it found
// at a path (a symlink it does not follow, something that is not a
// regular file, a file over the cap, a path that leaves its directory):
// what is there is not a file memtui could have written, as opposed to a
// file that could not be read (permission, I/O). It is exported for
// memfs/snapshot, which drops such an entry from its own store and keeps
// one it could not read.
func IsRefused(err error) bool {
	var r *refusal
	return errors.As(err, &r)
}

func refused(path, msg string, kind error) error {
	return &fs.PathError{Op: "open", Path: path, Err: &refusal{msg: msg, kind: kind}}
}

func notRegularErr(path string, m fs.FileMode) error {
	return refused(path, "a "+model.FileKind(m)+", not a regular file; not read", errNotRegular)
}

func symlinkErr(path, which string) error {
	if which == "" {
		return refused(path, "a symlink; not followed", errSymlink)
	}
	return refused(path, which+" is a symlink; not followed", errSymlink)
}

func tooLargeErr(path string, size, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: &refusal{
		msg:  sizeText(size) + ", more than the " + sizeText(max) + " memtui reads of such a file; not read",
		kind: errTooLarge,
	}}
}

func grewErr(path string, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: &refusal{
		msg:  "grew past the " + sizeText(max) + " memtui reads of such a file while being read; not read",
		kind: errTooLarge,
	}}
}

// sizeText is a size as a person reads it: "512 bytes", "1 MiB", "2.8 GiB".
func sizeText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(n)/unit, 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// openRead opens the regular file at path for reading, never blocking,
// and returns it with its FileInfo. links says whether a symlink as the
// last component is followed. The caller closes the file and reads at
// most a cap of its own (readOpened, or an io.LimitReader for a stream).
func openRead(path string, links linkPolicy) (*os.File, fs.FileInfo, error) {
	return openPlatform(path, links)
}

// readFile reads the whole regular file at path, at most max bytes (a
// bigger file is an error, never a truncated read).
func readFile(path string, max int64, links linkPolicy) ([]byte, error) {
	f, fi, err := openRead(path, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpened(f, fi.Size(), max)
}

// ReadRegular reads the whole regular file at path, at most max bytes,
// refusing a symlink (noFollow). It is exported for memfs/transcript,
// which reads its own cache file with it (a file memtui wrote, so a link
// or a FIFO there was put by someone else) and keeps no reader of its own,
// and for memfs/txn, which reads /proc/<pid>/comm with it (is a lock's
// holder another memtui).
func ReadRegular(path string, max int64) ([]byte, error) {
	return readFile(path, max, noFollow)
}

// openIn opens the regular file rel (slash-separated, relative, no "."
// or ".." components) inside dir. dir itself is opened as given (symlinks
// in it are the user's own), everything below it without following a
// symlink: a record that names a path inside a directory cannot be turned
// into a read of something outside it by a link anywhere on the way.
func openIn(dir, rel string) (*os.File, fs.FileInfo, error) {
	parts, err := relParts(dir, rel)
	if err != nil {
		return nil, nil, err
	}
	return openInPlatform(dir, parts)
}

// readIn reads the regular file rel inside dir (as openIn), at most max
// bytes.
func readIn(dir, rel string, max int64) ([]byte, error) {
	f, fi, err := openIn(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpened(f, fi.Size(), max)
}

// ReadIn reads the regular file rel inside dir (as readIn), at most max
// bytes. It is exported for memfs/txn, which reads a journal manifest
// with it under the manifest's own cap, from inside the journal without
// following a link.
func ReadIn(dir, rel string, max int64) ([]byte, error) {
	return readIn(dir, rel, max)
}

// ReadImage reads the regular file rel inside dir (as readIn), at most
// MaxImageBytes: a file memtui wrote. It is exported for memfs/transcript,
// which reads the journal's before-images and the memory files an
// after-hash is compared with, and for memfs/txn, whose journal reads
// them: both through the same walk down from dir that follows no symlink.
func ReadImage(dir, rel string) ([]byte, error) {
	return readIn(dir, rel, MaxImageBytes)
}

// readOpened reads f from where it stands to its end. size is what fstat
// said: above max it is refused at once; otherwise the buffer is sized for
// it, and reading stops (refused) if the file grows past max meanwhile.
func readOpened(f *os.File, size, max int64) ([]byte, error) {
	return ReadCapped(f, f.Name(), size, max)
}

// ReadCapped is readOpened for any reader (a pread-based SectionReader of
// a descriptor the write path holds); name is for the error. It is
// exported for memfs/txn, which reads the files it changes from the
// descriptors it holds across its checks, so that those reads are bounded
// as every other read is.
func ReadCapped(r io.Reader, name string, size, max int64) ([]byte, error) {
	if size > max {
		return nil, tooLargeErr(name, size, max)
	}
	if size < 0 {
		size = 0
	}
	buf := make([]byte, 0, size+1) // +1: EOF is seen without growing
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, grewErr(name, max)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadDir lists the directory at path, sorted by name (os.ReadDir, with
// openDir's open: a FIFO put where a directory was is an error, not a
// hang). It is exported for memfs/transcript, which lists transcript
// folders with it, and for memfs/txn, which lists the journal with it.
func ReadDir(path string) ([]fs.DirEntry, error) {
	f, err := openDir(path)
	if err != nil {
		return nil, err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// OpenDir opens the directory at path as openDir does (a FIFO put where a
// directory was is an error, not a hang). It is exported for memfs/txn,
// which opens the journal's folders with it to fsync them.
func OpenDir(path string) (*os.File, error) {
	return openDir(path)
}

// relParts splits rel into its components, refusing anything that is not
// a clean relative path (a record could hold "../../etc/passwd").
func relParts(dir, rel string) ([]string, error) {
	bad := func(why string) error {
		return &fs.PathError{Op: "open", Path: dir + string(os.PathSeparator) + rel, Err: &refusal{msg: why + "; not read", kind: fs.ErrInvalid}}
	}
	if rel == "" || strings.HasPrefix(rel, "/") || strings.ContainsAny(rel, "\x00\\") || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return nil, bad("not a clean relative path")
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		switch p {
		case "", ".":
			return nil, bad("not a clean relative path")
		case "..":
			return nil, bad("the path leaves its directory (..)")
		}
	}
	return parts, nil
}
