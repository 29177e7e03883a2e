package forensics

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// TestDeletedMemories: a memory written whole and then removed comes back
// with its last text (an Edit on top of it included) and who removed it,
// and with the index entry it had; one whose last text a shell write left
// unknown, one memtui deleted, one merged into another and one still on
// disk do not.
func TestDeletedMemories(t *testing.T) {
	note := "---\nname: note\ndescription: A note\ntype: project\n---\n\nShip on Friday.\n"
	merged := "---\nname: merged\ndescription: Merged\ntype: project\n---\n\nThe API freezes in December.\n"
	d := &model.MemoryDir{Path: "/m", Kind: model.DirAuto, Index: &model.File{Path: "MEMORY.md"}, Files: []*model.File{
		{Path: "kept.md", Content: []byte("---\nname: kept\n---\n\nThe API freezes in December.\nAnd more.\n")},
	}}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	rm := model.MemWrite{Path: "/m/note.md", Kind: model.WriteShell, Session: "s2", Time: at(5), Command: "rm note.md", Deleted: true}
	log := &model.TranscriptLog{Writes: []model.MemWrite{
		{Path: "/m/note.md", Kind: model.WriteFull, Session: "s1", Time: at(1), Created: true, HasBefore: true, HasAfter: true, After: note},
		{Path: "/m/MEMORY.md", Kind: model.WriteFull, Session: "s1", Time: at(2), HasAfter: true, After: "# Memory\n\n- [Note](note.md) — ship date\n"},
		{Path: "/m/note.md", Kind: model.WriteEdit, Session: "s1", Time: at(3), Edits: []model.TextEdit{{Old: "Friday", New: "Monday"}}},
		rm,
		{Path: "/m/scratch.md", Kind: model.WriteFull, Session: "s1", Time: at(1), HasAfter: true, After: "draft\n", Created: true},
		{Path: "/m/scratch.md", Kind: model.WriteShell, Session: "s1", Time: at(2), Command: "echo more >> scratch.md"},
		{Path: "/m/scratch.md", Kind: model.WriteShell, Session: "s1", Time: at(3), Command: "rm scratch.md", Deleted: true},
		{Path: "/m/pruned.md", Kind: model.WriteFull, Session: "s1", Time: at(1), HasAfter: true, After: "x\n", Created: true},
		{Path: "/m/pruned.md", Kind: model.WriteMemtui, Time: at(4), HasAfter: true, After: ""},
		{Path: "/m/merged.md", Kind: model.WriteFull, Session: "s1", Time: at(1), HasAfter: true, After: merged, Created: true},
		{Path: "/m/merged.md", Kind: model.WriteShell, Session: "s1", Time: at(6), Command: "rm merged.md", Deleted: true},
		{Path: "/m/kept.md", Kind: model.WriteFull, Session: "s1", Time: at(1), HasAfter: true, After: "old\n"},
	}}
	ds := DeletedMemories(d, log)
	if len(ds) != 1 || ds[0].File != "note.md" {
		t.Fatalf("deleted: %+v, want note.md alone", ds)
	}
	del := ds[0]
	if want := "---\nname: note\ndescription: A note\ntype: project\n---\n\nShip on Monday.\n"; del.Text != want {
		t.Errorf("its last text is the Edit's result:\n%q", del.Text)
	}
	if del.By == nil || del.By.Session != "s2" || del.FromHow != "Edit" || del.FromSession != "s1" {
		t.Errorf("who removed it, where its text comes from: by %+v, from %s %s", del.By, del.FromSession, del.FromHow)
	}
	if del.Entry == nil || del.Entry.Title != "Note" || del.Entry.Hook != "ship date" {
		t.Errorf("the entry the index had: %+v", del.Entry)
	}
	// A whole read after an unknown change makes the text known again.
	log.Observations = []model.MemObservation{{Path: "/m/scratch.md", Kind: model.ObsRead, Session: "s3", Time: at(2).Add(30 * time.Second), Content: "draft\nmore\n", Full: true}}
	ds = DeletedMemories(d, log)
	if len(ds) != 2 || ds[1].File != "scratch.md" || ds[1].Text != "draft\nmore\n" || ds[1].FromHow != "Read" {
		t.Errorf("a whole read of it before its removal: %+v", ds)
	}
}

