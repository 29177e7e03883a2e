package consolidate

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The content checks' fixtures: a store in Codex's shapes (facts §1.3),
// written by hand, with rollout summaries whose cwd: headers say where
// each task ran.

const (
	rolloutShop = "rollout_summaries/2026-11-20T09-30-15-jqmb.md"
	rolloutBlog = "rollout_summaries/2026-11-19T08-00-00-zzzz.md"
	rolloutAPI  = "rollout_summaries/2026-11-18T08-00-00-yyyy.md"
)

// rolloutFile is a rollout summary's text: its header, run in cwd, and
// tasks "## Task" sections.
func rolloutFile(cwd string, tasks int) string {
	var b strings.Builder
	b.WriteString("thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\nupdated_at: 2026-11-20T09:40:00+00:00\nrollout_path: /r/1.jsonl\ncwd: " + cwd + "\n\n# A session\n\nRollout context: work.\n")
	for i := 1; i <= tasks; i++ {
		fmt.Fprintf(&b, "\n## Task %d: step %d\nOutcome: success\n", i, i)
	}
	return b.String()
}

// hbGroup is a task group: applies_to cwd=, one task per rollout (each
// with its keywords, "a" when none given), then body (block sections).
func hbGroup(title, cwd string, rollouts []string, keywords []string, body string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Task Group: %s\nscope: %s, and nothing else\napplies_to: cwd=%s; reuse_rule=safe across branches\n\n", title, title, cwd)
	for i, r := range rollouts {
		kw := "a"
		if i < len(keywords) {
			kw = keywords[i]
		}
		fmt.Fprintf(&b, "## Task %d: %s step %d, done\n### rollout_summary_files\n- %s (cwd=%s, rollout_path=/r/%d.jsonl, updated_at=2026-11-20T09:40:00+00:00)\n### keywords\n- %s\n\n", i+1, title, i+1, r, cwd, i, kw)
	}
	b.WriteString(body)
	return b.String()
}

// summaryWith is a summary in Codex's shape with the given top sections'
// bodies and What's in Memory.
func summaryWith(prefs, tips, whats string) string {
	return "v1\n\n## User Profile\n\nBackend engineer; Go and Postgres.\n\n## User preferences\n\n" + prefs + "\n## General Tips\n\n" + tips + "\n## What's in Memory\n\n" + whats
}

// linesOf are the lines of rule's findings in file, sorted.
func linesOf(fs []model.Finding, rule, file string) []int {
	var out []int
	for _, f := range fs {
		if f.Rule == rule && f.File == file {
			out = append(out, f.Line)
		}
	}
	sort.Ints(out)
	return out
}

func lineNo(t *testing.T, text, sub string) int {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("no %q in the fixture", sub)
	}
	return 1 + strings.Count(text[:i], "\n")
}

