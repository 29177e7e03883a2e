package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddedSecretRulesMaskedInLint plants one synthetic token for each of
// the 17 rules Claude Code's scanner gained after 2.1.88 in a memory file
// and runs lint, text and JSON: each is reported under its rule ID, and no
// output holds any token whole or its tail (the mask covers every byte past
// the first four).
func TestAddedSecretRulesMaskedInLint(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	rs := func(charset string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = charset[r.IntN(len(charset))]
		}
		return string(b)
	}
	const (
		alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		tok   = alnum + "_-"
		hex   = "0123456789abcdef"
		dig   = "0123456789"
	)
	// Built at run time: the source holds no token whole.
	tokens := map[string]string{
		"google-oauth-client-secret":         "GOCSPX" + "-" + rs(tok, 28),
		"anthropic-oauth-token":              "sk-ant-" + "oat01-" + rs(tok, 93) + "AA",
		"openai-legacy-api-key":              "sk-" + rs(alnum, 20) + "T3Blbk" + "FJ" + rs(alnum, 20),
		"supabase-secret-key":                "sb_" + "secret_" + rs(alnum, 31),
		"supabase-access-token":              "sbp" + "_" + rs(hex, 40),
		"gitlab-runner-authentication-token": "glrt" + "-t1_" + rs(tok, 27) + ".01" + rs(hex, 7),
		"gitlab-oauth-app-secret":            "gloas" + "-" + rs(tok, 64),
		"gitlab-pipeline-trigger-token":      "glptt" + "-" + rs(hex, 40),
		"gitlab-kubernetes-agent-token":      "glagent" + "-" + rs(tok, 50),
		"gitlab-incoming-mail-token":         "glimt" + "-" + rs(tok, 25),
		"gitlab-scim-oauth-token":            "glsoat" + "-" + rs(tok, 20),
		"gitlab-ci-build-token":              "glcbt" + "-eyJ" + rs(tok, 30) + "." + rs(tok, 50) + "." + rs(tok, 43),
		"gitlab-feed-token":                  "glft" + "-" + rs(tok, 20),
		"gitlab-feature-flag-client-token":   "glffct" + "-" + rs(tok, 20),
		"slack-rotation-token":               "xoxe" + ".xoxp-1-" + rs(alnum, 163),
		"slack-workflow-token":               "xwfp" + "-" + rs(dig, 13) + "-" + rs(dig, 13) + "-" + rs(alnum, 24),
		"slack-webhook-url":                  "https://hooks." + "slack.com/workflows/T" + rs(alnum, 10) + "/A" + rs(alnum, 10) + "/" + rs(dig, 18) + "/" + rs(alnum, 24),
	}
	dir := t.TempDir()
	var body strings.Builder
	for id, tk := range tokens {
		body.WriteString("- " + id + ": `" + tk + "`\n")
	}
	writeFile(t, filepath.Join(dir, "MEMORY.md"), "- [Credentials](creds.md) — where the keys are\n")
	writeFile(t, filepath.Join(dir, "creds.md"), "---\nname: creds\ndescription: where the keys are\ntype: reference\n---\n\n"+body.String())

	_, text, textErr := runCLI(t, env(), "--memory-dir", dir, "--now", "2026-11-21", "lint")
	_, js, jsErr := runCLI(t, env(), "--memory-dir", dir, "--now", "2026-11-21", "lint", "--json")
	found := map[string]bool{}
	for _, f := range decodeLint(t, js).Findings {
		if f.Rule == "secret" {
			for id := range tokens {
				if strings.Contains(f.Message, "("+id+": ") {
					found[id] = true
				}
			}
		}
	}
	for id, tk := range tokens {
		if !found[id] {
			t.Errorf("lint --json reports no secret finding of %s", id)
		}
		if !strings.Contains(text, id) {
			t.Errorf("lint's text names no %s finding", id)
		}
		for name, out := range map[string]string{"text": text + textErr, "json": js + jsErr} {
			if strings.Contains(out, tk) || strings.Contains(out, tk[4:]) || strings.Contains(out, tk[len(tk)-10:]) {
				t.Errorf("lint %s prints the %s token, or its tail", name, id)
			}
		}
	}
}
