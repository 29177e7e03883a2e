package claude

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
	"gopkg.in/yaml.v3"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// ParseDoc splits a memory file into frontmatter and body the way Claude Code
// reads it, and says what is wrong with the frontmatter if anything.
//
// Claude Code 2.1.332 strips one leading byte-order mark, then matches
// /^---\s*\n([\s\S]*?)---\s*\n?/ against the head of the file its scan
// reads: the first 30 lines, at most 65,536 bytes (facts doc 2.2 and 4.1).
// So the opening fence must sit at the start (after the BOM), and the block
// closes at the first "---" after it, wherever that falls, even mid-line;
// \s* may swallow blank lines. ParseDoc notes the BOM (model.Doc.BOM) and
// reads past it, as Claude Code does.
func ParseDoc(content []byte) model.Doc {
	d := model.Doc{BodyLine: 1}
	start := 0
	if bytes.HasPrefix(content, bom) {
		d.BOM = true
		start = len(bom)
	}
	if bytes.HasPrefix(content[start:], []byte("---")) {
		// The common case, a fence at the top: match against the whole
		// content and check the 30-line window afterwards with a count,
		// rather than cutting the window line by line first. When the
		// fence's own whitespace runs to the window's edge, cut it after
		// all (as the regexp's input ends there).
		rest := content[start:]
		if open, ok := matchOpen(rest); ok && bytes.Count(rest[:open], []byte{'\n'}) < model.FrontmatterMaxLines {
			d.Open = 1
			parseBlock(&d, content, start, start+open, nil)
			return d
		}
	}
	head := headLines(content, start, model.FrontmatterMaxLines)
	if open, ok := matchOpen(head); ok {
		d.Open = 1
		parseBlock(&d, content, start, start+open, head)
		return d
	}
	// Text before the fence: look for a fenced block further down the first
	// 30 lines that really is frontmatter (it parses and carries a memory
	// key), so that a markdown horizontal rule or setext heading is not
	// mistaken for one.
	if late, ok := lateFrontmatter(content, start, d.BOM); ok {
		return late
	}
	d.Status = model.FMNone
	return d
}

// lateFrontmatter finds a fenced block further down the first 30 lines
// that really is frontmatter (it parses), after text Claude Code stops at.
func lateFrontmatter(content []byte, start int, bom bool) (model.Doc, bool) {
	off, line, ok := findLateFence(content, start)
	if !ok {
		return model.Doc{}, false
	}
	late := model.Doc{Open: 1, BodyLine: 1}
	lateHead := headLines(content, off, model.FrontmatterMaxLines-line+1)
	open, _ := matchOpen(lateHead)
	parseBlock(&late, content, off, off+open, lateHead)
	if late.Status != model.FMOK && late.Status != model.FMTolerant {
		return model.Doc{}, false
	}
	late.Open += line - 1
	late.Close += line - 1
	late.BodyLine += line - 1
	late.BOM = bom
	late.Problem = fmt.Sprintf("%s before the opening ---", describePreamble(content[start:off]))
	late.Status = model.FMNotAtStart
	return late, true
}

// headLines returns content[start:] cut after n lines.
func headLines(content []byte, start, n int) []byte {
	rest := content[start:]
	off := 0
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(rest[off:], '\n')
		if j < 0 {
			return rest
		}
		off += j + 1
	}
	return rest[:off]
}

// matchOpen matches ^---\s*\n at the start of b and returns the offset just
// past it. \s* is greedy and may itself swallow newlines; the regexp then
// backtracks to the last \n it consumed.
func matchOpen(b []byte) (int, bool) {
	if !bytes.HasPrefix(b, []byte("---")) {
		return 0, false
	}
	i, lastNL := 3, -1
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if !jsSpace(r) {
			break
		}
		if r == '\n' {
			lastNL = i
		}
		i += n
	}
	if lastNL < 0 {
		return 0, false
	}
	return lastNL + 1, true
}

