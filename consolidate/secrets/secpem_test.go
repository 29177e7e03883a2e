package secrets

import (
	"fmt"
	"github.com/memtui/memtui/internal/testgen"
	"strings"
	"testing"
)

// secLayouts are the places a key turns up in: alone, in prose, in a YAML
// block scalar, in a markdown fence, cut short (no END line), and as the
// removed side of a diff.
var secLayouts = []struct {
	name string
	make func(key string) string
}{
	{"alone", func(k string) string { return k }},
	{"prose", func(k string) string {
		return secRealisticBody + "\nThe staging deploy key:\n" + k + "\nRotate it after the freeze.\n"
	}},
	{"yaml", func(k string) string {
		return "tls:\n  key: |\n    " + strings.ReplaceAll(k, "\n", "\n    ") + "\n  cert: cert.pem\n"
	}},
	{"fence", func(k string) string { return "```\n" + k + "\n```\n" }},
	{"unterminated", func(k string) string { return "Key:\n" + k[:strings.LastIndex(k, "\n")] + "\nthe rest got lost\n" }},
	{"unterminated-eof", func(k string) string { return k[:strings.LastIndex(k, "\n")] }},
	{"diff", func(k string) string {
		return "--- a/reference_keys.md\n+++ b/reference_keys.md\n@@ -3,12 +3,12 @@\n context\n-" + strings.ReplaceAll(k, "\n", "\n-") + "\n+[REDACTED]\n context\n"
	}},
	{"crlf", func(k string) string { return "Key:\r\n" + strings.ReplaceAll(k, "\n", "\r\n") + "\r\n" }},
	{"json", func(k string) string {
		return `{"type": "service_account", "private_key": "` + strings.ReplaceAll(k, "\n", `\n`) + `\n", "client_email": "ci@acme.iam"}` + "\n"
	}},
	{"json-cut", func(k string) string {
		return `"private_key": "` + strings.ReplaceAll(k[:strings.LastIndex(k, "\n")], "\n", `\n`) + "\n"
	}},
}

// TestSecretPrivateKeyEveryLine masks and redacts private keys of several
// types on every line, in every layout, keeping the line count.
func TestSecretPrivateKeyEveryLine(t *testing.T) {
	sc := Default()
	for _, k := range testgen.Keys(testgen.New(21)) {
		for _, lay := range secLayouts {
			text := lay.make(k.Text)
			what := k.Name + "/" + lay.name
			masked := sc.MaskSecrets(text)
			if leak := testgen.Leaks(masked, k.Material); leak != "" {
				t.Errorf("%s: MaskSecrets shows %q:\n%s", what, leak, masked)
			}
			if strings.Count(masked, "\n") != strings.Count(text, "\n") {
				t.Errorf("%s: MaskSecrets changed the line count:\n%s", what, masked)
			}
			red, n := sc.Redact(text)
			if leak := testgen.Leaks(red, k.Material); leak != "" || n == 0 {
				t.Errorf("%s: Redact shows %q (%d redactions):\n%s", what, leak, n, red)
			}
			if strings.Count(red, "\n") != strings.Count(text, "\n") {
				t.Errorf("%s: Redact changed the line count:\n%s", what, red)
			}
			if strings.Contains(red, "PRIVATE KEY") || strings.Contains(red, "Proc-Type") {
				t.Errorf("%s: the redacted text still looks like a key to other scanners:\n%s", what, red)
			}
			if got := sc.Scan(red); len(got) != 0 {
				t.Errorf("%s: the redacted text is found again: %+v", what, got)
			}
			// The finding is one, it starts at the key, and its one-line
			// form is one line.
			var keys []Secret
			for _, s := range sc.Scan(text) {
				if s.RuleID == PrivateKeyRuleID {
					keys = append(keys, s)
				}
			}
			if len(keys) != 1 || strings.Contains(keys[0].Short, "\n") || testgen.Leaks(keys[0].Short, k.Material) != "" {
				t.Errorf("%s: want one private-key finding with a one-line Short, got %+v", what, keys)
			} else if lay.name != "diff" && !strings.HasPrefix(text[keys[0].Start:], "-----BEGIN") {
				t.Errorf("%s: the finding starts at %q", what, text[keys[0].Start:min(len(text), keys[0].Start+20)])
			}
		}
	}
}

// TestSecretPrivateKeyBeginAndEndStay keeps the key's BEGIN and END lines
// on screen: they name the key type and hold nothing secret.
func TestSecretPrivateKeyBeginAndEndStay(t *testing.T) {
	k := testgen.Keys(testgen.New(22))[0]
	lines := strings.Split(k.Text, "\n")
	want := lines[0] + "\n" + strings.Repeat("[masked]\n", len(lines)-2) + lines[len(lines)-1]
	if got := Default().MaskSecrets(k.Text); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got, _ := Default().Redact(k.Text); got != strings.TrimSuffix(strings.Repeat("[REDACTED]\n", len(lines)), "\n") {
		t.Errorf("redacted:\n%s", got)
	}
	// In a message the key is one line: its BEGIN line and its size.
	if got := Default().Scan(k.Text); len(got) != 1 || got[0].Short != fmt.Sprintf("-----BEGIN RSA PRIVATE KEY-----…(%d lines)", len(lines)) {
		t.Errorf("Short: %+v", got)
	}
}

