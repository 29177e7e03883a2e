// Package secrets finds credentials in memory text, as Claude Code
// 2.1.332's own scanner does and more: its 53 rules (gitleaks' where they
// exist, the rest written from the formats vendors document), whole PEM
// and OpenSSH keys, URLs with credentials, and an opt-in generic rule. A
// secret is never printed: Mask shows a recognisable stub, Redact writes
// the [REDACTED] mark in its place, once per line of a multi-line key. The
// one sanitizer every output goes through (internal/safe) masks with it,
// and Clip, which every message quoting a memory shortens its text with,
// masks before it cuts.
// It is pure computation over text; secrets.go says how the rules were
// chosen.
package secrets
