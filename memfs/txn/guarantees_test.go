package txn

import (
	"strings"
	"testing"
)

// Linux has every protection; every other system says which it lacks,
// Windows the most.
func TestMissingGuarantees(t *testing.T) {
	if g := missingGuarantees("linux"); len(g) != 0 {
		t.Errorf("linux: %q", g)
	}
	for goos, want := range map[string][]string{
		"darwin":  {"no file leases", "no atomic swap"},
		"windows": {"no file leases", "no atomic swap", "junction", "not flushed"},
	} {
		all := strings.Join(missingGuarantees(goos), "\n")
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: no %q in %q", goos, w, all)
			}
		}
	}
}
