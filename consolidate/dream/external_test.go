package dream

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func externalFixture() *model.MemoryDir {
	return testmodel.Dir(map[string]string{
		"project_x.md": testmodel.Topic("x", "A fact with a relative date", "project", "It ships tomorrow.\n"),
		"user_role.md": testmodel.Topic("role", "The user owns billing", "user", "The user owns the billing service.\n"),
	}, time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local))
}

func TestCheckExternalAcceptsAGoodProposal(t *testing.T) {
	d := externalFixture()
	x := string(d.Files[0].Content)
	good := model.Proposal{ID: "mine", Kind: model.KindAbsolutizeDates, Title: "Date it", Rationale: "because",
		Changes: []model.Change{{Path: "project_x.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(x)), After: strings.Replace(x, "tomorrow", "on 2026-06-11", 1)}}}
	got, err := CheckExternal(dreamProject, d, good, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID == "mine" || !strings.HasPrefix(got.ID, "absolutize-dates-x") || got.MemoryDir != d.Path {
		t.Errorf("the proposal must get memtui's own ID and directory: %+v", got)
	}
	if !got.External {
		t.Error("a proposer's proposal is not marked External: its kind would keep a file's mtime on the proposer's word")
	}
	again, _ := CheckExternal(dreamProject, d, good, false)
	if again.ID != got.ID {
		t.Error("the same proposal must get the same ID")
	}
}

func TestCheckExternalRejects(t *testing.T) {
	d := externalFixture()
	x := string(d.Files[0].Content)
	hash := consolidate.SHA256Hex([]byte(x))
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
		{"index with frontmatter", model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(d.Index.Content), After: "---\nname: i\n---\n- [x](project_x.md)\n"}}}, "frontmatter"},
		{"index cut off", model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(d.Index.Content), After: strings.Repeat("- [x](project_x.md) — x\n", 250)}}}, "cut off"},
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
	d := testmodel.Dir(map[string]string{"reference_ci.md": testmodel.Topic("ci", "The CI token", "reference", "Token: "+token+"\n")}, testmodel.Now)
	in := NewProposerInput(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}})
	if len(in.Files) != 1 || strings.Contains(in.Files[0].Content, token) || in.Files[0].SHA256 != consolidate.SHA256Hex(d.Files[0].Content) {
		t.Fatalf("input: %+v", in.Files)
	}
	p := model.Proposal{Kind: model.KindFixFrontmatter, Title: "t", Changes: []model.Change{{Path: "reference_ci.md", Op: model.OpUpdate,
		BaseSHA256: consolidate.SHA256Hex(d.Files[0].Content), After: string(d.Files[0].Content)}}}
	got, err := CheckExternal(dreamProject, d, p, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Changes[0].After, token) {
		t.Error("a secret in an external proposal must be redacted")
	}
}

