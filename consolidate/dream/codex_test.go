package dream

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/internal/testgen"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Codex stores in Codex's own shapes (codex facts §1.3), built as
// memfs.LoadCodex fills them (consolidate/codex_test.go's codexStore).

const cxSummary = "v1\n\n## User Profile\n\nBackend engineer; Go and Postgres.\n\n## User preferences\n\n- small PRs\n\n## General Tips\n\n- run make check\n\n" +
	"## What's in Memory\n\n### /work/shop\n\n#### 2026-11-20\n\n- checkout: psp, retries\n  - desc: retries in the PSP client, cwd=/work/shop\n"

const cxHandbook = `# Task Group: /work/shop checkout
scope: the checkout's payment flow
applies_to: cwd=/work/shop; reuse_rule=safe across branches

## Task 1: Add retries to the PSP client
### rollout_summary_files
- rollout_summaries/2026-11-20T09-30-15-jqmb.md (cwd=/work/shop, rollout_path=/r/1.jsonl, updated_at=2026-11-20T09:40:00+00:00)
### keywords
- psp, retries
`

const cxRollout = "thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\nupdated_at: 2026-11-20T09:40:00+00:00\nrollout_path: /r/1.jsonl\ncwd: /work/shop\n\n# Retries\n"

// cxStore is a store with files (path → content), each modified at
// testmodel.Now, memories on.
func cxStore(files map[string]string) *codex.Store {
	s := &codex.Store{Home: "/home/u/.codex", Root: "/home/u/.codex/memories", Exists: true, ConfigPath: "/home/u/.codex/config.toml", ConfigFound: true}
	s.Config, s.ConfigProblems = codex.ParseConfig([]byte("[features]\nmemories = true\n"))
	for p, c := range files {
		s.Files = append(s.Files, testmodel.File(p, c, testmodel.Now))
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	return s
}

// cxClean is a clean store's files: every proposer stays quiet on them.
func cxClean() map[string]string {
	return map[string]string{
		codex.SummaryFile: cxSummary, codex.HandbookFile: cxHandbook,
		"rollout_summaries/2026-11-20T09-30-15-jqmb.md":           cxRollout,
		"extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md": "Use pnpm, not npm.\n",
		"raw_memories.md": "# Raw Memories\n\nNo raw memories yet.\n",
	}
}

var cxOpts = Options{Options: consolidate.Options{Now: testmodel.Now}}

func cxFiles(s *codex.Store) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range s.Files {
		out[f.Path] = f.Content
	}
	return out
}

func kindsOf(ps []model.Proposal) map[model.ProposalKind]int {
	out := map[model.ProposalKind]int{}
	for _, p := range ps {
		out[p.Kind]++
	}
	return out
}

func cxDump(ps []model.Proposal) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %s %s: %s\n", p.ID, p.Title, p.Rationale)
	}
	return b.String()
}

// cxOnly are the proposals of kind k touching path.
func cxOnly(ps []model.Proposal, k model.ProposalKind, path string) []model.Proposal {
	var out []model.Proposal
	for _, p := range ps {
		if p.Kind == k && len(p.Changes) == 1 && p.Changes[0].Path == path {
			out = append(out, p)
		}
	}
	return out
}

// TestProposeCodexCleanStore: a clean store gets no proposal; a store
// that does not exist or is being consolidated gets none whatever it
// holds.
func TestProposeCodexCleanStore(t *testing.T) {
	if ps := ProposeCodex(cxStore(cxClean()), cxOpts); len(ps) != 0 {
		t.Errorf("proposals on a clean store:\n%s", cxDump(ps))
	}
	files := cxClean()
	files[codex.SummaryFile] += "\nThe token is " + bodyToken + "; ship tomorrow.\n"
	if ps := ProposeCodex(cxStore(files), cxOpts); len(ps) != 2 {
		t.Fatalf("setup: want a redaction and a date fix, got\n%s", cxDump(ps))
	}
	files[codex.DiffFile] = "# Memory Workspace Diff\n"
	if ps := ProposeCodex(cxStore(files), cxOpts); len(ps) != 0 {
		t.Errorf("proposals while Codex consolidates:\n%s", cxDump(ps))
	}
	gone := cxStore(nil)
	gone.Exists = false
	if ps := ProposeCodex(gone, cxOpts); len(ps) != 0 {
		t.Errorf("proposals for a store that is not there: %d", len(ps))
	}
}

