package dream

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func lostProject(log *model.TranscriptLog) *model.Project {
	return &model.Project{Slug: "-home-dev-acme-api", Root: "/home/dev/acme-api", ConfigDir: "/home/dev/.claude", Log: log}
}

func lostFindings(t *testing.T, p *model.Project, d *model.MemoryDir, opts consolidate.Options) []model.Finding {
	t.Helper()
	if opts.Now.IsZero() {
		opts.Now = testmodel.Now
	}
	return testmodel.Only(consolidate.OrientDir(p, d, opts), consolidate.RuleLostUpdate)
}

func TestLostUpdateRaceBlindWrite(t *testing.T) {
	log := testmodel.RaceLog().Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB))
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 {
		t.Fatalf("want one lost update, got %+v", lost)
	}
	l := lost[0]
	if l.File != "MEMORY.md" || !reflect.DeepEqual(l.Lines, []string{testmodel.EDeploy}) {
		t.Errorf("lost %q in %s, want A's deploy entry in MEMORY.md", l.Lines, l.File)
	}
	if l.Writer.Session != testmodel.RaceA || l.Culprit == nil || l.Culprit.Session != testmodel.RaceB || !l.Definite {
		t.Errorf("want writer A, culprit B, definite; got writer %s culprit %+v definite %v", l.Writer.Session, l.Culprit, l.Definite)
	}

	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 {
		t.Fatalf("want one lost-update finding, got %+v", fs)
	}
	f := fs[0]
	for _, want := range []string{`lost: "- [Deploy command](feedback_deploy_command.md)`, `session 5f0c2a8e ("Deploy notes")`,
		"at 2026-08-03 09:14 UTC", "on branch main", `overwritten by session 6a1b2c3d ("Release freeze") at 2026-08-03 09:20 UTC, which had not read it`} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, f.Message)
		}
	}
	if strings.Contains(f.Message, "possibly") {
		t.Errorf("a definite loss must not read as possible: %s", f.Message)
	}
	if f.Line != 4 || f.Severity != model.Warning || !strings.Contains(f.Suggestion, "memtui dream --kind restore-lost") {
		t.Errorf("want line 4 (after the staging entry), a warning and the restore suggestion; got %+v", f)
	}
	checkRestore(t, log, d, "MEMORY.md", "# Memory\n\n"+testmodel.EStaging+"\n"+testmodel.EDeploy+"\n"+testmodel.ERole+"\n"+testmodel.EFreeze+"\n")
}

// checkRestore checks the restore-lost proposal for file: its content
// after, that it applies, that the finding is then gone, and that the
// other proposers propose exactly what they propose without transcripts.
func checkRestore(t *testing.T, log *model.TranscriptLog, d *model.MemoryDir, file, want string) model.Proposal {
	t.Helper()
	p := lostProject(log)
	opts := Options{Options: consolidate.Options{Now: testmodel.Now}}
	var restore []model.Proposal
	var others []model.Proposal
	for _, pr := range ProposeDir(p, d, opts) {
		if pr.Kind == model.KindRestoreLost {
			restore = append(restore, pr)
		} else {
			others = append(others, pr)
		}
	}
	if len(restore) != 1 || len(restore[0].Changes) != 1 || restore[0].Changes[0].Path != file {
		t.Fatalf("want one restore-lost proposal changing %s, got %+v", file, restore)
	}
	r := restore[0]
	if r.Changes[0].After != want {
		t.Errorf("restored %s:\n%q\nwant:\n%q", file, r.Changes[0].After, want)
	}
	if r.Changes[0].BaseSHA256 != consolidate.SHA256Hex(filesOf(d)[file]) {
		t.Error("the base hash is not the current file's")
	}
	if len(r.Fixes) == 0 || r.Fixes[0].Rule != consolidate.RuleLostUpdate || r.Fixes[0].File != file {
		t.Errorf("the proposal must list the lost-update finding it fixes: %+v", r.Fixes)
	}
	noLog := ProposeDir(lostProject(nil), d, opts)
	if !reflect.DeepEqual(others, noLog) {
		t.Errorf("transcripts changed the other proposals:\n%+v\nwithout:\n%+v", others, noLog)
	}
	if again := ProposeDir(p, d, opts); !reflect.DeepEqual(again, ProposeDir(p, d, opts)) || !strings.HasPrefix(r.ID, "restore-lost-") {
		t.Errorf("proposals must be deterministic and IDs name the kind: %s", r.ID)
	}

	out, err := Apply(filesOf(d), r)
	if err != nil {
		t.Fatalf("the proposal does not apply: %v", err)
	}
	nd := dirOf(d, out)
	nd.Path = d.Path
	if fs := lostFindings(t, p, nd, consolidate.Options{}); len(fs) != 0 {
		t.Errorf("after the restore the loss is still reported: %+v", fs)
	}
	return r
}

