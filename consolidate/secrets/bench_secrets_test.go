package secrets

import (
	"fmt"
	"github.com/memtui/memtui/internal/testgen"
	"strings"
	"testing"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// Sentences of the kind agents write into memories: commands, paths, SHAs,
// UUIDs, links, dates, the **Why:** / **How to apply:** scaffolding.
var secBenchSentences = []string{
	"Deploy with `make ship ENV=staging`; never run `npm run deploy` directly, it skips migrations.",
	"The flaky test is TestQueueDrain in internal/queue/drain_test.go; rerun it with `go test -race -count=20`.",
	"Commit 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e reverted the cache change; see PR #4821.",
	"The user prefers terse answers and wants diffs, not whole files, when reviewing changes.",
	"Staging lives at https://staging.acme.dev and the dashboards at https://grafana.acme.dev/d/api-latency.",
	"Run `pnpm --filter web build` before `pnpm test`; the test step reads the built assets from dist/.",
	"**Why:** the previous migration locked the orders table for 14 minutes on 2026-03-02.",
	"**How to apply:** batch backfills in chunks of 5,000 rows and run them behind the feature flag.",
	"Request 7c9e6679-7425-40de-944b-e07fc1f90ae7 shows the failure; the trace is in Honeycomb.",
	"The image digest is sha256:5d41402abc4b2a76b9719d911017c592e8f6c5d41402abc4b2a76b9719d911017.",
	"Secrets come from 1Password via `op run --env-file=.env.tpl`; never write them into the repo.",
	"The API key header is X-Api-Key; the token bucket limiter is in internal/ratelimit/bucket.go.",
	"Use `gh pr create --fill` and tag @platform-team; CI takes about 11 minutes on main.",
	"The Postgres DSN comes from DATABASE_URL; locally it is postgres://postgres:postgres@localhost:5432/app_dev.",
	"Prefer table-driven tests; the helper newTestServer(t) spins up the HTTP stack with fakes.",
	"Feature flags are evaluated in pkg/flags; `flags.Enabled(ctx, \"new-billing\")` is the entry point.",
	"Logs ship to Loki; query `{app=\"api\", level=\"error\"} |= \"timeout\"` to find the slow calls.",
	"The mobile app pins API version 2024-11-01; bumping it needs a coordinated release.",
	"Avoid `git push --force` on shared branches; use `--force-with-lease` when a rebase is unavoidable.",
	"Benchmarks: BenchmarkEncode went from 412 ns/op to 188 ns/op after switching to a sync.Pool.",
}

// benchMemoryText returns a memory file of about 1.6 KB: frontmatter plus
// prose. extra is appended to the body (a URL, a secret, or nothing).
func secBenchMemoryText(g *testgen.Gen, i int, extra string) string {
	var sb strings.Builder
	types := []string{"user", "feedback", "project", "reference"}
	fmt.Fprintf(&sb, "---\nname: Memory %d about %s\ndescription: %s\nmetadata:\n  type: %s\n  originSessionId: %s-%s-4%s-8%s-%s\n  modified: 2026-05-%02dT10:%02d:00Z\n---\n\n",
		i, g.S(testgen.Lower, 8), secBenchSentences[i%len(secBenchSentences)], types[i%4],
		g.S(testgen.HexLow, 8), g.S(testgen.HexLow, 4), g.S(testgen.HexLow, 3), g.S(testgen.HexLow, 3), g.S(testgen.HexLow, 12), 1+i%28, i%60)
	for sb.Len() < 1550 {
		sb.WriteString(secBenchSentences[g.IntN(len(secBenchSentences))])
		if g.IntN(3) == 0 {
			sb.WriteString("\n\n")
		} else {
			sb.WriteByte(' ')
		}
	}
	sb.WriteString(extra)
	sb.WriteByte('\n')
	return sb.String()
}

// benchCorpus is n memory texts; one in 100 holds a secret and one in 10 a
// URL with (placeholder) credentials, roughly what real trees hold.
func secBenchCorpus(n int) ([]string, int64) {
	g := testgen.New(42)
	toks := secFakeTokens(g)
	ids := append([]string(nil), PrefixRuleIDs...)
	var texts []string
	var total int64
	for i := range n {
		extra := ""
		switch {
		case i%100 == 7:
			extra = "Temporary key: " + toks[ids[i%len(ids)]]
		case i%10 == 3:
			extra = "Connect with postgres://app:${DB_PASSWORD}@db.internal:5432/app."
		}
		t := secBenchMemoryText(g, i, extra)
		texts = append(texts, t)
		total += int64(len(t))
	}
	return texts, total
}

func BenchmarkSecretScan(b *testing.B) {
	g := testgen.New(1)
	cases := []struct{ name, extra string }{
		{"clean", ""},
		{"url", "Connect with postgres://app:Zq81LmPq93Rt@db.internal:5432/app."},
		{"secret", "Temporary key: " + secFakeTokens(g)["github-pat"]},
		{"private-key", "Deploy key:\n" + secFakeTokens(g)["private-key"]},
	}
	sc := Default()
	for _, c := range cases {
		text := secBenchMemoryText(g, 1, c.extra)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				sc.Scan(text)
			}
		})
	}
}

