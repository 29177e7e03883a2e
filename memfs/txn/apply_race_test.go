//go:build unix

package txn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// Agents in these tests behave like Claude Code's extraction agent and
// main session: they write memory files at any time, without taking any of
// memtui's locks. Among themselves they take a per-file flock (in a
// directory memtui knows nothing of), so that a marker can only be lost to
// memtui, never to another agent's read-modify-write.

var agentFiles = []string{"MEMORY.md", "a.md", "b.md"}

const (
	agentTrunc  = iota // read, then open O_WRONLY|O_TRUNC and write it all back
	agentAppend        // open O_APPEND, pause, append a line
	agentRename        // read, write a temp file, rename it over the file
	agentModes
)

// agentWrite is a write an agent completed: its marker line, the file it
// went to, and when the agent began (before reading the file) and ended.
type agentWrite struct {
	marker, file string
	from, to     time.Time
}

// String is the line the subprocess agent prints for w.
func (w agentWrite) String() string {
	return fmt.Sprintf("MARKER %s %d %d %s", w.file, w.from.UnixNano(), w.to.UnixNano(), w.marker)
}

// parseAgentWrite reads a line of String.
func parseAgentWrite(line string) (agentWrite, bool) {
	f := strings.SplitN(line, " ", 5)
	if len(f) != 5 || f[0] != "MARKER" {
		return agentWrite{}, false
	}
	from, err1 := strconv.ParseInt(f[2], 10, 64)
	to, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil {
		return agentWrite{}, false
	}
	return agentWrite{file: f[1], from: time.Unix(0, from), to: time.Unix(0, to), marker: f[4]}, true
}

// agentLoop writes unique marker lines into dir's files for as long as
// going says, and returns the writes that completed.
func agentLoop(dir, lockDir, id string, mode int, going func() bool, seed uint64) ([]agentWrite, error) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	var done []agentWrite
	for n := 0; going(); n++ {
		name := agentFiles[rnd.IntN(len(agentFiles))]
		path := filepath.Join(dir, name)
		marker := fmt.Sprintf("agent %s #%d", id, n)
		lk, err := os.OpenFile(filepath.Join(lockDir, name+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return done, err
		}
		if err := syscall.Flock(int(lk.Fd()), syscall.LOCK_EX); err != nil {
			return done, err
		}
		pause := time.Duration(rnd.IntN(300)) * time.Microsecond
		from := time.Now()
		switch mode {
		case agentTrunc:
			var b []byte
			if b, err = os.ReadFile(path); err == nil {
				time.Sleep(pause)
				var f *os.File
				if f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
					_, err = f.Write(append(b, marker+"\n"...))
					if cerr := f.Close(); err == nil {
						err = cerr
					}
				}
			}
		case agentAppend:
			var f *os.File
			if f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err == nil {
				time.Sleep(pause) // opened before memtui's swap, written after it
				_, err = f.Write([]byte(marker + "\n"))
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		case agentRename:
			var b []byte
			if b, err = os.ReadFile(path); err == nil {
				time.Sleep(pause)
				tmp := filepath.Join(dir, ".agent-"+id+".tmp")
				if err = os.WriteFile(tmp, append(b, marker+"\n"...), 0o644); err == nil {
					err = os.Rename(tmp, path)
				}
			}
		}
		to := time.Now()
		syscall.Flock(int(lk.Fd()), syscall.LOCK_UN)
		lk.Close()
		if err != nil {
			return done, fmt.Errorf("%s: %w", marker, err)
		}
		done = append(done, agentWrite{marker: marker, file: name, from: from, to: to})
		time.Sleep(time.Duration(rnd.IntN(200)) * time.Microsecond)
	}
	return done, nil
}

// agentPace spaces the goroutine agents' writes out once the test's window
// has passed and memtui has not yet applied enough proposals. On a loaded
// machine (the race detector, two busy cores, no leases so every apply
// pauses writerSettle) agents writing back to back leave no gap an apply
// fits in, and every proposal conflicts. Each conflict past the window
// doubles the pause between an agent's writes, from 1 ms up to 2 s: the
// agents keep writing concurrently with memtui, and however slow an apply
// is, the gaps soon outgrow it, so both outcomes are exercised.
type agentPace struct {
	gap  atomic.Int64 // the pause before each write, in nanoseconds
	stop atomic.Bool
}

const (
	paceFirst = time.Millisecond
	paceMost  = 2 * time.Second
)

