package dream

import (
	"testing"

	"github.com/memtui/memtui/internal/testgen"
)

// TestCutsNeverLeavePartOfASecret: rxClip, which cuts text for the reindex
// proposal, cuts after masking, so a token the cut falls inside is never
// left half-shown (consolidate's and forensics' clip_test.go check their
// cutting helpers the same way).
func TestCutsNeverLeavePartOfASecret(t *testing.T) {
	for _, lead := range testgen.CutLeads {
		s := testgen.CutText(lead)
		for name, got := range map[string]string{
			"rxClip": rxClip(s, 60),
		} {
			if frag := testgen.TokenShown(got, testgen.CutToken, 12); frag != "" {
				t.Errorf("%s with the token at %d shows %q of it: %q", name, lead, frag, got)
			}
		}
	}
}
