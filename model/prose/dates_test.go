package prose

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testAnchor is a Wednesday. It is late evening in UTC-5, already June 11 in
// UTC: the anchor's own calendar date (June 10) must win.
var dateAnchor = time.Date(2026, 6, 10, 23, 30, 0, 0, time.FixedZone("UTC-5", -5*3600))

func TestRelativeDatesFire(t *testing.T) {
	tests := []struct {
		text, want, meant string
		lang              string
		amb               bool
	}{
		// English: days
		{"We ship today.", "today", "2026-06-10", "en", false},
		{"Deploy tonight after the freeze.", "tonight", "2026-06-10", "en", false},
		{"Fixed this morning.", "this morning", "2026-06-10", "en", false},
		{"Retry this afternoon", "this afternoon", "2026-06-10", "en", false},
		{"Call this evening", "this evening", "2026-06-10", "en", false},
		{"yesterday we fixed the flaky test", "yesterday", "2026-06-09", "en", false},
		{"Release tomorrow", "tomorrow", "2026-06-11", "en", false},
		{"TOMORROW: cut the branch", "TOMORROW", "2026-06-11", "en", false},
		{"Tomorrow's headline is the release.", "Tomorrow's", "2026-06-11", "en", false},
		{"Yesterday’s run failed", "Yesterday’s", "2026-06-09", "en", false},
		{"It broke the day before yesterday.", "the day before yesterday", "2026-06-08", "en", false},
		{"Ship the day after tomorrow", "the day after tomorrow", "2026-06-12", "en", false},
		{"Broke last night", "last night", "2026-06-09", "en", false},
		{"Finish by EOD.", "EOD", "2026-06-10", "en", false},
		{"Finish EOD tomorrow.", "EOD tomorrow", "2026-06-11", "en", false},
		// English: periods
		{"Refactor this week.", "this week", "2026-06-08 to 2026-06-14", "en", false},
		{"Next week we migrate.", "Next week", "2026-06-15 to 2026-06-21", "en", false},
		{"Started last week", "last week", "2026-06-01 to 2026-06-07", "en", false},
		{"Budget this month", "this month", "2026-06", "en", false},
		{"next month's plan", "next month", "2026-07", "en", false},
		{"Moved last month", "last month", "2026-05", "en", false},
		{"Renewed this year", "this year", "2026", "en", false},
		{"Sunset next year", "next year", "2027", "en", false},
		{"Adopted last year", "last year", "2025", "en", false},
		{"OKRs this quarter", "this quarter", "2026-04-01 to 2026-06-30", "en", false},
		{"Hiring next quarter", "next quarter", "2026-07-01 to 2026-09-30", "en", false},
		{"Churn last quarter", "last quarter", "2026-01-01 to 2026-03-31", "en", false},
		{"Offsite this weekend", "this weekend", "2026-06-13 to 2026-06-14", "en", false},
		{"Offsite next weekend", "next weekend", "2026-06-20 to 2026-06-21", "en", true},
		{"Outage last weekend", "last weekend", "2026-06-06 to 2026-06-07", "en", false},
		{"Land it later this week", "later this week", "2026-06-11 to 2026-06-14", "en", false},
		{"Rotated earlier this month", "earlier this month", "2026-06-01 to 2026-06-09", "en", false},
		{"Done by the end of the month", "the end of the month", "2026-06-30", "en", false},
		{"Done by end of week", "end of week", "2026-06-14", "en", true},
		{"Ship at the end of next week", "the end of next week", "2026-06-21", "en", true},
		{"Freeze until the end of the quarter", "the end of the quarter", "2026-06-30", "en", false},
		// English: weekdays
		{"The freeze starts next Thursday.", "next Thursday", "2026-06-18", "en", true},
		{"Next Monday we start", "Next Monday", "2026-06-15", "en", false},
		{"next Wednesday", "next Wednesday", "2026-06-17", "en", false},
		{"It failed last Friday", "last Friday", "2026-06-05", "en", false},
		{"It failed last Monday", "last Monday", "2026-06-08", "en", true},
		{"Demo this Friday", "this Friday", "2026-06-12", "en", false},
		{"Demo this Monday", "this Monday", "2026-06-08", "en", true},
		{"We met this past Monday", "this past Monday", "2026-06-08", "en", false},
		{"Meet this coming Monday", "this coming Monday", "2026-06-15", "en", false},
		{"Send it by Friday.", "by Friday", "2026-06-12", "en", false},
		{"Blocked until Tuesday", "until Tuesday", "2026-06-16", "en", false},
		{"Merge before Thursday", "before Thursday", "2026-06-11", "en", false},
		{"Resume after Monday", "after Monday", "2026-06-15", "en", false},
		{"Flaky since Monday", "since Monday", "2026-06-08", "en", false},
		{"We deployed on Friday.", "on Friday", "2026-06-05", "en", false},
		{"We will deploy on Friday.", "on Friday", "2026-06-12", "en", false},
		{"Deploy on Friday", "on Friday", "2026-06-12", "en", true},
		{"Review on Wednesday", "on Wednesday", "2026-06-17", "en", true},
		{"on Thursday's call", "on Thursday's", "2026-06-11", "en", true},
		// English: counts
		{"We ship in 2 weeks.", "in 2 weeks", "2026-06-24", "en", false},
		{"Revisit in 4 weeks", "in 4 weeks", "2026-07-08", "en", false},
		{"Check in 3 days", "in 3 days", "2026-06-13", "en", false},
		{"Check in three days", "in three days", "2026-06-13", "en", false},
		{"Check in twelve days", "in twelve days", "2026-06-22", "en", false},
		{"Retry in a week", "in a week", "2026-06-17", "en", false},
		{"Retry in a couple of days", "in a couple of days", "2026-06-12", "en", false},
		{"Retry in a couple weeks", "in a couple weeks", "2026-06-24", "en", false},
		{"Revisit in 3 months", "in 3 months", "2026-09", "en", false},
		{"Revisit in a year", "in a year", "2027", "en", false},
		{"It broke 3 days ago.", "3 days ago", "2026-06-07", "en", false},
		{"It broke a week ago.", "a week ago", "2026-06-03", "en", false},
		{"It broke two weeks ago.", "two weeks ago", "2026-05-27", "en", false},
		{"It broke a couple of weeks ago.", "a couple of weeks ago", "2026-05-27", "en", false},
		{"Migrated 2 months ago", "2 months ago", "2026-04", "en", false},
		{"Hired a year ago", "a year ago", "2025", "en", false},
		{"Due 2 weeks from now", "2 weeks from now", "2026-06-24", "en", false},
		{"Due one week from today", "one week from today", "2026-06-17", "en", false},
		// Markdown around the phrase
		{"- **Deadline:** tomorrow", "tomorrow", "2026-06-11", "en", false},
		{"See [tomorrow's notes](notes/plan.md)", "tomorrow's", "2026-06-11", "en", false},
		{"## Plan for next week\n", "next week", "2026-06-15 to 2026-06-21", "en", false},
		{"wraps up\nnext week", "next week", "2026-06-15 to 2026-06-21", "en", false},
		// Chinese
		{"明天部署。", "明天", "2026-06-11", "zh", false},
		{"今天上线", "今天", "2026-06-10", "zh", false},
		{"今日完成", "今日", "2026-06-10", "zh", false},
		{"昨天修复了", "昨天", "2026-06-09", "zh", false},
		{"前天出的问题", "前天", "2026-06-08", "zh", false},
		{"后天发布", "后天", "2026-06-12", "zh", false},
		{"大后天发布", "大后天", "2026-06-13", "zh", false},
		{"今晚发布", "今晚", "2026-06-10", "zh", false},
		{"明早开会", "明早", "2026-06-11", "zh", false},
		{"本周完成", "本周", "2026-06-08 to 2026-06-14", "zh", false},
		{"这周完成", "这周", "2026-06-08 to 2026-06-14", "zh", false},
		{"这个星期完成", "这个星期", "2026-06-08 to 2026-06-14", "zh", false},
		{"下周迁移", "下周", "2026-06-15 to 2026-06-21", "zh", false},
		{"下个星期迁移", "下个星期", "2026-06-15 to 2026-06-21", "zh", false},
		{"下星期迁移", "下星期", "2026-06-15 to 2026-06-21", "zh", false},
		{"上周迁移", "上周", "2026-06-01 to 2026-06-07", "zh", false},
		{"上个星期迁移", "上个星期", "2026-06-01 to 2026-06-07", "zh", false},
		{"下周一评审", "下周一", "2026-06-15", "zh", false},
		{"下周三评审", "下周三", "2026-06-17", "zh", false},
		{"下周日评审", "下周日", "2026-06-21", "zh", false},
		{"下个星期天评审", "下个星期天", "2026-06-21", "zh", false},
		{"上周五出的问题", "上周五", "2026-06-05", "zh", false},
		{"本月结束", "本月", "2026-06", "zh", false},
		{"这个月结束", "这个月", "2026-06", "zh", false},
		{"下个月开始", "下个月", "2026-07", "zh", false},
		{"上个月开始", "上个月", "2026-05", "zh", false},
		{"今年目标", "今年", "2026", "zh", false},
		{"明年目标", "明年", "2027", "zh", false},
		{"去年目标", "去年", "2025", "zh", false},
		{"3天后上线", "3天后", "2026-06-13", "zh", false},
		{"三天后上线", "三天后", "2026-06-13", "zh", false},
		{"十天后上线", "十天后", "2026-06-20", "zh", false},
		{"两周后上线", "两周后", "2026-06-24", "zh", false},
		{"2周后上线", "2周后", "2026-06-24", "zh", false},
		{"3个月后上线", "3个月后", "2026-09", "zh", false},
		{"5天前出的问题", "5天前", "2026-06-05", "zh", false},
		{"预计3天后上线", "3天后", "2026-06-13", "zh", false},
		// Japanese (kana in the text decides 今日 and 去年)
		{"今日はリリース", "今日", "2026-06-10", "ja", false},
		{"明日やる", "明日", "2026-06-11", "ja", false},
		{"昨日やった", "昨日", "2026-06-09", "ja", false},
		{"明後日やる", "明後日", "2026-06-12", "ja", false},
		{"一昨日やった", "一昨日", "2026-06-08", "ja", false},
		{"今朝やった", "今朝", "2026-06-10", "ja", false},
		{"今夜やる", "今夜", "2026-06-10", "ja", false},
		{"今週やる", "今週", "2026-06-08 to 2026-06-14", "ja", false},
		{"来週やる", "来週", "2026-06-15 to 2026-06-21", "ja", false},
		{"先週やった", "先週", "2026-06-01 to 2026-06-07", "ja", false},
		{"来週の月曜日にレビュー", "来週の月曜日", "2026-06-15", "ja", false},
		{"来週金曜にレビュー", "来週金曜", "2026-06-19", "ja", false},
		{"今月やる", "今月", "2026-06", "ja", false},
		{"来月やる", "来月", "2026-07", "ja", false},
		{"先月やった", "先月", "2026-05", "ja", false},
		{"今年やる", "今年", "2026", "ja", false},
		{"来年やる", "来年", "2027", "ja", false},
		{"去年やった", "去年", "2025", "ja", false},
		{"昨年やった", "昨年", "2025", "ja", false},
		{"3日後にやる", "3日後", "2026-06-13", "ja", false},
		{"3日前にやった", "3日前", "2026-06-07", "ja", false},
		{"2週間後にやる", "2週間後", "2026-06-24", "ja", false},
		{"3ヶ月後にやる", "3ヶ月後", "2026-09", "ja", false},
		{"今から3日後にやる", "3日後", "2026-06-13", "ja", false},
		// Korean
		{"오늘 배포", "오늘", "2026-06-10", "ko", false},
		{"내일 배포", "내일", "2026-06-11", "ko", false},
		{"내일은 배포", "내일", "2026-06-11", "ko", false},
		{"내일까지 배포", "내일", "2026-06-11", "ko", false},
		{"어제 배포했다", "어제", "2026-06-09", "ko", false},
		{"모레 배포", "모레", "2026-06-12", "ko", false},
		{"그저께 배포했다", "그저께", "2026-06-08", "ko", false},
		{"그제 배포했다", "그제", "2026-06-08", "ko", false},
		{"이번 주에 배포", "이번 주", "2026-06-08 to 2026-06-14", "ko", false},
		{"다음 주에 배포", "다음 주", "2026-06-15 to 2026-06-21", "ko", false},
		{"다음주 배포", "다음주", "2026-06-15 to 2026-06-21", "ko", false},
		{"지난주에 배포했다", "지난주", "2026-06-01 to 2026-06-07", "ko", false},
		{"지난 주에 배포했다", "지난 주", "2026-06-01 to 2026-06-07", "ko", false},
		{"다음 주 월요일에 배포", "다음 주 월요일", "2026-06-15", "ko", false},
		{"이번 달에 배포", "이번 달", "2026-06", "ko", false},
		{"다음 달에 배포", "다음 달", "2026-07", "ko", false},
		{"지난달에 배포했다", "지난달", "2026-05", "ko", false},
		{"올해 목표", "올해", "2026", "ko", false},
		{"내년 목표", "내년", "2027", "ko", false},
		{"작년 목표", "작년", "2025", "ko", false},
		{"3일 후에 배포", "3일 후", "2026-06-13", "ko", false},
		{"3일 뒤 배포", "3일 뒤", "2026-06-13", "ko", false},
		{"3일 전에 배포했다", "3일 전", "2026-06-07", "ko", false},
		{"2주 후에 배포", "2주 후", "2026-06-24", "ko", false},
		{"3개월 후에 배포", "3개월 후", "2026-09", "ko", false},
		{"1년 전에 배포했다", "1년 전", "2025", "ko", false},
		{"지금부터 3일 후 배포", "3일 후", "2026-06-13", "ko", false},
		{"이틀 후 배포", "이틀 후", "2026-06-12", "ko", false},
	}
	for _, tt := range tests {
		got := FindRelativeDates(tt.text, dateAnchor)
		if len(got) != 1 {
			t.Errorf("%q: got %d spans %+v, want 1 (%q)", tt.text, len(got), got, tt.want)
			continue
		}
		g := got[0]
		if g.Text != tt.want || g.Meant != tt.meant || g.Lang != tt.lang || g.Ambiguous != tt.amb {
			t.Errorf("%q: got %q %s %s amb=%v (%s), want %q %s %s amb=%v", tt.text,
				g.Text, g.Meant, g.Lang, g.Ambiguous, g.Note, tt.want, tt.meant, tt.lang, tt.amb)
		}
		if tt.text[g.Start:g.End] != g.Text {
			t.Errorf("%q: Text %q is not text[%d:%d]", tt.text, g.Text, g.Start, g.End)
		}
		if g.Ambiguous && g.Note == "" {
			t.Errorf("%q: ambiguous with no Note", tt.text)
		}
		if g.Replacement == "" {
			t.Errorf("%q: empty Replacement", tt.text)
		}
	}
}

