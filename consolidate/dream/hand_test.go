package dream

import (
	"errors"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// TestHandVerbs: Delete removes a memory with its index entry (a link or
// a wikilink by name) and refuses what is not a memory; Revert restores
// a changed file's reviewed text, removes one created since and recreates
// one deleted since, and says when there is nothing to revert. Both are
// a person's word (External).
func TestHandVerbs(t *testing.T) {
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}}
	d := testmodel.Dir(map[string]string{
		"a.md": testmodel.Topic("a", "A decision about the database", "project", "We use sqlc for every query.\n"),
		"b.md": testmodel.Topic("b", "A reference for the build", "reference", "make build, then make test.\n"),
	}, testmodel.Now.AddDate(0, 0, -3))
	d.Index = &model.File{Path: "MEMORY.md", Content: []byte("- [A](a.md) — the database\n- [[b]] — the build\n")}

	p, err := Delete(nil, d, "b.md", opts)
	if err != nil || !p.External || len(p.Changes) != 2 {
		t.Fatalf("delete b.md: %v %+v", err, p)
	}
	for _, c := range p.Changes {
		switch c.Path {
		case "b.md":
			if c.Op != model.OpDelete || c.BaseSHA256 == "" {
				t.Errorf("b.md: %+v", c)
			}
		case "MEMORY.md":
			if c.After != "- [A](a.md) — the database\n" {
				t.Errorf("the wikilink entry must go: %q", c.After)
			}
		}
	}
	if _, err := Delete(nil, d, "MEMORY.md", opts); !errors.Is(err, ErrNotHere) {
		t.Errorf("MEMORY.md is no memory to delete: %v", err)
	}
	if _, err := Delete(nil, d, "nope.md", opts); !errors.Is(err, ErrNotHere) {
		t.Errorf("a file that is not there: %v", err)
	}

	reviewed := "---\nname: a\ndescription: A decision about the database\ntype: project\n---\n\nWe use sqlc.\n"
	p, err = Revert(nil, d, "a.md", reviewed, true, opts)
	if err != nil || len(p.Changes) != 1 || p.Changes[0].Op != model.OpUpdate || p.Changes[0].After != reviewed || !p.External {
		t.Errorf("revert a changed file: %v %+v", err, p)
	}
	p, err = Revert(nil, d, "b.md", "", false, opts)
	if err != nil || p.Changes[0].Op != model.OpDelete {
		t.Errorf("revert a file created since the review: %v %+v", err, p)
	}
	p, err = Revert(nil, d, "gone.md", reviewed, true, opts)
	if err != nil || p.Changes[0].Op != model.OpCreate || p.Changes[0].After != reviewed {
		t.Errorf("revert a file deleted since the review: %v %+v", err, p)
	}
	if _, err := Revert(nil, d, "a.md", string(d.Files[0].Content), true, opts); err == nil || !strings.Contains(err.Error(), "nothing to revert") {
		t.Errorf("a file as reviewed: %v", err)
	}
}

// TestRetype: the type Claude Code reads changes, metadata.type over a
// top-level one, and nothing else of the file; a file with no type gets a
// top-level one; the same type, or no frontmatter, is refused.
func TestRetype(t *testing.T) {
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}}
	d := testmodel.Dir(map[string]string{
		"top.md":  "---\nname: top\ndescription: A fact\ntype: project\n---\n\nBody.\n",
		"meta.md": "---\nname: meta\ndescription: A fact\ntype: user\nmetadata:\n  type: project\n  node_type: memory\n---\n\nBody.\n",
		"none.md": "---\nname: none\ndescription: A fact\n---\n\nBody.\n",
		"bare.md": "Just text, no frontmatter.\n",
	}, testmodel.Now.AddDate(0, 0, -3))
	for path, want := range map[string]string{
		"top.md":  "---\nname: top\ndescription: A fact\ntype: reference\n---\n\nBody.\n",
		"meta.md": "---\nname: meta\ndescription: A fact\ntype: user\nmetadata:\n  type: reference\n  node_type: memory\n---\n\nBody.\n",
		"none.md": "---\nname: none\ndescription: A fact\ntype: reference\n---\n\nBody.\n",
	} {
		p, err := Retype(nil, d, path, model.TypeReference, opts)
		if err != nil || len(p.Changes) != 1 || p.Changes[0].After != want || !p.External {
			t.Errorf("%s: %v\n got %q\nwant %q", path, err, p.Changes, want)
		}
	}
	if _, err := Retype(nil, d, "top.md", model.TypeProject, opts); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("the type it has: %v", err)
	}
	if _, err := Retype(nil, d, "bare.md", model.TypeProject, opts); err == nil || !strings.Contains(err.Error(), "no frontmatter") {
		t.Errorf("no frontmatter: %v", err)
	}
}

// TestRename: the memory moves in its folder and every link follows:
// MEMORY.md's (a link, a wikilink by file name) and another memory's; a
// taken name, a path and MEMORY.md are refused.
func TestRename(t *testing.T) {
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}}
	d := testmodel.Dir(map[string]string{
		"old.md":   testmodel.Topic("old", "A decision about the database", "project", "We use sqlc for every query.\n"),
		"other.md": testmodel.Topic("other", "A reference for the build", "reference", "See [the decision](old.md) first.\n"),
	}, testmodel.Now.AddDate(0, 0, -3))
	d.Index = &model.File{Path: "MEMORY.md", Content: []byte("- [Old](old.md) — the database\n- [[other]] — the build\n")}
	p, err := Rename(nil, d, "old.md", "database-decision", opts)
	if err != nil || !p.External {
		t.Fatalf("rename: %v %+v", err, p)
	}
	got := map[string]model.Change{}
	for _, c := range p.Changes {
		got[c.Path] = c
	}
	if mv := got["database-decision.md"]; mv.Op != model.OpMove || mv.From != "old.md" {
		t.Errorf("the move: %+v", mv)
	}
	if ix := got["MEMORY.md"]; !strings.Contains(ix.After, "[Old](database-decision.md)") || !strings.Contains(ix.After, "[[other]]") {
		t.Errorf("MEMORY.md must follow: %q", ix.After)
	}
	if o := got["other.md"]; !strings.Contains(o.After, "[the decision](database-decision.md)") {
		t.Errorf("other.md's link must follow: %q", o.After)
	}
	for name, want := range map[string]string{"other": "exists", "sub/x": "not a file name", "MEMORY.md": "not a file name", "old": "already"} {
		if _, err := Rename(nil, d, "old.md", name, opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("rename to %q: %v, want %q", name, err, want)
		}
	}
}
