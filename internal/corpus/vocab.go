package corpus

// Word lists for the text generator. They describe a plausible software shop:
// services, hosts, commands, conventions. Every host and URL uses a reserved
// or clearly internal domain (.internal, .test, .example) so nothing here
// points at a real system.

var projectStems = []string{
	"acme", "billing", "ledger", "webshop", "storefront", "checkout", "catalog",
	"inventory", "payments", "accounts", "identity", "auth", "search", "indexer",
	"notify", "mailer", "reports", "analytics", "metrics", "ingest", "etl",
	"pipeline", "ml", "feature-store", "recsys", "forecast", "scheduler", "cron",
	"gateway", "edge", "cdn", "media", "thumbnailer", "uploads", "docs", "blog",
	"wiki", "portal", "console", "admin", "backoffice", "crm", "helpdesk",
	"kefu", "chat", "realtime", "sync", "mobile", "ios", "android", "desktop",
	"cli", "sdk", "infra", "terraform", "k8s", "helm", "ops", "dotfiles",
	"homelab", "game", "maps", "geo", "routing", "pricing", "quotes", "orders",
	"shipping", "warehouse", "loyalty", "coupons", "survey", "forms",
}

var projectSuffixes = []string{
	"api", "service", "app", "web", "backend", "frontend", "worker", "pipeline",
	"platform", "tools", "core", "server", "ui", "site", "engine", "bot", "jobs",
	"v2", "next", "monorepo", "infra", "lib",
}

var services = []string{
	"api-gateway", "billing", "auth", "search", "notifications", "payments",
	"inventory", "checkout", "reporting", "ingest", "scheduler", "webhooks",
	"exporter", "ledger", "catalog", "accounts", "mailer", "media", "analytics",
	"sync-worker", "pricing", "orders", "shipping", "fraud-check", "tax",
	"invoices", "sessions", "uploads", "thumbnails", "audit-log", "feature-flags",
	"rate-limiter", "geo", "recommendations", "feed", "chat", "presence",
}

var envs = []string{"staging", "qa", "dev", "preview", "sandbox", "load-test", "canary", "production"}

var hosts = []string{
	"stg-1.internal", "stg-eu.acme.test", "qa.internal", "db-replica-2.internal",
	"bastion.ops.internal", "grafana.example.test", "sentry.example.test",
	"ci.example.test", "registry.internal", "vault.internal", "kafka-1.internal",
	"redis-cache.internal", "pg-main.internal", "minio.internal", "es-logs.internal",
	"preview.acme.test", "build-7.internal", "jump.example.test", "metrics.internal",
	"rabbit.internal", "mq-2.internal", "ldap.internal", "smtp-relay.internal",
}

var ports = []string{"5432", "6379", "8080", "8443", "9092", "9200", "3000", "4000", "5672", "8000", "9090"}

var commands = []string{
	"make ship", "make test", "make lint", "make migrate", "go test ./...",
	"go test -race ./...", "npm run lint", "pnpm e2e", "pnpm test --filter web",
	"docker compose up -d db redis", "kubectl rollout status deploy/api",
	"terraform plan -var-file=staging.tfvars", "just migrate", "uv run pytest -q",
	"cargo nextest run", "make seed", "make e2e-checkout", "task gen",
	"buf generate", "sqlc generate", "npx prisma migrate dev", "poetry run mypy",
	"make docs", "yarn storybook", "go generate ./...", "make bench",
	"helm upgrade --install api ./chart", "ansible-playbook site.yml --check",
	"bazel test //...", "./scripts/reset-db.sh", "make fmt", "pre-commit run -a",
}

var badCommands = []string{
	"npm run deploy", "git push --force", "kubectl apply -f .", "make deploy-all",
	"docker system prune -a", "terraform apply -auto-approve", "go get -u ./...",
	"rm -rf node_modules && npm i", "pip install -r requirements.txt --upgrade",
	"helm delete api", "git rebase -i main", "npm audit fix --force",
}

var libs = []string{
	"sqlc", "pgx", "zap", "slog", "chi", "echo", "gin", "testify", "gomock",
	"zod", "react-query", "vitest", "playwright", "jest", "pydantic", "polars",
	"pandas", "duckdb", "fastapi", "celery", "sqlalchemy", "alembic", "goose",
	"prisma", "drizzle", "tailwind", "vite", "esbuild", "ruff", "black", "mypy",
	"tokio", "serde", "axum", "sqlx", "tracing", "cobra", "viper", "bubbletea",
	"opentelemetry", "prometheus client", "grpc-go", "connect-go", "temporal",
}

var languages = []string{"Go", "TypeScript", "Python", "Rust", "SQL", "Bash", "Kotlin", "Swift"}

var teams = []string{
	"the platform team", "the data team", "the payments team", "QA", "the SRE rotation",
	"the security team", "design", "the mobile team", "support", "the growth team",
	"the infra group", "the API guild", "the on-call engineer", "the release manager",
}

var channels = []string{
	"#deploys", "#api-dev", "#incidents", "#platform", "#data-eng", "#payments",
	"#qa", "#releases", "#infra", "#frontend", "#mobile", "#security", "#oncall",
}

var dashboards = []string{
	"API latency", "error budget", "queue depth", "checkout funnel", "DB connections",
	"cache hit rate", "p99 by route", "ingest lag", "job failures", "Kafka consumer lag",
	"CDN egress", "login success", "payment declines", "search relevance",
}

