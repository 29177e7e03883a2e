package model

import (
	"strconv"
	"strings"
)

// YAMLScalar writes s as a frontmatter value: plain when YAML reads that
// back as the same string, else double-quoted (Go's escapes are valid YAML
// escapes). It is what memtui writes when it creates frontmatter (an
// archive index, a memory the reindexer writes).
func YAMLScalar(s string) string {
	plain := s != "" && strings.TrimSpace(s) == s && !strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") &&
		!strings.Contains(s, ": ") && !strings.Contains(s, " #") && !strings.HasSuffix(s, ":") &&
		!strings.ContainsFunc(s, func(c rune) bool { return c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c == '\ufeff' })
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		plain = false
	}
	// Numbers, in Go's reading and in YAML's wider one (1e5, .5, +1).
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		plain = false
	}
	if plain && strings.IndexFunc(s, func(c rune) bool {
		return !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')
	}) < 0 {
		plain = false
	}
	if plain {
		return s
	}
	return strconv.Quote(s)
}
