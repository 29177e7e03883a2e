package codex

import (
	"reflect"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// projStore is a store as memfs.LoadCodex fills it, with files.
func projStore(files map[string]string) *Store {
	s := &Store{Home: "/home/u/.codex", Root: "/home/u/.codex/memories", Exists: true}
	for p, c := range files {
		s.Files = append(s.Files, &model.File{Path: p, Content: []byte(c)})
	}
	return s
}

// rollout is a rollout summary file in Codex's shape, run in cwd.
func rollout(cwd string) string {
	return "thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\nupdated_at: 2026-11-20T09:40:00+00:00\nrollout_path: /r/1.jsonl\ncwd: " + cwd + "\n\n# A session\n\n## Task 1: work\nOutcome: success\n"
}

// group is a handbook task group citing rollouts (path → the bullet's
// cwd=), with applies_to cwd=.
func group(title, applies string, refs ...string) string {
	var b strings.Builder
	b.WriteString("# Task Group: " + title + "\nscope: " + title + " work\napplies_to: cwd=" + applies + "; reuse_rule=safe\n\n## Task 1: " + title + " task, done\n### rollout_summary_files\n")
	for i := 0; i+1 < len(refs); i += 2 {
		b.WriteString("- " + refs[i] + " (cwd=" + refs[i+1] + ", rollout_path=/r/x.jsonl, updated_at=2026-11-20T09:40:00+00:00)\n")
	}
	b.WriteString("### keywords\n- " + title + "\n\n")
	return b.String()
}

const (
	rShop    = "rollout_summaries/2026-11-20T09-30-15-aaaa.md"
	rShopAPI = "rollout_summaries/2026-11-20T10-30-15-bbbb.md"
	rBlog    = "rollout_summaries/2026-11-20T11-30-15-cccc.md"
	rHome    = "rollout_summaries/2026-11-20T12-30-15-dddd.md"
)

// TestProjects: task groups go where the rollouts they cite ran (the
// summary files' cwd: headers, not the bullets' cwd= nor applies_to); a
// cwd inside another goes to that one's root, never to a home
// directory; a group citing nothing placed is fuzzy, by applies_to; one
// spanning projects, or with no cwd at all, is global; the summary's
// scopes follow, by path or by name.
func TestProjects(t *testing.T) {
	hb := group("checkout", "/work/elsewhere", rShop, "/work/wrong") + // the header says /work/shop
		group("api", "/work/shop/api", rShopAPI, "/work/shop/api") +
		group("blog", "/work/blog", rBlog, "/work/blog") +
		group("dotfiles", "~", rHome, "/home/u") +
		group("both", "/work/shop", rShop, "/work/shop", rBlog, "/work/blog") +
		group("infra", "~/src/infra/*", "rollout_summaries/2026-11-19T08-00-00-gone.md", "") +
		group("git hygiene", "any repository")
	sum := "v1\n\n## User Profile\n\nx\n\n## User preferences\n\n## General Tips\n\n## What's in Memory\n\n### /work/shop/api\n\n#### 2026-11-20\n\n- api: x\n\n### blog (static site)\n\n- blog: x\n\n### Older Memory Topics\n\n#### /work/old\n\n- old: y\n\n#### release process\n\n- z\n"
	s := projStore(map[string]string{HandbookFile: hb, SummaryFile: sum,
		rShop: rollout("/work/shop"), rShopAPI: rollout("/work/shop/api"), rBlog: rollout("/work/blog"), rHome: rollout("/home/u")})
	ps := Projects(s)
	got := map[string]Project{}
	var order []string
	for _, p := range ps {
		got[p.Root] = p
		order = append(order, p.Root)
	}
	titles := func(p Project) []string {
		var out []string
		for _, g := range p.Groups {
			out = append(out, g.Title)
		}
		return out
	}
	want := []string{"/home/u", "/home/u/src/infra", "/work/blog", "/work/old", "/work/shop", GlobalProject}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("projects %q, want %q", order, want)
	}
	if g := titles(got["/work/shop"]); !reflect.DeepEqual(g, []string{"checkout", "api"}) || got["/work/shop"].Fuzzy {
		t.Errorf("/work/shop: %v (fuzzy %v): the header's cwd places checkout, api's cwd goes to the root it is in", g, got["/work/shop"].Fuzzy)
	}
	if g := got["/work/shop"].Groups[1]; !reflect.DeepEqual(g.Cwds, []string{"/work/shop/api"}) || g.Fuzzy || g.Index != 1 || g.Line == 0 {
		t.Errorf("api placed: %+v", g)
	}
	if g := titles(got["/home/u"]); !reflect.DeepEqual(g, []string{"dotfiles"}) {
		t.Errorf("a session run in the home directory is a project of its own, no other merged into it: %v", g)
	}
	infra := got["/home/u/src/infra"]
	if !infra.Fuzzy || len(infra.Groups) != 1 || !infra.Groups[0].Fuzzy || infra.Groups[0].Title != "infra" {
		t.Errorf("a group citing nothing that says where it ran is placed by applies_to, fuzzy, ~ and the glob read: %+v", infra)
	}
	glob := got[GlobalProject]
	if g := titles(glob); !reflect.DeepEqual(g, []string{"both", "git hygiene"}) {
		t.Errorf("global: %v", g)
	}
	if !strings.Contains(glob.Groups[0].Why, "/work/blog, /work/shop") || !strings.Contains(glob.Groups[1].Why, "any repository") {
		t.Errorf("global's reasons: %+v", glob.Groups)
	}
	scopes := func(root string) (out []string) {
		for _, sc := range got[root].Scopes {
			out = append(out, sc.Title)
		}
		return out
	}
	if g := scopes("/work/shop"); !reflect.DeepEqual(g, []string{"/work/shop/api"}) {
		t.Errorf("a scope heading's path goes to its root: %v", g)
	}
	if g := scopes("/work/blog"); !reflect.DeepEqual(g, []string{"blog (static site)"}) {
		t.Errorf("a scope heading naming a project's folder goes there: %v", g)
	}
	if old := got["/work/old"]; !old.Fuzzy || len(old.Groups) != 0 || !old.Scopes[0].Older {
		t.Errorf("an old scope with a path no group ran in is a fuzzy project of its own: %+v", old)
	}
	if g := scopes(GlobalProject); !reflect.DeepEqual(g, []string{"release process"}) {
		t.Errorf("a scope that names no project is global: %v", g)
	}
	if got["/work/shop"].Name() != "shop" || glob.Name() != "global" {
		t.Errorf("names: %q %q", got["/work/shop"].Name(), glob.Name())
	}
}

