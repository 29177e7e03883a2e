package prose

// Relative dates and dates without a year, found in memory prose.
//
// Libraries evaluated (on this 2-core machine, with a 1.4 KB memory that has
// no dates, and a list of ordinary sentences):
//
//   - github.com/olebedev/when v1.1.0: English rules only in practice (its zh
//     rules panic, "slice bounds out of range [-1:]", on plain English such as
//     "Currently we deploy with make ship"; no ja or ko). Parse returns one
//     merged match per call, so finding every phrase means re-parsing the
//     rest of the text. 0.51 MB/s (2.6 ms a file, ~63 s for 32 MB). Fires on
//     "May the tests pass", "now" and "2 pm".
//   - github.com/markusmobius/go-dateparser v1.4.7: Search reports the matched
//     text but no byte offsets. 0.23 MB/s with the default split strategy
//     (5.9 ms a file, ~140 s for 32 MB), 0.003 MB/s with "ngram". Reads "we"
//     and "We" as today, "of 3 seconds", "the 5/26" and "the last year of the"
//     as dates, resolves "next Thursday" to a past date and misses
//     "来週の月曜日". It would also pull in 110 packages (wazero, go-re2) and
//     upgrade go-re2, x/text and x/sys for the whole module.
//
// Neither finds phrases with offsets at anything near the lint's budget
// (within 2x of cat over 32 MB; cat of 20,000 such files takes ~0.3 s here),
// and both cry wolf on ordinary prose. So this file is a table-driven
// scanner in four steps:
//
//  1. A sharp prefilter (relScan, yearScan) decides from the raw text, in
//     one pass, whether a phrase is possible at all: not merely whether a
//     trigger word is there ("days", "day", "nightly" are in half of all
//     memories) but whether one stands where a rule could take it ("in 8
//     days", not "every 8 days" or "a 47-day retention"). Most memories stop
//     here: on a corpus of 20,000 memories (32 MB) one in twenty passes.
//  2. The trigger words are found (relAnchorsEN, yearScan, and for CJK
//     relAnchorsCJK, yearAnchorsCJK), each holding a byte that is rare in
//     prose, found with vectorised strings.IndexByte; their positions anchor
//     windows.
//  3. Ranges says what is prose, up to the end of the last window.
//  4. Only windows of prose around the triggers are tokenized (English) or
//     matched against literal tables (zh, ja, ko), so the cost grows with the
//     number of triggers, not the size of the file.
//
// Over that corpus both finders together take about 85 ms (they took about
// 300 ms with steps 2–4 alone, where half the memories passed step 2); see
// BenchmarkDatesCorpus.
//
// No regexp: a finder allocates nothing for text with no trigger.
//
// Readings chosen where the phrase is open (each documented where it is made):
//   - Weeks are ISO weeks, Monday to Sunday.
//   - "next Thursday" is the Thursday of next week; when the coming Thursday
//     is still in the anchor's week the span is Ambiguous and the Note gives
//     the other date. "last Friday" is the most recent Friday before the
//     anchor (Ambiguous when that is in the anchor's own week). "this Monday"
//     is the Monday of the anchor's week (Ambiguous when already past).
//   - "by/until/before/after Friday" look forward, "since Friday" looks back;
//     "on Friday" depends on tense, read from the words before it (was,
//     shipped… / will, scheduled…), and is Ambiguous when nothing tells.
//   - "in N months" and "N years ago" resolve to a month or a year, not a
//     day: "in 3 months" means roughly, and a day would be false precision.
//   - "end of the week" is Sunday, Ambiguous because many mean Friday; "end
//     of …" fires only after by/until/till/before, or with this/next (at the
//     end of the month, bare, is usually a recurring schedule).
//   - "EOD" fires only uppercase after by/until/till/before/at, as today.
//   - "the last year", "the next week", "over the past month": a determiner
//     before next/last makes it a duration or an ordinal, not a date.
//   - Possessives: "tomorrow's headline" → "the 2026-06-11 headline" (the span
//     includes "'s"); for weeks and months the "'s" stays outside the span.
//   - Month-day without a year takes the anchor's year unless that date is
//     more than half a year from the anchor, in which case the adjacent year
//     nearer to it wins and the span is Ambiguous.
//   - Not dates: "today's date" (whatever day it runs), "expires in 30 days"
//     (a rule), "every Thursday", "usually/never on Friday", "on Friday
//     afternoons", "Monday through Friday", "last Friday of the month"
//     (schedules), "in 3 weeks of testing" (a duration).
//   - CJK counts after a noun (部署3天后, 배포 3일 후, リリースの3日後) count
//     from that event, not from the anchor, and are skipped; so is N日前/N日後
//     in text without kana, where Chinese reads it as "before the Nth".

