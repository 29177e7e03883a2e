package memfs

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Rollouts in the shapes of codex facts §6.1, written by hand.

// rolloutLine is one line at second sec of 2026-11-20 09:00 UTC.
func rolloutLine(sec int, typ string, payload any) string {
	ts := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC).Add(time.Duration(sec) * time.Second).Format("2006-01-02T15:04:05.000Z")
	b, _ := json.Marshal(envelope{ts, typ, payload})
	return string(b) + "\n"
}

func rolloutMeta(id, cwd string) string {
	return rolloutLine(0, "session_meta", map[string]any{"id": id, "timestamp": "2026-11-20T09:00:00.000Z", "cwd": cwd, "cli_version": "0.132.0", "source": "cli", "memory_mode": "enabled"})
}

// rolloutExec is an exec_command call running cmd.
func rolloutExec(sec int, id, cmd string) string {
	args, _ := json.Marshal(map[string]any{"cmd": cmd})
	return rolloutLine(sec, "response_item", map[string]any{"type": "function_call", "name": "exec_command", "arguments": string(args), "call_id": id})
}

// rolloutName is where Codex files a thread's rollout.
func rolloutName(day int, id string) string {
	return fmt.Sprintf("2026/11/%02d/rollout-2026-11-%02dT09-00-00-%s.jsonl", day, day, id)
}

const (
	rollThreadA = "0199a1b2-c3d4-7e5f-8a6b-000000000001"
	rollThreadB = "0199a1b2-c3d4-7e5f-8a6b-000000000002"
	rollThreadC = "0199a1b2-c3d4-7e5f-8a6b-000000000003"
)

// TestReadCodexRollouts: rollouts under sessions/ (dated folders) and
// archived_sessions/ are read, newest first; a compressed one is a
// problem; a line too long is skipped with a problem and the lines
// after it are read; a file over the cap is read up to it.
func TestReadCodexRollouts(t *testing.T) {
	home := t.TempDir()
	long := rolloutLine(2, "response_item", map[string]any{"type": "function_call_output", "call_id": "x", "output": strings.Repeat("z", 5000)})
	testfs.WriteAll(t, filepath.Join(home, CodexSessionsDir), map[string]string{
		rolloutName(20, rollThreadA): rolloutMeta(rollThreadA, "/home/dev/shop") + rolloutExec(1, "call_1", "cat ~/.codex/memories/MEMORY.md") + long + rolloutExec(3, "call_2", "rg x ~/.codex/memories/skills/"),
		rolloutName(19, rollThreadB): rolloutMeta(rollThreadB, "/home/dev/blog") + rolloutLine(1, "response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "hi"}}}),
		"2026/11/19/notes.txt":       "not a rollout\n",
		"2026/11/18/rollout-2026-11-18T09-00-00-" + rollThreadC + ".jsonl.zst": "\x28\xb5\x2f\xfd",
	})
	testfs.WriteAll(t, filepath.Join(home, CodexArchivedDir), map[string]string{
		"rollout-2026-10-01T09-00-00-" + rollThreadC + ".jsonl": rolloutMeta(rollThreadC, "/home/dev/old") + rolloutExec(1, "c", "cat $CODEX_HOME/memories/memory_summary.md") + strings.Repeat(strings.Repeat("x", 249)+"\n", 28) + rolloutExec(2, "d", "cat ~/.codex/memories/MEMORY.md"),
	})
	got, err := ReadCodexRollouts(context.Background(), home, CodexRolloutLimits{MaxLine: 4096, MaxFileBytes: 6000})
	if err != nil {
		t.Fatal(err)
	}
	if got.Found != 3 || len(got.Rollouts) != 3 {
		t.Fatalf("found %d, read %d", got.Found, len(got.Rollouts))
	}
	var ids []string
	for _, r := range got.Rollouts {
		ids = append(ids, r.ThreadID)
	}
	if strings.Join(ids, " ") != rollThreadA+" "+rollThreadB+" "+rollThreadC {
		t.Errorf("order %q, want the newest first", ids)
	}
	a := got.Rollouts[0]
	if len(a.Reads) != 2 || a.Reads[0].Path != "MEMORY.md" || a.Reads[1].Path != "skills" {
		t.Errorf("A's reads: %+v", a.Reads)
	}
	if len(a.Problems) != 1 || !strings.Contains(a.Problems[0], "line 3 is 5.0 KiB") {
		t.Errorf("A's problems: %q", a.Problems)
	}
	c := got.Rollouts[2]
	if len(c.Reads) != 1 || c.Reads[0].Path != codex.SummaryFile {
		t.Errorf("C (archived, cut at 6,000 bytes): %+v", c.Reads)
	}
	msgs := problemText(got.Problems)
	for _, want := range []string{"jsonl.zst: compressed (zstd", "rollout-2026-10-01T09-00-00-" + rollThreadC + ".jsonl: 7.5 KiB; memtui read its first 5.9 KiB"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("problems lack %q:\n%s", want, msgs)
		}
	}
}

