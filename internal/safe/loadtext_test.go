package safe

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memtui/memtui/model/claude"
)

// loadTok is a GitHub-token-shaped fake secret the scanner finds.
const loadTok = "ghp_Zq8Wm3Rt6Yp1Lk4Hn7Vb2Xc5Jd9Fg0Ts3Qeu"

func loadEntries(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Entry %d](e%d.md) — hook\n", i, i)
	}
	return b.String()
}

// TestLoadTextMasksCutSecrets: no part of a secret shows where the load
// cuts through it, and a secret whole in the loaded text is masked too.
func TestLoadTextMasksCutSecrets(t *testing.T) {
	// The quote of line 201 is clipped at 79 units inside the token: what
	// is left of it is no longer a token to the scanner.
	clipped := "- [B](b.md) — " + strings.Repeat("y", 30) + loadTok + " tail"
	// The 25,000-unit hard cut falls inside a token on line 1.
	hard := strings.Repeat("a", 24980) + loadTok + " rest"
	// A zero-width space the sanitiser deletes joins a token.
	joined := "- [J](j.md) — " + loadTok[:20] + "\u200b" + loadTok[20:]
	// A private key across the 200-line cut.
	pem := loadEntries(198) + "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEA7vYh0q3Zr9Qx4Lm8Np2Rt6Vw1Yz5Kb0Hj3Gf7Ds9Aa2Cc4Ee6\n", 6) + "-----END RSA PRIVATE KEY-----\n"
	for _, tc := range []struct{ name, content, leak string }{
		{"quote clipped inside a token", loadEntries(200) + clipped + "\n", loadTok[:30]},
		{"hard cut inside a token", hard, loadTok[:16]},
		{"a token whole in the loaded text", "- [A](a.md) — " + loadTok + "\n" + loadEntries(200), loadTok[:30]},
		{"a token joined by the sanitiser", joined, loadTok[:16]},
		{"a private key across the line cut", pem, "MIIEowIBAAKCAQEA7vYh0q3Zr9Qx4Lm8Np2Rt6"},
	} {
		ld := claude.SimulateLoad([]byte(tc.content))
		text, warning := LoadText(&ld)
		if !strings.Contains(ld.Text, tc.leak) {
			t.Fatalf("%s: the fixture does not show %q unmasked", tc.name, tc.leak)
		}
		if strings.Contains(text, tc.leak) || strings.Contains(warning, tc.leak) {
			t.Errorf("%s: part of the secret shows:\n%s", tc.name, text[max(len(text)-400, 0):])
		}
		if ld.Truncated() && (!strings.HasSuffix(text, warning) || !strings.HasPrefix(warning, "> WARNING: MEMORY.md is ")) {
			t.Errorf("%s: warning %q", tc.name, warning)
		}
	}
	// Without a secret, the text is the agent's.
	ld := claude.SimulateLoad([]byte(loadEntries(205)))
	if text, warning := LoadText(&ld); text != ld.Text || warning != ld.Warning {
		t.Errorf("no secret: the text changed")
	}
}
