package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/memfs/transcript"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// frame is one View() of the TUI and where it was taken.
type frame struct{ where, content string }

// TestHostileTreeFrames opens the TUI on the hostile tree (issue 11) and
// visits every view: each project's memories, rendered and as source,
// the index as loaded, every finding, every proposal with its diff
// (unified and side by side), the changes since the last review, the
// journal and the help. Every frame must be free of secrets, of raw
// control characters other than the TUI's own SGR styling, and of screen
// rows a file name's newline started; and browsing changes nothing on
// disk.
func TestHostileTreeFrames(t *testing.T) {
	tr, err := hostile.Build(t.TempDir(), 40)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	journalRoot := filepath.Join(state, "journal")
	cfg := Config{
		Workspace: &app.Workspace{
			ScanOpts: memfs.Options{ConfigDirs: []string{tr.Config}, Getenv: func(k string) string {
				if k == "CLAUDE_MEMORY_STORES" {
					return tr.MemoryStores // a team store whose mount and index hold escapes
				}
				return ""
			}, Home: t.TempDir(),
				ManagedSettings: filepath.Join(tr.Root, "none.json"), IncludeAgentMemory: true},
			CheckOpts: consolidate.Options{Now: hostile.Now, Paths: &memfs.PathProbe{}},
			State:     memfs.StateDirs{Journal: journalRoot, Seen: filepath.Join(state, "seen")},
			Transcripts: func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
				return transcript.Read(ctx, p, transcript.Options{Home: tr.Root})
			},
		},
		Home: "/home/dev",
	}
	d := newDriver(t, cfg, 160, 48)
	// A first look at every project records its review baseline; the
	// attacks arrive after it, so the changes view shows them all.
	for _, name := range projectNames(d) {
		selectProjectNamed(d, name)
		d.keys("C", "b")
	}
	if err := tr.Grow(); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.JournalTitle(context.Background(), journalRoot); err != nil {
		t.Errorf("setup: no escape-titled journal entry (the journal view is checked without it): %v", err)
	}
	// An entry of a directory this TUI does not show: its journal view
	// must not list it (nor offer to undo it).
	foreign := filepath.Join(t.TempDir(), "memory")
	fp := filepath.Join(foreign, "note.md")
	old := "---\nname: note\ndescription: d\ntype: user\n---\n\nOld.\n"
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fp, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	res := txn.Apply(context.Background(), foreign, []model.Proposal{{ID: "fix-frontmatter-0000foreign", Kind: model.KindFixFrontmatter,
		MemoryDir: foreign, Title: "FOREIGN-ENTRY outside the view", Rationale: "r",
		Changes: []model.Change{{Path: "note.md", Op: model.OpUpdate, BaseSHA256: hostile.SHA(old), After: strings.Replace(old, "Old.", "New.", 1)}}}},
		txn.ApplyOptions{JournalRoot: journalRoot})
	if len(res) != 1 || res[0].Status != txn.StatusApplied {
		t.Fatalf("setup: the foreign entry was not applied: %+v", res)
	}
	d.keys("r")
	before, err := hostile.Snapshot(tr.Root)
	if err != nil {
		t.Fatal(err)
	}

	var frames []frame
	shot := func(where string) {
		frames = append(frames, frame{where, d.m.View().Content})
	}
	views := map[string][]frame{}
	take := func(view string, visit func()) {
		frames = nil
		visit()
		views[view] = frames
	}

	take("browse", func() {
		for _, name := range projectNames(d) {
			selectProjectNamed(d, name)
			shot("project " + name)
			// The project's summary (its name, its counts, the files
			// its scan never lists) shows when no memory is selected:
			// under a filter that matches none.
			d.m.setFocus(focusMemories)
			d.keys("/")
			d.typeText("zzqqzzqq")
			shot("project " + name + " (summary)")
			d.keys("esc")
			d.m.memories.list.top()
			d.run(d.m.syncSelection())
			for i := 0; i < len(d.m.memories.list.rows); i++ {
				where := fmt.Sprintf("project %s, memory row %d", name, i)
				if it := d.m.memories.selectedItem(); it != nil && it.file != nil {
					where = fmt.Sprintf("project %s, %s", name, it.file.Path)
				}
				shot(where + " (rendered)")
				d.keys("v")
				shot(where + " (source)")
				d.keys("v")
				d.m.memories.list.move(1)
				d.run(d.m.syncSelection())
			}
		}
	})
	take("index", func() {
		for _, name := range projectNames(d) {
			selectProjectNamed(d, name)
			d.keys("i")
			shot("index of " + name)
			d.keys("G")
			shot("index of " + name + " (end)")
			d.keys("b")
		}
		// Every directory's own index view too: a team dir shows its
		// store's index.
		for _, pd := range d.m.data {
			for _, dd := range pd.dirs {
				d.m.view = viewIndex
				d.m.layout()
				d.m.index.open(dd, "dir", 0)
				shot("index of dir " + dd.d.Path)
				d.keys("b")
			}
		}
		shown := false
		for _, f := range frames {
			shown = shown || strings.Contains(f.content, "team store web")
		}
		if !shown {
			t.Error("no index frame shows the team store's index: the hostile mount is not exercised")
		}
	})
	take("findings", func() {
		d.keys("f")
		for i := 0; i < len(d.m.findings.shown); i++ {
			shot(fmt.Sprintf("finding %d", i+1))
			d.keys("j")
		}
		d.keys("b")
	})
	take("proposals", func() {
		d.keys("p")
		v := d.m.proposals
		for _, split := range []bool{false, true} {
			if v.diff.split != split {
				d.keys("d")
			}
			v.list.top()
			for range v.items {
				v.follow()
				where := "proposal"
				if it := v.selected(); it != nil {
					where = "proposal " + it.p.ID
				}
				if split {
					where += " (side by side)"
				}
				shot(where)
				d.keys("tab", "G")
				shot(where + ", diff end")
				// Cut and scrolled sideways, zoomed: other cuts of the
				// same hostile lines.
				d.keys("W", ">", "z")
				shot(where + ", lines cut, scrolled, zoomed")
				d.keys("W", "esc", "esc", "j")
			}
		}
		// A filter, every proposal shown accepted, and the question q
		// asks with them unwritten: their titles are the hostile tree's.
		d.keys("/")
		d.typeText("e")
		d.keys("enter")
		shot("proposals filtered")
		d.keys("A")
		shot("proposals all accepted")
		d.keys("q")
		if d.m.dialog == nil || d.m.dialog.kind != dlgQuit {
			t.Error("with hostile proposals accepted, q must ask: the quit question is not exercised")
		}
		shot("quit with accepted proposals unwritten")
		d.keys("n", "X", "esc")
		d.keys("b")
	})
	take("changes", func() {
		for _, name := range projectNames(d) {
			selectProjectNamed(d, name)
			d.keys("C")
			v := d.m.changes
			v.list.top()
			for i := range v.items {
				v.follow()
				shot(fmt.Sprintf("changes of %s, item %d", name, i+1))
				d.keys("j")
			}
			shot("changes of " + name)
			d.keys("b")
		}
	})
	take("sessions", func() {
		d.keys("t")
		v := d.m.sessions
		if len(v.items) == 0 {
			t.Error("the sessions view lists no session of the hostile tree: its frames check nothing")
		}
		v.list.top()
		for range v.items {
			v.follow()
			shot("session")
			d.keys("tab", "G", "W", ">", "z")
			shot("session's writes, cut, scrolled, zoomed")
			d.keys("W", "esc", "esc", "j")
		}
		shot("sessions")
		d.keys("b")
	})
	take("journal", func() {
		d.keys("L")
		for range d.m.journal.entries {
			shot("journal entry (its undo diff beside it)")
			d.keys("j")
		}
		shot("journal")
		// The undo diff zoomed, its lines cut and scrolled sideways.
		d.keys("g", "z")
		shot("journal entry zoomed")
		d.keys("W", ">", ">")
		shot("journal entry zoomed, lines cut, scrolled")
		d.keys("W", "esc", "esc")
		d.keys("b")
	})
	take("help", func() {
		d.keys("?")
		shot("help")
		d.keys("esc")
	})

	for _, view := range []string{"browse", "index", "findings", "proposals", "changes", "sessions", "journal", "help"} {
		t.Run(view, func(t *testing.T) {
			fs := views[view]
			if len(fs) == 0 {
				t.Fatalf("no frame of the %s view was taken", view)
			}
			// The same problem shows in many frames (a project's name is
			// on every one): each distinct problem is reported once, with
			// how many frames show it and the first that does.
			check := func(name string, probs func(string) []string) {
				t.Run(name, func(t *testing.T) {
					type seen struct {
						first, where string
						n            int
					}
					byKey := map[string]*seen{}
					var order []string
					for _, f := range fs {
						inFrame := map[string]bool{}
						for _, p := range probs(f.content) {
							key := variable.ReplaceAllString(p, "")
							if inFrame[key] {
								continue
							}
							inFrame[key] = true
							if byKey[key] == nil {
								byKey[key] = &seen{first: p, where: f.where}
								order = append(order, key)
							}
							byKey[key].n++
						}
					}
					for _, k := range order {
						s := byKey[k]
						t.Errorf("in %d of %d frames, first %q: %s", s.n, len(fs), hostile.Visible(s.where), s.first)
					}
				})
			}
			check("no-secret", tr.Leaks)
			check("no-raw-control", func(s string) []string { return hostile.Controls(s, hostile.Terminal) })
			check("no-forged-line", hostile.Forgeries)
		})
	}
	// The refused symlinked transcript is shown (so the checks above ran
	// on frames that quote its name).
	t.Run("browse/transcript-problem-shown", func(t *testing.T) {
		for _, f := range views["browse"] {
			if strings.Contains(f.content, `agent-\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE`) {
				return
			}
		}
		t.Errorf("no frame of the browse view names the symlinked transcript %q", hostile.Visible(tr.LinkedTranscript))
	})
	// Claude Code's scan follows link_outside.md out of the memory dir and
	// recalls the file, so memtui shows it too (its token masked, above).
	t.Run("browse/outside-link-shown", func(t *testing.T) {
		for _, f := range views["browse"] {
			if strings.Contains(f.content, tr.Marker) {
				return
			}
		}
		t.Errorf("no frame of the browse view shows %s, which Claude Code reads through %s", tr.Outside, tr.LinkOutside)
	})
	// Each project's summary was shown (so the checks above ran on it,
	// its hostile name and its counts).
	t.Run("browse/project-summaries-shown", func(t *testing.T) {
		for _, f := range views["browse"] {
			if strings.HasSuffix(f.where, "(summary)") && !summaryCounts.MatchString(ansi.Strip(f.content)) {
				t.Errorf("%s: the preview is not the project's summary", hostile.Visible(f.where))
			}
		}
	})
	t.Run("journal/scoped-to-dirs-in-view", func(t *testing.T) {
		shown, foreign := false, false
		for _, f := range views["journal"] {
			if !foreign && strings.Contains(f.content, "FOREIGN-ENTRY") {
				foreign = true
				t.Errorf("the journal view lists an entry of a directory outside the view (%s)", f.where)
			}
			shown = shown || strings.Contains(f.content, "Rewrite")
		}
		if !shown {
			t.Error("the journal view does not list the tree's own escape-titled entry")
		}
	})
	t.Run("tree-unchanged", func(t *testing.T) {
		after, err := hostile.Snapshot(tr.Root)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range hostile.Changed(before, after) {
			t.Errorf("browsing changed the tree: %s", c)
		}
	})
}

