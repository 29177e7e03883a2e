package dream

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// The reindex proposer writes MEMORY.md only through memindex.Editor:
// these tests make the same edits with the editor by hand and expect the
// proposal's bytes, so the two cannot drift apart again.

// rxAfter is the MEMORY.md a reindex proposal writes.
func rxAfter(t *testing.T, p model.Proposal) string {
	t.Helper()
	c := rxChange(p, "MEMORY.md")
	if c == nil {
		t.Fatalf("no change to MEMORY.md: %+v", p.Changes)
	}
	return c.After
}

// TestReindexAgreesWithEditorTable: an orphan in a table-style index gets
// a table row, as the editor's add writes it (the proposer used to append
// a bullet under the table).
func TestReindexAgreesWithEditorTable(t *testing.T) {
	index := "# Memories\n\n| File | What it holds |\n|---|---|\n| `a.md` | about a |\n| `b.md` | about b |\n"
	d := rxTestDir(index, testmodel.IndexTopics("a.md", "b.md", "c.md"))
	p := rxOne(t, d)
	got := rxAfter(t, p)

	e := memindex.NewEditor([]byte(index))
	if _, err := e.AddEntry("c.md", "c", "about c", e.FindRow("b.md")); err != nil {
		t.Fatal(err)
	}
	if want := string(e.Bytes()); got != want {
		t.Errorf("proposal:\n%s\neditor:\n%s", got, want)
	}
	if !strings.HasSuffix(got, "| `b.md` | about b |\n| `c.md` | about c |\n") || strings.Contains(got, "- [") {
		t.Errorf("want a table row for c.md:\n%s", got)
	}
	if ix := memindex.Parse([]byte(got)); len(ix.Entries) != 3 || ix.Entries[2].Form != memindex.EntryTable {
		t.Errorf("the new line does not read as a table row: %+v", ix.Entries)
	}
	rxApply(t, d, p)
}

