package codex

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A reply that used memory ends with a citation block (codex facts §2):
//
//	<oai-mem-citation>
//	<citation_entries>
//	MEMORY.md:12-20|note=[the deploy steps]
//	</citation_entries>
//	<rollout_ids>
//	0194f5a6-89ab-7cde-8123-456789abcdef
//	</rollout_ids>
//	</oai-mem-citation>
//
// (<thread_ids> in older builds). The rollout keeps it in the reply's
// text, and Codex records it parsed on the reply's event as well
// (memory_citation {entries:[{path,lineStart,lineEnd,note}],
// rolloutIds}). Both forms of one reply are one citation.

const (
	citationOpen  = "<oai-mem-citation>"
	citationClose = "</oai-mem-citation>"
)

// rawCitations reads the citation blocks of a reply's text.
func (p *RolloutParser) rawCitations(text string, at time.Time) {
	for {
		i := strings.Index(text, citationOpen)
		if i < 0 {
			return
		}
		text = text[i+len(citationOpen):]
		block := text
		if j := strings.Index(text, citationClose); j >= 0 {
			block, text = text[:j], text[j+len(citationClose):]
		} else {
			text = ""
		}
		var c Citation
		if body, ok := between(block, "<citation_entries>", "</citation_entries>"); ok {
			for _, l := range strings.Split(body, "\n") {
				if e, ok := p.citationEntry(l); ok {
					c.Entries = append(c.Entries, e)
				}
			}
		}
		ids, ok := between(block, "<rollout_ids>", "</rollout_ids>")
		if !ok {
			ids, _ = between(block, "<thread_ids>", "</thread_ids>")
		}
		for _, l := range strings.Split(ids, "\n") {
			if id := strings.TrimSpace(l); id != "" {
				c.RolloutIDs = append(c.RolloutIDs, id)
			}
		}
		if len(c.Entries) > 0 || len(c.RolloutIDs) > 0 {
			c.Raw = true
			p.cite(c, at)
		}
	}
}

func between(s, open, close string) (string, bool) {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return "", false
	}
	body, _, ok := strings.Cut(rest, close)
	return body, ok
}

// citationEntry reads one entry line, file:start-end|note=[...], as
// Codex's parser does (the last "|note=[" and the last ":" split it).
func (p *RolloutParser) citationEntry(l string) (CitationEntry, bool) {
	l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
	i := strings.LastIndex(l, "|note=[")
	if i < 0 {
		return CitationEntry{}, false
	}
	loc, note := l[:i], l[i+len("|note=["):]
	note, ok := strings.CutSuffix(note, "]")
	if !ok {
		return CitationEntry{}, false
	}
	j := strings.LastIndexByte(loc, ':')
	if j < 0 {
		return CitationEntry{}, false
	}
	from, to, ok := strings.Cut(loc[j+1:], "-")
	if !ok {
		return CitationEntry{}, false
	}
	a, err1 := strconv.Atoi(strings.TrimSpace(from))
	b, err2 := strconv.Atoi(strings.TrimSpace(to))
	if err1 != nil || err2 != nil {
		return CitationEntry{}, false
	}
	return CitationEntry{Path: p.citedPath(loc[:j]), LineStart: a, LineEnd: b, Note: strings.TrimSpace(note)}, true
}

// citedPath is a cited file relative to the memory root: the model
// writes it relative to the root, or absolute.
func (p *RolloutParser) citedPath(s string) string {
	s = strings.TrimSpace(s)
	if rel, ok := p.paths.rel(s, ""); ok {
		return rel
	}
	s = strings.ReplaceAll(s, `\`, "/")
	if s == "" || strings.HasPrefix(s, "/") || isWinAbs(s) || strings.HasPrefix(s, "~") {
		return s
	}
	return strings.TrimPrefix(path.Clean(s), "memories/")
}

// parsedCitation reads the memory_citation of a reply's event.
func (p *RolloutParser) parsedCitation(cj *citationJSON, at time.Time) {
	var c Citation
	for _, e := range cj.Entries {
		ce := CitationEntry{Path: p.citedPath(e.Path), LineStart: e.LineStart, LineEnd: e.LineEnd, Note: strings.TrimSpace(e.Note)}
		if ce.LineStart == 0 && ce.LineEnd == 0 {
			ce.LineStart, ce.LineEnd = e.LineStart2, e.LineEnd2
		}
		c.Entries = append(c.Entries, ce)
	}
	ids := cj.RolloutIDs
	if len(ids) == 0 {
		ids = cj.RolloutIDs2
	}
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" {
			c.RolloutIDs = append(c.RolloutIDs, id)
		}
	}
	if len(c.Entries) > 0 || len(c.RolloutIDs) > 0 {
		c.Parsed = true
		p.cite(c, at)
	}
}

func (p *RolloutParser) cite(c Citation, at time.Time) {
	if !p.event() {
		return
	}
	c.Time, c.Line = at, p.line
	p.cites.add(c)
}

// citationSet pairs the two forms of a reply's citation: by what it
// cites, the raw blocks and the parsed events are counted apart, and a
// citation seen n times in one form and m in the other is max(n, m)
// citations (each reply records both, in either order).
type citationSet struct {
	keys  []string
	forms map[string]*citationForms
}

type citationForms struct{ raw, parsed []Citation }

func (s *citationSet) add(c Citation) {
	k := c.key()
	if s.forms == nil {
		s.forms = map[string]*citationForms{}
	}
	f := s.forms[k]
	if f == nil {
		f = &citationForms{}
		s.forms[k] = f
		s.keys = append(s.keys, k)
	}
	if c.Raw {
		f.raw = append(f.raw, c)
	} else {
		f.parsed = append(f.parsed, c)
	}
}

// list is the citations, each once, in the order they were first seen.
func (s *citationSet) list() []Citation {
	var out []Citation
	for _, k := range s.keys {
		f := s.forms[k]
		n := max(len(f.raw), len(f.parsed))
		for i := 0; i < n; i++ {
			var c Citation
			if i < len(f.parsed) {
				c = f.parsed[i]
			} else {
				c = f.raw[i]
			}
			c.Raw, c.Parsed = i < len(f.raw), i < len(f.parsed)
			if c.Raw && c.Parsed && f.raw[i].Time.Before(c.Time) {
				c.Time, c.Line = f.raw[i].Time, f.raw[i].Line
			}
			out = append(out, c)
		}
	}
	sortByLine(out)
	return out
}

func sortByLine(cs []Citation) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Line < cs[j].Line })
}

// key is what a citation cites, the same whichever form recorded it.
func (c Citation) key() string {
	var b strings.Builder
	for _, e := range c.Entries {
		b.WriteString(e.Path)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.LineStart))
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(e.LineEnd))
		b.WriteByte('|')
		b.WriteString(e.Note)
		b.WriteByte('\n')
	}
	b.WriteByte(0)
	for _, id := range c.RolloutIDs {
		b.WriteString(strings.ToLower(id))
		b.WriteByte('\n')
	}
	return b.String()
}
