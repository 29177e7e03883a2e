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

// TestArchivePathIsOutOfTheScan: wherever a memory sits, the place an
// archive moves it to is one Claude Code's scan skips (facts 2.1), and
// IsArchived knows it, and only it.
func TestArchivePathIsOutOfTheScan(t *testing.T) {
	for _, rel := range []string{"a.md", "sub/b.md", "Logs2/c.md", ".x/d.md"} {
		to := ArchivePath(rel)
		if ScanExclusion(to, MemoryStores{}) == "" {
			t.Errorf("%s: Claude Code's scan would list %s", rel, to)
		}
		if !IsArchived(to) {
			t.Errorf("IsArchived(%q) is false", to)
		}
	}
	for _, rel := range []string{"a.md", ".archived/a.md", "x/.archive/a.md", ".archive.md"} {
		if IsArchived(rel) {
			t.Errorf("IsArchived(%q) is true", rel)
		}
	}
}
