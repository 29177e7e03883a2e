package secrets

import (
	"testing"

	"github.com/memtui/memtui/internal/testgen"
)

// TestCutsNeverLeavePartOfASecret: Clip, which every check's and proposal's
// message quotes memory text through, cuts after masking, so a token the
// cut falls inside is never left half-shown: what is left of a cut token
// no longer looks like one, and no later masking could find it.
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	for _, lead := range testgen.CutLeads {
		s := testgen.CutText(lead)
		got := Clip(s, 60)
		if frag := testgen.TokenShown(got, testgen.CutToken, 12); frag != "" {
			t.Errorf("Clip with the token at %d shows %q of it: %q", lead, frag, got)
		}
		if len([]rune(got)) > 60 {
			t.Errorf("Clip(_, 60) gave %d characters", len([]rune(got)))
		}
	}
}
