package consolidate

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func TestRecallCapFinding(t *testing.T) {
	base := testmodel.Now.AddDate(0, -2, 0)
	d := testmodel.CapDir(225, base)
	// Two more tied at the 200th place.
	d.Files[30].Scan, d.Files[31].Scan = model.ScanTie, model.ScanTie
	fs := testmodel.Only(lint(t, nil, d, Options{}), RuleRecallCap)
	if len(fs) != 1 || fs[0].File != "" {
		t.Fatalf("recall-cap: %+v", fs)
	}
	msg := fs[0].Message
	for _, want := range []string{
		"lists 225 memory files", "only the newest 200",
		"25 files here are never offered, newest first: m024.md (", // newest excluded first
		"and 5 more", // 20 named
		"2 files here share the mtime of the 200th place", "m031.md", "m030.md",
		"the transcripts do not say which mode",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "m004.md") {
		t.Errorf("names more than %d files: %s", maxNamed, msg)
	}
	if strings.Index(msg, "m024.md") > strings.Index(msg, "m023.md") {
		t.Errorf("not newest first: %s", msg)
	}
	// The mode, from the transcripts.
	recall := &model.Project{Slug: "p", Log: testmodel.LogWith(model.MemObservation{Path: d.Path + "/m224.md", Kind: model.ObsRecall, Time: testmodel.Now})}
	if msg := testmodel.Only(lint(t, recall, d, Options{}), RuleRecallCap)[0].Message; !strings.Contains(msg, "run in recall mode") {
		t.Errorf("recall mode not said: %s", msg)
	}
	index := &model.Project{Slug: "p", Log: testmodel.LogWith(model.MemObservation{Path: d.Path + "/MEMORY.md", Kind: model.ObsIndexLoad, Time: testmodel.Now})}
	if msg := testmodel.Only(lint(t, index, d, Options{}), RuleRecallCap)[0].Message; !strings.Contains(msg, "index mode") {
		t.Errorf("index mode not said: %s", msg)
	}
	// 200 files: nothing to say.
	if fs := testmodel.Only(lint(t, nil, testmodel.CapDir(200, base), Options{}), RuleRecallCap); len(fs) != 0 {
		t.Errorf("200 files: %+v", fs)
	}
}

// TestExcludedFilesAreNoMemories: files the scan skips are no orphans, no
// duplicates, no stubs and have no frontmatter findings; one that looks
// like a memory says so, unless it is archived (.archive/ keeps memories
// out of the scan on purpose).
func TestExcludedFilesAreNoMemories(t *testing.T) {
	mod := testmodel.Now.AddDate(0, 0, -3)
	a := testmodel.File("feedback_deploy.md", testmodel.Topic("deploy", "How to deploy", "feedback", testmodel.Body), mod)
	dup := testmodel.File(".drafts/feedback_deploy.md", testmodel.Topic("deploy", "How to deploy", "feedback", testmodel.Body), mod)
	dup.Scan, dup.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.drafts)"
	archived := testmodel.File(".archive/feedback_deploy.md", testmodel.Topic("deploy", "How to deploy", "feedback", testmodel.Body), mod)
	archived.Scan, archived.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.archive)"
	chained := testmodel.File(".archive/feedback_deploy-2.md", testmodel.Topic("deploy-2", "More on deploys", "feedback", testmodel.Body), mod)
	chained.Scan, chained.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.archive)"
	log := testmodel.File("logs/2026/11/2026-11-18.md", "Talked about tomorrow's release.\n", mod)
	log.Scan, log.ScanWhy = model.ScanExcluded, "it is under logs/, a folder the scan skips"
	stub := testmodel.File("proposals/p.md", testmodel.Topic("p", "", "project", "tbd\n"), mod)
	stub.Scan, stub.ScanWhy = model.ScanExcluded, "it is under proposals/, a folder the scan skips"
	d := &model.MemoryDir{Files: []*model.File{archived, chained, dup, a, log, stub}, Index: testmodel.GoodIndex(a)}
	fs := lint(t, nil, d, Options{})
	for _, f := range fs {
		if f.File != "feedback_deploy.md" && f.Rule != RuleScanExcluded || model.IsArchived(f.File) {
			t.Errorf("a finding on a file the scan skips: %s %s: %s", f.Rule, f.File, f.Message)
		}
	}
	ex := testmodel.Only(fs, RuleScanExcluded)
	if len(ex) != 2 || ex[0].File != ".drafts/feedback_deploy.md" || ex[1].File != "proposals/p.md" {
		t.Fatalf("scan-excluded: %+v", ex)
	}
	if !strings.Contains(ex[0].Message, "has memory frontmatter, but Claude Code's scan skips it (the path has a part starting with a dot (.drafts))") {
		t.Errorf("message: %s", ex[0].Message)
	}
	// A file past the 200 is a memory all the same (in index mode
	// MEMORY.md still leads to it): an orphan there is reported.
	b := testmodel.File("b.md", testmodel.Topic("b", "B fact", "user", "Another fact entirely, about the staging host and its port.\n"), mod)
	b.Scan = model.ScanPastCap
	d = &model.MemoryDir{Files: []*model.File{a, b, log}, Index: testmodel.GoodIndex(a)}
	if fs := testmodel.Only(lint(t, nil, d, Options{}), RuleMemoryOrphan); len(fs) != 1 || fs[0].File != "b.md" || strings.Contains(fs[0].Message, "recall mode") {
		t.Errorf("orphans: %+v", fs)
	}
	// In recall mode MEMORY.md is not loaded: the orphan says so.
	d.Path = "/mem"
	recall := &model.Project{Slug: "p", Log: testmodel.LogWith(model.MemObservation{Path: "/mem/a.md", Kind: model.ObsRecall, Time: testmodel.Now})}
	if fs := testmodel.Only(lint(t, recall, d, Options{}), RuleMemoryOrphan); len(fs) != 1 || !strings.Contains(fs[0].Message, "run in recall mode, where MEMORY.md is not loaded") {
		t.Errorf("orphan in recall mode: %+v", fs)
	}
	// A secret is still a secret.
	sec := testmodel.File("logs/x.md", "token ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u\n", mod)
	sec.Scan = model.ScanExcluded
	d = &model.MemoryDir{Files: []*model.File{a, sec}, Index: testmodel.GoodIndex(a)}
	if fs := testmodel.Only(lint(t, nil, d, Options{}), RuleSecret); len(fs) != 1 {
		t.Errorf("secret in an excluded file: %+v", fs)
	}
}