// TestSecretKeyLinesAlone masks any one line of a key seen without the rest
// (what a diff printed line by line, or a hunk inside the key, shows).
func TestSecretKeyLinesAlone(t *testing.T) {
	sc := Default()
	for _, k := range testgen.Keys(testgen.New(23)) {
		lines := strings.Split(k.Text, "\n")
		for i, l := range k.Material {
			full := len(strings.TrimRight(l, "=")) >= secKeyMin
			for _, pre := range []string{"", "-", "+", " ", "    ", `"`} {
				in := pre + l
				if pre == `"` {
					in += `\n",`
				}
				out := sc.MaskSecrets(in)
				if full && testgen.Leaks(out, []string{l}) != "" {
					t.Errorf("%s line %d alone as %q: shown: %s", k.Name, i, in, out)
				}
			}
		}
		// The last body line, however short, with the END line after it.
		last := k.Material[len(k.Material)-1]
		tail := "-" + last + "\n-" + lines[len(lines)-1] + "\n"
		if out := sc.MaskSecrets(tail); strings.Contains(out, last) {
			t.Errorf("%s: the last line before END is shown: %s", k.Name, out)
		}
	}
	// The line from the issue: the DER header of a PKCS#8 RSA key.
	line := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"
	if out := sc.MaskSecrets(line); out != "[masked]" {
		t.Errorf("MaskSecrets(%q) = %q", line, out)
	}
	if got := sc.Scan(line); len(got) != 1 || got[0].RuleID != KeyMaterialRuleID {
		t.Errorf("Scan: %+v", got)
	}
}

// TestSecretKeyLineQuietOnProse keeps the key-material rule off the long
// tokens memories hold that are not keys.
func TestSecretKeyLineQuietOnProse(t *testing.T) {
	cert := "-----BEGIN CERTIFICATE-----\n"
	g := testgen.New(24)
	for range 5 {
		cert += g.S(testgen.B64, 64) + "\n"
	}
	cert += "-----END CERTIFICATE-----\n"
	quiet := []string{
		"ThisIsAVeryLongIdentifierNameThatGoesOnAndOn2024",
		"TestSecretParityWithDetectorAndGenericRules2",
		"AbstractSingletonProxyFactoryBeanImplementation1",
		"BenchmarkSecretThroughputMemtuiDeepScannerWithRules",
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
		"src/components/dashboard/widgets/RevenueChart2.tsx",
		"com/example/service/internal/handler/ApiV2Handler",
		"  YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo0NTY3ODk= is the trace id",
		"The deploy uses MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj in a sentence.",
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1a",
		"OAuth2ClientCredentials",
		"01HZX3K9Q2V7WJ8R4T6Y0B2C5D", // a ULID: no lower case
		"    VersionedDocumentStore2",
		"- ConfigurationManagerV2Impl",
		"f3a9c2e1b4d6a8c0e2f4a6b8c0d2e4f6a8b0c2d4", // a SHA-1
		"2026-05-12T10:15:00Z",
		"0b6f1b5e-2a5e-4b8f-9d3a-2f1e4c5d6a7b",
		"The user prefers small pull requests and wants every change reviewed by two people.",
		cert,
		" " + strings.ReplaceAll(strings.TrimSuffix(cert, "\n"), "\n", "\n "), // a certificate in a diff's context
		"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nhello\n",
		"-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n",
		"Keys start with -----BEGIN OPENSSH PRIVATE KEY----- and end with -----END OPENSSH PRIVATE KEY-----.\n",
	}
	for _, q := range quiet {
		if got := Default().Scan(q); len(got) != 0 {
			t.Errorf("%.50q: want nothing, got %+v", q, got)
		}
	}
}

// TestSecretAWSSecretKey finds an AWS secret access key by its name, by
// default, and only where the value is unmistakable.
func TestSecretAWSSecretKey(t *testing.T) {
	g := testgen.New(25)
	key := g.S(testgen.B64, 40)
	sc := Default()
	fire := []string{
		"aws_secret_access_key = %s",
		"aws_secret_access_key=%s\n",
		"export AWS_SECRET_ACCESS_KEY=%s",
		"AWS_SECRET_ACCESS_KEY: \"%s\"",
		`{"AccessKeyId": "AKIA…", "SecretAccessKey": "%s", "Status": "Active"}`,
		"aws configure set aws_secret_access_key %s",
		"--aws-secret-access-key=%s",
		"PROD_AWS_SECRET_ACCESS_KEY='%s'",
		"const creds = {accessKeyId: 'AKIA…', secretAccessKey: '%s'}",
		"secret_access_key => '%s',",
	}
	for _, f := range fire {
		text := fmt.Sprintf(f, key)
		got := sc.Scan(text)
		if len(got) != 1 || got[0].RuleID != AWSSecretKeyRuleID || text[got[0].Start:got[0].End] != key {
			t.Errorf("%q: want the key, got %+v", text, got)
			continue
		}
		if out := sc.MaskSecrets(text); strings.Contains(out, key[4:]) {
			t.Errorf("%q: masked as %q", text, out)
		}
	}
	quiet := []string{
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", // AWS's documented example
		"aws_secret_access_key = " + key[:39],
		"aws_secret_access_key = " + key + "Q",
		"aws_secret_access_key = " + key + "=",
		"aws_secret_access_key = xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"aws_secret_access_key = abcdefghijklmnopqrstuvwxyzabcdefghijklmn",
		"aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
		"aws_secret_access_key is read from the environment, never from this file",
		"mysecret_access_key = " + key,
		"The AWS secret access key is in 1Password.",
	}
	for _, q := range quiet {
		if got := sc.Scan(q); len(got) != 0 {
			t.Errorf("%q: want nothing, got %+v", q, got)
		}
	}
}
