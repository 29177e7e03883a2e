package memfs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"
)

// memtui's own state files carry a format version (docs/STATE.md lists
// them all). What a memtui does with one depends on that version:
//
//   - its own format: read;
//   - an older format: migrated as it is read, one step per version
//     (stateKind.up); the save that replaces it first keeps the file as it
//     was beside it (<file>.v<N>.bak), and the next save, finding the new
//     format on disk, removes that copy;
//   - a newer format (a later memtui's): never replaced nor removed, and
//     not read: the caller says so (ErrNewerFormat) and goes on without it;
//   - a file that cannot be read back (not JSON, cut short, another dir's):
//     never replaced in place; a caller that would start a new one moves it
//     aside first (setAside) and names where it went.

// ErrNewerFormat says a state file was written by a later memtui, in a
// format this one does not read: it is left as it is.
var ErrNewerFormat = errors.New("written by a newer memtui")

// ErrCorruptState says a state file cannot be read back as memtui wrote
// it (not JSON, cut short, another memory dir's).
var ErrCorruptState = errors.New("cannot be read back")

// StateError says why one of memtui's own state files was not used, and
// what became of it. It matches ErrNewerFormat or ErrCorruptState.
type StateError struct {
	// What names the kind of file ("review baseline").
	What string
	Path string
	// Version is the file's format and Known this memtui's, when the file
	// is of a newer format.
	Version, Known int
	// Aside is where the file was moved ("" when it was left in place).
	Aside string
	// Refused says a save did not replace the file.
	Refused bool
	// Err is ErrNewerFormat, or the reason the file cannot be read.
	Err error
}

func (e *StateError) Error() string {
	var s string
	if errors.Is(e.Err, ErrNewerFormat) {
		s = fmt.Sprintf("%s %s is in format %d, written by a newer memtui (this one reads format %d and older): left as it is", e.What, e.Path, e.Version, e.Known)
	} else {
		s = fmt.Sprintf("%s %s cannot be read back (%v)", e.What, e.Path, e.Err)
		if e.Aside != "" {
			s += ": moved aside to " + e.Aside
		} else {
			s += ": left as it is"
		}
	}
	if e.Refused {
		s += "; not replaced"
	}
	return s
}

// Unwrap gives ErrNewerFormat, or ErrCorruptState and the reason.
func (e *StateError) Unwrap() []error {
	if errors.Is(e.Err, ErrNewerFormat) {
		return []error{e.Err}
	}
	return []error{ErrCorruptState, e.Err}
}

// stateKind is one kind of versioned JSON state file.
type stateKind struct {
	what string
	// key is the top-level field holding the format version; a document
	// without it is of format 0.
	key     string
	version int
	// up[n] turns a document of format n into format n+1, in place. A
	// format with no step cannot be read (format 0 of a kind that always
	// carried its version is not memtui's).
	up map[int]func(doc map[string]json.RawMessage) error
}

func (k *stateKind) corrupt(path string, err error) *StateError {
	return &StateError{What: k.what, Path: path, Err: err}
}

func (k *stateKind) newer(path string, v int) *StateError {
	return &StateError{What: k.what, Path: path, Version: v, Known: k.version, Err: ErrNewerFormat}
}

// decode reads raw, a document of kind k from path, into out (the
// current format's struct), migrating an older format first. It returns
// the format the document was in; a *StateError when it is newer or
// cannot be read.
func (k *stateKind) decode(path string, raw []byte, out any) (int, error) {
	v, err := peekVersion(bytes.NewReader(raw), k.key)
	if err != nil {
		return 0, k.corrupt(path, err)
	}
	if v > k.version {
		return v, k.newer(path, v)
	}
	if v < k.version {
		if raw, err = k.migrate(raw, v); err != nil {
			return v, k.corrupt(path, err)
		}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return v, k.corrupt(path, err)
	}
	return v, nil
}

// migrate brings raw, of format v, to the current format.
func (k *stateKind) migrate(raw []byte, v int) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	for ; v < k.version; v++ {
		step := k.up[v]
		if step == nil {
			if v == 0 {
				return nil, fmt.Errorf("no %q field: not a file memtui wrote", k.key)
			}
			return nil, fmt.Errorf("format %d, which this memtui cannot read", v)
		}
		if err := step(doc); err != nil {
			return nil, fmt.Errorf("format %d: %w", v, err)
		}
	}
	doc[k.key] = json.RawMessage(strconv.Itoa(k.version))
	return json.Marshal(doc)
}

