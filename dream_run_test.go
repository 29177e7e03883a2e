//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dreamRunTree is a project whose store memtui snapshots (memtui
// snapshot, as its hook would run it), then a Dream run rewrites two
// memories and deletes a third, as Claude Code 2.1.332 leaves it (facts
// 12.2): no transcript of its own, only the .consolidate-lock it took
// (its mtime, the PID in it) and a memory_saved line with verb Improved
// in the main session's transcript; and the main session removes a
// fourth memory with rm -f through Bash (12.4). Then memtui snapshots
// again. It returns the config dir, the memory dir, the environment and
// the texts before.
func dreamRunTree(t *testing.T) (cfg, mem string, e func(string) string, before map[string]string) {
	t.Helper()
	cfg = t.TempDir()
	slug := "-work-shop"
	mem = filepath.Join(cfg, "projects", slug, "memory")
	before = map[string]string{
		"MEMORY.md":          "- [Deploy](feedback_deploy.md) — make ship\n- [Cache](project_cache.md) — cache keys\n- [Old flags](project_old_flags.md) — flags of 2025\n- [Scratch](scratch_notes.md) — notes\n",
		"feedback_deploy.md": "---\nname: deploy\ndescription: make ship\ntype: feedback\n---\n\nDeploy with `make ship`.\nNever `npm run deploy`.\n",
		"project_cache.md":   "---\nname: cache\ndescription: cache keys\ntype: project\n---\n\nCache keys carry the tenant id.\n",
		"project_old_flags.md": "---\nname: old flags\ndescription: flags of 2025\ntype: project\n---\n\n" +
			"The `checkout_v1` flag stays on for the Swiss shop until the VAT change ships.\r\n",
		"scratch_notes.md": "---\nname: scratch\ndescription: notes\ntype: project\n---\n\nTry the new retry policy on staging first.\n",
	}
	for rel, text := range before {
		writeFile(t, filepath.Join(mem, rel), text)
	}
	e = historyEnv(t)
	snapshot := func() {
		t.Helper()
		if code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "snapshot"); code != exitOK || stdout != "" {
			t.Fatalf("snapshot: exit %d, must be quiet: %q %s", code, stdout, stderr)
		}
	}
	snapshot()

	// The session, with the Dream's memory_saved line and the rm -f.
	sid := "3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d"
	// Everything happens between the two snapshots, on the wall clock
	// they are taken by.
	at := time.Now().UTC().Add(5 * time.Millisecond)
	ts := func(d time.Duration) string { return at.Add(d).Format("2006-01-02T15:04:05.000Z") }
	env := `"userType":"external","entrypoint":"cli","cwd":"/work/shop","sessionId":"` + sid + `","version":"2.1.332","gitBranch":"main"`
	abs := func(rel string) string { return filepath.Join(mem, rel) }
	paths, _ := json.Marshal([]string{abs("feedback_deploy.md"), abs("project_cache.md"), abs("project_old_flags.md"), abs("MEMORY.md")})
	rmCmd, _ := json.Marshal("rm -f " + abs("scratch_notes.md"))
	lines := []string{
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"tidy up the scratch notes"},"uuid":"a0000000-0000-4000-8000-000000000001","timestamp":"` + ts(0) + `",` + env + `}`,
		`{"parentUuid":"a0000000-0000-4000-8000-000000000001","isSidechain":false,"message":{"model":"claude-opus-4-8","id":"msg_01Rm","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_01RmScratch","name":"Bash","input":{"command":` + string(rmCmd) + `,"description":"Remove the scratch notes"}}],"stop_reason":"tool_use","stop_sequence":null},"type":"assistant","uuid":"a0000000-0000-4000-8000-000000000002","timestamp":"` + ts(10*time.Millisecond) + `",` + env + `}`,
		`{"parentUuid":"a0000000-0000-4000-8000-000000000002","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01RmScratch","type":"tool_result","content":"(Bash completed with no output)","is_error":false}]},"uuid":"a0000000-0000-4000-8000-000000000003","timestamp":"` + ts(20*time.Millisecond) + `","toolUseResult":{"stdout":"","stderr":"","interrupted":false,"isImage":false},` + env + `}`,
		`{"parentUuid":"a0000000-0000-4000-8000-000000000003","isSidechain":false,"type":"system","subtype":"memory_saved","writtenPaths":` + string(paths) + `,"verb":"Improved","isMeta":false,"level":"info","uuid":"a0000000-0000-4000-8000-000000000004","timestamp":"` + ts(40*time.Millisecond) + `",` + env + `}`,
	}
	writeFile(t, filepath.Join(cfg, "projects", slug, sid+".jsonl"), strings.Join(lines, "\n")+"\n")
	// What the rm and the Dream did on disk, and the lock the Dream took.
	if err := os.Remove(abs("scratch_notes.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, abs("feedback_deploy.md"), "---\nname: deploy\ndescription: make ship\ntype: feedback\n---\n\nDeploy with `make ship`.\n")
	writeFile(t, abs("project_cache.md"), "---\nname: cache\ndescription: cache keys, tenant first\ntype: project\n---\n\nCache keys carry the tenant id first.\n")
	if err := os.Remove(abs("project_old_flags.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, abs("MEMORY.md"), "- [Deploy](feedback_deploy.md) — make ship\n- [Cache](project_cache.md) — cache keys\n")
	lock := abs(".consolidate-lock")
	writeFile(t, lock, "48213")
	if err := os.Chtimes(lock, at.Add(30*time.Millisecond), at.Add(30*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(at.Add(60 * time.Millisecond))) // the second snapshot is after the run
	snapshot()
	return cfg, mem, e, before
}

// TestDreamRunBetweenSnapshots: sessions --json tells the Dream run
// apart from the session it ran in: its rewrites and its deletion, each
// with its text known from the snapshots, and the lock's PID; the rm -f
// is the main session's. lint reports both deleted memories, the Dream's
// from the snapshot; restore-deleted brings both back byte for byte
// (CRLF included), after which lint is clean of them, and undo takes
// them away again.
func TestDreamRunBetweenSnapshots(t *testing.T) {
	cfg, mem, e, before := dreamRunTree(t)
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "sessions", "--json")
	if code != exitOK {
		t.Fatalf("sessions: exit %d %s", code, stderr)
	}
	var got struct {
		Sessions []struct {
			Kind    string `json:"kind"`
			Written []struct {
				File  string `json:"file"`
				Op    string `json:"op"`
				Known bool   `json:"known"`
			} `json:"written"`
			Run *struct {
				LockPID int `json:"lock_pid"`
			} `json:"run"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	ops := map[string]map[string]string{}
	for _, s := range got.Sessions {
		if ops[s.Kind] == nil {
			ops[s.Kind] = map[string]string{}
		}
		for _, w := range s.Written {
			op := w.Op
			if !w.Known {
				op += " (unknown)"
			}
			ops[s.Kind][w.File] = op
		}
		if s.Kind == "dream" && (s.Run == nil || s.Run.LockPID != 48213) {
			t.Errorf("the Dream run's lock: %+v", s.Run)
		}
	}
	want := map[string]map[string]string{
		"dream": {"feedback_deploy.md": "modify", "project_cache.md": "modify", "project_old_flags.md": "delete", "MEMORY.md": "modify"},
		"main":  {"scratch_notes.md": "delete (unknown)"},
	}
	for kind, files := range want {
		for f, op := range files {
			if ops[kind][f] != op {
				t.Errorf("%s %s: %q, want %q (all: %v)", kind, f, ops[kind][f], op, ops)
			}
		}
	}

	lint := func() string {
		_, stdout, _ := runCLI(t, e, "--config-dir", cfg, "lint", "--rule", "memory-deleted")
		return stdout
	}
	out := lint()
	for _, w := range []string{"project_old_flags.md is gone from disk: removed by Claude Code's background consolidation (autoDream)", "memtui's snapshot of",
		"scratch_notes.md is gone from disk: removed by session 3e5a7c9b"} {
		if !strings.Contains(out, w) {
			t.Errorf("lint lacks %q:\n%s", w, out)
		}
	}
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "dream", "--kind", "restore-deleted", "--json")
	var props struct {
		Proposals []struct{ ID string } `json:"proposals"`
	}
	if err := json.Unmarshal([]byte(stdout), &props); err != nil || len(props.Proposals) != 2 {
		t.Fatalf("want two restore-deleted proposals: %v\n%s", err, stdout)
	}
	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "dream", "--kind", "restore-deleted", "--apply", "--yes")
	if code != exitOK || !strings.Contains(stdout, "2 applied") {
		t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"project_old_flags.md", "scratch_notes.md"} {
		if b, err := os.ReadFile(filepath.Join(mem, f)); err != nil || string(b) != before[f] {
			t.Errorf("%s not back byte for byte: %v %q", f, err, b)
		}
	}
	if ix, _ := os.ReadFile(filepath.Join(mem, "MEMORY.md")); !strings.Contains(string(ix), "(project_old_flags.md) — flags of 2025") {
		t.Errorf("the Dream's deleted memory's index entry is not back:\n%s", ix)
	}
	if out := lint(); strings.Contains(out, "gone from disk") {
		t.Errorf("after the restore lint still reports:\n%s", out)
	}
	// Both put an entry back into MEMORY.md: the second (rebuilt over the
	// first's write) is the last entry, undone first.
	for _, ref := range []string{"--last", props.Proposals[0].ID} {
		if code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "undo", ref); code != exitOK {
			t.Fatalf("undo %s: exit %d %s%s", ref, code, stdout, stderr)
		}
	}
	for _, f := range []string{"project_old_flags.md", "scratch_notes.md"} {
		if _, err := os.Stat(filepath.Join(mem, f)); !os.IsNotExist(err) {
			t.Errorf("undo must take %s away again: %v", f, err)
		}
	}
}
