package model

import (
	"reflect"
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
		checkProseRanges(t, text, ProseRanges(text))
	})
}

// findUnwindowed is FindRelativeDates (rel) or FindMissingYears matching over
// all the prose rather than windows around the triggers: the windows are an
// optimisation and must not change what is found.
func findUnwindowed(text string, anchor time.Time, rel bool) []DateSpan {
	var en, cjk []int
	if rel {
		en, cjk = relAnchors(text)
	} else {
		en, cjk = yearAnchors(text)
	}
	if en == nil && cjk == nil {
		return nil
	}
	day := dtCivil(anchor)
	ranges := ProseRanges(text)
	var out []DateSpan
	if en != nil {
		s := enScanner{text: text, day: day}
		s.tokenize(ranges)
		if rel {
			out = s.relative(out)
		} else {
			out = s.missingYears(out)
		}
	}
	if cjk != nil {
		c := cjkScanner{text: text, day: day}
		if rel {
			out = c.relative(ranges, out)
		} else {
			out = c.missingYears(ranges, out)
		}
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
