package dream

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/prose"
)

// The per-file proposers: each rewrites spans of one file and nothing else,
// one proposal per file so that each can be accepted on its own.
//
// None of them stamps metadata.modified. The stamp is the anchor relative
// dates are read from and the clock stale-memory counts on; a mechanical
// rewrite adds no knowledge, and moving the anchor would make a date
// proposal regenerated after another one (a conflict on the same file)
// read "tomorrow" from the wrong day.

// edit replaces content[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// applyEdits makes non-overlapping edits (any order) to content.
func applyEdits(content []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue // overlapping: the first one wins
		}
		b.Write(content[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(content[last:])
	return []byte(b.String())
}

// contentFindings drops the findings on a file's name (line 0): a
// redaction of the content does not fix them.
func contentFindings(fs []model.Finding) []model.Finding {
	var out []model.Finding
	for _, f := range fs {
		if f.Line > 0 {
			out = append(out, f)
		}
	}
	return out
}

// proposeRedactions replaces every secret in a file with [REDACTED].
func proposeRedactions(s *dreamState) []model.Proposal {
	var out []model.Proposal
	for _, path := range s.ruleFiles(consolidate.RuleSecret) {
		content, ok := s.content(path)
		if !ok {
			continue
		}
		all := s.opts.Secrets.Scan(string(content))
		secrets := secretsOutsideItems(s.opts.Secrets, string(content))
		if len(secrets) == 0 || secretInFileLink(string(content), secrets) {
			continue // a link to a file named with a secret: only a rename fixes it (redactAfter)
		}
		kept := ""
		fixes := contentFindings(s.fileFindings(path, consolidate.RuleSecret))
		if len(all) > len(secrets) {
			// The block stays as Claude Code wrote it; its secret
			// finding stays too.
			kept = " The secret inside metadata.claudeCodeItem stays: memtui keeps that block byte for byte, so remove it by hand."
			items := claude.ItemSpans(content)
			var out []model.Finding
			for _, f := range fixes {
				if !lineInItems(content, items, f.Line) {
					out = append(out, f)
				}
			}
			fixes = out
		}
		edits, kinds := redactions(secrets)
		n := len(secrets)
		out = append(out, s.proposal(model.KindRedactSecret,
			fmt.Sprintf("Redact %d %s in %s", n, model.Plural(n, "secret", "secrets"), path),
			fmt.Sprintf("%s holds %s. Memory is injected into every prompt and may be synced, so the %s %s replaced with [REDACTED] and nothing else changes. Rotate the %s too: it has been on disk, and in transcripts.%s",
				path, listNames(kinds), model.Plural(n, "secret", "secrets"), model.Plural(n, "is", "are"), model.Plural(n, "credential", "credentials"), kept),
			fixes,
			[]model.Change{s.update(path, applyEdits(content, edits))}))
	}
	return out
}

// lineInItems reports whether 1-based line n of content lies in one of
// the claudeCodeItem spans.
func lineInItems(content []byte, items [][2]int, n int) bool {
	if n < 1 || len(items) == 0 {
		return false
	}
	off := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(content[off:], '\n')
		if j < 0 {
			return false
		}
		off += j + 1
	}
	return claude.InItem(items, off, off+1)
}

// anchorOf is when a file's relative dates were written: metadata.modified,
// else the file's mtime (as the relative-date check reads them).
func (s *dreamState) anchorOf(path string) (time.Time, string) {
	f := s.file(path)
	if f == nil {
		return time.Time{}, ""
	}
	if doc := s.docs[path]; !doc.FM.ModifiedTime.IsZero() {
		return doc.FM.ModifiedTime.In(time.Local), "metadata.modified"
	}
	return f.ModTime.In(time.Local), "the file's mtime"
}

// prepositions after which "on 2026-06-11" must lose its "on": "by
// tomorrow" is "by 2026-06-11", not "by on 2026-06-11".
var prepositions = map[string]bool{"by": true, "until": true, "till": true, "from": true, "since": true, "before": true,
	"after": true, "on": true, "for": true, "starting": true, "through": true, "to": true, "at": true, "as of": true, "of": true}

