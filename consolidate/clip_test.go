package consolidate

import (
	"testing"

	"github.com/memtui/memtui/internal/testgen"
)

// TestCutsNeverLeavePartOfASecret: every helper that shortens text for a
// message or an index cuts after masking (or redacting), so a token the
// cut falls inside is never left half-shown: what is left of a cut token
// no longer looks like one, and no later masking could find it.
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	for _, lead := range testgen.CutLeads {
		s := testgen.CutText(lead)
		for name, got := range map[string]string{
			"Clip": Clip(s, 60),
		} {
			if frag := testgen.TokenShown(got, testgen.CutToken, 12); frag != "" {
				t.Errorf("%s with the token at %d shows %q of it: %q", name, lead, frag, got)
			}
		}
	}
}