import (
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// DateSpan is a date expression found in text, with the absolute date it
// meant at the anchor.
type DateSpan struct {
	// Start and End are byte offsets into the text; Text == text[Start:End].
	Start, End int
	// Text is the phrase as written.
	Text string
	// Lang is the phrase's language: "en", "zh", "ja" or "ko".
	Lang string
	// Meant is the absolute date: "2026-06-11" for a day, "2026-06-08 to
	// 2026-06-14" for a range, "2026-06" for a month, "2026" for a year.
	Meant string
	// Replacement is what to write instead, in the phrase's language and
	// sense: "on 2026-06-11", "the week of 2026-06-08", "2026年6月11日".
	Replacement string
	// Ambiguous is true when the phrase has more than one common reading;
	// Note then names the other.
	Ambiguous bool
	// Note says how the phrase was resolved or why it is ambiguous.
	Note string
}

// FindRelativeDates returns the relative date phrases ("tomorrow", "next
// week", "明天", "来週の月曜日", "다음 주") in the prose of text, with what
// each meant on the anchor's calendar date in the anchor's own location.
// Spans are sorted and do not overlap. Text in which no phrase can stand
// returns nil after a single pass (relScan).
func FindRelativeDates(text string, anchor time.Time) []DateSpan {
	// The anchors, and so the windows, are those of the unfiltered scan;
	// relScan only skips a language in which nothing can be found.
	enMaybe, cjkMaybe := relScan(text)
	var en, cjk []int
	if enMaybe {
		en = relAnchorsEN(text)
	}
	if cjkMaybe {
		cjk = relAnchorsCJK(text)
	}
	return dtFind(text, anchor, en, cjk, true)
}

// FindMissingYears returns month-day dates written without a year ("May 26",
// "26th of May", "5月26日", "5월 26일") in the prose of text. Meant is the date
// in the anchor's year, or in the adjacent year when that is nearer to the
// anchor by more than half a year (then Ambiguous). Numeric forms like "5/26"
// are skipped: they read as fractions and ratios as often as dates.
func FindMissingYears(text string, anchor time.Time) []DateSpan {
	en, cjkMaybe := yearScan(text)
	var cjk []int
	if cjkMaybe {
		cjk = yearAnchorsCJK(text)
	}
	return dtFind(text, anchor, en, cjk, false)
}

// dtFind runs the rules of FindRelativeDates (rel) or FindMissingYears over
// the prose windows around the English and CJK anchors.
func dtFind(text string, anchor time.Time, en, cjk []int, rel bool) []DateSpan {
	if en == nil && cjk == nil {
		return nil
	}
	enW, cjkW := dtAnchorWindows(text, en, 24, 40, false), dtAnchorWindows(text, cjk, 12, 24, true)
	if rel {
		enW, cjkW = dtAnchorWindows(text, en, 80, 60, false), dtAnchorWindows(text, cjk, 40, 40, true)
	}
	// Only the prose inside a window is read, so Ranges may stop at the
	// end of the last one.
	end := 0
	if n := len(enW); n > 0 {
		end = enW[n-1][1]
	}
	if n := len(cjkW); n > 0 {
		end = max(end, cjkW[n-1][1])
	}
	ranges := proseRangesTo(text, end)
	day := dtCivil(anchor)
	var out []DateSpan
	if en != nil {
		s := enScanner{text: text, day: day}
		s.tokenize(dtInProse(enW, ranges))
		if rel {
			out = s.relative(out)
		} else {
			out = s.missingYears(out)
		}
	}
	if cjk != nil {
		c := cjkScanner{text: text, day: day}
		if rel {
			out = c.relative(dtInProse(cjkW, ranges), out)
		} else {
			out = c.missingYears(dtInProse(cjkW, ranges), out)
		}
	}
	return dtTidy(out)
}

// dtTidy sorts spans by position and drops any that overlap an earlier one.
func dtTidy(out []DateSpan) []DateSpan {
	if len(out) == 0 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	w := 0
	for _, s := range out {
		if w > 0 && s.Start < out[w-1].End {
			continue
		}
		out[w] = s
		w++
	}
	return out[:w]
}

// dtAnchorWindows turns anchor positions (ascending) into the ranges within
// before/after bytes of an anchor, widened to whole words (or whole
// characters for CJK) and merged. Every phrase is shorter than the window on
// either side of its trigger word, so matching inside the windows finds what
// matching the whole prose would, at a cost that grows with the number of
// triggers rather than the size of the file.
func dtAnchorWindows(text string, anchors []int, before, after int, cjk bool) [][2]int {
	var ws [][2]int
	for _, a := range anchors {
		lo, hi := max(a-before, 0), min(a+after, len(text))
		// last is the end of the window before, itself at a word (or
		// character) boundary. Widening need not go back past it, nor
		// forward from short of it: the windows merge either way. Without
		// that, a long run of letters holding many anchors was read once
		// for each of them (a megabyte of "daysdays…" took minutes).
		last := -1
		if n := len(ws); n > 0 {
			last = ws[n-1][1]
		}
		if cjk {
			for lo > 0 && !utf8.RuneStart(text[lo]) {
				lo--
			}
			for hi > last && hi < len(text) && !utf8.RuneStart(text[hi]) {
				hi++
			}
		} else {
			// Widen to whole words, then past two more words on each side
			// (with the blanks between them, however long): a phrase may
			// hold a long run of spaces ("10      May"), and the scanner
			// reads the word before a number and after a month to tell a
			// date from a list of numbers or a dated year. Blanks are what
			// the scanner reads between the words of a phrase: spaces,
			// tabs, carriage returns and line breaks (dtSpace), so a run
			// of "\r" cannot hide a day from its month.
			floor := max(last, 0)
			for lo > floor && prAlnum(text[lo-1]) {
				lo--
			}
			for k := 0; k < 2; k++ {
				for lo > floor && dtSpace(text[lo-1]) {
					lo--
				}
				for lo > floor && prAlnum(text[lo-1]) {
					lo--
				}
			}
			if hi > last {
				for hi < len(text) && prAlnum(text[hi]) {
					hi++
				}
				for k := 0; k < 2; k++ {
					for hi < len(text) && dtSpace(text[hi]) {
						hi++
					}
					for hi < len(text) && prAlnum(text[hi]) {
						hi++
					}
				}
			}
		}
		if n := len(ws); n > 0 && lo <= last {
			ws[n-1][1] = max(last, hi)
			continue
		}
		ws = append(ws, [2]int{lo, hi})
	}
	return ws
}

// dtInProse intersects windows with prose ranges; both lists are sorted.
func dtInProse(ws, ranges [][2]int) [][2]int {
	var out [][2]int
	i, j := 0, 0
	for i < len(ws) && j < len(ranges) {
		lo, hi := max(ws[i][0], ranges[j][0]), min(ws[i][1], ranges[j][1])
		if lo < hi {
			out = append(out, [2]int{lo, hi})
		}
		if ws[i][1] < ranges[j][1] {
			i++
		} else {
			j++
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Anchors
//
// Each trigger word holds a byte that is rare in prose; vectorised
// strings.IndexByte passes find those bytes, and a few compares confirm the
// word around each. The positions they confirm are the anchors of the windows
// above. This runs only for the memories the sharp prefilters below let
// through: the letters (y, m, g, f, k) are 7% of the bytes of English prose,
// one IndexByte call each, too many to pay for in every memory.

// relPairs holds the first two UTF-8 bytes of each CJK trigger character, as
// a bitset over byte pairs.
var relPairs [1024]uint64

// cjkThird holds, for the first two UTF-8 bytes of a 3-byte character, the
// third bytes (low six bits) that complete a trigger character.
var cjkRelThird [1024]uint64

func dtSetPair(t *[1024]uint64, a, b byte) {
	x := uint(a)<<8 | uint(b)
	t[x>>6] |= 1 << (x & 63)
}

func cjkIndex(b0, b1 byte) int { return int(b0&0x0F)<<6 | int(b1&0x3F) }

func addCJK(pairs, third *[1024]uint64, r rune) {
	var b [4]byte
	if utf8.EncodeRune(b[:], r) != 3 {
		return // every trigger is a 3-byte character; TestDateCJKPhrasesHaveTriggers would catch one that is not
	}
	dtSetPair(pairs, b[0], b[1])
	third[cjkIndex(b[0], b[1])] |= 1 << (b[2] & 0x3F)
}

func init() {
	for _, r := range cjkTriggerRunes {
		addCJK(&relPairs, &cjkRelThird, r)
	}
}

// cjkTriggerRunes are the characters at least one of which occurs in every
// zh/ja/ko relative phrase this file knows.
var cjkTriggerRunes = []rune("天日晚早周期拜月年朝夜晩週度늘일제레께주달해년젯피틀흘루월")

// relAnchorsEN returns the positions of English trigger words in s. Every
// trigger word holds one of a few uncommon letters (day and year a y,
// month/morning/tomorrow an m, night/evening a g, afternoon an f, week a k,
// quarter a q, EOD a D), so one vectorised strings.IndexByte pass per letter
// and case finds the candidates, and a few byte compares confirm the word.
func relAnchorsEN(s string) (en []int) {
	for k := 0; k < len(enKeyBytes); k++ {
		c := enKeyBytes[k]
		for i := strings.IndexByte(s, c); i >= 0; {
			if enAnchor(s, i) {
				en = append(en, i)
			}
			n := strings.IndexByte(s[i+1:], c)
			if n < 0 {
				break
			}
			i += n + 1
		}
	}
	if len(en) > 1 {
		sort.Ints(en)
	}
	return en
}

// relAnchorsCJK returns the positions of CJK trigger characters in s
// (cjkTriggerAt): a byte loop that skips ASCII a word at a time, run only
// for text relScan has seen one in.
func relAnchorsCJK(s string) (cjk []int) {
	for i := 0; i+2 < len(s); i++ {
		// Skip ASCII eight bytes at a time: CJK memories are full of it.
		for i+10 < len(s) {
			x := s[i : i+8]
			w := uint64(x[0]) | uint64(x[1])<<8 | uint64(x[2])<<16 | uint64(x[3])<<24 |
				uint64(x[4])<<32 | uint64(x[5])<<40 | uint64(x[6])<<48 | uint64(x[7])<<56
			if w&0x8080808080808080 != 0 {
				break
			}
			i += 8
		}
		if s[i] >= 0xE0 && cjkTriggerAt(s, i) {
			cjk = append(cjk, i)
		}
	}
	return cjk
}

// cjkTriggerAt reports whether a CJK trigger character starts at s[i]: its
// first two bytes in the relPairs bitset, its third in the cjkRelThird mask.
func cjkTriggerAt(s string, i int) bool {
	if i+2 >= len(s) {
		return false
	}
	x := uint(s[i])<<8 | uint(s[i+1])
	return x >= 0xE000 && relPairs[(x>>6)&1023]&(1<<(x&63)) != 0 &&
		cjkRelThird[cjkIndex(s[i], s[i+1])]&(1<<(s[i+2]&0x3F)) != 0 && s[i+2]&0xC0 == 0x80
}

// enKeyBytes are the letters relAnchorsEN searches for; see enAnchor.
const enKeyBytes = "yYmMgGfFkKqQD"

// cjkLeads holds the UTF-8 lead bytes of the CJK trigger characters.
var cjkLeads = func() string {
	var b []byte
	for _, r := range cjkTriggerRunes {
		if l := string(r)[0]; strings.IndexByte(string(b), l) < 0 {
			b = append(b, l)
		}
	}
	return string(b)
}()

// enAnchor confirms an English trigger word around the key letter at s[i].
func enAnchor(s string, i int) bool {
	switch s[i] | 0x20 {
	case 'y': // day, days, today, yesterday, Monday…; not nowadays; year
		return dtFoldAt(s, i-2, "da") && !dtFoldAt(s, i-6, "nowa") || dtFoldAt(s, i, "year")
	case 'm':
		return dtFoldAt(s, i, "month") || dtFoldAt(s, i, "morning") || dtFoldAt(s, i-2, "tomorrow")
	case 'g':
		return dtFoldAt(s, i-2, "night") || dtFoldAt(s, i-6, "evening")
	case 'f':
		return dtFoldAt(s, i-1, "afternoon")
	case 'k':
		return dtFoldAt(s, i-3, "week")
	case 'q':
		return dtFoldAt(s, i, "quarter")
	case 'd': // only 'D' is searched for: EOD
		return i >= 2 && s[i-1] == 'O' && s[i-2] == 'E'
	}
	return false
}

// dtFoldAt reports whether s[i:] starts with lower, ignoring ASCII case. It is
// only exact for letters, which is all the prefilter asks of it.
func dtFoldAt(s string, i int, lower string) bool {
	if i < 0 || len(s)-i < len(lower) {
		return false
	}
	for k := 0; k < len(lower); k++ {
		if s[i+k]|0x20 != lower[k] {
			return false
		}
	}
	return true
}

// yearAnchorsCJK returns the positions of 月 and 월 in s.
func yearAnchorsCJK(s string) (cjk []int) {
	for _, mark := range [...]string{"月", "월"} {
		for i := strings.Index(s, mark); i >= 0; {
			cjk = append(cjk, i)
			n := strings.Index(s[i+3:], mark)
			if n < 0 {
				break
			}
			i += n + 3
		}
	}
	if len(cjk) > 1 {
		sort.Ints(cjk)
	}
	return cjk
}

// dtMonthInitials are the capitals English month names start with.
const dtMonthInitials = "JFMASOND"

var dtMonthAbbrev = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}

// ---------------------------------------------------------------------------
// Sharp prefilters
//
// The trigger words of relAnchorsEN are common: "days" in "every 8 days",
// "day" in "47-day retention", "nightly" (a trigger because it starts with
// night). On a realistic corpus half the memories hold one, and each of those
// paid for Ranges and tokenize to find nothing; the many passes over
// common letters (m, g, f, y: one IndexByte call per occurrence) were
// themselves the largest single cost.
//
// relScan and yearScan decide, in one pass and from the raw text alone,
// whether a phrase is possible at all, and only then do the finders run the
// full path (anchors, prose ranges, windows) unchanged. They may answer yes
// when there is no phrase, but never no when there is one, so the results
// cannot change. That rests on what every English rule needs:
//
//   - The tokens of a phrase are whole words of the raw text (prose ranges
//     and windows start and end at word boundaries), each clean (no glue such
//     as "_", "/" or "47-" around it: dtGlueBefore, dtGlueAfter, the same
//     checks tokenize makes), and consecutive tokens are separated by
//     whitespace only (the join flag): any other byte or an unstored word in
//     between breaks the phrase.
//   - Every phrase holds a key word (a unit, a part of the day, a weekday,
//     today…), and each key word can only take part next to particular
//     neighbours: "days" only as "in N days" or "N days ago/from", "morning"
//     only after "this", a weekday only after this/next/last/past/coming or
//     on/by/until/before/after/since (relKeyWordMaybe lists them all, rule
//     by rule).
//
// The fuzz tests compare the finders against a reference that skips every
// prefilter and matches all of the prose, so a case missed here is caught.

// Bits of relPairTab, the table relScan reads each byte pair from.
const (
	relPairEN  = 1 << iota // the pair is one of relBigrams, in any case
	relPairCJK             // the first byte is the lead byte of a CJK trigger character
)

// relBigrams are letter pairs, one of which every English key word holds:
// day, days, today, yesterday and the weekdays "ay"; year and years "ye";
// week, weeks and weekend "ek"; month, months, morning and tomorrow "mo";
// night, tonight and evening "ni"; afternoon "ft"; quarter "qu". Each is
// rare in prose (under 0.15% of byte pairs on the corpus each, against
// 1–2% for the single letters relAnchorsEN searches), and EOD, which must be
// uppercase, adds "OD" below.
var relBigrams = [...]string{"ay", "ye", "ek", "mo", "ni", "ft", "qu"}

// relPairTab is indexed by two adjacent bytes, the first in the low byte (a
// little-endian 16-bit load), and holds relPair bits. 64 KB, of which prose
// touches a few kilobytes.
var relPairTab [1 << 16]uint8

func init() {
	pair := func(a, b byte) int { return int(a) | int(b)<<8 }
	for _, bg := range relBigrams {
		for _, a := range [2]byte{bg[0], bg[0] - ('a' - 'A')} {
			for _, b := range [2]byte{bg[1], bg[1] - ('a' - 'A')} {
				relPairTab[pair(a, b)] |= relPairEN
			}
		}
	}
	relPairTab[pair('O', 'D')] |= relPairEN
	for k := 0; k < len(cjkLeads); k++ {
		for b := 0; b < 256; b++ {
			relPairTab[pair(cjkLeads[k], byte(b))] |= relPairCJK
		}
	}
}

// relScan is FindRelativeDates' prefilter: en reports whether an English
// relative phrase may be in s (see relKeyWordMaybe), cjk whether s holds a
// CJK trigger character (exactly when relAnchorsCJK finds one). A false
// answer is exact: the finder would return nothing for that language.
//
// It reads every byte pair through relPairTab, sixteen at a time from two
// 64-bit loads, and branches only when one of the sixteen is marked (for
// one block in fifteen or so): about six instructions a byte, where
// relAnchorsEN made an IndexByte call (some 150 instructions and a
// mispredicted branch with what surrounds it) for one byte in thirteen.
func relScan(s string) (en, cjk bool) {
	want := uint8(relPairEN | relPairCJK)
	i := 0
	for ; i+17 <= len(s); i += 16 {
		x := s[i : i+17]
		// Two little-endian loads (the compiler merges the byte loads); the
		// pair at offset k is then the low 16 bits of the word shifted by
		// 8k, and the pairs that straddle a word take their second byte
		// from the next.
		w := uint64(x[0]) | uint64(x[1])<<8 | uint64(x[2])<<16 | uint64(x[3])<<24 |
			uint64(x[4])<<32 | uint64(x[5])<<40 | uint64(x[6])<<48 | uint64(x[7])<<56
		u := uint64(x[8]) | uint64(x[9])<<8 | uint64(x[10])<<16 | uint64(x[11])<<24 |
			uint64(x[12])<<32 | uint64(x[13])<<40 | uint64(x[14])<<48 | uint64(x[15])<<56
		q0 := relPairTab[uint16(w)] | relPairTab[uint16(w>>8)] |
			relPairTab[uint16(w>>16)] | relPairTab[uint16(w>>24)]
		q1 := relPairTab[uint16(w>>32)] | relPairTab[uint16(w>>40)] |
			relPairTab[uint16(w>>48)] | relPairTab[uint16(w>>56|u<<8)]
		q2 := relPairTab[uint16(u)] | relPairTab[uint16(u>>8)] |
			relPairTab[uint16(u>>16)] | relPairTab[uint16(u>>24)]
		q3 := relPairTab[uint16(u>>32)] | relPairTab[uint16(u>>40)] |
			relPairTab[uint16(u>>48)] | relPairTab[uint16(u>>56)|uint16(x[16])<<8]
		if (q0|q1|q2|q3)&want == 0 {
			continue
		}
		// Recheck only the marked quarters, pair by pair.
		for k, q := range [4]uint8{q0, q1, q2, q3} {
			if q&want != 0 {
				want = relPairsFrom(s, i+4*k, i+4*k+4, want)
			}
		}
		if want == 0 {
			return true, true
		}
	}
	want = relPairsFrom(s, i, len(s)-1, want)
	return want&relPairEN == 0, want&relPairCJK == 0
}

// relPairsFrom checks the pairs starting at s[lo:hi] for what relScan still
// wants (relPair bits) and returns what it wants after.
func relPairsFrom(s string, lo, hi int, want uint8) uint8 {
	for k := lo; k < hi; k++ {
		f := relPairTab[uint16(s[k])|uint16(s[k+1])<<8] & want
		if f == 0 {
			continue
		}
		if f&relPairCJK != 0 && cjkTriggerAt(s, k) {
			want &^= relPairCJK
		}
		if f&relPairEN != 0 && relKeyWordMaybe(s, k) {
			want &^= relPairEN
		}
		if want == 0 {
			break
		}
	}
	return want
}

// relKeyWordMaybe reports whether the word holding s[i] is an English key
// word that stands where some rule of enScanner.match could take it into a
// phrase. Each case names the rules; a neighbour is the word next to it
// across whitespace only (dtWordBefore, dtWordAfter).
func relKeyWordMaybe(s string, i int) bool {
	// Most pairs found are in other words (may, always, mobile, queue): the
	// bytes on either side of the pair turn most away before the word is
	// read.
	p, n := uint8(0), uint8(0)
	if i > 0 {
		p = dtFold[s[i-1]]
	}
	if i+2 < len(s) {
		n = dtFold[s[i+2]]
	}
	a, b := int(dtFold[s[i]]), int(dtFold[s[i+1]])
	if t, u := (int(p)*28+a)*28+b, (a*28+b)*28+int(n); relKeyTri[0][t>>6]&(1<<(t&63)) == 0 || relKeyTri[1][u>>6]&(1<<(u&63)) == 0 {
		return false
	}
	// The word around the pair: key words run from three letters (day,
	// EOD) to nine (yesterday, afternoon, Wednesday), so reading stops past
	// nine, which keeps a long run of letters from being read again for
	// every pair in it.
	ws, we := i, i+2
	for ws > 0 && we-ws <= 9 && prAlnum(s[ws-1]) {
		ws--
	}
	for we < len(s) && we-ws <= 9 && prAlnum(s[we]) {
		we++
	}
	if we-ws < 3 || we-ws > 9 {
		return false
	}
	kw, ok := dtLookupWord(s[ws:we])
	if !ok || dtGlueBefore(s, ws) || dtGlueAfter(s, we) {
		return false // every token of a phrase is clean
	}
	switch kw.id {
	case kwToday, kwTomorrow, kwYesterday, kwTonight:
		// A phrase by itself; also "the day before yesterday", "the day
		// after tomorrow" and "N days from today", which hold it.
		return true
	case kwEOD:
		return s[ws:we] == "EOD" // matchEOD
	case kwWeekday:
		// matchThisNextLast ("next Friday", "this past Monday") and
		// matchPrepWeekday ("by Friday").
		switch dtWordIDBefore(s, ws) {
		case kwThis, kwNext, kwLast, kwPast, kwComing, kwOn, kwBy, kwUntil, kwBefore, kwAfter, kwSince:
			return true
		}
		return false
	case kwWeek, kwMonth, kwYear, kwQuarter:
		// matchThisNextLast and matchLaterEarlier ("this week", "later this
		// month"), matchEndOf ("end of the year", "end of next week"), and
		// as units matchIn and matchAgo ("in a week", "1 year ago").
		switch dtWordIDBefore(s, ws) {
		case kwThis, kwNext, kwLast, kwOf, kwThe:
			return true
		}
		return relCountBefore(s, ws, we)
	case kwWeekend:
		switch dtWordIDBefore(s, ws) {
		case kwThis, kwNext, kwLast:
			return true // matchThisNextLast
		}
		return false
	case kwDay, kwDays, kwWeeks, kwMonths, kwYears:
		return relCountBefore(s, ws, we) // matchIn, matchAgo
	case kwMorning, kwAfternoon, kwEvening:
		return dtWordIDBefore(s, ws) == kwThis // matchThisNextLast
	case kwNight:
		return dtWordIDBefore(s, ws) == kwLast // matchThisNextLast
	}
	return false
}

// relKeyIDs are the keyword IDs relKeyWordMaybe takes: every phrase holds
// one of them.
var relKeyIDs = [...]kwID{kwToday, kwTomorrow, kwYesterday, kwTonight, kwEOD, kwWeekday,
	kwWeek, kwMonth, kwYear, kwQuarter, kwWeekend, kwDay, kwDays, kwWeeks, kwMonths, kwYears,
	kwMorning, kwAfternoon, kwEvening, kwNight}

// dtFold maps a byte to 1…26 for a letter in either case, 27 for a digit
// and 0 for anything else.
var dtFold = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = uint8(c-'a'+1), uint8(c-'a'+1)
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 27
	}
	return t
}()

// relKeyTri holds two bitsets over folded triples: [0] the byte before a
// pair and the pair, [1] the pair and the byte after, set for every pair
// inside a key word (0 stands for the word's edge). "ay" in a key word
// always follows d (day, today, Friday), so "may", "way" and "always" are
// turned away with one lookup; "mo" at the start of one is followed by n or
// r (month, morning, Monday), so "mobile" and "model" are too.
var relKeyTri = func() (t [2][28 * 28 * 28 / 64]uint64) {
	for w, k := range enWords {
		for _, id := range relKeyIDs {
			if k.id != id {
				continue
			}
			for o := 0; o+1 < len(w); o++ {
				p, n := uint8(0), uint8(0)
				if o > 0 {
					p = dtFold[w[o-1]]
				}
				if o+2 < len(w) {
					n = dtFold[w[o+2]]
				}
				a, b := int(dtFold[w[o]]), int(dtFold[w[o+1]])
				x, y := (int(p)*28+a)*28+b, (a*28+b)*28+int(n)
				t[0][x>>6] |= 1 << (x & 63)
				t[1][y>>6] |= 1 << (y & 63)
			}
		}
	}
	return t
}()

// relCountBefore reports whether the unit at s[ws:we] may close "in N
// units" (matchIn) or "N units ago/from …" (matchAgo), where N is what
// enScanner.number reads: digits, one…twelve, a/an, "a couple (of)".
func relCountBefore(s string, ws, we int) bool {
	p, id := dtWordBefore(s, ws)
	switch id {
	case kwDigits, kwNumber, kwA, kwCouple, kwOf:
	default:
		return false
	}
	if _, next := dtWordAfter(s, we); next == kwAgo || next == kwFrom {
		return true
	}
	// Back to the start of the count, then "in" before it.
	if id == kwOf {
		if p, id = dtWordBefore(s, p); id != kwCouple {
			return false
		}
	}
	if id == kwCouple {
		if p, id = dtWordBefore(s, p); id != kwA {
			return false
		}
	}
	_, id = dtWordBefore(s, p)
	return id == kwIn
}

// dtWordBefore returns the start and keyword ID (kwNone when it is not one)
// of the word that ends at the whitespace just before ws; -1 and kwNone when
// anything but whitespace comes first.
func dtWordBefore(s string, ws int) (int, kwID) {
	k := ws
	for k > 0 && dtSpace(s[k-1]) {
		k--
	}
	if k == ws || k == 0 || !prAlnum(s[k-1]) {
		return -1, kwNone
	}
	j := k - 1
	for j > 0 && prAlnum(s[j-1]) {
		j--
	}
	return j, dtWordID(s[j:k])
}

func dtWordIDBefore(s string, ws int) kwID {
	_, id := dtWordBefore(s, ws)
	return id
}

// dtWordAfter is dtWordBefore for the word after the whitespace at we; it
// returns that word's end.
func dtWordAfter(s string, we int) (int, kwID) {
	k := we
	for k < len(s) && dtSpace(s[k]) {
		k++
	}
	if k == we || k == len(s) || !prAlnum(s[k]) {
		return -1, kwNone
	}
	j := k + 1
	for j < len(s) && prAlnum(s[j]) {
		j++
	}
	return j, dtWordID(s[k:j])
}

// dtSpace reports the bytes tokenize lets stand between two joined tokens.
func dtSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func dtWordID(w string) kwID {
	kw, _ := dtLookupWord(w)
	return kw.id
}

// yearScan is FindMissingYears' prefilter and anchor finder. en holds the
// positions of capitalised month names (the anchors of the English windows)
// when one of them stands where monthFirst ("May 26") or dayFirst ("26
// May", "26th of May") could read it, else nil; cjk reports whether s holds
// 月 or 월.
//
// Month names start with a capital, rare in prose, so one vectorised
// strings.IndexByte pass per capital (J F M A S O N D) finds them; a
// per-byte loop, or a table or SWAR pass like relScan's, costs more, since
// capitals are only about one byte in fifty.
func yearScan(s string) (en []int, cjk bool) {
	maybe := false
	for k := 0; k < len(dtMonthInitials); k++ {
		c := dtMonthInitials[k]
		for i := strings.IndexByte(s, c); i >= 0; {
			if yearAnchorAt(s, i) {
				en = append(en, i)
				maybe = maybe || yearMonthMaybe(s, i)
			}
			n := strings.IndexByte(s[i+1:], c)
			if n < 0 {
				break
			}
			i += n + 1
		}
	}
	if !maybe {
		en = nil
	} else if len(en) > 1 {
		sort.Ints(en)
	}
	return en, strings.Contains(s, "月") || strings.Contains(s, "월")
}

// yearAnchorAt reports whether a word starts at s[i] with the first three
// letters of a month name, in any case: an anchor of the English windows.
// Most capitals start other words and stop here.
func yearAnchorAt(s string, i int) bool {
	if i > 0 && prAlnum(s[i-1]) || i+2 >= len(s) {
		return false
	}
	switch uint32(s[i]|0x20)<<16 | uint32(s[i+1]|0x20)<<8 | uint32(s[i+2]|0x20) {
	case 'j'<<16 | 'a'<<8 | 'n', 'f'<<16 | 'e'<<8 | 'b', 'm'<<16 | 'a'<<8 | 'r',
		'a'<<16 | 'p'<<8 | 'r', 'm'<<16 | 'a'<<8 | 'y', 'j'<<16 | 'u'<<8 | 'n',
		'j'<<16 | 'u'<<8 | 'l', 'a'<<16 | 'u'<<8 | 'g', 's'<<16 | 'e'<<8 | 'p',
		'o'<<16 | 'c'<<8 | 't', 'n'<<16 | 'o'<<8 | 'v', 'd'<<16 | 'e'<<8 | 'c':
		return true
	}
	return false
}

// yearMonthMaybe reports whether a month name starts at s[i] (an anchor)
// with a day number next to it: after it across spaces or tabs (and the dot
// of an abbreviation), as monthFirst needs, or before it across whitespace
// and perhaps "of", as dayFirst needs.
func yearMonthMaybe(s string, i int) bool {
	we := i + 1
	for we < len(s) && we-i <= 9 && prAlnum(s[we]) { // September is the longest
		we++
	}
	if we-i < 3 || we-i > 9 || dtWordID(s[i:we]) != kwMonthName {
		return false
	}
	k := we
	if k < len(s) && s[k] == '.' {
		k++
	}
	if j := k; j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			return true
		}
	}
	p, id := dtWordBefore(s, i)
	if id == kwOf {
		p, id = dtWordBefore(s, p)
	}
	return id == kwDigits && p >= 0
}