// fitReplacement adapts a date's replacement to the words around it: no
// doubled preposition, and a capital where the phrase had one.
func fitReplacement(text string, sp prose.DateSpan) string {
	r := sp.Replacement
	if strings.HasPrefix(r, "on ") && prepositions[strings.ToLower(wordBefore(text, sp.Start))] {
		r = strings.TrimPrefix(r, "on ")
	}
	if first, _ := utf8.DecodeRuneInString(sp.Text); unicode.IsUpper(first) {
		rf, n := utf8.DecodeRuneInString(r)
		r = string(unicode.ToUpper(rf)) + r[n:]
	}
	return r
}

// wordBefore is the word just before offset i, skipping spaces.
func wordBefore(text string, i int) string {
	j := i
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	k := j
	for k > 0 {
		r, n := utf8.DecodeLastRuneInString(text[:k])
		if !unicode.IsLetter(r) {
			break
		}
		k -= n
	}
	return text[k:j]
}

// proposeAbsoluteDates rewrites relative dates ("tomorrow", "next week",
// 明天) as the dates they meant when the file was written.
func proposeAbsoluteDates(s *dreamState) []model.Proposal {
	return s.dateProposals(consolidate.RuleRelativeDate, model.KindAbsolutizeDates, prose.FindRelativeDates)
}

// proposeYears adds the year to dates written without one.
func proposeYears(s *dreamState) []model.Proposal {
	return s.dateProposals(consolidate.RuleDateMissingYear, model.KindAddYear, prose.FindMissingYears)
}

func (s *dreamState) dateProposals(rule string, kind model.ProposalKind, find func(string, time.Time) []prose.DateSpan) []model.Proposal {
	var out []model.Proposal
	for _, path := range s.ruleFiles(rule) {
		content, ok := s.content(path)
		if !ok {
			continue
		}
		at, source := s.anchorOf(path)
		if at.IsZero() || at.Year() < 2000 {
			continue
		}
		text := string(content)
		spans := find(text, at)
		if items := claude.ItemSpans(content); len(items) > 0 {
			// Text in a claudeCodeItem block (a typed prompt) is Claude
			// Code's record, not the memory: it stays as written.
			var keep []prose.DateSpan
			for _, sp := range spans {
				if !claude.InItem(items, sp.Start, sp.End) {
					keep = append(keep, sp)
				}
			}
			spans = keep
		}
		if len(spans) == 0 {
			continue
		}
		edits := make([]edit, len(spans))
		var lines, ambiguous []string
		for i, sp := range spans {
			rep := fitReplacement(text, sp)
			edits[i] = edit{sp.Start, sp.End, rep}
			lines = append(lines, fmt.Sprintf("\"%s\" → \"%s\"", sp.Text, rep))
			if sp.Ambiguous {
				ambiguous = append(ambiguous, fmt.Sprintf("\"%s\" (%s)", sp.Text, sp.Note))
			}
		}
		n := len(spans)
		var title, why string
		if kind == model.KindAbsolutizeDates {
			title = fmt.Sprintf("Make %d relative %s absolute in %s", n, model.Plural(n, "date", "dates"), path)
			why = fmt.Sprintf("Read later, a relative date means nothing: counted from %s (%s), %s.", source, at.Format("2006-01-02"), strings.Join(lines, ", "))
		} else {
			title = fmt.Sprintf("Add the year to %d %s in %s", n, model.Plural(n, "date", "dates"), path)
			why = fmt.Sprintf("A date without a year turns ambiguous within months: written %s (%s), %s.", at.Format("2006-01-02"), source, strings.Join(lines, ", "))
		}
		if len(ambiguous) > 0 {
			why += " Check before accepting: " + strings.Join(ambiguous, "; ") + " can be read more than one way."
		}
		out = append(out, s.proposal(kind, title, why, s.fileFindings(path, rule),
			[]model.Change{s.update(path, applyEdits(content, edits))}))
	}
	return out
}

// redactions are the edits that replace each secret found with its
// redaction, and the kinds of secret among them (each named once, in
// the order found), for a redact-secret proposal's words.
func redactions(found []secrets.Secret) ([]edit, []string) {
	edits := make([]edit, len(found))
	var kinds []string
	seen := map[string]bool{}
	for i, sec := range found {
		edits[i] = edit{sec.Start, sec.End, sec.Redaction()}
		if l := consolidate.SecretLabel(sec.Description); !seen[l] {
			seen[l] = true
			kinds = append(kinds, l)
		}
	}
	return edits, kinds
}
