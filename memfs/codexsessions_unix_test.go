//go:build unix

package memfs

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
)

// TestReadCodexRolloutsHostile: a FIFO named as a rollout is refused
// without waiting for a writer; a symlinked rollout, a symlinked dated
// folder and a symlinked sessions/ are not followed (what they lead to
// is never read); each is a problem.
func TestReadCodexRolloutsHostile(t *testing.T) {
	outside := t.TempDir()
	secret := testfs.Write(t, filepath.Join(outside, "rollout-2026-11-20T10-00-00-"+rollThreadB+".jsonl"),
		rolloutMeta(rollThreadB, "/outside")+rolloutExec(1, "c", "cat ~/.codex/memories/MEMORY.md"))

	home := t.TempDir()
	sessions := filepath.Join(home, CodexSessionsDir)
	testfs.Write(t, filepath.Join(sessions, rolloutName(20, rollThreadA)), rolloutMeta(rollThreadA, "/home/dev/shop"))
	testfs.Mkfifo(t, filepath.Join(sessions, "2026/11/20/rollout-2026-11-20T11-00-00-"+rollThreadC+".jsonl"))
	testfs.Symlink(t, secret, filepath.Join(sessions, "2026/11/20/rollout-2026-11-20T12-00-00-"+rollThreadB+".jsonl"))
	testfs.Symlink(t, outside, filepath.Join(sessions, "2026/11/21"))
	// A second home whose sessions/ is itself a link.
	linked := t.TempDir()
	testfs.Symlink(t, outside, filepath.Join(linked, CodexSessionsDir))

	var got, other *CodexRollouts
	testfs.ReturnsIn(t, "ReadCodexRollouts over a FIFO and links", func() {
		got, _ = ReadCodexRollouts(context.Background(), home, CodexRolloutLimits{})
		other, _ = ReadCodexRollouts(context.Background(), linked, CodexRolloutLimits{})
	})
	if len(got.Rollouts) != 1 || got.Rollouts[0].ThreadID != rollThreadA {
		t.Fatalf("rollouts: %+v", got.Rollouts)
	}
	msgs := problemText(got.Problems)
	for _, want := range []string{rollThreadC + ".jsonl: a named pipe, not a regular file; not read", rollThreadB + ".jsonl: a symlink; not followed", "2026/11/21: a symlink; not followed"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("problems lack %q:\n%s", want, msgs)
		}
	}
	if len(other.Rollouts) != 0 || !strings.Contains(problemText(other.Problems), "sessions: a symlink; not followed") {
		t.Errorf("a linked sessions/: %d rollouts, %+v", len(other.Rollouts), other.Problems)
	}
	for _, r := range append(got.Rollouts, other.Rollouts...) {
		if r.ThreadID == rollThreadB || len(r.Reads) > 0 {
			t.Errorf("a rollout behind a link was read: %+v", r)
		}
	}
}
