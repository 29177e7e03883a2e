package memfs

// An in-place editor of JSON text, for the one JSON file memtui changes
// that is not its own: Claude Code's settings.json (hook.go). A settings
// file is the user's, often kept by hand or in a dotfiles repository, so
// an edit must leave every byte it does not mean to change where it was:
// key order, spacing, the newline at the end, unknown fields. Decoding into
// Go maps and encoding again reorders the keys; github.com/tidwall/sjson,
// tried first (v1.2.9), keeps the order but puts an inserted member on the
// closing brace's line (`\n,"hooks":{...}}`), in one line whatever the
// file's layout, and its delete of that member dropped the file's final
// newline, so an uninstall could not give back the bytes an install
// started from. Hence this: the text is parsed into values that know their
// byte spans, and each edit splices one span, laid out as its neighbours
// are (the separator between the last two items, the indentation of the
// last item's line, the file's newline), so that removing what was
// inserted gives back the text exactly.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jkind is what a JSON value is.
type jkind byte

const (
	jObject jkind = iota + 1
	jArray
	jString
	jScalar // a number, true, false or null
)

// jvalue is one JSON value of a text and its byte span [start, end).
type jvalue struct {
	kind       jkind
	start, end int
	members    []jmember // an object's, in text order
	elems      []*jvalue // an array's
	str        string    // a string's decoded value
}

// jmember is one member of an object: its key, the key's span and the
// value.
type jmember struct {
	key              string
	keyStart, keyEnd int
	value            *jvalue
}

// get is the value of key in an object, nil when it has none. A key given
// twice is the last one's, as JSON.parse (Claude Code's reader) takes it.
func (v *jvalue) get(key string) *jvalue {
	if v == nil || v.kind != jObject {
		return nil
	}
	for i := len(v.members) - 1; i >= 0; i-- {
		if v.members[i].key == key {
			return v.members[i].value
		}
	}
	return nil
}

// memberIndex is the index of key's member (the last, as get), -1 when
// the object has none.
func (v *jvalue) memberIndex(key string) int {
	for i := len(v.members) - 1; i >= 0; i-- {
		if v.members[i].key == key {
			return i
		}
	}
	return -1
}

// itemSpans are the spans of an object's members (key to value end) or an
// array's elements, in order.
func (v *jvalue) itemSpans() [][2]int {
	var out [][2]int
	for _, m := range v.members {
		out = append(out, [2]int{m.keyStart, m.value.end})
	}
	for _, e := range v.elems {
		out = append(out, [2]int{e.start, e.end})
	}
	return out
}

// JSONSyntaxError is a text that is not JSON, with the 1-based line where
// the parse failed.
type JSONSyntaxError struct {
	Line int
	Err  error
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("not valid JSON at line %d: %v", e.Line, e.Err)
}

func (e *JSONSyntaxError) Unwrap() error { return e.Err }

// parseJSON parses text, which must be one JSON value with nothing but
// whitespace around it, into spans. encoding/json decides what is valid
// (plain JSON, as JSON.parse: no comments, no trailing commas) and where it
// is not; the scan after it only finds the spans.
func parseJSON(text string) (*jvalue, error) {
	var probe any
	if err := json.Unmarshal([]byte(text), &probe); err != nil {
		// A syntax error says where; any other (a truncated text) is at
		// the end.
		at := int64(len(text))
		var se *json.SyntaxError
		if errors.As(err, &se) {
			at = se.Offset
		}
		return nil, &JSONSyntaxError{Line: lineAt([]byte(text), at), Err: err}
	}
	p := jparser{s: text}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	return v, nil
}

// jparser finds the spans of a text encoding/json has accepted.
type jparser struct {
	s string
	i int
}

func (p *jparser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value parses the value at p.i, after any whitespace.
func (p *jparser) value() (*jvalue, error) {
	p.ws()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end of JSON")
	}
	switch p.s[p.i] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.str()
	}
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(",]} \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
	return &jvalue{kind: jScalar, start: start, end: p.i}, nil
}

func (p *jparser) str() (*jvalue, error) {
	start := p.i
	p.i++ // the opening quote
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			var s string
			if err := json.Unmarshal([]byte(p.s[start:p.i]), &s); err != nil {
				return nil, err
			}
			return &jvalue{kind: jString, start: start, end: p.i, str: s}, nil
		}
		p.i++
	}
	return nil, errors.New("unterminated string")
}

func (p *jparser) object() (*jvalue, error) {
	v := &jvalue{kind: jObject, start: p.i}
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		v.end = p.i
		return v, nil
	}
	for {
		p.ws()
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		p.i++ // the colon
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.members = append(v.members, jmember{key: k.str, keyStart: k.start, keyEnd: k.end, value: val})
		p.ws()
		if p.i >= len(p.s) {
			return nil, errors.New("unterminated object")
		}
		c := p.s[p.i]
		p.i++
		if c == '}' {
			v.end = p.i
			return v, nil
		}
	}
}

func (p *jparser) array() (*jvalue, error) {
	v := &jvalue{kind: jArray, start: p.i}
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		v.end = p.i
		return v, nil
	}
	for {
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, e)
		p.ws()
		if p.i >= len(p.s) {
			return nil, errors.New("unterminated array")
		}
		c := p.s[p.i]
		p.i++
		if c == ']' {
			v.end = p.i
			return v, nil
		}
	}
}

