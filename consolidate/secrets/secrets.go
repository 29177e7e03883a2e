package secrets

// Secret detection for the `secret` check.
//
// The rules are those of Claude Code 2.1.332's secret scanner
// (claude-memory-format.md section 7.2: 53 high-confidence rules, which block
// a write to team memory, mounted through CLAUDE_MEMORY_STORES, or to memory
// synced to the account): the 36 of 2.1.88 and 9 of the 17 added since are
// gitleaks' own (its embedded default gitleaks.toml, two of them under
// another ID there), the other 8 memtui's own, written from the token formats
// the vendors document (secrules.go). On top of them come memtui's own rules
// for credentials embedded in URLs, AWS secret keys and stray key material,
// and gitleaks' generic keyword rule on demand.
//
// Speed is the requirement that shapes this file: lint of 20,000 memory files
// must cost little more than reading them. gitleaks' detector is far from
// that: with its default rule set it scans memory text at about 1 MB/s, and
// even with only the prefix rules at about 70 MB/s, because every call makes
// a lower-cased copy of the text, runs an Aho-Corasick automaton over it and
// builds loggers (BenchmarkSecretThroughput). So the scanner works in two
// stages:
//
//  1. A prefilter: one pass over the bytes that looks up the bigram at every
//     position in a 64 KB table built from each rule's anchor, a literal
//     every match of the rule must contain (ghp_, AKIA, xoxb-, ://), sixteen
//     positions per branch. Anchors are case-sensitive wherever the rule's
//     regex is, so "SK" (Twilio) does not fire on every "task" the way
//     gitleaks' lower-cased keyword "sk" does, and each is keyed on its
//     rarest bigram in memory prose.
//  2. Only on a verified anchor hit, the rule's compiled gitleaks regex runs on
//     the lines around the hit, and gitleaks' per-rule entropy threshold,
//     secret group, global and per-rule allowlists (regexes, stopwords,
//     regex targets, AND/OR conditions) and the "gitleaks:allow" marker are
//     applied as detect.Detector applies them (TestSecretParityWithDetector
//     checks that both find the same secrets).
//
// The config is parsed with go-toml directly rather than through viper and
// config.ViperConfig.Translate as detect.NewDetectorDefaultConfig does: that
// path unmarshals and compiles all 222 rules and builds a 1,400-word stopword
// trie (about 40 ms, ten times our load; BenchmarkSecretLoadConfig), and it
// uses viper's global instance, which is not safe to share. Only the rule
// blocks we keep are parsed and compiled.
//
// gitleaks' Detector is in fact safe for concurrent DetectString calls (its
// keyword trie is read-only while matching, TotalBytes is atomic and findings
// are only appended under a mutex by AddFinding, which DetectString does not
// call), but we do not use it on the hot path; the benchmarks compare against
// it.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/logging"
	glregexp "github.com/zricethezav/gitleaks/v8/regexp"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// Secret is one credential found in a text. It never holds the secret
// itself: Start and End locate it (byte offsets into the scanned text; the
// caller converts them to lines) and Masked is safe to print.
type Secret struct {
	RuleID      string // a gitleaks rule ID, or one of memtui's own (URLCredentialsRuleID, ...)
	Description string // the rule's description
	Start, End  int    // byte offsets of the secret in the text, End exclusive
	// Masked stands in for text[Start:End] on screen. It has as many lines
	// as the secret (a private key's BEGIN and END lines are kept, every
	// line between becomes "[masked]"), so a masked text or diff keeps its
	// line numbers.
	Masked string
	// Short is Masked on one line, for messages.
	Short string
	// redacted stands in for the secret in what memtui writes ("" means
	// Redacted): one Redacted per line of a multi-line secret.
	redacted string
}

// URLCredentialsRuleID is the ID of memtui's own rule for a password or token
// written into a URL's userinfo (postgres://app:s3cr3t@db, https://u:tok@host).
const URLCredentialsRuleID = "url-credentials"

// AWSSecretKeyRuleID is memtui's own rule for an AWS secret access key
// written next to its name (aws_secret_access_key = <40 characters>, the
// "SecretAccessKey" field of `aws iam create-access-key`): the key has no
// prefix of its own, so only its name makes the match unambiguous.
const AWSSecretKeyRuleID = "aws-secret-access-key"

// KeyMaterialRuleID is memtui's own rule for a line that is nothing but a
// long, random base64 run: a line of a private key seen without its BEGIN
// line (one line of a diff, a hunk that starts inside the key).
const KeyMaterialRuleID = "key-material"

// PrivateKeyRuleID is gitleaks' private-key rule. memtui finds its matches
// itself (secpem.go): whole PEM blocks, terminated or not.
const PrivateKeyRuleID = "private-key"

// GenericRuleID is gitleaks' keyword rule (api_key = "..."), used only by a
// scanner built with generic set (the --deep-secrets flag): on prose it is
// noisy and it costs a regex run on every line that says "token" or "key".
const GenericRuleID = "generic-api-key"

// PrefixRuleIDs are the 36 distinctive-prefix rules Claude Code's secret
// scanner had in 2.1.88 (secretScanner.ts). Every ID exists under this name
// in gitleaks v8.30.1; none needed mapping. AddedRuleIDs (secrules.go) are
// the 17 it has gained since; ScannerRuleIDs lists all 53.
var PrefixRuleIDs = []string{
	"aws-access-token", "gcp-api-key", "azure-ad-client-secret",
	"digitalocean-pat", "digitalocean-access-token",
	"anthropic-api-key", "anthropic-admin-api-key", "openai-api-key",
	"huggingface-access-token",
	"github-pat", "github-fine-grained-pat", "github-app-token", "github-oauth", "github-refresh-token",
	"gitlab-pat", "gitlab-deploy-token",
	"slack-bot-token", "slack-user-token", "slack-app-token",
	"twilio-api-key", "sendgrid-api-token", "npm-access-token", "pypi-upload-token",
	"databricks-api-token", "hashicorp-tf-api-token", "pulumi-api-token", "postman-api-token",
	"grafana-api-key", "grafana-cloud-api-token", "grafana-service-account-token",
	"sentry-user-token", "sentry-org-token",
	"stripe-access-token", "shopify-access-token", "shopify-shared-secret",
	"private-key",
}

// secWindow says how much text around an anchor hit the rule's regex must
// see to find every match that contains the anchor.
type secWindow uint8

const (
	// winLine: the anchor's line, including its newline. Right for every
	// rule whose regex cannot cross a newline. Starting at a line start keeps
	// \b, ^ and the rules' "(?:^|[\s...])" prefixes meaning what they mean in
	// the whole text, because the byte before a line start is '\n'.
	secWinLine secWindow = iota
	// winSpan: the generic rule's window, from shortly before the keyword to
	// secSpanFwd after it (see windowFor); it may cross a newline, since the
	// rule may put its value on the next line ("token:\n  abc...").
	secWinSpan
	// winToEnd: from the anchor's line to the end of the text: private keys
	// are blocks that span many lines.
	secWinToEnd
	// winWhole: the whole text; a defensive fallback for a rule without a
	// curated anchor.
	secWinWhole
)

