package dream

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// metadata.claudeCodeItem (facts doc 2.2) is Claude Code's record of a
// memory: its ids, the user's consent, its state and promotion records.
// Every rewrite memtui proposes keeps it byte for byte.

// ccItem is a claudeCodeItem block under metadata:, as Claude Code's
// serializer writes it, with prompt as its typed prompt. extra goes inside
// it (an unknown key, which the schema lets through).
func ccItem(prompt, extra string) string {
	return "  claudeCodeItem: \n" +
		"    id: 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n" +
		"    state: acked\n" +
		"    consent: on\n" +
		"    src: typed\n" +
		"    typed: \n" +
		"      session: 6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n" +
		"      turn: 2\n" +
		"      prompt: \"" + prompt + "\"\n" + extra +
		"    promoted: \n" +
		"      - account_path: CLAUDE.md\n" +
		"        line_hash: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n" +
		"        at: 2026-11-20T10:00:00.000Z\n"
}

// itemFile is a memory in the current shape with a claudeCodeItem block
// before metadata.modified.
func itemFile(name, desc, typ, prompt, modified, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nmetadata: \n  node_type: memory\n  type: " + typ + "\n" +
		ccItem(prompt, "") + "  modified: " + modified + "\n---\n\n" + body
}

// blocks is every claudeCodeItem block of content, in order.
func blocks(content []byte) []string {
	var out []string
	for _, s := range claude.ItemSpans(content) {
		out = append(out, string(content[s[0]:s[1]]))
	}
	return out
}

const (
	bodyToken = "ghp_Xr7Kq2Lm9Pz4Tb6Wn1Yc8Vd3Hf5Js0Ga2Ek7"
	itemToken = "ghp_Qa2Ek7Js0Hf5Vd3Yc8Wn1Tb6Pz4Lm9Kq2Xr7"
)

