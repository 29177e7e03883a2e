package corpus

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// gen is a deterministic text source: everything it returns comes from r.
type gen struct {
	r *rand.Rand
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// between returns an int in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *gen) codePath() string {
	if g.chance(0.5) {
		return g.pick(codeDirs) + "/" + g.pick(codeFiles)
	}
	return g.pick(codeDirs) + "/" + g.word() + g.pick(codeExts)
}

// word returns a short identifier-like word.
func (g *gen) word() string {
	w := g.pick(services)
	if i := strings.IndexByte(w, '-'); i > 0 && g.chance(0.5) {
		w = w[:i]
	}
	return strings.ReplaceAll(w, "-", "_")
}

func (g *gen) cmd() string { return "`" + g.pick(commands) + "`" }

func (g *gen) host() string { return g.pick(hosts) }

func (g *gen) url() string {
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("https://grafana.example.test/d/%s/%s", g.hexID(8), slugify(g.pick(dashboards)))
	case 1:
		return fmt.Sprintf("https://wiki.example.test/eng/%s", slugify(g.pick(things)))
	case 2:
		return fmt.Sprintf("https://sentry.example.test/organizations/acme/issues/%d/", g.between(1000, 99999))
	default:
		return fmt.Sprintf("https://ci.example.test/%s/pipelines/%d", g.pick(services), g.between(100, 9999))
	}
}

func (g *gen) hexID(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g *gen) alnum(n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[g.r.IntN(len(chars))]
	}
	return string(b)
}

