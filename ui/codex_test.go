package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// codexOnly is a configuration reading one Codex home and an empty
// Claude Code config dir.
func codexOnly(t *testing.T, files map[string]string) (Config, string) {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, ".codex")
	testfs.WriteAll(t, filepath.Join(home, "memories"), files)
	testfs.Write(t, filepath.Join(home, "config.toml"), "[features]\nmemories = true\n")
	testfs.Write(t, filepath.Join(dir, "claude", "projects", ".keep"), "")
	return Config{
		Workspace: &app.Workspace{
			ScanOpts:   memfs.Options{ConfigDirs: []string{filepath.Join(dir, "claude")}, Getenv: func(string) string { return "" }, Home: dir, ManagedSettings: filepath.Join(dir, "none.json")},
			CheckOpts:  consolidate.Options{Now: testNow},
			State:      memfs.ScratchStateDirs(dir),
			CodexHomes: []string{home},
		},
		Home:  dir,
		Clock: func() time.Time { return testNow },
	}, home
}

const uiHandbook = `# Task Group: /work/shop checkout
scope: the checkout's payment flow
applies_to: cwd=/work/shop; reuse_rule=safe across branches

## Task 1: Add retries to the PSP client
### rollout_summary_files
- rollout_summaries/2026-11-20T09-30-15-jqmb.md (cwd=/work/shop, rollout_path=/r/1.jsonl, updated_at=2026-11-20T09:40:00+00:00)
### keywords
- psp, retries

# Task Group: /work/blog publishing
scope: publishing the blog
applies_to: cwd=/work/blog; reuse_rule=always

## Task 1: Fix the feed
### rollout_summary_files
- rollout_summaries/2026-11-19T09-30-15-abcd.md (cwd=/work/blog, rollout_path=/r/2.jsonl, updated_at=2026-11-19T09:40:00+00:00)
### keywords
- rss
`

// TestCodexStoreBrowsed: the Codex store is a row of the projects list,
// labelled with its agent; its list has the summary with its meter, the
// handbook's task groups, the notes, and what Codex rebuilds, read-only
// with the reason; a task group's preview shows its scope and where its
// memories come from.
func TestCodexStoreBrowsed(t *testing.T) {
	cfg, _ := codexOnly(t, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\n\nA backend engineer.\n",
		codex.HandbookFile: uiHandbook,
		"rollout_summaries/2026-11-20T09-30-15-jqmb.md":           "thread_id: x\nupdated_at: 2026-11-20T09:40:00+00:00\nrollout_path: /r/1.jsonl\ncwd: /work/shop\n\n# Retries\n",
		"extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md": "Use pnpm, not npm.\n",
		codex.RawFile: "# Raw Memories\n\nNo raw memories yet.\n",
	})
	d := newDriver(t, cfg, 160, 40)
	out := d.screen()
	for _, want := range []string{"codex · ", "Loaded into every session", "memory_summary.md", "0.0K/10K", "Handbook", "2 task groups", "/work/shop checkout", "/work/blog publishing", "Notes", "use-pnpm (2026-11-21)", "Rollout summaries", "jqmb (2026-11-20)", "Raw memories"} {
		if !strings.Contains(out, want) {
			t.Errorf("the Codex store's list lacks %q:\n%s", want, out)
		}
	}
	// To the first task group.
	d.keys("tab")
	d.keys("j", "j")
	out = d.screen()
	if !strings.Contains(out, "Task group: /work/shop checkout") || !strings.Contains(out, "scope: the checkout's payment flow") ||
		!strings.Contains(out, "1 task, from 1 rollout summary in /work/shop") {
		t.Errorf("a task group's preview:\n%s", out)
	}
	// Down to the raw memories: read-only, and why.
	d.keys("j", "j", "j", "j")
	out = d.screen()
	if !strings.Contains(out, "read-only: Codex rewrites this file from its database") {
		t.Errorf("raw_memories.md must say it is read-only and why:\n%s", out)
	}
}

