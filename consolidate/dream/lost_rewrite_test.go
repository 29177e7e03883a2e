package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// Deliberate rewrites and cleanups (issue 12): a session that had the text
// in front of it, however it came to see it, and then rewrote or edited it
// away, removed it on purpose. None of these is a lost update, definite or
// possible.

// rewriteBase is the start of the race without B's write: A adds the
// deploy entry at 09:14 after both read idx0.
func rewriteBase() *testmodel.Log {
	return testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Session(testmodel.RaceB, "Release freeze", "feat/billing", testmodel.At(1)).
		Read(testmodel.RaceA, testmodel.At(10), "MEMORY.md", testmodel.Idx0).
		Read(testmodel.RaceB, testmodel.At(11), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy)
}

func TestLostUpdateDeliberateRewrites(t *testing.T) {
	reworded := "- [Deploy](feedback_deploy_command.md) — ship with make ship"
	cases := map[string]struct {
		b       *testmodel.Log
		current string
	}{
		// B read lines 3-4 only (offset/limit), the deploy entry among them,
		// then wrote the whole file without it.
		"ranged read": {rewriteBase().
			Obs(model.ObsRead, testmodel.RaceB, 16, "MEMORY.md", "3\t"+testmodel.EStaging+"\n4\t"+testmodel.EDeploy+"\n", false).
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.IdxB), testmodel.IdxB},
		// The same, re-wording the entry instead of dropping it.
		"ranged read, re-worded": {rewriteBase().
			Obs(model.ObsRead, testmodel.RaceB, 16, "MEMORY.md", "4\t"+testmodel.EDeploy+"\n", false).
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, "# Memory\n\n"+testmodel.EStaging+"\n"+reworded+"\n"+testmodel.ERole+"\n"),
			"# Memory\n\n" + testmodel.EStaging + "\n" + reworded + "\n" + testmodel.ERole + "\n"},
		// MEMORY.md was loaded into B's context with the entry in it.
		"index load": {rewriteBase().
			Obs(model.ObsIndexLoad, testmodel.RaceB, 16, "MEMORY.md", testmodel.Idx1, true).
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.IdxB), testmodel.IdxB},
		// A recall surfaced the file to B.
		"recall": {rewriteBase().
			Obs(model.ObsRecall, testmodel.RaceB, 16, "MEMORY.md", testmodel.Idx1, false).
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.IdxB), testmodel.IdxB},
		// Claude Code told B the file changed, with the entry in the snippet.
		"changed-file notice": {rewriteBase().
			Obs(model.ObsChanged, testmodel.RaceB, 16, "MEMORY.md", "4\t"+testmodel.EDeploy, false).
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.IdxB), testmodel.IdxB},
		// B knew the entry from its own earlier write (it had put it back
		// itself), then rewrote the file without it.
		"own earlier write": {rewriteBase().
			Write(testmodel.RaceB, testmodel.At(16), "MEMORY.md", testmodel.Idx1, testmodel.Idx1+testmodel.EFreeze+"\n").
			Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1+testmodel.EFreeze+"\n", testmodel.IdxB), testmodel.IdxB},
		// The session that wrote the entry rewrote the file without it.
		"writer's own rewrite": {rewriteBase().
			Write(testmodel.RaceA, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.Idx0), testmodel.Idx0},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			log := c.b.Build()
			d := testmodel.LostMemDir(testmodel.WithIndex(c.current))
			if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
				t.Errorf("a deliberate rewrite reported as lost: %+v", lost)
			}
			if fs := lostFindings(t, lostProject(log), d, consolidate.Options{}); len(fs) != 0 {
				t.Errorf("findings: %+v", fs)
			}
			if ps := ProposeDir(lostProject(log), d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindRestoreLost}}); len(ps) != 0 {
				t.Errorf("restore proposed for a deliberate rewrite: %+v", ps)
			}
		})
	}
}

// launch is a project memory whose deadline one session changed.
func launch(body string) string {
	return testmodel.Topic("project-launch", "Billing launch plan", "project", body)
}

const (
	launchOld  = "The public launch deadline for the billing service is 2026-06-01."
	launchNew  = "The public launch deadline for the billing service is 2026-06-15."
	launchRest = "Marketing signs off the week before."
)