// TestCodexRedactions: every secret of the files memtui may rewrite
// (summary, handbook, skills, a skill's script too) is redacted, one
// proposal a file; the note, raw_memories.md and the rollout summary that
// hold one are left alone, and the rationale says they still do.
func TestCodexRedactions(t *testing.T) {
	files := cxClean()
	line := "- the CI token is " + bodyToken + "\n"
	files[codex.SummaryFile] = strings.Replace(cxSummary, "- small PRs\n", "- small PRs\n"+line, 1)
	files[codex.HandbookFile] = cxHandbook + line
	files["skills/psp/SKILL.md"] = "---\nname: psp\ndescription: the PSP\n---\n\n" + line
	files["skills/psp/scripts/login.sh"] = "export GITHUB_TOKEN=" + bodyToken + "\n"
	files["extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md"] += line
	files["raw_memories.md"] += line
	files["rollout_summaries/2026-11-20T09-30-15-jqmb.md"] += line
	s := cxStore(files)
	ps := ProposeCodex(s, Options{Options: cxOpts.Options, Kinds: []model.ProposalKind{model.KindRedactSecret}})
	var got []string
	for _, p := range ps {
		got = append(got, p.Changes[0].Path)
		c := p.Changes[0]
		if strings.Contains(c.After, bodyToken) || !strings.Contains(c.After, model.Redacted) {
			t.Errorf("%s: not redacted:\n%s", c.Path, c.After)
		}
		if c.After != strings.Replace(string(s.File(c.Path).Content), bodyToken, model.Redacted, 1) {
			t.Errorf("%s: more than the secret changed:\n%s", c.Path, c.After)
		}
		if c.BaseSHA256 != consolidate.SHA256Hex(s.File(c.Path).Content) || p.MemoryDir != s.Root || p.Project != s.Home {
			t.Errorf("%s: base %s, dir %s, project %s", c.Path, c.BaseSHA256, p.MemoryDir, p.Project)
		}
		if !strings.Contains(p.Rationale, "extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md stay: a note is your own input") ||
			!strings.Contains(p.Rationale, "raw_memories.md and rollout_summaries/2026-11-20T09-30-15-jqmb.md stay: Codex renders those files again") {
			t.Errorf("%s: the rationale does not say what stays: %s", c.Path, p.Rationale)
		}
		if len(p.Fixes) != 1 || p.Fixes[0].Rule != consolidate.RuleSecret || p.Fixes[0].Line == 0 {
			t.Errorf("%s: fixes %+v", c.Path, p.Fixes)
		}
	}
	want := []string{codex.HandbookFile, codex.SummaryFile, "skills/psp/SKILL.md", "skills/psp/scripts/login.sh"}
	if sort.Strings(got); !reflect.DeepEqual(got, want) {
		t.Errorf("redacted %v, want %v", got, want)
	}
	// A secret only in files memtui leaves alone: no proposal.
	files = cxClean()
	files["raw_memories.md"] += line
	if ps := ProposeCodex(cxStore(files), cxOpts); len(ps) != 0 {
		t.Errorf("proposals for a secret in raw_memories.md:\n%s", cxDump(ps))
	}
}