// uuid returns a random (version 4) UUID from the generator's stream.
func (g *gen) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// sentence returns one statement of fact about the project.
func (g *gen) sentence() string {
	switch g.r.IntN(40) {
	case 0:
		return fmt.Sprintf("Run %s before pushing; %s.", g.cmd(), g.pick(reasons))
	case 1:
		return fmt.Sprintf("The %s service talks to %s on port %s.", g.pick(services), g.host(), g.pick(ports))
	case 2:
		return fmt.Sprintf("%s owns %s; ask in %s before changing its schema.", capitalize(g.pick(teams)), g.pick(services), g.pick(channels))
	case 3:
		return fmt.Sprintf("Use %s for %s, not %s: %s.", g.pick(libs), g.pick(things), g.pick(libs), g.pick(reasons))
	case 4:
		return fmt.Sprintf("Integration tests need a local %s (`docker compose up -d %s`).", g.pick([]string{"Postgres", "Redis", "Kafka", "MinIO", "Elasticsearch", "RabbitMQ"}), g.word())
	case 5:
		return fmt.Sprintf("The %s database is refreshed from an anonymised snapshot every %d days.", g.pick(envs), g.between(2, 14))
	case 6:
		return fmt.Sprintf("`%s` returns %d when %s is %s; clients retry with backoff.", "/"+g.word()+"/"+g.word(), []int{409, 429, 503, 422, 412}[g.r.IntN(5)], g.pick(things), g.pick(adjectives))
	case 7:
		return fmt.Sprintf("%s is %s; treat failures there as noise unless they repeat.", capitalize(g.pick(things)), g.pick(adjectives))
	case 8:
		return fmt.Sprintf("Secrets for %s come from %s, never from `.env` files.", g.pick(envs), g.pick([]string{"Vault", "the CI secret store", "1Password", "SOPS-encrypted files", "the k8s secret"}))
	case 9:
		return fmt.Sprintf("The %s dashboard (%s) is the first place to look when %s misbehaves.", g.pick(dashboards), g.url(), g.pick(services))
	case 10:
		return fmt.Sprintf("Code for %s lives in `%s`.", g.pick(things), g.codePath())
	case 11:
		return fmt.Sprintf("We pin %s to the last minor release; upgrades go through %s.", g.pick(libs), g.pick(teams))
	case 12:
		return fmt.Sprintf("Feature work happens behind the `%s_%s` flag until %s signs off.", g.word(), g.word(), g.pick(teams))
	case 13:
		return fmt.Sprintf("Staging is at %s and needs the VPN profile `%s`.", g.host(), g.pick([]string{"eng", "staging", "ops", "vendor", "eu-west"}))
	case 14:
		return fmt.Sprintf("Migrations are written in %s and applied with %s.", g.pick([]string{"plain SQL", "goose", "alembic", "prisma", "sqlx", "atlas"}), g.cmd())
	case 15:
		return fmt.Sprintf("The user prefers %s.", g.pick(prefs))
	case 16:
		return fmt.Sprintf("Logs for %s ship to %s with a %d-day retention.", g.pick(services), g.host(), g.between(7, 90))
	case 17:
		return fmt.Sprintf("%s takes about %d minutes on CI; run the focused target locally instead.", capitalize(g.pick(things)), g.between(3, 45))
	case 18:
		return fmt.Sprintf("Never run %s on shared environments: %s.", "`"+g.pick(badCommands)+"`", g.pick(reasons))
	case 19:
		lang := g.pick(languages)
		return fmt.Sprintf("%s code is formatted with %s and checked in CI.", lang, formatters[lang])
	case 20:
		return fmt.Sprintf("The %s client retries %d times with jittered backoff, then gives up.", g.pick(services), g.between(2, 8))
	case 21:
		return fmt.Sprintf("Releases are cut from `main` and tagged `v%d.%d.%d`.", g.between(1, 4), g.between(0, 30), g.between(0, 9))
	case 22:
		return fmt.Sprintf("Page %s only for customer-facing outages; everything else goes to %s.", g.pick(teams), g.pick(channels))
	case 23:
		return fmt.Sprintf("The %s queue is %s, so handlers must be idempotent.", g.pick(services), g.pick([]string{"at-least-once", "partitioned by account", "shared with analytics", "FIFO per tenant"}))
	case 24:
		return fmt.Sprintf("Keep %s responses under %d KB; the mobile app parses them on the main thread.", g.pick(services), g.between(16, 512))
	case 25:
		return fmt.Sprintf("Timeouts: %d ms to %s, %d s overall per request.", g.between(100, 2000), g.pick(services), g.between(2, 30))
	case 26:
		return fmt.Sprintf("%s was rewritten in %s; the old version under `%s` is kept only for reference.", capitalize(g.pick(things)), g.pick(languages), g.pick(codeDirs)+"/legacy")
	case 27:
		return fmt.Sprintf("Use the `%s` fixture in tests instead of building %s objects by hand.", g.word()+"Factory", g.word())
	case 28:
		return fmt.Sprintf("Preview environments are created per pull request at `pr-<n>.%s`.", g.pick([]string{"preview.acme.test", "review.internal", "pr.example.test"}))
	case 29:
		return fmt.Sprintf("The %s API is versioned in the path (`/v%d/`); breaking changes need a new version.", g.pick(services), g.between(1, 3))
	case 30:
		return fmt.Sprintf("Load tests run against %s, never %s.", g.pick(envs[:7]), "production")
	case 31:
		return fmt.Sprintf("%s reviews every change to `%s`.", capitalize(g.pick(teams)), g.codePath())
	case 32:
		return fmt.Sprintf("Cron jobs run in UTC; %s fires at %02d:%02d.", g.pick(things), g.between(0, 23), g.between(0, 59))
	case 33:
		return fmt.Sprintf("Error messages shown to users come from `%s`, so copy changes go there.", g.pick([]string{"locales/en.json", "messages.po", "strings.xml", "i18n/errors.ts"}))
	case 34:
		return fmt.Sprintf("The %s build is cached by the lockfile hash; bump it when %s changes.", g.pick([]string{"Docker", "CI", "web", "wheel", "cargo"}), g.pick(libs))
	case 35:
		return fmt.Sprintf("When %s fails with a timeout, check %s before retrying.", g.pick(things), g.pick(dashboards)+" on Grafana")
	case 36:
		return fmt.Sprintf("The %s is %s; %s.", g.pick([]string{"schema registry", "search index", "object store", "read replica", "message bus", "CDN config"}), g.pick(adjectives), g.pick(reasons))
	case 37:
		return fmt.Sprintf("Ask before touching `%s`: it is generated by %s.", g.codePath(), g.pick([]string{"buf", "sqlc", "openapi-generator", "protoc", "the schema tool", "go generate"}))
	case 38:
		return fmt.Sprintf("Benchmarks for %s live next to the code; compare with `benchstat` before claiming a win.", g.pick(services))
	default:
		return fmt.Sprintf("%s has a %s test suite; %s.", capitalize(g.pick(services)), g.pick(adjectives), g.pick(reasons))
	}
}