func TestLostUpdateRaceStaleEdit(t *testing.T) {
	// B's Edit ran on the copy it had read: its originalFile is idx0, so what
	// it wrote back is idx0 plus its own entry.
	idxBe := "# Memory\n\n" + testmodel.EStaging + "\n" + testmodel.ERole + "\n" + testmodel.EFreeze + "\n"
	log := testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Session(testmodel.RaceB, "Release freeze", "feat/billing", testmodel.At(1)).
		Read(testmodel.RaceA, testmodel.At(10), "MEMORY.md", testmodel.Idx0).
		Read(testmodel.RaceB, testmodel.At(11), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Edit(testmodel.RaceB, "", testmodel.At(20), "MEMORY.md", testmodel.Idx0, true, testmodel.ERole, testmodel.ERole+"\n"+testmodel.EFreeze).
		Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(idxBe))
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 || lost[0].Culprit == nil || lost[0].Culprit.Session != testmodel.RaceB || !lost[0].Definite || lost[0].Lines[0] != testmodel.EDeploy {
		t.Fatalf("want A's entry lost to B's stale edit, definitely; got %+v", lost)
	}
	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "overwritten by session 6a1b2c3d") {
		t.Fatalf("want the finding naming B: %+v", fs)
	}
	checkRestore(t, log, d, "MEMORY.md", "# Memory\n\n"+testmodel.EStaging+"\n"+testmodel.EDeploy+"\n"+testmodel.ERole+"\n"+testmodel.EFreeze+"\n")
}

func TestLostUpdateNotReportedWhenRemovedKnowingly(t *testing.T) {
	cases := map[string]*testmodel.Log{
		// C's Edit names the entry in its old string and drops it.
		"edit naming it": testmodel.RaceLog().
			Edit(testmodel.RaceC, "", testmodel.At(30), "MEMORY.md", testmodel.IdxB+testmodel.EDeploy+"\n", true, testmodel.EDeploy+"\n", ""),
		// The same edit from a subagent, with no originalFile recorded.
		"edit without originalFile": testmodel.RaceLog().
			Edit(testmodel.RaceC, "a3f9c2e1b4d5a6f70", testmodel.At(30), "MEMORY.md", "", false, testmodel.EDeploy+"\n", ""),
		// C re-words the entry: the old text is gone, on purpose.
		"re-worded": testmodel.RaceLog().
			Edit(testmodel.RaceC, "", testmodel.At(30), "MEMORY.md", "", false, "make ship, not npm run deploy", "always make ship"),
		// C read the file with the entry in it, then rewrote it without.
		"read then rewritten": testmodel.RaceLog().
			Read(testmodel.RaceC, testmodel.At(28), "MEMORY.md", testmodel.IdxB+testmodel.EDeploy+"\n").
			Write(testmodel.RaceC, testmodel.At(30), "MEMORY.md", testmodel.IdxB+testmodel.EDeploy+"\n", testmodel.IdxB),
		// memtui applied a reviewed proposal that removed it.
		"memtui": testmodel.RaceLog().Add(model.MemWrite{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.WriteMemtui, Time: testmodel.At(30),
			Before: testmodel.IdxB + testmodel.EDeploy + "\n", HasBefore: true, After: testmodel.IdxB, HasAfter: true}),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			// The race itself lost the entry; a later write put it back
			// (A again), then the case's write removed it knowingly.
			b.Write(testmodel.RaceA, testmodel.At(25), "MEMORY.md", testmodel.IdxB, testmodel.IdxB+testmodel.EDeploy+"\n")
			log := b.Build()
			current := testmodel.IdxB
			if name == "re-worded" {
				current = testmodel.IdxB + "- [Deploy command](feedback_deploy_command.md) — always make ship\n"
			}
			d := testmodel.LostMemDir(testmodel.WithIndex(current))
			if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
				t.Errorf("a knowing removal reported as lost: %+v", lost)
			}
			if fs := lostFindings(t, lostProject(log), d, consolidate.Options{}); len(fs) != 0 {
				t.Errorf("findings: %+v", fs)
			}
		})
	}
}