func sameInts(a, b []int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func findingAt(fs []model.Finding, rule, file string, line int) *model.Finding {
	for i := range fs {
		if fs[i].Rule == rule && fs[i].File == file && fs[i].Line == line {
			return &fs[i]
		}
	}
	return nil
}

// TestCodexLeak: lines of the summary's top sections that name one
// project fire (its path, its name as a scope heading or a task group's
// folder, a program of its repository); general advice does not (make
// check, go test ./..., a dotfile of the home, /tmp), nor a project's
// path under its own scope of What's in Memory.
func TestCodexLeak(t *testing.T) {
	prefs := "- In /work/shop, run the suite with -race before pushing.\n" +
		"- Release the storefront by hand, never before ./scripts/release.sh.\n" +
		"- Keep shell aliases in ~/.zshrc and ~/.config/fish.\n" +
		"- Prefer small pull requests with one change each.\n"
	tips := "- Run make check and `go test ./...` before pushing.\n" +
		"- The Hugo theme of the Blog repo is vendored; do not bump it.\n" +
		"- The user writes a static blog on weekends and reads it back for typos.\n" +
		"- Postgres migrations in `billing` run under a lock timeout.\n" +
		"- Run acme-api's linter with the repository's config.\n" +
		"- In the project shop, warm the cache after each deploy.\n" +
		"- Scratch files go to /tmp, never into the repository.\n" +
		"- Deploy the api with `bin/deploy prod` after the migrations.\n" +
		"- Use ./gradlew rather than a system gradle.\n"
	whats := "### /work/shop\n\n#### 2026-11-20\n\n- checkout: /work/shop/psp.go, retries\n\n### blog\n\n- hugo: theme\n"
	sum := summaryWith(prefs, tips, whats)
	hb := hbGroup("shop checkout", "/work/shop", []string{rolloutShop}, nil, "") + hbGroup("blog build", "/work/blog", []string{rolloutBlog}, nil, "") +
		hbGroup("billing", "/work/billing", []string{rolloutAPI}, nil, "") + hbGroup("acme", "/work/acme-api", []string{"rollout_summaries/2026-11-17T08-00-00-xxxx.md"}, nil, "")
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": sum, "MEMORY.md": hb,
		rolloutShop: rolloutFile("/work/shop", 1), rolloutBlog: rolloutFile("/work/blog", 1)})
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	want := []int{lineNo(t, sum, "In /work/shop"), lineNo(t, sum, "./scripts/release.sh"), lineNo(t, sum, "Hugo theme of the Blog"), lineNo(t, sum, "`billing`"), lineNo(t, sum, "acme-api's"), lineNo(t, sum, "project shop"), lineNo(t, sum, "bin/deploy")}
	sort.Ints(want)
	if got := linesOf(fs, RuleCodexLeak, codex.SummaryFile); !sameInts(got, want) {
		t.Errorf("leaks at %v, want %v:\n%s", got, want, testmodel.Dump(fs))
	}
	f := findingAt(fs, RuleCodexLeak, codex.SummaryFile, lineNo(t, sum, "In /work/shop"))
	if f == nil || !strings.Contains(f.Message, "## User preferences") || !strings.Contains(f.Message, "the path /work/shop") || !strings.Contains(f.Message, "every Codex session") {
		t.Errorf("the finding must say the section, what it names and why it matters: %+v", f)
	}
	if f := findingAt(fs, RuleCodexLeak, codex.SummaryFile, lineNo(t, sum, "./scripts/release.sh")); f == nil || !strings.Contains(f.Message, "own ./scripts/release.sh:") {
		t.Errorf("the script, as written, without the sentence's full stop: %+v", f)
	}
	if f := findingAt(fs, RuleCodexLeak, codex.SummaryFile, lineNo(t, sum, "Hugo theme of the Blog")); f == nil || !strings.Contains(f.Message, "\"Blog\"") {
		t.Errorf("a project's name, as written: %+v", f)
	}
	// With a Codex home elsewhere than ~/.codex the user's home is not
	// known: a ~/. path is still the user's own, a ~ path still one
	// project's.
	s.Home = "/srv/codex"
	fs = CheckCodex(s, Options{Now: testmodel.Now})
	if got := linesOf(fs, RuleCodexLeak, codex.SummaryFile); !sameInts(got, want) {
		t.Errorf("with the home unknown, leaks at %v, want %v:\n%s", got, want, testmodel.Dump(fs))
	}
	// The same line in the project's own task group is where it belongs.
	hb2 := hb + "## Reusable knowledge\n- In /work/shop, run the suite with -race before pushing.\n"
	s2 := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": summaryWith("- small PRs\n", "- run make check\n", whats), "MEMORY.md": hb2,
		rolloutShop: rolloutFile("/work/shop", 1), rolloutBlog: rolloutFile("/work/blog", 1)})
	if got := rulesOf(CheckCodex(s2, Options{Now: testmodel.Now})); got[RuleCodexLeak] != 0 {
		t.Errorf("no leak outside the summary's top sections: %v", got)
	}
}

// TestCodexScopeMismatch: a task whose cited rollout ran (its summary's
// cwd: header says, whatever the bullet's cwd= says) outside its group's
// applies_to fires at the bullet; a rollout run below applies_to, and a
// group scoped by a workflow, do not.
func TestCodexScopeMismatch(t *testing.T) {
	hb := hbGroup("shop checkout", "/work/shop", []string{rolloutShop, rolloutBlog, rolloutAPI}, []string{"a", "b", "c"}, "") +
		hbGroup("git hygiene", "any repository, a workflow", []string{rolloutBlog}, nil, "")
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": codexSummary, "MEMORY.md": hb,
		rolloutShop: rolloutFile("/work/shop", 1), rolloutBlog: rolloutFile("/work/blog", 1), rolloutAPI: rolloutFile("/work/shop/api", 1)})
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	want := []int{lineNo(t, hb, "- "+rolloutBlog)}
	if got := linesOf(fs, RuleCodexScopeMismatch, codex.HandbookFile); !sameInts(got, want) {
		t.Fatalf("mismatches at %v, want %v:\n%s", got, want, testmodel.Dump(fs))
	}
	if f := fs[0]; !strings.Contains(testmodel.Dump(fs), "ran in /work/blog (the rollout summary's cwd: header)") || f.Line == 0 {
		t.Errorf("the finding must say where the task ran and what says so:\n%s", testmodel.Dump(fs))
	}
}