// jlayout is how a text lays out its values: the indentation unit of a
// nesting level ("" for a text on one line), and its newline.
type jlayout struct {
	unit, nl string
}

// layoutOf reads the layout from the text: its newline (CRLF when it has
// one), and the indentation of the top-level object's first member when
// that sits on a line of its own, or none when it shares the brace's line
// (a file on one line). An object with no member yet gets two spaces, as
// Claude Code writes its settings.
func layoutOf(text string, top *jvalue) jlayout {
	l := jlayout{unit: "  ", nl: "\n"}
	if strings.Contains(text, "\r\n") {
		l.nl = "\r\n"
	}
	if top == nil || top.kind != jObject || len(top.members) == 0 {
		return l
	}
	ind, ok := ownLine(text, top.members[0].keyStart)
	switch {
	case !ok:
		l.unit = ""
	case ind != "":
		l.unit = ind
	}
	return l
}

// ownLine is the indentation of the line pos is on, and whether nothing
// but that indentation comes before pos on it.
func ownLine(text string, pos int) (string, bool) {
	ls := strings.LastIndexByte(text[:pos], '\n') + 1
	lead := text[ls:pos]
	return lead, strings.Trim(lead, " \t") == ""
}

// lineIndent is the indentation of the line pos is on.
func lineIndent(text string, pos int) string {
	ls := strings.LastIndexByte(text[:pos], '\n') + 1
	end := ls
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return text[ls:end]
}

// encodeAt renders v as JSON for a place indented by indent: on several
// lines in the file's layout, or on one when the file is on one line. It
// does not escape <, > and & as encoding/json does by default: a path
// holding them stays readable in the file.
func encodeAt(v any, indent string, l jlayout) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if l.unit != "" {
		enc.SetIndent(indent, l.unit)
	}
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if l.nl != "\n" {
		s = strings.ReplaceAll(s, "\n", l.nl)
	}
	return s, nil
}

// splice replaces text[from:to] with with.
func splice(text string, from, to int, with string) string {
	return text[:from] + with + text[to:]
}

// appendItem adds an item at the end of container c: an object's member
// (`"key": value`, built by the caller with the key-value separator it is
// given) or an array's element. An item after others takes the separator
// that stands between the last two (after a single one, a comma and the
// space before it) and the indentation of the last one's line, and is laid
// out on lines of its own only when the items before it are; removing it
// again (removeItem) gives back text exactly. An empty container is opened
// onto lines of its own in the file's layout, any blanks it held replaced:
// removing the item closes it back to {} or [].
func appendItem(text string, c *jvalue, l jlayout, item func(indent, colon string, l jlayout) (string, error)) (string, error) {
	spans := c.itemSpans()
	oneLine := jlayout{nl: l.nl}
	colon := ": "
	if l.unit == "" {
		colon = ":"
	}
	if c.kind == jObject && len(c.members) > 0 {
		last := c.members[len(c.members)-1]
		colon = text[last.keyEnd:last.value.start]
	}
	if len(spans) == 0 {
		if l.unit == "" {
			s, err := item("", colon, oneLine)
			if err != nil {
				return "", err
			}
			return splice(text, c.start+1, c.end-1, s), nil
		}
		base := lineIndent(text, c.start)
		inner := base + l.unit
		s, err := item(inner, colon, l)
		if err != nil {
			return "", err
		}
		return splice(text, c.start+1, c.end-1, l.nl+inner+s+l.nl+base), nil
	}
	last := spans[len(spans)-1]
	var sep string
	if len(spans) >= 2 {
		sep = text[spans[len(spans)-2][1]:last[0]]
	} else {
		sep = "," + text[c.start+1:last[0]]
	}
	indent, il := "", oneLine
	if strings.Contains(sep, "\n") && l.unit != "" {
		indent, il = lineIndent(text, last[0]), l
	}
	s, err := item(indent, colon, il)
	if err != nil {
		return "", err
	}
	return splice(text, last[1], last[1], sep+s), nil
}

// appendMember adds "key": v at the end of object o (see appendItem).
func appendMember(text string, o *jvalue, key string, v any, l jlayout) (string, error) {
	return appendItem(text, o, l, func(indent, colon string, il jlayout) (string, error) {
		k, err := encodeAt(key, "", jlayout{nl: l.nl})
		if err != nil {
			return "", err
		}
		s, err := encodeAt(v, indent, il)
		return k + colon + s, err
	})
}

// appendElem adds v at the end of array a (see appendItem).
func appendElem(text string, a *jvalue, v any, l jlayout) (string, error) {
	return appendItem(text, a, l, func(indent, _ string, il jlayout) (string, error) {
		return encodeAt(v, indent, il)
	})
}

// removeItem removes item i of container c with the separator that joined
// it to the others: the last takes the separator before it, any other the
// one after it, and the only one leaves the container empty ({} or []).
func removeItem(text string, c *jvalue, i int) string {
	spans := c.itemSpans()
	switch {
	case len(spans) == 1:
		return splice(text, c.start+1, c.end-1, "")
	case i == len(spans)-1:
		return splice(text, spans[i-1][1], spans[i][1], "")
	default:
		return splice(text, spans[i][0], spans[i+1][0], "")
	}
}