func TestRelativeDatesReplacement(t *testing.T) {
	tests := []struct{ text, want string }{
		{"We ship tomorrow.", "on 2026-06-11"},
		{"Blocked until tomorrow.", "2026-06-11"},
		{"Tomorrow is the deadline.", "2026-06-11"},
		{"Tomorrow's headline is the release.", "The 2026-06-11"},
		{"Yesterday we fixed it.", "On 2026-06-09"},
		{"We ship next week.", "the week of 2026-06-15"},
		{"We ship next month.", "in July 2026"},
		{"We ship by next month.", "July 2026"},
		{"next month's plan", "July 2026"},
		{"We ship next quarter.", "in Q3 2026"},
		{"Ship by Friday.", "by Friday 2026-06-12"},
		{"Ship next Thursday.", "on Thursday 2026-06-18"},
		{"Ship in 2 weeks.", "on 2026-06-24"},
		{"Ship in 3 months.", "in September 2026"},
		{"Done later this week.", "later in the week of 2026-06-08"},
		{"Done by the end of the month.", "the end of June 2026"},
		{"Done by EOD.", "the end of 2026-06-10"},
		{"Deploy tonight.", "on the night of 2026-06-10"},
		{"明天部署", "2026年6月11日"},
		{"下周部署", "2026年6月15日至21日"},
		{"上个月", "2026年5月"},
		{"来週やる", "2026年6月15日〜21日"},
		{"다음 주에 배포", "2026년 6월 15일~21일"},
		{"내일 배포", "2026년 6월 11일"},
	}
	for _, tt := range tests {
		got := FindRelativeDates(tt.text, dateAnchor)
		if len(got) != 1 || got[0].Replacement != tt.want {
			t.Errorf("%q: got %+v, want replacement %q", tt.text, got, tt.want)
		}
	}
}