// summaryCounts is the counts line of a project's summary.
var summaryCounts = regexp.MustCompile(`\d+ (memory|memories) in \d+ stores? · `)

// selectProjectNamed selects the project called name, from the top of
// the list (selectProject only moves down).
func selectProjectNamed(d *driver, name string) {
	d.t.Helper()
	d.m.setFocus(focusProjects)
	d.keys("g")
	for i := 0; i <= len(d.m.data); i++ {
		if pd := d.m.selectedProject(); pd != nil && pd.p.Name() == name {
			return
		}
		d.keys("j")
	}
	d.t.Fatalf("no project named %q", hostile.Visible(name))
}

// variable is what differs between frames showing the same problem:
// counts, line numbers and the excerpt around it.
var variable = regexp.MustCompile(`×\d+|\d+ times|line \d+( in ".*|: ".*)?`)

// projectNames are the names the projects pane lists.
func projectNames(d *driver) []string {
	var out []string
	for _, pd := range d.m.data {
		out = append(out, pd.p.Name())
	}
	return out
}

// TestArchiveProposalShownAndWritten: in a folder of 201 memories whose
// oldest has a name full of escape sequences and a newline, the archive
// proposal shows its move as a rename (the name escaped, on one line, no
// content diff), the write dialog lists it as a move, writing it moves the
// file into .archive/ with its mtime, and the journal shows the move.
// No frame carries a raw control character or a line the name forged.
func TestArchiveProposalShownAndWritten(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	evil := "zz" + hostile.OSC52 + "\n" + hostile.Forged + ".md"
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var index strings.Builder
	for i := range 201 {
		name := fmt.Sprintf("note_%03d.md", i)
		if i == 0 {
			name = evil
		}
		p := filepath.Join(mem, name)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("---\nname: note-%03d\ndescription: fact %d\ntype: user\n---\n\nFact %d.\n", i, i, i)), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			fmt.Fprintf(&index, "- [n%d](%s) — fact %d\n", i, name, i)
		}
	}
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(index.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	cfg := Config{
		Workspace: &app.Workspace{
			ScanOpts: memfs.Options{MemoryDirs: []string{mem}, Getenv: func(string) string { return "" }, Home: t.TempDir(),
				ManagedSettings: filepath.Join(state, "none.json")},
			CheckOpts: consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
			State:     memfs.StateDirs{Journal: filepath.Join(state, "journal"), Seen: filepath.Join(state, "seen")},
		},
		Home:  "/home/dev",
		Clock: func() time.Time { return testNow },
	}
	d := newDriver(t, cfg, 160, 48)
	var frames []frame
	shot := func(where string) { frames = append(frames, frame{where, d.m.View().Content}) }

	d.openProposals()
	var it *propItem
	for _, x := range d.m.proposals.items {
		if x.p.Kind == model.KindArchive {
			it = x
		}
	}
	if it == nil {
		t.Fatalf("no archive proposal:\n%s", d.screen())
	}
	d.selectProposal(it.title)
	shot("archive proposal")
	// (The line is cut at the pane's edge: its start is enough.)
	want := diff.RenameLine(`zz\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE [error] memory-stub owned.md.md`, ".archive/zz")
	if out := d.screen(); !strings.Contains(out, want) {
		t.Errorf("the diff does not show the move as %q:\n%s", want, out)
	}
	d.keys("d")
	shot("archive proposal (side by side)")
	d.keys("d")
	// Accept it alone and write it.
	d.keys("a", "w")
	shot("write dialog")
	if out := d.screen(); !strings.Contains(out, `move    zz\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE`) || !strings.Contains(out, "→ .archive/zz") {
		t.Errorf("the write dialog does not list the move:\n%s", out)
	}
	d.keys("y")
	shot("after the write")
	moved := filepath.Join(mem, ".archive", evil)
	fi, err := os.Lstat(moved)
	if err != nil {
		t.Fatalf("not archived: %v\n%s", err, d.screen())
	}
	if !fi.ModTime().Equal(base) {
		t.Errorf("the archived file's mtime is %s, want %s kept", fi.ModTime(), base)
	}
	if d.m.dialog != nil {
		d.keys("esc") // (the write's result)
	}
	d.keys("L")
	shot("journal")
	// Beside the entry, its undo: the file moved back, its name escaped.
	if out := ansi.Strip(d.m.View().Content); !strings.Contains(out, `rename .archive/zz\x1b]52;c;aGVsbG8=\x07\nFORGEDLINE`) {
		t.Errorf("the journal does not show the move its undo makes back:\n%s", out)
	}
	d.keys("u")
	shot("undo dialog")
	if out := d.screen(); !strings.Contains(out, "→ zz") {
		t.Errorf("the undo dialog does not say the file moves back:\n%s", out)
	}
	d.keys("esc")

	for _, f := range frames {
		for _, p := range hostile.Controls(f.content, hostile.Terminal) {
			t.Errorf("%s: %s", f.where, p)
		}
		for _, p := range hostile.Forgeries(f.content) {
			t.Errorf("%s: %s", f.where, p)
		}
	}
}