// ---------------------------------------------------------------------------
// Calendar arithmetic on civil dates (UTC midnight, so no DST surprises).

func dtCivil(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func dtWeekday(t time.Time) int { return (int(t.Weekday()) + 6) % 7 } // Monday = 0

func dtWeekStart(t time.Time) time.Time { return t.AddDate(0, 0, -dtWeekday(t)) }

func dtMonthStart(t time.Time, add int) time.Time {
	return time.Date(t.Year(), t.Month()+time.Month(add), 1, 0, 0, 0, 0, time.UTC)
}

func dtQuarterStart(t time.Time, add int) time.Time {
	q := (int(t.Month()) - 1) / 3
	return time.Date(t.Year(), time.Month(q*3+1+add*3), 1, 0, 0, 0, 0, time.UTC)
}

func dtISO(t time.Time) string { return t.Format("2006-01-02") }

type dtKind uint8

const (
	wDay dtKind = iota
	wWeek
	wWeekend
	wMonth
	wYear
	wQuarter
	wLater   // later this <sub>: from the day after the anchor to the period's end
	wEarlier // earlier this <sub>: from the period's start to the day before
	wEnd     // the end of <sub>
)

// dtWhen is a resolved date: a day, or a period from..to (inclusive).
type dtWhen struct {
	kind     dtKind
	sub      dtKind // the period for wLater, wEarlier, wEnd
	from, to time.Time
}

func dtDayWhen(t time.Time) dtWhen { return dtWhen{kind: wDay, from: t, to: t} }

// dtPeriod returns the period of kind k that is n periods from the one holding day.
func dtPeriod(k dtKind, day time.Time, n int) dtWhen {
	w := dtWhen{kind: k}
	switch k {
	case wWeek:
		w.from = dtWeekStart(day).AddDate(0, 0, 7*n)
		w.to = w.from.AddDate(0, 0, 6)
	case wWeekend:
		w.from = dtWeekStart(day).AddDate(0, 0, 7*n+5)
		w.to = w.from.AddDate(0, 0, 1)
	case wMonth:
		w.from = dtMonthStart(day, n)
		w.to = dtMonthStart(day, n+1).AddDate(0, 0, -1)
	case wQuarter:
		w.from = dtQuarterStart(day, n)
		w.to = dtQuarterStart(day, n+1).AddDate(0, 0, -1)
	case wYear:
		w.from = time.Date(day.Year()+n, 1, 1, 0, 0, 0, 0, time.UTC)
		w.to = time.Date(day.Year()+n, 12, 31, 0, 0, 0, 0, time.UTC)
	default:
		return dtDayWhen(day.AddDate(0, 0, n))
	}
	return w
}

// meant renders w for DateSpan.Meant.
func (w dtWhen) meant() string {
	switch w.kind {
	case wDay:
		return dtISO(w.from)
	case wMonth:
		return w.from.Format("2006-01")
	case wYear:
		return w.from.Format("2006")
	case wEnd:
		return dtISO(w.to)
	}
	if w.from.Equal(w.to) {
		return dtISO(w.from)
	}
	return dtISO(w.from) + " to " + dtISO(w.to)
}

// ---------------------------------------------------------------------------
// English

type kwID uint8

const (
	kwNone kwID = iota
	kwToday
	kwTonight
	kwTomorrow
	kwYesterday
	kwThe
	kwDay
	kwDays
	kwWeek
	kwWeeks
	kwWeekend
	kwMonth
	kwMonths
	kwYear
	kwYears
	kwQuarter
	kwBefore
	kwAfter
	kwThis
	kwNext
	kwLast
	kwPast
	kwComing
	kwMorning
	kwAfternoon
	kwEvening
	kwNight
	kwLater
	kwEarlier
	kwEnd
	kwOf
	kwIn
	kwAgo
	kwFrom
	kwNow
	kwA
	kwCouple
	kwOn
	kwBy
	kwUntil
	kwSince
	kwEOD
	kwWeekday   // val: 0 = Monday
	kwNumber    // val: the number (one..twelve; digits are parsed)
	kwMonthName // val: 1..12
	kwThrough
	kwDigits // a word starting with a digit; val: its leading number
	kwOther  // only its classes matter
)

// Word classes, for the context checks around a phrase.
const (
	clsDet      = 1 << iota // the, a, this…: "the last year" is not last year
	clsPrep                 // by, until…: the replacement needs no "on"/"in"
	clsFreq                 // every, usually…: "every week on Thursday" recurs
	clsGeneric              // expires, rotates…: "expires in 30 days" is a rule, not a date
	clsPast                 // was, did…: tense for "on Friday"
	clsFuture               // will, scheduled…
	clsCopula               // is, will…: "Tomorrow is the deadline" keeps a bare date
	clsNotAfter             // of, after…: "in 3 weeks of testing" is a duration
)

type kwInfo struct {
	id  kwID
	val int
	cls uint16
}

var enWords = func() map[string]kwInfo {
	m := map[string]kwInfo{}
	set := func(w string, id kwID, val int) {
		k := m[w]
		k.id, k.val = id, val
		m[w] = k
	}
	cls := func(c uint16, words ...string) {
		for _, w := range words {
			k := m[w]
			if k.id == kwNone {
				k.id = kwOther
			}
			k.cls |= c
			m[w] = k
		}
	}
	for w, id := range map[string]kwID{
		"today": kwToday, "tonight": kwTonight, "tomorrow": kwTomorrow, "yesterday": kwYesterday,
		"the": kwThe, "day": kwDay, "days": kwDays, "week": kwWeek, "weeks": kwWeeks,
		"weekend": kwWeekend, "month": kwMonth, "months": kwMonths, "year": kwYear, "years": kwYears,
		"quarter": kwQuarter, "before": kwBefore, "after": kwAfter, "this": kwThis, "next": kwNext,
		"last": kwLast, "past": kwPast, "coming": kwComing, "morning": kwMorning,
		"afternoon": kwAfternoon, "evening": kwEvening, "night": kwNight, "later": kwLater,
		"earlier": kwEarlier, "end": kwEnd, "of": kwOf, "in": kwIn, "ago": kwAgo, "from": kwFrom,
		"now": kwNow, "a": kwA, "an": kwA, "couple": kwCouple, "on": kwOn, "by": kwBy,
		"until": kwUntil, "till": kwUntil, "til": kwUntil, "since": kwSince, "eod": kwEOD,
		"through": kwThrough, "thru": kwThrough, "to": kwThrough,
	} {
		set(w, id, 0)
	}
	for i, w := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		set(w, kwWeekday, i)
	}
	for i, w := range []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"} {
		set(w, kwNumber, i+1)
	}
	for i, w := range []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"} {
		set(w, kwMonthName, i+1)
	}
	for w, mo := range dtMonthAbbrev {
		if _, ok := m[w]; !ok {
			set(w, kwMonthName, int(mo))
		}
	}
	set("sept", kwMonthName, 9)
	cls(clsDet, "the", "a", "an", "this", "that", "these", "those", "its", "their", "our", "my",
		"your", "his", "her", "each", "every", "any", "no", "same", "first", "whole", "entire")
	cls(clsPrep, "by", "until", "till", "til", "before", "after", "since", "from", "of", "on", "for",
		"to", "through", "thru", "as", "than", "starting", "at", "in", "during", "around", "about",
		"due", "between", "within", "like")
	cls(clsFreq, "every", "each", "usually", "always", "typically", "normally", "weekly", "often",
		"generally", "sometimes", "never", "rarely", "seldom", "mornings", "afternoons", "evenings", "nights")
	cls(clsGeneric, "expire", "expires", "expired", "expiring", "expiry", "rotate", "rotates",
		"rotated", "renew", "renews", "renewed", "reset", "resets", "refresh", "refreshes", "lasts",
		"lasted", "ttl", "timeout", "retention", "retained", "purged", "deleted")
	cls(clsPast, "was", "were", "did", "had", "happened", "went", "ran", "broke", "came", "got",
		"saw", "found", "made", "began", "left", "wrote", "said", "told", "built", "sent")
	cls(clsFuture, "will", "shall", "going", "plan", "plans", "planned", "scheduled", "expected",
		"due", "should", "must", "need", "needs", "is", "are", "slated", "booked", "until",
		"by", "before", "deadline", "ll")
	cls(clsCopula, "is", "was", "will", "would", "should", "could", "might", "looks", "seems", "has")
	cls(clsNotAfter, "of", "after", "before", "from", "later", "earlier", "into", "old")
	return m
}()