func TestLostUpdateDeletedFileIsNotLost(t *testing.T) {
	old := testmodel.Topic("project-old-api", "The v1 API sunset", "project", "The v1 API is turned off.\n")
	log := testmodel.NewLog().
		Session(testmodel.RaceA, "", "main", testmodel.At(0)).
		Write(testmodel.RaceA, testmodel.At(5), "project_old_api.md", "", old).
		Edit(testmodel.RaceA, "", testmodel.At(6), "project_old_api.md", old, true, "The v1 API is turned off.", "The v1 API is turned off.\nClients got 90 days' notice.").
		Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.Idx0)) // project_old_api.md was pruned
	if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
		t.Errorf("a deleted file is not a lost update: %+v", lost)
	}
	if fs := lostFindings(t, lostProject(log), d, consolidate.Options{}); len(fs) != 0 {
		t.Errorf("findings: %+v", fs)
	}
}

func TestLostUpdateUnknownWritesArePossible(t *testing.T) {
	cases := []struct {
		name string
		w    model.MemWrite
		want string
	}{
		{"autoDream", model.MemWrite{Kind: model.WriteFork, Verb: "Improved", Session: testmodel.RaceC},
			"possibly: Claude Code's background consolidation (autoDream) rewrote the file at 2026-08-03 09:40 UTC; it may have dropped this on purpose"},
		{"shell", model.MemWrite{Kind: model.WriteShell, Session: testmodel.RaceC, Command: "sed -i '/Deploy command/d' MEMORY.md"},
			"possibly: session 7b2c3d4e ran a shell command on the file at 2026-08-03 09:40 UTC (sed -i '/Deploy command/d' MEMORY.md); it may have dropped this"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := c.w
			w.Path, w.Time = testmodel.AbsMem("MEMORY.md"), testmodel.At(40)
			log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
				Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).Add(w).Build()
			d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.Idx0))
			lost := forensics.LostUpdates(d, log)
			if len(lost) != 1 || lost[0].Definite || lost[0].Culprit == nil || lost[0].Culprit.Kind != c.w.Kind {
				t.Fatalf("want a possible loss pinned on the %s write: %+v", c.name, lost)
			}
			fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
			if len(fs) != 1 || !strings.HasPrefix(fs[0].Message, "possibly lost: ") || !strings.Contains(fs[0].Message, c.want) {
				t.Fatalf("want a finding that says possibly and why (%q): %+v", c.want, fs)
			}
		})
	}
}

func TestLostUpdateUnrecordedChangeIsPossible(t *testing.T) {
	// Nothing recorded after A's edit, yet the entry is gone: an editor,
	// a script or a sync. Say so, and say it is not certain.
	log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.Idx0))
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 || lost[0].Definite || lost[0].Culprit != nil {
		t.Fatalf("want a possible loss with no culprit: %+v", lost)
	}
	if !strings.Contains(lost[0].Why, "outside any recorded session (an editor, a script or a sync) after 2026-08-03 09:14 UTC") {
		t.Errorf("why: %s", lost[0].Why)
	}
	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Message, "possibly lost: ") {
		t.Fatalf("findings: %+v", fs)
	}
	// A full read bounds when it went.
	log2 := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Read(testmodel.RaceC, testmodel.At(50), "MEMORY.md", testmodel.Idx0).Build()
	if l := forensics.LostUpdates(d, log2); len(l) != 1 || !strings.Contains(l[0].Why, "and before 2026-08-03 09:50 UTC") {
		t.Errorf("a read without the entry must bound the change: %+v", l)
	}
}

