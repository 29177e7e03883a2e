package dream

import (
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

var dreamProject = &model.Project{Slug: "p", ConfigDir: "/cfg"}

func propose(t *testing.T, d *model.MemoryDir, kinds ...model.ProposalKind) []model.Proposal {
	t.Helper()
	return ProposeDir(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: kinds})
}

// filesOf is a directory's files as Apply takes them.
func filesOf(d *model.MemoryDir) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range d.Files {
		out[f.Path] = f.Content
	}
	if d.Index != nil {
		out["MEMORY.md"] = d.Index.Content
	}
	return out
}

// dirOf rebuilds a directory from Apply's result, keeping each file's
// mtime where it was unchanged and stamping changed ones now (as a write
// would).
func dirOf(old *model.MemoryDir, files map[string][]byte) *model.MemoryDir {
	before := filesOf(old)
	mods := map[string]time.Time{}
	for _, f := range old.Files {
		mods[f.Path] = f.ModTime
	}
	d := &model.MemoryDir{Path: old.Path, Kind: old.Kind, Exists: true}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		mod := mods[p]
		if string(before[p]) != string(files[p]) || mod.IsZero() {
			mod = testmodel.Now
		}
		f := testmodel.File(p, string(files[p]), mod)
		if p == "MEMORY.md" {
			d.Index = f
		} else {
			d.Files = append(d.Files, f)
		}
	}
	return d
}

// applyAll applies every proposal, regenerating after each (a proposal
// whose file another one changed is refused and proposed again, as memtui
// does), until none is left or only ones that do not apply remain. It
// returns the final directory and every finding any applied proposal
// claimed to fix.
func applyAll(t *testing.T, d *model.MemoryDir) (*model.MemoryDir, []model.FindingRef) {
	t.Helper()
	var claimed []model.FindingRef
	for round := 0; round < 50; round++ {
		props := propose(t, d)
		applied := false
		for _, p := range props {
			out, err := Apply(filesOf(d), p)
			if err != nil {
				continue
			}
			claimed = append(claimed, p.Fixes...)
			d = dirOf(d, out)
			applied = true
			break
		}
		if !applied {
			return d, claimed
		}
	}
	t.Fatal("proposals never settle")
	return nil, nil
}

func TestNoProposalForACleanDirectory(t *testing.T) {
	recent := testmodel.Now.AddDate(0, 0, -3)
	d := testmodel.Dir(map[string]string{
		"feedback_deploy.md": testmodel.Topic("deploy", "Deploy with make ship", "feedback", testmodel.Body),
		"user_role.md":       testmodel.Topic("role", "The user is a backend engineer who owns billing", "user", "The user owns the billing service and reviews every schema change.\n"),
	}, recent)
	if fs := lint(t, nil, d, consolidate.Options{}); len(fs) != 0 {
		t.Fatalf("the fixture is not clean: %+v", fs)
	}
	if ps := propose(t, d); len(ps) != 0 {
		t.Errorf("a clean directory got proposals: %+v", ps)
	}
}

func TestRedactSecretReplacesOnlyTheSecret(t *testing.T) {
	token := "ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u"
	content := testmodel.Topic("ci-bot", "The CI bot's token and where it lives", "reference", "Token: "+token+"\nRotated every 90 days.\n")
	d := testmodel.Dir(map[string]string{"reference_ci.md": content}, testmodel.Now.AddDate(0, 0, -2))
	ps := propose(t, d, model.KindRedactSecret)
	if len(ps) != 1 || len(ps[0].Changes) != 1 {
		t.Fatalf("want one redaction, got %+v", ps)
	}
	c := ps[0].Changes[0]
	if want := strings.Replace(content, token, "[REDACTED]", 1); c.After != want {
		t.Errorf("after:\n%s\nwant:\n%s", c.After, want)
	}
	if c.BaseSHA256 != consolidate.SHA256Hex([]byte(content)) || c.Op != model.OpUpdate {
		t.Errorf("change %+v", c)
	}
	if len(ps[0].Fixes) != 1 || ps[0].Fixes[0].Rule != consolidate.RuleSecret {
		t.Errorf("fixes %+v", ps[0].Fixes)
	}
}

