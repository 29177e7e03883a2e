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