// TestClaudeCodeItemSurvivesEveryProposalKind proposes each kind over a
// directory whose files carry a claudeCodeItem block and checks that
// every file a proposal rewrites keeps its block byte for byte, before
// and after Apply.
func TestClaudeCodeItemSurvivesEveryProposalKind(t *testing.T) {
	recent := testmodel.Now.AddDate(0, 0, -3)
	deploy := "Deploy with `make ship`; `npm run deploy` skips the database migrations.\n\n" +
		"**Why:** the migration step lives in the Makefile, not in package.json.\n\n" +
		"**How to apply:** always ship with make, never with npm.\n"
	type kcase struct {
		dir    func() (*model.MemoryDir, *model.Project)
		target string // the file with a block the proposal must rewrite (or delete)
		check  func(t *testing.T, p model.Proposal, after map[string][]byte)
		// created: the proposal brings target back (it is not on disk
		// before), and it must come back with its block.
		created string
		// stranded, when set, is a store to adopt into the dir.
		stranded func() *model.MemoryDir
	}
	plain := func(files map[string]string, mod time.Time) func() (*model.MemoryDir, *model.Project) {
		return func() (*model.MemoryDir, *model.Project) { return testmodel.Dir(files, mod), dreamProject }
	}
	cases := map[model.ProposalKind]kcase{
		model.KindRedactSecret: {
			dir: plain(map[string]string{"reference_bot.md": itemFile("bot", "The CI bot and its token", "reference",
				"save the bot token "+itemToken, "2026-11-18T10:00:00.000Z",
				"The CI bot posts as @acme-ci. Its token is "+bodyToken+" for now.\n")}, recent),
			target: "reference_bot.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				a := string(after["reference_bot.md"])
				if strings.Contains(a, bodyToken) || !strings.Contains(a, "Its token is [REDACTED] for now.") {
					t.Errorf("the body's secret is not redacted:\n%s", a)
				}
				if !strings.Contains(a, itemToken) || !strings.Contains(p.Rationale, "metadata.claudeCodeItem stays") {
					t.Errorf("the block's secret must stay, and the rationale say so: %s", p.Rationale)
				}
				for _, f := range p.Fixes {
					if f.Line < 20 {
						t.Errorf("the proposal claims to fix the secret in the block: %+v", f)
					}
				}
			},
		},
		model.KindFixFrontmatter: {
			// The block holds a value with " #" (a YAML comment), which
			// the quoting fix must leave alone.
			dir: plain(map[string]string{"reference_staging.md": strings.Replace(strings.Replace(itemFile("staging", "x", "reference",
				"note: the staging host", "2026-11-18T10:00:00.000Z", "The staging host is acme-stg.internal, reachable over the VPN.\n"),
				"description: x", "description: Staging host: acme-stg.internal, over the VPN", 1),
				"      turn: 2\n", "      turn: 2\n      label: staging #42\n", 1)}, recent),
			target: "reference_staging.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				if a := string(after["reference_staging.md"]); !strings.Contains(a, `description: "Staging host: acme-stg.internal, over the VPN"`) {
					t.Errorf("not quoted:\n%s", a)
				}
			},
		},
		model.KindAbsolutizeDates: {
			dir: plain(map[string]string{"project_freeze.md": itemFile("freeze", "The release freeze", "project",
				"the freeze starts tomorrow", "2026-06-10T09:00:00.000Z", "The release freeze starts tomorrow.\n")}, recent),
			target: "project_freeze.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				a := string(after["project_freeze.md"])
				if !strings.Contains(a, "The release freeze starts on 2026-06-11.") || !strings.Contains(a, `prompt: "the freeze starts tomorrow"`) {
					t.Errorf("want the body's date absolute and the prompt's as written:\n%s", a)
				}
			},
		},
		model.KindAddYear: {
			dir: plain(map[string]string{"project_sunset.md": itemFile("sunset", "When the v1 endpoints go away", "project",
				"v1 goes away on May 26", "2026-10-28T09:00:00.000Z", "The v1 endpoints are switched off on May 26.\n")}, recent),
			target: "project_sunset.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				a := string(after["project_sunset.md"])
				if !strings.Contains(a, "on May 26, 2026.") || !strings.Contains(a, `prompt: "v1 goes away on May 26"`) {
					t.Errorf("want the body's year added and the prompt's date as written:\n%s", a)
				}
			},
		},
		model.KindMerge: {
			// The survivor's block holds a modified: of its own (an
			// unknown key) before metadata.modified: the stamp must find
			// metadata's. release.md names the deleted memory in its
			// block and in its body: only the body is repointed.
			dir: func() (*model.MemoryDir, *model.Project) {
				keep := "---\nname: deploy\ndescription: How to deploy the API\nmetadata: \n  node_type: memory\n  type: feedback\n" +
					ccItem("how do we deploy", "      modified: 2026-01-01T00:00:00.000Z\n") +
					"  modified: 2026-10-01T08:00:00.000Z\n---\n\n" + deploy
				files := append(bystanders(),
					testmodel.File("deploy.md", keep, recent),
					testmodel.File("deploy-copy.md", itemFile("deploy-copy", "How we deploy", "feedback", "deploy notes", "2026-10-05T08:00:00.000Z",
						deploy+"\nStaging deploys go through `make ship ENV=staging`.\n"), testmodel.Now.AddDate(0, 0, -10)),
					testmodel.File("release.md", itemFile("release", "Release checklist for the billing API", "project", "see [[deploy-copy]]",
						"2026-10-05T08:00:00.000Z", "Tag from main, then follow [[deploy-copy]].\n\nAnnounce in #billing once the canary is green.\n"), recent),
				)
				index := "# Memory\n\n- [Deploy](deploy.md) — make ship\n- [Deploy (copy)](deploy-copy.md) — make ship, not npm\n" +
					"- [Release](release.md) — checklist\n- [Role](user_role.md) — billing backend\n- [Grafana](reference_grafana.md) — dashboards\n"
				return mergeDir(index, files...), mergeProject
			},
			target: "deploy.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				a := string(after["deploy.md"])
				if !strings.Contains(a, "  modified: "+testmodel.Now.UTC().Format("2006-01-02T15:04:05.000Z")+"\n") || !strings.Contains(a, "      modified: 2026-01-01T00:00:00.000Z\n") {
					t.Errorf("metadata.modified must be stamped, the block's own key left:\n%s", a)
				}
				if _, ok := after["deploy-copy.md"]; ok {
					t.Error("deploy-copy.md is not deleted")
				}
				r := string(after["release.md"])
				if !strings.Contains(r, "then follow [[deploy]].") || !strings.Contains(r, `prompt: "see [[deploy-copy]]"`) {
					t.Errorf("release.md: want the body's link repointed, the block's kept:\n%s", r)
				}
				if !strings.Contains(p.Rationale, "metadata.claudeCodeItem, kept whole in memtui's journal") {
					t.Errorf("the rationale must say the deleted member's block goes to the journal: %s", p.Rationale)
				}
			},
		},
		model.KindPrune: {
			dir: plain(map[string]string{
				"stub.md":         itemFile("stub", "", "project", "remember this", "2026-11-18T10:00:00.000Z", ""),
				"project_keep.md": itemFile("keep", "A real memory next to the stub", "project", "keep this", "2026-11-18T10:00:00.000Z", "The billing API is versioned by date.\n"),
			}, recent),
			target: "stub.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				if _, ok := after["stub.md"]; ok || !strings.Contains(p.Rationale, "its metadata.claudeCodeItem with it") {
					t.Errorf("stub.md not pruned, or the rationale silent on its block: %s", p.Rationale)
				}
			},
		},
		model.KindReindex: {
			// A hook found only in a duplicate index entry moves into the
			// topic file, which carries a block.
			dir: func() (*model.MemoryDir, *model.Project) {
				c := &model.File{Path: "c.md", Content: []byte("---\nname: c\ndescription: about c\nmetadata: \n  node_type: memory\n  type: project\n" +
					ccItem("c things", "      modified: 2026-01-01T00:00:00.000Z\n") + "  modified: 2026-11-18T10:00:00.000Z\n---\n\n" +
					"The fact itself, with enough words that it is not a stub.\n")}
				d := rxTestDir("- [A](a.md) — first\n- [B](b.md)\n- [C](c.md)\n- [C too](c.md) — ask Mallory before touching billing\n",
					append(testmodel.IndexTopics("a.md", "b.md"), c))
				return d, &model.Project{Slug: "p"}
			},
			target: "c.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				if !strings.HasSuffix(string(after["c.md"]), "Moved here from MEMORY.md:\n- C too: ask Mallory before touching billing\n") {
					t.Errorf("c.md:\n%s", after["c.md"])
				}
			},
		},
		model.KindArchive: {
			// Past the 200, the oldest memory moves into .archive/ with
			// its block; a memory that links it, in its body and in its
			// block, has the body's link repointed and its block kept.
			dir: func() (*model.MemoryDir, *model.Project) {
				d := testmodel.CapDir(201, testmodel.Now.AddDate(0, -3, 0))
				d.Files[0].Content = []byte(itemFile("m0", "The oldest fact", "project", "first of all", "2026-08-01T10:00:00.000Z", "Ticket 0 ships first.\n"))
				d.Files[100].Content = []byte(itemFile("m100", "A later fact", "project", "after [[m0]], see [zero](m000.md)", "2026-10-01T10:00:00.000Z",
					"Ships after [[m0]]; see [zero](m000.md).\n"))
				return d, dreamProject
			},
			target: "m100.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				a := string(after["m100.md"])
				if !strings.Contains(a, "Ships after [[.archive/m000]]; see [zero](.archive/m000.md).") || !strings.Contains(a, `prompt: "after [[m0]], see [zero](m000.md)"`) {
					t.Errorf("m100.md: want the body's links repointed and the block's as written:\n%s", a)
				}
				if _, ok := after["m000.md"]; ok || len(blocks(after[".archive/m000.md"])) != 1 {
					t.Errorf("m000.md is not archived with its block")
				}
			},
		},
		model.KindRestoreDeleted: {
			// A memory with a block, written whole by a session and removed
			// by another's rm: it comes back with its block, byte for byte.
			dir: func() (*model.MemoryDir, *model.Project) {
				text := itemFile("gone", "A memory removed by rm", "project", "keep the release notes", "2026-11-10T10:00:00.000Z", "Release notes live in docs/releases.\n")
				d := testmodel.Dir(map[string]string{"MEMORY.md": "# Memory\n", "kept.md": itemFile("kept", "Kept", "user", "p", "2026-11-10T10:00:00.000Z", "Kept.\n")}, recent)
				t0 := testmodel.Now.Add(-48 * time.Hour)
				log := &model.TranscriptLog{Sessions: map[string]*model.Session{}, Writes: []model.MemWrite{
					{Path: d.Path + "/gone.md", Kind: model.WriteFull, Session: testmodel.RaceA, Time: t0, Created: true, HasBefore: true, HasAfter: true, After: text},
					{Path: d.Path + "/gone.md", Kind: model.WriteShell, Session: testmodel.RaceB, Time: t0.Add(time.Hour), Command: "rm gone.md", Deleted: true},
				}}
				return d, lostProject(log)
			},
			target:  "gone.md",
			created: "gone.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				if a := string(after["gone.md"]); !strings.Contains(a, "Release notes live in docs/releases.") || len(blocks(after["gone.md"])) != 1 {
					t.Errorf("gone.md is not back with its block:\n%s", a)
				}
			},
		},
		model.KindAdopt: {
			// A stranded store's memory of the same name, with a block of
			// its own, merged into the live one: the live block stays.
			dir: plain(map[string]string{"feedback_deploy.md": itemFile("deploy", "How we deploy", "feedback", "always deploy with make ship", "2026-11-18T10:00:00.000Z", deploy)}, recent),
			stranded: func() *model.MemoryDir {
				d := testmodel.Dir(map[string]string{"feedback_deploy.md": itemFile("deploy", "How we deploy", "feedback", "deploy from the worktree too", "2026-11-19T10:00:00.000Z",
					"Tag the release after `make ship` finishes.\n")}, recent)
				d.Path = "/cfg/projects/p-wt/memory"
				return d
			},
			target: "feedback_deploy.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				if a := string(after["feedback_deploy.md"]); !strings.Contains(a, "Tag the release after `make ship` finishes.") || !strings.Contains(a, "always deploy with make ship") {
					t.Errorf("the stranded text is not merged in, or the block went:\n%s", a)
				}
				if p.Also == nil || len(p.Also.Changes) == 0 {
					t.Errorf("nothing removed from the stranded store: %+v", p.Also)
				}
			},
		},
		model.KindRestoreLost: {
			// A subagent's line lost to a stale rewrite (as in
			// TestLostUpdateSubagentEditLost), in a file with a block.
			dir: func() (*model.MemoryDir, *model.Project) {
				fmA := "---\nname: feedback-deploy-command\ndescription: Deploy with make ship, never npm run deploy\nmetadata:\n  node_type: memory\n  type: feedback\n" +
					ccItem("always deploy with make ship", "") + "  originSessionId: " + testmodel.RaceA + "\n  modified: 2026-08-03T09:05:00.000Z\n---\n\n"
				log, files, _, _ := subagentRace(fmA)
				return testmodel.LostMemDir(files), lostProject(log)
			},
			target: "feedback_deploy_command.md",
			check: func(t *testing.T, p model.Proposal, after map[string][]byte) {
				if a := string(after["feedback_deploy_command.md"]); !strings.Contains(a, "Deploy with `make ship`.\n**How to apply:** run it from the repo root") {
					t.Errorf("the lost line is not back:\n%s", a)
				}
			},
		},
	}
	for _, k := range model.ProposalKinds {
		// trim-summary is Codex's only: no Claude directory has its summary.
		if _, ok := cases[k]; !ok && k != model.KindTrimSummary {
			t.Errorf("no claudeCodeItem round trip for proposal kind %s", k)
		}
	}
	for kind, c := range cases {
		t.Run(string(kind), func(t *testing.T) {
			d, proj := c.dir()
			before := filesOf(d)
			if len(blocks(before[c.target])) == 0 && c.created == "" {
				t.Fatalf("setup: %s has no claudeCodeItem block", c.target)
			}
			var ps []model.Proposal
			opts := Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{kind}}
			if c.stranded != nil {
				opts.Adopt = map[string][]Stranded{d.Path: {{Dir: c.stranded(), Reason: "a worktree's own store"}}}
			}
			for _, p := range ProposeDir(proj, d, opts) {
				for _, ch := range p.Changes {
					if ch.Path == c.target {
						ps = append(ps, p)
						break
					}
				}
			}
			if len(ps) != 1 {
				t.Fatalf("want one %s proposal touching %s, got %d", kind, c.target, len(ps))
			}
			p := ps[0]
			for _, ch := range p.Changes {
				if ch.Op == model.OpUpdate && strings.Join(blocks([]byte(ch.After)), "") != strings.Join(blocks(before[ch.Path]), "") {
					t.Errorf("%s: the claudeCodeItem block changed:\nbefore %q\nafter  %q", ch.Path, blocks(before[ch.Path]), blocks([]byte(ch.After)))
				}
			}
			after, err := Apply(before, p)
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			movedFrom := map[string]string{} // a moved file's blocks are its source's
			for _, ch := range p.Changes {
				if ch.Op == model.OpMove {
					movedFrom[ch.Path] = ch.From
				}
			}
			for path, b := range after {
				if path == c.created {
					continue // not on disk before: c.check looks at its block
				}
				was := path
				if from, ok := movedFrom[path]; ok {
					was = from
				}
				if strings.Join(blocks(b), "") != strings.Join(blocks(before[was]), "") {
					t.Errorf("after Apply, %s's claudeCodeItem block differs", path)
				}
				if a, ok := after[c.target]; ok && p.Kind != model.KindMerge && path == c.target && string(a) == string(before[c.target]) {
					t.Errorf("%s is unchanged", c.target)
				}
			}
			c.check(t, p, after)
		})
	}
}