func TestAbsolutizeDatesGivesTheMeantDate(t *testing.T) {
	mod := time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local)
	cases := []struct{ body, want string }{
		{"The load test runs tomorrow at 06:00 UTC.\n", "The load test runs on 2026-06-11 at 06:00 UTC.\n"},
		{"Tomorrow we freeze the release branch.\n", "On 2026-06-11 we freeze the release branch.\n"},
		{"Ship the fix by tomorrow, the customer waits.\n", "Ship the fix by 2026-06-11, the customer waits.\n"},
		{"上线时间定在明天上午。\n", "上线时间定在2026年6月11日上午。\n"},
	}
	for _, c := range cases {
		d := testmodel.Dir(map[string]string{"project_x.md": testmodel.Topic("x", "A project fact with a date in it", "project", c.body)}, mod)
		ps := propose(t, d, model.KindAbsolutizeDates)
		if len(ps) != 1 {
			t.Fatalf("%q: want one proposal, got %d", c.body, len(ps))
		}
		got := ps[0].Changes[0].After
		if !strings.HasSuffix(got, c.want) {
			t.Errorf("%q became %q, want it to end %q", c.body, got, c.want)
		}
		if !strings.Contains(ps[0].Rationale, "2026-06-10") {
			t.Errorf("the rationale must name the anchor: %s", ps[0].Rationale)
		}
	}
}

func TestAddYear(t *testing.T) {
	mod := time.Date(2026, 10, 28, 9, 0, 0, 0, time.Local)
	d := testmodel.Dir(map[string]string{"project_sunset.md": testmodel.Topic("sunset", "When the v1 endpoints go away", "project", "The v1 endpoints are switched off on May 26. Then 5月26日 too.\n")}, mod)
	ps := propose(t, d, model.KindAddYear)
	if len(ps) != 1 {
		t.Fatalf("want one proposal, got %+v", ps)
	}
	after := ps[0].Changes[0].After
	if !strings.Contains(after, "on May 26, 2026.") || !strings.Contains(after, "2026年5月26日") {
		t.Errorf("after: %s", after)
	}
}

func TestFixFrontmatter(t *testing.T) {
	recent := testmodel.Now.AddDate(0, 0, -2)
	cases := []struct {
		name, path, content string
		want                []string // substrings of the result
		rules               []string // rules it must claim
	}{
		{"missing", "feedback_review.md", "# Review style\n\nReviews lead with the risk, then the nits; the author resolves threads.\n",
			[]string{"---\nname: feedback-review\ndescription: Review style\nmetadata: \n  node_type: memory\n  type: feedback\n---\n\n# Review style\n"},
			[]string{consolidate.RuleFrontmatterMissing}},
		{"unquoted", "reference_staging.md", "---\nname: staging\ndescription: Staging host: acme-stg.internal, over the VPN\ntype: reference\n---\n\nThe staging host is acme-stg.internal and answers only over the VPN.\n",
			[]string{`description: "Staging host: acme-stg.internal, over the VPN"`},
			[]string{consolidate.RuleFrontmatterUnquoted}},
		{"not at start", "project_handoff.md", "# Handoff\n\n---\nname: handoff\ndescription: What an on-call handoff must say\ntype: project\n---\n\nThree things: open escalations, live alerts, promises to customers.\n",
			[]string{"---\nname: handoff\n", "---\n\n# Handoff\n"},
			[]string{consolidate.RuleFrontmatterNotAtStart}},
		{"type missing", "reference_bot.md", "---\nname: bot\ndescription: The alert bot and where its config lives\n---\n\nThe alert bot posts to #ops; its config is in the ops repo.\n",
			[]string{"description: The alert bot and where its config lives\ntype: reference\n---"},
			[]string{consolidate.RuleTypeMissing}},
		{"type invalid", "decision_sqlc.md", "---\nname: sqlc\ndescription: sqlc instead of an ORM for billing\nmetadata: \n  node_type: memory\n  type: decision\n---\n\nBilling uses sqlc; the ORM hid N+1 queries.\n",
			[]string{"  type: project\n"},
			[]string{consolidate.RuleTypeInvalid}},
		{"crlf", "reference_db.md", "---\r\nname: db\r\ndescription: DB host: db.internal\r\ntype: reference\r\n---\r\n\r\nThe primary is db.internal; replicas are read-only.\r\n",
			// Claude Code's retry never quotes a CRLF line, so it reads
			// no frontmatter here at all: the fix settles that error.
			[]string{"description: \"DB host: db.internal\"\r\n"},
			[]string{consolidate.RuleFrontmatterUnreadable}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testmodel.Dir(map[string]string{c.path: c.content}, recent)
			ps := propose(t, d, model.KindFixFrontmatter)
			if len(ps) != 1 {
				t.Fatalf("want one proposal, got %d", len(ps))
			}
			after := ps[0].Changes[0].After
			for _, w := range c.want {
				if !strings.Contains(after, w) {
					t.Errorf("result lacks %q:\n%s", w, after)
				}
			}
			for _, r := range c.rules {
				found := false
				for _, f := range ps[0].Fixes {
					found = found || f.Rule == r
				}
				if !found {
					t.Errorf("fixes %+v lack %s", ps[0].Fixes, r)
				}
			}
			if doc := claude.ParseDoc([]byte(after)); doc.Status != model.FMOK {
				t.Errorf("the result's frontmatter is %v (%s):\n%s", doc.Status, doc.Problem, after)
			}
			if strings.Contains(c.content, "\r\n") && strings.Count(after, "\n") != strings.Count(after, "\r\n") {
				t.Error("a CRLF file must stay CRLF")
			}
		})
	}
}