// TestCodexSummaryCutShown: a summary over 10,000 bytes opens as a
// session gets it: the head, Codex's marker where the middle was, the
// tail, then every line no session sees, with the sections the cut
// takes.
func TestCodexSummaryCutShown(t *testing.T) {
	var b strings.Builder
	b.WriteString("v1\n\n## User Profile\n\nA backend engineer.\n\n## User preferences\n\n- small PRs\n\n## General Tips\n\n- run make check\n\n## What's in Memory\n\n### /work/shop\n\n")
	for i := 0; b.Len() < 14000; i++ {
		fmt.Fprintf(&b, "#### 2026-%02d-%02d\n\n- topic-%03d: keywords, more keywords, and a description long enough to fill\n\n", 12-i/28, 28-i%28, i)
	}
	b.WriteString("### Older Memory Topics\n\n- LAST-TOPIC: the very end\n")
	text := b.String()
	cfg, _ := codexOnly(t, map[string]string{codex.SummaryFile: text})
	d := newDriver(t, cfg, 140, 60)
	d.keys("tab", "i")
	l := codex.Load([]byte(text))
	if !l.Cut {
		t.Fatal("the fixture must be over the cap")
	}
	out := d.screen()
	if d.m.view != viewIndex || !strings.Contains(out, l.Marker) || !strings.Contains(out, "✗ cut: "+fmt.Sprint(l.Removed())+" bytes in the middle never reach a session") {
		t.Fatalf("the cut summary's view:\n%s", out)
	}
	// The middle topic is listed among the lines never seen; the last
	// line is kept.
	first, last := l.CutLines([]byte(text))
	mid := (first + last) / 2
	lines := strings.Split(text, "\n")
	d.m.index.vp.GotoBottom()
	all := strings.Join(strings.Split(ansi.Strip(d.m.index.vp.GetContent()), "\n"), "\n")
	if !strings.Contains(all, fmt.Sprintf("Never seen by a session: %d bytes", l.Removed())) {
		t.Errorf("no 'never seen' list:\n%s", all)
	}
	if !strings.Contains(all, fmt.Sprintf("%d ✗ %s", mid, lines[mid-1])) {
		t.Errorf("line %d (%q) is cut and must be listed as never seen", mid, lines[mid-1])
	}
	tail := all[:strings.Index(all, "Never seen by a session")]
	if !strings.Contains(tail, "LAST-TOPIC") || strings.Contains(tail, lines[mid-1]) {
		t.Errorf("what a session gets must end with the file's last line and lack its middle:\n%s", tail)
	}
	if !strings.Contains(all, "Sections cut: ## What's in Memory (in part)") {
		t.Errorf("the section the cut reaches must be named:\n%s", all)
	}
}

// TestE2ECodexLiveNote: a Codex session writes a note while memtui is
// open: the store is read again and the note is listed.
func TestE2ECodexLiveNote(t *testing.T) {
	cfg, home := codexOnly(t, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\n\nA backend engineer.\n",
		codex.HandbookFile: uiHandbook,
	})
	cfg.Watch = true
	tm := startE2E(t, cfg)
	waitFor(t, tm, "● live", "memory_summary.md")
	note := filepath.Join(home, "memories", "extensions", "ad_hoc", "notes", "2026-11-21T09-00-00-prefer-uv.md")
	testfs.Write(t, note, "Use uv, not pip, for Python tooling.\n")
	waitFor(t, tm, "prefer-u")
	press(tm, keyQ)
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	screen := ansi.Strip(tm.FinalModel(t).(*Model).View().Content)
	if !strings.Contains(screen, "Notes") || !strings.Contains(screen, "prefer-u") {
		t.Errorf("the new note is not listed:\n%s", screen)
	}
}

