package codex

import (
	"bytes"
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// NoteMaxBytes caps a new note's text. A note is "one small file saying
// what to add, delete or update" (facts §1.3.6): a text past this is a
// document, not a note, and Codex's consolidation would read all of it
// into every run (a note is never pruned).
const NoteMaxBytes = 64 << 10

// noteSlugWords is how many words of the text a derived slug keeps: enough
// to recognise the note in a listing, short enough to read.
const noteSlugWords = 8

// NewNote makes an ad-hoc note as Codex's add_ad_hoc_note tool would
// accept it (facts §1.3.6): its file name (NoteName: the UTC time to the
// second, then the slug) and its content, text with surrounding blank
// space trimmed and one final newline. slug "" is derived from the text:
// its first words, lowercased, every run of other characters one "-", at
// most 80 bytes; "note" when no word is left (a text in another script).
// A slug given that keeps nothing, a blank text, a text that is not UTF-8
// or holds NUL bytes, or one past NoteMaxBytes is an error. Pure: the
// caller makes sure the name is not taken (a note is created exclusively,
// never overwritten).
func NewNote(now time.Time, slug, text string) (name string, content []byte, err error) {
	body := strings.TrimSpace(text)
	switch {
	case body == "":
		return "", nil, errors.New("a note must say something: the text is blank")
	case !utf8.ValidString(body) || strings.IndexByte(body, 0) >= 0:
		return "", nil, errors.New("a note must be text: UTF-8 without NUL bytes")
	case len(body)+1 > NoteMaxBytes:
		return "", nil, errors.New("a note is one small file: this text is over 64 KiB")
	}
	s := slug
	if strings.TrimSpace(slug) == "" {
		s = slugOf(body, noteSlugWords)
		if s == "" {
			s = "note"
		}
	} else if s = slugOf(slug, 0); s == "" {
		return "", nil, errors.New("the slug " + slug + " keeps no letter or digit: a note's slug is made of a-z, 0-9 and -")
	}
	name, err = NoteName(now, s)
	if err != nil {
		return "", nil, err
	}
	var b bytes.Buffer
	b.Grow(len(body) + 1)
	b.WriteString(body)
	b.WriteByte('\n')
	return name, b.Bytes(), nil
}

// slugOf is text's words (ASCII letters and digits, lowercased) joined by
// "-", at most words of them (0: all), cut to 80 bytes at a word's end
// when one is near enough.
func slugOf(text string, words int) string {
	var b strings.Builder
	n := 0
	in := false
	for i := 0; i < len(text) && b.Len() <= 80; i++ {
		c := text[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			in = false
			continue
		}
		if !in {
			if words > 0 && n == words {
				break
			}
			if n > 0 {
				b.WriteByte('-')
			}
			n++
			in = true
		}
		b.WriteByte(c)
	}
	s := b.String()
	if len(s) > 80 {
		s = s[:80]
		// End on a whole word when one ends in the last quarter.
		if i := strings.LastIndexByte(s, '-'); i >= 60 {
			s = s[:i]
		}
	}
	return strings.Trim(s, "-")
}
