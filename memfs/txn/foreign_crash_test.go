//go:build unix

package txn

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// foreignCrashProp changes Codex's store every way a proposal can: two
// updates, a new note, a deleted skill.
func foreignCrashProp() model.Proposal {
	return prop("codex-crash",
		upd("MEMORY.md", codexHandbook, codexHandbook+"\n## Reusable knowledge\n\n- The PSP sandbox rejects amounts under 50 cents.\n"),
		model.Change{Path: codexNote, Op: model.OpCreate, After: codexNoteText},
		model.Change{Path: "skills/psp-debugging/SKILL.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte(codexSkill))},
		upd("memory_summary.md", codexSummary, strings.Replace(codexSummary, "- Prefers pnpm over npm.\n", "- Prefers pnpm over npm; never yarn.\n", 1)),
	)
}

// TestForeignCrashHelper applies foreignCrashProp to a foreign store in a
// subprocess and, when MEMTUI_FCRASH_AT is n > 0, kills itself with
// SIGKILL after the n-th step.
func TestForeignCrashHelper(t *testing.T) {
	dir := os.Getenv("MEMTUI_FCRASH_DIR")
	if dir == "" {
		t.Skip("subprocess helper")
	}
	at, _ := strconv.Atoi(os.Getenv("MEMTUI_FCRASH_AT"))
	n := 0
	testHookStep = func(s string) {
		n++
		fmt.Println("STEP", s)
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	fmt.Println("READY")
	opts := ApplyOptions{JournalRoot: os.Getenv("MEMTUI_FCRASH_JOURNAL"),
		Foreign: &ForeignStore{Agent: "Codex", TempDir: os.Getenv("MEMTUI_FCRASH_TEMP"), Busy: func() string { return "" }}}
	r := Apply(context.Background(), dir, []model.Proposal{foreignCrashProp()}, opts)
	fmt.Println("RESULT", r[0].Status, r[0].Err)
}

// TestForeignCrashRecovered kills a subprocess writing Codex's store
// after every step of the transaction, then at random moments, and checks
// what the crash left and what each recovery does with it: nothing but
// the proposal's files is ever in the store (a crash included); Recover,
// which cannot ask Codex whether it is at work, leaves an unfinished
// entry pending and changes nothing; RecoverDir with the store's options
// puts the store exactly as before or exactly as after, with the temp
// dir emptied of the entry's temp files; a second recovery has nothing
// to do.
func TestForeignCrashRecovered(t *testing.T) {
	outcomes := map[string]int{}
	run := func(at int, randomKill time.Duration) (bool, []string) {
		w := newCodexWorld(t)
		w.allow(codexNote)
		before := stateHashes(t, w.dir)
		after := maps.Clone(before)
		for _, c := range foreignCrashProp().Changes {
			if c.Op == model.OpDelete {
				delete(after, c.Path)
			} else {
				after[c.Path] = sumHex([]byte(c.After))
			}
		}
		killed, steps, lines := crashForeign(t, w, at, randomKill)
		where := fmt.Sprintf("the kill at step %d (random %v)", at, randomKill)
		w.look(t, where)

		crashed := stateHashes(t, w.dir)
		reps, err := Recover(w.journal)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if r.Action == "rolled back" || r.Action == "skipped" && !errors.Is(r.Err, errForeignRecover) {
				t.Errorf("%s: Recover %+v", where, r)
			}
		}
		if !maps.Equal(crashed, stateHashes(t, w.dir)) {
			t.Errorf("%s: Recover changed the store", where)
		}

		reps, err = RecoverDir(w.dir, w.opts(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if r.Err != nil || len(r.Notes) > 0 || r.Action != "rolled back" {
				t.Errorf("%s: RecoverDir %+v", where, r)
			}
		}
		switch got := stateHashes(t, w.dir); {
		case maps.Equal(got, before):
			outcomes["rolled back"]++
		case maps.Equal(got, after):
			outcomes["applied"]++
		default:
			t.Errorf("%s: neither before nor after: %v\n%v", where, got, lines)
		}
		w.checkClean(t, nil)
		if again, _ := RecoverDir(w.dir, w.opts(t)); len(again) != 0 {
			t.Errorf("%s: a second RecoverDir did something: %+v", where, again)
		}
		if again, _ := Recover(w.journal); len(again) != 0 {
			t.Errorf("%s: Recover after RecoverDir did something: %+v", where, again)
		}
		return killed, steps
	}
	killed, names := run(0, -1)
	if killed {
		t.Fatal("the helper was killed without being asked")
	}
	points := 0
	for at := 1; at <= len(names); at++ {
		if killed, _ := run(at, -1); !killed {
			t.Errorf("not killed after step %d (%s)", at, names[at-1])
			continue
		}
		points++
	}
	if points < 20 {
		t.Errorf("only %d kill points", points)
	}
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 10; i++ {
		run(0, time.Duration(rnd.IntN(8000))*time.Microsecond)
	}
	t.Logf("steps: %s", strings.Join(names, ", "))
	t.Logf("%d kill points at every step, 10 random kills: %v", points, outcomes)
}

// crashForeign runs TestForeignCrashHelper on w, killed after step at
// (0: not) or randomKill after it started (negative: not), and says
// whether it was killed, the steps it reported and all it printed.
func crashForeign(t *testing.T, w *codexWorld, at int, randomKill time.Duration) (killed bool, steps, lines []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestForeignCrashHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "MEMTUI_FCRASH_DIR="+w.dir, "MEMTUI_FCRASH_JOURNAL="+w.journal,
		"MEMTUI_FCRASH_TEMP="+w.temp, "MEMTUI_FCRASH_AT="+strconv.Itoa(at))
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if name, ok := strings.CutPrefix(sc.Text(), "STEP "); ok {
			steps = append(steps, name)
		}
		if sc.Text() == "READY" && randomKill >= 0 {
			time.Sleep(randomKill)
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	err := cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	killed = err != nil && ws.Signaled() && ws.Signal() == syscall.SIGKILL
	if err != nil && !killed {
		t.Fatalf("helper: %v %v", err, lines)
	}
	return killed, steps, lines
}

// A crash's entry is rolled back only once Codex is not at work: while it
// is, RecoverDir and Apply refuse (a *BusyError) and the store and the
// temp files the crash left stay exactly as they are.
func TestForeignRecoveryWaitsForTheAgent(t *testing.T) {
	w := newCodexWorld(t)
	w.allow(codexNote)
	before := stateHashes(t, w.dir)
	_, all, _ := crashForeign(t, newCodexWorld(t), 0, -1)
	// Killed once MEMORY.md is swapped and the note linked in.
	at := slices.Index(all, "apply 1 synced") + 1
	if killed, steps, _ := crashForeign(t, w, at, -1); !killed || at == 0 || steps[len(steps)-1] != "apply 1 synced" {
		t.Fatalf("killed %v after %v", killed, steps)
	}
	crashed, temps := stateHashes(t, w.dir), stateHashes(t, w.temp)
	if len(temps) == 0 || maps.Equal(crashed, before) {
		t.Fatalf("the crash left nothing to recover: %v %v", crashed, temps)
	}
	w.setBusy("a consolidation holds the lease")
	var be *BusyError
	if reps, err := RecoverDir(w.dir, w.opts(t)); !errors.As(err, &be) || len(reps) != 0 {
		t.Errorf("RecoverDir while busy: %+v %v", reps, err)
	}
	if r := applyOne(t, &w.applyWorld, prop("p", upd("raw_memories.md", codexFiles["raw_memories.md"], "x\n")), w.opts(t)); !errors.As(r.Err, &be) {
		t.Errorf("Apply while busy: %+v", r)
	}
	if !maps.Equal(crashed, stateHashes(t, w.dir)) || !maps.Equal(temps, stateHashes(t, w.temp)) {
		t.Error("a recovery while busy changed the store or the temp dir")
	}
	// Nor is it rolled back by a run that takes the store for Claude
	// Code's (it would look for the temp files beside the files).
	if reps, err := RecoverDir(w.dir, ApplyOptions{JournalRoot: w.journal}); err != nil || len(reps) != 0 {
		t.Errorf("RecoverDir as Claude Code's store: %+v %v", reps, err)
	}
	if !maps.Equal(crashed, stateHashes(t, w.dir)) || !maps.Equal(temps, stateHashes(t, w.temp)) {
		t.Error("a recovery as Claude Code's store changed the store or the temp dir")
	}
	// Recovered once Codex is done, by a run whose temp dir is another
	// one now: the entry's own, which it recorded, is where its temp
	// files are found and removed.
	w.setBusy("")
	opts := w.opts(t)
	opts.Foreign.TempDir = filepath.Join(w.home, ".memtui-tmp-2")
	if reps, err := RecoverDir(w.dir, opts); err != nil || len(reps) != 1 || reps[0].Action != "rolled back" || len(reps[0].Notes) > 0 {
		t.Fatalf("RecoverDir: %+v %v", reps, err)
	}
	if !maps.Equal(before, stateHashes(t, w.dir)) {
		t.Error("not rolled back")
	}
	w.checkClean(t, nil)
}

// TestForeignConcurrentAgentsLoseNoWrite is TestConcurrentAgentsLoseNoWrite
// (agents writing the files memtui keeps changing, in every way an agent
// writes) in a foreign store, with goroutine agents only: every marker an
// agent completed is in the final files or kept in the journal, and no
// name of memtui's ever appears in the store, not even for a moment.
func TestForeignConcurrentAgentsLoseNoWrite(t *testing.T) {
	w := newCodexWorldWith(t, map[string]string{"MEMORY.md": "# index\n", "a.md": "# a\n", "b.md": "# b\n"})
	lockDir := t.TempDir()
	watched := watchNames(t, w.dir)
	var mu sync.Mutex
	var completed []agentWrite
	var wg sync.WaitGroup
	var pace agentPace
	for g := 0; g < agentModes; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := agentLoop(w.dir, lockDir, "go-"+strconv.Itoa(g), g, func() bool {
				time.Sleep(100 * time.Microsecond)
				return pace.more()
			}, uint64(g))
			if err != nil {
				t.Errorf("agent: %v", err)
			}
			mu.Lock()
			completed = append(completed, done...)
			mu.Unlock()
		}()
	}
	opts := ApplyOptions{JournalRoot: w.journal, Foreign: &ForeignStore{Agent: "Codex", TempDir: w.temp, Busy: func() string { return "" }}}
	status := map[ApplyStatus]int{}
	var applies []applyWindow
	rnd := rand.New(rand.NewPCG(1, 2))
	until := time.Now().Add(time.Second)
	hardStop := until.Add(30 * time.Second)
	for k := 0; ; k++ {
		now := time.Now()
		if now.After(hardStop) || now.After(until) && status[StatusApplied] >= 3 && status[StatusConflict] >= 1 {
			break
		}
		var changes []model.Change
		for _, name := range agentFiles {
			if rnd.IntN(2) == 0 && len(changes) < 2 {
				b, err := os.ReadFile(filepath.Join(w.dir, name))
				if err != nil {
					t.Fatal(err)
				}
				changes = append(changes, upd(name, string(b), string(b)+"memtui "+strconv.Itoa(k)+"\n"))
			}
		}
		if len(changes) == 0 {
			continue
		}
		from := time.Now()
		r := applyOne(t, &w.applyWorld, prop("p"+strconv.Itoa(k), changes...), opts)
		applies = append(applies, applyWindow{changes: changes, from: from, to: time.Now()})
		status[r.Status]++
		pace.after(r.Status, status[StatusApplied], until)
		if r.Status == StatusFailed {
			t.Errorf("proposal %d failed: %v", k, r.Err)
		}
	}
	pace.stop.Store(true)
	wg.Wait()
	var text, salvaged bytes.Buffer
	for _, name := range agentFiles {
		text.WriteString(w.read(t, name))
	}
	list, _ := List(w.journal)
	for _, e := range list {
		ents, _ := os.ReadDir(filepath.Join(w.journal, e.ID, "salvage"))
		for _, s := range ents {
			b, _ := os.ReadFile(filepath.Join(w.journal, e.ID, "salvage", s.Name()))
			salvaged.Write(b)
		}
	}
	lost, _, gaps := checkLoss(t, completed, applies, text.String(), salvaged.String())
	for _, n := range watched() {
		if strings.HasPrefix(filepath.Base(n), ".memtui-") || n == lockFileName {
			t.Errorf("appeared in the store: %s", n)
		}
	}
	w.checkClean(t, nil)
	t.Logf("agent writes completed: %d, lost: %d (%d of them to a guarantee this layer lacks); memtui proposals: %v", len(completed), lost, gaps, status)
	if status[StatusApplied] == 0 || status[StatusConflict] == 0 {
		t.Errorf("the test did not exercise both outcomes: %v", status)
	}
}