// secGenericGate is a necessary condition for a generic-api-key match whose
// keyword ends at end: the regex continues with [ \t\w.-]{0,20} [\s'"]{0,3},
// an operator (= > : | ? ,) and a value of 10 or more bytes. Prose that
// merely mentions a "key" or a "token" fails it, so the costly regex runs
// on assignments only. Consuming
// the first class greedily is safe: the two classes share only space and tab,
// which the second class also accepts.
func secGenericGate(text string, end int) bool {
	j, lim := end, min(len(text), end+20)
	for j < lim && (secIsWordByte(text[j]) || text[j] == ' ' || text[j] == '\t' || text[j] == '.' || text[j] == '-') {
		j++
	}
	for lim = min(len(text), j+3); j < lim; j++ {
		if c := text[j]; !(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\'' || c == '"') {
			break
		}
	}
	if j >= len(text) {
		return false
	}
	switch text[j] {
	case '=', '>', ':', '|', '?', ',':
	default:
		return false
	}
	// Then at most 3 more operator bytes (":::=") and 5 of [`'"\s=], and a
	// value of at least 10 bytes of [\w.=-] or [a-z0-9+/]: a run of 10
	// such bytes must start within 9 bytes of the operator.
	run := 0
	for p := j + 1; p < len(text) && p < j+1+9+10; p++ {
		if c := text[p]; secIsWordByte(c) || c == '.' || c == '=' || c == '-' || c == '+' || c == '/' {
			if run++; run >= 10 {
				return true
			}
		} else if p >= j+1+9 {
			return false
		} else {
			run = 0
		}
	}
	return false
}

func secIsWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// secSpanFwd bounds how far past its keyword a generic-api-key match usually
// reaches: separators {0,20}+{0,3}+4+{0,5}, the value {10,150}, a
// terminator. (A base64 value may run longer; runRule then widens the window.)
const secSpanFwd = 256

// secAnchorSpec is a literal every match of a rule contains.
type secAnchorSpec struct {
	lit  string
	fold bool // match ASCII case-insensitively (the regex is (?i) there)
}

// secRuleAnchors are curated per rule from its regex in gitleaks v8.30.1
// (TestSecretAnchorsMatchRegexes guards them). They are stricter than the
// rules' lower-cased keywords where the regex is case-sensitive, and they lie
// inside the match, which is what lets us run the regex on a window only.
var secRuleAnchors = map[string]struct {
	anchors []secAnchorSpec
	window  secWindow
}{
	"aws-access-token":                   {secCS("A3T", "AKIA", "ASIA", "ABIA", "ACCA"), secWinLine},
	"gcp-api-key":                        {secCS("AIza"), secWinLine},
	"azure-ad-client-secret":             {secCS("Q~"), secWinLine},
	"digitalocean-pat":                   {secCS("dop_v1_"), secWinLine},
	"digitalocean-access-token":          {secCS("doo_v1_"), secWinLine},
	"anthropic-api-key":                  {secCS("sk-ant-api03"), secWinLine},
	"anthropic-admin-api-key":            {secCS("sk-ant-admin01"), secWinLine},
	"openai-api-key":                     {secCS("T3BlbkFJ"), secWinLine},
	"huggingface-access-token":           {secCS("hf_"), secWinLine},
	"github-pat":                         {secCS("ghp_"), secWinLine},
	"github-fine-grained-pat":            {secCS("github_pat_"), secWinLine},
	"github-app-token":                   {secCS("ghu_", "ghs_"), secWinLine},
	"github-oauth":                       {secCS("gho_"), secWinLine},
	"github-refresh-token":               {secCS("ghr_"), secWinLine},
	"gitlab-pat":                         {secCS("glpat-"), secWinLine},
	"gitlab-deploy-token":                {secCS("gldt-"), secWinLine},
	"slack-bot-token":                    {secCS("xoxb-"), secWinLine},
	"slack-user-token":                   {secCS("xoxp-", "xoxe-"), secWinLine},
	"slack-app-token":                    {secCI("xapp-"), secWinLine},
	"twilio-api-key":                     {secCS("SK"), secWinLine},
	"sendgrid-api-token":                 {secCS("SG."), secWinLine},
	"npm-access-token":                   {secCI("npm_"), secWinLine},
	"pypi-upload-token":                  {secCS("pypi-AgEIcHlwaS5vcmc"), secWinLine},
	"databricks-api-token":               {secCS("dapi"), secWinLine},
	"hashicorp-tf-api-token":             {secCS(".atlasv1."), secWinLine},
	"pulumi-api-token":                   {secCS("pul-"), secWinLine},
	"postman-api-token":                  {secCS("PMAK-"), secWinLine},
	"grafana-api-key":                    {secCI("eyJrIjoi"), secWinLine},
	"grafana-cloud-api-token":            {secCI("glc_"), secWinLine},
	"grafana-service-account-token":      {secCI("glsa_"), secWinLine},
	"sentry-user-token":                  {secCS("sntryu_"), secWinLine},
	"sentry-org-token":                   {secCS("sntrys_eyJpYXQiO"), secWinLine},
	"stripe-access-token":                {secCS("sk_test_", "sk_live_", "sk_prod_", "rk_test_", "rk_live_", "rk_prod_"), secWinLine},
	"shopify-access-token":               {secCS("shpat_"), secWinLine},
	"shopify-shared-secret":              {secCS("shpss_"), secWinLine},
	"google-oauth-client-secret":         {secCS("GOCSPX-"), secWinLine},
	"anthropic-oauth-token":              {secCS("sk-ant-oat", "sk-ant-ort"), secWinLine},
	"openai-legacy-api-key":              {secCS("T3BlbkFJ"), secWinLine},
	"supabase-secret-key":                {secCS("sb_secret_"), secWinLine},
	"supabase-access-token":              {secCS("sbp_"), secWinLine},
	"gitlab-runner-authentication-token": {secCS("glrt-"), secWinLine},
	"gitlab-oauth-app-secret":            {secCS("gloas-"), secWinLine},
	"gitlab-pipeline-trigger-token":      {secCS("glptt-"), secWinLine},
	"gitlab-kubernetes-agent-token":      {secCS("glagent-"), secWinLine},
	"gitlab-incoming-mail-token":         {secCS("glimt-"), secWinLine},
	"gitlab-scim-oauth-token":            {secCS("glsoat-"), secWinLine},
	"gitlab-ci-build-token":              {secCS("glcbt-"), secWinLine},
	"gitlab-feed-token":                  {secCS("glft-"), secWinLine},
	"gitlab-feature-flag-client-token":   {secCS("glffct-"), secWinLine},
	"slack-rotation-token":               {secCS("xoxe.xox", "xoxe-"), secWinLine},
	"slack-workflow-token":               {secCS("xwfp-"), secWinLine},
	"slack-webhook-url":                  {secCS("slack"), secWinLine},
	PrivateKeyRuleID:                     {append(secCI("-----BEGIN"), secCS("-----END")...), secWinToEnd},
	GenericRuleID:                        {secCI("access", "api", "auth", "key", "credential", "creds", "passwd", "password", "secret", "token"), secWinSpan},
}

func secCS(lits ...string) []secAnchorSpec { return secSpecs(false, lits) }
func secCI(lits ...string) []secAnchorSpec { return secSpecs(true, lits) }

func secSpecs(fold bool, lits []string) []secAnchorSpec {
	out := make([]secAnchorSpec, len(lits))
	for i, l := range lits {
		if fold {
			l = strings.ToLower(l)
		}
		out[i] = secAnchorSpec{l, fold}
	}
	return out
}