func TestLostUpdateSupersededVersionIsNeverRestored(t *testing.T) {
	base := launch(launchRest + "\n")
	v1 := launch(launchOld + "\n" + launchRest + "\n")
	v2 := launch(launchNew + "\n" + launchRest + "\n")
	bLine := "Checklist: docs/launch.md."

	t.Run("stale copy writes the old version back", func(t *testing.T) {
		// B read v1 (the 06-01 deadline); A moved the deadline to 06-15 with
		// an Edit inside the line; B then wrote its stale copy back. The
		// newer deadline is lost, and the file says the superseded one: the
		// restore puts the new one in its place, never beside it.
		bText := launch(launchOld + "\n" + launchRest + "\n" + bLine + "\n")
		log := testmodel.NewLog().Session(testmodel.RaceA, "Launch", "main", testmodel.At(0)).Session(testmodel.RaceB, "Checklist", "main", testmodel.At(1)).
			Write(testmodel.RaceA, testmodel.At(5), "project_launch.md", base, v1).
			Read(testmodel.RaceB, testmodel.At(6), "project_launch.md", v1).
			Edit(testmodel.RaceA, "", testmodel.At(8), "project_launch.md", v1, true, "is 2026-06-01.", "is 2026-06-15.").
			Write(testmodel.RaceB, testmodel.At(10), "project_launch.md", v2, bText).Build()
		files := testmodel.WithIndex(testmodel.Idx0)
		files["project_launch.md"] = bText
		d := testmodel.LostMemDir(files)
		lost := forensics.LostUpdates(d, log)
		if len(lost) != 1 || len(lost[0].Lines) != 1 || lost[0].Lines[0] != launchNew || !lost[0].Definite {
			t.Fatalf("want the newer deadline definitely lost (the old one on disk is not it re-worded): %+v", lost)
		}
		if got := lost[0].Anchors[0].Replaces; len(got) != 1 || got[0] != launchOld {
			t.Errorf("the lost line must know the version it replaced: %q", got)
		}
		fs := lostFindings(t, lostProject(log), d, consolidate.Options{})
		oldLine := strings.Count(bText[:strings.Index(bText, launchOld)], "\n") + 1
		if len(fs) != 1 || fs[0].Line != oldLine {
			t.Fatalf("want the finding on the old deadline's line (%d): %+v", oldLine, fs)
		}
		r := checkRestore(t, log, d, "project_launch.md", launch(launchNew+"\n"+launchRest+"\n"+bLine+"\n"))
		if !strings.Contains(r.Rationale, "takes that version's place") {
			t.Errorf("the rationale must say the line replaces its older version: %s", r.Rationale)
		}
	})

	t.Run("both versions lost", func(t *testing.T) {
		// B read the file before A wrote either deadline and wrote its copy
		// back blind: only the latest version A wrote is lost and restored.
		bText := launch(launchRest + "\n" + bLine + "\n")
		log := testmodel.NewLog().Session(testmodel.RaceA, "Launch", "main", testmodel.At(0)).Session(testmodel.RaceB, "Checklist", "main", testmodel.At(1)).
			Read(testmodel.RaceB, testmodel.At(3), "project_launch.md", base).
			Write(testmodel.RaceA, testmodel.At(5), "project_launch.md", base, v1).
			Edit(testmodel.RaceA, "", testmodel.At(8), "project_launch.md", "", false, "is 2026-06-01.", "is 2026-06-15.").
			Write(testmodel.RaceB, testmodel.At(10), "project_launch.md", v2, bText).Build()
		files := testmodel.WithIndex(testmodel.Idx0)
		files["project_launch.md"] = bText
		d := testmodel.LostMemDir(files)
		lost := forensics.LostUpdates(d, log)
		if len(lost) != 1 || len(lost[0].Lines) != 1 || lost[0].Lines[0] != launchNew {
			t.Fatalf("want only the latest deadline lost: %+v", lost)
		}
		checkRestore(t, log, d, "project_launch.md", launch(launchNew+"\n"+launchRest+"\n"+bLine+"\n"))
	})

	t.Run("newer version survived", func(t *testing.T) {
		// B wrote blind from a copy that had the newer deadline: nothing of
		// A's is missing, and the superseded one is not lost.
		bText := launch(launchNew + "\n" + launchRest + "\n" + bLine + "\n")
		log := testmodel.NewLog().Session(testmodel.RaceA, "Launch", "main", testmodel.At(0)).Session(testmodel.RaceB, "Checklist", "main", testmodel.At(1)).
			Write(testmodel.RaceA, testmodel.At(5), "project_launch.md", base, v1).
			Edit(testmodel.RaceA, "", testmodel.At(8), "project_launch.md", v1, true, "is 2026-06-01.", "is 2026-06-15.").
			Read(testmodel.RaceB, testmodel.At(9), "project_launch.md", v2).
			Write(testmodel.RaceB, testmodel.At(10), "project_launch.md", v2, bText).Build()
		files := testmodel.WithIndex(testmodel.Idx0)
		files["project_launch.md"] = bText
		if lost := forensics.LostUpdates(testmodel.LostMemDir(files), log); len(lost) != 0 {
			t.Errorf("a superseded version reported as lost: %+v", lost)
		}
	})
}