// TestHostileConfigFrames: memtui's config file (through app.Open, as the
// CLI opens it) with a theme and keys entries full of escape sequences and
// a list of a hundred thousand keys, beside keys that are odd but valid
// (every modifier on one key, a wide character). The notes are safe; the
// keys that applied drive the TUI; no frame of the help holds a raw
// control or runs past the window.
func TestHostileConfigFrames(t *testing.T) {
	cfgHome := t.TempDir()
	longest := "ctrl+alt+shift+meta+hyper+super+backspace"
	content := "theme: \"light\\e]52;c;aGVsbG8=\\a\"\nkeys:\n" +
		"  \"quit\\e]0;pwned\\a\\e[2J\": [q]\n" +
		"  global.refresh: [" + strings.Repeat("x, ", 100000) + "x]\n" +
		"  global.help: [\"\\e[2J\", \"\\u202e\"]\n" +
		"  views.journal: [" + longest + "]\n" +
		"  views.index: [漢]\n"
	if err := os.MkdirAll(filepath.Join(cfgHome, "memtui"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgHome, "memtui", "config.yaml"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"XDG_CONFIG_HOME": cfgHome, "HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir()}
	var notes strings.Builder
	ws, err := app.Open(context.Background(), app.Options{Demo: true, Now: "2026-11-21", ReadOnly: true,
		Getenv: func(k string) string { return vars[k] }, Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	for _, p := range hostile.Controls(notes.String(), hostile.Plain) {
		t.Errorf("notes: %s", p)
	}
	if n := strings.Count(notes.String(), "\n"); n != 5 { // the demo's copy, the theme, three keys entries
		t.Errorf("%d notes, want 5:\n%s", n, hostile.Visible(notes.String()))
	}
	if ws.Theme != "" {
		t.Errorf("an unknown theme gave %q, want auto", ws.Theme)
	}
	const w, h = 100, 40
	d := newDriver(t, Config{Workspace: ws, Keys: &ws.Keys, Theme: ws.Theme, Home: "/home/dev", Clock: func() time.Time { return testNow }}, w, h)
	var frames []frame
	shot := func(where string) { frames = append(frames, frame{where, d.m.View().Content}) }
	d.keys("?")
	shot("browse help")
	if s := d.screen(); !strings.Contains(s, longest) || !strings.Contains(s, "漢") {
		t.Errorf("the help does not show the rebound keys %s and 漢:\n%s", longest, s)
	}
	d.keys("漢")
	if d.m.view != viewIndex {
		t.Errorf("漢 (views.index rebound) did not open the index view")
	}
	shot("index help")
	d.keys("p")
	shot("proposals help")
	for _, f := range frames {
		for _, p := range hostile.Controls(f.content, hostile.Terminal) {
			t.Errorf("%s: %s", f.where, p)
		}
		for i, l := range strings.Split(f.content, "\n") {
			if lw := ansi.StringWidth(l); lw > w {
				t.Errorf("%s: line %d is %d cells wide, more than the window's %d", f.where, i+1, lw, w)
			}
		}
	}
}
