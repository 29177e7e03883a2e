package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testgen"
	"github.com/memtui/memtui/internal/testmodel"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
)

// secShown reports which of the tokens (or 8 bytes of a key's material)
// text shows.
func secShown(text string, toks []string, material []string) string {
	for _, s := range toks {
		if strings.Contains(text, s) || len(s) > 12 && strings.Contains(text, s[4:12]) {
			return s
		}
	}
	return testgen.Leaks(text, material)
}

// proposalShows checks every text of every proposal: title, rationale and
// what each change writes.
func proposalShows(t *testing.T, ps []model.Proposal, toks []string, material []string) {
	t.Helper()
	for _, p := range ps {
		for what, text := range map[string]string{"title": p.Title, "rationale": p.Rationale} {
			if s := secShown(text, toks, material); s != "" {
				t.Errorf("%s %s shows %q: %s", p.ID, what, s, text)
			}
		}
		for _, c := range p.Changes {
			if s := secShown(c.After, toks, material); s != "" {
				t.Errorf("%s writes %q into %s:\n%s", p.ID, s, c.Path, c.After)
			}
			if strings.Contains(c.After, secrets.Redacted+".md") || strings.Contains(c.After, "("+secrets.Redacted) {
				t.Errorf("%s writes a link to a redacted name into %s:\n%s", p.ID, c.Path, c.After)
			}
		}
	}
}

// A secret in a file's name is a finding on that file, and no proposal
// links to the file: neither with the secret nor as "[REDACTED].md".
func TestSecretInFileName(t *testing.T) {
	tok := "ghp_" + testgen.New(41).S(testgen.Alnum, 36)
	name := "reference_" + tok + ".md"
	files := map[string]string{
		name:               testmodel.Topic("ci-token", "Where the CI token lives", "reference", "The CI bot uses the token this file is named after.\n"),
		"user_role.md":     testmodel.Topic("user-role", "The user is a backend engineer who owns billing", "user", "Owns billing.\n"),
		"project_scope.md": testmodel.Topic("project-scope", "What the project covers", "project", "Billing and invoices.\n"),
	}
	for _, c := range []struct {
		name  string
		index string // "" for no MEMORY.md
	}{
		{"no index", ""},
		{"orphan", "# Memory\n\n- [User role](user_role.md) — backend engineer, owns billing\n"},
		{"linked", "# Memory\n\n- [User role](user_role.md) — backend engineer, owns billing\n- [CI token](" + name + ") — where it lives\n- [Gone](gone.md) — a broken entry\n"},
	} {
		d := testmodel.Dir(files, testmodel.Now.AddDate(0, 0, -2))
		d.Index = nil
		if c.index != "" {
			d.Index = testmodel.File("MEMORY.md", c.index, testmodel.Now.AddDate(0, 0, -2))
		}
		var named []model.Finding
		for _, f := range consolidate.OrientDir(dreamProject, d, consolidate.Options{Now: testmodel.Now}) {
			if f.Rule == consolidate.RuleSecret && f.File == name && f.Line == 0 {
				named = append(named, f)
			}
		}
		if len(named) != 1 || !strings.Contains(named[0].Message, "file name") || named[0].Severity != model.Error ||
			strings.Contains(named[0].Message, tok) || !strings.Contains(named[0].Suggestion, "Rename") {
			t.Errorf("%s: want one secret error on the name, masked, asking for a rename; got %+v", c.name, named)
		}
		ps := propose(t, d)
		proposalShows(t, ps, []string{tok}, nil)
		var reindex *model.Proposal
		for i := range ps {
			if ps[i].Kind == model.KindReindex {
				reindex = &ps[i]
			}
			for _, fx := range ps[i].Fixes {
				if fx.Rule == consolidate.RuleSecret && fx.File == name && fx.Line == 0 {
					t.Errorf("%s: %s claims to fix the secret in the name", c.name, ps[i].ID)
				}
			}
		}
		switch c.name {
		case "linked":
			// The index must keep its link (only a rename fixes it) and
			// cannot be rewritten without writing the secret back.
			if reindex != nil {
				t.Errorf("linked: a reindex that keeps the secret-named link was proposed: %+v", reindex)
			}
		default:
			if reindex == nil {
				t.Fatalf("%s: want a reindex for the other files, got %+v", c.name, ps)
			}
			after := rxChange(*reindex, "MEMORY.md").After
			if !strings.Contains(after, "(project_scope.md)") || strings.Contains(after, "reference_") || strings.Contains(after, "## Reference") {
				t.Errorf("%s: MEMORY.md after:\n%s", c.name, after)
			}
			if !strings.Contains(reindex.Rationale, "1 file left out of the index: its name holds a secret") {
				t.Errorf("%s: the rationale must say why a file has no entry: %s", c.name, reindex.Rationale)
			}
		}
	}
}

