package prose

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// dateFuzzSeeds are inputs that exercise each scanner's edges: fences, code
// spans, frontmatter, every language, invalid UTF-8 and NUL bytes.
var dateFuzzSeeds = []string{
	"",
	"tomorrow",
	"Tomorrow's headline; next Thursday; in 2 weeks; 3 days ago; by EOD.",
	"the day before yesterday and the day after tomorrow",
	"by the end of the month, later this week, earlier this year",
	"---\ndescription: ship tomorrow\n---\nbody next week",
	"a\n```\ntomorrow\n```\nb `today` c <!-- x --> https://x/today [a](b) [[c]]",
	"明天部署。下周三评审。3天后上线。来週の月曜日。다음 주 월요일에 배포. 3일 후",
	"May 26, June 3rd, 26th of May, Jan. 5, May 26-28, 5月26日, 5월 26일",
	"\xff\xfe\x00tomorrow\x00明\xe6天\xe6",
	"`````\n````\n```",
	"下周一起 上上个星期 十二个月后 两周后 二十天前",
	"5月", "월", "十", "\xec\x9b", "今", "ay", "EOD", "MAY 1",
	"0://", "see tomorrow https://x/y next week",
}

func FuzzFindRelativeDates(f *testing.F) {
	for _, s := range append(dateFuzzSeeds, dateMemoryDated, dateMemoryWithDates, dateMemoryNoDates) {
		f.Add(s, int64(1781100000))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		anchor := time.Unix(unix%(1<<40), 0).UTC()
		got := FindRelativeDates(text, anchor)
		checkDateSpans(t, text, got)
		if want := findUnwindowed(text, anchor, true); !reflect.DeepEqual(got, want) {
			t.Fatalf("windowed %+v != whole-prose %+v for %q", got, want, text)
		}
	})
}

func FuzzFindMissingYears(f *testing.F) {
	for _, s := range append(dateFuzzSeeds, dateMemoryDated, dateMemoryWithDates, dateMemoryNoDates) {
		f.Add(s, int64(1781100000))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		anchor := time.Unix(unix%(1<<40), 0).UTC()
		got := FindMissingYears(text, anchor)
		checkDateSpans(t, text, got)
		if want := findUnwindowed(text, anchor, false); !reflect.DeepEqual(got, want) {
			t.Fatalf("windowed %+v != whole-prose %+v for %q", got, want, text)
		}
	})
}

func FuzzProseRanges(f *testing.F) {
	for _, s := range dateFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		all := Ranges(text)
		checkProseRanges(t, text, all)
		// proseRangesTo must agree with ProseRanges before its limit.
		for _, limit := range [...]int{0, len(text) / 3, len(text) / 2, len(text) - 1} {
			if limit < 0 {
				continue
			}
			to := proseRangesTo(text, limit)
			checkProseRanges(t, text, to)
			if a, b := proseClip(all, limit), proseClip(to, limit); !reflect.DeepEqual(a, b) {
				t.Fatalf("proseRangesTo(%q, %d) = %v, ProseRanges = %v: differ before the limit", text, limit, to, all)
			}
		}
		// prCodeSpanEnd against the byte-at-a-time original, from every
		// backtick run.
		for i := 0; i < len(text); i++ {
			if text[i] != '`' || i > 0 && text[i-1] == '`' {
				continue
			}
			run := prRunLen(text, i, '`')
			if got, want := prCodeSpanEnd(text, i+run, run), prCodeSpanEndRef(text, i+run, run); got != want {
				t.Fatalf("prCodeSpanEnd(%q, %d, %d) = %d, want %d", text, i+run, run, got, want)
			}
		}
	})
}

// proseClip cuts ranges off at limit, dropping what starts at or after it.
func proseClip(rs [][2]int, limit int) [][2]int {
	var out [][2]int
	for _, r := range rs {
		if r[0] < limit {
			out = append(out, [2]int{r[0], min(r[1], limit)})
		}
	}
	return out
}

// prCodeSpanEndRef is prCodeSpanEnd as first written, a byte at a time: the
// reference for the IndexByte version.
func prCodeSpanEndRef(text string, from, n int) int {
	for j := from; j < len(text); j++ {
		switch text[j] {
		case '`':
			r := prRunLen(text, j, '`')
			if r == n {
				return j + r
			}
			j += r - 1
		case '\n':
			k := j + 1
			for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
				k++
			}
			if k >= len(text) || text[k] == '\n' {
				return 0
			}
			if _, ok := prFence(text, j+1); ok {
				return 0
			}
		}
	}
	return 0
}

// findUnwindowed is FindRelativeDates (rel) or FindMissingYears with no
// prefilter (relScan, yearScan, the anchors) and no windows: every rule
// over all of the prose. Those are optimisations and must not change what is
// found.
func findUnwindowed(text string, anchor time.Time, rel bool) []DateSpan {
	day := dtCivil(anchor)
	ranges := Ranges(text)
	s := enScanner{text: text, day: day}
	s.tokenize(ranges)
	c := cjkScanner{text: text, day: day}
	var out []DateSpan
	if rel {
		out = s.relative(out)
		out = c.relative(ranges, out)
	} else {
		out = s.missingYears(out)
		out = c.missingYears(ranges, out)
	}
	return dtTidy(out)
}