// TestCodexCwdGone: an applies_to folder LoadCodex found missing fires
// at its group; one that is there, and one not looked up, do not.
func TestCodexCwdGone(t *testing.T) {
	hb := hbGroup("shop", "/work/shop", []string{rolloutShop}, nil, "") + hbGroup("old", "/work/gone", []string{rolloutBlog}, nil, "") + hbGroup("far", "/elsewhere/x", []string{rolloutAPI}, nil, "")
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": codexSummary, "MEMORY.md": hb})
	s.CwdExists = map[string]bool{"/work/shop": true, "/work/gone": false}
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	if got, want := linesOf(fs, RuleCodexCwdGone, codex.HandbookFile), []int{lineNo(t, hb, "# Task Group: old")}; !sameInts(got, want) {
		t.Errorf("gone at %v, want %v:\n%s", got, want, testmodel.Dump(fs))
	}
	if !strings.Contains(testmodel.Dump(fs), "/work/gone, which does not exist on this machine") {
		t.Errorf("the finding names the folder:\n%s", testmodel.Dump(fs))
	}
}

// TestCodexDates: relative and year-less dates in the files a person or
// Codex's agent writes fire, each counted from the best time the file
// gives (a day heading, the group's newest rollout, the note's name, the
// mtime); a date with its year does not; raw_memories.md and rollout
// summaries (Codex rebuilds them) are not read.
func TestCodexDates(t *testing.T) {
	sum := summaryWith("- small PRs\n", "- The deploy freeze lasts until tomorrow.\n- Since May 26 the staging database is shared.\n- The freeze ended on 2026-05-26.\n",
		"### /work/shop\n\n#### 2026-11-10\n\n- checkout: psp\n  - learnings: the flaky PSP test was fixed yesterday\n")
	hb := hbGroup("shop", "/work/shop", []string{rolloutShop}, nil, "## Reusable knowledge\n- The PSP sandbox is down until tomorrow, use the mock.\n")
	note := "extensions/ad_hoc/notes/2026-11-02T12-00-00-freeze.md"
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": sum, "MEMORY.md": hb,
		note:                                "The code freeze ends tomorrow.\n",
		"skills/psp/SKILL.md":               "---\nname: psp\ndescription: the PSP\n---\n\nThe sandbox key rotates next week.\n",
		"skills/psp/scripts/run.sh":         "# runs until tomorrow\n",
		"raw_memories.md":                   "# Raw Memories\n\nIt broke yesterday.\n",
		rolloutShop:                         rolloutFile("/work/shop", 1) + "It broke yesterday.\n",
		"extensions/ad_hoc/instructions.md": "Notes are authoritative.\n",
	})
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	dump := testmodel.Dump(fs)
	for _, w := range []struct {
		file, sub, want string
	}{
		{codex.SummaryFile, "until tomorrow", "meant 2026-11-22, counted from the file's mtime (2026-11-21)"},
		{codex.SummaryFile, "fixed yesterday", "meant 2026-11-09, counted from its day heading (2026-11-10)"},
		{codex.HandbookFile, "down until tomorrow", "meant 2026-11-21, counted from the group's newest cited rollout (updated_at) (2026-11-20)"},
		{note, "ends tomorrow", "meant 2026-11-03, counted from the note's name (2026-11-02)"},
		{"skills/psp/SKILL.md", "next week", "\"next week\" meant"},
	} {
		line := lineNo(t, string(s.File(w.file).Content), w.sub)
		f := findingAt(fs, RuleRelativeDate, w.file, line)
		if f == nil || !strings.Contains(f.Message, w.want) {
			t.Errorf("%s line %d: want %q:\n%s", w.file, line, w.want, dump)
		}
	}
	if got := linesOf(fs, RuleDateMissingYear, codex.SummaryFile); !sameInts(got, []int{lineNo(t, sum, "Since May 26")}) {
		t.Errorf("year-less dates at %v:\n%s", got, dump)
	}
	for _, f := range fs {
		if (f.Rule == RuleRelativeDate || f.Rule == RuleDateMissingYear) && (f.File == "raw_memories.md" || f.File == rolloutShop || strings.HasSuffix(f.File, ".sh")) {
			t.Errorf("a file Codex rebuilds, or a script, is not read for dates: %+v", f)
		}
	}
	if n := rulesOf(fs)[RuleRelativeDate]; n != 5 {
		t.Errorf("%d relative dates, want 5:\n%s", n, dump)
	}
}

