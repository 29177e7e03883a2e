package claude

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/memtui/memtui/model"
	"gopkg.in/yaml.v3"
)

const itemKey = "claudeCodeItem"

var (
	itemUUID    = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	itemAccount = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	itemHash    = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// itemScalar is the reading of a claudeCodeItem written as a scalar (or
// null): present, and not the map the schema wants.
func itemScalar(v string) model.ClaudeCodeItem {
	if v == "" {
		return model.ClaudeCodeItem{Present: true, Problem: "it is empty"}
	}
	return model.ClaudeCodeItem{Present: true, Problem: "it is not a map"}
}

// itemFromNode reads a claudeCodeItem value and checks it against the
// schema of facts doc 2.2 (c0553). Only what is written is checked: a field
// the doc does not mark optional but the block leaves out is not an error
// here, as the doc does not say which fields are required.
func itemFromNode(n *yaml.Node) model.ClaudeCodeItem {
	n = itemDeref(n)
	c := model.ClaudeCodeItem{Present: true}
	if n.Kind != yaml.MappingNode {
		// (A scalar never gets here: fromNode hands it to setMeta or
		// setTop, which read it through itemScalar.)
		c.Problem = "it is not a map"
		return c
	}
	fail := func(format string, args ...any) {
		if c.Problem == "" {
			c.Problem = fmt.Sprintf(format, args...)
		}
	}
	str := func(k string, v *yaml.Node) (string, bool) {
		if v.Kind != yaml.ScalarNode || !isText(v) {
			fail("%s is not text", k)
			return "", false
		}
		return v.Value, true
	}
	oneOf := func(k string, v *yaml.Node, allowed ...string) string {
		s, ok := str(k, v)
		if ok && !slices.Contains(allowed, s) {
			fail("%s %q is not one of %s", k, s, strings.Join(allowed, ", "))
		}
		return s
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, itemDeref(n.Content[i+1])
		switch k {
		case "id":
			if s, ok := str(k, v); ok {
				c.ID = s
				if !itemUUID.MatchString(s) {
					fail("id is not a lower-case UUID")
				}
			}
		case "minted":
			str(k, v)
		case "state":
			c.State = oneOf(k, v, "legacy", "pending", "acked", "suppressed")
		case "consent":
			c.Consent = oneOf(k, v, "on", "off")
		case "src":
			c.Src = oneOf(k, v, "typed", "inferred")
		case "scope":
			c.Scope = oneOf(k, v, "person", "repo", "unknown")
		case "account":
			if s, ok := str(k, v); ok {
				c.Account = s
				if !itemAccount.MatchString(s) {
					fail("account is not 1 to 128 letters, digits, - or _")
				}
			}
		case "typed":
			if v.Kind != yaml.MappingNode {
				fail("typed is not a map")
				break
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				if v.Content[j].Value != "turn" {
					continue
				}
				t := itemDeref(v.Content[j+1])
				if t.ShortTag() != "!!int" || strings.HasPrefix(t.Value, "-") {
					fail("typed.turn is not a whole number")
				}
			}
		case "promoted":
			recs := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				recs = v.Content
			}
			c.Promoted = len(recs)
			if len(recs) > 16 {
				fail("it has %d promotion records (at most 16)", len(recs))
			}
			for _, r := range recs {
				if r = itemDeref(r); r.Kind != yaml.MappingNode {
					fail("a promotion record is not a map")
					continue
				}
				for j := 0; j+1 < len(r.Content); j += 2 {
					rv := itemDeref(r.Content[j+1])
					switch r.Content[j].Value {
					case "account_path":
						if s, ok := str("promoted.account_path", rv); ok && (s == "" || utf16Units([]byte(s)) > 1024) {
							fail("promoted.account_path is not 1 to 1,024 characters")
						}
					case "line_hash":
						if s, ok := str("promoted.line_hash", rv); ok && !itemHash.MatchString(s) {
							fail("promoted.line_hash is not 64 hex digits")
						}
					}
				}
			}
		case "ids":
			if v.Kind != yaml.SequenceNode {
				fail("ids is not a list")
				break
			}
			c.IDs = len(v.Content)
			if c.IDs > 64 {
				fail("it has %d ids (at most 64)", c.IDs)
			}
			for _, id := range v.Content {
				if s, ok := str("an id", itemDeref(id)); ok && !itemUUID.MatchString(s) {
					fail("an id is not a lower-case UUID")
				}
			}
		}
	}
	return c
}

func itemDeref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		n = n.Alias
	}
	return n
}

