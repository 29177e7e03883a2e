package secrets

import (
	"fmt"
	"github.com/memtui/memtui/internal/testgen"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// fakeTokens returns, for each of the 36 prefix rules, a token built to
// match the rule's regex in gitleaks v8.30.1. None of these is a real key.
func secFakeTokens(g *testgen.Gen) map[string]string {
	return map[string]string{
		"aws-access-token":              "AKIA" + g.S(testgen.Upper2, 16),
		"gcp-api-key":                   "AIza" + g.S(testgen.Alnum+"_-", 35),
		"azure-ad-client-secret":        g.S(testgen.Alnum, 3) + "8Q~" + g.S(testgen.Alnum, 34),
		"digitalocean-pat":              "dop_v1_" + g.S(testgen.HexLow, 64),
		"digitalocean-access-token":     "doo_v1_" + g.S(testgen.HexLow, 64),
		"anthropic-api-key":             "sk-ant-api03-" + g.S(testgen.Alnum+"_-", 93) + "AA",
		"anthropic-admin-api-key":       "sk-ant-admin01-" + g.S(testgen.Alnum+"_-", 93) + "AA",
		"openai-api-key":                "sk-proj-" + g.S(testgen.Alnum, 74) + "T3BlbkFJ" + g.S(testgen.Alnum, 74),
		"huggingface-access-token":      "hf_" + g.S(testgen.Lower, 34),
		"github-pat":                    "ghp_" + g.S(testgen.Alnum, 36),
		"github-fine-grained-pat":       "github_pat_" + g.S(testgen.Alnum+"_", 82),
		"github-app-token":              "ghs_" + g.S(testgen.Alnum, 36),
		"github-oauth":                  "gho_" + g.S(testgen.Alnum, 36),
		"github-refresh-token":          "ghr_" + g.S(testgen.Alnum, 36),
		"gitlab-pat":                    "glpat-" + g.S(testgen.Alnum, 20),
		"gitlab-deploy-token":           "gldt-" + g.S(testgen.Alnum, 20),
		"slack-bot-token":               "xoxb-" + g.S("0123456789", 12) + "-" + g.S("0123456789", 13) + "-" + g.S(testgen.Alnum, 24),
		"slack-user-token":              "xoxp-" + g.S("0123456789", 12) + "-" + g.S("0123456789", 12) + "-" + g.S("0123456789", 12) + "-" + g.S(testgen.HexLow, 32),
		"slack-app-token":               "xapp-1-A" + g.S("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "-" + g.S("0123456789", 13) + "-" + g.S(testgen.HexLow, 64),
		"twilio-api-key":                "SK" + g.S(testgen.HexLow, 32),
		"sendgrid-api-token":            "SG." + g.S(testgen.Alnum, 22) + "." + g.S(testgen.Alnum, 43),
		"npm-access-token":              "npm_" + g.S(testgen.Alnum, 36),
		"pypi-upload-token":             "pypi-AgEIcHlwaS5vcmc" + g.S(testgen.Alnum, 60),
		"databricks-api-token":          "dapi" + g.S(testgen.HexLow, 32),
		"hashicorp-tf-api-token":        g.S("abcdefghijklmnopqrstuvwxyz0123456789", 14) + ".atlasv1." + g.S("abcdefghijklmnopqrstuvwxyz0123456789", 67),
		"pulumi-api-token":              "pul-" + g.S(testgen.HexLow, 40),
		"postman-api-token":             "PMAK-" + g.S(testgen.HexLow, 24) + "-" + g.S(testgen.HexLow, 34),
		"grafana-api-key":               "eyJrIjoi" + g.S(testgen.Alnum, 80),
		"grafana-cloud-api-token":       "glc_" + g.S(testgen.B64, 60),
		"grafana-service-account-token": "glsa_" + g.S(testgen.Alnum, 32) + "_" + g.S(testgen.HexLow, 8),
		"sentry-user-token":             "sntryu_" + g.S(testgen.HexLow, 64),
		"sentry-org-token":              "sntrys_eyJpYXQiO" + g.S(testgen.B64, 40) + "LCJyZWdpb25fdXJs" + g.S(testgen.B64, 40) + "_" + g.S(testgen.B64, 43),
		"stripe-access-token":           "sk_live_" + g.S(testgen.Alnum, 24),
		"shopify-access-token":          "shpat_" + g.S(testgen.HexLow, 32),
		"shopify-shared-secret":         "shpss_" + g.S(testgen.HexLow, 32),
		"private-key":                   secFakePrivateKey(g),
	}
}

func secFakePrivateKey(g *testgen.Gen) string {
	var sb strings.Builder
	sb.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for range 6 {
		sb.WriteString(g.S(testgen.B64, 64) + "\n")
	}
	sb.WriteString("-----END RSA PRIVATE KEY-----")
	return sb.String()
}

// realisticBody is ordinary memory prose: deploy commands, SHAs, UUIDs,
// hashes, base64-looking ids, session ids, paths, links. Nothing in it is a
// secret and nothing may fire.
const secRealisticBody = `---
name: Deploy and release process
description: How the api service ships to staging and production, and what broke last time
type: project
metadata:
  originSessionId: 3f2c9a1e-8b4d-4c2a-9e1f-6a7b8c9d0e1f
  modified: 2026-05-26T10:15:00Z
---

Deploy with ` + "`make ship ENV=staging`" + ` and then ` + "`make ship ENV=prod`" + `; never run
` + "`npm run deploy`" + ` directly, it skips the migration step (see commit 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e).

**Why:** on 2026-05-12 the task queue lost jobs because the SKU table was not migrated.
The fix landed in a4c3f29 and the image digest is sha256:5d41402abc4b2a76b9719d911017c592e8f6c5d41402abc4b2a76b9719d911017.

**How to apply:** before any release, check https://github.com/acme/api/actions and
git@github.com:acme/api.git is reachable; ask @jdoe or mail ops@example.com when it is not.
Request id 7c9e6679-7425-40de-944b-e07fc1f90ae7 shows the failing run; trace id
YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo0NTY3ODk= is base64 of nothing interesting.
The token bucket limiter lives in internal/ratelimit/bucket.go; the API key header is X-Api-Key
and the key itself is in 1Password (vault "Platform"), never in the repo.
Staging DB: postgres://app:${DB_PASSWORD}@staging-db.internal:5432/app and the local one is
postgres://postgres:postgres@localhost:5432/app_dev. Docs: https://docs.example.com/deploy#rollback.
Run ` + "`go test -race ./...`" + ` before pushing; CI job id 1234567890123 is flaky (ASK-4821).
Passwords in .env.example are placeholders: DB_PASSWORD=changeme, API_TOKEN=xxx.
`

func TestSecretRulesExistInGitleaks(t *testing.T) {
	if len(PrefixRuleIDs) != 36 {
		t.Fatalf("want the 36 rules of Claude Code 2.1.88's scanner, have %d", len(PrefixRuleIDs))
	}
	l, err := secLoadGitleaks()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range PrefixRuleIDs {
		r, ok := l.rules[id]
		if !ok {
			t.Errorf("%s: not in gitleaks' default config", id)
			continue
		}
		ra, ok := secRuleAnchors[id]
		if !ok || len(ra.anchors) == 0 {
			t.Errorf("%s: no curated anchor, the prefilter would scan every text with it", id)
		}
		if r.window == secWinWhole {
			t.Errorf("%s: whole-text window", id)
		}
	}
	if Default() != Default() {
		t.Error("Default built twice")
	}
}

// TestSecretRulesMatchTranslate checks our direct TOML load against gitleaks'
// own viper + Translate path: same regex, entropy, secret group, allowlists.
func TestSecretRulesMatchTranslate(t *testing.T) {
	full := secTranslatedDefaultConfig(t)
	l, err := secLoadGitleaks()
	if err != nil {
		t.Fatal(err)
	}
	g, err := secLoadGeneric()
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]secretRule{GenericRuleID: g}
	for id, r := range l.rules {
		mine[id] = r
	}
	for id, r := range mine {
		want := full.Rules[id]
		if r.re.String() != want.Regex.String() || r.entropy != want.Entropy || r.secretGroup != want.SecretGroup || r.desc != want.Description {
			t.Errorf("%s: differs from Translate", id)
		}
		if len(r.allow) != len(want.Allowlists) {
			t.Errorf("%s: %d allowlists, Translate has %d", id, len(r.allow), len(want.Allowlists))
			continue
		}
		for i, a := range r.allow {
			w := want.Allowlists[i]
			if a.RegexTarget != w.RegexTarget || a.MatchCondition != w.MatchCondition || len(a.Regexes) != len(w.Regexes) || len(a.StopWords) != len(w.StopWords) {
				t.Errorf("%s: allowlist %d differs from Translate", id, i)
			}
		}
	}
	if len(l.global) != len(full.Allowlists) {
		t.Errorf("global allowlists: %d, Translate has %d", len(l.global), len(full.Allowlists))
	}
}

// TestSecretAnchorsMatchRegexes guards the prefilter's soundness: each fake
// token matches its rule's regex and contains an anchor of that rule, and a
// case-sensitive anchor is case-sensitive in the regex too (flipping its
// case must make the regex fail), so the prefilter never skips a text the
// regex would match.
func TestSecretAnchorsMatchRegexes(t *testing.T) {
	l, err := secLoadGitleaks()
	if err != nil {
		t.Fatal(err)
	}
	for id, tok := range secFakeTokens(testgen.New(1)) {
		r := l.rules[id]
		text := "x " + tok + " y\n"
		if !r.re.MatchString(text) {
			t.Errorf("%s: fake token does not match the regex: %s", id, tok)
			continue
		}
		m := r.re.FindString(text)
		found := false
		for _, a := range secRuleAnchors[id].anchors {
			if id == PrivateKeyRuleID && a.lit == "-----END" {
				continue // memtui's walk back from an END line; the BEGIN anchor covers the regex
			}
			var in bool
			if a.fold {
				in = strings.Contains(strings.ToLower(m), a.lit)
			} else {
				in = strings.Contains(m, a.lit)
			}
			if !in {
				continue
			}
			found = true
			if a.fold {
				continue
			}
			flipped := strings.Replace(text, a.lit, secFlipCase(a.lit), 1)
			if r.re.MatchString(flipped) {
				t.Errorf("%s: anchor %q is case-sensitive but the regex matches %q", id, a.lit, secFlipCase(a.lit))
			}
		}
		if !found {
			t.Errorf("%s: match %q holds none of the anchors", id, m)
		}
	}
}

func secFlipCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 32
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

// TestSecretRulesFire embeds each fake token in memory prose in several
// positions and expects exactly that rule, at the token's offsets.
func TestSecretRulesFire(t *testing.T) {
	sc := Default()
	layouts := []string{
		"Use the key %s for the staging deploy.\n",
		"%s",
		"export TOKEN=%s\n",
		"- CI secret (do not commit): `%s`\n",
		"```\nTOKEN=\"%s\"\n```\n",
		secRealisticBody + "\nOne more thing: %s\n",
	}
	for id, tok := range secFakeTokens(testgen.New(2)) {
		for li, layout := range layouts {
			text := fmt.Sprintf(layout, tok)
			at := strings.Index(text, tok)
			got := sc.Scan(text)
			var hit *Secret
			for i := range got {
				if got[i].RuleID == id {
					hit = &got[i]
				}
			}
			if hit == nil {
				t.Errorf("%s layout %d: not found; got %+v", id, li, got)
				continue
			}
			if hit.Start < at || hit.End > at+len(tok) || hit.End-hit.Start < len(tok)/2 {
				t.Errorf("%s layout %d: span [%d,%d) outside token [%d,%d)", id, li, hit.Start, hit.End, at, at+len(tok))
			}
			if strings.Contains(hit.Masked, text[hit.Start:hit.End]) || strings.Contains(hit.Masked, tok) {
				t.Errorf("%s: Masked %q reveals the secret", id, hit.Masked)
			}
			if len(got) != 1 {
				t.Errorf("%s layout %d: want one finding, got %+v", id, li, got)
			}
		}
	}
}

// TestSecretParityWithDetector runs gitleaks' own detector, restricted to
// the same 36 rules, over the same texts: our prefilter and windows must
// find exactly what it finds.
func TestSecretParityWithDetector(t *testing.T) {
	det := detect.NewDetector(secPrefixOnlyConfig(secTranslatedDefaultConfig(t)))
	sc := Default()
	g := testgen.New(3)
	var texts []string
	for _, tok := range secFakeTokens(g) {
		texts = append(texts,
			tok,
			"prefix "+tok+" suffix",
			"a"+tok+"b", // glued to words: \b-anchored rules must not fire
			strings.ToUpper(tok),
			strings.ToLower(tok),
			secRealisticBody+tok+"\n"+secRealisticBody,
			tok[:len(tok)-1],
			"key: "+tok+"\nkey2: "+tok+"\n",
		)
	}
	texts = append(texts, secRealisticBody, "", "SK", "Q~", "AKIAIOSFODNN7EXAMPLE is AWS's documented example key.")
	for i, text := range texts {
		var want []string
		for _, f := range det.DetectString(text) {
			want = append(want, f.RuleID+" "+f.Secret)
		}
		var got []string
		for _, s := range sc.Scan(text) {
			switch s.RuleID {
			case URLCredentialsRuleID, AWSSecretKeyRuleID, KeyMaterialRuleID:
				continue // memtui's own rules
			}
			sec := strings.TrimRight(text[s.Start:s.End], " \t\r\n")
			if s.RuleID == PrivateKeyRuleID && !strings.HasSuffix(strings.ToUpper(sec), "KEY-----") {
				continue // an unterminated key, which gitleaks does not find
			}
			got = append(got, s.RuleID+" "+sec)
		}
		for j := range want {
			want[j] = strings.TrimRight(want[j], " \t\r\n")
		}
		// memtui extends a match over the bytes that continue the token
		// (a longer token is masked whole): where ours is gitleaks' match
		// plus such bytes, it is the same finding.
		for j, gs := range got {
			for _, w := range want {
				if rest, ok := strings.CutPrefix(gs, w); ok && strings.Trim(rest, secDotBytes) == "" {
					got[j] = w
				}
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Errorf("text %d (%.60q): gitleaks %q, ours %q", i, text, want, got)
		}
	}
}

// TestSecretParityGeneric does the same for the deep scanner (prefix rules
// plus generic-api-key), whose windows span lines and whose gate skips the
// regex on prose.
func TestSecretParityGeneric(t *testing.T) {
	cfg := secPrefixOnlyConfig(secTranslatedDefaultConfig(t))
	cfg.Rules[GenericRuleID] = secTranslatedDefaultConfig(t).Rules[GenericRuleID]
	for _, k := range cfg.Rules[GenericRuleID].Keywords {
		cfg.Keywords[k] = struct{}{}
	}
	det := detect.NewDetector(cfg)
	deep, err := New(true)
	if err != nil {
		t.Fatal(err)
	}
	g := testgen.New(8)
	fired := 0
	texts := []string{
		secRealisticBody,
		"api_key = \"" + g.S(testgen.Alnum, 24) + "\"\n",
		"export AUTH_TOKEN=" + g.S(testgen.Alnum, 32) + "\n",
		"secret:\n  " + g.S(testgen.Alnum, 20) + "\n",
		"password:  \n\n  " + g.S(testgen.Alnum, 20) + "\n",
		"client_secret => '" + g.S(testgen.Alnum+"-_", 40) + "'\n",
		"The access token expires after an hour; refresh it with the CLI.\n",
		"creds, " + g.S(testgen.Alnum, 18) + ";\n",
		"KEY: " + strings.Repeat("a", 30) + "\n",
		"passwd ?= " + g.S(testgen.Alnum, 16) + "\n",
		"key                      = " + g.S(testgen.Alnum, 16) + "\n",
		"the keyword is far away from it                     : " + g.S(testgen.Alnum, 16) + "\n",
		secRealisticBody + "\nDB_PASSWORD=" + g.S(testgen.Alnum, 20) + "\n",
		// Windows cut mid-line: a base64 value longer than the window, a
		// keyword deep inside a long identifier, allowlisted names, and
		// several assignments on one long line.
		"token = " + g.S("abcdefghijklmnopqrstuvwxyz0123456789+/", 400) + " end\n",
		"token = " + g.S("abcdefghijklmnopqrstuvwxyz0123456789+/", 240) + "\n",
		strings.Repeat("x", 70) + "_api_key = " + g.S(testgen.Alnum, 20) + "\n",
		"public_key = " + g.S(testgen.Alnum, 30) + " and key_id = " + g.S(testgen.Alnum, 30) + "\n",
		"a secret=" + g.S(testgen.Alnum, 20) + strings.Repeat(" then some prose", 30) + " token: " + g.S(testgen.Alnum, 20) + strings.Repeat(" more", 60) + " auth=" + g.S(testgen.Alnum, 20) + "\n",
	}
	for i, text := range texts {
		var want []string
		for _, f := range det.DetectString(text) {
			want = append(want, f.RuleID+" "+f.Secret)
		}
		var got []string
		for _, s := range deep.Scan(text) {
			if s.RuleID != URLCredentialsRuleID && s.RuleID != KeyMaterialRuleID { // memtui's own
				got = append(got, s.RuleID+" "+text[s.Start:s.End])
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Errorf("text %d (%.60q): gitleaks %q, ours %q", i, text, want, got)
		}
		if len(want) > 0 {
			fired++
		}
	}
	if fired < 7 {
		t.Errorf("only %d texts had generic findings; the parity check is too weak", fired)
	}
}

func TestSecretURLCredentials(t *testing.T) {
	sc := Default()
	fire := []struct{ text, secret string }{
		{"DATABASE_URL=postgres://app:Xk9#mQ2vLp7w@db.internal:5432/app", "Xk9#mQ2vLp7w"},
		{"clone with https://bob:9f8a7b6c5d4e3f2a1b0c@github.com/acme/api.git", "9f8a7b6c5d4e3f2a1b0c"},
		{"mongodb+srv://svc:hunter2-prod@cluster0.ab1cd.mongodb.net/db?retryWrites=true", "hunter2-prod"},
		{"cache at redis://:S3cretRed1s@cache.internal:6379/0", "S3cretRed1s"},
		{"(see [the dsn](mysql://root:tr0ub4dor&3@10.0.0.5/app))", "tr0ub4dor&3"},
		{"amqp://worker:p%40ss%2Fw0rd@mq:5672/", "p%40ss%2Fw0rd"},
		{"postgres://u:p@ss@db.internal/app", "p@ss"},
		{"redis://:$ecretP4ss@cache.internal:6379", "$ecretP4ss"},
		// A short or common password is still the password of that
		// database: words are reported; only forms no password is
		// written in are placeholders.
		{"postgres://admin:pass@host", "pass"},
		{"postgres://admin:pass@db.internal:5432/app", "pass"},
		{"mysql://root:changeme@10.0.0.5/app", "changeme"},
		{"redis://:secret@cache.internal:6379", "secret"},
		{"https://deploy:abc@ci.acme.dev/hook", "abc"},
		{"postgres://app:1234@db.internal/app", "1234"},
		{"postgres://app:Zq81LmPq93Rt@host:5432/db", "Zq81LmPq93Rt"},
		{"postgres://app:PASSWORD@db.internal/app", "PASSWORD"},
		{"amqp://svc:password@mq.acme.dev", "password"},
	}
	for _, c := range fire {
		got := sc.Scan(c.text)
		if len(got) != 1 || got[0].RuleID != URLCredentialsRuleID || c.text[got[0].Start:got[0].End] != c.secret {
			t.Errorf("%q: want %q, got %+v", c.text, c.secret, got)
			continue
		}
		if strings.Contains(got[0].Masked, c.secret) {
			t.Errorf("%q: mask %q reveals it", c.text, got[0].Masked)
		}
	}
	quiet := []string{
		"https://github.com/acme/api",
		"git@github.com:acme/api.git",
		"ssh://git@github.com/acme/api.git",
		"mail user@example.com or see https://example.com/u@v",
		"https://www.npmjs.com/package/@scope/pkg",
		"postgres://user:password@localhost/db",
		"postgres://user:pass@db.internal/db",
		"postgres://username:password@db.internal/db",
		"postgres://app:pass@hostname/db",
		"postgres://app:DB_PASSWORD@db.internal/db",
		"postgres://root:root@localhost/db",
		"postgres://user:<password>@db.internal/db",
		"postgres://user:${PASS}@db.internal/db",
		"postgres://user:$DB_PASSWORD@db.internal/db",
		"postgres://user:$db_password@db.internal/db",
		"postgres://user:$(cat /run/secrets/db)@db.internal/db",
		"postgres://user:{{ .Password }}@db.internal/db",
		"postgres://user:****@db.internal/db",
		"postgres://user:xxx@db.internal/db",
		"postgres://user:XXXXXX@db.internal/db",
		"https://user:token@github.com/acme/api",
		"postgres://postgres:postgres@localhost:5432/dev",
		"amqp://guest:guest@localhost:5672/",
		"postgres://USER:PASSWORD@HOST:5432/DB",
		"https://x-access-token:${GITHUB_TOKEN}@github.com/acme/api",
		"https://user:your-token@github.com/x",
		"redis://:%REDIS_PASS%@cache",
		"postgres://app:abc...@db",
		"http://localhost:8080@build",
		"C://Users/me:x@y",
		"const myURL = new URL('https://abc:xyz@example.com');",
		"https://deploy:Zq81LmPq93Rt@ci.example.com/hook",
		"https://svc:Zq81LmPq93Rt@sentry.example.test/x",
		"Windows path C:\\Users\\me and url ftp://ftp.example.com/pub",
	}
	for _, q := range quiet {
		if got := sc.Scan(q); len(got) != 0 {
			t.Errorf("%q: want nothing, got %+v", q, got)
		}
	}
}

func TestSecretQuietOnProse(t *testing.T) {
	texts := []string{
		secRealisticBody,
		"Run tests with -race; never mock the database in tests. The mask task asks for SKUs.\n",
		"git log --oneline shows 7783527 and 4b825dc642cb6eb9a060e54bf8d69288fbee4904 (the empty tree).\n",
		"| id | sha256 |\n|---|---|\n| 1 | e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 |\n",
		"originSessionId: 0b6f1b5e-2a5e-4b8f-9d3a-2f1e4c5d6a7b\nmodified: 2026-05-27T08:00:00Z\n",
		"The AI agent uses the SG.Send helper and the AKIA prefix check in aws.go; disk is ASIA-east.\n",
		"Keys are named like ghp_ (GitHub) and sk-ant-api03- (Anthropic); never paste a whole one.\n",
		"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nhello\n",
		"npm_config_cache is set in CI; hf_hub_download fetches weights; glc_ prefix = Grafana Cloud.\n",
	}
	for _, sc := range []*Scanner{Default()} {
		for _, text := range texts {
			if got := sc.Scan(text); len(got) != 0 {
				for _, s := range got {
					t.Errorf("%s fired on prose: %q", s.RuleID, text[s.Start:s.End])
				}
			}
		}
	}
}

func TestSecretGeneric(t *testing.T) {
	text := "config:\n  api_key = \"a8F3kQ9zL2xV7mN4pR6tW1yB\"\n"
	if got := Default().Scan(text); len(got) != 0 {
		t.Fatalf("default scanner ran the generic rule: %+v", got)
	}
	deep, err := New(true)
	if err != nil {
		t.Fatal(err)
	}
	got := deep.Scan(text)
	if len(got) != 1 || got[0].RuleID != GenericRuleID || text[got[0].Start:got[0].End] != "a8F3kQ9zL2xV7mN4pR6tW1yB" {
		t.Fatalf("deep scanner: %+v", got)
	}
	// A specific rule takes precedence over the generic one on the same span.
	tok := "ghp_" + testgen.New(9).S(testgen.Alnum, 36)
	got = deep.Scan("token = " + tok + "\n")
	if len(got) != 1 || got[0].RuleID != "github-pat" {
		t.Fatalf("want github-pat only, got %+v", got)
	}
	// The value on the next line (YAML style) is still found.
	got = deep.Scan("secret:\n  Zx81kfQ02LmPq93Rt7uV\n")
	if len(got) != 1 || got[0].RuleID != GenericRuleID {
		t.Fatalf("value on the next line: %+v", got)
	}
}

func TestSecretMask(t *testing.T) {
	cases := map[string]string{
		"ghp_0123456789abcdefghijklmnopqrstuvwxyz": "ghp_…(40 chars)",
		"hunter2": "*******",
		"*":       "[masked]",
		"":        "",
		"ключ-секретный-длинный": "ключ…(22 chars)",
	}
	for in, want := range cases {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
	g := testgen.New(4)
	for n := 1; n < 200; n++ {
		for _, cs := range []string{testgen.Alnum, "*", "…(0123456789 chars)", "*[masked]"} {
			s := g.S(cs, n)
			if m := Mask(s); strings.Contains(m, s) {
				t.Errorf("Mask(%q) = %q reveals it", s, m)
			}
		}
	}
	if m := Mask("(10 chars)"); strings.Contains(m, "(10 chars)") {
		t.Errorf("self-describing secret revealed: %q", m)
	}
}

// TestSecretConcurrent shares one scanner between goroutines; run with -race.
func TestSecretConcurrent(t *testing.T) {
	sc, err := New(true)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tok := range secFakeTokens(testgen.New(5)) {
		texts = append(texts, secRealisticBody+"\n"+tok+"\n", "postgres://a:Zq81LmPq93Rt@db/x "+tok)
	}
	want := make([][]Secret, len(texts))
	for i, text := range texts {
		want[i] = sc.Scan(text)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 {
				i := (w*7 + k) % len(texts)
				if got := sc.Scan(texts[i]); !slices.Equal(got, want[i]) {
					errs <- fmt.Sprintf("text %d: %+v != %+v", i, got, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// translatedDefaultConfig is gitleaks' default config built its own way
// (viper + Translate), once per test binary: it costs about a second.
var secTranslated struct {
	once sync.Once
	cfg  config.Config
	err  error
}

func secTranslatedDefaultConfig(tb testing.TB) config.Config {
	secTranslated.once.Do(func() {
		d, err := detect.NewDetectorDefaultConfig()
		if err != nil {
			secTranslated.err = err
			return
		}
		secTranslated.cfg = d.Config
	})
	if secTranslated.err != nil {
		tb.Fatal(secTranslated.err)
	}
	return secTranslated.cfg
}

// prefixOnlyConfig keeps the 36 prefix rules of cfg, as Claude Code does.
func secPrefixOnlyConfig(cfg config.Config) config.Config {
	out := cfg
	out.Rules = map[string]config.Rule{}
	out.Keywords = map[string]struct{}{}
	out.OrderedRules = nil
	for _, id := range PrefixRuleIDs {
		r := cfg.Rules[id]
		out.Rules[id] = r
		out.OrderedRules = append(out.OrderedRules, id)
		for _, k := range r.Keywords {
			out.Keywords[k] = struct{}{}
		}
	}
	return out
}
