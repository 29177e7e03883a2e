package consolidate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

const (
	dupWhy   = "\n\n**Why:** "
	dupApply = "\n\n**How to apply:** "
)

// dupPairs is the table the thresholds were chosen with: realistic pairs of
// memories, duplicates or not. Paths carry a directory per pair so that the
// whole table can also run as one directory.
var dupPairs = []struct {
	name string
	a, b DupItem
	dup  bool
	kind string // the expected reason's start for duplicates; "fuzzy" for either similarity reason
}{
	// --- duplicates --------------------------------------------------------
	{"deploy rewrite", DupItem{
		Path: "deploy-process.md", Name: "Deploy process", Description: "How to deploy the api service",
		Body: "Deploy with `make ship`, never `npm run deploy`." + dupWhy + "the npm script skips the database migrations and broke staging twice." + dupApply + "whenever asked to deploy, run make ship from the repo root.",
	}, DupItem{
		Path: "deployment.md", Name: "Deployment", Description: "How to deploy the API service to production",
		Body: "deployment: always use `make ship`; npm run deploy is broken (it skips the migrations step)." + dupWhy + "staging broke twice after npm run deploy." + dupApply + "run make ship from the repository root for every deploy.",
	}, true, "fuzzy"},
	{"exact copy under another name", DupItem{
		Path: "pnpm.md", Name: "Use pnpm", Description: "Package manager choice",
		Body: "Use pnpm, not npm or yarn: the lockfile is pnpm-lock.yaml and CI fails on any other lockfile.",
	}, DupItem{
		Path: "package-manager.md", Name: "Package manager", Description: "Which package manager the repo uses",
		Body: "Use pnpm, not npm or yarn:\nthe lockfile is pnpm-lock.yaml and CI fails on any other lockfile.\n",
	}, true, "identical bodies"},
	{"dated series underscores", DupItem{
		Path: "standup_2026_05_26.md", Name: "Standup 26 May", Description: "Standup notes", Type: "project",
		Body: "Worked on the billing export; blocked on the Stripe webhook secret rotation.",
	}, DupItem{
		Path: "standup_2026_05_27.md", Name: "Standup 27 May", Description: "Standup notes", Type: "project",
		Body: "Billing export shipped behind a flag. Next: backfill of the invoices table.",
	}, true, "dated series"},
	{"dated series hyphens, one untyped", DupItem{
		Path: "perf-investigation-2026-05-26.md", Name: "Perf investigation", Description: "Slow checkout endpoint", Type: "project",
		Body: "p99 of /checkout is 2.3 s; the N+1 query in cart items is the main cost.",
	}, DupItem{
		Path: "perf-investigation-2026-05-28.md", Name: "Perf investigation (cont.)", Description: "Slow checkout endpoint, follow-up",
		Body: "After the preload fix p99 is 480 ms. Remaining: the tax service call.",
	}, true, "dated series"},
	{"same name and description, updated body", DupItem{
		Path: "oncall.md", Name: "On-call rotation", Description: "Who is on call and how to page them",
		Body: "Primary on call this quarter is Priya; page through PagerDuty service api-prod.",
	}, DupItem{
		Path: "oncall-rotation.md", Name: "On-call rotation", Description: "Who is on call, and how to page them.",
		Body: "From July the rotation is weekly. Escalate to the platform lead after 15 minutes.",
	}, true, "same name and description"},
	{"near copy with an edited sentence", DupItem{
		Path: "migrations.md", Name: "Migrations", Description: "Rules for database migrations",
		Body: "Every migration must be reversible and must not lock a table for more than a second. Add columns as nullable, backfill in batches of 5,000 rows, then add the constraint in a separate migration. Never rename a column in one step; add, dual-write, backfill, switch reads, drop.",
	}, DupItem{
		Path: "db-migration-rules.md", Name: "DB migration rules", Description: "Constraints on schema changes",
		Body: "Every migration must be reversible and must not lock a table for more than one second. Add columns as nullable, backfill in batches of 10,000 rows, then add the constraint in a separate migration. Never rename a column in one step; add, dual-write, backfill, switch reads, drop.",
	}, true, "fuzzy"},
	{"near copy with an appended update", DupItem{
		Path: "feature-flags.md", Name: "Feature flags", Description: "How flags are evaluated",
		Body: "Flags live in pkg/flags and are evaluated per request with flags.Enabled(ctx, name). Defaults are off in production and on in staging. Remove a flag within two releases of full rollout.",
	}, DupItem{
		Path: "flags.md", Name: "Flags", Description: "Feature flag conventions",
		Body: "Flags live in pkg/flags and are evaluated per request with flags.Enabled(ctx, name). Defaults are off in production and on in staging. Remove a flag within two releases of full rollout.\n\nUpdate: the worker service evaluates flags once per job, not per request.",
	}, true, "fuzzy"},
	{"lint rewrite", DupItem{
		Path: "feedback_lint_before_commit.md", Name: "Lint before committing", Description: "Run golangci-lint before every commit", Type: "feedback",
		Body: "Always run golangci-lint run ./... before committing; CI rejects any lint error and the user hates red builds." + dupWhy + "three PRs bounced on lint last week." + dupApply + "run the linter after the tests, before git commit.",
	}, DupItem{
		Path: "golangci-lint.md", Name: "golangci-lint before commit", Description: "Lint the Go code before each commit", Type: "feedback",
		Body: "Run golangci-lint (golangci-lint run ./...) before each commit. Lint errors fail CI, and red builds annoy the user." + dupApply + "lint right before git commit.",
	}, true, "fuzzy"},
	{"reference rewrite", DupItem{
		Path: "grafana-dashboards.md", Name: "Grafana dashboards", Description: "Where the latency dashboards live", Type: "reference",
		Body: "Latency dashboards: https://grafana.acme.dev/d/api-latency (API) and https://grafana.acme.dev/d/db-latency (database). Alerts route to #oncall.",
	}, DupItem{
		Path: "dashboards.md", Name: "Dashboards (Grafana)", Description: "Links to the latency dashboards in Grafana", Type: "reference",
		Body: "API latency dashboard: https://grafana.acme.dev/d/api-latency; database latency: https://grafana.acme.dev/d/db-latency. Latency alerts go to the #oncall channel.",
	}, true, "fuzzy"},
	{"project fact rewrite", DupItem{
		Path: "release-freeze.md", Name: "Release freeze", Description: "No releases during the Q2 freeze", Type: "project",
		Body: "Release freeze from 2026-06-01 to 2026-06-14 for the SOC2 audit: no production deploys, hotfixes need approval from Dana.",
	}, DupItem{
		Path: "q2-freeze.md", Name: "Q2 release freeze", Description: "Production release freeze for the SOC2 audit", Type: "project",
		Body: "There is a production freeze 2026-06-01..2026-06-14 (SOC2 audit). Do not deploy to prod; hotfixes only with Dana's approval.",
	}, true, "fuzzy"},
	{"user preference rewrite", DupItem{
		Path: "user_terse_answers.md", Name: "Terse answers", Description: "User prefers terse answers without preamble", Type: "user",
		Body: "The user prefers terse answers: no preamble, no summary at the end, just the answer or the diff.",
	}, DupItem{
		Path: "user-answers-terse.md", Name: "Answers: terse", Description: "The user wants terse answers, no preamble", Type: "user",
		Body: "Keep answers short. The user dislikes preamble and end-of-answer summaries; give the diff or the answer itself.",
	}, true, "fuzzy"},
	{"copy differing in case and punctuation", DupItem{
		Path: "ports.md", Name: "Local ports", Description: "Which ports the dev stack uses",
		Body: "API on :8080, web on :3000, Postgres on :5432, Redis on :6379. The mock S3 (minio) is on :9000.",
	}, DupItem{
		Path: "dev-ports.md", Name: "Dev stack ports", Description: "Ports of the local stack",
		Body: "api on 8080; web on 3000; postgres on 5432; redis on 6379 -- the mock s3 (minio) is on 9000",
	}, true, "identical bodies"},

	// --- not duplicates ----------------------------------------------------
	{"testing: race vs mocks", DupItem{
		Path: "feedback_testing_race.md", Name: "Run tests with -race", Description: "Always run go tests with the race detector", Type: "feedback",
		Body: "Run go test with -race before pushing; data races in the scheduler were only caught that way." + dupWhy + "two incidents came from races." + dupApply + "keep -race in CI and locally.",
	}, DupItem{
		Path: "feedback_testing_mocks.md", Name: "Never mock the database in tests", Description: "Integration tests must hit a real database", Type: "feedback",
		Body: "Never mock the database in tests; use the Postgres test container from docker-compose.test.yml." + dupWhy + "mocked tests passed while a broken migration shipped." + dupApply + "write integration tests against the container, run go test ./... with it up.",
	}, false, ""},
	{"boilerplate-heavy feedback on different topics", DupItem{
		Path: "feedback_table_tests.md", Name: "Table-driven tests", Description: "Write Go tests as tables", Type: "feedback",
		Body: "Write Go tests as table-driven tests with a t.Run per case." + dupWhy + "the user asked for it." + dupApply + "when you would write a new test function, add a case to the table instead.",
	}, DupItem{
		Path: "feedback_commits.md", Name: "Conventional commits", Description: "Commit message format", Type: "feedback",
		Body: "Write commit messages as conventional commits (feat:, fix:, chore:)." + dupWhy + "the user asked for it." + dupApply + "when you would commit, use the format.",
	}, false, ""},
	{"same service, different facts", DupItem{
		Path: "api-auth.md", Name: "API authentication", Description: "How the API authenticates requests",
		Body: "The API uses JWTs signed with RS256; access tokens expire after 15 minutes, refresh tokens after 30 days. Keys rotate monthly.",
	}, DupItem{
		Path: "api-rate-limits.md", Name: "API rate limits", Description: "Rate limits of the public API",
		Body: "The public API allows 100 requests per second per token, bursting to 200; the limiter is a token bucket in internal/ratelimit.",
	}, false, ""},
	{"two stubs", DupItem{
		Path: "deploy-todo.md", Name: "Deploy TODO", Description: "Open deploy questions",
		Body: "See the deploy doc.",
	}, DupItem{
		Path: "testing-todo.md", Name: "Testing TODO", Description: "Open testing questions",
		Body: "See the testing doc.",
	}, false, ""},
	{"same date, different series", DupItem{
		Path: "standup_2026_05_26.md", Name: "Standup", Description: "Standup notes", Type: "project",
		Body: "Paired with Lee on the search indexer; the reindex job needs a bigger node pool.",
	}, DupItem{
		Path: "retro_2026_05_26.md", Name: "Retro", Description: "Sprint retro notes", Type: "project",
		Body: "Went well: billing export. To improve: flaky e2e tests and late reviews.",
	}, false, ""},
	{"dated stem, different types", DupItem{
		Path: "notes-2026-05-26.md", Name: "Notes", Description: "Review feedback from the user", Type: "feedback",
		Body: "The user wants smaller pull requests and tests for every bug fix.",
	}, DupItem{
		Path: "notes-2026-05-27.md", Name: "Notes", Description: "Project status", Type: "project",
		Body: "The payments migration is 60% done; the EU cluster goes next week.",
	}, false, ""},
	{"same name, different subject", DupItem{
		Path: "database.md", Name: "Database", Description: "Postgres connection details",
		Body: "Local Postgres runs in docker on port 5432; the DSN is in .env as DATABASE_URL. Staging uses RDS.",
	}, DupItem{
		Path: "database-migrations.md", Name: "Database", Description: "Schema migration rules",
		Body: "Migrations live in db/migrations, are written with goose, and must be reversible. Review them with the DBA.",
	}, false, ""},
	{"user role vs user preference", DupItem{
		Path: "user_role.md", Name: "User role", Description: "Who the user is", Type: "user",
		Body: "The user is a backend engineer on the payments team, works mostly in Go and owns the ledger service.",
	}, DupItem{
		Path: "user_preferences.md", Name: "User preferences", Description: "How the user likes to work", Type: "user",
		Body: "The user prefers Go over Python for tools, wants diffs instead of whole files, and reviews in the morning.",
	}, false, ""},
	{"different reference links", DupItem{
		Path: "runbooks.md", Name: "Runbooks", Description: "Where the incident runbooks live", Type: "reference",
		Body: "Runbooks are in Notion under Engineering/Runbooks: https://notion.so/acme/runbooks; each PagerDuty alert links its own.",
	}, DupItem{
		Path: "sentry.md", Name: "Sentry projects", Description: "Where errors are reported", Type: "reference",
		Body: "Errors go to Sentry: https://sentry.io/organizations/acme/projects/api and /projects/web. Triage daily.",
	}, false, ""},
	{"staging vs production deploys", DupItem{
		Path: "deploy-staging.md", Name: "Staging deploys", Description: "How staging gets deployed",
		Body: "Staging deploys automatically on merge to main via make ship ENV=staging; no approval needed. Check the smoke tests after.",
	}, DupItem{
		Path: "deploy-production.md", Name: "Production deploys", Description: "How production gets deployed",
		Body: "Production deploys run make ship ENV=prod by hand, need an approval in #releases, and only happen Tuesday to Thursday.",
	}, false, ""},
	{"shared setup commands, different purpose", DupItem{
		Path: "ci-setup.md", Name: "CI setup", Description: "What the CI pipeline runs",
		Body: "CI runs `make deps && make build && make test` on every push, then uploads coverage to Codecov and builds the Docker image on main only.",
	}, DupItem{
		Path: "local-setup.md", Name: "Local setup", Description: "Getting a dev machine ready",
		Body: "On a new machine install Go 1.26 and Docker, copy .env.example to .env, then `make deps && make build && make test` should pass.",
	}, false, ""},
	{"same service, architecture vs on-call", DupItem{
		Path: "payments-architecture.md", Name: "Payments service architecture", Description: "Components of the payments service", Type: "project",
		Body: "Payments is three services: the API (Go), the ledger (Go, Postgres) and the reconciler (Python, nightly). They talk over NATS.",
	}, DupItem{
		Path: "payments-oncall.md", Name: "Payments service on-call", Description: "Paging and runbooks for payments", Type: "project",
		Body: "Page payments on-call through PagerDuty; runbooks are in the wiki under Payments/Runbooks. The reconciler alert is usually a late bank file.",
	}, false, ""},
}