// TestCodexNoteWritten: n in Codex's store asks for a note, enter asks
// to write it, y writes it under extensions/ad_hoc/notes/ with a name
// Codex's own tool would give (nothing else appears in memories/), the
// list shows it, and the journal can undo it.
func TestCodexNoteWritten(t *testing.T) {
	cfg, home := codexOnly(t, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\n\nA backend engineer.\n",
		codex.HandbookFile: uiHandbook,
	})
	root := filepath.Join(home, "memories")
	before := treeNames(t, root)
	d := newDriver(t, cfg, 160, 40)
	d.keys("n")
	d.typeText("Use uv, not pip, in every Python repo")
	d.keys("enter")
	if out := d.screen(); !strings.Contains(out, "create  extensions/ad_hoc/notes/") || !strings.Contains(out, "-use-uv-not-pip-in-every-python-repo.md") {
		t.Fatalf("the note's question:\n%s", out)
	}
	d.keys("y")
	notes, _ := filepath.Glob(filepath.Join(root, "extensions", "ad_hoc", "notes", "*.md"))
	if len(notes) != 1 || !codex.ValidNoteName(filepath.Base(notes[0])) {
		t.Fatalf("notes written: %q (%v; %s)\n%s", notes, d.m.err, d.m.status, d.screen())
	}
	if b, _ := os.ReadFile(notes[0]); string(b) != "Use uv, not pip, in every Python repo\n" {
		t.Errorf("the note holds %q", b)
	}
	after := treeNames(t, root)
	var added []string
	for _, n := range after {
		if !slices.Contains(before, n) {
			added = append(added, n)
		}
	}
	if len(added) != 4 || !strings.HasPrefix(added[3], "extensions/ad_hoc/notes/") { // extensions, ad_hoc, notes, the note
		t.Errorf("memories/ gained %q: only the note (and its folders) may appear", added)
	}
	d.keys("esc")
	if out := d.screen(); !strings.Contains(out, "use-uv-not-") {
		t.Errorf("the new note is not listed:\n%s", out)
	}
	es, err := cfg.Workspace.Journal()
	if err != nil || len(es) != 1 || es[0].Kind != string(model.KindAddNote) {
		t.Errorf("the journal: %+v, %v", es, err)
	}
}

// TestCodexEditWritten: e on what Codex rebuilds says why not; an edit
// of MEMORY.md made in the editor comes back as a question and y writes
// it; a store Codex is consolidating takes no note.
func TestCodexEditWritten(t *testing.T) {
	raw := "# Raw Memories\n\nNo raw memories yet.\n"
	cfg, home := codexOnly(t, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\n\nA backend engineer.\n",
		codex.HandbookFile: uiHandbook,
		codex.RawFile:      raw,
	})
	root := filepath.Join(home, "memories")
	d := newDriver(t, cfg, 160, 40)
	d.keys("tab", "G", "e")
	if !strings.Contains(d.m.status, "memtui does not edit raw_memories.md: Codex rewrites this file from its database") {
		t.Errorf("e on raw_memories.md: %q", d.m.status)
	}
	d.keys("g", "j")
	pd, it := d.m.codexSelection()
	if pd == nil || it == nil || it.ce.Path != codex.HandbookFile {
		t.Fatalf("not on MEMORY.md: %+v", it)
	}
	edited := uiHandbook + "\n## Reusable knowledge\n- Releases go out on Tuesdays.\n"
	d.send(codexEditedMsg{cx: pd.cx, rel: codex.HandbookFile, before: []byte(uiHandbook), after: []byte(edited)})
	if out := d.screen(); !strings.Contains(out, "change  MEMORY.md") {
		t.Fatalf("the edit's question:\n%s", out)
	}
	d.keys("y")
	if b, _ := os.ReadFile(filepath.Join(root, codex.HandbookFile)); string(b) != edited {
		t.Errorf("MEMORY.md holds %q", b)
	}
	d.keys("esc")
	testfs.Write(t, filepath.Join(root, codex.DiffFile), "# Memory Workspace Diff\n")
	d.keys("r") // read everything again
	d.keys("n")
	if !strings.Contains(d.m.status, "Codex's store is read-only now: phase2_workspace_diff.md is there") {
		t.Errorf("n while Codex consolidates: %q", d.m.status)
	}
}