// TestProjectsImport: an imported group goes to its scope.json's cwd;
// RefCwd says which record it read.
func TestProjectsImport(t *testing.T) {
	ref := ImportDir + "-work-blog/hugo.md"
	hb := "# Task Group: blog build\nscope: imported\napplies_to: cwd=somewhere; reuse_rule=x\n\n## Task 1: Imported build notes\n### extension_resource_files\n- " + ref + " (source=external_agent_import)\n### keywords\n- hugo\n"
	s := projStore(map[string]string{HandbookFile: hb, ref: "Hugo builds the blog.\n", ImportDir + "-work-blog/scope.json": `{"cwd":"/work/blog"}`})
	ps := Projects(s)
	if len(ps) != 1 || ps[0].Root != "/work/blog" || ps[0].Fuzzy {
		t.Fatalf("%+v", ps)
	}
	cwd, from := RefCwd(Ref{Path: ref}, CitedCwds(s))
	if cwd != "/work/blog" || from != CwdFromScope {
		t.Errorf("RefCwd: %q %q", cwd, from)
	}
	if cwd, from := RefCwd(Ref{Path: rShop, Note: map[string]string{"cwd": "/w"}}, nil); cwd != "/w" || from != CwdFromNote {
		t.Errorf("the bullet's cwd= when the store has no record: %q %q", cwd, from)
	}
}

// TestPathsIn: the paths free text names, and what is not a path.
func TestPathsIn(t *testing.T) {
	got := PathsIn("cwd=/work/shop; the (/work/blog/*) family, ~/src/x, C:\\Users\\u\\shop, see https://example.com/a, and/or ./local, //net/x, /")
	want := []string{"/work/shop", "/work/blog", "~/src/x", "C:\\Users\\u\\shop"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PathsIn: %q, want %q", got, want)
	}
	if !Container("/home/u", "") || !Container("/work", "") || Container("/work/shop", "") || !Container("/srv/me", "/srv/me") || !Container("C:/Users/u", "") {
		t.Error("Container")
	}
	if NormPath("~/src/x/", "/home/u") != "/home/u/src/x" || !Within("/work/shop/api", "/work/shop") || Within("/work/shopping", "/work/shop") {
		t.Error("NormPath, Within")
	}
}