func TestDuplicatePairs(t *testing.T) {
	pos, neg := 0, 0
	for i, p := range dupPairs {
		if p.dup {
			pos++
		} else {
			neg++
		}
		a, b := p.a, p.b
		a.Path = fmt.Sprintf("p%02d/%s", i, a.Path)
		b.Path = fmt.Sprintf("p%02d/%s", i, b.Path)
		gs := FindDuplicates([]DupItem{a, b})
		sc := new(dupScratch)
		docs := sc.start(2)
		sc.newDoc(&docs[0], a)
		sc.newDoc(&docs[1], b)
		f := newDupFinder(docs, sc)
		s := f.sims(&f.docs[0], &f.docs[1])
		t.Logf("%-45s shingle %.2f body %.2f meta %.2f -> %v", p.name, s.shingle, s.body, s.meta, gs)
		if got := len(gs) == 1; got != p.dup {
			t.Errorf("%s: duplicate = %v, want %v (%+v)", p.name, got, p.dup, gs)
			continue
		}
		if p.dup && !strings.HasPrefix(gs[0].Reason, p.kind) &&
			!(p.kind == "fuzzy" && (strings.HasPrefix(gs[0].Reason, "bodies") || strings.HasPrefix(gs[0].Reason, "names"))) {
			t.Errorf("%s: reason %q, want %q...", p.name, gs[0].Reason, p.kind)
		}
	}
	if pos < 10 || neg < 10 {
		t.Errorf("the table needs at least 10 pairs of each kind: %d positive, %d negative", pos, neg)
	}
}

