package memfs

import "testing"

// ParseLockPID reads what JavaScript's parseInt reads.
func TestParseLockPID(t *testing.T) {
	for body, want := range map[string]int{"123": 123, " 123 ": 123, "123\n1700000000000": 123, "123abc": 123, "\t+77": 77, "-5": -5} {
		if got, ok := ParseLockPID(body); !ok || got != want {
			t.Errorf("%q: %d %v, want %d", body, got, ok, want)
		}
	}
	for _, body := range []string{"", "abc", " ", "+", "\n\n", "99999999999999999999"} {
		if got, ok := ParseLockPID(body); ok {
			t.Errorf("%q: %d, want none", body, got)
		}
	}
}
