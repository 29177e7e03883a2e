package main

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/memfs/snapshot"
)

// TestSnapshotTextSaysWhereUnreadableRecordsWent: records a trim could not
// read are moved aside, and the totals line says how many and where,
// made safe (a state dir's path may hold anything).
func TestSnapshotTextSaysWhereUnreadableRecordsWent(t *testing.T) {
	var b strings.Builder
	root := "/home/u/.local/state/memtui/snap\x1b]52;c;aGk=\x07shots"
	res := snapshot.TakeResult{Aside: []string{root + "/unreadable/k/1.json", root + "/unreadable/k/2.json"}}
	if err := snapshotText(&b, res, "/home/u"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "moved 2 unreadable records aside, under ~/.local/state/memtui/snap") || !strings.Contains(out, "/unreadable.\n") {
		t.Errorf("totals: %q", out)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("a control character reached the output: %q", out)
	}
}