func TestCheckExternalRefusesHostileProposals(t *testing.T) {
	d := externalFixture()
	// A memory read through a symlink inside the directory: the scan lists
	// it as a file and reports the link.
	d.Files = append(d.Files, testmodel.File("linked.md", testmodel.Topic("l", "linked", "user", "Linked.\n"), testmodel.Now))
	d.Problems = append(d.Problems, model.Problem{Path: "linked.md", Kind: model.ProblemSymlink, Detail: "symlink to real.md"},
		model.Problem{Path: "out", Kind: model.ProblemSymlinkEscape, Detail: "/etc"},
		model.Problem{Path: "up", Kind: model.ProblemLinkSkipped, Detail: "symlink to the folder ./ (the memory dir itself), …; not followed"})
	create := func(p, after string) model.Proposal {
		return model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: p, Op: model.OpCreate, After: after}}}
	}
	linked := d.Files[len(d.Files)-1]
	cases := []struct {
		name string
		p    model.Proposal
		disk OnDisk
		want string
	}{
		{"deletes MEMORY.md", model.Proposal{Kind: model.KindPrune, Title: "t", Changes: []model.Change{{Path: "MEMORY.md", Op: model.OpDelete, BaseSHA256: consolidate.SHA256Hex(d.Index.Content)}}}, nil, "never delete it"},
		{"OSC 52 in a name", create("x\x1b]52;c;aGVsbG8=\x07.md", "x\n"), nil, "control character (U+001B)"},
		{"screen clear in a directory name", create("a\x1b[2J/x.md", "x\n"), nil, "control character"},
		{"newline in a name", create("a\nwarning: forged.md", "x\n"), nil, "control character (U+000A)"},
		{"C1 control", create("a\u009bx.md", "x\n"), nil, "control character"},
		{"bidi override", create("notes\u202edm.exe.md", "x\n"), nil, "U+202E"},
		{"zero-width space", create("no\u200bte.md", "x\n"), nil, "U+200B"},
		{"not UTF-8", create("caf\xe9.md", "x\n"), nil, "not UTF-8"},
		{"anchor character", create("a#b.md", "x\n"), nil, `"#" (U+0023)`},
		{"trailing space", create("notes /x.md", "x\n"), nil, "spaces"},
		{"empty component", create("a//b.md", "x\n"), nil, "empty path component"},
		{"over the read cap", create("big.md", strings.Repeat("x", MaxProposedFileBytes+1)), nil, "over the 1024 KB"},
		{"control in the title", model.Proposal{Kind: model.KindReindex, Title: "ok\x1b]0;pwned\x07", Changes: []model.Change{{Path: "n.md", Op: model.OpCreate, After: "x\n"}}}, nil, "not one line"},
		{"update of a symlink the scan saw", model.Proposal{Kind: model.KindFixFrontmatter, Title: "t", Changes: []model.Change{{Path: "linked.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(linked.Content), After: "x\n"}}}, nil, "linked.md is a symlink"},
		{"create under a symlinked directory the scan saw", create("out/x.md", "x\n"), nil, "its directory out) is a symlink"},
		{"create under a link the scan did not follow", create("up/x.md", "x\n"), nil, "its directory up) is a symlink"},
		{"create under a symlinked directory on disk", create("sub/x.md", "x\n"), OnDisk{"sub": fs.ModeSymlink | 0o777}, "its directory sub) is a symlink"},
		{"create over a dangling symlink on disk", create("new.md", "x\n"), OnDisk{"new.md": fs.ModeSymlink | 0o777}, "new.md is a symlink"},
		{"create over a FIFO", create("pipe.md", "x\n"), OnDisk{"pipe.md": fs.ModeNamedPipe | 0o644}, "named pipe, not a regular file"},
		{"update of a file become a symlink since the scan", model.Proposal{Kind: model.KindFixFrontmatter, Title: "t", Changes: []model.Change{{Path: "user_role.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(d.Files[1].Content), After: "x\n"}}}, OnDisk{"user_role.md": fs.ModeSymlink}, "symlink"},
		{"parent is a file", create("user_role.md/x.md", "x\n"), OnDisk{"user_role.md": 0o644}, "not a directory"},
		{"create over a file memtui did not read", create("unread.md", "x\n"), OnDisk{"unread.md": 0o644}, "did not read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CheckExternalOnDisk(dreamProject, d, c.p, false, c.disk)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
			// The reason quotes the proposer's words as they are: the
			// printers make them safe (one sanitizer, no double escaping;
			// proposer_test.go checks what reaches the terminal).
		})
	}
}

func TestCheckExternalAcceptsNamesInAnyScript(t *testing.T) {
	d := externalFixture()
	for _, name := range []string{"café_notes.md", "заметки о сборке.md", "メモ.md", "deploy (staging)-v2.md", "नोट्स.md", "team-a/notes.md"} {
		p := model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: name, Op: model.OpCreate, After: "x\n"}}}
		if _, err := CheckExternalOnDisk(dreamProject, d, p, false, OnDisk{"team-a": fs.ModeDir | 0o755}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A file of exactly the read cap is read whole, so it may be written.
	p := model.Proposal{Kind: model.KindReindex, Title: "t", Changes: []model.Change{{Path: "big.md", Op: model.OpCreate, After: strings.Repeat("x", MaxProposedFileBytes)}}}
	if _, err := CheckExternal(dreamProject, d, p, false); err != nil {
		t.Errorf("a file at the cap: %v", err)
	}
}

// Everything a proposer reads is redacted: contents, the index, file
// names, and the findings, which quote transcript text and branch names.
func TestProposerInputIsRedactedThroughout(t *testing.T) {
	token := "ghp_Hn4Wq8Zt2Lp6Vb9Xc3Mk7Rj1Fd5Gs0Ya8uEq"
	slack := "xoxb-2837465019-7364519283-aZ3kQ9wLm2Xc8Vb4Nd7Rt1Yp"
	d := testmodel.Dir(map[string]string{
		"reference_" + token + ".md": testmodel.Topic("ci", "The CI token is "+slack, "reference", "Token: "+token+"\n"),
		"MEMORY.md":                  "- [CI](reference_" + token + ".md) — token " + slack + "\n",
	}, testmodel.Now)
	in := NewProposerInput(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}})
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Findings) == 0 || in.Index == nil || len(in.Files) != 1 {
		t.Fatalf("the fixture must give findings, an index and a file: %s", raw)
	}
	for _, secret := range []string{token, slack, token[:20], slack[:20]} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the proposer's input holds %q:\n%s", secret, raw)
		}
	}
}