// TestCodexDates: relative and year-less dates in the summary, the
// handbook and skills are rewritten as the Claude proposals rewrite
// them, counted from the file's mtime; in a task of MEMORY.md, from the
// updated_at of the rollouts it cites. Notes, raw_memories.md and
// rollout summaries are left alone; a date with a year is fine.
func TestCodexDates(t *testing.T) {
	files := cxClean()
	files[codex.SummaryFile] = strings.Replace(cxSummary, "- run make check\n", "- the freeze starts tomorrow\n- the cutover is on May 26\n- the launch was on May 26, 2026\n", 1)
	// Task 1 was written from a session of 2026-11-10 (its latest
	// rollout, at noon local time: the day a person there lived it);
	// the block-level section counts from the file's mtime.
	latest := time.Date(2026, 11, 10, 12, 0, 0, 0, time.Local).Format(time.RFC3339)
	files[codex.HandbookFile] = strings.Replace(cxHandbook, "updated_at=2026-11-20T09:40:00+00:00)\n", "updated_at=2026-11-08T09:40:00+00:00)\n"+
		"- rollout_summaries/2026-11-20T09-30-15-jqmb.md (cwd=/work/shop, rollout_path=/r/2.jsonl, updated_at="+latest+")\n", 1) +
		"The PSP maintenance window is tomorrow.\n\n## Reusable knowledge\n\n- the PSP sandbox resets tomorrow\n"
	files["skills/psp/SKILL.md"] = "---\nname: psp\ndescription: the PSP\n---\n\nRotate the keys next week.\n"
	files["extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md"] = "Switch to pnpm tomorrow.\n"
	files["raw_memories.md"] += "We ship tomorrow.\n"
	files["rollout_summaries/2026-11-20T09-30-15-jqmb.md"] += "We ship tomorrow.\n"
	s := cxStore(files)
	ps := ProposeCodex(s, cxOpts)
	k := kindsOf(ps)
	if k[model.KindAbsolutizeDates] != 3 || k[model.KindAddYear] != 1 || len(ps) != 4 {
		t.Fatalf("proposals:\n%s", cxDump(ps))
	}
	after := func(kind model.ProposalKind, path string) string {
		t.Helper()
		got := cxOnly(ps, kind, path)
		if len(got) != 1 {
			t.Fatalf("no %s proposal for %s:\n%s", kind, path, cxDump(ps))
		}
		return got[0].Changes[0].After
	}
	sum := after(model.KindAbsolutizeDates, codex.SummaryFile)
	if !strings.Contains(sum, "- the freeze starts on 2026-11-22\n") || !strings.HasPrefix(sum, "v1\n") {
		t.Errorf("summary:\n%s", sum)
	}
	if y := after(model.KindAddYear, codex.SummaryFile); !strings.Contains(y, "- the cutover is on May 26, 2026\n- the launch was on May 26, 2026\n") {
		t.Errorf("year:\n%s", y)
	}
	hbp := cxOnly(ps, model.KindAbsolutizeDates, codex.HandbookFile)[0]
	hb := hbp.Changes[0].After
	if !strings.Contains(hb, "The PSP maintenance window is on 2026-11-11.\n") || !strings.Contains(hb, "- the PSP sandbox resets on 2026-11-22\n") {
		t.Errorf("handbook: a task's date counts from its latest updated_at, the rest from the mtime:\n%s", hb)
	}
	if !strings.Contains(hbp.Rationale, "counted from the updated_at of Task 1 of \"/work/shop checkout\" (2026-11-10)") ||
		!strings.Contains(hbp.Rationale, "counted from the file's mtime (2026-11-21)") {
		t.Errorf("rationale: %s", hbp.Rationale)
	}
	if sk := after(model.KindAbsolutizeDates, "skills/psp/SKILL.md"); !strings.Contains(sk, "Rotate the keys the week of 2026-11-23.") {
		t.Errorf("skill:\n%s", sk)
	}
	// An mtime before 2000 anchors nothing.
	s.File(codex.SummaryFile).ModTime = time.Unix(0, 0)
	if got := cxOnly(ProposeCodex(s, cxOpts), model.KindAbsolutizeDates, codex.SummaryFile); len(got) != 0 {
		t.Errorf("a 1970 mtime anchored %s", got[0].Rationale)
	}
}

// cxTopics is a "####" block of n topic bullets, each about 100 bytes.
func cxTopics(head string, n int) string {
	var b strings.Builder
	b.WriteString("#### " + head + "\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "- topic %s %d: keyword, keyword, keyword\n  - desc: what the topic covers and where it lives, in a line\n", head, i)
	}
	return b.String() + "\n"
}

// cxBigSummary is a summary over the cap: top sections of about 500
// bytes and a profile of 35 bytes a sentence, then recent days of two
// scopes (about 110 bytes a topic) and older topics of two.
func cxBigSummary(profile, days, older int) string {
	top := "v1\n\n## User Profile\n\n" + strings.Repeat("Backend engineer, Go and Postgres. ", profile) + "\n\n## User preferences\n\n- small PRs\n- tabs\n\n## General Tips\n\n- run make check\n\n"
	return top + "## What's in Memory\n\n### /work/shop\n\n" + cxTopics("2026-11-20", days) + cxTopics("2026-11-18", days) + cxTopics("2026-11-12", days) +
		"### /work/api\n\n" + cxTopics("2026-11-19", days) + cxTopics("2026-11-02", days) +
		"### Older Memory Topics\n\n" + cxTopics("/work/blog", older) + cxTopics("/work/infra", older)
}

