package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/memfs/transcript"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// hostileConfig writes a tree whose file names, frontmatter, bodies, index
// lines, transcript (cwd, branch, title) and journal carry the attacks, and
// a review baseline from before a session wrote a key into plain.md.
func hostileConfig(t *testing.T) (Config, string) {
	t.Helper()
	dir := t.TempDir()
	mem := filepath.Join(dir, "projects", hostile.PwnSlug, "memory")
	clip := "clip" + hostile.OSC52 + ".md"
	tokenFile := "deploy_" + hostile.FakeToken + ".md"
	plainV1 := "---\nname: plain\ndescription: A plain memory\ntype: user\n---\n\nWe launch tomorrow.\n"
	files := map[string]string{
		clip: "---\nname: deploy" + hostile.OSC0Short + "\ndescription: How to deploy " + hostile.OSC52 + hostile.RLO + "\ntype: project\n---\n\n" +
			"Deploy with care " + hostile.Erase + " see " + hostile.OSC8ST + " and " + hostile.C1Erase + " [site](https://evil.example/" + hostile.OSC0Short + ")\n\n" +
			"The key:\n\n" + hostile.FakePEM + "\nToken " + hostile.FakeToken + "\n",
		"notes\n    forged line.md": "no frontmatter " + hostile.Erase + "\n",
		tokenFile:                   "---\nname: token\ndescription: a token " + hostile.FakeToken + "\ntype: reference\n---\n\n" + hostile.FakePEM,
		"plain.md":                  plainV1,
	}
	var idx strings.Builder
	idx.WriteString("- [Plain](plain.md) — a plain memory " + hostile.C1Erase + "\n")
	for i := range 205 {
		fmt.Fprintf(&idx, "- [Filler %d](plain.md) — filler %s\n", i, hostile.Erase)
	}
	idx.WriteString("- [Deploy " + hostile.C1Erase + hostile.RLO + "](" + tokenFile + ") — how " + hostile.OSC52 + hostile.OSC0Short + " to deploy " + hostile.FakeToken + "\n")
	files["MEMORY.md"] = idx.String()
	for name, content := range files {
		writeTestFile(t, filepath.Join(mem, name), content)
	}
	cfg := Config{
		Workspace: &app.Workspace{
			ScanOpts: memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
				ManagedSettings: filepath.Join(dir, "none.json"), IncludeAgentMemory: true},
			CheckOpts: consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
			State:     memfs.StateDirs{Journal: t.TempDir(), Seen: t.TempDir()},
			Transcripts: func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
				return transcript.Read(ctx, p, transcript.Options{Home: dir})
			},
		},
		Home:  "/home/dev",
		Clock: func() time.Time { return testNow },
	}
	ctx := context.Background()

	// The review baseline of the tree as it is now.
	scan, err := memfs.Discover(ctx, cfg.Workspace.ScanOpts)
	if err != nil || len(scan.Projects) != 1 || len(scan.Projects[0].Dirs) == 0 {
		t.Fatalf("the hostile tree is not discovered: %v", err)
	}
	d := scan.Projects[0].Dirs[0]
	if err := memfs.LoadDir(ctx, d, cfg.Workspace.ScanOpts); err != nil {
		t.Fatal(err)
	}
	if err := memfs.SaveBaseline(cfg.Workspace.State.Seen, model.NewBaseline(d, testNow.Add(-2*time.Hour), consolidate.SHA256Hex)); err != nil {
		t.Fatal(err)
	}

	// A proposer's proposal, applied: its title is now in the journal.
	prop := model.Proposal{ID: "absolutize-dates-x1", Kind: model.KindAbsolutizeDates, MemoryDir: mem,
		Title:     "Date it " + hostile.OSC52 + hostile.FakeToken + hostile.RLO,
		Rationale: "because " + hostile.OSC8ST,
		Changes: []model.Change{{Path: "plain.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(plainV1)),
			After: strings.Replace(plainV1, "tomorrow", "on 2026-11-22", 1)}}}
	if r := txn.Apply(ctx, mem, []model.Proposal{prop}, txn.ApplyOptions{JournalRoot: cfg.Workspace.State.Journal})[0]; r.Status != txn.StatusApplied {
		t.Fatalf("the hostile proposal did not apply: %s %v", r.Status, r.Err)
	}

	// Then a session, on a hostile branch in a hostile cwd, writes a key.
	changed := "---\nname: plain\ndescription: A plain memory " + hostile.OSC0Short + "\ntype: user\n---\n\nNow with a key:\n\n" + hostile.FakePEM
	writeTestFile(t, filepath.Join(mem, "plain.md"), changed)
	if err := hostile.PwnTranscript(dir, filepath.Join(mem, "plain.md"), changed, testNow.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	return cfg, mem
}

