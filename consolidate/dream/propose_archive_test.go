package dream

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// archiveOf proposes only archives for d in project p.
func archiveOf(t *testing.T, p *model.Project, d *model.MemoryDir) []model.Proposal {
	t.Helper()
	return ProposeDir(p, d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindArchive}})
}

// moves lists a proposal's moves as "from>to".
func moves(p model.Proposal) []string {
	var out []string
	for _, c := range p.Changes {
		if c.Op == model.OpMove {
			out = append(out, c.From+">"+c.Path)
		}
	}
	return out
}

// inScanAfter ranks the memory files left after files (Apply's result)
// as Claude Code's scan would: the top-level and non-archived ones, by
// the mtimes of d.
func inScanAfter(d *model.MemoryDir, files map[string][]byte) (listed int, in map[string]bool) {
	mod := map[string]time.Time{}
	for _, f := range d.Files {
		mod[f.Path] = f.ModTime
	}
	var cands []*model.ScanCandidate
	var paths []string
	for p := range files {
		if p == "MEMORY.md" || model.ScanExclusion(p, model.MemoryStores{}) != "" {
			continue
		}
		cands = append(cands, &model.ScanCandidate{ModTime: mod[p]})
		paths = append(paths, p)
	}
	model.RankScan(cands)
	in = map[string]bool{}
	for i, c := range cands {
		if c.Reason == model.ScanIn {
			in[paths[i]] = true
		}
	}
	return len(cands), in
}

// TestArchiveWithoutTranscripts: 201 memories with distinct mtimes and no
// transcripts: one proposal moves the oldest into .archive/ (the scan is
// back at 200), keeps its index entry pointing at the new path, and says
// that recall sees nothing different today.
func TestArchiveWithoutTranscripts(t *testing.T) {
	d := testmodel.CapDir(201, testmodel.Now.AddDate(0, -3, 0))
	ps := archiveOf(t, dreamProject, d)
	if len(ps) != 1 {
		t.Fatalf("%d proposals: %+v", len(ps), ps)
	}
	p := ps[0]
	if got := strings.Join(moves(p), ","); got != "m000.md>.archive/m000.md" {
		t.Errorf("moves %s, want the oldest, m000.md, into .archive/", got)
	}
	if p.Kind != model.KindArchive || len(p.Fixes) != 1 || p.Fixes[0].Rule != consolidate.RuleRecallCap {
		t.Errorf("kind %s, fixes %+v", p.Kind, p.Fixes)
	}
	if !strings.Contains(p.Rationale, "without transcripts") || !strings.Contains(p.Rationale, "recall sees nothing different today") {
		t.Errorf("rationale: %s", p.Rationale)
	}
	after, err := Apply(filesOf(d), p)
	if err != nil {
		t.Fatal(err)
	}
	if string(after[".archive/m000.md"]) != string(d.Files[0].Content) {
		t.Errorf("the archived file's bytes changed:\n%s", after[".archive/m000.md"])
	}
	ix := string(after["MEMORY.md"])
	if !strings.Contains(ix, "](.archive/m000.md) — about m000\n") || strings.Contains(ix, "](m000.md)") {
		t.Errorf("MEMORY.md does not lead to the archived file:\n%s", ix[:min(len(ix), 300)])
	}
	if listed, _ := inScanAfter(d, after); listed != model.RecallScanCap {
		t.Errorf("the scan lists %d after the archive, want %d", listed, model.RecallScanCap)
	}
	// 200: nothing to do.
	if ps := archiveOf(t, dreamProject, testmodel.CapDir(200, testmodel.Now.AddDate(0, -3, 0))); len(ps) != 0 {
		t.Errorf("200 memories: %+v", ps)
	}
}