// TestKeepsItemsBackstop: a proposal that rewrites a block is withheld.
func TestKeepsItemsBackstop(t *testing.T) {
	content := itemFile("x", "d", "user", "p", "2026-11-18T10:00:00.000Z", "Body.\n")
	d := testmodel.Dir(map[string]string{"x.md": content}, testmodel.Now)
	s := newDreamState(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}.WithDefaults()})
	ok := model.Proposal{Changes: []model.Change{s.update("x.md", []byte(strings.Replace(content, "Body.", "Body, longer.", 1)))}}
	bad := model.Proposal{Changes: []model.Change{s.update("x.md", []byte(strings.Replace(content, "state: acked", "state: pending", 1)))}}
	gone := model.Proposal{Changes: []model.Change{s.update("x.md", []byte("---\nname: x\n---\nBody.\n"))}}
	if !s.keepsItems(ok) || s.keepsItems(bad) || s.keepsItems(gone) {
		t.Errorf("keepsItems: body edit %v, block edit %v, block dropped %v", s.keepsItems(ok), s.keepsItems(bad), s.keepsItems(gone))
	}
}

// TestClaudeCodeItemTextIsNotChecked: a typed prompt in the block is Claude
// Code's record, not the memory: its dates and [[links]] are not findings;
// a secret there is, saying no proposal redacts it.
func TestClaudeCodeItemTextIsNotChecked(t *testing.T) {
	content := itemFile("x", "A fact", "project", "ship tomorrow, see [[nowhere]], token "+itemToken, "2026-06-10T09:00:00.000Z",
		"The launch is planned for the second week of June.\n")
	f := testmodel.File("project_x.md", content, testmodel.Now.AddDate(0, 0, -3))
	fs := lint(t, nil, &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}, consolidate.Options{})
	for _, rule := range []string{consolidate.RuleRelativeDate, consolidate.RuleWikilinkBroken} {
		if got := testmodel.Only(fs, rule); len(got) != 0 {
			t.Errorf("%s fired on the block: %+v", rule, got)
		}
	}
	sec := testmodel.Only(fs, consolidate.RuleSecret)
	if len(sec) != 1 || !strings.Contains(sec[0].Message, "metadata.claudeCodeItem") || !strings.Contains(sec[0].Message, "no proposal redacts it") {
		t.Errorf("secret in the block: %+v", sec)
	}
}