// checkDateSpans asserts the DateSpan contract: in bounds, sorted,
// non-overlapping, Text is the text it covers, and every span says what it
// meant and what to write instead.
func checkDateSpans(t *testing.T, text string, spans []DateSpan) {
	t.Helper()
	prev := 0
	for _, s := range spans {
		if s.Start < prev || s.Start >= s.End || s.End > len(text) {
			t.Fatalf("bad span [%d,%d) after %d in %q: %+v", s.Start, s.End, prev, text, spans)
		}
		if text[s.Start:s.End] != s.Text {
			t.Fatalf("Text %q != text[%d:%d] %q", s.Text, s.Start, s.End, text[s.Start:s.End])
		}
		if s.Meant == "" || s.Replacement == "" || s.Lang == "" {
			t.Fatalf("incomplete span %+v in %q", s, text)
		}
		prev = s.End
	}
}

// TestDatesPrefilterPhrases is a fuzz test with a grammar: each key word
// (and month name) with each lead-in and tail the rules read, joined by
// spaces or by other separators, glue and markup at random, then random
// runs of the same words. Far likelier than random bytes to hold a phrase
// or a near miss, and each must give what matching all of the prose does
// (findUnwindowed), so relScan and yearScan may turn nothing away that a
// rule would take.
func TestDatesPrefilterPhrases(t *testing.T) {
	keys := strings.Fields(`today Today tomorrow TOMORROW yesterday tonight EOD eod
		Monday friday SUNDAY week weeks weekend month Months year years quarter
		day days morning afternoon evening night nightly nowadays holiday
		May Jan Sept June march AUG 26 26th 明天 下周三 3天后 5月26日 来週の月曜日 다음 주`)
	leads := []string{"", "in 3", "in 12", "in one", "in a", "in an", "in a couple of",
		"in a couple", "3", "a", "a couple of", "every 8", "this", "next", "last", "the last",
		"this past", "this coming", "later this", "earlier this", "the end of", "end of the",
		"by the end of", "end of next", "on", "by", "until", "till", "before", "after", "since",
		"we shipped it on", "usually on", "26", "the 26th of", "26 of", "2026", "of"}
	tails := []string{"", "ago", "from now", "from today", "'s plan", "of the sprint",
		"through Friday", "afternoons", "is the deadline", "26", "26th", "5, 2026", "2026", "-28"}
	seps := []string{"\t", "\n", "\n\n", ", ", ". ", "-", "_", "/", "'s ", " `", "` ",
		"\n```\n", "://", "(", ")", "](", "[[", "]]", "<!--", "-->", ".", "\r\n", ""}
	r := rand.New(rand.NewPCG(1, 2))
	sep := func() string {
		if r.IntN(4) > 0 {
			return " "
		}
		return seps[r.IntN(len(seps))]
	}
	anchors := []time.Time{dateAnchor, time.Date(2026, 12, 31, 9, 0, 0, 0, time.UTC)}
	check := func(text string) {
		for _, at := range anchors {
			if got, want := FindRelativeDates(text, at), findUnwindowed(text, at, true); !reflect.DeepEqual(got, want) {
				t.Fatalf("FindRelativeDates(%q) = %+v, whole prose %+v", text, got, want)
			}
			if got, want := FindMissingYears(text, at), findUnwindowed(text, at, false); !reflect.DeepEqual(got, want) {
				t.Fatalf("FindMissingYears(%q) = %+v, whole prose %+v", text, got, want)
			}
		}
	}
	for _, k := range keys {
		for _, l := range leads {
			for _, tl := range tails {
				check("We " + l + sep() + k + sep() + tl + sep() + "x")
			}
		}
	}
	words := append(keys, strings.Fields("this next last past on by in a couple of the end ago from now")...)
	for range 20000 {
		var b strings.Builder
		for k := 1 + r.IntN(8); k > 0; k-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString(sep())
		}
		check(b.String())
	}
}

// A long run of letters full of trigger words ("daysdays…") once cost a
// pass over the run for each of them (dtAnchorWindows); now one. This takes
// milliseconds, and most of a minute with the old widening.
func TestDatesLongWord(t *testing.T) {
	text := "We ship in 3 days and 5月26日. " + strings.Repeat("daysdays", 1<<15) + " Tomorrow May 26."
	for _, rel := range []bool{true, false} {
		got := FindMissingYears(text, dateAnchor)
		if rel {
			got = FindRelativeDates(text, dateAnchor)
		}
		if want := findUnwindowed(text, dateAnchor, rel); !reflect.DeepEqual(got, want) || len(got) != 2 {
			t.Fatalf("rel=%v: got %+v, want %+v (two spans)", rel, got, want)
		}
	}
}