func problemText(ps []model.TranscriptProblem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Transcript + ": " + p.Message + "\n")
	}
	return b.String()
}

// TestReadCodexRolloutsBounds: past MaxFiles the oldest are left out,
// past MaxTotalBytes too, each with a problem; a cancelled read returns
// the context's error.
func TestReadCodexRolloutsBounds(t *testing.T) {
	home := t.TempDir()
	files := map[string]string{}
	for day := 1; day <= 5; day++ {
		id := fmt.Sprintf("0199a1b2-c3d4-7e5f-8a6b-%012d", day)
		files[rolloutName(day, id)] = rolloutMeta(id, "/w") + strings.Repeat(rolloutExec(1, "c", "ls /tmp"), 10)
	}
	testfs.WriteAll(t, filepath.Join(home, CodexSessionsDir), files)
	got, err := ReadCodexRollouts(context.Background(), home, CodexRolloutLimits{MaxFiles: 3})
	if err != nil || len(got.Rollouts) != 3 || got.Found != 5 || !strings.Contains(problemText(got.Problems), "2 older rollouts not read (memtui reads the newest 3)") {
		t.Errorf("MaxFiles: %v, %d read, %+v", err, len(got.Rollouts), got.Problems)
	}
	if got.Rollouts[0].ThreadID != "0199a1b2-c3d4-7e5f-8a6b-000000000005" {
		t.Errorf("the newest is not first: %s", got.Rollouts[0].ThreadID)
	}
	size := int64(len(files[rolloutName(1, "0199a1b2-c3d4-7e5f-8a6b-000000000001")]))
	got, _ = ReadCodexRollouts(context.Background(), home, CodexRolloutLimits{MaxTotalBytes: 2*size + 10, Workers: 1})
	if len(got.Rollouts) != 2 || !strings.Contains(problemText(got.Problems), "3 older rollouts not read: the newer ones reach") {
		t.Errorf("MaxTotalBytes: %d read, %+v", len(got.Rollouts), got.Problems)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadCodexRollouts(ctx, home, CodexRolloutLimits{}); err == nil {
		t.Error("a cancelled read returned no error")
	}
}

// BenchmarkReadCodexRollouts reads 200 rollouts of about 1 MB each, of
// which 10 name the memory store (the rest are ordinary sessions: user
// turns, commands and their output, reasoning).
func BenchmarkReadCodexRollouts(b *testing.B) {
	home := b.TempDir()
	var total int64
	for i := 0; i < 200; i++ {
		id := fmt.Sprintf("0199a1b2-c3d4-7e5f-8a6b-%012d", i)
		var sb strings.Builder
		sb.WriteString(rolloutMeta(id, "/home/dev/shop"))
		sec := 1
		for sb.Len() < 1<<20 {
			sb.WriteString(rolloutLine(sec, "turn_context", map[string]any{"cwd": "/home/dev/shop", "model": "gpt-5"}))
			sb.WriteString(rolloutLine(sec, "response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "fix the failing test in the payments package, then run the suite"}}}))
			sb.WriteString(rolloutExec(sec, fmt.Sprintf("call_%d", sec), "go test ./payments/... -run TestRefund"))
			sb.WriteString(rolloutLine(sec, "response_item", map[string]any{"type": "function_call_output", "call_id": fmt.Sprintf("call_%d", sec), "output": "Process exited with code 0\nOutput:\n" + strings.Repeat("ok  \tgithub.com/acme/shop/payments\t0.412s\n", 80)}))
			sb.WriteString(rolloutLine(sec, "response_item", map[string]any{"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": strings.Repeat("The refund path rounds twice; the fix is to round once at the end. ", 20)}}}))
			if i%20 == 0 && sec%50 == 0 {
				sb.WriteString(rolloutExec(sec, "m", "rg -n refund ~/.codex/memories/MEMORY.md"))
			}
			sec++
		}
		testfs.Write(b, filepath.Join(home, CodexSessionsDir, rolloutName(1+i%28, id)), sb.String())
		total += int64(sb.Len())
	}
	b.SetBytes(total)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		got, err := ReadCodexRollouts(context.Background(), home, CodexRolloutLimits{})
		if err != nil || len(got.Rollouts) != 200 {
			b.Fatalf("%v: %d rollouts", err, len(got.Rollouts))
		}
	}
}

// envelope is a rollout line's fields in the order Codex writes them.
type envelope struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   any    `json:"payload"`
}