// TestReindexAgreesWithEditorWikilinks: in an index of [[wikilinks]] the
// orphan's entry is a wikilink, the broken entry goes and a broken link in
// a hook becomes text: a removal, an unlink and an add of the editor.
func TestReindexAgreesWithEditorWikilinks(t *testing.T) {
	index := "# Notes\n\n- [[a]] — about a, replaces [old](old.md)\n- [[b|B]] — about b\n- [Gone](gone.md) — y\n- [[c]] — about c\n"
	files := testmodel.IndexTopics("a.md", "b.md", "c.md")
	files = append(files, testmodel.IndexTopic("orphan.md", "Orphan note", "what the orphan holds"))
	d := rxTestDir(index, files)
	p := rxOne(t, d)
	got := rxAfter(t, p)

	e := memindex.NewEditor([]byte(index))
	ix := e.Index()
	if _, err := e.UnlinkRefs([]memindex.Unlink{{Row: e.FindRow("a.md"), Refs: ix.Lines[2].Refs[1:]}}); err != nil {
		t.Fatal(err)
	}
	if err := e.RemoveRows([]int{e.FindRow("gone.md")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.AddEntry("orphan.md", "Orphan note", "what the orphan holds", e.FindRow("c.md")); err != nil {
		t.Fatal(err)
	}
	if want := string(e.Bytes()); got != want {
		t.Errorf("proposal:\n%s\neditor:\n%s", got, want)
	}
	if want := "# Notes\n\n- [[a]] — about a, replaces old\n- [[b|B]] — about b\n- [[c]] — about c\n- [[orphan|Orphan note]] — what the orphan holds\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !rxHasFix(p, consolidate.RuleMemoryOrphan) || !rxHasFix(p, consolidate.RuleIndexBrokenLink) {
		t.Errorf("fixes %v", p.Fixes)
	}
	rxApply(t, d, p)
}

// TestReindexAgreesWithEditorCRLF: a bullet index with CRLF line ends
// stays CRLF through the editor's removal and add, its other lines byte
// for byte (trailing blanks included).
func TestReindexAgreesWithEditorCRLF(t *testing.T) {
	index := "<!-- kept as written -->\r\n# Memory\r\n\r\n- [A](a.md) — x  \r\n- [Gone](gone.md) — y\r\n- [B](b.md) — z\r\n"
	d := rxTestDir(index, testmodel.IndexTopics("a.md", "b.md", "c.md"))
	p := rxOne(t, d)
	got := rxAfter(t, p)

	e := memindex.NewEditor([]byte(index))
	if err := e.RemoveRows([]int{e.FindRow("gone.md")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.AddEntry("c.md", "c", "about c", e.FindRow("b.md")); err != nil {
		t.Fatal(err)
	}
	if want := string(e.Bytes()); got != want {
		t.Errorf("proposal:\n%q\neditor:\n%q", got, want)
	}
	if want := "<!-- kept as written -->\r\n# Memory\r\n\r\n- [A](a.md) — x  \r\n- [B](b.md) — z\r\n- [c](c.md) — about c\r\n"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	rxApply(t, d, p)
}

// TestReindexAgreesWithEditorNearCut: an index of exactly 200 lines loads
// whole; its orphan's entry would push the last one past the cut, so the
// proposal also demotes the oldest entries to the archive: the editor's
// add, demote and the archive's link, in that order, give the same bytes,
// and the result loads whole under 70% of the caps.
func TestReindexAgreesWithEditorNearCut(t *testing.T) {
	entries, files := testmodel.EntryLines(198, "\n")
	index := "# Memory\n\n" + entries
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range files {
		f.ModTime = base.Add(time.Duration(i) * time.Hour) // entry-1 is the oldest
	}
	orphan := testmodel.IndexTopic("orphan.md", "orphan", "the newest memory")
	orphan.ModTime = base.AddDate(0, 1, 0)
	d := rxTestDir(index, append(files, orphan))
	if ld := claude.SimulateLoad(d.Index.Content); ld.Truncated() || ld.LineCount != 200 {
		t.Fatalf("setup: %d lines, cut %v", ld.LineCount, ld.Truncated())
	}
	p := rxOne(t, d)
	got := rxAfter(t, p)
	arch := rxChange(p, "memory-archive.md")
	if arch == nil {
		t.Fatalf("no archive: %+v", p.Changes)
	}
	moved := strings.Count(arch.After, "\n- [Entry ")

	e := memindex.NewEditor([]byte(index))
	if _, err := e.AddEntry("orphan.md", "orphan", "the newest memory", e.Len()-1); err != nil {
		t.Fatal(err)
	}
	var oldest []int
	for i := 1; i <= moved; i++ {
		oldest = append(oldest, e.FindRow(fmt.Sprintf("entry-%d.md", i)))
	}
	body, err := e.DemoteTo(oldest, memindex.Archive{Path: "memory-archive.md", NoLink: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.AddEntries([]memindex.NewEntry{{Path: "memory-archive.md", Title: "Memory archive",
		Hook: "older entries moved out to keep this index loading whole", After: e.Len() - 1, Blank: true}}); err != nil {
		t.Fatal(err)
	}
	if want := string(e.Bytes()); got != want {
		t.Errorf("proposal:\n%s\neditor:\n%s", got, want)
	}
	// The archive holds what the editor's demote moved, as it wrote it.
	list := string(body[strings.Index(string(body), "## Memory"):])
	if !strings.HasSuffix(arch.After, list) {
		t.Errorf("archive:\n%s\nwant it to end with:\n%s", arch.After, list)
	}
	if b := e.Budget(); b.Truncated || b.CutRow >= 0 || b.Lines >= model.IndexTargetLines {
		t.Errorf("the result is cut or over 70%%: %+v", b)
	}
	if !strings.Contains(got, "\n- [orphan](orphan.md) — the newest memory\n") || strings.Contains(got, "(entry-1.md)") {
		t.Errorf("the orphan should be in, the oldest entry out:\n%s", got)
	}
	rxApply(t, d, p)
}