// dtTok is one ASCII word (a maximal run of letters and digits) in prose.
type dtTok struct {
	s, e   int
	val    int
	cls    uint16
	id     kwID
	cleanB bool // no identifier or path glue before it (foo_today, /tomorrow)
	cleanA bool // none after it (tomorrow_test.go, today(), tomorrow-ish)
	join   bool // only plain whitespace (at most one newline) separates it from the previous token in the same prose range
	brk    bool // a sentence break (. ! ? ; : or a blank line) separates it from the previous token
}

func (t *dtTok) clean() bool { return t.cleanB && t.cleanA }

type enScanner struct {
	text string
	day  time.Time
	toks []dtTok
}

// tokenize records the words of the prose ranges that a rule may use:
// keywords, numbers, and past-tense verbs. Other words are not stored (most
// of any text), but one between two stored tokens breaks their join, so
// "next big week" is not "next week".
func (s *enScanner) tokenize(ranges [][2]int) {
	text := s.text
	if s.toks == nil {
		s.toks = make([]dtTok, 0, len(text)/32+8)
	}
	brk := false
	for _, r := range ranges {
		i := r[0]
		first := true
		space, nl := false, 0 // since the last stored token: only whitespace; line breaks
		for i < r[1] {
			c := text[i]
			if !prAlnum(c) {
				switch c {
				case ' ', '\t', '\r':
				case '\n':
					nl++
					if nl > 1 {
						brk = true
					}
				case '.', '!', '?', ';', ':':
					space, brk = false, true
				default:
					space = false
					if c >= 0x80 {
						brk = true // CJK punctuation or text: another clause
					}
				}
				i++
				continue
			}
			j := i
			for j < r[1] && prAlnum(text[j]) {
				j++
			}
			kw, ok := dtLookupWord(text[i:j])
			if !ok {
				space = false
				i = j
				continue
			}
			s.toks = append(s.toks, dtTok{s: i, e: j, id: kw.id, val: kw.val, cls: kw.cls,
				cleanB: !dtGlueBefore(text, i), cleanA: !dtGlueAfter(text, j),
				join: !first && space && nl <= 1, brk: brk})
			first, space, nl, brk = false, true, 0, false
			i = j
		}
	}
}

// dtLookupWord classifies a word: a keyword from enWords (any case), a number
// or day of the month ("26", "26th"), or a past-tense verb ("shipped").
func dtLookupWord(w string) (kwInfo, bool) {
	n := len(w)
	if w[0] >= '0' && w[0] <= '9' {
		if n > 4 {
			return kwInfo{}, false
		}
		v := 0
		for k := 0; k < n && w[k] >= '0' && w[k] <= '9'; k++ {
			v = v*10 + int(w[k]-'0')
		}
		return kwInfo{id: kwDigits, val: v}, true
	}
	if n <= 12 {
		var buf [12]byte
		for k := 0; k < n; k++ {
			buf[k] = w[k] | 0x20
		}
		for _, e := range dtWordTable[dtWordHash(buf[:n])] {
			if e.w == string(buf[:n]) {
				return e.kwInfo, true
			}
		}
	}
	if n > 3 && w[n-2]|0x20 == 'e' && w[n-1]|0x20 == 'd' {
		return kwInfo{id: kwOther, cls: clsPast}, true // shipped, merged, deployed
	}
	return kwInfo{}, false
}

// dtWordTable is enWords as a small hash table keyed on length and three
// letters: cheaper than a map, whose hash reads the whole string, and this
// lookup runs once per word of every memory that passes the prefilter.
var dtWordTable = func() (t [512][]dtWordEntry) {
	for w, k := range enWords {
		h := dtWordHash([]byte(w))
		t[h] = append(t[h], dtWordEntry{w, k})
	}
	return t
}()

type dtWordEntry struct {
	w string
	kwInfo
}

func dtWordHash(b []byte) int {
	n := len(b)
	return (n*131 + int(b[0])*37 + int(b[n-1])*11 + int(b[n/2])) & 511
}

// dtGlueBefore reports whether the byte before i joins the word to an
// identifier, a path or a file name, so it is not a word of prose.
func dtGlueBefore(text string, i int) bool {
	if i == 0 {
		return false
	}
	switch c := text[i-1]; c {
	case '_', '/', '\\', '@', '#', '$', '%', '&', '=', '+', '~', '^', '|':
		return true
	case '-', '.':
		return i >= 2 && prAlnum(text[i-2])
	default:
		return prAlnum(c)
	}
}

// dtGlueAfter is dtGlueBefore for the byte at j, just after a word.
func dtGlueAfter(text string, j int) bool {
	if j >= len(text) {
		return false
	}
	switch c := text[j]; c {
	case '_', '/', '\\', '@', '#', '$', '%', '&', '=', '+', '~', '^', '|', '(':
		return true
	case '-', '.', ':':
		return j+1 < len(text) && prAlnum(text[j+1])
	default:
		return prAlnum(c)
	}
}

// at returns the token k when it continues a phrase (joined to the previous
// token and a clean word), else nil.
func (s *enScanner) at(k int) *dtTok {
	if k < 0 || k >= len(s.toks) {
		return nil
	}
	t := &s.toks[k]
	if !t.join || !t.clean() {
		return nil
	}
	return t
}

// prev returns the token before k when it belongs to the same phrase.
func (s *enScanner) prev(k int) *dtTok {
	if k <= 0 || k >= len(s.toks) || !s.toks[k].join {
		return nil
	}
	t := &s.toks[k-1]
	if !t.clean() {
		return nil
	}
	return t
}

func (s *enScanner) word(t *dtTok) string { return s.text[t.s:t.e] }

// dtHit is a matched English phrase before it becomes a DateSpan.
type dtHit struct {
	first, last int // token indexes, inclusive
	w           dtWhen
	wd          bool   // say the weekday in the replacement
	part        string // "morning", "evening", "night": a part of the day
	lead        string // a preposition kept at the start of the span ("by Friday")
	amb         bool
	note        string
	noPoss      bool // the phrase cannot take a possessive "'s"
}

// relative finds the English relative phrases among the tokens.
func (s *enScanner) relative(out []DateSpan) []DateSpan {
	for i := 0; i < len(s.toks); i++ {
		t := &s.toks[i]
		if !t.clean() || t.id == kwOther {
			continue
		}
		h, ok := s.match(i)
		if !ok {
			continue
		}
		out = append(out, s.span(h))
		i = s.skipTo(out[len(out)-1].End, i)
	}
	return out
}

// skipTo returns the index of the last token that starts before end, so the
// scan resumes after a matched phrase.
func (s *enScanner) skipTo(end, i int) int {
	for i+1 < len(s.toks) && s.toks[i+1].s < end {
		i++
	}
	return i
}

func (s *enScanner) match(i int) (dtHit, bool) {
	t := &s.toks[i]
	day := s.day
	switch t.id {
	case kwThe, kwDay:
		if h, ok := s.matchDayBeforeAfter(i); ok {
			return h, true
		}
		if t.id == kwThe {
			return s.matchEndOf(i)
		}
	case kwToday, kwTomorrow, kwYesterday:
		if s.genericDate(t) {
			return dtHit{}, false
		}
		n := 0
		switch t.id {
		case kwTomorrow:
			n = 1
		case kwYesterday:
			n = -1
		}
		return dtHit{first: i, last: i, w: dtDayWhen(day.AddDate(0, 0, n))}, true
	case kwTonight:
		return dtHit{first: i, last: i, w: dtDayWhen(day), part: "night", noPoss: true}, true
	case kwThis, kwNext, kwLast:
		return s.matchThisNextLast(i)
	case kwLater, kwEarlier:
		return s.matchLaterEarlier(i)
	case kwEnd:
		return s.matchEndOf(i)
	case kwIn:
		return s.matchIn(i)
	case kwA, kwNumber, kwDigits:
		return s.matchAgo(i)
	case kwOn, kwBy, kwUntil, kwBefore, kwAfter, kwSince:
		return s.matchPrepWeekday(i)
	case kwEOD:
		return s.matchEOD(i)
	}
	return dtHit{}, false
}

// genericDate reports "today's date" and the like: an instruction about
// whatever the date is when it runs ("name the file with today's date"), not
// a reference to the day the memory was written.
func (s *enScanner) genericDate(t *dtTok) bool {
	j := t.e + dtPossessive(s.text, t.e)
	if j == t.e {
		return false
	}
	for j < len(s.text) && s.text[j] == ' ' {
		j++
	}
	for _, w := range [...]string{"date", "timestamp"} {
		if dtFoldAt(s.text, j, w) && !dtGlueAfter(s.text, j+len(w)) && (j+len(w) == len(s.text) || !prAlnum(s.text[j+len(w)])) {
			return true
		}
	}
	return false
}

// matchDayBeforeAfter: "(the) day before yesterday", "(the) day after tomorrow".
func (s *enScanner) matchDayBeforeAfter(i int) (dtHit, bool) {
	k := i
	if s.toks[k].id == kwThe {
		k++
		if t := s.at(k); t == nil || t.id != kwDay {
			return dtHit{}, false
		}
	}
	dir := s.at(k + 1)
	ref := s.at(k + 2)
	if dir == nil || ref == nil {
		return dtHit{}, false
	}
	switch {
	case dir.id == kwBefore && ref.id == kwYesterday:
		return dtHit{first: i, last: k + 2, w: dtDayWhen(s.day.AddDate(0, 0, -2))}, true
	case dir.id == kwAfter && ref.id == kwTomorrow:
		return dtHit{first: i, last: k + 2, w: dtDayWhen(s.day.AddDate(0, 0, 2))}, true
	}
	return dtHit{}, false
}

var dtWeekdayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// matchThisNextLast: this/next/last + week, month, year, quarter, weekend, a
// weekday; this morning/afternoon/evening; last night; this past/coming <weekday>.
func (s *enScanner) matchThisNextLast(i int) (dtHit, bool) {
	t := &s.toks[i]
	if p := s.prev(i); p != nil && p.cls&clsDet != 0 {
		return dtHit{}, false // "the last year of the loop", "the next week or so"
	}
	u := s.at(i + 1)
	if u == nil {
		return dtHit{}, false
	}
	day := s.day
	n := 0
	switch t.id {
	case kwNext:
		n = 1
	case kwLast:
		n = -1
	}
	switch u.id {
	case kwWeek, kwMonth, kwYear, kwQuarter, kwWeekend:
		if t.id != kwThis {
			if f := s.at(i + 2); f != nil && f.id == kwOf {
				return dtHit{}, false // "last week of the sprint"
			}
		}
		k, ok := dtPeriodOf[u.id]
		if !ok {
			k = wWeekend
		}
		h := dtHit{first: i, last: i + 1, w: dtPeriod(k, day, n), noPoss: true}
		if k == wWeekend && t.id == kwNext && dtWeekday(day) < 5 {
			h.amb = true
			h.note = "read as the weekend of next week; the coming weekend is " + dtPeriod(wWeekend, day, 0).meant()
		}
		if k == wWeek || k == wWeekend {
			if h.note == "" {
				h.note = "ISO week, Monday to Sunday"
			}
		}
		if k == wQuarter {
			h.note = "calendar quarter; a fiscal quarter may differ"
		}
		return h, true
	case kwMorning, kwAfternoon, kwEvening:
		if t.id != kwThis {
			return dtHit{}, false
		}
		return dtHit{first: i, last: i + 1, w: dtDayWhen(day), part: strings.ToLower(s.word(u)), noPoss: true}, true
	case kwNight:
		if t.id != kwLast {
			return dtHit{}, false
		}
		return dtHit{first: i, last: i + 1, w: dtDayWhen(day.AddDate(0, 0, -1)), part: "night", noPoss: true}, true
	case kwPast, kwComing:
		wd := s.at(i + 2)
		if t.id != kwThis || wd == nil || wd.id != kwWeekday {
			return dtHit{}, false
		}
		if u.id == kwPast {
			return dtHit{first: i, last: i + 2, w: dtDayWhen(dtPrevWeekday(day, wd.val)), wd: true}, true
		}
		return dtHit{first: i, last: i + 2, w: dtDayWhen(dtNextWeekday(day, wd.val)), wd: true}, true
	case kwWeekday:
		if f := s.at(i + 2); f != nil && f.id == kwOf {
			return dtHit{}, false // "last Friday of the month": a rule
		}
		wd := u.val
		a := dtWeekday(day)
		h := dtHit{first: i, last: i + 1, wd: true}
		switch t.id {
		case kwNext:
			// The weekday of next week. When the coming one is still in this
			// week, people split between the two readings.
			h.w = dtDayWhen(dtWeekStart(day).AddDate(0, 0, 7+wd))
			if wd > a {
				h.amb = true
				h.note = "read as " + dtWeekdayNames[wd] + " of next week; the coming " + dtWeekdayNames[wd] + " is " + dtISO(dtNextWeekday(day, wd))
			}
		case kwLast:
			d := dtPrevWeekday(day, wd)
			h.w = dtDayWhen(d)
			if wd < a {
				h.amb = true
				h.note = "read as the most recent " + dtWeekdayNames[wd] + "; " + dtWeekdayNames[wd] + " of last week is " + dtISO(d.AddDate(0, 0, -7))
			}
		default: // this
			d := dtWeekStart(day).AddDate(0, 0, wd)
			h.w = dtDayWhen(d)
			if wd < a {
				h.amb = true
				h.note = "read as " + dtWeekdayNames[wd] + " of the anchor's week, already past; the coming one is " + dtISO(d.AddDate(0, 0, 7))
			}
		}
		return h, true
	}
	return dtHit{}, false
}

// dtNextWeekday is the first day strictly after d that falls on wd.
func dtNextWeekday(d time.Time, wd int) time.Time {
	n := (wd - dtWeekday(d) + 7) % 7
	if n == 0 {
		n = 7
	}
	return d.AddDate(0, 0, n)
}

// dtPrevWeekday is the last day strictly before d that falls on wd.
func dtPrevWeekday(d time.Time, wd int) time.Time {
	n := (dtWeekday(d) - wd + 7) % 7
	if n == 0 {
		n = 7
	}
	return d.AddDate(0, 0, -n)
}

var dtPeriodOf = map[kwID]dtKind{kwWeek: wWeek, kwMonth: wMonth, kwYear: wYear, kwQuarter: wQuarter}

// matchLaterEarlier: "later this week", "earlier this month".
func (s *enScanner) matchLaterEarlier(i int) (dtHit, bool) {
	th, u := s.at(i+1), s.at(i+2)
	if th == nil || u == nil || th.id != kwThis {
		return dtHit{}, false
	}
	k, ok := dtPeriodOf[u.id]
	if !ok {
		return dtHit{}, false
	}
	p := dtPeriod(k, s.day, 0)
	h := dtHit{first: i, last: i + 2, noPoss: true}
	if s.toks[i].id == kwLater {
		h.w = dtWhen{kind: wLater, sub: k, from: s.day.AddDate(0, 0, 1), to: p.to}
	} else {
		h.w = dtWhen{kind: wEarlier, sub: k, from: p.from, to: s.day.AddDate(0, 0, -1)}
	}
	if h.w.to.Before(h.w.from) {
		h.w.from, h.w.to = s.day, s.day
		h.amb = true
		h.note = "the anchor is at the edge of the period, so none of it is " + strings.ToLower(s.word(&s.toks[i])) + " than the anchor"
	}
	h.w.from, h.w.to = dtClampOrder(h.w.from, h.w.to)
	return h, true
}

func dtClampOrder(a, b time.Time) (time.Time, time.Time) {
	if b.Before(a) {
		return b, a
	}
	return a, b
}

// matchEndOf: "(the) end of (the|this|next) week|month|quarter|year". Bare
// "the end of the month" is often a recurring schedule ("logs rotate at the
// end of the month"), so it fires only after by/until/till/before; with
// this/next it is always a specific date.
func (s *enScanner) matchEndOf(i int) (dtHit, bool) {
	k := i
	if s.toks[k].id == kwThe {
		k++
		if t := s.at(k); t == nil || t.id != kwEnd {
			return dtHit{}, false
		}
	}
	of := s.at(k + 1)
	if of == nil || of.id != kwOf {
		return dtHit{}, false
	}
	j := k + 2
	q := s.at(j)
	n, qualified := 0, false
	if q != nil && (q.id == kwThe || q.id == kwThis || q.id == kwNext) {
		qualified = q.id != kwThe
		if q.id == kwNext {
			n = 1
		}
		j++
	}
	u := s.at(j)
	if u == nil {
		return dtHit{}, false
	}
	pk, ok := dtPeriodOf[u.id]
	if !ok {
		return dtHit{}, false
	}
	if !qualified {
		p := s.prev(i)
		if p == nil || (p.id != kwBy && p.id != kwUntil && p.id != kwBefore) {
			return dtHit{}, false
		}
	}
	p := dtPeriod(pk, s.day, n)
	h := dtHit{first: i, last: j, w: dtWhen{kind: wEnd, sub: pk, from: p.from, to: p.to}, noPoss: true}
	if pk == wWeek {
		h.amb = true
		h.note = "read as the end of the calendar week (Sunday); the working week ends " + dtISO(p.from.AddDate(0, 0, 4))
	}
	return h, true
}

// number reads a count at token k: digits, one..twelve, "a"/"an", "a couple
// (of)". It returns the count and the index of the token after it.
func (s *enScanner) number(k int, first bool) (int, int, bool) {
	var t *dtTok
	if first {
		t = &s.toks[k]
		if !t.clean() {
			return 0, 0, false
		}
	} else if t = s.at(k); t == nil {
		return 0, 0, false
	}
	switch t.id {
	case kwNumber:
		return t.val, k + 1, true
	case kwA:
		if c := s.at(k + 1); c != nil && c.id == kwCouple {
			if o := s.at(k + 2); o != nil && o.id == kwOf {
				return 2, k + 3, true
			}
			return 2, k + 2, true
		}
		return 1, k + 1, true
	}
	if t.id == kwDigits && t.val > 0 && t.e-t.s <= 3 && dtDigits(s.word(t)) {
		return t.val, k + 1, true
	}
	return 0, 0, false
}