func TestRelativeDatesDoNotFire(t *testing.T) {
	for _, text := range []string{
		"Currently we deploy with make ship.",
		"Run it now.",
		"In this session we found the cache bug.",
		"This conversation covered the schema.",
		"This repo uses Go modules. This file is generated. This function is hot.",
		"Use `today's date format` for the header.",
		"The report is weekly and the job runs daily.",
		"```\nToday I learned the cache is warm.\n```",
		"~~~~\ntomorrow\n~~~\nstill code\n~~~~",
		"Next steps: wire the canary.",
		"The last step failed.",
		"The last year of the loop handles leap days.",
		"Over the past year we moved to Postgres.",
		"In the last week we saw three outages.",
		"In the next week or so.",
		"Nowadays most of the work happens in ingest.",
		"todayCount is incremented per request.",
		"See tomorrow_test.go and today.md.",
		"The fixtures live in /tomorrow/ and /var/today.",
		"Docs: https://example.com/tomorrow/next-week",
		"www.tomorrow.io is the weather API",
		"[notes](http://x.io/yesterday)",
		"<!-- tomorrow: remove this -->",
		"We deploy every Thursday.",
		"We deploy on Thursdays.",
		"We deploy every week on Thursday.",
		"We usually deploy on Friday.",
		"Standups are on Monday through Friday.",
		"Never deploy on Friday afternoons.",
		"We never deploy on Friday.",
		"Thursday standups are short.",
		"Tokens expire in 30 days.",
		"Logs rotate at the end of the month.",
		"It took 3 weeks of testing.",
		"In 3 weeks of testing we found nothing.",
		"The day after the release we rolled back.",
		"At the end of the day, simplicity wins.",
		"eod_marker and EODs and eod",
		"a few days ago",
		"in 3-4 weeks",
		"call today() and tomorrow-ish",
		"It was a daylight issue; the week-long freeze; this weekday.",
		"You may need to restart.",
		"Name the file with today's date.",
		"Set the expiry to tomorrow’s date",
		"Releases go out last Friday of the month.",
		// Chinese, Japanese and Korean words that contain a trigger
		"部署3天后发现问题。",
		"以下周期性任务",
		"提前天数不足",
		"看一下周报",
		"目前天津机房",
		"第三天后",
		"5月3日前完成",
		"オオサカの3日後",
		"리리스の3日後",
		"오늘날의 개발",
		"다음 주의사항을 지켜",
		"다음 주소로 보내기",
		"배포 3일 후 장애",
		"그제서야 알았다",
		"안내일정",
	} {
		if got := FindRelativeDates(text, dateAnchor); len(got) != 0 {
			t.Errorf("%q: fired %+v", text, got)
		}
	}
}