// more is agentLoop's going: it pauses the current gap, in short steps so
// that stop is seen at once, and reports whether to write again.
func (p *agentPace) more() bool {
	for end := time.Now().Add(time.Duration(p.gap.Load())); !p.stop.Load() && time.Now().Before(end); {
		time.Sleep(min(time.Until(end), 10*time.Millisecond))
	}
	return !p.stop.Load()
}

// after widens the gap after a proposal that conflicted past until while
// fewer than three have been applied.
func (p *agentPace) after(s ApplyStatus, applied int, until time.Time) {
	if s != StatusConflict || applied >= 3 || time.Now().Before(until) {
		return
	}
	g := max(2*time.Duration(p.gap.Load()), paceFirst)
	p.gap.Store(int64(min(g, paceMost)))
}

// applyWindow is one Apply of the race tests: the changes it was given,
// and when it began and returned.
type applyWindow struct {
	changes  []model.Change
	from, to time.Time
	status   ApplyStatus
}

// touches reports whether a changed file in the store named name.
func (a applyWindow) touches(name string) bool {
	for _, c := range a.changes {
		if c.Path == name || c.From == name {
			return true
		}
	}
	return false
}

// checkLoss looks for every completed agent write in the final files
// (text) and in what the journal kept (salvaged), and returns how many
// were lost, how many were kept in the journal, and how many of the lost
// the layer's missing guarantees explain. On unixLayer any lost write
// fails the test. pathLayer (Windows's) has no leases and no atomic swap,
// and MissingGuarantees says what that costs: an agent's write made while
// memtui replaces that very file can go into the file replaced, or be
// overwritten. A write lost there is counted and logged; a write lost at
// any other moment, or to a file the Apply did not touch, fails the test.
func checkLoss(t *testing.T, writes []agentWrite, applies []applyWindow, text, salvaged string) (lost, kept, gaps int) {
	t.Helper()
	_, weaker := sys.(*pathLayer)
	for _, w := range writes {
		switch {
		case strings.Contains(text, w.marker+"\n"):
			continue
		case strings.Contains(salvaged, w.marker+"\n"):
			kept++
			continue
		}
		lost++
		explained := weaker && slices.ContainsFunc(applies, func(a applyWindow) bool {
			return a.touches(w.file) && w.from.Before(a.to) && a.from.Before(w.to)
		})
		if explained {
			if gaps++; gaps <= 3 {
				t.Logf("lost while memtui replaced %s, as MissingGuarantees says this layer may: %q", w.file, w.marker)
			}
			continue
		}
		if lost-gaps <= 5 {
			t.Errorf("lost: %q (in %s, written %s to %s)%s", w.marker, w.file, stamp(w.from), stamp(w.to), nearby(applies, w))
		}
	}
	return lost, kept, gaps
}

// nearby lists the Applies that touched w's file within 50 ms of w, for
// the message of a lost write.
func nearby(applies []applyWindow, w agentWrite) string {
	var b strings.Builder
	const near = 50 * time.Millisecond
	for i, a := range applies {
		if a.touches(w.file) && a.to.After(w.from.Add(-near)) && a.from.Before(w.to.Add(near)) {
			fmt.Fprintf(&b, "\n\tApply #%d of %s: %s to %s, %s", i, w.file, stamp(a.from), stamp(a.to), a.status)
		}
	}
	return b.String()
}

func stamp(t time.Time) string { return t.Format("15:04:05.000000") }

