package consolidate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// capDir is a memory dir of n memories, the i-th modified i hours after
// base, marked as the loader marks them: the oldest n-200 past the cap.
// Every file is in the index.
func capDir(n int, base time.Time) *model.MemoryDir {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true, ScanListed: n}
	for i := 0; i < n; i++ {
		f := mem(fmt.Sprintf("m%03d.md", i), topic(fmt.Sprintf("m%d", i), fmt.Sprintf("Fact number %d about ticket %d", i, i*7), "project",
			fmt.Sprintf("Ticket %d is owned by team %d; it ships in sprint %d with flag f%d.\n", i*7, i%13, i%17, i)), base.Add(time.Duration(i)*time.Hour))
		if i < n-model.RecallScanCap {
			f.Scan = model.ScanPastCap
		}
		d.Files = append(d.Files, f)
	}
	d.Index = goodIndex(d.Files...)
	return d
}

// logWith is a transcript log with the observations given.
func logWith(obs ...model.MemObservation) *model.TranscriptLog {
	return &model.TranscriptLog{Sessions: map[string]*model.Session{}, Observations: obs, Oldest: testNow.AddDate(0, -1, 0)}
}

func TestRecallCapFinding(t *testing.T) {
	base := testNow.AddDate(0, -2, 0)
	d := capDir(225, base)
	// Two more tied at the 200th place.
	d.Files[30].Scan, d.Files[31].Scan = model.ScanTie, model.ScanTie
	fs := only(lint(t, nil, d, Options{}), RuleRecallCap)
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
	recall := &model.Project{Slug: "p", Log: logWith(model.MemObservation{Path: d.Path + "/m224.md", Kind: model.ObsRecall, Time: testNow})}
	if msg := only(lint(t, recall, d, Options{}), RuleRecallCap)[0].Message; !strings.Contains(msg, "run in recall mode") {
		t.Errorf("recall mode not said: %s", msg)
	}
	index := &model.Project{Slug: "p", Log: logWith(model.MemObservation{Path: d.Path + "/MEMORY.md", Kind: model.ObsIndexLoad, Time: testNow})}
	if msg := only(lint(t, index, d, Options{}), RuleRecallCap)[0].Message; !strings.Contains(msg, "index mode") {
		t.Errorf("index mode not said: %s", msg)
	}
	// 200 files: nothing to say.
	if fs := only(lint(t, nil, capDir(200, base), Options{}), RuleRecallCap); len(fs) != 0 {
		t.Errorf("200 files: %+v", fs)
	}
}

// TestExcludedFilesAreNoMemories: files the scan skips are no orphans, no
// duplicates, no stubs and have no frontmatter findings; one that looks
// like a memory says so, unless it is archived (.archive/ keeps memories
// out of the scan on purpose).
func TestExcludedFilesAreNoMemories(t *testing.T) {
	mod := testNow.AddDate(0, 0, -3)
	a := mem("feedback_deploy.md", topic("deploy", "How to deploy", "feedback", body), mod)
	dup := mem(".drafts/feedback_deploy.md", topic("deploy", "How to deploy", "feedback", body), mod)
	dup.Scan, dup.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.drafts)"
	archived := mem(".archive/feedback_deploy.md", topic("deploy", "How to deploy", "feedback", body), mod)
	archived.Scan, archived.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.archive)"
	chained := mem(".archive/feedback_deploy-2.md", topic("deploy-2", "More on deploys", "feedback", body), mod)
	chained.Scan, chained.ScanWhy = model.ScanExcluded, "the path has a part starting with a dot (.archive)"
	log := mem("logs/2026/11/2026-11-18.md", "Talked about tomorrow's release.\n", mod)
	log.Scan, log.ScanWhy = model.ScanExcluded, "it is under logs/, a folder the scan skips"
	stub := mem("proposals/p.md", topic("p", "", "project", "tbd\n"), mod)
	stub.Scan, stub.ScanWhy = model.ScanExcluded, "it is under proposals/, a folder the scan skips"
	d := &model.MemoryDir{Files: []*model.File{archived, chained, dup, a, log, stub}, Index: goodIndex(a)}
	fs := lint(t, nil, d, Options{})
	for _, f := range fs {
		if f.File != "feedback_deploy.md" && f.Rule != RuleScanExcluded || model.IsArchived(f.File) {
			t.Errorf("a finding on a file the scan skips: %s %s: %s", f.Rule, f.File, f.Message)
		}
	}
	ex := only(fs, RuleScanExcluded)
	if len(ex) != 2 || ex[0].File != ".drafts/feedback_deploy.md" || ex[1].File != "proposals/p.md" {
		t.Fatalf("scan-excluded: %+v", ex)
	}
	if !strings.Contains(ex[0].Message, "has memory frontmatter, but Claude Code's scan skips it (the path has a part starting with a dot (.drafts))") {
		t.Errorf("message: %s", ex[0].Message)
	}
	// A file past the 200 is a memory all the same (in index mode
	// MEMORY.md still leads to it): an orphan there is reported.
	b := mem("b.md", topic("b", "B fact", "user", "Another fact entirely, about the staging host and its port.\n"), mod)
	b.Scan = model.ScanPastCap
	d = &model.MemoryDir{Files: []*model.File{a, b, log}, Index: goodIndex(a)}
	if fs := only(lint(t, nil, d, Options{}), RuleMemoryOrphan); len(fs) != 1 || fs[0].File != "b.md" || strings.Contains(fs[0].Message, "recall mode") {
		t.Errorf("orphans: %+v", fs)
	}
	// In recall mode MEMORY.md is not loaded: the orphan says so.
	d.Path = "/mem"
	recall := &model.Project{Slug: "p", Log: logWith(model.MemObservation{Path: "/mem/a.md", Kind: model.ObsRecall, Time: testNow})}
	if fs := only(lint(t, recall, d, Options{}), RuleMemoryOrphan); len(fs) != 1 || !strings.Contains(fs[0].Message, "run in recall mode, where MEMORY.md is not loaded") {
		t.Errorf("orphan in recall mode: %+v", fs)
	}
	// A secret is still a secret.
	sec := mem("logs/x.md", "token ghp_R8mQ2vL9xT4nB7kW1pZ6cY3hF5jD0sG8aE2u\n", mod)
	sec.Scan = model.ScanExcluded
	d = &model.MemoryDir{Files: []*model.File{a, sec}, Index: goodIndex(a)}
	if fs := only(lint(t, nil, d, Options{}), RuleSecret); len(fs) != 1 {
		t.Errorf("secret in an excluded file: %+v", fs)
	}
}
