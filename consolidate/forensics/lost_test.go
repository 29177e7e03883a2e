package forensics

import (
	"reflect"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func TestSaysWholeSentencesOnly(t *testing.T) {
	flow := flowWords(splitLines("Never deploy on Fridays.\nThe staging DB resets\nnightly; back it up first.\n\n- Tag every\n  release by hand\n"))
	for line, want := range map[string]bool{
		"The staging DB resets nightly.": true,  // re-wrapped
		"back it up first":               true,  // a sentence of a line
		"- tag every release by hand":    true,  // a wrapped list item, case aside
		"Deploy on Fridays.":             false, // part of a sentence: "never" changes it
		"staging DB resets":              false, // likewise
		"Tag every release":              false,
	} {
		if got := says(flow, line); got != want {
			t.Errorf("says(%q) = %v, want %v (flow %q)", line, got, want, flow)
		}
	}
}

func TestLostUpdateRereadBeforeRewriteIsNormal(t *testing.T) {
	// B read again after A's edit (the file changed, so it re-read), then
	// rewrote the file and left A's entry out: B's decision, not a race.
	log := testmodel.RaceLog()
	log.DropLastWrite()
	log.Read(testmodel.RaceB, testmodel.At(18), "MEMORY.md", testmodel.Idx1).Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.IdxB)
	if lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB)), log.Build()); len(lost) != 0 {
		t.Errorf("a session that had read the text removed it; reported: %+v", lost)
	}
}

func TestLostUpdateChangedFileNoticeCounts(t *testing.T) {
	// Claude Code told B the file changed under it, with A's entry in the
	// snippet: B had it in front of it.
	b := testmodel.RaceLog()
	b.AddObs(model.MemObservation{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.ObsChanged,
		Session: testmodel.RaceB, Time: testmodel.At(16), Content: "3\t" + testmodel.EStaging + "\n4\t" + testmodel.EDeploy})
	if lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB)), b.Build()); len(lost) != 0 {
		t.Errorf("B saw the entry in a changed-file notice; reported: %+v", lost)
	}
}

func TestLostUpdateStampingIsNotText(t *testing.T) {
	// A's write was stamped; later writes restamped the file and Claude
	// Code re-serialised the metadata block. None of that is lost text.
	aText := "---\nname: reference-staging\ndescription: Staging host and how to reach it\nmetadata: \n  node_type: memory\n  type: reference\n  originSessionId: " + testmodel.RaceA + "\n  modified: 2026-08-03T09:05:00.000Z\n---\n\nStaging lives on acme-stg (VPN required).\n"
	now := "---\nname: reference-staging\ndescription: Staging host and how to reach it\nmetadata:\n    type: reference\n    originSessionId: " + testmodel.RaceA + "\n    modified: 2026-08-04T10:00:00.000Z\n---\n\nStaging lives on acme-stg (VPN required).\n"
	log := testmodel.NewLog().Session(testmodel.RaceA, "", "main", testmodel.At(0)).Write(testmodel.RaceA, testmodel.At(5), "reference_staging.md", "", aText).Build()
	files := testmodel.RaceTopics()
	files["reference_staging.md"] = now
	files["MEMORY.md"] = testmodel.Idx0
	if lost := LostUpdates(testmodel.LostMemDir(files), log); len(lost) != 0 {
		t.Errorf("stamping and re-serialised frontmatter reported as lost: %+v", lost)
	}
}

func TestLostUpdateReAdded(t *testing.T) {
	// B's blind write dropped A's entry, C wrote it back: nothing lost.
	log := testmodel.RaceLog().Session(testmodel.RaceC, "", "main", testmodel.At(2)).
		Edit(testmodel.RaceC, "", testmodel.At(30), "MEMORY.md", testmodel.IdxB, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).Build()
	idxC := "# Memory\n\n" + testmodel.EStaging + "\n" + testmodel.EDeploy + "\n" + testmodel.ERole + "\n" + testmodel.EFreeze + "\n"
	if lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(idxC)), log); len(lost) != 0 {
		t.Errorf("re-added text reported as lost: %+v", lost)
	}
	// Lost again to D's blind write: the loss is C's, not A's.
	log = testmodel.RaceLog().Session(testmodel.RaceC, "", "main", testmodel.At(2)).Session(testmodel.RaceD, "", "main", testmodel.At(3)).
		Read(testmodel.RaceD, testmodel.At(12), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceC, "", testmodel.At(30), "MEMORY.md", testmodel.IdxB, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Write(testmodel.RaceD, testmodel.At(40), "MEMORY.md", idxC, testmodel.IdxB).Build()
	lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB)), log)
	if len(lost) != 1 || lost[0].Writer.Session != testmodel.RaceC || lost[0].Culprit.Session != testmodel.RaceD {
		t.Errorf("want C's re-added entry lost to D: %+v", lost)
	}
}