// TestAgentHelper is the subprocess agent of TestConcurrentAgentsLoseNoWrite
// (it does nothing in a normal run).
func TestAgentHelper(t *testing.T) {
	dir := os.Getenv("MEMTUI_AGENT_DIR")
	if dir == "" {
		t.Skip("subprocess helper")
	}
	until, _ := strconv.ParseInt(os.Getenv("MEMTUI_AGENT_UNTIL"), 10, 64)
	var all []agentWrite
	var mu sync.Mutex
	var wg sync.WaitGroup
	for m := 0; m < agentModes; m++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			end := time.Unix(0, until)
			done, err := agentLoop(dir, os.Getenv("MEMTUI_AGENT_LOCKS"), "proc-"+strconv.Itoa(m), m, func() bool { return time.Now().Before(end) }, uint64(m)+100)
			if err != nil {
				fmt.Fprintln(os.Stderr, "agent:", err)
			}
			mu.Lock()
			all = append(all, done...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, w := range all {
		fmt.Println(w)
	}
}

// TestConcurrentAgentsLoseNoWrite has goroutine agents and a subprocess
// agent write markers into the files memtui keeps changing (each proposal
// appends a line to one or two files, built from their current content and
// hash, like a re-generated Dream proposal). Every marker an agent
// completed must be in the final files: memtui either wrote around it or
// reported the proposal as a conflict and put the agent's bytes back.
func TestConcurrentAgentsLoseNoWrite(t *testing.T) {
	w := newApplyWorld(t, map[string]string{"MEMORY.md": "# index\n", "a.md": "# a\n", "b.md": "# b\n"})
	lockDir := t.TempDir()
	dur := 2 * time.Second
	if testing.Short() {
		dur = time.Second
	}
	until := time.Now().Add(dur)

	cmd := exec.Command(os.Args[0], "-test.run=^TestAgentHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "MEMTUI_AGENT_DIR="+w.dir, "MEMTUI_AGENT_LOCKS="+lockDir,
		"MEMTUI_AGENT_UNTIL="+strconv.FormatInt(until.UnixNano(), 10))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var completed []agentWrite
	var wg sync.WaitGroup
	var pace agentPace
	for g := 0; g < 2*agentModes; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := agentLoop(w.dir, lockDir, "go-"+strconv.Itoa(g), g%agentModes, pace.more, uint64(g))
			if err != nil {
				t.Errorf("agent: %v", err)
			}
			mu.Lock()
			completed = append(completed, done...)
			mu.Unlock()
		}()
	}

	status := map[ApplyStatus]int{}
	var applies []applyWindow
	rnd := rand.New(rand.NewPCG(1, 2))
	// The goroutine agents keep writing until memtui has applied a few
	// proposals among them, pacing themselves once the window has passed
	// (see agentPace); never past a hard limit.
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
		r := applyOne(t, w, prop("p"+strconv.Itoa(k), changes...), w.opts())
		applies = append(applies, applyWindow{changes: changes, from: from, to: time.Now(), status: r.Status})
		status[r.Status]++
		pace.after(r.Status, status[StatusApplied], until)
		if r.Status == StatusFailed {
			t.Errorf("proposal %d failed: %v", k, r.Err)
		}
	}
	pace.stop.Store(true)
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("agent subprocess: %v\n%s", err, errOut.String())
	}
	sc := bufio.NewScanner(&out)
	procMarkers := 0
	for sc.Scan() {
		if aw, ok := parseAgentWrite(sc.Text()); ok {
			completed = append(completed, aw)
			procMarkers++
		}
	}
	if procMarkers == 0 {
		t.Errorf("the subprocess agent completed no write:\n%s", errOut.String())
	}

	var final strings.Builder
	for _, name := range agentFiles {
		final.WriteString(w.read(t, name))
	}
	text := final.String()
	// Bytes a rollback could not put back are kept in the journal's
	// salvage folder of a proposal reported as a conflict, and named in its
	// notes: reported, not lost.
	var salvaged strings.Builder
	list, _ := List(w.journal)
	notes := 0
	for _, e := range list {
		notes += len(e.Notes)
		for _, n := range e.Notes {
			t.Logf("journal note: %s", n)
		}
		if len(e.Notes) > 0 && e.State != JournalRolledBack {
			t.Errorf("entry %s has notes but is %s", e.ID, e.State)
		}
		ents, _ := os.ReadDir(filepath.Join(w.journal, e.ID, "salvage"))
		for _, s := range ents {
			b, _ := os.ReadFile(filepath.Join(w.journal, e.ID, "salvage", s.Name()))
			salvaged.Write(b)
		}
	}
	lost, kept, gaps := checkLoss(t, completed, applies, text, salvaged.String())
	t.Logf("agent writes completed: %d (%d by the subprocess); lost: %d (%d of them to a guarantee this layer lacks); kept in the journal by a rollback and reported: %d; memtui proposals: %d applied, %d conflicts, %d failed; rollback notes: %d",
		len(completed), procMarkers, lost, gaps, kept, status[StatusApplied], status[StatusConflict], status[StatusFailed], notes)
	if status[StatusApplied] == 0 || status[StatusConflict] == 0 {
		t.Errorf("the test did not exercise both outcomes: %v", status)
	}
	if len(completed) < 100 {
		t.Errorf("only %d agent writes: not much of a race", len(completed))
	}
}

// TestOpenForWritingProbe checks the lease probe the last-window wait
// relies on.
func TestOpenForWritingProbe(t *testing.T) {
	p := testfs.Write(t, filepath.Join(t.TempDir(), "x.md"), "x")
	r, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	busy, ok := openForWriting(r)
	if !ok {
		t.Skip("no leases here; Apply falls back to a settle pause")
	}
	if busy {
		t.Fatal("busy with no writer")
	}
	wr, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if busy, _ := openForWriting(r); !busy {
		t.Error("a writer is not seen")
	}
	wr.Close()
	if busy, _ := openForWriting(r); busy {
		t.Error("busy after the writer closed")
	}
}