// TestCodexTrim: a summary over the cap is trimmed to at most 9,500
// bytes by dropping whole blocks of ## What's in Memory, oldest first:
// the older topics (last first), then the days (oldest first); line 1
// and the top sections stay byte for byte, and the rationale names what
// goes and says MEMORY.md still holds it.
func TestCodexTrim(t *testing.T) {
	for _, c := range []struct {
		name                 string
		profile, days, older int
		dropped              []string
		gone                 []string
	}{
		{"older topics go first", 12, 15, 12, []string{"the older topics of /work/infra (12 topics)", "the older topics of /work/blog (12 topics)"}, []string{"### Older Memory Topics"}},
		{"then the oldest days", 46, 18, 2, []string{"the older topics of /work/infra (2 topics)", "the older topics of /work/blog (2 topics)", "2026-11-02 of /work/api (18 topics)", "2026-11-12 of /work/shop (18 topics)"}, []string{"### Older Memory Topics", "#### 2026-11-02", "#### 2026-11-12"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			content := cxBigSummary(c.profile, c.days, c.older)
			if len(strings.TrimSpace(content)) <= codex.SummaryByteLimit {
				t.Fatalf("setup: %d bytes", len(content))
			}
			files := cxClean()
			files[codex.SummaryFile] = content
			s := cxStore(files)
			ps := ProposeCodex(s, cxOpts)
			if len(ps) != 1 || ps[0].Kind != model.KindTrimSummary {
				t.Fatalf("proposals:\n%s", cxDump(ps))
			}
			p := ps[0]
			after, err := Apply(cxFiles(s), p)
			if err != nil {
				t.Fatal(err)
			}
			sum := string(after[codex.SummaryFile])
			top := content[:strings.Index(content, "## What's in Memory")]
			if n := len(strings.TrimSpace(sum)); n > CodexTrimTarget || !strings.HasPrefix(sum, top) || !codex.ParseSummary([]byte(sum)).Header {
				t.Errorf("%d bytes; the top sections or v1 changed:\n%s", n, sum)
			}
			if len(codex.ParseSummary([]byte(sum)).Problems) != 0 {
				t.Errorf("the trim broke the summary's shape: %+v", codex.ParseSummary([]byte(sum)).Problems)
			}
			for _, g := range c.gone {
				if strings.Contains(sum, g+"\n") {
					t.Errorf("%s is still there", g)
				}
			}
			for _, kept := range []string{"#### 2026-11-20", "#### 2026-11-19", "#### 2026-11-18", "### /work/shop", "### /work/api"} {
				if !strings.Contains(sum, kept+"\n") {
					t.Errorf("%s was dropped", kept)
				}
			}
			if !strings.Contains(p.Rationale, listNames(c.dropped)) || !strings.Contains(p.Rationale, "MEMORY.md, which still holds every one of them") {
				t.Errorf("rationale: %s", p.Rationale)
			}
			if len(p.Fixes) != 1 || p.Fixes[0].Rule != consolidate.RuleCodexSummaryCut {
				t.Errorf("fixes: %+v", p.Fixes)
			}
			// The blocks dropped were the fewest that fit: one fewer
			// leaves the summary over the target.
			plan := PlanCodexTrim([]byte(content))
			if !reflect.DeepEqual(plan.Dropped, c.dropped) || plan.Size != len(strings.TrimSpace(sum)) {
				t.Errorf("dropped %v (%d bytes), want %v", plan.Dropped, plan.Size, c.dropped)
			}
		})
	}
}

// TestCodexTrimCRLF: a summary written with CRLF line endings is trimmed
// the same way, and its lines keep their endings.
func TestCodexTrimCRLF(t *testing.T) {
	content := strings.ReplaceAll(cxBigSummary(12, 15, 12), "\n", "\r\n")
	plan := PlanCodexTrim([]byte(content))
	after := string(plan.After)
	if plan.After == nil || plan.Size > CodexTrimTarget || !strings.HasPrefix(after, content[:strings.Index(content, "## What's in Memory")]) ||
		strings.Count(after, "\n") != strings.Count(after, "\r\n") || strings.Contains(after, "### Older Memory Topics") {
		t.Errorf("%q: %d bytes:\n%s", plan.Why, plan.Size, after)
	}
}

