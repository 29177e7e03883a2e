package dream

import (
	"fmt"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// proposeRestoreDeleted brings back each memory the memory-deleted check
// reported (a silenced finding gets no proposal): created again with its
// last whole text from the transcripts, never over a file of that name,
// and with the index entry it had when the index has none for it now.
func proposeRestoreDeleted(s *dreamState) []model.Proposal {
	files := s.ruleFiles(consolidate.RuleMemoryDeleted)
	if len(files) == 0 {
		return nil
	}
	byFile := map[string]forensics.Deleted{}
	for _, del := range s.deleted {
		byFile[del.File] = del
	}
	var out []model.Proposal
	for _, path := range files {
		del, ok := byFile[path]
		if !ok || s.file(path) != nil {
			continue
		}
		changes := []model.Change{s.create(path, []byte(del.Text))}
		from := "a whole read of it"
		if del.FromHow != "" && del.FromHow != "Read" {
			from = "the " + del.FromHow
		}
		why := fmt.Sprintf("%s is gone from disk, and the transcripts hold its last text whole: %s by session %s at %s. It comes back as that text.",
			path, from, forensics.ShortSession(del.FromSession), del.FromTime.UTC().Format("2006-01-02 15:04 UTC"))
		if del.FromSession == "" {
			// A text memtui kept itself: its snapshot or review baseline.
			why = fmt.Sprintf("%s is gone from disk, and memtui's %s of %s holds its last text whole. It comes back as that text.",
				path, del.FromHow, del.FromTime.UTC().Format("2006-01-02 15:04 UTC"))
		}
		if del.FromHow == "Read" {
			// Read hands the model the file without its \r and BOM
			// (transcripts §7): the words are the file's, the line
			// endings may not be.
			why += " A Read records a file without carriage returns or a byte-order mark, so its line endings may differ from the deleted file's."
		}
		if del.By != nil {
			why += " It was removed by " + forensics.WriterLabel(*del.By, s.p.Log) + "."
		}
		if del.Entry != nil {
			if ix, ok := s.content(model.IndexFileName); ok {
				ed := memindex.NewEditorMode(ix, s.d.Kind.LoadMode())
				if ed.FindRow(path) < 0 {
					if _, err := ed.AddEntry(path, del.Entry.Title, del.Entry.Hook, ed.Len()-1); err == nil {
						changes = append(changes, s.update(model.IndexFileName, ed.Bytes()))
						why += " Its index entry, as the index last had it, goes back at the end of MEMORY.md."
					}
				}
			}
		}
		why += " Nothing is overwritten: a file of that name appearing before the write makes it a conflict."
		out = append(out, s.proposal(model.KindRestoreDeleted, "Restore "+path, why,
			s.fileFindings(path, consolidate.RuleMemoryDeleted), changes))
	}
	return out
}