// TestDuplicatePairsTogether runs the whole table as one directory: exactly
// the duplicate pairs may come out, each on its own.
func TestDuplicatePairsTogether(t *testing.T) {
	var items []DupItem
	var want [][]string
	for i, p := range dupPairs {
		a, b := p.a, p.b
		a.Path = fmt.Sprintf("p%02d/%s", i, a.Path)
		b.Path = fmt.Sprintf("p%02d/%s", i, b.Path)
		items = append(items, a, b)
		if p.dup {
			w := []string{a.Path, b.Path}
			slices.Sort(w)
			want = append(want, w)
		}
	}
	var got [][]string
	for _, g := range FindDuplicates(items) {
		w := slices.Clone(g.Paths)
		slices.Sort(w)
		got = append(got, w)
	}
	slices.SortFunc(got, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	slices.SortFunc(want, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got groups\n%v\nwant\n%v", got, want)
	}
}

// TestDuplicatePairsInCrowd hides the table among a thousand unrelated
// memories: the blocking indexes must still propose every duplicate pair,
// and token weights that now see a large directory must not create false
// ones.
func TestDuplicatePairsInCrowd(t *testing.T) {
	var items []DupItem
	var want []string
	for i, p := range dupPairs {
		a, b := p.a, p.b
		a.Path = fmt.Sprintf("p%02d/%s", i, a.Path)
		b.Path = fmt.Sprintf("p%02d/%s", i, b.Path)
		items = append(items, a, b)
		if p.dup {
			w := []string{a.Path, b.Path}
			slices.Sort(w)
			want = append(want, fmt.Sprint(w))
		}
	}
	for i, it := range genDupItems(2000, 5) {
		if i%2 == 1 { // the distinct half
			it.Path = "crowd/" + it.Path
			items = append(items, it)
		}
	}
	var got []string
	for _, g := range FindDuplicates(items) {
		w := slices.Clone(g.Paths)
		slices.Sort(w)
		got = append(got, fmt.Sprint(w))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got groups\n%v\nwant\n%v", got, want)
	}
}

func TestDuplicateKeepAndOrder(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 5, d, 0, 0, 0, 0, time.UTC) }
	body := "Use pnpm, not npm or yarn: the lockfile is pnpm-lock.yaml and CI fails on any other lockfile."
	items := []DupItem{
		{Path: "c.md", Body: body, Modified: day(3)},
		{Path: "b.md", Body: body, Modified: day(1)},
		{Path: "a.md", Body: body, Modified: day(2)},
		{Path: "z.md", Body: body, Modified: day(1)},
		{Path: "other.md", Body: "Something else entirely, about the staging database credentials rotation."},
	}
	gs := FindDuplicates(items)
	if len(gs) != 1 || fmt.Sprint(gs[0].Paths) != "[b.md a.md c.md z.md]" || gs[0].Reason != "identical bodies" || gs[0].Score != 1 {
		t.Fatalf("got %+v", gs)
	}
	// The same answer whatever the input order.
	for range 10 {
		rand.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		if g2 := FindDuplicates(items); fmt.Sprint(g2) != fmt.Sprint(gs) {
			t.Fatalf("order-dependent: %+v vs %+v", g2, gs)
		}
	}
	if FindDuplicates(nil) != nil || FindDuplicates(items[:1]) != nil {
		t.Error("fewer than two items make no group")
	}
}