// TestArchiveBringsUsedMemoriesBack: with transcripts, the memories used
// least go first (then the oldest), so the used ones past the 200 come
// back into the scan, and the rationale names them.
func TestArchiveBringsUsedMemoriesBack(t *testing.T) {
	base := testmodel.Now.AddDate(0, -3, 0)
	d := testmodel.CapDir(203, base) // m000..m002 past the 200
	read := func(p string, n int) []model.MemObservation {
		var out []model.MemObservation
		for range n {
			out = append(out, model.MemObservation{Path: d.Path + "/" + p, Kind: model.ObsRecall, Time: testmodel.Now, Session: "s" + p})
		}
		return out
	}
	obs := append(read("m000.md", 2), read("m001.md", 1)...)
	obs = append(obs, read("m150.md", 5)...)
	log := testmodel.LogWith(obs...)
	log.Oldest = base.Add(-time.Hour) // every memory is newer: the cap's prunes take none
	p := &model.Project{Slug: "p", ConfigDir: "/cfg", Log: log}
	if ps := ProposeDir(p, d, Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindPrune}}); len(ps) != 0 {
		t.Fatalf("setup: prunes proposed: %+v", ps)
	}
	ps := archiveOf(t, p, d)
	if len(ps) != 1 {
		t.Fatalf("%d proposals", len(ps))
	}
	want := "m002.md>.archive/m002.md,m003.md>.archive/m003.md,m004.md>.archive/m004.md"
	if got := strings.Join(moves(ps[0]), ","); got != want {
		t.Errorf("moves %s, want the unused ones, oldest first: %s", got, want)
	}
	why := ps[0].Rationale
	if !strings.Contains(why, "brings back into the scan the used memories it had pushed out: m000.md (used 2 times) and m001.md (used once)") {
		t.Errorf("the rationale does not name the used memories that come back: %s", why)
	}
	after, err := Apply(filesOf(d), ps[0])
	if err != nil {
		t.Fatal(err)
	}
	listed, in := inScanAfter(d, after)
	if listed != model.RecallScanCap || !in["m000.md"] || !in["m001.md"] {
		t.Errorf("after the archive the scan lists %d, m000 in %v, m001 in %v", listed, in["m000.md"], in["m001.md"])
	}

	// Every memory used: the least used go, however new.
	obs = nil
	for i := range 203 {
		obs = append(obs, read(fmt.Sprintf("m%03d.md", i), 1+i%3)...)
	}
	obs = append(obs, read("m201.md", 10)...)
	log2 := testmodel.LogWith(obs...)
	log2.Oldest = log.Oldest
	ps = archiveOf(t, &model.Project{Slug: "p", ConfigDir: "/cfg", Log: log2}, d)
	if len(ps) != 1 || strings.Join(moves(ps[0]), ",") != "m000.md>.archive/m000.md,m003.md>.archive/m003.md,m006.md>.archive/m006.md" {
		t.Errorf("every memory used: %v", ps)
	}
}

// TestArchiveHeldBack: nothing is archived when the transcripts show the
// sessions in index mode only (the scan does not bite), in agent memory
// (scanned without the dot-folder exclusion), or when MEMORY.md was read
// only in part.
func TestArchiveHeldBack(t *testing.T) {
	base := testmodel.Now.AddDate(0, -3, 0)
	d := testmodel.CapDir(201, base)
	index := &model.Project{Slug: "p", ConfigDir: "/cfg", Log: testmodel.LogWith(model.MemObservation{Path: d.Path + "/MEMORY.md", Kind: model.ObsIndexLoad, Time: testmodel.Now})}
	if ps := archiveOf(t, index, d); len(ps) != 0 {
		t.Errorf("index mode: %+v", ps)
	}
	recall := &model.Project{Slug: "p", ConfigDir: "/cfg", Log: testmodel.LogWith(model.MemObservation{Path: d.Path + "/MEMORY.md", Kind: model.ObsIndexLoad, Time: testmodel.Now.Add(-time.Hour)},
		model.MemObservation{Path: d.Path + "/m150.md", Kind: model.ObsRecall, Time: testmodel.Now})}
	recall.Log.Oldest = base.Add(-time.Hour)
	if ps := archiveOf(t, recall, d); len(ps) != 1 {
		t.Errorf("recall mode (the newest observation a recall): %d proposals", len(ps))
	}
	agent := testmodel.CapDir(201, base)
	agent.Kind = model.DirAgentUser
	if ps := archiveOf(t, dreamProject, agent); len(ps) != 0 {
		t.Errorf("agent memory: %+v", ps)
	}
	cut := testmodel.CapDir(201, base)
	cut.Index.Truncated = true
	if ps := archiveOf(t, dreamProject, cut); len(ps) != 0 {
		t.Errorf("MEMORY.md read in part: %+v", ps)
	}
}