// TestCodexTrimRefuses: no trim within the cap, without the v1 line,
// without ## What's in Memory, or when the top sections alone are over
// the cap; each says why.
func TestCodexTrimRefuses(t *testing.T) {
	big := cxBigSummary(12, 15, 12)
	longTop := strings.Replace(big, "- run make check\n", strings.Repeat("- a long general tip that goes on and on and on\n", 220), 1)
	for _, c := range []struct {
		name, content, why string
	}{
		{"within the cap", cxSummary, "within Codex's cap"},
		{"no v1", "\ufeff" + big, "line 1 is not v1"},
		{"no index", strings.Replace(big, "## What's in Memory", "## What is in Memory", 1), "no ## What's in Memory"},
		{"top sections too long", longTop, "the User Profile, User preferences and General Tips sections must be shortened by a person"},
	} {
		plan := PlanCodexTrim([]byte(c.content))
		if plan.After != nil || !strings.Contains(plan.Why, c.why) {
			t.Errorf("%s: %q, after %d bytes", c.name, plan.Why, len(plan.After))
		}
		files := cxClean()
		files[codex.SummaryFile] = c.content
		if ps := cxOnly(ProposeCodex(cxStore(files), cxOpts), model.KindTrimSummary, codex.SummaryFile); len(ps) != 0 {
			t.Errorf("%s: proposed %s", c.name, ps[0].Title)
		}
	}
	// A summary read in part is never written back, trimmed or not.
	files := cxClean()
	files[codex.SummaryFile] = big
	s := cxStore(files)
	s.File(codex.SummaryFile).Truncated = true
	if ps := ProposeCodex(s, cxOpts); len(ps) != 0 {
		t.Errorf("a summary read in part: %s", cxDump(ps))
	}
}

// cxDupHandbook has two task groups whose Reusable knowledge repeat
// each other: one bullet exactly (but for its task tag and case), one
// nearly (a word changed in a long bullet); one repeats within its own
// group, and one only shares a subject.
func cxDupHandbook() string {
	group := func(title, cwd string, bullets ...string) string {
		return "# Task Group: " + title + "\nscope: " + title + " work\napplies_to: cwd=" + cwd + "; reuse_rule=safe across branches\n\n" +
			"## Task 1: Work on " + title + "\n### rollout_summary_files\n- rollout_summaries/2026-11-20T09-30-15-jqmb.md (cwd=" + cwd + ", rollout_path=/r/1.jsonl, updated_at=2026-11-20T09:40:00+00:00)\n### keywords\n- " + title + "\n\n" +
			"## Reusable knowledge\n\n" + strings.Join(bullets, "\n") + "\n\n"
	}
	return group("shop checkout", "/work/shop",
		"- Run make check before pushing [Task 1]",
		"- The staging database is reset every night at two, so fixtures written during the day disappear before the morning run starts",
		"- Use the sandbox keys for the PSP [Task 1]",
		"- use the sandbox keys for the PSP.",
	) + group("api gateway", "/work/api",
		"- run `make check` before pushing [Task 2]",
		"- The staging database is reset every night at two, so fixtures written during the day vanish before the morning run starts",
		"- Deploys of the gateway go through make ship",
	) + "# Task Group: blog\nscope: blog posts\napplies_to: cwd=/work/blog; reuse_rule=safe\n\n## Task 1: Posts\n### rollout_summary_files\n- rollout_summaries/2026-11-20T09-30-15-jqmb.md (cwd=/work/blog, rollout_path=/r/3.jsonl, updated_at=2026-11-20T09:40:00+00:00)\n### keywords\n- hugo\n\n" +
		"## Failures and how to do differently\n\n- Use the sandbox keys for the PSP\n"
}

