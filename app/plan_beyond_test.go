package app

import (
	"testing"

	"github.com/memtui/memtui/model"
)

// TestRebuiltProposalStaysWithinTheAccepted: a proposal made again over a
// plan's earlier writes may change only files the accepted one changed or
// read; one more file (a merge group grown) is named, to be refused.
func TestRebuiltProposalStaysWithinTheAccepted(t *testing.T) {
	p := model.Proposal{
		Changes: []model.Change{{Path: "a.md", Op: model.OpUpdate}, {Path: "b.md", Op: model.OpDelete}},
		Reads:   []model.FileRead{{Path: "MEMORY.md"}},
	}
	same := model.Proposal{Changes: []model.Change{{Path: "a.md", Op: model.OpUpdate}, {Path: "MEMORY.md", Op: model.OpUpdate}}}
	if got := beyond(same, p); got != "" {
		t.Errorf("a rebuild within the accepted files is refused for %q", got)
	}
	grown := model.Proposal{Changes: []model.Change{{Path: "a.md", Op: model.OpUpdate}, {Path: "c.md", Op: model.OpDelete}}}
	if got := beyond(grown, p); got != "c.md" {
		t.Errorf("a rebuild reaching c.md: %q, want c.md named", got)
	}
	moved := model.Proposal{Changes: []model.Change{{Path: ".archive/a.md", From: "a.md", Op: model.OpMove}}}
	if got := beyond(moved, p); got != ".archive/a.md" {
		t.Errorf("a move to a new place is a file the accepted one never named: %q", got)
	}
}