// TestArchiveLeavesAlone: a memory in a near-duplicate group (the merge's),
// one reached through a link, one read only in part, one whose name holds
// a secret and one whose archive path is taken are never archived: the
// next oldest go instead, as many as still needed once the merge counts.
func TestArchiveLeavesAlone(t *testing.T) {
	base := testmodel.Now.AddDate(0, -3, 0)
	d := testmodel.CapDir(206, base) // six over
	d.Files[0].Link = "m000.md"
	d.Files[1].Truncated = true
	// m002 and m003 say the same thing: the merge's (one of them goes).
	d.Files[3].Content = d.Files[2].Content
	secret := "notes_ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u.md"
	d.Files[4].Path = secret
	old := testmodel.File(".archive/m005.md", "an older archive of m005\n", base)
	old.Scan, old.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.archive)"
	d.Files = append(d.Files, old)
	// (The index cannot link the secret-named file: no proposal writes a
	// link with a secret in it, redacted or not.)
	d.Index = testmodel.GoodIndex(d.Files[5:]...)
	if n := len(testmodel.Only(lint(t, dreamProject, d, consolidate.Options{}), consolidate.RuleDuplicateMemory)); n != 1 {
		t.Fatalf("setup: %d duplicate findings", n)
	}
	ps := archiveOf(t, dreamProject, d)
	if len(ps) != 1 {
		t.Fatalf("%d proposals", len(ps))
	}
	want := "m006.md>.archive/m006.md,m007.md>.archive/m007.md,m008.md>.archive/m008.md,m009.md>.archive/m009.md,m010.md>.archive/m010.md"
	if got := strings.Join(moves(ps[0]), ","); got != want {
		t.Errorf("moves %s,\nwant %s", got, want)
	}
}

