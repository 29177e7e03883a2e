package forensics

import (
	"testing"

	"github.com/memtui/memtui/internal/testgen"
)

// TestCutsNeverLeavePartOfASecret: shorten, which cuts text for a message,
// cuts after masking, so a token the cut falls inside is never left
// half-shown (secrets' clip_test.go checks secrets.Clip, which every other
// message uses, the same way).
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	for _, lead := range testgen.CutLeads {
		s := testgen.CutText(lead)
		for name, got := range map[string]string{
			"shorten": shorten(s, 60),
		} {
			if frag := testgen.TokenShown(got, testgen.CutToken, 12); frag != "" {
				t.Errorf("%s with the token at %d shows %q of it: %q", name, lead, frag, got)
			}
		}
	}
}