// peekVersion reads the format version of the JSON object r holds: the
// top-level field key, 0 when there is none. It stops decoding at that
// field, which a file memtui wrote has first (the caller has the bytes in
// hand already: a baseline is inflated whole, to be checked whole).
// Not an object, or a version that is not a whole number from 0 up, is an
// error.
func peekVersion(r io.Reader, key string) (int, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return 0, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return 0, errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, err
		}
		if name, _ := tok.(string); name == key {
			var n json.RawMessage
			if err := dec.Decode(&n); err != nil {
				return 0, fmt.Errorf("%s: %w", key, err)
			}
			// A bare whole number: "1" (a string) is not one.
			v, err := strconv.Atoi(string(n))
			if err != nil || v < 0 {
				return 0, fmt.Errorf("%s %.20s is not a format version", key, n)
			}
			return v, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace: not cut short
		return 0, err
	}
	return 0, nil
}

// bakName is where the save that replaces a file of format v keeps it.
func bakName(path string, v int) string { return path + ".v" + strconv.Itoa(v) + ".bak" }

// beforeSave checks the file a save of kind k is about to replace at
// path; onDisk reads its format (fs.ErrNotExist when there is none). A
// newer format's file, or one that cannot be read, is not replaced (the
// error says so); an older format's is copied to bakName first. done is
// to be called once the save succeeded: when the file on disk was of the
// current format, a copy of an older one kept by an earlier save has
// served (its migration was written and read back) and goes.
func (k *stateKind) beforeSave(path string, onDisk func() (int, error)) (done func(), err error) {
	v, err := onDisk()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return func() {}, nil
	case err != nil:
		e := k.corrupt(path, err)
		e.Refused = true
		return nil, e
	case v > k.version:
		e := k.newer(path, v)
		e.Refused = true
		return nil, e
	case v < k.version:
		if err := keepCopy(path, bakName(path, v)); err != nil {
			return nil, fmt.Errorf("%s %s is in format %d: not replaced, its copy could not be kept: %w", k.what, path, v, err)
		}
		return func() {}, nil
	}
	return func() {
		for n := 0; n < k.version; n++ {
			os.Remove(bakName(path, n))
		}
	}, nil
}

// maxKeptCopyBytes bounds the copy beforeSave keeps of an older file: the
// largest state file (a baseline) is capped below it.
const maxKeptCopyBytes = 1 << 30

// keepCopy copies the file at src to a new owner-only file dst, synced;
// a dst already there is the first copy, and stays.
func keepCopy(src, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	b, err := readFile(src, maxKeptCopyBytes, noFollow)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}

// setAside moves the state file at path out of the way, beside it, under
// a name that says when and why (<file>.unreadable-<UTC time>), and
// returns that name. Nothing is deleted: a person can look at it, and a
// later memtui may read it.
func setAside(path string, now time.Time) (string, error) {
	base := path + ".unreadable-" + now.UTC().Format("20060102T150405Z")
	for i := 0; ; i++ {
		p := base
		if i > 0 {
			p = base + "-" + strconv.Itoa(i)
		}
		if _, err := os.Lstat(p); err == nil {
			if i < 100 {
				continue
			}
			return "", fmt.Errorf("no free name beside %s", path)
		}
		if err := os.Rename(path, p); err != nil {
			return "", err
		}
		return p, nil
	}
}

// SetAside moves the state file a *StateError of a file that cannot be
// read back names out of the way (see setAside) and records where in the
// error; any other error is returned as it is, and nothing is moved.
func SetAside(err error, now time.Time) error {
	var se *StateError
	if !errors.As(err, &se) || !errors.Is(err, ErrCorruptState) || se.Aside != "" {
		return err
	}
	aside, merr := setAside(se.Path, now)
	if merr != nil {
		return fmt.Errorf("%w; it could not be moved aside: %v", err, merr)
	}
	c := *se
	c.Aside = aside
	return &c
}

// MovedAside reports whether err says a state file was moved aside (its
// *StateError names where).
func MovedAside(err error) bool {
	var se *StateError
	return errors.As(err, &se) && se.Aside != ""
}

// formatOnDisk adapts a load to stateKind.beforeSave: the format of the file
// there, a newer one included, or why it cannot be read.
func formatOnDisk(v int, err error) (int, error) {
	var se *StateError
	switch {
	case errors.Is(err, ErrNewerFormat):
		return v, nil
	case errors.As(err, &se):
		return v, se.Err
	}
	return v, err
}