// parseBlock finds the closing fence in head (content[fenceStart:], already
// cut to the 30-line window), decodes the YAML between, and fills d.
// bodyFrom is the offset just after the opening fence line. A nil head is
// the window uncut: the fence is looked for in the whole content and kept
// only when it starts within the first 30 lines ("---" holds no newline, so
// it then ends within them too).
func parseBlock(d *model.Doc, content []byte, fenceStart, bodyFrom int, head []byte) {
	var end int
	if head == nil {
		end = bytes.Index(content[bodyFrom:], []byte("---"))
		if end >= 0 && bytes.Count(content[fenceStart:bodyFrom+end], []byte{'\n'}) >= model.FrontmatterMaxLines {
			end = -1
		}
	} else {
		end = bytes.Index(head[bodyFrom-fenceStart:], []byte("---"))
	}
	if end < 0 {
		d.Status = model.FMUnclosed
		d.Problem = fmt.Sprintf("no closing --- within the first %d lines", model.FrontmatterMaxLines)
		return
	}
	if bodyFrom+end+3 > model.FrontmatterMaxBytes {
		// The fence lies past the bytes the scan reads: it sees no fence.
		d.Status = model.FMUnclosed
		d.Problem = fmt.Sprintf("no closing --- within the first %d bytes (64 KiB)", model.FrontmatterMaxBytes)
		return
	}
	block := content[bodyFrom : bodyFrom+end]
	// The closing fence consumes ---\s*\n? : trailing whitespace (even
	// newlines, greedily) and then an optional \n.
	after := bodyFrom + end + 3
	for after < len(content) {
		r, n := utf8.DecodeRune(content[after:])
		if !jsSpace(r) {
			break
		}
		after += n
	}
	// Backtracking makes \s*\n? equivalent to \s* here: whatever \s*
	// consumed, \n? matches empty.
	d.Close = lineNumber(content, fenceStart, bodyFrom+end)
	d.BodyStart = after
	d.BodyLine = lineNumber(content, fenceStart, after)
	decode(d, block)
}

// lineNumber counts lines from base to off: 1 when off is on base's line.
func lineNumber(content []byte, base, off int) int {
	if off > len(content) {
		off = len(content)
	}
	return 1 + bytes.Count(content[base:off], []byte{'\n'})
}

// decode parses the YAML block as Claude Code does: strict YAML (through a
// cheap path for the usual shapes), then Claude Code's single retry that
// quotes values. When both fail, memtui's tolerant recovery still reads
// what it can, for the checks and the fixes, and the Doc says Claude Code
// sees none of it.
func decode(d *model.Doc, block []byte) {
	if fm, ok := fastParse(block); ok {
		d.FM = fm
		d.Status = model.FMOK
		return
	}
	var node yaml.Node
	err := yaml.Unmarshal(block, &node)
	retry := true
	if err == nil {
		if fm, ok := fromNode(&node); ok {
			d.FM = fm
			d.Status = model.FMOK
			return
		}
		// YAML reads it, as something other than a map: Claude Code
		// takes that as frontmatter without fields and does not retry.
		err = fmt.Errorf("frontmatter is not a mapping of keys to values")
		retry = false
	}
	strictErr := cleanYAMLError(err)
	if retry {
		if fm, n, ok := claudeRetry(block); ok {
			d.FM = fm
			d.Status = model.FMTolerant
			d.Problem = fmt.Sprintf("strict YAML fails (%s); Claude Code's retry, quoting %d %s, reads it", strictErr, n, model.Plural(n, "value", "values"))
			return
		}
	}
	if fm, how, ok := tolerantParse(block); ok {
		d.FM = fm
		d.Status = model.FMTolerant
		d.ClaudeSeesNone = true
		if retry {
			d.Problem = fmt.Sprintf("strict YAML fails (%s), and so does Claude Code's retry that quotes values; %s", strictErr, how)
		} else {
			d.Problem = fmt.Sprintf("YAML reads the block as something other than keys and values; %s", how)
		}
		return
	}
	d.Status = model.FMInvalid
	d.Problem = strictErr
}

// claudeSpecial is the set of characters that make Claude Code's retry
// quote a value (with ": ", checked apart).
const claudeSpecial = "{}[]*&#!|>%@`"