func TestLostUpdateBySubagent(t *testing.T) {
	// A writes the deploy memory; a subagent of C adds a line by Edit (no
	// originalFile: subagent results carry none); B, which read the file
	// before the subagent's edit, rewrites it with its own line. Disk has
	// B's text, stamped.
	fmA := "---\nname: feedback-deploy-command\ndescription: Deploy with make ship, never npm run deploy\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: " + testmodel.RaceA + "\n  modified: 2026-08-03T09:05:00.000Z\n---\n\n"
	log, files, how, onDisk := subagentRace(fmA)
	d := testmodel.LostMemDir(files)
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 || !reflect.DeepEqual(lost[0].Lines, []string{how}) || lost[0].Writer.Agent != "a3f9c2e1b4d5a6f70" || !lost[0].Definite {
		t.Fatalf("want the subagent's line lost to B, definitely (stamping aside): %+v", lost)
	}
	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 || !strings.Contains(fs[0].Message, `written by subagent a3f9c2e1 of session 7b2c3d4e ("Tidy memory")`) {
		t.Fatalf("the finding must name the subagent: %+v", fs)
	}
	want := strings.Replace(onDisk, "Deploy with `make ship`.\n", "Deploy with `make ship`.\n"+how+"\n", 1)
	checkRestore(t, log, d, "feedback_deploy_command.md", want)
}

func TestLostUpdateCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	log := testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Session(testmodel.RaceB, "Release freeze", "main", testmodel.At(1)).
		Read(testmodel.RaceB, testmodel.At(11), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", crlf(testmodel.Idx0), true, testmodel.EStaging, testmodel.EStaging+"\r\n"+testmodel.EDeploy).
		Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", crlf(testmodel.Idx1), crlf(testmodel.IdxB)).
		Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(crlf(testmodel.IdxB)))
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 || lost[0].Lines[0] != testmodel.EDeploy || !lost[0].Definite {
		t.Fatalf("want the entry lost, without a stray \\r: %+v", lost)
	}
	checkRestore(t, log, d, "MEMORY.md", crlf("# Memory\n\n"+testmodel.EStaging+"\n"+testmodel.EDeploy+"\n"+testmodel.ERole+"\n"+testmodel.EFreeze+"\n"))
}

func TestLostIndexEntryToDeletedFile(t *testing.T) {
	// A added two entries; B's blind write dropped both; one of the two
	// memories has since been deleted. Both are reported; only the entry
	// whose file exists goes back.
	gone := "- [Old API](project_old_api.md) — v1 sunset notes"
	log := testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Session(testmodel.RaceB, "Release freeze", "main", testmodel.At(1)).
		Read(testmodel.RaceB, testmodel.At(11), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy+"\n"+gone).
		Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", "# Memory\n\n"+testmodel.EStaging+"\n"+testmodel.EDeploy+"\n"+gone+"\n"+testmodel.ERole+"\n", testmodel.IdxB).
		Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB))
	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "and 1 more line") {
		t.Fatalf("want one finding for both lines: %+v", fs)
	}
	ps := ProposeDir(lostProject(log), d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindRestoreLost}})
	if len(ps) != 1 {
		t.Fatalf("want one restore proposal: %+v", ps)
	}
	p := ps[0]
	if want := "# Memory\n\n" + testmodel.EStaging + "\n" + testmodel.EDeploy + "\n" + testmodel.ERole + "\n" + testmodel.EFreeze + "\n"; p.Changes[0].After != want {
		t.Errorf("after:\n%s\nwant:\n%s", p.Changes[0].After, want)
	}
	if !strings.Contains(p.Rationale, "project_old_api.md, which no longer exists") || !strings.HasPrefix(p.Title, "Restore 1 line session 5f0c2a8e wrote to MEMORY.md") {
		t.Errorf("title %q / rationale %q", p.Title, p.Rationale)
	}
	if len(p.Fixes) != 0 {
		t.Errorf("a partial restore must not claim to fix the finding: %+v", p.Fixes)
	}
	// Only the deleted file's entry is left to report.
	out, err := Apply(filesOf(d), p)
	if err != nil {
		t.Fatal(err)
	}
	nd := dirOf(d, out)
	nd.Path = d.Path
	left := lostFindings(t, lostProject(log), nd, consolidate.Options{})
	if len(left) != 1 || !strings.Contains(left[0].Message, "project_old_api.md") || !strings.Contains(left[0].Suggestion, "no longer exists") {
		t.Errorf("want the deleted file's entry still reported, with why it is not restored: %+v", left)
	}
}

