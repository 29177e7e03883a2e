package model

import "testing"

// TestProposalKindsParse keeps --kind in step with the kinds proposed:
// every kind listed parses, each once, and restore-lost is among them.
func TestProposalKindsParse(t *testing.T) {
	seen := map[ProposalKind]bool{}
	for _, k := range ProposalKinds {
		if got, ok := ParseProposalKind(string(k)); !ok || got != k {
			t.Errorf("%s does not parse", k)
		}
		if seen[k] {
			t.Errorf("%s listed twice", k)
		}
		seen[k] = true
	}
	if !seen[KindRestoreLost] {
		t.Error("restore-lost is not listed")
	}
	if _, ok := ParseProposalKind("restore"); ok {
		t.Error("a partial name parsed")
	}
}
