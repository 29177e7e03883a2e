package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func TestPartialKeepsOnlyChosenBlocks(t *testing.T) {
	before := "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\n"
	after := "a\r\nB\r\nc\r\nd\r\ne\r\nF\r\ng\r\nh\r\n"
	c := model.Change{Path: "x.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(before)), After: after}
	if n := diff.Blocks(c, before); n != 3 {
		t.Fatalf("%d blocks, want 3 (b, f, the new h)", n)
	}
	get := func(p string) (string, bool) {
		if p == "x.md" {
			return before, true
		}
		return "", false
	}
	p := model.Proposal{Kind: model.KindAbsolutizeDates, Title: "t", Rationale: "r", Changes: []model.Change{c}}
	got, err := Partial(p, get, Keep{"x.md": {true, false, true}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\r\nB\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n"; got.Changes[0].After != want {
		t.Errorf("after %q, want %q", got.Changes[0].After, want)
	}
	if !strings.HasSuffix(got.Rationale, "(partly accepted)") {
		t.Errorf("rationale %q", got.Rationale)
	}
	if _, err := Partial(p, get, Keep{"x.md": {false, false, false}}); err == nil {
		t.Error("keeping nothing must be refused: reject instead")
	}
}

// A merge kept in part must not leave the index pointing at a file it
// deletes.
func TestPartialMergeRevalidatesTheIndex(t *testing.T) {
	index := "- [A](a.md) — the fact\n- [B](b.md) — the same fact again\n"
	a := testmodel.Topic("a", "The fact", "feedback", "The fact.\n")
	b := testmodel.Topic("b", "The same fact again", "feedback", "The fact, again.\n")
	before := map[string]string{"MEMORY.md": index, "a.md": a, "b.md": b}
	get := func(p string) (string, bool) { s, ok := before[p]; return s, ok }
	p := model.Proposal{Kind: model.KindMerge, Title: "Merge b.md into a.md", Changes: []model.Change{
		{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(index)), After: "- [A](a.md) — the fact\n"},
		{Path: "a.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(a)), After: a + "\nFrom b.md: The fact, again.\n"},
		{Path: "b.md", Op: model.OpDelete, BaseSHA256: consolidate.SHA256Hex([]byte(b))},
	}}
	if _, err := Partial(p, get, Keep{"MEMORY.md": {false}}); err == nil || !strings.Contains(err.Error(), "b.md") {
		t.Errorf("dropping the index hunk but deleting b.md must be refused: %v", err)
	}
	got, err := Partial(p, get, Keep{"b.md": {false}, "MEMORY.md": {false}})
	if err != nil {
		t.Fatalf("keeping b.md and its entry is valid: %v", err)
	}
	if len(got.Changes) != 1 || got.Changes[0].Path != "a.md" {
		t.Errorf("changes %+v", got.Changes)
	}
	if _, err := Partial(p, get, Keep{"a.md": {true}}); err != nil {
		t.Errorf("the whole proposal is valid: %v", err)
	}
}

// Index entries for files the proposal never touches are no concern of its
// partial acceptance, whatever the caller knows about the directory.
func TestPartialIgnoresUntouchedEntries(t *testing.T) {
	index := "- [A](a.md) — the fact\n- [C](c.md) — another memory\n"
	a := testmodel.Topic("a", "The fact", "feedback", "The fact.\n")
	c := testmodel.Topic("c", "Another memory", "user", "Something else.\n")
	all := map[string]string{"MEMORY.md": index, "a.md": a, "c.md": c}
	get := func(p string) (string, bool) { s, ok := all[p]; return s, ok }
	p := model.Proposal{Kind: model.KindAbsolutizeDates, Title: "t", Changes: []model.Change{
		{Path: "a.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(a)), After: a + "More.\n"}}}
	if _, err := Partial(p, get, Keep{"a.md": {true}}); err != nil {
		t.Errorf("an untouched entry made a partial proposal invalid: %v", err)
	}
}