// TestArchiveRepointsReferences: the index entries, backticked names and
// [[wikilinks]] that lead to an archived memory lead to its new path, the
// entries kept; markdown links and [[wikilinks]] in other memories' bodies
// too (from a subfolder, relative to it); frontmatter and claudeCodeItem
// blocks stay byte for byte, and nothing else changes.
func TestArchiveRepointsReferences(t *testing.T) {
	base := testmodel.Now.AddDate(0, -3, 0)
	d := testmodel.CapDir(201, base)
	zero := d.Files[0] // m000.md, named "m0", the one archived
	zero.Content = []byte(itemFile("m0", "The oldest fact", "project", "remember [[m150]]", "2026-08-01T10:00:00.000Z", "Ticket 0 ships first.\n"))
	d.Files[150].Content = []byte(itemFile("m150", "Mentions [[m0]] in its description", "project", "see [[m0]] and [zero](m000.md)", "2026-10-01T10:00:00.000Z",
		"Follows [[m0]] (and [[m0|the first]]), see [zero](m000.md) and [other](m001.md).\n\n```\n[[m0]] in code stays\n```\n"))
	d.Files[151].Path = "sub/m151.md"
	d.Files[151].Content = []byte(testmodel.Topic("m151", "In a folder", "project", "Up: [zero](../m000.md), memdir-relative: [zero](m000.md), here: [x](m152.md).\n"))
	d.Files[152].Path = "sub/m152.md"
	index := "# Memory\n\n- [Zero](m000.md) — the oldest\n- [[m0]] — by name\n| `m000.md` | in a table |\n- [abs](" + d.Path + "/m000.md) — absolute\n" +
		"- [One](m001.md) — stays\n"
	d.Index = testmodel.File("MEMORY.md", index, base)
	ps := archiveOf(t, dreamProject, d)
	if len(ps) != 1 || strings.Join(moves(ps[0]), ",") != "m000.md>.archive/m000.md" {
		t.Fatalf("proposals: %+v", ps)
	}
	before := filesOf(d)
	after, err := Apply(before, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	wantIndex := "# Memory\n\n- [Zero](.archive/m000.md) — the oldest\n- [[.archive/m000]] — by name\n| `.archive/m000.md` | in a table |\n- [abs](" + d.Path + "/.archive/m000.md) — absolute\n" +
		"- [One](m001.md) — stays\n"
	if got := string(after["MEMORY.md"]); got != wantIndex {
		t.Errorf("MEMORY.md:\n%s\nwant\n%s", got, wantIndex)
	}
	m150 := string(after["m150.md"])
	if !strings.Contains(m150, "Follows [[.archive/m000]] (and [[.archive/m000|the first]]), see [zero](.archive/m000.md) and [other](m001.md).") ||
		!strings.Contains(m150, "[[m0]] in code stays") || !strings.Contains(m150, "description: Mentions [[m0]] in its description\n") {
		t.Errorf("m150.md:\n%s", m150)
	}
	if blocks(after["m150.md"])[0] != blocks(before["m150.md"])[0] || !strings.Contains(blocks(after["m150.md"])[0], `see [[m0]] and [zero](m000.md)`) {
		t.Errorf("m150.md's claudeCodeItem block changed:\n%s", m150)
	}
	if got := string(after["sub/m151.md"]); !strings.Contains(got, "Up: [zero](../m000.md), memdir-relative: [zero](.archive/m000.md), here: [x](m152.md).") {
		t.Errorf("sub/m151.md:\n%s", got)
	}
	if string(after[".archive/m000.md"]) != string(before["m000.md"]) {
		t.Error("the archived memory's bytes changed")
	}
	changed := 0
	for p, b := range after {
		if string(before[p]) != string(b) {
			changed++
		}
	}
	if changed != 4 { // the archive, MEMORY.md, m150.md, sub/m151.md
		t.Errorf("%d files changed, want 4", changed)
	}
	if !strings.Contains(ps[0].Rationale, "so do the links to it in m150.md and sub/m151.md") {
		t.Errorf("rationale: %s", ps[0].Rationale)
	}
}

// TestArchivePicksAnotherWhenALinkCannotFollow: a memory linked from a
// file memtui cannot rewrite (read only in part) stays where it is, so its
// link still works; the next one goes instead.
func TestArchivePicksAnotherWhenALinkCannotFollow(t *testing.T) {
	d := testmodel.CapDir(201, testmodel.Now.AddDate(0, -3, 0))
	d.Files[120].Content = []byte(testmodel.Topic("m120", "Long", "project", "See [[m0]] first.\n"))
	d.Files[120].Truncated = true
	ps := archiveOf(t, dreamProject, d)
	if len(ps) != 1 || strings.Join(moves(ps[0]), ",") != "m001.md>.archive/m001.md" {
		t.Fatalf("proposals: %+v", ps)
	}
}

// TestArchivePartlyAccepted: dropping the move but keeping the index hunk
// (or the reverse) would leave MEMORY.md pointing at a file that is not
// there: refused, saying so.
func TestArchivePartlyAccepted(t *testing.T) {
	d := testmodel.CapDir(201, testmodel.Now.AddDate(0, -3, 0))
	// An index that loads whole (one that is cut off already may not grow,
	// and Partial checks that too).
	d.Index = testmodel.GoodIndex(d.Files[:20]...)
	p := archiveOf(t, dreamProject, d)[0]
	before := func(path string) (string, bool) {
		b, ok := filesOf(d)[path]
		return string(b), ok
	}
	for name, keep := range map[string]Keep{
		"move dropped":       {".archive/m000.md": {false}},
		"index hunk dropped": {"MEMORY.md": {false}},
	} {
		if _, err := Partial(p, before, keep); err == nil || !strings.Contains(err.Error(), "MEMORY.md would point at") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Partial(p, before, Keep{}); err != nil {
		t.Errorf("all kept: %v", err)
	}
}

// TestMoveDiffIsARename: a move shows as a rename, without a content diff.
func TestMoveDiffIsARename(t *testing.T) {
	c := model.Change{Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: consolidate.SHA256Hex([]byte("alpha\n"))}
	got := diff.Unified(c, "alpha\n")
	if got != "--- a/a.md\n+++ b/.archive/a.md\nrename a.md → .archive/a.md\n" {
		t.Errorf("diff:\n%s", got)
	}
	if diff.Blocks(c, "alpha\n") != 1 {
		t.Error("a move is not one block")
	}
}

// TestExternalMoves: an external proposer's move is checked as memtui
// checks its own: the source a text memory it read, with its hash, the
// destination new and inside the directory, both markdown.
func TestExternalMoves(t *testing.T) {
	d := testmodel.Dir(map[string]string{"a.md": testmodel.Topic("a", "A fact", "user", "Alpha.\n"), "b.md": testmodel.Topic("b", "B fact", "user", "Beta.\n")}, testmodel.Now.AddDate(0, 0, -3))
	sum := consolidate.SHA256Hex(d.Files[0].Content)
	ok := model.Change{Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: sum}
	if _, err := CheckExternal(dreamProject, d, model.Proposal{Kind: model.KindArchive, Title: "t", Changes: []model.Change{ok}}, false); err != nil {
		t.Errorf("a good move refused: %v", err)
	}
	for name, c := range map[string]model.Change{
		"escapes":          {Path: "../a.md", From: "a.md", Op: model.OpMove, BaseSHA256: sum},
		"from escapes":     {Path: ".archive/a.md", From: "../a.md", Op: model.OpMove, BaseSHA256: sum},
		"absolute from":    {Path: ".archive/a.md", From: "/etc/a.md", Op: model.OpMove, BaseSHA256: sum},
		"not markdown":     {Path: ".archive/a.txt", From: "a.md", Op: model.OpMove, BaseSHA256: sum},
		"no from":          {Path: ".archive/a.md", Op: model.OpMove, BaseSHA256: sum},
		"missing source":   {Path: ".archive/c.md", From: "c.md", Op: model.OpMove, BaseSHA256: sum},
		"over a file":      {Path: "b.md", From: "a.md", Op: model.OpMove, BaseSHA256: sum},
		"stale hash":       {Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: consolidate.SHA256Hex([]byte("x"))},
		"with content":     {Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: sum, After: "x\n"},
		"the index":        {Path: ".archive/MEMORY.md", From: "MEMORY.md", Op: model.OpMove, BaseSHA256: consolidate.SHA256Hex(d.Index.Content)},
		"from on a create": {Path: "c.md", From: "a.md", Op: model.OpCreate, After: testmodel.Topic("c", "C", "user", "C.\n")},
		"control in name":  {Path: ".archive/a\x1b[2J.md", From: "a.md", Op: model.OpMove, BaseSHA256: sum},
	} {
		if _, err := CheckExternal(dreamProject, d, model.Proposal{Kind: model.KindArchive, Title: "t", Changes: []model.Change{c}}, false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Moving a file and changing it in the same proposal is changing it twice.
	twice := []model.Change{ok, {Path: "a.md", Op: model.OpUpdate, BaseSHA256: sum, After: testmodel.Topic("a", "A fact", "user", "Alpha!\n")}}
	if _, err := CheckExternal(dreamProject, d, model.Proposal{Kind: model.KindArchive, Title: "t", Changes: twice}, false); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a move and an update of its source: %v", err)
	}
}