// Text a transcript recorded (a lost update, the writer's session title,
// its branch) reaches the lost-update finding and the restore proposal
// masked, and the restored file redacted.
func TestLostUpdateSecretsMasked(t *testing.T) {
	g := testgen.New(42)
	tok, brTok, titleTok := "ghp_"+g.S(testgen.Alnum, 36), "ghp_"+g.S(testgen.Alnum, 36), "glpat-"+g.S(testgen.Alnum, 20)
	key := testgen.Keys(g)[3]
	c0 := testmodel.Topic("deploy-notes", "How the deploy works", "project", "Deploy with make ship.\n")
	added := "Deploy token: " + tok + "\n" + key.Text + "\n"
	cB := c0 + "Freeze on Fridays.\n"
	log := testmodel.NewLog().
		Session(testmodel.RaceA, "Set up "+titleTok, "feat/"+brTok, testmodel.At(0)).
		Session(testmodel.RaceB, "Release freeze", "main", testmodel.At(1)).
		Read(testmodel.RaceA, testmodel.At(10), "project_deploy.md", c0).
		Read(testmodel.RaceB, testmodel.At(11), "project_deploy.md", c0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "project_deploy.md", c0, true, "Deploy with make ship.\n", "Deploy with make ship.\n"+added).
		Write(testmodel.RaceB, testmodel.At(20), "project_deploy.md", c0, cB).
		Build()
	d := testmodel.LostMemDir(map[string]string{"project_deploy.md": cB})
	toks := []string{tok, brTok, titleTok}

	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) == 0 {
		t.Fatal("want a lost-update finding")
	}
	for _, f := range fs {
		if s := secShown(f.Message+"\n"+f.Suggestion, toks, key.Material); s != "" {
			t.Errorf("the finding shows %q: %s / %s", s, f.Message, f.Suggestion)
		}
		if !strings.Contains(f.Message, "ghp_…(40 chars)") {
			t.Errorf("the message should name the lost text, masked: %s", f.Message)
		}
	}
	ps := ProposeDir(lostProject(log), d, Options{Options: consolidate.Options{Now: testmodel.Now}})
	proposalShows(t, ps, toks, key.Material)
	restored := false
	for _, p := range ps {
		if p.Kind == model.KindRestoreLost {
			restored = strings.Contains(p.Changes[0].After, "Deploy token: "+secrets.Redacted) && strings.Contains(p.Rationale, "on branch feat/")
		}
	}
	if !restored {
		t.Errorf("want a restore-lost proposal putting the text back redacted: %+v", ps)
	}
	for _, w := range log.Writes {
		if l := forensics.WriterLabel(w, log); secShown(l, toks, nil) != "" {
			t.Errorf("WriterLabel shows a secret: %s", l)
		}
	}
}

// The redact-secret proposal replaces a private key line by line: the
// file keeps its line count, no line of the key survives, and the result
// holds no secret.
func TestRedactSecretPrivateKeyLineByLine(t *testing.T) {
	for _, k := range testgen.Keys(testgen.New(43)) {
		content := testmodel.Topic("deploy-key", "The staging deploy key", "reference", "The key:\n"+k.Text+"\nRotate it monthly.\n")
		d := testmodel.Dir(map[string]string{"reference_key.md": content}, testmodel.Now.AddDate(0, 0, -2))
		ps := propose(t, d, model.KindRedactSecret)
		if len(ps) != 1 || len(ps[0].Changes) != 1 {
			t.Fatalf("%s: want one redaction, got %+v", k.Name, ps)
		}
		after := ps[0].Changes[0].After
		if leak := testgen.Leaks(after, k.Material); leak != "" {
			t.Errorf("%s: the redaction keeps %q:\n%s", k.Name, leak, after)
		}
		if strings.Count(after, "\n") != strings.Count(content, "\n") || !strings.Contains(after, "The key:\n[REDACTED]\n[REDACTED]\n") || !strings.HasSuffix(after, "[REDACTED]\nRotate it monthly.\n") {
			t.Errorf("%s: want every line of the key [REDACTED], the rest as it was:\n%s", k.Name, after)
		}
		if got := secrets.Default().Scan(after); len(got) != 0 {
			t.Errorf("%s: the redacted file still holds %+v", k.Name, got)
		}
	}
}

// TestAWSSecretKeyIsALintError: the generic rule would find an AWS secret
// access key only under --deep-secrets; its own rule makes it a secret
// finding, an error, in lint by default, masked.
func TestAWSSecretKeyIsALintError(t *testing.T) {
	key := testgen.New(25).S(testgen.B64, 40) // the key the scanner's own test finds
	d := testmodel.Dir(map[string]string{"reference_aws.md": testmodel.Topic("aws", "The deploy user's AWS credentials", "reference", "aws_secret_access_key = "+key+"\n")}, testmodel.Now)
	var found []model.Finding
	for _, f := range consolidate.OrientDir(dreamProject, d, consolidate.Options{Now: testmodel.Now}) {
		if f.Rule == consolidate.RuleSecret {
			found = append(found, f)
		}
	}
	if len(found) != 1 || found[0].Severity != model.Error || found[0].File != "reference_aws.md" || strings.Contains(found[0].Message, key[4:]) {
		t.Errorf("want one secret error on reference_aws.md, masked; got %+v", found)
	}
}
