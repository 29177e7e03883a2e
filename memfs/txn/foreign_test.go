//go:build unix

package txn

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// The stores in these tests are Codex's memories/ as Codex lays it out
// (codex facts §1.2, §1.3), written by hand: every name memtui makes
// there, even for a moment, would enter Codex's next consolidation diff
// as an authoritative addition (§4.3), so the tests look at the whole
// store after every step of every transaction, at every progress event
// and at every busy check (and, on Linux, watch it with inotify for any
// name that appears between two looks).

const (
	codexSummary = "v1\n\n## User Profile\n\nA backend developer who works on the shop's Go services.\n\n" +
		"## User preferences\n\n- Prefers pnpm over npm.\n\n## General Tips\n\n- Run the unit tests before the e2e suite.\n\n" +
		"## What's in Memory\n\n### /work/shop\n\n#### 2026-11-20\n\n- psp retries: psp, retries, backoff\n  - desc: how the PSP client retries\n"
	codexHandbook = "# Task Group: shop checkout service\n" +
		"scope: the PSP client and its retries; not the storefront\n" +
		"applies_to: cwd=/work/shop; reuse_rule=safe while the PSP client keeps its retry wrapper\n\n" +
		"## Task 1: add retries to the PSP client, success\n\n### rollout_summary_files\n\n" +
		"- rollout_summaries/2026-11-20T09-30-15-jqmb-psp_retries.md (cwd=/work/shop, rollout_path=/home/u/.codex/sessions/2026/11/20/rollout-2026-11-20T09-30-15-0194f5a6-89ab-7cde-8123-456789abcdef.jsonl, updated_at=2026-11-20T09:40:00+00:00, thread_id=0194f5a6-89ab-7cde-8123-456789abcdef)\n\n" +
		"### keywords\n\n- psp, retries, backoff\n\n- Related skill: skills/psp-debugging/SKILL.md\n"
	codexSkill = "---\nname: psp-debugging\ndescription: Debug a failed PSP call of the shop's checkout.\n---\n\n## When to use\n\n- A checkout fails at the PSP.\n"
	// codexNote is a new ad-hoc note, named as add_ad_hoc_note names one
	// (codex facts §1.3.6).
	codexNote     = "extensions/ad_hoc/notes/2026-11-21T10-15-00-prefer-pnpm.md"
	codexNoteText = "Add to memory: the user prefers pnpm and never wants yarn suggested.\n"
)

var codexFiles = map[string]string{
	"memory_summary.md": codexSummary,
	"MEMORY.md":         codexHandbook,
	"raw_memories.md":   "# Raw Memories\n\nNo raw memories yet.\n",
	"rollout_summaries/2026-11-20T09-30-15-jqmb-psp_retries.md": "thread_id: 0194f5a6-89ab-7cde-8123-456789abcdef\n" +
		"updated_at: 2026-11-20T09:40:00+00:00\nrollout_path: /home/u/.codex/sessions/2026/11/20/rollout-2026-11-20T09-30-15-0194f5a6-89ab-7cde-8123-456789abcdef.jsonl\n" +
		"cwd: /work/shop\n\n# Added retries to the PSP client\n\nRollout context: the checkout service.\n",
	"skills/psp-debugging/SKILL.md":                             codexSkill,
	"extensions/ad_hoc/instructions.md":                         "Notes are authoritative but untrusted. Never delete a note. Tag what you derive from one [ad-hoc note].\n",
	"extensions/ad_hoc/notes/2026-11-19T08-00-00-go-version.md": "Add to memory: the shop's services build with Go 1.26.\n",
}

// codexWorld is a Codex home (its memories/ as the memory dir), the temp
// dir memtui may use beside it, a journal, and a busy check the test
// steers; it records every look at the store that found a name memtui
// must not make there.
type codexWorld struct {
	applyWorld
	home, temp string

	mu      sync.Mutex
	reason  string   // what Busy says
	log     []string // steps, "busy" calls and progress stages, in order
	allowed map[string]bool
	bad     []string // what a look found that is not allowed
}

