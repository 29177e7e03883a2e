// Package testgen makes the synthetic inputs memtui's tests share across
// packages: seeded random strings in a token's alphabet (high-entropy, as
// real credentials are, yet the same on every run) and fake private keys
// in the shapes their formats give them. Nothing here is a real secret; it
// is test support only (imported by _test.go files, never by memtui).
package testgen

import (
	"math/rand/v2"
	"strings"
)

// Alphabets fake tokens are drawn from.
const (
	Alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	Lower  = "abcdefghijklmnopqrstuvwxyz"
	HexLow = "0123456789abcdef"
	Upper2 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	B64    = Alnum + "+/"
)

// Gen makes random strings from a fixed seed.
type Gen struct{ r *rand.Rand }

// New is a generator seeded with seed.
func New(seed uint64) *Gen { return &Gen{rand.New(rand.NewPCG(seed, 7))} }

// S is n characters drawn from charset.
func (g *Gen) S(charset string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = charset[g.r.IntN(len(charset))]
	}
	return string(b)
}

// Key is a fake private key: its text, and the lines of its body that are
// key material (what must never be printed).
type Key struct {
	Name     string
	Text     string
	Material []string
}

// Keys builds fake keys of several types in the shapes the PEM (RFC 7468),
// OpenSSH, encrypted-PKCS#1 (RFC 1421 headers) and OpenPGP armor formats
// give them: 64- or 70-byte lines, a short padded last line.
func Keys(g *Gen) []Key {
	body := func(width, lines int, last string) []string {
		var out []string
		for range lines {
			out = append(out, g.S(B64, width))
		}
		return append(out, last)
	}
	mk := func(name, label string, headers []string, material []string) Key {
		var sb strings.Builder
		sb.WriteString("-----BEGIN " + label + "-----\n")
		for _, h := range headers {
			sb.WriteString(h + "\n")
		}
		for _, l := range material {
			sb.WriteString(l + "\n")
		}
		end := strings.TrimSuffix(label, " BLOCK")
		if strings.HasSuffix(label, "BLOCK") {
			end = label
		}
		sb.WriteString("-----END " + end + "-----")
		return Key{name, sb.String(), material}
	}
	pgpBody := body(64, 5, g.S(B64, 30)+"=")
	pgpBody = append(pgpBody, "="+g.S(B64, 4))
	return []Key{
		mk("rsa", "RSA PRIVATE KEY", nil, body(64, 8, g.S(B64, 22)+"==")),
		mk("pkcs8", "PRIVATE KEY", nil, append([]string{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC" + g.S(B64, 13)}, body(64, 6, g.S(B64, 39)+"=")...)),
		mk("ec", "EC PRIVATE KEY", nil, body(64, 2, g.S(B64, 32))),
		mk("openssh", "OPENSSH PRIVATE KEY", nil, body(70, 6, g.S(B64, 27)+"=")),
		mk("encrypted", "ENCRYPTED PRIVATE KEY", nil, body(64, 4, g.S(B64, 14)+"==")),
		mk("rsa-proc-type", "RSA PRIVATE KEY", []string{"Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,3F17F5316E2BAC89" + strings.ToUpper(g.S(HexLow, 16)), ""}, body(64, 5, g.S(B64, 42)+"==")),
		mk("pgp", "PGP PRIVATE KEY BLOCK", []string{"Version: GnuPG v2", ""}, pgpBody),
		mk("dsa", "DSA PRIVATE KEY", nil, body(64, 3, g.S(B64, 10)+"==")),
	}
}

// Leaks reports a piece of key material (8 bytes or more of any of its
// lines) that out shows; "" when none.
func Leaks(out string, material []string) string {
	for _, l := range material {
		core := strings.TrimLeft(l, "=")
		for i := 0; i+8 <= len(core); i++ {
			if strings.Contains(out, core[i:i+8]) {
				return core[i : i+8]
			}
		}
		if len(core) < 8 && strings.Contains(out, l) {
			return l
		}
	}
	return ""
}

// IntN is a number in [0, n) from the same seeded stream.
func (g *Gen) IntN(n int) int { return g.r.IntN(n) }