// TestCodexDedupe: each later copy of a bullet in another task group is
// one proposal dropping that line; the first is kept; a copy within one
// group, and bullets that only share a subject, are left alone; a
// section left empty loses its heading.
func TestCodexDedupe(t *testing.T) {
	files := cxClean()
	files[codex.HandbookFile] = cxDupHandbook()
	s := cxStore(files)
	ps := ProposeCodex(s, cxOpts)
	if len(ps) != 3 || kindsOf(ps)[model.KindMerge] != 3 {
		t.Fatalf("want three dedupe proposals:\n%s", cxDump(ps))
	}
	content := files[codex.HandbookFile]
	lines := strings.Split(content, "\n")
	lineOf := func(prefix string, nth int) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				if nth == 0 {
					return i + 1
				}
				nth--
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	want := map[string]string{ // title -> the line that goes
		fmt.Sprintf("Drop MEMORY.md line %d, a duplicate of line %d", lineOf("- run `make check`", 0), lineOf("- Run make check", 0)):                       "- run `make check` before pushing [Task 2]",
		fmt.Sprintf("Drop MEMORY.md line %d, a duplicate of line %d", lineOf("- The staging database", 1), lineOf("- The staging database", 0)):             "- The staging database is reset every night at two, so fixtures written during the day vanish before the morning run starts",
		fmt.Sprintf("Drop MEMORY.md line %d, a duplicate of line %d", lineOf("- Use the sandbox keys for the PSP", 1), lineOf("- Use the sandbox keys", 0)): "- Use the sandbox keys for the PSP",
	}
	for _, p := range ps {
		gone, ok := want[p.Title]
		if !ok {
			t.Errorf("unexpected proposal %q", p.Title)
			continue
		}
		after, err := Apply(cxFiles(s), p)
		if err != nil {
			t.Fatal(err)
		}
		a := string(after[codex.HandbookFile])
		if strings.Contains(a, gone+"\n") || strings.Count(content, "\n")-strings.Count(a, "\n") < 1 {
			t.Errorf("%s: the copy is still there:\n%s", p.Title, a)
		}
		for _, kept := range []string{"- Run make check before pushing [Task 1]", "- use the sandbox keys for the PSP.", "- Deploys of the gateway go through make ship",
			"- The staging database is reset every night at two, so fixtures written during the day disappear"} {
			if !strings.Contains(a, kept) {
				t.Errorf("%s: %q was dropped", p.Title, kept)
			}
		}
		if len(codex.ParseHandbook([]byte(a)).Problems) != 0 {
			t.Errorf("%s broke the handbook: %+v", p.Title, codex.ParseHandbook([]byte(a)).Problems)
		}
		if gone == "- Use the sandbox keys for the PSP" {
			// The blog's only failure bullet: its heading goes with it.
			if strings.Contains(a, "## Failures and how to do differently") || !strings.HasSuffix(a, "- hugo\n\n") {
				t.Errorf("the emptied section stays:\n%q", a[len(a)-80:])
			}
			if !strings.Contains(p.Rationale, "identical once case, punctuation and task tags are set aside") || !strings.Contains(p.Rationale, "cwd=/work/shop and cwd=/work/blog") {
				t.Errorf("rationale: %s", p.Rationale)
			}
		}
	}
	// Nothing across groups: nothing proposed.
	files[codex.HandbookFile] = cxHandbook + "\n## Reusable knowledge\n\n- Run make check before pushing\n- run make check before pushing\n" +
		"- The staging database is reset every night at two, so fixtures written during the day disappear before the morning run starts\n" +
		"- The staging database is reset every night at two, so fixtures written during the day vanish before the morning run starts\n"
	if ps := ProposeCodex(cxStore(files), cxOpts); len(ps) != 0 {
		t.Errorf("a copy within one group was proposed:\n%s", cxDump(ps))
	}
}

// TestCodexNote: a note is proposed as the creation of a file Codex's
// tool would accept, and nothing else; a secret in it is redacted; a
// blank text, a store being consolidated or one Codex never wrote is
// refused.
func TestCodexNote(t *testing.T) {
	s := cxStore(cxClean())
	at := time.Date(2026, 11, 28, 17, 5, 9, 0, time.UTC)
	p, err := CodexNote(s, at, "Forget the old deploy command; it is make ship now. Token "+bodyToken)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Changes
	if len(c) != 1 || c[0].Op != model.OpCreate || c[0].Path != "extensions/ad_hoc/notes/2026-11-28T17-05-09-forget-the-old-deploy-command-it-is-make.md" ||
		!strings.HasPrefix(c[0].After, "Forget the old deploy command") || strings.Contains(c[0].After, bodyToken) || !strings.Contains(c[0].After, model.Redacted) {
		t.Fatalf("%+v", c)
	}
	if p.Kind != model.KindAddNote || !p.External || p.MemoryDir != s.Root || !strings.Contains(p.Rationale, "[REDACTED] too") {
		t.Errorf("%+v", p)
	}
	after, err := Apply(cxFiles(s), p)
	if err != nil || len(after) != len(s.Files)+1 {
		t.Errorf("apply: %v", err)
	}
	if _, err := CodexNote(s, at, " \n"); err == nil {
		t.Error("a blank note was proposed")
	}
	files := cxClean()
	files["extensions/ad_hoc/notes/2026-11-28T17-05-09-use-pnpm.md"] = "Use pnpm.\n"
	if _, err := CodexNote(cxStore(files), at, "Use pnpm"); err == nil || !strings.Contains(err.Error(), "never overwritten") {
		t.Errorf("a taken name: %v", err)
	}
	files[codex.DiffFile] = "# Memory Workspace Diff\n"
	if _, err := CodexNote(cxStore(files), at, "Use yarn"); err == nil || !strings.Contains(err.Error(), "consolidation is running") {
		t.Errorf("while busy: %v", err)
	}
	gone := cxStore(nil)
	gone.Exists = false
	if _, err := CodexNote(gone, at, "Use yarn"); err == nil {
		t.Error("a note in a store Codex never wrote")
	}
}