func TestDupTokens(t *testing.T) {
	h := func(ws ...string) []uint64 {
		var out []uint64
		for _, w := range ws {
			var buf [32]byte
			copy(buf[:], w)
			out = append(out, dupHashWord(&buf, len(w)))
		}
		return out
	}
	cases := []struct {
		in   string
		want []uint64
	}{
		{"Deploying the tests", h("deploy", "test")},
		{"**Why:** committing; deployments, DEPLOYED", h("commit", "deploy", "deploy")},
		{"run go test -race 2026-05-26 v2", h("run", "go", "test", "race", "v2")},
		{"", nil},
		{"x", nil},
	}
	for _, c := range cases {
		got, truncated := dupTokens(c.in, nil, false, dupMaxTokens)
		if !slices.Equal(got, c.want) || truncated {
			t.Errorf("dupTokens(%q) = %x, want %x", c.in, got, c.want)
		}
	}
	long := strings.Repeat("word ", dupMaxTokens+10)
	if got, truncated := dupTokens(long, nil, false, dupMaxTokens); len(got) != dupMaxTokens || !truncated {
		t.Errorf("limit: %d tokens, truncated %v", len(got), truncated)
	}
	if got, _ := dupTokens("feedback_testing-notes", nil, true, dupMaxTokens); !slices.Equal(got, h("test")) {
		t.Errorf("meta words: %x", got)
	}
}