// The learnings the duplicate tests repeat: long enough for the
// near-copy rule (word pairs mostly in common), as #29818's ledgers
// repeat them.
const (
	learnRetry  = "The PSP client must retry idempotent calls with exponential backoff and jitter, capped at three attempts, and log every retry with the request id."
	learnRetry2 = "The PSP client must retry idempotent calls with exponential backoff and jitter, capped at three attempts; log each retry with its request id. [Task 2]"
	learnOther  = "Hugo rebuilds the whole blog when a shortcode changes, so preview drafts with hugo server and the drafts flag before publishing anything."
)

// TestCodexDuplicates: a learning repeated in another task group fires
// at the repeat (the first is kept), whatever the task tags; the same
// repeat inside one group does not; a summary line repeated in the
// summary fires, one lifted from the handbook does not; different
// learnings do not.
func TestCodexDuplicates(t *testing.T) {
	hb := hbGroup("shop checkout", "/work/shop", []string{rolloutShop}, nil,
		"## Reusable knowledge\n- "+learnRetry+" [Task 1]\n- "+learnOther+"\n\n## Failures and how to do differently\n- "+learnRetry2+"\n") +
		hbGroup("shop refunds", "/work/shop", []string{rolloutAPI}, nil, "## Reusable knowledge\n- "+learnRetry2+"\n")
	sum := summaryWith("- when reviewing, the user asked: \"cap retries\" -> "+learnRetry+"\n", "- "+learnOther+"\n- Preview drafts: "+learnOther+"\n", "")
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": sum, "MEMORY.md": hb})
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	dump := testmodel.Dump(fs)
	refunds := lineNo(t, hb, "# Task Group: shop refunds")
	want := []int{refunds + strings.Count(hb[strings.Index(hb, "# Task Group: shop refunds"):], "\n") - 1}
	if got := linesOf(fs, RuleCodexDuplicate, codex.HandbookFile); !sameInts(got, want) {
		t.Errorf("handbook repeats at %v, want %v:\n%s", got, want, dump)
	}
	if f := findingAt(fs, RuleCodexDuplicate, codex.HandbookFile, want[0]); f == nil || !strings.Contains(f.Message, fmt.Sprintf("repeats line %d, in the task group \"shop checkout\"", lineNo(t, hb, "- "+learnRetry))) {
		t.Errorf("the repeat names the line kept and its group:\n%s", dump)
	}
	if got := linesOf(fs, RuleCodexDuplicate, codex.SummaryFile); !sameInts(got, []int{lineNo(t, sum, "- Preview drafts")}) {
		t.Errorf("summary repeats at %v:\n%s", got, dump)
	}
}