// TestCodexProposalsStayInBounds: on a store where every proposer fires
// (secrets, dates and copies everywhere, the summary over the cap), no
// proposal touches raw_memories.md, rollout_summaries/ or extensions/,
// none deletes or moves, and applied to the bytes each keeps the
// summary's line 1 v1 and never leaves it bigger and over the cap; the
// trim leaves it under. The same store gives the same proposals.
func TestCodexProposalsStayInBounds(t *testing.T) {
	line := "- the CI token is " + bodyToken + ", rotated tomorrow, on May 26\n"
	files := cxClean()
	files[codex.SummaryFile] = strings.Replace(cxBigSummary(12, 15, 12), "- small PRs\n", "- small PRs\n"+line, 1)
	files[codex.HandbookFile] = cxDupHandbook() + line
	files["skills/psp/SKILL.md"] = "---\nname: psp\ndescription: the PSP\n---\n\n" + line
	for _, p := range []string{"extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md", "raw_memories.md", "rollout_summaries/2026-11-20T09-30-15-jqmb.md",
		"extensions/external_agent_import/resources/shop/notes.md", "extensions/ad_hoc/instructions.md"} {
		files[p] += line
	}
	s := cxStore(files)
	ps := ProposeCodex(s, cxOpts)
	k := kindsOf(ps)
	for _, kind := range []model.ProposalKind{model.KindRedactSecret, model.KindAbsolutizeDates, model.KindAddYear, model.KindMerge, model.KindTrimSummary} {
		if k[kind] == 0 {
			t.Errorf("no %s proposal:\n%s", kind, cxDump(ps))
		}
	}
	before := cxFiles(s)
	for _, p := range ps {
		for _, c := range p.Changes {
			if c.Op != model.OpUpdate || !(c.Path == codex.SummaryFile || c.Path == codex.HandbookFile || strings.HasPrefix(c.Path, "skills/")) {
				t.Errorf("%s: %s %s", p.Title, c.Op, c.Path)
			}
			if strings.Contains(c.After, bodyToken) || strings.Contains(p.Rationale+p.Title, bodyToken) {
				t.Errorf("%s writes or shows the secret", p.Title)
			}
		}
		after, err := Apply(before, p)
		if err != nil {
			t.Fatalf("%s: %v", p.Title, err)
		}
		sum := after[codex.SummaryFile]
		n := len(codex.Load(sum).Trimmed)
		if !codex.ParseSummary(sum).Header || n > codex.SummaryByteLimit && n > len(codex.Load(before[codex.SummaryFile]).Trimmed) {
			t.Errorf("%s: the summary lost v1 or grew over the cap (%d bytes)", p.Title, n)
		}
		if p.Kind == model.KindTrimSummary && n > CodexTrimTarget {
			t.Errorf("the trim leaves %d bytes", n)
		}
	}
	if again := ProposeCodex(cxStore(files), cxOpts); !reflect.DeepEqual(again, ps) {
		t.Error("the same store gave other proposals")
	}
}