// refTokens is dupTokens written the plain way, a byte at a time: the
// reference the fast tokenizer (bitmap, eight bytes at a time, word cache)
// must match exactly.
func refTokens(s string, meta bool, limit int) (out []uint64, truncated bool) {
	var buf [32]byte
	n, or := 0, byte(0)
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = dupFold[s[i]]
		}
		if c != 0 {
			if n < len(buf) {
				buf[n] = c
			}
			n++
			or |= c
			continue
		}
		if n >= 2 && n <= len(buf) && or >= 0x40 {
			h := dupHashWord(&buf, len(dupStem(buf[:n])))
			if !dupStop.has(h) && !(meta && dupMetaStop.has(h)) {
				if len(out) == limit {
					return out, true
				}
				out = append(out, h)
			}
		}
		n, or = 0, 0
	}
	return out, false
}

// TestDupTokensReference checks the tokenizer against refTokens on
// random text built to hit its edges: words across 64-byte blocks and
// at the end of the text, words of 8, 15, 16, 32 and 33 bytes, suffixes
// the stemmer cuts, capitals, digits, UTF-8, and stop words. One
// tokenizer serves every case, as a pooled one does, so the word cache
// and numbering are exercised too.
func TestDupTokensReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	pieces := []string{"a", "I", "the", "Deployments", "testing", "tested", "committing", "stopped", "classes",
		"feedback", "notes", "quickly", "2026", "v2", "x86_64", "é", "日本語", "ABCDEFGH", "abcdefghijklmno",
		"abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyzabcdef", "abcdefghijklmnopqrstuvwxyzabcdefg",
		"0123456789012345", " ", "  ", "\n", "-", "_", ".", "/", "@", "[", "`", "{", "\x7f", "\x00", "\xff"}
	var z dupTokenizer
	check := func(s string) {
		t.Helper()
		for _, meta := range []bool{false, true} {
			for _, limit := range []int{dupMaxTokens, 0, 1, 7} {
				want, wantTrunc := refTokens(s, meta, limit)
				got, gotTrunc := z.tokens(s, nil, meta, limit)
				if !slices.Equal(got, want) || gotTrunc != wantTrunc {
					t.Fatalf("tokens(%q, meta %v, limit %d) = %x %v, want %x %v", s, meta, limit, got, gotTrunc, want, wantTrunc)
				}
				if len(z.tids) != len(got) {
					t.Fatalf("tokens(%q): %d word numbers for %d words", s, len(z.tids), len(got))
				}
			}
		}
	}
	for range 20000 {
		var sb strings.Builder
		for n := r.IntN(300); sb.Len() < n; {
			sb.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				sb.WriteByte(' ')
			}
		}
		check(sb.String())
	}
	for _, p := range dupPairs {
		for _, it := range []DupItem{p.a, p.b} {
			check(it.Body)
			check(it.Name + " " + it.Description + " " + it.Path)
		}
	}
}

