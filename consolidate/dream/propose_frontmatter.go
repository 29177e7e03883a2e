package dream

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// frontmatterRules are the findings fix-frontmatter can settle.
var frontmatterRules = []string{consolidate.RuleFrontmatterMissing, consolidate.RuleFrontmatterNotAtStart, consolidate.RuleFrontmatterUnquoted,
	consolidate.RuleFrontmatterUnreadable, consolidate.RuleFrontmatterIncomplete, consolidate.RuleTypeMissing, consolidate.RuleTypeInvalid}

// proposeFrontmatterFixes repairs frontmatter Claude Code cannot read or
// reads without a name, description or type: it adds a missing block, moves
// text that precedes the fence below it, quotes values strict YAML rejects,
// fills in a missing name or description, and sets a type the file's name
// or its invalid type makes clear. A block that does not parse at all, or
// never closes, is left to a person: guessing its shape could lose text.
// A claudeCodeItem block is kept byte for byte: no line of it is quoted or
// replaced, and lines added around it leave it whole.
func proposeFrontmatterFixes(s *dreamState) []model.Proposal {
	var out []model.Proposal
	for _, path := range s.ruleFiles(frontmatterRules...) {
		content, ok := s.content(path)
		if !ok || len(bytes.TrimSpace(content)) == 0 {
			continue // an empty file is prune's
		}
		fixed, what, fixes := s.fixFrontmatter(path, content)
		if len(what) == 0 || bytes.Equal(fixed, content) {
			continue
		}
		out = append(out, s.proposal(model.KindFixFrontmatter,
			"Fix the frontmatter of "+path,
			fmt.Sprintf("Claude Code reads a memory's name, description and type from its frontmatter to decide when to recall it. In %s: %s.", path, strings.Join(what, "; ")),
			fixes, []model.Change{s.update(path, fixed)}))
	}
	return out
}