// A realistic memory: frontmatter, prose, a list and code. Only the dates
// in prose and in the description fire.
const dateMemoryWithDates = `---
name: release-plan
description: Release notes; the freeze starts tomorrow and lasts two weeks
metadata:
  type: project
  modified: 2026-06-10T18:00:00Z
---

Currently we deploy with make ship from the main branch. Next steps: wire the canary.

- The migration ran yesterday and the backfill finishes next week.
- We run the daily job at 06:00; the weekly report goes out on Mondays.

` + "```bash\n# tomorrow: bump the version\nmake ship\n```\n" + `
Tomorrow's headline is the release. See ` + "`tomorrow_test.go`" + ` for the fixtures and
[the plan](https://example.com/next-week) for the schedule.
`

func TestRelativeDatesMemory(t *testing.T) {
	got := FindRelativeDates(dateMemoryWithDates, dateAnchor)
	var texts []string
	for _, g := range got {
		texts = append(texts, g.Text)
	}
	want := []string{"tomorrow", "yesterday", "next week", "Tomorrow's"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", texts, want)
	}
}

func TestDateMissingYearsFire(t *testing.T) {
	tests := []struct {
		text, want, meant, lang string
		amb                     bool
	}{
		{"Follow up on May 26 with the vendor.", "May 26", "2026-05-26", "en", false},
		{"Follow up on May 26th.", "May 26th", "2026-05-26", "en", false},
		{"Cutover on 26 May.", "26 May", "2026-05-26", "en", false},
		{"Cutover on the 26th of May.", "26th of May", "2026-05-26", "en", false},
		{"Due Jun 3", "Jun 3", "2026-06-03", "en", false},
		{"Due Jan. 5 at noon", "Jan. 5", "2026-01-05", "en", false},
		{"Due Sept 30", "Sept 30", "2026-09-30", "en", false},
		{"Freeze May 26-28", "May 26-28", "2026-05-26 to 2026-05-28", "en", false},
		{"Party Dec 20", "Dec 20", "2025-12-20", "en", true},
		{"MAY 26 cutover", "MAY 26", "2026-05-26", "en", false},
		{"5月26日上线", "5月26日", "2026-05-26", "zh", false},
		{"5月26号上线", "5月26号", "2026-05-26", "zh", false},
		{"5月26日にリリース", "5月26日", "2026-05-26", "ja", false},
		{"5월 26일에 배포", "5월 26일", "2026-05-26", "ko", false},
		{"5월26일 배포", "5월26일", "2026-05-26", "ko", false},
	}
	for _, tt := range tests {
		got := FindMissingYears(tt.text, dateAnchor)
		if len(got) != 1 {
			t.Errorf("%q: got %+v, want one %q", tt.text, got, tt.want)
			continue
		}
		g := got[0]
		if g.Text != tt.want || g.Meant != tt.meant || g.Lang != tt.lang || g.Ambiguous != tt.amb {
			t.Errorf("%q: got %q %s %s amb=%v, want %q %s %s amb=%v", tt.text, g.Text, g.Meant, g.Lang, g.Ambiguous,
				tt.want, tt.meant, tt.lang, tt.amb)
		}
		if !strings.Contains(g.Replacement, "2026") && !strings.Contains(g.Replacement, "2025") {
			t.Errorf("%q: replacement %q has no year", tt.text, g.Replacement)
		}
	}
}