// TestFindDuplicatesReuse runs FindDuplicates again and again, and from
// several goroutines at once (run it with -race): the pooled scratch, the
// word cache and the word numbers it keeps between calls must not change
// an answer.
func TestFindDuplicatesReuse(t *testing.T) {
	inputs := [][]DupItem{genDupItems(300, 4), genDupItems(40, 5), nil}
	for _, p := range dupPairs {
		inputs[2] = append(inputs[2], p.a, p.b)
	}
	want := make([]string, len(inputs))
	for i, items := range inputs {
		want[i] = fmt.Sprint(FindDuplicates(items))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 6 {
				i := (g + k) % len(inputs)
				if got := fmt.Sprint(FindDuplicates(inputs[i])); got != want[i] {
					t.Errorf("input %d, goroutine %d, round %d: got %s, want %s", i, g, k, got, want[i])
				}
			}
		}()
	}
	wg.Wait()
}

func TestDupStripDate(t *testing.T) {
	cases := map[string]string{
		"x-2026-05-26":          "x",
		"standup_2026_05_26":    "standup",
		"standup-2026-05-27":    "standup",
		"2026-05-26-retro":      "retro",
		"perf_20260526":         "perf",
		"report-2026-05":        "report",
		"log-2026-05-26T10-15":  "log",
		"2026-05-26":            "",
		"build-12026051":        "!",
		"deploy-process":        "!",
		"incident-2026-13-01-x": "!",
	}
	for in, want := range cases {
		got, ok := dupStripDate(in)
		if want == "!" {
			if ok {
				t.Errorf("%s: found a date (%q)", in, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("%s: %q %v, want %q", in, got, ok, want)
		}
	}
}

// TestCheckDuplicates runs the check over a directory built by hand (the
// frontmatter parser is not this file's business): one report per extra
// member, naming the kept file; logs/ is left alone.
func TestCheckDuplicates(t *testing.T) {
	mk := func(p, name, desc, body string, mod time.Time) *fileState {
		fm := "---\nname: " + name + "\ndescription: " + desc + "\n---\n"
		return &fileState{
			f:    &model.File{Path: p, ModTime: mod},
			doc:  model.Doc{FM: model.Frontmatter{Name: name, Description: desc}, BodyStart: len(fm), Status: model.FMOK},
			text: fm + body,
		}
	}
	old := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	newer := old.Add(48 * time.Hour)
	body := "Deploy with make ship; never npm run deploy, it skips the migrations."
	files := []*fileState{
		mk("deploy.md", "Deploy", "How to deploy", body, newer),
		mk("deploy-copy.md", "Deploy (copy)", "How we deploy", body, old),
		mk("logs/2026/05/2026-05-26.md", "Log", "Daily log", body, old),
		mk("logs/2026/05/2026-05-27.md", "Log", "Daily log", body, old),
		mk("testing.md", "Testing", "How to test", "Run go test -race ./... before every push; CI runs the same.", old),
	}
	s := &dirState{
		project: &model.Project{Slug: "p"},
		dir:     &model.MemoryDir{Path: "/mem"},
		files:   files,
		byPath:  map[string]*fileState{},
	}
	for _, fs := range files {
		s.byPath[fs.f.Path] = fs
	}
	checkDuplicates(s)
	if len(s.findings) != 1 {
		t.Fatalf("want one finding, got %+v", s.findings)
	}
	f := s.findings[0]
	if f.Rule != RuleDuplicateMemory || f.File != "deploy.md" || !strings.Contains(f.Message, "deploy-copy.md") || !strings.Contains(f.Message, "identical bodies") || !strings.Contains(f.Suggestion, "Merge it into deploy-copy.md") {
		t.Errorf("finding: %+v", f)
	}
}

// genDupItems makes n memories: half in five large families of edited
// copies (one word in twenty replaced, dropped or added; names varied),
// the rest distinct memories drawn from the same vocabulary.
func genDupItems(n int, seed uint64) []DupItem { return genDupItemsIn(n, seed, 5) }

// genDupItemsIn is genDupItems with the copies in the given number of
// groups.
func genDupItemsIn(n int, seed uint64, groups int) []DupItem {
	r := rand.New(rand.NewPCG(seed, 11))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("%s%d", []string{"deploy", "test", "cache", "queue", "user", "api", "db", "flag", "build", "auth"}[i%10], i)
	}
	word := func() string {
		// Zipf-like: a few words are common, most are rare.
		return vocab[int(float64(len(vocab))*r.Float64()*r.Float64()*r.Float64())]
	}
	sentence := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ") + "."
	}
	body := func() string {
		var sb strings.Builder
		for range 8 + r.IntN(8) {
			sb.WriteString(sentence(8 + r.IntN(8)))
			sb.WriteString(" ")
		}
		return sb.String()
	}
	mutate := func(b string) string {
		ws := strings.Fields(b)
		out := ws[:0:0]
		for _, w := range ws {
			switch x := r.Float64(); {
			case x < 0.02:
				// dropped
			case x < 0.04:
				out = append(out, word())
			case x < 0.05:
				out = append(out, w, word())
			default:
				out = append(out, w)
			}
		}
		return strings.Join(out, " ")
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	items := make([]DupItem, 0, n)
	bases := make([]string, groups)
	for g := range bases {
		bases[g] = body()
	}
	for i := range n {
		it := DupItem{Modified: base.Add(time.Duration(r.IntN(1e6)) * time.Second), Type: "project"}
		if i%2 == 0 {
			g := (i / 2) % groups
			// A name per copy, but not a numbered series (topic-3-v16,
			// topic-3-v26 would be told apart by their numbers).
			it.Path = fmt.Sprintf("topic-%d-%s.md", g, dupLetters(i))
			it.Name = fmt.Sprintf("Topic %d notes %s", g, word())
			it.Description = fmt.Sprintf("What we know about topic %d", g)
			if r.IntN(2) == 0 {
				it.Description += " and " + word()
			}
			it.Body = mutate(bases[g])
		} else {
			it.Path = fmt.Sprintf("memory-%d-%s.md", i, word())
			it.Name = fmt.Sprintf("%s %s %s", word(), word(), word())
			it.Description = sentence(6)
			it.Body = body()
		}
		items = append(items, it)
	}
	return items
}

// dupLetters writes i in letters (0 a, 25 z, 26 ba...).
func dupLetters(i int) string {
	s := string(rune('a' + i%26))
	for i /= 26; i > 0; i /= 26 {
		s = string(rune('a'+i%26)) + s
	}
	return s
}

// topicOf is the planted group of a generated copy ("topic-3-bc.md": 3).
func topicOf(p string) string {
	if !strings.HasPrefix(p, "topic-") {
		return ""
	}
	return strings.Split(p, "-")[1]
}

func TestDuplicatesGenerated(t *testing.T) {
	// 250 groups of four edited copies among 1,000 distinct memories. The
	// blocking finds most pairs (a few groups come out in two pairs, when
	// no pair across them shared a band), and never mixes two groups.
	gs := FindDuplicates(genDupItemsIn(2000, 1, 250))
	members := 0
	for _, g := range gs {
		topic := topicOf(g.Paths[0])
		for _, p := range g.Paths {
			if topic == "" || topicOf(p) != topic {
				t.Errorf("distinct memory %s grouped: %v", p, g.Paths)
			}
		}
		members += len(g.Paths)
	}
	t.Logf("%d of 1,000 copies in %d groups", members, len(gs))
	if members < 900 {
		t.Errorf("%d of the 1,000 planted copies grouped, in %d groups", members, len(gs))
	}
}

// Five families of 200 edited copies each: sets that large are not one
// memory written again, so none is merged whole; only identical copies
// among them (a copy the edits left alone) may be grouped.
func TestDuplicateFamiliesAreNotGroups(t *testing.T) {
	for _, g := range FindDuplicates(genDupItems(2000, 1)) {
		if len(g.Paths) > dupMaxGroup || g.Reason != "identical bodies" {
			t.Errorf("group of %d (%s): %v", len(g.Paths), g.Reason, g.Paths[:min(len(g.Paths), 5)])
		}
		for _, p := range g.Paths {
			if topicOf(p) == "" {
				t.Errorf("distinct memory %s grouped", p)
			}
		}
	}
}

func BenchmarkFindDuplicates(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		items := genDupItems(n, 2)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FindDuplicates(items)
			}
		})
	}
}