// claudeRequote rewrites block the way Claude Code's retry does before it
// parses the YAML a second time (facts doc 2.2 step 3; the line shape is
// that of frontmatterParser.ts in 2.1.88): the block is split at "\n"; a
// line that is a top-level "key: value" (key of ASCII letters, '_' and
// '-', at least one whitespace character after the colon, then a value
// that runs to the end of the line and holds no line terminator, so a line
// ending in "\r" never matches) has its value double-quoted, with '\\' and
// '"' escaped, when the value is not already quoted (starting and ending
// with the same quote) and holds one of {}[]*&#!|>%@` or ": ". n is how
// many lines it rewrote.
func claudeRequote(block []byte) (out []byte, n int) {
	lines := strings.Split(string(block), "\n")
	for i, line := range lines {
		k := 0
		for k < len(line) && (line[k] >= 'a' && line[k] <= 'z' || line[k] >= 'A' && line[k] <= 'Z' || line[k] == '_' || line[k] == '-') {
			k++
		}
		if k == 0 || k >= len(line) || line[k] != ':' {
			continue
		}
		// \s+ then .+ to the end: the whitespace run is greedy but leaves
		// the value at least one character.
		v := k + 1
		for v < len(line) {
			r, size := utf8.DecodeRuneInString(line[v:])
			if !jsSpace(r) {
				break
			}
			v += size
		}
		if v == k+1 || v == len(line) {
			// No whitespace after the colon; or nothing but whitespace,
			// where the regexp's value is a whitespace character: nothing
			// to quote either way.
			continue
		}
		value := line[v:]
		if strings.ContainsAny(value, "\r\u2028\u2029") {
			continue // "." matches no line terminator, and "$" is the end of the line
		}
		if len(value) > 0 && (value[0] == '"' && value[len(value)-1] == '"' || value[0] == '\'' && value[len(value)-1] == '\'') {
			continue
		}
		if !strings.ContainsAny(value, claudeSpecial) && !strings.Contains(value, ": ") {
			continue
		}
		esc := strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
		lines[i] = line[:k] + `: "` + esc + `"`
		n++
	}
	return []byte(strings.Join(lines, "\n")), n
}

// claudeRetry is Claude Code's second parse: YAML over claudeRequote's
// rewrite. ok is false when the retry changes nothing, fails, or reads
// something other than a map.
func claudeRetry(block []byte) (model.Frontmatter, int, bool) {
	requoted, n := claudeRequote(block)
	if n == 0 {
		return model.Frontmatter{}, 0, false
	}
	var node yaml.Node
	if yaml.Unmarshal(requoted, &node) != nil {
		return model.Frontmatter{}, n, false
	}
	fm, ok := fromNode(&node)
	return fm, n, ok
}

func cleanYAMLError(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "yaml: ")
	// yaml.v3 counts lines from the start of the block; the fence sits one
	// line above, so its "line N" is line N+1 of the file. Leave the number
	// as is but say which frame it is in.
	if strings.HasPrefix(s, "line ") {
		s = "frontmatter " + s
	}
	return s
}

// fromNode reads a decoded YAML document.
func fromNode(n *yaml.Node) (model.Frontmatter, bool) {
	var fm model.Frontmatter
	if n.Kind == 0 { // empty document: valid, no fields
		return fm, true
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return fm, true
	}
	if n.Kind != yaml.MappingNode {
		return fm, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		fm.Keys = append(fm.Keys, k)
		switch {
		case k == "metadata" && v.Kind == yaml.MappingNode:
			fm.Generation = model.GenCurrent
			for j := 0; j+1 < len(v.Content); j += 2 {
				mk, mv := v.Content[j].Value, v.Content[j+1]
				if mk == itemKey && itemDeref(mv).Kind != yaml.ScalarNode {
					fm.Item = itemFromNode(mv)
					fm.Item.Key = "metadata." + itemKey
					continue
				}
				setMeta(&fm, mk, scalarString(mv))
			}
		case k == itemKey && itemDeref(v).Kind != yaml.ScalarNode:
			if fm.Item.Key != "metadata."+itemKey {
				fm.Item = itemFromNode(v)
				fm.Item.Key = itemKey
			}
		case k == "name" || k == "description":
			// Only a string counts; a number, a boolean or a list is no
			// name or description to Claude Code.
			text, null := textValue(v)
			setTop(&fm, k, text)
			if !null && !isText(itemDeref(v)) {
				fm.NotText = append(fm.NotText, k)
			}
		default:
			setTop(&fm, k, scalarString(v))
		}
	}
	finish(&fm)
	return fm, true
}