func TestDateMissingYearsReplacement(t *testing.T) {
	for text, want := range map[string]string{
		"on May 26 we ship": "May 26, 2026",
		"on 26 May we ship": "26 May 2026",
		"5月26日上线":           "2026年5月26日",
		"5월 26일 배포":         "2026년 5월 26일",
	} {
		if got := FindMissingYears(text, dateAnchor); len(got) != 1 || got[0].Replacement != want {
			t.Errorf("%q: got %+v, want %q", text, got, want)
		}
	}
}

func TestDateMissingYearsDoNotFire(t *testing.T) {
	for _, text := range []string{
		"May 26, 2026 is the cutover.",
		"May 26 2026 is the cutover.",
		"26 May 2026 is the cutover.",
		"2026 May 26 is the cutover.",
		"Cutover 2026-05-26.",
		"May the tests pass.",
		"You may 26 times retry.",
		"We ship in May.",
		"The ratio is 5/26.",
		"Released March 2026.",
		"See `May 26` in the log.",
		"2026年5月26日上线",
		"2026年 5月26日上线",
		"2026년 5월 26일 배포",
		"Feb 30 is not a date",
		"May 3 days later",
		"version 1.2 Mar 3.5",
	} {
		if got := FindMissingYears(text, dateAnchor); len(got) != 0 {
			t.Errorf("%q: fired %+v", text, got)
		}
	}
}

