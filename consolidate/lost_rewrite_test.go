package consolidate

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// Deliberate rewrites and cleanups (issue 12): a session that had the text
// in front of it, however it came to see it, and then rewrote or edited it
// away, removed it on purpose. None of these is a lost update, definite or
// possible.

// obs adds an observation of rel by sess at minute t.
func (b *logOf) obs(kind model.ObsKind, sess string, t int, rel, content string, full bool) *logOf {
	b.l.Observations = append(b.l.Observations, model.MemObservation{Path: absMem(rel), Kind: kind, Session: sess,
		Time: at(t), Content: content, Full: full, ID: b.id()})
	return b
}

// rewriteBase is the start of the race without B's write: A adds the
// deploy entry at 09:14 after both read idx0.
func rewriteBase() *logOf {
	return newLogOf().
		session(raceA, "Deploy notes", "main", at(0)).
		session(raceB, "Release freeze", "feat/billing", at(1)).
		read(raceA, at(10), "MEMORY.md", idx0).
		read(raceB, at(11), "MEMORY.md", idx0).
		edit(raceA, "", at(14), "MEMORY.md", idx0, true, eStaging, eStaging+"\n"+eDeploy)
}

func TestLostUpdateDeliberateRewrites(t *testing.T) {
	reworded := "- [Deploy](feedback_deploy_command.md) — ship with make ship"
	cases := map[string]struct {
		b       *logOf
		current string
	}{
		// B read lines 3-4 only (offset/limit), the deploy entry among them,
		// then wrote the whole file without it.
		"ranged read": {rewriteBase().
			obs(model.ObsRead, raceB, 16, "MEMORY.md", "3\t"+eStaging+"\n4\t"+eDeploy+"\n", false).
			write(raceB, at(20), "MEMORY.md", idx1, idxB), idxB},
		// The same, re-wording the entry instead of dropping it.
		"ranged read, re-worded": {rewriteBase().
			obs(model.ObsRead, raceB, 16, "MEMORY.md", "4\t"+eDeploy+"\n", false).
			write(raceB, at(20), "MEMORY.md", idx1, "# Memory\n\n"+eStaging+"\n"+reworded+"\n"+eRole+"\n"),
			"# Memory\n\n" + eStaging + "\n" + reworded + "\n" + eRole + "\n"},
		// MEMORY.md was loaded into B's context with the entry in it.
		"index load": {rewriteBase().
			obs(model.ObsIndexLoad, raceB, 16, "MEMORY.md", idx1, true).
			write(raceB, at(20), "MEMORY.md", idx1, idxB), idxB},
		// A recall surfaced the file to B.
		"recall": {rewriteBase().
			obs(model.ObsRecall, raceB, 16, "MEMORY.md", idx1, false).
			write(raceB, at(20), "MEMORY.md", idx1, idxB), idxB},
		// Claude Code told B the file changed, with the entry in the snippet.
		"changed-file notice": {rewriteBase().
			obs(model.ObsChanged, raceB, 16, "MEMORY.md", "4\t"+eDeploy, false).
			write(raceB, at(20), "MEMORY.md", idx1, idxB), idxB},
		// B knew the entry from its own earlier write (it had put it back
		// itself), then rewrote the file without it.
		"own earlier write": {rewriteBase().
			write(raceB, at(16), "MEMORY.md", idx1, idx1+eFreeze+"\n").
			write(raceB, at(20), "MEMORY.md", idx1+eFreeze+"\n", idxB), idxB},
		// The session that wrote the entry rewrote the file without it.
		"writer's own rewrite": {rewriteBase().
			write(raceA, at(20), "MEMORY.md", idx1, idx0), idx0},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			log := c.b.build()
			d := lostMemDir(withIndex(c.current))
			if lost := LostUpdates(d, log); len(lost) != 0 {
				t.Errorf("a deliberate rewrite reported as lost: %+v", lost)
			}
			if fs := lostFindings(t, lostProject(log), d, Options{}); len(fs) != 0 {
				t.Errorf("findings: %+v", fs)
			}
			if ps := ProposeDir(lostProject(log), d, DreamOptions{Options: Options{Now: testNow}, Kinds: []model.ProposalKind{model.KindRestoreLost}}); len(ps) != 0 {
				t.Errorf("restore proposed for a deliberate rewrite: %+v", ps)
			}
		})
	}
}

func TestLostUpdateCleanupOfOwnBlock(t *testing.T) {
	// A wrote a block into its memory, B appended a line (B read the file
	// first), then A edited its own block away: a cleanup, not a loss.
	block := "## Staging deploys\n\nUse make ship-stg.\nIt needs the VPN from home.\n"
	v0 := topic("reference-staging", "Staging host and how to reach it", "reference", "Staging lives on acme-stg (VPN required).\n")
	v1 := v0 + "\n" + block
	v2 := v1 + "\nThe staging DB resets nightly.\n"
	v3 := strings.Replace(v2, "\n"+block, "", 1)
	for _, hasBefore := range []bool{true, false} {
		before := ""
		if hasBefore {
			before = v2
		}
		log := newLogOf().session(raceA, "Staging", "main", at(0)).session(raceB, "", "main", at(1)).
			write(raceA, at(5), "reference_staging.md", v0, v1).
			read(raceB, at(6), "reference_staging.md", v1).
			write(raceB, at(8), "reference_staging.md", v1, v2).
			edit(raceA, "", at(12), "reference_staging.md", before, hasBefore, "\n"+block, "").build()
		files := withIndex(idx0)
		files["reference_staging.md"] = v3
		d := lostMemDir(files)
		if lost := LostUpdates(d, log); len(lost) != 0 {
			t.Errorf("originalFile %v: a session removing its own block reported as lost: %+v", hasBefore, lost)
		}
	}
}