// isText reports whether a YAML node is a string to Claude Code, whose
// YAML reads the core schema: a string, or what YAML 1.1 would read as a
// timestamp (the core schema has no timestamps).
func isText(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp":
		return true
	}
	return false
}

// textValue is a node's string value, "" when it is not a string; null is
// true for a null (which is no value rather than a value of another kind).
func textValue(n *yaml.Node) (s string, null bool) {
	n = itemDeref(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return "", true
	}
	if isText(n) {
		return n.Value, false
	}
	return "", false
}

// scalarString renders a YAML value as the text a reader sees; nulls are
// empty. Non-scalars come back as their flow form so a type: [a, b] is still
// reported as an invalid type rather than silently dropped.
func scalarString(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return ""
		}
		return n.Value
	case yaml.AliasNode:
		if n.Alias != nil {
			return scalarString(n.Alias)
		}
		return ""
	default:
		out, err := yaml.Marshal(n)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
}

// setTop records a top-level key. Claude Code folds the top-level keys
// other than name and description into metadata and overlays the metadata
// map on them, so a key metadata also holds (type, originSessionId,
// modified, claudeCodeItem) is read from metadata, whichever comes first.
func setTop(fm *model.Frontmatter, k, v string) {
	switch k {
	case "name":
		fm.Name, fm.HasName = v, true
	case "description":
		fm.Description, fm.HasDesc = v, true
	case "type":
		if fm.TypeKey != "metadata.type" {
			fm.Type, fm.TypeKey = v, "type"
		}
		if fm.Generation == model.GenUnknown {
			fm.Generation = model.GenLegacy
		}
	case "originSessionId":
		if fm.OriginSessionID == "" {
			fm.OriginSessionID = v
		}
	case "modified":
		if fm.Modified == "" {
			fm.Modified = v
		}
	case itemKey:
		if fm.Item.Key != "metadata."+itemKey {
			fm.Item = itemScalar(v)
			fm.Item.Key = itemKey
		}
	}
}

// setMeta records a key under metadata:. metadata.name and
// metadata.description are not read: Claude Code takes those two from the
// top level only.
func setMeta(fm *model.Frontmatter, k, v string) {
	switch k {
	case "type":
		fm.Type, fm.TypeKey = v, "metadata.type"
	case "originSessionId":
		fm.OriginSessionID = v
	case "modified":
		fm.Modified = v
	case itemKey:
		fm.Item = itemScalar(v)
		fm.Item.Key = "metadata." + itemKey
	}
}

// finish derives the parsed fields. Nothing is trimmed: Claude Code
// compares the type exactly and takes " " as a description.
func finish(fm *model.Frontmatter) {
	if fm.Modified != "" {
		fm.ModifiedTime = parseTimestamp(fm.Modified)
	}
}

