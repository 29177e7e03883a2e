package dream

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testgen"
	"github.com/memtui/memtui/internal/testmodel"

	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// Numbered memories filled in from one template, as an agent keeping a
// note per service, ticket or teammate writes them: each says something
// of its own, so none is a duplicate of another, however alike the words.
var templates = []struct {
	name string
	gen  func(i int) (path, content string)
}{
	{"numbers differ", func(i int) (string, string) {
		return fmt.Sprintf("note_%04d.md", i), testmodel.Topic(fmt.Sprintf("note %04d", i), fmt.Sprintf("Note %04d about a service", i), "project",
			fmt.Sprintf("Service svc-%04d listens on port %d and is owned by %s. Deploys go through the standard pipeline and the on-call engineer reviews each release before it ships to production. Rollbacks use the previous image tag.\n",
				i, 100000+i, owners[i%len(owners)]))
	}},
	{"one number shared", func(i int) (string, string) {
		return fmt.Sprintf("service_%04d.md", i), testmodel.Topic("service", "A service behind the gateway", "project",
			fmt.Sprintf("Service svc-%04d listens on port 8080 and is owned by %s. Deploys go through the standard pipeline and the on-call engineer reviews each release before it ships to production.\n",
				200000+i, owners[i%len(owners)]))
	}},
	{"words only", func(i int) (string, string) {
		return fmt.Sprintf("teammate_%04d.md", i), testmodel.Topic(fmt.Sprintf("teammate %04d", i), "A note about a teammate", "user",
			fmt.Sprintf("Teammate %s %s prefers %s for tooling and reviews pull requests from %s every morning before standup. Ask %s about the %s build.\n",
				owners[i%len(owners)], surname(i), langs[i%len(langs)], owners[(i/len(owners))%len(owners)], owners[i%len(owners)], langs[(i/len(langs))%len(langs)]))
	}},
	{"same name and description", func(i int) (string, string) {
		return fmt.Sprintf("ticket-%d.md", 300000+i), testmodel.Topic("ticket", "A support ticket", "project",
			fmt.Sprintf("Ticket %d: customer %s reports that exports time out after %d seconds on the reports page.\n", 300000+i, owners[i%len(owners)], 30+i%90))
	}},
}

// surname is a made-up name of its own for each i.
func surname(i int) string {
	l := testgen.Letters(i)
	return strings.ToUpper(l[:1]) + l[1:] + "son"
}

var (
	owners = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj"}
	langs  = []string{"go", "rust", "python", "java", "ruby", "elixir", "haskell", "scala", "kotlin", "swift"}
)

// templateDir is n memories of each template, the duplicate pairs of the
// pair table, and copies identical copies of one memory, with a short
// index (as Claude Code keeps one: most memories are not in it).
func templateDir(n, copies int) (*model.MemoryDir, [][]string) {
	files := map[string]string{"MEMORY.md": "# Memory\n\n- [Release day](copy-a.md) — releases go out on Tuesdays\n"}
	for _, tpl := range templates {
		for i := 1; i <= n; i++ {
			p, c := tpl.gen(i)
			files[p] = c
		}
	}
	var want [][]string
	for i, p := range testgen.SimilarPairs {
		if !p.Dup || p.Kind == "dated series" {
			continue
		}
		a, b := fmt.Sprintf("pair%02d_%s", i, p.A.Path), fmt.Sprintf("pair%02d_%s", i, p.B.Path)
		files[a] = "---\nname: " + p.A.Name + "\ndescription: " + p.A.Description + "\ntype: project\n---\n\n" + p.A.Body + "\n"
		files[b] = "---\nname: " + p.B.Name + "\ndescription: " + p.B.Description + "\ntype: project\n---\n\n" + p.B.Body + "\n"
		want = append(want, []string{a, b})
	}
	for i := range copies {
		files[fmt.Sprintf("copy-%s.md", testgen.Letters(i))] = testmodel.Topic("release", "Release day", "project", "Releases go out on Tuesdays after the 10:00 sync; the release captain tags main and posts the notes in #releases.\n")
	}
	return testmodel.Dir(files, testmodel.Now.AddDate(0, 0, -3)), want
}