// secretRule is one compiled rule. Regex and allowlists are gitleaks' own
// types (config.Allowlist does the regex and stopword checks).
type secretRule struct {
	id, desc    string
	re          *glregexp.Regexp // nil for the URL rule, which is hand-coded
	secretGroup int
	entropy     float64
	allow       []*config.Allowlist
	window      secWindow
	// gate, when set, is a cheap necessary condition checked at each anchor
	// hit (end is the offset just past the anchor) before any regex runs.
	gate func(text string, end int) bool
	// hand, for memtui's own rules, examines the anchor hit at [st, en)
	// in place of a regex; anchors are then the rule's own.
	hand    func(text string, st, en int) (Secret, bool)
	anchors []secAnchorSpec
	// tail, when set, says which bytes continue the token: a match is
	// extended over them so that a mask covers the whole token, not
	// only the fixed-length part a regex names (a routable GitLab token
	// is longer than the classic one gitleaks' rule counts).
	tail *[256]bool
}

// secAnchor is a secAnchorSpec placed in the prefilter: off is where,
// within lit, the bigram indexed in tab starts.
type secAnchor struct {
	lit   string
	fold  bool
	off   int
	rules []int32
}

// Scanner finds credentials in memory text. It is immutable after
// construction and safe for concurrent use.
type Scanner struct {
	rules   []secretRule
	global  []*config.Allowlist
	anchors []secAnchor
	// tab maps a bigram (first byte | second byte << 8, the order of a
	// little-endian 16-bit load) to 1 + the index in buckets of the anchors
	// whose indexed bigram it is; 0 for the rest. 64 KB, of which text
	// touches only the few lines its bigrams fall in.
	tab     [65536]uint8
	buckets [][]int32
}

var (
	defaultScanner     *Scanner
	defaultScannerOnce sync.Once
)

// Default returns the shared scanner with the distinctive-prefix
// rules and the URL-credentials rule (no generic rule). It is built once; the
// embedded gitleaks config is known good, so a failure is a programming error
// (an upgrade of gitleaks that renamed a rule) and panics, caught by tests.
func Default() *Scanner {
	defaultScannerOnce.Do(func() {
		s, err := New(false)
		if err != nil {
			panic("consolidate: " + err.Error())
		}
		defaultScanner = s
	})
	return defaultScanner
}

// New builds a scanner from gitleaks' embedded default config:
// the 53 ScannerRuleIDs, memtui's own rules (URL credentials, AWS secret
// keys, key material), and GenericRuleID when generic is true.
func New(generic bool) (*Scanner, error) {
	lr, err := secLoadGitleaks()
	if err != nil {
		return nil, err
	}
	s := &Scanner{global: lr.global}
	for _, id := range PrefixRuleIDs {
		r := lr.rules[id]
		if r.tail == nil {
			// gitleaks' regexes count a fixed number of characters, and a
			// longer token (GitLab's routable ones, a new format) would
			// keep its tail unmasked: every rule's match is extended over
			// the bytes that continue a token, as the added rules' are.
			r.tail = secByteSet(secTokenBytes)
			if strings.HasPrefix(id, "gitlab-") {
				r.tail = secByteSet(secDotBytes)
			}
		}
		s.rules = append(s.rules, r)
	}
	added, err := secAddedRules(lr)
	if err != nil {
		return nil, err
	}
	s.rules = append(s.rules, added...)
	if generic {
		g, err := secLoadGeneric()
		if err != nil {
			return nil, err
		}
		s.rules = append(s.rules, g)
	}
	s.rules = append(s.rules, secretRule{
		id:      URLCredentialsRuleID,
		desc:    "Credentials embedded in a URL (scheme://user:password@host)",
		hand:    func(text string, st, _ int) (Secret, bool) { return secURLCredential(text, st) },
		anchors: secCS("://"),
	}, secretRule{
		id:      AWSSecretKeyRuleID,
		desc:    "AWS secret access key",
		hand:    secAWSSecretKey,
		anchors: secAWSAnchors,
	})

	// Build the prefilter. Anchors shared by several rules are verified once.
	byLit := map[secAnchorSpec]int{}
	add := func(sp secAnchorSpec, rule int32) {
		i, ok := byLit[sp]
		if !ok {
			i = len(s.anchors)
			byLit[sp] = i
			s.anchors = append(s.anchors, secAnchor{lit: sp.lit, fold: sp.fold, off: secPickBigram(sp.lit, sp.fold)})
		}
		s.anchors[i].rules = append(s.anchors[i].rules, rule)
	}
	for i, r := range s.rules {
		if r.hand != nil {
			for _, sp := range r.anchors {
				add(sp, int32(i))
			}
			continue
		}
		for _, sp := range secRuleAnchors[r.id].anchors {
			add(sp, int32(i))
		}
	}
	for ai, a := range s.anchors {
		b0, b1 := a.lit[a.off], a.lit[a.off+1]
		for _, c0 := range secCaseVariants(b0, a.fold) {
			for _, c1 := range secCaseVariants(b1, a.fold) {
				k := uint16(c0) | uint16(c1)<<8
				if s.tab[k] == 0 {
					if len(s.buckets) == 255 {
						return nil, fmt.Errorf("secret scanner: more than 255 anchor bigrams")
					}
					s.buckets = append(s.buckets, nil)
					s.tab[k] = uint8(len(s.buckets))
				}
				b := &s.buckets[s.tab[k]-1]
				*b = append(*b, int32(ai))
			}
		}
	}
	return s, nil
}

