package testgen

import "time"

// Markers of the sections Claude Code's memories use.
const (
	Why   = "\n\n**Why:** "
	Apply = "\n\n**How to apply:** "
)

// Memory is one memory as the near-duplicate engine sees it (the fields
// of consolidate/similar.Item, which converts from it).
type Memory struct {
	Path        string
	Name        string
	Description string
	Body        string
	Modified    time.Time
	Type        string
}

// SimilarPairs is the table the thresholds were chosen with: realistic pairs of
// memories, duplicates or not. Paths carry a directory per pair so that the
// whole table can also run as one directory.
var SimilarPairs = []struct {
	Name string
	A, B Memory
	Dup  bool
	Kind string // the expected reason's start for duplicates; "fuzzy" for either similarity reason
}{
	// --- duplicates --------------------------------------------------------
	{"deploy rewrite", Memory{
		Path: "deploy-process.md", Name: "Deploy process", Description: "How to deploy the api service",
		Body: "Deploy with `make ship`, never `npm run deploy`." + Why + "the npm script skips the database migrations and broke staging twice." + Apply + "whenever asked to deploy, run make ship from the repo root.",
	}, Memory{
		Path: "deployment.md", Name: "Deployment", Description: "How to deploy the API service to production",
		Body: "deployment: always use `make ship`; npm run deploy is broken (it skips the migrations step)." + Why + "staging broke twice after npm run deploy." + Apply + "run make ship from the repository root for every deploy.",
	}, true, "fuzzy"},
	{"exact copy under another name", Memory{
		Path: "pnpm.md", Name: "Use pnpm", Description: "Package manager choice",
		Body: "Use pnpm, not npm or yarn: the lockfile is pnpm-lock.yaml and CI fails on any other lockfile.",
	}, Memory{
		Path: "package-manager.md", Name: "Package manager", Description: "Which package manager the repo uses",
		Body: "Use pnpm, not npm or yarn:\nthe lockfile is pnpm-lock.yaml and CI fails on any other lockfile.\n",
	}, true, "identical bodies"},
	{"dated series underscores", Memory{
		Path: "standup_2026_05_26.md", Name: "Standup 26 May", Description: "Standup notes", Type: "project",
		Body: "Worked on the billing export; blocked on the Stripe webhook secret rotation.",
	}, Memory{
		Path: "standup_2026_05_27.md", Name: "Standup 27 May", Description: "Standup notes", Type: "project",
		Body: "Billing export shipped behind a flag. Next: backfill of the invoices table.",
	}, true, "dated series"},
	{"dated series hyphens, one untyped", Memory{
		Path: "perf-investigation-2026-05-26.md", Name: "Perf investigation", Description: "Slow checkout endpoint", Type: "project",
		Body: "p99 of /checkout is 2.3 s; the N+1 query in cart items is the main cost.",
	}, Memory{
		Path: "perf-investigation-2026-05-28.md", Name: "Perf investigation (cont.)", Description: "Slow checkout endpoint, follow-up",
		Body: "After the preload fix p99 is 480 ms. Remaining: the tax service call.",
	}, true, "dated series"},
	{"same name and description, updated body", Memory{
		Path: "oncall.md", Name: "On-call rotation", Description: "Who is on call and how to page them",
		Body: "Primary on call this quarter is Priya; page through PagerDuty service api-prod.",
	}, Memory{
		Path: "oncall-rotation.md", Name: "On-call rotation", Description: "Who is on call, and how to page them.",
		Body: "From July the rotation is weekly. Escalate to the platform lead after 15 minutes.",
	}, true, "same name and description"},
	{"near copy with an edited sentence", Memory{
		Path: "migrations.md", Name: "Migrations", Description: "Rules for database migrations",
		Body: "Every migration must be reversible and must not lock a table for more than a second. Add columns as nullable, backfill in batches of 5,000 rows, then add the constraint in a separate migration. Never rename a column in one step; add, dual-write, backfill, switch reads, drop.",
	}, Memory{
		Path: "db-migration-rules.md", Name: "DB migration rules", Description: "Constraints on schema changes",
		Body: "Every migration must be reversible and must not lock a table for more than one second. Add columns as nullable, backfill in batches of 10,000 rows, then add the constraint in a separate migration. Never rename a column in one step; add, dual-write, backfill, switch reads, drop.",
	}, true, "fuzzy"},
	{"near copy with an appended update", Memory{
		Path: "feature-flags.md", Name: "Feature flags", Description: "How flags are evaluated",
		Body: "Flags live in pkg/flags and are evaluated per request with flags.Enabled(ctx, name). Defaults are off in production and on in staging. Remove a flag within two releases of full rollout.",
	}, Memory{
		Path: "flags.md", Name: "Flags", Description: "Feature flag conventions",
		Body: "Flags live in pkg/flags and are evaluated per request with flags.Enabled(ctx, name). Defaults are off in production and on in staging. Remove a flag within two releases of full rollout.\n\nUpdate: the worker service evaluates flags once per job, not per request.",
	}, true, "fuzzy"},
	{"lint rewrite", Memory{
		Path: "feedback_lint_before_commit.md", Name: "Lint before committing", Description: "Run golangci-lint before every commit", Type: "feedback",
		Body: "Always run golangci-lint run ./... before committing; CI rejects any lint error and the user hates red builds." + Why + "three PRs bounced on lint last week." + Apply + "run the linter after the tests, before git commit.",
	}, Memory{
		Path: "golangci-lint.md", Name: "golangci-lint before commit", Description: "Lint the Go code before each commit", Type: "feedback",
		Body: "Run golangci-lint (golangci-lint run ./...) before each commit. Lint errors fail CI, and red builds annoy the user." + Apply + "lint right before git commit.",
	}, true, "fuzzy"},
	{"reference rewrite", Memory{
		Path: "grafana-dashboards.md", Name: "Grafana dashboards", Description: "Where the latency dashboards live", Type: "reference",
		Body: "Latency dashboards: https://grafana.acme.dev/d/api-latency (API) and https://grafana.acme.dev/d/db-latency (database). Alerts route to #oncall.",
	}, Memory{
		Path: "dashboards.md", Name: "Dashboards (Grafana)", Description: "Links to the latency dashboards in Grafana", Type: "reference",
		Body: "API latency dashboard: https://grafana.acme.dev/d/api-latency; database latency: https://grafana.acme.dev/d/db-latency. Latency alerts go to the #oncall channel.",
	}, true, "fuzzy"},
	{"project fact rewrite", Memory{
		Path: "release-freeze.md", Name: "Release freeze", Description: "No releases during the Q2 freeze", Type: "project",
		Body: "Release freeze from 2026-06-01 to 2026-06-14 for the SOC2 audit: no production deploys, hotfixes need approval from Dana.",
	}, Memory{
		Path: "q2-freeze.md", Name: "Q2 release freeze", Description: "Production release freeze for the SOC2 audit", Type: "project",
		Body: "There is a production freeze 2026-06-01..2026-06-14 (SOC2 audit). Do not deploy to prod; hotfixes only with Dana's approval.",
	}, true, "fuzzy"},
	{"user preference rewrite", Memory{
		Path: "user_terse_answers.md", Name: "Terse answers", Description: "User prefers terse answers without preamble", Type: "user",
		Body: "The user prefers terse answers: no preamble, no summary at the end, just the answer or the diff.",
	}, Memory{
		Path: "user-answers-terse.md", Name: "Answers: terse", Description: "The user wants terse answers, no preamble", Type: "user",
		Body: "Keep answers short. The user dislikes preamble and end-of-answer summaries; give the diff or the answer itself.",
	}, true, "fuzzy"},
	{"copy differing in case and punctuation", Memory{
		Path: "ports.md", Name: "Local ports", Description: "Which ports the dev stack uses",
		Body: "API on :8080, web on :3000, Postgres on :5432, Redis on :6379. The mock S3 (minio) is on :9000.",
	}, Memory{
		Path: "dev-ports.md", Name: "Dev stack ports", Description: "Ports of the local stack",
		Body: "api on 8080; web on 3000; postgres on 5432; redis on 6379 -- the mock s3 (minio) is on 9000",
	}, true, "identical bodies"},

	// --- not duplicates ----------------------------------------------------
	{"testing: race vs mocks", Memory{
		Path: "feedback_testing_race.md", Name: "Run tests with -race", Description: "Always run go tests with the race detector", Type: "feedback",
		Body: "Run go test with -race before pushing; data races in the scheduler were only caught that way." + Why + "two incidents came from races." + Apply + "keep -race in CI and locally.",
	}, Memory{
		Path: "feedback_testing_mocks.md", Name: "Never mock the database in tests", Description: "Integration tests must hit a real database", Type: "feedback",
		Body: "Never mock the database in tests; use the Postgres test container from docker-compose.test.yml." + Why + "mocked tests passed while a broken migration shipped." + Apply + "write integration tests against the container, run go test ./... with it up.",
	}, false, ""},
	{"boilerplate-heavy feedback on different topics", Memory{
		Path: "feedback_table_tests.md", Name: "Table-driven tests", Description: "Write Go tests as tables", Type: "feedback",
		Body: "Write Go tests as table-driven tests with a t.Run per case." + Why + "the user asked for it." + Apply + "when you would write a new test function, add a case to the table instead.",
	}, Memory{
		Path: "feedback_commits.md", Name: "Conventional commits", Description: "Commit message format", Type: "feedback",
		Body: "Write commit messages as conventional commits (feat:, fix:, chore:)." + Why + "the user asked for it." + Apply + "when you would commit, use the format.",
	}, false, ""},
	{"same service, different facts", Memory{
		Path: "api-auth.md", Name: "API authentication", Description: "How the API authenticates requests",
		Body: "The API uses JWTs signed with RS256; access tokens expire after 15 minutes, refresh tokens after 30 days. Keys rotate monthly.",
	}, Memory{
		Path: "api-rate-limits.md", Name: "API rate limits", Description: "Rate limits of the public API",
		Body: "The public API allows 100 requests per second per token, bursting to 200; the limiter is a token bucket in internal/ratelimit.",
	}, false, ""},
	{"two stubs", Memory{
		Path: "deploy-todo.md", Name: "Deploy TODO", Description: "Open deploy questions",
		Body: "See the deploy doc.",
	}, Memory{
		Path: "testing-todo.md", Name: "Testing TODO", Description: "Open testing questions",
		Body: "See the testing doc.",
	}, false, ""},
	{"same date, different series", Memory{
		Path: "standup_2026_05_26.md", Name: "Standup", Description: "Standup notes", Type: "project",
		Body: "Paired with Lee on the search indexer; the reindex job needs a bigger node pool.",
	}, Memory{
		Path: "retro_2026_05_26.md", Name: "Retro", Description: "Sprint retro notes", Type: "project",
		Body: "Went well: billing export. To improve: flaky e2e tests and late reviews.",
	}, false, ""},
	{"dated stem, different types", Memory{
		Path: "notes-2026-05-26.md", Name: "Notes", Description: "Review feedback from the user", Type: "feedback",
		Body: "The user wants smaller pull requests and tests for every bug fix.",
	}, Memory{
		Path: "notes-2026-05-27.md", Name: "Notes", Description: "Project status", Type: "project",
		Body: "The payments migration is 60% done; the EU cluster goes next week.",
	}, false, ""},
	{"same name, different subject", Memory{
		Path: "database.md", Name: "Database", Description: "Postgres connection details",
		Body: "Local Postgres runs in docker on port 5432; the DSN is in .env as DATABASE_URL. Staging uses RDS.",
	}, Memory{
		Path: "database-migrations.md", Name: "Database", Description: "Schema migration rules",
		Body: "Migrations live in db/migrations, are written with goose, and must be reversible. Review them with the DBA.",
	}, false, ""},
	{"user role vs user preference", Memory{
		Path: "user_role.md", Name: "User role", Description: "Who the user is", Type: "user",
		Body: "The user is a backend engineer on the payments team, works mostly in Go and owns the ledger service.",
	}, Memory{
		Path: "user_preferences.md", Name: "User preferences", Description: "How the user likes to work", Type: "user",
		Body: "The user prefers Go over Python for tools, wants diffs instead of whole files, and reviews in the morning.",
	}, false, ""},
	{"different reference links", Memory{
		Path: "runbooks.md", Name: "Runbooks", Description: "Where the incident runbooks live", Type: "reference",
		Body: "Runbooks are in Notion under Engineering/Runbooks: https://notion.so/acme/runbooks; each PagerDuty alert links its own.",
	}, Memory{
		Path: "sentry.md", Name: "Sentry projects", Description: "Where errors are reported", Type: "reference",
		Body: "Errors go to Sentry: https://sentry.io/organizations/acme/projects/api and /projects/web. Triage daily.",
	}, false, ""},
	{"staging vs production deploys", Memory{
		Path: "deploy-staging.md", Name: "Staging deploys", Description: "How staging gets deployed",
		Body: "Staging deploys automatically on merge to main via make ship ENV=staging; no approval needed. Check the smoke tests after.",
	}, Memory{
		Path: "deploy-production.md", Name: "Production deploys", Description: "How production gets deployed",
		Body: "Production deploys run make ship ENV=prod by hand, need an approval in #releases, and only happen Tuesday to Thursday.",
	}, false, ""},
	{"shared setup commands, different purpose", Memory{
		Path: "ci-setup.md", Name: "CI setup", Description: "What the CI pipeline runs",
		Body: "CI runs `make deps && make build && make test` on every push, then uploads coverage to Codecov and builds the Docker image on main only.",
	}, Memory{
		Path: "local-setup.md", Name: "Local setup", Description: "Getting a dev machine ready",
		Body: "On a new machine install Go 1.26 and Docker, copy .env.example to .env, then `make deps && make build && make test` should pass.",
	}, false, ""},
	{"same service, architecture vs on-call", Memory{
		Path: "payments-architecture.md", Name: "Payments service architecture", Description: "Components of the payments service", Type: "project",
		Body: "Payments is three services: the API (Go), the ledger (Go, Postgres) and the reconciler (Python, nightly). They talk over NATS.",
	}, Memory{
		Path: "payments-oncall.md", Name: "Payments service on-call", Description: "Paging and runbooks for payments", Type: "project",
		Body: "Page payments on-call through PagerDuty; runbooks are in the wiki under Payments/Runbooks. The reconciler alert is usually a late bank file.",
	}, false, ""},
}

// Letters names the i-th of many copies: a, b, …, z, ba, bb, ….
// dupLetters writes i in letters (0 a, 25 z, 26 ba...).
func Letters(i int) string {
	s := string(rune('a' + i%26))
	for i /= 26; i > 0; i /= 26 {
		s = string(rune('a'+i%26)) + s
	}
	return s
}