// fixFrontmatter returns the repaired content, what was done (for the
// rationale) and the findings it settles.
func (s *dreamState) fixFrontmatter(path string, content []byte) ([]byte, []string, []model.Finding) {
	nl := model.EOL(content)
	doc := s.docs[path]
	var what []string
	var fixes []model.Finding
	settle := func(rule string) { fixes = append(fixes, s.fileFindings(path, rule)...) }

	switch doc.Status {
	case model.FMInvalid, model.FMUnclosed:
		return content, nil, nil
	case model.FMNone:
		typ := typeFromName(path)
		var b strings.Builder
		b.WriteString("---" + nl)
		b.WriteString("name: " + yamlScalar(slugName(path)) + nl)
		b.WriteString("description: " + yamlScalar(describe(content)) + nl)
		if typ != "" {
			b.WriteString("metadata: " + nl + "  node_type: memory" + nl + "  type: " + typ + nl)
			settle(consolidate.RuleTypeMissing)
		}
		b.WriteString("---" + nl + nl)
		b.Write(bytes.TrimLeft(content, "\r\n"))
		settle(consolidate.RuleFrontmatterMissing)
		settle(consolidate.RuleFrontmatterIncomplete)
		typed := ""
		if typ != "" {
			typed = " and the type its file name gives"
		}
		what = append(what, "it has no frontmatter, so a block with a name, a description drawn from its first line"+typed+" goes on top")
		return []byte(b.String()), what, fixes
	case model.FMNotAtStart:
		lines := slices.Collect(strings.Lines(string(content)))
		if doc.Open < 2 || doc.Close < doc.Open || doc.Close > len(lines) {
			return content, nil, nil
		}
		before := strings.Join(lines[:doc.Open-1], "")
		block := strings.Join(lines[doc.Open-1:doc.Close], "")
		rest := strings.Join(lines[doc.Close:], "")
		content = []byte(block + nl + strings.TrimRight(before, "\r\n") + nl + rest)
		settle(consolidate.RuleFrontmatterNotAtStart)
		what = append(what, "text stood before the opening ---, so Claude Code saw no frontmatter; it moves below the block")
		doc = claude.ParseDoc(content)
		if doc.Status != model.FMOK && doc.Status != model.FMTolerant {
			return content, what, fixes
		}
	}

	// From here the block parses (perhaps tolerantly): fix it line by line.
	lines := slices.Collect(strings.Lines(string(content)))
	if doc.Open < 1 || doc.Close <= doc.Open || doc.Close > len(lines) {
		return content, what, fixes
	}
	inItem := itemLines(content, lines)
	if doc.Status == model.FMTolerant {
		n := 0
		for i := doc.Open; i < doc.Close-1; i++ {
			if inItem[i] {
				continue
			}
			if q, ok := quoteLine(lines[i]); ok {
				lines[i] = q
				n++
			}
		}
		if n > 0 && !doc.ClaudeSeesNone {
			settle(consolidate.RuleFrontmatterUnquoted)
			what = append(what, fmt.Sprintf("%d %s that strict YAML rejects (': ' or ' #' inside) %s quoted", n, model.Plural(n, "value", "values"), model.Plural(n, "is", "are")))
		}
		if n > 0 && doc.ClaudeSeesNone {
			// Settled only if Claude Code reads the result (checked below).
			what = append(what, fmt.Sprintf("Claude Code could not parse the block at all, so it saw no name, description or type; %d %s that strict YAML rejects (': ' or ' #' inside) %s quoted", n, model.Plural(n, "value", "values"), model.Plural(n, "is", "are")))
		}
	}
	fm := doc.FM
	var insert []string   // new name and description lines, after the opening fence
	var appendix []string // a new top-level type, before the closing fence
	nameEmpty, descEmpty := strings.TrimSpace(fm.Name) == "", strings.TrimSpace(fm.Description) == ""
	for _, k := range fm.NotText {
		// name: 12 is a number to YAML: quoted, it is the name it meant.
		i := keyIndex(lines, doc, k, false, inItem)
		if i < 0 {
			continue
		}
		if q, ok := quoteScalarLine(lines[i]); ok {
			lines[i] = q
			if k == "name" {
				nameEmpty = false
			} else {
				descEmpty = false
			}
			settle(consolidate.RuleFrontmatterIncomplete)
			what = append(what, fmt.Sprintf("the %s was not text to YAML (a number or a boolean), so Claude Code read none; it is quoted", k))
		}
	}
	if nameEmpty {
		if i := keyIndex(lines, doc, "name", false, inItem); i >= 0 {
			lines[i] = "name: " + yamlScalar(slugName(path)) + nl
		} else {
			insert = append(insert, "name: "+yamlScalar(slugName(path))+nl)
		}
		what = append(what, "the name was empty; it becomes "+slugName(path)+", from the file name")
	}
	if descEmpty {
		desc := describe(doc.Body(content))
		if desc != "" {
			if i := keyIndex(lines, doc, "description", false, inItem); i >= 0 {
				lines[i] = "description: " + yamlScalar(desc) + nl
			} else {
				insert = append(insert, "description: "+yamlScalar(desc)+nl)
			}
			what = append(what, "the description was empty; it becomes the memory's first line")
		}
	}
	if nameEmpty || descEmpty {
		if !nameEmpty || !descEmpty || describe(doc.Body(content)) != "" {
			settle(consolidate.RuleFrontmatterIncomplete)
		}
	}
	switch {
	case fm.TypeKey == "":
		if typ := typeFromName(path); typ != "" {
			if i := keyIndex(lines, doc, "metadata", false, inItem); i >= 0 {
				lines[i] = lines[i] + "  type: " + typ + nl
			} else {
				appendix = append(appendix, "type: "+typ+nl)
			}
			settle(consolidate.RuleTypeMissing)
			what = append(what, "it had no type; its file name says "+typ)
		}
	default:
		if _, ok := model.ParseType(fm.Type); !ok {
			typ := consolidate.SuggestType(fm.Type)
			// The type Claude Code reads: metadata's, over a top-level one.
			if i := keyIndex(lines, doc, "type", fm.TypeKey == "metadata.type", inItem); i >= 0 {
				indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
				lines[i] = indent + "type: " + typ + nl
				settle(consolidate.RuleTypeInvalid)
				what = append(what, fmt.Sprintf("type \"%s\" is not one Claude Code knows; %s is the closest", fm.Type, typ))
			}
		}
	}
	if len(appendix) > 0 {
		at := doc.Close - 1 // the closing fence's 0-based index
		lines = append(lines[:at], append(appendix, lines[at:]...)...)
	}
	if len(insert) > 0 {
		at := doc.Open // after the opening fence (0-based index doc.Open)
		lines = append(lines[:at], append(insert, lines[at:]...)...)
	}
	out := []byte(strings.Join(lines, ""))
	back := claude.ParseDoc(out)
	switch {
	case back.Status != model.FMOK && back.Status != model.FMTolerant, back.ClaudeSeesNone && !doc.ClaudeSeesNone:
		// A line replaced under a key whose value ran on (name: followed
		// by a list) can break the block: propose nothing rather than that.
		return content, nil, nil
	case doc.Status == model.FMTolerant && doc.ClaudeSeesNone && !back.ClaudeSeesNone:
		settle(consolidate.RuleFrontmatterUnreadable)
	}
	return out, what, fixes
}

