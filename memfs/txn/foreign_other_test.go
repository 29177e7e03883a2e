//go:build unix && !linux

package txn

import "testing"

// watchNames has no inotify here: the store is only looked at between
// steps.
func watchNames(t *testing.T, dir string) func() []string {
	return func() []string { return nil }
}