func (g *gen) why() string {
	switch g.r.IntN(4) {
	case 0:
		return "**Why:** " + capitalize(g.pick(reasons)) + "."
	case 1:
		return fmt.Sprintf("**Why:** %s asked for it after %s went wrong.", capitalize(g.pick(teams)), g.pick(things))
	case 2:
		return fmt.Sprintf("**Why:** %s is %s and %s.", capitalize(g.pick(things)), g.pick(adjectives), g.pick(reasons))
	default:
		return fmt.Sprintf("**Why:** the user said so explicitly; %s.", g.pick(reasons))
	}
}

func (g *gen) howTo() string {
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("**How to apply:** run %s first and mention it in the PR description.", g.cmd())
	case 1:
		return fmt.Sprintf("**How to apply:** whenever a change touches `%s`, follow this before asking for review.", g.codePath())
	case 2:
		return fmt.Sprintf("**How to apply:** check %s and, if in doubt, ask in %s.", g.pick(dashboards), g.pick(channels))
	default:
		return fmt.Sprintf("**How to apply:** prefer %s over %s for anything in %s.", g.cmd(), "`"+g.pick(badCommands)+"`", g.pick(services))
	}
}

func (g *gen) codeBlock() string {
	var b strings.Builder
	switch g.r.IntN(4) {
	case 0:
		b.WriteString("```bash\n")
		for i, n := 0, g.between(1, 4); i < n; i++ {
			b.WriteString(g.pick(commands))
			b.WriteByte('\n')
		}
	case 1:
		fmt.Fprintf(&b, "```go\nctx, cancel := context.WithTimeout(ctx, %d*time.Second)\ndefer cancel()\nif err := %s.%s(ctx, req); err != nil {\n\treturn fmt.Errorf(\"%s: %%w\", err)\n}\n",
			g.between(2, 30), g.word(), capitalize(g.word()), g.word())
	case 2:
		fmt.Fprintf(&b, "```yaml\n%s:\n  host: %s\n  port: %s\n  pool_size: %d\n  timeout: %ds\n", g.word(), g.host(), g.pick(ports), g.between(4, 64), g.between(1, 30))
	default:
		fmt.Fprintf(&b, "```sql\nSELECT id, status, updated_at\nFROM %s\nWHERE status = '%s'\nORDER BY updated_at DESC\nLIMIT %d;\n", g.word()+"s", g.pick([]string{"pending", "failed", "stuck", "retrying"}), g.between(10, 500))
	}
	b.WriteString("```")
	return b.String()
}

func (g *gen) bullets(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- ")
		b.WriteString(g.sentence())
	}
	return b.String()
}

func (g *gen) link() string {
	return fmt.Sprintf("See [%s](%s).", g.pick(dashboards), g.url())
}

// relativeDateSentence plants a relative date, the kind of text the
// relative-date rule exists for.
func (g *gen) relativeDateSentence() string {
	rd := g.pick(relativeDates)
	switch rd {
	case "明天", "下周":
		return fmt.Sprintf("%s上线 %s，发布前先跑 %s。", rd, g.pick(services), g.cmd())
	case "来週", "明日":
		return fmt.Sprintf("%sに %s のメンテナンスがあります。", rd, g.pick(services))
	case "내일", "다음 주":
		return fmt.Sprintf("%s %s 배포 예정입니다.", rd, g.pick(services))
	}
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf("The %s freeze starts %s.", g.pick(services), rd)
	case 1:
		return fmt.Sprintf("%s was moved to %s %s.", capitalize(g.pick(things)), g.pick(envs), rd)
	default:
		return fmt.Sprintf("Follow up with %s about %s %s.", g.pick(teams), g.pick(things), rd)
	}
}

func (g *gen) monthDaySentence() string {
	return fmt.Sprintf("%s is planned for %s %d.", capitalize(g.pick(things)), g.pick(monthNames), g.between(1, 28))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// slugify lowercases s and turns every run of other characters into one
// hyphen, the way Claude Code's stamper slugifies names.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// SanitizePath is Claude Code's sanitizePath for paths of up to 200 UTF-16
// units: every UTF-16 code unit that is not an ASCII letter or digit becomes
// "-" (so a character outside the BMP becomes "--"). Longer paths get a hash
// suffix that this generator never needs.
func SanitizePath(p string) string {
	var b strings.Builder
	for _, c := range p {
		switch {
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'):
			b.WriteRune(c)
		case c > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}