// dupCorpusItems loads the tree at $MEMTUI_CORPUS (a config dir with
// projects/<slug>/memory/, such as one internal/corpus generates) and
// returns, per memory dir with two topic files or more, the items
// checkDuplicates would hand FindDuplicates. It skips the test when
// MEMTUI_CORPUS is unset.
func dupCorpusItems(tb testing.TB) [][]DupItem {
	tb.Helper()
	dir := os.Getenv("MEMTUI_CORPUS")
	if dir == "" {
		tb.Skip("set MEMTUI_CORPUS to a corpus dir (e.g. /tmp/corpus20k) to run the corpus benchmark")
	}
	opts := memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
		ManagedSettings: filepath.Join(dir, "none")}
	scan, err := memfs.Scan(context.Background(), opts)
	if err != nil {
		tb.Fatal(err)
	}
	var dirs [][]DupItem
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			if items := dupItems(newDirState(p, d, Options{})); len(items) >= 2 {
				dirs = append(dirs, items)
			}
		}
	}
	if len(dirs) == 0 {
		tb.Fatalf("no memory dirs under %s/projects", dir)
	}
	return dirs
}

// BenchmarkDuplicatesCorpus runs FindDuplicates over every memory dir of a
// realistic tree, as memtui lint does: one op is the whole tree (20,000
// files for the 500-project corpus). Loading and parsing are outside the
// timer. Run it with, e.g.,
//
//	MEMTUI_CORPUS=/tmp/corpus20k go test ./consolidate -run '^$' -bench DuplicatesCorpus -cpu 1 -count 10
func BenchmarkDuplicatesCorpus(b *testing.B) {
	dirs := dupCorpusItems(b)
	files := 0
	for _, items := range dirs {
		files += len(items)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, items := range dirs {
			FindDuplicates(items)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*files), "ns/file")
}
