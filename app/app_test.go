package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// tree writes a config dir with two projects' memory dirs: ok holds a
// memory with an invalid type, indexed; broken is made unreadable to the
// test's loader.
func tree(t *testing.T) (cfg, ok, broken string) {
	t.Helper()
	cfg = t.TempDir()
	ok = filepath.Join(cfg, "projects", "-work-ok", "memory")
	broken = filepath.Join(cfg, "projects", "-work-broken", "memory")
	for p, body := range map[string]string{
		filepath.Join(ok, "MEMORY.md"):     "- [A](a.md) — a decision\n",
		filepath.Join(ok, "a.md"):          "---\nname: a\ndescription: A decision\ntype: decision\n---\n\nWe use sqlc.\n",
		filepath.Join(broken, "MEMORY.md"): "- [B](b.md) — b\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cfg, ok, broken
}

func open(t *testing.T, cfg string) *Workspace {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CACHE_HOME": filepath.Join(home, "cache")}
	ws, err := Open(context.Background(), Options{ConfigDirs: []string{cfg}, Now: testNow.Format(time.RFC3339), NoTranscripts: true,
		Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	return ws
}

// TestCheckLoadsEachDirAndDropsContent: Check loads each directory on the
// pool, checks it, frees its contents when asked (keeping the file list,
// which the summary counts), and turns a load error into a finding on
// that directory.
func TestCheckLoadsEachDirAndDropsContent(t *testing.T) {
	cfg, ok, broken := tree(t)
	ws := open(t, cfg)
	ws.load = func(ctx context.Context, d *model.MemoryDir) error {
		if d.Path == broken {
			return errors.New("permission denied")
		}
		return memfs.LoadDir(ctx, d, ws.ScanOpts)
	}
	opts := ws.CheckOpts
	opts.DropContent = true
	got := ws.Check(context.Background(), opts)
	var invalid, unreadable []model.Finding
	for _, f := range got {
		switch f.Rule {
		case consolidate.RuleTypeInvalid:
			invalid = append(invalid, f)
		case consolidate.RuleFileUnreadable:
			unreadable = append(unreadable, f)
		}
	}
	if len(invalid) != 1 || invalid[0].MemoryDir != ok {
		t.Errorf("the loaded dir was not checked: %+v", got)
	}
	if len(unreadable) != 1 || unreadable[0].MemoryDir != broken || !strings.Contains(unreadable[0].Message, "permission denied") {
		t.Errorf("a load error must become a finding on its dir: %+v", unreadable)
	}
	d := ws.DirInView(ok)
	if d == nil || len(d.Files) != 1 || d.Files[0].Content != nil || d.Index == nil || d.Index.Content != nil {
		t.Errorf("DropContent must free the contents and keep the file list: %+v", d)
	}
}

// TestProposeLoadsAndKeepsContent: Propose loads what it proposes for and
// keeps the contents (the diffs are shown from them) unless Drop.
func TestProposeLoadsAndKeepsContent(t *testing.T) {
	cfg, ok, _ := tree(t)
	for _, drop := range []bool{false, true} {
		ws := open(t, cfg)
		props, err := ws.Propose(context.Background(), ProposeOptions{Kinds: []model.ProposalKind{model.KindFixFrontmatter}, Drop: drop})
		if err != nil {
			t.Fatal(err)
		}
		if len(props) != 1 || props[0].MemoryDir != ok || props[0].Kind != model.KindFixFrontmatter {
			t.Fatalf("drop=%v: proposals %+v", drop, props)
		}
		before := ContentLookup(ws.Scan)(ok, "a.md")
		if drop != (before == "") {
			t.Errorf("drop=%v: the content of a.md as read is %q", drop, before)
		}
	}
}

// TestOpenAdvisesOnAnEmptyMachine: no memory anywhere is advice pointing
// at --demo, not a bare error; a --project that matches nothing says so.
func TestOpenAdvisesOnAnEmptyMachine(t *testing.T) {
	env := func(string) string { return "" }
	_, err := Open(context.Background(), Options{ConfigDirs: []string{t.TempDir()}, Getenv: env, ReadOnly: true})
	var advice Advice
	if !errors.As(err, &advice) || !strings.Contains(err.Error(), "memtui --demo") {
		t.Errorf("empty machine: %v", err)
	}
	cfg, _, _ := tree(t)
	_, err = Open(context.Background(), Options{ConfigDirs: []string{cfg}, Project: "nothing-like-it", Getenv: env, ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), `no project matches --project "nothing-like-it"`) {
		t.Errorf("unmatched --project: %v", err)
	}
}

// TestDemoIsScratch: the demo opens a copy of the embedded sample, keeps
// memtui's state inside it, and Close removes it.
func TestDemoIsScratch(t *testing.T) {
	home := t.TempDir()
	ws, err := Open(context.Background(), Options{Demo: true, NoTranscripts: true, Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	dir := ws.ScanOpts.ConfigDirs[0]
	if !strings.HasPrefix(ws.State.Journal, dir) || len(ws.Scan.Projects) == 0 {
		t.Errorf("demo: state %+v, %d projects, in %s", ws.State, len(ws.Scan.Projects), dir)
	}
	ws.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left the demo tree %s: %v", dir, err)
	}
}

// TestApplyAndUndoKeepToTheirScan: a write is journaled in the
// workspace's journal; the undo of that entry is refused (ErrNotInView,
// nothing written) against a scan that no longer shows the dir, as after a
// refresh that dropped it, and goes through against one that does, byte
// for byte; against a scan in which only a repository's settings name the
// dir, neither the write nor the undo goes through.
func TestApplyAndUndoKeepToTheirScan(t *testing.T) {
	cfg, ok, _ := tree(t)
	ws := open(t, cfg)
	if err := ws.Load(context.Background(), ws.DirInView(ok)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(ok, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	after := strings.Replace(string(before), "type: decision", "type: project", 1)
	p := model.Proposal{ID: "fix-frontmatter-0000scope", Kind: model.KindFixFrontmatter, MemoryDir: ok, Title: "Fix a's type",
		Changes: []model.Change{{Path: "a.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(before), After: after}}}
	res := ws.ApplyIn(context.Background(), ws.Scan, ok, []model.Proposal{p}, txn.ApplyOptions{})
	if len(res) != 1 || res[0].Status != txn.StatusApplied || res[0].JournalID == "" {
		t.Fatalf("apply: %+v", res)
	}
	entry, err := txn.ReadEntry(ws.JournalRoot(), res[0].JournalID)
	if err != nil {
		t.Fatalf("the write is not in the workspace's journal: %v", err)
	}

	elsewhere := &model.Scan{Projects: []*model.Project{{Dirs: []*model.MemoryDir{{Path: filepath.Join(cfg, "projects", "-work-broken", "memory")}}}}}
	if _, err := ws.UndoIn(context.Background(), elsewhere, *entry, txn.ApplyOptions{}); !errors.Is(err, ErrNotInView) {
		t.Fatalf("an undo out of view must be refused with ErrNotInView, got %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(ok, "a.md")); string(got) != after {
		t.Fatal("a refused undo changed the file")
	}
	r, err := ws.Undo(context.Background(), *entry, txn.ApplyOptions{})
	if err != nil || r.Status != txn.StatusApplied {
		t.Fatalf("undo in view: %+v %v", r, err)
	}
	if got, _ := os.ReadFile(filepath.Join(ok, "a.md")); string(got) != string(before) {
		t.Errorf("undo must restore the bytes:\n%s", got)
	}
	// The same dir as a refresh might see it: named only by a
	// repository's own settings. Neither a write nor an undo goes there.
	named := &model.Scan{Projects: []*model.Project{{Dirs: []*model.MemoryDir{{Path: ok, Workspace: "/repo/.claude/settings.json"}}}}}
	refused := ws.ApplyIn(context.Background(), named, ok, []model.Proposal{p}, txn.ApplyOptions{})
	if refused[0].Status != txn.StatusFailed || refused[0].Err == nil || !strings.Contains(refused[0].Err.Error(), "autoMemoryDirectory") {
		t.Errorf("a write into a dir only a repository named must be refused: %+v", refused)
	}
	if got, _ := os.ReadFile(filepath.Join(ok, "a.md")); string(got) != string(before) {
		t.Error("a refused write changed the file")
	}
	if _, err := ws.UndoIn(context.Background(), named, *entry, txn.ApplyOptions{}); err == nil || !strings.Contains(err.Error(), "autoMemoryDirectory") {
		t.Errorf("an undo into a dir only a repository named must be refused: %v", err)
	}
}

// TestFindEntry: a journal entry is found by its whole ID, by a start no
// other entry shares, or by its proposal's ID (the entry that applied it,
// not the undo that carries the same proposal ID); an ambiguous start
// names the candidates, an unknown one says nothing matched.
func TestFindEntry(t *testing.T) {
	es := []txn.JournalEntry{ // newest first
		{ID: "20261128T120300Z-cccc", ProposalID: "merge-1", State: txn.JournalCommitted},
		{ID: "20261128T120200Z-bbbb", ProposalID: "merge-1", State: txn.JournalCommitted, UndoOf: "20261128T120100Z-aaaa"},
		{ID: "20261128T120100Z-aaaa", ProposalID: "merge-1", State: txn.JournalUndone},
		{ID: "20261127T090000Z-dddd", ProposalID: "prune-9", State: txn.JournalUndone},
	}
	for ref, want := range map[string]string{
		"20261128T120300Z-cccc": "20261128T120300Z-cccc",
		"20261128T1202":         "20261128T120200Z-bbbb",
		"20261127":              "20261127T090000Z-dddd",
		"merge-1":               "20261128T120300Z-cccc", // the applied one, not the undo
		"prune-9":               "20261127T090000Z-dddd", // undone already: undo says so
	} {
		e, err := FindEntry(es, ref)
		if err != nil || e.ID != want {
			t.Errorf("%q: %v, %v; want %s", ref, e, err, want)
		}
	}
	if _, err := FindEntry(es, "20261128"); err == nil || !strings.Contains(err.Error(), "names 3 journal entries") {
		t.Errorf("an ambiguous start: %v", err)
	}
	if _, err := FindEntry(es, "reindex-0"); err == nil || !strings.Contains(err.Error(), "no journal entry in view") {
		t.Errorf("an unknown ref: %v", err)
	}
}

// TestRebuildOnlyOverThePlansOwnWrites: a proposal touching a file the
// plan wrote is proposed again when the file is as the plan left it, and
// refused as a conflict when anyone else changed it since.
func TestRebuildOnlyOverThePlansOwnWrites(t *testing.T) {
	cfg, ok, _ := tree(t)
	ws := open(t, cfg)
	props, err := ws.Propose(context.Background(), ProposeOptions{Kinds: []model.ProposalKind{model.KindFixFrontmatter}})
	if err != nil || len(props) != 1 {
		t.Fatalf("proposals: %v %+v", err, props)
	}
	p := props[0]
	content, err := os.ReadFile(filepath.Join(ok, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	// As if an earlier proposal of the plan had left a.md as it is now.
	wrote := map[string]string{"a.md": consolidate.SHA256Hex(content)}
	np, done, err := ws.rebuild(context.Background(), ws.Scan, ok, p, wrote, false)
	if err != nil || done || np.Kind != p.Kind || np.Changes[0].Path != "a.md" {
		t.Fatalf("over the plan's own write: %+v, done %v, %v", np, done, err)
	}
	// An agent writes a.md after the plan did: a conflict, not a rebuild.
	if err := os.WriteFile(filepath.Join(ok, "a.md"), append(content, "An agent's line.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = ws.rebuild(context.Background(), ws.Scan, ok, p, wrote, false)
	var conflict *txn.ConflictError
	if !errors.As(err, &conflict) || conflict.Path != "a.md" {
		t.Errorf("a change by someone else must be a conflict on a.md, got %v", err)
	}
}

// TestApplyPlanWritesAPartKeptProposalAsItIs: a proposal a person kept
// only part of is never rebuilt on the plan's earlier writes (a rebuild
// would write the hunks they left out): when an earlier proposal of the
// plan changed a file it reads, it conflicts, and the rest still applies.
func TestApplyPlanWritesAPartKeptProposalAsItIs(t *testing.T) {
	home := t.TempDir()
	ws, err := Open(context.Background(), Options{Demo: true, NoTranscripts: true, Now: testNow.Format(time.RFC3339), Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	props, err := ws.Propose(context.Background(), ProposeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var dir string
	var plan []model.Proposal
	var merge string
	for _, p := range props {
		if strings.HasSuffix(p.MemoryDir, "-home-dev-acme-api/memory") {
			dir = p.MemoryDir
			plan = append(plan, p)
			if p.Kind == model.KindMerge {
				merge = p.ID
			}
		}
	}
	if merge == "" {
		t.Fatal("the demo's acme-api has no merge")
	}
	whole := ws.ApplyPlan(context.Background(), ws.Scan, dir, plan, txn.ApplyOptions{}, map[string]bool{merge: true})
	for _, r := range whole {
		switch {
		case r.ID == merge && (r.Status != txn.StatusConflict || r.Rebuilt != nil):
			t.Errorf("the part-kept merge: %+v; want a conflict, not a rebuild", r)
		case r.ID != merge && r.Status != txn.StatusApplied:
			t.Errorf("%s: %+v", r.ID, r)
		}
	}
}

// TestReviewedWriteKeepsAnAgentsChangeToReview: memtui's write is recorded
// in the review baseline only over a file the baseline held as the write
// found it; a file an agent changed since the review keeps its baseline,
// so that change still shows after memtui's write on top of it.
func TestReviewedWriteKeepsAnAgentsChangeToReview(t *testing.T) {
	cfg, ok, _ := tree(t)
	ws := open(t, cfg)
	ws.State.Seen = t.TempDir()
	d := ws.DirInView(ok)
	if err := ws.Load(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	base, _, err := ws.OpenBaseline(d, testNow)
	if err != nil || base == nil {
		t.Fatalf("baseline: %v", err)
	}
	file := filepath.Join(ok, "a.md")
	agent := strings.Replace(mustRead(t, file), "We use sqlc.", "We use sqlc, and pgx for the pool.", 1)
	if err := os.WriteFile(file, []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	props, err := ws.Propose(context.Background(), ProposeOptions{Kinds: []model.ProposalKind{model.KindFixFrontmatter}})
	if err != nil || len(props) != 1 {
		t.Fatalf("proposals: %v %+v", err, props)
	}
	if r := ws.Apply(context.Background(), ok, props, txn.ApplyOptions{})[0]; r.Status != txn.StatusApplied {
		t.Fatalf("apply: %+v", r)
	}
	after, err := memfs.LoadBaseline(ws.State.Seen, ok)
	if err != nil || after.Files["a.md"].SHA256 != base.Files["a.md"].SHA256 {
		t.Errorf("the agent's change to a.md was folded into the baseline by memtui's write: %v", err)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
