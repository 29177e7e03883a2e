package consolidate

import (
	"strings"
	"testing"
)

// TestCutsNeverLeavePartOfASecret: every helper that shortens text for a
// message or an index cuts after masking (or redacting), so a token the
// cut falls inside is never left half-shown: what is left of a cut token
// no longer looks like one, and no later masking could find it.
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	token := "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"
	for _, lead := range []int{0, 10, 30, 45, 55} {
		s := strings.Repeat("x", lead) + " " + token + " and the rest of a long title"
		for name, got := range map[string]string{
			"Clip": Clip(s, 60),
		} {
			for i := 0; i+12 <= len(token); i++ {
				if frag := token[i : i+12]; strings.Contains(got, frag) {
					t.Errorf("%s with the token at %d shows %q of it: %q", name, lead, frag, got)
					break
				}
			}
		}
	}
}