func TestLostUpdateTextTheFileStillSays(t *testing.T) {
	// A added a two-line paragraph; B, which had not read it, rewrote the
	// file blind but wrote the same facts itself, elsewhere and wrapped
	// differently (or as a list, in another order, in another case). The
	// file still says all of it: no finding, and no restore duplicating it.
	para := "Deploys go through make ship.\nIt tags the release and runs the migrations."
	v0 := testmodel.Topic("feedback-deploy-command", "Deploy with make ship", "feedback", "Never npm run deploy.\n")
	v1 := testmodel.Topic("feedback-deploy-command", "Deploy with make ship", "feedback", "Never npm run deploy.\n\n"+para+"\n")
	bodies := map[string]string{
		"re-wrapped elsewhere": "Deploys go through make ship. It tags the\nrelease and runs the migrations.\n\nNever npm run deploy.\n",
		"as a list, reordered": "Never npm run deploy.\n\n- it tags the release and runs the migrations;\n- deploys go through `make ship`\n",
	}
	// race: B read v0, A wrote v1, then B wrote bText over it blind.
	race := func(bText string) (*model.TranscriptLog, *model.MemoryDir) {
		log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).Session(testmodel.RaceB, "", "main", testmodel.At(1)).
			Read(testmodel.RaceB, testmodel.At(3), "feedback_deploy_command.md", v0).
			Write(testmodel.RaceA, testmodel.At(5), "feedback_deploy_command.md", v0, v1).
			Write(testmodel.RaceB, testmodel.At(10), "feedback_deploy_command.md", v1, bText).Build()
		files := testmodel.RaceTopics()
		files["MEMORY.md"] = testmodel.Idx1
		files["feedback_deploy_command.md"] = bText
		return log, testmodel.LostMemDir(files)
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			log, d := race(testmodel.Topic("feedback-deploy-command", "Deploy with make ship", "feedback", body))
			if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
				t.Errorf("text the file still says reported as lost: %+v", lost)
			}
			if ps := ProposeDir(lostProject(log), d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindRestoreLost}}); len(ps) != 0 {
				t.Errorf("a restore would say it twice: %+v", ps)
			}
		})
	}

	t.Run("partly said", func(t *testing.T) {
		// Only the first line is said again: the second is lost and goes
		// back; the first is not put in twice.
		body := "Never npm run deploy. Deploys go through make ship.\n"
		log, d := race(testmodel.Topic("feedback-deploy-command", "Deploy with make ship", "feedback", body))
		lost := forensics.LostUpdates(d, log)
		if len(lost) != 1 || len(lost[0].Lines) != 1 || lost[0].Lines[0] != "It tags the release and runs the migrations." {
			t.Fatalf("want only the unsaid line lost: %+v", lost)
		}
		checkRestore(t, log, d, "feedback_deploy_command.md", testmodel.Topic("feedback-deploy-command", "Deploy with make ship", "feedback",
			body+"It tags the release and runs the migrations.\n"))
	})
}

func TestRestoreNeverSaysALineTwice(t *testing.T) {
	// A's edit added the same sentence twice, once as a list item: B's
	// blind write dropped both. Once the first is back the file says the
	// second: the restore puts in the first only.
	first := "- Always deploy with make ship, then tag the release."
	second := "* always deploy with `make ship`, then tag the release"
	log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).Session(testmodel.RaceB, "Release freeze", "main", testmodel.At(1)).
		Read(testmodel.RaceB, testmodel.At(11), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+first+"\n"+second).
		Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", "# Memory\n\n"+testmodel.EStaging+"\n"+first+"\n"+second+"\n"+testmodel.ERole+"\n", testmodel.IdxB).Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB))
	if lost := forensics.LostUpdates(d, log); len(lost) != 1 || len(lost[0].Lines) != 2 {
		t.Fatalf("want both lines lost: %+v", lost)
	}
	checkRestore(t, log, d, "MEMORY.md", "# Memory\n\n"+testmodel.EStaging+"\n"+first+"\n"+testmodel.ERole+"\n"+testmodel.EFreeze+"\n")
}
