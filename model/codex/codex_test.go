package codex

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// summaryOf is a summary in the template's shape with a profile of
// words words and what filler after it.
func summaryOf(words int, whats string) string {
	return "v1\n\n## User Profile\n\n" + strings.TrimSpace(strings.Repeat("word ", words)) + "\n\n" +
		"## User preferences\n\n- tabs, not spaces\n\n## General Tips\n\n- run make check first\n\n" +
		"## What's in Memory\n\n### /work/shop\n\n#### 2026-11-20\n\n- checkout: stripe, retries\n\n#### 2026-11-18\n\n- cache: tenant keys\n\n" +
		"### Older Memory Topics\n\n#### /work/blog\n\n- hugo: build\n" + whats
}

// TestLoadWithinTheCap: a summary within 10,000 bytes (after trimming)
// is loaded whole; blank, nothing is loaded at all.
func TestLoadWithinTheCap(t *testing.T) {
	s := "\n\n  " + summaryOf(20, "") + "\n\n"
	l := Load([]byte(s))
	if l.Cut || l.Empty || l.Text != strings.TrimSpace(s) || l.Start != 4 {
		t.Errorf("%+v", l)
	}
	exact := "v1\n" + strings.Repeat("x", SummaryByteLimit-3)
	if l := Load([]byte(exact)); l.Cut || len(l.Text) != SummaryByteLimit {
		t.Errorf("exactly at the cap must load whole: cut %v, %d bytes", l.Cut, len(l.Text))
	}
	for _, blank := range []string{"", " \n\t\r\n"} {
		if l := Load([]byte(blank)); !l.Empty {
			t.Errorf("%q: a blank summary loads nothing: %+v", blank, l)
		}
	}
}

// TestLoadCutsTheMiddle: over the cap, the first and last 5,000 bytes
// stay, the marker counts the removed bytes in tokens (rounded up), and
// a cut never splits a character: the head ends before a 3-byte rune
// that straddles byte 5,000, the tail starts after one that straddles
// len-5,000.
func TestLoadCutsTheMiddle(t *testing.T) {
	body := strings.Repeat("a", 12001)
	l := Load([]byte(body))
	if !l.Cut || l.CutFrom != 5000 || l.CutTo != 7001 || l.Removed() != 2001 || l.Marker != "…501 tokens truncated…" {
		t.Fatalf("%+v", l.CutFrom)
	}
	if l.Text != strings.Repeat("a", 5000)+"…501 tokens truncated…"+strings.Repeat("a", 5000) {
		t.Errorf("text: %d bytes", len(l.Text))
	}
	// "€" is 3 bytes: one at bytes 4999-5001 and one straddling the tail.
	s := strings.Repeat("b", 4999) + "€" + strings.Repeat("c", 3000) + strings.Repeat("d", 1999) + "€" + strings.Repeat("e", 4999)
	l = Load([]byte(s))
	if l.CutFrom != 4999 || !strings.HasSuffix(l.Text, "€"+strings.Repeat("e", 4999)) && l.CutTo != len(s)-4999 {
		t.Errorf("head ends at %d, tail starts at %d (len %d)", l.CutFrom, l.CutTo, len(s))
	}
	if !utf8.ValidString(l.Text) {
		t.Errorf("a character was split")
	}
	if got := len(s) - l.CutTo; got > 5000 {
		t.Errorf("the tail keeps %d bytes, more than 5,000", got)
	}
}

// TestCutLinesAndSections: the lines and sections a cut drops, whole and
// in part, in the file's own numbering.
func TestCutLinesAndSections(t *testing.T) {
	// The profile runs past the head's 5,000 bytes, preferences and tips
	// lie wholly in the middle, What's in Memory ends in the tail.
	s := "v1\n\n## User Profile\n\n" + strings.Repeat("p", 5200) + "\n\n## User preferences\n\n- short\n" +
		"\n## General Tips\n\n" + strings.Repeat("- a tip worth keeping in mind\n", 100) +
		"\n## What's in Memory\n\n" + strings.Repeat("- topic: kw\n", 600)
	l := Load([]byte(s))
	sum := ParseSummary([]byte(s))
	if !l.Cut {
		t.Fatal("not cut")
	}
	whole, part := l.CutSections(sum)
	names := func(ss []Section) (out []string) {
		for _, x := range ss {
			out = append(out, x.Title)
		}
		return out
	}
	if w := names(whole); len(w) != 2 || w[0] != "User preferences" || w[1] != "General Tips" {
		t.Errorf("whole: %v", w)
	}
	if p := names(part); len(p) != 2 || p[0] != "User Profile" || p[1] != "What's in Memory" {
		t.Errorf("part: %v", p)
	}
	first, last := l.CutLines([]byte(s))
	lines := strings.Split(s, "\n")
	wim := 0
	for i, ln := range lines {
		if ln == "## What's in Memory" {
			wim = i + 1
		}
	}
	if first != 5 || last <= wim || !strings.HasPrefix(lines[last-1], "- topic") {
		t.Errorf("the cut reaches lines %d-%d; want from the profile's text (5) into What's in Memory (after line %d)", first, last, wim)
	}
}

