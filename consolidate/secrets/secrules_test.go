package secrets

import (
	"fmt"
	"github.com/memtui/memtui/internal/testgen"
	"slices"
	"strings"
	"testing"
)

// secAddedTokens returns, for each of the 17 added rules, synthetic tokens
// in the vendor's documented format (none is a real credential; they are
// built at run time so the source holds none whole). The first of each is
// the plain form; others are variants the rule must also mask whole.
func secAddedTokens(g *testgen.Gen) map[string][]string {
	digits := "0123456789"
	tok := testgen.Alnum + "_-"
	jwt := "eyJ" + g.S(tok, 40) + "." + g.S(tok, 60) + "." + g.S(tok, 43)
	return map[string][]string{
		"google-oauth-client-secret": {"GOCSPX-" + g.S(tok, 28),
			"GOCSPX-" + g.S(tok, 36)}, // longer than documented: masked whole
		"anthropic-oauth-token": {"sk-ant-oat01-" + g.S(tok, 93) + "AA", "sk-ant-ort01-" + g.S(tok, 93) + "AA",
			"sk-ant-oat02-" + g.S(tok, 60)},
		"openai-legacy-api-key": {"sk-" + g.S(testgen.Alnum, 20) + "T3BlbkFJ" + g.S(testgen.Alnum, 20)},
		"supabase-secret-key":   {"sb_secret_" + g.S(testgen.Alnum, 22) + "_" + g.S(testgen.Alnum, 8), "sb_secret_" + g.S(tok, 41)},
		"supabase-access-token": {"sbp_" + g.S(testgen.HexLow, 40), "sbp_oauth_" + g.S(testgen.HexLow, 40)},
		"gitlab-runner-authentication-token": {"glrt-" + g.S(tok, 20),
			// The routable form: longer, with a dotted suffix.
			"glrt-t1_" + g.S(tok, 27) + "." + g.S(testgen.Lower+digits, 2) + g.S(testgen.Lower+digits, 7)},
		"gitlab-oauth-app-secret":          {"gloas-" + g.S(tok, 64)},
		"gitlab-pipeline-trigger-token":    {"glptt-" + g.S(testgen.HexLow, 40)},
		"gitlab-kubernetes-agent-token":    {"glagent-" + g.S(tok, 50)},
		"gitlab-incoming-mail-token":       {"glimt-" + g.S(tok, 25)},
		"gitlab-scim-oauth-token":          {"glsoat-" + g.S(tok, 20)},
		"gitlab-ci-build-token":            {"glcbt-64_" + g.S(testgen.Alnum, 20), "glcbt-" + jwt},
		"gitlab-feed-token":                {"glft-" + g.S(tok, 20)},
		"gitlab-feature-flag-client-token": {"glffct-" + g.S(tok, 20)},
		"slack-rotation-token": {"xoxe.xoxp-1-" + g.S(testgen.Alnum, 163), "xoxe.xoxb-1-" + g.S(testgen.Alnum, 163),
			"xoxe-1-" + g.S(testgen.Alnum, 146)},
		"slack-workflow-token": {"xwfp-" + g.S(digits, 13) + "-" + g.S(digits, 13) + "-" + g.S(testgen.Alnum, 24)},
		"slack-webhook-url": {"https://hooks.slack.com/services/T" + g.S(testgen.Upper2, 10) + "/B" + g.S(testgen.Upper2, 10) + "/" + g.S(testgen.Alnum, 24),
			// Longer than gitleaks' 56-byte cap: still masked whole.
			"https://hooks.slack.com/workflows/T" + g.S(testgen.Upper2, 10) + "/A" + g.S(testgen.Upper2, 10) + "/" + g.S(digits, 18) + "/" + g.S(testgen.Alnum, 24)},
	}
}

