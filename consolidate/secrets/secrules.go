package secrets

// The 17 rules Claude Code's secret scanner gained after 2.1.88
// (claude-memory-format.md section 7.2; present in 2.1.261 and 2.1.332).
// Where gitleaks v8.30.1 has a rule for the same token format, memtui uses
// it (under Claude Code's rule ID when gitleaks names it otherwise); the
// others are memtui's own, written from the token formats the vendors
// document, not from Claude Code's regexes:
//
//   - Google OAuth client secrets: "GOCSPX-" and 28 characters of
//     [A-Za-z0-9_-] (the Cloud console's secret format).
//   - Anthropic OAuth tokens: "sk-ant-oat01-" (the access token `claude
//     setup-token` prints, CLAUDE_CODE_OAUTH_TOKEN) and "sk-ant-ort01-" (its
//     refresh token), then a long [A-Za-z0-9_-] run.
//   - OpenAI legacy keys: "sk-" and 48 alphanumerics with "T3BlbkFJ" (base64
//     of "OpenAI") at characters 21-28.
//   - Supabase: secret API keys "sb_secret_…" (Supabase's API-keys guide);
//     personal access tokens "sbp_" (or "sbp_oauth_") and 40 lower-case hex
//     digits (the form the Supabase CLI checks).
//   - GitLab CI/CD job tokens, "glcbt-": the partition form "glcbt-<hex
//     partition>_<20 characters>" and the JWT form "glcbt-eyJ…" that
//     replaces it; gitleaks' gitlab-cicd-job-token knows only the first.
//   - Slack token rotation (docs.slack.dev "Using token rotation",
//     tooling.tokens.rotate): expiring access tokens "xoxe.xoxp-1-…" and
//     "xoxe.xoxb-1-…", refresh tokens "xoxe-1-…"; workflow ("just in time")
//     tokens "xwfp-…" (Slack's token types).
//
// Every rule here extends its match over the bytes that continue the token
// (secretRule.tail), so that a longer variant is still masked whole.

import (
	"fmt"
	"slices"
	"strings"
)

// AddedRuleIDs are the 17 rules of Claude Code's secret scanner that
// 2.1.88's 36 (PrefixRuleIDs) lack, in the order of the facts file.
var AddedRuleIDs = []string{
	"google-oauth-client-secret", "anthropic-oauth-token", "openai-legacy-api-key",
	"supabase-secret-key", "supabase-access-token",
	"gitlab-runner-authentication-token", "gitlab-oauth-app-secret", "gitlab-pipeline-trigger-token",
	"gitlab-kubernetes-agent-token", "gitlab-incoming-mail-token", "gitlab-scim-oauth-token",
	"gitlab-ci-build-token", "gitlab-feed-token", "gitlab-feature-flag-client-token",
	"slack-rotation-token", "slack-workflow-token", "slack-webhook-url",
}

// ScannerRuleIDs are the 53 high-confidence rules of Claude Code 2.1.332's
// secret scanner, every one of which the default scanner runs.
var ScannerRuleIDs = append(append([]string(nil), PrefixRuleIDs...), AddedRuleIDs...)

// secFromGitleaks maps an added rule to the gitleaks v8.30.1 rule that
// detects the same token format; two have another ID there.
var secFromGitleaks = map[string]string{
	"gitlab-runner-authentication-token": "gitlab-runner-authentication-token",
	"gitlab-oauth-app-secret":            "gitlab-oauth-app-secret",
	"gitlab-kubernetes-agent-token":      "gitlab-kubernetes-agent-token",
	"gitlab-incoming-mail-token":         "gitlab-incoming-mail-token",
	"gitlab-feed-token":                  "gitlab-feed-token",
	"gitlab-feature-flag-client-token":   "gitlab-feature-flag-client-token",
	"slack-webhook-url":                  "slack-webhook-url",
	"gitlab-pipeline-trigger-token":      "gitlab-ptt",
	"gitlab-scim-oauth-token":            "gitlab-scim-token",
}

// secOwnRule is an added rule gitleaks lacks, written from the vendor's
// documented token format.
type secOwnRule struct {
	id, desc string
	regex    string
	entropy  float64 // as gitleaks: a match at or under it is no secret
	tail     string  // the bytes that continue the token
}

const (
	secTokenBytes = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
	secDotBytes   = secTokenBytes + "."
	secURLBytes   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)