func TestLostUpdateRespectsIgnores(t *testing.T) {
	log := testmodel.RaceLog().Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB + "<!-- memtui-ignore lost-update -->\n"))
	if fs := lostFindings(t, lostProject(log), d, consolidate.Options{}); len(fs) != 0 {
		t.Errorf("an inline ignore must silence it: %+v", fs)
	}
	if ps := ProposeDir(lostProject(log), d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindRestoreLost}}); len(ps) != 0 {
		t.Errorf("a silenced finding gets no proposal: %+v", ps)
	}
	d = testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB))
	if fs := lostFindings(t, lostProject(log), d, consolidate.Options{Ignore: []consolidate.IgnoreRule{{Project: "acme-api", Rules: []string{consolidate.RuleLostUpdate}}}}); len(fs) != 0 {
		t.Errorf("a project ignore must silence it: %+v", fs)
	}
	if fs := lostFindings(t, lostProject(nil), d, consolidate.Options{}); len(fs) != 0 {
		t.Errorf("without transcripts there is nothing to say: %+v", fs)
	}
}

func TestLostUpdateBlindWriteThenUnrecordedChange(t *testing.T) {
	// B's blind write dropped A's entry, then someone edited the file by
	// hand: B is still the likely culprit, but the record is incomplete.
	log := testmodel.RaceLog().Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB + "- [Oncall](reference_oncall.md) — who to page\n"))
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 || lost[0].Definite || lost[0].Culprit == nil || lost[0].Culprit.Session != testmodel.RaceB {
		t.Fatalf("want a possible loss pinned on B: %+v", lost)
	}
	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Message, "possibly lost: ") ||
		!strings.Contains(fs[0].Message, "possibly: overwritten by session 6a1b2c3d") || !strings.Contains(fs[0].Message, "changed again afterwards") {
		t.Errorf("findings: %+v", fs)
	}
}

func TestProposersFollowProposalKinds(t *testing.T) {
	// SortProposals, the CLI's summary and the TUI rank kinds by
	// model.ProposalKinds: the proposers must run in that order.
	var got []model.ProposalKind
	for _, p := range proposers {
		got = append(got, p.kind)
	}
	if !reflect.DeepEqual(got, model.ProposalKinds) {
		t.Errorf("proposers %v, kinds %v", got, model.ProposalKinds)
	}
}

func TestLostFragmentIsReportedNotRestored(t *testing.T) {
	// A subagent's Edit inside a line, with no originalFile and no earlier
	// version on record: only the fragment is known. B's blind rewrite
	// dropped it. Report it; do not guess where a fragment goes.
	staged := testmodel.Topic("reference-staging", "Staging host and how to reach it", "reference", "Staging lives on acme-stg (VPN required).\n")
	bText := testmodel.Topic("reference-staging", "Staging host and how to reach it", "reference", "Staging lives on acme-stg.\nDeploys go through make ship-stg.\n")
	log := testmodel.NewLog().Session(testmodel.RaceA, "", "main", testmodel.At(0)).Session(testmodel.RaceB, "", "main", testmodel.At(1)).
		Edit(testmodel.RaceA, "a3f9c2e1b4d5a6f70", testmodel.At(10), "reference_staging.md", "", false, "acme-stg.", "acme-stg (VPN required).").
		Write(testmodel.RaceB, testmodel.At(20), "reference_staging.md", staged, bText).Build()
	files := testmodel.WithIndex(testmodel.Idx0)
	files["reference_staging.md"] = bText
	d := testmodel.LostMemDir(files)
	lost := forensics.LostUpdates(d, log)
	if len(lost) != 1 || !lost[0].Anchors[0].Fragment || lost[0].Lines[0] != "acme-stg (VPN required)." {
		t.Fatalf("want the fragment lost: %+v", lost)
	}
	fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
	if len(fs) != 1 || fs[0].Line != 0 || !strings.Contains(fs[0].Suggestion, "by hand") {
		t.Errorf("want a finding with no line and a by-hand suggestion: %+v", fs)
	}
	if ps := ProposeDir(lostProject(log), d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindRestoreLost}}); len(ps) != 0 {
		t.Errorf("a fragment must not be put back as a line: %+v", ps)
	}
}