// TestSecretScannerHasClaudeCodesRules: the default scanner runs the 53
// rules of Claude Code 2.1.332's scanner, the 36 of 2.1.88 plus the 17
// listed in claude-memory-format.md section 7.2; each added one comes from
// gitleaks where gitleaks has the format, else is memtui's own.
func TestSecretScannerHasClaudeCodesRules(t *testing.T) {
	doc := "google-oauth-client-secret, anthropic-oauth-token, openai-legacy-api-key, supabase-secret-key, " +
		"supabase-access-token, gitlab-runner-authentication-token, gitlab-oauth-app-secret, gitlab-pipeline-trigger-token, gitlab-kubernetes-agent-token, " +
		"gitlab-incoming-mail-token, gitlab-scim-oauth-token, gitlab-ci-build-token, gitlab-feed-token, gitlab-feature-flag-client-token, slack-rotation-token, " +
		"slack-workflow-token, slack-webhook-url"
	if got := strings.Join(AddedRuleIDs, ", "); got != doc {
		t.Errorf("AddedRuleIDs = %s\nwant the facts file's list %s", got, doc)
	}
	if len(ScannerRuleIDs) != 53 {
		t.Errorf("%d rules, want 53", len(ScannerRuleIDs))
	}
	seen := map[string]bool{}
	for _, id := range ScannerRuleIDs {
		if seen[id] {
			t.Errorf("%s twice", id)
		}
		seen[id] = true
	}
	sc := Default()
	have := map[string]bool{}
	for _, r := range sc.rules {
		have[r.id] = true
		if r.id != PrivateKeyRuleID && r.hand == nil && r.window == secWinWhole && r.id != GenericRuleID {
			t.Errorf("%s: whole-text window", r.id)
		}
	}
	for _, id := range ScannerRuleIDs {
		if !have[id] {
			t.Errorf("the default scanner lacks %s", id)
		}
	}
	full := secTranslatedDefaultConfig(t)
	for _, id := range AddedRuleIDs {
		_, inGitleaks := full.Rules[id]
		g, mapped := secFromGitleaks[id]
		own := slices.ContainsFunc(secOwnRules, func(o secOwnRule) bool { return o.id == id })
		switch {
		case mapped && own, !mapped && !own:
			t.Errorf("%s: gitleaks-mapped %v, own %v; want exactly one", id, mapped, own)
		case mapped:
			if _, ok := full.Rules[g]; !ok {
				t.Errorf("%s: gitleaks v8.30.1 has no rule %s", id, g)
			}
		case inGitleaks:
			t.Errorf("%s: gitleaks has this rule; use it", id)
		}
	}
}

// TestSecretAddedRulesFire embeds each synthetic token in memory prose and
// expects exactly its rule, spanning exactly the token (so a mask covers
// all of it, a longer variant included), with a mask that reveals none of
// it; the anchors are sound (each token holds one, and a case-sensitive
// anchor flipped stops the rule).
func TestSecretAddedRulesFire(t *testing.T) {
	sc := Default()
	layouts := []string{
		"Use the key %s for the staging deploy.\n",
		"%s",
		"export TOKEN=%s\n",
		"- CI secret (do not commit): `%s`\n",
		"```\nTOKEN=\"%s\"\n```\n",
		"It was %s.\n",
		secRealisticBody + "\nOne more thing: %s\n",
	}
	tokens := secAddedTokens(testgen.New(11))
	for _, id := range AddedRuleIDs {
		if len(tokens[id]) == 0 {
			t.Errorf("%s: no synthetic token", id)
		}
		for ti, tok := range tokens[id] {
			for li, layout := range layouts {
				text := fmt.Sprintf(layout, tok)
				at := strings.Index(text, tok)
				got := sc.Scan(text)
				if len(got) != 1 || got[0].RuleID != id {
					t.Errorf("%s token %d layout %d: want one %s finding, got %+v", id, ti, li, id, got)
					continue
				}
				if got[0].Start != at || got[0].End != at+len(tok) {
					t.Errorf("%s token %d layout %d: span %q, want the whole token %q", id, ti, li, text[got[0].Start:got[0].End], tok)
				}
				masked := sc.MaskSecrets(text)
				if strings.Contains(masked, tok[len(tok)-8:]) || strings.Contains(got[0].Masked, tok[4:]) || strings.Contains(got[0].Short, tok[4:]) {
					t.Errorf("%s token %d: the mask reveals it: %q", id, ti, masked)
				}
				if red, n := sc.Redact(text); n != 1 || strings.Contains(red, tok[len(tok)-8:]) {
					t.Errorf("%s token %d: redaction %q (%d)", id, ti, red, n)
				}
			}
			// Anchor soundness.
			var hit bool
			for _, a := range secRuleAnchors[id].anchors {
				if !strings.Contains(tok, a.lit) {
					continue
				}
				hit = true
				flipped := strings.Replace("x "+tok+" y", a.lit, secFlipCase(a.lit), 1)
				for _, s := range sc.Scan(flipped) {
					if s.RuleID == id {
						t.Errorf("%s: anchor %q is case-sensitive but the rule fires on %q", id, a.lit, secFlipCase(a.lit))
					}
				}
			}
			if !hit {
				t.Errorf("%s: token %q holds none of the rule's anchors", id, tok)
			}
		}
	}
}