// TestParseSummaryShape: the template's summary has no problem; each way
// of breaking it is named at its line.
func TestParseSummaryShape(t *testing.T) {
	if s := ParseSummary([]byte(summaryOf(300, ""))); len(s.Problems) != 0 || !s.Header || len(s.Sections) != 4 || s.ProfileWords != 300 {
		t.Fatalf("%+v", s)
	}
	crlf := strings.ReplaceAll(summaryOf(10, ""), "\n", "\r\n")
	if s := ParseSummary([]byte(crlf)); !s.Header || len(s.Problems) != 0 {
		t.Errorf("CRLF passes Codex's check: %+v", s.Problems)
	}
	for name, c := range map[string]struct {
		text, want string
		line       int
	}{
		"bom":      {"\ufeff" + summaryOf(5, ""), "byte-order mark", 1},
		"spaces":   {" " + summaryOf(5, ""), "exactly v1", 1},
		"frontmat": {"---\nname: x\n---\n" + summaryOf(5, ""), "exactly v1", 1},
		"long":     {summaryOf(351, ""), "351 words", 3},
		"order":    {strings.Replace(summaryOf(5, ""), "## General Tips\n\n- run make check first\n\n", "", 1) + "\n## General Tips\n\n- late\n", "## What's in Memory must come after ## General Tips", 0},
		"missing":  {strings.Replace(summaryOf(5, ""), "## User preferences", "## Preferences", 1), "## User preferences is missing", 0},
		"twice":    {summaryOf(5, "\n## User Profile\n\nagain\n"), "appears twice", 0},
		"baddate":  {strings.Replace(summaryOf(5, ""), "#### 2026-11-18", "#### 2026-13-01", 1), "must be a date", 0},
		"order-dt": {strings.Replace(summaryOf(5, ""), "#### 2026-11-18", "#### 2026-11-22", 1), "newest first", 0},
	} {
		s := ParseSummary([]byte(c.text))
		found := false
		for _, p := range s.Problems {
			if strings.Contains(p.What, c.want) && (c.line == 0 || p.Line == c.line) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no problem %q at line %d: %+v", name, c.want, c.line, s.Problems)
		}
	}
	// Older Memory Topics' "#### <scope>" headings are scopes, not days.
	if s := ParseSummary([]byte(summaryOf(5, "\n#### /work/other\n"))); len(s.Problems) != 0 {
		t.Errorf("scope headings under Older Memory Topics taken for days: %+v", s.Problems)
	}
}

// TestRolloutStem: the test vector of Codex's own tests, and the slug
// rules (hyphens become underscores, cut to 60, trailing _ removed).
func TestRolloutStem(t *testing.T) {
	got, err := RolloutStem("0194f5a6-89ab-7cde-8123-456789abcdef", time.Time{}, "")
	if err != nil || got != "2025-02-11T15-35-19-jqmb" {
		t.Fatalf("%q %v", got, err)
	}
	got, _ = RolloutStem("0194f5a6-89ab-7cde-8123-456789abcdef", time.Time{}, "Fix the-Cache!! "+strings.Repeat("x", 80))
	if want := "2025-02-11T15-35-19-jqmb-fix_the_cache___" + strings.Repeat("x", 44); got != want {
		t.Errorf("slug: %q\nwant %q", got, want)
	}
	if got, _ := RolloutStem("0194f5a6-89ab-7cde-8123-456789abcdef", time.Time{}, "__done__"); got != "2025-02-11T15-35-19-jqmb-__done" {
		t.Errorf("trailing underscores: %q", got)
	}
	// A version 4 id carries no time: the thread's update time names it.
	upd := time.Date(2026, 11, 20, 9, 30, 15, 900, time.UTC)
	if got, _ := RolloutStem("5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90", upd, ""); !strings.HasPrefix(got, "2026-11-20T09-30-15-") {
		t.Errorf("v4: %q", got)
	}
	if _, err := RolloutStem("not-a-uuid", upd, ""); err == nil {
		t.Error("a bad id must be an error")
	}
	if !IsRolloutSummaryName("2025-02-11T15-35-19-jqmb.md") || !IsRolloutSummaryName("2025-02-11T15-35-19-jqmb-fix_cache.md") ||
		IsRolloutSummaryName("notes.md") || IsRolloutSummaryName("2025-02-11T15-35-19-jqmb-Fix.md") {
		t.Error("rollout summary names")
	}
}

// TestNoteNames: the add_ad_hoc_note rule, and the names memtui makes.
func TestNoteNames(t *testing.T) {
	for name, ok := range map[string]bool{
		"2026-11-20T09-30-15-use-pnpm.md":                        true,
		"2026-11-20T09-30-15-Use-pnpm.md":                        false,
		"2026-11-20T09-30-15--x.md":                              false,
		"2026-13-20T09-30-15-x.md":                               false,
		"2026-11-20T09-30-15-x.txt":                              false,
		"2026-11-20T09-30-15-" + strings.Repeat("a", 80) + ".md": true,
		"2026-11-20T09-30-15-" + strings.Repeat("a", 81) + ".md": false,
	} {
		if ValidNoteName(name) != ok {
			t.Errorf("%s: valid %v, want %v", name, !ok, ok)
		}
	}
	at := time.Date(2026, 11, 28, 17, 5, 9, 0, time.UTC)
	if got, err := NoteName(at, "Forget the old deploy command!"); err != nil || got != "2026-11-28T17-05-09-forget-the-old-deploy-command.md" {
		t.Errorf("%q %v", got, err)
	}
	if _, err := NoteName(at, "!!!"); err == nil {
		t.Error("a slug with nothing to keep must be an error")
	}
}