func TestDateYearAcrossNewYear(t *testing.T) {
	jan := time.Date(2026, 1, 4, 9, 0, 0, 0, time.UTC)
	got := FindMissingYears("Shipped Dec 28.", jan)
	if len(got) != 1 || got[0].Meant != "2025-12-28" || !got[0].Ambiguous {
		t.Fatalf("got %+v, want 2025-12-28 ambiguous", got)
	}
	got = FindMissingYears("Ship Jan 20.", jan)
	if len(got) != 1 || got[0].Meant != "2026-01-20" || got[0].Ambiguous {
		t.Fatalf("got %+v, want 2026-01-20", got)
	}
}

func TestDatesInvalidInput(t *testing.T) {
	for _, text := range []string{"", "\x00", "tomorrow\x00", "\xff\xfe明天\xe6", "5月", "5월 ", "下周", "May", "in", "\xe6\x98", "今"} {
		FindRelativeDates(text, dateAnchor)
		FindMissingYears(text, dateAnchor)
		FindRelativeDates(text, time.Time{})
	}
}

// dateMemoryNoDates is a realistic 1.6 KB memory with no date phrase in it.
var dateMemoryNoDates = `---
name: deploy-pipeline
description: How the team deploys the API service and what to check first
metadata:
  type: project
  originSessionId: 4f1c2a9e-8d7b-4e61-9a3f-2b5c6d7e8f90
---

Currently we deploy with make ship from the main branch. The pipeline runs lint, unit
tests and the integration suite, then builds the container and pushes it to the registry.

## Steps

1. Run the fixtures job that refreshes the test data. It takes about four minutes.
2. Check that the staging cluster is green before promoting; a red cluster means the
   migration from the last step did not finish.
3. Next steps: wire the canary into the report and drop the manual check.

The user prefers small commits with a clear subject line and a body that says why.
When a test is flaky, mark it with the flaky tag and open an issue rather than retrying
in a loop. The loop handles leap seconds separately, see calendar.go.

Do not edit generated files under gen/; run go generate instead. In this repo the
config lives in config/app.yaml and the secrets come from the environment, never from
files checked in. This session found that the cache warmer must start before the API.
Nowadays most of the work happens in the ingest service; the old batch runner is kept
only for backfills. Ask before touching the billing module: it has no tests and the
owner is on the payments team. Keep the README in sync with the flags, and prefer
table-driven tests with a short comment on each case explaining the edge it covers.
` + "```go\nfunc TestShip(t *testing.T) { ship(t.Context()) }\n```\n" + `
Link: [runbook](https://wiki.example.com/runbooks/deploy), owner @platform.
`

var dateMemoryDated = dateMemoryNoDates[:len(dateMemoryNoDates)-200] + `
Tomorrow's headline is the release; yesterday we fixed the flaky test. Next Thursday the
freeze starts and we ship in 2 weeks. 明天部署。来週の月曜日にレビュー。다음 주 월요일에 배포.
`