// newCodexWorld builds $CODEX_HOME/memories with codexFiles; the temp
// dir is $CODEX_HOME/.memtui-tmp, not made yet.
func newCodexWorld(t *testing.T) *codexWorld {
	t.Helper()
	return newCodexWorldWith(t, codexFiles)
}

// newCodexWorldWith is newCodexWorld with other files in memories/.
func newCodexWorldWith(t *testing.T, files map[string]string) *codexWorld {
	t.Helper()
	base := t.TempDir()
	home := filepath.Join(base, "codex")
	w := &codexWorld{home: home, temp: filepath.Join(home, ".memtui-tmp")}
	w.dir = filepath.Join(home, "memories")
	w.journal = filepath.Join(base, "state", "memtui", "journal")
	testfs.WriteAll(t, w.dir, files)
	w.allowed = map[string]bool{}
	for _, n := range storeNames(t, w.dir) {
		w.allowed[n] = true
	}
	return w
}

// baseline makes the store's git baseline as Codex does (codex facts
// §4.3): one commit of the whole tree.
func (w *codexWorld) baseline(t *testing.T) {
	t.Helper()
	testfs.Git(t, w.dir, "init", "-q")
	testfs.Git(t, w.dir, "add", "-A")
	testfs.Git(t, w.dir, "-c", "user.name=Codex", "-c", "user.email=noreply@openai.com", "commit", "-q",
		"-m", "Initialize Codex git baseline\n\nCo-authored-by: Codex <noreply@openai.com>")
}

// allow adds names (and their folders) that the proposal under test may
// make in the store.
func (w *codexWorld) allow(names ...string) {
	for _, n := range names {
		for ; n != "."; n = filepath.Dir(n) {
			w.allowed[n] = true
		}
	}
}

// storeNames is every file and folder below dir (relative), .git and
// what is in it left out (Codex's diff skips it; memtui never touches
// it, checked apart).
func storeNames(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if rel != "." {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// look lists the store and records any name not allowed (a temp file, a
// lock, an aside), saying when it was seen.
func (w *codexWorld) look(t *testing.T, when string) {
	for _, n := range storeNames(t, w.dir) {
		w.mu.Lock()
		if !w.allowed[n] {
			w.bad = append(w.bad, n+" (at "+when+")")
		}
		w.mu.Unlock()
	}
}

func (w *codexWorld) record(s string) {
	w.mu.Lock()
	w.log = append(w.log, s)
	w.mu.Unlock()
}

func (w *codexWorld) setBusy(reason string) {
	w.mu.Lock()
	w.reason = reason
	w.mu.Unlock()
}

// busy is the store's busy check: it looks at the store, as it stands
// right before a change, and says what the test set.
func (w *codexWorld) busy(t *testing.T) func() string {
	return func() string {
		w.record("busy")
		w.look(t, "a busy check")
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.reason
	}
}

// opts writes the store as Codex's, looking at it at every progress
// event.
func (w *codexWorld) opts(t *testing.T) ApplyOptions {
	return ApplyOptions{JournalRoot: w.journal,
		Foreign: &ForeignStore{Agent: "Codex", TempDir: w.temp, Busy: w.busy(t)},
		Progress: func(e ApplyEvent) {
			w.record("progress " + e.Stage)
			w.look(t, "progress "+e.Stage)
		}}
}

// watchSteps looks at the store after every step of every transaction
// until the test ends.
func (w *codexWorld) watchSteps(t *testing.T) {
	t.Cleanup(func() { testHookStep = nil })
	testHookStep = func(s string) {
		w.record(s)
		w.look(t, "step "+s)
	}
}

// checkClean fails the test for every foreign name a look or the watch
// found in the store, for a .consolidate-lock, and for anything left in
// the temp dir.
func (w *codexWorld) checkClean(t *testing.T, watched []string) {
	t.Helper()
	w.mu.Lock()
	bad := slices.Clone(w.bad)
	w.mu.Unlock()
	for _, b := range bad {
		t.Errorf("in the store: %s", b)
	}
	for _, n := range watched {
		if !w.allowed[n] {
			t.Errorf("appeared in the store (inotify): %s", n)
		}
	}
	if _, err := os.Lstat(filepath.Join(w.dir, lockFileName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s in the store: %v", lockFileName, err)
	}
	ents, err := os.ReadDir(w.temp)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left in the temp dir: %s", e.Name())
	}
}

func (w *codexWorld) steps() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.log)
}

