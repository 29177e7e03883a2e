package forensics

import (
	"strings"
	"testing"
)

// TestCutsNeverLeavePartOfASecret: shorten, which cuts text for a message,
// cuts after masking, so a token the cut falls inside is never left
// half-shown (consolidate's clip_test.go checks its own cutting helpers the
// same way).
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	token := "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"
	for _, lead := range []int{0, 10, 30, 45, 55} {
		s := strings.Repeat("x", lead) + " " + token + " and the rest of a long title"
		for name, got := range map[string]string{
			"shorten": shorten(s, 60),
			"clip":    clip(s, 60),
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
