package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

var longAgo = time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)

func mtime(t *testing.T, p string) time.Time {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// A write from the TUI leaves .consolidate-lock as it was (absent here),
// keeps a tidied file's mtime, and the undo puts back bytes and mtime.
func TestWriteLeavesLockAndMtime(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	path := fileOf(it, it.p.Changes[0].Path)
	// The proposal read the file: its mtime is set before anything reads
	// it again, to the nanosecond.
	os.Chtimes(path, longAgo, longAgo)
	lock := filepath.Join(it.p.MemoryDir, ".consolidate-lock")
	os.Remove(lock)
	orig := readFile(t, path)
	d.keys("a", "w", "y")
	if got := readFile(t, path); got != it.p.Changes[0].After {
		t.Fatalf("not written:\n%s", got)
	}
	if !mtime(t, path).Equal(longAgo) {
		t.Errorf("add-year moved the mtime to %v", mtime(t, path))
	}
	if _, err := os.Lstat(lock); !os.IsNotExist(err) {
		t.Errorf("the write left a lock behind: %v", err)
	}
	d.keys("esc", "L")
	for d.m.journal.selected().ProposalID != it.p.ID {
		d.keys("j")
	}
	d.keys("u", "y")
	if readFile(t, path) != orig || !mtime(t, path).Equal(longAgo) {
		t.Errorf("undo must restore bytes and mtime: %v", mtime(t, path))
	}
}

// m in the write dialog writes and marks the store consolidated: an empty
// lock with mtime now.
func TestWriteAndMarkConsolidated(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	lock := filepath.Join(it.p.MemoryDir, ".consolidate-lock")
	os.WriteFile(lock, []byte("99999999"), 0o644)
	os.Chtimes(lock, longAgo, longAgo)
	d.keys("a", "w")
	if !strings.Contains(d.screen(), "m write and mark the store consolidated") {
		t.Fatalf("the dialog must offer the mark:\n%s", d.screen())
	}
	start := time.Now().Add(-time.Second)
	d.keys("m")
	if b, _ := os.ReadFile(lock); len(b) != 0 || mtime(t, lock).Before(start) {
		t.Errorf("marked lock %q %v", b, mtime(t, lock))
	}
}

// The journal view lists only entries of the directories in view.
func TestJournalScopedToDirsInView(t *testing.T) {
	cfg, _ := reviewConfig(t)
	other := filepath.Join(t.TempDir(), "memory")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "a.md"), []byte("a\n"), 0o644)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	d.selectProposal(sunsetTitle)
	d.keys("a", "w", "y", "esc")
	writeOther(t, cfg.Workspace.State.Journal, other)
	d.keys("L")
	out := d.screen()
	if !strings.Contains(out, "Journal (1)") || strings.Contains(out, other) || strings.Contains(out, "other tree") {
		t.Errorf("the journal must list only the entries in view:\n%s", out)
	}
}

// writeOther applies a change in a memory dir outside the TUI's view.
func writeOther(t *testing.T, journal, dir string) {
	t.Helper()
	sum := sha256.Sum256([]byte("a\n"))
	p := model.Proposal{ID: "x", Kind: model.KindReindex, Title: "other tree", Changes: []model.Change{
		{Path: "a.md", Op: model.OpUpdate, BaseSHA256: hex.EncodeToString(sum[:]), After: "A\n"}}}
	if r := txn.Apply(t.Context(), dir, []model.Proposal{p}, txn.ApplyOptions{JournalRoot: journal}); r[0].Status != txn.StatusApplied {
		t.Fatalf("%+v", r)
	}
}

// Undoing a redaction asks with a dialog that says a credential comes
// back.
func TestUndoOfRedactionNamesTheCredential(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(ciBotTitle)
	path := fileOf(it, it.p.Changes[0].Path)
	redacted := it.p.Changes[0].After
	d.keys("a", "w", "y", "esc", "L")
	for d.m.journal.selected().ProposalID != it.p.ID {
		d.keys("j")
	}
	d.keys("u")
	out := d.screen()
	if !strings.Contains(out, "A credential comes back") || !strings.Contains(out, "puts the redacted secret back") || !strings.Contains(out, "y put the credential back") {
		t.Fatalf("the dialog must name the credential:\n%s", out)
	}
	d.keys("n")
	if readFile(t, path) != redacted {
		t.Fatal("n must keep the redaction")
	}
}

// A memory dir only a repository's own settings named is not written from
// the TUI: the write fails with the reason, the file keeps its bytes.
func TestWorkspaceDirNotWritten(t *testing.T) {
	cfg, _ := reviewConfig(t)
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(sunsetTitle)
	path := fileOf(it, it.p.Changes[0].Path)
	orig := readFile(t, path)
	marked := false
	for _, p := range d.m.scan.Projects {
		for _, md := range p.Dirs {
			if md.Path == it.p.MemoryDir {
				md.Workspace = "/src/cloned/.claude/settings.json"
				marked = true
			}
		}
	}
	if !marked {
		t.Fatal("the proposal's dir is not in the scan")
	}
	d.keys("a", "w", "y")
	out := d.screen()
	if !strings.Contains(out, "1 failed") || !strings.Contains(out, "autoMemoryDirectory") {
		t.Errorf("the write must fail, saying why:\n%s", out)
	}
	if readFile(t, path) != orig {
		t.Error("the workspace-named dir was written")
	}
	if es, _ := txn.List(cfg.Workspace.State.Journal); len(es) != 0 {
		t.Errorf("nothing may be journaled: %+v", es)
	}
}

// After a redaction the TUI's baseline in memory is the scrubbed one from
// disk: marking something seen later cannot save the secret back.
func TestRedactionScrubsTheBaselineInMemory(t *testing.T) {
	cfg, _ := reviewConfig(t)
	cfg.Workspace.State.Seen = t.TempDir()
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	it := d.selectProposal(ciBotTitle)
	c := it.p.Changes[0]
	before := readFile(t, fileOf(it, c.Path))
	if b := d.m.changes.bases[it.p.MemoryDir]; b == nil || b.Files[c.Path].Text != before {
		t.Fatalf("the test needs a baseline holding the secret: %+v", b)
	}
	d.keys("a", "w", "y", "esc")
	if got := d.m.changes.bases[it.p.MemoryDir].Files[c.Path].Text; got != c.After {
		t.Errorf("the baseline in memory still holds the old text:\n%s", got)
	}
	disk, err := memfs.LoadBaseline(cfg.Workspace.State.Seen, it.p.MemoryDir)
	if err != nil || disk.Files[c.Path].Text != c.After {
		t.Errorf("the baseline on disk: %v", err)
	}
}