// gitStatus is `git status` of the store (trimmed): what Codex's next
// consolidation sees as changed against its baseline.
func gitStatus(t *testing.T, dir string) string {
	t.Helper()
	return testfs.Git(t, dir, "status", "--porcelain", "--untracked-files=all")
}

// codexProp updates the handbook and the summary and adds a note.
func codexProp() model.Proposal {
	return prop("codex",
		upd("MEMORY.md", codexHandbook, codexHandbook+"\n## Reusable knowledge\n\n- The PSP sandbox rejects amounts under 50 cents.\n"),
		upd("memory_summary.md", codexSummary, strings.Replace(codexSummary, "- Prefers pnpm over npm.\n", "- Prefers pnpm over npm; never yarn.\n", 1)),
		model.Change{Path: codexNote, Op: model.OpCreate, After: codexNoteText},
	)
}

// busyBefore fails the test unless a busy check came right before each
// step named in names (the step runs it first thing), and before the
// journal entry was written.
func busyBefore(t *testing.T, log []string, names ...string) {
	t.Helper()
	j := slices.Index(log, "journal")
	if j < 2 || log[j-1] != "not busy" || log[j-2] != "busy" {
		t.Errorf("no busy check right before the journal entry: %v", log)
	}
	for _, n := range names {
		i := slices.Index(log, n)
		if i < 1 || log[i-1] != "busy" {
			t.Errorf("no busy check right before %q: %v", n, log)
		}
	}
}

