package dream

import (
	"fmt"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
	"github.com/memtui/memtui/model/prose"
)

// The per-file proposers of a Codex store: redactions and dates, with
// Claude's detectors and rewriting (proposeRedactions, dateProposals),
// one proposal per file so that each can be accepted on its own.

// proposeCodexRedactions replaces every secret of each file memtui may
// rewrite with [REDACTED]: memtui's whole rule set, as the checks run it
// (Codex redacts only four patterns, and only in what its extraction
// writes, codex facts §9 item 9).
func proposeCodexRedactions(st *codexState) []model.Proposal {
	var out []model.Proposal
	left := st.secretsLeft()
	for _, rel := range st.editable() {
		content, _ := st.content(rel)
		secrets := st.opts.Secrets.Scan(string(content))
		if len(secrets) == 0 {
			continue
		}
		edits, kinds := redactions(secrets)
		n := len(secrets)
		out = append(out, st.proposal(model.KindRedactSecret,
			fmt.Sprintf("Redact %d %s in %s", n, model.Plural(n, "secret", "secrets"), rel),
			fmt.Sprintf("%s holds %s. %s Codex redacts only four patterns, and only in what its extraction writes, so the %s %s replaced with [REDACTED] and nothing else changes. Rotate the %s too: it has been on disk, in the sessions that read it, and in Codex's baseline (memories/.git), which keeps the old text until Codex's next consolidation replaces it; memtui never touches .git.%s",
				rel, listNames(kinds), codexReadBy(rel), model.Plural(n, "secret", "secrets"), model.Plural(n, "is", "are"), model.Plural(n, "credential", "credentials"), left),
			contentFindings(st.fileFindings(rel, consolidate.RuleSecret)),
			[]model.Change{st.update(rel, applyEdits(content, edits))}))
	}
	return out
}

// codexReadBy says who reads the editable file rel.
func codexReadBy(rel string) string {
	switch rel {
	case codex.SummaryFile:
		return "Codex injects memory_summary.md into every session, whatever its project."
	case codex.HandbookFile:
		return "Codex's sessions search MEMORY.md whenever the summary points them there."
	}
	return "Codex's sessions read its skills on demand."
}

// secretsLeft says which files of the store hold secrets memtui does not
// redact, and why ("" for none): it is said in every redaction, so that
// nobody takes the store for clean once the proposals are applied.
func (st *codexState) secretsLeft() string {
	var notes, regenerated, other []string
	seen := map[string]bool{}
	for _, f := range st.allFindings() {
		if f.Rule != consolidate.RuleSecret || seen[f.File] {
			continue
		}
		seen[f.File] = true
		if _, ok := st.content(f.File); ok {
			continue
		}
		switch k := codex.KindOf(f.File); {
		case k == codex.KindNote:
			notes = append(notes, f.File)
		case k.Regenerated():
			regenerated = append(regenerated, f.File)
		default:
			other = append(other, f.File)
		}
	}
	var b strings.Builder
	if len(notes) > 0 {
		fmt.Fprintf(&b, " The secrets in %s stay: a note is your own input to Codex, which memtui does not rewrite; edit it by hand.", listNames(notes))
	}
	if len(regenerated) > 0 {
		fmt.Fprintf(&b, " The secrets in %s stay: Codex renders those files again from its database before every consolidation, so an edit there is lost; they go when the thread's memory does (thread/memoryMode/set to disabled).", listNames(regenerated))
	}
	if len(other) > 0 {
		fmt.Fprintf(&b, " The secrets in %s stay: memtui does not rewrite them (read in part, not text, or not a file Codex consolidates); edit them by hand.", listNames(other))
	}
	return b.String()
}

// allFindings are the store's findings, checked once.
func (st *codexState) allFindings() []model.Finding {
	if !st.checked {
		st.findings, st.checked = consolidate.CheckCodex(st.s, st.opts.Options), true
	}
	return st.findings
}

// proposeCodexAbsoluteDates rewrites relative dates ("tomorrow", "next
// week", 明天) in the files a person may edit as the dates they meant.
func proposeCodexAbsoluteDates(st *codexState) []model.Proposal {
	return st.dateProposals(consolidate.RuleRelativeDate, model.KindAbsolutizeDates, prose.FindRelativeDates)
}

// proposeCodexYears adds the year to dates written without one.
func proposeCodexYears(st *codexState) []model.Proposal {
	return st.dateProposals(consolidate.RuleDateMissingYear, model.KindAddYear, prose.FindMissingYears)
}

// dateAnchor is when the text of a span of a file was written, and what
// says so.
type dateAnchor struct {
	from, to int // the span, in bytes
	at       time.Time
	source   string
}