func TestPruneEmptyMemoryWithItsEntry(t *testing.T) {
	recent := testmodel.Now.AddDate(0, 0, -2)
	d := testmodel.Dir(map[string]string{
		"feedback_deploy.md": testmodel.Topic("deploy", "Deploy with make ship", "feedback", testmodel.Body),
		"project_empty.md":   "",
		"MEMORY.md":          "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship, not npm\n- [Empty](project_empty.md) — nothing yet\n  - a continuation line\n",
	}, recent)
	ps := propose(t, d, model.KindPrune)
	if len(ps) != 1 {
		t.Fatalf("want one prune, got %+v", ps)
	}
	var del, ix *model.Change
	for i, c := range ps[0].Changes {
		switch c.Path {
		case "project_empty.md":
			del = &ps[0].Changes[i]
		case "MEMORY.md":
			ix = &ps[0].Changes[i]
		}
	}
	if del == nil || del.Op != model.OpDelete || del.BaseSHA256 != consolidate.SHA256Hex(nil) {
		t.Fatalf("the empty file must be deleted against its hash: %+v", ps[0].Changes)
	}
	if ix == nil || ix.After != "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship, not npm\n" {
		t.Fatalf("the index must lose the entry and its continuation: %+v", ix)
	}
}

// Everything proposed, applied (regenerating after each, as a conflict
// would), leaves none of the findings the proposals claimed to fix.
func TestApplyingEveryProposalFixesWhatItClaims(t *testing.T) {
	token := "ghp_Zq7Lm2Np9Rt4Vw8Yz3Kb6HjXc1Ds5Fg0Aw4e"
	mod := time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local)
	d := testmodel.Dir(map[string]string{
		"project_launch.md":    testmodel.Topic("launch", "Launch plan for the portal", "project", "We launch tomorrow; the freeze starts May 26 and the token is "+token+".\n"),
		"reference_staging.md": "---\nname: staging\ndescription: Staging host: acme-stg.internal\ntype: reference\n---\n\nThe staging host answers only over the VPN, port 8443.\n",
		"feedback_review.md":   "# Reviews\n\nReviews lead with the risk, then the nits; the author resolves threads.\n",
		"project_empty.md":     "",
	}, mod)
	before := lint(t, nil, d, consolidate.Options{})
	if len(before) == 0 {
		t.Fatal("the fixture has no findings")
	}
	after, claimed := applyAll(t, d)
	if len(claimed) == 0 {
		t.Fatal("nothing was applied")
	}
	left := map[string]bool{}
	for _, f := range lint(t, nil, after, consolidate.Options{}) {
		left[f.Rule+" "+f.File] = true
	}
	for _, c := range claimed {
		if left[c.Rule+" "+c.File] {
			t.Errorf("%s on %s was claimed fixed but is still reported", c.Rule, c.File)
		}
	}
	for _, f := range after.Files {
		if strings.Contains(string(f.Content), token) {
			t.Errorf("the secret survived in %s", f.Path)
		}
	}
}