// TestExternalProposalMustKeepItems: an external proposer's change that
// rewrites a block is refused.
func TestExternalProposalMustKeepItems(t *testing.T) {
	before := []byte(itemFile("x", "d", "user", "p", "2026-11-18T10:00:00.000Z", "Body.\n"))
	c := model.Change{Path: "x.md", Op: model.OpUpdate, After: strings.Replace(string(before), "consent: on", "consent: off", 1)}
	if err := checkAfter(c, before, model.LoadAuto); err == nil || !strings.Contains(err.Error(), "claudeCodeItem") {
		t.Errorf("checkAfter = %v", err)
	}
	c.After = strings.Replace(string(before), "Body.", "Body, longer.", 1)
	if err := checkAfter(c, before, model.LoadAuto); err != nil {
		t.Errorf("a body edit is refused: %v", err)
	}
}

// TestStampSkipsItems: stamp rewrites metadata.modified, not a modified:
// key inside the block that comes first.
func TestStampSkipsItems(t *testing.T) {
	in := "---\nname: x\nmetadata:\n  type: user\n" + ccItem("p", "      modified: 2026-01-01T00:00:00.000Z\n") + "  modified: 2026-10-01T08:00:00.000Z\n---\n\nBody.\n"
	out := string(stamp([]byte(in), testmodel.Now))
	want := strings.Replace(in, "  modified: 2026-10-01T08:00:00.000Z", "  modified: "+testmodel.Now.UTC().Format("2006-01-02T15:04:05.000Z"), 1)
	if out != want {
		t.Errorf("stamp:\n%s\nwant:\n%s", out, want)
	}
}