func secCaseVariants(c byte, fold bool) []byte {
	if fold && c >= 'a' && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// secPickBigram chooses which two adjacent bytes of an anchor tab keys on:
// the pair least frequent in secBigramSample, a sample of memory prose, so
// that the verify step runs rarely ("hp" for ghp_, not "gh" as in "right";
// "k-" for sk-ant-, not the "03" of every date). Ties go to a rough rarity
// score: capitals (when case matters), digits and most punctuation are
// rarer than lower-case letters, spaces and doubled characters ("--").
func secPickBigram(lit string, fold bool) int {
	score := func(c byte) int {
		switch {
		case c >= 'a' && c <= 'z':
			if strings.IndexByte("jqxzkvbpygwf", c) >= 0 {
				return 2
			}
			return 3
		case c >= 'A' && c <= 'Z':
			if fold {
				return 3
			}
			return 1
		case c >= '0' && c <= '9', c == '_', c == '~':
			return 1
		case c == ' ' || c == '\n' || c == '\t':
			return 4
		}
		return 2
	}
	best, bestScore := 0, math.MaxInt
	for i := 0; i+1 < len(lit); i++ {
		sc := score(lit[i]) + score(lit[i+1])
		if lit[i] == lit[i+1] {
			sc += 2
		}
		sc += 16 * secBigramCount(lit[i], lit[i+1], fold)
		if sc < bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}

// secBigramCount counts the bigram in secBigramSample (in all case
// variants when fold is set).
func secBigramCount(b0, b1 byte, fold bool) int {
	t := secBigramCounts()
	if !fold {
		return int(t[uint16(b0)<<8|uint16(b1)])
	}
	n := 0
	for _, c0 := range secCaseVariants(b0, true) {
		for _, c1 := range secCaseVariants(b1, true) {
			n += int(t[uint16(c0)<<8|uint16(c1)])
		}
	}
	return n
}

// secBigramCounts tallies the sample's bigrams once.
var secBigramCounts = sync.OnceValue(func() *[65536]uint16 {
	var t [65536]uint16
	for i := 0; i+1 < len(secBigramSample); i++ {
		t[uint16(secBigramSample[i])<<8|uint16(secBigramSample[i+1])]++
	}
	return &t
})

// secBigramSample is the kind of text memory files hold: frontmatter,
// advice with its **Why:** and **How to apply:** lines, commands, paths,
// identifiers, dates, hashes and links. Only its bigram counts matter.
const secBigramSample = `---
name: Release checklist and deploy pipeline
description: What to run before a release, which flags matter, and who to ask when CI breaks
type: feedback
metadata:
  originSessionId: 0b6f1b5e-2a5e-4b8f-9d3a-2f1e4c5d6a7b
  modified: 2026-01-03T09:30:00Z
---

The user wants small, reviewable pull requests; split refactors from behaviour changes.
**Why:** the last big PR (#3120, merged 2025-12-03) hid a data migration bug for a week.
**How to apply:** push each step separately, run ` + "`npm run lint && npm test -- --runInBand`" + `,
then ` + "`git push --force-with-lease origin feature/api-pagination`" + ` and open the PR with ` + "`gh pr create --fill`" + `.
Config lives in src/config/app_settings.py and api/handlers/user_profile.go; the map of
feature flags is in flags.yaml. Input and output schemas are in docs/api/openapi.yaml.
Builds happen on GitHub Actions: https://github.com/acme/web/actions/workflows/ci.yml; the
pipeline publishes to https://registry.npmjs.org/ and the preview deploy to https://preview.acme.dev/pr-3120.
Use python3 -m pytest -x -q tests/unit; the snapshot_update helper regenerates fixtures.
Dates: 2026-01-15, 2026-02-01, 2026-03-30, 01/03, 03:00 UTC. Hashes: 4b825dc642cb6eb9a060e54bf8d69288fbee4904,
sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.
- [Deploy steps](deploy_steps.md) — run make deploy, then check the dashboard
- [Testing rules](feedback_testing.md) — never mock the database; use the test container
ASAP fixes go to the hotfix/ branch; ABI changes need a major version; ASCII only in file names.
The upload_to_s3 job uses the tmp_dir of the runner and pull-request labels like needs-review.
Ship with make ship ENV=staging; the header is X-Api-Key; request 7c9e6679-7425-40de-944b-e07fc1f90ae7 failed.
`

// secHit is a verified anchor occurrence for one rule.
type secHit struct {
	rule       int32
	start, end int32
}

// Scan returns the secrets in text, ordered by offset. Texts without any
// anchor cost one pass over their bytes and no allocation.
func (s *Scanner) Scan(text string) []Secret {
	var buf [8]secHit
	hits := s.prefilter(text, buf[:0])
	var out []Secret
	var blocks []secSpan
	if len(hits) > 0 {
		out, blocks = s.confirm(text, hits)
	}
	out = secKeyLines(text, out, blocks)
	return secDedupe(out)
}

// prefilter is the hot loop. It looks up the bigram at every position in
// tab, sixteen positions per branch: OR-ing the lookups of a block and
// testing once keeps the loop free of mispredicted branches, since almost no
// block holds a candidate. (About 2x faster than one bitset test per byte,
// and 6-10x faster than lower-casing the text and running an Aho-Corasick
// automaton over it as gitleaks does; see BenchmarkSecretPrefilter.)
func (s *Scanner) prefilter(text string, hits []secHit) []secHit {
	t := &s.tab
	i := 0
	for ; i+16 < len(text); i += 16 {
		w := text[i : i+17]
		// Two little-endian 64-bit loads (the compiler merges the byte
		// loads): the bigram at offset k is then the low 16 bits of the
		// word shifted by 8k, so each costs a shift and a lookup rather
		// than two byte loads and a merge.
		lo := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		hi := uint64(w[8]) | uint64(w[9])<<8 | uint64(w[10])<<16 | uint64(w[11])<<24 |
			uint64(w[12])<<32 | uint64(w[13])<<40 | uint64(w[14])<<48 | uint64(w[15])<<56
		if t[uint16(lo)]|t[uint16(lo>>8)]|t[uint16(lo>>16)]|t[uint16(lo>>24)]|
			t[uint16(lo>>32)]|t[uint16(lo>>40)]|t[uint16(lo>>48)]|t[uint16(lo>>56|hi<<8)]|
			t[uint16(hi)]|t[uint16(hi>>8)]|t[uint16(hi>>16)]|t[uint16(hi>>24)]|
			t[uint16(hi>>32)]|t[uint16(hi>>40)]|t[uint16(hi>>48)]|t[uint16(hi>>56)|uint16(w[16])<<8] == 0 {
			continue
		}
		for j := 0; j < 16; j++ {
			if b := t[uint16(w[j])|uint16(w[j+1])<<8]; b != 0 {
				hits = s.verify(text, i+j, b, hits)
			}
		}
	}
	for ; i+1 < len(text); i++ {
		if b := t[uint16(text[i])|uint16(text[i+1])<<8]; b != 0 {
			hits = s.verify(text, i, b, hits)
		}
	}
	return hits
}

func (s *Scanner) verify(text string, pos int, b uint8, hits []secHit) []secHit {
	for _, ai := range s.buckets[b-1] {
		a := &s.anchors[ai]
		st := pos - a.off
		en := st + len(a.lit)
		if st < 0 || en > len(text) {
			continue
		}
		if a.fold {
			if !secEqualFoldLower(text[st:en], a.lit) {
				continue
			}
		} else if text[st:en] != a.lit {
			continue
		}
		for _, r := range a.rules {
			if g := s.rules[r].gate; g != nil && !g(text, en) {
				continue
			}
			hits = append(hits, secHit{r, int32(st), int32(en)})
		}
	}
	return hits
}

// secEqualFoldLower reports whether s equals the lower-case lit, ignoring
// ASCII case in s.
func secEqualFoldLower(s, lit string) bool {
	for i := 0; i < len(lit); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

// confirm runs the rules behind the anchor hits on windows around them. It
// also returns the PEM blocks it saw, private or not, whose lines the
// key-material rule leaves to them.
func (s *Scanner) confirm(text string, hits []secHit) (out []Secret, blocks []secSpan) {
	// Group by rule, in text order within a rule (the prefilter emits text
	// order). Stable and allocation-free: usually a handful of hits.
	slices.SortStableFunc(hits, func(a, b secHit) int { return int(a.rule) - int(b.rule) })
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j].rule == hits[i].rule {
			j++
		}
		r := &s.rules[hits[i].rule]
		switch {
		case r.hand != nil:
			for _, h := range hits[i:j] {
				if sec, ok := r.hand(text, int(h.start), int(h.end)); ok {
					sec.RuleID, sec.Description = r.id, r.desc
					if sec.Short == "" {
						sec.Short = sec.Masked
					}
					out = append(out, sec)
				}
			}
		case r.id == PrivateKeyRuleID:
			out, blocks = secPEMBlocks(out, r, text, hits[i:j])
		default:
			// Merge the windows of one rule so that its regex sees each line
			// once, however many anchors the line holds.
			ws, we, cut := -1, -1, false
			for _, h := range hits[i:j] {
				a, b, c := r.windowFor(text, int(h.start), int(h.end))
				if a <= we {
					if b > we {
						we, cut = b, c
					}
					continue
				}
				if ws >= 0 {
					out = s.runRule(out, r, text, ws, we, cut)
				}
				ws, we, cut = a, b, c
			}
			out = s.runRule(out, r, text, ws, we, cut)
		}
		i = j
	}
	return out, blocks
}

// windowFor returns the window [a, b) the rule's regex must see to find any
// match containing the anchor at [st, en). Windows start where a match
// cannot reach back across (a line start, or for the generic rule the start
// of a run of [\w.-] bytes) so that \b, ^ and lookbehind-like prefixes mean
// what they mean in the whole text. They end at a line end, except the
// generic rule's, which may be cut mid-line (cut is then true): its lines
// can be long, and its regex is slow.
func (r *secretRule) windowFor(text string, st, en int) (a, b int, cut bool) {
	switch r.window {
	case secWinWhole:
		return 0, len(text), false
	case secWinToEnd:
		return secLineStart(text, st), len(text), false
	case secWinSpan:
		// The match starts at most 50 bytes before its keyword
		// ([\w.-]{0,50}?) and ends within secSpanFwd after it.
		ls := secLineStart(text, st)
		a = max(ls, st-50)
		for a > ls && secIsGenericPrefixByte(text[a-1]) {
			a--
		}
		lim := min(len(text), en+secSpanFwd)
		b = secLineEnd(text, lim)
		if b > lim+1 {
			return a, lim, true
		}
		return a, b, false
	}
	return secLineStart(text, st), secLineEnd(text, en), false
}

func secIsGenericPrefixByte(c byte) bool { return secIsWordByte(c) || c == '.' || c == '-' }

func secLineStart(text string, i int) int { return strings.LastIndexByte(text[:i], '\n') + 1 }

// secLineEnd returns the offset just past the newline ending the line that
// holds offset i (or len(text)).
func secLineEnd(text string, i int) int {
	if i >= len(text) {
		return len(text)
	}
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(text)
}

// runRule applies one gitleaks rule to text[ws:we] the way detect.Detector
// does (detectRule): trim newlines off the match, take the secret group (or
// the first non-empty group), then entropy, "gitleaks:allow", the global and
// the rule's allowlists.
func (s *Scanner) runRule(out []Secret, r *secretRule, text string, ws, we int, cut bool) []Secret {
	win := text[ws:we]
	matches := r.re.FindAllStringSubmatchIndex(win, -1)
	if n := len(matches); cut && n > 0 && matches[n-1][1] == len(win) {
		// A match runs into the artificial end of the window: a long
		// base64 value ([a-z0-9+/]{11,} is unbounded), or "$" matching
		// there. See the whole line instead.
		we = secLineEnd(text, we)
		win = text[ws:we]
		matches = r.re.FindAllStringSubmatchIndex(win, -1)
	}
	for _, m := range matches {
		m0, m1 := m[0], m[1]
		for m0 < m1 && win[m0] == '\n' {
			m0++
		}
		for m1 > m0 && win[m1-1] == '\n' {
			m1--
		}
		if m0 == m1 {
			continue
		}
		g0, g1 := m0, m1
		if len(m) >= 4 {
			if r.secretGroup > 0 {
				if 2*r.secretGroup+1 < len(m) && m[2*r.secretGroup] >= 0 {
					g0, g1 = m[2*r.secretGroup], m[2*r.secretGroup+1]
				}
			} else {
				for gi := 2; gi+1 < len(m); gi += 2 {
					if m[gi] >= 0 && m[gi+1] > m[gi] {
						g0, g1 = m[gi], m[gi+1]
						break
					}
				}
			}
		}
		secret := win[g0:g1]
		if r.entropy != 0 && secEntropy(secret) <= r.entropy {
			continue
		}
		if len(m) == 2 {
			// Without a capture group the "secret" is the whole match, and
			// a rule like sentry-org-token ends its regex with the delimiter
			// that follows the token. gitleaks keeps it; offsets that a
			// redaction will use must not.
			for g1 > g0+1 && strings.IndexByte(secTrailingDelims, win[g1-1]) >= 0 {
				g1--
			}
		}
		if r.tail != nil {
			g1 = secExtendTail(win, g1, r.tail)
		}
		line := win[secLineStart(win, m0):secLineEndNoNL(win, m1)]
		if strings.Contains(line, "gitleaks:allow") {
			continue
		}
		match := win[m0:m1]
		if secAllowlisted(s.global, secret, match, line) || secAllowlisted(r.allow, secret, match, line) {
			continue
		}
		m := Mask(win[g0:g1])
		out = append(out, Secret{
			RuleID:      r.id,
			Description: r.desc,
			Start:       ws + g0,
			End:         ws + g1,
			Masked:      m,
			Short:       m,
		})
	}
	return out
}

// secTrailingDelims are bytes that end a token in text and belong to no
// token format we detect.
const secTrailingDelims = " \t\r\n\"'`;,.)]}>"

func secLineEndNoNL(text string, i int) int {
	if i > 0 && text[i-1] == '\n' {
		return i - 1
	}
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

// secAllowlisted mirrors gitleaks' checkFindingAllowed for a fragment that has
// no commit and no path: an allowlist that needs either never applies.
func secAllowlisted(als []*config.Allowlist, secret, match, line string) bool {
	for _, a := range als {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regexOK := a.RegexAllowed(target)
		stopOK, _ := a.ContainsStopWord(secret)
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Commits) > 0 || len(a.Paths) > 0 {
				continue
			}
			ok := true
			if len(a.Regexes) > 0 {
				ok = ok && regexOK
			}
			if len(a.StopWords) > 0 {
				ok = ok && stopOK
			}
			if ok {
				return true
			}
		} else if regexOK || stopOK {
			return true
		}
	}
	return false
}