func dtDigits(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// unitWhen resolves "N units" from the anchor, forward when sign is 1.
func (s *enScanner) unitWhen(u kwID, n, sign int) (dtWhen, string, bool) {
	switch u {
	case kwDay, kwDays:
		return dtDayWhen(s.day.AddDate(0, 0, sign*n)), "", true
	case kwWeek, kwWeeks:
		return dtDayWhen(s.day.AddDate(0, 0, sign*7*n)), "exact arithmetic from the anchor; the writer may have meant roughly", true
	case kwMonth, kwMonths:
		return dtPeriod(wMonth, s.day, sign*n), "to the month: a day would be false precision", true
	case kwYear, kwYears:
		return dtPeriod(wYear, s.day, sign*n), "to the year: a day would be false precision", true
	}
	return dtWhen{}, "", false
}

// matchIn: "in N days/weeks/months/years".
func (s *enScanner) matchIn(i int) (dtHit, bool) {
	if p := s.prev(i); p != nil && p.cls&clsGeneric != 0 {
		return dtHit{}, false // "tokens expire in 30 days": a rule, not a date
	}
	n, k, ok := s.number(i+1, false)
	if !ok {
		return dtHit{}, false
	}
	u := s.at(k)
	if u == nil {
		return dtHit{}, false
	}
	if f := s.at(k + 1); f != nil && f.cls&clsNotAfter != 0 {
		return dtHit{}, false // "in 3 weeks of testing", "in 2 days after the launch"
	}
	w, note, ok := s.unitWhen(u.id, n, 1)
	if !ok {
		return dtHit{}, false
	}
	return dtHit{first: i, last: k, w: w, note: note}, true
}

// matchAgo: "N units ago", "N units from now/today".
func (s *enScanner) matchAgo(i int) (dtHit, bool) {
	n, k, ok := s.number(i, true)
	if !ok {
		return dtHit{}, false
	}
	u := s.at(k)
	if u == nil {
		return dtHit{}, false
	}
	d := s.at(k + 1)
	if d == nil {
		return dtHit{}, false
	}
	last, sign := k+1, -1
	switch d.id {
	case kwAgo:
	case kwFrom:
		if x := s.at(k + 2); x != nil && (x.id == kwNow || x.id == kwToday) {
			last, sign = k+2, 1
		} else {
			return dtHit{}, false
		}
	default:
		return dtHit{}, false
	}
	w, note, ok := s.unitWhen(u.id, n, sign)
	if !ok {
		return dtHit{}, false
	}
	return dtHit{first: i, last: last, w: w, note: note}, true
}

// matchPrepWeekday: on/by/until/till/before/after/since + a weekday.
func (s *enScanner) matchPrepWeekday(i int) (dtHit, bool) {
	u := s.at(i + 1)
	if u == nil || u.id != kwWeekday {
		return dtHit{}, false
	}
	if x := s.at(i + 2); x != nil && (x.id == kwThrough || x.cls&clsFreq != 0) {
		return dtHit{}, false // "on Monday through Friday", "on Friday afternoons": a schedule
	}
	// "every week on Thursday", "we usually deploy on Friday": recurring.
	for k, n := i, 0; k > 0 && n < 8 && !s.toks[k].brk; k, n = k-1, n+1 {
		if s.toks[k-1].cls&clsFreq != 0 {
			return dtHit{}, false
		}
	}
	day, wd := s.day, u.val
	p := &s.toks[i]
	h := dtHit{first: i, last: i + 1, wd: true, lead: s.word(p)}
	future := dtDayWhen(dtNextWeekday(day, wd))
	past := dtDayWhen(dtPrevWeekday(day, wd))
	switch p.id {
	case kwSince:
		h.w = past
	case kwOn:
		switch s.tense(i) {
		case clsPast:
			h.w = past
			h.note = "read as past from the tense before it; the coming " + dtWeekdayNames[wd] + " is " + dtISO(future.from)
		case clsFuture:
			h.w = future
			h.note = "read as future from the words before it; the last " + dtWeekdayNames[wd] + " was " + dtISO(past.from)
		default:
			h.w = future
			h.amb = true
			h.note = "past or future is not clear; read as the coming " + dtWeekdayNames[wd] + ", the last one was " + dtISO(past.from)
		}
	default: // by, until, before, after: deadlines look forward
		h.w = future
	}
	if wd == dtWeekday(day) && p.id != kwSince {
		h.amb = true
		h.note = "the anchor is itself a " + dtWeekdayNames[wd] + "; read as a week later, it may mean the same day"
	}
	return h, true
}

// tense looks back through the clause before token i for the nearest word
// that tells past (was, shipped) from future (will, scheduled).
func (s *enScanner) tense(i int) uint16 {
	for k, n := i, 0; k > 0 && n < 8 && !s.toks[k].brk; k, n = k-1, n+1 {
		t := &s.toks[k-1]
		switch {
		case t.cls&clsFuture != 0:
			return clsFuture
		case t.cls&clsPast != 0:
			return clsPast // was, did, and any word in -ed: shipped, merged
		}
	}
	return 0
}

// matchEOD: "by EOD", "until EOD", "EOD tomorrow". Only the uppercase form:
// lowercase "eod" is more often an identifier.
func (s *enScanner) matchEOD(i int) (dtHit, bool) {
	t := &s.toks[i]
	if s.word(t) != "EOD" {
		return dtHit{}, false
	}
	h := dtHit{first: i, last: i, w: dtDayWhen(s.day), part: "end", noPoss: true}
	if x := s.at(i + 1); x != nil && (x.id == kwToday || x.id == kwTomorrow) {
		h.last = i + 1
		if x.id == kwTomorrow {
			h.w = dtDayWhen(s.day.AddDate(0, 0, 1))
		}
		return h, true
	}
	p := s.prev(i)
	if p == nil || (p.id != kwBy && p.id != kwUntil && p.id != kwBefore && s.word(p) != "at" && s.word(p) != "At") {
		return dtHit{}, false
	}
	return h, true
}

// span turns a hit into a DateSpan, with the possessive and the English
// replacement.
func (s *enScanner) span(h dtHit) DateSpan {
	text := s.text
	start, end := s.toks[h.first].s, s.toks[h.last].e
	poss := false
	if !h.noPoss && h.w.kind == wDay {
		if l := dtPossessive(text, end); l > 0 {
			poss = true
			end += l
		}
	}
	prep := false
	if p := s.prev(h.first); p != nil && p.cls&clsPrep != 0 {
		prep = true
	}
	if !poss && dtPossessive(text, end) > 0 {
		prep = true // "next month's plan" → "July 2026's plan", not "in July 2026's plan"
	}
	if n := s.at(h.last + 1); n != nil && n.cls&clsCopula != 0 && !poss {
		prep = true // "Tomorrow is the deadline" → "2026-06-11 is the deadline"
	}
	repl := enReplacement(h, prep, poss)
	// Capitalise at the start of a sentence ("Tomorrow's" → "The 2026-06-11"),
	// but not after an acronym ("EOD").
	if t := text[start:end]; len(t) > 1 && t[0] >= 'A' && t[0] <= 'Z' && !(t[1] >= 'A' && t[1] <= 'Z') &&
		repl != "" && repl[0] >= 'a' && repl[0] <= 'z' {
		repl = string(repl[0]-32) + repl[1:]
	}
	return DateSpan{
		Start: start, End: end, Text: text[start:end], Lang: "en",
		Meant: h.w.meant(), Replacement: repl, Ambiguous: h.amb, Note: h.note,
	}
}

// dtPossessive returns the length of "'s" or "’s" at j when it ends a word.
func dtPossessive(text string, j int) int {
	for _, ap := range [...]string{"'s", "’s"} {
		if prHasAt(text, j, ap) && (j+len(ap) == len(text) || !prAlnum(text[j+len(ap)])) {
			return len(ap)
		}
	}
	return 0
}

func dtMonthYear(t time.Time) string { return t.Month().String() + " " + strconv.Itoa(t.Year()) }

func dtQuarterName(t time.Time) string {
	return "Q" + strconv.Itoa((int(t.Month())-1)/3+1) + " " + strconv.Itoa(t.Year())
}

// dtPeriodName names a period in English as a noun phrase.
func dtPeriodName(k dtKind, from time.Time) string {
	switch k {
	case wWeek:
		return "the week of " + dtISO(from)
	case wWeekend:
		return "the weekend of " + dtISO(from)
	case wMonth:
		return dtMonthYear(from)
	case wQuarter:
		return dtQuarterName(from)
	case wYear:
		return strconv.Itoa(from.Year())
	}
	return dtISO(from)
}

// enReplacement phrases the absolute date so it reads in place of the
// phrase: "on 2026-06-11" where a bare date would not fit ("we ship
// tomorrow"), the bare date after a preposition ("until 2026-06-11"), "the
// 2026-06-11" for a possessive ("the 2026-06-11 headline").
func enReplacement(h dtHit, prep, poss bool) string {
	w := h.w
	switch w.kind {
	case wDay:
		d := dtISO(w.from)
		if h.wd {
			d = dtWeekdayNames[dtWeekday(w.from)] + " " + d
		}
		switch h.part {
		case "end":
			return "the end of " + d // "by EOD" → "by the end of 2026-06-10"
		case "":
		default:
			d = "the " + h.part + " of " + d
		}
		switch {
		case h.lead != "":
			return h.lead + " " + d
		case poss:
			return "the " + d
		case prep:
			return d
		default:
			return "on " + d
		}
	case wWeek, wWeekend:
		return dtPeriodName(w.kind, w.from)
	case wMonth, wYear, wQuarter:
		if prep {
			return dtPeriodName(w.kind, w.from)
		}
		return "in " + dtPeriodName(w.kind, w.from)
	case wLater:
		return "later in " + dtPeriodName(w.sub, dtStartOf(w.sub, w.from))
	case wEarlier:
		return "earlier in " + dtPeriodName(w.sub, w.from)
	case wEnd:
		return "the end of " + dtPeriodName(w.sub, w.from)
	}
	return w.meant()
}

// dtStartOf is the first day of the period of kind k holding d.
func dtStartOf(k dtKind, d time.Time) time.Time { return dtPeriod(k, d, 0).from }

// missingYears finds English month-day dates with no year.
func (s *enScanner) missingYears(out []DateSpan) []DateSpan {
	for i := 0; i < len(s.toks); i++ {
		t := &s.toks[i]
		if t.id == kwMonthName && t.cleanB && dtMonthCased(s.word(t)) {
			if sp, last, ok := s.monthFirst(i); ok {
				out = append(out, sp)
				i = last
				continue
			}
		}
		if t.id == kwDigits && t.cleanB && dtDayNum(s.word(t)) > 0 {
			if sp, last, ok := s.dayFirst(i); ok {
				out = append(out, sp)
				i = last
			}
		}
	}
	return out
}

// dtMonthCased reports whether a month name is capitalised as a name is:
// "May" or "MAY", never the verb "may".
func dtMonthCased(w string) bool { return w[0] >= 'A' && w[0] <= 'Z' }

// dtDayNum parses a day of the month written "26", "26th", "1st"; 0 if not one.
func dtDayNum(w string) int {
	n := 0
	i := 0
	for i < len(w) && i < 3 && w[i] >= '0' && w[i] <= '9' {
		n = n*10 + int(w[i]-'0')
		i++
	}
	if i == 0 || i > 2 || n < 1 || n > 31 {
		return 0
	}
	switch strings.ToLower(w[i:]) {
	case "", "st", "nd", "rd", "th":
		return n
	}
	return 0
}

// monthFirst: "May 26", "Jan. 5th", "May 26-28".
func (s *enScanner) monthFirst(i int) (DateSpan, int, bool) {
	text := s.text
	m := &s.toks[i]
	if i+1 >= len(s.toks) || s.toks[i+1].id != kwDigits {
		return DateSpan{}, 0, false
	}
	d := &s.toks[i+1]
	gap := text[m.e:d.s]
	if strings.HasPrefix(gap, ".") && dtMonthAbbrevWord(s.word(m)) {
		gap = gap[1:]
	}
	if gap == "" || strings.Trim(gap, " \t") != "" || !m.cleanA {
		return DateSpan{}, 0, false
	}
	day := dtDayNum(s.word(d))
	if day == 0 || !d.cleanB {
		return DateSpan{}, 0, false
	}
	end := d.e
	endDay := 0
	if !d.cleanA {
		// Only a day range may follow: "May 26-28".
		r, ok := dtDayRangeAfter(text, end)
		if !ok {
			return DateSpan{}, 0, false
		}
		endDay, end = r[0], r[1]
	}
	if next := s.at(i + 2); next != nil && dtUnitLike(next.id) {
		return DateSpan{}, 0, false // "May 3 days" is not a date
	}
	if dtYearAfter(text, end) || dtYearBefore(text, m.s) {
		return DateSpan{}, 0, false
	}
	last := i + 1
	for last+1 < len(s.toks) && s.toks[last+1].s < end {
		last++
	}
	sp, ok := s.yearSpan(m.s, end, time.Month(m.val), day, endDay, ", ")
	return sp, last, ok
}

// dayFirst: "26 May", "26th May", "26th of May".
func (s *enScanner) dayFirst(i int) (DateSpan, int, bool) {
	text := s.text
	d := &s.toks[i]
	if !d.cleanA {
		return DateSpan{}, 0, false
	}
	k := i + 1
	if o := s.at(k); o != nil && o.id == kwOf && !dtDigits(s.word(d)) {
		k++ // "26th of May"
	}
	m := s.at(k)
	if m == nil || m.id != kwMonthName || !dtMonthCased(s.word(m)) {
		return DateSpan{}, 0, false
	}
	end := m.e
	if dtPossessive(text, end) > 0 {
		return DateSpan{}, 0, false
	}
	if prHasAt(text, end, ".") && dtMonthAbbrevWord(s.word(m)) && end+1 < len(text) && text[end+1] == ' ' &&
		!(end+2 < len(text) && text[end+2] >= 'A' && text[end+2] <= 'Z') {
		end++ // "5 Jan. ships", but not the full stop of "5 Jan. Then…"
	}
	if dtYearAfter(text, end) || dtYearBefore(text, d.s) {
		return DateSpan{}, 0, false
	}
	if p := s.prev(i); p != nil && p.id == kwDigits {
		return DateSpan{}, 0, false
	}
	sp, ok := s.yearSpan(d.s, end, time.Month(m.val), dtDayNum(s.word(d)), 0, " ")
	return sp, k, ok
}

// dtMonthAbbrevWord reports whether w is an abbreviated month name ("Jan",
// "Sept") that may take a dot; "May" is a full name.
func dtMonthAbbrevWord(w string) bool {
	return len(w) == 3 && !strings.EqualFold(w, "may") || strings.EqualFold(w, "sept")
}

func dtUnitLike(id kwID) bool {
	switch id {
	case kwDay, kwDays, kwWeek, kwWeeks, kwMonth, kwMonths, kwYear, kwYears:
		return true
	}
	return false
}

// dtDayRangeAfter reads "-28" or "–28" at j; it returns the end day and the
// offset after it.
func dtDayRangeAfter(text string, j int) ([2]int, bool) {
	k := j
	switch {
	case prHasAt(text, k, "-"):
		k++
	case prHasAt(text, k, "–"):
		k += len("–")
	default:
		return [2]int{}, false
	}
	e := k
	for e < len(text) && e-k < 3 && prAlnum(text[e]) {
		e++
	}
	n := dtDayNum(text[k:e])
	if n == 0 || dtGlueAfter(text, e) {
		return [2]int{}, false
	}
	return [2]int{n, e}, true
}

// dtYearAfter reports whether a year follows a date ending at j: ", 2026",
// " 2026", "/2026", "th, 2026".
func dtYearAfter(text string, j int) bool {
	k := j
	for k < len(text) && k-j < 4 && (text[k] == ',' || text[k] == ' ' || text[k] == '/' || text[k] == '.' || text[k] == '\'') {
		k++
	}
	return k > j && dtYearAt(text, k)
}

// dtYearBefore reports whether a year precedes a date starting at i: "2026 May 26".
func dtYearBefore(text string, i int) bool {
	k := i
	for k > 0 && i-k < 3 && (text[k-1] == ',' || text[k-1] == ' ' || text[k-1] == '/' || text[k-1] == '-') {
		k--
	}
	return k < i && k >= 4 && dtYearAt(text, k-4) && (k-4 == 0 || !prAlnum(text[k-5]))
}

func dtYearAt(text string, k int) bool {
	if k < 0 || k+4 > len(text) || !dtDigits(text[k:k+4]) || k+4 < len(text) && prAlnum(text[k+4]) {
		return false
	}
	y, _ := strconv.Atoi(text[k : k+4])
	return y >= 1900 && y <= 2199
}

// dtResolveYear picks the year for a month-day: the anchor's, unless the date
// in the anchor's year is more than half a year away, when the adjacent
// year nearer the anchor is taken and the span is Ambiguous.
func dtResolveYear(anchor time.Time, m time.Month, d int) (time.Time, bool, string, bool) {
	valid := func(y int) (time.Time, bool) {
		t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		return t, t.Month() == m && t.Day() == d
	}
	y := anchor.Year()
	const half = 183 * 24 * time.Hour
	if t, ok := valid(y); ok && dtAbs(t.Sub(anchor)) <= half {
		return t, false, "year taken from the anchor date " + dtISO(anchor), true
	}
	var best time.Time
	found := false
	for _, cy := range []int{y - 1, y + 1, y} {
		if t, ok := valid(cy); ok && (!found || dtAbs(t.Sub(anchor)) < dtAbs(best.Sub(anchor))) {
			best, found = t, true
		}
	}
	if !found {
		return time.Time{}, false, "", false
	}
	if best.Year() == y {
		return best, false, "year taken from the anchor date " + dtISO(anchor), true
	}
	alt := "not a valid date"
	if t, ok := valid(y); ok {
		alt = dtISO(t)
	}
	return best, true, "the year nearest the anchor " + dtISO(anchor) + "; in the anchor's year it would be " + alt, true
}

func dtAbs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func (s *enScanner) yearSpan(start, end int, m time.Month, d, endDay int, sep string) (DateSpan, bool) {
	t, amb, note, ok := dtResolveYear(s.day, m, d)
	if !ok {
		return DateSpan{}, false
	}
	meant := dtISO(t)
	if endDay > d {
		meant += " to " + dtISO(time.Date(t.Year(), m, endDay, 0, 0, 0, 0, time.UTC))
	}
	txt := s.text[start:end]
	return DateSpan{Start: start, End: end, Text: txt, Lang: "en", Meant: meant,
		Replacement: txt + sep + strconv.Itoa(t.Year()), Ambiguous: amb, Note: note}, true
}

// ---------------------------------------------------------------------------
// Chinese, Japanese, Korean

type cjkLit struct {
	s    string
	lang string // "zh", "ja", "ko", or "zj" (zh or ja: decided by kana in the text)
	k    dtKind
	n    int
	wd   uint8 // which weekday suffix may follow: 0 none, 1 zh 周X, 2 zh 星期X/礼拜X, 3 ja 曜日, 4 ko 요일
	koW  uint8 // Korean: 1 ends in 주 (a particle must follow), 2 ends in 달
}

const (
	wdNone uint8 = iota
	wdZhZhou
	wdZhXingqi
	wdJa
	wdKo
)

// cjkLits lists the literal phrases. Where a phrase has a spaced and an
// unspaced Korean spelling both are listed.
var cjkLits = func() []cjkLit {
	var l []cjkLit
	add := func(lang string, k dtKind, n int, wd uint8, ss ...string) {
		for _, s := range ss {
			l = append(l, cjkLit{s: s, lang: lang, k: k, n: n, wd: wd})
		}
	}
	// Chinese
	add("zh", wDay, 0, 0, "今天", "今晚", "今早")
	add("zh", wDay, 1, 0, "明天", "明晚", "明早")
	add("zh", wDay, -1, 0, "昨天", "昨晚")
	add("zh", wDay, -2, 0, "前天")
	add("zh", wDay, 2, 0, "后天")
	add("zh", wDay, 3, 0, "大后天")
	add("zh", wDay, -3, 0, "大前天")
	add("zh", wWeek, 0, wdZhZhou, "本周", "这周")
	add("zh", wWeek, 0, wdZhXingqi, "这个星期", "这星期", "本星期", "这个礼拜", "这礼拜")
	add("zh", wWeek, 1, wdZhZhou, "下周")
	add("zh", wWeek, 1, wdZhXingqi, "下个星期", "下星期", "下个礼拜", "下礼拜")
	add("zh", wWeek, 2, wdZhZhou, "下下周")
	add("zh", wWeek, 2, wdZhXingqi, "下下个星期")
	add("zh", wWeek, -1, wdZhZhou, "上周")
	add("zh", wWeek, -1, wdZhXingqi, "上个星期", "上星期", "上个礼拜", "上礼拜")
	add("zh", wWeek, -2, wdZhZhou, "上上周")
	add("zh", wWeek, -2, wdZhXingqi, "上上个星期")
	add("zh", wWeekend, 0, 0, "本周末", "这周末", "这个周末")
	add("zh", wWeekend, 1, 0, "下周末", "下个周末")
	add("zh", wWeekend, -1, 0, "上周末", "上个周末")
	add("zh", wMonth, 0, 0, "本月", "这个月")
	add("zh", wMonth, 1, 0, "下个月", "下月")
	add("zh", wMonth, 2, 0, "下下个月")
	add("zh", wMonth, -1, 0, "上个月", "上月")
	add("zh", wMonth, -2, 0, "上上个月")
	add("zh", wYear, 1, 0, "明年")
	add("zh", wYear, -2, 0, "前年")
	add("zh", wYear, 2, 0, "后年")
	add("zh", wQuarter, 0, 0, "本季度", "这个季度", "这季度")
	add("zh", wQuarter, 1, 0, "下季度", "下个季度")
	add("zh", wQuarter, -1, 0, "上季度", "上个季度")
	// Shared by Chinese and Japanese.
	add("zj", wDay, 0, 0, "今日", "今夜", "今朝")
	add("zj", wDay, 1, 0, "明日")
	add("zj", wDay, -1, 0, "昨日", "昨夜")
	add("zj", wYear, 0, 0, "今年")
	add("zj", wYear, -1, 0, "去年")
	add("zj", wYear, 1, 0, "来年")
	// Japanese
	add("ja", wDay, 0, 0, "今晩")
	add("ja", wDay, -1, 0, "昨晩")
	add("ja", wDay, 2, 0, "明後日")
	add("ja", wDay, -2, 0, "一昨日")
	add("ja", wWeek, 0, wdJa, "今週")
	add("ja", wWeek, 1, wdJa, "来週")
	add("ja", wWeek, 2, wdJa, "再来週")
	add("ja", wWeek, -1, wdJa, "先週")
	add("ja", wWeek, -2, wdJa, "先々週")
	add("ja", wWeekend, 0, 0, "今週末")
	add("ja", wWeekend, 1, 0, "来週末")
	add("ja", wWeekend, -1, 0, "先週末")
	add("ja", wMonth, 0, 0, "今月")
	add("ja", wMonth, 1, 0, "来月")
	add("ja", wMonth, 2, 0, "再来月")
	add("ja", wMonth, -1, 0, "先月")
	add("ja", wMonth, -2, 0, "先々月")
	add("ja", wYear, -1, 0, "昨年")
	add("ja", wYear, 2, 0, "再来年")
	add("ja", wYear, -2, 0, "一昨年")
	// Korean
	add("ko", wDay, 0, 0, "오늘")
	add("ko", wDay, 1, 0, "내일")
	add("ko", wDay, -1, 0, "어제", "어젯밤")
	add("ko", wDay, 2, 0, "모레")
	add("ko", wDay, 3, 0, "글피")
	add("ko", wDay, -2, 0, "그저께", "그제")
	add("ko", wWeek, 0, wdKo, "이번 주", "이번주")
	add("ko", wWeek, 1, wdKo, "다음 주", "다음주")
	add("ko", wWeek, 2, wdKo, "다다음 주", "다다음주")
	add("ko", wWeek, -1, wdKo, "지난주", "지난 주", "저번 주", "저번주")
	add("ko", wWeekend, 0, 0, "이번 주말", "이번주말")
	add("ko", wWeekend, 1, 0, "다음 주말", "다음주말")
	add("ko", wWeekend, -1, 0, "지난 주말", "지난주말", "저번 주말")
	add("ko", wMonth, 0, 0, "이번 달", "이번달")
	add("ko", wMonth, 1, 0, "다음 달", "다음달")
	add("ko", wMonth, -1, 0, "지난달", "지난 달", "저번 달", "저번달")
	add("ko", wYear, 0, 0, "올해")
	add("ko", wYear, 1, 0, "내년")
	add("ko", wYear, -1, 0, "작년")
	add("ko", wYear, -2, 0, "재작년")
	add("ko", wYear, 2, 0, "내후년")
	for _, w := range []struct {
		s string
		n int
	}{{"하루", 1}, {"이틀", 2}, {"사흘", 3}, {"나흘", 4}} {
		for _, sp := range []string{" ", ""} {
			add("ko", wDay, w.n, 0, w.s+sp+"후", w.s+sp+"뒤")
			add("ko", wDay, -w.n, 0, w.s+sp+"전")
		}
	}
	for i := range l {
		switch {
		case strings.HasSuffix(l[i].s, "주") && l[i].lang == "ko":
			l[i].koW = 1
		case strings.HasSuffix(l[i].s, "달") && l[i].lang == "ko":
			l[i].koW = 2
		}
	}
	// Longest first, so 大后天 wins over 后天 and 下下周 over 下周.
	sort.SliceStable(l, func(i, j int) bool { return len(l[i].s) > len(l[j].s) })
	return l
}()

// cjkByFirst indexes cjkLits by their first rune.
var cjkByFirst = func() map[rune][]*cjkLit {
	m := map[rune][]*cjkLit{}
	for i := range cjkLits {
		r, _ := utf8.DecodeRuneInString(cjkLits[i].s)
		m[r] = append(m[r], &cjkLits[i])
	}
	return m
}()

// cjkNoBefore lists, for the first character of a phrase, characters that
// would make it the tail of another word: 提前天数 is not 前天, 以下周期 is
// not 下周, 未来月 is not 来月.
var cjkNoBefore = map[rune]string{
	'今': "如至迄现當当",
	'明': "说說证證表声聲聪聰透光文照分鲜鮮清简簡发發标標注指阐闡查申英高精开開失黎昌神修澄严嚴公",
	'前': "提目之以此事向当當空眼面跟生从從日年月午超前几幾",
	'后': "之以然最随隨此前先背落今日午稍过過饭飯会會其而",
	'大': "最强強重伟偉庞龐宏广廣巨扩擴放加",
	'本': "基根日版成资資样樣文脚腳剧劇课課账賬书書副原范範标標本一两兩几幾多读讀笔筆单單",
	'下': "以如一之上底剩留私当當写寫记記按放接地天脚腳手陛阁閣殿乡鄉南往向落拿停坐躺跪倒低降打攻拉扔丢签簽存载載吃咽撤卸取摘脱脫拆",
	'上': "以之加马馬线線网網晚早身向往北面桌手头頭世路台楼樓山天地车車床墙牆纸紙书書图圖表屏架岸场場堂顶頂送赶跟爬走登考迎涌提贴貼写寫填附安装裝连連挂掛传傳关關锁鎖合盖蓋基",
	'去': "过過回出进進下上失除离離死删減减省拿送抹来來归歸",
	'来': "未以本原后後起出进進过過回下上将將从從近历歷向看带帶到由往外归歸想醒说說传傳拿送引招迎跑走飞飛搬用",
	'先': "首事优優预預原领領率祖起最争爭",
	'一': "第唯统統万萬",
}

// cjkNoAfter lists, for a phrase's last character, characters that would
// make it the head of another word: 周期 (cycle), 年龄 (age), 日程 (schedule).
var cjkNoAfter = map[rune]string{
	'周': "期边邊围圍年刊岁歲长長全到密转轉知旋游遊",
	'月': "光亮球饼餅台票嫂",
	'年': "龄齡级級代纪紀轻輕限华華鉴鑑货貨画畫糕兽獸",
	'日': "程期志常报報历曆暦子记記元用光益语語葵头頭",
	'晚': "辈輩年期霞清",
	'早': "期已年稻熟恋戀退产產衰婚",
	'天': "性然数數才生形养養习習学學获獲培努",
}

// cjkWdBlock lists characters that, after the weekday character in 下周一,
// show it is not a weekday: 下周一起 is "together next week".
const cjkWdBlock = "起下次些直样樣般个個定致切同共边邊旦点點种種步块塊半段份天周年月期部律再连連体體行线線带帶级級流览覽键鍵批手口号號项項条條名位套组組张張轮輪十百千万萬维維元角层層倍分类類人本篇章节節程志常报報历曆子记記语語益光"

type cjkScanner struct {
	text string
	day  time.Time
	kana int8 // 0 unknown, 1 yes, -1 no
}

// hasKana reports whether the text holds hiragana or katakana, which tells
// Japanese from Chinese for the characters they share (今日, 去年, 5月26日).
func (c *cjkScanner) hasKana() bool {
	if c.kana == 0 {
		c.kana = -1
		s := c.text
		for i := strings.IndexByte(s, 0xE3); i >= 0 && i+1 < len(s); {
			if b := s[i+1]; b >= 0x81 && b <= 0x83 {
				c.kana = 1
				break
			}
			j := strings.IndexByte(s[i+1:], 0xE3)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return c.kana > 0
}

func (c *cjkScanner) lang(l string) string {
	if l == "zj" {
		if c.hasKana() {
			return "ja"
		}
		return "zh"
	}
	return l
}

func dtHangul(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }
func dtHan(r rune) bool    { return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF }
func dtKana(r rune) bool   { return r >= 0x3040 && r <= 0x30FF }

func dtLastRune(s string, i int) rune {
	if i <= 0 {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

func dtFirstRune(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	return utf8.DecodeRuneInString(s[i:])
}

// relative scans the prose ranges for CJK relative phrases.
func (c *cjkScanner) relative(ranges [][2]int, out []DateSpan) []DateSpan {
	text := c.text
	for _, rg := range ranges {
		p := rg[0]
		for p < rg[1] {
			b := text[p]
			if b < 0xE0 && (b < '0' || b > '9') {
				p++
				continue
			}
			if sp, ok := c.at(p, rg[1]); ok {
				out = append(out, sp)
				p = sp.End
				continue
			}
			if b < 0x80 {
				p++
				continue
			}
			_, size := utf8.DecodeRuneInString(text[p:])
			p += size
		}
	}
	return out
}

// at tries every CJK pattern at p (within a prose range ending at lim).
func (c *cjkScanner) at(p, lim int) (DateSpan, bool) {
	text := c.text[:lim]
	r, _ := dtFirstRune(text, p)
	for _, l := range cjkByFirst[r] {
		if !strings.HasPrefix(text[p:], l.s) {
			continue
		}
		if sp, ok := c.literal(text, p, l); ok {
			return sp, true
		}
	}
	if sp, ok := c.numeric(text, p); ok {
		return sp, true
	}
	return DateSpan{}, false
}

func (c *cjkScanner) literal(text string, p int, l *cjkLit) (DateSpan, bool) {
	end := p + len(l.s)
	first, _ := dtFirstRune(text, p)
	before := dtLastRune(text, p)
	after, _ := dtFirstRune(text, end)
	lastR := dtLastRune(text, end)
	if l.lang == "ko" {
		if dtHangul(before) {
			return DateSpan{}, false // the tail of a longer word: 안내일
		}
	} else if strings.ContainsRune(cjkNoBefore[first], before) {
		return DateSpan{}, false
	}
	lang := c.lang(l.lang)
	w := dtPeriod(l.k, c.day, l.n)
	note := ""
	if l.k == wWeek || l.k == wWeekend {
		note = "ISO week, Monday to Sunday"
	}
	// A weekday after a week phrase: 下周三, 来週の月曜日, 다음 주 월요일.
	if wd, e, ok := c.weekdayAfter(text, end, l.wd); ok {
		d := dtWeekStart(c.day).AddDate(0, 0, 7*l.n+wd)
		return c.make(p, e, lang, dtDayWhen(d), false, ""), true
	}
	switch {
	case l.lang == "ko":
		if !koFollowOK(text, end, l) {
			return DateSpan{}, false
		}
	default:
		if strings.ContainsRune(cjkNoAfter[lastR], after) {
			return DateSpan{}, false
		}
		if l.k == wDay && l.n == 1 && l.s == "明日" && prHasAt(text, end, "香") {
			return DateSpan{}, false // 明日香, a name
		}
	}
	return c.make(p, end, lang, w, false, note), true
}

// koParticles are the syllables a particle or ending may start with after a
// Korean time word: 내일은, 다음 주에, 지난달부터. A 주 or 달 followed by
// anything else is another word (주소, 주의사항, 달성).
const koParticles = "에엔는은도까부중내쯤초의로만이인였입과와께"

func koFollowOK(text string, end int, l *cjkLit) bool {
	next, _ := dtFirstRune(text, end)
	switch l.s {
	case "오늘":
		return next != '날' // 오늘날: nowadays
	case "내일":
		return next != '정' // 내 일정: my schedule
	case "그제":
		return next != '서' && next != '야' // 그제서야: only then
	}
	if l.koW != 0 || strings.HasSuffix(l.s, "후") || strings.HasSuffix(l.s, "뒤") || strings.HasSuffix(l.s, "전") {
		if !dtHangul(next) {
			return true
		}
		if l.koW == 2 && (next == '말' || next == '의') {
			return true
		}
		// After 주, 의 is more often 주의 (caution: 다음 주의사항, "the following
		// precautions") than "next week's".
		return next != '의' && strings.ContainsRune(koParticles, next)
	}
	return true
}

var (
	zhWeekdays = map[rune]int{'一': 0, '二': 1, '三': 2, '四': 3, '五': 4, '六': 5, '日': 6, '天': 6}
	jaWeekdays = map[rune]int{'月': 0, '火': 1, '水': 2, '木': 3, '金': 4, '土': 5, '日': 6}
	koWeekdays = map[rune]int{'월': 0, '화': 1, '수': 2, '목': 3, '금': 4, '토': 5, '일': 6}
)

// weekdayAfter reads a weekday right after a week phrase ending at e.
func (c *cjkScanner) weekdayAfter(text string, e int, kind uint8) (int, int, bool) {
	switch kind {
	case wdZhZhou, wdZhXingqi:
		r, n := dtFirstRune(text, e)
		wd, ok := zhWeekdays[r]
		if !ok || (r == '天' && kind == wdZhZhou) {
			return 0, 0, false
		}
		if next, _ := dtFirstRune(text, e+n); strings.ContainsRune(cjkWdBlock, next) {
			return 0, 0, false
		}
		return wd, e + n, true
	case wdJa:
		k := e
		if prHasAt(text, k, "の") {
			k += len("の")
		}
		r, n := dtFirstRune(text, k)
		wd, ok := jaWeekdays[r]
		if !ok || !prHasAt(text, k+n, "曜") {
			return 0, 0, false
		}
		k += n + len("曜")
		if prHasAt(text, k, "日") {
			k += len("日")
		}
		return wd, k, true
	case wdKo:
		k := e
		if prHasAt(text, k, " ") {
			k++
		}
		r, n := dtFirstRune(text, k)
		wd, ok := koWeekdays[r]
		if !ok || !prHasAt(text, k+n, "요일") {
			return 0, 0, false
		}
		return wd, k + n + len("요일"), true
	}
	return 0, 0, false
}

// cjkUnit is a unit-and-direction suffix after a number: 天后, 日前, 주 후.
type cjkUnit struct {
	s    string
	lang string
	unit kwID // kwDays, kwWeeks, kwMonths, kwYears
	sign int
}

var cjkUnits = func() []cjkUnit {
	var l []cjkUnit
	add := func(lang string, unit kwID, sign int, ss ...string) {
		for _, s := range ss {
			l = append(l, cjkUnit{s, lang, unit, sign})
		}
	}
	add("zh", kwDays, 1, "天后", "天以后", "天之后")
	add("zh", kwDays, -1, "天前", "天以前", "天之前")
	add("zh", kwWeeks, 1, "周后", "周以后", "周之后", "个星期后", "个礼拜后", "星期后")
	add("zh", kwWeeks, -1, "周前", "周以前", "周之前", "个星期前", "个礼拜前", "星期前")
	add("zh", kwMonths, 1, "个月后", "个月以后", "个月之后")
	add("zh", kwMonths, -1, "个月前", "个月以前", "个月之前")
	add("zh", kwYears, 1, "年后", "年以后", "年之后")
	add("zj", kwYears, -1, "年前", "年以前")
	add("ja", kwDays, 1, "日後")
	add("ja", kwDays, -1, "日前")
	add("ja", kwWeeks, 1, "週間後")
	add("ja", kwWeeks, -1, "週間前")
	for _, k := range []string{"ヶ", "か", "カ", "ヵ", "ケ", "箇"} {
		add("ja", kwMonths, 1, k+"月後")
		add("ja", kwMonths, -1, k+"月前")
	}
	add("ja", kwYears, 1, "年後")
	for _, sp := range []string{" ", ""} {
		add("ko", kwDays, 1, "일"+sp+"후", "일"+sp+"뒤")
		add("ko", kwDays, -1, "일"+sp+"전")
		add("ko", kwWeeks, 1, "주"+sp+"후", "주"+sp+"뒤", "주일"+sp+"후", "주일"+sp+"뒤")
		add("ko", kwWeeks, -1, "주"+sp+"전", "주일"+sp+"전")
		add("ko", kwMonths, 1, "개월"+sp+"후", "개월"+sp+"뒤", "달"+sp+"후", "달"+sp+"뒤")
		add("ko", kwMonths, -1, "개월"+sp+"전", "달"+sp+"전")
		add("ko", kwYears, 1, "년"+sp+"후", "년"+sp+"뒤")
		add("ko", kwYears, -1, "년"+sp+"전")
	}
	sort.SliceStable(l, func(i, j int) bool { return len(l[i].s) > len(l[j].s) })
	return l
}()

// cjkNumBefore lists what may stand right before a count in Chinese or
// Japanese and still leave it counting from now. Any other Han character is
// usually the event it counts from (部署3天后: three days after deploying),
// and 月 or 第 make it a date or an ordinal, so those are skipped.
const cjkNumBefore = "在约約於于将將要会會需等们們再就还還最晚迟遲早是过過计計少多估预預也都才已经經仅僅只今概"

// koEndings are the syllables that end a particle or verb ending, after
// which a Korean count starts a new phrase (지금부터 3일 후) rather than
// counting from a noun (배포 3일 후: three days after the release).
const koEndings = "은는이가을를에서도고다요면터로엔만"

// numeric matches a count and a unit: 3天后, 三天前, 两周后, 3日後, 3일 후.
func (c *cjkScanner) numeric(text string, p int) (DateSpan, bool) {
	n, e := cjkNumber(text, p)
	if n <= 0 {
		return DateSpan{}, false
	}
	before := dtLastRune(text, p)
	if before >= '0' && before <= '9' || before == '.' || before == '月' || before == '第' || before == '월' {
		return DateSpan{}, false
	}
	if e >= len(text) || text[e] < 0x80 {
		return DateSpan{}, false // every unit is written in CJK script
	}
	var u *cjkUnit
	for i := range cjkUnits {
		if prHasAt(text, e, cjkUnits[i].s) {
			u = &cjkUnits[i]
			break
		}
	}
	if u == nil {
		return DateSpan{}, false
	}
	lang := u.lang
	switch lang {
	case "ja":
		if !c.hasKana() {
			return DateSpan{}, false // 3日前 in Chinese is "before the 3rd"
		}
	case "zj":
		lang = c.lang(lang)
	}
	end := e + len(u.s)
	switch lang {
	case "ko":
		if dtHangul(before) {
			return DateSpan{}, false
		}
		if before == ' ' {
			if w := dtLastRune(text, p-1); dtHangul(w) && !strings.ContainsRune(koEndings, w) {
				return DateSpan{}, false
			}
		}
		if !koFollowOK(text, end, &cjkLit{s: u.s}) {
			return DateSpan{}, false
		}
	case "ja":
		if before == 'の' || dtKana(before) && before >= 0x30A0 {
			return DateSpan{}, false // リリースの3日後: counts from the release
		}
		if dtHasSuffixBefore(text, p, "から") && !dtHasSuffixBefore(text, p, "今から") {
			return DateSpan{}, false
		}
		if dtHan(before) && !strings.ContainsRune(cjkNumBefore, before) {
			return DateSpan{}, false
		}
	default:
		if dtHan(before) && !strings.ContainsRune(cjkNumBefore, before) {
			return DateSpan{}, false
		}
	}
	s := enScanner{day: c.day}
	w, note, _ := s.unitWhen(u.unit, n, u.sign)
	return c.make(p, end, lang, w, false, note), true
}

func dtHasSuffixBefore(text string, p int, suffix string) bool {
	return p >= len(suffix) && text[p-len(suffix):p] == suffix
}

// cjkNumber reads a count at p: ASCII digits (up to 3) or Chinese numerals
// up to 99 (三, 两, 十二, 二十三). It returns 0 when there is none.
func cjkNumber(text string, p int) (int, int) {
	if p < len(text) && text[p] >= '0' && text[p] <= '9' {
		e := p
		for e < len(text) && text[e] >= '0' && text[e] <= '9' {
			e++
		}
		if e-p > 3 {
			return 0, p
		}
		n, _ := strconv.Atoi(text[p:e])
		return n, e
	}
	r, size := dtFirstRune(text, p)
	e := p + size
	switch {
	case r == '两' || r == '兩':
		return 2, e
	case r == '十':
		if r2, s2 := dtFirstRune(text, e); zhDigit[r2] > 0 {
			return 10 + zhDigit[r2], e + s2
		}
		return 10, e
	case zhDigit[r] > 0:
		n := zhDigit[r]
		if r2, s2 := dtFirstRune(text, e); r2 == '十' {
			n *= 10
			e += s2
			if r3, s3 := dtFirstRune(text, e); zhDigit[r3] > 0 {
				n += zhDigit[r3]
				e += s3
			}
		}
		return n, e
	}
	return 0, p
}

var zhDigit = map[rune]int{'一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// make builds a CJK DateSpan with the replacement in the phrase's language.
func (c *cjkScanner) make(start, end int, lang string, w dtWhen, amb bool, note string) DateSpan {
	return DateSpan{Start: start, End: end, Text: c.text[start:end], Lang: lang,
		Meant: w.meant(), Replacement: cjkReplacement(lang, w), Ambiguous: amb, Note: note}
}

func cjkDate(lang string, t time.Time) string {
	if lang == "ko" {
		return strconv.Itoa(t.Year()) + "년 " + strconv.Itoa(int(t.Month())) + "월 " + strconv.Itoa(t.Day()) + "일"
	}
	return strconv.Itoa(t.Year()) + "年" + strconv.Itoa(int(t.Month())) + "月" + strconv.Itoa(t.Day()) + "日"
}

// cjkRange writes a range compactly: 2026年6月15日至21日, 2026년 6월 15일~21일.
func cjkRange(lang string, a, b time.Time) string {
	sep := map[string]string{"zh": "至", "ja": "〜", "ko": "~"}[lang]
	switch {
	case a.Year() != b.Year():
		return cjkDate(lang, a) + sep + cjkDate(lang, b)
	case a.Month() != b.Month():
		if lang == "ko" {
			return cjkDate(lang, a) + sep + strconv.Itoa(int(b.Month())) + "월 " + strconv.Itoa(b.Day()) + "일"
		}
		return cjkDate(lang, a) + sep + strconv.Itoa(int(b.Month())) + "月" + strconv.Itoa(b.Day()) + "日"
	}
	if lang == "ko" {
		return cjkDate(lang, a) + sep + strconv.Itoa(b.Day()) + "일"
	}
	return cjkDate(lang, a) + sep + strconv.Itoa(b.Day()) + "日"
}

func cjkReplacement(lang string, w dtWhen) string {
	switch w.kind {
	case wDay:
		return cjkDate(lang, w.from)
	case wMonth:
		if lang == "ko" {
			return strconv.Itoa(w.from.Year()) + "년 " + strconv.Itoa(int(w.from.Month())) + "월"
		}
		return strconv.Itoa(w.from.Year()) + "年" + strconv.Itoa(int(w.from.Month())) + "月"
	case wYear:
		if lang == "ko" {
			return strconv.Itoa(w.from.Year()) + "년"
		}
		return strconv.Itoa(w.from.Year()) + "年"
	case wQuarter:
		q := (int(w.from.Month())-1)/3 + 1
		if lang == "ko" {
			return strconv.Itoa(w.from.Year()) + "년 " + strconv.Itoa(q) + "분기"
		}
		return strconv.Itoa(w.from.Year()) + "年第" + string([]rune("一二三四")[q-1]) + "季度"
	}
	return cjkRange(lang, w.from, w.to)
}

// missingYears finds 5月26日, 5月26号 and 5월 26일 with no year before them.
func (c *cjkScanner) missingYears(ranges [][2]int, out []DateSpan) []DateSpan {
	text := c.text
	for _, rg := range ranges {
		seg := text[:rg[1]]
		for p := rg[0]; p < rg[1]; {
			i := indexMonthMark(seg, p)
			if i < 0 {
				break
			}
			if sp, ok := c.monthDay(seg, rg[0], i); ok {
				out = append(out, sp)
				p = sp.End
				continue
			}
			p = i + 3
		}
	}
	return out
}

func indexMonthMark(s string, from int) int {
	a := strings.Index(s[from:], "月")
	b := strings.Index(s[from:], "월")
	switch {
	case a < 0 && b < 0:
		return -1
	case a < 0 || (b >= 0 && b < a):
		return from + b
	}
	return from + a
}

// monthDay reads the date around the month mark at i, within [lo, len(seg)).
func (c *cjkScanner) monthDay(seg string, lo, i int) (DateSpan, bool) {
	ko := prHasAt(seg, i, "월")
	ms := i
	for ms > lo && i-ms < 2 && seg[ms-1] >= '0' && seg[ms-1] <= '9' {
		ms--
	}
	if ms == i || ms > lo && seg[ms-1] >= '0' && seg[ms-1] <= '9' {
		return DateSpan{}, false
	}
	month, _ := strconv.Atoi(seg[ms:i])
	k := i + 3
	if ko && prHasAt(seg, k, " ") {
		k++
	}
	ds := k
	for k < len(seg) && k-ds < 3 && seg[k] >= '0' && seg[k] <= '9' {
		k++
	}
	if k == ds || k-ds > 2 {
		return DateSpan{}, false
	}
	day, _ := strconv.Atoi(seg[ds:k])
	lang := "ko"
	switch {
	case ko && prHasAt(seg, k, "일"):
		k += len("일")
	case !ko && prHasAt(seg, k, "日"):
		k += len("日")
		lang = c.lang("zj")
	case !ko && prHasAt(seg, k, "号"):
		k += len("号")
		lang = "zh"
	default:
		return DateSpan{}, false
	}
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return DateSpan{}, false
	}
	// A year before it: 2026年5月26日, 2026년 5월 26일, 26年5月.
	b := ms
	for b > 0 && seg[b-1] == ' ' {
		b--
	}
	if r := dtLastRune(seg, b); r == '年' || r == '년' {
		return DateSpan{}, false
	}
	if ms >= 2 && (seg[ms-1] == '/' || seg[ms-1] == '-' || seg[ms-1] == '.') && seg[ms-2] >= '0' && seg[ms-2] <= '9' {
		return DateSpan{}, false // 2026/5月, 2026-5月26日
	}
	t, amb, note, ok := dtResolveYear(c.day, time.Month(month), day)
	if !ok {
		return DateSpan{}, false
	}
	txt := seg[ms:k]
	repl := strconv.Itoa(t.Year()) + "年" + txt
	if lang == "ko" {
		repl = strconv.Itoa(t.Year()) + "년 " + txt
	}
	return DateSpan{Start: ms, End: k, Text: txt, Lang: lang, Meant: dtISO(t), Replacement: repl, Ambiguous: amb, Note: note}, true
}
