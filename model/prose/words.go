package prose

import (
	"strings"
	"unicode"
)

// Words are the lowercased words of s: its runs of letters and digits.
// The checks compare hooks with descriptions by them, and the lost-update
// forensics tell a reworded line from a new one by them.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !IsWordRune(r) })
}

// IsWordRune reports a rune that belongs to a word of Words.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