func TestDateBenchmarkFixtures(t *testing.T) {
	if n := len(dateMemoryNoDates); n < 1500 || n > 1800 {
		t.Fatalf("memoryNoDates is %d bytes, want about 1.6 KB", n)
	}
	if got := FindRelativeDates(dateMemoryNoDates, dateAnchor); len(got) != 0 {
		t.Fatalf("memoryNoDates fired %+v", got)
	}
	if en, cjk := relScan(dateMemoryNoDates); en || cjk {
		t.Fatalf("memoryNoDates passes relScan; the benchmark would not measure the fast path")
	}
	if en, cjk := yearScan(dateMemoryNoDates); en != nil || cjk {
		t.Fatalf("memoryNoDates passes yearScan; the benchmark would not measure the fast path")
	}
	if got := FindRelativeDates(dateMemoryDated, dateAnchor); len(got) != 7 {
		t.Fatalf("memoryDated: got %d spans %+v, want 7", len(got), got)
	}
}

func BenchmarkFindRelativeDates(b *testing.B) {
	for _, bc := range []struct{ name, text string }{{"NoDates", dateMemoryNoDates}, {"WithDates", dateMemoryDated}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				FindRelativeDates(bc.text, dateAnchor)
			}
		})
	}
}

func BenchmarkFindMissingYears(b *testing.B) {
	for _, bc := range []struct{ name, text string }{{"NoDates", dateMemoryNoDates}, {"WithDates", dateMemoryDated + " Follow up May 26."}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				FindMissingYears(bc.text, dateAnchor)
			}
		})
	}
}

// BenchmarkScanBaseline is a plain loop over the same memory (counting
// newlines a byte at a time): the floor any scanner of the text pays, to
// read the numbers above against on a busy machine.
func BenchmarkScanBaseline(b *testing.B) {
	b.SetBytes(int64(len(dateMemoryNoDates)))
	n := 0
	for b.Loop() {
		for i := 0; i < len(dateMemoryNoDates); i++ {
			if dateMemoryNoDates[i] == '\n' {
				n++
			}
		}
	}
	_ = n
}

// Every keyword must be reachable through the fast lookup table (a word
// longer than its buffer would silently never match).
func TestDateKeywordLookup(t *testing.T) {
	for w, want := range enWords {
		got, ok := dtLookupWord(w)
		if !ok || got != want {
			t.Errorf("dtLookupWord(%q) = %+v, %v; want %+v", w, got, ok, want)
		}
		if got, _ := dtLookupWord(strings.ToUpper(w)); got != want {
			t.Errorf("dtLookupWord(%q) is case-sensitive", strings.ToUpper(w))
		}
	}
}

// Every CJK phrase must contain a prefilter trigger character, or the
// prefilter would reject text in which it is the only date.
func TestDateCJKPhrasesHaveTriggers(t *testing.T) {
	has := func(s string) bool {
		for _, r := range s {
			for _, tr := range cjkTriggerRunes {
				if r == tr {
					return true
				}
			}
		}
		return false
	}
	for _, l := range cjkLits {
		if !has(l.s) {
			t.Errorf("literal %q has no trigger character", l.s)
		}
	}
	for _, u := range cjkUnits {
		if !has(u.s) {
			t.Errorf("unit %q has no trigger character", u.s)
		}
	}
	for _, l := range cjkLits {
		if got := FindRelativeDates("x "+l.s+" x", dateAnchor); len(got) == 0 {
			t.Errorf("literal %q does not fire on its own", l.s)
		}
	}
}

// Every key word relKeyWordMaybe takes must hold a pair relScan looks for,
// or a phrase with it as its only key word would be missed.
func TestDatePrefilterBigrams(t *testing.T) {
	for w, k := range enWords {
		key := false
		for _, id := range relKeyIDs {
			key = key || k.id == id
		}
		if !key {
			continue
		}
		found := false
		for _, s := range []string{w, strings.ToUpper(w)} {
			for i := 0; i+1 < len(s); i++ {
				found = found || relPairTab[uint16(s[i])|uint16(s[i+1])<<8]&relPairEN != 0
			}
		}
		if !found {
			t.Errorf("key word %q holds none of relBigrams", w)
		}
	}
}