// BenchmarkSecretThroughput compares our scanner with gitleaks' detector
// over the same ~2,000 memory texts (about 3.3 MB).
func BenchmarkSecretThroughput(b *testing.B) {
	texts, total := secBenchCorpus(2000)
	deep, err := New(true)
	if err != nil {
		b.Fatal(err)
	}
	full := secTranslatedDefaultConfig(b)
	prefixDet := detect.NewDetector(secPrefixOnlyConfig(full))
	defaultDet, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		b.Fatal(err)
	}
	run := func(name string, scan func(string) int) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(total)
			n := 0
			for b.Loop() {
				for _, t := range texts {
					n += scan(t)
				}
			}
			b.ReportMetric(float64(n)/float64(b.N), "findings/op")
		})
	}
	run("memtui", func(t string) int { return len(Default().Scan(t)) })
	run("memtui-deep", func(t string) int { return len(deep.Scan(t)) })
	run("gitleaks-prefix-rules", func(t string) int { return len(prefixDet.DetectString(t)) })
	run("gitleaks-default", func(t string) int { return len(defaultDet.DetectString(t)) })
	// A lower bound for any pass over the bytes: memchr for a byte that never
	// occurs.
	run("baseline-indexbyte", func(t string) int { return strings.IndexByte(t, 0) + 1 })
}

// BenchmarkSecretPrefilter compares our bigram prefilter with an
// Aho-Corasick automaton over the same anchors, used the way gitleaks uses
// it (lower-cased copy of the text, then the automaton).
func BenchmarkSecretPrefilter(b *testing.B) {
	texts, total := secBenchCorpus(2000)
	sc := Default()
	var lits []string
	for _, a := range sc.anchors {
		lits = append(lits, strings.ToLower(a.lit))
	}
	trie := ahocorasick.NewTrieBuilder().AddStrings(lits).Build()
	b.Run("bigram", func(b *testing.B) {
		b.SetBytes(total)
		var buf [8]secHit
		for b.Loop() {
			for _, t := range texts {
				sc.prefilter(t, buf[:0])
			}
		}
	})
	// The key-material pass (a memchr per line) that runs after the
	// prefilter on every text.
	b.Run("keylines", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			for _, t := range texts {
				secKeyLines(t, nil, nil)
			}
		}
	})
	b.Run("aho-corasick", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			for _, t := range texts {
				trie.MatchString(strings.ToLower(t))
			}
		}
	})
}

func BenchmarkNewSecretScanner(b *testing.B) {
	for b.Loop() {
		if _, err := New(false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSecretLoadConfig is the one-off cost of reading and compiling
// the 36 rules from the embedded gitleaks.toml (what the first
// Default call pays), against gitleaks' own viper + Translate
// path over the whole file.
func BenchmarkSecretLoadConfig(b *testing.B) {
	b.Run("memtui", func(b *testing.B) {
		for b.Loop() {
			if _, err := glParse(PrefixRuleIDs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gitleaks-NewDetectorDefaultConfig", func(b *testing.B) {
		for b.Loop() {
			if _, err := detect.NewDetectorDefaultConfig(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