// itemLines marks the 0-based lines of content (split as lines) that hold a
// claudeCodeItem block: no fix touches them.
func itemLines(content []byte, lines []string) map[int]bool {
	spans := claude.ItemSpans(content)
	if len(spans) == 0 {
		return nil
	}
	out := map[int]bool{}
	off := 0
	for i, l := range lines {
		if claude.InItem(spans, off, off+len(l)) {
			out[i] = true
		}
		off += len(l)
	}
	return out
}

// quoteScalarLine double-quotes the plain value of a "key: value" line,
// so that YAML reads it as a string; ok is false when the value is not a
// one-line plain scalar (a list, a map, a quoted or block value).
func quoteScalarLine(line string) (string, bool) {
	body := strings.TrimRight(line, "\r\n")
	ending := line[len(body):]
	k, v, ok := strings.Cut(body, ":")
	v = strings.TrimSpace(v)
	if !ok || v == "" || strings.ContainsAny(v[:1], "[{|>&*!'\"#") || strings.Contains(v, " #") {
		return line, false
	}
	return k + ": " + strconv.Quote(v) + ending, true
}

// keyIndex finds the 0-based line of a frontmatter key at the top level
// (nested false) or indented (nested true), outside the claudeCodeItem
// lines skip marks; -1 when absent.
func keyIndex(lines []string, doc model.Doc, key string, nested bool, skip map[int]bool) int {
	for i := doc.Open; i < doc.Close-1 && i < len(lines); i++ {
		l := strings.TrimLeft(lines[i], " \t")
		if (len(l) < len(lines[i])) == nested && strings.HasPrefix(l, key+":") && !skip[i] {
			return i
		}
	}
	return -1
}

// quoteLine double-quotes a "key: value" line whose value strict YAML
// would misread; ok is false when the line needs nothing.
func quoteLine(line string) (string, bool) {
	body := strings.TrimRight(line, "\r\n")
	ending := line[len(body):]
	indent := body[:len(body)-len(strings.TrimLeft(body, " "))]
	k, v, ok := strings.Cut(body[len(indent):], ": ")
	if !ok || strings.ContainsAny(k, " \"'") {
		return line, false
	}
	v = strings.TrimSpace(v)
	if v == "" || strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'") {
		return line, false
	}
	if !strings.Contains(v, ": ") && !strings.Contains(v, " #") && !strings.HasSuffix(v, ":") {
		return line, false
	}
	return indent + k + ": " + strconv.Quote(v) + ending, true
}

// slugName is the kebab-case name Claude Code's stamper would give a file:
// its stem, lowercased, runs of other characters turned into one hyphen.
func slugName(path string) string {
	stem := strings.TrimSuffix(path[strings.LastIndexByte(path, '/')+1:], ".md")
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(stem) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(strings.ReplaceAll(b.String(), "_", "-"), "-")
}

// typeFromName reads a type from a file named the conventional way
// (user_role.md, feedback-testing.md); "" when the name does not say.
func typeFromName(path string) string {
	base := path[strings.LastIndexByte(path, '/')+1:]
	for _, t := range model.Types {
		p := string(t)
		if strings.HasPrefix(base, p+"_") || strings.HasPrefix(base, p+"-") {
			return p
		}
	}
	return ""
}

// describe draws a one-line description from a memory's text: its first
// heading or line, cut at a word under 150 characters.
func describe(body []byte) string {
	for _, line := range strings.Split(string(body), "\n") {
		l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#>-*"))
		if l == "" || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "```") {
			continue
		}
		if utf8.RuneCountInString(l) <= 150 {
			return l
		}
		cut := string([]rune(l)[:149])
		if i := strings.LastIndexByte(cut, ' '); i > 80 {
			cut = cut[:i]
		}
		return strings.TrimRight(cut, " ,;:") + "…"
	}
	return ""
}
