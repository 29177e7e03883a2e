package ui

import (
	"context"
	"github.com/memtui/memtui/app"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// sessionTree is a project after a parallel session: agents A and B both
// read MEMORY.md; A added an index entry with Edit, then B wrote the whole
// file from its stale read and dropped it. The log is what the transcripts
// say, built directly (memfs has its own tests of reading them).
func sessionTree(t *testing.T) (Config, string, *model.TranscriptLog) {
	t.Helper()
	cfgDir := t.TempDir()
	memDir := filepath.Join(cfgDir, "projects", "-work-shop", "memory")
	if err := os.MkdirAll(memDir, 0o755); err != nil {
		t.Fatal(err)
	}
	v0 := "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship, never npm run deploy\n"
	lineA := "- [Search](project_search.md) — search moves to OpenSearch in Q1\n"
	lineB := "- [Staging](reference_staging.md) — staging lives on stg.test\n"
	files := map[string]string{
		"MEMORY.md":            v0 + lineB,
		"feedback_deploy.md":   "---\nname: deploy\ndescription: How to deploy\ntype: feedback\n---\n\nDeploy with make ship.\n",
		"project_search.md":    "---\nname: search\ndescription: Search migration\ntype: project\n---\n\nSearch moves to OpenSearch in Q1 2027.\n",
		"reference_staging.md": "---\nname: staging\ndescription: Where staging lives\ntype: reference\n---\n\nStaging lives on stg.test.\n",
	}
	for name, c := range files {
		if err := os.WriteFile(filepath.Join(memDir, name), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	p := func(name string) string { return filepath.Join(memDir, name) }
	a, b := "aaaa1111-1d7b-4c3e-9a46-0b8e2f1d7c90", "bbbb2222-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
	log := &model.TranscriptLog{
		Sessions: map[string]*model.Session{
			a: {ID: a, Title: "Plan the search migration", Transcript: "/x/" + a + ".jsonl", ModTime: t0.Add(time.Minute)},
			b: {ID: b, Title: "Document staging access", Transcript: "/x/" + b + ".jsonl", ModTime: t0.Add(time.Minute)},
		},
		Writes: []model.MemWrite{
			{Path: p("project_search.md"), Kind: model.WriteFull, Session: a, Time: t0.Add(20 * time.Second), Branch: "feat/search",
				HasBefore: true, Created: true, After: files["project_search.md"], HasAfter: true},
			{Path: p("MEMORY.md"), Kind: model.WriteEdit, Session: a, Time: t0.Add(30 * time.Second), Branch: "feat/search",
				HasBefore: true, Before: v0, Edits: []model.TextEdit{{Old: strings.TrimSuffix(v0, "\n"), New: v0 + strings.TrimSuffix(lineA, "\n")}}},
			{Path: p("reference_staging.md"), Kind: model.WriteFull, Session: b, Time: t0.Add(40 * time.Second), Branch: "main",
				HasBefore: true, Created: true, After: files["reference_staging.md"], HasAfter: true},
			{Path: p("MEMORY.md"), Kind: model.WriteFull, Session: b, Time: t0.Add(50 * time.Second), Branch: "main",
				HasBefore: true, Before: v0 + lineA, After: v0 + lineB, HasAfter: true},
		},
		Observations: []model.MemObservation{
			{Path: p("MEMORY.md"), Kind: model.ObsRead, Session: a, Time: t0.Add(10 * time.Second), Content: v0, Full: true, ID: "r1"},
			{Path: p("MEMORY.md"), Kind: model.ObsRead, Session: b, Time: t0.Add(12 * time.Second), Content: v0, Full: true, ID: "r2"},
			{Path: p("feedback_deploy.md"), Kind: model.ObsRead, Session: a, Time: t0.Add(14 * time.Second), Content: files["feedback_deploy.md"], Full: true, ID: "r3"},
			{Path: p("feedback_deploy.md"), Kind: model.ObsRecall, Session: b, Time: t0.Add(15 * time.Second), Content: files["feedback_deploy.md"], ID: "r4"},
			{Path: p("feedback_deploy.md"), Kind: model.ObsUnchanged, Session: a, Time: t0.Add(16 * time.Second), ID: "r5"},
		},
		Oldest: t0.Add(-24 * time.Hour),
		Files:  2,
	}
	cfg := Config{
		Workspace: &app.Workspace{
			ScanOpts: memfs.Options{ConfigDirs: []string{cfgDir}, Getenv: func(string) string { return "" }, Home: cfgDir,
				ManagedSettings: filepath.Join(cfgDir, "none.json")},
			CheckOpts: consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
			State:     memfs.StateDirs{Seen: filepath.Join(t.TempDir(), "seen")},
			Transcripts: func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
				return log, nil
			},
		},
		Home: "/home/dev",
	}
	return cfg, memDir, log
}

func TestTranscriptsShowLostUpdateProvenanceAndHeat(t *testing.T) {
	cfg, _, _ := sessionTree(t)
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("work-shop")

	// The lost index line is a finding, naming the line and the session.
	d.keys("f")
	s := d.screen()
	for _, want := range []string{"lost-update", "[Search](project_search.md)", "aaaa1111"} {
		if !strings.Contains(s, want) {
			t.Errorf("findings view lacks %q:\n%s", want, s)
		}
	}
	d.keys("b")

	// Heat in the memories pane: feedback_deploy.md was read, recalled and
	// re-read (3 uses); the others never.
	d.m.setFocus(focusMemories)
	s = d.screen()
	if !strings.Contains(s, "3×") || !strings.Contains(s, "0×") {
		t.Errorf("memories pane shows no use counts:\n%s", s)
	}
	// The dream gate: never consolidated, two sessions since.
	if !strings.Contains(s, "never consolidated") || !strings.Contains(s, "dream 2/5") {
		t.Errorf("memories pane shows no dream gate:\n%s", s)
	}

	// Sorting by use puts the used memory first within its type… and by
	// name again after a full cycle.
	d.keys("o")
	if got := d.m.memories.sortBy; got != sortUse {
		t.Fatalf("o: sort %v, want by use", got)
	}
	if !strings.Contains(d.screen(), "Memories (3) · by use") {
		t.Errorf("the title does not say the order:\n%s", d.screen())
	}
	d.keys("o", "o")
	if d.m.memories.sortBy != sortName {
		t.Fatal("o three times is back to by name")
	}

	// The preview says who wrote a memory and how much it is used.
	d.selectMemory("reference_staging")
	s = d.screen()
	for _, want := range []string{"written by", "bbbb2222", "Document staging access", "on main", "never read or recalled"} {
		if !strings.Contains(s, want) {
			t.Errorf("preview lacks %q:\n%s", want, s)
		}
	}
	d.selectMemory("feedback_deploy")
	if s := d.screen(); !strings.Contains(s, "1 read, 1 re-read, 1 recall in 2 sessions") {
		t.Errorf("preview lacks the heat summary:\n%s", s)
	}

	// restore-lost is among the proposals.
	d.keys("p")
	if s := d.screen(); !strings.Contains(s, "restore-lost") {
		t.Errorf("proposals view lacks restore-lost:\n%s", s)
	}
}

func TestSortByUseOrdersMostUsedFirst(t *testing.T) {
	cfg, memDir, log := sessionTree(t)
	// Two feedback memories: the second is used more.
	os.WriteFile(filepath.Join(memDir, "feedback_zebra.md"), []byte("---\nname: zebra\ndescription: z\ntype: feedback\n---\n\nZ.\n"), 0o644)
	for i := range 5 {
		log.Observations = append(log.Observations, model.MemObservation{Path: filepath.Join(memDir, "feedback_zebra.md"),
			Kind: model.ObsRead, Session: "s", Time: testNow.Add(-time.Duration(i) * time.Hour), Full: true, ID: "z" + itoa(i)})
	}
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("work-shop")
	order := func() []string {
		var names []string
		for _, it := range d.m.memories.items {
			if it.file != nil && strings.HasPrefix(it.file.Path, "feedback_") {
				names = append(names, it.file.Path)
			}
		}
		return names
	}
	if got := order(); got[0] != "feedback_deploy.md" {
		t.Fatalf("by name: %v", got)
	}
	d.m.setFocus(focusMemories)
	d.keys("o")
	if got := order(); got[0] != "feedback_zebra.md" || got[1] != "feedback_deploy.md" {
		t.Fatalf("by use: %v, want zebra (5 uses) before deploy (3)", got)
	}
}

func TestChangesSinceLastReviewView(t *testing.T) {
	cfg, memDir, log := sessionTree(t)
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("work-shop")
	d.keys("C")
	if s := d.screen(); !strings.Contains(s, "Nothing changed since the last review") {
		t.Fatalf("first look: want nothing changed:\n%s", s)
	}
	if ents, _ := os.ReadDir(cfg.Workspace.State.Seen); len(ents) != 1 {
		t.Fatalf("first look recorded %d baselines, want 1", len(ents))
	}

	// An agent edits a memory and writes a new one; a person deletes one.
	later := time.Now().Add(time.Second) // reviews are on the wall clock
	os.WriteFile(filepath.Join(memDir, "feedback_deploy.md"), []byte("---\nname: deploy\ndescription: How to deploy\ntype: feedback\n---\n\nDeploy with make ship, after 10:00 only.\n"), 0o644)
	os.WriteFile(filepath.Join(memDir, "user_role.md"), []byte("---\nname: role\ndescription: The user's role\ntype: user\n---\n\nStaff engineer.\n"), 0o644)
	os.Remove(filepath.Join(memDir, "reference_staging.md"))
	log.Writes = append(log.Writes, model.MemWrite{Path: filepath.Join(memDir, "feedback_deploy.md"), Kind: model.WriteEdit,
		Session: "cccc3333-0000-4000-8000-000000000000", Time: later, Branch: "main"})
	d.run(d.m.reloadPath(memDir))

	s := d.screen()
	for _, want := range []string{"Changes (3)", "~ feedback_deploy.md", "+ user_role.md", "− reference_staging.md", "cccc3333", "3 changes in 1 project"} {
		if !strings.Contains(s, want) {
			t.Errorf("changes view lacks %q:\n%s", want, s)
		}
	}
	// The selected change's diff, with its writer.
	d.m.changes.list.top()
	d.m.changes.follow()
	s = d.screen()
	if !strings.Contains(s, "+Deploy with make ship, after 10:00 only.") || !strings.Contains(s, "by session cccc3333") {
		t.Errorf("the diff of feedback_deploy.md is not shown with its writer:\n%s", s)
	}

	// m marks that one file seen; the other two remain.
	d.keys("m")
	if s := d.screen(); !strings.Contains(s, "Changes (2)") || strings.Contains(s, "~ feedback_deploy.md") {
		t.Errorf("after m:\n%s", s)
	}
	// M marks the project reviewed: nothing left, and it is remembered.
	d.keys("M")
	if s := d.screen(); !strings.Contains(s, "Nothing changed since the last review") {
		t.Errorf("after M:\n%s", s)
	}
	b, err := memfs.LoadBaseline(cfg.Workspace.State.Seen, memDir)
	if err != nil || b == nil || b.Files["user_role.md"].Text == "" {
		t.Fatalf("the review was not recorded: %v %+v", err, b)
	}
	if _, ok := b.Files["reference_staging.md"]; ok {
		t.Error("the deleted file is still in the reviewed baseline")
	}
}

func TestReadOnlyRecordsNoReview(t *testing.T) {
	cfg, _, _ := sessionTree(t)
	cfg.Workspace.ReadOnly = true
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("work-shop")
	d.keys("C", "M")
	if ents, _ := os.ReadDir(cfg.Workspace.State.Seen); len(ents) != 0 {
		t.Fatalf("--readonly recorded %d baselines", len(ents))
	}
	if s := d.screen(); !strings.Contains(s, "read-only") {
		t.Errorf("the changes view does not say reviews are not recorded:\n%s", s)
	}
}

// The dream gate belongs to the auto memory directory: team memory (and
// agent memory) has no consolidation lock and autoDream never runs there.
func TestDreamGateOnlyForAutoMemory(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.selectProject("acme-api")
	var gates, stores int
	for _, r := range d.m.memories.list.rows {
		if r.header && strings.HasPrefix(r.right, "dream ") {
			gates++
		}
		if r.header && !strings.HasPrefix(r.left, " ") {
			stores++
		}
	}
	if stores < 2 || gates != 1 {
		t.Fatalf("acme-api has %d stores (memory and team) and %d dream gate rows; want the gate on the memory store only", stores, gates)
	}
}