// secEntropy is gitleaks' shannonEntropy (detect/utils.go), including its use of the
// byte length as the denominator, so thresholds mean what they mean there.
func secEntropy(data string) float64 {
	if data == "" {
		return 0
	}
	var ascii [128]int
	var other map[rune]int
	for _, c := range data {
		if c < 128 {
			ascii[c]++
			continue
		}
		if other == nil {
			other = map[rune]int{}
		}
		other[c]++
	}
	inv := 1.0 / float64(len(data))
	e := 0.0
	term := func(n int) {
		f := float64(n) * inv
		e -= f * math.Log2(f)
	}
	for _, n := range ascii {
		if n > 0 {
			term(n)
		}
	}
	for _, n := range other {
		term(n)
	}
	return e
}

// secDedupe orders findings by offset and drops repeats: the same span
// found twice; a key-material, generic or URL-credentials finding
// overlapping a finding of a more specific rule (gitleaks' filter likewise lets
// a specific rule take precedence over the generic one). Only overlapping
// findings are compared, so a text with thousands of secrets costs little
// more than their sort.
func secDedupe(out []Secret) []Secret {
	if len(out) < 2 {
		return out
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		if out[i].End != out[j].End {
			return out[i].End < out[j].End
		}
		return out[i].RuleID < out[j].RuleID
	})
	rank := func(id string) int {
		switch id {
		case KeyMaterialRuleID: // a guess from the line's shape: any rule that names the secret says more
			return 3
		case GenericRuleID:
			return 2
		case URLCredentialsRuleID:
			return 1
		}
		return 0
	}
	// reach[i] is the largest End among out[:i+1]: no finding before i
	// overlaps one that starts at or after it.
	reach := make([]int, len(out))
	for i, a := range out {
		reach[i] = a.End
		if i > 0 && reach[i-1] > a.End {
			reach[i] = reach[i-1]
		}
	}
	drops := func(i, j int) bool { // does out[j] make out[i] go?
		a, b := out[i], out[j]
		if b.Start >= a.End || a.Start >= b.End {
			return false
		}
		return a.RuleID == b.RuleID && a.Start == b.Start && a.End == b.End && j < i || rank(b.RuleID) < rank(a.RuleID) ||
			secRefines[b.RuleID] == a.RuleID
	}
	var keep []Secret
	for i := range out {
		drop := false
		for j := i + 1; j < len(out) && out[j].Start < out[i].End && !drop; j++ {
			drop = drops(i, j)
		}
		for j := i - 1; j >= 0 && reach[j] > out[i].Start && !drop; j-- {
			drop = drops(i, j)
		}
		if !drop {
			keep = append(keep, out[i])
		}
	}
	return keep
}