func TestLostUpdateSystemPromptIndex(t *testing.T) {
	// Older builds do not record the MEMORY.md load: a session that began
	// after A's edit had the entry in its system prompt, so its rewrite
	// was made with the entry in front of it.
	log := testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Session(testmodel.RaceB, "Release freeze", "main", testmodel.At(15)).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Write(testmodel.RaceB, testmodel.At(20), "MEMORY.md", testmodel.Idx1, testmodel.IdxB).Build()
	if lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB)), log); len(lost) != 0 {
		t.Errorf("a session started after the edit saw the index; reported: %+v", lost)
	}
}

func TestLostUpdateReadAfterForkClearsIt(t *testing.T) {
	// autoDream ran after A's edit, but a later full read still had the
	// entry: the fork did not drop it; D's blind write did.
	log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).Session(testmodel.RaceD, "", "main", testmodel.At(2)).
		Read(testmodel.RaceD, testmodel.At(12), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Add(model.MemWrite{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.WriteFork, Verb: "Improved", Session: testmodel.RaceC, Time: testmodel.At(40)}).
		Read(testmodel.RaceC, testmodel.At(45), "MEMORY.md", testmodel.Idx1).
		Write(testmodel.RaceD, testmodel.At(50), "MEMORY.md", testmodel.Idx1, testmodel.Idx0).Build()
	lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.Idx0)), log)
	if len(lost) != 1 || lost[0].Culprit == nil || lost[0].Culprit.Session != testmodel.RaceD || !lost[0].Definite {
		t.Errorf("want D's write as the definite culprit: %+v", lost)
	}
}

func TestLostUpdateHandEditsThatKeepTheFact(t *testing.T) {
	// No recorded write, but what the line said is still there: the entry
	// to the same memory with a new hook, or the same sentence re-worded.
	log := testmodel.NewLog().Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy).
		Write(testmodel.RaceA, testmodel.At(15), "reference_staging.md", "", testmodel.Topic("reference-staging", "Staging host", "reference",
			"Staging lives on acme-stg and needs the corporate VPN from home.\n")).Build()
	files := testmodel.WithIndex("# Memory\n\n" + testmodel.EStaging + "\n- [Deploy](feedback_deploy_command.md) — always make ship\n" + testmodel.ERole + "\n")
	files["reference_staging.md"] = testmodel.Topic("reference-staging", "Staging host", "reference",
		"Staging lives on acme-stg and needs the corporate VPN from home!\n")
	if lost := LostUpdates(testmodel.LostMemDir(files), log); len(lost) != 0 {
		t.Errorf("hand edits that keep the fact reported as lost: %+v", lost)
	}
}

func TestLostUpdateFrontmatterIsNotText(t *testing.T) {
	// B rewrote the memory blind and with its own description: frontmatter
	// is metadata every rewrite re-serialises, and putting A's description
	// back would give the file two.
	a := testmodel.Topic("user-role", "The user is a backend engineer", "user", "The user owns the billing service.\n")
	b := testmodel.Topic("user-role", "Backend engineer who owns billing", "user", "The user owns the billing service.\n")
	log := testmodel.NewLog().Session(testmodel.RaceA, "", "main", testmodel.At(0)).Session(testmodel.RaceB, "", "main", testmodel.At(1)).
		Write(testmodel.RaceA, testmodel.At(5), "user_role.md", "", a).Write(testmodel.RaceB, testmodel.At(9), "user_role.md", a, b).Build()
	files := testmodel.WithIndex(testmodel.Idx0)
	files["user_role.md"] = b
	if lost := LostUpdates(testmodel.LostMemDir(files), log); len(lost) != 0 {
		t.Errorf("a frontmatter field reported as lost text: %+v", lost)
	}
}

