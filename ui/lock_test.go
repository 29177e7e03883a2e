package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtui/memtui/memfs/txn"
)

// While Claude Code holds its consolidation lock the write says so and
// writes nothing; once the lock is gone, y retries and the write goes
// through.
func TestWriteWhileClaudeCodeHoldsTheLock(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	c := it.p.Changes[0]
	path := fileOf(it, c.Path)
	before := readFile(t, path)
	// A live process (this test's parent) holds the lock, written now.
	lock := filepath.Join(it.p.MemoryDir, ".consolidate-lock")
	if err := os.WriteFile(lock, []byte(strconv.Itoa(os.Getppid())), 0o644); err != nil {
		t.Fatal(err)
	}
	d.keys("a", "w", "y")
	out := d.screen()
	if !strings.Contains(out, "Claude Code is consolidating") || !strings.Contains(out, "y retry") {
		t.Fatalf("a held lock must be named, with a retry offered:\n%s", out)
	}
	if readFile(t, path) != before {
		t.Fatal("nothing may be written while Claude Code holds its lock")
	}
	if es, _ := txn.List(cfg.Workspace.State.Journal); len(es) != 0 {
		t.Fatalf("no journal entry may exist: %+v", es)
	}
	// Claude Code finishes: its lock goes; the retry writes.
	os.Remove(lock)
	d.keys("y")
	if got := readFile(t, path); got != c.After {
		t.Errorf("the retry must write the proposal:\n%s", got)
	}
	if out := d.screen(); !strings.Contains(out, "1 applied") {
		t.Errorf("the retry's summary must say applied:\n%s", out)
	}
}