// TestCodexBackstop: whatever a proposer hands it, allowed refuses a
// change to a file Codex regenerates, a note, an extension's file, a
// delete or a move, a creation outside the notes or over a note, and a
// summary that loses v1 or grows over the cap.
func TestCodexBackstop(t *testing.T) {
	files := cxClean()
	files["extensions/ad_hoc/instructions.md"] = "Notes are authoritative.\n"
	s := cxStore(files)
	st := newCodexState(s, cxOpts)
	up := func(path, after string) model.Change {
		return model.Change{Path: path, Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(s.File(path).Content), After: after}
	}
	note := "extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md"
	for name, c := range map[string]model.Change{
		"raw memories":     up("raw_memories.md", "x\n"),
		"rollout summary":  up("rollout_summaries/2026-11-20T09-30-15-jqmb.md", "x\n"),
		"a note":           up(note, "x\n"),
		"instructions":     up("extensions/ad_hoc/instructions.md", "x\n"),
		"delete":           {Path: codex.HandbookFile, Op: model.OpDelete, BaseSHA256: st.hash(codex.HandbookFile)},
		"move":             {Path: "skills/x/SKILL.md", From: codex.HandbookFile, Op: model.OpMove, BaseSHA256: st.hash(codex.HandbookFile)},
		"create elsewhere": {Path: "notes.md", Op: model.OpCreate, After: "x\n"},
		"bad note name":    {Path: codex.NotesDir + "remember this.md", Op: model.OpCreate, After: "x\n"},
		"over a note":      {Path: note, Op: model.OpCreate, After: "x\n"},
		"no v1":            up(codex.SummaryFile, strings.TrimPrefix(cxSummary, "v1\n")),
		"over the cap":     up(codex.SummaryFile, cxSummary+strings.Repeat("x", codex.SummaryByteLimit)),
		"stale base":       {Path: codex.HandbookFile, Op: model.OpUpdate, BaseSHA256: "00", After: "x\n"},
	} {
		if err := st.allowed(model.Proposal{Changes: []model.Change{c}}); err == nil {
			t.Errorf("%s: allowed", name)
		}
	}
	for name, c := range map[string]model.Change{
		"summary":  up(codex.SummaryFile, cxSummary+"- more\n"),
		"handbook": up(codex.HandbookFile, cxHandbook+"- more\n"),
		"new note": {Path: codex.NotesDir + "2026-11-28T17-05-09-x.md", Op: model.OpCreate, After: "x\n"},
	} {
		if err := st.allowed(model.Proposal{Changes: []model.Change{c}}); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
}

// TestCodexQuoteNeverShowsPartOfASecret: the dedupe's quote of a bullet
// masks before it cuts (clip_test.go's check of rxClip).
func TestCodexQuoteNeverShowsPartOfASecret(t *testing.T) {
	sc := cxOpts.Options.WithDefaults().Secrets
	for _, lead := range testgen.CutLeads {
		if frag := testgen.TokenShown(quote(sc, testgen.CutText(lead), 60), testgen.CutToken, 12); frag != "" {
			t.Errorf("lead %d shows %q", lead, frag)
		}
	}
}

// TestPartialCodex: a person keeps some hunks of a Codex proposal; what
// is left is checked with Codex's rules: a trim partly kept still starts
// with v1, a change that loses v1 is refused, and keeping nothing is an
// error.
func TestPartialCodex(t *testing.T) {
	files := cxClean()
	files[codex.SummaryFile] = cxBigSummary(46, 18, 2)
	s := cxStore(files)
	ps := cxOnly(ProposeCodex(s, cxOpts), model.KindTrimSummary, codex.SummaryFile)
	if len(ps) != 1 {
		t.Fatal("no trim")
	}
	before := func(p string) (string, bool) {
		f := s.File(p)
		if f == nil {
			return "", false
		}
		return string(f.Content), true
	}
	p := ps[0]
	n := diff.Blocks(p.Changes[0], files[codex.SummaryFile])
	if n < 2 {
		t.Fatalf("the trim has %d hunks", n)
	}
	keep := make([]bool, n)
	keep[0] = true
	part, err := PartialCodex(p, before, Keep{codex.SummaryFile: keep})
	if err != nil {
		t.Fatal(err)
	}
	a := part.Changes[0].After
	if a == p.Changes[0].After || a == files[codex.SummaryFile] || !codex.ParseSummary([]byte(a)).Header || !strings.HasSuffix(part.Rationale, "(partly accepted)") {
		t.Errorf("partly kept:\n%s", a)
	}
	if _, err := PartialCodex(p, before, Keep{codex.SummaryFile: make([]bool, n)}); err == nil {
		t.Error("nothing kept was accepted")
	}
	bad := p
	bad.Changes = []model.Change{{Path: codex.SummaryFile, Op: model.OpUpdate, BaseSHA256: p.Changes[0].BaseSHA256, After: strings.TrimPrefix(files[codex.SummaryFile], "v1\n")}}
	if _, err := PartialCodex(bad, before, Keep{}); err == nil || !strings.Contains(err.Error(), "v1") {
		t.Errorf("a summary without v1: %v", err)
	}
}