// UTF16Len is the length of s in UTF-16 code units: how Claude Code counts
// a description's characters.
func UTF16Len(s string) int { return utf16Units([]byte(s)) }

// ItemSpans returns the byte ranges of content that hold a claudeCodeItem
// block: the key's line and every line that belongs to its value (more
// indented lines, list items at the key's indentation, and blank or comment
// lines between them), up to the end of the last such line's newline.
// Blocks under metadata: and at the top level are both found. The
// frontmatter is matched on the whole content the way Claude Code's
// readers match it (a BOM stripped first, then ^---\s*\n up to the first
// later ---), with no 30-line window: recall reads the whole file, and
// memtui keeps the block whatever its length.
//
// Every rewrite memtui proposes keeps these bytes as they are.
func ItemSpans(content []byte) [][2]int {
	if !bytes.Contains(content, []byte(itemKey)) {
		return nil
	}
	start := 0
	if bytes.HasPrefix(content, bom) {
		start = len(bom)
	}
	open, ok := matchOpen(content[start:])
	if !ok {
		return nil
	}
	from := start + open
	end := bytes.Index(content[from:], []byte("---"))
	if end < 0 {
		return nil
	}
	block := content[from : from+end]
	var out [][2]int
	lines := splitLinesKeep(block)
	inMeta := false
	metaIndent := -1
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		text := bytes.TrimRight(l.b, "\r\n")
		indent := leadingSpaces(text)
		rest := text[indent:]
		if len(rest) == 0 || rest[0] == '#' {
			continue
		}
		if indent == 0 {
			inMeta = false
			if isKey(rest, "metadata") {
				v := bytes.TrimSpace(afterKey(rest, "metadata"))
				inMeta = len(v) == 0 || v[0] == '#'
			}
			metaIndent = -1
			if !isKey(rest, itemKey) {
				continue
			}
		} else {
			if !inMeta {
				continue
			}
			if metaIndent < 0 {
				metaIndent = indent
			}
			if indent != metaIndent || !isKey(rest, itemKey) {
				continue
			}
		}
		// The key's line, then its value's lines.
		last := i
		for j := i + 1; j < len(lines); j++ {
			t := bytes.TrimRight(lines[j].b, "\r\n")
			ind := leadingSpaces(t)
			r := t[ind:]
			switch {
			case len(r) == 0 || r[0] == '#' && ind > indent:
				continue // blank or comment: part of it only if more follows
			case ind > indent, ind == indent && (bytes.HasPrefix(r, []byte("- ")) || bytes.Equal(r, []byte("-"))):
				last = j
				continue
			}
			break
		}
		out = append(out, [2]int{from + l.off, from + lines[last].off + len(lines[last].b)})
		i = last
	}
	return out
}

type lineRef struct {
	off int
	b   []byte
}

// splitLinesKeep splits b into lines that keep their "\n".
func splitLinesKeep(b []byte) []lineRef {
	var out []lineRef
	off := 0
	for off < len(b) {
		j := bytes.IndexByte(b[off:], '\n')
		if j < 0 {
			out = append(out, lineRef{off, b[off:]})
			break
		}
		out = append(out, lineRef{off, b[off : off+j+1]})
		off += j + 1
	}
	return out
}

func leadingSpaces(b []byte) int {
	n := 0
	for n < len(b) && b[n] == ' ' {
		n++
	}
	return n
}

// isKey reports whether line (indentation removed) is "key:" followed by
// the end of the line or whitespace.
func isKey(line []byte, key string) bool {
	if !bytes.HasPrefix(line, []byte(key)) {
		return false
	}
	r := line[len(key):]
	if len(r) > 0 && r[0] == ' ' {
		r = bytes.TrimLeft(r, " ") // "key :" is a key too
	}
	return len(r) > 0 && r[0] == ':' && (len(r) == 1 || r[1] == ' ' || r[1] == '\t' || r[1] == '\r')
}

func afterKey(line []byte, key string) []byte {
	r := bytes.TrimLeft(line[len(key):], " ")
	return r[1:]
}

// ItemsIntact reports whether after holds every claudeCodeItem block of
// before, byte for byte and in the same order, and no other.
func ItemsIntact(before, after []byte) bool {
	a, b := ItemSpans(before), ItemSpans(after)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(before[a[i][0]:a[i][1]], after[b[i][0]:b[i][1]]) {
			return false
		}
	}
	return true
}

// InItem reports whether any byte of [start, end) lies in one of spans.
func InItem(spans [][2]int, start, end int) bool {
	if end <= start {
		end = start + 1
	}
	for _, s := range spans {
		if start < s[1] && end > s[0] {
			return true
		}
	}
	return false
}