// dateProposals proposes one kind of date fix per Markdown file memtui may
// rewrite (memory_summary.md, MEMORY.md, skills/**/*.md). Dates count
// from the file's mtime, except in a task of MEMORY.md, where they count
// from the latest updated_at= of the rollouts the task cites: the task
// was written from those sessions, and a consolidation that rewrote the
// file days later moved its mtime, not its words' day.
func (st *codexState) dateProposals(rule string, kind model.ProposalKind, find func(string, time.Time) []prose.DateSpan) []model.Proposal {
	var out []model.Proposal
	for _, rel := range st.editable() {
		if !strings.HasSuffix(rel, ".md") {
			continue
		}
		content, _ := st.content(rel)
		text := string(content)
		mtime := dateAnchor{0, len(text), st.s.File(rel).ModTime.In(time.Local), "the file's mtime"}
		anchors := []dateAnchor{mtime}
		if _, h, lines, ok := st.handbook(); ok && rel == codex.HandbookFile {
			anchors = append(handbookTaskAnchors(h, lines), mtime)
		}
		var spans []prose.DateSpan
		var of []dateAnchor // the anchor of each span
		var tasks []dateAnchor
		if len(anchors) > 1 {
			tasks = anchors[:len(anchors)-1]
		}
		if valid(mtime.at) {
			for _, sp := range find(text, mtime.at) {
				if !inAny(tasks, sp.Start) {
					spans, of = append(spans, sp), append(of, mtime)
				}
			}
		}
		for _, a := range tasks {
			// The finder sees the task alone: it starts at its heading,
			// outside any code fence, so nothing before it changes what
			// it finds.
			for _, sp := range find(text[a.from:a.to], a.at) {
				sp.Start, sp.End = sp.Start+a.from, sp.End+a.from
				spans, of = append(spans, sp), append(of, a)
			}
		}
		if len(spans) == 0 {
			continue
		}
		edits := make([]edit, len(spans))
		var parts, ambiguous []string
		var last dateAnchor
		var lines []string
		flush := func() {
			if len(lines) == 0 {
				return
			}
			if kind == model.KindAbsolutizeDates {
				parts = append(parts, fmt.Sprintf("counted from %s (%s), %s", last.source, last.at.Format("2006-01-02"), strings.Join(lines, ", ")))
			} else {
				parts = append(parts, fmt.Sprintf("written %s (%s), %s", last.at.Format("2006-01-02"), last.source, strings.Join(lines, ", ")))
			}
			lines = nil
		}
		for i, sp := range spans {
			if of[i] != last {
				flush()
				last = of[i]
			}
			rep := fitReplacement(text, sp)
			edits[i] = edit{sp.Start, sp.End, rep}
			lines = append(lines, fmt.Sprintf("\"%s\" → \"%s\"", sp.Text, rep))
			if sp.Ambiguous {
				ambiguous = append(ambiguous, fmt.Sprintf("\"%s\" (%s)", sp.Text, sp.Note))
			}
		}
		flush()
		n := len(spans)
		var title, why string
		if kind == model.KindAbsolutizeDates {
			title = fmt.Sprintf("Make %d relative %s absolute in %s", n, model.Plural(n, "date", "dates"), rel)
			why = "Read later, a relative date means nothing: " + strings.Join(parts, "; ") + "."
		} else {
			title = fmt.Sprintf("Add the year to %d %s in %s", n, model.Plural(n, "date", "dates"), rel)
			why = "A date without a year turns ambiguous within months: " + strings.Join(parts, "; ") + "."
		}
		if len(ambiguous) > 0 {
			why += " Check before accepting: " + strings.Join(ambiguous, "; ") + " can be read more than one way."
		}
		out = append(out, st.proposal(kind, title, why, st.fileFindings(rel, rule),
			[]model.Change{st.update(rel, applyEdits(content, edits))}))
	}
	return out
}

// valid reports whether t can anchor dates (as the Claude check requires:
// a clock set to 1970 anchors nothing).
func valid(t time.Time) bool { return !t.IsZero() && t.Year() >= 2000 }

func inAny(as []dateAnchor, off int) bool {
	for _, a := range as {
		if off >= a.from && off < a.to {
			return true
		}
	}
	return false
}

// handbookTaskAnchors are MEMORY.md's "## Task n" sections whose rollout
// bullets give an updated_at= (the latest of them), in file order.
func handbookTaskAnchors(h *codex.Handbook, lines []hbLine) []dateAnchor {
	type task struct {
		at    time.Time
		label string
	}
	byLine := map[int]task{}
	for _, g := range h.Groups {
		for _, t := range g.Tasks {
			var at time.Time
			for _, r := range t.Rollouts {
				for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
					if v, err := time.Parse(layout, r.Note["updated_at"]); err == nil {
						if v.After(at) {
							at = v
						}
						break
					}
				}
			}
			if valid(at) {
				byLine[t.Line] = task{at.In(time.Local), fmt.Sprintf("the updated_at of Task %d of \"%s\"", t.N, g.Title)}
			}
		}
	}
	var out []dateAnchor
	for i := 0; i < len(lines); {
		l := lines[i]
		t, ok := byLine[l.task]
		if l.task == 0 || !ok {
			i++
			continue
		}
		j := i
		for j < len(lines) && lines[j].task == l.task {
			j++
		}
		out = append(out, dateAnchor{l.from, lines[j-1].to, t.at, t.label})
		i = j
	}
	return out
}
