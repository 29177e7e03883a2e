package consolidate

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// Claude Code's own write-time lints on topic files (facts doc 3.3,
// "Topic-file lints"), with its thresholds. Claude Code runs them only in
// recall mode, after an Edit, Write or memory_write, and reports the first
// that applies; memtui reports each of them, always, and says in the
// message that it is what Claude Code flags.
//
// The missing-description lint is frontmatter-incomplete and
// frontmatter-missing (files.go).

// The recall cap (facts doc 3.3 and 4.2): recall shows a memory's first
// 4,096 UTF-8 bytes or 200 lines. The larger of the two fractions decides;
// over 1 is over the cap, from 0.8 it is near. The target Claude Code asks
// for is 70% of the cap.
const (
	recallMaxBytes = model.RecallMaxBytes
	recallMaxLines = model.RecallMaxLines
)

// checkRecall reports a file over the recall cap (recall-truncated, an
// error, as Claude Code's "Error: this write left the memory file …") or
// near it (recall-near-limit).
func checkRecall(s *dirState, fs *CheckedFile) {
	size := fs.f.Size
	lines := strings.Count(fs.text, "\n")
	if len(fs.text) > 0 && !strings.HasSuffix(fs.text, "\n") {
		lines++
	}
	// near: size/4096 >= 0.8 or lines/200 >= 0.8, in integers.
	if size*5 < 4*recallMaxBytes && lines*5 < 4*recallMaxLines {
		return
	}
	byLines := int64(lines)*recallMaxBytes > size*recallMaxLines // the larger fraction
	have, limit, shown, target := claude.FormatFileSize(int(size)), "4KB", "4KB", claude.FormatFileSize(recallMaxBytes*7/10)
	if byLines {
		have, limit, shown, target = strconv.Itoa(lines)+" lines", "200-line", "200 lines", strconv.Itoa(recallMaxLines*7/10)+" lines"
	}
	p := fs.f.Path
	if size <= recallMaxBytes && lines <= recallMaxLines {
		s.report(RuleRecallNearLimit, p, 0,
			fmt.Sprintf("%s is %s, approaching the %s recall limit; Claude Code flags this after a write (in recall mode)", p, have, limit),
			fmt.Sprintf("Keep it to one fact under %s: summarize rather than append, and split distinct facts into their own files.", target))
		return
	}
	cut := min(recallMaxBytes, len(fs.text))
	cutLine := min(fs.lineOf(cut), recallMaxLines)
	msg := fmt.Sprintf("%s is %s, over the %s recall limit: recall shows other sessions only its first %s (up to about line %d); Claude Code flags this after a write (in recall mode)",
		p, have, limit, shown, cutLine)
	if fs.f.Truncated {
		msg += fmt.Sprintf("; memtui checked only the first %s", claude.FormatFileSize(len(fs.f.Content)))
	}
	s.report(RuleRecallTruncated, p, 0, msg,
		fmt.Sprintf("Rewrite it to under %s: keep one fact per file, split distinct facts into their own files, and summarize logs instead of appending. Do not continue it as a -2 file.", target))
}

// descriptionMaxUnits is where Claude Code's long_description lint starts:
// a description longer than 300 UTF-16 units.
const descriptionMaxUnits = 300

// checkDescription reports a description Claude Code finds too long. It
// reads the description Claude Code reads: none when its parse fails.
func checkDescription(s *dirState, fs *CheckedFile) {
	desc := fs.doc.Claude().Description
	if desc == "" {
		return
	}
	n := claude.UTF16Len(desc)
	if n <= descriptionMaxUnits {
		return
	}
	p := fs.f.Path
	s.report(RuleDescriptionTooLong, p, fieldLine(fs, "description", false),
		fmt.Sprintf("%s: the description is %d characters (UTF-16 units); recall matches on it as a one-line summary, and Claude Code flags one over %d after a write (in recall mode)", p, n, descriptionMaxUnits),
		"Shorten it to one specific line (about 150 characters) that says what question the file answers.")
}

// continuationName is Claude Code's continuation_chain pattern, on a
// file's base name: a stem ending in a non-digit, "-", one or two digits.
// ("." in JavaScript matches no line terminator.)
var continuationName = regexp.MustCompile(`^([^\n\r\x{2028}\x{2029}]*\D)-(\d{1,2})\.md$`)

// continuationOf returns the file a topic file continues, by Claude Code's
// rule: its name is <stem>-<N>.md with N >= 2, and the same folder holds
// <stem>.md, <stem>-<N-1>.md or <stem>-<N-1 zero-padded to N's width>.md.
// stem is "<folder>/<stem>", what the message names; ok is false when it
// continues nothing.
func continuationOf(rel string, exists func(string) bool) (stem string, ok bool) {
	dir, base := path.Split(rel)
	m := continuationName.FindStringSubmatch(base)
	if m == nil {
		return "", false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 2 {
		return "", false
	}
	prev := strconv.Itoa(n - 1)
	padded := strings.Repeat("0", max(len(m[2])-len(prev), 0)) + prev
	for _, c := range []string{m[1] + ".md", m[1] + "-" + prev + ".md", m[1] + "-" + padded + ".md"} {
		if exists(dir + c) {
			return dir + m[1], true
		}
	}
	return "", false
}

// checkChains reports topic files that look like the continuation of
// another (notes-2.md beside notes.md).
func checkChains(s *dirState) {
	if len(s.files) < 2 && s.index == nil {
		return
	}
	exists := func(p string) bool {
		if s.index != nil && p == s.index.f.Path {
			return true
		}
		_, ok := s.byPath[p]
		return ok
	}
	for _, fs := range s.files {
		if !isMemory(fs.f) {
			// Claude Code's write-time lints judge only memory files
			// (facts 3.3): not a daily log, not an archived memory.
			continue
		}
		stem, ok := continuationOf(fs.f.Path, exists)
		if !ok {
			continue
		}
		s.report(RuleContinuationChain, fs.f.Path, 0,
			fmt.Sprintf("%s looks like a continuation of %s.md: recall treats every file on its own and shows only its first 4KB, so chained parts are rarely found; Claude Code flags this after a write (in recall mode)", fs.f.Path, stem),
			fmt.Sprintf("Fold the durable facts back into %s.md (summarized to under 4KB), or give this file its own one-fact name and description.", stem))
	}
}