func TestMergesAreOfMemoriesThatSayTheSameThing(t *testing.T) {
	d, pairs := templateDir(60, 12)
	props := ProposeDir(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindMerge}})
	var merged [][]string
	copies := 0
	for _, p := range props {
		// The group: the file kept (updated, or left as it is when the
		// others are copies of it) and the files deleted.
		_, keep, _ := strings.Cut(p.Title, " into ")
		group := []string{keep}
		for _, c := range p.Changes {
			if c.Path == "MEMORY.md" || c.Path == keep {
				continue
			}
			if c.Op != model.OpDelete {
				t.Errorf("%s (%s) also changes %s", p.ID, p.Title, c.Path)
			}
			group = append(group, c.Path)
			for _, tpl := range templates {
				if q, _ := tpl.gen(1); strings.SplitN(c.Path, "_", 2)[0] == strings.SplitN(q, "_", 2)[0] || strings.HasPrefix(c.Path, "ticket-") {
					t.Errorf("%s (%s) merges a templated memory: %s", p.ID, p.Title, c.Path)
				}
			}
		}
		if len(group) > similar.MaxGroup {
			t.Errorf("%s merges %d files, over the cap of %d", p.ID, len(group), similar.MaxGroup)
		}
		if strings.HasPrefix(keep, "copy-") {
			copies += len(group)
			continue
		}
		slices.Sort(group)
		merged = append(merged, group)
	}
	for _, want := range pairs {
		slices.Sort(want)
		if !slices.ContainsFunc(merged, func(g []string) bool { return slices.Equal(g, want) }) {
			t.Errorf("the duplicates %v are not merged; merges: %v", want, merged)
		}
	}
	if len(merged) != len(pairs) {
		t.Errorf("%d merges of pairs, want %d: %v", len(merged), len(pairs), merged)
	}
	// Twelve identical copies: one merge of eight, one of the other four.
	if copies != 12 {
		t.Errorf("%d of the 12 identical copies are in merges", copies)
	}
}

// Each template on its own, in directories of 2 to 1,200 numbered
// memories: never a duplicate finding, so never a merge.
func TestNumberedTemplatesAreNotDuplicates(t *testing.T) {
	for _, tpl := range templates {
		for _, n := range []int{2, 5, 1200} {
			var items []similar.Item
			for i := 1; i <= n; i++ {
				p, c := tpl.gen(i)
				f := testmodel.File(p, c, testmodel.Now)
				doc := claude.ParseDoc(f.Content)
				items = append(items, consolidate.DupItem(f, &doc, string(doc.Body(f.Content))))
			}
			if gs := similar.Find(items); len(gs) > 0 {
				t.Errorf("%s, %d memories: %d groups, the first %v (%s)", tpl.name, n, len(gs), gs[0].Paths[:min(len(gs[0].Paths), 4)], gs[0].Reason)
			}
		}
	}
}

func TestIdenticalBodiesMustAgreeOnNumbers(t *testing.T) {
	a := similar.Item{Path: "a.md", Body: "The staging database accepts at most 50 connections per pod."}
	b := similar.Item{Path: "b.md", Body: "The staging database accepts at most 500 connections per pod."}
	if gs := similar.Find([]similar.Item{a, b}); len(gs) != 0 {
		t.Errorf("bodies that differ in a number grouped: %+v", gs)
	}
	b.Body = "the staging database accepts at most 50 connections per pod"
	if gs := similar.Find([]similar.Item{a, b}); len(gs) != 1 || gs[0].Reason != "identical bodies" {
		t.Errorf("the same body in other case and punctuation: %+v", gs)
	}
}

// BenchmarkMergeLargeDir proposes merges for 200,000 numbered memories in
// one directory, with a few real duplicates among them: the shape that once
// made a 1,200-file merge. go test -bench MergeLargeDir -benchtime 1x -run X.
func BenchmarkMergeLargeDir(b *testing.B) {
	d, _ := templateDir(50000, 12)
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindMerge}}
	b.ResetTimer()
	for b.Loop() {
		props := ProposeDir(dreamProject, d, opts)
		for _, p := range props {
			if len(p.Changes) > similar.MaxGroup+1 {
				b.Fatalf("%s changes %d files", p.ID, len(p.Changes))
			}
		}
	}
}
