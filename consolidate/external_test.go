package consolidate

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

func externalFixture() *model.MemoryDir {
	return dreamDir(map[string]string{
		"project_x.md": topic("x", "A fact with a relative date", "project", "It ships tomorrow.\n"),
		"user_role.md": topic("role", "The user owns billing", "user", "The user owns the billing service.\n"),
	}, time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local))
}

func TestCheckExternalAcceptsAGoodProposal(t *testing.T) {
	d := externalFixture()
	x := string(d.Files[0].Content)
	good := model.Proposal{ID: "mine", Kind: model.KindAbsolutizeDates, Title: "Date it", Rationale: "because",
		Changes: []model.Change{{Path: "project_x.md", Op: model.OpUpdate, BaseSHA256: SHA256Hex([]byte(x)), After: strings.Replace(x, "tomorrow", "on 2026-06-11", 1)}}}
	got, err := CheckExternal(dreamProject, d, good, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID == "mine" || !strings.HasPrefix(got.ID, "absolutize-dates-x") || got.MemoryDir != d.Path {
		t.Errorf("the proposal must get memtui's own ID and directory: %+v", got)
	}
	again, _ := CheckExternal(dreamProject, d, good, false)
	if again.ID != got.ID {
		t.Error("the same proposal must get the same ID")
	}
}

func TestCheckExternalRejects(t *testing.T) {
	d := externalFixture()
	x := string(d.Files[0].Content)
	hash := SHA256Hex([]byte(x))
	upd := func(path, base, after string) model.Proposal {
		return model.Proposal{Kind: model.KindMerge, Title: "t", Changes: []model.Change{{Path: path, Op: model.OpUpdate, BaseSHA256: base, After: after}}}
	}
	cases := []struct {
		name string
		p    model.Proposal
		want string
	}{
		{"escapes with ..", upd("../../../../etc/passwd.md", hash, "x"), "escapes"},
		{"absolute", upd("/etc/x.md", hash, "x"), "not inside"},
		{"lies about the base", upd("project_x.md", strings.Repeat("0", 64), x), "does not match"},
		{"not markdown", model.Proposal{Kind: model.KindPrune, Title: "t", Changes: []model.Change{{Path: "run.sh", Op: model.OpCreate, After: "rm -rf /"}}}, "not a markdown"},
		{"team", model.Proposal{Kind: model.KindPrune, Title: "t", Changes: []model.Change{{Path: "team/x.md", Op: model.OpCreate, After: "x"}}}, "team/"},
		{"create over a file", model.Proposal{Kind: model.KindMerge, Title: "t", Changes: []model.Change{{Path: "user_role.md", Op: model.OpCreate, After: "x"}}}, "exists"},
		{"unknown kind", model.Proposal{Kind: "rm-rf", Title: "t", Changes: []model.Change{{Path: "a.md", Op: model.OpCreate, After: "x"}}}, "unknown kind"},
		{"other directory", model.Proposal{Kind: model.KindPrune, MemoryDir: "/home/someone/else", Title: "t", Changes: []model.Change{{Path: "a.md", Op: model.OpCreate, After: "x"}}}, "not " + d.Path},
		{"broken frontmatter", upd("project_x.md", hash, "---\nname: x\n\nno closing fence\n"), "does not parse"},
		{"index with frontmatter", model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: SHA256Hex(d.Index.Content), After: "---\nname: i\n---\n- [x](project_x.md)\n"}}}, "frontmatter"},
		{"index cut off", model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: SHA256Hex(d.Index.Content), After: strings.Repeat("- [x](project_x.md) — x\n", 250)}}}, "cut off"},
		{"no changes", model.Proposal{Kind: model.KindPrune, Title: "t"}, "changes nothing"},
		{"stale read", model.Proposal{Kind: model.KindReindex, Title: "t", Reads: []model.FileRead{{Path: "user_role.md", SHA256: hash}},
			Changes: []model.Change{{Path: "project_x.md", Op: model.OpUpdate, BaseSHA256: hash, After: x}}}, "does not match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CheckExternal(dreamProject, d, c.p, false)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// What a proposer reads never holds a secret; what it writes never keeps one.
func TestProposerSeesNoSecret(t *testing.T) {
	token := "ghp_Hn4Wq8Zt2Lp6Vb9Xc3Mk7Rj1Fd5Gs0Ya8uEq"
	d := dreamDir(map[string]string{"reference_ci.md": topic("ci", "The CI token", "reference", "Token: "+token+"\n")}, testNow)
	in := NewProposerInput(dreamProject, d, DreamOptions{Options: Options{Now: testNow}})
	if len(in.Files) != 1 || strings.Contains(in.Files[0].Content, token) || in.Files[0].SHA256 != SHA256Hex(d.Files[0].Content) {
		t.Fatalf("input: %+v", in.Files)
	}
	p := model.Proposal{Kind: model.KindFixFrontmatter, Title: "t", Changes: []model.Change{{Path: "reference_ci.md", Op: model.OpUpdate,
		BaseSHA256: SHA256Hex(d.Files[0].Content), After: string(d.Files[0].Content)}}}
	got, err := CheckExternal(dreamProject, d, p, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Changes[0].After, token) {
		t.Error("a secret in an external proposal must be redacted")
	}
}