// parseTimestamp accepts the ISO forms Claude Code writes and a few that
// people write by hand.
func parseTimestamp(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04:05 -0700 MST", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// fastParse handles the overwhelmingly common frontmatter without a YAML
// pass: "key: plain value" lines at the top level and one level of block
// mapping under a key with no value (metadata:). It gives up (ok=false) on
// anything where plain-scalar semantics could differ from YAML's: quotes,
// flow or block indicators, comments, ": " inside a value, tabs, deeper
// nesting. Fuzzing checks it agrees with yaml.v3 whenever it claims success.
func fastParse(block []byte) (model.Frontmatter, bool) { return fastParseAs(block, false) }

// fastParseAs is fastParse, or with requoted set, fastParse of what requote
// makes of block: every "key: value" value that requote would quote is
// read as the quoted string it becomes (see requotedPair), so the tolerant
// path need not run YAML a second time over the usual shapes.
func fastParseAs(block []byte, requoted bool) (model.Frontmatter, bool) {
	pair := fastPair
	if requoted {
		pair = requotedPair
	}
	var fm model.Frontmatter
	inMap := "" // the top-level key with no value whose children we may be reading
	children := 0
	childIndent := 0
	// The keys seen so far are fm.Keys at the top level and childSeen under
	// inMap: a handful each, so a scan beats a map.
	var childBuf [8]string
	childSeen := childBuf[:0]
	// closeMap settles a bare "key:" once its block ends: with no children
	// YAML reads it as null, which for our fields means present but empty.
	closeMap := func() {
		if inMap != "" && children == 0 {
			setTop(&fm, inMap, "")
		}
		inMap = ""
	}
	for len(block) > 0 {
		var line []byte
		if i := bytes.IndexByte(block, '\n'); i >= 0 {
			line, block = block[:i], block[i+1:]
		} else {
			line, block = block, nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimRight(line, " ")) == 0 {
			continue
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		if indent == 0 {
			closeMap()
			k, v, ok := pair(line)
			if !ok || slices.Contains(fm.Keys, k) {
				return fm, false
			}
			if fm.Keys == nil {
				fm.Keys = make([]string, 0, 4)
			}
			fm.Keys = append(fm.Keys, k)
			if v == "" {
				inMap, children, childIndent, childSeen = k, 0, 0, childSeen[:0]
				continue
			}
			if !requoted && (k == "name" || k == "description") && mayNotBeText(v) {
				return fm, false // YAML may read a number or a boolean: let it decide
			}
			setTop(&fm, k, v)
			continue
		}
		if inMap == "" || (childIndent != 0 && indent != childIndent) {
			return fm, false
		}
		if inMap != "metadata" && (requoted || readKey(inMap)) {
			// YAML renders such a mapping as the key's value (see
			// scalarString), or reads it as no text, which the fast path
			// does not.
			return fm, false
		}
		childIndent = indent
		k, v, ok := pair(line[indent:])
		if !ok || v == "" || slices.Contains(childSeen, k) {
			return fm, false
		}
		childSeen = append(childSeen, k)
		children++
		if inMap == "metadata" {
			fm.Generation = model.GenCurrent
			setMeta(&fm, k, v)
		}
	}
	closeMap()
	finish(&fm)
	return fm, true
}

// readKey reports whether a top-level key is one whose value memtui reads.
func readKey(k string) bool {
	switch k {
	case "name", "description", "type", "originSessionId", "modified", itemKey:
		return true
	}
	return false
}

// mayNotBeText reports whether YAML might read the plain scalar v as
// something other than a string (a number, a boolean, null): anything
// starting like a number, and the words YAML reserves. None of those holds
// a space (a timestamp may, and reads as text here), so a description,
// which nearly always does, stays on the fast path.
func mayNotBeText(v string) bool {
	if strings.IndexByte(v, ' ') >= 0 {
		return false
	}
	switch v[0] {
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '+', '-', '.', '~', '<':
		return true
	}
	switch strings.ToLower(v) {
	case "true", "false", "null":
		return true
	}
	return false
}

// plainKey splits a line at its first colon when what precedes it (at most
// max bytes) is a simple key: a letter or underscore, then letters, digits,
// '_' or '-'.
func plainKey(line []byte, max int) (key, rest []byte, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 || i > max {
		return nil, nil, false
	}
	for j, c := range line[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || (j > 0 && (c >= '0' && c <= '9' || c == '-'))) {
			return nil, nil, false
		}
	}
	return line[:i], line[i+1:], true
}

// fastPair splits "key: value" where both are safe plain scalars.
func fastPair(line []byte) (key, val string, ok bool) {
	// YAML refuses an implicit key past 1,024 characters; keys the fast
	// path settles are far shorter, so a long one goes to YAML to decide.
	k, rest, ok := plainKey(line, 128)
	if !ok {
		return "", "", false
	}
	if len(rest) == 0 {
		return keyString(k), "", true
	}
	if rest[0] != ' ' {
		return "", "", false
	}
	v := bytes.Trim(rest, " ")
	if len(v) == 0 {
		return keyString(k), "", true
	}
	if !safePlain(v) {
		return "", "", false
	}
	return keyString(k), string(v), true
}

// requotedPair splits a line the way requote reads it (splitKey) and
// returns the value YAML reads from the line requote writes. A value
// requote quotes comes back as it is, since single quotes (with each quote
// inside doubled) hold any printable ASCII text verbatim; anything else (a
// value requote leaves alone, non-ASCII or control bytes, a tab after the
// colon) gives up, and the caller runs YAML.
func requotedPair(line []byte) (key, val string, ok bool) {
	k, rest, ok := plainKey(line, 128) // YAML refuses implicit keys past 1,024 characters
	if !ok {
		return "", "", false
	}
	if len(rest) > 0 && rest[0] != ' ' {
		return "", "", false
	}
	v := bytes.Trim(rest, " ")
	if len(v) == 0 {
		return keyString(k), "", true // a bare key, left as it is
	}
	switch v[0] {
	case '\'', '"', '[', '{', '|', '>', '&', '*', '!':
		return "", "", false // requote leaves it as it is
	}
	for _, c := range v {
		if c < 0x20 || c >= 0x7f {
			return "", "", false
		}
	}
	return keyString(k), string(v), true
}

// keyString is string(k) without an allocation for the keys memories use.
func keyString(k []byte) string {
	switch string(k) {
	case "name":
		return "name"
	case "description":
		return "description"
	case "type":
		return "type"
	case "metadata":
		return "metadata"
	case "modified":
		return "modified"
	case "originSessionId":
		return "originSessionId"
	}
	return string(k)
}

// safePlain reports whether v reads the same as a YAML plain scalar and as
// literal text: no indicator at the start, no ": " or " #" inside, no
// trailing colon, no tab, no control bytes, valid UTF-8. Values YAML would
// resolve to null, booleans or numbers are fine as text for our fields, but
// "~" and "null" mean empty.
func safePlain(v []byte) bool {
	switch v[0] {
	case '\'', '"', '[', ']', '{', '}', '>', '|', '*', '&', '!', '%', '@', '`', '#', ',', '?', ':', '-':
		if v[0] == '-' && len(v) > 1 && v[1] != ' ' && v[1] != '-' {
			break // "-foo" is a plain scalar; "- " and "---" are not
		}
		return false
	}
	if v[len(v)-1] == ':' {
		return false
	}
	// One pass for ": ", " #", control bytes and whether any byte is
	// non-ASCII (only then is UTF-8 validity and a BOM in question).
	var or byte
	for i, c := range v {
		switch {
		case c < 0x20 || c == 0x7f:
			return false
		case c == ':' && i+1 < len(v) && v[i+1] == ' ', c == ' ' && i+1 < len(v) && v[i+1] == '#':
			return false
		}
		or |= c
	}
	if bytes.Equal(v, []byte("~")) || bytes.EqualFold(v, []byte("null")) {
		return false // let YAML decide; rare
	}
	return or < utf8.RuneSelf || utf8.Valid(v) && printableYAML(v)
}

// printableYAML reports whether valid UTF-8 v holds only what YAML prints
// as it is: no C1 control (U+0080–U+009F, which YAML rejects, NEL
// included: it may read it as a line break), no byte-order mark, no
// noncharacter U+FFFE/U+FFFF, no line or paragraph separator. Anything
// else leaves the fast path, and YAML itself decides.
func printableYAML(v []byte) bool {
	for _, r := range string(v) {
		switch {
		case r >= 0x80 && r <= 0x9f, r == 0xFEFF, r == 0xFFFE, r == 0xFFFF, r == 0x2028, r == 0x2029:
			return false
		}
	}
	return true
}

// tolerantParse recovers what real files get wrong, most often an unquoted
// ": " inside a description. First it quotes every top-level and metadata
// value that is not already quoted and retries YAML (as Claude Code's
// quoteProblematicValues does); failing that it reads key: value lines
// directly. It succeeds when it recovers a name, description or type.
func tolerantParse(block []byte) (model.Frontmatter, string, bool) {
	if requoted, n := requote(block); n > 0 {
		fm, ok := fastParseAs(block, true)
		if !ok {
			var node yaml.Node
			if yaml.Unmarshal(requoted, &node) == nil {
				fm, ok = fromNode(&node)
			}
		}
		if ok && (fm.HasName || fm.HasDesc || fm.TypeKey != "") {
			return fm, fmt.Sprintf("quoting %d value(s) recovers it", n), true
		}
	}
	fm, n := lineParse(block)
	if fm.HasName || fm.HasDesc || fm.TypeKey != "" {
		return fm, fmt.Sprintf("a line-by-line read recovers %d key(s)", n), true
	}
	return fm, "", false
}

// requote wraps unquoted scalar values of "key: value" lines in single
// quotes, returning the new block and how many values it changed.
func requote(block []byte) ([]byte, int) {
	var out bytes.Buffer
	n := 0
	for _, line := range strings.SplitAfter(string(block), "\n") {
		body := strings.TrimRight(line, "\r\n")
		nl := line[len(body):]
		indent := len(body) - len(strings.TrimLeft(body, " "))
		k, v, ok := splitKey(body[indent:])
		if !ok || v == "" || strings.ContainsAny(v[:1], `'"[{|>&*!`) {
			out.WriteString(line)
			continue
		}
		out.WriteString(body[:indent] + k + ": '" + strings.ReplaceAll(v, "'", "''") + "'" + nl)
		n++
	}
	return out.Bytes(), n
}

// splitKey splits "key: value" at the first ": " (or a trailing ":").
func splitKey(s string) (k, v string, ok bool) {
	i := strings.Index(s, ":")
	if i <= 0 {
		return "", "", false
	}
	k = s[:i]
	for j, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || (j > 0 && (c >= '0' && c <= '9' || c == '-'))) {
			return "", "", false
		}
	}
	rest := s[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return k, strings.TrimSpace(rest), true
}

