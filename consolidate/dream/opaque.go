package dream

import (
	"bytes"
	"unicode/utf8"
)

// Files memtui cannot represent as text (NUL bytes, bytes that are not
// UTF-8: a binary file, a UTF-16 one, a Latin-1 one) are "opaque": the
// encoding finding reports them, and nothing else touches them. No
// proposal of any kind rewrites or deletes one, or copies text out of one
// into another file or the index: what memtui would write is its own
// reading of bytes it does not understand (a UTF-8 block prepended to
// UTF-16 text, a description made of garbage). Such a file is left for a
// person to re-save as UTF-8; after that it is an ordinary memory.

// isText reports whether memtui can represent content as text, and so
// read text out of it and rewrite it: UTF-8 without NUL bytes. (A UTF-8
// byte-order mark is text; the encoding finding still reports it.)
func isText(content []byte) bool {
	return bytes.IndexByte(content, 0) < 0 && utf8.Valid(content)
}

// opaque reports whether the file at path ("MEMORY.md" for the index) is
// one memtui cannot represent as text.
func (s *dreamState) opaque(path string) bool {
	if v, ok := s.opaqueMemo[path]; ok {
		return v
	}
	f := s.file(path)
	v := f != nil && !isText(f.Content)
	s.opaqueMemo[path] = v
	return v
}

// touchesOpaque reports whether a proposal changes a file memtui cannot
// represent as text, or records one as read (its text went into the
// proposal).
func (s *dreamState) touchesOpaque(changes []string, reads []string) bool {
	for _, p := range changes {
		if s.opaque(p) {
			return true
		}
	}
	for _, p := range reads {
		if s.opaque(p) {
			return true
		}
	}
	return false
}