// treeNames lists every path under dir, slash-separated.
func treeNames(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestCodexProposalWritten: the proposals view proposes for Codex's store
// with Codex's rules (a secret in MEMORY.md redacted, shown as the one
// line it changes), and w writes the accepted proposal into it through
// the journal.
func TestCodexProposalWritten(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Q4Lm8Np2Rt", 3) + "AbCdEfGhIj"
	hb := strings.Replace(uiHandbook, "- psp, retries\n", "- psp, retries\n\n## Reusable knowledge\n- The deploy token is "+tok+" in the runner's env.\n", 1)
	cfg, home := codexOnly(t, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\n\nA backend engineer.\n",
		codex.HandbookFile: hb,
	})
	d := newDriver(t, cfg, 160, 48)
	d.keys("p")
	out := d.screen()
	if !strings.Contains(out, "codex · ~/.codex") || !strings.Contains(out, "Redact 1 secret in MEMORY.md") || !strings.Contains(out, "MEMORY.md  +1 -1") || strings.Contains(out, tok) {
		t.Fatalf("the Codex store's proposal:\n%s", out)
	}
	d.keys("a", "w", "y")
	b, _ := os.ReadFile(filepath.Join(home, "memories", codex.HandbookFile))
	if strings.Contains(string(b), tok) || !strings.Contains(string(b), "The deploy token is [REDACTED] in the runner's env.") {
		t.Errorf("MEMORY.md after the write:\n%s", b)
	}
	if es, err := cfg.Workspace.Journal(); err != nil || len(es) != 1 || es[0].Kind != string(model.KindRedactSecret) {
		t.Errorf("the journal: %+v, %v", es, err)
	}
}

// TestCodexByProject: the sort key lists Codex's global store by project:
// each task group under the project its sessions ran in (a group whose
// rollout ran elsewhere than its title says goes where it ran), its title
// without the project's path; again, by kind.
func TestCodexByProject(t *testing.T) {
	hb := uiHandbook + `
# Task Group: /work/shop release checks
scope: the release checklist
applies_to: cwd=/work/shop; reuse_rule=always

## Task 1: Check the feed before a release
### rollout_summary_files
- rollout_summaries/2026-11-18T09-30-15-wxyz.md (cwd=/work/blog, rollout_path=/r/3.jsonl, updated_at=2026-11-18T09:40:00+00:00)
### keywords
- release
`
	cfg, _ := codexOnly(t, map[string]string{
		codex.SummaryFile:  "v1\n\n## User Profile\n\nA backend engineer.\n",
		codex.HandbookFile: hb,
		"rollout_summaries/2026-11-20T09-30-15-jqmb.md": "thread_id: x\nupdated_at: 2026-11-20T09:40:00+00:00\nrollout_path: /r/1.jsonl\ncwd: /work/shop\n\n# Retries\n",
		"rollout_summaries/2026-11-18T09-30-15-wxyz.md": "thread_id: y\nupdated_at: 2026-11-18T09:40:00+00:00\nrollout_path: /r/3.jsonl\ncwd: /work/blog\n\n# Feed\n",
	})
	d := newDriver(t, cfg, 160, 40)
	d.keys("tab", "o")
	out := d.screen()
	shop, blog := strings.Index(out, "shop   "), strings.Index(out, "blog   ")
	if shop < 0 || blog < 0 {
		t.Fatalf("no project headings:\n%s", out)
	}
	checkout, release, publishing := strings.Index(out, "  checkout "), strings.Index(out, "release checks"), strings.Index(out, "  publishing ")
	if checkout < shop || release < blog || publishing < blog || (shop < blog && checkout > blog) {
		t.Errorf("task groups under the wrong projects (shop %d: checkout %d; blog %d: publishing %d, release %d):\n%s", shop, checkout, blog, publishing, release, out)
	}
	d.keys("o")
	if out := d.screen(); !strings.Contains(out, "Loaded into every session") {
		t.Errorf("o again lists by kind:\n%s", out)
	}
}

// TestCodexStatusShown: the demo's Codex store opens on its summary, whose
// preview says where Codex's consolidation stands, from its database and
// its baseline: the last run, the session never memorized, what is
// forgotten soon, the edits its next run will see.
func TestCodexStatusShown(t *testing.T) {
	cfg, _ := demoConfig(t)
	d := newDriver(t, cfg, 200, 60)
	d.keys("G")
	out := strings.Join(strings.Fields(d.screen()), " ")
	for _, want := range []string{"Last consolidated", "(2026-11-19 11:11 UTC)", "1 session is never memorized: its extraction failed",
		"1 memory is forgotten within 7 days; 2 never cited by any session", "changed since Codex's last consolidation (its baseline of 2026-11-19)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the Codex store's status lacks %q:\n%s", want, d.screen())
		}
	}
}