// lineParse reads key: value lines without YAML, tracking one level of
// nesting under a bare key (metadata:).
func lineParse(block []byte) (model.Frontmatter, int) {
	var fm model.Frontmatter
	n := 0
	parent := ""
	for _, line := range strings.Split(string(block), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		k, v, ok := splitKey(strings.TrimLeft(line, " \t"))
		if !ok {
			continue
		}
		v = unquote(v)
		n++
		if !indented {
			fm.Keys = append(fm.Keys, k)
			if v == "" {
				parent = k
				if k == "metadata" {
					fm.Generation = model.GenCurrent
				}
				switch k {
				case "name":
					fm.HasName = true
				case "description":
					fm.HasDesc = true
				}
				continue
			}
			parent = ""
			setTop(&fm, k, v)
			continue
		}
		if parent == "metadata" {
			setMeta(&fm, k, v)
		}
	}
	finish(&fm)
	return fm, n
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

// findLateFence looks for a "---" line after some other text within the first
// 30 lines, returning its offset and 1-based line.
func findLateFence(content []byte, start int) (off, line int, ok bool) {
	pos := start
	for ln := 1; ln <= model.FrontmatterMaxLines && pos < len(content); ln++ {
		end := bytes.IndexByte(content[pos:], '\n')
		var l []byte
		if end < 0 {
			l = content[pos:]
		} else {
			l = content[pos : pos+end]
		}
		if ln > 1 && string(bytes.TrimRight(l, " \t\r")) == "---" {
			return pos, ln, true
		}
		if end < 0 {
			break
		}
		pos += end + 1
	}
	return 0, 0, false
}

// describePreamble says briefly what precedes a late fence.
func describePreamble(b []byte) string {
	t := strings.TrimSpace(string(b))
	switch {
	case t == "":
		return "blank lines"
	case strings.HasPrefix(t, "<!--"):
		return "an HTML comment"
	case strings.HasPrefix(t, "#"):
		return "a heading"
	}
	lines := strings.Count(strings.TrimRight(string(b), "\n"), "\n") + 1
	if lines == 1 {
		return "a line of text"
	}
	return fmt.Sprintf("%d lines of text", lines)
}