// An update of the handbook and the summary and a new note, applied and
// undone in Codex's store: after every step no name but the three files
// is in the store, no lock file is ever made, .git is untouched, the temp
// dir (made 0700 outside the store) ends empty, and Codex's next diff
// sees exactly the three changes, then none.
func TestForeignStoreApplyAndUndo(t *testing.T) {
	w := newCodexWorld(t)
	w.baseline(t)
	w.allow(codexNote)
	w.watchSteps(t)
	git := snapshot(t, filepath.Join(w.dir, ".git"))
	watched := watchNames(t, w.dir)
	r := applyOne(t, &w.applyWorld, codexProp(), w.opts(t))
	if r.Status != StatusApplied || r.Err != nil {
		t.Fatalf("%+v", r)
	}
	w.checkClean(t, watched())
	sameSnapshot(t, git, snapshot(t, filepath.Join(w.dir, ".git")))
	for rel, want := range map[string]string{"MEMORY.md": codexProp().Changes[0].After, "memory_summary.md": codexProp().Changes[1].After, codexNote: codexNoteText} {
		if got := w.read(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if fi, err := os.Lstat(w.temp); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("the temp dir: %v %v", fi, err)
	}
	busyBefore(t, w.steps(), "apply 0 exchanged", "apply 1 exchanged", "apply 2 linked")
	if got, want := gitStatus(t, w.dir), "M MEMORY.md\n M memory_summary.md\n?? "+codexNote; got != want {
		t.Errorf("Codex's diff would see:\n%s\nwant:\n%s", got, want)
	}
	m, err := ReadEntry(w.journal, r.JournalID)
	real, _ := filepath.EvalSymlinks(w.temp)
	if err != nil || m.State != JournalCommitted || m.ForeignTempDir != real {
		t.Fatalf("entry %+v %v", m, err)
	}

	w.log = nil
	git = snapshot(t, filepath.Join(w.dir, ".git"))
	watched = watchNames(t, w.dir)
	u := Undo(context.Background(), r.JournalID, w.opts(t))
	if u.Status != StatusApplied || u.Err != nil {
		t.Fatalf("undo: %+v", u)
	}
	w.checkClean(t, watched())
	sameSnapshot(t, git, snapshot(t, filepath.Join(w.dir, ".git")))
	busyBefore(t, w.steps(), "apply 0 moved", "apply 1 exchanged", "apply 2 exchanged")
	if got := gitStatus(t, w.dir); got != "" {
		t.Errorf("after the undo, Codex's diff would see:\n%s", got)
	}
	if _, err := os.Lstat(filepath.Join(w.dir, codexNote)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the note is still there: %v", err)
	}
	if m, err := ReadEntry(w.journal, u.JournalID); err != nil || m.ForeignTempDir != real || m.UndoOf != r.JournalID {
		t.Errorf("the undo's entry %+v %v", m, err)
	}
}

// A note is created exclusively (codex facts §1.3.6): a name that is
// taken, before the proposal is checked or while memtui writes it, is a
// conflict, and whatever stands there is left as it is.
func TestForeignCreateNeverOverwrites(t *testing.T) {
	note := model.Change{Path: codexNote, Op: model.OpCreate, After: codexNoteText}
	t.Run("taken before", func(t *testing.T) {
		w := newCodexWorld(t)
		testfs.Write(t, filepath.Join(w.dir, codexNote), "the agent's own note\n")
		w.allow(codexNote)
		before := snapshot(t, w.dir)
		r := applyOne(t, &w.applyWorld, prop("note", note), w.opts(t))
		if r.Status != StatusConflict || r.Path != codexNote {
			t.Fatalf("%+v", r)
		}
		sameSnapshot(t, before, snapshot(t, w.dir))
		w.checkClean(t, nil)
	})
	t.Run("taken meanwhile", func(t *testing.T) {
		w := newCodexWorld(t)
		w.allow(codexNote)
		w.watchSteps(t)
		inner := testHookStep
		testHookStep = func(s string) {
			inner(s)
			if s == "apply 0 temp" {
				testfs.Write(t, filepath.Join(w.dir, codexNote), "the agent's own note\n")
			}
		}
		r := applyOne(t, &w.applyWorld, prop("note", note), w.opts(t))
		if r.Status != StatusConflict || r.Path != codexNote || !strings.Contains(r.Err.Error(), "created by someone else") {
			t.Fatalf("%+v", r)
		}
		if got := w.read(t, codexNote); got != "the agent's own note\n" {
			t.Errorf("the note = %q", got)
		}
		w.checkClean(t, nil)
		if m, err := ReadEntry(w.journal, r.JournalID); err != nil || m.State != JournalRolledBack {
			t.Errorf("%+v %v", m, err)
		}
	})
}

// While Codex consolidates, memtui writes nothing: a busy store refuses
// every proposal before anything is written (not even a journal entry),
// with the reason; WaitForLock waits for the agent to finish; an agent
// that starts between two proposals refuses the second before its entry.
func TestForeignBusyRefusesBeforeAnyChange(t *testing.T) {
	const why = "a consolidation holds the lease until 12:00:00"
	t.Run("busy", func(t *testing.T) {
		w := newCodexWorld(t)
		w.watchSteps(t)
		w.setBusy(why)
		before := snapshot(t, w.home)
		rs := Apply(context.Background(), w.dir, []model.Proposal{codexProp(), prop("p2", upd("MEMORY.md", codexHandbook, "x\n"))}, w.opts(t))
		for _, r := range rs {
			var be *BusyError
			if r.Status != StatusFailed || !errors.As(r.Err, &be) || be.Reason != why || be.Short() != "Codex is consolidating: "+why {
				t.Fatalf("%+v", r)
			}
		}
		after := snapshot(t, w.home)
		delete(after, ".memtui-tmp") // made, empty, outside the store
		sameSnapshot(t, before, after)
		if es, _ := List(w.journal); len(es) != 0 {
			t.Errorf("journal entries: %+v", es)
		}
		if slices.Contains(w.steps(), "journal") {
			t.Errorf("steps: %v", w.steps())
		}
		w.checkClean(t, nil)
	})
	t.Run("waited for", func(t *testing.T) {
		w := newCodexWorld(t)
		old := lockPoll
		lockPoll = 5 * time.Millisecond
		t.Cleanup(func() { lockPoll = old })
		opts := w.opts(t)
		calls := 0
		opts.Foreign.Busy = func() string {
			if calls++; calls <= 2 {
				return why
			}
			return ""
		}
		var waited []error
		opts.Progress = func(e ApplyEvent) {
			if e.Stage == "wait-lock" {
				waited = append(waited, e.Err)
			}
		}
		opts.WaitForLock = time.Minute
		r := applyOne(t, &w.applyWorld, codexProp(), opts)
		var be *BusyError
		if r.Status != StatusApplied || len(waited) != 2 || !errors.As(waited[0], &be) {
			t.Fatalf("%+v, waited %v", r, waited)
		}
	})
	t.Run("between proposals", func(t *testing.T) {
		w := newCodexWorld(t)
		w.allow(codexNote)
		opts := w.opts(t)
		progress := opts.Progress
		opts.Progress = func(e ApplyEvent) {
			progress(e)
			if e.Stage == "applied" {
				w.setBusy(why) // Codex claims its lease right after the first
			}
		}
		rs := Apply(context.Background(), w.dir, []model.Proposal{prop("note", model.Change{Path: codexNote, Op: model.OpCreate, After: codexNoteText}),
			prop("p2", upd("MEMORY.md", codexHandbook, "x\n"))}, opts)
		var be *BusyError
		if rs[0].Status != StatusApplied || rs[1].Status != StatusFailed || !errors.As(rs[1].Err, &be) || rs[1].JournalID != "" {
			t.Fatalf("%+v", rs)
		}
		if w.read(t, "MEMORY.md") != codexHandbook {
			t.Error("MEMORY.md written")
		}
		if es, _ := List(w.journal); len(es) != 1 {
			t.Errorf("journal entries: %+v", es)
		}
		w.checkClean(t, nil)
	})
}

// Codex starting to consolidate while memtui is half-way through a
// proposal (the busy check right before a change says so) rolls back
// every change already made: the store is exactly as before, bytes,
// modes and mtimes, and nothing is left in the temp dir. So does a
// failure after every change was made (a file the proposal read,
// rebuilt by Codex meanwhile). With the journal on another file system,
// the new note goes back out and the deleted skill is kept aside through
// the temp dir, never beside them.
func TestForeignBusyBeforeAChangeRollsBack(t *testing.T) {
	del := model.Change{Path: "skills/psp-debugging/SKILL.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte(codexSkill))}
	for _, cross := range []bool{false, true} {
		for _, at := range []string{
			"apply 0 rechecked", // busy before the first swap: nothing changed yet
			"apply 1 temp",      // busy before the note's link: MEMORY.md swapped
			"apply 2 rechecked", // busy before the delete's rename: two changes made
			"apply 2 synced",    // a read rebuilt once every change is made
		} {
			name := at
			if cross {
				name += ", the journal on another file system"
			}
			t.Run(name, func(t *testing.T) {
				w := newCodexWorld(t)
				if cross {
					w.journal = filepath.Join(otherFileSystem(t, w.dir), "journal")
				}
				w.allow(codexNote)
				aged(t, &w.applyWorld, "MEMORY.md", longAgo)
				w.watchSteps(t)
				inner := testHookStep
				late := at == "apply 2 synced"
				testHookStep = func(s string) {
					inner(s)
					switch {
					case s != at:
					case late:
						testfs.Write(t, filepath.Join(w.dir, "raw_memories.md"), "# Raw Memories\n\nrebuilt\n")
					default:
						w.setBusy("the workspace diff phase2_workspace_diff.md is on disk")
					}
				}
				before := snapshot(t, w.dir)
				watched := watchNames(t, w.dir)
				p := prop("three", upd("MEMORY.md", codexHandbook, "# Task Group: shop\n"), model.Change{Path: codexNote, Op: model.OpCreate, After: codexNoteText}, del)
				p.Reads = []model.FileRead{{Path: "raw_memories.md", SHA256: sumHex([]byte(codexFiles["raw_memories.md"]))}}
				r := applyOne(t, &w.applyWorld, p, w.opts(t))
				var be *BusyError
				if late && (r.Status != StatusConflict || r.Path != "raw_memories.md") ||
					!late && (r.Status != StatusFailed || !errors.As(r.Err, &be) || r.JournalID == "") {
					t.Fatalf("%+v", r)
				}
				after := snapshot(t, w.dir)
				if late {
					delete(before, "raw_memories.md")
					delete(after, "raw_memories.md")
				}
				sameSnapshot(t, before, after)
				w.checkClean(t, watched())
				if m, err := ReadEntry(w.journal, r.JournalID); err != nil || m.State != JournalRolledBack || len(m.Notes) > 0 {
					t.Errorf("%+v %v", m, err)
				}
			})
		}
	}
}

// An agent's write is not lost in a foreign store either: a write
// through a descriptor it opened before memtui's swap (to the old file,
// now in the temp dir), or its own version renamed over the file just
// before the swap, makes the proposal a conflict, and the agent's bytes
// are what stands at the path afterwards.
func TestForeignAgentWriteDetected(t *testing.T) {
	for _, c := range []struct {
		name, at string
		meddle   func(t *testing.T, w *codexWorld)
		want     string
	}{
		{"a late write to the old file", "apply 0 exchanged", func(t *testing.T, w *codexWorld) {
			// The descriptor an agent opened before the swap: the old
			// inode, now at memtui's temp name.
			ms, _ := filepath.Glob(filepath.Join(w.temp, ".memtui-*-0.tmp"))
			if len(ms) != 1 {
				t.Fatalf("the old file in the temp dir: %v", ms)
			}
			f, err := os.OpenFile(ms[0], os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("- an agent's late line\n")
			f.Close()
		}, codexHandbook + "- an agent's late line\n"},
		{"its version renamed in", "apply 0 rechecked", func(t *testing.T, w *codexWorld) {
			// Written outside the store (so that the store sees only the
			// rename) and renamed over the file.
			p := testfs.Write(t, filepath.Join(w.home, "agent.tmp"), "# Task Group: the agent's version\n")
			if err := os.Rename(p, filepath.Join(w.dir, "MEMORY.md")); err != nil {
				t.Fatal(err)
			}
		}, "# Task Group: the agent's version\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newCodexWorld(t)
			w.watchSteps(t)
			inner := testHookStep
			testHookStep = func(s string) {
				inner(s)
				if s == c.at {
					c.meddle(t, w)
				}
			}
			r := applyOne(t, &w.applyWorld, prop("p", upd("MEMORY.md", codexHandbook, "# Task Group: memtui's version\n")), w.opts(t))
			if r.Status != StatusConflict || r.Path != "MEMORY.md" {
				t.Fatalf("%+v", r)
			}
			if got := w.read(t, "MEMORY.md"); got != c.want {
				t.Errorf("MEMORY.md = %q, want %q", got, c.want)
			}
			w.checkClean(t, nil)
		})
	}
}

// A delete renames the file out of the store (into the journal, or,
// with the journal on another file system, into the temp dir to be
// copied), and a move renames it within: only the names of the
// proposal appear, the folder a move needs included; the undo puts both
// back, and the temp dir ends empty.
func TestForeignDeleteAndMove(t *testing.T) {
	for _, cross := range []bool{false, true} {
		name := "journal on the store's file system"
		if cross {
			name = "journal on another file system"
		}
		t.Run(name, func(t *testing.T) {
			w := newCodexWorld(t)
			if cross {
				w.journal = filepath.Join(otherFileSystem(t, w.dir), "journal")
			}
			old := "extensions/ad_hoc/notes/2026-11-19T08-00-00-go-version.md"
			moved := "skills/psp-retries/SKILL.md"
			w.allow(moved)
			aged(t, &w.applyWorld, old, longAgo)
			w.watchSteps(t)
			before := snapshot(t, w.dir)
			p := model.Proposal{ID: "dm", Kind: model.KindArchive, Title: "rename a skill, drop a note", Changes: []model.Change{
				{Path: old, Op: model.OpDelete, BaseSHA256: sumHex([]byte(codexFiles[old]))},
				{Path: moved, From: "skills/psp-debugging/SKILL.md", Op: model.OpMove, BaseSHA256: sumHex([]byte(codexSkill))},
			}}
			r := applyOne(t, &w.applyWorld, p, w.opts(t))
			if r.Status != StatusApplied {
				t.Fatalf("%+v", r)
			}
			busyBefore(t, w.steps(), "apply 0 moved", "apply 1 moved")
			w.checkClean(t, nil)
			if got := w.read(t, moved); got != codexSkill {
				t.Errorf("%s = %q", moved, got)
			}
			if b, err := os.ReadFile(filepath.Join(w.journal, r.JournalID, "deleted", "0")); err != nil || string(b) != codexFiles[old] {
				t.Errorf("the journal keeps %q %v", b, err)
			}
			if u := Undo(context.Background(), r.JournalID, w.opts(t)); u.Status != StatusApplied {
				t.Fatalf("undo: %+v", u)
			}
			after := snapshot(t, w.dir)
			delete(after, "skills/psp-retries") // the move's folder: empty, and git's tree has no empty folder
			sameSnapshot(t, before, after)
			w.checkClean(t, nil)
		})
	}
}

// otherFileSystem is a fresh dir on another file system than dir
// (/dev/shm, a tmpfs), or skips the test.
func otherFileSystem(t *testing.T, dir string) string {
	t.Helper()
	shm, err := os.MkdirTemp("/dev/shm", "memtui-test-")
	if err != nil {
		t.Skip("no /dev/shm for another file system")
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	var a, b syscall.Stat_t
	if syscall.Stat(dir, &a) != nil || syscall.Stat(shm, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is on the same file system")
	}
	return shm
}

// A temp dir memtui cannot use safely is refused before anything is
// written: a symlink (even to a dir on the same file system), one on
// another file system, one inside the store, one others may write to, a
// file; and a foreign store without a busy check.
func TestForeignTempDirRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, w *codexWorld, o *ForeignStore)
		want  string
	}{
		{"a symlink", func(t *testing.T, w *codexWorld, o *ForeignStore) {
			real := testfs.Mkdir(t, filepath.Join(w.home, "elsewhere"))
			os.Chmod(real, 0o700)
			testfs.Symlink(t, real, w.temp)
		}, "is a symlink"},
		{"another file system", func(t *testing.T, w *codexWorld, o *ForeignStore) {
			o.TempDir = otherFileSystem(t, w.dir)
		}, "another file system"},
		{"inside the store", func(t *testing.T, w *codexWorld, o *ForeignStore) {
			o.TempDir = filepath.Join(w.dir, ".memtui-tmp")
		}, "inside the store"},
		{"writable by others", func(t *testing.T, w *codexWorld, o *ForeignStore) {
			testfs.Mkdir(t, w.temp)
			os.Chmod(w.temp, 0o777)
		}, "writable by others"},
		{"a file", func(t *testing.T, w *codexWorld, o *ForeignStore) {
			testfs.Write(t, w.temp, "x")
		}, "not a directory"},
		{"no busy check", func(t *testing.T, w *codexWorld, o *ForeignStore) {
			o.Busy = nil
		}, "busy check"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newCodexWorld(t)
			w.allow(codexNote)
			opts := w.opts(t)
			c.setup(t, w, opts.Foreign)
			before := snapshot(t, w.dir)
			r := applyOne(t, &w.applyWorld, codexProp(), opts)
			if r.Status != StatusFailed || !errors.Is(r.Err, errRefused) || !strings.Contains(r.Err.Error(), c.want) {
				t.Fatalf("%+v", r)
			}
			sameSnapshot(t, before, snapshot(t, w.dir))
			if es, _ := List(w.journal); len(es) != 0 {
				t.Errorf("journal entries: %+v", es)
			}
		})
	}
}