// An agent holding the old file open for writing past writerWait makes the
// proposal a conflict, and its later write lands in the file at the path.
func TestApplyWaitsForAWriterOfTheOldFile(t *testing.T) {
	if !sys.leases() {
		t.Skip("no leases on this layer (MissingGuarantees says so); Apply falls back to a settle pause")
	}
	w := newApplyWorld(t, map[string]string{"a.md": "a\n"})
	old := writerWait
	writerWait = 150 * time.Millisecond
	t.Cleanup(func() { writerWait = old })
	f, err := os.OpenFile(filepath.Join(w.dir, "a.md"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := applyOne(t, w, prop("p", upd("a.md", "a\n", "A\n")), w.opts())
	if r.Status != StatusConflict || !strings.Contains(r.Err.Error(), "open for writing") {
		t.Fatalf("%+v", r)
	}
	f.WriteString("late line\n")
	f.Close()
	if got := w.read(t, "a.md"); got != "a\nlate line\n" {
		t.Errorf("a.md = %q", got)
	}
}

// crashProposal touches five files with every kind of change.
func crashWorld(t *testing.T) (*applyWorld, model.Proposal, map[string]string, map[string]string) {
	files := map[string]string{"MEMORY.md": "- [a](a.md)\n- [c](c.md)\n", "a.md": "alpha\n", "b.md": "beta\n", "c.md": "gamma\n"}
	w := newApplyWorld(t, files)
	p := prop("crash",
		upd("a.md", "alpha\n", "alpha merged with beta\n"),
		upd("MEMORY.md", files["MEMORY.md"], "- [a](a.md)\n- [n](n.md)\n"),
		model.Change{Path: "n.md", Op: model.OpCreate, After: "new\n"},
		model.Change{Path: "b.md", Op: model.OpDelete, BaseSHA256: sumHex([]byte("beta\n"))},
		upd("c.md", "gamma\n", "gamma fixed\n"),
	)
	before := map[string]string{}
	for k, v := range files {
		before[k] = sumHex([]byte(v))
	}
	after := map[string]string{"MEMORY.md": sumHex([]byte("- [a](a.md)\n- [n](n.md)\n")), "a.md": sumHex([]byte("alpha merged with beta\n")),
		"n.md": sumHex([]byte("new\n")), "c.md": sumHex([]byte("gamma fixed\n"))}
	return w, p, before, after
}

// TestCrashHelper applies the crash proposal in a subprocess and, when
// MEMTUI_CRASH_AT is n > 0, kills itself with SIGKILL at the n-th step.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv("MEMTUI_CRASH_DIR")
	if dir == "" {
		t.Skip("subprocess helper")
	}
	var p model.Proposal
	if err := json.Unmarshal([]byte(os.Getenv("MEMTUI_CRASH_PROP")), &p); err != nil {
		t.Fatal(err)
	}
	at, _ := strconv.Atoi(os.Getenv("MEMTUI_CRASH_AT"))
	n := 0
	testHookStep = func(s string) {
		n++
		fmt.Println("STEP", s)
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	fmt.Println("READY")
	opts := ApplyOptions{JournalRoot: os.Getenv("MEMTUI_CRASH_JOURNAL")}
	if p.Also != nil {
		r := ApplyLinked(context.Background(), p, opts)
		fmt.Println("RESULT", r.Status, r.Err)
		return
	}
	r := Apply(context.Background(), dir, []model.Proposal{p}, opts)
	fmt.Println("RESULT", r[0].Status, r[0].Err)
}

// stateHashes is every file below dir by its relative path and hash, and
// every folder as "dir" (a rolled-back move must not leave the folders it
// made), the lock left out.
func stateHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == "." || rel == lockFileName:
		case d.IsDir():
			out[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = sumHex(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCrashLeavesAllOrNothing kills a subprocess applying a five-file
// proposal at every step of the transaction, then at random moments, and
// checks after Recover that the memory dir is exactly as before or exactly
// as after, by hashes, with no temporary file left.
func TestCrashLeavesAllOrNothing(t *testing.T) {
	crashEverywhere(t, crashWorld)
}

// moveCrashWorld archives two memories (one into a folder two levels
// down, made by the move) and repoints the index.
func moveCrashWorld(t *testing.T) (*applyWorld, model.Proposal, map[string]string, map[string]string) {
	files := map[string]string{"MEMORY.md": "- [a](a.md)\n- [b](b.md)\n", "a.md": "alpha\n", "b.md": "beta\n"}
	w := newApplyWorld(t, files)
	ix := "- [a](.archive/a.md)\n- [b](.archive/deep/b.md)\n"
	p := model.Proposal{ID: "crash-move", Kind: model.KindArchive, Title: "archive", Changes: []model.Change{
		{Path: ".archive/a.md", From: "a.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("alpha\n"))},
		{Path: ".archive/deep/b.md", From: "b.md", Op: model.OpMove, BaseSHA256: sumHex([]byte("beta\n"))},
		upd("MEMORY.md", files["MEMORY.md"], ix),
	}}
	before := map[string]string{}
	for k, v := range files {
		before[k] = sumHex([]byte(v))
	}
	after := map[string]string{"MEMORY.md": sumHex([]byte(ix)), ".archive": "dir", ".archive/deep": "dir",
		".archive/a.md": sumHex([]byte("alpha\n")), ".archive/deep/b.md": sumHex([]byte("beta\n"))}
	return w, p, before, after
}

// TestCrashMoveLeavesAllOrNothing is TestCrashLeavesAllOrNothing for an
// archive: killed anywhere, the memories are either all at their old
// paths (no archive folder left) or all archived.
func TestCrashMoveLeavesAllOrNothing(t *testing.T) {
	crashEverywhere(t, moveCrashWorld)
}

// state is stateHashes of the world's memory dir, and of its second one
// (a linked transaction's) with its paths under "other/".
func (w *applyWorld) state(t *testing.T) map[string]string {
	got := stateHashes(t, w.dir)
	if w.other != "" {
		for k, v := range stateHashes(t, w.other) {
			got["other/"+k] = v
		}
	}
	return got
}

// partnerUndone: the only notes a recovery of a linked transaction's
// share may leave say that its partner was undone with it.
func partnerUndone(notes []string) bool {
	for _, n := range notes {
		if !strings.Contains(n, "written with this one, was undone too") {
			return false
		}
	}
	return true
}

// crashEverywhere kills a subprocess applying world's proposal at every
// step of the transaction, then at random moments, and checks after
// Recover that the memory dir is exactly as before or exactly as after.
func crashEverywhere(t *testing.T, world func(*testing.T) (*applyWorld, model.Proposal, map[string]string, map[string]string)) {
	outcomes := map[string]int{}
	run := func(at int, randomKill time.Duration) (killed bool, steps []string) {
		w, p, before, after := world(t)
		pj, _ := json.Marshal(p)
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.v")
		cmd.Env = append(os.Environ(), "MEMTUI_CRASH_DIR="+w.dir, "MEMTUI_CRASH_JOURNAL="+w.journal,
			"MEMTUI_CRASH_PROP="+string(pj), "MEMTUI_CRASH_AT="+strconv.Itoa(at))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		var lines []string
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
		reps, err := Recover(w.journal)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if r.Err != nil || len(r.Notes) > 0 && !partnerUndone(r.Notes) {
				t.Errorf("at %d: recover %+v", at, r)
			}
		}
		got := w.state(t)
		switch {
		case maps.Equal(got, before):
			outcomes["rolled back"]++
		case maps.Equal(got, after):
			outcomes["applied"]++
		default:
			t.Errorf("kill at step %d (random %v): neither before nor after: %v\nbefore %v\nafter %v\n%v", at, randomKill, got, before, after, lines)
		}
		if again, _ := Recover(w.journal); len(again) != 0 {
			t.Errorf("second Recover did something: %+v", again)
		}
		return killed, steps
	}
	// The transaction's steps, from a run that is not killed: the process
	// is killed after each of them in turn.
	killed, names := run(0, -1)
	if killed {
		t.Fatal("the helper was killed without being asked")
	}
	steps := 0
	for at := 1; at <= len(names); at++ {
		if killed, _ := run(at, -1); !killed {
			t.Errorf("not killed after step %d (%s)", at, names[at-1])
			continue
		}
		steps++
	}
	if steps < 10 {
		t.Errorf("only %d kill points", steps)
	}
	t.Logf("steps: %s", strings.Join(names, ", "))
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		run(0, time.Duration(rnd.IntN(8000))*time.Microsecond)
	}
	t.Logf("%d kill points at every step, 20 random kills: %v", steps, outcomes)
}