// TestCodexRecited: a rollout summary that records one task cited by
// tasks of two groups fires at the second; a task citing one twice
// fires; a rollout recording two tasks cited by two tasks with their own
// keywords does not, with the same keywords it does.
func TestCodexRecited(t *testing.T) {
	hb := hbGroup("shop checkout", "/work/shop", []string{rolloutShop, rolloutBlog}, []string{"psp, retries", "cart, rounding"}, "") +
		hbGroup("shop refunds", "/work/shop", []string{rolloutShop, rolloutBlog, rolloutAPI}, []string{"refunds", "Rounding, cart", "api"}, "")
	hb = strings.Replace(hb, "- "+rolloutAPI+" (", "- "+rolloutAPI+" (cwd=/work/shop, rollout_path=/r/9.jsonl, updated_at=2026-11-20T09:40:00+00:00)\n- "+rolloutAPI+" (", 1)
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": codexSummary, "MEMORY.md": hb,
		rolloutShop: rolloutFile("/work/shop", 1), rolloutBlog: rolloutFile("/work/shop", 2), rolloutAPI: rolloutFile("/work/shop", 1)})
	fs := CheckCodex(s, Options{Now: testmodel.Now})
	dump := testmodel.Dump(fs)
	second := strings.Index(hb, "# Task Group: shop refunds")
	at := func(sub string) int { return 1 + strings.Count(hb[:second+strings.Index(hb[second:], sub)], "\n") }
	apiFirst := at("- " + rolloutAPI)
	want := []int{at("- " + rolloutShop), at("- " + rolloutBlog), apiFirst + 1}
	if got := linesOf(fs, RuleCodexRecited, codex.HandbookFile); !sameInts(got, want) {
		t.Errorf("recited at %v, want %v:\n%s", got, want, dump)
	}
	for _, w := range []string{"which records 1 task(s), already cited by Task 1 of \"shop checkout\"", "with the same keywords as Task 2 of \"shop checkout\"", "cites " + rolloutAPI + " twice"} {
		if !strings.Contains(dump, w) {
			t.Errorf("no %q:\n%s", w, dump)
		}
	}
	// Distinct keywords for a rollout that records two tasks: fine.
	ok := strings.Replace(hb, "- Rounding, cart", "- refund rounding", 1)
	s.Files = nil
	for p, c := range map[string]string{"memory_summary.md": codexSummary, "MEMORY.md": ok,
		rolloutShop: rolloutFile("/work/shop", 2), rolloutBlog: rolloutFile("/work/shop", 2)} {
		s.Files = append(s.Files, testmodel.File(p, c, testmodel.Now))
	}
	if got := linesOf(CheckCodex(s, Options{Now: testmodel.Now}), RuleCodexRecited, codex.HandbookFile); !sameInts(got, []int{apiFirst + 1}) {
		t.Errorf("only the twice-cited bullet: %v", got)
	}
}

// claudeDir is a Claude Code memory dir of project key, as loaded.
func claudeDir(key string, files ...*model.File) *model.MemoryDir {
	return &model.MemoryDir{Path: "/home/u/.claude/projects/" + key + "/memory", Exists: true, Files: files}
}

// TestCheckCodexOverlap: a Codex bullet or note that repeats a Claude
// memory fires at the Codex line, naming the Claude file; an unrelated
// one does not, nor a bullet of a group drawn from imported Claude
// memory. An imported file that differs from its Claude source fires,
// saying which side changed; one gone from Claude Code fires; a copy
// that matches, and a project whose Claude dir is not loaded, do not.
func TestCheckCodexOverlap(t *testing.T) {
	early, late := testmodel.Now.Add(-48*time.Hour), testmodel.Now
	deploy := testmodel.File("deploy.md", testmodel.Topic("psp retries", "How the PSP client retries", "feedback", learnRetry+"\n"), early)
	hugo := testmodel.File("hugo.md", testmodel.Topic("hugo", "Hugo previews", "project", learnOther+"\n"), late)
	same := testmodel.File("same.md", "unchanged\n", early)
	gone := "extensions/external_agent_import/resources/-work-blog/old.md"
	imp := "extensions/external_agent_import/resources/-work-blog/"
	hb := hbGroup("shop checkout", "/work/shop", []string{rolloutShop}, nil, "## Reusable knowledge\n- "+learnRetry2+"\n- Run the linter before committing.\n") +
		hbGroup("blog import", "/work/blog", []string{imp + "hugo.md"}, nil, "## Reusable knowledge\n- "+learnOther+"\n")
	note := "extensions/ad_hoc/notes/2026-11-02T12-00-00-hugo.md"
	s := codexStore("[features]\nmemories = true\n", map[string]string{"memory_summary.md": codexSummary, "MEMORY.md": hb,
		note:               learnOther + "\n",
		imp + "scope.json": `{"cwd":"/work/blog"}`,
		imp + "hugo.md":    "an older copy\n",
		imp + "same.md":    "unchanged\n",
		gone:               "dropped since\n",
		"extensions/external_agent_import/resources/-work-other/x.md": "not loaded\n",
	})
	for _, f := range s.Files {
		f.ModTime = early.Add(time.Hour)
	}
	dirs := []*model.MemoryDir{claudeDir("-work-shop", deploy), claudeDir("-work-blog", hugo, same)}
	fs := CheckCodexOverlap(s, dirs, Options{Now: testmodel.Now})
	dump := testmodel.Dump(fs)
	got := map[string]int{}
	for _, f := range fs {
		got[f.Rule+" "+f.File+":"+fmt.Sprint(f.Line)]++
	}
	want := map[string]int{
		RuleCodexClaudeOverlap + " MEMORY.md:" + fmt.Sprint(lineNo(t, hb, "- "+learnRetry2)): 1,
		RuleCodexClaudeOverlap + " " + note + ":0":                                           1,
		RuleCodexImportDrift + " " + imp + "hugo.md:0":                                       1,
		RuleCodexImportDrift + " " + gone + ":0":                                             1,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v:\n%s", got, want, dump)
	}
	for _, w := range []string{"the Claude Code memory /home/u/.claude/projects/-work-shop/memory/deploy.md", "the Claude Code memory changed after it was imported", "/home/u/.claude/projects/-work-blog/memory/old.md, which is no longer there"} {
		if !strings.Contains(dump, w) {
			t.Errorf("no %q:\n%s", w, dump)
		}
	}
	// One Claude dir is enough.
	if got := rulesOf(CheckCodexOverlap(s, dirs[:1], Options{Now: testmodel.Now})); got[RuleCodexClaudeOverlap] != 1 || got[RuleCodexImportDrift] != 0 {
		t.Errorf("against -work-shop alone: %v", got)
	}
	// The copy edited in Codex's store (its source older) says so.
	hugo.ModTime = early
	if d := testmodel.Dump(CheckCodexOverlap(s, dirs, Options{Now: testmodel.Now})); !strings.Contains(d, "the copy in Codex's store was edited since") {
		t.Errorf("an edited copy:\n%s", d)
	}
	// Silenced for codex: quiet.
	if fs := CheckCodexOverlap(s, dirs, Options{Now: testmodel.Now, Ignore: []IgnoreRule{{Project: "codex", Rules: []string{RuleCodexClaudeOverlap, RuleCodexImportDrift}}}}); len(fs) != 0 {
		t.Errorf("ignored rules: %s", testmodel.Dump(fs))
	}
}