// TestSecretAddedRulesNearMisses: texts that look like the added tokens
// but are not (too short, a placeholder, another prefix or charset, glued
// to a word, the vendors' own elided examples) fire nothing.
func TestSecretAddedRulesNearMisses(t *testing.T) {
	g := testgen.New(12)
	tok := testgen.Alnum + "_-"
	misses := map[string][]string{
		"google-oauth-client-secret": {"GOCSPX-" + g.S(tok, 20), "GOCSPX-" + strings.Repeat("x", 28), "gocspx-" + g.S(tok, 28),
			"XGOCSPX-" + g.S(tok, 28), "GOCSPX_" + g.S(tok, 28), "GOOGLE_CLIENT_SECRET=GOCSPX-[redacted]"},
		"anthropic-oauth-token": {"sk-ant-oat01-" + g.S(tok, 20), "sk-ant-oat01-your-token-here", "sk-ant-oat01-" + strings.Repeat("a", 95),
			"sk-ant-oatxx-" + g.S(tok, 95), "export CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-..."},
		"openai-legacy-api-key": {"sk-" + g.S(testgen.Alnum, 20) + "T3BlbkFX" + g.S(testgen.Alnum, 20), "sk-" + g.S(testgen.Alnum, 19) + "T3BlbkFJ" + g.S(testgen.Alnum, 20),
			"sk-" + g.S(testgen.Alnum, 48), "ask-" + g.S(testgen.Alnum, 20) + "T3BlbkFJ" + g.S(testgen.Alnum, 20)},
		"supabase-secret-key": {"SUPABASE_SECRET_KEY=sb_secret_...", "sb_secret_" + g.S(testgen.Alnum, 12), "sb_secret_" + strings.Repeat("x", 30),
			"sb_publishable_" + g.S(testgen.Alnum, 30)},
		"supabase-access-token": {"sbp_" + g.S(testgen.HexLow, 39), "sbp_" + strings.ToUpper(g.S("abcdef", 40)), "Must be like `sbp_0102...1920`.",
			"sbp_" + g.S("ghijklmnopqrstuvwxyz", 40)},
		"gitlab-runner-authentication-token": {"glrt-" + g.S(tok, 19), "glrt-" + strings.Repeat("x", 20)},
		"gitlab-oauth-app-secret":            {"gloas-" + g.S(tok, 63)},
		"gitlab-pipeline-trigger-token":      {"glptt-" + g.S("ghijklmnopqrstuvwxyz", 40), "glptt-xxx...", "glptt-" + g.S(testgen.HexLow, 39)},
		"gitlab-kubernetes-agent-token":      {"glagent-" + g.S(tok, 49)},
		"gitlab-incoming-mail-token":         {"glimt-" + g.S(tok, 24)},
		"gitlab-scim-oauth-token":            {"glsoat-" + g.S(tok, 19)},
		"gitlab-ci-build-token":              {"token=glcbt-64", "glcbt-eyJabc.def.ghi", "glcbt-64_" + g.S(testgen.Alnum, 19), "glcbt-abcdef_" + g.S(testgen.Alnum, 20)},
		"gitlab-feed-token":                  {"glft-" + g.S(tok, 19)},
		"gitlab-feature-flag-client-token":   {"glffct-" + g.S(tok, 19), "It should start with glffct."},
		"slack-rotation-token":               {`"refresh_token": "xoxe-1-abcdefg"`, `"token": "xoxe.xoxp-...",`, "xoxe-1-" + g.S(testgen.Alnum, 30), "xoxe.xoxa-1-" + g.S(testgen.Alnum, 163)},
		"slack-workflow-token":               {`"bot_access_token": "xwfp-111"`, "Workflow token (`xwfp-`)", "xwfp-" + g.S(testgen.Alnum, 18)},
		"slack-webhook-url":                  {"https://hooks.slack.com/services/...", "hooks.slack.com/services/T000/B000/XXXX"},
	}
	sc := Default()
	for _, id := range AddedRuleIDs {
		if len(misses[id]) == 0 {
			t.Errorf("%s: no near miss", id)
		}
		for _, m := range misses[id] {
			for _, text := range []string{m, "see " + m + " here\n"} {
				if got := sc.Scan(text); len(got) != 0 {
					t.Errorf("%s near miss %q: got %+v", id, text, got)
				}
			}
		}
	}
}