func TestProposalsAreDeterministic(t *testing.T) {
	mod := time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local)
	mk := func() *model.MemoryDir {
		return testmodel.Dir(map[string]string{
			"project_launch.md":    testmodel.Topic("launch", "Launch plan for the portal", "project", "We launch tomorrow; the freeze starts May 26.\n"),
			"reference_staging.md": "---\nname: staging\ndescription: Staging host: acme-stg.internal\ntype: reference\n---\n\nOver the VPN only.\n",
		}, mod)
	}
	a, b := propose(t, mk()), propose(t, mk())
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
	}
	// The same tree under another config dir gets the same IDs.
	d := mk()
	d.Path = "/elsewhere/projects/p/memory"
	c := ProposeDir(&model.Project{Slug: "p", ConfigDir: "/elsewhere"}, d, Options{Options: consolidate.Options{Now: testmodel.Now}})
	for i := range a {
		if a[i].ID != c[i].ID {
			t.Errorf("proposal %d: ID %s here, %s for the copy", i, a[i].ID, c[i].ID)
		}
	}
}

func TestTeamIsLeftAloneUnlessAsked(t *testing.T) {
	d := testmodel.Dir(map[string]string{"project_x.md": testmodel.Topic("x", "A fact with a relative date", "project", "It ships tomorrow.\n")}, time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local))
	d.Kind = model.DirTeam
	d.Path = "/cfg/projects/p/memory/team"
	if ps := propose(t, d); len(ps) != 0 {
		t.Errorf("team/ got proposals without --include-team: %+v", ps)
	}
	ps := ProposeDir(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}, IncludeTeam: true})
	if len(ps) == 0 {
		t.Error("with IncludeTeam, team/ gets its proposals")
	}
}

// A proposal that rewrites a file holding a secret redacts it too.
func TestNoProposalWritesASecret(t *testing.T) {
	token := "ghp_Kx9Pw3Tz7Qm1Lb5Nv8Rc2Hd6Jf0Gs4Ay9uEr"
	d := testmodel.Dir(map[string]string{"project_x.md": testmodel.Topic("x", "A fact with a date and a token", "project", "It ships tomorrow with "+token+".\n")}, time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local))
	ps := propose(t, d, model.KindAbsolutizeDates)
	if len(ps) != 1 {
		t.Fatalf("want one proposal, got %d", len(ps))
	}
	if after := ps[0].Changes[0].After; strings.Contains(after, token) || !strings.Contains(after, "[REDACTED]") || !strings.Contains(after, "on 2026-06-11") {
		t.Errorf("after: %s", after)
	}
	if !strings.Contains(ps[0].Rationale, "[REDACTED]") {
		t.Errorf("the rationale must say the secret goes too: %s", ps[0].Rationale)
	}
}

func TestApplyChecksBaseHashes(t *testing.T) {
	d := testmodel.Dir(map[string]string{"project_x.md": testmodel.Topic("x", "A fact with a relative date", "project", "It ships tomorrow.\n")}, time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local))
	ps := propose(t, d)
	if len(ps) == 0 {
		t.Fatal("no proposal")
	}
	files := filesOf(d)
	files["project_x.md"] = append(files["project_x.md"], "An agent wrote this meanwhile.\n"...)
	if _, err := Apply(files, ps[0]); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("a file changed since the proposal must refuse it: %v", err)
	}
}