// The prefilters turn away trigger words that stand where no rule can take
// them, and keep every phrase.
func TestDatePrefilterSharp(t *testing.T) {
	rel := []struct {
		text string
		want bool
	}{
		{"The database is refreshed every 8 days.", false},
		{"Logs for ingest ship with a 47-day retention.", false},
		{"nightly builds; the day shift; Monday standup; holidays", false},
		{"see days_test.go and /tmp/today", false},
		{"We ship in 8 days.", true},
		{"It broke 3 days ago.", true},
		{"in a couple of weeks", true},
		{"A couple of months from now", true},
		{"next Monday", true},
		{"by Friday", true},
		{"this past Monday", true},
		{"the end of the month", true},
		{"later this year", true},
		{"Tomorrow's headline", true},
		{"TONIGHT", true},
		{"by EOD", true},
		{"this afternoon", true},
		{"last night", true},
	}
	for _, tt := range rel {
		if en, _ := relScan(tt.text); en != tt.want {
			t.Errorf("relScan(%q) English = %v, want %v", tt.text, en, tt.want)
		}
	}
	for _, tt := range []struct {
		text string
		en   bool
		cjk  bool
	}{
		{"Ship by May 26.", true, false},
		{"Ship by Jan. 5.", true, false},
		{"On the 26th of May.", true, false},
		{"26 May", true, false},
		{"May I ask? See March notes, and the August release.", false, false},
		{"5月26日", false, true},
		{"5월 26일", false, true},
	} {
		if en, cjk := yearScan(tt.text); (en != nil) != tt.en || cjk != tt.cjk {
			t.Errorf("yearScan(%q) = %v, %v; want anchors %v, %v", tt.text, en, cjk, tt.en, tt.cjk)
		}
	}
	if _, cjk := relScan("明天部署"); !cjk {
		t.Errorf("relScan misses 明天")
	}
	if _, cjk := relScan("部署完成。"); cjk {
		t.Errorf("relScan takes CJK text with no trigger character")
	}
}

// BenchmarkDatesMixedCorpus runs both finders over a corpus where one
// memory in four has dates, as a lint pass over a memory directory would:
// the MB/s to hold against reading the same bytes with cat.
func BenchmarkDatesMixedCorpus(b *testing.B) {
	corpus := []string{dateMemoryNoDates, dateMemoryNoDates, dateMemoryNoDates, dateMemoryDated}
	n := 0
	for _, c := range corpus {
		n += len(c)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, c := range corpus {
			FindRelativeDates(c, dateAnchor)
			FindMissingYears(c, dateAnchor)
		}
	}
}

// dateCorpusFile is one memory of the corpus BenchmarkDatesCorpus reads.
type dateCorpusFile struct {
	text   string
	anchor time.Time // the file's mtime: fixed, so runs compare
}

var (
	dateCorpusOnce  sync.Once
	dateCorpusFiles []dateCorpusFile
	dateCorpusBytes int64
	dateCorpusErr   error
)

// loadDateCorpus reads every *.md file under $MEMTUI_CORPUS once per test
// binary; the benchmark skips with a message when the variable is unset.
func loadDateCorpus(b *testing.B) []dateCorpusFile {
	root := os.Getenv("MEMTUI_CORPUS")
	if root == "" {
		b.Skip("MEMTUI_CORPUS is unset: set it to a directory of memory files (*.md, e.g. a projects tree) to run the corpus benchmark")
	}
	dateCorpusOnce.Do(func() {
		dateCorpusErr = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			dateCorpusFiles = append(dateCorpusFiles, dateCorpusFile{string(data), info.ModTime().UTC()})
			dateCorpusBytes += int64(len(data))
			return nil
		})
	})
	if dateCorpusErr != nil {
		b.Fatal(dateCorpusErr)
	}
	if len(dateCorpusFiles) == 0 {
		b.Fatalf("no *.md files under MEMTUI_CORPUS=%s", root)
	}
	return dateCorpusFiles
}

// BenchmarkDatesCorpus runs both finders over every memory of a real corpus
// (MEMTUI_CORPUS), each with its file's mtime as the anchor: the cost the
// lint pays for dates. Loading is outside the timer. Run with -cpu 1 and
// -count 10 and compare medians on a shared machine.
func BenchmarkDatesCorpus(b *testing.B) {
	files := loadDateCorpus(b)
	for _, bc := range []struct {
		name     string
		rel, yrs bool
	}{{"Both", true, true}, {"Relative", true, false}, {"MissingYears", false, true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(dateCorpusBytes)
			b.ReportAllocs()
			spans := 0
			for b.Loop() {
				spans = 0
				for _, f := range files {
					if bc.rel {
						spans += len(FindRelativeDates(f.text, f.anchor))
					}
					if bc.yrs {
						spans += len(FindMissingYears(f.text, f.anchor))
					}
				}
			}
			b.ReportMetric(float64(spans), "spans")
		})
	}
}