// secAWSAnchors are the spellings of an AWS secret access key's name the
// AWS rule anchors on, case-sensitively: aws_secret_access_key (the
// credentials file, boto), AWS_SECRET_ACCESS_KEY (the environment),
// --aws-secret-access-key and secret-access-key (flags), SecretAccessKey
// (the CLI's JSON) and secretAccessKey (SDK options) by their "tAccessKey".
// Folded, every spelling's rarest bigram is common in prose: the "ey" of
// every "key", the "-K" of X-Api-Key.
var secAWSAnchors = secCS("secret_access_key", "SECRET_ACCESS_KEY", "secret-access-key", "SECRET-ACCESS-KEY", "tAccessKey")

// secAWSSecretKey examines the name found at [st, en): it reports the value
// assigned to it when that is exactly 40 bytes of base64 (what AWS issues)
// and looks random. The name must not sit inside a longer word (an "aws"
// right before it is fine: AWSSecretAccessKey); between name and value
// come 1 to 8 bytes of blanks, quotes, ':', '=' or '>' (key = value,
// key: value, "Key": "value", key => value, --flag value); the value must
// end there (no 41st base64 byte, no '=' padding: that is some other
// base64). AWS's documented example key (…EXAMPLEKEY) and values of one
// character class or low entropy are placeholders.
func secAWSSecretKey(text string, st, en int) (Secret, bool) {
	if text[st] == 't' { // "tAccessKey": the name starts at "Secret"
		if st -= 5; !secHasFold(text, st, "secre") {
			return Secret{}, false
		}
	}
	if st > 0 {
		if c := text[st-1]; (secIsAlpha(c) || c >= '0' && c <= '9') && !secHasFold(text, st-3, "aws") {
			return Secret{}, false
		}
	}
	j := en
	for j < len(text) && j-en < 8 && strings.IndexByte(" \t\"'`:=>", text[j]) >= 0 {
		j++
	}
	if j == en {
		return Secret{}, false
	}
	v := j
	for j < len(text) && j-v <= 40 && secB64Tab[text[j]] && text[j] != '=' {
		j++
	}
	if j-v != 40 || j < len(text) && (secB64Tab[text[j]] || secIsWordByte(text[j]) || text[j] == '-') {
		return Secret{}, false
	}
	val := text[v:j]
	if strings.Contains(val, "EXAMPLE") {
		return Secret{}, false
	}
	classes := 0
	for _, f := range []func(byte) bool{
		func(c byte) bool { return c >= 'A' && c <= 'Z' },
		func(c byte) bool { return c >= 'a' && c <= 'z' },
		func(c byte) bool { return c >= '0' && c <= '9' || c == '+' || c == '/' },
	} {
		for i := 0; i < len(val); i++ {
			if f(val[i]) {
				classes++
				break
			}
		}
	}
	if classes < 2 || secEntropy(val) < 3.5 {
		return Secret{}, false
	}
	return Secret{Start: v, End: j, Masked: Mask(val)}, true
}

// secURLCredential examines the URL whose "://" starts at p. It reports the
// password of a scheme://user:password@host URL unless it is a placeholder
// (see secIsPlaceholderPassword) or a credential so public that printing it
// gives nothing away: the password equal to the user name, as in
// postgres://postgres:postgres@localhost (the stock docker-compose
// default), or the template pair user:password.
func secURLCredential(text string, p int) (Secret, bool) {
	// The scheme: a letter, then letters, digits, + . -; at least two bytes
	// so that a Windows drive letter is not a scheme.
	b := p
	for b > 0 && secIsSchemeByte(text[b-1]) {
		b--
	}
	for b < p && !secIsAlpha(text[b]) {
		b++
	}
	if p-b < 2 {
		return Secret{}, false
	}
	// The authority ends at the first byte that ends a URL in prose or
	// markdown; the userinfo ends at the last '@' before it (passwords are
	// sometimes written with a raw '@').
	u := p + 3
	end, at := u, -1
	for ; end < len(text) && end-u < 512; end++ {
		c := text[end]
		if c == '@' {
			at = end
			continue
		}
		if secURLStopTab[c] {
			break
		}
	}
	if at < 0 || at+1 >= end || !secIsHostStart(text[at+1]) {
		return Secret{}, false
	}
	colon := strings.IndexByte(text[u:at], ':')
	if colon < 0 {
		return Secret{}, false
	}
	user, pass := text[u:u+colon], text[u+colon+1:at]
	if pass == "" || pass == user || secIsTemplatePair(user, pass) || secIsPlaceholderPassword(user, pass) || secIsPlaceholderHost(text[at+1:end]) {
		return Secret{}, false
	}
	st := u + colon + 1
	return Secret{Start: st, End: at, Masked: Mask(pass)}, true
}

// secIsPlaceholderHost reports documentation hosts (RFC 2606 and 6761:
// example.com, *.example, *.test, *.invalid), which no real service can
// hold, and the fill-in hosts "hostname", "your-host", "yourhost".
// https://abc:xyz@example.com is an example in a doc, not a credential.
// "host" and "server" are not on the list: both are real machine names
// (a docker-compose service is often called "host" or "server").
func secIsPlaceholderHost(hostport string) bool {
	h := strings.ToLower(hostport)
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	h = strings.TrimSuffix(h, ".")
	switch h {
	case "hostname", "your-host", "yourhost", "example":
		return true
	}
	for _, d := range []string{"example.com", "example.org", "example.net"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	for _, tld := range []string{".example", ".test", ".invalid"} {
		if strings.HasSuffix(h, tld) {
			return true
		}
	}
	return false
}

// secURLStop holds the bytes that end a URL's authority in prose or markdown.
// Braces are not among them, so that a templated ${PASS} is seen whole and
// judged a placeholder; nor is '#', which real passwords contain unencoded
// far more often than an authority is followed by a fragment.
const secURLStop = "/?<>\"'`()\\|"

var secURLStopTab = func() (t [256]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true
	}
	t[0x7f] = true
	for i := 0; i < len(secURLStop); i++ {
		t[secURLStop[i]] = true
	}
	return t
}()