var codeDirs = []string{
	"internal/billing", "internal/auth", "internal/api", "cmd/server", "pkg/client",
	"src/components", "src/pages", "src/lib", "app/models", "app/services",
	"services/payments", "scripts", "deploy/helm", "migrations", "web/src/hooks",
	"pipelines/train", "pipelines/features", "crates/core", "tests/e2e", "tools/gen",
}

var codeFiles = []string{
	"handler.go", "server.go", "store.go", "client.go", "retry.go", "config.go",
	"Checkout.tsx", "CartDrawer.tsx", "useSession.ts", "api.ts", "schema.ts",
	"models.py", "tasks.py", "train.py", "features.py", "settings.py",
	"deploy.sh", "reset-db.sh", "values.yaml", "001_init.sql", "lib.rs", "main.rs",
}

var codeExts = []string{".go", ".ts", ".tsx", ".py", ".rs", ".sql", ".sh", ".yaml"}

var things = []string{
	"the nightly export", "the migration job", "the webhook retries", "the cache warmer",
	"the search reindex", "the invoice run", "the feature flag rollout", "the load test",
	"the staging refresh", "the schema change", "the canary", "the backfill",
	"the API v2 cutover", "the TLS renewal", "the rate limiter", "the queue consumer",
	"the CSV importer", "the PDF renderer", "the OAuth callback", "the session store",
	"the mobile release", "the pricing rules", "the audit export", "the cron schedule",
}

var adjectives = []string{
	"flaky", "slow", "noisy", "brittle", "expensive", "stale", "racy", "verbose",
	"undocumented", "fragile", "legacy", "half-migrated", "sharded", "read-only",
	"rate-limited", "idempotent", "eventually consistent", "deprecated",
}

var reasons = []string{
	"it skips the migration step",
	"the old path bypasses the audit log",
	"CI caches get poisoned otherwise",
	"the staging database is shared with QA",
	"it once took the checkout page down for twenty minutes",
	"the linter config differs from the editor defaults",
	"reviewers asked for it twice",
	"the vendor rate-limits us per API key",
	"rollbacks are only scripted for this path",
	"the integration suite assumes a clean schema",
	"the mobile app pins the old response shape",
	"on-call cannot see the logs otherwise",
	"the build agents have no outbound network",
	"it keeps diffs small enough to review",
	"it matches how production is configured",
	"secrets are injected only by the wrapper script",
	"the generated code is checked in and must match",
	"the cache keys include the build number",
	"the queue is at-least-once, so handlers must tolerate replays",
	"timestamps are compared in UTC everywhere else",
}

var prefs = []string{
	"short answers with the command first",
	"table-driven tests",
	"small pull requests, one concern each",
	"explanations of why before how",
	"British spelling in user-facing copy",
	"no new dependencies without asking",
	"diffs rather than whole files",
	"plain SQL over ORM query builders",
	"early returns over nested conditionals",
	"comments that explain intent, not mechanics",
	"conventional commit messages",
	"functional components with hooks",
	"type hints on every public function",
	"errors wrapped with context at each layer",
	"structured logs with request IDs",
}

var roles = []string{
	"backend engineer", "staff engineer", "data engineer", "SRE", "frontend developer",
	"mobile developer", "tech lead", "ML engineer", "full-stack developer",
	"engineering manager who still codes", "security engineer", "platform engineer",
}

// hookTemplates make index hooks; {s} is a service, {t} a topic.
var hookTemplates = []string{
	"{t} rules for {s}", "how {s} {t} works here", "where {s} {t} lives",
	"{s} {t} gotchas", "owners and status of {s} {t}", "{s} {t}, what not to do",
	"checklist for {s} {t}", "{t} limits in {s}", "what changed in {s} {t}",
	"{s} {t} in one line", "read before touching {s} {t}", "{t} for {s}, the short version",
}

// formatters pairs each language with the formatter its code is checked with.
var formatters = map[string]string{
	"Go": "gofmt", "TypeScript": "prettier", "Python": "ruff format", "Rust": "rustfmt",
	"SQL": "sqlfluff", "Bash": "shfmt", "Kotlin": "ktlint", "Swift": "swift-format",
}

var headings = []string{
	"Context", "Steps", "Gotchas", "Links", "Details", "Checklist", "Commands",
	"Background", "Decision", "Open questions", "Rollback", "Ownership", "Notes",
}

// Relative dates, in the languages real memory dirs use (DESIGN §8).
var relativeDates = []string{
	"yesterday", "tomorrow", "next week", "last week", "this week", "in 2 weeks",
	"in 4 weeks", "next month", "two days ago", "tomorrow's headline",
	"明天", "下周", "来週", "明日", "내일", "다음 주",
}

var monthNames = []string{
	"Jan", "Feb", "March", "April", "May", "June", "July", "Aug", "Sept", "Oct", "Nov", "Dec",
}

// Shapes of MEMORY.md seen in the wild (DESIGN §8), with weights out of 51.
type indexShape int

const (
	shapeEmDash indexShape = iota // - [Title](file.md) — hook
	shapeHyphen                   // - [Title](file.md) - hook
	shapeColon                    // - [Title](file.md): hook
	shapeComma                    // - [Title](file.md), hook
	shapeTable                    // | `file.md` | hook |
	shapeWiki                     // - [[name]] — hook
	shapeProse                    // sentences that mention the files
)

var indexShapeWeights = []int{39, 3, 3, 1, 2, 2, 1}