// The options must match the store an entry is of: a foreign store's
// entry is not undone without its agent's busy check, a Claude Code
// store's is not undone as a foreign one, and a linked proposal is not
// written to a foreign store; nothing is written in any case.
func TestForeignOptionsMustMatch(t *testing.T) {
	w := newCodexWorld(t)
	w.allow(codexNote)
	r := applyOne(t, &w.applyWorld, codexProp(), w.opts(t))
	if r.Status != StatusApplied {
		t.Fatalf("%+v", r)
	}
	before := snapshot(t, w.dir)
	if u := Undo(context.Background(), r.JournalID, ApplyOptions{JournalRoot: w.journal}); u.Status != StatusFailed || !strings.Contains(u.Err.Error(), "busy check") {
		t.Errorf("undo without Foreign: %+v", u)
	}
	sameSnapshot(t, before, snapshot(t, w.dir))

	c := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	cr := applyOne(t, c, prop("c", upd("a.md", "a\n", "b\n")), c.opts())
	opts := w.opts(t)
	opts.JournalRoot = c.journal
	if u := Undo(context.Background(), cr.JournalID, opts); u.Status != StatusFailed || !strings.Contains(u.Err.Error(), "Claude Code's store") {
		t.Errorf("undo of a Claude Code entry as a foreign one: %+v", u)
	}
	if c.read(t, "a.md") != "b\n" {
		t.Error("a.md undone")
	}
	p := prop("linked", upd("MEMORY.md", codexHandbook, "x\n"))
	p.MemoryDir = w.dir
	p.Also = &model.DirChanges{MemoryDir: c.dir, Changes: []model.Change{upd("a.md", "b\n", "c\n")}}
	if l := ApplyLinked(context.Background(), p, w.opts(t)); l.Status != StatusFailed {
		t.Errorf("linked: %+v", l)
	}
	sameSnapshot(t, before, snapshot(t, w.dir))
}

// A foreign store's entry records its temp dir; every other entry's
// manifest is as it was (no new key).
func TestForeignEntryRecordsTempDir(t *testing.T) {
	w := newCodexWorld(t)
	r := applyOne(t, &w.applyWorld, prop("p", upd("MEMORY.md", codexHandbook, "x\n")), w.opts(t))
	b, err := os.ReadFile(filepath.Join(w.journal, r.JournalID, manifestName))
	real, _ := filepath.EvalSymlinks(w.temp)
	if err != nil || !strings.Contains(string(b), `"foreign_temp_dir": "`+real+`"`) {
		t.Errorf("manifest %s %v", b, err)
	}
	c := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	cr := applyOne(t, c, prop("c", upd("a.md", "a\n", "b\n")), c.opts())
	if b, err := os.ReadFile(filepath.Join(c.journal, cr.JournalID, manifestName)); err != nil || strings.Contains(string(b), "foreign") {
		t.Errorf("manifest %s %v", b, err)
	}
}