func TestLostUpdateUnchangedRereadCounts(t *testing.T) {
	// Claude Code answered B's re-read "unchanged since last read" after
	// A's edit: B's last read came after the edit, even if the record of
	// that read is missing (a compacted or unparsed stretch).
	b := testmodel.RaceLog()
	b.AddObs(model.MemObservation{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.ObsUnchanged,
		Session: testmodel.RaceB, Time: testmodel.At(18), ID: "toolu_01UnchangedBBBBBBBBBB"})
	if lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB)), b.Build()); len(lost) != 0 {
		t.Errorf("an unchanged re-read after the edit; reported: %+v", lost)
	}
}

// A memtui write whose result the journal no longer holds hides nothing:
// A's entry, lost to B's stale write after an unrelated memtui change, is
// still reported (possibly lost: the memtui change is of unknown content).
func TestLostUpdateMemtuiWriteOfUnknownResult(t *testing.T) {
	log := testmodel.RaceLog().Add(model.MemWrite{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.WriteMemtui, Time: testmodel.At(16),
		Before: testmodel.Idx1, HasBefore: true}).Build()
	d := testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB))
	lost := LostUpdates(d, log)
	if len(lost) != 1 || !reflect.DeepEqual(lost[0].Lines, []string{testmodel.EDeploy}) {
		t.Fatalf("want A's entry reported, got %+v", lost)
	}
	if lost[0].Definite {
		t.Errorf("a write of unknown content in between makes it only possibly lost: %+v", lost[0])
	}
}

// A fork copies its parent's lines with their ids and times, so a write
// deduplicated to one session may be the other's: a session removing text
// its own fork-copied write added did so knowingly.
func TestLostUpdateForkCopiesCountAsTheSameWriter(t *testing.T) {
	b := testmodel.NewLog().
		Session(testmodel.RaceA, "Deploy notes", "main", testmodel.At(0)).
		Read(testmodel.RaceA, testmodel.At(10), "MEMORY.md", testmodel.Idx0).
		Edit(testmodel.RaceA, "", testmodel.At(14), "MEMORY.md", testmodel.Idx0, true, testmodel.EStaging, testmodel.EStaging+"\n"+testmodel.EDeploy)
	log := b.Build()
	// The edit was deduplicated to A, and B's transcript (a fork of A)
	// repeats it; B then rewrote the file without the entry.
	for i := range log.Writes {
		log.Writes[i].AlsoIn = []string{testmodel.RaceB}
	}
	log.Writes = append(log.Writes, model.MemWrite{Path: testmodel.AbsMem("MEMORY.md"), Kind: model.WriteFull, Session: testmodel.RaceB,
		Time: testmodel.At(20), Before: testmodel.Idx1, HasBefore: true, After: testmodel.IdxB, HasAfter: true})
	log.SortLog()
	if lost := LostUpdates(testmodel.LostMemDir(testmodel.WithIndex(testmodel.IdxB)), log); len(lost) != 0 {
		t.Fatalf("a fork removing its own copied entry was reported as lost: %+v", lost)
	}
}

func TestLostUpdateCleanupOfOwnBlock(t *testing.T) {
	// A wrote a block into its memory, B appended a line (B read the file
	// first), then A edited its own block away: a cleanup, not a loss.
	block := "## Staging deploys\n\nUse make ship-stg.\nIt needs the VPN from home.\n"
	v0 := testmodel.Topic("reference-staging", "Staging host and how to reach it", "reference", "Staging lives on acme-stg (VPN required).\n")
	v1 := v0 + "\n" + block
	v2 := v1 + "\nThe staging DB resets nightly.\n"
	v3 := strings.Replace(v2, "\n"+block, "", 1)
	for _, hasBefore := range []bool{true, false} {
		before := ""
		if hasBefore {
			before = v2
		}
		log := testmodel.NewLog().Session(testmodel.RaceA, "Staging", "main", testmodel.At(0)).Session(testmodel.RaceB, "", "main", testmodel.At(1)).
			Write(testmodel.RaceA, testmodel.At(5), "reference_staging.md", v0, v1).
			Read(testmodel.RaceB, testmodel.At(6), "reference_staging.md", v1).
			Write(testmodel.RaceB, testmodel.At(8), "reference_staging.md", v1, v2).
			Edit(testmodel.RaceA, "", testmodel.At(12), "reference_staging.md", before, hasBefore, "\n"+block, "").Build()
		files := testmodel.WithIndex(testmodel.Idx0)
		files["reference_staging.md"] = v3
		d := testmodel.LostMemDir(files)
		if lost := LostUpdates(d, log); len(lost) != 0 {
			t.Errorf("originalFile %v: a session removing its own block reported as lost: %+v", hasBefore, lost)
		}
	}
}