// TestDeletedFromKeptTexts: memtui's own snapshot is a record of a
// deleted memory too. A Dream run that lists the file between when the
// snapshot saw it and when the next saw it gone is who removed it; a
// shell write after the snapshot makes its text not the last (no
// restore); a text folded into another file is not deleted; a later
// whole text in the transcripts wins over an older kept one.
func TestDeletedFromKeptTexts(t *testing.T) {
	seen := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	gone := seen.Add(time.Hour)
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true, Files: []*model.File{
		{Path: "keep.md", Content: []byte("---\nname: keep\n---\n\nFolded line one.\nFolded line two.\n")},
	}}
	ix := "- [Dreamed away](dreamed.md) — a memory Dream removed\n"
	d.Kept = []model.KeptText{
		{Path: "dreamed.md", Text: "---\nname: dreamed\n---\n\nUse the staging bucket for uploads.\n", Source: "snapshot", Seen: seen, Gone: gone, Index: ix},
		{Path: "shelled.md", Text: "---\nname: shelled\n---\n\nOld words.\n", Source: "snapshot", Seen: seen, Gone: gone},
		{Path: "folded.md", Text: "---\nname: folded\n---\n\nFolded line one.\nFolded line two.\n", Source: "snapshot", Seen: seen, Gone: gone},
		{Path: "later.md", Text: "---\nname: later\n---\n\nOlder text.\n", Source: "review baseline", Seen: seen},
		{Path: "keep.md", Text: "on disk", Source: "snapshot", Seen: seen},
	}
	main := "7c1e0a2b-3d4f-4a5b-8c6d-7e8f9a0b1c2d"
	log := &model.TranscriptLog{Writes: []model.MemWrite{
		{Path: d.Path + "/dreamed.md", Kind: model.WriteFork, Verb: "Improved", Session: main, Time: seen.Add(30 * time.Minute)},
		{Path: d.Path + "/shelled.md", Kind: model.WriteShell, Session: main, Time: seen.Add(10 * time.Minute), Command: "sed -i s/Old/New/ shelled.md"},
		{Path: d.Path + "/shelled.md", Kind: model.WriteShell, Session: main, Time: seen.Add(20 * time.Minute), Deleted: true, Command: "rm -f shelled.md"},
		{Path: d.Path + "/later.md", Kind: model.WriteFull, Session: main, Time: seen.Add(5 * time.Minute), HasAfter: true, After: "---\nname: later\n---\n\nNewer text.\n", Created: true, HasBefore: true},
		{Path: d.Path + "/later.md", Kind: model.WriteShell, Session: main, Time: seen.Add(6 * time.Minute), Deleted: true, Command: "rm later.md"},
	}}
	got := map[string]Deleted{}
	for _, del := range DeletedMemories(d, log) {
		got[del.File] = del
	}
	dr, ok := got["dreamed.md"]
	if !ok || dr.FromHow != "snapshot" || dr.By == nil || dr.By.Kind != model.WriteFork || dr.Entry == nil || dr.Entry.Title != "Dreamed away" {
		t.Errorf("dreamed.md: %+v (ok %v)", dr, ok)
	}
	for _, no := range []string{"shelled.md", "folded.md", "keep.md"} {
		if _, ok := got[no]; ok {
			t.Errorf("%s must not be offered: %+v", no, got[no])
		}
	}
	if l, ok := got["later.md"]; !ok || !strings.Contains(l.Text, "Newer text.") || l.FromHow != "Write" {
		t.Errorf("later.md: the transcripts' later text must win: %+v", l)
	}
}
