package codex

import (
	"strconv"
	"strings"
	"time"
)

// Problem is one way a file breaks the shape Codex expects, at a 1-based
// line (0 for the whole file).
type Problem struct {
	Line int
	What string
}

// Section is one "## " section of the summary.
type Section struct {
	Title string
	// Line is its heading's 1-based line; End the last line it holds.
	Line, End int
	// From and To are its bytes in the file.
	From, To int
}

// Summary is memory_summary.md's shape (facts §1.3.1).
type Summary struct {
	// Header is true when the first line is exactly "v1" (a trailing \r
	// allowed, as Rust's line splitting strips it; a byte-order mark,
	// spaces or frontmatter fail).
	Header   bool
	Sections []Section
	// ProfileWords counts the User Profile section's words.
	ProfileWords int
	Problems     []Problem
}

// ParseSummary reads the summary's shape and says what breaks it: the
// header, the four sections in order (each once), the profile's length,
// and the "#### YYYY-MM-DD" day headings (real dates, newest first within
// their scope).
func ParseSummary(content []byte) Summary {
	var s Summary
	lines := splitLines(string(content))
	if len(lines) > 0 {
		first := strings.TrimSuffix(lines[0].text, "\r")
		s.Header = first == SummaryHeader
	}
	if !s.Header {
		what := "the first line must be exactly v1: Codex's consolidation then discards the summary and writes it again from scratch, and fails if it still does not"
		if len(lines) > 0 && strings.HasPrefix(lines[0].text, "\ufeff") {
			what = "the first line must be exactly v1, and a byte-order mark comes before it: Codex's consolidation treats the summary as invalid"
		}
		s.Problems = append(s.Problems, Problem{Line: 1, What: what})
	}
	var scope string
	var lastDay time.Time
	for i, l := range lines {
		text := strings.TrimSuffix(l.text, "\r")
		n := i + 1
		switch {
		case strings.HasPrefix(text, "## "):
			if k := len(s.Sections); k > 0 {
				s.Sections[k-1].End, s.Sections[k-1].To = n-1, l.from
			}
			s.Sections = append(s.Sections, Section{Title: strings.TrimSpace(text[3:]), Line: n, From: l.from})
			scope, lastDay = "", time.Time{}
		case strings.HasPrefix(text, "### "):
			scope, lastDay = strings.TrimSpace(text[4:]), time.Time{}
		case strings.HasPrefix(text, "#### "):
			day := strings.TrimSpace(text[5:])
			if !inWhatsIn(s.Sections) || scope == "Older Memory Topics" {
				continue // a scope heading under Older Memory Topics, not a day
			}
			d, err := time.Parse("2006-01-02", day)
			switch {
			case err != nil:
				s.Problems = append(s.Problems, Problem{Line: n, What: "a recent-memory day heading must be a date, YYYY-MM-DD: " + day})
			case !lastDay.IsZero() && d.After(lastDay):
				s.Problems = append(s.Problems, Problem{Line: n, What: "the days under " + scope + " must be newest first: " + day + " comes after " + lastDay.Format("2006-01-02")})
			}
			if err == nil {
				lastDay = d
			}
		}
	}
	if k := len(s.Sections); k > 0 {
		s.Sections[k-1].End, s.Sections[k-1].To = len(lines), len(content)
	}
	s.Problems = append(s.Problems, sectionOrder(s.Sections)...)
	for _, sec := range s.Sections {
		if sec.Title == "User Profile" {
			body := string(content[sec.From:sec.To])
			if nl := strings.IndexByte(body, '\n'); nl >= 0 {
				body = body[nl+1:]
			} else {
				body = ""
			}
			s.ProfileWords = len(strings.Fields(body))
			if s.ProfileWords > ProfileMaxWords {
				s.Problems = append(s.Problems, Problem{Line: sec.Line, What: "the User Profile is " + strconv.Itoa(s.ProfileWords) + " words; Codex's template allows at most 350"})
			}
		}
	}
	return s
}

// inWhatsIn reports whether the section being read is What's in Memory.
func inWhatsIn(secs []Section) bool {
	return len(secs) > 0 && secs[len(secs)-1].Title == "What's in Memory"
}

// sectionOrder says which of the four sections is missing, repeated or
// out of order.
func sectionOrder(secs []Section) []Problem {
	var out []Problem
	pos := map[string]int{}
	for i, s := range secs {
		if _, dup := pos[s.Title]; dup {
			out = append(out, Problem{Line: s.Line, What: "the section ## " + s.Title + " appears twice"})
			continue
		}
		pos[s.Title] = i
	}
	last, lastTitle := -1, ""
	for _, want := range SummarySections {
		i, ok := pos[want]
		if !ok {
			out = append(out, Problem{What: "the section ## " + want + " is missing"})
			continue
		}
		if i < last {
			out = append(out, Problem{Line: secs[i].Line, What: "the section ## " + want + " must come after ## " + lastTitle})
			continue
		}
		last, lastTitle = i, want
	}
	return out
}

// line is one line of a text (without its \n) and where it begins.
type line struct {
	text string
	from int
}

func splitLines(s string) []line {
	var out []line
	for from := 0; from < len(s); {
		nl := strings.IndexByte(s[from:], '\n')
		if nl < 0 {
			out = append(out, line{s[from:], from})
			break
		}
		out = append(out, line{s[from : from+nl], from})
		from += nl + 1
	}
	return out
}