// When the reader did not keep part of the history (the bound in
// memfs/transcript/bound.go), the race must not be reported as certain on
// the strength of what is missing: a read whose content was not kept may
// have shown the text, a session running before the kept history may have
// read it, and a write whose text was not kept is one of unknown content.
func TestLostUpdateBoundedHistory(t *testing.T) {
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB))

	t.Run("read not kept", func(t *testing.T) {
		b := testmodel.RaceLog()
		b.AddObs(model.MemObservation{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.ObsRead,
			Session: testmodel.RaceB, Time: testmodel.At(16), ContentDropped: true, ID: "toolu_dropped"})
		if lost := forensics.LostUpdates(d, b.Build()); len(lost) != 0 {
			t.Errorf("B may have read the deploy entry at 09:16, yet it is reported lost: %+v", lost)
		}
	})

	t.Run("session older than the kept history", func(t *testing.T) {
		log := testmodel.RaceLog().Build()
		log.Since = testmodel.At(12) // B started at 09:01: it may have read anything before 09:12
		if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
			t.Errorf("B's reads before the kept history are unknown, yet the entry is reported lost: %+v", lost)
		}
		log.Since = testmodel.At(0).Add(-time.Hour) // both sessions started after: nothing of theirs is missing
		if lost := forensics.LostUpdates(d, log); len(lost) != 1 || !lost[0].Definite {
			t.Errorf("with the whole history kept the loss is certain: %+v", lost)
		}
	})

	t.Run("stale copy from before the kept history", func(t *testing.T) {
		// B rewrote the index from a copy no kept state matches: had the
		// history been whole, it would show whether B read that copy
		// before A's edit (the race) or the entry went some other way.
		old := testmodel.Idx0 + "- [Old note](old_note.md) — since removed\n"
		log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).Session(testmodel.RaceB, "Release freeze", "feat/billing", testmodel.At(1)).
			Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", old, testmodel.IdxB).Build()
		if lost := forensics.LostUpdates(d, log); len(lost) != 1 || lost[0].Definite {
			t.Fatalf("with the whole history the entry is possibly lost: %+v", lost)
		}
		log.Since = testmodel.At(12)
		if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
			t.Errorf("B's copy may predate the kept history, yet the entry is reported: %+v", lost)
		}
	})

	t.Run("write text not kept", func(t *testing.T) {
		b := testmodel.RaceLog().Session(testmodel.RaceC, "Cleanup", "main", testmodel.At(2))
		w := b.Base(testmodel.RaceC, testmodel.At(17), "MEMORY.md", model.WriteFull)
		w.TextDropped = true
		log := b.Add(w).Build()
		lost := forensics.LostUpdates(d, log)
		if len(lost) != 1 || lost[0].Definite {
			t.Fatalf("after a write of unknown content the loss can only be possible: %+v", lost)
		}
		fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
		if len(fs) != 1 || !strings.Contains(fs[0].Message, "possibly") {
			t.Fatalf("findings: %+v", fs)
		}
	})
}

// subagentRace is TestLostUpdateBySubagent's world, with fmA as the
// deploy memory's frontmatter: A writes it, B reads it, a subagent of C
// adds the line how by Edit, then B rewrites the file from what it read
// with a line of its own. It returns the log, the files on disk (onDisk is
// the deploy memory's text there) and how.
func subagentRace(fmA string) (log *model.TranscriptLog, files map[string]string, how, onDisk string) {
	v0t := fmA + "Deploy with `make ship`.\n\n**Why:** npm run deploy skips the migration step.\n"
	how = "**How to apply:** run it from the repo root; it tags the release."
	v1t := strings.Replace(v0t, "Deploy with `make ship`.\n", "Deploy with `make ship`.\n"+how+"\n", 1)
	bContent := strings.Replace(v0t, "**Why:**", "Staging deploys use make ship-stg.\n\n**Why:**", 1)
	onDisk = strings.Replace(bContent, "2026-08-03T09:05:00.000Z", "2026-08-03T09:30:00.000Z", 1)
	log = testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Session(testmodel.RaceB, "Staging deploys", "main", testmodel.At(1)).
		Session(testmodel.RaceC, "Tidy memory", "main", testmodel.At(2)).
		Write(testmodel.RaceA, testmodel.At(5), "feedback_deploy_command.md", "", v0t).
		Read(testmodel.RaceB, testmodel.At(8), "feedback_deploy_command.md", v0t).
		Edit(testmodel.RaceC, "a3f9c2e1b4d5a6f70", testmodel.At(20), "feedback_deploy_command.md", "", false, "Deploy with `make ship`.", "Deploy with `make ship`.\n"+how).
		Write(testmodel.RaceB, testmodel.At(30), "feedback_deploy_command.md", v1t, bContent).
		Build()
	files = testmodel.RaceTopics()
	files["feedback_deploy_command.md"] = onDisk
	files["MEMORY.md"] = testmodel.Idx1
	return log, files, how, onDisk
}
