package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// adoptWorld is a live store and a worktree's stranded one: a memory only
// the stranded store has, one both have word for word, one both have
// under the same name with different text, and one reached through a
// link.
func adoptWorld(strandIndex string) (live, strand *model.MemoryDir) {
	live = testmodel.Dir(map[string]string{
		"MEMORY.md":          "- [Deploy](feedback_deploy.md) — how we ship\n- [Style](feedback_style.md) — code style\n",
		"feedback_deploy.md": "---\nname: deploy\ndescription: how we ship\ntype: feedback\n---\n\nShip with make.\n",
		"feedback_style.md":  "---\nname: style\ndescription: code style\ntype: feedback\n---\n\nTabs, not spaces.\n",
	}, testmodel.Now)
	strand = testmodel.Dir(map[string]string{
		"MEMORY.md":          strandIndex,
		"feedback_deploy.md": "---\nname: deploy\ndescription: how we ship\ntype: feedback\n---\n\nShip with make.\n",
		"feedback_style.md":  "---\nname: style\ndescription: code style\ntype: feedback\n---\n\nWrap at 100 columns.\n",
		"project_wt.md":      "---\nname: worktree build\ndescription: the build cache lives in .cache\ntype: project\n---\n\nClear .cache after a rebase.\n",
		"linked.md":          "---\nname: linked\ndescription: through a link\ntype: project\n---\n\nA linked memory.\n",
	}, testmodel.Now)
	strand.Path = "/cfg/projects/-repo-wt/memory"
	for _, f := range strand.Files {
		if f.Path == "linked.md" {
			f.Link = "linked.md"
		}
	}
	return live, strand
}

func adoptOf(t *testing.T, live, strand *model.MemoryDir) model.Proposal {
	t.Helper()
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindAdopt},
		Adopt: map[string][]Stranded{live.Path: {{Dir: strand, Reason: "it is the worktree /repo-wt's own store",
			Evidence: []string{"/repo-wt is a git worktree of /repo (its .git file points to /repo/.git/worktrees/wt)"}}}}}
	ps := ProposeDir(dreamProject, live, opts)
	if len(ps) != 1 || ps[0].Kind != model.KindAdopt || ps[0].Also == nil {
		t.Fatalf("want one adopt proposal: %+v", ps)
	}
	return ps[0]
}

// TestAdoptCarriesEveryMemoryHome: the memory only the stranded store has
// is created with its index entry, the one of the same name merged, the
// identical one only removed; each is removed from the stranded store,
// whose index goes with its last entry; the linked one stays, said.
func TestAdoptCarriesEveryMemoryHome(t *testing.T) {
	live, strand := adoptWorld("- [Deploy](feedback_deploy.md) — how we ship\n- [Style](feedback_style.md) — code style\n- [Worktree build](project_wt.md) — the build cache lives in .cache\n- [Linked](linked.md) — through a link\n")
	p := adoptOf(t, live, strand)
	after, err := Apply(filesOf(live), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(after["project_wt.md"]); got != string(fileIn(strand, "project_wt.md").Content) {
		t.Errorf("project_wt.md not created byte for byte:\n%s", got)
	}
	if ix := string(after["MEMORY.md"]); !strings.Contains(ix, "[Worktree build](project_wt.md) — the build cache lives in .cache") || strings.Count(ix, "feedback_deploy.md") != 1 {
		t.Errorf("index:\n%s", ix)
	}
	if st := string(after["feedback_style.md"]); !strings.Contains(st, "Tabs, not spaces.") || !strings.Contains(st, "Wrap at 100 columns.") {
		t.Errorf("feedback_style.md not merged:\n%s", st)
	}
	if string(after["feedback_deploy.md"]) != string(fileIn(live, "feedback_deploy.md").Content) {
		t.Errorf("feedback_deploy.md, the same in both, was rewritten")
	}
	if _, ok := after["linked.md"]; ok {
		t.Errorf("a memory reached through a link was carried")
	}
	safter, err := Apply(filesOf(strand), model.Proposal{Changes: p.Also.Changes})
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"feedback_deploy.md", "feedback_style.md", "project_wt.md"} {
		if _, ok := safter[gone]; ok {
			t.Errorf("%s left in the stranded store", gone)
		}
	}
	if _, ok := safter["linked.md"]; !ok {
		t.Errorf("the linked memory was removed")
	}
	if ix, ok := safter["MEMORY.md"]; !ok || strings.Contains(string(ix), "project_wt.md") || !strings.Contains(string(ix), "linked.md") {
		t.Errorf("stranded index: %q (the linked entry must stay, the adopted ones go)", ix)
	}
	if !strings.Contains(p.Rationale, "linked.md") || !strings.Contains(p.Rationale, "git worktree of /repo") {
		t.Errorf("rationale does not say what stays or why: %s", p.Rationale)
	}
}

// TestAdoptRemovesAnEmptiedIndex: with every entry adopted and nothing
// else in it, the stranded MEMORY.md goes; with prose in it, it stays.
func TestAdoptRemovesAnEmptiedIndex(t *testing.T) {
	for _, c := range []struct {
		ix   string
		gone bool
	}{
		{"# Memories\n\n- [Worktree build](project_wt.md) — cache\n- [Style](feedback_style.md) — style\n- [Deploy](feedback_deploy.md) — ship\n", true},
		{"Notes kept by hand: ask Dana before rebasing.\n- [Worktree build](project_wt.md) — cache\n", false},
	} {
		live, strand := adoptWorld(c.ix)
		p := adoptOf(t, live, strand)
		safter, err := Apply(filesOf(strand), model.Proposal{Changes: p.Also.Changes})
		if err != nil {
			t.Fatal(err)
		}
		ix, ok := safter["MEMORY.md"]
		if ok == c.gone {
			t.Errorf("index %q: present %v, want gone %v (%q)", c.ix, ok, c.gone, ix)
		}
		if ok && !strings.Contains(string(ix), "ask Dana") {
			t.Errorf("hand-kept text lost: %q", ix)
		}
	}
}

// TestAdoptIDCoversBothStores: a change to the stranded store alone gives
// another proposal.
func TestAdoptIDCoversBothStores(t *testing.T) {
	live, strand := adoptWorld("- [Worktree build](project_wt.md) — cache\n")
	a := adoptOf(t, live, strand)
	f := fileIn(strand, "project_wt.md")
	f.Content = []byte(strings.Replace(string(f.Content), ".cache", ".build-cache", 1))
	if b := adoptOf(t, live, strand); a.ID == b.ID {
		t.Errorf("same ID %s for different stranded text", a.ID)
	}
}

func fileIn(d *model.MemoryDir, rel string) *model.File {
	for _, f := range d.Files {
		if f.Path == rel {
			return f
		}
	}
	return nil
}