// bigHandbook is a handbook of about 2,000 lines and 300 KB, as users
// report theirs (#29818): task groups of two tasks each, with long
// learnings (each group's own, with its numbers), some repeated across
// groups, relative and year-less dates, and a summary near its cap.
func bigHandbook() (*codex.Store, int, int) {
	var b strings.Builder
	files := map[string]string{}
	for g := 0; b.Len() < 300<<10; g++ {
		cwd := fmt.Sprintf("/work/proj%c%c", 'a'+g%26, 'a'+g/26%26)
		var rs []string
		for k := 0; k < 2; k++ {
			r := fmt.Sprintf("rollout_summaries/2026-11-%02dT%02d-%02d-00-ab%c%c.md", 1+g%28, k, g%60, 'a'+g%26, 'a'+k)
			rs = append(rs, r)
			files[r] = rolloutFile(cwd, 1)
		}
		var body strings.Builder
		body.WriteString("## User preferences\n- when the user reviewed the retries, the user asked: \"cap at three\" -> never retry more than three times, and say so in the PR [Task 1]\n\n## Reusable knowledge\n")
		for k := 0; k < 10; k++ {
			fmt.Fprintf(&body, "- In group %d the %s step %d needs the cache warmed first with make warm, then the integration suite runs against the staging database until tomorrow; check the dashboards for regressions after every deploy of service %d, keep the rollback runbook open while it settles, and write down in the PR which flags were flipped and why.\n", g, cwd, k, k)
		}
		body.WriteString("- " + learnRetry + "\n\n## Failures and how to do differently\n- The first attempt forgot to pin the toolchain; pin it in go.mod before building on May 26.\n\n")
		b.WriteString(hbGroup(fmt.Sprintf("project %d work", g), cwd, rs, []string{"cache, warm", "suite, staging"}, body.String()))
	}
	files["MEMORY.md"] = b.String()
	files["memory_summary.md"] = summaryWith("- small PRs\n", "- run make check\n", "") + strings.Repeat("- topic: keyword, keyword, keyword\n", 200)
	s := codexStore("[features]\nmemories = true\n", files)
	return s, strings.Count(b.String(), "\n"), b.Len()
}

// BenchmarkCodexContent: the content checks over a 2,000-line, 300 KB
// handbook (the size #29818 reports); they must stay well under 100 ms.
func BenchmarkCodexContent(b *testing.B) {
	s, lines, size := bigHandbook()
	b.Logf("handbook: %d lines, %d bytes, %d files", lines, size, len(s.Files))
	c := &codexCheck{s: s, opts: Options{Now: testmodel.Now}.WithDefaults(), ignored: map[string]bool{}}
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.findings = c.findings[:0]
		c.content()
	}
	b.StopTimer()
	// The machine is shared: the process's CPU time per run says what
	// the checks cost when wall time is another's too.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(c.findings)), "findings")
}