func secIsSchemeByte(c byte) bool {
	return secIsAlpha(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

func secIsAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func secIsHostStart(c byte) bool {
	return secIsAlpha(c) || c >= '0' && c <= '9' || c == '[' || c == '_' || c >= 0x80
}

// secIsTemplatePair reports the userinfo of a connection-string template,
// user:password and its spellings (username:pass, user:pwd, user:token, ...): the
// first pair anyone would try, so printing it reveals nothing even when
// some database really uses it.
func secIsTemplatePair(user, pass string) bool {
	switch strings.ToLower(user) {
	case "user", "username", "usr", "login":
	default:
		return false
	}
	switch strings.ToLower(pass) {
	case "password", "passwd", "pass", "pwd", "pw", "secret", "token":
		return true
	}
	return false
}

// secIsPlaceholderPassword decides that a URL's password is not a literal
// value but stands for one. A word is not enough: "pass", "secret",
// "changeme", "admin" or "abc" are at the top of every leaked-password
// list, and a memory saying postgres://admin:pass@db.internal holds the
// password of that database however weak it is. What counts is a form no
// password is written in:
//   - a bracketed or templated value: <password>, [password], {password},
//     ${PASS}, $PASS, $db_pass, {{ .pass }}, %PASS%, $(cat file);
//   - one character repeated (****, xxxx) or an elision (abc..., a…z);
//   - an environment variable's name, ALL_CAPS with an underscore
//     (DB_PASSWORD), or ALL_CAPS under an ALL_CAPS user (USER:PASSWORD);
//   - your-password, your_token: "fill this in" phrasing;
//   - a number of up to five digits after a user that is a host name
//     (localhost:8080@...): a host and port before an '@', not a password.
func secIsPlaceholderPassword(user, p string) bool {
	l := strings.ToLower(p)
	if n := len(p); n >= 2 && (p[0] == '<' && p[n-1] == '>' || p[0] == '[' && p[n-1] == ']' || p[0] == '{' && p[n-1] == '}') {
		return true
	}
	if secIsVarRef(p) || p[0] == '%' && strings.Count(p, "%") >= 2 && !secIsPercentEncoded(p) {
		return true
	}
	if strings.Contains(p, "...") || strings.Contains(p, "…") {
		return true
	}
	if strings.Count(p, p[:1]) == len(p) {
		return true
	}
	if secIsCapsName(p) && (strings.Contains(p, "_") || secIsCapsName(user)) {
		return true
	}
	digits := len(p) <= 5
	for i := 0; i < len(p) && digits; i++ {
		digits = p[i] >= '0' && p[i] <= '9'
	}
	if digits && (strings.Contains(user, ".") || strings.EqualFold(user, "localhost")) {
		return true
	}
	if rest, ok := strings.CutPrefix(l, "your"); ok {
		switch strings.TrimLeft(rest, "-_") {
		case "password", "passwd", "pass", "pw", "pwd", "secret", "token", "key", "apikey", "api_key", "api-key", "apitoken", "api-token", "api_token":
			return true
		}
	}
	return false
}

// secIsCapsName reports an ALL_CAPS identifier: A-Z and '_', at least one
// letter.
func secIsCapsName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
		letter = letter || c != '_'
	}
	return letter
}

// secIsVarRef reports a shell or template variable: ${NAME}, $(cmd),
// $NAME or $name_with_underscores, but not a password that merely starts
// with a dollar ("$ecretP4ss").
func secIsVarRef(p string) bool {
	if len(p) < 2 || p[0] != '$' {
		return false
	}
	if p[1] == '{' || p[1] == '(' {
		return true
	}
	upper, lower := true, true
	for i := 1; i < len(p); i++ {
		c := p[i]
		upper = upper && (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')
		lower = lower && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')
	}
	return upper || lower && strings.Contains(p, "_")
}

// secIsPercentEncoded reports whether every '%' in p starts a %XX escape (a
// real, URL-encoded password) rather than a %VAR% template.
func secIsPercentEncoded(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == '%' {
			if i+2 >= len(p) || !secIsHex(p[i+1]) || !secIsHex(p[i+2]) {
				return false
			}
		}
	}
	return true
}

func secIsHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// Mask returns a printable stand-in for a secret that never reveals it: the
// first four characters, an ellipsis and the length for secrets of 16
// characters or more (enough to recognise which key it is: "ghp_…(40
// chars)"), and stars for shorter ones, whose every character matters.
func Mask(secret string) string {
	n := utf8.RuneCountInString(secret)
	if n == 0 {
		return ""
	}
	var cands []string
	if n >= 16 {
		head := secret
		for i := range secret {
			if utf8.RuneCountInString(secret[:i]) == 4 {
				head = secret[:i]
				break
			}
		}
		cands = append(cands, fmt.Sprintf("%s…(%d chars)", head, n))
	}
	cands = append(cands, strings.Repeat("*", n), "[masked]")
	for _, c := range cands {
		if !strings.Contains(c, secret) {
			return c
		}
	}
	return "[masked]" // unreachable: secret cannot be both all stars and inside "[masked]"
}

// secLoaded holds the rules parsed from gitleaks' embedded config, shared by
// every scanner (compiled regexes and allowlists are read-only).
type secLoaded struct {
	rules  map[string]secretRule
	global []*config.Allowlist
}

var (
	secLoadOnce   sync.Once
	secLoadResult *secLoaded
	secLoadErr    error

	secGenericOnce sync.Once
	secGenericRule secretRule
	secGenericErr  error
)

func secLoadGitleaks() (*secLoaded, error) {
	secLoadOnce.Do(func() {
		// gitleaks logs through a package-level zerolog logger to stderr;
		// nothing of it belongs in memtui's output.
		logging.Logger = zerolog.Nop()
		secLoadResult, secLoadErr = glParse(append(append([]string(nil), PrefixRuleIDs...), secGitleaksIDs()...))
	})
	return secLoadResult, secLoadErr
}

func secLoadGeneric() (secretRule, error) {
	secGenericOnce.Do(func() {
		var l *secLoaded
		if l, secGenericErr = glParse([]string{GenericRuleID}); secGenericErr == nil {
			secGenericRule = l.rules[GenericRuleID]
			secGenericRule.gate = secGenericGate
		}
	})
	return secGenericRule, secGenericErr
}

