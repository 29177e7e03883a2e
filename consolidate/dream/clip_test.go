package dream

import (
	"strings"
	"testing"
)

// TestCutsNeverLeavePartOfASecret: rxClip, which cuts text for the reindex
// proposal, cuts after masking, so a token the cut falls inside is never
// left half-shown (consolidate's and forensics' clip_test.go check their
// cutting helpers the same way).
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	token := "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"
	for _, lead := range []int{0, 10, 30, 45, 55} {
		s := strings.Repeat("x", lead) + " " + token + " and the rest of a long title"
		for name, got := range map[string]string{
			"rxClip": rxClip(s, 60),
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