// Every view of the TUI, with every hostile item selected in turn, draws
// frames with no raw control sequence but our own colours, and no line of
// a planted secret.
func TestEveryViewIsHarmless(t *testing.T) {
	cfg, _ := hostileConfig(t)
	d := newDriver(t, cfg, 140, 45)
	frames := 0
	check := func(what string) {
		t.Helper()
		frames++
		frame := d.m.View().Content
		for _, p := range hostile.Controls(frame, hostile.Terminal) {
			t.Errorf("%s: %s", what, p)
		}
		for _, p := range hostile.FakeLeaks(frame) {
			t.Errorf("%s shows %s", what, p)
		}
	}
	check("first frame")
	d.selectProject("pwn")
	check("project list")
	// The row is cut in the middle: both ends of the path show, escaped.
	if !strings.Contains(d.screen(), `/work/pwn\x1b]`) || !strings.Contains(d.screen(), `\u202e`) {
		t.Errorf("the project's real path (from the transcript's cwd) is not shown escaped:\n%s", d.screen())
	}
	for _, name := range []string{"clip", "notes", "deploy_", "plain.md", "MEMORY.md"} {
		if name == "MEMORY.md" {
			d.m.memories.list.top()
			d.run(d.m.syncSelection())
		} else {
			d.selectMemory(name)
		}
		check("preview of " + name)
		d.keys("v")
		check("source of " + name)
		d.keys("v")
	}
	d.selectMemory("clip")
	if s := d.screen(); !strings.Contains(s, `clip\x1b]52;c;aGVsbG8=\x07.md`) {
		t.Errorf("the file name's escape is not shown visibly:\n%s", s)
	}

	d.keys("f")
	for i := range 12 {
		check(fmt.Sprintf("findings row %d", i))
		d.keys("j")
	}
	d.keys("b", "i")
	check("index view")
	d.keys("G")
	check("index view, bottom")

	d.keys("b", "p")
	if !d.m.proposals.computed || len(d.m.proposals.items) == 0 {
		t.Fatalf("no proposals on the hostile tree:\n%s", d.screen())
	}
	for i := range d.m.proposals.items {
		d.m.proposals.list.selectRef(i)
		d.m.proposals.follow()
		check(fmt.Sprintf("proposal %d", i))
		d.keys("d")
		check(fmt.Sprintf("proposal %d side by side", i))
		d.keys("d")
	}

	d.keys("C")
	if len(d.m.changes.items) == 0 {
		t.Fatalf("the changes view lists nothing:\n%s", d.screen())
	}
	for i := range d.m.changes.items {
		d.m.changes.list.selectRef(i)
		d.m.changes.follow()
		check(fmt.Sprintf("change %d", i))
	}
	if s := d.screen(); !strings.Contains(s, `feature/\x1b]52;c;`) {
		t.Errorf("the writer's branch is not shown visibly:\n%s", s)
	}

	d.keys("L")
	check("journal")
	if s := d.screen(); !strings.Contains(s, `Date it \x1b]52;c;`) {
		t.Errorf("the journal's title is not shown visibly:\n%s", s)
	}
	d.keys("u")
	check("undo dialog")
	d.keys("esc", "?")
	check("help")
	d.keys("?", "b", "i", "E")
	check("index editor")
	d.keys("G", "c")
	check("index editor, entry moved above the cut")
	d.keys("D")
	check("index editor, pending diff")
	d.keys("esc", "w")
	check("index editor, write dialog")
	// The hostile entry's hook is not put, raw, into the hook editor.
	d.keys("esc", "G", "H")
	check("index editor, hook edit refused")
	if d.m.ixedit.mode == ixeHook {
		t.Errorf("a hook holding escape sequences and a token went into the input as it is")
	}
	if frames < 40 {
		t.Errorf("only %d frames checked", frames)
	}
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPathCutsMaskFirst: a path cut from the left for a narrow column
// (the journal's directories, the findings' projects) is masked before
// the cut, so the tail of a token in it does not show.
func TestPathCutsMaskFirst(t *testing.T) {
	p := "/work/" + hostile.FakeToken + "/memory"
	for w := 8; w <= len(p); w += 3 {
		got := truncLeft(p, w)
		for i := 0; i+10 <= len(hostile.FakeToken); i++ {
			if frag := hostile.FakeToken[i : i+10]; strings.Contains(got, frag) {
				t.Errorf("truncLeft(…, %d) = %q shows %q of the token", w, got, frag)
				break
			}
		}
	}
}