// The TOML shapes of gitleaks.toml that we read (config.ViperConfig has the
// same fields but unexported types, so it cannot be built outside viper).
type glTomlAllowlist struct {
	Description string   `toml:"description"`
	Condition   string   `toml:"condition"`
	Commits     []string `toml:"commits"`
	Paths       []string `toml:"paths"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	TargetRules []string `toml:"targetRules"`
}

type glTomlRule struct {
	ID          string             `toml:"id"`
	Description string             `toml:"description"`
	Path        string             `toml:"path"`
	Regex       string             `toml:"regex"`
	SecretGroup int                `toml:"secretGroup"`
	Entropy     float64            `toml:"entropy"`
	Keywords    []string           `toml:"keywords"`
	AllowList   *glTomlAllowlist   `toml:"allowlist"`
	Allowlists  []*glTomlAllowlist `toml:"allowlists"`
	Required    []struct {
		ID string `toml:"id"`
	} `toml:"required"`
}

type glTomlConfig struct {
	AllowList  *glTomlAllowlist   `toml:"allowlist"`
	Allowlists []*glTomlAllowlist `toml:"allowlists"`
	Rules      []glTomlRule       `toml:"rules"`
}

// glParse reads the header (global allowlists) and the rule blocks
// named by ids out of config.DefaultConfig. The file is generated, one
// "[[rules]]" line per rule with "id = ..." right after it, so splitting on
// that line finds each rule's block (its [[rules.allowlists]] included)
// without parsing the 221 others.
func glParse(ids []string) (*secLoaded, error) {
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	const sep = "\n[[rules]]\n"
	parts := strings.Split(config.DefaultConfig, sep)
	var sb strings.Builder
	sb.WriteString(parts[0])
	for _, blk := range parts[1:] {
		id := blk
		if i := strings.IndexByte(id, '\n'); i >= 0 {
			id = id[:i]
		}
		id = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(id), "id ="))
		if want[strings.Trim(id, `"'`)] {
			sb.WriteString(sep)
			sb.WriteString(blk)
		}
	}
	var tc glTomlConfig
	if err := toml.Unmarshal([]byte(sb.String()), &tc); err != nil {
		return nil, fmt.Errorf("parsing gitleaks' default config: %w", err)
	}

	l := &secLoaded{rules: map[string]secretRule{}}
	targeted := map[string][]*config.Allowlist{}
	globals := tc.Allowlists
	if tc.AllowList != nil {
		globals = append(globals, tc.AllowList)
	}
	for _, ta := range globals {
		a, err := glBuildAllowlist(ta)
		if err != nil {
			return nil, fmt.Errorf("gitleaks global allowlist: %w", err)
		}
		if len(ta.TargetRules) == 0 {
			l.global = append(l.global, a)
		}
		for _, id := range ta.TargetRules {
			targeted[id] = append(targeted[id], a)
		}
	}
	for _, tr := range tc.Rules {
		r, err := glBuildRule(tr)
		if err != nil {
			return nil, err
		}
		r.allow = append(r.allow, targeted[tr.ID]...)
		l.rules[tr.ID] = r
	}
	for _, id := range ids {
		if _, ok := l.rules[id]; !ok {
			return nil, fmt.Errorf("gitleaks' default config has no rule %q", id)
		}
	}
	return l, nil
}

func glBuildRule(tr glTomlRule) (secretRule, error) {
	// A path-scoped rule never matches a fragment without a path, and a
	// composite rule needs gitleaks' multi-part logic: neither is among the
	// rules we keep, and we refuse rather than silently differ.
	if tr.Path != "" || len(tr.Required) > 0 || tr.Regex == "" {
		return secretRule{}, fmt.Errorf("gitleaks rule %s: path-scoped, composite or regex-less rules are not supported", tr.ID)
	}
	re, err := glCompileRegex(tr.Regex)
	if err != nil {
		return secretRule{}, fmt.Errorf("gitleaks rule %s: %w", tr.ID, err)
	}
	if tr.SecretGroup > re.NumSubexp() {
		return secretRule{}, fmt.Errorf("gitleaks rule %s: secret group %d out of range", tr.ID, tr.SecretGroup)
	}
	r := secretRule{
		id:          tr.ID,
		desc:        tr.Description,
		re:          re,
		secretGroup: tr.SecretGroup,
		entropy:     tr.Entropy,
		window:      secWinWhole,
	}
	if ra, ok := secRuleAnchors[tr.ID]; ok {
		r.window = ra.window
	}
	als := tr.Allowlists
	if tr.AllowList != nil {
		als = append(als, tr.AllowList)
	}
	for _, ta := range als {
		a, err := glBuildAllowlist(ta)
		if err != nil {
			return secretRule{}, fmt.Errorf("gitleaks rule %s: %w", tr.ID, err)
		}
		r.allow = append(r.allow, a)
	}
	return r, nil
}

func glBuildAllowlist(ta *glTomlAllowlist) (*config.Allowlist, error) {
	a := &config.Allowlist{
		Description: ta.Description,
		Commits:     ta.Commits,
		RegexTarget: ta.RegexTarget,
		StopWords:   ta.StopWords,
	}
	switch strings.ToUpper(ta.Condition) {
	case "AND", "&&":
		a.MatchCondition = config.AllowlistMatchAnd
	case "", "OR", "||":
	default:
		return nil, fmt.Errorf("unknown allowlist condition %q", ta.Condition)
	}
	if a.RegexTarget == "secret" {
		a.RegexTarget = ""
	}
	for _, p := range ta.Paths {
		re, err := glCompileRegex(p)
		if err != nil {
			return nil, err
		}
		a.Paths = append(a.Paths, re)
	}
	for _, p := range ta.Regexes {
		re, err := glCompileRegex(p)
		if err != nil {
			return nil, err
		}
		a.Regexes = append(a.Regexes, re)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}

// glCompileRegex compiles with gitleaks' regexp package (the standard library
// by default, RE2 under the gore2regex build tag), turning its panic into an
// error.
func glCompileRegex(expr string) (re *glregexp.Regexp, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("bad regex %q: %v", expr, p)
		}
	}()
	return glregexp.MustCompile(expr), nil
}

// Redacted is the mark that replaces a secret in anything memtui writes.
const Redacted = model.Redacted

// Redact returns text with every secret the scanner finds replaced by
// Redacted, and how many there were. Proposals, the external proposer's
// input and anything memtui writes go through it.
func (s *Scanner) Redact(text string) (string, int) {
	return s.replaceSecrets(text, Secret.Redaction)
}

// Redaction is what replaces the secret in what memtui writes: Redacted,
// once per line of a multi-line secret (so line numbers stay put).
func (sec Secret) Redaction() string {
	if sec.redacted != "" {
		return sec.redacted
	}
	return Redacted
}

// MaskSecrets returns text with every secret replaced by its mask, for
// display: a secret is never printed whole.
func (s *Scanner) MaskSecrets(text string) string {
	out, _ := s.replaceSecrets(text, func(sec Secret) string { return sec.Masked })
	return out
}

func (s *Scanner) replaceSecrets(text string, with func(Secret) string) (string, int) {
	if text == "" {
		return text, 0
	}
	secrets := s.Scan(text)
	if len(secrets) == 0 {
		return text, 0
	}
	// Scan reports secrets in order and without overlap; sorting keeps
	// that true whatever a rule adds.
	sort.SliceStable(secrets, func(i, j int) bool { return secrets[i].Start < secrets[j].Start })
	var b strings.Builder
	last := 0
	for _, sec := range secrets {
		if sec.Start < last {
			continue // overlapping: the first one wins
		}
		b.WriteString(text[last:sec.Start])
		b.WriteString(with(sec))
		last = sec.End
	}
	b.WriteString(text[last:])
	return b.String(), len(secrets)
}

// Clip shortens s to at most n characters for a message (memindex.Clip's
// cut and ellipsis) after masking its secrets with the default scanner: a
// cut that fell inside a token first would leave part of it, which no
// later masking could recognise. Every message that quotes a memory's
// text shortens it with this.
func Clip(s string, n int) string {
	return memindex.Clip(Default().MaskSecrets(s), n)
}