var secOwnRules = []secOwnRule{
	{"google-oauth-client-secret", "Identified a Google OAuth client secret, which lets anyone act as the OAuth client.",
		`\bGOCSPX-[A-Za-z0-9_-]{28}`, 3, secTokenBytes},
	{"anthropic-oauth-token", "Found an Anthropic OAuth token, which signs in to a Claude subscription.",
		`\bsk-ant-o(?:at|rt)[0-9]{2}-[A-Za-z0-9_-]{40,300}`, 3, secTokenBytes},
	{"openai-legacy-api-key", "Found an OpenAI API Key in the legacy format, posing a risk of unauthorized access to AI services.",
		`\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b`, 3, secTokenBytes},
	{"supabase-secret-key", "Identified a Supabase secret API key, which bypasses row level security.",
		`\bsb_secret_[A-Za-z0-9_-]{20,200}`, 3, secTokenBytes},
	{"supabase-access-token", "Identified a Supabase personal access token, which controls every project of the account.",
		`\bsbp_(?:oauth_)?[a-f0-9]{40}`, 3, secTokenBytes},
	{"gitlab-ci-build-token", "Identified a GitLab CI/CD Job Token, potential access to projects and some APIs while the job runs.",
		`\bglcbt-(?:[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`, 3, secDotBytes},
	{"slack-rotation-token", "Found a Slack rotating access or refresh token, risking access to the workspace.",
		`\bxoxe(?:\.xox[bp])?-[0-9]-[A-Za-z0-9]{40,300}`, 3, secTokenBytes},
	{"slack-workflow-token", "Found a Slack workflow token, which acts as the app's bot while a workflow runs.",
		`\bxwfp-[A-Za-z0-9][A-Za-z0-9-]{19,300}`, 3, secTokenBytes},
}

// secRefines maps a rule to a broader one that finds the same tokens: where
// both match, only the narrower is reported (a legacy OpenAI key matches
// gitleaks' openai-api-key too).
var secRefines = map[string]string{
	"openai-legacy-api-key": "openai-api-key",
}

// secGitleaksIDs are the gitleaks rules the added rules are built from.
func secGitleaksIDs() []string {
	var ids []string
	for _, id := range AddedRuleIDs {
		if g, ok := secFromGitleaks[id]; ok {
			ids = append(ids, g)
		}
	}
	return ids
}

// secAddedRules builds the 17 added rules, in AddedRuleIDs order: from the
// gitleaks rules lr holds, or from secOwnRules.
func secAddedRules(lr *secLoaded) ([]secretRule, error) {
	var out []secretRule
	for _, id := range AddedRuleIDs {
		var r secretRule
		tail := secTokenBytes
		if g, ok := secFromGitleaks[id]; ok {
			r = lr.rules[g]
			if r.re == nil {
				return nil, fmt.Errorf("gitleaks' default config has no rule %q (for %s)", g, id)
			}
			r.id = id
			switch {
			case id == "slack-webhook-url":
				tail = secURLBytes
			case strings.HasPrefix(id, "gitlab-"):
				// GitLab's routable tokens go on past gitleaks' fixed
				// length, with a dotted suffix (glrt-t1_….01abcdefg).
				tail = secDotBytes
			}
		} else {
			i := slices.IndexFunc(secOwnRules, func(o secOwnRule) bool { return o.id == id })
			if i < 0 {
				return nil, fmt.Errorf("secret rule %s: neither gitleaks' nor memtui's own", id)
			}
			o := secOwnRules[i]
			re, err := glCompileRegex(o.regex)
			if err != nil {
				return nil, fmt.Errorf("secret rule %s: %w", id, err)
			}
			r = secretRule{id: id, desc: o.desc, re: re, entropy: o.entropy}
			tail = o.tail
		}
		ra, ok := secRuleAnchors[id]
		if !ok {
			return nil, fmt.Errorf("secret rule %s: no anchor", id)
		}
		r.window = ra.window
		r.tail = secByteSet(tail)
		out = append(out, r)
	}
	return out, nil
}

func secByteSet(s string) *[256]bool {
	var t [256]bool
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return &t
}

// secExtendTail moves end over the bytes that continue the token, then
// back over trailing dots (a token ending a sentence).
func secExtendTail(text string, end int, tail *[256]bool) int {
	e := end
	for e < len(text) && tail[text[e]] {
		e++
	}
	for e > end && text[e-1] == '.' {
		e--
	}
	return e
}