// An existing file whose name only fails the rule for new names (a #, a
// symbol) may still be fixed; one whose name holds a control or format
// character may not.
func TestCheckExternalExistingNames(t *testing.T) {
	for name, ok := range map[string]bool{"c#-notes.md": true, "deploy ★.md": true, "x\x1b[2J.md": false, "a\u202eb.md": false} {
		content := testmodel.Topic("n", "d", "project", "Body.\n")
		d := testmodel.Dir(map[string]string{name: content}, testmodel.Now)
		after := strings.Replace(content, "Body.", "Body, fixed.", 1)
		p := model.Proposal{Kind: model.KindFixFrontmatter, Title: "t", Changes: []model.Change{{Path: name, Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(content)), After: after}}}
		_, err := CheckExternal(dreamProject, d, p, false)
		if (err == nil) != ok {
			t.Errorf("update of %q: err %v, want accepted %v", name, err, ok)
		}
		p.Changes[0] = model.Change{Path: "new-" + name, Op: model.OpCreate, After: after}
		if _, err := CheckExternal(dreamProject, d, p, false); err == nil {
			t.Errorf("a new file %q was accepted", "new-"+name)
		}
	}
}

// An external proposer asked about another agent's store (--memory-root)
// gets the findings lint reports there: not the Claude rules that do not
// apply to a copy of the format, and each naming the agent.
func TestProposerInputForAnotherAgent(t *testing.T) {
	d := testmodel.Dir(map[string]string{"topic.md": testmodel.Topic("d", strings.Repeat("a", 301), "reference", testmodel.Body)}, testmodel.Now)
	has := func(in ProposerInput, rule string) bool {
		for _, f := range in.Findings {
			if f.Rule == rule {
				return true
			}
		}
		return false
	}
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}}
	if in := NewProposerInput(dreamProject, d, opts); !has(in, consolidate.RuleDescriptionTooLong) {
		t.Fatalf("Claude Code's store: no %s finding to leave out elsewhere: %+v", consolidate.RuleDescriptionTooLong, in.Findings)
	}
	qwen := *dreamProject
	qwen.Agent = "qwen"
	in := NewProposerInput(&qwen, d, opts)
	if has(in, consolidate.RuleDescriptionTooLong) {
		t.Errorf("a Qwen Code store's input keeps %s, a rule of Claude Code's recall", consolidate.RuleDescriptionTooLong)
	}
	for _, f := range in.Findings {
		if f.Agent != "qwen" {
			t.Errorf("finding %s does not name the agent: %+v", f.Rule, f)
		}
	}
}