// TestSecretOpenAILegacyOnce: a legacy OpenAI key matches gitleaks'
// openai-api-key as well; it is reported once, by the narrower rule.
func TestSecretOpenAILegacyOnce(t *testing.T) {
	g := testgen.New(13)
	key := "sk-" + g.S(testgen.Alnum, 20) + "T3BlbkFJ" + g.S(testgen.Alnum, 20)
	l, err := secLoadGitleaks()
	if err != nil {
		t.Fatal(err)
	}
	if !l.rules["openai-api-key"].re.MatchString("x " + key + " y") {
		t.Fatal("the fixture no longer exercises the overlap")
	}
	got := Default().Scan("OPENAI_API_KEY=" + key + "\n")
	if len(got) != 1 || got[0].RuleID != "openai-legacy-api-key" {
		t.Errorf("got %+v", got)
	}
	// The new form is still openai-api-key's.
	proj := secFakeTokens(g)["openai-api-key"]
	if got := Default().Scan(proj); len(got) != 1 || got[0].RuleID != "openai-api-key" {
		t.Errorf("sk-proj key: %+v", got)
	}
}

// TestSecretLongerTokensMaskedWhole: a token longer than the fixed length
// a gitleaks rule counts (a routable GitLab token, a key format grown
// since) is found from its start to its end, so no output shows its tail;
// a sentence's full stop after it is not part of it.
func TestSecretLongerTokensMaskedWhole(t *testing.T) {
	sc := Default()
	for _, c := range []struct{ id, tok string }{
		// glpat- + 27 characters, a dotted version and a routing part.
		{"gitlab-pat", "glpat-Xq7vR2mK9pL4sT8wZ3nB6yC1dFh.01.1a2b3c4d5"},
		{"gitlab-pat", "glpat-Xq7vR2mK9pL4sT8wZ3nB6yC1dFhJk2Mn4"},
		{"github-pat", "ghp_Xq7vR2mK9pL4sT8wZ3nB6yC1dFhJkLmNoPqRsT9u8"},
	} {
		text := "The token is " + c.tok + ". Rotate it monthly.\n"
		at := strings.Index(text, c.tok)
		got := sc.Scan(text)
		if len(got) != 1 || got[0].RuleID != c.id {
			t.Errorf("%s: want one %s finding, got %+v", c.tok, c.id, got)
			continue
		}
		if got[0].Start != at || got[0].End != at+len(c.tok) {
			t.Errorf("%s: span %q, want the whole token", c.id, text[got[0].Start:got[0].End])
		}
		if masked := sc.MaskSecrets(text); strings.Contains(masked, c.tok[len(c.tok)-6:]) || !strings.Contains(masked, ". Rotate") {
			t.Errorf("%s: masked text %q shows the token's tail or lost the full stop", c.id, masked)
		}
	}
}
